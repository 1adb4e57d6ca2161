"""Uploads of the web page: safe names and paths, size and type limits, zips and arXiv bundles.

Every path written under a job's ``input/`` goes through :func:`safe_join`,
which refuses absolute paths, ``..`` parts, drive letters and anything that
would resolve outside the folder; zip members that are links are refused too
(zip-slip). Uploads are limited in size, in count and (for zips and arXiv
``.tar.gz`` bundles) in uncompressed size, and type-checked by suffix and
content. :mod:`citeproof.web.jobs` runs the jobs these files belong to.
"""

from __future__ import annotations

import re
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from citeproof.documents import DOCUMENT_SUFFIXES, READER_LIST
from citeproof.errors import CiteproofError
from citeproof.sources import SUFFIXES as SOURCE_TYPES

__all__ = [
    "Limits",
    "UploadError",
    "safe_join",
    "safe_name",
    "extract_zip",
    "check_bundle",
    "check_content",
    "copy_limited",
    "MAX_NAME_BYTES",
    "MARKDOWN_SUFFIXES",
    "LATEX_SUFFIXES",
    "BUNDLE_SUFFIXES",
    "WORD_SUFFIXES",
    "DOC_SUFFIXES",
    "OWN_BIBLIOGRAPHY_SUFFIXES",
    "SOURCE_SUFFIXES",
    "BIB_SUFFIXES",
    "ZIP_MEMBER_SUFFIXES",
    "document_kinds",
    "source_kinds",
]

MAX_NAME_BYTES = 200
"""Longest file or folder name (UTF-8 bytes) an upload may use; file systems stop at 255."""

def _reader(name: str) -> tuple[str, ...]:
    return next(e.suffixes for e in READER_LIST if e.name == name)


MARKDOWN_SUFFIXES = tuple(s for s in _reader("Markdown") if s != ".txt")
"""Markdown citing documents a zip's document is guessed among (the reader registry's; a ``.txt`` in a zip is a
source unless 'path inside the zip' names it)."""
BUNDLE_SUFFIXES = (".tar.gz", ".tgz")
"""arXiv source bundles: a LaTeX document with its files, uploaded as is (not inside a zip)."""
LATEX_SUFFIXES = tuple(s for s in _reader("LaTeX") if s not in BUNDLE_SUFFIXES)
"""LaTeX citing documents (the reader registry's LaTeX reader)."""
WORD_SUFFIXES = _reader("Word")
"""Word and OpenDocument citing documents (the reader registry's Word reader; zip packages)."""
DOC_SUFFIXES = DOCUMENT_SUFFIXES
"""Citing documents accepted as a direct upload: every suffix of the reader registry (:data:`citeproof.documents.READERS`)."""
OWN_BIBLIOGRAPHY_SUFFIXES = tuple(s for e in READER_LIST if e.own_bibliography == "always" for s in e.suffixes)
"""Documents that bring their own bibliography (LaTeX's .bib/.bbl, a PDF's printed list, Word's citation fields or typed list,
an attributions file's sources)."""
SOURCE_SUFFIXES = tuple(SOURCE_TYPES)
"""What a source upload may be: every suffix of the source registry (:data:`citeproof.sources.SOURCE_PARSERS`)."""
BIB_SUFFIXES = (".bib", ".bibtex", ".json")
"""Bibliography files (BibTeX or CSL-JSON)."""


def document_kinds() -> str:
    """The citing documents the page accepts, in words from the reader registry ("Markdown (.md, ...), LaTeX (...), ...")."""
    return ", ".join(f"{e.name} ({', '.join(e.suffixes)})" for e in READER_LIST)


def source_kinds() -> str:
    """The source files the page accepts, in words from the source registry ("PDF (.pdf), Markdown (.md, .markdown), ...")."""
    from citeproof.sources import SOURCE_PARSERS

    return ", ".join(f"{p.name} ({', '.join(p.suffixes)})" for p in SOURCE_PARSERS.values())
ZIP_MEMBER_SUFFIXES = tuple(dict.fromkeys(tuple(s for s in DOC_SUFFIXES if s not in BUNDLE_SUFFIXES) + SOURCE_SUFFIXES + BIB_SUFFIXES + (".bbl", ".csl", ".yaml", ".yml", ".tsv", ".csv", ".png", ".jpg", ".jpeg", ".svg")))
"""Zip members that are extracted; others are skipped (and listed in the job state)."""



