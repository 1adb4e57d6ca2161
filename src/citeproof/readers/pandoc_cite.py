"""Pandoc's citation syntax, scanned in one span of inline Markdown.

Follows the pandoc manual, "Citation syntax", and pandoc's own parser
(``Text/Pandoc/Parsing/Citations.hs``: ``citeKey``, ``simpleCiteIdentifier``;
``Text/Pandoc/Citeproc/Locator.hs`` for locators):

* bracketed groups ``[see @a, p. 33; also @b, ch. 1]``: ``;``-separated
  items, each with a prefix, an optional ``-`` (suppress author), the key, and
  a suffix whose head may be a locator;
* in-text (narrative) ``@a`` and ``@a [p. 33]``; ``-@a`` outside brackets is
  suppress-author, as pandoc reads it (its ``citation`` parser takes the ``-``
  before an in-text key too);
* example-list labels are not citations: a list item marked ``(@good)`` (or
  ``@good.``/``@good)``) defines ``good`` as an example, and pandoc reads
  ``(@good)`` and ``@good`` anywhere in that document as a reference to it
  (:func:`example_labels`, dropped by :func:`without_examples`);
* keys: a letter, digit or ``_``, then key characters with single internal
  punctuation from ``:.#$%&-+?<>~/`` (and ``:``/``/`` before ``/``), or any
  non-space text in braces ``@{...}``;
* an ``@`` right after a letter, digit or word-internal ``.`` is no
  citation (e-mail addresses).

The caller masks code spans, raw HTML and link targets before scanning (see
:func:`mask_non_prose`) so that offsets still index the original text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from citeproof.model import CitationMode, Locator

__all__ = [
    "CiteItem",
    "CiteGroup",
    "scan_citations",
    "mask_non_prose",
    "parse_locator",
    "normalise_signal",
    "is_crossref",
    "crossref_word",
    "bracket_pairs",
    "CROSSREF_PREFIXES",
    "example_labels",
    "without_examples",
    "QUARTO_CROSSREF_PREFIXES",
]

_KEY_CHAR = r"[^\W]"  # letters, digits, underscore (Unicode-aware)
_KEY_RE = re.compile(rf"@(?:\{{(?P<braced>[^\s{{}}]*(?:\{{[^\s{{}}]*\}}[^\s{{}}]*)*)\}}|(?P<simple>[\w*](?:{_KEY_CHAR}|[:.#$%&+?<>~/\-](?={_KEY_CHAR})|[:/](?=/))*))")

CROSSREF_PREFIXES = ("fig:", "tbl:", "eq:", "sec:", "lst:")
"""pandoc-crossref reference prefixes: ``@fig:x`` is a cross-reference, not a citation."""

QUARTO_CROSSREF_PREFIXES = tuple(
    p + "-"
    for p in "fig tbl lst sec eq thm lem cor prp cnj def exm exr sol rem alg tip nte wrn imp cau".split()
)
"""Quarto cross-reference prefixes (Quarto guide, "Cross-References": figures, tables, listings,
sections, equations, theorem kinds, callouts): ``@fig-x`` is a cross-reference, not a citation."""


_CROSSREF_WORDS = {"fig": "Figure", "tbl": "Table", "lst": "Listing", "sec": "Section", "eq": "Equation", "thm": "Theorem", "lem": "Lemma",
                   "cor": "Corollary", "prp": "Proposition", "cnj": "Conjecture", "def": "Definition", "exm": "Example", "exr": "Exercise",
                   "sol": "Solution", "rem": "Remark", "alg": "Algorithm"}


def crossref_word(key: str) -> str:
    """What a cross-reference reads as in prose, its number unknown: ``fig:x`` and ``fig-x`` -> ``Figure``; a callout -> ``the note``."""
    return _CROSSREF_WORDS.get(re.split(r"[:-]", key.lower(), maxsplit=1)[0], "the note")


def is_crossref(key: str) -> bool:
    """True when ``key`` is a pandoc-crossref (``fig:x``) or Quarto (``fig-x``, ``thm-x``...) label."""
    k = key.lower()
    return k.startswith(CROSSREF_PREFIXES) or k.startswith(QUARTO_CROSSREF_PREFIXES)


@dataclass(frozen=True)
class CiteItem:
    """One key inside a citation group.

    Attributes:
        key: the citekey (braces removed).
        mode: parenthetical, narrative or suppress-author.
        prefix: text before the key (bracketed groups only), stripped.
        suffix: text after the key, locator included, stripped.
        locator: parsed locator, or None.
        at: offset of the ``@`` in the scanned text.
    """

    key: str
    mode: CitationMode
    prefix: str
    suffix: str
    locator: Locator | None
    at: int


@dataclass
class CiteGroup:
    """A citation as written: one bracketed group or one in-text cite.

    Attributes:
        start, end: span in the scanned text (end exclusive).
        items: the keys in order.
        bracketed: True for ``[...]`` groups.
    """

    start: int
    end: int
    items: list[CiteItem] = field(default_factory=list)
    bracketed: bool = True


_EXAMPLE_ITEM = re.compile(r"^[ \t]{0,3}(?:\(@(?P<a>[\w-]+)\)|@(?P<b>[\w-]+)[.)])(?=[ \t]|$)", re.M)


def example_labels(source: str) -> set[str]:
    """Labels of pandoc's labelled example-list items in a Markdown document (``(@good) An example.``).

    A marker counts only where pandoc opens a list item: on the document's
    first line, after a blank line, or on the line after another example item
    (pandoc 3: a list cannot interrupt a paragraph, so in ``Text\n@alice. next``
    the ``@alice`` is a citation).
    """
    labels: set[str] = set()
    prev_blank, prev_item = True, False
    for line in source.splitlines():
        m = _EXAMPLE_ITEM.match(line)
        is_item = m is not None and (prev_blank or prev_item)
        if is_item:
            labels.add(m.group("a") or m.group("b"))
        prev_blank, prev_item = not line.strip(), is_item
    return labels


def without_examples(groups: list[CiteGroup], labels: set[str]) -> list[CiteGroup]:
    """``groups`` without references to example labels (pandoc numbers them: ``(@good)`` -> ``(1)``)."""
    if not labels:
        return groups
    out = []
    for g in groups:
        items = [it for it in g.items if it.key not in labels]
        if items:
            out.append(g if len(items) == len(g.items) else CiteGroup(g.start, g.end, items, g.bracketed))
    return out


def _not_after_string(text: str, i: int) -> bool:
    """pandoc's ``notAfterString`` for an ``@`` (or ``-@``) at offset ``i``."""
    if i == 0:
        return True
    prev = text[i - 1]
    if prev == "_":
        return True
    if prev.isalnum():
        return False
    if prev == "." and i >= 2 and text[i - 2].isalnum():
        return False
    if prev == "\\":
        return False
    return True


