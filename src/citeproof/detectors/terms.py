"""What counts as one term, shared by ``term_swap`` (:mod:`citeproof.detectors.swaps`) and the reversal rules
(:mod:`citeproof.detectors.restated`, :mod:`citeproof.detectors.reversals`, :mod:`citeproof.detectors.scope`).

Two word runs name the same thing (:func:`same_term`, :func:`_related`) when they share stems, one is inside the
other, one spells the other's initials or the source defines one by the other, they are words of the paraphrase
vocabulary (:data:`~citeproof.detectors.lexicon.SYNONYMS`), one word in another spelling, or one derived from the
other; a demonstrative stands for what the claim names (:func:`names_referent`); words the source states elsewhere
are context (:func:`stated_in`). A sentence holding :data:`RESTATE_AT` of the claim's content words restates it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from citeproof.detectors.cues import CUE_RES
from citeproof.detectors.lexicon import (DIRECTION, NEGATIVE_PREFIX, REPORTING, SYNONYMS, VERB_FORMS, VERBS, _other_first_part,
                                         derivation, inside, letter_for_letter, opposed_prefixes, past_shared_parts,
                                         same_phrase, stands_in, unprefixed, VOCABULARY)
from citeproof.text.abbreviations import defined_abbreviations
from citeproof.text.normalise import ascii_hyphens, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, content_stems, overlap_score

__all__ = ["RESTATE_AT", "kind_of_defined", "names_referent", "restating", "same_term", "stated_in"]

RESTATE_AT = 0.6
"""Least share of the claim's content words (:func:`~citeproof.text.stems.overlap_score`) an evidence
sentence must hold to restate the claim (as ``number_drift``'s :data:`~citeproof.detectors.numbers.TWIN_OVERLAP`)."""


def _is_verb(w: str) -> bool:
    """``w`` is written as one of the common verbs (:data:`VERB_FORMS`, :data:`REPORTING`, or their -ing form): ``holds``,
    ``containing``; not a noun made from one (``expression``, ``contribution``, whose stems are the verbs')."""
    lw = w.lower()
    return lw in VERB_FORMS or lw in REPORTING or (lw.endswith("ing") and stem(lw) in VERBS)


def _cue(w: str) -> frozenset[str]:
    """The direction classes of :data:`citeproof.detectors.cues.CUE_RES` ``w`` is a cue of (*impaired*: ``bad``)."""
    return frozenset(c for c, rx in CUE_RES.items() if rx.match(w.lower()))


def _is_name(w: str) -> bool:
    """``w`` is written as a symbol or acronym (a digit, or a capital past its first letter: ``TRF2``, ``miR-142``,
    ``FDA``): one that stands elsewhere in the restating sentence is the sentence's own word, reordered."""
    return any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:])


_TOKEN = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9α-ωΑ-Ω'\-]*[A-Za-z0-9α-ωΑ-Ω]|[A-Za-z]")
"""A word: Greek letters inside it belong to it (``ERα``, ``TNF-α``: ``ERβ`` for ``ERα`` is a swap), or open it
(``ω-7`` for ``ω-9``, a 47th trial)."""
"""Words, and names that carry digits (``IL-10``, ``PD-L1``, ``miR-142``): one of them for another is a swap too."""


def _words(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(ascii_hyphens(text))]


def _content(w: str) -> bool:
    if len(w) >= 2 and w.isupper():
        return True  # an acronym (WHO, FDA) even where the lower-cased word is a stop word
    return len(w) >= 3 and w.lower() not in STOPWORDS


def _spells(short: str, words: list[str]) -> bool:
    """``short`` is in the initials of ``words`` (hyphen and slash parts counted), or they in it: ``FDA`` /
    ``US Food Drug Administration``."""
    initials = "".join(p[0] for w in words for p in re.split(r"[-/]", w) if p).upper()
    # two initials at least: one word's first letter is in any name that opens with it (HOXA9 / HOXA10, a trial 11 swap)
    return len(initials) >= 2 and (short.upper() in initials or initials in short.upper())


def _abbreviates(short: str, words: list[str], source_text: str) -> bool:
    """``short`` is an acronym of ``words`` (initials, hyphen parts counted) or the source defines one by the other."""
    if not (short.isupper() and 2 <= len(short) <= 8):
        return False
    if _spells(short, words):
        return True
    long = " ".join(words)
    return bool(re.search(rf"{re.escape(long)}[^.()]{{0,40}}\(\s*{re.escape(short)}\s*[),;]", source_text, re.I)
                or re.search(rf"\b{re.escape(short)}\s*\(\s*[^()]{{0,40}}{re.escape(long)}", source_text, re.I))


