"""Scanned PDF sources: pages without a text layer read by OCR (issue 19, part 1).

Routing, per ``--ocr`` mode (:data:`OCR_MODES`):

``auto`` (default)
    a page is read by OCR when its text layer holds fewer than
    :data:`~citeproof.sources.pdf.MIN_TEXT_CHARS` letters and digits and it shows an image (a
    scanned page); every other page is read as is, so a PDF that already
    carries an invisible OCR layer (``ocrmypdf``, a scanner's own) is read
    from that layer. A page whose text layer is *garbled* (at least
    :data:`~citeproof.sources.pdf.GARBLED_SHARE` of its characters are U+FFFD, glyphs the PDF maps
    to no text) is reported in the source's notes, re-read by OCR on
    request (``--ocr force``).
``force``
    every page is read by OCR from its image (full page), the text layer
    ignored.
``never``
    no OCR: a scanned PDF is an ``unverifiable`` source saying so.

The engine is Tesseract (Smith 2007, "An Overview of the Tesseract OCR
Engine", ICDAR), driven through PyMuPDF's own OCR
(``Page.get_textpage_ocr(full=True)``: MuPDF renders the page at
:data:`~citeproof.sources.pdf.OCR_DPI` dpi, Tesseract reads it, and the words come back as a
text page with their boxes in the page's own coordinates, so passages keep
their page and box). Tesseract's language data comes from Debian
(``apt-get install tesseract-ocr tesseract-ocr-eng``); the language is
``$CITEPROOF_OCR_LANG`` (Tesseract codes joined by ``+``, default ``eng``).
Without the engine, the source's error (no page had text) or its notes
(some had) say what to install, and the result is not cached, so the next
run after installing reads it.

OCR runs in the parse worker (:mod:`citeproof.sources.sandbox`) like every
parse, with :data:`OCR_SECONDS_PER_PAGE` added to the time limit per page
read. Passages from OCR'd pages carry ``ocr=True``; a finding quoting one
says the quote was read by OCR (lower trust: check it against the page).
"""

from __future__ import annotations

import functools
import os
import re

from citeproof.errors import CiteproofError
from citeproof.sources.pdf import ParsedPDF, parse_pdf
from citeproof.sources.sandbox import ParseLimits, parse_limits, run_limited

__all__ = ["OCR_MODES", "OCR_SECONDS_PER_PAGE", "INSTALL_HINT",
           "ocr_language", "tessdata_dir", "read_pdf", "check_mode"]

OCR_MODES = ("auto", "force", "never")
"""The values of ``--ocr``."""

OCR_SECONDS_PER_PAGE = 30.0
"""Seconds added to the parse worker's time limit for each page read by OCR (a page takes 1-3 s here at
300 dpi; the margin is for slow machines)."""

INSTALL_HINT = ("install the OCR engine Tesseract with its language data (Debian/Ubuntu: apt-get install "
                "tesseract-ocr tesseract-ocr-eng; macOS: brew install tesseract) and run again")
"""What to do when a scanned page needs OCR and no engine is installed."""

_LANG = re.compile(r"^[A-Za-z_]{3,20}(?:\+[A-Za-z_]{3,20}){0,5}$")


def check_mode(mode: str) -> str:
    """``mode`` when it is one of :data:`OCR_MODES`.

    Raises:
        CiteproofError: another value (the message lists the valid ones).
    """
    if mode not in OCR_MODES:
        raise CiteproofError(f"--ocr must be one of {', '.join(OCR_MODES)}, not {mode!r}")
    return mode


def ocr_language() -> str:
    """Tesseract language(s) from ``$CITEPROOF_OCR_LANG`` (``eng``, ``eng+deu``, ``chi_sim``); default ``eng``.

    Raises:
        CiteproofError: the variable is not Tesseract language codes joined by ``+``.
    """
    lang = os.environ.get("CITEPROOF_OCR_LANG", "").strip() or "eng"
    if not _LANG.match(lang):
        raise CiteproofError(f"CITEPROOF_OCR_LANG must be Tesseract language codes joined by '+' (eng, eng+deu), not {lang!r}")
    return lang


