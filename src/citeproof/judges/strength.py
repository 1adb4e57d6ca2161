"""Retrieval-strength features for the entailment tier's decision layer.

When the source is a full text, whether the claim is in it at all is often
decided by retrieval, not by the entailment network: a claim whose words and
meaning appear nowhere in a 500-sentence article is *irrelevant*, whatever the
network says of the closest sentence. These features tell the decision layer
(the logistic regression of ``models/entailment.json``, see
:func:`citeproof.judges.entailment.decide`) how strongly the source as a whole
answers to the claim. They are appended after
:data:`citeproof.judges.entailment.FEATURE_NAMES` when a profile's
``features`` list names them.

The figures that chose them: ``training/ci_fit.py`` (Citation-Integrity
training split, folds grouped by cited article), recorded in ``models/MODEL_CARD.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from citeproof.judges.entailment import _content_words

STRENGTH_FEATURE_NAMES = (
    "log_best_bm25", "bm25_margin", "best_cosine", "cosine_margin",
    "coverage_retrieved", "coverage_source", "share_entailing",
)
"""Column order of :func:`strength_features`."""

__all__ = ["STRENGTH_FEATURE_NAMES", "strength_features"]


@lru_cache(maxsize=1 << 16)
def _words(text: str) -> frozenset[str]:
    """Content words of a sentence, memoised: a full text's sentences recur for every claim that cites it."""
    return frozenset(_content_words(text))


def _margin(scores: Sequence[float]) -> float:
    """Best score minus the mean of the rest, in units of their standard deviation (0 for fewer than 3 scores)."""
    if len(scores) < 3:
        return 0.0
    a = np.asarray(scores, dtype=np.float64)
    i = int(np.argmax(a))
    rest = np.delete(a, i)
    sd = float(rest.std())
    return float((a[i] - rest.mean()) / sd) if sd > 1e-9 else 0.0


def strength_features(claim_text: str, sentences: Sequence[str], bm25: Sequence[float], cosine: Sequence[float] | None,
                      top: Sequence[int], probs: np.ndarray) -> np.ndarray:
    """How strongly a source answers to a claim, beyond the best sentence's entailment probabilities.

    Args:
        claim_text: the claim, citation markers removed.
        sentences: every sentence of the source, in order.
        bm25: the BM25 score of each sentence for the claim (same length as ``sentences``;
            :class:`citeproof.retrieval.sentence_bm25.BM25Index`, IDF over this source).
        cosine: the dense cosine of each sentence to the claim, in [-1, 1]
            (:class:`citeproof.retrieval.dense.DenseRetriever`), or None when the dense tier
            did not run (the two cosine features are then 0).
        top: indices of the sentences the entailment network scored (the retrieved ones).
        probs: ``(len(top), 3)`` probabilities of those sentences, columns entails, neutral, contradicts.

    Returns:
        float64 array of shape ``(7,)`` in :data:`STRENGTH_FEATURE_NAMES` order:
        ``log(1 + best BM25)``; the best BM25 score's margin over the other sentences
        (standard deviations above their mean); the best cosine and its margin;
        the share of the claim's content words found in the retrieved sentences
        together, and in the whole source; the share of retrieved sentences whose
        P(entails) is at least 0.5.

    Raises:
        ValueError: if ``bm25`` (or ``cosine``) and ``sentences`` differ in length,
            or ``probs`` has not one row per ``top`` index.
    """
    if len(bm25) != len(sentences) or (cosine is not None and len(cosine) != len(sentences)):
        raise ValueError(f"{len(sentences)} sentences but {len(bm25)} BM25 scores"
                         + ("" if cosine is None else f" and {len(cosine)} cosines"))
    p = np.asarray(probs, dtype=np.float64).reshape(-1, 3) if len(top) else np.zeros((0, 3))
    if len(p) != len(top):
        raise ValueError(f"{len(top)} retrieved sentences but {len(p)} rows of probabilities")
    cw = _content_words(claim_text)

    def cov(texts) -> float:
        if not cw:
            return 0.0
        have: set[str] = set()
        for t in texts:
            have |= _words(t) & cw
        return len(have) / len(cw)

    best_bm = max(bm25) if len(bm25) else 0.0
    best_cos = max(cosine) if cosine is not None and len(cosine) else 0.0
    return np.array([
        math.log1p(max(best_bm, 0.0)), _margin(bm25),
        best_cos, _margin(cosine) if cosine is not None else 0.0,
        cov(sentences[i] for i in top), cov(sentences),
        float((p[:, 0] >= 0.5).mean()) if len(p) else 0.0,
    ], dtype=np.float64)
