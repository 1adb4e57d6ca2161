"""A citing PDF's body lines -> paragraphs, table rows and claims with their markers.

Steps (issues 4 and 11):

1. **Tables** (:func:`find_tables`): on each page, a run of at least two
   *rows* (bands of lines sharing a baseline, each holding two or more narrow
   cells, or a numeric line such as ``HOG 20.5 47.7 9.2``, whose columns line
   up with the band above) is a table; lines of paragraphs and captions are
   never cells, and a two-column page is searched column by column. A line
   split by a wide gap (:attr:`PdfLine.gaps`) holds several cells, and each
   number of a numeric line is a cell; lines just below a row and aligned
   with its columns continue its cells (wrapped cells). Each row becomes one
   ``table_row`` unit whose cells are joined with ``"; "`` (as the Markdown
   and LaTeX readers do), so a table is never read as one run of numbers.
   No PyMuPDF ``find_tables``: it took 1-2 s a page here against ~20 ms for
   the whole read, and split decimals from their points.
2. **Paragraphs** (:func:`paragraphs`): a block's lines, joined across
   columns and pages when a sentence runs on; captions, headings and
   footnotes told apart by size, weight and position (:func:`classify`).
3. **Claims** (:func:`paragraph_claims`): sentences split by
   :func:`citeproof.readers.claims.split_sentences` with markers masked;
   markers removed from the claim text, a marker used as a sentence's subject
   (``[24] found that...``) or a narrative author-year cite elided as ``[...]``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from citeproof.model import Citation, CitationMode, Claim, Diagnostic, UnitKind
from citeproof.readers.claims import ELIDED, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.pandoc_cite import normalise_signal, parse_locator
from citeproof.readers.pdf_lines import SUP_CLOSE, SUP_OPEN, PdfLine, plain
from citeproof.readers.pdf_markers import SUP, VERBS, Linker, Marker, author_year_markers, is_footnote_mark, link_marker, numeric_markers
from citeproof.text.glyphs import Vocabulary, join_hyphen

__all__ = ["CAPTION", "Para", "classify", "find_tables", "paragraphs", "para_text", "footnote_marks", "ClaimsFound", "paragraph_claims"]

CAPTION = re.compile(r"^\s*(?:Figure|Fig\.|FIG\.|Table|TABLE|Tab\.)\s*[A-Z]?\d+[.:|]")
"""A figure or table caption's first line."""
_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-H]\.)\s+[A-Z][^.]{0,80}$")
CELL = "\ue002"
"""Joins a table row's cells in the row text (a private-use character no PDF text keeps)."""

_MAX_CELL_SHARE = 0.3
"""A table cell (one printed line of a row) is narrower than this share of the page width; body lines are wider."""
_ALIGN_PT = 3.0
"""Column edges (left or right) within this many points line up (centres within twice this)."""


@dataclass
class Para:
    """A paragraph, caption, heading, footnote or table row of the body.

    Attributes:
        kind: the claim unit kind.
        lines: its printed lines in reading order.
        cells: for a table row, each cell as ``[(text, line), ...]`` (a
            line split at a wide gap gives one piece per cell); empty otherwise.
    """

    kind: UnitKind
    lines: list[PdfLine]
    cells: list[list[tuple[str, PdfLine]]] = field(default_factory=list)


def classify(lines_of_block: list[PdfLine], body_size: float, page_h: dict[int, float]) -> UnitKind:
    """Caption, footnote, heading or sentence for one printed block (sizes in points, ``page_h`` page -> height)."""
    t = " ".join(plain(ln.text) for ln in lines_of_block).strip()
    if CAPTION.match(t):
        return UnitKind.CAPTION
    first = lines_of_block[0]
    if first.size < body_size * 0.88 and first.bbox[1] > page_h.get(first.page, 792) * 0.6 and re.match(r"^\s*(?:\ue000)?[\d*†‡§¶a-z]", first.text):
        return UnitKind.FOOTNOTE
    if len(lines_of_block) <= 2 and len(t) < 90 and not t.endswith((".", ",", ";")) and (_HEADING.match(t) or all(ln.bold for ln in lines_of_block) or first.size > body_size + 1):
        return UnitKind.HEADING
    return UnitKind.SENTENCE


# ---------------------------------------------------------------- tables


