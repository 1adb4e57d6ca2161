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

from citeproof.bibliography.ref_fields import _REPEATED, ARXIV_RE, _body_author, DOI_RE, find_doi, list_form, parse_fields
from citeproof.model import Reference

__all__ = ["RefLine", "RefEntry", "segment_references", "entry_number", "strip_label", "list_form", "unparsed_reason", "parse_reference", "author_year_label", "fold_name", "repeats_authors", "inherit_authors", "ARXIV_RE", "DOI_RE"]


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


_URL_RE = re.compile(r"https?://[^\s<>\"]+")
_NUM_LABEL = re.compile(r"^\s*\[(\d{1,4})\]\s*(.*)$")
_NUM_DOT = re.compile(r"^\s*(\d{1,4})\.\s+(.*)$")
_NUM_PAREN = re.compile(r"^\s*\((\d{1,4})\)\s*(.*)$")
# a bare number (Vancouver, AIP, Nature without the dot): followed by a space or
# straight by an opening quote or capital, never by a digit or punctuation
_NUM_BARE = re.compile(r"^\s*(\d{1,4})(?:\s+|(?=[“\"‘A-Z]))(?=[^\d\s.,;:)\]–-])(.*)$")
_LABEL_PATTERNS = (_NUM_LABEL, _NUM_DOT, _NUM_PAREN, _NUM_BARE)


def entry_number(text: str, pattern: re.Pattern | None = None) -> tuple[int, str] | None:
    """The entry number a printed line starts with and the rest of the line:
    ``[12] ...``, ``12. ...``, ``(12) ...`` or a bare ``12 ...`` (``pattern``
    limits it to one form); None when the line starts with no label."""
    for pat in (pattern,) if pattern is not None else _LABEL_PATTERNS:
        m = pat.match(text)
        if m:
            return int(m.group(1)), m.group(2)
    return None


def strip_label(text: str) -> str:
    """``text`` without its leading entry label (any form :func:`entry_number` reads)."""
    hit = entry_number(text)
    return hit[1] if hit else text


def _sequence(lines: list[RefLine], pat: re.Pattern) -> int:
    """How many entries 1, 2, 3... start a line with this label form, in order."""
    expected = 1
    for ln in lines:
        hit = entry_number(ln.text, pat)
        if hit and hit[0] == expected:
            expected += 1
    return expected - 1


def _label_pattern(lines: list[RefLine]) -> re.Pattern | None:
    """The label form of a numbered list (the one giving the longest 1, 2, 3... run; a bare number needs 3), or None."""
    best, best_n = None, 1
    for pat in _LABEL_PATTERNS:
        n = _sequence(lines, pat)
        if n > best_n and (pat is not _NUM_BARE or n >= 3):
            best, best_n = pat, n
    return best
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
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and ln[:1].isupper():
            out += ln  # a compound broken at its hyphen: Low-/Noise, Belén-/Rodríguez
        elif out.endswith(("-", "–")) and len(out) > 1 and out[-2].isdigit() and ln[:1].isdigit():
            out += ln  # a page range broken at its dash: 1940–/1953
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
    pat = _label_pattern(lines)
    if pat is not None:
        return _segment_numbered(lines, pat), "numbered"
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


def _segment_numbered(lines: list[RefLine], pat: re.Pattern) -> list[RefEntry]:
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
        dash = bool(_REPEATED.match(ln.text))  # ———. 1963. Stigma: a new entry by the same authors
        if hanging:
            start = at_edge and (dash or bool(re.match(r"^\W?[A-Z\u00c0-\u024f]", ln.text.strip())))
        else:
            prev = parts[-1][-1].rstrip() if parts else ""
            start = (dash or bool(_AUTHOR_START.match(ln.text.strip()))) and (not prev or not prev.endswith((",", "&", "and", "-")))
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
            rest = lead.group(2).strip().split()  # J. Carreira -> Carreira; C. Titus Brown -> Brown
            k = len(rest) - 1
            while k > 0 and rest[k - 1].lower() in ("van", "von", "de", "der", "den", "del", "da", "di", "le", "la"):
                k -= 1
            names.append(" ".join(rest[k:]))
        elif len(words) >= 2 and not re.fullmatch(r"[A-Z]\.?", words[-1]):
            # Given M. Family: the last word, keeping particles
            k = len(words) - 1
            while k > 0 and words[k - 1].lower() in ("van", "von", "de", "der", "den", "del", "da", "di", "le", "la"):
                k -= 1
            names.append(" ".join(words[k:]))
        else:
            names.append(words[0] if words else chunk)
    return names, et_al




