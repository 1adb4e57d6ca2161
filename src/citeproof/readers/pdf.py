"""Citing PDFs -> claims, plus the reference list they print.

Steps (issues 4 and 11):

1. **Lines in reading order.** PyMuPDF's blocks, ordered per page by the
   shared page layout (:func:`citeproof.pdf_layout.order_blocks`); running
   heads/feet and bare-number lines (page and margin line numbers) dropped
   as for sources; ligature glyphs mapped to U+FFFD rebuilt and private-use
   glyphs dropped (:mod:`citeproof.text.glyphs`); line-end hyphens joined
   only where the joined word is a word. A superscript number (set smaller
   than the line, flagged or above its baseline) is a marker candidate when
   :func:`~citeproof.readers.pdf_markers.superscript_role` says ``cite``;
   an exponent or isotope keeps its printed form (``224²``, ``¹⁴C``); a
   raised number starting a line is a footnote or affiliation label. Wide
   gaps between spans are kept (:attr:`PdfLine.gaps`: table cells).
2. **Reference list.** The last ``References``/``Bibliography`` heading, else
   the trailing block that starts at ``[1]``; it ends at an appendix-like
   heading or at the end. Segmented and parsed by
   :mod:`citeproof.bibliography.pdf_refs`.
3. **Markers** (:mod:`citeproof.readers.pdf_markers`). Numeric ``[1]``,
   ``[1,3]``, ``[1-4]``, ``[1–4, 7]``, adjacent ``[11][23][10]`` (one
   compound group), bracketed notation left alone; superscripts when the
   paper has no bracket markers; author-year ``(Smith et al., 2020)``,
   ``Smith and Jones (2019a, b)``, ``(see Smith 2020, p. 4; Lee 2018)``,
   ``(as Werner et al. 2002 did)`` when its list is author-year. Ranges
   expand to each number.
4. **Claims** (:mod:`citeproof.readers.pdf_claims`). Table rows, paragraphs
   (blocks joined across columns and pages when a sentence runs on),
   captions, headings and footnotes; sentences split by
   :func:`citeproof.readers.claims.split_sentences`; markers removed, a marker
   used as a sentence's subject (``[24] found that...``) or a narrative
   author-year cite elided as ``[...]``.

Claims carry ``line`` = ``page`` = the PDF page (from 1) and ``bbox`` = the
union of the sentence's line boxes on that page (PDF points, top-left origin).
Each citation's ``citekey`` is the label as printed (``10``, ``Smith et al.
2014``); one that links to no entry keeps its printed form and becomes an
``unknown_citekey`` finding, with a diagnostic saying why.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from citeproof.bibliography import Bibliography
from citeproof.bibliography.pdf_refs import RefEntry, RefLine, author_year_label, entry_number, inherit_authors, parse_reference, segment_references, strip_label, unparsed_reason
from citeproof.errors import InputError
from citeproof.model import Claim, Diagnostic, Reference
from citeproof.pdf_layout import NUMERIC_LINE, is_running, load_pymupdf, order_blocks, page_blocks, running_texts
from citeproof.readers.pdf_claims import CAPTION as _CAPTION
from citeproof.readers.pdf_claims import footnote_marks, paragraph_claims, paragraphs, para_text
from citeproof.readers.pdf_lines import SUP_CLOSE, SUP_OPEN, PdfLine
from citeproof.readers.pdf_lines import plain as _plain
from citeproof.readers.pdf_markers import BRACKET as _BRACKET
from citeproof.readers.pdf_markers import SUP, SUPERSCRIPT_DIGITS, Linker, Marker, numeric_markers, superscript_role
from citeproof.text.glyphs import REPLACEMENT, Vocabulary, join_spacing_accents, repair_words

__all__ = ["PdfReader", "PdfDocument", "PdfLine", "read_pdf", "Marker", "parse_time_per_page"]


@dataclass
class PdfDocument:
    """What :func:`read_pdf` found in a citing PDF.

    Attributes:
        path: the PDF.
        claims: claims with citations, in reading order.
        entries: reference-list entries, in printed order.
        style: ``numbered``, ``author-year`` or '' (no list found).
        marker_style: ``brackets``, ``superscript``, ``author-year`` or ''.
        markers: every marker occurrence found (one per label).
        linked: how many of those link to an entry.
        diagnostics: unlinkable markers, missing reference list.
        unlinked: printed label -> why it links to no entry.
        pages: page count.
        seconds: wall time of the whole read (s).
    """

    path: str
    claims: list[Claim]
    entries: list[RefEntry]
    style: str
    marker_style: str
    markers: int
    linked: int
    diagnostics: list[Diagnostic]
    pages: int
    seconds: float
    unlinked: dict[str, str] = field(default_factory=dict)

    @property
    def seconds_per_page(self) -> float:
        """Parse time per page (s/page)."""
        return self.seconds / self.pages if self.pages else 0.0

    def bibliography(self) -> Bibliography:
        """The reference list as a :class:`Bibliography` keyed by printed label."""
        bib = Bibliography(files=[Path(self.path)], description=f"the reference list of {self.path} ({len(self.entries)} entries)")
        for e in self.entries:
            if e.reference is not None and e.label and e.label not in bib.entries and e.label not in self.unlinked:
                bib.entries[e.label] = e.reference
        bib.diagnostics.extend(self.diagnostics)
        bib.unknown_reasons.update(self.unlinked)
        return bib


# ---------------------------------------------------------------- lines


def _is_bold(span: dict) -> bool:
    return bool(span.get("flags", 0) & 16) or "bold" in str(span.get("font", "")).lower()


def _extract_lines(doc) -> tuple[list[PdfLine], Vocabulary]:
    """All body lines of the document in reading order, heads/feet and line numbers dropped; and its words.

    Lines holding U+FFFD (a ligature glyph without a code point) are
    repaired from the document's :class:`~citeproof.text.glyphs.Vocabulary`.
    """
    pages = page_blocks(doc, 0)
    running = running_texts(pages)
    out: list[PdfLine] = []
    for pg in pages:
        pno, w, h = pg.number, pg.width, pg.height
        items = []
        block_lines: dict[int, list[PdfLine]] = {}
        for bi, b in enumerate(pg.blocks):
            if is_running(b, h, running) and not _LABEL_ONLY.match(" ".join("".join(s["text"] for s in ln["spans"]) for ln in b["lines"])):
                continue  # a running head; an entry number such as "1." at a page top stays
            lines = []
            for ln in b["lines"]:
                pl = _line(ln, pno, bi, w)
                if pl is None or NUMERIC_LINE.match(pl.text.replace(SUP_OPEN, "").replace(SUP_CLOSE, "")):
                    continue
                lines.append(pl)
            if not lines:
                continue
            block_lines[bi] = lines
            x0 = min(p.bbox[0] for p in lines)
            y0 = min(p.bbox[1] for p in lines)
            x1 = max(p.bbox[2] for p in lines)
            y1 = max(p.bbox[3] for p in lines)
            items.append((x0, y0, x1, y1, bi))
        mid = w / 2
        for bi in order_blocks(items, w):
            for pl in block_lines[bi]:
                pl.col = 1 if pl.bbox[0] >= mid - w * 0.03 else 0
                out.append(pl)
    vocab = Vocabulary(_plain(pl.text) for pl in out)
    repaired: Counter[str] = Counter()
    for pl in out:
        if REPLACEMENT in pl.text:
            pl.text = repair_words(pl.text, vocab, repaired)
    return out, vocab


def _line(ln: dict, pno: int, bi: int, width: float) -> PdfLine | None:
    spans = [s for s in ln.get("spans", []) if s.get("text")]
    if not spans:
        return None
    sizes: Counter[float] = Counter()
    for s in spans:
        sizes[round(s["size"], 1)] += len(s["text"].strip())
    main = sizes.most_common(1)[0][0] if sizes else spans[0]["size"]
    base = max((s["origin"][1] for s in spans if round(s["size"], 1) == main), default=spans[0]["origin"][1])
    text = ""
    bold_chars = total = 0
    gaps: list[int] = []
    prev_x1: float | None = None
    for k, s in enumerate(spans):
        t = s["text"]
        n = len(t.strip())
        total += n
        if _is_bold(s):
            bold_chars += n
        x0, x1 = s["bbox"][0], s["bbox"][2]
        if not n:  # a space span: a wide one separates two table cells
            text += t
            if x1 - x0 > 0.6 * main:
                gaps.append(len(text))
            prev_x1 = x1
            continue
        if prev_x1 is not None and x0 - prev_x1 > 0.6 * main:
            gaps.append(len(text))
        prev_x1 = x1
        # A superscript is set smaller than the line's text; PyMuPDF's own flag
        # alone also fires on full-size digits after a subscript.
        raised = s["size"] < 0.85 * main and ((s.get("flags", 0) & 1) or s["origin"][1] < base - 0.15 * main)
        if raised and re.fullmatch(r"\s*\d{1,3}(?:\s*[,–\-]\s*\d{1,3})*\s*[,.;]?\s*", t):
            core = t.strip().rstrip(",.;")
            nxt = "".join(x["text"] for x in spans[k + 1: k + 4])
            role = superscript_role(text, core, nxt)
            if role == "cite":
                text += SUP_OPEN + core + SUP_CLOSE + t.strip()[len(core):]
            elif role == "label":  # "¹Department of ..." / "²This footnote ...": the label, then a space
                text += core + ("" if nxt[:1].isspace() else " ")
            else:  # an exponent or isotope number keeps its printed form: 224², ¹²C
                text += t.translate(SUPERSCRIPT_DIGITS)
            continue
        text += t
    if not text.strip():
        return None
    upright = abs(float(ln.get("dir", (1.0, 0.0))[1])) < 0.1
    return PdfLine(text=text, page=pno, bbox=tuple(round(v, 1) for v in ln["bbox"]), block=pno * 10000 + bi, size=float(main), bold=bold_chars > 0.6 * max(total, 1), width=width, upright=upright,
                   gaps=tuple(gaps))


# ---------------------------------------------------------------- reference list

_REF_HEAD = re.compile(r"^\s*(?:\d+\.?|[IVX]+\.|[A-Z]\.)?\s*(references(?: and notes)?|bibliography|literature cited|works cited|reference list)\s*:?\s*$", re.I)
_END_HEAD = re.compile(r"^\s*(?:[A-Z]\.?\s+|\d+\.?\s+)?(appendix|appendices|supplementary|supporting information|about the authors?|author contributions|acknowledge?ments?|figures?|tables?)\b.{0,60}$", re.I)


def _find_reference_region(lines: list[PdfLine]) -> tuple[list[tuple[int, int]], str]:
    """Where the reference list is: ``(segments, how)``.

    ``segments`` are ``(start, end)`` ranges of ``lines`` (heading excluded);
    more than one when floats (tables, figures) interrupt a numbered list and
    it resumes at the next number. ``([], '')`` when there is none.
    """
    n = len(lines)
    heads = [i for i, ln in enumerate(lines) if _REF_HEAD.match(_plain(ln.text))]
    start, how = -1, ""
    if heads:
        start, how = heads[-1] + 1, "heading"
    else:
        firsts = [i for i, ln in enumerate(lines) if re.match(r"^\s*\[1\]", _plain(ln.text))]
        for i in reversed(firsts):
            if any(re.match(r"^\s*\[2\]", _plain(ln.text)) for ln in lines[i + 1: i + 60]):
                start, how = i, "trailing numbered block"
                break
    if start < 0:
        return [], ""
    segments: list[tuple[int, int]] = []
    size = lines[start].size if start < n else 10.0
    while start < n:
        end = _region_end(lines, start, size)
        segments.append((start, end))
        last = _last_number(lines[start:end]) if len(segments) == 1 else _last_number([ln for s, e in segments for ln in lines[s:e]])
        if not last or end >= n:
            break
        nxt = next((j for j in range(end, n) if (entry_number(_plain(lines[j].text)) or (0, ""))[0] == last + 1), None)
        if nxt is None:
            break
        start = nxt
    return segments, how


def _region_end(lines: list[PdfLine], start: int, size: float) -> int:
    for j in range(start + 1, len(lines)):
        t = _plain(lines[j].text)
        if _CAPTION.match(t):
            return j
        if len(t) < 70 and _END_HEAD.match(t) and not re.match(r"^\s*\[?\d+[.\]]\s", t) and (lines[j].bold or lines[j].size > size + 0.5 or t.isupper()):
            return j
    return len(lines)


def _last_number(region: list[PdfLine]) -> int:
    """The largest m such that entries 1..m all start a line of ``region`` (0 for unnumbered lists)."""
    seen = set()
    for ln in region:
        hit = entry_number(_plain(ln.text))
        if hit:
            seen.add(hit[0])
    k = 0
    while k + 1 in seen:
        k += 1
    return k


_LABEL_ONLY = re.compile(r"^\s*\[?\d{1,4}[.\]]\s*$")


def _fuse_labels(region: list[PdfLine], before: list[PdfLine]) -> list[PdfLine]:
    """Put entry numbers set as separate text (``2.`` left of the entry) back at the start of their line.

    A label-only line joins the region line on its page whose top is within
    2 pt of its own and which starts right of it; ``before`` are the lines
    just above the region (a first label may be read before the heading).
    A region line that joins nothing and reads as a year (``2017.``) stays
    where it is: it is an entry's last line, not a label.
    """
    labels = [ln for ln in before + region if _LABEL_ONLY.match(_plain(ln.text))]
    if not labels:
        return region
    text_lines = [ln for ln in region if not _LABEL_ONLY.match(_plain(ln.text))]
    targets: dict[int, PdfLine] = {}  # id(label) -> the text line it joins
    for lab in labels:
        cands = [ln for ln in text_lines if ln.page == lab.page and abs(ln.bbox[1] - lab.bbox[1]) < 2 and ln.bbox[0] >= lab.bbox[2] - 1]
        if cands:
            targets[id(lab)] = min(cands, key=lambda ln: ln.bbox[0])
    out = [ln for ln in region if not _LABEL_ONLY.match(_plain(ln.text)) or (id(ln) not in targets and re.match(r"^\s*(?:1[89]|20)\d\d\.\s*$", _plain(ln.text)))]
    where = {id(ln): i for i, ln in enumerate(out)}
    for lab in labels:
        tgt = targets.get(id(lab))
        if tgt is None:
            continue
        out_i = where[id(tgt)]
        t = out[out_i]
        out[out_i] = PdfLine(text=lab.text.strip() + " " + t.text, page=t.page, bbox=(lab.bbox[0], t.bbox[1], t.bbox[2], t.bbox[3]), block=t.block, size=t.size, bold=t.bold, col=t.col, width=t.width)
    return out


_ACM_HEAD = re.compile(r"^\s*\d+:\d+\s*[•·]|[•·]\s*\d+:\d+\s*$|Publication date: [A-Z][a-z]+ \d{4}\.?\s*$")


def _drop_heads(region: list[PdfLine]) -> list[PdfLine]:
    """The list's lines without the running heads a page's own head detection missed (one printed on a single
    page): ACM's ``17:4 • A. Author et al.`` / ``Title • 17:5`` and ``... Publication date: May 2020.``."""
    return [ln for ln in region if not _ACM_HEAD.search(_plain(ln.text))]


