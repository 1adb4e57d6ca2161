"""Failure-mode detectors: small pure functions over (claim, best evidence, source).

Each ``detect_xxx(claim_text, evidence_text, **context) -> list[Tag]`` looks
for one kind of problem and returns tags whose :class:`~citeproof.model.TagEvidence`
spans show what triggered it. :func:`run_detectors` runs them all for one
finding; the pipeline calls it after the judge and then
:func:`should_downgrade` to decide whether a ``supported`` verdict becomes
``partial``.

Downgrade rule (documented contract for the pipeline):

* a tag downgrades ``supported`` to ``partial`` when its name is in
  :data:`DOWNGRADING_TAGS` and its confidence is at least
  :data:`DOWNGRADE_THRESHOLD` (0.6);
* ``off_topic`` at that confidence means the evidence is no better than the
  source's typical passage: the pipeline should treat the claim as not
  supported (``partial`` at best);
* ``secondary_citation``, ``comparison_claim`` and ``joint_citation`` never
  downgrade: they explain *why* a source cannot confirm a claim (the pipeline
  should add the ``needs_review`` flag and say so instead of calling the
  claim unsupported);
* ``borrowed_wording`` (a long unquoted run of the source's words) is
  reported and changes nothing;
* low-confidence tags (e.g. ``hedge_removed`` at 0.4 when only the evidence
  hedges) are reported but never downgrade.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citeproof.text.abbreviations import as_the_source_writes
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import focus_evidence, overlap_score
from citeproof.detectors.attribution import detect_comparison_claim, detect_secondary_citation
from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.joint import detect_joint_citation
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.offtopic import detect_off_topic
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quotes import detect_borrowed_wording, detect_misquotation
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.shares import detect_share_drift
from citeproof.detectors.significance import detect_significance_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.model import Claim, Evidence, Source, Tag

__all__ = [
    "DETECTORS",
    "DOWNGRADE_THRESHOLD",
    "DOWNGRADING_TAGS",
    "INFORMATIONAL_TAGS",
    "detect_borrowed_wording",
    "detect_causal_overclaim",
    "detect_comparison_claim",
    "detect_hedge_removed",
    "detect_joint_citation",
    "detect_misquotation",
    "detect_number_drift",
    "detect_off_topic",
    "detect_polarity_flip",
    "detect_scope_inflation",
    "detect_share_drift",
    "detect_secondary_citation",
    "detect_significance_inflation",
    "detect_term_swap",
    "run_detectors",
    "run_detectors_text",
    "should_downgrade",
]

DOWNGRADE_THRESHOLD = 0.6
"""Least confidence for a tag in :data:`DOWNGRADING_TAGS` to turn ``supported`` into ``partial``."""

DOWNGRADING_TAGS = frozenset({
    "number_drift", "scope_inflation", "hedge_removed", "causal_overclaim", "significance_inflation",
    "polarity_flip", "off_topic", "misquotation", "term_swap",
})
"""Tags that, confident enough, mean the evidence does not fully support the claim."""

FOCUS_SENTENCES = 2
"""The per-pair detectors see the best passage's this many sentences closest to the claim
(:func:`citeproof.text.stems.focus_evidence`); 0 gives them the whole passage."""

INFORMATIONAL_TAGS = frozenset({"secondary_citation", "comparison_claim", "joint_citation"})
"""Tags that explain a finding (add ``needs_review``) but never change the verdict."""

DETECTORS = (
    detect_number_drift,
    detect_share_drift,
    detect_term_swap,
    detect_scope_inflation,
    detect_hedge_removed,
    detect_causal_overclaim,
    detect_significance_inflation,
    detect_polarity_flip,
    detect_secondary_citation,
    detect_comparison_claim,
    detect_misquotation,
    detect_borrowed_wording,
)
"""The per-pair detectors :func:`run_detectors_text` runs, in order (``off_topic`` and ``joint_citation``
take extra inputs and are called separately)."""


def should_downgrade(tags: Iterable[Tag], threshold: float = DOWNGRADE_THRESHOLD) -> bool:
    """Whether these tags turn a ``supported`` verdict into ``partial``.

    Args:
        tags: the tags of one finding.
        threshold: least confidence that counts (default :data:`DOWNGRADE_THRESHOLD`).

    Returns:
        True when any tag named in :data:`DOWNGRADING_TAGS` has ``confidence >= threshold``.
    """
    return any(t.name in DOWNGRADING_TAGS and t.confidence >= threshold for t in tags)


def run_detectors_text(claim_text: str, evidence_text: str | None, *, source_text: str | None = None,
                       raw_claim: str | None = None, citekey: str | None = None,
                       passage_scores: Sequence[float] | None = None, best_score: float | None = None) -> list[Tag]:
    """Run every per-pair detector on plain strings (the pipeline-free entry point).

    The per-pair detectors see the passage's :data:`FOCUS_SENTENCES` sentences
    closest to the claim; ``off_topic`` sees the whole passage.

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None when there is none.
        source_text: the whole source text, used to forgive a quantity found
            elsewhere in it and to score every sentence for ``off_topic``.
        raw_claim: the claim as written, with citation markers (needed for
            ``secondary_citation`` and ``comparison_claim``).
        citekey: the checked citation's key (or its number for ``[8]`` style).
        passage_scores: every passage's score against the claim; when None
            and ``source_text`` is given, each sentence of the source is scored
            by content-word overlap.
        best_score: the best passage's score on the same scale; defaults to the maximum.

    Returns:
        All tags, in :data:`DETECTORS` order, then ``off_topic``.
    """
    ctx = {"source_text": source_text or "", "raw_claim": raw_claim or "", "citekey": citekey}
    tags: list[Tag] = []
    focused = focus_evidence(claim_text, evidence_text, FOCUS_SENTENCES) if evidence_text and FOCUS_SENTENCES else evidence_text
    # the claim with the long forms the source defines and then writes short as those short forms ("in mouse
    # mesangial cells" -> "in MMC": a twentieth trial's reversal and dropped negation were read against "in MMC")
    compared = as_the_source_writes(claim_text, source_text) if source_text else claim_text
    for det in DETECTORS:
        tags.extend(det(compared, focused, **ctx))
    drift = [t for t in tags if t.name == "number_drift"]
    if len(drift) > 1:  # number_drift and the share check (detectors/shares.py) both fired: keep the surer one
        keep = max(drift, key=lambda t: (t.confidence, t.proven))
        tags = [t for t in tags if t.name != "number_drift" or t is keep]
    scores = list(passage_scores) if passage_scores is not None else None
    if scores is None and source_text:
        scores = [overlap_score(claim_text, s) for s in split_sentences(source_text)]
    if scores:
        tags.extend(detect_off_topic(claim_text, evidence_text, best_score=best_score, scores=scores,
                                     source_text=source_text or ""))
    return tags


def run_detectors(claim: Claim, evidence: Evidence | None, source: Source | None, *,
                  raw_claim: str | None = None, citekey: str | None = None) -> list[Tag]:
    """Run every detector for one finding.

    ``off_topic`` is judged on content-word overlap of the claim with every
    passage of ``source`` (its own lexical scale, never another tier's
    score); ``joint_citation`` needs the other works of a group and is called
    by the pipeline separately (:func:`detect_joint_citation`).

    Args:
        claim: the claim unit (``claim.text`` is scored; ``claim.raw`` gives
            the markers when ``raw_claim`` is not passed).
        evidence: the best evidence, or None when nothing was found.
        source: the source judged against, or None.
        raw_claim: the claim with its citation markers, overriding ``claim.raw``.
        citekey: the checked citation's key; defaults to the claim's first citation's key.

    Returns:
        The tags, possibly empty.
    """
    ev_text = evidence.passage.text if evidence is not None else None
    src = evidence.source if (source is None and evidence is not None) else source
    passages = src.passages if src is not None else []
    source_text = (src.text if src is not None and src.text else " ".join(p.text for p in passages))
    scores = [overlap_score(claim.text, p.text) for p in passages] if passages else None
    best = overlap_score(claim.text, ev_text) if ev_text is not None else None
    if citekey is None and claim.citations:
        citekey = claim.citations[0].citekey
    return run_detectors_text(claim.text, ev_text, source_text=source_text,
                              raw_claim=raw_claim if raw_claim is not None else claim.raw,
                              citekey=citekey, passage_scores=scores, best_score=best)