_NUMBER = re.compile(r"^(?:[-+±−]?\d[\d.,]*(?:[%‡†*]|±\d[\d.]*)?|[-–—]|n/a)$")
_EQ_NUMBER = re.compile(r"^\(\d+(?:\.\d+)*[a-z]?\)$")


@lru_cache(maxsize=8192)
def _numeric(text: str) -> bool:
    """A line of a numeric table: three or more numbers, at least half its tokens (``HOG 20.5 47.7 9.2``)."""
    toks = plain(text).split()
    n = sum(1 for t in toks if _NUMBER.match(t))
    return n >= 3 and n >= 0.5 * len(toks)


def _cells_of(ln: PdfLine) -> list[tuple[str, float, float]]:
    """A line's cells ``(text, x0, x1)``: split at its wide gaps, and each number of a numeric line its own cell.

    x positions inside a line are shared out by character share.
    """
    bounds = [0, *ln.gaps, len(ln.text)]
    w = (ln.bbox[2] - ln.bbox[0]) / max(len(ln.text), 1)
    pieces: list[tuple[int, int]] = [(a, b) for a, b in zip(bounds, bounds[1:]) if ln.text[a:b].strip()]
    if _numeric(ln.text):
        split: list[tuple[int, int]] = []
        for a, b in pieces:
            words = [(a + m.start(), a + m.end()) for m in re.finditer(r"\S+", ln.text[a:b])]
            run: tuple[int, int] | None = None
            for ws, we in words:
                if _NUMBER.match(plain(ln.text[ws:we])):
                    if run:
                        split.append(run)
                        run = None
                    split.append((ws, we))
                else:
                    run = (run[0], we) if run else (ws, we)
            if run:
                split.append(run)
        pieces = split
    return [(ln.text[a:b].strip(), ln.bbox[0] + a * w, ln.bbox[0] + b * w) for a, b in pieces]


def _cell_lines(lines: list[PdfLine], page_width: float) -> list[PdfLine]:
    """Lines that may be table cells: narrow or numeric, upright, in no prose block and no caption block.

    A printed line is *prose* when it spans over :data:`_MAX_CELL_SHARE` of
    the page width, is not numeric, and its pieces (MuPDF splits a justified
    line at wide spaces) are less than 1.5 font sizes apart; a block where at
    least half the printed lines are prose is a paragraph, whose short last
    line is no cell (unless as many of its printed lines are numeric). A
    block with three lines of five or more words starting at one left edge
    is a paragraph, however narrow.
    """
    by_block: dict[int, list[PdfLine]] = {}
    for ln in lines:
        by_block.setdefault(ln.block, []).append(ln)
    out = []
    for blk in by_block.values():
        cands = [ln for ln in blk if ln.upright and (ln.bbox[2] - ln.bbox[0] <= _MAX_CELL_SHARE * page_width or _numeric(ln.text))]
        if not cands or (len(cands) == 1 and len(blk) > 1) or CAPTION.match(plain(blk[0].text)):
            continue  # no cell, or a paragraph's short last line
        bands = _bands(blk)
        prose = numeric = 0
        for band in bands:
            span = max(ln.bbox[2] for ln in band) - min(ln.bbox[0] for ln in band)
            gap = max((b.bbox[0] - a.bbox[2] for a, b in zip(band, band[1:])), default=0.0)
            if any(_numeric(ln.text) for ln in band):
                numeric += 1
            elif span > _MAX_CELL_SHARE * page_width and gap < 1.5 * band[0].size:
                prose += 1
        if 2 * prose >= len(bands) and numeric < prose:
            continue
        lefts = Counter(round(ln.bbox[0] / 1.5) for ln in blk if len(ln.text.split()) >= 5 and not _numeric(ln.text))
        if any(lefts[k - 1] + lefts[k] + lefts[k + 1] >= 3 for k in lefts):
            continue  # a paragraph set narrow (beside a float, or in narrow columns): three lines of words from one left edge
        out.extend(cands)
    return out


