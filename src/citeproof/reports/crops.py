"""Cropped images of the evidence's region of a PDF page, for the HTML report (issue 15, part 6).

A reviewer sees the passage as the page prints it (a table, a formula, a figure's caption, which extraction may
have mangled) next to the extracted text. PyMuPDF renders the passage's box (``Passage.bbox``, PDF points, top-left
origin), widened by a margin, at :data:`CROP_DPI`, as PNG. The source PDF is untrusted, so rendering runs in the
limited worker of :mod:`citeproof.sources.sandbox`, like parsing; a file that fails there gets no image, never an
error in the report.
"""

from __future__ import annotations

import base64
from pathlib import Path

__all__ = ["CROP_DPI", "MAX_CROPS", "render_regions", "crop_data_uris"]

CROP_DPI = 96
"""Resolution of the crops (dots per inch): a column's width of text stays legible at about 500 pixels."""
MAX_CROPS = 60
"""At most this many crops in one report (each a few tens of kB, embedded in the page)."""
_MARGIN = 6.0
"""Points added around the box, so the first and last line are not cut."""
_MAX_HEIGHT = 320.0
"""Tallest crop in points (a box spanning a column is cut to its top this high)."""


def render_regions(data: bytes, regions: list[tuple[int, tuple[float, float, float, float]]]) -> list[bytes | None]:
    """PNG images of regions of a PDF (run it in a worker: :func:`citeproof.sources.sandbox.run_limited`).

    Args:
        data: the PDF's bytes.
        regions: ``(page from 1, (x0, y0, x1, y1) in PDF points, top-left origin)`` each.

    Returns:
        One PNG (bytes) per region, None where the page does not exist or the box is empty.
    """
    import pymupdf

    out: list[bytes | None] = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page_no, box in regions:
            if not 1 <= page_no <= doc.page_count:
                out.append(None)
                continue
            page = doc[page_no - 1]
            x0, y0, x1, y1 = box
            rect = pymupdf.Rect(x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, min(y1, y0 + _MAX_HEIGHT) + _MARGIN) & page.rect
            if rect.is_empty:
                out.append(None)
                continue
            out.append(page.get_pixmap(clip=rect, dpi=CROP_DPI).tobytes("png"))
    return out


def crop_data_uris(wanted: list[tuple[str, int, tuple[float, float, float, float]]], limit: int = MAX_CROPS) -> dict[tuple, str]:
    """``data:image/png;base64,...`` URIs for evidence regions, rendered per file in the limited worker.

    Args:
        wanted: ``(PDF path, page from 1, bbox)`` each, in the order the report shows them; repeats are rendered once.
        limit: at most this many distinct regions are rendered (the first ones).

    Returns:
        ``{(path, page, bbox): uri}`` for the regions that rendered; a file that cannot be read or rendered is left out.
    """
    from citeproof.sources.sandbox import ParseLimitError, run_limited

    by_file: dict[str, list[tuple[int, tuple]]] = {}
    seen: set[tuple] = set()
    for path, page, box in wanted:
        key = (path, page, tuple(box))
        if key in seen or len(seen) >= limit:
            continue
        seen.add(key)
        by_file.setdefault(path, []).append((page, tuple(box)))
    out: dict[tuple, str] = {}
    for path, regions in by_file.items():
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if not data.startswith(b"%PDF"):
            continue
        try:
            pngs = run_limited(render_regions, data, regions)
        except ParseLimitError:
            continue
        except Exception:  # in-process (CITEPROOF_PARSE_TIMEOUT=0): MuPDF's own errors; a crop is never worth a failed report
            continue
        for (page, box), png in zip(regions, pngs):
            if png:
                out[(path, page, box)] = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return out
