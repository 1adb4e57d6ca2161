"""PDF sources -> passages, with page numbers and boxes from the PDF itself.

PyMuPDF (``page.get_text("dict")``) gives blocks, lines and spans with their
boxes; the page layout (running heads and feet, margin line numbers, the
two-column reading order, page labels) is :mod:`citeproof.pdf_layout`'s.
From those:

* a passage is a text block in reading order; its ``page`` is the PDF page
  index + 1 (the sheet) and ``page_label`` the number the page shows
  (:func:`citeproof.pdf_layout.page_labels`); its ``bbox`` the union of the
  kept lines' boxes (PDF points, top-left origin);
* a sentence that runs from the foot of one column or page to the head of
  the next is one passage (:func:`_runs_on`): the block that ends without a
  full stop and the block that goes on in lower case are joined. Such a
  passage keeps ``page``/``bbox`` where it starts and says where it ends in
  ``page_end``/``bbox_end``;
* line-end hyphens are joined only where the joined word is a word
  (:func:`citeproof.text.glyphs.join_hyphen`: "classi-fication" joins,
  "interferon-dependent" keeps its hyphen);
* ligature glyphs mapped to U+FFFD are rebuilt from the document's own words
  and the shipped vocabulary, icon-font private-use glyphs dropped
  (:func:`citeproof.text.glyphs.clean_glyphs`), before any offset is taken,
  so ``char_start``/``char_end`` index the repaired text;
* a block that straddles the gutter of a two-column page without spanning it
  is not ``quotable``: its reading order is not trusted.

Failures are data: :func:`parse_pdf` returns a reason instead of passages for
encrypted, corrupt, empty and image-only (scanned) PDFs. Pages named in
``ocr_pages`` are read from Tesseract's text page instead of their own text
layer (:mod:`citeproof.sources.ocr` decides which), their lines regrouped
into paragraphs (:func:`_regroup`) and their passages marked ``ocr``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from citeproof.model import NON_EVIDENCE_SECTIONS, Passage
from citeproof.pdf_layout import NUMERIC_LINE, load_pymupdf, in_margin, is_running, page_blocks, page_labels, reading_order, running_texts
from citeproof.text.glyphs import REPLACEMENT, Vocabulary, clean_glyphs, join_hyphen

__all__ = ["ParsedPDF", "parse_pdf", "PARSER_VERSION", "pdf_metadata", "label_sections", "join_lines", "sheets_for_pages",
           "OCR_DPI", "MIN_TEXT_CHARS", "GARBLED_SHARE"]

PARSER_VERSION = "pdf-8"
"""Bumped whenever passages would come out differently; part of the cache key (pdf-7: pages from the second read
through :func:`~citeproof.pdf_layout.words_dict`, boxes without the spaces around the words; a caption ends a
reference list; pdf-8: passages keep the margin line numbers printed beside them, ``Passage.margin_numbers``)."""

MARGIN_SHARE = 0.12
"""A bare-number line whose centre lies in the outer 12% of the page width (left or right) is a margin line number
(manuscripts and preprints number their lines at x 20-60 or past 550 points of 612); one nearer the middle is a
page number or a table cell."""

OCR_DPI = 300
"""Resolution (dots per inch) pages are rendered at for Tesseract; 300 dpi is the resolution Tesseract's
documentation ("Improving the quality of the output") names as the one it reads best."""

MIN_TEXT_CHARS = 20
"""A page whose text layer holds fewer letters and digits than this has no usable text layer (a page number,
a stray header on a scanned page)."""

GARBLED_SHARE = 0.10
"""A page whose text-layer characters are at least this share U+FFFD (unmapped glyphs) is garbled."""


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
        scanned: pages (from 1) without a usable text layer that show an
            image, not read by OCR in this parse.
        garbled: pages whose text layer is mostly unmapped glyphs (U+FFFD).
        ocr_pages: pages read by OCR in this parse.
        notes: what was left undone (:attr:`citeproof.model.Source.notes`).
        cacheable: False when the result would change once the OCR engine
            is installed.
        meta: the PDF's metadata dictionary (``title``, ``author``,
            ``subject``, ``keywords``...).
        big_title: the largest text in the top half of page 1, or ''.
    """

    passages: list[Passage]
    text: str
    pages: int
    title: str = ""
    doi: str = ""
    error: str | None = None
    scanned: list[int] = field(default_factory=list)
    garbled: list[int] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cacheable: bool = True
    meta: dict = field(default_factory=dict)
    big_title: str = ""


_DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)


