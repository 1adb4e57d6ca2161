"""Quantities as a claim or a source writes them, and whether two agree: the parser and matcher ``number_drift``
(:mod:`citeproof.detectors.numbers`) and the consistency check (:mod:`citeproof.assist.consistency`) read.

Quantities are parsed from text (:func:`extract_quantities`): plain numbers with thousands separators, decimals,
percentages, ranges (``1800-2000 K`` is one range), exponents as PDFs extract them (``1.5 × 10-7``, ``10-7 M``),
``3x``/``3×``/``3-fold``/``two-fold``/``twice``/``double``/``half``, fractions (``1/2000``, ``1 in 5 million``, ``one
third``), number words, and units (parsed with `pint <https://pint.readthedocs.io>`_ so ``2 g`` meets ``2000 mg``).
A claim quantity is matched (:func:`quantities_match`) when some evidence quantity equals it after unit conversion
within the rounding of the number as written (``69%`` meets ``68.9%``; ``about 70%`` meets ``68.9%``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from citeproof.text.normalise import ascii_hyphens

WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "a hundred": 100, "a thousand": 1000, "dozen": 12, "a dozen": 12,
}
SCALE_WORDS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
FRACTION_WORDS = {
    "half": 0.5, "a half": 0.5, "one half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "one-third": 1 / 3,
    "two thirds": 2 / 3, "two-thirds": 2 / 3, "a quarter": 0.25, "one quarter": 0.25, "one-quarter": 0.25,
    "three quarters": 0.75, "three-quarters": 0.75, "one fifth": 0.2, "one-fifth": 0.2, "a fifth": 0.2,
    "one tenth": 0.1, "one-tenth": 0.1, "a tenth": 0.1,
}
_ORDINALS = {"fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
FRACTION_WORDS.update({f"{n}{sep}{o}{'s' if v > 1 else ''}": v / d for o, d in _ORDINALS.items()
                       for n, v in (("a", 1), ("one", 1), ("two", 2), ("three", 3), ("four", 4)) if v < d
                       for sep in (" ", "-") if not (n == "a" and sep == "-")})
"""... and every *one fourth*, *a sixth*, *three-eighths* (a nineteenth trial's "one tenth" for "one fourth" was read
as no quantity there, its "one fourth" as *four*)."""
MULTIPLIER_WORDS = {"twice": 2, "double": 2, "doubled": 2, "doubles": 2, "doubling": 2, "triple": 3,
                    "tripled": 3, "triples": 3, "tripling": 3, "quadruple": 4, "quadrupled": 4, "halved": 0.5,
                    "halves": 0.5, "thrice": 3}
LABEL_WORDS = {
    "type", "phase", "stage", "grade", "class", "group", "fig", "figure", "figs", "table", "section",
    "chapter", "eq", "equation", "step", "version", "level", "trial", "cohort", "arm", "chromosome",
    "exon", "intron", "codon", "allele", "residue", "residues", "ser", "thr", "tyr", "lys", "arg", "cys",
    "his", "asp", "glu", "gly", "ala", "pro", "val", "leu", "ile", "met", "phe", "trp", "asn", "gln",
    "position", "positions", "lane", "panel", "supplementary", "appendix", "ref", "refs", "reference",
    "study", "experiment", "model", "box", "no", "number", "patient", "case", "item", "line", "page",
    "pages", "p", "pp", "vol", "volume", "issue", "covid", "sars", "cov",
}
APPROX_WORDS = r"about|approximately|approx\.?|around|roughly|nearly|almost|~|∼|≈|circa|ca\."
BOUND_WORDS = (r"[>≥]\s?or\s?=|[<≤]\s?or\s?=|over|more than|greater than|higher than|older than|exceeding|at least|above|>|≥|"
               r">=|less than|fewer than|lower than|younger than|up to|at most|under|below|<|≤|<=")
_LOWER_BOUND = re.compile(r"[>≥]\s?or\s?=|over|(?:more|greater|higher|older)\s+than|exceeding|at least|above|>|≥|>=", re.I)
"""The words of :data:`BOUND_WORDS` that put a floor under the number (*more than 650,000*: its bound had read as a
ceiling, and a 25th trial's faithful "more than 650,000 admissions" for "654 918" was proven a drift)."""
_BOUND_AFTER = re.compile(r"\s+(?:or|and)\s+(?:(?P<floor>more|greater|higher|above|over|older)|less|fewer|lower|below|under|"
                          r"younger)\b", re.I)
"""A bound written after the number ("5 or more", "65 and over", "2 or fewer"): a floor or a ceiling."""

_GROUP_SPACE = "[ \u2007\u2008\u2009\u202f\u00a0]"  # between digit groups: "100 000", The Lancet's "499\u2008000"
_NUM = r"\d{1,3}(?:" + _GROUP_SPACE + r"\d{3})+(?![\d.,])|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_WORDNUM = "|".join(sorted((re.escape(k) for k in WORD_NUMBERS), key=len, reverse=True))
_MINUS = "-−–‐‑"

# A unit: a run of letters/µ/°/%/slashes/digits-as-powers following the number; validated with pint.
HYPHEN_UNITS = frozenset("mg g kg µg μg ug ng ml mL cm mm km nm µm μm cM kb Mb bp kDa mmHg mM µM μM nM Gy".split())
"""Units joined to their number by a hyphen ("a 5.6-cM interval": a sixth trial), as written ("5-HT" is a name)."""
_HYPHEN_UNIT = re.compile(r"-([A-Za-zµμ]+)\b")
_UNIT_RE = re.compile(r"\s?(°\s?[CF]|[µμ]?[A-Za-zµμΩ]+(?:[/·][A-Za-zµμ]+\d?)*(?:\^?-?\d)?|%|percent|per cent)")


@dataclass(frozen=True)
class Quantity:
    """A number found in text.

    Attributes:
        lo: the value (lower end for a range), in ``unit`` (percent as written: 32 for ``32%``).
        hi: upper end of a range, else equal to ``lo``.
        unit: the unit as written ('' when none; ``%`` for percentages; ``x`` for multipliers).
        text: the text span as written.
        start, end: offsets of ``text`` in the string it came from.
        tol: absolute tolerance implied by how the number is written (half the last digit).
        approx: True when hedged by ``about``, ``nearly``, ``~``...
        kind: ``number``, ``percent``, ``multiplier``, ``fraction``, ``range``, ``decade`` ("the 1980s": like no other kind).
        bound: ``>`` after *over*, *more than*, *at least*...; ``<`` after
            *less than*, *up to*, *under*...; '' otherwise.
    """

    lo: float
    hi: float
    unit: str
    text: str
    start: int
    end: int
    tol: float
    approx: bool = False
    kind: str = "number"
    bound: str = ""


def _to_float(s: str) -> float:
    return float(re.sub(r"[,\s\u2007\u2008\u2009\u202f\u00a0]", "", s))


def _tol(s: str) -> float:
    """The rounding a number as written allows: half its last decimal place; for a whole number of 1,000 or more
    ending in three zeros or more, half its last non-zero place, at most 1% of it ("roughly 281,000 men and 186,000
    women" for "281,394 men and 186,134 women", a 48th trial: the second number had been a proven drift)."""
    s = re.sub(r"[,\s\u2007\u2008\u2009\u202f\u00a0]", "", s)
    if "." in s:
        return 0.5 * 10 ** (-len(s.split(".")[1]))
    zeros = len(s) - len(s.rstrip("0"))
    if s.isdigit() and zeros >= 3 and int(s) >= 1000:
        return min(0.5 * 10 ** zeros, 0.01 * int(s))
    return 0.5


@lru_cache(maxsize=1)
def _ureg():
    try:
        import pint

        return pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    except Exception:  # pragma: no cover - pint missing: units compared as text
        return None


_BAD_UNITS = {"in", "at", "a", "an", "and", "or", "of", "to", "the", "as", "by", "for", "per", "is", "are", "was",
              "were", "be", "on", "h", "m", "s"}  # single letters resolved only in context below
_TIME_UNITS = {"h": "hour", "hr": "hour", "hrs": "hour", "min": "minute", "mins": "minute", "s": "second",
               "sec": "second", "d": "day", "days": "day", "day": "day", "wk": "week", "wks": "week",
               "weeks": "week", "week": "week", "months": "month", "month": "month", "years": "year",
               "year": "year", "yr": "year", "yrs": "year", "hours": "hour", "hour": "hour",
               "minutes": "minute", "minute": "minute", "seconds": "second", "second": "second",
               "decade": "10 * year", "decades": "10 * year", "century": "century", "centuries": "century"}
TIME_UNITS = frozenset(_TIME_UNITS)
"""Words that name a unit of time (*weeks*, *h*, *decades*)."""


@lru_cache(maxsize=512)
def _parse_unit(u: str):
    """Return a pint unit for the text ``u``, or None when it is not a unit."""
    reg = _ureg()
    if reg is None or not u:
        return None
    key = u.strip().replace("μ", "µ").replace("°", "deg")
    low = key.lower()
    if low in _TIME_UNITS:
        key = _TIME_UNITS[low]
    elif low in _BAD_UNITS or len(key) > 12:
        return None
    try:
        q = reg.parse_expression(key)
        if hasattr(q, "units") and not q.dimensionless:
            return q
    except Exception:
        return None
    return None


_SPREAD = re.compile(r"\s*[\[(]\s*\d+(?:\.\d+)?\s*[\])]")
"""A spread in brackets after a mean ("74 [14] years", "5.5 (3) days"): the unit after it is the mean's."""


def _unit_after(text: str, pos: int) -> tuple[str, int]:
    """The unit written right after ``pos`` (``'' , pos`` when none), past a spread in brackets (:data:`_SPREAD`:
    "mean [SD] age, 74 [14] years" gives 74 years)."""
    h = _HYPHEN_UNIT.match(text, pos)
    if h and (h.group(1) in HYPHEN_UNITS or h.group(1).lower() in ("day", "week", "month", "year")):  # "a 30-day chase"
        return h.group(1), h.end()
    m = _UNIT_RE.match(text, pos)
    if not m:
        spread = _SPREAD.match(text, pos)
        if spread:
            unit, end = _unit_after(text, spread.end())
            if unit:
                return unit, end
        return "", pos
    u = m.group(1)
    if u in ("%", "percent", "per cent"):
        return "%", m.end()
    if u.lower() in ("x", "×", "fold", "-fold"):
        return "x", m.end()
    if u.lower() in _TIME_UNITS:
        return u, m.end()
    if _parse_unit(u) is not None and u.lower() not in _BAD_UNITS:
        return u, m.end()
    return "", pos


_MONTH = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")


def _is_identifier_context(text: str, start: int, end: int) -> bool:
    """True when the number at ``[start, end)`` is part of a name (p53, IL-6, miR-211, type 2, Fig. 3).

    Also inside a DOI, URL or other identifier token (``10.1098/rsif...``,
    ``https://x.org/2017/05``): a character of ``/:@`` touching the token.
    """
    tok_start = start
    while tok_start > 0 and not text[tok_start - 1].isspace():
        tok_start -= 1
    tok_end = end
    while tok_end < len(text) and not text[tok_end].isspace():
        tok_end += 1
    token = text[tok_start:tok_end]
    if re.search(r"\b10\.\d{4,9}/|://|www\.|@", token) or re.search(r"\d/[A-Za-z]|[A-Za-z]/\d", token):
        return True
    if re.search(r"[A-Za-z]{3,}", token) and re.search(r"\d-[(\[]|[(\[]\d+,\d|\d,\d+-[A-Za-z]", token):
        return True  # a chemical name's locants: "3-(4,5-dimethylthiazol-2-yl)-2,5-diphenyltetrazolium" (a trial 13 source)
    # dates: "04 April 2018", "April 4, 2018", "2018-04-04"
    before_txt = text[max(0, start - 12) : start].lower()
    after_txt = text[end : end + 12].lower()
    if re.search(_MONTH.pattern + r"\s*$", before_txt) or re.match(r"\s*" + _MONTH.pattern, after_txt) or re.search(r"\d{4}-\d{2}-$", before_txt) or re.match(r"-\d{2}-\d{2}\b", after_txt):
        return True
    before = text[max(0, start - 1) : start]
    if before and (before.isalpha() or before in "_"):
        return True
    if before in "-‐" and start >= 2 and text[start - 2].isalnum():
        # miR-211, IL-6, COVID-19 (but not "1800-2000": handled as a range before we get here)
        return True
    after = text[end : end + 2]
    if after[:1] and (after[:1].isalpha() and after[:1] not in "x×%") :
        # 4PBA, 5HT; but keep 3x, 10mg, 5ml
        m = re.match(r"[A-Za-zµμ]+", text[end:])
        word = m.group(0) if m else ""
        if not (_parse_unit(word) is not None or word.lower() in _TIME_UNITS or word.lower() in ("x", "fold")):
            return True
    if after[:1] == "-" and len(after) > 1 and after[1].isalpha():
        m = re.match(r"-([A-Za-z]+)", text[end:])
        if m and m.group(1).lower() not in ("fold", "times", "year", "day", "week", "month", "hour", "dimensional") \
                and m.group(1) not in HYPHEN_UNITS:
            return True
    prev = re.search(r"([A-Za-z][A-Za-z0-9]*)\.?\s+$", text[max(0, start - 25) : start])
    if prev:
        w = prev.group(1)
        if w.lower() in LABEL_WORDS:
            return True
        unit = re.match(r"\s*([A-Za-zµμ%]+)(?!\w)", text[end:])  # a whole unit word: not "NIH 3T3" (T, tesla, then 3)
        # ... or the unit of a second number it is listed with: "NAC 30 or 120 minutes" (a 40th trial)
        listed = re.match(r"\s*(?:or|and|to|-)\s*\d+(?:\.\d+)?\s*([A-Za-zµμ%]+)(?!\w)", text[end:])
        if len(w) >= 2 and w.isupper() and re.fullmatch(r"\d{1,2}", text[start:end]) and not (
                unit and _parse_unit(unit.group(1)) is not None) and not (
                listed and (_parse_unit(listed.group(1)) is not None or listed.group(1).lower() in _TIME_UNITS)):
            return True  # BRCA 1, HER 2; not "IC50 10 µM", a value with its unit (a ninth trial)
    # citation-like brackets [12] or [3, 4], and a bare number alone in parentheses "(39)"
    if re.search(r"\[[\d,\s–-]*$", text[max(0, start - 12) : start]) and re.match(r"[\d,\s–-]*\]", text[end:]):
        return True
    if re.search(r"\([\d,\s–-]*$", text[max(0, start - 12) : start]) and re.match(r"[\d,\s–-]*\)", text[end:]):
        return True
    return False


_MAIN_RE = re.compile(
    r"(?P<approx>(?:(?:" + APPROX_WORDS + r")|(?P<bound>" + BOUND_WORDS + r"))\s*)?"
    r"(?:"
    r"(?P<sci>(?P<mant>" + _NUM + r")\s*[×x*]\s*10\s*(?:\^|\*\*)?\s*\(?(?P<exp>[" + _MINUS + r"]?\s?\d{1,2})\)?)"
    r"|(?P<pow>(?<![\d.])10\s*(?:\^|\*\*)\s*(?P<pexp>[" + _MINUS + r"]?\d{1,2})|(?<![\d.,])10(?P<pdfexp>[" + _MINUS + r"]\d{1,2})(?=\s*(?:M|mol|g|s|m|cm|mm|Pa|Torr|mbar|J|W|Hz|per|[)\],;.]|\s[a-z])))"
    r"|(?P<frac>(?<![\d/.])(?P<fa>\d+)\s*/\s*(?P<fb>\d{1,3}(?:" + _GROUP_SPACE + r"\d{3})+|\d{1,7})(?![\d/]))"
    r"|(?P<ofN>(?<![\d.\w])(?!one\b)(?P<of1>\d{1,4}|" + _WORDNUM + r")\s+(?:out\s+)?of\s+(?P<of2>\d{1,4}|" + _WORDNUM
    + r")(?![\d.,/\w]))"
    r"|(?P<inN>(?<![\d.\w-])(?P<in1>\d+|one)\s+in\s+(?P<in2>" + _NUM + r"|" + _WORDNUM + r")(?![\d.]*\s*%)"
    r"(?:\s+(?P<inscale>hundred|thousand|million|billion))?)"
    r"|(?P<range>(?P<r1>" + _NUM + r")\s*(?P<r1u>%)?" + r"\s*(?:-|–|—|‐|‑|to)\s*" + r"(?P<r2>" + _NUM + r")(?![\d.]))"
    r"|(?P<num>(?<![\d.,])(?:" + _NUM + r")(?![\d]))"
    r"|(?P<fracw>\b(?:" + "|".join(sorted((re.escape(k) for k in FRACTION_WORDS), key=len, reverse=True)) + r")\b)"
    r"|(?P<mulw>\b(?:" + "|".join(MULTIPLIER_WORDS) + r")\b)"
    r"|(?P<word>\b(?:" + _WORDNUM + r")\b(?:(?:[\s-]|(?<=hundred)\s+and\s+)(?:" + _WORDNUM + r")\b){0,3})"
    r")"
    r"(?P<scale>\s+(?:hundred|thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)


_MIDDOT = re.compile(r"(?<=\d)[·⋅](?=\d)")


def _compound(txt: str) -> tuple[int, int]:
    """``(value, characters read)`` of number words: *forty-two*, *two hundred*, *two hundred and fifty-four* (254: a
    80th trial's faithful claim "254 patients" had been read as drifting from *fifty-four*, *Two hundred* as 2); the
    reading stops where the words stop making one number (*two and three*: 2)."""
    toks = [(t.group(0).lower(), t.end()) for t in re.finditer(r"[a-z]+", txt, re.I)]
    cur = used = 0
    prev = ""
    for t, at in toks:
        if t == "a" and not prev:
            continue
        if t == "and" and prev == "hundred":
            prev = t
            continue
        n = WORD_NUMBERS.get(t)
        if t == "hundred" and prev != "hundred" and cur < 100:
            cur = (cur or 1) * 100
        elif n is not None and t != "hundred" and (not prev or prev in ("and", "hundred") and n < 100
                                                   or prev != "and" and 20 <= cur % 100 and cur % 10 == 0 and n < 10):
            cur += n
        else:
            break
        prev, used = t, at
    return cur, used


_SHAPE = re.compile(r"-(dimensional|sided|tailed|step|hybrid|way|stage|phase|arm|compartment|component|colou?r|hit)\b", re.I)
"""A number's compound naming a design (*two-dimensional*, *two-sided*): its unit, compared only with the same."""


def extract_quantities(text: str) -> list[Quantity]:
    """Parse every quantity in ``text``.

    Args:
        text: a claim or evidence sentence, as extracted (PDF artefacts included).

    Returns:
        Quantities in text order. Identifiers such as ``p53``, ``IL-6``,
        ``miR-211``, ``type 2``, ``Fig. 3`` and bracketed citation numbers are
        skipped. Percentages have ``unit == '%'``; ``3x``, ``3-fold``,
        ``twice`` have ``unit == 'x'``; other units are kept as written when
        pint knows them.
    """
    # Lancet-style decimal point: 13·5%; the Unicode hyphens (U+2010, U+2011: "19‐28z") as ASCII's, so a name with
    # digits stays a name (it had been read as the range 19-28 matching a claim's "18.9 months", a 15th trial)
    text = ascii_hyphens(_MIDDOT.sub(".", text or ""))
    out: list[Quantity] = []
    for m in _MAIN_RE.finditer(text):
        approx = bool(m.group("approx")) and not m.group("bound")
        bound = ""
        if m.group("bound"):
            bound = ">" if _LOWER_BOUND.fullmatch(m.group("bound").strip()) else "<"
        scale = SCALE_WORDS[m.group("scale").strip().lower()] if m.group("scale") else 1.0
        s0 = m.start("approx") if m.group("approx") else m.start()
        kind = "number"
        if m.group("sci"):
            exp = int(re.sub("[" + _MINUS + r"]\s?", "-", m.group("exp")).replace(" ", ""))
            mant = _to_float(m.group("mant"))
            lo = hi = mant * 10.0**exp
            tol = _tol(m.group("mant")) * 10.0**exp
            end = m.end("sci")
        elif m.group("pow"):
            e = m.group("pexp") or m.group("pdfexp")
            exp = int(re.sub("[" + _MINUS + "]", "-", e))
            lo = hi = 10.0**exp
            tol = abs(lo) * 1e-6
            end = m.end("pow")
        elif m.group("frac"):
            a, b = _to_float(m.group("fa")), _to_float(m.group("fb"))
            if b == 0:
                continue
            if _is_identifier_context(text, m.start("frac"), m.end("frac")):
                continue
            if a > 1 and b >= 1000 and math.log10(b).is_integer():
                # a rate, "378/100 000 persons": a count per a power of ten, read as its two numbers (a claim writes
                # "378 cases per 100 000 persons"), not as the fraction 0.00378
                out.append(Quantity(a, a, "", m.group("fa"), m.start("fa"), m.end("fa"), 0.5, approx, "number"))
                out.extend(_single(text, m.start("fb"), m.end("fb"), m.group("fb"), False))
                continue
            lo = hi = a / b
            tol = abs(lo) * 0.02
            end = m.end("frac")
            kind = "fraction"
        elif m.group("inN"):
            a = 1.0 if m.group("in1").lower() == "one" else float(m.group("in1"))
            b_txt = m.group("in2").lower()
            b = float(WORD_NUMBERS[b_txt]) if b_txt in WORD_NUMBERS else _to_float(b_txt)
            if m.group("inscale"):
                b *= SCALE_WORDS[m.group("inscale").lower()]
            lo = hi = a / b
            tol = abs(lo) * 0.02
            end = m.end("inN")
            kind = "fraction"
        elif m.group("ofN"):
            a, b = (float(WORD_NUMBERS.get(x.lower(), 0)) if x.isalpha() else float(x) for x in (m.group("of1"), m.group("of2")))
            if not 0 <= a <= b or b < 2:
                out.extend(_single(text, m.start("of1"), m.end("of1"), m.group("of1"), approx)
                           if not m.group("of1").isalpha() else [])
                continue
            # "8 of 9 trials", "eleven of twelve patients": the share, as "8/9" (a nineteenth trial's "8 of 9" had
            # been compared as an 8 with the source's "1426 flies/kg", its "6/9 trials" unread beside it)
            lo = hi = a / b
            tol = abs(lo) * 0.02
            end = m.end("ofN")
            kind = "fraction"
        elif m.group("range"):
            r1, r2 = m.group("r1"), m.group("r2")
            a, b = _to_float(r1), _to_float(r2)
            if _is_identifier_context(text, m.start("range"), m.start("range") + len(r1)):
                continue
            tail = re.match(r"[A-Za-zµμ]+", text[m.end("r2"):])
            if tail and not (_parse_unit(tail.group(0)) is not None or tail.group(0).lower() in _TIME_UNITS
                             or tail.group(0).lower() in ("x", "fold")):
                continue  # letters glued to its end make it a name: the "19-28z" CAR (a fifteenth trial)
            # ("10-7" before a unit-less context, a PDF exponent, is handled above) a descending pair, "123-5", is
            if b < a and "-" in text[m.end("r1") : m.start("r2")]:  # an abbreviation or no range: two numbers
                out.extend(_single(text, m.start("r1"), m.end("r1"), r1, approx))
                out.extend(_single(text, m.start("r2"), m.end("r2"), r2, False))
                continue
            lo, hi = a * scale, b * scale
            tol = max(_tol(r1), _tol(r2)) * scale
            end = m.end("range")
            kind = "range"
        elif m.group("num"):
            if _is_identifier_context(text, m.start("num"), m.end("num")):
                continue
            lo = hi = _to_float(m.group("num")) * scale
            tol = _tol(m.group("num")) * scale
            end = m.end("num")
        elif m.group("fracw"):
            lo = hi = FRACTION_WORDS[m.group("fracw").lower()]
            tol = 0.01
            end = m.end("fracw")
            kind = "fraction"
        elif m.group("mulw"):
            lo = hi = float(MULTIPLIER_WORDS[m.group("mulw").lower()])
            out.append(Quantity(lo, hi, "x", m.group(0).strip(), s0, m.end("mulw"), 0.01, approx, "multiplier"))
            continue
        elif m.group("word"):
            val, used = _compound(m.group("word"))
            if used < len(m.group("word")):  # "two and three", "five ten": the first number only, no scale after it
                end, scale = m.start("word") + used, 1.0
            if m.group("word").lower() == "one" and not m.group("scale"):
                # "one" is usually a pronoun/determiner; a quantity only before a unit or 'fold'
                nxt = text[m.end("word") : m.end("word") + 8].lower()
                if not re.match(r"\s*-?(fold|times|percent|%)", nxt):
                    continue
            lo = hi = float(val) * scale
            tol = 0.01 * scale
            end = m.start("word") + used
        else:  # pragma: no cover
            continue
        if scale != 1.0 and (m.group("num") or m.group("word")):
            end = m.end("scale")
            tol = max(tol, 0.05 * lo)
        unit, uend = _unit_after(text, end)
        if not unit and (shape := _SHAPE.match(text, end)):  # (a 158th trial's "two-dimensional" drifted from "5-wk")
            unit, uend = shape.group(1).lower(), shape.end()
        if unit == "s" and uend == end + 1 and lo == hi and lo % 10 == 0 and (1000 <= lo <= 2100 or 10 <= lo <= 90):
            unit, kind = "", "decade"  # "the early 1980s", "the 60s": not seconds, and no year range's like
        mfold = re.match(r"\s*-?\s*(fold|times|[x×])(?![A-Za-z])", text[end:])
        if mfold and kind in ("number", "range") and not unit.startswith("x") or (mfold and unit == "x"):
            unit, uend, kind = "x", end + mfold.end(), "multiplier" if kind != "range" else "range"
        if m.group("r1u") and not unit:
            unit = "%"
        if unit == "%" and kind == "number":
            kind = "percent"
        if not bound and (after := _BOUND_AFTER.match(text, uend)):
            bound, uend = (">" if after.group("floor") else "<"), after.end()
        out.append(Quantity(lo, hi, unit, text[s0:uend].strip(), s0, uend, tol, approx, kind, bound))
    for m in _VAGUE_TIME.finditer(text):  # "several decades old" for "more than two centuries old" (a 56th trial)
        lo, hi = _VAGUE[m.group(1).lower()]
        out.append(Quantity(lo, hi, m.group(2), m.group(0), m.start(), m.end(), 0.5, True, "range", ""))
    return sorted(out, key=lambda q: q.start)


_VAGUE = {"several": (2.0, 9.0), "a few": (2.0, 5.0), "a couple of": (2.0, 3.0)}
_VAGUE_TIME = re.compile(r"\b(several|a few|a couple of)\s+(days|weeks|months|years|decades|centuries)\b", re.I)
"""A vague count of a time unit: a range of that unit, so a number of another size in its place is a slot."""


def _single(text: str, a: int, b: int, s: str, approx: bool) -> list[Quantity]:
    if _is_identifier_context(text, a, b):
        return []
    unit, uend = _unit_after(text, b)
    v = _to_float(s)
    return [Quantity(v, v, unit, text[a:uend].strip(), a, uend, _tol(s), approx, "percent" if unit == "%" else "number")]


def _values_in(q: Quantity, ref_unit: str) -> list[tuple[float, float, float]] | None:
    """(lo, hi, tol) of ``q`` expressed in ``ref_unit``; None when not convertible."""
    if q.unit == ref_unit or not q.unit or not ref_unit:
        return [(q.lo, q.hi, q.tol)]
    if q.unit == "%" or ref_unit == "%" or q.unit == "x" or ref_unit == "x":
        return None
    a, b = _parse_unit(q.unit), _parse_unit(ref_unit)
    if a is None or b is None:
        return None
    try:
        f = (1 * a.units).to(b.units).magnitude / b.magnitude * a.magnitude  # a "decade" is 10 years
        if a.dimensionality != b.dimensionality:
            return None
    except Exception:
        return None
    if "deg" in str(a.units) or "kelvin" in str(a.units):
        try:
            lo = (q.lo * a.units).to(b.units).magnitude
            hi = (q.hi * a.units).to(b.units).magnitude
            return [(lo, hi, q.tol * abs(f))]
        except Exception:
            return None
    return [(q.lo * f, q.hi * f, q.tol * abs(f))]


BOUND_FACTOR = 1.25
"""A same-way bound this many times the source's is no match ("less than 20%" for "less than 2%": a fifth trial;
">40%" for ">70%", a 47th, had passed at 2.0: the number a bound gives is what the source reports)."""


def _close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol + 1e-9 * max(1.0, abs(a), abs(b))


def quantities_match(claim_q: Quantity, ev_q: Quantity) -> bool:
    """Whether an evidence quantity supports a claim quantity.

    Tolerates the rounding implied by either number as written, unit
    conversion (``2 g`` = ``2000 mg``), percent vs fraction (``50%`` =
    ``half`` = ``1/2``), approximate claims (``about 70%`` within 10 %),
    and a claim value that names an endpoint of (or, approximately, lies in)
    an evidence range.

    Args:
        claim_q: a quantity from the claim.
        ev_q: a quantity from the evidence.

    Returns:
        True when they agree.
    """
    if claim_q.bound and ev_q.bound and claim_q.bound != ev_q.bound:
        return False  # a floor for a ceiling ("younger than 60 years" for "> or =60 years", a 26th trial)
    if claim_q.unit == "%" and ev_q.bound and not claim_q.bound and not ev_q.unit:
        return False  # a share is no bare bound ("10 and 50% of HIV-infected individuals" matched the "<50" of "CD4+
        # T-cells <50 and <200/microl" beside the source's "10 and 30%", a 148th trial)
    cands = [(claim_q.lo, claim_q.hi, claim_q.tol, claim_q.unit)]
    if claim_q.unit == "%" and not ev_q.unit and not (ev_q.lo == ev_q.hi == int(ev_q.lo) >= 1):
        # a share as a fraction ("0.61"), never a whole number whose rounding covers it ("61%" had matched "1 USD",
        # a 36th trial) nor another percentage ("18%" as 0.18 had matched "0%", a 44th)
        cands.append((claim_q.lo / 100, claim_q.hi / 100, claim_q.tol / 100, ""))
    if claim_q.kind == "fraction" and ev_q.unit == "%":
        cands.append((claim_q.lo * 100, claim_q.hi * 100, claim_q.tol * 100, "%"))
    if claim_q.kind == "fraction" and claim_q.lo > 0 and ev_q.kind != "fraction" and not ev_q.unit:
        # "1 in 2000" vs "2000"
        cands.append((1 / claim_q.lo, 1 / claim_q.hi, 0.02 / claim_q.lo, ""))
    if claim_q.unit == "x" and ev_q.unit == "%":
        # 2-fold increase ~ 100% increase
        cands.append(((claim_q.lo - 1) * 100, (claim_q.hi - 1) * 100, claim_q.tol * 100, "%"))
    for lo, hi, tol, unit in cands:
        if unit and ev_q.unit and (unit.lower() == ev_q.unit.lower() or unit.lower().startswith(ev_q.unit.lower() + "/")
                                   or ev_q.unit.lower().startswith(unit.lower() + "/")):
            unit = ev_q.unit  # kD/kd; mg/day against mg "daily"
        unit_ok = unit == ev_q.unit or not unit or not ev_q.unit
        if unit and ev_q.unit and unit != ev_q.unit:
            conv = _values_in(Quantity(lo, hi, unit, "", 0, 0, tol), ev_q.unit)
            if conv is None:
                continue
            lo, hi, tol = conv[0]
            unit_ok = True
        if not unit_ok:
            continue
        t = max(tol, min(ev_q.tol, 0.5) if ev_q.lo == int(ev_q.lo) else ev_q.tol)  # a round number in the source
        # allows no more than its digits for a precise claim (its rounding is the claim's to use, not the other way)
        rel = 0.0
        if claim_q.approx or ev_q.approx:  # a year "about 1980" is not "about 1970" (a 127th trial): two years' slack
            rel = 2.0 if unit == ev_q.unit == "" and all(1800 <= v <= 2100 and v == int(v) for v in (
                lo, hi, ev_q.lo, ev_q.hi)) else 0.12 * max(abs(lo), abs(hi), abs(ev_q.lo), abs(ev_q.hi))
        t += rel
        if _close(lo, ev_q.lo, t) and _close(hi, ev_q.hi, t):
            return True
        if claim_q.bound and claim_q.bound == ev_q.bound and max(abs(hi), abs(ev_q.hi)) >= BOUND_FACTOR * max(
                min(abs(hi), abs(ev_q.hi)), 1e-9):
            continue  # implied by the source's bound, yet not the number it gives
        if claim_q.bound and claim_q.bound == ev_q.bound and _digits(hi) >= _digits(ev_q.hi):
            continue  # the same bound on another number as precise as the source's is no rounding of it ("over 853
            # genomes" for "over 953", a 58th trial; "more than 650,000" for "more than 654,918" rounds and holds)
        # a bound holds a value of its own unit only ("younger than 60 years" is not met by "P = 0.006", a 26th trial)
        if claim_q.bound == ">" and ev_q.lo >= lo - t and not ev_q.bound == "<" and unit == ev_q.unit:
            return True
        if claim_q.bound == "<" and ev_q.hi <= hi + t and not ev_q.bound == ">" and unit == ev_q.unit:
            return True
        if lo == hi and ev_q.lo != ev_q.hi:
            if _close(lo, ev_q.lo, t) or _close(lo, ev_q.hi, t):
                return True
            if claim_q.approx and ev_q.lo - t <= lo <= ev_q.hi + t:
                return True
        if lo != hi and ev_q.lo == ev_q.hi and lo - t <= ev_q.lo <= hi + t and (
                ev_q.unit or not unit or _close(lo, ev_q.lo, t) or _close(hi, ev_q.lo, t)):
            return True  # "9-11 days" covers "10 days"; "25-30%" covers "25%"; "2.4 to 2.6 mg" a bare "2.4" (its unit
            # written after the range's end: "from 2.4+/-1.3 to 2.6+/-1.5 mg"), but "0.1-100 pmol" no bare "1" inside
            # it (the "l-1" of "pmol l-1", a 134th trial: the range's end changed from 1000 had no tag)
    return False


def _digits(x: float) -> int:
    """Significant digits of ``x`` as written (``650000`` -> 2, ``654918`` -> 6, ``0.05`` -> 1)."""
    return len(("%.10g" % abs(x)).replace(".", "").lstrip("0").rstrip("0")) or 1


def _exact(q: Quantity) -> Quantity:
    """``q`` without its approximation or bound (for matching anywhere in a long source)."""
    return Quantity(q.lo, q.hi, q.unit, q.text, q.start, q.end, q.tol, False, q.kind, "")


def _same_kind(a: Quantity, b: Quantity) -> bool:
    if a.unit.lower() == b.unit.lower():
        return a.unit != "" or a.kind == b.kind or {a.kind, b.kind} <= {"number", "range"}
    if not a.unit or not b.unit:
        return False
    if a.unit in ("%", "x") or b.unit in ("%", "x"):
        return False
    return _values_in(a, b.unit) is not None