def tessdata_dir(language: str = "eng") -> str | None:
    """The folder of Tesseract's language data holding every language of ``language``, or None.

    Found by PyMuPDF (``pymupdf.get_tessdata``: ``$TESSDATA_PREFIX``, else
    what ``tesseract --list-langs`` names). None when Tesseract is not
    installed or a language's ``<code>.traineddata`` is missing. Looked up
    once per language and ``$TESSDATA_PREFIX``.
    """
    return _tessdata(language, os.environ.get("TESSDATA_PREFIX", ""))


@functools.lru_cache(maxsize=8)
def _tessdata(language: str, prefix: str) -> str | None:
    from citeproof.pdf_layout import load_pymupdf

    pymupdf = load_pymupdf()

    try:
        folder = pymupdf.get_tessdata(prefix or None)
    except Exception:  # RuntimeError: no Tesseract; OSError from the lookup
        return None
    if not folder or not os.path.isdir(folder):
        return None
    if all(os.path.isfile(os.path.join(folder, code + ".traineddata")) for code in language.split("+")):
        return folder
    return None


def _pages(numbers: list[int], one: str = "", many: str = "") -> str:
    """``page 3 <one>`` / ``pages 3, 4 <many>`` (at most 12 numbers named)."""
    listed = ", ".join(map(str, numbers[:12])) + (" ..." if len(numbers) > 12 else "")
    return (f"page {listed} {one}" if len(numbers) == 1 else f"pages {listed} {many}").strip()


def _scans(numbers: list[int]) -> str:
    return _pages(numbers, "is a scanned image", "are scanned images") + " without a text layer"


def read_pdf(data: bytes, mode: str = "auto", limits: ParseLimits | None = None) -> ParsedPDF:
    """Parse a PDF source, reading scanned pages by OCR as ``mode`` says (module docstring).

    The text layer is parsed first (in the worker); when pages need OCR and
    the engine is there, the PDF is parsed again with those pages read by
    OCR, under the time limit plus :data:`OCR_SECONDS_PER_PAGE` per page.

    Args:
        data: the PDF's bytes.
        mode: ``auto``, ``force`` or ``never``.
        limits: the worker's limits (None: :func:`~citeproof.sources.sandbox.parse_limits`).

    Returns:
        A :class:`~citeproof.sources.pdf.ParsedPDF`; ``ocr_pages`` lists the
        pages read by OCR, ``notes`` what was left undone, ``cacheable`` is
        False when installing the engine would change the result.

    Raises:
        ParseLimitError: a parse ran out of time or memory, or crashed.
        CiteproofError: ``mode`` or ``$CITEPROOF_OCR_LANG`` is invalid.
    """
    check_mode(mode)
    lim = limits or parse_limits()
    first = run_limited(parse_pdf, data, limits=lim)
    if first.pages == 0 or (first.error and not first.scanned and mode != "force"):
        return first
    garbled_note = (f"{_pages(first.garbled, 'has', 'have')} a garbled text layer (glyphs mapped to no text); "
                    "run with --ocr force to read them by OCR") if first.garbled else ""
    if mode == "never":
        if first.scanned:
            what = f"{_scans(first.scanned)}; OCR is off (--ocr never): run with --ocr auto to read them"
            if first.passages:
                first.notes.append(what)
            else:
                first.error = "the PDF has no text layer (scanned images?); OCR is off (--ocr never): run with --ocr auto to read it"
        if garbled_note:
            first.notes.append(garbled_note)
        return first
    want = list(range(1, first.pages + 1)) if mode == "force" else list(first.scanned)
    if not want:
        if garbled_note:
            first.notes.append(garbled_note)
        return first
    language = ocr_language()
    tessdata = tessdata_dir(language)
    if tessdata is None:
        first.cacheable = False
        engine = f"the OCR engine (Tesseract with language data '{language}') is not installed"
        if mode == "force" and not first.scanned:
            first.notes.append(f"--ocr force: {engine}; the text layer was read instead; {INSTALL_HINT}")
        elif first.passages:
            first.notes.append(f"{_scans(first.scanned)}, not read: {engine}; {INSTALL_HINT}")
        else:
            first.error = f"the PDF has no text layer (scanned images?) and {engine}; {INSTALL_HINT}"
        return first
    extra = OCR_SECONDS_PER_PAGE * len(want) if lim.seconds > 0 else 0.0
    second = run_limited(parse_pdf, data, tuple(want), language, tessdata, limits=ParseLimits(lim.seconds + extra, lim.memory_mb))
    if mode == "auto" and garbled_note:
        second.notes.append(garbled_note)
    return second
