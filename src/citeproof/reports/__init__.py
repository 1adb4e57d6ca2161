"""Report writers, by format name (pandoc's writer registry, ``STYLE.md``).

Each writer has ``name``, ``suffix`` and ``write(report, stream)``. Writers
that make links or paths relative have ``out_dir`` (the folder the report is
written to) and ``root`` attributes the caller may set; a writer with
``binary = True`` (PDF) is given a binary stream.
"""

from __future__ import annotations

from citeproof.errors import UnknownFormatError
from citeproof.reports.html import HtmlWriter
from citeproof.reports.json import JsonWriter
from citeproof.reports.markdown import MarkdownWriter
from citeproof.reports.pandoc import PdfWriter, TexWriter
from citeproof.reports.sarif import SarifWriter

__all__ = ["WRITERS", "get_writer"]

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