def _bands(lines: list[PdfLine]) -> list[list[PdfLine]]:
    """Lines of one page grouped into bands sharing a baseline (vertical overlap over half the smaller line), top to bottom."""
    bands: list[list[PdfLine]] = []
    for ln in sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        if bands:
            ref = bands[-1][0]
            overlap = min(ref.bbox[3], ln.bbox[3]) - max(ref.bbox[1], ln.bbox[1])
            if overlap > 0.5 * min(ref.bbox[3] - ref.bbox[1], ln.bbox[3] - ln.bbox[1]):
                bands[-1].append(ln)
                continue
        bands.append([ln])
    for b in bands:
        b.sort(key=lambda ln: ln.bbox[0])
    return bands


def _is_row(band: list[PdfLine]) -> bool:
    """Two or more cells side by side, or a numeric line; not a displayed equation (its last cell a number ``(3.4)``)."""
    if any(b.bbox[0] < a.bbox[2] - 1 for a, b in zip(band, band[1:])):
        return False
    cells = [c for ln in band for c in _cells_of(ln)]
    if not cells or _EQ_NUMBER.match(plain(cells[-1][0])):
        return False
    return len(cells) >= 2 and (len(band) >= 2 or any(_numeric(ln.text) for ln in band))


def _aligned(a: list[PdfLine], b: list[PdfLine], need: int = 2) -> bool:
    """At least ``need`` of ``b``'s lines line up with one of ``a``'s: left edges, right edges or centres within :data:`_ALIGN_PT`."""
    def close(u: PdfLine, v: PdfLine) -> bool:
        return abs(u.bbox[0] - v.bbox[0]) <= _ALIGN_PT or abs(u.bbox[2] - v.bbox[2]) <= _ALIGN_PT \
            or abs(u.bbox[0] + u.bbox[2] - v.bbox[0] - v.bbox[2]) <= 2 * _ALIGN_PT
    return sum(any(close(u, v) for u in a) for v in b) >= need


def find_tables(lines: list[PdfLine]) -> list[list[list[PdfLine]]]:
    """Tables among a page's body lines: each a list of rows, each row its lines.

    On a two-column page (five or more prose lines on each side of the
    gutter) each column is searched on its own, so a figure's labels or the
    other column's lines at the same height never join a table's rows; a
    full-width table (a line of it in the gutter) is found first.

    A table is two or more consecutive rows (:func:`_is_row`) no more than
    2.5 line heights apart whose columns line up (or which are both numeric
    lines); a single narrow line right below a row and lined up with one of
    its columns continues that row (a wrapped cell).

    Args:
        lines: the body lines of one page, reference list excluded.

    Returns:
        Tables top to bottom. Lines of no table are not returned.
    """
    if not lines:
        return []
    width = lines[0].width
    cells = _cell_lines(lines, width)
    lo, hi = width * 0.47, width * 0.53
    prose = [ln for ln in lines if ln.bbox[2] - ln.bbox[0] > _MAX_CELL_SHARE * width]
    if sum(ln.bbox[2] <= hi for ln in prose) < 5 or sum(ln.bbox[0] >= lo for ln in prose) < 5:
        return _find_in(cells)
    full = [t for t in _find_in(cells) if any(ln.bbox[0] < hi and ln.bbox[2] > lo for row in t for ln in row)]
    taken = {id(ln) for t in full for row in t for ln in row}
    rest = [ln for ln in cells if id(ln) not in taken]
    return full + _find_in([ln for ln in rest if ln.bbox[2] <= hi]) + _find_in([ln for ln in rest if ln.bbox[0] >= lo])


def _find_in(cells: list[PdfLine]) -> list[list[list[PdfLine]]]:
    bands = _bands(cells)
    tables: list[list[list[PdfLine]]] = []
    i = 0
    while i < len(bands):
        if not _is_row(bands[i]):
            i += 1
            continue
        rows = [list(bands[i])]
        width = [len(bands[i])]
        j = i + 1
        while j < len(bands):
            b, last = bands[j], rows[-1]
            pitch = max(ln.bbox[3] - ln.bbox[1] for ln in last)
            gap = min(ln.bbox[1] for ln in b) - max(ln.bbox[3] for ln in last)
            if gap > 2.5 * pitch:
                break
            numeric = any(_numeric(ln.text) for ln in b) and any(_numeric(ln.text) for ln in last)
            if len(b) < width[-1] and gap < 0.3 * pitch and not numeric and _aligned(last, b, len(b)):
                last.extend(b)  # wrapped cells of a row whose other cells are centred: "Digital Object Identifier" / "(DOI)"
            elif _is_row(b) and (numeric or _aligned(last, b)):
                rows.append(list(b))
                width.append(len(b))
            elif len(b) == 1 and gap < pitch and not _numeric(b[0].text) and _aligned(last, b, 1):
                last.append(b[0])  # a wrapped cell
            else:
                break
            j += 1
        if len(rows) >= 2:
            tables.append(rows)
            i = j
        else:
            i += 1
    return tables


