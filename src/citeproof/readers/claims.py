"""Claim units: cutting cited text into sentences and cleaning it for scoring.

The unit sizes follow ``DESIGN.md`` ("The claim unit has a size"): a sentence
in prose, a row in a table, an item in a list, a heading alone. Sentences are
cut by the project's one splitter, :func:`citeproof.text.sentences.sentence_spans`
(syntok-based, abbreviation-aware, with character offsets); ``split_sentences``
here is that function, kept under its old name for the readers.
"""

from __future__ import annotations

import re

from citeproof.text.sentences import sentence_spans as split_sentences

__all__ = ["split_sentences", "tile_spans", "clean_inline_markdown", "tidy_claim_text", "states_finding", "ELIDED"]

ELIDED = "[...]"
"""What a narrative (in-text) citation becomes in a claim's text."""


_CONTENT = re.compile(r"[^\sX\W]|[^\sX.,;:()\[\]]")


def tile_spans(spans: list[tuple[int, int]], n: int, split_text: str) -> list[tuple[int, int]]:
    """Stretch sentence spans so they tile ``[0, n)``.

    A citation that stands just after a sentence's period (``claim. [@a]``)
    then belongs to that sentence rather than falling between spans, and a
    "sentence" made of citation markers alone (masked as ``X`` runs in
    ``split_text``) joins the sentence before it.

    Args:
        spans: sentence spans from :func:`citeproof.text.sentences.sentence_spans`.
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


# Every repeated part is bounded (at most 2,000 characters; links 1,000, emphasis 500, footnote labels
# 200): unbounded, an unclosed "*", "`", "<!--" or "[^" repeated N times made each pattern
# scan to the end of the text from every start, O(N^2) (bench/readers_scaling.py).
_LINK = re.compile(r"!?\[([^\]\[]{0,1000})\]\([^)]{0,1000}\)")
_REF_LINK = re.compile(r"\[([^\]\[]{1,1000})\]\[[^\]]{0,200}\]")
_AUTOLINK = re.compile(r"<(?:https?|ftp|mailto):[^>\s]{0,2000}>|<[^>\s@]{1,200}@[^>\s]{1,200}>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]{0,50}(?:\s[^<>]{0,2000})?/?>|<!--.{0,2000}?-->", re.S)
_EMPH = re.compile(r"(?<![\w\\])([*_]{1,3})(?=\S)(.{1,500}?)(?<=\S)\1(?![\w])")
_CODE = re.compile(r"(`+)(.{1,2000}?)\1", re.S)
_ATTR = re.compile(r"\{[#.][^{}]{0,2000}\}")
_SPAN = re.compile(r"(?<![!\]\\])\[([^\[\]]{0,2000})\]\{[^{}]{0,2000}\}")
_FOOTREF = re.compile(r"\[\^[^\]]{1,200}\]")
_RULE = re.compile(r"(?<![\w-])-{4,}(?![\w-])|(?<![\w*])\*{3,}(?![\w*])")
_EM_DASH = re.compile(r"(?<![-<])---(?![->])")
_EN_DASH = re.compile(r"(?<![-<])--(?![->])")
_KEPT = re.compile(r"(`+)(.{1,2000}?)\1|<!--.{0,2000}?-->", re.S)
"""What the dashes leave alone: a code span, and an HTML comment (whose ``<!--`` had become ``<!–``, so the
comment's words stayed in the claim: session 24)."""


def _dashes(text: str) -> str:
    """pandoc's smart dashes outside code spans and HTML comments: ``---`` an em dash, ``--`` an en dash; a rule
    (``----``, ``***``) goes. An arrow (``-->``, ``<--``, ``<-->``) stays as typed: pandoc would print ``–>``,
    which a new user's claim about a *5' --> 3'* helicase showed back as a different text (session 24's trials)."""
    parts, pos = [], 0
    for m in _KEPT.finditer(text):
        parts += [_EN_DASH.sub("\u2013", _EM_DASH.sub("\u2014", _RULE.sub(" ", text[pos: m.start()]))), m.group(0)]
        pos = m.end()
    parts.append(_EN_DASH.sub("\u2013", _EM_DASH.sub("\u2014", _RULE.sub(" ", text[pos:]))))
    return "".join(parts)


def clean_inline_markdown(text: str) -> str:
    """Plain text of a Markdown inline span, for scoring and display.

    Links keep their text, images their alt text, emphasis and code markers
    go, raw HTML tags and pandoc attribute blocks (``{#fig:x}``) go (a
    bracketed span ``[text]{.class}`` keeps its text), footnote
    references (``[^1]``) go. ``---`` and ``--`` become the em and en
    dashes pandoc prints (its ``smart`` extension), outside code spans; a
    thematic-break run (``----``, ``***``) goes. Citation markup must
    already be gone.

    Args:
        text: inline Markdown.

    Returns:
        The plain text, whitespace not yet normalised.
    """
    text = _dashes(text)
    text = _CODE.sub(lambda m: m.group(2).strip(), text)
    text = _SPAN.sub(r"\1", text)  # pandoc bracketed span [text]{.class}
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


_SPACE_BEFORE_PUNCT = re.compile(r"(?<=\d)\s+([.,;:!?)\]])|\s+([.,;:!?)\]])(?!\d)")
"""A space before punctuation, but not a word's before a decimal: "of .68" keeps it (a 164th trial had read "of.68"),
"rsif.2017 .0387" (a number wrapped at its stop in a PDF) loses it."""
_DOUBLE_PERIOD = re.compile(r"(?<!\.)\.\s*\.(?!\.)")
_EMPTY_PARENS = re.compile(r"\(\s*[,;]?\s*\)")
_WS = re.compile(r"\s+")


def tidy_claim_text(text: str) -> str:
    """Normalise whitespace and the debris left where citations were removed.

    ``"shows this ."`` becomes ``"shows this."``; ``"( )"``, doubled
    spaces and doubled periods (an ellipsis ``...`` stays) disappear.

    Args:
        text: claim text with citation markup already removed.

    Returns:
        One line of text, stripped.
    """
    text = _WS.sub(" ", text)
    text = _EMPTY_PARENS.sub("", text)
    text = _SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or m.group(2), text)
    text = _DOUBLE_PERIOD.sub(".", text)  # "large. [@a]." and "Fig. 1.[@a]." leave two periods
    text = _WS.sub(" ", text)
    return text.strip()


_IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]{1,15}:\S+|\bISBN[-\s:]*[\dXx-]{10,17}|\b10\.\d{4,9}/\S+|\bhttps?://\S+|\barXiv:\s*\S+|\b\d{4}\.\d{4,5}(?:v\d+)?\b|\bPMC?I?D?:?\s*\d{5,9}\b|\[\d+(?:[-,–]\s*\d+)*\]", re.I)
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d[a-z]?$")
_NUMBER = re.compile(r"(?<![\w.])[<>≤≥~≈±]?\d+(?:[.,]\d+)*(?:\s?(?:%|‰|percent|per cent|-?fold|×))?")
_QUANTITY = re.compile(r"\d\s?(?:%|‰|percent\b|per cent\b|-?fold\b|×)|[<>≤≥=±]\s?\d|\d[.,]\d", re.I)
_NAME_WORDS = {"et", "al", "and", "vs", "v", "n", "no", "nr", "table", "fig", "figure", "ref", "refs"}


def states_finding(cells: list[str]) -> bool:
    """Whether a table row states a finding with a number, rather than only naming works.

    ``Bleaching | 30% of coral loss`` states one (a quantity: a percentage, a fold change, a comparison or a
    decimal; or a number beside ordinary lower-case words); ``Smith et al. | 2020 | 10.1000/xyz`` and
    ``Trial A | 120`` do not (names, years and identifiers only). Used by the policy that flags a table row of
    names and identifiers ``not_a_claim`` (:func:`citeproof.judges.policy.mark_naming`).
    """
    text = " ".join(cells)
    bare = _IDENTIFIER.sub(" ", text)
    numbers = [m.group(0) for m in _NUMBER.finditer(bare) if not _YEAR.match(m.group(0).strip())]
    if not numbers:
        return False
    if _QUANTITY.search(bare):
        return True
    words = [w for w in re.findall(r"[^\W\d_]{2,}", bare) if w.islower() and w not in _NAME_WORDS]
    return bool(words)