def _open(data: bytes):
    pymupdf = load_pymupdf()

    return pymupdf.open(stream=data, filetype="pdf")


def join_lines(lines: list[str], vocabulary: Vocabulary) -> str:
    """Lines of one block as one string: spaces between, line-end hyphens per :func:`~citeproof.text.glyphs.join_hyphen`.

    Args:
        lines: the printed lines, in order.
        vocabulary: the document's words (decides "classi-" + "fication").

    Returns:
        The joined text, whitespace collapsed.
    """
    out = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        out = _glue(out, ln, vocabulary)
    return re.sub(r"\s+", " ", out).strip()


def _glue(left: str, right: str, vocabulary: Vocabulary) -> str:
    if not left:
        return right
    if left.endswith("-"):
        decision = join_hyphen(left, right, vocabulary)
        if decision is True:
            return left[:-1] + right
        if decision is False:
            return left + right
    return left + " " + right


_SENTENCE_END = re.compile(r"[.!?:][\"'\u201d\u2019)\]]*$")


def _runs_on(prev: str, nxt: str) -> bool:
    """True when block text ``nxt`` continues the sentence that block ``prev`` leaves open.

    ``prev`` must be body text (at least 30 characters) ending without a
    full stop, question or exclamation mark or colon; ``nxt`` must go on in
    lower case, or ``prev`` end in a hyphen or comma.
    """
    if len(prev) < 30 or _SENTENCE_END.search(prev):
        return False
    first = nxt[:1]
    return first.islower() or (prev.endswith(("-", ",", ";")) and first.isalnum())


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
    try:
        return _doc_metadata(doc)
    except Exception as exc:  # a page tree MuPDF cannot count or read ("Invalid number of pages")
        return "", "", f"the PDF is damaged and its pages cannot be read ({exc})"


def _doc_metadata(doc, first_pages: tuple[str, ...] | None = None) -> tuple[str, str, None]:
    """:func:`pdf_metadata` of an open document; ``first_pages``: the text of its first two pages when already read."""
    meta = doc.metadata or {}
    title = (meta.get("title") or "").strip()
    doi = ""
    for key in ("subject", "keywords", "title"):
        m = _DOI_RE.search(meta.get(key) or "")
        if m:
            doi = m.group(1)
            break
    if not doi:
        for i in range(min(2, doc.page_count)):
            m = _DOI_RE.search(first_pages[i] if first_pages is not None and i < len(first_pages) else doc[i].get_text())
            if m:
                doi = m.group(1)
                break
    return title, doi.rstrip(".,;)").lower(), None


Box = tuple[float, float, float, float]


