"""``misquotation`` and ``borrowed_wording``: quoted words checked verbatim, unquoted copying found.

* ``misquotation``: text in quotation marks (``“...”``, ``"..."``, ``«...»``; at
  least :data:`MIN_QUOTE_WORDS` words, so scare quotes around a term are left
  alone) in a sentence citing a source must stand in that source word for
  word. Each quote is cut at ellipses (``...``, ``…``, ``[...]``) and
  bracketed editorial insertions (``[the drug]``), each piece aligned with
  :func:`citeproof.text.grounding.align`; the tag gives the word diff
  (:func:`~citeproof.text.grounding.word_diff`) of what differs. Typesetting
  (case, curly quotes, dashes, ligatures, line-end hyphens) never counts.
* ``borrowed_wording``: a run of at least :data:`BORROWED_RUN` consecutive
  words of the claim, outside quotation marks, that stands verbatim in the
  source (the verbatim n-gram test of plagiarism detection, e.g. Potthast
  et al., PAN 2010 overview). A tag for the reader, never a verdict.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.text.grounding import align, word_diff, words
from citeproof.model import Tag, TagEvidence

__all__ = ["BORROWED_RUN", "MIN_QUOTE_WORDS", "detect_borrowed_wording", "detect_misquotation", "quotations"]

MIN_QUOTE_WORDS = 4
"""Quoted text shorter than this (in words) is a term in scare quotes, not a quotation."""
BORROWED_RUN = 12
"""Least run of consecutive claim words found verbatim in the source to count as borrowed wording."""
CLOSE_MATCH = 75.0
"""Least alignment score (rapidfuzz, 0..100) for a quote to count as the source's words altered rather than absent."""

_QUOTE_RE = re.compile(r"\u201c([^\u201d]{3,})\u201d|(?<![\w])\"([^\"]{3,})\"(?![\w])|\u00ab\s*([^\u00bb]{3,}?)\s*\u00bb")
_BREAK_RE = re.compile(r"\s*(?:\[\s*(?:\.\s*){3}\]|\.\s?\.\s?\.|\u2026|\[[^\]]{0,40}\])\s*")


def quotations(raw_claim: str) -> list[tuple[str, int, int]]:
    """The quotations of a sentence as written.

    Returns:
        ``(quoted text, start, end)``, offsets (characters) of the text inside
        the marks, for quotes of at least :data:`MIN_QUOTE_WORDS` words.
    """
    out = []
    for m in _QUOTE_RE.finditer(raw_claim or ""):
        g = next(i for i in (1, 2, 3) if m.group(i) is not None)
        text = m.group(g)
        if len(words(text)) >= MIN_QUOTE_WORDS:
            out.append((text, m.start(g), m.end(g)))
    return out


def detect_misquotation(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``misquotation`` when a quotation is not the source's words.

    Args:
        claim_text: the claim, citation markup removed (used when no ``raw_claim``).
        evidence_text: unused (the whole source is searched).
        **context: ``raw_claim`` (str): the sentence as written; ``source_text`` (str): the whole source.

    Returns:
        ``[]`` when every quotation stands verbatim in the source (or there is
        no quotation or no source text); else one tag per altered quotation:
        confidence 0.85 when the quote aligns closely (score >= :data:`CLOSE_MATCH`)
        and the message lists up to four word differences, 0.7 when its words
        are not in the source at all. Each :class:`TagEvidence` pairs the quoted
        piece with the source span it was aligned to.
    """
    source = context.get("source_text") or ""
    raw = context.get("raw_claim") or claim_text
    if not source.strip():
        return []
    tags: list[Tag] = []
    for quote, _s, _e in quotations(raw):
        pieces = [p for p in _BREAK_RE.split(quote) if len(words(p)) >= 2] or [quote]
        diffs, spans, worst = [], [], 100.0
        for piece in pieces:
            a = align(piece, source)
            span = source[a.start:a.end]
            worst = min(worst, a.score if a.score >= CLOSE_MATCH else 0.0)
            ops = word_diff(piece, span) if a.score >= CLOSE_MATCH else []
            if a.score < CLOSE_MATCH or ops:
                diffs.extend(ops)
                spans.append(TagEvidence(piece, " ".join(span.split())[:300] if a.score >= CLOSE_MATCH else ""))
        if not spans:
            continue
        short = quote if len(quote) <= 80 else quote[:77] + "..."
        if worst >= CLOSE_MATCH:
            detail = "; ".join(str(d) for d in diffs[:4]) + ("; ..." if len(diffs) > 4 else "")
            tags.append(Tag("misquotation", f"The quotation \u201c{short}\u201d differs from the source: {detail}.", 0.85, tuple(spans)))
        else:
            tags.append(Tag("misquotation", f"The quotation \u201c{short}\u201d is not in the source's words "
                            "(no close match found): check the wording and that this is the work quoted.", 0.7, tuple(spans)))
    return tags


@lru_cache(maxsize=64)
def _source_words(source: str) -> str:
    """The source's :func:`words`, space-joined with a space at each end: a run of words is in the
    source when ``" " + " ".join(run) + " "`` is a substring (a string as large as the text, kept for 64
    sources: a run's claims cycle through its sources, and an n-gram set per source cost ~10 MB)."""
    return " " + " ".join(words(source)) + " "


def detect_borrowed_wording(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``borrowed_wording`` when the claim copies a long run of the source's words without quotation marks.

    Args:
        claim_text: the claim, citation markup removed (used when no ``raw_claim``).
        evidence_text: unused.
        **context: ``raw_claim`` (str), ``source_text`` (str).

    Returns:
        ``[]`` or one tag (confidence 0.6, informational: never changes a
        verdict) naming the longest run, at least :data:`BORROWED_RUN` words,
        outside quotation marks.
    """
    source = context.get("source_text") or ""
    raw = context.get("raw_claim") or claim_text
    if not source.strip():
        return []
    outside = raw
    for _q, s, e in reversed(quotations(raw)):
        outside = outside[:s] + " \u2016 " + outside[e:]  # a quote breaks a run
    n = 8
    joined = _source_words(source)

    def in_source(gram: list[str]) -> bool:
        return " " + " ".join(gram) + " " in joined

    best: tuple[int, int] = (0, 0)
    for chunk in outside.split("\u2016"):
        cw = words(chunk)
        i = 0
        while i + n <= len(cw):
            if not in_source(cw[i : i + n]):
                i += 1
                continue
            j = i
            while j + n < len(cw) and in_source(cw[j + 1 : j + 1 + n]):
                j += 1
            run = (j + n - i, i)
            if run[0] > best[0]:
                best = (run[0], i)
                best_words = cw[i : j + n]
            i = j + 1
    if best[0] < BORROWED_RUN:
        return []
    text = " ".join(best_words)
    return [Tag("borrowed_wording", f"{best[0]} consecutive words stand verbatim in the source without quotation marks: "
                f"\u201c{text[:160]}\u201d.", 0.6, (TagEvidence(text, text),))]