class UploadError(CiteproofError, ValueError):
    """An upload was refused: wrong type, too big, or a path that escapes its folder.

    ``status_code`` is the HTTP status the web page answers with.
    """

    def __init__(self, message: str, status_code: int = 400) -> None:
        super().__init__(message)
        self.status_code = status_code


@dataclass(frozen=True)
class Limits:
    """Upload limits of the web page.

    Attributes:
        max_file_bytes: largest single uploaded file.
        max_total_bytes: all uploads of one job together, zip members
            counted uncompressed.
        max_files: files in one job, zip members included.
        max_report_bytes: largest report of one format a job may write;
            past it the job fails with the reason (the disk is not filled).
    """

    max_file_bytes: int = 50 * 1024 * 1024
    max_total_bytes: int = 200 * 1024 * 1024
    max_files: int = 500
    max_report_bytes: int = 100 * 1024 * 1024


def safe_name(filename: str) -> str:
    """The last part of an uploaded file name, reduced to safe characters.

    ``../../etc/passwd`` gives ``passwd``; ``C:\\x\\a b.pdf`` gives ``a_b.pdf``.

    Raises:
        UploadError: nothing usable is left.
    """
    base = PurePosixPath((filename or "").replace("\\", "/")).name
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).lstrip(".")
    if not base or base in {".", ".."}:
        raise UploadError(f"unusable file name {filename!r}")
    return base[:200]


def safe_join(root: Path, relative: str) -> Path:
    """``root / relative``, refusing any path that would leave ``root``.

    Args:
        root: the folder everything must stay in.
        relative: a path as an upload or a zip member names it (``/`` or ``\\``
            separators).

    Returns:
        The resolved path, inside ``root``.

    Raises:
        UploadError: the path is absolute, has a drive, a ``..`` part, or
            resolves outside ``root`` (through a link, say).
    """
    name = relative.replace("\\", "/")
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or re.match(r"^[A-Za-z]:", name) or any(p == ".." for p in parts):
        raise UploadError(f"path {relative!r} would leave the job folder")
    if "\0" in name or any(ord(ch) < 32 for ch in name):
        raise UploadError(f"path {relative!r} holds a control character (a NUL byte?); rename the file")
    if any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts):
        raise UploadError(f"path {relative[:60]!r}... has a name longer than {MAX_NAME_BYTES} bytes; shorten it")
    base = root.resolve()
    target = (base / PurePosixPath(*[p for p in parts if p not in (".", "")])).resolve()
    if target != base and not target.is_relative_to(base):
        raise UploadError(f"path {relative!r} would leave the job folder")
    return target