def parse_pdf(data: bytes, ocr_pages: tuple[int, ...] = (), language: str = "eng", tessdata: str | None = None) -> ParsedPDF:
    """Parse PDF bytes into passages.

    Args:
        data: the file's bytes.
        ocr_pages: pages (from 1) to read by OCR (Tesseract through
            PyMuPDF, full page at :data:`OCR_DPI` dpi)
            instead of from their text layer.
        language: Tesseract language codes (``eng``, ``eng+deu``).
        tessdata: Tesseract's language-data folder (None: PyMuPDF finds it).

    Returns:
        A :class:`ParsedPDF`; on failure ``passages`` is empty and ``error``
        says why in words a user can act on (encrypted, corrupt or
        truncated, no pages, no text layer).
    """
    pymupdf = load_pymupdf()

    try:
        doc = _open(data)
    except Exception as exc:
        return ParsedPDF([], "", 0, error=f"not a readable PDF: the file is corrupt or truncated ({exc}); re-download it")
    try:
        doc.page_count
    except Exception as exc:  # a page tree MuPDF cannot count ("Invalid number of pages")
        return ParsedPDF([], "", 0, error=f"the PDF is damaged and its page tree cannot be read ({exc}); re-download it")
    if doc.needs_pass:
        return ParsedPDF([], "", doc.page_count, error="the PDF is encrypted (password protected); save an unprotected copy")
    if doc.page_count == 0:
        return ParsedPDF([], "", 0, error="the PDF has no pages")
    # No TEXT_DEHYPHENATE: MuPDF would join "interferon-" + "dependent"; join_hyphen decides instead.
    textpages: dict[int, dict] = {}  # page from 1 -> its OCR text as get_text('dict') gives it
    for n in ocr_pages:
        if not 1 <= n <= doc.page_count:
            continue
        try:
            page = doc[n - 1]
            tp = page.get_textpage_ocr(flags=pymupdf.TEXT_MEDIABOX_CLIP, language=language, dpi=OCR_DPI, full=True, tessdata=tessdata)
            textpages[n] = page.get_text("dict", textpage=tp)
        except Exception as exc:  # Tesseract's errors come as RuntimeError/ValueError from PyMuPDF
            return ParsedPDF([], "", doc.page_count, error=f"OCR of page {n} failed ({exc}); check the Tesseract installation (tesseract --list-langs)")
    try:
        pages = page_blocks(doc, pymupdf.TEXT_MEDIABOX_CLIP, textpages, words_from=2)  # page 1 keeps its fonts (the title)
    except Exception as exc:
        return ParsedPDF([], "", doc.page_count, error=f"text extraction failed ({exc}); the PDF may be damaged")
    for pg in pages:
        if pg.number in textpages:
            pg.blocks = _regroup(pg.blocks)
    scanned, garbled = _unread_pages(doc, pages, set(textpages))
    running = running_texts(pages)
    labels = page_labels(pages)
    n_pages = len(pages)

    # Lines of every kept block, per page.
    page_items: list[list[tuple[float, float, float, float, list[str]]]] = []
    rotated: set[tuple[int, Box]] = set()  # blocks of turned text (a landscape table): never joined to a neighbour
    all_lines: list[str] = []
    marks: dict[int, list[tuple[float, int]]] = {}  # page -> (y centre, number) of each line number in the outer margin
    for pg in pages:
        items = []
        for b in pg.blocks:
            lines, boxes = [], []
            for ln in b.get("lines", []):
                t = "".join(s.get("text", "") for s in ln.get("spans", []))
                if NUMERIC_LINE.match(t):
                    lx0, ly0, lx1, ly1 = ln["bbox"]
                    if not (MARGIN_SHARE * pg.width < (lx0 + lx1) / 2 < (1 - MARGIN_SHARE) * pg.width):
                        marks.setdefault(pg.number, []).append(((ly0 + ly1) / 2, int(t)))
                    continue  # margin line numbers, page numbers
                if t.strip():
                    lines.append(t)
                    boxes.append(ln["bbox"])
            if not lines:
                continue
            x0, y0 = min(bx[0] for bx in boxes), min(bx[1] for bx in boxes)
            x1, y1 = max(bx[2] for bx in boxes), max(bx[3] for bx in boxes)
            if in_margin(y0, y1, pg.height) and is_running({**b, "bbox": (x0, y0, x1, y1)}, pg.height, running):
                continue
            items.append((x0, y0, x1, y1, lines))
            if any(abs(float(ln.get("dir", (1.0, 0.0))[1])) > 0.1 for ln in b.get("lines", [])):
                rotated.add((pg.number, (x0, y0, x1, y1)))
            all_lines.extend(lines)
        page_items.append(items)
    vocab = Vocabulary(all_lines)
    repaired: Counter[str] = Counter()

    # Block texts in reading order, glyphs repaired.
    ordered: list[tuple[int, Box, str, bool]] = []
    for pg, items in zip(pages, page_items):
        texts = []
        for x0, y0, x1, y1, lines in items:
            text = join_lines(lines, vocab)
            if REPLACEMENT in text:
                text = clean_glyphs(text, vocab, repaired)
            if len(text) >= 2:
                texts.append((x0, y0, x1, y1, text))
        ordered.extend((pg.number, it[:4], it[4], q) for it, q in reading_order(texts, pg.width))

    # Sentences that run on past a column or page break are one passage.
    merged: list[dict] = []
    for pno, box, text, quotable in ordered:
        last = merged[-1] if merged else None
        turned = (pno, box) in rotated or (last is not None and (last["page"], last["bbox"]) in rotated)
        if last is not None and quotable and last["quotable"] and not turned and _runs_on(last["text"], text):
            end_page, end_box = last["page_end"] or last["page"], last["bbox_end"] or last["bbox"]
            below = pno == end_page and box[1] >= end_box[1] and box[0] < end_box[2] and box[2] > end_box[0]
            if not below:  # only a column or page break joins: stacked blocks (a glossary's entries) stay apart
                last["text"] = re.sub(r"\s+", " ", _glue(last["text"], text, vocab))
                last["page_end"], last["bbox_end"] = pno, box
                continue
        merged.append({"page": pno, "bbox": box, "text": text, "quotable": quotable, "page_end": None, "bbox_end": None})

    passages: list[Passage] = []
    parts: list[str] = []
    offset = 0
    for m in merged:
        text = m["text"]
        start = offset
        parts.append(text)
        offset += len(text) + 2
        passages.append(
            Passage(
                id=f"p{len(passages) + 1:05d}",
                text=text,
                page=m["page"],
                bbox=_round(m["bbox"]),
                char_start=start,
                char_end=start + len(text),
                quotable=m["quotable"],
                page_label=labels[m["page"] - 1],
                page_end=m["page_end"] if m["page_end"] != m["page"] else None,
                bbox_end=_round(m["bbox_end"]) if m["bbox_end"] else None,
                ocr=m["page"] in textpages or (m["page_end"] or m["page"]) in textpages,
                margin_numbers=_beside(marks, m),
            )
        )
    full = "\n\n".join(parts)
    passages = label_sections(passages)
    first = tuple("\n".join("".join(sp.get("text", "") for sp in ln.get("spans", [])) for b in pg.blocks for ln in b.get("lines", []))
                  for pg in pages[:2])
    title, doi, _ = _doc_metadata(doc, first)
    found = {"scanned": scanned, "garbled": garbled, "ocr_pages": sorted(textpages), "meta": {k: v for k, v in (doc.metadata or {}).items() if isinstance(v, str) and v},
             "big_title": _big_title(pages[0]) if pages else ""}
    if not passages:
        why = "OCR found no text on its pages" if textpages else "the PDF has no text layer (scanned images?)"
        return ParsedPDF([], "", n_pages, title, doi, error=why, **found)
    if not title:
        title = passages[0].text[:200]
    return ParsedPDF(passages, full, n_pages, title, doi, **found)