def _row_cells(row: list[PdfLine]) -> list[list[tuple[str, PdfLine]]]:
    """A row's cells left to right; a continuation line joins the cell it lies under."""
    top = min(ln.bbox[1] for ln in row)
    first = [ln for ln in row if ln.bbox[1] - top < 0.5 * (ln.bbox[3] - ln.bbox[1])]
    cells: list[tuple[float, float, list[tuple[str, PdfLine]]]] = []
    for ln in sorted(first, key=lambda ln: ln.bbox[0]):
        for t, x0, x1 in _cells_of(ln):
            cells.append((x0, x1, [(t, ln)]))
    for ln in row:
        if any(ln is f for f in first) or not ln.text.strip():
            continue
        if not cells:
            cells.append((ln.bbox[0], ln.bbox[2], []))
        best = min(range(len(cells)), key=lambda k: abs(cells[k][0] - ln.bbox[0]))
        cells[best][2].append((ln.text.strip(), ln))
    return [c[2] for c in cells]


# ---------------------------------------------------------------- paragraphs


def paragraphs(lines: list[PdfLine], body_size: float, page_h: dict[int, float]) -> list[Para]:
    """The body's units in reading order: table rows found by :func:`find_tables`, the rest by block.

    A table's rows stand where its first line is read; a sentence that runs on
    past the table (its block ends without a period and the next starts in
    lower case, with a digit or bracket, or after a hyphen or comma) is joined
    across it, as across columns and pages.

    Args:
        lines: body lines in reading order (reference list excluded).
        body_size: the body text's font size (points).
        page_h: page (from 1) -> page height (points).
    """
    in_table: dict[int, int] = {}
    tables: list[list[list[PdfLine]]] = []
    by_page: dict[int, list[PdfLine]] = {}
    for ln in lines:
        by_page.setdefault(ln.page, []).append(ln)
    for page_lines in by_page.values():
        for tab in find_tables(page_lines):
            for row in tab:
                for ln in row:
                    in_table[id(ln)] = len(tables)
            tables.append(tab)
    emitted: set[int] = set()
    blocks: list[list[PdfLine] | int] = []
    for ln in lines:
        t = in_table.get(id(ln))
        if t is not None:
            if t not in emitted:
                emitted.add(t)
                blocks.append(t)
            continue
        last = blocks[-1] if blocks else None
        if isinstance(last, list) and last[-1].block == ln.block:
            last.append(ln)
        else:
            blocks.append([ln])
    paras: list[Para] = []
    for b in blocks:
        if isinstance(b, int):
            for row in tables[b]:
                paras.append(Para(UnitKind.TABLE_ROW, sorted(row, key=lambda ln: (ln.bbox[1], ln.bbox[0])), _row_cells(row)))
            continue
        kind = classify(b, body_size, page_h)
        j = len(paras) - 1
        while j >= 0 and paras[j].kind == UnitKind.TABLE_ROW:
            j -= 1  # a sentence runs on past a table set in its way
        if j >= 0 and kind == UnitKind.SENTENCE and paras[j].kind == UnitKind.SENTENCE:
            prev = plain(paras[j].lines[-1].text).rstrip()
            nxt = plain(b[0].text).lstrip()
            if prev and not prev.endswith((".", "!", "?", ":")) and (nxt[:1].islower() or prev.endswith(("-", ",")) or nxt[:1] in "([" or nxt[:1].isdigit()):
                paras[j].lines.extend(b)
                continue
        paras.append(Para(kind, list(b)))
    return paras


