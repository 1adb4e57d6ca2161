"""What a reviewer reads first: the reading order of findings and a report's summary counts.

:func:`attention_rank` is the sort key every report writer and :func:`citeproof.pipeline.check` use;
:func:`summarise` is the ``summary`` block of the JSON report, the text summary and the web page's job record.
Reads :mod:`citeproof.model` only; :mod:`citeproof.pipeline` re-exports both names.
"""

from __future__ import annotations

from collections import Counter

from citeproof.model import Finding, Verdict

__all__ = ["BANDS", "attention_rank", "difference_named", "summarise"]


BANDS: dict[Verdict, int] = {
    Verdict.CONTRADICTED: 0,
    Verdict.UNSUPPORTED: 1,
    Verdict.PARTIAL: 2,
    Verdict.ERROR: 3,
    Verdict.UNVERIFIABLE: 4,
    Verdict.SUPPORTED: 5,
}
"""Reading order of verdicts: what most deserves a human's eyes comes first."""


def difference_named(f: Finding) -> bool:
    """A *partial* finding on which a detector named a difference it could not prove (a tag of
    :data:`~citeproof.detectors.DOWNGRADING_TAGS` at :data:`~citeproof.detectors.DOWNGRADE_THRESHOLD` or more: "the
    claim says 'CDK-like' where the source says 'STE11-like'", a hedge or a cause the source does not state), as
    against one whose words were found while the judge was not sure of the meaning. Every new users' round asked for
    the two to be told apart (on new users' trials 103-126, 128 false claims and 79 faithful paraphrases ended
    *partial* naming a difference, 36 and 75 without one)."""
    from citeproof.detectors import DOWNGRADE_THRESHOLD, DOWNGRADING_TAGS

    return f.verdict == Verdict.PARTIAL and any(t.name in DOWNGRADING_TAGS and t.confidence >= DOWNGRADE_THRESHOLD
                                                for t in f.tags)


def attention_rank(f: Finding) -> tuple:
    """Sort key putting the findings most worth a human's attention first.

    Unknown citekeys lead (a broken reference is certain to need a fix),
    then contradicted, unsupported, partial, error, unverifiable, supported;
    an unsupported or partial ``naming_citation`` comes after the partial
    band and a ``not_a_claim`` unit (a table row of names and identifiers: kept, not ranked among problems) after all others;
    tagged (or ``needs_review``) findings before the others in the same band; within a band, the
    more confident verdict first, then document order.
    """
    band = -1 if "unknown_citekey" in f.flags or any(t.name == "retracted_source" for t in f.tags) else BANDS[f.verdict]
    if band >= 0 and "not_a_claim" in f.flags:
        band = BANDS[Verdict.SUPPORTED] + 0.5  # names and identifiers only: nothing was claimed
    elif band >= 0 and "naming_citation" in f.flags and f.verdict in (Verdict.UNSUPPORTED, Verdict.PARTIAL):
        band = BANDS[Verdict.ERROR] - 0.5  # the marker may name a work, not vouch for the whole sentence
    return (band, 0 if f.tags or "needs_review" in f.flags else 1, -f.confidence if f.verdict != Verdict.SUPPORTED else f.score, f.claim.line, f.citation.column)


def summarise(findings: list[Finding]) -> dict:
    """Summary counts for a report.

    Returns:
        ``{"citations", "claims", "citekeys", "verdicts": {verdict: n},
        "unknown_citekeys": [...], "sources_available", "sources_missing",
        "coverage", "overall_confidence", "not_a_claim": {verdict: n}}`` where ``coverage`` is the share of
        citation occurrences whose source was readable,
        ``overall_confidence`` the mean of the findings' confidence (0 to 1), and ``not_a_claim`` how many of
        each verdict's findings are rows that hold no claim (counted in ``verdicts``, never failing a gate), and
        ``partial_named`` how many *partial* findings name a difference (:func:`difference_named`).
    """
    verdicts = Counter(f.verdict.value for f in findings)
    nac = Counter(f.verdict.value for f in findings if "not_a_claim" in f.flags)
    keys = {f.citation.citekey for f in findings}
    unknown = sorted({f.citation.citekey for f in findings if "unknown_citekey" in f.flags})
    avail = sorted({f.citation.citekey for f in findings if f.source is not None and f.source.usable})
    readable = sum(1 for f in findings if f.source is not None and f.source.usable)
    return {
        "citations": len(findings),
        "claims": len({f.claim.id for f in findings}),
        "citekeys": len(keys),
        "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        "unknown_citekeys": unknown,
        "sources_available": len(avail),
        "sources_missing": len(keys) - len(avail) - len(unknown),
        "coverage": round(readable / len(findings), 4) if findings else 0.0,
        "overall_confidence": round(sum(f.confidence for f in findings) / len(findings), 4) if findings else 0.0,
        "not_a_claim": {v.value: nac.get(v.value, 0) for v in Verdict},
        "partial_named": sum(1 for f in findings if difference_named(f)),
        **_llm_summary(findings),
    }


def _llm_summary(findings: list[Finding]) -> dict:
    """``{"llm": {"prompt_tokens", "completion_tokens", "cost", "decided"}}`` when the LLM tier ran, else ``{}``."""
    recs = [f.llm for f in findings if f.llm]
    if not recs:
        return {}
    return {"llm": {
        "prompt_tokens": sum(r.get("prompt_tokens", 0) for r in recs),
        "completion_tokens": sum(r.get("completion_tokens", 0) for r in recs),
        "cost": round(sum(r.get("cost", 0.0) for r in recs), 6),
        "decided": sum(1 for f in findings if f.llm and f.tier.value == "llm"),
    }}