def _beside(marks: dict[int, list[tuple[float, int]]], m: dict) -> tuple[int, ...]:
    """The margin line numbers level with a merged passage's first box (and its last, for a run-on passage)."""
    out: list[int] = []
    parts = [(m["page"], m["bbox"])] + ([(m["page_end"] or m["page"], m["bbox_end"])] if m["bbox_end"] else [])
    for page, (_x0, y0, _x1, y1) in parts:
        out.extend(n for y, n in marks.get(page, ()) if y0 - 1 <= y <= y1 + 1 and n not in out)
    return tuple(out)


def _big_title(page) -> str:
    """The text of the largest spans in the top half of ``page`` (a :class:`~citeproof.pdf_layout.PageBlocks`)."""
    spans = [s for b in page.blocks for ln in b.get("lines", []) for s in ln.get("spans", [])
             if s.get("text", "").strip() and s.get("bbox", (0, page.height, 0, 0))[1] < page.height / 2]
    if not spans:
        return ""
    big = max(float(s.get("size", 0)) for s in spans)
    return re.sub(r"\s+", " ", " ".join(s["text"].strip() for s in spans if float(s.get("size", 0)) >= big - 0.5)).strip()[:300]


def _letters(text: str, enough: int) -> int:
    """Letters and digits in ``text``, counted up to ``enough`` (a page of text stops at the first few lines)."""
    n = 0
    for ch in text:
        if ch.isalnum():
            n += 1
            if n >= enough:
                break
    return n


def _unread_pages(doc, pages: list, ocred: set[int]) -> tuple[list[int], list[int]]:
    """``(scanned, garbled)`` pages from 1 among those not read by OCR.

    Scanned: fewer than :data:`MIN_TEXT_CHARS` letters
    and digits in the text layer, and an image on the page. Garbled: at
    least :data:`GARBLED_SHARE` of the non-space
    characters are U+FFFD.
    """
    scanned, garbled = [], []
    for pg in pages:
        if pg.number in ocred:
            continue
        text = "".join(s.get("text", "") for b in pg.blocks for ln in b.get("lines", []) for s in ln.get("spans", []))
        if _letters(text, MIN_TEXT_CHARS) < MIN_TEXT_CHARS:
            try:
                shows_image = bool(doc[pg.number - 1].get_images())
            except Exception:  # a damaged resource tree: no image to read
                shows_image = False
            if shows_image:
                scanned.append(pg.number)
            continue
        bad = text.count(REPLACEMENT)
        chars = len(re.sub(r"\s", "", text)) if bad else 0
        if chars and bad / chars >= GARBLED_SHARE:
            garbled.append(pg.number)
    return scanned, garbled