def _match_key(text: str, at: int) -> re.Match[str] | None:
    """The key starting at the ``@`` at offset ``at``, or None."""
    m = _KEY_RE.match(text, at)
    if not m:
        return None
    if m.group("simple") is not None:
        first = m.group("simple")[0]
        if not (first.isalnum() or first in "_*"):
            return None
    return m


def _key_of(m: re.Match[str]) -> str:
    return m.group("braced") if m.group("braced") is not None else m.group("simple")


# Locator terms: CSL locator labels with pandoc's English abbreviations
# (pandoc Citeproc/Locator.hs uses citeproc's term list).
_LOCATOR_TERMS: list[tuple[str, str]] = []
for _label, _forms in {
    "book": ["books", "book", "bks.", "bk."],
    "chapter": ["chapters", "chapter", "chaps.", "chap.", "chs.", "ch."],
    "column": ["columns", "column", "cols.", "col."],
    "figure": ["figures", "figure", "figs.", "fig."],
    "folio": ["folios", "folio", "fols.", "fol.", "ff.", "f."],
    "number": ["numbers", "number", "nos.", "no."],
    "line": ["lines", "line", "ll.", "l."],
    "note": ["notes", "note", "nn.", "n."],
    "opus": ["opera", "opus", "opp.", "op."],
    "page": ["pages", "page", "pp.", "p.", "pgs.", "pg."],
    "paragraph": ["paragraphs", "paragraph", "paras.", "para.", "¶¶", "¶", "pars.", "par."],
    "part": ["parts", "part", "pts.", "pt."],
    "section": ["sections", "section", "secs.", "sec.", "§§", "§"],
    "sub verbo": ["sub verbis", "sub verbo", "s.vv.", "s.v."],
    "verse": ["verses", "verse", "vv.", "v."],
    "volume": ["volumes", "volume", "vols.", "vol."],
    "table": ["tables", "table", "tbls.", "tbl."],
    "equation": ["equations", "equation", "eqs.", "eq."],
    "supplement": ["supplement", "suppl."],
}.items():
    for _f in _forms:
        _LOCATOR_TERMS.append((_f, _label))
