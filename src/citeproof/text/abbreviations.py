"""Abbreviations a text defines in brackets, read the way Schwartz and Hearst's algorithm reads them.

Method: Schwartz & Hearst, "A simple algorithm for identifying abbreviation definitions in biomedical text", PSB
2003: for ``long form (SHORT)``, the short form's letters are matched right to left in the words before the bracket
(its first letter opening a word), over at most ``min(len(SHORT) + 5, 2 * len(SHORT))`` words.
"""

from __future__ import annotations

import re
from functools import lru_cache

_DEFINED = re.compile(r"\(\s*([A-Za-z][\w-]{0,9})\s*[),;]")
_WORD = re.compile(r"\w(?:[\w'-]|[.,](?=\w))*")
_WRITTEN = re.compile(r"(?<![\w-])\w[\w-]*(?<=\w)(?![\w-])")


def _long_form(short: str, words: list[str]) -> list[str] | None:
    """The shortest tail of ``words`` that ``short`` abbreviates (Schwartz & Hearst's right-to-left match), or
    None."""
    letters = [c.lower() for c in short if c.isalnum()]
    if len(letters) < 2 or not any(c.isalpha() for c in letters):
        return None
    text = " ".join(words).lower()
    s, t = len(letters) - 1, len(text) - 1
    while s >= 0:
        c = letters[s]
        if not c.isalnum():
            s -= 1
            continue
        while t >= 0 and (text[t] != c or (s == 0 and t > 0 and text[t - 1].isalnum())):
            t -= 1
        if t < 0:
            return None
        s -= 1
        t -= 1
    start = text.rfind(" ", 0, t + 1) + 1
    tail = text[start:].split()
    return tail if 1 <= len(tail) <= min(len(letters) + 5, 2 * len(letters)) else None


def defined_abbreviations(text: str) -> dict[str, tuple[str, ...]]:
    """Each short form ``text`` defines as ``long form (SHORT)``, lower-cased, to its long form's words.

    Args:
        text: any text (a source, a sentence).

    Returns:
        ``{"cp": ("cerebral", "palsy")}`` for "... cerebral palsy (CP) ..."; the first definition of a short form
        wins. A bracket whose letters the words before it do not hold (``(95% CI)``, ``(n = 12)``) defines nothing.
    """
    return dict(_defined(text))


@lru_cache(maxsize=16)
def _defined(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """:func:`defined_abbreviations` of ``text``, kept for the last 16 texts (a source is read once per claim by three
    detectors)."""
    out: dict[str, tuple[str, ...]] = {}
    for m in _DEFINED.finditer(text):
        short = m.group(1)
        if short.lower() in out or short.islower() and len(short) > 5:
            continue
        before = _WORD.findall(text[max(0, m.start() - 200):m.start()])[-12:]
        long = _long_form(short, before)
        if long:
            out[short.lower()] = tuple(long)
    return tuple(out.items())


def as_the_source_writes(claim: str, source: str) -> str:
    """``claim`` with each long form that ``source`` defines, and then writes short, as that short form ("in mouse
    mesangial cells" -> "in MMC" where the source defines "mesangial cells (MC)" and "mouse MC (MMC)" and says "in
    MMC" after), so a detector comparing the claim word by word with the source's sentence sees one term, not two
    runs of different length.

    Args:
        claim: the claim's text.
        source: the whole source.

    Returns:
        The claim, unchanged where the source defines nothing the claim spells out, or writes the short form no more
        than in its definition.
    """
    used = _written_short(source)
    out = claim
    for _ in range(3 if used else 0):  # nested definitions fold inside out: "mouse mesangial cells" -> "mouse MC" -> "MMC"
        before = out
        for pattern, short in used:
            out = pattern.sub(short, out)
        if out == before:
            break
    return _genus_as_written(_hyphens_as_written(out, source), source)


_GENUS_SHORT = re.compile(r"\b([A-Z])\.\s?([a-z]{3,})\b")
"""A species with its genus cut to the initial (*M. xanthus*, *E. coli*)."""


def _genus_as_written(claim: str, source: str) -> str:
    """``claim`` with a genus spelled out (*Myxococcus xanthus*) cut to its initial where the source writes the
    species so (*M. xanthus*) at least as often as spelled out, so the word diff reads one name ("In wild-type Myxococcus xanthus" against
    "Wild-type strains of M. xanthus", a 161st trial's faithful claim: a proven swap of 'Myxococcus' for 'strains')."""
    for initial, species in _genera_short(source):
        spelled = re.compile(rf"\b{initial}[a-z]+\s+{species}\b")
        if spelled.search(claim):
            claim = spelled.sub(f"{initial}. {species}", claim)
    return claim


@lru_cache(maxsize=16)
def _genera_short(source: str) -> tuple[tuple[str, str], ...]:
    """The species ``source`` writes with the genus cut to its initial at least as often as spelled out (the title may
    spell it out once)."""
    short = _GENUS_SHORT.findall(source)
    return tuple((i, sp) for i, sp in set(short)
                 if len(re.findall(rf"\b{i}[a-z]+\s+{sp}\b", source)) <= short.count((i, sp)))


_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z]{4,}(?:-[A-Za-z]{4,})+(?![\w-])")
"""A compound of words of four letters or more joined by hyphens (*promoter-driven*); names with digits and
compounds of short words (*all-cause*, read apart a cause) stay out."""


