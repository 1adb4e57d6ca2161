"""PDF page layout shared by the source parser and the citing-PDF reader.

Both :mod:`citeproof.sources.pdf` (cited PDFs -> passages) and
:mod:`citeproof.readers.pdf` (citing PDFs -> claims) read PyMuPDF's
``page.get_text("dict")`` blocks; what a block *is* on the page lives here:

* :func:`page_blocks`: each page's size, text blocks, PDF page label and
  span text cleaned of private-use glyphs (icon fonts); :func:`words_dict`
  the same blocks without fonts, from PyMuPDF's faster ``words`` output;
* :func:`running_texts` / :func:`is_running`: running heads and feet (a
  block in the top or bottom 12 % of the page whose text, digits masked,
  recurs on at least 30 % of pages);
* :data:`NUMERIC_LINE`: a line that is a bare number (margin line numbers,
  page numbers);
* :func:`reading_order` (passages) and :func:`order_blocks` (claims): the
  two-column reading order;
* :func:`page_labels`: the page number a reader sees on each sheet (the
  PDF's page labels, else the number printed in the margin);
* :func:`load_pymupdf`: PyMuPDF, imported without its layout models.

Coordinates are PDF points with a top-left origin; pages count from 1.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from types import ModuleType

from citeproof.text.glyphs import drop_private_use

__all__ = [
    "PageBlocks", "page_blocks", "words_dict", "MARGIN", "REPEAT_SHARE", "NUMERIC_LINE", "margin_key", "in_margin", "block_text",
    "running_texts", "is_running", "reading_order", "order_blocks", "page_labels", "load_pymupdf",
]


def load_pymupdf() -> ModuleType:
    """The ``pymupdf`` module, imported without the layout analyser PyMuPDF 2 loads eagerly.

    PyMuPDF 2's ``__init__`` runs ``import pymupdf.layout`` (the
    ``pymupdf_layout`` package: ONNX layout models), which citeproof never
    uses; measured on this machine that import is 1.7 s of the 2.9 s ``import
    pymupdf`` (``python -X importtime``; issue 17). The first import here is
    made with ``pymupdf.layout`` blocked (PyMuPDF catches the ImportError and
    goes on without it); the block is lifted at once, so a caller that wants the
    layout analyser can still ``import pymupdf.layout`` itself.

    Returns:
        The imported module (the same object on every call).

    Raises:
        ImportError: PyMuPDF is not installed.
    """
    held = sys.modules.get("pymupdf")
    if held is not None:
        return held
    blocked = "pymupdf.layout" not in sys.modules
    if blocked:
        sys.modules["pymupdf.layout"] = None  # type: ignore[assignment]  # makes ``import pymupdf.layout`` raise ImportError
    try:
        import pymupdf
    finally:
        if blocked and sys.modules.get("pymupdf.layout", 0) is None:
            del sys.modules["pymupdf.layout"]
    return pymupdf


MARGIN = 0.08
"""Share of the page height that is head or foot margin; blocks within 1.5 x this of an edge are margin candidates."""

REPEAT_SHARE = 0.3
"""A margin text on at least this share of pages (and at least 2) is a running head or foot."""

NUMERIC_LINE = re.compile(r"^\s*\d{1,4}\s*$")
"""A line that is only a number (1-4 digits): a margin line number or a page number."""


@dataclass
class PageBlocks:
    """One page as PyMuPDF's dict output gives it.

    Attributes:
        number: page from 1.
        width, height: page size in points.
        blocks: the text blocks (``type`` 0); span texts have private-use
            characters removed.
        label: the PDF's page label for this page (``page.get_label()``),
            '' when the PDF defines none.
    """

    number: int
    width: float
    height: float
    blocks: list[dict]
    label: str = ""


def words_dict(page, flags: int) -> dict:
    """``page.get_text("dict")``'s shape built from ``page.get_text("words")``: blocks, lines, one span a line.

    PyMuPDF's ``words`` output is made in C; its ``dict`` output builds a Python object per span and per font
    (measured on the scale job's 1,188 pages, issue 27: 2.2 CPU-s against 6.7). Both read one text page, so
    the blocks and lines are the same (``(block_no, line_no)`` of each word); what ``words`` lacks:

    * a span per font: each line is one span, its words joined by one space (runs of spaces become one);
    * ``size``, ``font``, ``flags``, ``origin``: absent (callers that need fonts, the citing-PDF reader and a
      first page's title, ask for ``dict``);
    * ``dir``: MuPDF's own, read from the text page's lines (``fz_stext_line.dir``, a unit vector); on a
      PyMuPDF without that binding, from the word boxes: a line whose first and last word's centres lie
      further apart in y than in x is turned text.

    Args:
        page: a PyMuPDF page.
        flags: PyMuPDF ``TEXT_*`` extraction flags (as for ``dict``).

    Returns:
        ``{"width", "height", "blocks": [{"type": 0, "bbox", "lines": [{"bbox", "dir", "spans": [{"text",
        "bbox"}]}]}]}``, coordinates in points, top-left origin, blocks and lines in the text page's order.
    """
    tp = page.get_textpage(flags=flags)  # its rect is the unrotated page, as ``dict``'s width and height
    turned_lines = _turned_lines(tp)
    lines: dict[tuple[int, int], list[tuple]] = {}
    for w in page.get_text("words", textpage=tp):
        lines.setdefault((w[5], w[6]), []).append(w)
    blocks: dict[int, dict] = {}
    for (bno, lno), ws in lines.items():
        xs0, ys0, xs1, ys1, words = list(zip(*ws))[:5]
        x0, y0, x1, y1 = min(xs0), min(ys0), max(xs1), max(ys1)
        text = " ".join(words)
        if turned_lines is not None:
            turned = turned_lines.get((bno, lno))
        else:
            a, z = ws[0], ws[-1]
            turned = (0.0, 1.0) if abs(z[1] + z[3] - a[1] - a[3]) > abs(z[0] + z[2] - a[0] - a[2]) else None
        box = (x0, y0, x1, y1)
        ln = {"bbox": box, "dir": turned or (1.0, 0.0), "spans": [{"text": text, "bbox": box}]}
        b = blocks.get(bno)
        if b is None:
            blocks[bno] = {"type": 0, "bbox": box, "lines": [ln]}
        else:
            b["lines"].append(ln)
            bx = b["bbox"]
            b["bbox"] = (min(bx[0], x0), min(bx[1], y0), max(bx[2], x1), max(bx[3], y1))
    return {"width": tp.rect.width, "height": tp.rect.height, "blocks": [blocks[k] for k in sorted(blocks)]}


def _turned_lines(tp) -> dict[tuple[int, int], tuple[float, float]] | None:
    """``(block, line) -> dir`` of a text page's lines that are not left-to-right horizontal (|dir y| > 0.1).

    Blocks and lines count from 0 as ``get_text("words")`` numbers them (every block of the text page: without
    ``TEXT_PRESERVE_IMAGES`` all are text). None when this PyMuPDF does not expose MuPDF's structures.
    """
    out: dict[tuple[int, int], tuple[float, float]] = {}
    try:
        for bi, block in enumerate(tp.this):
            if block.m_internal.type != 0:
                continue
            for li, line in enumerate(block):
                d = line.m_internal.dir
                if abs(d.y) > 0.1:
                    out[(bi, li)] = (float(d.x), float(d.y))
    except (AttributeError, TypeError):
        return None
    return out


def page_blocks(doc, flags: int, replaced: dict[int, dict] | None = None, words_from: int = 0) -> list[PageBlocks]:
    """Every page's text blocks (``page.get_text("dict", flags=flags)``), private-use glyphs dropped.

    Args:
        doc: an open PyMuPDF document.
        flags: PyMuPDF ``TEXT_*`` extraction flags.
        replaced: page (from 1) -> the ``dict`` text of that page to use
            instead of its own text layer's (from an OCR text page,
            :mod:`citeproof.sources.ocr`); None: every page's own.
        words_from: pages from this one (from 1) on are read through :func:`words_dict` (no fonts, a third of
            the CPU); 0: every page through ``dict``.

    Raises:
        Whatever PyMuPDF raises on a damaged page (callers turn it into a reason).
    """
    out: list[PageBlocks] = []
    for i, page in enumerate(doc):
        d = (replaced or {}).get(i + 1)
        if not d:
            d = words_dict(page, flags) if words_from and i + 1 >= words_from else page.get_text("dict", flags=flags)
        blocks = [b for b in d.get("blocks", []) if b.get("type", 0) == 0]
        for b in blocks:
            for ln in b.get("lines", []):
                for s in ln.get("spans", []):
                    t = s.get("text", "")
                    if t and not t.isascii():
                        s["text"] = drop_private_use(t)
        try:
            label = page.get_label() or ""
        except Exception:  # a malformed /PageLabels tree is no reason to fail the page
            label = ""
        out.append(PageBlocks(i + 1, float(d.get("width", page.rect.width)), float(d.get("height", page.rect.height)), blocks, label))
    return out


def margin_key(text: str) -> str:
    """A margin text for comparison across pages: lower case, spaces collapsed, digit runs as ``#``."""
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.strip().lower()))


