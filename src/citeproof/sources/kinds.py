"""The source kinds added by issue 26 (JATS XML, DjVu, subtitles and transcripts), each a parse function.

:func:`citeproof.sources.load_source` asks this module once per file: the
media type (:data:`KIND_SUFFIXES`, refined by :func:`refine_media_type` for a
timed ``.txt``), the cache key (:func:`parser_key`) and the parse
(:func:`parse_kind`, in the parse worker where the kind says so). A file
that is a recording gets :func:`~citeproof.sources.recordings.recording_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from citeproof.sources.djvu import DJVU_PARSER_VERSION, DJVU_TYPES, djvu_text_layer, parse_djvu
from citeproof.sources.jats import JATS_PARSER_VERSION, JATS_TYPES, parse_jats_source
from citeproof.sources.parsed import ParsedSource
from citeproof.sources.recordings import RECORDING_TYPES, recording_error
from citeproof.sources.transcript import TRANSCRIPT_PARSER_VERSION, TRANSCRIPT_TYPES, looks_like_transcript, parse_transcript

__all__ = ["SourceKind", "KINDS", "KIND_SUFFIXES", "TRANSCRIPT_TEXT", "RECORDING_TYPES", "refine_media_type", "parser_key",
           "parse_kind", "fill_source", "kind_identity", "recording_error", "READ_NAMES"]

TRANSCRIPT_TEXT = "text/x-transcript"
"""Media type of a ``.txt`` that :func:`~citeproof.sources.transcript.looks_like_transcript`."""


@dataclass(frozen=True)
class SourceKind:
    """One kind of source file.

    Attributes:
        name: what the files are called, in messages and the docs ("JATS XML").
        suffixes: file-name endings (lower case, with the dot); none for a kind found by content.
        version: parser version (part of the cache key).
        parse: ``(bytes, suffix, ocr mode) -> ParsedSource``; a module-level function (the worker pickles it).
        sandboxed: parse in the worker process (:func:`~citeproof.sources.sandbox.run_limited`).
        uses_ocr: the ``--ocr`` mode and OCR language change the result (part of the cache key).
    """

    name: str
    suffixes: tuple[str, ...]
    version: str
    parse: Callable[[bytes, str, str], ParsedSource]
    sandboxed: bool = False
    uses_ocr: bool = False


def _jats(data: bytes, suffix: str, ocr: str) -> ParsedSource:
    return parse_jats_source(data)


def _djvu(data: bytes, suffix: str, ocr: str) -> ParsedSource:
    return parse_djvu(data, ocr)  # its tools run as child processes under the parse limits


def _transcript(data: bytes, suffix: str, ocr: str) -> ParsedSource:
    return parse_transcript(data, suffix)


KINDS: dict[str, SourceKind] = {
    "application/jats+xml": SourceKind("JATS XML", tuple(JATS_TYPES), JATS_PARSER_VERSION, _jats, sandboxed=True),
    "image/vnd.djvu": SourceKind("DjVu", tuple(DJVU_TYPES), DJVU_PARSER_VERSION, _djvu, uses_ocr=True),
    "application/x-subrip": SourceKind("SubRip subtitles", (".srt",), TRANSCRIPT_PARSER_VERSION, _transcript),
    "text/vtt": SourceKind("WebVTT subtitles", (".vtt",), TRANSCRIPT_PARSER_VERSION, _transcript),
    TRANSCRIPT_TEXT: SourceKind("timed transcript", (), TRANSCRIPT_PARSER_VERSION, _transcript),
}
"""Media type -> kind."""

KIND_SUFFIXES: dict[str, str] = {**JATS_TYPES, **DJVU_TYPES, **TRANSCRIPT_TYPES}
"""Suffix -> media type of the kinds here."""

READ_NAMES = "JATS XML (.xml, .nxml), DjVu (.djvu), subtitles (.srt, .vtt) and timed transcripts (.txt)"
"""The kinds here, in words, for the error that lists what citeproof reads."""


def refine_media_type(media_type: str, data: bytes) -> str:
    """:data:`TRANSCRIPT_TEXT` for a ``text/plain`` file whose lines carry times, else ``media_type`` unchanged."""
    if media_type == "text/plain" and looks_like_transcript(data[:200_000].decode("utf-8-sig", errors="replace")):
        return TRANSCRIPT_TEXT
    return media_type


def parser_key(media_type: str, ocr: str, ocr_language: str) -> str:
    """The cache's parser key for a file of a kind here (version, media type; OCR mode and language where they matter)."""
    kind = KINDS[media_type]
    return f"{kind.version}:{media_type}" + (f":ocr-{ocr}-{ocr_language}" if kind.uses_ocr else "")


def parse_kind(media_type: str, data: bytes, suffix: str, ocr: str) -> ParsedSource:
    """Parse ``data`` as the kind of ``media_type`` (in the worker where the kind says so).

    Raises:
        ParseLimitError: the worker ran out of time or memory, or crashed.
    """
    kind = KINDS[media_type]
    if kind.sandboxed:
        from citeproof.sources.sandbox import run_limited

        return run_limited(kind.parse, data, suffix, ocr)
    return kind.parse(data, suffix, ocr)


def fill_source(src, data: bytes, path: Path, ocr: str) -> bool:
    """Parse ``data`` into ``src`` (a :class:`~citeproof.model.Source` whose ``media_type`` is a kind here).

    Sets passages, text, pages, title, notes, metadata, ``ocr`` and ``error``
    (prefixed with the path). Returns False when the result must not be
    cached (a parse limit was hit; a missing tool would read it).
    """
    from citeproof.sources.sandbox import ParseLimitError

    try:
        doc = parse_kind(src.media_type, data, path.suffix.lower(), ocr)
    except ParseLimitError as exc:
        src.error = f"{path}: {exc}"
        return False
    src.passages, src.text, src.pages, src.title, src.notes, src.metadata = doc.passages, doc.text, doc.pages, doc.title, doc.notes, doc.metadata
    src.ocr = ocr if doc.ocr else ""
    src.error = f"{path}: {doc.error}" if doc.error else None
    return doc.cacheable


def kind_identity(path: Path, data: bytes) -> dict | None:
    """``{"title", "doi", "arxiv", "head"}`` of a file of a kind here (:func:`~citeproof.sources.source_identity`), None for other files."""
    suffix = path.suffix.lower()
    if suffix not in KIND_SUFFIXES:
        return None
    out = {"title": "", "doi": "", "arxiv": "", "head": ""}
    if suffix in JATS_TYPES:
        doc = parse_jats_source(data)
        out["title"], out["head"] = doc.title[:300], doc.text[:3000]
        out["doi"] = doc.metadata.get("DOI", {}).get("value", "")
    elif suffix in DJVU_TYPES:
        import shutil
        import subprocess
        import tempfile

        if shutil.which("djvutxt") is None or shutil.which("djvused") is None:
            return out
        with tempfile.TemporaryDirectory(prefix="citeproof-djvu-") as d:
            f = Path(d) / "source.djvu"
            f.write_bytes(data)
            try:
                _, layer = djvu_text_layer(f, 60.0, 2048)
            except (ValueError, subprocess.TimeoutExpired):
                return out
        first = next((p for p in layer if p), [])
        out["title"], out["head"] = (first[0][:300] if first else ""), " ".join(first)[:3000]
    else:
        doc = parse_transcript(data, suffix)
        out["head"] = doc.text[:3000]
    return out
