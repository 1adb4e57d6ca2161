"""Reference lists printed in a PDF (or a ``.bbl``) -> :class:`~citeproof.model.Reference` records.

Two steps, each usable alone:

* :func:`segment_references` cuts the lines of a reference list into entries:
  numbered lists (``[12] ...`` or ``12. ...``, the next entry starting only at
  the next number, so a ``2012.`` inside an entry never starts one) and
  author-year lists (a new entry where a line starts at the column's left edge
  while continuation lines hang indented; without a hanging indent, where a
  line opens with a surname and initials). Entries run across columns and pages.
* :func:`parse_reference` reads one entry's text into CSL-style fields:
  authors (family names), title, year, container, DOI, arXiv id, URL.

Our own parser, measured against the numbers each real list prints (see the
tests and the issue note); no kept library fitted (GROBID needs a Java service).
Everything here is pure: lines in, records out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from citeproof.model import Reference

__all__ = ["RefLine", "RefEntry", "segment_references", "parse_reference", "author_year_label", "fold_name", "ARXIV_RE", "DOI_RE"]


@dataclass(frozen=True)
class RefLine:
    """One printed line of a reference list.

    Attributes:
        text: the line's text.
        page: PDF page from 1.
        bbox: ``(x0, y0, x1, y1)`` in PDF points, top-left origin.
        col: column index on its page (0 left / single, 1 right).
        bold: True when most of the line's characters are in a bold font.
    """

    text: str
    page: int
    bbox: tuple[float, float, float, float]
    col: int = 0
    bold: bool = False


@dataclass
class RefEntry:
    """One entry of a printed reference list.

    Attributes:
        label: the label as printed: ``10`` for ``[10]``, ``Smith et al. 2020``
            for author-year lists.
        number: the entry's number in a numbered list, else None.
        text: the entry's text, lines joined, the number removed.
        lines: the printed lines it was cut from.
        reference: the parsed fields (``citekey`` equals ``label``).
    """

    label: str
    number: int | None
    text: str
    lines: list[RefLine] = field(default_factory=list)
    reference: Reference | None = None

    @property
    def page(self) -> int:
        """Page (from 1) of the entry's first line."""
        return self.lines[0].page if self.lines else 0


DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(
    r"(?:arXiv:\s*|arxiv\.org/(?:abs|pdf)/)((?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7})|(?:\d{4}\.\d{4,5}))(?:v\d+)?", re.I
)
_URL_RE = re.compile(r"https?://[^\s<>\"]+")
_NUM_LABEL = re.compile(r"^\s*\[(\d{1,4})\]\s*(.*)$")
_NUM_DOT = re.compile(r"^\s*(\d{1,4})\.\s+(.*)$")
_AUTHOR_START = re.compile(
    r"^(?:(?:van|von|de|der|den|del|da|di|le|la)\s+)*[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,\s+(?:[A-Z]\.|[A-Z][a-z]+\s[A-Z]\.)|^[A-Z][\w'’\-]+\s+et\s+al\."
)
_YEAR = r"(?:1[89]|20)\d\d"


def _join(lines: list[str]) -> str:
    """Join printed lines: end-of-line hyphens before a lower-case letter are dropped (not in URLs)."""
    out = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if out.endswith("-") and ln[:1].islower() and len(out) > 1 and out[-2].isalpha() and not re.search(r"(?:https?://|doi\.org|/)\S*$", out):
            out = out[:-1] + ln
        elif out.endswith(("/", "-", "_")) and re.search(r"https?://\S*$", out):
            out += ln  # a URL broken at a slash or hyphen
        elif out:
            out += " " + ln
        else:
            out = ln
    return re.sub(r"\s+", " ", out).strip()


def segment_references(lines: list[RefLine]) -> tuple[list[RefEntry], str]:
    """Cut a reference list's lines into entries.

    Args:
        lines: the list's printed lines in reading order (heading excluded).

    Returns:
        ``(entries, style)`` with style ``numbered``, ``author-year``
        (hanging indent or surname-first lines) or ``unnumbered`` (entries
        set apart by spacing; the caller decides whether the text cites them
        by number, in order, or by author and year).
        Entries are not yet parsed (``reference`` is None).
    """
    starts = [ln for ln in lines if _NUM_LABEL.match(ln.text) or _NUM_DOT.match(ln.text)]
    numbered = len(starts) >= 2 and any((_NUM_LABEL.match(s.text) or _NUM_DOT.match(s.text)).group(1) == "1" for s in starts)  # type: ignore[union-attr]
    if numbered:
        return _segment_numbered(lines), "numbered"
    if not _hanging(lines):
        spaced = _segment_spaced(lines)
        if spaced is not None:
            return spaced, "unnumbered"
    return _segment_author_year(lines), "author-year"


