"""Report writers, by format name (pandoc's writer registry, ``STYLE.md``).

Each writer has ``name``, ``suffix`` and ``write(report, stream)``.
"""

from __future__ import annotations

from citeproof.errors import UnknownFormatError
from citeproof.reports.json import JsonWriter
from citeproof.reports.markdown import MarkdownWriter

__all__ = ["WRITERS", "get_writer"]

WRITERS: dict[str, type] = {"md": MarkdownWriter, "markdown": MarkdownWriter, "json": JsonWriter}
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
