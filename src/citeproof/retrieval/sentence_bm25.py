"""Okapi BM25 over the sentences of one source (numpy only): the full-text judge (:mod:`citeproof.judges.fulltext`) and the eval harnesses rank with it."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the of in on at to for from by with and or is are was were be been this that these those it its as".split())


def tokens(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens without a few stop words."""
    return [t for t in _TOKEN.findall(text.lower()) if t not in _STOP]


def bm25_scores(query: str, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """Okapi BM25 score of each doc for the query, IDF computed over ``docs`` itself.

    (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
    Beyond", 2009; IDF ``log(1 + (N - df + 0.5) / (df + 0.5))``.)

    Returns:
        one float >= 0 per doc, in doc order.
    """
    toks = [tokens(d) for d in docs]
    n = len(docs)
    if not n:
        return []
    avg = sum(len(t) for t in toks) / n or 1.0
    df: Counter[str] = Counter()
    for t in toks:
        df.update(set(t))
    q = set(tokens(query))
    out = []
    for t in toks:
        tf = Counter(t)
        s = 0.0
        for w in q:
            if tf[w]:
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                s += idf * tf[w] * (k1 + 1) / (tf[w] + k1 * (1 - b + b * len(t) / avg))
        out.append(s)
    return out


def order(scores: Sequence[float]) -> list[int]:
    """Indices by score, best first (ties keep index order)."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


class BM25Index:
    """BM25 over a fixed list of docs, tokenised once (for many queries against one source).

    Args:
        docs: the texts; IDF is computed over them.
        k1, b: Okapi BM25 parameters.
    """

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.tf = [Counter(tokens(d)) for d in docs]
        self.len = [sum(t.values()) for t in self.tf]
        n = len(docs)
        self.avg = (sum(self.len) / n if n else 0.0) or 1.0
        df: Counter[str] = Counter()
        for t in self.tf:
            df.update(t.keys())
        self.idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}
        self.k1, self.b = k1, b

    def scores(self, query: str) -> list[float]:
        """BM25 score of each doc for ``query`` (same values as :func:`bm25_scores`)."""
        q = [w for w in set(tokens(query)) if w in self.idf]
        out = []
        for tf, ln in zip(self.tf, self.len):
            s = 0.0
            for w in q:
                f = tf.get(w, 0)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * ln / self.avg))
            out.append(s)
        return out
