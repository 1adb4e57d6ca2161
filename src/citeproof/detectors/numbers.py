"""``number_drift``: a quantity in the claim differs from the one in the evidence.

Quantities are parsed and compared by :mod:`citeproof.detectors.quantities` (:func:`extract_quantities`,
:func:`quantities_match`: numbers, ranges, fractions, number words, units through pint); this module decides which
evidence quantities a claim's are checked against (the restating sentence first, then the passage, then the whole
source) and what the tag says.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from citeproof.detectors.quantities import Quantity, _exact, _same_kind, extract_quantities, quantities_match
from citeproof.text.normalise import WORD_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, overlap_score, relevant_sentences, sentences_about
from citeproof.model import Tag, TagEvidence

@lru_cache(maxsize=32)
def _source_quantities(source_text: str) -> tuple[Quantity, ...]:
    return tuple(extract_quantities(source_text))


TWIN_OVERLAP = 0.6
"""Least share of the claim's content words an evidence sentence must hold to count as the claim's restatement
(:func:`_twin_quantities`)."""


TWIN_SOURCE_MAX = 5000
"""Longest source (characters, about an abstract) whose restating sentence is looked for outside the evidence passage:
in a full text another sentence may restate the claim's words of another measurement."""


def _twin_quantities(claim_text: str, evidence_text: str) -> tuple[float, list[Quantity]]:
    """The share of the claim's content words (:func:`overlap_score`) the evidence sentence that restates the claim
    holds and its quantities: the sentence sharing the most of the claim's content words, if at least
    :data:`TWIN_OVERLAP`; ``(0.0, [])`` when no sentence comes that close."""
    best, best_score = "", 0.0
    for sent in split_sentences(evidence_text):
        sc = overlap_score(claim_text, sent)
        if sc > best_score:
            best, best_score = sent, sc
    return (best_score, extract_quantities(best)) if best_score >= TWIN_OVERLAP else (0.0, [])


NEAR_MISS = 0.35
"""How much less of the claim's content words (:func:`overlap_score`) than the restating sentence another sentence
may hold and still excuse the claim's quantity by stating it: on the faithful Citation-Integrity training citations
the excusing sentences held up to 0.34 less ("541 received remdesivir" against "541 assigned to remdesivir",
"approximately another 50 000 individuals" against "approximately 56,300"); a 154th trial's false "4N" stood in a
sentence holding 0.56 less."""


_WORD = re.compile(r"[A-Za-z][\w-]+")


def _beside_alike(claim_text: str, q: Quantity, sent: str, e: Quantity) -> bool:
    """The content word just before ``q`` in the claim stands just before ``e`` in ``sent`` too, or the one just after
    it just after (by stem, stop words passed over): the sentence says the claim's quantity of the claim's thing."""
    def around(text: str, start: int, end: int) -> tuple[list[str], list[str]]:
        return ([stem(w) for w in _WORD.findall(text[:start]) if w.lower() not in STOPWORDS][-1:],
                [stem(w) for w in _WORD.findall(text[end:]) if w.lower() not in STOPWORDS][:1])
    (cb, ca), (sb, sa) = around(claim_text, q.start, q.end), around(sent, e.start, e.end)
    return bool(cb and cb == sb) or bool(ca and ca == sa)


_ALL_BUT = re.compile(r"\ball but (?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten) of (?:the |these |those )?"
                      r"(?P<total>\d+)\b", re.I)


def _all_but(text: str) -> list[Quantity]:
    """The counts *all but N of M* states (M - N): "all but 2 of the 11 studies" is nine of them (a 136th trial's
    faithful "Nine of the 11 studies" had a proven drift against the "4" of "all but 4")."""
    out = []
    for m in _ALL_BUT.finditer(text):
        n = extract_quantities(m.group("n"))
        if n and n[0].lo == int(n[0].lo) < int(m.group("total")):
            v = float(int(m.group("total")) - int(n[0].lo))
            out.append(Quantity(v, v, "", m.group(0), m.start(), m.end(), 0.5, False, "number"))
    return out