def _hanging(lines: list[RefLine]) -> bool:
    left: dict[tuple[int, int], float] = {}
    for ln in lines:
        left[(ln.page, ln.col)] = min(left.get((ln.page, ln.col), 1e9), ln.bbox[0])
    indented = sum(1 for ln in lines if ln.bbox[0] - left[(ln.page, ln.col)] > 4)
    return indented >= max(2, len(lines) // 5)


def _segment_spaced(lines: list[RefLine]) -> list[RefEntry] | None:
    """Entries set apart by vertical space (Manubot's unnumbered lists); None when the list has no such spacing.

    A new entry starts after a gap clearly wider than the line spacing; at a
    column or page break, where a bold line follows a plain one.
    """
    gaps = [b.bbox[1] - a.bbox[3] for a, b in zip(lines, lines[1:]) if a.page == b.page and a.col == b.col]
    if len(gaps) < 4:
        return None
    base = sorted(gaps)[len(gaps) // 2]
    wide = [g for g in gaps if g > base + 4]
    if len(wide) < max(2, len(gaps) // 10):
        return None
    entries: list[RefEntry] = []
    parts: list[list[str]] = []
    prev: RefLine | None = None
    for ln in lines:
        if prev is None:
            start = True
        elif prev.page == ln.page and prev.col == ln.col:
            start = ln.bbox[1] - prev.bbox[3] > base + 4
        else:
            start = ln.bold and not prev.bold
        if start:
            entries.append(RefEntry(label="", number=None, text="", lines=[ln]))
            parts.append([ln.text])
        else:
            entries[-1].lines.append(ln)
            parts[-1].append(ln.text)
        prev = ln
    for e, p in zip(entries, parts):
        e.text = _strip_backrefs(_join(p))
    return entries


def _segment_numbered(lines: list[RefLine]) -> list[RefEntry]:
    bracket = sum(1 for ln in lines if _NUM_LABEL.match(ln.text)) >= sum(1 for ln in lines if _NUM_DOT.match(ln.text))
    pat = _NUM_LABEL if bracket else _NUM_DOT
    entries: list[RefEntry] = []
    parts: list[list[str]] = []
    expected = 1
    for ln in lines:
        m = pat.match(ln.text)
        if m and int(m.group(1)) == expected:
            entries.append(RefEntry(label=m.group(1), number=expected, text="", lines=[ln]))
            parts.append([m.group(2)])
            expected += 1
        elif entries:
            entries[-1].lines.append(ln)
            parts[-1].append(ln.text)
    for e, p in zip(entries, parts):
        e.text = _strip_backrefs(_join(p))
    return entries


def _segment_author_year(lines: list[RefLine]) -> list[RefEntry]:
    left: dict[tuple[int, int], float] = {}
    for ln in lines:
        k = (ln.page, ln.col)
        left[k] = min(left.get(k, 1e9), ln.bbox[0])
    indented = sum(1 for ln in lines if ln.bbox[0] - left[(ln.page, ln.col)] > 4)
    hanging = indented >= max(2, len(lines) // 5)
    entries: list[RefEntry] = []
    parts: list[list[str]] = []
    for ln in lines:
        at_edge = ln.bbox[0] - left[(ln.page, ln.col)] < 2.5
        if hanging:
            start = at_edge and bool(re.match(r"^\W?[A-Z\u00c0-\u024f]", ln.text.strip()))
        else:
            prev = parts[-1][-1].rstrip() if parts else ""
            start = bool(_AUTHOR_START.match(ln.text.strip())) and (not prev or not prev.endswith((",", "&", "and", "-")))
        if start or not entries:
            entries.append(RefEntry(label="", number=None, text="", lines=[ln]))
            parts.append([ln.text])
        else:
            entries[-1].lines.append(ln)
            parts[-1].append(ln.text)
    for e, p in zip(entries, parts):
        e.text = _strip_backrefs(_join(p))
    return entries


_BACKREFS = re.compile(rf"(\b{_YEAR}[a-z]?\.)\s+\d{{1,3}}(?:\s*,\s*\d{{1,3}})*\s*$")


def _strip_backrefs(text: str) -> str:
    """Drop the page back-references some styles print after an entry (``..., 2012. 1, 4, 6``)."""
    return _BACKREFS.sub(r"\1", text).strip()


def fold_name(name: str) -> str:
    """A surname folded for comparison: accents stripped, case folded, non-letters dropped."""
    s = unicodedata.normalize("NFKD", name)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"[^a-z]", "", s.casefold())


_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.\s?-?\s?)+$|^(?:[A-Z]\.?\s?-?)+$")
_NAME_SPLIT = re.compile(r"\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*|\s*;\s*")


def _family_names(author_text: str) -> tuple[list[str], bool]:
    """Family names from an author string, and whether it ended in *et al.*"""
    et_al = bool(re.search(r"\bet\s*al\b", author_text))
    author_text = re.sub(r"\bet\s*al\.?.*$", "", author_text)
    author_text = re.sub(r"\([^)]*\)", "", author_text)
    names: list[str] = []
    for chunk in _NAME_SPLIT.split(author_text):
        chunk = chunk.strip(" .,")
        if not chunk or _INITIALS.match(chunk):
            continue
        words = chunk.split()
        lead = re.match(r"^((?:[A-Z][a-z]?\.\s?-?\s?)+)(.*)$", chunk)
        if lead and lead.group(2).strip():
            names.append(lead.group(2).strip())  # J. Carreira -> Carreira
        elif len(words) >= 2 and not re.fullmatch(r"[A-Z]\.?", words[-1]):
            # Given M. Family: the last word, keeping particles
            k = len(words) - 1
            while k > 0 and words[k - 1].lower() in ("van", "von", "de", "der", "den", "del", "da", "di", "le", "la"):
                k -= 1
            names.append(" ".join(words[k:]))
        else:
            names.append(words[0] if words else chunk)
    return names, et_al


_AUTHOR_NAME = r"(?:(?:[A-Z][a-z]?\.[\s-]?)+\s?(?:(?:van|von|de|der|del|da|di|le|la)\s+)*[A-Z][\w'’´`\-]+(?:\s[A-Z][\w'’\-]+)?)"
_AUTHOR_LIST = re.compile(rf"^(?:{_AUTHOR_NAME}(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*))*{_AUTHOR_NAME}(?:\s+et\s+al\.?)?(?:\s*\([^)]*\))?")
_SENT_END = re.compile(r"(?<=[a-z\u00e0-\u024f´`'’)]{2})\.\s+(?=[A-Z0-9“\"\u00c0-\u024f])|(?<=\bal)\.\s+(?=[A-Z“\"])")


def parse_reference(text: str, label: str = "", *, first_line: str = "", first_line_bold: bool = False, style: str = "numbered", lines: list[str] | None = None, bold: list[bool] | None = None) -> Reference:
    """Parse one reference entry's text into CSL-style fields.

    Args:
        text: the entry, lines joined, its number removed.
        label: the citekey to give it (the label as printed).
        first_line: the entry's first printed line (number removed), used when
            ``first_line_bold`` says the style prints the title alone there.
        first_line_bold: True when the first line is set in bold (Manubot's
            title line).
        style: ``numbered`` or ``author-year`` (where the year follows the
            authors).
        lines, bold: the entry's printed lines (number removed) and whether
            each is bold; with ``first_line_bold`` the bold lines are the
            title, the lines up to the one holding ``(date)`` the authors and
            that line the container (Manubot's layout).

    Returns:
        A :class:`Reference` whose fields are '' where not found. Never raises.
    """
    doi = ""
    m = DOI_RE.search(text)
    if m:
        doi = m.group(1).rstrip(".,;)]").lower()
    arxiv = ""
    m = ARXIV_RE.search(text)
    if m:
        arxiv = m.group(1)
    m = _URL_RE.search(text)
    url = m.group(0).rstrip(".,;)") if m else ""
    scrub = _URL_RE.sub(" ", DOI_RE.sub(" ", ARXIV_RE.sub(" ", text)))
    year = ""
    if style == "author-year":
        m = re.search(rf"\b({_YEAR}[a-z]?)\b", scrub)
    else:
        m = re.search(rf"\(({_YEAR}[a-z]?)(?:[-)]|,\s)", scrub) or None
        if m is None:
            ms = list(re.finditer(rf"\b({_YEAR}[a-z]?)\b", scrub))
            m = ms[-1] if ms else None
    if m:
        year = m.group(1)
    title, authors_text, container = "", "", ""
    q = re.search(r"[“\"]([^”\"]{8,})[”\"]", text)
    if first_line_bold and lines and bold:
        k = 0
        while k < len(lines) and bold[k]:
            k += 1
        title = _join(lines[:k])
        auth_lines: list[str] = []
        while k < len(lines) and not re.search(rf"\({_YEAR}", lines[k]):
            auth_lines.append(lines[k])
            k += 1
        authors_text = _join(auth_lines).replace("…", ",")
        if k < len(lines):
            container = re.split(rf"\s*\({_YEAR}", lines[k])[0].strip()
    elif first_line_bold and first_line.strip():
        title = first_line.strip()
    elif q:
        title = q.group(1).strip().rstrip(",.")
        authors_text = text[: q.start()].strip().rstrip(",")
        after = text[q.end():].strip(" ,.")
        container = re.split(r",\s*(?:vol\.|\d)|\s\d", after, maxsplit=1)[0].strip(" ,.")
    elif style == "author-year":
        m2 = re.search(rf"[\s,(]+{_YEAR}[a-z]?\b[).,]?", text)
        authors_text = text[: m2.start()] if m2 else text
        after = text[m2.end():].strip(" ,.") if m2 else ""
        parts = _SENT_END.split(after)
        if len(parts) >= 2 and len(parts[0]) > 15 and not after.lower().startswith("in "):
            title, container = parts[0].strip(), parts[1].strip()
        else:
            container = re.split(r",\s*\d", after, maxsplit=1)[0].strip(" ,.")
            if container.lower().startswith("in "):
                container = container[3:]
    else:
        am = _AUTHOR_LIST.match(text)
        rest = text
        if am and am.end() > 0:
            authors_text, rest = text[: am.end()], text[am.end():]
        if rest.startswith(".") or (not rest.startswith(",") and authors_text):
            # Authors. Title. In Container, year.
            body = rest.lstrip(". ")
            parts = re.split(r"(?<=[a-z0-9)\]])[.?!]\s+(?=[A-Z]|arXiv)|(?<=[?!])\s+", body, maxsplit=1)
            title = parts[0].strip().rstrip(".")
            if len(parts) > 1:
                container = re.split(rf",?\s*{_YEAR}", re.sub(r"^In\s+", "", parts[1]), maxsplit=1)[0].strip(" ,.")
        elif not authors_text:
            parts = _SENT_END.split(text, maxsplit=2)
            if len(parts) >= 2:
                authors_text, title = parts[0], parts[1]
                container = parts[2] if len(parts) > 2 else ""
        else:
            # Authors, Title, Journal Vol, page (year)
            body = rest.lstrip(", ")
            j = re.search(r",\s+(?=(?:[A-Z][a-z]{0,8}\.\s|arXiv|[A-Z][\w.]*\s+[A-Z]?\d|\d|[A-Z][a-z]+\s(?:[A-Z][a-z]+\s)*(?:\d|\()|[A-Z][a-z]+\s[A-Z][a-z]{0,6}\.|(?:[A-Z]\w+\s)*(?:University|Press|Springer|Wiley|Elsevier|Cambridge|Oxford|World Scientific)\b|in\s))", body)
            if j and not re.match(r"^(?:arXiv|\d|[A-Z][a-z]{0,6}\.\s)", body):
                title, container = body[: j.start()].strip(), body[j.end():]
            else:
                container = body
            container = re.split(r"\s*(?:\d|\(|,|arXiv)", container, maxsplit=1)[0].strip(" ,.")
    title = re.sub(r"\s+", " ", title).strip(" ,.")
    if ARXIV_RE.search("arXiv:" + title) and len(title) < 20 or title.lower().startswith(("arxiv", "http")):
        title = ""
    names, et_al = _family_names(authors_text)
    return Reference(
        citekey=label,
        entry_type="",
        title=title,
        authors=tuple(names) + (("et al.",) if et_al else ()),
        year=year,
        container=container[:200],
        doi=doi,
        arxiv=arxiv,
        url=url,
    )


def author_year_label(ref: Reference) -> str:
    """The author-year label a reader sees in the text: ``Smith 2020``,
    ``Smith and Jones 2019a``, ``Smith et al. 2020``.

    Returns '' when the entry has no author or no year.
    """
    names = [a for a in ref.authors if a != "et al."]
    if not names or not ref.year:
        return ""
    if len(names) >= 3 or "et al." in ref.authors:
        return f"{names[0]} et al. {ref.year}"
    if len(names) == 2:
        return f"{names[0]} and {names[1]} {ref.year}"
    return f"{names[0]} {ref.year}"
