"""Citing PDFs -> claims, plus the reference list they print.

Steps (issue 4):

1. **Lines in reading order.** PyMuPDF's blocks, ordered per page by the
   shared page layout (:func:`citeproof.pdf_layout.order_blocks`); running
   heads/feet and bare-number lines (page and margin line numbers) dropped
   as for sources; ligature glyphs mapped to U+FFFD rebuilt and private-use
   glyphs dropped (:mod:`citeproof.text.glyphs`); line-end hyphens joined
   only where the joined word is a word. Superscript numbers (span flag or a smaller span above
   the baseline) are kept as marker candidates unless they follow a digit or
   a formula (exponents).
2. **Reference list.** The last ``References``/``Bibliography`` heading, else
   the trailing block that starts at ``[1]``; it ends at an appendix-like
   heading or at the end. Segmented and parsed by
   :mod:`citeproof.bibliography.pdf_refs`.
3. **Markers.** Numeric ``[1]``, ``[1,3]``, ``[1-4]``, ``[1–4, 7]``, adjacent
   ``[11][23][10]`` (one compound group), superscripts when the paper has no
   bracket markers; author-year ``(Smith et al., 2020)``, ``Smith and Jones
   (2019a, b)``, ``(see Smith 2020, p. 4; Lee 2018)`` when its list is
   author-year. Ranges expand to each number.
4. **Claims.** Paragraphs (blocks joined across columns and pages when a
   sentence runs on), captions, headings and footnotes; sentences split by
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
from citeproof.bibliography.pdf_refs import RefEntry, RefLine, author_year_label, entry_number, fold_name, list_form, parse_reference, segment_references, strip_label, unparsed_reason
from citeproof.errors import InputError
from citeproof.model import Citation, CitationMode, Claim, Diagnostic, Reference, UnitKind
from citeproof.readers.claims import ELIDED, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.pandoc_cite import normalise_signal, parse_locator
from citeproof.pdf_layout import NUMERIC_LINE, is_running, order_blocks, page_blocks, running_texts
from citeproof.text.glyphs import REPLACEMENT, Vocabulary, join_hyphen, repair_words

__all__ = ["PdfReader", "PdfDocument", "PdfLine", "read_pdf", "Marker", "parse_time_per_page"]

SUP_OPEN, SUP_CLOSE = "\ue000", "\ue001"


@dataclass
class PdfLine:
    """One printed line of the citing PDF.

    Attributes:
        text: the text; superscript-number spans are wrapped in
            ``\\ue000...\\ue001``.
        page: page from 1.
        bbox: ``(x0, y0, x1, y1)`` in PDF points, top-left origin.
        block: a page-unique block number (lines of one block are one paragraph piece).
        size: the line's dominant font size (points).
        bold: most characters bold.
        col: 0 for the left (or only) column, 1 for the right one.
        width: the page width (points).
        upright: False for rotated text (a landscape table on a portrait page).
    """

    text: str
    page: int
    bbox: tuple[float, float, float, float]
    block: int
    size: float
    bold: bool = False
    col: int = 0
    width: float = 612.0
    upright: bool = True


@dataclass
class Marker:
    """A citation marker found in body text.

    Attributes:
        start, end: span in the paragraph text (end exclusive).
        labels: the labels it cites, in order (``["11"]``, ``["Smith et al. 2020"]``).
        mode: parenthetical or narrative.
        prefixes, posts: per label, the prefix (``see``) and the text after
            the year (``p. 4``), read as locator and suffix.
        raw: the marker as printed.
    """

    start: int
    end: int
    labels: list[str]
    mode: CitationMode = CitationMode.PARENTHETICAL
    prefixes: list[str] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)
    raw: str = ""


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
    for s in spans:
        t = s["text"]
        n = len(t.strip())
        total += n
        if _is_bold(s):
            bold_chars += n
        # A superscript is set smaller than the line's text; PyMuPDF's own flag
        # alone also fires on full-size digits after a subscript.
        raised = s["size"] < 0.85 * main and ((s.get("flags", 0) & 1) or s["origin"][1] < base - 0.15 * main)
        if raised and re.fullmatch(r"\s*\d{1,3}(?:\s*[,–\-]\s*\d{1,3})*\s*[,.;]?\s*", t):
            prev = text.rstrip()
            last_tok = prev.split()[-1] if prev.split() else ""
            exponent = not prev or prev[-1].isdigit() or re.search(r"[\d/=^+*()]", last_tok) or prev[-1] in "−-+×·="
            if not exponent:
                core = t.strip().rstrip(",.;")
                text += SUP_OPEN + core + SUP_CLOSE + t.strip()[len(core):]
                continue
        text += t
    if not text.strip():
        return None
    upright = abs(float(ln.get("dir", (1.0, 0.0))[1])) < 0.1
    return PdfLine(text=text, page=pno, bbox=tuple(round(v, 1) for v in ln["bbox"]), block=pno * 10000 + bi, size=float(main), bold=bold_chars > 0.6 * max(total, 1), width=width, upright=upright)


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


def _plain(text: str) -> str:
    return text.replace(SUP_OPEN, "").replace(SUP_CLOSE, "")


_LABEL_ONLY = re.compile(r"^\s*\[?\d{1,4}[.\]]\s*$")


def _fuse_labels(region: list[PdfLine], before: list[PdfLine]) -> list[PdfLine]:
    """Put entry numbers set as separate text (``2.`` left of the entry) back at the start of their line.

    A label-only line joins the region line on its page whose top is within
    2 pt of its own and which starts right of it; ``before`` are the lines
    just above the region (a first label may be read before the heading).
    """
    labels = [ln for ln in before + region if _LABEL_ONLY.match(_plain(ln.text))]
    if not labels:
        return region
    out = [ln for ln in region if not _LABEL_ONLY.match(_plain(ln.text))]
    for lab in labels:
        cands = [ln for ln in out if ln.page == lab.page and abs(ln.bbox[1] - lab.bbox[1]) < 2 and ln.bbox[0] >= lab.bbox[2] - 1]
        if not cands:
            out_i = None
        else:
            tgt = min(cands, key=lambda ln: ln.bbox[0])
            out_i = out.index(tgt)
        if out_i is None:
            continue
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
    rl = [RefLine(text=_plain(ln.text), page=ln.page, bbox=ln.bbox, col=ln.col, bold=ln.bold) for ln in _drop_heads(_fuse_labels(region, before or []))]
    entries, style = segment_references(rl)
    if style == "unnumbered":
        if cites_by_number:
            style = "numbered"
            for k, e in enumerate(entries, start=1):
                e.label, e.number = str(k), k
        else:
            style = "author-year"
    form = list_form([e.text for e in entries])
    for e in entries:
        first = e.lines[0]
        first_text = strip_label(first.text) if e.number is not None else first.text
        bold_first = first.bold and not all(ln.bold for ln in e.lines)
        texts = [first_text] + [ln.text for ln in e.lines[1:]]
        e.reference = parse_reference(e.text, e.label, first_line=first_text, first_line_bold=bold_first, style=style, lines=texts, bold=[ln.bold for ln in e.lines], form=form)
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


# ---------------------------------------------------------------- markers

_BRACKET = re.compile(r"\[(\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?)*\s*)\]")
_SUP = re.compile(SUP_OPEN + r"([^" + SUP_CLOSE + r"]*)" + SUP_CLOSE)
_NAME = r"(?:(?:van|von|de|der|den|del|da|di|du|le|la|Van|Von|De|Du|Le|La)\s+)*[A-Z][A-Za-z\u00c0-\u024f´`'’\-]*[a-z\u00c0-\u024f][A-Za-z\u00c0-\u024f´`'’\-]*"
_AUTH = rf"{_NAME}(?:\s+et\s+al\.?|\s*(?:,\s*{_NAME}\s*,?)*\s+(?:and|&)\s+{_NAME})?"
_YEARS = r"(?:1[89]|20)\d\d[a-z]?(?:\s*,\s*(?:(?:1[89]|20)\d\d[a-z]?|[a-z])\b)*"
_NARRATIVE = re.compile(rf"(?P<auth>{_AUTH})(?:'s|’s)?\s+\((?P<years>{_YEARS})(?P<post>,\s*[^()]*?)?\)")
_PAREN = re.compile(r"\(([^()]{4,400})\)")
_PART = re.compile(rf"^\s*(?P<pre>(?:[a-z][a-z.,]*\s+){{0,3}})?(?P<auth>{_AUTH}),?\s+(?P<years>{_YEARS})(?P<post>\s*,\s*.*)?\s*$", re.S)
_VERBS = r"(?:found|find|finds|showed|shows|show|reported|reports|report|proposed|proposes|propose|demonstrated|demonstrates|observed|observes|used|uses|use|introduced|introduces|described|describes|argued|argues|suggested|suggests|noted|notes|presented|presents|developed|develops|studied|studies|applied|extended|extends|trained|trains|achieved|achieves)\b"


def _expand(spec: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"\s*[,;]\s*", spec.strip()):
        m = re.fullmatch(r"(\d+)\s*(?:[-–—]\s*(\d+))?", part.strip())
        if not m:
            continue
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if b < a or b - a > 60:
            b = a
        out.extend(range(a, b + 1))
    return out


_MATH_OPS = set("=+×⊗⊕·*<>≤≥∈∼≈^") - {""}


def _numeric_markers(text: str, n_entries: int, superscript: bool) -> list[Marker]:
    found: list[Marker] = []
    pat = _SUP if superscript else _BRACKET
    for m in pat.finditer(text):
        before = text[: m.start()].rstrip()[-1:]
        after = text[m.end():].lstrip()[:1]
        if not superscript and (before in _MATH_OPS or after in _MATH_OPS):
            continue  # [8] in "[3] ⊗ [8] = ..." is a representation, not a reference
        if not superscript and re.search(r"(?:^|\s)(?:the|a|an|The|A|An)\s*$", text[max(0, m.start() - 6): m.start()]):
            continue  # "only the [¯3] and the [6] are attractive": notation, not a reference
        nums = _expand(m.group(1))
        if not nums or (n_entries and not any(1 <= x <= n_entries for x in nums)) or any(x == 0 for x in nums):
            continue
        found.append(Marker(m.start(), m.end(), [str(x) for x in nums], raw=m.group(0)))
    # adjacent groups [11][23][10] form one compound citation
    merged: list[Marker] = []
    for mk in found:
        if merged and re.fullmatch(r"[\s,]*", text[merged[-1].end: mk.start]):
            prev = merged[-1]
            merged[-1] = Marker(prev.start, mk.end, prev.labels + mk.labels, raw=text[prev.start: mk.end])
        else:
            merged.append(mk)
    for mk in merged:
        mk.prefixes = [""] * len(mk.labels)
        mk.posts = [""] * len(mk.labels)
    return merged


def _years(spec: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*,\s*", spec.strip()):
        if re.fullmatch(r"[a-z]", part) and out:
            out.append(out[-1][:4] + part)
        elif part:
            out.append(part)
    return out


def _auth_label(auth: str) -> str:
    auth = re.sub(r"\s+", " ", auth.replace("&", "and")).strip()
    return re.sub(r"\bet al\b\.?", "et al.", auth)


def _author_year_markers(text: str) -> list[Marker]:
    out: list[Marker] = []
    taken: list[tuple[int, int]] = []
    for m in _NARRATIVE.finditer(text):
        if m.group("auth").split()[0] in ("In", "The", "See", "Table", "Figure", "Fig", "Section", "Eq", "Equation", "Appendix"):
            continue
        ys = _years(m.group("years"))
        lab = _auth_label(m.group("auth"))
        post = (m.group("post") or "").strip(", ")
        out.append(Marker(m.start(), m.end(), [f"{lab} {y}" for y in ys], CitationMode.NARRATIVE, [""] * len(ys), [post] * len(ys), m.group(0)))
        taken.append((m.start(), m.end()))
    for m in _PAREN.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        labels, pres, posts = [], [], []
        for part in m.group(1).split(";"):
            pm = _PART.match(part)
            if not pm:
                continue
            for y in _years(pm.group("years")):
                labels.append(f"{_auth_label(pm.group('auth'))} {y}")
                pres.append((pm.group("pre") or "").strip())
                posts.append((pm.group("post") or "").strip(", "))
        if labels:
            out.append(Marker(m.start(), m.end(), labels, CitationMode.PARENTHETICAL, pres, posts, m.group(0)))
    out.sort(key=lambda mk: mk.start)
    return out


class _Linker:
    """Links printed marker labels to reference-list entries."""

    def __init__(self, entries: list[RefEntry], style: str) -> None:
        self.style = style
        self.by_label = {e.label: e for e in entries}
        self.by_name_year: dict[tuple[str, str], list[RefEntry]] = {}
        for e in entries:
            ref = e.reference
            if ref is None or not ref.year:
                continue
            names = [a for a in ref.authors if a != "et al."]
            if names:
                self.by_name_year.setdefault((fold_name(names[0]), ref.year[:4]), []).append(e)

    def link(self, label: str) -> tuple[str | None, str]:
        """``(entry label or None, reason when None)``."""
        if self.style != "author-year":
            if label in self.by_label:
                return label, ""
            return None, f"marker [{label}] has no entry {label} in the reference list ({len(self.by_label)} entries found)"
        if label in self.by_label:
            return label, ""
        m = re.match(r"^(?P<auth>.+?)\s+(?P<year>\d{4})(?P<letter>[a-z]?)$", label)
        if not m:
            return None, f"marker '{label}' is not an author-year citation"
        first = m.group("auth").split(" et al.")[0].split(" and ")[0].split(",")[0].strip()
        cands = self.by_name_year.get((fold_name(first), m.group("year")), [])
        if m.group("letter"):
            cands = [e for e in cands if e.reference is not None and e.reference.year.endswith(m.group("letter"))] or cands
        if len(cands) > 1:
            etal = "et al." in m.group("auth")
            two = " and " in m.group("auth")
            narrowed = [e for e in cands if e.reference is not None and (
                (etal and (len(e.reference.authors) >= 3 or "et al." in e.reference.authors))
                or (two and len([a for a in e.reference.authors if a != 'et al.']) == 2)
                or (not etal and not two and len(e.reference.authors) == 1))]
            cands = narrowed or cands
        if len(cands) == 1:
            return cands[0].label, ""
        if not cands:
            return None, f"marker '{label}' matches no entry of the reference list (no first author '{first}' with year {m.group('year')})"
        return None, f"marker '{label}' is ambiguous: it matches {', '.join(repr(e.label) for e in cands)}"


# ---------------------------------------------------------------- claims

_CAPTION = re.compile(r"^\s*(?:Figure|Fig\.|FIG\.|Table|TABLE|Tab\.)\s*[A-Z]?\d+[.:|]")
_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-H]\.)\s+[A-Z][^.]{0,80}$")


@dataclass
class _Para:
    kind: UnitKind
    lines: list[PdfLine]


def _classify(lines_of_block: list[PdfLine], body_size: float, page_h: dict[int, float]) -> UnitKind:
    t = " ".join(_plain(ln.text) for ln in lines_of_block).strip()
    if _CAPTION.match(t):
        return UnitKind.CAPTION
    first = lines_of_block[0]
    if first.size < body_size * 0.88 and first.bbox[1] > page_h.get(first.page, 792) * 0.6 and re.match(r"^\s*(?:\ue000)?[\d*†‡§¶a-z]", first.text):
        return UnitKind.FOOTNOTE
    if len(lines_of_block) <= 2 and len(t) < 90 and not t.endswith((".", ",", ";")) and (_HEADING.match(t) or all(ln.bold for ln in lines_of_block) or first.size > body_size + 1):
        return UnitKind.HEADING
    return UnitKind.SENTENCE


def _paragraphs(lines: list[PdfLine], body_size: float, page_h: dict[int, float]) -> list[_Para]:
    blocks: list[list[PdfLine]] = []
    for ln in lines:
        if blocks and blocks[-1][-1].block == ln.block:
            blocks[-1].append(ln)
        else:
            blocks.append([ln])
    paras: list[_Para] = []
    for b in blocks:
        kind = _classify(b, body_size, page_h)
        if paras and kind == UnitKind.SENTENCE and paras[-1].kind == UnitKind.SENTENCE:
            prev = _plain(paras[-1].lines[-1].text).rstrip()
            nxt = _plain(b[0].text).lstrip()
            if prev and not prev.endswith((".", "!", "?", ":")) and (nxt[:1].islower() or prev.endswith(("-", ",")) or nxt[:1] in "([" or nxt[:1].isdigit()):
                paras[-1].lines.extend(b)
                continue
        paras.append(_Para(kind, list(b)))
    return paras


def _para_text(lines: list[PdfLine], vocab: Vocabulary) -> tuple[str, list[tuple[int, int, PdfLine]]]:
    """Joined text of a paragraph and each line's span in it (line-end hyphens per :func:`~citeproof.text.glyphs.join_hyphen`)."""
    text = ""
    spans: list[tuple[int, int, PdfLine]] = []
    for ln in lines:
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
    import pymupdf

    t0 = time.perf_counter()
    p = Path(path)
    try:
        doc = pymupdf.open(p)
    except Exception as exc:
        raise InputError(f"{p}: not a readable PDF ({exc}); check the file") from None
    if doc.needs_pass:
        raise InputError(f"{p}: the PDF is encrypted; save an unprotected copy")
    n_pages = doc.page_count
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
    paras = _paragraphs(body, body_size, page_h)
    footnote_marks = {
        (pp.lines[0].page, m.group(1))
        for pp in paras
        if pp.kind == UnitKind.FOOTNOTE and (m := re.match(r"^\s*\ue000?(\d{1,3})\ue001?\s", pp.lines[0].text))
    }
    all_text = " ".join(_para_text(pp.lines, vocab)[0] for pp in paras)
    n_brackets = len(_numeric_markers(all_text, len(entries) if style == "numbered" else 0, False))
    if style == "author-year":
        marker_style = "author-year"
    elif n_brackets >= 3 or style != "numbered":
        marker_style = "brackets" if n_brackets else ""
    else:
        marker_style = "superscript" if _SUP.search(all_text) else ("brackets" if n_brackets else "")
    linker = _Linker(entries, style or "numbered")
    claims: list[Claim] = []
    unlinked: dict[str, str] = {}
    n_markers = n_linked = 0
    prev_sentence = ""
    for para in paras:
        text, spans = _para_text(para.lines, vocab)
        if marker_style == "author-year":
            markers = _author_year_markers(text)
        elif marker_style in ("brackets", "superscript"):
            markers = _numeric_markers(text, len(entries) if style == "numbered" else 0, marker_style == "superscript")
            if marker_style == "superscript":
                markers = [mk for mk in markers if not _is_footnote_mark(mk, spans, footnote_marks)]
        else:
            markers = []
        keep = {(mk.start, mk.end) for mk in markers} if marker_style == "superscript" else set()
        # superscripts that are no marker (footnote marks, or all of them in a bracket-style paper) vanish
        clean = _SUP.sub(lambda m: m.group(0) if (m.start(), m.end()) in keep else " " * len(m.group(0)), text)
        if not markers:
            if para.kind == UnitKind.SENTENCE:
                prev_sentence = _plain(text)[-300:]
            continue
        masked = list(clean)
        for mk in markers:
            for j in range(mk.start, mk.end):
                masked[j] = "X"
        split_src = "".join(masked).replace(SUP_OPEN, " ").replace(SUP_CLOSE, " ")
        units = [(0, len(text))] if para.kind in (UnitKind.HEADING,) else tile_spans(split_sentences(split_src), len(text), split_src)
        for s, e in units:
            in_unit = [mk for mk in markers if s <= mk.start < e]
            if not in_unit:
                prev_sentence = _plain(text[s:e]).strip()
                continue
            pieces: list[str] = []
            pos = s
            cites: list[Citation] = []
            for mk in in_unit:
                pieces.append(clean[pos: mk.start])
                lead = re.sub(r"[\s\ue000\ue001]", "", clean[s: mk.start])
                narrative = mk.mode == CitationMode.NARRATIVE or (
                    marker_style == "brackets" and (lead == "" or lead.lower() in ("in", "and")) and re.match(rf"^\s*(?:et al\.\s*)?(?:and\s+\[\d+\]\s*)?{_VERBS}", clean[mk.end: mk.end + 40])
                ) or (marker_style == "brackets" and lead == "" and re.match(r"^\s*(?:and|,)\s*\[", clean[mk.end: mk.end + 8]) is not None)
                # "Zhu et al. [24] found ...": the authors are named in the text, so the marker is narrative
                # (what follows is their finding), and nothing needs eliding
                named = marker_style == "brackets" and not narrative and re.fullmatch(r"[A-Z][\w'’-]*(?:etal\.?|(?:and|&)[A-Z][\w'’-]*)?", lead) is not None \
                    and re.match(rf"^\s*{_VERBS}", clean[mk.end: mk.end + 40]) is not None
                pieces.append(f" {ELIDED} " if narrative else " ")
                narrative = narrative or named
                pos = mk.end
                page = next((ln.page for a, b, ln in spans if a <= mk.start < b), spans[0][2].page)
                for k, label in enumerate(mk.labels):
                    n_markers += 1
                    key, reason = linker.link(label)
                    if key is None:
                        key = label
                        unlinked.setdefault(label, reason)
                        diags.append(Diagnostic("pdf-unlinked-marker", "warning", f"{p}: page {page}: {reason}", str(p), page))
                    else:
                        n_linked += 1
                    post = mk.posts[k] if k < len(mk.posts) else ""
                    loc, rest = parse_locator(", " + post) if post else (None, "")
                    pre = mk.prefixes[k] if k < len(mk.prefixes) else ""
                    cites.append(
                        Citation(
                            citekey=key,
                            mode=CitationMode.NARRATIVE if narrative else mk.mode,
                            prefix=pre,
                            suffix=rest,
                            locator=loc,
                            signal=normalise_signal(pre) if pre else None,
                            raw=_plain(mk.raw),
                            line=page,
                            column=0,
                            group_index=k,
                            group_size=len(mk.labels),
                        )
                    )
            pieces.append(clean[pos:e])
            claim_text = tidy_claim_text(_plain("".join(pieces)))
            lines_in = [ln for a, b, ln in spans if a < e and b > s]
            page0 = lines_in[0].page if lines_in else spans[0][2].page
            on_page = [ln for ln in lines_in if ln.page == page0]
            bbox = (min(ln.bbox[0] for ln in on_page), min(ln.bbox[1] for ln in on_page), max(ln.bbox[2] for ln in on_page), max(ln.bbox[3] for ln in on_page)) if on_page else None
            claims.append(
                Claim(
                    id=f"c{len(claims) + 1:04d}",
                    text=claim_text,
                    raw=_plain(text[s:e]).strip(),
                    citations=tuple(cites),
                    document=str(path),
                    line=page0,
                    kind=para.kind,
                    context=prev_sentence[-300:],
                    page=page0,
                    bbox=bbox,
                )
            )
            prev_sentence = claim_text
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


def _is_footnote_mark(mk: Marker, spans: list[tuple[int, int, PdfLine]], marks: set[tuple[int, str]]) -> bool:
    """A lone superscript number whose page has a footnote starting with that number is a footnote mark."""
    if len(mk.labels) != 1:
        return False
    page = next((ln.page for a, b, ln in spans if a <= mk.start < b), 0)
    return (page, mk.labels[0]) in marks


