"""What every report opens on, said the same way by each writer (terminal, Markdown, HTML, the ``--fail-on`` line).

* :func:`verdict_rows`: the count per verdict with "of which N not a claim" (rows of a table of names
  carry a verdict but are never ranked among problems nor fail a gate), from
  :func:`citeproof.triage.summarise`.
* :func:`no_source_box`: when most cited works have no readable source, one box saying how many, why
  (the reasons, grouped by their first clause) and the three ways out, instead of one group per work
  repeating the same words.
* :func:`worth_a_look` and :func:`finding_line`: the findings worth a human's look, worst first, one
  line each as ruff and pytest print theirs (``draft.md:447: unsupported [@key] off_topic - The preprint
  was...``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from citeproof.model import Finding, Report

__all__ = ["VERDICT_ORDER", "verdict_rows", "count_text", "named_note", "no_source_box", "worth_a_look", "finding_line", "MOST_WITHOUT_SOURCE"]

VERDICT_ORDER = ("contradicted", "unsupported", "partial", "error", "unverifiable", "supported")
"""Verdicts worst first, the order of every summary."""

MOST_WITHOUT_SOURCE = 0.5
"""The box opens the report when more than this share of the cited works (distinct citekeys, unknown ones
aside) has no readable source: the demo, 94 of 101."""

_WORTH = {"contradicted", "unsupported", "partial", "error"}


def verdict_rows(summary: dict[str, Any]) -> list[tuple[str, int, int]]:
    """``(verdict, findings, of which not a claim)`` worst first, from a :func:`~citeproof.triage.summarise` dict."""
    nac = summary.get("not_a_claim") or {}
    return [(v, summary["verdicts"].get(v, 0), nac.get(v, 0)) for v in VERDICT_ORDER]


def count_text(n: int, not_a_claim: int) -> str:
    """``4 (of which 1 not a claim)``, or ``4``."""
    return f"{n} (of which {not_a_claim} not a claim)" if not_a_claim else str(n)


def named_note(verdict: str, summary: dict[str, Any]) -> str:
    """`` (7 name a difference)`` after the *partial* count when some partial findings carry a detector's tag
    (:func:`citeproof.triage.difference_named`), else ``""``: every writer says the split the same way."""
    n = summary.get("partial_named") or 0
    return f" ({n} name{'s' if n == 1 else ''} a difference)" if verdict == "partial" and n else ""


def _why(reason: str) -> str:
    """A reason's first clause: what several works share (``no local source: the bibliography entry has no file field...``)."""
    return reason.split(";", 1)[0].split(" (", 1)[0].strip()


def no_source_box(report: Report, document: str | None = None) -> dict[str, Any] | None:
    """The box that opens a report most of whose works have no source, or None.

    Args:
        report: the report.
        document: the document as shown in the commands (default ``report.document``).

    Returns:
        ``{"missing": works without a readable source, "works": cited works (unknown citekeys aside),
        "citations": their citations, "reasons": [(first clause of the reason, works)], most works first,
        "ways": [(command or option, what it does)]}`` when more than :data:`MOST_WITHOUT_SOURCE` of the works
        have no readable source; None otherwise.
    """
    doc = document or report.document
    by_key: dict[str, Finding] = {}
    cites: Counter = Counter()
    for f in report.findings:
        if "unknown_citekey" in f.flags:
            continue
        by_key.setdefault(f.citation.citekey, f)
        if f.source is None or not f.source.usable:
            cites[f.citation.citekey] += 1
    missing = {k: f for k, f in by_key.items() if f.source is None or not f.source.usable}
    if not by_key or len(missing) <= MOST_WITHOUT_SOURCE * len(by_key):
        return None
    reasons = Counter(_why(f.reasons[0]) if f.reasons else "no reason given" for f in missing.values())
    bib = " ".join(f"--bib {b}" for b in report.metadata.get("bibliographies", [])[:2])
    ways = [(f"citeproof audit {doc}{' ' + bib if bib else ''}", "lists them, with what each entry lacks")]
    if "online" not in report.metadata:  # a way the run already took is no advice (a new user's report, issue 30)
        ways.append(("--online", "fetches each one's open-access full text (sends each work's identifiers, title, first "
                                 "author and year to the scholarly APIs, never your text)"))
    if report.metadata.get("source_dirs"):
        ways.append(("name the files after the citekeys", "in the --sources folder (<citekey>.pdf, .md ...), or attach the "
                     "PDFs to the entries (in Zotero, or the .bib's file field)"))
    else:
        ways.append(("--sources DIR", "a folder of PDFs named <citekey>.pdf or matched by DOI; or attach the PDFs to the "
                     "entries (in Zotero, or the .bib's file field)"))
    return {
        "missing": len(missing),
        "works": len(by_key),
        "citations": sum(cites.values()),
        "reasons": reasons.most_common(),
        "ways": ways,
    }


def worth_a_look(report: Report) -> list[Finding]:
    """The findings worth a human's look, in report order (worst first): unknown citekeys, contradicted,
    unsupported, partial and errors; rows that hold no claim and dismissed findings left out."""
    from citeproof.reports.review import dismissed

    return [f for f in report.findings
            if ("unknown_citekey" in f.flags or f.verdict.value in _WORTH) and "not_a_claim" not in f.flags and not dismissed(report, f)]


def finding_line(f: Finding, words: int = 16) -> str:
    """One finding as ``draft.md:447:12: contradicted [@key] polarity_flip - <first words of the claim> (claim
    'delayed', source 'accelerated')``.

    The tags (or, without one, the flags worth naming) follow the citekey; the location is
    :meth:`~citeproof.model.Finding.location` (line and column; a citing PDF's page, ``paper.pdf:p3``). The claim's
    first ``words`` words follow (sixteen: new users of trials 87-90 could not tell their sentences apart by eight);
    where a tag proven by code decided, the words it read as changed close the line.
    """
    where = f.location()
    what = "unknown citekey" if "unknown_citekey" in f.flags else f.verdict.value
    marks = [t.name for t in f.tags] or [x for x in f.flags if x in ("metadata_mismatch", "needs_review", "ocr_evidence")]
    text = " ".join((f.claim.text or f.claim.raw).split())
    first = " ".join(text.split()[:words]) + (" ..." if len(text.split()) > words else "")
    shown = next((t.evidence[0] for t in f.tags if t.proven and t.evidence and t.evidence[0].claim_span
                  and t.evidence[0].evidence_span), None)
    diff = f" (claim '{shown.claim_span}', source '{shown.evidence_span}')" if shown is not None else ""
    return f"{where}: {what} [@{f.citation.citekey}]" + (f" {','.join(marks)}" if marks else "") + f" - {first}{diff}"
