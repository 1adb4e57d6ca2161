"""TeX and PDF renders of the Markdown report, through pandoc.

``tex`` converts :func:`citeproof.reports.markdown.render_markdown` to a
standalone LaTeX document with pandoc (the one PyPI ``pypandoc-binary``
ships, or any pandoc on ``PATH`` that ``pypandoc`` finds); ``pdf`` also runs
LuaLaTeX (``apt-get install texlive-luatex texlive-latex-recommended``), the
engine that copes with the Unicode of extracted PDF text.

When a tool is missing the writer raises
:class:`citeproof.errors.MissingToolError` naming what to install; the CLI
prints it and carries on with the other formats.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO, TextIO

from citeproof.errors import MissingToolError
from citeproof.model import Report
from citeproof.reports.markdown import render_markdown
from citeproof.text.normalise import utf8_safe

__all__ = ["TexWriter", "PdfWriter", "find_pandoc", "find_lualatex"]

_FROM = "markdown+lists_without_preceding_blankline-raw_tex-raw_attribute-raw_html"
"""The report's Markdown starts lists right under "Why:" and "Tags:" lines.

Raw TeX, raw attributes (`` `x`{=latex} ``) and raw HTML are off: the report
quotes claims and source passages, which are untrusted text, and a
``\\directlua{...}`` passage must be typeset as text, never run by LuaLaTeX."""

_PANDOC_HINT = "pandoc is not installed: pip install pypandoc-binary (it ships pandoc), or install pandoc and pypandoc"
_LUALATEX_HINT = "LuaLaTeX is not installed: apt-get install texlive-luatex texlive-latex-recommended (or install TeX Live)"


def find_pandoc() -> str:
    """The pandoc executable pypandoc will run.

    Raises:
        MissingToolError: pypandoc is not importable or finds no pandoc.
    """
    try:
        import pypandoc
    except ImportError as exc:
        raise MissingToolError(_PANDOC_HINT) from exc
    try:
        return pypandoc.get_pandoc_path()
    except OSError as exc:
        raise MissingToolError(_PANDOC_HINT) from exc


def find_lualatex() -> str:
    """Path of ``lualatex`` on ``PATH``.

    Raises:
        MissingToolError: it is not there.
    """
    path = shutil.which("lualatex")
    if not path:
        raise MissingToolError(_LUALATEX_HINT)
    return path


def _tex_safe(markdown: str) -> str:
    """Markdown LuaLaTeX can typeset: U+FFFD (LuaTeX takes it for invalid UTF-8
    and stops) becomes ``?``; private-use glyphs (PDF icon fonts) are dropped."""
    import unicodedata

    markdown = markdown.replace("\ufffd", "?")
    return "".join(ch for ch in markdown if unicodedata.category(ch) != "Co")


def _title_args(report: Report) -> list[str]:
    # the Markdown report opens with its own heading; pagetitle only fills PDF metadata
    return ["--standalone", "--metadata", f"pagetitle=citeproof report: {report.document}", "--variable", "geometry:margin=2cm"]


class TexWriter:
    """Writes the report as a standalone LaTeX document (pandoc)."""

    name = "tex"
    suffix = ".tex"

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream`` as LaTeX.

        Raises:
            MissingToolError: pandoc is not installed.
        """
        find_pandoc()
        import pypandoc

        tex = pypandoc.convert_text(_tex_safe(utf8_safe(render_markdown(report))), "latex", format=_FROM, extra_args=_title_args(report))
        stream.write(tex)


class PdfWriter:
    """Writes the report as PDF (pandoc + LuaLaTeX). Writes bytes."""

    name = "pdf"
    suffix = ".pdf"
    binary = True

    def write(self, report: Report, stream: BinaryIO) -> None:
        """Write ``report`` to the binary ``stream`` as PDF.

        Raises:
            MissingToolError: pandoc or LuaLaTeX is not installed.
            RuntimeError: pandoc or LuaLaTeX failed (the message holds their output).
        """
        find_pandoc()
        engine = find_lualatex()
        import pypandoc

        with tempfile.TemporaryDirectory(prefix="citeproof-pdf-") as tmp:
            target = Path(tmp) / "report.pdf"
            pypandoc.convert_text(
                _tex_safe(utf8_safe(render_markdown(report))),
                "pdf",
                format=_FROM,
                outputfile=str(target),
                extra_args=_title_args(report) + [f"--pdf-engine={engine}"],
            )
            stream.write(target.read_bytes())
