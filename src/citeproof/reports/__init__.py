"""Report writers, by format name (pandoc's writer registry, ``STYLE.md``).

Each writer has ``name``, ``suffix`` and ``write(report, stream)``. Writers
that make links or paths relative have ``out_dir`` (the folder the report is
written to) and ``root`` attributes the caller may set; a writer with
``binary = True`` (PDF) is given a binary stream.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import os
import tempfile
from pathlib import Path, PurePath

from citeproof.errors import CiteproofError, MissingToolError, UnknownFormatError
from citeproof.reports.html import HtmlWriter
from citeproof.reports.json import JsonWriter
from citeproof.reports.markdown import MarkdownWriter
from citeproof.reports.naming import report_stem  # noqa: F401 - re-exported: every entry point names its reports here
from citeproof.reports.pandoc import PdfWriter, TexWriter
from citeproof.reports.sarif import SarifWriter
from citeproof.text.normalise import utf8_safe

__all__ = ["WRITERS", "get_writer", "report_stem", "write_file", "write_reports", "utf8_safe", "make_utf8_safe"]

WRITERS: dict[str, type] = {
    "md": MarkdownWriter,
    "markdown": MarkdownWriter,
    "json": JsonWriter,
    "html": HtmlWriter,
    "sarif": SarifWriter,
    "tex": TexWriter,
    "pdf": PdfWriter,
}
"""Format name -> writer class."""


def get_writer(name: str):
    """A writer instance for ``name``.

    Raises:
        UnknownFormatError: no writer has that name; the message lists them.
    """
    cls = WRITERS.get(name.strip().lower())
    if cls is None:
        raise UnknownFormatError(f"unknown report format '{name}'; choose from {', '.join(sorted(WRITERS))}")
    return cls()


def _safe_str(s: str) -> str:
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return utf8_safe(s)


def _scrub(obj: object, seen: set[int]) -> object:
    """``obj`` with lone surrogates escaped in every string it holds: dataclasses, lists and dicts in place,
    strings, paths and tuples as new values (the caller stores them)."""
    t = type(obj)
    if t is str:
        return _safe_str(obj)  # type: ignore[arg-type]
    if isinstance(obj, (int, float, bool, enum.Enum)) or obj is None:
        return obj
    if isinstance(obj, PurePath):
        s = str(obj)
        safe = _safe_str(s)
        return obj if safe is s else type(obj)(safe)
    if isinstance(obj, tuple):
        items = tuple(_scrub(v, seen) for v in obj)
        return obj if all(a is b for a, b in zip(items, obj)) else (t(*items) if hasattr(obj, "_fields") else t(items))
    if id(obj) in seen:
        return obj
    seen.add(id(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        text = getattr(obj, "text", None)
        # a source's passages are cut from its text: when the text is clean, so are they (20,000 passages: 2.5 s saved)
        skip = "passages" if type(text) is str and _safe_str(text) is text else ""
        for f in dataclasses.fields(obj):
            if f.name == skip:
                continue
            v = getattr(obj, f.name)
            nv = _scrub(v, seen)
            if nv is not v:
                object.__setattr__(obj, f.name, nv)  # frozen dataclasses too: a display copy of a name
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            nv = _scrub(v, seen)
            if nv is not v:
                obj[i] = nv
    elif isinstance(obj, dict):
        for k in list(obj):
            v = obj[k]
            nk, nv = _scrub(k, seen), _scrub(v, seen)
            if nk is not k:
                del obj[k]
                obj[nk] = nv
            elif nv is not v:
                obj[k] = nv
    return obj


def make_utf8_safe(report) -> None:
    """Escape, in place, every lone surrogate in the report's strings (:func:`utf8_safe`), so every writer,
    the console and the run history can encode it. A no-op on a report that is valid UTF-8 throughout.

    Such strings come from file names that are not UTF-8 (a document, a source, a bibliography).
    """
    _scrub(report, set())


def _umask() -> int:
    """The process's umask, read without changing it (``/proc/self/status`` on Linux; elsewhere set and restored)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, replaced into place: never a partial report.

    Raises:
        OSError: the folder or disk refused (full, read-only, not a folder, no permission); the temporary file is removed.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file 0600; a report is as readable as any file the user writes (0666 less the umask)
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_reports(report, writers: list, target: Path, stem: str) -> tuple[list[Path], list[tuple[str, str]]]:
    """Write each report format into ``target`` as ``<stem>.citeproof<suffix>``.

    Each report is rendered in memory, then written whole (:func:`write_file`); text is encoded as UTF-8
    with lone surrogates escaped (:func:`utf8_safe`). A missing optional tool (pandoc, LuaLaTeX) or a
    renderer failure skips that format only.

    Returns:
        (paths written, [(format, why not written)]).

    Raises:
        CiteproofError: a report could not be written to its file (a full disk, a read-only folder, a
            folder in the way); the message names each such file. The others were still written.
    """
    make_utf8_safe(report)
    written: list[Path] = []
    skipped: list[tuple[str, str]] = []
    failed: list[str] = []
    for w in writers:
        if hasattr(w, "out_dir"):
            w.out_dir = target
        path = target / f"{stem}.citeproof{w.suffix}"
        binary = getattr(w, "binary", False)
        buf: io.BytesIO | io.StringIO = io.BytesIO() if binary else io.StringIO()
        try:
            w.write(report, buf)
        except MissingToolError as exc:
            skipped.append((w.name, str(exc)))
            continue
        except (OSError, RuntimeError) as exc:
            # a renderer failed (pandoc or LaTeX error): the other reports still count
            skipped.append((w.name, f"{type(exc).__name__}: {str(exc).strip()[-800:]}"))
            continue
        data = buf.getvalue() if binary else buf.getvalue().encode("utf-8", "backslashreplace")  # type: ignore[union-attr]
        try:
            write_file(path, data)  # type: ignore[arg-type]
        except OSError as exc:
            failed.append(f"{utf8_safe(str(path))} ({exc.strerror or type(exc).__name__})")
            continue
        written.append(path)
    if failed:
        raise CiteproofError(f"could not write the report {'file' if len(failed) == 1 else 'files'} {'; '.join(failed)}: "
                             "free some space or choose another --out folder")
    return written, skipped