_LOCATOR_TERMS.sort(key=lambda t: -len(t[0]))
_LOC_ONE = r"(?:[A-Z]?\d+(?:\.\d+)+|[0-9]+[a-z]?(?![\w])|[ivxlcdm]+(?![\w])|[IVXLCDM]+(?![\w])|[A-Z]\d+)"
_LOC_VALUE = _LOC_ONE + r"(?:\s*(?:[-–—]+|,|&|and)\s*" + _LOC_ONE + r")*"
_LOC_TERM_RE = re.compile(
    r"\s*,?\s*(?P<term>" + "|".join(re.escape(t) for t, _ in _LOCATOR_TERMS) + r")\s*(?P<value>" + _LOC_VALUE + r")",
    re.I,
)
_LOC_BARE_RE = re.compile(r"\s*,?\s*(?P<value>\d+(?:\s*[-–—]+\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–—]+\s*\d+)?)*)(?![\w.])")
_LOC_BRACED_RE = re.compile(r"\s*,?\s*\{(?P<inner>[^{}]*)\}")
_CLOCK = r"(?:\d{1,2}:)?\d{1,2}:[0-5]\d(?:[.,]\d{1,3})?"
_LOC_TIME_RE = re.compile(r"\s*,?\s*(?:at\s+)?(?P<value>" + _CLOCK + r"(?:\s*[-–—]+\s*" + _CLOCK + r")?)(?![\w:])")


def parse_locator(suffix: str) -> tuple[Locator | None, str]:
    """Split a citation suffix into its locator and the rest.

    ``", p. 33"`` gives ``(Locator('page', '33', 'p. 33'), '')``;
    ``", pp. 33-35 and passim"`` keeps ``'and passim'``; a bare number
    (``", 33"``) is a page, as in pandoc; a time (``", 12:34"``,
    ``", 1:02:03"``, ``", 12:34-12:51"``) is a ``timestamp`` locator into a
    recording; ``{...}`` braces hold a locator verbatim. Unknown terms give no locator and keep the suffix.

    Args:
        suffix: the text after the key in a bracketed citation, or the
            inside of the brackets after an in-text key.

    Returns:
        ``(locator or None, remaining suffix text, stripped)``.
    """
    m = _LOC_BRACED_RE.match(suffix)
    if m:
        inner = m.group("inner").strip()
        loc, rest = parse_locator(", " + inner)
        if loc is not None and not rest:
            return loc, suffix[m.end():].strip()
        return Locator("page", inner, inner), suffix[m.end():].strip()
    m = _LOC_TIME_RE.match(suffix)
    if m:  # a time in a recording: [@talk, 12:34], [@talk, at 12:34-12:51]
        return Locator("timestamp", m.group("value").strip(), suffix[m.start("value"): m.end("value")].strip()), suffix[m.end():].strip()
    m = _LOC_TERM_RE.match(suffix)
    if m:
        term = m.group("term").lower()
        label = next(lbl for t, lbl in _LOCATOR_TERMS if t.lower() == term)
        raw = suffix[m.start("term"): m.end("value")]
        return Locator(label, m.group("value").strip(), raw), suffix[m.end():].strip()
    m = _LOC_BARE_RE.match(suffix)
    if m:
        return Locator("page", m.group("value").strip(), m.group("value").strip()), suffix[m.end():].strip()
    return None, suffix.strip().lstrip(",").strip()


_SIGNALS = (
    "see generally",
    "see also",
    "see, e.g.,",
    "see e.g.",
    "but see",
    "but cf.",
    "compare",
    "contra",
    "accord",
    "see",
    "cf.",
    "cf",
    "e.g.",
    "e.g.,",
    "also",
    "i.e.",
    "for example",
    "for a review",
    "reviewed in",
)