def para_text(para: Para, vocab: Vocabulary) -> tuple[str, list[tuple[int, int, PdfLine]]]:
    """Joined text of a unit and each line's span in it.

    Lines join with a space, or without one where a line-end hyphen joins a
    word (:func:`~citeproof.text.glyphs.join_hyphen`); a table row's cells
    join with `` \\ue002 `` (:data:`CELL`).
    """
    text = ""
    spans: list[tuple[int, int, PdfLine]] = []
    if para.kind == UnitKind.TABLE_ROW and para.cells:
        for k, cell in enumerate(para.cells):
            if k:
                text += f" {CELL} "
            for n, (t, ln) in enumerate(cell):
                if n:
                    text += " "
                s = len(text)
                text += t
                spans.append((s, len(text), ln))
        return text, spans
    for ln in para.lines:
        t = ln.text.strip()
        if not t:
            continue
        joined = join_hyphen(text, t, vocab) if text.endswith("-") else None
        if joined is True:
            text = text[:-1]
        elif joined is None and text:
            text += " "
        s = len(text)
        text += t
        spans.append((s, len(text), ln))
    return text, spans


def footnote_marks(paras: list[Para]) -> set[tuple[int, str]]:
    """``(page, number)`` for each footnote whose text starts with a number (``2 This footnote ...``)."""
    return {
        (pp.lines[0].page, m.group(1))
        for pp in paras
        if pp.kind == UnitKind.FOOTNOTE and (m := re.match(r"^\s*\ue000?(\d{1,3})\ue001?\s", pp.lines[0].text))
    }


# ---------------------------------------------------------------- claims


@dataclass
class ClaimsFound:
    """What :func:`paragraph_claims` found.

    Attributes:
        claims: claims with citations, in reading order.
        markers: marker occurrences (one per label).
        linked: how many of those link to an entry.
        unlinked: printed label -> why it links to no entry.
        diagnostics: one ``pdf-unlinked-marker`` per unlinkable occurrence.
    """

    claims: list[Claim] = field(default_factory=list)
    markers: int = 0
    linked: int = 0
    unlinked: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def find_markers(text: str, spans: list[tuple[int, int, PdfLine]], marker_style: str, n_numbered: int, linker: Linker,
                 marks: set[tuple[int, str]]) -> list[Marker]:
    """The markers of one unit's text in the paper's marker style (footnote marks dropped from superscripts)."""
    if marker_style == "author-year":
        return author_year_markers(text, accept=lambda label: linker.link(label)[0] is not None)
    if marker_style not in ("brackets", "superscript"):
        return []
    markers = numeric_markers(text, n_numbered, marker_style == "superscript")
    if marker_style == "superscript":
        markers = [mk for mk in markers if not is_footnote_mark(mk, _page_at(spans, mk.start), marks)]
    return markers


def _page_at(spans: list[tuple[int, int, PdfLine]], pos: int) -> int:
    return next((ln.page for a, b, ln in spans if a <= pos < b), spans[0][2].page if spans else 0)


