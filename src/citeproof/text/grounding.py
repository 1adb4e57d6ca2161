"""Grounding: where in a source a quoted span stands, and how exactly it matches.

:func:`align` finds the span of ``source_text`` that best matches a quotation
(rapidfuzz's ``partial_ratio_alignment``, a normalised Indel similarity of the
quote against its best-matching window of the source), after folding what
typesetting changes without changing the words: case, curly quotes,
dashes, ligatures, runs of whitespace, hyphenation at line ends.
:func:`word_diff` says, word by word, what differs between a quote and the
span it was aligned to (rapidfuzz's Levenshtein opcodes over word tokens).

Units are characters of the *original* strings (offsets into
``source_text``, from 0, end exclusive) and word tokens (``[\\w'-]+``, case-folded)
for the shares. Used by the quotation detectors
(:mod:`citeproof.detectors.quotes`) and by the LLM tier
(:mod:`citeproof.judges.llm`), which keeps a model's quote only when
:func:`grounded` says enough of it stands in the source (``DESIGN.md``: no
quote without grounding).

The gates follow the systems citeproof grows from: of the quote's tokens, at
least :data:`COVERAGE_MIN` must be found in the matched span (*coverage*),
and at least :data:`DENSITY_MIN` of that span's tokens must be quote tokens
(*density*, which stops a short quote from being "found" scattered over a
whole page). Under a *see* / *cf.* signal they relax to
:data:`RELAXED_COVERAGE_MIN` / :data:`RELAXED_DENSITY_MIN`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from citeproof.text.normalise import tokenize
from citeproof.text.sentences import split_sentences

__all__ = ["Alignment", "DiffOp", "align", "normalise", "word_diff", "words", "grounded", "gates_for", "restates_verbatim",
           "without_copied_line_numbers", "COVERAGE_MIN", "DENSITY_MIN", "RELAXED_COVERAGE_MIN", "RELAXED_DENSITY_MIN"]

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

_FOLD = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ", "\u2009": " ", "\u202f": " ",
    "\ufb01": "fi", "\ufb02": "fl", "\ufb00": "ff", "\ufb03": "ffi", "\ufb04": "ffl",
})
_WORD_RE = re.compile(r"[\w][\w'\-]*")


@dataclass(frozen=True)
class Alignment:
    """Where a quote best matches a source.

    Attributes:
        start: offset of the matched span in ``source_text`` (characters, from 0).
        end: end of the span (characters, exclusive); ``start == end`` when nothing matched.
        coverage: share of the quote's word tokens found in the span, in [0, 1].
        density: share of the span's word tokens that are quote tokens, in [0, 1].
        score: rapidfuzz partial-ratio similarity of the normalised quote and span, in [0, 100]
            (100: the span is the quote, up to the folding of :func:`normalise`).
    """

    start: int
    end: int
    coverage: float
    density: float
    score: float

    @property
    def exact(self) -> bool:
        """True when the span equals the quote after :func:`normalise` (score 100)."""
        return self.score >= 100.0


@dataclass(frozen=True)
class DiffOp:
    """One difference between a quote and its aligned span.

    Attributes:
        op: ``replace`` (quote words stand where the source has others), ``delete`` (quote
            words the source lacks) or ``insert`` (source words the quote leaves out).
        quote: the quote's words for this difference ('' for ``insert``).
        source: the source's words ('' for ``delete``).
    """

    op: str
    quote: str
    source: str

    def __str__(self) -> str:
        if self.op == "replace":
            return f"quote has \u201c{self.quote}\u201d where the source has \u201c{self.source}\u201d"
        if self.op == "delete":
            return f"quote adds \u201c{self.quote}\u201d"
        return f"quote leaves out \u201c{self.source}\u201d"


def normalise(text: str) -> tuple[str, list[int]]:
    """Fold typesetting differences; keep a map back to the original offsets.

    Returns:
        ``(folded, index)``: ``folded`` is case-folded with curly quotes,
        dashes, ligatures and no-break spaces folded, line-end hyphenation
        (``inter-\\nval``) joined and whitespace runs made one space;
        ``index[i]`` is the offset in ``text`` of ``folded[i]`` (length
        ``len(folded) + 1``, the last entry ``len(text)``).
    """
    out: list[str] = []
    idx: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "-" and i + 1 < n and text[i + 1] == "\n" and out and out[-1].isalpha():
            i += 2  # a word broken at a line end
            while i < n and text[i] in " \t":
                i += 1
            continue
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                idx.append(i)
            i += 1
            continue
        for c in ch.translate(_FOLD).casefold():
            out.append(c)
            idx.append(i)
        i += 1
    idx.append(n)
    return "".join(out), idx


_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])-\n[ \t]*")


def words(text: str) -> list[str]:
    """Case-folded word tokens (``[\\w'-]+``) of ``text`` after :func:`normalise`.

    The same tokens as ``_WORD_RE.findall(normalise(text)[0])``, without the
    offset map (whole-string folding: about 2.4x faster on a 400,000-character
    source; ``tests/test_quotes.py`` holds the equality).
    """
    return _WORD_RE.findall(_LINE_END_HYPHEN.sub("", text).translate(_FOLD).casefold())


def align(quote: str, source_text: str) -> Alignment:
    """Find the span of ``source_text`` that best matches ``quote``.

    Args:
        quote: the quoted words (quotation marks removed), or a quote an LLM returned.
        source_text: the whole source text (any length; characters).

    Returns:
        An :class:`Alignment` with offsets into ``source_text``, widened to
        whole words. An empty quote or source gives ``Alignment(0, 0, 0.0, 0.0, 0.0)``.

    Method: rapidfuzz ``fuzz.partial_ratio_alignment`` on the normalised
    strings (the best-matching window of the source, scored by normalised
    Indel similarity), its ends moved to the least word edit distance
    (:func:`_tighten`). That window has the quote's length in characters, so
    a reworded or reordered quote can fall short of its first or last words;
    a second span is searched over word tokens around it (:func:`_token_window`)
    and kept when it finds more of the quote's words. Coverage and density
    count word tokens as multisets.
    """
    q, _ = normalise(quote.strip())
    s, idx = normalise(source_text or "")
    if not q.strip() or not s.strip():
        return Alignment(0, 0, 0.0, 0.0, 0.0)
    if len(q) <= len(s):
        r = fuzz.partial_ratio_alignment(q, s)
        if r is None or r.score == 0:
            return Alignment(0, 0, 0.0, 0.0, 0.0)
        a, b = r.dest_start, r.dest_end  # rapidfuzz keeps dest for its second argument
    else:  # the quote is longer than the whole source: the window is the whole source
        a, b = 0, len(s)
    while a > 0 and s[a - 1].isalnum():
        a -= 1
    while b < len(s) and s[b].isalnum():
        b += 1
    qw = _WORD_RE.findall(q)
    a, b = _tighten(qw, s, a, b)
    b2 = b
    while b2 < len(s) and not s[b2].isspace() and not s[b2].isalnum():
        b2 += 1
    a2 = a
    while a2 > 0 and not s[a2 - 1].isspace() and not s[a2 - 1].isalnum():
        a2 -= 1
    a, b = max(((x, y) for x in (a, a2) for y in (b, b2)), key=lambda p: (fuzz.ratio(q, s[p[0]:p[1]]), p[0] - p[1]))
    coverage, density = _shares(qw, _WORD_RE.findall(s[a:b]))
    if coverage < 1.0 and qw:
        ta, tb = _token_window(qw, s, a, b)
        cov2, den2 = _shares(qw, _WORD_RE.findall(s[ta:tb]))
        if cov2 > coverage:
            a, b, coverage, density = ta, tb, cov2, den2
    span = s[a:b]
    score = 100.0 if span.strip() == q.strip() else float(fuzz.ratio(q, span))
    return Alignment(idx[a], idx[b] if b < len(idx) else len(source_text), round(coverage, 4), round(density, 4), round(score, 2))


def _shares(qw: list[str], sw: list[str]) -> tuple[float, float]:
    """``(coverage, density)``: common word tokens (as multisets) over the quote's and over the span's."""
    common = _multiset_common(qw, sw)
    return (common / len(qw) if qw else 0.0), (common / len(sw) if sw else 0.0)


def _token_window(qw: list[str], s: str, a: int, b: int) -> tuple[int, int]:
    """The span around ``s[a:b]`` that best holds the quote's words, as character offsets into ``s``.

    Spans start and end on a quote word, within ``len(qw)`` words (at most
    200) either side of the window; the one with the highest
    ``coverage + density / 4`` wins among those at least as dense as the
    loosest gate (:data:`RELAXED_DENSITY_MIN`): the quote's words are what
    must be found, density breaks ties between spans finding them all.
    """
    reach = min(len(qw), 200)
    toks = [(m.group(0), m.start(), m.end()) for m in _WORD_RE.finditer(s)]
    starts = [t[1] for t in toks]
    import bisect

    i = max(0, bisect.bisect_right(starts, a) - 1)
    j = max(i, bisect.bisect_left(starts, b) - 1)
    qc = Counter(qw)
    lo, hi = max(0, i - reach), min(len(toks) - 1, j + reach)
    best, span = -1.0, (a, b)
    for x in range(lo, hi + 1):
        if toks[x][0] not in qc:
            continue
        seen: Counter[str] = Counter()
        common = 0
        for y in range(x, hi + 1):
            t = toks[y][0]
            seen[t] += 1
            if seen[t] <= qc.get(t, 0):
                common += 1
            elif t not in qc:
                continue
            cov, den = common / len(qw), common / (y - x + 1)
            f = cov + 0.25 * den if den >= RELAXED_DENSITY_MIN else den
            if f > best:
                best, span = f, (toks[x][1], toks[y][2])
    return span


def gates_for(signal: str | None) -> tuple[float, float]:
    """``(coverage_min, density_min)`` for a citation's signal (relaxed under *see* / *cf.*)."""
    if signal and signal.strip().lower() in RELAXING_SIGNALS:
        return RELAXED_COVERAGE_MIN, RELAXED_DENSITY_MIN
    return COVERAGE_MIN, DENSITY_MIN


def grounded(al: Alignment, signal: str | None = None) -> bool:
    """True when ``al`` passes the coverage and density gates for ``signal`` (a quote an LLM gave stands in the source)."""
    cmin, dmin = gates_for(signal)
    return al.end > al.start and al.coverage >= cmin and al.density >= dmin


def _tighten(qw: list[str], s: str, a: int, b: int, slack: int = 3) -> tuple[int, int]:
    """Move the span's ends by up to ``slack`` words either way to the window of least word edit distance to the quote.

    The character window rapidfuzz returns has the quote's length, so a changed
    number or word can shift it by a word; ties keep the window closest to the quote's length.
    """
    lo, hi = max(0, a - 200), min(len(s), b + 200)
    toks = [(m.start() + lo, m.end() + lo, m.group(0)) for m in _WORD_RE.finditer(s[lo:hi])]
    inside = [k for k, t in enumerate(toks) if t[1] > a and t[0] < b]
    if not inside or not qw:
        return a, b
    i0, j0 = inside[0], inside[-1] + 1
    best = (Levenshtein.distance(qw, [t[2] for t in toks[i0:j0]]), abs(j0 - i0 - len(qw)), i0, j0)
    for i in range(max(0, i0 - slack), min(len(toks), i0 + slack + 1)):
        for j in range(max(i + 1, j0 - slack), min(len(toks), j0 + slack) + 1):
            cand = (Levenshtein.distance(qw, [t[2] for t in toks[i:j]]), abs(j - i - len(qw)), i, j)
            best = min(best, cand)
    return toks[best[2]][0], toks[best[3] - 1][1]


def _multiset_common(a: list[str], b: list[str]) -> int:
    ca, cb = Counter(a), Counter(b)
    return sum(min(v, cb[k]) for k, v in ca.items())


def word_diff(quote: str, span: str) -> list[DiffOp]:
    """Word-level differences between a quote and the source span it was aligned to.

    Args:
        quote: the quoted words.
        span: ``source_text[alignment.start:alignment.end]``.

    Returns:
        The differences in order (empty when the words agree after
        :func:`normalise`); computed with rapidfuzz ``Levenshtein.opcodes`` over word tokens.
    """
    qw, sw = words(quote), words(span)
    out = []
    for op in Levenshtein.opcodes(qw, sw):
        if op.tag == "equal":
            continue
        out.append(DiffOp(op.tag, " ".join(qw[op.src_start:op.src_end]), " ".join(sw[op.dest_start:op.dest_end])))
    return out


_OPENS_DOUBT = frozenset({
    "not", "no", "never", "neither", "nor", "without", "whether", "if", "unless", "false", "untrue", "myth", "myths",
    "claim", "claims", "claimed", "hypothesis", "hypothesized", "hypothesised", "hypothesize", "hypothesise",
    "suggested", "speculated", "contrary", "refuted", "disproved", "debunked",
})
"""Words that, beside a quoted span, can make the source say less than the span (``it is a myth that ...``)."""

_NARROWS = frozenset({
    "mice", "mouse", "murine", "rat", "rats", "animal", "animals", "vitro", "cell", "cells", "pilot", "preliminary",
    "simulated", "simulation", "model", "models",
})
"""Words that, beside a quoted span, limit whom or what it is about (``in mice, ...``)."""

_FRAMES_IN_DOUBT = frozenset({
    "surmise", "surmised", "speculate", "suggest", "suggests", "propose", "proposes", "postulate", "postulated",
    "may", "might", "could", "possibly", "perhaps", "likely", "probably", "presumably", "possible", "plausible",
    "believe", "believed", "think", "thought", "expect", "expected", "predict", "predicted", "conjecture", "hope",
})
"""Words that, before a quoted span, frame it as a view or a possibility (``We surmise that this technology will
...``: a fifteenth new user's trial's claim dropped the frame and was *supported* word for word)."""

VERBATIM_MIN_TOKENS = 6
"""Least tokens of a claim that :func:`restates_verbatim` accepts as a restatement (shorter runs recur by chance)."""

VERBATIM_MIN_SHARE = 0.6
"""Least share of the source sentence's tokens that the claim's run must cover."""


@lru_cache(maxsize=8192)
def restates_verbatim(claim: str, text: str) -> bool:
    """Whether ``claim`` stands word for word in one sentence of ``text`` that asserts it.

    The claim's word and number tokens (:func:`citeproof.text.normalise.tokenize`: folded, ``68.9%`` one token)
    must appear as one contiguous run in a sentence of ``text`` (:func:`citeproof.text.sentences.split_sentences`),
    the run must cover at least :data:`VERBATIM_MIN_SHARE` of that sentence's tokens, the claim must hold at least
    :data:`VERBATIM_MIN_TOKENS` tokens, and the rest of the sentence must hold no word that can put the run in doubt
    (a negation, *whether*, *if*, *claimed*, *myth*: :data:`_OPENS_DOUBT`) or narrow it (*in mice*, *in vitro*:
    :data:`_NARROWS`), and no word before the run may frame it as a view (*We surmise that*: :data:`_FRAMES_IN_DOUBT`). A claim with one word or number changed is not a restatement (issue 28: those are the
    false claims in the source's own words). Where the splitter kept a sentence whole across an abbreviation's
    period (``etc. These``), the share is also read on the piece between full stops before capitals.

    Args:
        claim: the claim's text (citation markers already removed).
        text: a source sentence or passage.

    Returns:
        True when some sentence restates the claim as above.
    """
    ct = tokenize(claim)
    n = len(ct)
    if n < VERBATIM_MIN_TOKENS:
        return False
    for sent in split_sentences(text) or [text]:
        st = tokenize(sent)
        if n > len(st):
            continue
        for i in range(len(st) - n + 1):
            if st[i: i + n] == ct:
                rest = set(st[:i]) | set(st[i + n:])
                if rest & (_OPENS_DOUBT | _NARROWS) or set(st[:i]) & _FRAMES_IN_DOUBT:
                    continue
                if n >= VERBATIM_MIN_SHARE * len(st) or _whole_after_stop(ct, sent):
                    return True
    return False


_AFTER_STOP = re.compile(r"(?<=[.!?])\s+(?=[\"“‘(\[]?[A-Z])")
"""A full stop, then a capital: where a sentence may end even after an abbreviation (``logs, etc. These copies``)."""


def _whole_after_stop(ct: list[str], sent: str) -> bool:
    """Whether tokens ``ct`` cover :data:`VERBATIM_MIN_SHARE` of one piece of ``sent`` cut at every full stop before
    a capital: a sentence the splitter kept whole across an abbreviation's period ("... commit message logs, etc.
    These copies act as independent backups ...", the scale job's work04, issue 27). Doubt words are still read on
    the whole sentence by the caller."""
    n = len(ct)
    for piece in _AFTER_STOP.split(sent):
        pt = tokenize(piece)
        if n <= len(pt) and n >= VERBATIM_MIN_SHARE * len(pt) and any(pt[j: j + n] == ct for j in range(len(pt) - n + 1)):
            return True
    return False


_BETWEEN_WORDS = re.compile(r"(?:(?<=[^\W\d_] )|(?<=[^\W\d_][,;:] ))(\d{1,4}) (?=[^\W\d_])")
"""A bare number of 1-4 digits standing between two words ("storage 78 device", "projects, 325 Lots")."""


def without_copied_line_numbers(claim: str, text: str, numbers) -> tuple[str, tuple[int, ...]]:
    """``claim`` without the source's margin line numbers a copy from its PDF carried along, when that is proven.

    A sentence copied from a manuscript PDF with numbered lines carries the numbers of the lines it crossed
    ("... present on each user's storage 78 device."). A bare number between two words of the claim is such a
    copy when it is one of ``numbers`` (the line numbers printed beside the passage,
    :attr:`citeproof.model.Passage.margin_numbers`) **and** the claim without those numbers stands word for word
    in ``text`` (:func:`restates_verbatim`): an inserted figure that happens to equal a line number beside the
    passage and leaves an exact quotation is the copy, not a claim of its own. Found on the scale job (issue 27),
    where 4 of 34 verbatim claims carried them.

    Args:
        claim: the claim's text.
        text: the passage's text (margin numbers already dropped by the parser).
        numbers: the passage's margin line numbers (ints).

    Returns:
        ``(the claim without them, the numbers removed in claim order)``, or ``(claim, ())`` when none is proven.
    """
    allowed = set(numbers)
    if not allowed:
        return claim, ()
    found = [m for m in _BETWEEN_WORDS.finditer(claim) if int(m.group(1)) in allowed]
    if not found:
        return claim, ()
    out, last = [], 0
    for m in found:
        out.append(claim[last: m.start()])
        last = m.end()
    out.append(claim[last:])
    cleaned = "".join(out)
    if not restates_verbatim(cleaned, text):
        return claim, ()
    return cleaned, tuple(int(m.group(1)) for m in found)
