"""``off_topic``: the best passage is no closer to the claim than the source's typical passage.

The test is a robust z-score of the best passage's score against all passage
scores of the same source (median and median absolute deviation, MAD x
1.4826 as a consistent estimate of the standard deviation; Rousseeuw &
Croux 1993), together with an absolute floor, because a source in which
nothing is close has a small spread too.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from citeproof.model import Tag, TagEvidence

ABS_FLOOR = 0.2
"""Below this best score (share of claim content words found) the source is off topic whatever the spread."""
MIN_Z = 1.0
"""Least robust z-score for the best passage to stand out from the source's typical passage."""
CLEAR_SCORE = 0.3
"""At or above this best score the evidence is close enough whatever the spread."""


def detect_off_topic(claim_text: str, evidence_text: str | None, *, best_score: float | None = None,
                     scores: Sequence[float] = (), **context) -> list[Tag]:
    """Tag ``off_topic`` when the best evidence does not stand out from the source.

    Args:
        claim_text: the claim (used only for the message).
        evidence_text: the best passage, or None (no evidence at all: fires
            with confidence 0.9 when ``scores`` is non-empty).
        best_score: the best passage's score in [0, 1] (same scale as ``scores``);
            defaults to ``max(scores)``.
        scores: the scores of every passage of the source against the claim,
            same tier (lexical overlap by default in :func:`citeproof.detectors.run_detectors`).
        **context: unused.

    Returns:
        ``[]`` or one tag: confidence 0.9 below :data:`ABS_FLOOR`, 0.7 when the
        best score is under :data:`CLEAR_SCORE` and its robust z-score under :data:`MIN_Z`.
    """
    scores = list(scores)
    if not scores:
        return []
    best = max(scores) if best_score is None else best_score
    med = statistics.median(scores)
    mad = statistics.median(abs(s - med) for s in scores) * 1.4826
    z = (best - med) / max(mad, 0.05)
    ev = (evidence_text or "")[:200]
    if evidence_text is None or best < ABS_FLOOR:
        return [Tag("off_topic", f"No passage of the source is close to the claim (best score {best:.2f}).", 0.9,
                    (TagEvidence("", ev),))]
    if best < CLEAR_SCORE and z < MIN_Z and len(scores) >= 5:
        return [Tag("off_topic",
                    f"The best passage (score {best:.2f}) is no closer than the source's typical passage (median {med:.2f}).",
                    0.7, (TagEvidence("", ev),))]
    return []