def in_margin(y0: float, y1: float, height: float) -> bool:
    """True when a box from ``y0`` to ``y1`` (points) lies in the top or bottom 12 % of the page."""
    return y1 <= height * MARGIN * 1.5 or y0 >= height * (1 - MARGIN * 1.5)


def block_text(b: dict) -> str:
    """A dict block's text, lines joined by spaces."""
    return " ".join("".join(s.get("text", "") for s in ln.get("spans", [])) for ln in b.get("lines", []))


def running_texts(pages: list[PageBlocks]) -> set[str]:
    """:func:`margin_key` forms of the running heads and feet of a document (see module docstring)."""
    counts: Counter[str] = Counter()
    for pg in pages:
        counts.update({margin_key(block_text(b)) for b in pg.blocks if in_margin(b["bbox"][1], b["bbox"][3], pg.height)})
    return {t for t, c in counts.items() if c >= max(2, REPEAT_SHARE * len(pages)) and len(t) < 200}


def is_running(b: dict, height: float, running: set[str]) -> bool:
    """True when block ``b`` is a running head or foot (in the margin, text in ``running``)."""
    return in_margin(b["bbox"][1], b["bbox"][3], height) and margin_key(block_text(b)) in running


def page_labels(pages: list[PageBlocks]) -> list[str]:
    """The page number a reader sees on each sheet, '' where unknown.

    The PDF's own page labels (``/PageLabels``, PyMuPDF ``page.get_label()``)
    win. Without them, the number printed in the head or foot margin (a bare
    number line, :data:`NUMERIC_LINE`) is used when one offset from the sheet
    number (printed = sheet + offset) holds on at least half of the pages
    that print a margin number, and on at least 2: a journal reprint whose
    sheet 1 prints 103 gets labels ``103, 104...`` on every sheet.

    Returns:
        One label per page, in page order.
    """
    if any(pg.label for pg in pages):
        return [pg.label for pg in pages]
    offsets: Counter[int] = Counter()
    printing = 0
    for pg in pages:
        seen = set()
        for b in pg.blocks:
            if not in_margin(b["bbox"][1], b["bbox"][3], pg.height):
                continue
            for ln in b.get("lines", []):
                t = "".join(s.get("text", "") for s in ln.get("spans", []))
                if NUMERIC_LINE.match(t):
                    seen.add(int(t) - pg.number)
        printing += bool(seen)
        offsets.update(seen)
    if not offsets:
        return ["" for _ in pages]
    offset, n = offsets.most_common(1)[0]
    if n < 2 or n < printing / 2:
        return ["" for _ in pages]
    return [str(pg.number + offset) if pg.number + offset >= 1 else "" for pg in pages]