def _states(q: Quantity, e: Quantity) -> bool:
    """``e``, in another sentence, states ``q``: a bound by a bound that meets it or by its own value (any larger
    share meets "at least 10%", and the "almost 50%" beside the source's "at least 5%" had stood for the claim's
    "at least 10%", a 27th trial)."""
    return quantities_match(_exact(q) if q.bound and not e.bound else q, e)


_MORE_OF = re.compile(r"\b(?:second|another|both|again|additional|twice|each|per|every)\b", re.I)


def _one_in_place(claim_text: str, q: Quantity, evidence_text: str) -> str | None:
    """"one" (or "a single") in the place of the claim's number word ``q`` in a sentence restating the claim, the
    words after both alike (by stem), or "an hour" in the place of its "three hours"; None otherwise."""
    if q.lo >= 2 and q.unit and q.unit.isalpha() and len(after := _next_stems(claim_text, q.end)) == 2:
        unit = q.unit.lower()[:-1] if q.unit.lower().endswith("s") else q.unit.lower()  # "three hours" / "an hour"
        for sent in _twin_sentences(claim_text, evidence_text, once=False):  # (a 94th trial: *partial*, 0.5 unproven)
            for m in re.finditer(rf"\b(?:an?|one|the (?:last|past|first|next|previous))\s+{re.escape(unit)}\b", sent,
                                 re.I):  # "the last three decades" for "the last decade" (a 99th trial)
                if _next_stems(sent, m.end()) == after:
                    return m.group(0)
    if not q.text.isalpha() or q.lo < 2:
        return None
    after = _next_stems(claim_text, q.end)
    if len(after) < 2:
        return None
    for sent in _twin_sentences(claim_text, evidence_text):
        for m in re.finditer(r"\b(one|a single)\s+", sent, re.I):
            if _next_stems(sent, m.end()) == after:
                return m.group(1)
    return None


def _next_stems(text: str, at: int) -> list[str]:
    """The stems of the two words after ``text[at]``."""
    return [stem(w) for w in re.findall(r"[\w.-]+", text[at:])[:2]]


def _twin_sentences(claim_text: str, evidence_text: str, once: bool = True):
    """The evidence sentences restating the claim (:data:`TWIN_OVERLAP`); with ``once``, only those that count one
    thing once ("one dose ... then a second one" counts two)."""
    return (s for s in split_sentences(evidence_text)
            if overlap_score(claim_text, s) >= TWIN_OVERLAP and not (once and _MORE_OF.search(s)))


_COUNT_WORD = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)\s+", re.I)


