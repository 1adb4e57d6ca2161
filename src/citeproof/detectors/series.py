"""A trend the claim reads across a series of values the source lists the other way (issue 28).

"In Model-1, 3-year survival rose steadily from the 'low' to the 'very high risk' group" for "... four risk groups
('low', 'intermediate', 'high', 'very high risk') with 3-year survival of 95.2, 69.3, 32.8, and 5.3%" (a 163rd
trial: *supported*, P(entails) 0.68): the claim names the series' ends and a direction, and the source's numbers,
taken in the claim's order, run the other way. Code shows it: confidence 0.9, ``proven``.
"""

from __future__ import annotations

import re

from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE, stem

__all__ = ["trend_against_series"]

_TREND = re.compile(r"\b(?P<up>rose|rise|rises|rising|increased|increases|increasing|grew|grows|growing|climbed|climbs|"
                    r"climbing)|(?P<down>fell|falls|falling|declined|declines|declining|decreased|decreases|decreasing|"
                    r"dropped|drops|dropping)\b", re.I)
_ENDS = re.compile(r"\bfrom\s+(?:the\s+)?['\"‘“]?(?P<x>[\w-]+(?:\s+[\w-]+){0,2}?)['\"’”]?\s+(?:to|through)\s+"
                   r"(?:the\s+)?['\"‘“]?(?P<y>[\w-]+(?:\s+[\w-]+){0,2})", re.I)
_SERIES = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)%?(?:\s*,\s*(?:and\s+)?\d+(?:\.\d+)?%?){2,}(?:,?\s*and\s+\d+(?:\.\d+)?%?)?"
                     r"|(?<![\w.])\d+(?:\.\d+)?%?(?:\s*,\s*\d+(?:\.\d+)?%?)+,?\s+and\s+\d+(?:\.\d+)?%?")
"""Three values or more, listed with commas (and a last *and*): "95.2, 69.3, 32.8, and 5.3%"."""
_VALUE = re.compile(r"\d+(?:\.\d+)?")


def _where(phrase: str, sentence: str) -> int | None:
    """Where the longest leading part of ``phrase`` (one to three words) first stands in ``sentence``, or None."""
    words = WORD_RE.findall(phrase)
    for n in range(len(words), 0, -1):
        m = re.search(r"(?<![\w-])" + r"\W+".join(map(re.escape, words[:n])) + r"(?![\w-])", sentence, re.I)
        if m is not None:
            return m.start()
    return None


def trend_against_series(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *rose from X to Y* (*fell*, *increased*, *declined*...) where a sentence of ``pool`` names X before
    Y (or after) and lists three values or more that, read from X to Y, run the other way, strictly; the word the
    claim measures (*survival*) stands within six words before the values.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (unused; the signature of the reversal rules).

    Returns:
        A proven ``polarity_flip`` tag at confidence 0.9, or None.
    """
    trend, ends = _TREND.search(claim_text), _ENDS.search(claim_text)
    if trend is None or ends is None:
        return None
    named = {stem(w.lower()) for w in WORD_RE.findall(claim_text[:ends.start()]) if len(w) > 3} - {
        stem(trend.group(0).lower())}
    for sentence in pool:
        x, y = _where(ends.group("x"), sentence), _where(ends.group("y"), sentence)
        if x is None or y is None or x == y:
            continue
        for m in _SERIES.finditer(sentence):
            values = [float(v) for v in _VALUE.findall(m.group(0))]
            before = {stem(w.lower()) for w in WORD_RE.findall(sentence[:m.start()])[-6:]}
            if not (named & before) or len(set(values)) != len(values):
                continue
            if y < x:
                values.reverse()
            rising = all(a < b for a, b in zip(values, values[1:]))
            falling = all(a > b for a, b in zip(values, values[1:]))
            if (trend.group("up") and falling) or (trend.group("down") and rising):
                return Tag("polarity_flip", f"The claim says {trend.group(0)!r} from {ends.group('x')!r} to "
                           f"{ends.group('y')!r}; the source's values run the other way ({m.group(0)}): "
                           f"\u201c{sentence[:200]}\u201d", 0.9, (TagEvidence(trend.group(0), m.group(0)),), proven=True)
    return None