Item = tuple[float, float, float, float, str]


def reading_order(items: list[Item], width: float) -> list[tuple[Item, bool]]:
    """Order one page's blocks for passages; ``(item, quotable)`` pairs.

    ``items`` are ``(x0, y0, x1, y1, text)``. A page is two-column when at
    least two blocks sit wholly on each side of the middle (3 % gutter).
    Full-width blocks (crossing the middle and at least 60 % of the page
    wide) then cut the page into bands, each read left column first. Blocks
    that cross the middle without being wide enough to span both columns
    are not quotable: their reading order is not trusted.
    """
    if not items:
        return []
    mid = width / 2
    gutter = width * 0.03
    left = [it for it in items if it[2] <= mid + gutter]
    right = [it for it in items if it[0] >= mid - gutter]
    if len(left) < 2 or len(right) < 2:
        return [(it, True) for it in sorted(items, key=lambda it: (round(it[1], 0), it[0]))]
    out: list[tuple[Item, bool]] = []
    band: list[Item] = []

    def flush() -> None:
        lft = sorted((it for it in band if it[2] <= mid + gutter), key=lambda it: it[1])
        rgt = sorted((it for it in band if it[0] >= mid - gutter and it[2] > mid + gutter), key=lambda it: it[1])
        other = [it for it in band if it not in lft and it not in rgt]
        out.extend((it, True) for it in lft)
        out.extend((it, True) for it in rgt)
        out.extend((it, False) for it in sorted(other, key=lambda it: it[1]))
        band.clear()

    for it in sorted(items, key=lambda it: it[1]):
        spans_both = it[0] < mid - gutter and it[2] > mid + gutter
        wide = (it[2] - it[0]) >= width * 0.6
        if spans_both and wide:
            flush()
            out.append((it, True))
        else:
            band.append(it)
    flush()
    return out


def order_blocks(items: list[tuple[float, float, float, float, int]], width: float) -> list[int]:
    """Block ids of one page in reading order, for a citing PDF's claims.

    ``items`` are ``(x0, y0, x1, y1, block id)``. Like :func:`reading_order`,
    with two more band breaks: any block crossing the middle (a centred
    heading such as ``REFERENCES`` too), and a vertical gap of more than
    18 pt shared by both columns (revtex starts its reference list in a new
    band under balanced columns).
    """
    if not items:
        return []
    mid, gutter = width / 2, width * 0.03
    left = [it for it in items if it[2] <= mid + gutter]
    right = [it for it in items if it[0] >= mid - gutter]
    if len(left) < 2 or len(right) < 2:
        return [it[4] for it in sorted(items, key=lambda it: (round(it[1], 0), it[0]))]
    out: list[int] = []
    band: list = []
    bottom = -1e9

    def flush() -> None:
        lft = sorted((it for it in band if it[2] <= mid + gutter), key=lambda it: it[1])
        rgt = sorted((it for it in band if it[2] > mid + gutter), key=lambda it: it[1])
        out.extend(it[4] for it in lft + rgt)
        band.clear()

    for it in sorted(items, key=lambda it: it[1]):
        crosses = it[0] < mid - gutter and it[2] > mid + gutter
        if crosses or (band and it[1] > bottom + 18):
            flush()
        if crosses:
            out.append(it[4])
            bottom = it[3]
            continue
        band.append(it)
        bottom = max(bottom, it[3])
    flush()
    return out
