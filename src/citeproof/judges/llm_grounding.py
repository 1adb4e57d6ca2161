"""Quote alignment: find where a quote an LLM returned sits in the source text, by code.

An LLM's quote is never trusted as given: it is aligned to the source text and
kept only when enough of it is really there (``DESIGN.md``: no quote without
grounding). The gates follow the systems citeproof grows from: of the quote's
tokens, at least :data:`COVERAGE_MIN` must be found in the matched span of
the source (*coverage*), and at least :data:`DENSITY_MIN` of that span's
tokens must be quote tokens (*density*, which stops a short quote from being
"found" scattered over a whole page). Under a *see* / *cf.* signal the gates
relax to :data:`RELAXED_COVERAGE_MIN` / :data:`RELAXED_DENSITY_MIN`.

Method: lower-cased word tokens (``\\w+``) with their character offsets; the
best window is located with rapidfuzz's ``partial_ratio_alignment`` (an
optimal local alignment of the quote against the source, Levenshtein
based), widened to whole tokens; coverage and density are then counted on
tokens (a multiset intersection), so a quote with its words reordered or
one word changed still aligns, and one made up does not.

Same signature and meaning as ``citeproof.judges.grounding.align`` (the
lead merges the two modules).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

__all__ = ["Alignment", "align", "grounded", "gates_for", "COVERAGE_MIN", "DENSITY_MIN", "RELAXED_COVERAGE_MIN", "RELAXED_DENSITY_MIN"]

COVERAGE_MIN = 0.75
"""Least share of the quote's tokens found in the matched source span."""
DENSITY_MIN = 0.33
"""Least share of the matched span's tokens that are quote tokens."""
RELAXED_COVERAGE_MIN = 0.5
"""Coverage gate under a *see* / *cf.* signal (the citation vouches for a related point)."""
RELAXED_DENSITY_MIN = 0.2
"""Density gate under a *see* / *cf.* signal."""

RELAXING_SIGNALS = frozenset({"see", "see also", "cf.", "cf", "see, e.g.,", "see e.g."})
"""Signals under which the relaxed gates apply."""

_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Alignment:
    """Where a quote sits in a source text, and how well it matches.

    Attributes:
        start, end: character span (end exclusive) of the matched text in the
            source text; ``0, 0`` when nothing matched.
        coverage: share of the quote's tokens found in the span, in [0, 1].
        density: share of the span's tokens that are quote tokens, in [0, 1].
        score: rapidfuzz's partial-ratio similarity of the window, in [0, 1].
    """

    start: int
    end: int
    coverage: float
    density: float
    score: float


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def align(quote: str, source_text: str) -> Alignment:
    """Align ``quote`` to ``source_text``.

    Args:
        quote: the quote as the model gave it.
        source_text: the full text the quote claims to come from.

    Returns:
        The :class:`Alignment`; character offsets index ``source_text``.
        An empty quote or source gives ``Alignment(0, 0, 0.0, 0.0, 0.0)``.
    """
    q = _tokens(quote)
    if not q or not source_text.strip():
        return Alignment(0, 0, 0.0, 0.0, 0.0)
    qnorm = " ".join(t for t, _, _ in q)
    s_tokens = _tokens(source_text)
    if not s_tokens:
        return Alignment(0, 0, 0.0, 0.0, 0.0)
    # Align on the normalised token stream (one space between tokens) so punctuation and
    # line breaks in the PDF text do not count as differences; map back to characters after.
    snorm_parts: list[str] = []
    starts: list[int] = []  # offset in snorm of each source token
    pos = 0
    for t, _, _ in s_tokens:
        starts.append(pos)
        snorm_parts.append(t)
        pos += len(t) + 1
    snorm = " ".join(snorm_parts)
    res = fuzz.partial_ratio_alignment(qnorm, snorm) if len(qnorm) <= len(snorm) else fuzz.partial_ratio_alignment(snorm, qnorm)
    if res is None or res.score == 0:
        return Alignment(0, 0, 0.0, 0.0, 0.0)
    if len(qnorm) <= len(snorm):
        a, b = res.dest_start, res.dest_end
    else:  # the quote is longer than the whole source: the window is the whole source
        a, b = 0, len(snorm)
    # Widen to whole tokens.
    import bisect

    i = max(0, bisect.bisect_right(starts, a) - 1)
    j = max(i, bisect.bisect_left(starts, b) - 1)
    if j < len(s_tokens) - 1 and starts[j] + len(s_tokens[j][0]) < b:
        j += 1
    i, j = _best_window(q, s_tokens, i, j)
    window = s_tokens[i : j + 1]
    qc, wc = Counter(t for t, _, _ in q), Counter(t for t, _, _ in window)
    common = sum((qc & wc).values())
    coverage = common / len(q)
    density = common / len(window) if window else 0.0
    return Alignment(window[0][1], window[-1][2], round(coverage, 4), round(density, 4), round(res.score / 100.0, 4))


def _best_window(q: list[tuple[str, int, int]], s_tokens: list[tuple[str, int, int]], i: int, j: int) -> tuple[int, int]:
    """Refine the fuzzy window ``[i, j]`` (token indices) to the span best matching the quote's tokens.

    The fuzzy window has the quote's length in characters, so a paraphrased
    quote can fall short of its first or last words. Search spans starting
    and ending on a quote token within ``len(quote)`` tokens either side, and
    keep the one with the highest ``coverage + density / 4`` among those at
    least as dense as the loosest gate (coverage first: a quote's words are
    what must be found; density breaks ties between spans finding them all).
    """
    qc = Counter(t for t, _, _ in q)
    reach = min(len(q), 200)
    lo, hi = max(0, i - reach), min(len(s_tokens) - 1, j + reach)
    best, best_span = -1.0, (i, j)
    for a in range(lo, hi + 1):
        if s_tokens[a][0] not in qc:
            continue
        seen: Counter[str] = Counter()
        common = 0
        for b in range(a, hi + 1):
            t = s_tokens[b][0]
            seen[t] += 1
            if seen[t] <= qc.get(t, 0):
                common += 1
            elif t not in qc:
                continue
            cov, den = common / len(q), common / (b - a + 1)
            f = cov + 0.25 * den if den >= RELAXED_DENSITY_MIN else den
            if f > best:
                best, best_span = f, (a, b)
    return best_span


def gates_for(signal: str | None) -> tuple[float, float]:
    """``(coverage_min, density_min)`` for a citation's signal (relaxed under *see* / *cf.*)."""
    if signal and signal.strip().lower() in RELAXING_SIGNALS:
        return RELAXED_COVERAGE_MIN, RELAXED_DENSITY_MIN
    return COVERAGE_MIN, DENSITY_MIN


def grounded(al: Alignment, signal: str | None = None) -> bool:
    """True when ``al`` passes the coverage and density gates for ``signal``."""
    cmin, dmin = gates_for(signal)
    return al.end > al.start and al.coverage >= cmin and al.density >= dmin