def paragraph_claims(paras: list[Para], vocab: Vocabulary, marker_style: str, n_numbered: int, linker: Linker,
                     marks: set[tuple[int, str]], document: str) -> ClaimsFound:
    """Claims with their citations from the body's units.

    Args:
        paras: the body's units (:func:`paragraphs`).
        vocab: the document's words (line-end hyphen joining).
        marker_style: ``brackets``, ``superscript``, ``author-year`` or ''.
        n_numbered: entries of a numbered list (0 otherwise).
        linker: links labels to entries.
        marks: footnote marks (:func:`footnote_marks`).
        document: the PDF's path, for claims and diagnostics.

    Returns:
        :class:`ClaimsFound`. Claims carry ``line`` = ``page`` = the PDF page
        (from 1) and ``bbox`` = the union of the unit's line boxes on that page.
    """
    out = ClaimsFound()
    prev_sentence = ""
    for para in paras:
        text, spans = para_text(para, vocab)
        if not spans:
            continue
        markers = find_markers(text, spans, marker_style, n_numbered, linker, marks)
        keep = {(mk.start, mk.end) for mk in markers} if marker_style == "superscript" else set()
        # superscripts that are no marker (footnote marks, or all of them in a bracket-style paper) vanish
        clean = SUP.sub(lambda m: m.group(0) if (m.start(), m.end()) in keep else " " * len(m.group(0)), text)
        if not markers:
            if para.kind == UnitKind.SENTENCE:
                prev_sentence = plain(text)[-300:]
            continue
        masked = list(clean)
        for mk in markers:
            for j in range(mk.start, mk.end):
                masked[j] = "X"
        split_src = "".join(masked).replace(SUP_OPEN, " ").replace(SUP_CLOSE, " ")
        whole = para.kind in (UnitKind.HEADING, UnitKind.TABLE_ROW)
        units = [(0, len(text))] if whole else tile_spans(split_sentences(split_src), len(text), split_src)
        for s, e in units:
            in_unit = [mk for mk in markers if s <= mk.start < e]
            if not in_unit:
                prev_sentence = plain(text[s:e]).strip()
                continue
            claim_text, cites = _unit_citations(text, clean, s, e, in_unit, marker_style, spans, linker, out, document)
            lines_in = [ln for a, b, ln in spans if a < e and b > s]
            page0 = lines_in[0].page if lines_in else spans[0][2].page
            on_page = [ln for ln in lines_in if ln.page == page0]
            bbox = (min(ln.bbox[0] for ln in on_page), min(ln.bbox[1] for ln in on_page), max(ln.bbox[2] for ln in on_page), max(ln.bbox[3] for ln in on_page)) if on_page else None
            raw = plain(text[s:e]).strip()
            if para.kind == UnitKind.TABLE_ROW:
                claim_text = "; ".join(t for t in (tidy_claim_text(c) for c in claim_text.split(CELL)) if t)
                raw = "; ".join(c.strip() for c in raw.split(CELL))
            out.claims.append(Claim(
                id=f"c{len(out.claims) + 1:04d}", text=claim_text, raw=raw, citations=tuple(cites), document=document, line=page0,
                kind=para.kind, context=prev_sentence[-300:], page=page0, bbox=bbox,
            ))
            prev_sentence = claim_text
    return out


def _unit_citations(text: str, clean: str, s: int, e: int, in_unit: list[Marker], marker_style: str, spans, linker: Linker,
                    out: ClaimsFound, document: str) -> tuple[str, list[Citation]]:
    """One unit's claim text (markers removed, narrative ones elided) and its citations; counts go to ``out``."""
    pieces: list[str] = []
    pos = s
    cites: list[Citation] = []
    for mk in in_unit:
        pieces.append(clean[pos: mk.start])
        lead = re.sub(r"[\s\ue000\ue001]", "", clean[s: mk.start])
        narrative = mk.mode == CitationMode.NARRATIVE or (
            marker_style == "brackets" and (lead == "" or lead.lower() in ("in", "and")) and re.match(rf"^\s*(?:et al\.\s*)?(?:and\s+\[\d+\]\s*)?{VERBS}", clean[mk.end: mk.end + 40])
        ) or (marker_style == "brackets" and lead == "" and re.match(r"^\s*(?:and|,)\s*\[", clean[mk.end: mk.end + 8]) is not None)
        # "Zhu et al. [24] found ...": the authors are named in the text, so the marker is narrative
        # (what follows is their finding), and nothing needs eliding
        named = marker_style == "brackets" and not narrative and re.fullmatch(r"[A-Z][\w'’-]*(?:etal\.?|(?:and|&)[A-Z][\w'’-]*)?", lead) is not None \
            and re.match(rf"^\s*{VERBS}", clean[mk.end: mk.end + 40]) is not None
        pieces.append(f" {ELIDED} " if narrative else " ")
        narrative = narrative or named
        pos = mk.end
        page = _page_at(spans, mk.start)
        for k, lab in enumerate(link_marker(mk, linker, out.unlinked, out.diagnostics, "pdf-unlinked-marker", f"{document}: page {page}", document, page)):
            out.markers += 1
            out.linked += lab.linked
            loc, rest = parse_locator(", " + lab.post) if lab.post else (None, "")
            pre = lab.prefix
            cites.append(Citation(
                citekey=lab.citekey, mode=CitationMode.NARRATIVE if narrative else mk.mode, prefix=pre, suffix=rest, locator=loc,
                signal=normalise_signal(pre) if pre else None, raw=plain(mk.raw), line=page, column=0, group_index=k, group_size=len(mk.labels),
            ))
    pieces.append(clean[pos:e])
    return tidy_claim_text(plain("".join(pieces))), cites