@lru_cache(maxsize=16)
def _hyphen_forms(source: str) -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """The lower-case hyphenated compounds ``source`` writes, the runs of two and three words it writes apart, and for
    each compound it never writes apart, its apart form (once per source, in one pass over its words)."""
    joined = frozenset(m.group(0).lower() for m in _HYPHENATED.finditer(source))
    words = re.findall(r"[\w-]+", source.lower())
    apart = frozenset(" ".join(words[k:k + n]) for n in (2, 3) for k in range(len(words) - n + 1))
    return joined, apart, {w.replace("-", " "): w for w in joined if w.replace("-", " ") not in apart}


def _hyphens_as_written(claim: str, source: str) -> str:
    """``claim`` with a compound written as the source writes it, joined or apart, where the source writes it only
    that way ("a Nestin promoter-driven Cre transgenic strain" against "a Synapsin I promoter driven Cre transgenic
    mouse strain", a 154th trial: the word diff had read two words for one and seen no swap)."""
    joined, apart, to_join = _hyphen_forms(source)

    def spaced(m: re.Match) -> str:
        word = m.group(0)
        if word.lower() in joined or word.lower().replace("-", " ") not in apart:
            return word
        return word.replace("-", " ")
    out = _HYPHENATED.sub(spaced, claim) if "-" in claim else claim
    if to_join:
        words = re.findall(r"[A-Za-z]{4,}", out)
        for n in (2, 3):
            for k in range(len(words) - n + 1):
                if (word := to_join.get(" ".join(words[k:k + n]).lower())) is not None:
                    out = re.sub(r"(?<![\w-])" + r"\s+".join(map(re.escape, words[k:k + n])) + r"(?![\w-])", word, out)
    return out


@lru_cache(maxsize=16)
def _written_short(source: str) -> tuple[tuple[re.Pattern, str], ...]:
    """For each abbreviation ``source`` defines and then writes at least once more, a pattern of its long form and
    the short form as last written; longest long forms first."""
    defined = defined_abbreviations(source)
    if not defined:
        return ()
    seen: dict[str, list[str]] = {}  # one pass over the source's words: a full text defines dozens
    for m in _WRITTEN.finditer(source):
        if m.group(0).lower() in defined:
            seen.setdefault(m.group(0).lower(), []).append(m.group(0))
        elif m.group(0).endswith("s") and m.group(0)[:-1].lower() in defined:  # "RFBs" writes "RFB" (a 64th trial)
            seen.setdefault(m.group(0)[:-1].lower(), []).append(m.group(0))
    out = []
    for short, long in sorted(defined.items(), key=lambda p: -len(p[1])):
        written = seen.get(short, [])
        if len(written) >= 2:  # else the source defines it but goes on writing the long form
            # the claim's own definition goes with its long form: "Men who have sex with men (MSM)" -> "MSM"; a long
            # form the claim gives another short form ("AMPA receptor (CHMP)", a swap) stays as written
            out.append((re.compile(r"(?<![\w-])" + r"[\s-]+".join(map(re.escape, long))
                                   + rf"(?![\w-])(?:\s*\(\s*{re.escape(short)}\s*\)|(?!\s*\())", re.I), written[-1]))
    return tuple(out)


def short_forms(words: list[str], defined: dict[str, tuple[str, ...]]) -> list[str]:
    """Lower-case ``words`` with each long form of ``defined`` read as its short form, and the short form that
    follows a long form in brackets (already without them) dropped: ``although preterm delivery is a risk factor for
    cerebral palsy cp`` -> ``... for cp``, so one text that spells a term out and another that abbreviates it compare
    word for word.

    Args:
        words: word pieces as a detector tokenizes them (brackets dropped; commas may stand as pieces).
        defined: :func:`defined_abbreviations` of the source.
    """
    low = [w.lower() for w in words]
    longs = sorted(((long, short) for short, long in defined.items()), key=lambda p: -len(p[0]))
    out: list[str] = []
    i = 0
    while i < len(low):
        for long, short in longs:
            if tuple(low[i:i + len(long)]) == long:
                out.append(short)
                i += len(long)
                if i < len(low) and low[i] == short:
                    i += 1
                break
        else:
            out.append(low[i])
            i += 1
    return out
