"""Report writers, by format name (pandoc's writer registry, ``STYLE.md``).

Each writer has ``name``, ``suffix`` and ``write(report, stream)``. Writers
that make links or paths relative have ``out_dir`` (the folder the report is
written to) and ``root`` attributes the caller may set; a writer with
``binary = True`` (PDF) is given a binary stream.
"""

from __future__ import annotations

from pathlib import Path, PurePath, PurePosixPath

from citeproof.errors import MissingToolError, UnknownFormatError
from citeproof.reports.html import HtmlWriter
from citeproof.reports.json import JsonWriter
from citeproof.reports.markdown import MarkdownWriter
from citeproof.reports.pandoc import PdfWriter, TexWriter
from citeproof.reports.sarif import SarifWriter

__all__ = ["WRITERS", "get_writer", "report_stem", "write_reports"]

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


def report_stem(document: str | PurePath) -> str:
    """The report's base name: the file name without its suffix (``.tar.gz`` counts as one).

    Used for every report of every entry point (CLI, web page, batch), so
    ``draft.tar.gz`` gives ``draft.citeproof.html`` wherever it was checked.
    """
    name = PurePosixPath(document).name
    for suf in (".tar.gz", ".tgz"):
        if name.lower().endswith(suf):
            return name[: -len(suf)]
    return PurePosixPath(name).stem


def write_reports(report, writers: list, target: Path, stem: str) -> tuple[list[Path], list[tuple[str, str]]]:
    """Write each report format into ``target`` as ``<stem>.citeproof<suffix>``.

    A missing optional tool (pandoc, LuaLaTeX) or a renderer failure skips that format only.

    Returns:
        (paths written, [(format, why not written)]).
    """
    written: list[Path] = []
    skipped: list[tuple[str, str]] = []
    for w in writers:
        if hasattr(w, "out_dir"):
            w.out_dir = target
        path = target / f"{stem}.citeproof{w.suffix}"
        binary = getattr(w, "binary", False)
        try:
            with (path.open("wb") if binary else path.open("w", encoding="utf-8")) as fh:
                w.write(report, fh)
        except MissingToolError as exc:
            path.unlink(missing_ok=True)
            skipped.append((w.name, str(exc)))
            continue
        except (OSError, RuntimeError) as exc:
            # a renderer failed (pandoc or LaTeX error): the other reports still count
            path.unlink(missing_ok=True)
            skipped.append((w.name, f"{type(exc).__name__}: {str(exc).strip()[-800:]}"))
            continue
        written.append(path)
    return written, skipped
