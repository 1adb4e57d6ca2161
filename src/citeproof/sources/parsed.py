"""What a source kind's parse function returns (:mod:`citeproof.sources.kinds`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from citeproof.model import Passage

__all__ = ["ParsedSource"]


@dataclass
class ParsedSource:
    """One parsed source file.

    Attributes:
        passages: in reading order; char offsets index ``text``.
        text: the full text.
        title: the file's own title, or ''.
        pages: page count of a paged source (DjVu), else 0.
        error: why the file gave no passages (None on success), a sentence
            saying what to do.
        notes: what was left undone without making the source unusable
            (:attr:`citeproof.model.Source.notes`).
        cacheable: False when the result would change once a missing tool
            is installed (the next run then reads it again).
        ocr: True when some pages were read by OCR.
        metadata: the citation metadata the file itself gives
            (:attr:`citeproof.model.Source.metadata` shape), or empty.
    """

    passages: list[Passage] = field(default_factory=list)
    text: str = ""
    title: str = ""
    pages: int = 0
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    cacheable: bool = True
    ocr: bool = False
    metadata: dict[str, dict] = field(default_factory=dict)
