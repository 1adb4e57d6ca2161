"""``citeproof locate SOURCE "phrase"``: the page(s) and passage(s) of a source that hold a phrase (issue 15, part 7).

Exact first: the phrase is searched in the source's whole extracted text after the folding of
:func:`citeproof.text.grounding.normalise` (case, curly quotes, dashes, ligatures, whitespace runs and line-end
hyphenation do not count), so a phrase that runs over a line, column or page break is found and names every page it
spans. Only when there is no exact occurrence, fuzzy: each passage, joined to the next so a phrase across a break can
still align, is aligned with :func:`~citeproof.text.grounding.align` (rapidfuzz ``partial_ratio_alignment``, 0..100),
and the best non-overlapping spans scoring at least :data:`FUZZY_MIN` are kept, best first.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.text.grounding import align, normalise
from citeproof.model import Passage, Source

__all__ = ["FUZZY_MIN", "Hit", "locate_phrase"]

FUZZY_MIN = 80.0
"""Least alignment score (rapidfuzz partial ratio, 0..100) for a fuzzy hit. Misquotation detection calls 75 a close
match (:data:`citeproof.detectors.quotes.CLOSE_MATCH`); a lookup asks for a little more, since a short phrase reaches
75 against unrelated text of the same words."""


@dataclass(frozen=True)
class Hit:
    """One place of a source that holds the phrase.

    Attributes:
        kind: ``exact`` (the folded phrase stands in the folded text) or ``fuzzy``.
        score: 100 for an exact hit, else the alignment score (0..100).
        start, end: the matched span in :attr:`Source.text` (characters from 0, end exclusive).
        passages: the passages the span overlaps, in reading order (at least one).
    """

    kind: str
    score: float
    start: int
    end: int
    passages: tuple[Passage, ...]

    @property
    def pages(self) -> list[int]:
        """The PDF pages (sheets, from 1) of the passages the span overlaps (a passage running on past a page break names both); ``[]`` for a text source."""
        out: list[int] = []
        for p in self.passages:
            if p.page is None:
                continue
            for n in range(p.page, (p.page_end or p.page) + 1):
                if n not in out:
                    out.append(n)
        return out

    def where(self) -> str:
        """``page 3``, ``pages 3-4``, ``page 3 (printed 103)``, ``line 12`` or ``chars 10-40``, as reports name places."""
        first, last = self.passages[0], self.passages[-1]
        pages = self.pages
        if pages:
            if len(pages) == 1:
                return first.where() if first.page_end in (None, first.page) else f"page {pages[0]}"
            return f"pages {pages[0]}-{pages[-1]}"
        if first.line is not None:
            return f"line {first.line}" if last.line in (None, first.line) else f"lines {first.line}-{last.line}"
        return f"chars {self.start}-{self.end}"

    def to_dict(self, source: Source) -> dict:
        """JSON data: ``{kind, score, where, pages, page_label, line, char_start, char_end, text, passages: [{id, page, page_end, page_label, line, section, text}]}``.

        ``text`` is the matched span as the source's text has it.
        """
        first = self.passages[0]
        return {
            "kind": self.kind,
            "score": round(self.score, 1),
            "where": self.where(),
            "pages": self.pages,
            "page_label": first.page_label or None,
            "line": first.line,
            "char_start": self.start,
            "char_end": self.end,
            "text": " ".join(source.text[self.start:self.end].split()),
            "passages": [{"id": p.id, "page": p.page, "page_end": p.page_end, "page_label": p.page_label or None,
                          "line": p.line, "section": p.section, "text": p.text} for p in self.passages],
        }


def _overlapping(passages: list[Passage], start: int, end: int) -> tuple[Passage, ...]:
    """The passages whose span in the source text overlaps ``[start, end)``, in order."""
    return tuple(p for p in passages if p.char_start < end and p.char_end > start)


def _exact(source: Source, phrase: str) -> list[Hit]:
    folded, idx = normalise(source.text)
    want = normalise(phrase)[0].strip()
    hits: list[Hit] = []
    at = folded.find(want)
    while at >= 0 and want:
        start, end = idx[at], idx[at + len(want) - 1] + 1
        spanned = _overlapping(source.passages, start, end)
        if spanned:
            hits.append(Hit("exact", 100.0, start, end, spanned))
        at = folded.find(want, at + len(want))
    return hits


def _fuzzy(source: Source, phrase: str, min_score: float) -> list[Hit]:
    found: list[Hit] = []
    ps = source.passages
    for i, p in enumerate(ps):
        nxt = ps[i + 1] if i + 1 < len(ps) else None
        base = p.char_start
        window = source.text[base:(nxt.char_end if nxt is not None else p.char_end)]
        a = align(phrase, window)
        if a.score < min_score or a.end <= a.start:
            continue
        start, end = base + a.start, base + a.end
        spanned = _overlapping(ps, start, end)
        if spanned:
            found.append(Hit("fuzzy", a.score, start, end, spanned))
    found.sort(key=lambda h: (-h.score, h.start))
    kept: list[Hit] = []
    for h in found:  # the same span seen from two windows, or two windows overlapping: keep the best
        if all(h.end <= k.start or h.start >= k.end for k in kept):
            kept.append(h)
    return kept


def locate_phrase(source: Source, phrase: str, *, limit: int = 5, min_score: float = FUZZY_MIN) -> list[Hit]:
    """Where ``source`` holds ``phrase`` (module docstring).

    Args:
        source: a parsed source (:func:`citeproof.sources.load_source`), passages indexing :attr:`Source.text`.
        phrase: the words to find, as the user typed them.
        limit: at most this many hits (exact hits in reading order, else fuzzy hits best first).
        min_score: least alignment score (0..100) of a fuzzy hit.

    Returns:
        The hits; ``[]`` when the phrase is not in the source, exactly or fuzzily.

    Raises:
        ValueError: ``phrase`` holds no letter or digit, or ``limit`` is below 1.
    """
    if not any(c.isalnum() for c in phrase):
        raise ValueError(f"the phrase {phrase!r} holds no word to look for")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    hits = _exact(source, phrase)
    return (hits or _fuzzy(source, phrase, min_score))[:limit]