def parse_reference(text: str, label: str = "", *, first_line: str = "", first_line_bold: bool = False, style: str = "numbered", lines: list[str] | None = None, bold: list[bool] | None = None, form: str = "") -> Reference:
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
        form: the author-name form of the whole list
            (:func:`~citeproof.bibliography.ref_fields.list_form`), preferred
            where it reads.

    Returns:
        A :class:`Reference` whose fields are '' where not found. Never raises.
    """
    if not (first_line_bold and (lines and bold or first_line.strip())):
        f = parse_fields(text, style, form)
        names = f.names
        if not names and style == "author-year" and not f.same_authors:  # no name form read: the authors are what precedes the year
            m = re.search(rf"[\s,(]+{_YEAR}[a-z]?\b", text)
            fam, et_al = _family_names(text[: m.start()] if m else "")
            names = tuple(fam) + (("et al.",) if et_al else ())
        return Reference(citekey=label, entry_type="", title=f.title, authors=names, year=f.year, container=f.container,
                         doi=f.doi, arxiv=f.arxiv, url=f.url, pmid=f.pmid, pages=f.pages)
    doi = find_doi(text)
    arxiv = ""
    m = ARXIV_RE.search(text)
    if m:
        arxiv = m.group(1)
    m = _URL_RE.search(text)
    url = m.group(0).rstrip(".,;)") if m else ""
    scrub = _URL_RE.sub(" ", DOI_RE.sub(" ", ARXIV_RE.sub(" ", text)))
    year = ""
    m = re.search(rf"\(({_YEAR}[a-z]?)(?:[-)]|,\s)", scrub) or None
    if m is None:
        ms = list(re.finditer(rf"\b({_YEAR}[a-z]?)\b", scrub))
        m = ms[-1] if ms else None
    if m:
        year = m.group(1)
    title, authors_text, container = "", "", ""
    if lines and bold:
        # Manubot: the bold lines are the title, then the authors, then "Container (date)"
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
    else:
        title = first_line.strip()
    title = re.sub(r"\s+", " ", title).strip(" ,.")
    names, et_al = _family_names(authors_text)
    body = _body_author(authors_text)
    if body and all(len(c.split()) == 1 or c.split()[0] in ("and", "&") and len(c.split()) == 2 for c in body.split(",")[1:]):
        # National Academies of Sciences, Engineering, and Medicine: one corporate author, not three (but
        # Project Jupyter, Matthias Bussonnier, ...: a body, then people)
        names, et_al = [body], False
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


def repeats_authors(text: str) -> bool:
    """Whether an entry opens with a repeated-author dash (``———. 1963. Stigma ...``, ``——, ed.``, ``---.``):
    Chicago, APA-6 and MLA lists print it for the authors of the entry before."""
    return bool(_REPEATED.match(text))


def inherit_authors(refs: list[Reference], texts: list[str]) -> list[Reference]:
    """The references of one list, in printed order, each entry that opens with a repeated-author dash
    (:func:`repeats_authors`) given the authors of the entry before it (a run of dashes all get the first
    named entry's authors). An entry whose dash follows no named entry keeps no authors.

    Args:
        refs: the parsed entries, in printed order.
        texts: their printed texts (labels removed), in the same order.

    Returns:
        A new list of the same length; entries without a dash are the same objects.
    """
    import dataclasses

    out: list[Reference] = []
    for ref, text in zip(refs, texts):
        if repeats_authors(text) and not [a for a in ref.authors if a != "et al."] and out and out[-1].authors:
            ref = dataclasses.replace(ref, authors=out[-1].authors)
        out.append(ref)
    return out


def unparsed_reason(ref: Reference) -> str:
    """Why an entry's parse gives nothing to find its source by ('' when it has a title, an author, a DOI, an arXiv id, a PMID or a URL)."""
    if ref.title or [a for a in ref.authors if a != "et al."] or ref.doi or ref.arxiv or ref.pmid or ref.url:
        return ""
    return "no title, author or identifier read" + (f"; only the year {ref.year}" if ref.year else "")


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