def _number_for_one(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim's "one" (or "a single") where a sentence restating the claim has a count of two or more, the word
    before and the two after alike (by stem): "only one of these incorporated a randomization procedure" for "only
    three of these incorporated ..." (a 78th trial: *supported*, since "one" is no quantity to the parser, a pronoun
    as often as a number). ``(claim's word, source's count)``, or None; the reverse of :func:`_one_in_place`."""
    for m in re.finditer(r"\b(one|a single)\s+", claim_text, re.I):
        after = _next_stems(claim_text, m.end())
        before = re.findall(r"[\w.-]+", claim_text[:m.start()])[-1:]
        if len(after) < 2 or not before:
            continue
        for sent in _twin_sentences(claim_text, evidence_text):
            for n in _COUNT_WORD.finditer(sent):
                prev = re.findall(r"[\w.-]+", sent[:n.start()])[-1:]
                if (prev and stem(prev[0]) == stem(before[0]) and _next_stems(sent, n.end()) == after
                        and not (n.group(1).isdigit() and int(n.group(1)) < 2)):
                    return m.group(1), n.group(1)
    return None


_DATED = re.compile(r"\b(?P<month>(?:jan|febr)uary|march|april|may|june|july|august|(?:sept|nov|dec)ember|october)"
                    r"\s+(?:\d{1,2},?\s+)?(?P<year>(?:19|20)\d\d)\b", re.I)
"""A date with its month: the quantity parser reads no number in "August 1992"."""


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINAL = re.compile(r"\b(?P<o>" + "|".join(_ORDINALS) + r")[\s,]+(?:\d+-[a-z]+\s+)?(?P<n>[a-z]{4,})\b", re.I)
"""An ordinal before a noun, a number compound between (*the second 5-year revision*, a 185th trial's "third")."""


def _ordinal_for_ordinal(claim_text: str, source_text: str) -> tuple[str, str] | None:
    """The claim's ordinal before a noun (*third edition*) where the source has another before the same noun
    (*Second Edition*) and never writes the claim's ordinal at all: a 174th trial's *supported*. ``(claim's, source's)``, or None."""
    for m in _ORDINAL.finditer(claim_text):
        mine, noun = m.group("o").lower(), m.group("n").lower()
        said = [n for n in _ORDINAL.finditer(source_text) if n.group("n").lower() == noun]
        if mine == "first" and re.search(rf"\b(?:initial|early|earliest|an?)\s+{re.escape(noun)}\b", source_text, re.I):
            continue  # "The first phase" for "an initial phase ... a second phase" (a 140th trial's faithful claim)
        if said and not re.search(rf"\b{mine}\b", source_text, re.I):  # (the source's "second dose" beside its
            # "first vaccine dose" excuses the claim's "second vaccine dose", a faithful Citation-Integrity claim)
            return m.group(0), said[0].group(0)
    return None


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_NUMBER_WORD = r"(?:\d{1,4}|" + "|".join(_NUMBER_WORDS) + ")"
_OF_N = re.compile(rf"\b(?P<a>{_NUMBER_WORD})\s+(?:out\s+)?of\s+(?:the\s+)?(?P<n>{_NUMBER_WORD})\s+(?P<w>[a-z]{{3,}})", re.I)


def _count_of_same(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim's *three of six X* where the evidence has another count of the same *six X*, *one of six X*
    included (the quantity parser reads no fraction in *one of*, an idiom elsewhere): "but only three of six without
    treatment" for "but only one of six without treatment" (a 185th trial: *partial*, no number tag).
    ``(claim's, evidence's)``, or None."""
    def value(w: str) -> int:
        return int(w) if w.isdigit() else _NUMBER_WORDS.index(w.lower()) + 1

    for m in _OF_N.finditer(claim_text):
        same = [e for e in _OF_N.finditer(evidence_text)
                if (value(e.group("n")), e.group("w").lower()) == (value(m.group("n")), m.group("w").lower())]
        if not same or any(value(e.group("a")) == value(m.group("a")) or re.search(r"\bbut\s*$", evidence_text[:e.start()])
                           for e in same):
            continue  # the same count, or *all but 2 of the 11 studies* (nine of them, a 136th trial's faithful claim)
        return m.group(0), same[0].group(0)
    return None


_TIMES = re.compile(r"\b(?P<pre>[a-z]+\s+[a-z]+)\s+(?P<t>once|twice|thrice)\b", re.I)


def _times_for_times(claim_text: str, source_text: str) -> tuple[str, str] | None:
    """The claim's *once*, *twice* or *thrice* after two words the source writes before another of them, the source
    never writing the claim's: "do not initiate more than twice" for "more than once" (a 179th trial's *supported*).
    ``(claim's, source's)``, or None."""
    for m in _TIMES.finditer(claim_text):
        mine = m.group("t").lower()
        pre = r"\s+".join(map(re.escape, m.group("pre").split()))
        said = re.search(rf"\b{pre}\s+(once|twice|thrice)\b", source_text, re.I)
        if said and said.group(1).lower() != mine and not re.search(rf"\b{mine}\b", source_text, re.I):
            return m.group(0), said.group(0)
    return None


def _date_for_date(claim_text: str, evidence_text: str, source_text: str) -> tuple[str, str] | None:
    """The claim's year of a dated month where a sentence restating the claim (:func:`_twin_sentences`) dates the
    same month in another year: "held in August 1996" for "held in August 1992" (a 90th trial: *supported*, P(entails)
    0.69: the quantity parser reads no number in a date). Not when the source writes the claim's date anywhere.
    ``(claim's date, source's date)``, or None."""
    for m in _DATED.finditer(claim_text):
        if re.search(rf"\b{m.group('year')}\b", source_text or evidence_text):
            continue
        for sent in _twin_sentences(claim_text, evidence_text):
            for n in _DATED.finditer(sent):
                if n.group("month").lower() == m.group("month").lower() and n.group("year") != m.group("year"):
                    return m.group(0), n.group(0)
    return None


_DURATION = re.compile(r"\b(?:(?:with)?in|over|for|after|during|across|by)?\s*(?:(?:a|one|a few|few|several|some|many|"
                       r"the (?:last|past|first|next))\s+)?(?P<unit>second|minute|hour|day|week|month|year|decade|"
                       r"centur(?=y|ies))(?:s|y|ies)?\b", re.I)
"""A span of time told by its unit alone ("within minutes", "over several hours"): the quantity parser reads no number
there."""


def _duration_for_duration(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim's span of time where a sentence restating the claim (:func:`_twin_sentences`) has another unit in its
    place, the word before and the two after alike (by stem): "removing capsule from the cell surface over several
    hours in a process" for "... within minutes in a process" (a 104th trial: *supported*, P(entails) 0.96). Not
    when such a sentence also has the claim's unit there. ``(claim's span, source's span)``, or None."""
    for m in _DURATION.finditer(claim_text):
        if any(c.isdigit() for c in claim_text[max(0, m.start() - 12):m.start()]):
            continue  # "3 hours" is the quantity parser's
        before = re.findall(r"[\w.-]+", claim_text[:m.start()])[-1:]
        after = _next_stems(claim_text, m.end())
        if not before or len(after) < 2:
            continue
        found = None
        for sent in _twin_sentences(claim_text, evidence_text, once=False):
            for n in _DURATION.finditer(sent):
                prev = re.findall(r"[\w.-]+", sent[:n.start()])[-1:]
                if not prev or stem(prev[0]) != stem(before[0]) or _next_stems(sent, n.end()) != after:
                    continue
                if n.group("unit").lower() == m.group("unit").lower():
                    return None  # the source says it the claim's way
                found = found or (m.group(0).strip(), n.group(0).strip())
        if found:
            return found
    return None


_DECIMAL = re.compile(r"\d*\.\d+")


def _transposed(q: Quantity, e: Quantity) -> bool:
    """``q`` is written with the digits of ``e`` in another order, four digits or more (*41,723* / *14,723*), or a
    decimal with the same places and unit (*7.3%* / *3.7%*, *.68* / *.86*: a 163rd trial's *partial*, the twin
    sentence too far from the claim for the slot rule)."""
    if all(x.lo == x.hi and _DECIMAL.fullmatch(x.text.rstrip("%").strip()) for x in (q, e)):
        mine, theirs = q.text.rstrip("%").strip(), e.text.rstrip("%").strip()
        return (len(re.sub(r"\D", "", mine)) >= 2 and mine != theirs and sorted(mine) == sorted(theirs)
                and mine.index(".") == theirs.index(".") and q.unit == e.unit and len(set(mine) - {"0", "."}) >= 2)
    if not all(x.lo == x.hi == int(x.lo) and re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", x.text) and not _year(x)
               for x in (q, e)):
        return False  # whole numbers only, as written, no range, decimal or year ("12-20" / "2021", "2011" / "1,021")
    mine, theirs = re.sub(r"\D", "", q.text), re.sub(r"\D", "", e.text)
    return len(mine) >= 4 and mine != theirs and sorted(mine) == sorted(theirs) and q.unit == e.unit


_NAMED_NUMBER = re.compile(r"(?<![\w-])(?=[\w()/+-]*[A-Za-z])(?=[\w()/+-]*\d)[\w()/+-]{2,}")
"""A word of letters and digits together (*HEXXH(X)18E*, *CD4+*, *T58*)."""


_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-"})


@lru_cache(maxsize=64)
def _dashed(text: str) -> str:
    """``text`` with its dashes read as hyphens (:data:`_DASHES`), once per text."""
    return text.translate(_DASHES)


def _digits_renamed(claim_text: str, evidence_text: str, source_text: str) -> tuple[str, str] | None:
    """The claim's word of letters and digits, which the source never writes, where a sentence restating the claim
    has the same word with other digits: "HEXXH(X)16E Zn-binding" for "HEXXH(X)18E Zn-binding" (a 92nd trial:
    *partial*; the quantity parser reads no number inside a name). ``(claim's word, source's word)``, or None."""
    if not _NAMED_NUMBER.search(claim_text):
        return None
    claim_text, evidence_text, source_text = (_dashed(t) if t else t for t in (claim_text, evidence_text, source_text))
    # (a dash as a hyphen: "UreA183-230" for "UreA183\u2013203", a 168th trial's *supported*)
    for m in _NAMED_NUMBER.finditer(claim_text):
        word = m.group(0).strip("()-/+") or m.group(0)
        if word in (source_text or evidence_text) or not any(c.isdigit() for c in word):
            continue
        shape = re.sub(r"\d+", "#", word)
        for sent in _twin_sentences(claim_text, evidence_text, once=False):
            other = next((w for n in _NAMED_NUMBER.finditer(sent) if (w := n.group(0).strip("()-/+") or n.group(0))
                          != word and re.sub(r"\d+", "#", w) == shape), None)
            if other is not None:
                return word, other
        lead = WORD_RE.findall(claim_text[:m.start()])[-3:]  # else the same three words before it in any sentence: "in
        # the presence of IL-15" for "Those cells can be expanded in culture in the presence of IL-2", the sentence
        # after the one restating the claim's first half (a 164th trial: *supported*)
        if len(lead) == 3 and source_text and not re.fullmatch(r"\d+'?s", word):  # (a decade is no name: "1890s")
            said = re.compile(r"\b" + r"\W+".join(map(re.escape, lead)) + r"\W+(?P<w>[\w()/+-]+)", re.I)
            other = next((w for n in said.finditer(source_text) if (w := n.group("w").strip("()-/+.,;")) != word
                          and re.sub(r"\d+", "#", w) == shape and w not in claim_text), None)
            if other is not None:
                return word, other
    return None


def _year(q: Quantity) -> bool:
    """``q`` reads as a year: a whole number from 1900 to 2100 without a unit."""
    return q.unit == "" and q.kind == "number" and q.lo == q.hi == int(q.lo) and 1900 <= q.lo <= 2100


def detect_number_drift(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``number_drift`` when a claim quantity is not found in the evidence.

    A claim quantity that matches no quantity of the evidence fires. Its
    confidence is 0.9 when the evidence, or a source sentence sharing at
    least 30 % of the claim's content words, holds a quantity of the same
    kind (same unit or convertible, both percentages, both multipliers) that
    differs; 0.5 (reported, not downgrading) when nothing comparable is
    found anywhere, or when the quantity looks like a year (1900-2100, no
    unit). When the claim's quantity occurs anywhere in
    ``source_text`` (the evidence sentence was not the one holding it),
    nothing fires for it (for a bare integer under 100, only when it occurs
    in one of the five source sentences closest to the claim, since such
    numbers are everywhere in a long text). But when one evidence sentence
    restates the claim (at least :data:`TWIN_OVERLAP` of its content words)
    with another quantity of the same kind in its place, the claim's
    quantity drifts (0.9) wherever else it stands: "contained 96% of all
    scholarly articles" against "contained 69% of all scholarly articles.
    ... 96.2% when excluding ...". (Forgiving only quantities in sentences
    about the claim, everywhere, raised the tag on real accurate citing
    sentences of Citation-Integrity from 120 to 151 of 802: not done.) That case, shown on the restating
    sentence, marks the tag ``proven`` (it can make the verdict *unsupported*); so does a quantity of four digits or
    more written with the nearest same-kind quantity's digits in another order (*41,723* for *14,723*).

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), the whole source, optional.

    Returns:
        At most one ``number_drift`` tag, with one :class:`TagEvidence` per
        drifting quantity (claim span, nearest same-kind evidence span or '').
    """
    if not evidence_text:
        return []
    cq = [q for q in extract_quantities(claim_text) if not (q.kind == "number" and q.unit == "" and q.lo in (1.0, 0.0) and not q.approx)]
    source_text = context.get("source_text") or ""
    for_one = (_number_for_one(claim_text, evidence_text) or _date_for_date(claim_text, evidence_text, source_text)
               or _ordinal_for_ordinal(claim_text, source_text or evidence_text)
               or _digits_renamed(claim_text, evidence_text, source_text)
               or _duration_for_duration(claim_text, evidence_text)
               or _times_for_times(claim_text, source_text or evidence_text)
               or _count_of_same(claim_text, evidence_text))
    if not cq and for_one is None:
        return []
    all_but = _all_but(evidence_text)
    eq = extract_quantities(evidence_text) + all_but
    spans: list[TagEvidence] = []
    conf = 0.0
    only_near = False  # a spanned quantity was looked for in the sentences about the claim only
    proven = False  # a quantity drifts in the very sentence that restates the claim
    twin_share, twin_q = _twin_quantities(claim_text, evidence_text)
    if not twin_q and source_text and len(source_text) <= TWIN_SOURCE_MAX:
        twin_share, twin_q = _twin_quantities(claim_text, source_text)  # the restating sentence outside the passage judged ("A
        # total of 438 female patients ... were included" for "A total of 384 ...", a 138th trial: *partial*)
    twin_q = twin_q + all_but if twin_q else twin_q
    for q in cq:
        # a value the claim states itself is no slot; a claim range covering it ("range, 1 to 65" over "12.9 months",
        # a fifteenth trial) does not state it
        # each other claim quantity takes one of the sentence's that it states (a sentence saying "two" twice keeps
        # one "two" for the claim's "three", a 26th trial: "heal in three divergent ways, similar to the two ways")
        taken: set[int] = set()
        for c in cq:
            if c is not q:
                k = next((k for k, e in enumerate(twin_q) if k not in taken and quantities_match(c, e)
                          and not (c.lo != c.hi and e.lo == e.hi)), None)
                taken |= {k} if k is not None else set()
        slot = [e for k, e in enumerate(twin_q) if k not in taken and _same_kind(q, e)]
        if slot and not any(quantities_match(q, e) for k, e in enumerate(twin_q) if k not in taken) and not (source_text and any(
                _states(q, e) and (share >= twin_share - NEAR_MISS or _year(q) or _beside_alike(claim_text, q, sent, e))
                and not (q.unit and not e.unit and share >= twin_share)  # a bare number of the restating sentence
                and not ("." in q.text and not q.unit and e.unit)  # (nor a percentage a bare decimal: "28.0" of "7.7,
                # 28.0, and 15.0 months" for "38.0", excused by a "28%" elsewhere, a 177th trial's *supported*)
                # itself states no duration ("ten embryos" for "within 10 min", a 153rd trial)
                for share, sent in sentences_about(claim_text, source_text, floor=0.3)
                for e in extract_quantities(sent))):
            # ... unless another sentence about the claim states the claim's quantity: the restating sentence was a
            # near miss ("MSM ... accounting for 61% of new HIV infections in 2009" met "increase in new HIV
            # infections of 48%" first; "In 2009, MSM accounted for 61% of new infections" says it), one nearly as
            # close to the claim or with the claim's word beside the quantity; not the "(>4N)" of "subsequent cycles
            # (>4N) require ECT2 downregulation" for "proliferation of 4N megakaryocytes" where the restating
            # sentence says "proliferation of 2N Mks" (a 154th trial: *supported*); a year anywhere about the claim
            # still does (the page's own date: "won the national student cup in 2019" for "this year", WiCE)
            # the evidence sentence that restates the claim holds another quantity in its place
            spans.append(TagEvidence(q.text, min(slot, key=lambda e: abs(e.lo - q.lo)).text))
            conf = max(conf, 0.9)
            proven = True
            continue
        if any(quantities_match(q, e) for e in eq):
            continue
        if (one := _one_in_place(claim_text, q, evidence_text)) is not None:
            # "two H2A.Z-H2B dimers at a time" for "one H2A.Z-H2B dimer at a time" (a 46th trial: "one" is no quantity
            # to the parser, a pronoun as often as a number)
            spans.append(TagEvidence(q.text, one))
            conf, proven = max(conf, 0.9), True
            continue
        if q.unit == "" and q.lo == q.hi == int(q.lo) >= 100 and re.search(  # a year is such a number too
                rf"(?<![\d.,]){int(q.lo)}(?![\d.,]\d)", source_text or evidence_text):
            continue  # a year the source writes in a date ("from January 2011 to December 2015", a 25th trial), or a
            # number it writes inside a name ("serine 186" for "Ser186", a 52nd)
        common = q.unit == "" and q.kind == "number" and q.lo == int(q.lo) and abs(q.lo) < 100
        if common and q.lo == q.hi and (joined := re.match(r"[-\s]([a-z]{3,})", claim_text[q.end:] if q.end else "")) \
                and re.search(rf"(?<![\d.,]){int(q.lo)}-{joined.group(1)}\b", source_text or evidence_text):
            continue  # the source writes it as a compound the parser leaves out ("seven-item" for "the 7-item
            # Relationship Assessment Scale": a 164th trial's faithful claim, drift against "125", *unsupported*)
        if common:
            # small bare integers occur everywhere in a long text: forgive only in sentences about the claim
            near = [e for sent in relevant_sentences(claim_text, source_text, k=5, floor=0.3)
                    for e in extract_quantities(sent)]
            if any(e.unit == "" and quantities_match(_exact(q), e) for e in near):
                continue
            only_near = True
        elif source_text and any(e.unit.lower() == q.unit.lower() and quantities_match(_exact(q), e)
                                 and (q.lo == q.hi or e.lo != e.hi) for e in _source_quantities(source_text)):
            continue  # found elsewhere in the source (a range only as the same range)
        same = [e for e in eq if _same_kind(q, e)]
        if not same and source_text:
            # the number-bearing sentence may not be the best passage: look for a comparable
            # quantity in a source sentence about the same thing
            for _share, sent in sentences_about(claim_text, source_text, floor=0.3):
                same.extend(e for e in extract_quantities(sent) if _same_kind(q, e))
        year_like = _year(q)
        mixed = None if len(re.sub(r"\D", "", q.text)) < 4 and not _DECIMAL.search(q.text) else next(  # (four digits or more: no source read else)
            (e for e in [*eq, *(_source_quantities(source_text) if source_text and not _DECIMAL.fullmatch(
                q.text.rstrip("%").strip()) else ())] if _transposed(q, e)), None)  # (a decimal in the passage only)
        if mixed is not None:  # the source's digits in another order ("41,723 died" for "14,723", an 88th trial)
            spans.append(TagEvidence(q.text, mixed.text))
            conf, proven = max(conf, 0.9), True
            continue
        if same and year_like:
            spans.append(TagEvidence(q.text, ""))
            conf = max(conf, 0.5)
        elif same:
            near = min(same, key=lambda e: abs(math.log10(abs(e.lo) + 1e-12) - math.log10(abs(q.lo) + 1e-12)))
            if quantities_match(q, near):
                continue  # a sentence about the claim states it ("one of 26 clinical brain disorders": the drift
                # had said "'26' where the evidence says '26'", a faithful Citation-Integrity citation)
            spans.append(TagEvidence(q.text, near.text))
            conf = max(conf, 0.9)

        else:
            spans.append(TagEvidence(q.text, ""))
            conf = max(conf, 0.5)
    if for_one is not None:
        spans.append(TagEvidence(*for_one))
        conf, proven = max(conf, 0.9), True
    if not spans:
        return []
    first = spans[0]
    if first.evidence_span:
        msg = f"The claim says {first.claim_span!r} where the evidence says {first.evidence_span!r}."
    else:
        where = "in the source's sentences about the claim" if only_near else "the source"
        msg = f"The claim's quantity {first.claim_span!r} appears nowhere in the evidence or {where}."
    return [Tag("number_drift", msg, conf, tuple(spans), proven=proven)]
