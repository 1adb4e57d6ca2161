"""DjVu scans and books (``.djvu``, ``.djv``) -> passages with their page numbers.

DjVu (Bottou et al. 1998, "High quality document image compression with
DjVu") holds page images and, often, a hidden text layer from the scanner's
OCR. Both are read with djvulibre's own tools (Debian ``djvulibre-bin``),
run as child processes with the parse limits of
:mod:`citeproof.sources.sandbox` (time: ``CITEPROOF_PARSE_TIMEOUT``;
address space: ``CITEPROOF_PARSE_MEMORY_MB``):

1. ``djvused -e n`` counts the pages;
2. ``djvutxt -detail=para`` gives the text layer as S-expressions, one per
   page in order: a passage per ``para`` (whitespace joined), its ``page``
   the DjVu page (from 1);
3. pages whose layer holds fewer than
   :data:`~citeproof.sources.pdf.MIN_TEXT_CHARS` letters and digits (no
   layer: a bare scan) are rendered by ``ddjvu -format=tiff``, wrapped in a
   PDF by PyMuPDF page for page, and read by the PDF path
   (:func:`~citeproof.sources.ocr.read_pdf`: OCR per ``--ocr``); their
   passages keep the DjVu page numbers. ``--ocr force`` renders and reads
   every page; ``--ocr never`` leaves bare pages unread, in the notes.

A page's title (``djvused -e ls``, ``T=...``: what scanning tools such as
archive.org's set to the printed page number, ``xii`` or ``103``) is each of
its passages' ``page_label``, so ``p. 103`` means the page titled 103, as
for a PDF's page labels. Passages carry no box (``bbox`` None: the report
cannot crop a DjVu page).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from citeproof.model import Passage
from citeproof.sources.parsed import ParsedSource

__all__ = ["DJVU_PARSER_VERSION", "DJVU_TYPES", "INSTALL_HINT", "parse_djvu", "djvu_text_layer", "djvu_page_titles", "read_sexp"]

DJVU_PARSER_VERSION = "djvu-2"
"""Bumped whenever passages would come out differently; part of the cache key."""

DJVU_TYPES = {".djvu": "image/vnd.djvu", ".djv": "image/vnd.djvu"}
"""Suffix -> media type."""

INSTALL_HINT = "install djvulibre's tools (Debian/Ubuntu: apt-get install djvulibre-bin; macOS: brew install djvulibre) and run again"
"""What to do when ``ddjvu``/``djvutxt`` are missing."""

_TOKEN = re.compile(rb'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))', re.S)
_ESC = re.compile(rb"\\([0-7]{1,3}|.)", re.S)
_SIMPLE = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"f": b"\f", b"b": b"\b", b"v": b"\v", b"a": b"\a"}


def _unescape(raw: bytes) -> str:
    def rep(m: re.Match) -> bytes:
        e = m.group(1)
        if e[:1].isdigit():
            return bytes([int(e, 8) & 0xFF])
        return _SIMPLE.get(e, e)
    return _ESC.sub(rep, raw).decode("utf-8", errors="replace")


def read_sexp(data: bytes) -> list:
    """The top-level S-expressions of djvutxt's ``-detail`` output, as nested lists (strings decoded, atoms as ``str``).

    Raises:
        ValueError: unbalanced parentheses.
    """
    stack: list[list] = [[]]
    pos = 0
    while pos < len(data):
        m = _TOKEN.match(data, pos)
        if not m:
            if data[pos:].strip():
                raise ValueError(f"unreadable text layer at byte {pos}")
            break
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) == 1:
                raise ValueError("unbalanced ')' in the text layer")
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(_unescape(m.group(3)))
        else:
            stack[-1].append(m.group(4).decode("ascii", errors="replace"))
    if len(stack) != 1:
        raise ValueError("unbalanced '(' in the text layer")
    return stack[0]


_ZONES = ("page", "column", "region", "para", "line", "word", "char")


def _strings(zone: list) -> list[str]:
    """Every string inside a zone ``[kind, x0, y0, x1, y1, ...]``, in order."""
    out: list[str] = []
    for x in zone[5:]:
        if isinstance(x, list):
            out.extend(_strings(x))
        else:
            out.append(x)
    return out


def _paragraphs(page: list) -> list[str]:
    """The paragraph texts of one page zone (a page holding its text directly is one paragraph)."""
    paras: list[str] = []
    body = page[5:] if page and page[0] == "page" else []

    def walk(items: list) -> None:
        for x in items:
            if isinstance(x, list) and x and x[0] in ("column", "region"):
                walk(x[5:])
            elif isinstance(x, list) and x and x[0] in ("para", "line", "word", "char"):
                t = " ".join(" ".join(_strings(x)).split())
                if t:
                    paras.append(t)
            elif isinstance(x, str) and x.strip():
                paras.extend(p for p in (" ".join(s.split()) for s in re.split(r"[\x1d\x1f]|\n\s*\n", x)) if p)
    walk(body)
    return paras


def _pages(numbers: list[int], one: str, many: str) -> str:
    listed = ", ".join(map(str, numbers[:12])) + (" ..." if len(numbers) > 12 else "")
    return f"page {listed} {one}" if len(numbers) == 1 else f"pages {listed} {many}"


def _letters(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _run(args: list[str], seconds: float, memory_mb: int) -> subprocess.CompletedProcess:
    """Run a djvulibre tool on an untrusted file under the parse limits (raises subprocess errors)."""
    def limit() -> None:  # in the child, before exec
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    return subprocess.run(args, capture_output=True, timeout=seconds or None, preexec_fn=limit, check=False)


def djvu_text_layer(path: Path, seconds: float = 120.0, memory_mb: int = 4096) -> tuple[int, list[list[str]]]:
    """``(page count, paragraphs of each page's text layer)`` of a DjVu file; a page without a layer has ``[]``.

    Raises:
        ValueError: the file is not a DjVu document djvulibre can read (message from the tool).
        subprocess.TimeoutExpired: a tool ran past ``seconds``.
    """
    n = _run(["djvused", "-e", "n", str(path)], seconds, memory_mb)
    if n.returncode != 0 or not n.stdout.strip().isdigit():
        why = [ln for ln in n.stderr.decode("utf-8", "replace").strip().splitlines() if ln.strip() and not ln.lstrip().startswith("***")]
        raise ValueError(why[-1] if why else "it may be truncated, or another format named .djvu")
    pages = int(n.stdout.strip())
    t = _run(["djvutxt", "-detail=para", str(path)], seconds, memory_mb)
    exprs = read_sexp(t.stdout) if t.returncode == 0 else []
    layer = [_paragraphs(e) if isinstance(e, list) else [] for e in exprs][:pages]
    return pages, layer + [[] for _ in range(pages - len(layer))]


_LS_PAGE = re.compile(r"^\s*(\d+)\s+P\s+\d+\s+\S+(?:\s+T=(\"(?:[^\"\\]|\\.)*\"|\S+))?\s*$")


def djvu_page_titles(path: Path, pages: int, seconds: float = 120.0, memory_mb: int = 4096) -> list[str]:
    """The title of each page (from 1, in order; '' where none is set), from ``djvused -e ls``."""
    r = _run(["djvused", "-e", "ls", str(path)], seconds, memory_mb)
    titles = [""] * pages
    for ln in r.stdout.decode("utf-8", "replace").splitlines() if r.returncode == 0 else []:
        m = _LS_PAGE.match(ln)
        if m and m.group(2) and 1 <= int(m.group(1)) <= pages:
            titles[int(m.group(1)) - 1] = m.group(2).strip('"')[:40]
    return titles


def _render_pdf(path: Path, pages: list[int], tmp: Path, seconds: float, memory_mb: int) -> bytes:
    """A PDF of the page images of ``pages`` (from 1), in that order (ddjvu -> TIFF -> PyMuPDF)."""
    from citeproof.pdf_layout import load_pymupdf

    pymupdf = load_pymupdf()
    out = pymupdf.open()
    for k in pages:
        tif = tmp / f"page-{k}.tif"
        r = _run(["ddjvu", "-format=tiff", f"-page={k}", str(path), str(tif)], seconds, memory_mb)
        if r.returncode != 0 or not tif.exists():
            out.new_page()  # keep the numbering: an unrenderable page reads as blank
            continue
        img = pymupdf.open(str(tif))
        out.insert_pdf(pymupdf.open("pdf", img.convert_to_pdf()))
        tif.unlink()
    return out.tobytes()


def parse_djvu(data: bytes, ocr: str = "auto") -> ParsedSource:
    """Read a DjVu file (module docstring: text layer, then rendered pages by the PDF/OCR path).

    Args:
        data: the file's bytes (untrusted).
        ocr: ``--ocr`` mode (``auto``, ``force``, ``never``).

    Returns:
        A :class:`ParsedSource` with ``pages``; ``error`` says why no passage
        could be read (djvulibre missing: not cacheable; not a DjVu file; no
        text and no OCR), ``notes`` which pages were left unread.

    Raises:
        ParseLimitError: the PDF path's worker ran out of time or memory.
    """
    from citeproof.sources.ocr import read_pdf
    from citeproof.sources.pdf import MIN_TEXT_CHARS
    from citeproof.sources.sandbox import parse_limits

    missing = [t for t in ("djvused", "djvutxt", "ddjvu") if shutil.which(t) is None]
    if missing:
        return ParsedSource(error=f"reading a DjVu file needs djvulibre ({', '.join(missing)} not found); {INSTALL_HINT}", cacheable=False)
    lim = parse_limits()
    with tempfile.TemporaryDirectory(prefix="citeproof-djvu-") as d:
        tmp = Path(d)
        src = tmp / "source.djvu"
        src.write_bytes(data)
        try:
            pages, layer = djvu_text_layer(src, lim.seconds, lim.memory_mb)
        except subprocess.TimeoutExpired:
            return ParsedSource(error=f"reading the DjVu file took longer than {lim.seconds:.0f} s (CITEPROOF_PARSE_TIMEOUT)")
        except ValueError as exc:
            return ParsedSource(error=f"not a DjVu file djvulibre can read ({exc})")
        try:
            titles = djvu_page_titles(src, pages, lim.seconds, lim.memory_mb)
        except subprocess.TimeoutExpired:
            titles = [""] * pages
        bare = [k for k in range(1, pages + 1) if ocr == "force" or _letters(" ".join(layer[k - 1])) < MIN_TEXT_CHARS]
        by_page: dict[int, list[tuple[str, bool]]] = {k: [(t, False) for t in layer[k - 1]] for k in range(1, pages + 1) if k not in bare}
        notes: list[str] = []
        cacheable, read_by_ocr = True, False
        if bare and ocr != "never":
            try:
                pdf = _render_pdf(src, bare, tmp, lim.seconds, lim.memory_mb)
            except subprocess.TimeoutExpired:
                pdf = b""
                notes.append(f"rendering {_pages(bare, 'took', 'took')} longer than {lim.seconds:.0f} s; not read")
            if pdf:
                got = read_pdf(pdf, "force" if ocr == "force" else "auto")
                cacheable = got.cacheable
                notes.extend(got.notes)
                read_by_ocr = bool(got.ocr_pages)
                for p in got.passages:
                    k = bare[p.page - 1] if p.page and p.page <= len(bare) else None
                    if k is not None:
                        by_page.setdefault(k, []).append((p.text, p.ocr))
                if got.error and not got.passages:
                    notes.append(f"{_pages(bare, 'has', 'have')} no text layer: {got.error}")
        elif bare:
            notes.append(f"{_pages(bare, 'has', 'have')} no text layer (scanned images); OCR is off (--ocr never): run with --ocr auto to read them")
    passages: list[Passage] = []
    parts: list[str] = []
    pos = 0
    for k in sorted(by_page):
        for text, from_ocr in by_page[k]:
            passages.append(Passage(id=f"p{len(passages) + 1:05d}", text=text, page=k, char_start=pos, char_end=pos + len(text), ocr=from_ocr,
                                    page_label=titles[k - 1]))
            parts.append(text)
            pos += len(text) + 2
    if not passages:
        why = notes[-1] if notes else "the DjVu file holds no text"
        return ParsedSource(pages=pages, error=why, notes=[], cacheable=cacheable)
    title = passages[0].text[:200]
    return ParsedSource(passages=passages, text="\n\n".join(parts), title=title, pages=pages, notes=notes, cacheable=cacheable, ocr=read_by_ocr)

