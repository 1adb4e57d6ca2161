"""Claim units: cutting cited text into sentences and cleaning it for scoring.

The unit sizes follow ``DESIGN.md`` ("The claim unit has a size"): a sentence
in prose, a row in a table, an item in a list, a heading alone. Sentence
splitting is syntok's (segtok v2), which keeps character offsets and does not
split after *et al.*, *e.g.*, *i.e.*, *cf.*, *Fig. 1* or initials (measured in
``DESIGN.md``: pysbd split after "cf.", blingfire merged sentences).
"""

from __future__ import annotations

import re

import syntok.segmenter as _segmenter

__all__ = ["split_sentences", "tile_spans", "clean_inline_markdown", "tidy_claim_text", "ELIDED"]

ELIDED = "[...]"
"""What a narrative (in-text) citation becomes in a claim's text."""


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text`` as ``(start, end)`` character offsets.

    Args:
        text: prose, possibly spanning several lines.

    Returns:
        Spans in order, end exclusive, covering every sentence; whitespace
        between sentences belongs to no span. Empty text gives ``[]``.
    """
    spans: list[tuple[int, int]] = []
    if not text.strip():
        return spans
    for paragraph in _segmenter.analyze(text):
        for sentence in paragraph:
            tokens = [t for t in sentence]
            if not tokens:
                continue
            start = tokens[0].offset
            end = tokens[-1].offset + len(tokens[-1].value)
            spans.append((start, end))
    return _merge_fragments(text, spans)


_CONTENT = re.compile(r"[^\sX\W]|[^\sX.,;:()\[\]]")


def tile_spans(spans: list[tuple[int, int]], n: int, split_text: str) -> list[tuple[int, int]]:
    """Stretch sentence spans so they tile ``[0, n)``.

    A citation that stands just after a sentence's period (``claim. [@a]``)
    then belongs to that sentence rather than falling between spans, and a
    "sentence" made of citation markers alone (masked as ``X`` runs in
    ``split_text``) joins the sentence before it.

    Args:
        spans: sentence spans from :func:`split_sentences`.
        n: length of the text.
        split_text: the text the spans index, citation markers masked as ``X``.

    Returns:
        Spans covering ``[0, n)`` in order.
    """
    if not spans:
        return [(0, n)]
    out: list[tuple[int, int]] = []
    for k, (s, _e) in enumerate(spans):
        start = 0 if k == 0 else s
        end = spans[k + 1][0] if k + 1 < len(spans) else n
        if out and not _CONTENT.search(split_text[start:end]):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


_CLOSERS = re.compile(r"^[\s\)\]\}\"'”’.,;:]*$")


def _merge_fragments(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Glue spans that hold only closing punctuation onto the previous one.

    syntok occasionally emits ``)`` or ``].`` as a sentence of its own after
    a long parenthesis; such a fragment is never a claim.
    """
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and _CLOSERS.match(text[s:e]):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


_LINK = re.compile(r"!?\[([^\]\[]*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]\[]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<(?:https?|ftp|mailto):[^>\s]*>|<[^>\s@]+@[^>\s]+>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--.*?-->", re.S)
_EMPH = re.compile(r"(?<![\w\\])([*_]{1,3})(?=\S)(.+?)(?<=\S)\1(?![\w])")
_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_ATTR = re.compile(r"\{[#.][^{}]*\}")
_FOOTREF = re.compile(r"\[\^[^\]]+\]")


def clean_inline_markdown(text: str) -> str:
    """Plain text of a Markdown inline span, for scoring and display.

    Links keep their text, images their alt text, emphasis and code markers
    go, raw HTML tags and pandoc attribute blocks (``{#fig:x}``) go, footnote
    references (``[^1]``) go. Citation markup must already be gone.

    Args:
        text: inline Markdown.

    Returns:
        The plain text, whitespace not yet normalised.
    """
    text = _CODE.sub(lambda m: m.group(2).strip(), text)
    text = _ATTR.sub("", text)
    text = _FOOTREF.sub("", text)
    for _ in range(2):  # links inside image alt text
        text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub("", text)
    text = _HTML_TAG.sub("", text)
    for _ in range(2):
        text = _EMPH.sub(r"\2", text)
    text = text.replace("\\", "")
    return text


_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?)\]])")
_EMPTY_PARENS = re.compile(r"\(\s*[,;]?\s*\)")
_WS = re.compile(r"\s+")


def tidy_claim_text(text: str) -> str:
    """Normalise whitespace and the debris left where citations were removed.

    ``"shows this ."`` becomes ``"shows this."``; ``"( )"`` and doubled
    spaces disappear.

    Args:
        text: claim text with citation markup already removed.

    Returns:
        One line of text, stripped.
    """
    text = _WS.sub(" ", text)
    text = _EMPTY_PARENS.sub("", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _WS.sub(" ", text)
    return text.strip()
