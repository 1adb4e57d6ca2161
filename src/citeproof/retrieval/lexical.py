"""Lexical retrieval: BM25 candidates, re-ranked by weighted term coverage.

For one claim and one source:

1. BM25 (bm25s, Lucene variant, k1=1.5, b=0.75) over the source's passages
   proposes the ``k`` best candidates (the passages of the locator's page
   only, when the citation gives ``p. N`` and the source has that page);
2. each candidate is scored by **coverage**: the IDF-weighted share of the
   claim's distinctive terms (stopwords dropped, stemmed; see
   :func:`citeproof.text.normalise.terms`) found in the passage. IDF is
   ``ln(1 + N / df)`` over the source's passages; a claim term the source
   never uses gets the largest IDF, so it counts fully against coverage.

Coverage is in [0, 1]: 1 means every distinctive claim word is in the
passage. Passages of a reference list (section ``references``,
``bibliography``...) are never evidence: a cited work's own bibliography
matches claims by title words, not by content. Abstract passages are always
among the candidates: the judge prefers them among passages that earn the
same verdict (:class:`citeproof.judges.lexical.LexicalJudge`). A passage and its successor are also scored together (a claim
often straddles a block break); the pair wins only when it covers more.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass

import numpy as np

from citeproof.model import NON_EVIDENCE_SECTIONS, Evidence, Passage, Source
from citeproof.text.normalise import terms

__all__ = ["LexicalIndex", "LexicalRetriever", "coverage", "NON_EVIDENCE_SECTIONS"]




def _is_heading(p: Passage) -> bool:
    """A heading passage (its text is the section it opens, as the Markdown and HTML readers set it): never paired
    with the paragraph after it, whose first sentence it would run into ("Cardiac effects of statins Statin ...")."""
    return bool(p.section) and p.text.strip().lower() == p.section


@dataclass

class LexicalIndex:
    """Per-source lexical index (terms per passage, document frequencies, BM25).

    Build with :meth:`build`; reused for every claim citing the source.
    """

    passage_terms: list[set[str]]
    df: Counter
    n: int
    bm25: object | None

    @classmethod
    def build(cls, passages: list[Passage]) -> "LexicalIndex":
        """Index ``passages`` (any length, may be empty)."""
        toks = [terms(p.text) for p in passages]
        sets = [set(t) for t in toks]
        df: Counter = Counter()
        for s in sets:
            df.update(s)
        bm25 = None
        if passages:
            import bm25s

            bm25 = bm25s.BM25(k1=1.5, b=0.75)
            bm25.index([t or ["\u2205"] for t in toks], show_progress=False)
        return cls(sets, df, len(passages), bm25)

    def idf(self, term: str) -> float:
        """``ln(1 + N / df)``; a term absent from the source gets ``ln(1 + N)``."""
        return math.log(1 + self.n / max(1, self.df.get(term, 0)))

    def weights(self, claim_terms: list[str]) -> tuple[list[str], list[float], float]:
        """``(distinct terms in order, their IDFs, the IDFs' sum)``: what :func:`coverage` needs of a claim, once."""
        uniq = list(dict.fromkeys(claim_terms))
        w = [self.idf(t) for t in uniq]
        return uniq, w, sum(w)

    def bm25_scores(self, query: list[str]) -> np.ndarray:
        """BM25 score of every passage for the query terms."""
        if self.bm25 is None or not query:
            return np.zeros(self.n)
        known = [t for t in query if t in self.df] or ["\u2205"]
        return np.asarray(self.bm25.get_scores(known), dtype=float)


def coverage(claim_terms: list[str], passage_terms: set[str], index: LexicalIndex) -> tuple[float, list[str]]:
    """IDF-weighted share of ``claim_terms`` present in ``passage_terms``.

    Returns:
        ``(coverage in [0, 1], matched terms)``; ``(0.0, [])`` for a claim
        with no distinctive term.
    """
    return _covered(index.weights(claim_terms), passage_terms)


def _covered(weighed: tuple[list[str], list[float], float], passage_terms: set[str]) -> tuple[float, list[str]]:
    """:func:`coverage` with the claim's :meth:`LexicalIndex.weights` already taken (the same sums, in the same order)."""
    uniq, w, total = weighed
    if not uniq:
        return 0.0, []
    hit = [t for t in uniq if t in passage_terms]
    return (sum(x for t, x in zip(uniq, w) if t in passage_terms) / total if total else 0.0), hit


class LexicalRetriever:
    """Candidate evidence for a claim from one source, best first.

    Args:
        k: BM25 candidates re-ranked per claim.

    Indexes are built once per source (by content hash) and kept in memory.
    """

    def __init__(self, k: int = 30) -> None:
        self.k = k
        self._indexes: dict[str, LexicalIndex] = {}
        self._lock = threading.Lock()

    def index_for(self, source: Source) -> LexicalIndex:
        """The (memoised) index of ``source``."""
        key = source.sha256 or str(id(source))
        with self._lock:
            idx = self._indexes.get(key)
        if idx is None:
            idx = LexicalIndex.build(source.passages)
            with self._lock:
                self._indexes[key] = idx
        return idx

    def evidence_for(self, claim_text: str, source: Source, i: int, exclude_terms: set[str] | None = None) -> Evidence:
        """Evidence for passage ``i`` of ``source`` with its lexical coverage (for candidates another tier found)."""
        idx = self.index_for(source)
        q = [t for t in terms(claim_text) if t not in (exclude_terms or ())]
        cov, hit = coverage(q, idx.passage_terms[i], idx)
        return Evidence(passage=source.passages[i], source=source, scores={"lexical": round(cov, 4)}, matched_terms=tuple(hit))

    def retrieve(
        self, claim_text: str, source: Source, pages: list[int] | None = None, top: int = 8, exclude_terms: set[str] | None = None
    ) -> list[Evidence]:
        """The ``top`` best passages of ``source`` for ``claim_text``.

        Args:
            claim_text: the claim, citation markup already removed.
            source: a usable source.
            pages: restrict to these pages (from 1), e.g. from a ``p. N``
                locator; ignored when none of them exists in the source.
            top: how many to return.
            exclude_terms: claim terms not to count (e.g. the cited work's
                own DOI shown in a table cell).

        Returns:
            Evidence, best coverage first; ``scores`` holds ``lexical``
            (coverage) and ``bm25``. Empty when the source has no passages.
        """
        if not source.passages:
            return []
        idx = self.index_for(source)
        q = [t for t in terms(claim_text) if t not in (exclude_terms or ())]
        allowed = [i for i, p in enumerate(source.passages) if p.section not in NON_EVIDENCE_SECTIONS]
        if pages:
            on_page = [i for i, p in enumerate(source.passages) if p.page in pages or p.page_end in pages]
            if on_page:
                allowed = on_page
        bm = idx.bm25_scores(q)
        cand = sorted(allowed, key=lambda i: -bm[i])[: self.k]
        if not q:
            cand = list(allowed)[: self.k]
        cand += [i for i in allowed if source.passages[i].section == "abstract" and i not in cand]
        scored: list[tuple[float, int, int, list[str]]] = []
        allowed_set = set(allowed)
        weighed = idx.weights(q)
        for i in cand:
            cov, hit = _covered(weighed, idx.passage_terms[i])
            scored.append((cov, i, i, hit))
            j = i + 1
            if (j in allowed_set and j < idx.n and source.passages[j].page == source.passages[i].page
                    and not _is_heading(source.passages[i]) and not _is_heading(source.passages[j])):
                cov2, hit2 = _covered(weighed, idx.passage_terms[i] | idx.passage_terms[j])
                if cov2 > cov + 0.15:
                    scored.append((cov2 - 0.05, i, j, hit2))
        scored.sort(key=lambda t: (-t[0], -bm[t[1]]))
        out: list[Evidence] = []
        seen: set[int] = set()
        for cov, i, j, hit in scored:
            if i in seen:
                continue
            seen.add(i)
            p = source.passages[i]
            if j != i:
                q2 = source.passages[j]
                box = None
                if p.bbox and q2.bbox and p.page == q2.page:
                    box = (min(p.bbox[0], q2.bbox[0]), min(p.bbox[1], q2.bbox[1]), max(p.bbox[2], q2.bbox[2]), max(p.bbox[3], q2.bbox[3]))
                p = Passage(
                    id=f"{p.id}+{q2.id}", text=p.text + " " + q2.text, page=p.page, bbox=box, line=p.line,
                    char_start=p.char_start, char_end=q2.char_end, section=p.section, quotable=p.quotable and q2.quotable,
                    page_label=p.page_label, page_end=q2.page_end, bbox_end=q2.bbox_end,
                    time_start=p.time_start, time_end=q2.time_end if q2.time_end is not None else p.time_end,
                    margin_numbers=p.margin_numbers + tuple(n for n in q2.margin_numbers if n not in p.margin_numbers),
                )
            out.append(Evidence(passage=p, source=source, scores={"lexical": round(cov, 4), "bm25": round(float(bm[i]), 4)}, matched_terms=tuple(hit)))
            if len(out) >= top:
                break
        return out
