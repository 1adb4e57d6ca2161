"""PDF sources -> passages, with page numbers and boxes from the PDF itself.

PyMuPDF (``page.get_text("dict")``) gives blocks, lines and spans with their
boxes. From those:

* a passage is a text block in reading order; its ``page`` is the PDF page
  index + 1 and its ``bbox`` the union of the kept lines' boxes (PDF points,
  top-left origin);
* two-column pages are read column by column: blocks are classed as left,
  right or full width against the page's middle, and full-width blocks cut
  the page into bands read left column then right column;
* running heads and feet (a block in the top or bottom 8 % of the page whose
  text, digits masked, recurs on at least 30 % of pages) and margin line
  numbers (lines that are a bare number) are dropped;
* end-of-line hyphens are joined (``TEXT_DEHYPHENATE``); ligature glyphs are
  expanded where the font maps them; wrongly mapped ones ("índ" for "find")
  are repaired where the document spells the word cleanly elsewhere
  (:func:`ligature_repairs`), and the matcher folds the rest
  (:func:`citeproof.text.normalise.fold`);
* a block that straddles the gutter of a two-column page without spanning it
  is not ``quotable``: its reading order is not trusted.

Failures are data: :func:`parse_pdf` returns a reason instead of passages for
encrypted, corrupt, empty and image-only (scanned) PDFs.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from citeproof.model import Passage

__all__ = ["ParsedPDF", "parse_pdf", "PARSER_VERSION", "pdf_metadata", "label_sections", "ligature_repairs"]

PARSER_VERSION = "pdf-4"
"""Bumped whenever passages would come out differently; part of the cache key."""

_NUMERIC_LINE = re.compile(r"^\s*\d{1,4}\s*$")
_MARGIN = 0.08
_REPEAT_SHARE = 0.3


@dataclass
class ParsedPDF:
    """What :func:`parse_pdf` found.

    Attributes:
        passages: passages in reading order (ids ``p00001``...).
        text: the full text; passages' char offsets index into it.
        pages: page count.
        title: the PDF's metadata title, or the largest text on page 1.
        doi: the first DOI seen in the metadata or the first two pages, or ''.
        error: why the PDF gave no passages (None on success).
    """

    passages: list[Passage]
    text: str
    pages: int
    title: str = ""
    doi: str = ""
    error: str | None = None


_DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)


def _open(data: bytes):
    import pymupdf

    return pymupdf.open(stream=data, filetype="pdf")


def _norm_margin_text(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.strip().lower()))


def _join_lines(lines: list[str]) -> str:
    out = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if out.endswith("-") and ln[:1].islower() and len(out) > 1 and out[-2].isalpha():
            out = out[:-1] + ln
        elif out:
            out += " " + ln
        else:
            out = ln
    return re.sub(r"\s+", " ", out).strip()


def pdf_metadata(data: bytes) -> tuple[str, str, str | None]:
    """Cheap look at a PDF: ``(title, doi, error)`` without parsing every page.

    Used to match files to references by DOI or title (``--sources DIR``).
    """
    try:
        doc = _open(data)
    except Exception as exc:  # PyMuPDF raises FileDataError and friends
        return "", "", f"not a readable PDF ({exc})"
    if doc.needs_pass:
        return "", "", "the PDF is encrypted"
    meta = doc.metadata or {}
    title = (meta.get("title") or "").strip()
    doi = ""
    for field in ("subject", "keywords", "title"):
        m = _DOI_RE.search(meta.get(field) or "")
        if m:
            doi = m.group(1)
            break
    if not doi:
        for i in range(min(2, doc.page_count)):
            m = _DOI_RE.search(doc[i].get_text())
            if m:
                doi = m.group(1)
                break
    return title, doi.rstrip(".,;)").lower(), None


def parse_pdf(data: bytes) -> ParsedPDF:
    """Parse PDF bytes into passages.

    Args:
        data: the file's bytes.

    Returns:
        A :class:`ParsedPDF`; on failure ``passages`` is empty and ``error``
        says why in words a user can act on (encrypted, corrupt or
        truncated, no pages, no text layer).
    """
    import pymupdf

    try:
        doc = _open(data)
    except Exception as exc:
        return ParsedPDF([], "", 0, error=f"not a readable PDF: the file is corrupt or truncated ({exc}); re-download it")
    if doc.needs_pass:
        return ParsedPDF([], "", doc.page_count, error="the PDF is encrypted (password protected); save an unprotected copy")
    if doc.page_count == 0:
        return ParsedPDF([], "", 0, error="the PDF has no pages")
    flags = pymupdf.TEXT_DEHYPHENATE | pymupdf.TEXT_MEDIABOX_CLIP
    pages_blocks: list[tuple[float, float, list[dict]]] = []
    try:
        for page in doc:
            d = page.get_text("dict", flags=flags)
            blocks = [b for b in d.get("blocks", []) if b.get("type", 0) == 0]
            pages_blocks.append((float(d.get("width", page.rect.width)), float(d.get("height", page.rect.height)), blocks))
    except Exception as exc:
        return ParsedPDF([], "", doc.page_count, error=f"text extraction failed ({exc}); the PDF may be damaged")

    # Running heads and feet: margin blocks whose text recurs across pages.
    margin_counts: Counter[str] = Counter()
    for w, h, blocks in pages_blocks:
        seen = set()
        for b in blocks:
            y0, y1 = b["bbox"][1], b["bbox"][3]
            if y1 <= h * _MARGIN * 1.5 or y0 >= h * (1 - _MARGIN * 1.5):
                seen.add(_norm_margin_text(_block_text(b)))
        margin_counts.update(seen)
    n_pages = len(pages_blocks)
    repeated = {t for t, c in margin_counts.items() if c >= max(2, _REPEAT_SHARE * n_pages) and len(t) < 200}

    ordered: list[tuple[int, tuple[float, float, float, float, str], bool]] = []
    for pno, (w, h, blocks) in enumerate(pages_blocks, start=1):
        items = []
        for b in blocks:
            lines = []
            boxes = []
            for ln in b.get("lines", []):
                t = "".join(s.get("text", "") for s in ln.get("spans", []))
                if _NUMERIC_LINE.match(t):
                    continue  # margin line numbers, page numbers
                if t.strip():
                    lines.append(t)
                    boxes.append(ln["bbox"])
            if not lines:
                continue
            x0 = min(bx[0] for bx in boxes)
            y0 = min(bx[1] for bx in boxes)
            x1 = max(bx[2] for bx in boxes)
            y1 = max(bx[3] for bx in boxes)
            in_margin = y1 <= h * _MARGIN * 1.5 or y0 >= h * (1 - _MARGIN * 1.5)
            if in_margin and _norm_margin_text(_block_text(b)) in repeated:
                continue
            text = _join_lines(lines)
            if len(text) < 2:
                continue
            items.append((x0, y0, x1, y1, text))
        ordered.extend((pno, it, q) for it, q in _reading_order(items, w))

    repair = ligature_repairs([it[4] for _, it, _ in ordered])
    passages: list[Passage] = []
    parts: list[str] = []
    offset = 0
    for pno, (x0, y0, x1, y1, text), quotable in ordered:
        if repair:
            text = _DAMAGED.sub(lambda m: _apply_case(m.group(0), repair.get(m.group(0).lower())), text)
        start = offset
        parts.append(text)
        offset += len(text) + 2
        passages.append(
            Passage(
                id=f"p{len(passages) + 1:05d}",
                text=text,
                page=pno,
                bbox=(round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)),
                char_start=start,
                char_end=start + len(text),
                quotable=quotable,
            )
        )
    full = "\n\n".join(parts)
    passages = label_sections(passages)
    title, doi, _ = pdf_metadata(data)
    if not passages:
        return ParsedPDF([], "", n_pages, title, doi, error="the PDF has no text layer (scanned images?); run OCR (e.g. ocrmypdf) and try again")
    if not title:
        title = passages[0].text[:200]
    return ParsedPDF(passages, full, n_pages, title, doi)


_SECTION = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+|[IVX]+\.\s+)?(abstract|summary|introduction|background|related work|methods?|materials and methods|"
    r"results|discussion|conclusions?|references|bibliography|works cited|literature cited|acknowledge?ments?|appendix)\b\W{0,3}$",
    re.I,
)


def label_sections(passages: list[Passage]) -> list[Passage]:
    """Set ``section`` from standard heading passages (``Abstract``, ``References``...).

    A passage that is only a standard section name (optionally numbered)
    opens that section for the passages after it; the name is stored lower
    case (``abstract``, ``references``). Other passages keep ''. The abstract
    also ends at the first heading-like passage (short, no final period),
    since the section after it is often not a standard name.
    """
    import dataclasses

    out = []
    current = ""
    for p in passages:
        t = p.text.strip()
        m = _SECTION.match(t)
        if m and len(t) < 60:
            current = m.group(1).lower()
            out.append(dataclasses.replace(p, section=current))
            continue
        if current == "abstract" and len(t) < 80 and not t.endswith((".", ":", ";", ",")):
            current = ""  # another heading: the abstract is over
        out.append(dataclasses.replace(p, section=current) if current else p)
    return out


_DAMAGED = re.compile(r"\w*[íì\ufffd]\w*")
_LIGATURED = re.compile(r"\w*(?:ffi|ffl|ff|fi|fl)\w*")


def ligature_repairs(texts: list[str]) -> dict[str, str]:
    """Spellings for words whose ligature glyph was extracted wrongly.

    Some PDFs map the *fi*/*ff*/*ffi* ligature glyphs to ``í``, ``ì`` or
    U+FFFD ("índ", "diìcult", "de\ufffdne"). A damaged word is repaired only
    when the same document also spells the word cleanly (same folded form,
    :func:`citeproof.text.normalise.fold`), so names with a real ``í`` are
    left alone.

    Args:
        texts: the document's passage texts.

    Returns:
        Lower-case damaged word -> lower-case clean word.
    """
    from citeproof.text.normalise import fold

    damaged = {w.lower() for t in texts for w in _DAMAGED.findall(t)}
    if not damaged:
        return {}
    clean: dict[str, str] = {}
    for t in texts:
        for w in _LIGATURED.findall(t):
            lw = w.lower()
            if not _DAMAGED.search(lw):
                clean.setdefault(fold(lw), lw)
    return {d: clean[fold(d)] for d in damaged if fold(d) in clean}


def _apply_case(word: str, repl: str | None) -> str:
    if repl is None:
        return word
    if word[:1].isupper():
        return repl[:1].upper() + repl[1:]
    return repl


def _block_text(b: dict) -> str:
    return " ".join("".join(s.get("text", "") for s in ln.get("spans", [])) for ln in b.get("lines", []))


def _reading_order(items: list[tuple[float, float, float, float, str]], width: float):
    """Order one page's blocks for reading; yield ``(item, quotable)``.

    A page is two-column when at least two blocks sit wholly on each side
    of the middle. Full-width blocks then cut the page into bands, each read
    left column first. Blocks that cross the middle without being wide
    enough to span both columns are not quotable.
    """
    if not items:
        return []
    mid = width / 2
    gutter = width * 0.03
    left = [it for it in items if it[2] <= mid + gutter]
    right = [it for it in items if it[0] >= mid - gutter]
    if len(left) < 2 or len(right) < 2:
        return [(it, True) for it in sorted(items, key=lambda it: (round(it[1], 0), it[0]))]
    out = []
    rest = sorted(items, key=lambda it: it[1])
    band: list = []

    def flush() -> None:
        lft = sorted((it for it in band if it[2] <= mid + gutter), key=lambda it: it[1])
        rgt = sorted((it for it in band if it[0] >= mid - gutter and it[2] > mid + gutter), key=lambda it: it[1])
        other = [it for it in band if it not in lft and it not in rgt]
        out.extend((it, True) for it in lft)
        out.extend((it, True) for it in rgt)
        out.extend((it, False) for it in sorted(other, key=lambda it: it[1]))
        band.clear()

    for it in rest:
        spans_both = it[0] < mid - gutter and it[2] > mid + gutter
        wide = (it[2] - it[0]) >= width * 0.6
        if spans_both and wide:
            flush()
            out.append((it, True))
        else:
            band.append(it)
    flush()
    return out