def same_term(a: list[str], b: list[str], source_text: str) -> bool:
    """The word runs ``a`` and ``b`` name the same thing as the source writes it: the same stems, or one an
    abbreviation of the other that the source defines or spells (``AO`` / ``amitriptylinoxide``, ``PL`` /
    ``placebo``), word for word for runs of equal length (``amitriptylinoxide, amitriptyline`` / ``AO, AM``).

    Args:
        a, b: words as written (case kept: an abbreviation is upper-case).
        source_text: the whole source, where an abbreviation is defined.

    Returns:
        True when they name the same thing; never for a synonym or another word of the same kind.
    """
    if [stem(w) for w in a] == [stem(w) for w in b]:
        return True
    if (len(a) == 1 and _abbreviates(a[0], b, source_text)) or (len(b) == 1 and _abbreviates(b[0], a, source_text)):
        return True
    if source_text and (len(a) == 1 or len(b) == 1):  # a short form the source defines whatever its letters
        defined = defined_abbreviations(source_text)  # ("beta cell-derived iPSCs (BiPSCs)", a 96th trial)
        for short, long in ((a, b), (b, a)):
            if len(short) != 1:
                continue
            if defined.get(short[0].lower()) == tuple(w.lower() for w in long):
                return True
            got = defined.get(short[0].lower() + "s")  # the singular of a plural one, by stem ("for Mk
            if got and [stem(w) for w in got] == [stem(w) for w in long]:  # polyploidization" where the source
                return True  # defines "megakaryocytes (Mks)", a 154th trial)
    # a short form in the plural ("RFBs" for "replication fork barriers (RFB)", a 64th trial)
    if len(a) == 1 and a[0].endswith("s") and a[0][:-1].isupper() and _abbreviates(a[0][:-1], b, source_text):
        return True
    if len(b) == 1 and b[0].endswith("s") and b[0][:-1].isupper() and _abbreviates(b[0][:-1], a, source_text):
        return True
    return len(a) == len(b) > 1 and all(same_term([x], [y], source_text) for x, y in zip(a, b))


def kind_of_defined(run: list[str], sentence: str, source_text: str) -> bool:
    """The last two words or more of ``run`` end a long form the source defines whose short form stands in the source
    sentence holding ``sentence`` (a sentence or one of its clauses): the claim names the kind of thing the sentence's short form is ("In endothelial cells, VEGFR2
    activates Arf6" for "HUVECs ... VEGFR2 recruits GEP100 to activate Arf6", *HUVECs* defined as *human umbilical
    vein endothelial cells*; a 105th trial's faithful claim was *unsupported* by a proven swap of 'cells')."""
    if len(run) < 2 or not source_text:
        return False
    whole = next((x for x in split_sentences(source_text) if sentence.strip(" .") in x), sentence)
    said = {w.lower().rstrip("s") for w in re.findall(r"[\w-]+", whole)}
    tail = [stem(w.lower()) for w in run]
    for short, long in defined_abbreviations(source_text).items():
        if short.rstrip("s") not in said:
            continue
        stems = [stem(w) for w in long]
        if any(tail[-n:] == stems[-n:] for n in range(2, min(len(tail), len(stems)) + 1)):
            return True
    return False


def _agent(word: str) -> bool:
    """``word`` names what does a verb of the paraphrase vocabulary (*enhancer*, *promoter*, *inhibitor*,
    *activator*), not the verb (*discover* is none)."""
    w = word.lower()
    w = w[:-1] if w.endswith(("ers", "ors")) else w
    return w.endswith(("er", "or")) and w not in VOCABULARY and any(
        x in VOCABULARY for x in (w[:-1], w[:-2], w[:-2] + "e"))