def copy_limited(src: BinaryIO, dest: Path, limit: int, what: str) -> int:
    """Copy a stream to ``dest`` in 1 MiB chunks; returns the bytes written.

    Raises:
        UploadError: (413) more than ``limit`` bytes; ``dest`` is removed first. ``what`` names the upload.
    """
    size = 0
    with dest.open("wb") as fh:
        while True:
            chunk = src.read(1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                fh.close()
                dest.unlink(missing_ok=True)
                raise UploadError(f"{what} is larger than the limit of {limit // (1024 * 1024)} MiB", 413)
            fh.write(chunk)
    return size


def check_content(path: Path, label: str) -> None:
    """Type check by content: PDFs hold ``%PDF-``, bundles are gzip, Word/OpenDocument files are zip packages, text must be UTF-8."""
    suffix = path.suffix.lower()
    with path.open("rb") as fh:
        head = fh.read(1024)
    if suffix == ".pdf":
        if b"%PDF-" not in head:
            raise UploadError(f"{label} is named .pdf but is not a PDF file", 415)
        return
    if path.name.lower().endswith(BUNDLE_SUFFIXES):
        if not head.startswith(b"\x1f\x8b"):
            raise UploadError(f"{label} is named {'.tgz' if suffix == '.tgz' else '.tar.gz'} but is not a gzip file", 415)
        return
    if suffix in WORD_SUFFIXES + (".pptx",):  # the readers bound what they inflate (citeproof.office_xml)
        if not head.startswith(b"PK\x03\x04"):
            kind = {".docx": "Word", ".pptx": "PowerPoint"}.get(suffix, "OpenDocument")
            raise UploadError(f"{label} is named {suffix} but is not a {kind} file; save it again as {suffix}", 415)
        return
    if suffix in (".png", ".jpg", ".jpeg"):
        return
    if b"\x00" in head:
        raise UploadError(f"{label} is not a text file", 415)
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadError(f"{label} is not UTF-8 text", 415) from exc


def extract_zip(zip_path: Path, dest: Path, limits: Limits, budget: int) -> tuple[list[Path], list[str]]:
    """Extract a zip's allowed members under ``dest`` without letting any escape.

    Args:
        zip_path: the uploaded zip.
        dest: the job's input folder.
        limits: the upload limits.
        budget: bytes still allowed for this job.

    Returns:
        (files extracted, names skipped because of their type).

    Raises:
        UploadError: not a zip; a member is a link, has an absolute or ``..``
            path; too many members; too large once uncompressed.
    """
    try:
        zf = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as exc:
        raise UploadError("the uploaded .zip is not a zip file", 415) from exc
    except (OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise UploadError(f"the uploaded .zip cannot be read ({exc}); zip the files again") from exc
    written: list[Path] = []
    skipped: list[str] = []
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_files:
            raise UploadError(f"the zip holds {len(infos)} entries; the limit is {limits.max_files}", 413)
        # refuse the whole zip before writing anything if one path is bad
        plan: list[tuple[zipfile.ZipInfo, Path]] = []
        for info in infos:
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UploadError(f"zip member {info.filename!r} is a symbolic link; links are refused")
            target = safe_join(dest, info.filename)
            if info.is_dir():
                continue
            if target.suffix.lower() not in ZIP_MEMBER_SUFFIXES or any(p.startswith(".") for p in PurePosixPath(info.filename).parts) or "__MACOSX" in info.filename:
                skipped.append(info.filename)
                continue
            plan.append((info, target))
        if sum(i.file_size for i, _ in plan) > budget:
            raise UploadError(f"the zip is larger than the limit of {limits.max_total_bytes // (1024 * 1024)} MiB once uncompressed", 413)
        for info, target in plan:
            if info.flag_bits & 0x1:
                raise UploadError(f"zip member {info.filename!r} is encrypted; upload a zip without a password")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src:
                    # the header's size can lie: count what is really written
                    n = copy_limited(src, target, min(limits.max_file_bytes, budget), f"zip member {info.filename!r}")
            except NotImplementedError as exc:  # Deflate64, LZMA variants zipfile cannot read
                raise UploadError(f"zip member {info.filename!r} uses a compression this server cannot read ({exc}); zip it again with plain Deflate") from None
            except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError) as exc:
                raise UploadError(f"zip member {info.filename!r} is damaged ({exc}); zip the files again") from None
            except (FileExistsError, NotADirectoryError, IsADirectoryError) as exc:
                raise UploadError(f"zip member {info.filename!r} clashes with another member of the same name used as a file and as a folder ({exc.strerror})") from None
            except OSError as exc:
                raise UploadError(f"zip member {info.filename!r} cannot be written ({exc.strerror}); rename it") from None
            budget -= n
            check_content(target, f"zip member {info.filename!r}")
            written.append(target)
    return written, skipped


def check_bundle(path: Path, limits: Limits, budget: int) -> int:
    """Size-check an arXiv ``.tar.gz`` bundle without unpacking it.

    The LaTeX reader unpacks the bundle when the job runs (regular files and
    folders only, no absolute or ``..`` paths); this refuses, at upload, a
    bundle that is not a tar, holds more members than the job allows, or
    unpacks to more than ``budget`` bytes or a member over the file limit.
    Members' sizes are read from their headers, so a bomb is refused at its
    first oversized header, before its data is inflated.

    Args:
        path: the uploaded bundle.
        limits: the upload limits.
        budget: bytes still allowed for this job.

    Returns:
        The bytes the bundle's regular files unpack to.

    Raises:
        UploadError: not a gzip'd tar, too many members, too large unpacked.
    """
    total = count = 0
    try:
        with tarfile.open(path, "r:gz") as tar:
            for m in tar:
                count += 1
                if count > limits.max_files:
                    raise UploadError(f"the bundle holds more than {limits.max_files} entries; the limit is {limits.max_files}", 413)
                if not m.isfile():
                    continue
                total += m.size
                if m.size > limits.max_file_bytes or total > budget:
                    raise UploadError(f"the bundle is larger than the limit of {limits.max_total_bytes // (1024 * 1024)} MiB once unpacked", 413)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise UploadError(f"the uploaded bundle is not a .tar.gz source bundle ({exc})", 415) from None
    return total