def _parse_entries(region: list[PdfLine], cites_by_number: bool = False, before: list[PdfLine] | None = None) -> tuple[list[RefEntry], str]:
    """Segment and parse the reference list.

    ``cites_by_number``: the body cites with bracketed numbers, so an
    unnumbered list (entries set apart by spacing) is numbered in order.
    """
    rl = [RefLine(text=join_spacing_accents(_plain(ln.text)), page=ln.page, bbox=ln.bbox, col=ln.col, bold=ln.bold) for ln in _drop_heads(_fuse_labels(region, before or []))]
    entries, style = segment_references(rl)
    if style == "unnumbered":
        if cites_by_number:
            style = "numbered"
            for k, e in enumerate(entries, start=1):
                e.label, e.number = str(k), k
        else:
            style = "author-year"
    # each entry is read on its own merits (issue 26): a list-wide vote on the name form failed the
    # minority of a list that mixes forms (Buckland, S. T., D. R. Anderson beside Royle, J. A.)
    for e in entries:
        first = e.lines[0]
        first_text = strip_label(first.text) if e.number is not None else first.text
        bold_first = first.bold and not all(ln.bold for ln in e.lines)
        texts = [first_text] + [ln.text for ln in e.lines[1:]]
        e.reference = parse_reference(e.text, e.label, first_line=first_text, first_line_bold=bold_first, style=style, lines=texts, bold=[ln.bold for ln in e.lines])
    for e, ref in zip(entries, inherit_authors([e.reference for e in entries], [e.text for e in entries])):  # type: ignore[misc]
        e.reference = ref
    if style == "author-year":
        seen: Counter[str] = Counter()
        for e in entries:
            assert e.reference is not None
            lab = author_year_label(e.reference) or e.text[:40]
            seen[lab] += 1
            e.label = lab if seen[lab] == 1 else f"{lab} [{seen[lab]}]"
            e.reference = _with_key(e.reference, e.label)
    for e in entries:
        assert e.reference is not None
        e.reference = _with_key(e.reference, e.label, origin=f"reference list, page {e.page}")
    return entries, style