def normalise_signal(prefix: str) -> str | None:
    """The introductory signal at the end of a citation prefix, normalised.

    ``"see"`` -> ``"see"``; ``"cf."`` -> ``"cf."``; ``"see, e.g.,"`` ->
    ``"see e.g."``; ``"also"`` -> ``"see also"``; other text -> None.
    Signals set in italics or emphasis, as the Bluebook sets them, read the
    same: ``"*See, e.g.*,"``, ``"_Cf._"``, ``"\\emph{But see}"`` (Markdown
    ``*``/``_`` marks and LaTeX ``\\emph``/``\\textit`` are dropped first).
    """
    prefix = re.sub(r"\\(?:emph|textit|textsl|it)\s*\{([^{}]*)\}", r"\1", prefix)
    prefix = re.sub(r"(?<![\w])[*_]+|[*_]+(?![\w])", "", prefix)
    p = re.sub(r"\s+", " ", prefix.strip().lower()).rstrip(",:; ")
    if not p:
        return None
    for s in _SIGNALS:
        s2 = s.rstrip(",")
        if p == s2 or p.endswith(" " + s2) or p.endswith("(" + s2):
            if s2 in ("see, e.g.", "see e.g."):
                return "see e.g."
            if s2 == "cf":
                return "cf."
            if s2 == "also":
                return "see also"
            if s2 in ("e.g.", "for example"):
                return "e.g."
            return s2
    return None


def bracket_pairs(text: str) -> dict[int, int]:
    """Offset of the ``]`` closing each ``[`` that is closed, in one pass.

    Nesting aware; a backslash escapes the next character; a blank line
    closes nothing (an inline span never crosses one). Linear in
    ``len(text)``: every ``[`` is pushed and popped once, where scanning
    forward from each ``[`` took quadratic time on ``'[' * N``.
    """
    pairs: dict[int, int] = {}
    stack: list[int] = []
    j, n = 0, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            stack.append(j)
        elif c == "]":
            if stack:
                pairs[stack.pop()] = j
        elif c == "\n" and j + 1 < n and text[j + 1] == "\n":
            stack.clear()
        j += 1
    return pairs


def _parse_group(text: str, start: int, end: int) -> list[CiteItem] | None:
    """Parse the inside of ``[...]`` (``text[start:end]``) as a citation list."""
    inner = text[start:end]
    if "@" not in inner:
        return None
    items: list[CiteItem] = []
    pos = start
    for part in _iter_semicolon_parts(inner):
        p_start = pos
        p_end = pos + len(part)
        pos = p_end + 1
        k = None
        for m in re.finditer(r"-?@", text[p_start:p_end]):
            at = p_start + m.start()
            dash = text[at] == "-"
            at_sign = at + 1 if dash else at
            if not _not_after_string(text, at):
                continue
            km = _match_key(text, at_sign)
            if km is None:
                continue
            k = (at, at_sign, km, dash)
            break
        if k is None:
            return None
        at, at_sign, km, dash = k
        prefix = text[p_start:at].strip()
        suffix_raw = text[km.end():p_end]
        locator, suffix = parse_locator(suffix_raw)
        mode = CitationMode.SUPPRESS_AUTHOR if dash else CitationMode.PARENTHETICAL
        items.append(CiteItem(_key_of(km), mode, prefix, suffix, locator, at_sign))
    return items or None


def _iter_semicolon_parts(inner: str) -> Iterator[str]:
    """The ``;``-separated parts of ``inner`` (``;`` inside braces does not count), lazily.

    Lazily, so that a group whose first part holds no key is given up
    after reading that part only.
    """
    depth, start = 0, 0
    for k, c in enumerate(inner):
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif c == ";" and depth == 0:
            yield inner[start:k]
            start = k + 1
    yield inner[start:]


def scan_citations(text: str) -> list[CiteGroup]:
    """All citation groups in a masked inline span, in order.

    Args:
        text: inline Markdown with code, raw HTML and link targets masked
            (same length as the original; see :func:`mask_non_prose`).

    Returns:
        Groups in order of their start offset; crossrefs (``@fig:x``) are
        included as items and left to the caller to drop (pandoc parses them
        as citations too).
    """
    groups: list[CiteGroup] = []
    taken = [False] * (len(text) + 1)
    pairs = bracket_pairs(text)
    ats = [m.start() for m in re.finditer("@", text)]
    i = 0
    while True:
        i = text.find("[", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] in "\\!^":
            i += 1
            continue
        close = pairs.get(i, -1)
        k = bisect.bisect_left(ats, i)
        if close < 0 or k == len(ats) or ats[k] > close:  # no "@" inside: no citation
            i += 1
            continue
        after = text[close + 1: close + 2]
        if after in ("(", "["):
            i += 1  # a link or reference link: its text may still hold in-text cites
            continue
        items = _parse_group(text, i + 1, close)
        if items:
            groups.append(CiteGroup(i, close + 1, items, True))
            for j in range(i, close + 1):
                taken[j] = True
            i = close + 1
        else:
            i += 1
    # In-text citations: @key not inside a bracketed group.
    for at in ats:
        if taken[at]:
            continue
        suppress = at > 0 and text[at - 1] == "-" and _not_after_string(text, at - 1)  # -@key: suppress-author, as pandoc reads it
        if not suppress and not _not_after_string(text, at):
            continue
        km = _match_key(text, at)
        if km is None:
            continue
        end = km.end()
        locator, suffix = None, ""
        lm = re.compile(r"[ \t]?\[([^\[\]@]*)\]").match(text, end)
        if lm and not text[lm.end():lm.end() + 1] in ("(", "["):
            locator, suffix = parse_locator(", " + lm.group(1))
            end = lm.end()
        mode, start = (CitationMode.SUPPRESS_AUTHOR, at - 1) if suppress else (CitationMode.NARRATIVE, at)
        groups.append(CiteGroup(start, end, [CiteItem(_key_of(km), mode, "", suffix, locator, at)], False))
        for j in range(start, end):
            taken[j] = True
    groups.sort(key=lambda g: g.start)
    return groups


