"""One printed line of a citing PDF, as the citing-PDF reader passes it on.

:mod:`citeproof.readers.pdf` makes these from PyMuPDF's spans; the marker
finder (:mod:`citeproof.readers.pdf_markers`) and the claim builder
(:mod:`citeproof.readers.pdf_claims`) read them. Superscript numbers that may
be citation markers are wrapped in :data:`SUP_OPEN` ... :data:`SUP_CLOSE`
(two private-use characters no PDF text keeps: :func:`citeproof.pdf_layout.page_blocks`
drops private-use glyphs).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PdfLine", "SUP_OPEN", "SUP_CLOSE", "plain"]

SUP_OPEN, SUP_CLOSE = "\ue000", "\ue001"


@dataclass
class PdfLine:
    """One printed line of the citing PDF.

    Attributes:
        text: the text; superscript-number spans that may cite are wrapped in
            ``\\ue000...\\ue001``.
        page: page from 1.
        bbox: ``(x0, y0, x1, y1)`` in PDF points, top-left origin.
        block: a page-unique block number (lines of one block are one paragraph piece).
        size: the line's dominant font size (points).
        bold: most characters bold.
        col: 0 for the left (or only) column, 1 for the right one.
        width: the page width (points).
        upright: False for rotated text (a landscape table on a portrait page).
            A raised number starting the line (a footnote or affiliation
            label, ``¹ Department of ...``) is read as that number and a space.
        gaps: character offsets in ``text`` where a gap wider than 0.6 x the
            font size separates two spans (a table's cell boundary when the
            line lies in a table; ignored elsewhere).
    """

    text: str
    page: int
    bbox: tuple[float, float, float, float]
    block: int
    size: float
    bold: bool = False
    col: int = 0
    width: float = 612.0
    upright: bool = True
    gaps: tuple[int, ...] = ()


def plain(text: str) -> str:
    """``text`` without the superscript wrappers."""
    return text.replace(SUP_OPEN, "").replace(SUP_CLOSE, "")