def _with_key(ref: Reference, key: str, origin: str = "") -> Reference:
    import dataclasses

    return dataclasses.replace(ref, citekey=key, origin=origin or ref.origin)


class PdfReader:
    """Reads a citing PDF into claims and its printed reference list.

    ``read(path)`` returns the claims (the reader registry's interface);
    ``read_document(path)`` the whole :class:`PdfDocument`.
    """

    suffixes = (".pdf",)

    def read(self, path: str | Path) -> list[Claim]:
        """Claims with citations, in reading order (see :func:`read_pdf`)."""
        return read_pdf(path).claims

    def read_document(self, path: str | Path) -> PdfDocument:
        """Everything :func:`read_pdf` finds."""
        return read_pdf(path)


def read_pdf(path: str | Path) -> PdfDocument:
    """Read a citing PDF: claims, reference list, marker links, timing.

    Args:
        path: the PDF file.

    Returns:
        A :class:`PdfDocument`; ``seconds_per_page`` is the parse time per
        page (s/page) for benchmarks. Claims' ``line`` and ``page`` are PDF
        pages from 1.

    Raises:
        InputError: the file is missing, not a PDF, encrypted, has no pages or no text layer.
            A damaged PDF MuPDF repairs is read, with a ``pdf-repaired`` diagnostic.
    """
    pymupdf = load_pymupdf()

    t0 = time.perf_counter()
    p = Path(path)
    try:
        doc = pymupdf.open(p)
    except Exception as exc:
        raise InputError(f"{p}: not a readable PDF ({exc}); check the file") from None
    if doc.needs_pass:
        raise InputError(f"{p}: the PDF is encrypted; save an unprotected copy")
    try:
        n_pages = doc.page_count
    except Exception as exc:  # a page tree MuPDF cannot count ("Invalid number of pages": /Count beside too few kids)
        raise InputError(f"{p}: the PDF is damaged and MuPDF cannot read its page tree ({str(exc).split(': ', 1)[-1]}); "
                         "check the file or export it again") from None
    if n_pages == 0:
        raise InputError(f"{p}: the PDF has no pages{' (it is damaged: truncated or a broken cross-reference table)' if doc.is_repaired else ''}; check the file")
    try:
        page_h = {i + 1: pg.rect.height for i, pg in enumerate(doc)}
        lines, vocab = _extract_lines(doc)
    except pymupdf.mupdf.FzErrorBase as exc:  # a page tree MuPDF cannot repair (malformed, a cycle)
        raise InputError(f"{p}: the PDF is damaged and MuPDF cannot read its pages ({str(exc).split(': ', 1)[-1]}); check the file or export it again") from None
    if not lines:
        raise InputError(f"{p}: the PDF has no text layer (scanned?); run OCR first (e.g. ocrmypdf)")
    diags: list[Diagnostic] = []
    if doc.is_repaired:
        diags.append(Diagnostic("pdf-repaired", "warning", f"{p}: the PDF is damaged (truncated or a broken cross-reference table) and MuPDF repaired it; "
                                f"{n_pages} page(s) read, text may be missing; check the file or export it again", str(p)))
    segments, how = _find_reference_region(lines)
    rs = segments[0][0] if segments else len(lines)
    in_list = {j for s_, e_ in segments for j in range(s_, e_)}
    head_text = " ".join(_plain(ln.text) for ln in lines[:max(rs - 1, 0)])
    cites_by_number = len(_BRACKET.findall(head_text)) >= 3
    region = [lines[j] for j in sorted(in_list) if lines[j].upright]  # a rotated float inside the list is not part of it
    entries, style = _parse_entries(region, cites_by_number, lines[max(rs - 4, 0):rs]) if how else ([], "")
    if not entries:
        head_page = lines[min(segments[0][0], len(lines) - 1)].page if segments else 0
        where = (f"the reference list that starts on page {head_page} holds no entry citeproof can cut" if how
                 else f"none of pages 1-{n_pages} has a References/Bibliography heading or a trailing block starting at [1]")
        diags.append(Diagnostic("pdf-no-reference-list", "warning", f"{p}: no reference list found ({where}); markers cannot be linked to entries", str(p), head_page))
    unparsed = {e.label: e for e in entries if e.reference is not None and unparsed_reason(e.reference)}
    for e in unparsed.values():
        diags.append(Diagnostic("pdf-unparsed-entry", "warning", f"{p}: page {e.page}: reference-list entry {e.label!r} could not be parsed "
                                f"({unparsed_reason(e.reference)}): {e.text[:80]!r}", str(p), e.page))
    skip = in_list | ({rs - 1} if how == "heading" else set())
    body = [ln for j, ln in enumerate(lines) if j not in skip]
    sizes: Counter[float] = Counter()
    for ln in body:
        sizes[round(ln.size, 1)] += len(ln.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    paras = paragraphs(body, body_size, page_h)
    all_text = " ".join(para_text(pp, vocab)[0] for pp in paras)
    n_numbered = len(entries) if style == "numbered" else 0
    n_brackets = len(numeric_markers(all_text, n_numbered, False))
    if style == "author-year":
        marker_style = "author-year"
    elif n_brackets >= 3 or style != "numbered":
        marker_style = "brackets" if n_brackets else ""
    else:
        marker_style = "superscript" if SUP.search(all_text) else ("brackets" if n_brackets else "")
    found = paragraph_claims(paras, vocab, marker_style, n_numbered, Linker(entries, style or "numbered"), footnote_marks(paras), str(path))
    diags.extend(found.diagnostics)
    claims, unlinked, n_markers, n_linked = found.claims, found.unlinked, found.markers, found.linked
    cited = {c.citekey for cl in claims for c in cl.citations}
    for label, e in unparsed.items():  # markers of an entry read as nothing are unverifiable, with the reason
        if label in cited:
            unlinked[label] = f"entry {label!r} of the reference list (page {e.page}) could not be parsed ({unparsed_reason(e.reference)})"
    if not entries:
        unlinked = {k: f"no reference list was found in {p}, so marker '{k}' links to no entry" for k in unlinked}
    return PdfDocument(
        path=str(path), claims=claims, entries=entries, style=style, marker_style=marker_style, markers=n_markers,
        linked=n_linked, diagnostics=diags, pages=n_pages, seconds=time.perf_counter() - t0, unlinked=unlinked,
    )


def parse_time_per_page(path: str | Path, repeat: int = 3) -> dict:
    """Benchmark hook: how long reading a citing PDF takes.

    Args:
        path: a citing PDF.
        repeat: reads to time; the fastest counts (>= 1).

    Returns:
        ``{"path", "pages", "seconds", "seconds_per_page", "entries",
        "markers", "linked"}``; times in seconds (wall clock) for the whole
        :func:`read_pdf` (lines, reference list, markers, claims).
    """
    best: PdfDocument | None = None
    for _ in range(max(1, repeat)):
        d = read_pdf(path)
        if best is None or d.seconds < best.seconds:
            best = d
    assert best is not None
    return {"path": str(path), "pages": best.pages, "seconds": round(best.seconds, 4), "seconds_per_page": round(best.seconds_per_page, 5),
            "entries": len(best.entries), "markers": best.markers, "linked": best.linked}