def _related(a: list[str], b: list[str], source_text: str) -> bool:
    """True when the two word runs may say the same thing (not a swap)."""
    sa, sb = {stem(w) for w in a}, {stem(w) for w in b}
    if sa & sb:
        return True
    la, lb = " ".join(a).lower(), " ".join(b).lower()
    if inside(la, lb) or inside(lb, la) or re.sub(r"[\s\-]", "", la) == re.sub(r"[\s\-]", "", lb):
        return True  # one inside the other, or one compound written apart, hyphenated or closed (``side chains``)
    one, many = (a, b) if len(a) < len(b) else (b, a)
    if len(one) == 1 and len(many) > 1 and any(len(w) >= 6 and one[0].lower().find(stem(w.lower())[:6]) >= 2
                                               for w in many):
        return True  # one prefixed word for a phrase ("antiapoptotic" / "resistant to apoptosis", a 134th trial's
        # faithful claim); a word opening alike is no such ("autoantigens" / "targeted autoantibodies")
    agents = any(map(_agent, a + b))  # enhancers / promoters: two elements, not the verbs *enhance* / *promote* of
    # one synonym group (a 46th trial's swap was *supported*)
    if (any(SYNONYMS.get(x, frozenset()) & sb for x in sa) and not agents) or same_phrase(sa, sb):
        return True
    if {unprefixed(x) for x in sa if NEGATIVE_PREFIX.match(x)} & {unprefixed(y) for y in sb if NEGATIVE_PREFIX.match(y)}:
        return True  # one negated word in two forms (*unstable* / *instability*, a ninth trial), both negated
    if not agents and (sa & DIRECTION or sb & DIRECTION or (any(map(_is_verb, a)) and any(map(_is_verb, b)))):
        return True  # a direction word is polarity_flip's; one common verb for another is a paraphrase
    if not agents and any(_cue(x) and _cue(x) & _cue(y) for x in a for y in b):
        return True  # two cues of one direction ("impaired" / "disrupted", an eighth trial); opposite ones are a swap
        # that polarity_flip proves a reversal (polarity._swap_shown reads this alignment)
    if len(a) == 1 and _abbreviates(a[0], b, source_text):
        return True
    if len(b) == 1 and _abbreviates(b[0], a, source_text):
        return True
    if len(a) == len(b) > 1 and all(_related([x], [y], source_text) for x, y in zip(a, b)):
        return True  # word for word alike: "amitriptylinoxide, amitriptyline" / "AO, AM", each defined by the source
    for x in a:  # a shared prefix of 5+ letters: a derivation (immunity / immunisation), not another term
        for y in b:
            x2, y2 = past_shared_parts(x, y)
            if not x2 or not y2:
                return True  # one compound holds the other's parts (``UCP1-dependent`` / ``UCP1``)
            if derivation(x2.lower(), y2.lower()):
                return True
            if (len(x2) >= 4 and len(y2) >= 4 and fuzz.ratio(x2.lower(), y2.lower()) >= 80 and not opposed_prefixes(x2, y2)
                    and not _other_first_part(x2.lower(), y2.lower())
                    and not letter_for_letter(x2.lower(), y2.lower())
                    and not (stands_in(x2, source_text) and stands_in(y2, source_text))):
                return True  # one spelling for another (metres / meters, tumour / tumor, haem / hem)
    return False


_DEMONSTRATIVE = frozenset({"this", "these", "that", "those", "such", "it", "they", "latter", "former", "the"})


def names_referent(claim_words: list[str], sent_words: list[str], source_text: str) -> bool:
    """The claim names what the sentence points back to: the sentence's words are only a demonstrative (*This*
    complex, *These* cells, *the latter*) and every part of the claim's words (hyphen parts too: *beta6-Fyn-FAK*) stands
    in the source ("The beta6-Fyn-FAK complex was necessary ..." for "This complex was necessary ...", a twelfth trial)."""
    content = [w for w in claim_words if w.lower() not in STOPWORDS]
    if not content or not sent_words or not all(w.lower() in _DEMONSTRATIVE for w in sent_words):
        return False
    parts = [p for w in content for p in re.split(r"[-/]", w) if p]
    # a part is in the source, or an acronym of words it writes out (FAK: "focal adhesion kinase")
    return all(stated_in([p], source_text) or (p.isupper() and p in _initials(source_text)) for p in parts)


@lru_cache(maxsize=16)
def _initials(source_text: str) -> frozenset[str]:
    """The initials of every run of 2-6 consecutive words of ``source_text``, upper case (cached: one source)."""
    words = _words(source_text)
    return frozenset("".join(w[0] for w in words[k:k + n]).upper() for n in range(2, 7) for k in range(len(words) - n + 1))


def stated_in(words: list[str], source_text: str) -> bool:
    """Every word of ``words`` (content words: 3+ letters, no stop words) is in ``source_text``, compared by stem
    (context a claim adds that the source states elsewhere: "among cancer survivors")."""
    have = content_stems(source_text) if source_text else frozenset()  # cached: one source, many claims
    return bool(have) and all(stem(w) in have for w in words)


def restating(claim_text: str, pool: list[str]):
    """``(passage, sentence)`` for each sentence of the ``pool`` passages restating the claim (at least
    :data:`RESTATE_AT` of its content words, :func:`~citeproof.text.stems.overlap_score`), in pool order."""
    for passage in pool:
        for sent in split_sentences(passage):
            if overlap_score(claim_text, sent) >= RESTATE_AT:
                yield passage, sent