def _regroup(blocks: list[dict]) -> list[dict]:
    """An OCR page's blocks, lines joined into paragraphs.

    Tesseract's text page gives about one block per printed line. Lines
    are joined into one block while the next starts below the last within
    0.8 of its height (the usual leading; a blank line between paragraphs
    is a larger gap) and overlaps it horizontally.
    """
    lines = [ln for b in blocks for ln in b.get("lines", []) if "".join(s.get("text", "") for s in ln.get("spans", [])).strip()]
    out: list[dict] = []
    for ln in lines:
        x0, y0, x1, y1 = ln["bbox"]
        last = out[-1] if out else None
        if last is not None:
            lx0, ly0, lx1, ly1 = last["lines"][-1]["bbox"]
            height = max(ly1 - ly0, 1.0)
            if 0 <= y0 - ly1 <= 0.8 * height and x0 < lx1 and x1 > lx0:
                last["lines"].append(ln)
                bx = last["bbox"]
                last["bbox"] = (min(bx[0], x0), min(bx[1], y0), max(bx[2], x1), max(bx[3], y1))
                continue
        out.append({"type": 0, "bbox": (x0, y0, x1, y1), "lines": [ln]})
    return out


def _round(box: Box) -> Box:
    return (round(box[0], 1), round(box[1], 1), round(box[2], 1), round(box[3], 1))


def sheets_for_pages(passages: list[Passage], numbers: list[int]) -> list[int]:
    """The sheets (PDF pages from 1) a locator's page numbers point to.

    A locator ``p. 103`` names the page the PDF *labels* 103 (its page
    labels, else the number printed on the page: :attr:`Passage.page_label`),
    not the 103rd sheet. A source whose passages carry no labels is
    numbered by sheet.

    Args:
        passages: the source's passages.
        numbers: page numbers as the citation prints them.

    Returns:
        Sheet numbers that hold passages, sorted; empty when no passage is
        on a named page.
    """
    if not any(p.page_label for p in passages):
        want_sheets = set(numbers)
        return sorted({p.page for p in passages if p.page in want_sheets})
    want = {str(n) for n in numbers}
    return sorted({p.page for p in passages if p.page is not None and p.page_label in want})


_SECTION = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+|[IVX]+\.\s+)?(abstract|summary|introduction|background|related work|methods?|materials and methods|"
    r"results|discussion|conclusions?|references|bibliography|works cited|literature cited|acknowledge?ments?|appendix)\b\W{0,3}$",
    re.I,
)

_CAPTION = re.compile(r"^(?:(?:Extended Data |Supplementary )?(?:Figure|Fig\.|Table)|FIGURE|TABLE)\s*[A-Z]?\d{1,3}[a-z]?\s*[.:|]")
"""A figure or table caption's opening ("Figure 7.", "Fig. 2:", "Table S1.", "TABLE 3."): no reference entry starts so."""

_REFERENCE_ENTRY = re.compile(r"^(?:\[\d{1,4}\]|\d{1,4}\.\s+\S|[A-Z][\w'’-]+,?\s+(?:[A-Z]\.\s*){1,3}[,(]?)")
"""A reference entry's opening: ``[12]``, ``12. Ram K.``, ``Mainzer, A.`` / ``Noble WS`` style is left to the first two."""


def label_sections(passages: list[Passage]) -> list[Passage]:
    """Set ``section`` from standard heading passages (``Abstract``, ``References``...).

    A passage that is only a standard section name (optionally numbered)
    opens that section for the passages after it; the name is stored lower
    case (``abstract``, ``references``). Other passages keep ''. The abstract
    also ends at the first heading-like passage (short, no final period),
    since the section after it is often not a standard name. A reference
    list ends at a figure or table caption (:data:`_CAPTION`): preprints set
    their figures after the references, and a caption there is the paper's
    own words, evidence like any other (found on the scale job: an arXiv
    paper's "Figure 7. ... an albedo of 0.2" on page 18 was never retrieved);
    a later passage that opens like a reference entry (``[12]``, ``12. Ram
    K.``, ``Mainzer, A.``) resumes the list (a table set inside it).
    """
    import dataclasses

    out = []
    current = ""
    paused = ""  # the reference list a caption interrupted: a later reference entry resumes it
    for p in passages:
        t = p.text.strip()
        m = _SECTION.match(t)
        if m and len(t) < 60:
            current, paused = m.group(1).lower(), ""
            out.append(dataclasses.replace(p, section=current))
            continue
        if paused and _REFERENCE_ENTRY.match(t):
            current, paused = paused, ""  # a table or figure set inside the list: the list goes on
        if current == "abstract" and len(t) < 80 and not t.endswith((".", ":", ";", ",")):
            current = ""  # another heading: the abstract is over
        elif current in NON_EVIDENCE_SECTIONS and _CAPTION.match(t):
            current, paused = "", current  # a figure or table set after (or inside) the reference list
        out.append(dataclasses.replace(p, section=current) if current else p)
    return out