# Repeated parts are bounded (2,000 characters) so that an unclosed "`", "<!--", "$" or
# "](" repeated N times costs O(N), not O(N^2) (bench/readers_scaling.py).
_CODE_SPAN = re.compile(r"(?<!\\)(`+)(?!`)(.{1,2000}?)(?<!`)\1(?!`)", re.S)
_HTML = re.compile(
    r"<!--.{0,2000}?-->|</?[A-Za-z][A-Za-z0-9-]{0,50}(?:\s[^<>]{0,2000})?/?>|<(?:https?|ftp|mailto):[^>\s]{0,2000}>|<[^>\s@]{1,200}@[^>\s]{1,200}>",
    re.S,
)
_BRACED_KEY = re.compile(r"(?<![\w.])@\{[^\s{}]{1,2000}\}")
_LINK_TARGET = re.compile(r"\]\(([^()\s]{0,2000}(?:\([^()]{0,2000}\)[^()\s]{0,2000}){0,20}(?:\s+\"[^\"]{0,2000}\")?)\)")
_MATH = re.compile(r"(?<![\\$])\$(?!\s)[^$\n]{1,2000}?(?<!\s)\$(?!\d)")


_EXAMPLE_MARKER = re.compile(r"^[ ]{0,3}(?:\(@[\w-]*\)|@[\w-]*[.)])(?=\s|$)")


def mask_example_marker(text: str) -> str:
    """Blank out a pandoc example-list marker at the start of a paragraph or list item, keeping offsets.

    Pandoc's ``example_lists`` extension reads ``(@label)``, ``@label)`` and
    ``@label.`` followed by a space or the end of the line, at the start of a
    block, as the marker of a numbered example, not a citation (pandoc 3:
    ``@alice. Then more.`` and ``(@alice) item`` hold no Cite; ``Thanks (@alice)
    today.`` does). ``text`` is the block's inline text as the Markdown reader
    holds it (a list item's bullet already stripped).
    """
    m = _EXAMPLE_MARKER.match(text)
    return text if m is None else " " * m.end() + text[m.end():]


def mask_non_prose(text: str) -> str:
    """Blank out spans where an ``@`` is never a citation, keeping offsets.

    Masks code spans, raw HTML and autolinks (not inside a braced key ``@{<x>}``,
    which pandoc reads as the key ``<x>``), link targets ``](...)``, bare
    URLs and inline TeX math, replacing each masked character (newlines
    excepted) by a space. Bare URLs are left alone, as pandoc's default
    Markdown leaves them (``@`` in ``/@user`` is a citation there too).

    Args:
        text: inline Markdown.

    Returns:
        A string of the same length.
    """
    chars = list(text)

    def blank(s: int, e: int) -> None:
        for j in range(s, e):
            if chars[j] != "\n":
                chars[j] = " "

    for m in _CODE_SPAN.finditer(text):
        blank(m.start(), m.end())
    # pandoc reads a braced key before raw HTML: in [@{<x>}] the key is "<x>", no tag (issue 31)
    braced = [(m.start(), m.end()) for m in _BRACED_KEY.finditer(text)]
    starts = [b[0] for b in braced]
    for m in _HTML.finditer(text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and braced[k][0] < m.start() and m.end() <= braced[k][1]:
            continue
        blank(m.start(), m.end())
    for m in _LINK_TARGET.finditer(text):
        blank(m.start(1), m.end(1))
    for m in _MATH.finditer(text):
        blank(m.start(), m.end())
    return "".join(chars)
