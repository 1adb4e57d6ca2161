"""A pinpoint inside a cited work (``p. 33``, ``ch. 1``, ``12:34``) and the clock times a ``timestamp`` locator names.

Units: pages from 1 as the PDF orders them; times in seconds from the recording's start. Nothing here does I/O
or imports another citeproof module; :mod:`citeproof.model` re-exports :class:`Locator`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Locator", "clock", "parse_clock"]


def clock(seconds: float) -> str:
    """``754.2`` -> ``12:34``; an hour or more -> ``1:02:03`` (seconds rounded down)."""
    t = max(0, int(seconds))
    h, m, sec = t // 3600, t % 3600 // 60, t % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


_CLOCK = re.compile(r"(?:(\d{1,2}):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?")


def parse_clock(text: str) -> float | None:
    """Seconds named by a time as written: ``12:34`` (minutes, seconds), ``1:02:03``, ``00:01:02,500``; None otherwise."""
    m = _CLOCK.fullmatch(text.strip())
    if not m or int(m.group(3)) >= 60:
        return None
    h, mi, sec = int(m.group(1) or 0), int(m.group(2)), int(m.group(3))
    if m.group(1) and mi >= 60:
        return None
    frac = float("0." + m.group(4)) if m.group(4) else 0.0
    return h * 3600 + mi * 60 + sec + frac


@dataclass(frozen=True)
class Locator:
    """A pinpoint inside a cited work, e.g. ``p. 33`` or ``ch. 1``.

    Attributes:
        label: normalised CSL locator label: ``page``, ``chapter``,
            ``section``, ``figure``, ``table``, ``line``, ``paragraph``,
            ``timestamp`` (a time in a recording, ``12:34``; CSL 1.0.2)...
        value: the locator value as written (``33``, ``33-35``, ``1``).
        raw: the text exactly as it stood in the citation (``p. 33``).
    """

    label: str
    value: str
    raw: str

    def pages(self) -> list[int]:
        """Pages (from 1) named by a ``page`` locator; ``[]`` for other labels.

        ``33-35`` and ``33–35`` give ``[33, 34, 35]``; ``33, 40`` gives
        ``[33, 40]``. Values that are not numbers give ``[]``.
        """
        if self.label != "page":
            return []
        out: list[int] = []
        for part in re.split(r"\s*[,;&]\s*|\s+and\s+", self.value):
            m = re.fullmatch(r"(\d+)\s*(?:[-–—]+\s*(\d+))?", part.strip())
            if not m:
                continue
            a = int(m.group(1))
            b = int(m.group(2)) if m.group(2) else a
            if b < a and len(m.group(2) or "") < len(m.group(1)):
                # 123-5 means 123-125
                b = int(m.group(1)[: len(m.group(1)) - len(m.group(2))] + m.group(2))
            if 0 < a <= b and b - a < 200:
                out.extend(range(a, b + 1))
        return out

    def times(self) -> list[tuple[float, float]]:
        """Spans (seconds from the recording's start) named by a ``timestamp`` locator; ``[]`` for other labels.

        ``12:34`` gives ``[(754.0, 754.0)]``; ``12:34-12:51`` gives
        ``[(754.0, 771.0)]``; ``1:02:03`` is hours, minutes, seconds.
        """
        if self.label != "timestamp":
            return []
        out: list[tuple[float, float]] = []
        for part in re.split(r"\s*[,;&]\s*|\s+and\s+", self.value):
            ends = [parse_clock(x) for x in re.split(r"\s*[-–—]+\s*", part.strip(), maxsplit=1)]
            if not ends or any(e is None for e in ends):
                continue
            a, b = ends[0], ends[-1]
            if a is not None and b is not None and b >= a:
                out.append((a, b))
        return out
