"""The one source registry (issue 29): every kind of source file, by media type, and the parser that reads it.

The resolver (:mod:`citeproof.sources`), the web page's upload list and form, and the docs table read
:data:`SOURCE_PARSERS`; a new source type is one entry here. Untrusted bytes are parsed in a limited worker
(:mod:`citeproof.sources.sandbox`); nothing here raises for a bad file: the error lands on the
:class:`~citeproof.model.Source`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from citeproof.model import Source
from citeproof.sources.attachments import UNREAD_TYPES
from citeproof.sources.kinds import KINDS, fill_source, parser_key
from citeproof.sources.metadata import html_metadata, pdf_metadata_fields
from citeproof.sources.ocr import ocr_language, read_pdf
from citeproof.sources.office import OFFICE_PARSER_VERSION, OFFICE_TYPES, parse_office
from citeproof.sources.pdf import PARSER_VERSION
from citeproof.sources.sandbox import ParseLimitError, run_limited
from citeproof.sources.text import TEXT_PARSER_VERSION, decode_html, parse_html, parse_markdown_source, parse_text

__all__ = ["SOURCE_PARSERS", "SUFFIXES", "UNREAD_SUFFIXES", "SourceParser", "media_type_of"]


@dataclass(frozen=True)
class SourceParser:
    """One kind of source file and the parser that reads it (the registry :data:`SOURCE_PARSERS`).

    Attributes:
        name: what the files are called, for messages, the web form and the docs table ("PDF").
        suffixes: file-name endings (lower case, with the dot).
        media_type: the media type :func:`media_type_of` gives them; the registry's key.
        version: the parser's version (part of the cache key, with the media type; a PDF's
            also carries the ``--ocr`` mode and language).
        parse: ``parse(src, data, path, ocr) -> cacheable``: fills ``src`` (passages, text,
            title, pages, error, notes, metadata) from the file's bytes; returns False when the
            result must not be cached (a limit was hit, the OCR engine is missing).
    """

    name: str
    suffixes: tuple[str, ...]
    media_type: str
    version: Callable[[str], str]
    parse: Callable[[Source, bytes, Path, str], bool]


def _parse_pdf(src: Source, data: bytes, path: Path, ocr: str) -> bool:
    """A PDF, in the parse worker (untrusted bytes: a time and memory limit), OCR as ``ocr`` says."""
    try:
        parsed = read_pdf(data, ocr)
    except ParseLimitError as exc:
        src.error = f"{path}: {exc}"
        return False  # a higher limit may read it
    src.passages, src.text, src.pages, src.title, src.error = parsed.passages, parsed.text, parsed.pages, parsed.title, parsed.error
    src.notes, src.ocr = parsed.notes, (ocr if parsed.ocr_pages else "")
    src.metadata = pdf_metadata_fields(parsed.meta, {"title": parsed.big_title}, parsed.passages)
    if src.error:
        src.error = f"{path}: {src.error}"
    return parsed.cacheable


def _parse_office(src: Source, data: bytes, path: Path, ocr: str) -> bool:
    """An Office file (a zip from elsewhere, or RTF): the same worker and limits as a PDF."""
    try:
        doc = run_limited(parse_office, data, path.suffix.lower())
    except ParseLimitError as exc:
        src.error = f"{path}: {exc}"
        return False
    src.passages, src.text, src.pages, src.title = doc.passages, doc.text, doc.pages, doc.title
    src.error = f"{path}: {doc.error}" if doc.error else None
    return True


def _parse_text(src: Source, data: bytes, path: Path, ocr: str) -> bool:
    """Markdown, plain text or HTML (main text only), decoded as UTF-8 (HTML: its declared charset)."""
    text = decode_html(data) if src.media_type == "text/html" else data.decode("utf-8", errors="replace")
    fn = {"text/markdown": parse_markdown_source, "text/html": parse_html}.get(src.media_type, parse_text)
    src.passages, src.text = fn(text)
    src.title = src.passages[0].text[:200] if src.passages else ""
    src.metadata = html_metadata(text) if src.media_type == "text/html" else {}
    if not src.passages:
        src.error = f"{path}: " + ("the page holds no main text (only navigation, menus, sidebars or scripts)" if src.media_type == "text/html" else "the file holds no text")
    return True


def _pdf_version(ocr: str) -> str:
    return f"{PARSER_VERSION}:ocr-{ocr}-{ocr_language()}"


_OFFICE_NAMES = {".docx": "Word", ".odt": "OpenDocument", ".pptx": "PowerPoint", ".rtf": "RTF"}

SOURCE_PARSERS: dict[str, SourceParser] = {p.media_type: p for p in (
    SourceParser("PDF", (".pdf",), "application/pdf", _pdf_version, _parse_pdf),
    SourceParser("Markdown", (".md", ".markdown"), "text/markdown", lambda ocr: TEXT_PARSER_VERSION + ":text/markdown", _parse_text),
    SourceParser("text", (".txt", ".text"), "text/plain", lambda ocr: TEXT_PARSER_VERSION + ":text/plain", _parse_text),
    SourceParser("HTML", (".html", ".htm", ".xhtml"), "text/html", lambda ocr: TEXT_PARSER_VERSION + ":text/html", _parse_text),
    *(SourceParser(_OFFICE_NAMES.get(suffix, suffix), (suffix,), media, lambda ocr, m=media: f"{OFFICE_PARSER_VERSION}:{m}", _parse_office)
      for suffix, media in OFFICE_TYPES.items()),
    # JATS XML, DjVu, subtitles and timed transcripts (issue 26: citeproof.sources.kinds; a timed .txt is found by content)
    *(SourceParser(k.name, k.suffixes, media, lambda ocr, m=media: parser_key(m, ocr, ocr_language()), fill_source)
      for media, k in KINDS.items()),
)}
"""Every source parser, by media type (issue 29: the one source registry). The resolver, the web page's
upload list and form, and the docs table read it; a new source type is one entry here."""

SUFFIXES = {suffix: p.media_type for p in SOURCE_PARSERS.values() for suffix in p.suffixes}
"""File suffix -> media type of the sources citeproof can read (from :data:`SOURCE_PARSERS`)."""

UNREAD_SUFFIXES = tuple(UNREAD_TYPES)
"""Suffixes of files citeproof recognises but does not read (``.docx``, ``.odt``, ``.rtf``...)."""


def media_type_of(path: Path, head: bytes = b"") -> str:
    """Media type from the file's first bytes, else its suffix; '' if unknown.

    A ``.pdf`` whose bytes do not start with ``%PDF`` is not a PDF ('').
    """
    if head.startswith(b"%PDF"):
        return "application/pdf"
    kind = SUFFIXES.get(path.suffix.lower(), "")
    return "" if kind == "application/pdf" and head else kind
