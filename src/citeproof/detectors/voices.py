"""Who does what to whom, read across the two voices of a verb, and a degree that one word governs for two nouns
(issue 28). Tried by :func:`citeproof.detectors.reversals.restated_flip` after the other rules; code shows each:
``polarity_flip`` at 0.9, ``proven``. Found by new users' trials on SciFact abstracts (session 24, docs/meaning.md).

- :func:`voice_exchanged`: "Virulence selection constrains the correlations" for "virulence selection is
  constrained by correlations" (the claim makes the thing acted on the actor);
- :func:`degree_turned_in_conjunct`: "at low pH and high oxygen tension" for "at low pH and oxygen tension" (the
  source's *low* governs both nouns; the claim gives the second the opposite degree);
- :func:`terms_exchanged`: "All patients with bone metastases had liver metastases" for "All patients with liver
  metastases had bone metastases" (two terms exchanged around the relation the claim shares with the source).
"""

from __future__ import annotations

import difflib
import re

from citeproof.detectors.cues import (ANTONYMS, BE_FORMS, CUE_RES, DEGREE, HAVE_FORMS, MODALS, NEGATOR,
                                     light_token)
from citeproof.detectors.terms import restating
from citeproof.text.stems import overlap_score
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences

__all__ = ["voice_exchanged", "degree_turned_in_conjunct", "ends_exchanged_around", "phrases_exchanged_around",
           "terms_exchanged"]

_WORD = re.compile(r"[\w][\w'-]*|[,;:()]")
"""A word (its hyphens and apostrophes inside it) or a clause mark."""
_BE = BE_FORMS
_BETWEEN = MODALS | HAVE_FORMS | frozenset({"shall", "also", "not", "further", "thereby", "then", "still", "only", "often",
                                           "always"})
"""Words that may stand between a subject and its verb (a modal, *also*, *not*) or between a verb and *by*."""
_DETERMINERS = frozenset({"the", "a", "an", "these", "this", "those", "that", "its", "their", "his", "her", "our",
                          "such", "both", "each", "all", "any", "some"})


def _content(w: str) -> bool:
    return w[:1].isalnum() and not light_token(w.lower()) or (len(w) >= 2 and any(c.isdigit() for c in w))


def _key(w: str) -> str:
    return stem(w.lower())


def _object(toks: list[str], k: int) -> str | None:
    """The first content word after ``toks[k]``, past determiners only."""
    for w in toks[k + 1:k + 4]:
        if w.lower() in _DETERMINERS:
            continue
        return w if _content(w) else None
    return None


def _subject(toks: list[str], k: int) -> str | None:
    """The content word right before ``toks[k]``, past modals, *also*, *not* and adverbs in *-ly* only."""
    j = k - 1
    while j >= 0 and (toks[j].lower() in _BETWEEN or toks[j].lower().endswith("ly")):
        j -= 1
    return toks[j] if j >= 0 and _content(toks[j]) else None


def _passive(toks: list[str]) -> list[tuple[str, str, str]]:
    """``(verb stem, agent, patient)`` of each *X is V-ed by Y* (adverbs and *not* may stand between)."""
    out = []
    for k, w in enumerate(toks):
        if not (w.lower().endswith(("ed", "en")) and k + 1 < len(toks) and toks[k + 1].lower() == "by"):
            continue
        j = k - 1
        while j >= 0 and (toks[j].lower() in _BETWEEN or toks[j].lower().endswith("ly")):
            j -= 1
        if j < 1 or toks[j].lower() not in _BE:
            continue
        patient, agent = _subject(toks, j), _object(toks, k + 1)
        if patient and agent:
            out.append((_key(w), _key(agent), _key(patient)))
    return out


def _active(toks: list[str], verb: str) -> list[tuple[str, str, str]]:
    """``(verb stem, agent, patient)`` of each use of the verb ``verb`` (a stem) in the active voice: not after a
    form of *be*, not before *by*, a content word before it and one after."""
    out = []
    for k, w in enumerate(toks):
        if _key(w) != verb or (k + 1 < len(toks) and toks[k + 1].lower() == "by"):
            continue
        before = [t.lower() for t in toks[max(0, k - 3):k]]
        if _BE & set(before):
            continue
        agent, patient = _subject(toks, k), _object(toks, k)
        if agent and patient:
            out.append((verb, _key(agent), _key(patient)))
    return out


def _relations(toks: list[str], verbs: set[str]) -> list[tuple[str, str, str]]:
    """Every ``(verb stem, agent, patient)`` of ``toks`` in either voice, for the verbs ``verbs`` (active uses) and
    every passive."""
    return _passive(toks) + [r for v in verbs for r in _active(toks, v)]


def voice_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's actor and the thing acted on exchanged, read across voices: the claim's *S V O* (or *O is V-ed
    by S*) where a sentence restating the claim has *S is V-ed by O* (or *S V O*'s reverse). "Virulence selection
    constrains the correlations between external and focal settings" for "virulence selection is constrained by
    correlations between these external and focal settings" (a 75th trial: *supported*, P(entails) 0.89). The verb
    must be the same (by stem), each side's nearest content word the same; no sentence of the source has the
    claim's reading. Code shows it: confidence 0.9, ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (a sentence saying it the claim's way stops the tag).

    Returns:
        A ``polarity_flip`` tag, or None.
    """
    ctoks = _WORD.findall(claim_text)
    claim_passive = _passive(ctoks)
    theirs = [(sent, _WORD.findall(sent)) for _passage, sent in restating(claim_text, pool)]
    if not theirs:
        return None
    verbs = {v for _s, t in theirs for v, _a, _p in _passive(t)} | {v for v, _a, _p in claim_passive}
    mine = set(_relations(ctoks, verbs))
    for verb, agent, patient in mine:
        if agent == patient:
            continue
        for sent, toks in theirs:
            if (verb, patient, agent) not in _relations(toks, {verb}):
                continue
            if any((verb, agent, patient) in _relations(_WORD.findall(s), {verb})
                   for s in split_sentences(source_text or " ".join(pool))):
                continue  # the source says it the claim's way too
            said = {_key(w): w for w in toks} | {_key(w): w for w in ctoks}  # the words as written, the claim's first
            word, a, p = said.get(verb, verb), said.get(agent, agent), said.get(patient, patient)
            return Tag("polarity_flip", f"The claim makes {a!r} act on {p!r} ({word}) where the source has {p!r} "
                       f"act on {a!r} (the one acting and the one acted on exchanged): \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(a, p),), proven=True)
    return None


_OPPOSITE = {a: b for pair in ANTONYMS if len(pair) == 2 for a, b in (tuple(pair), tuple(pair)[::-1])}


def degree_turned_in_conjunct(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """One degree word governing two nouns in the source (*low pH and oxygen tension*) given the second noun in its
    opposite degree by the claim (*low pH and high oxygen tension*: a 76th trial's claim was *supported*, P(entails)
    0.92). The sentence restates the claim and holds the claim's words *W X and Y* without the opposite degree word;
    no source sentence says *opposite-W Y*. Code shows it: confidence 0.9, ``proven``."""
    words = "|".join(sorted((re.escape(w) for w in _OPPOSITE if " " not in w), key=len, reverse=True))
    pattern = re.compile(rf"\b({words})\s+((?:[\w-]+\s+){{0,2}}?[\w-]+)\s+(and|or)\s+({words})\s+([\w-]+)", re.I)
    for m in pattern.finditer(claim_text):
        first, x, conj, second, y = m.groups()
        if _OPPOSITE.get(first.lower()) != second.lower():
            continue
        shared = re.compile(rf"\b{re.escape(first)}\s+{re.escape(x)}\s*,?\s+{conj}\s+{re.escape(y)}\b", re.I)
        for _passage, sent in restating(claim_text, pool):
            if not shared.search(sent):
                continue
            said = re.compile(rf"\b{re.escape(second)}\s+{re.escape(y)}\b", re.I)
            if any(said.search(s) for s in split_sentences(source_text or " ".join(pool))):
                break
            return Tag("polarity_flip", f"The claim says '{second} {y}' where the source's {first!r} governs both "
                       f"'{x}' and '{y}': \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(f"{second} {y}", f"{first} {x} {conj} {y}"),), proven=True)
    return None


def _window(toks: list[str], start: int, stop: int) -> list[int]:
    """Indices of the content words of ``toks[start:stop]`` nearest the core first, not past a clause mark."""
    step = 1 if stop > start else -1
    out = []
    for k in range(start, stop, step):
        if not 0 <= k < len(toks) or toks[k] in ",;:()":
            break
        if _content(toks[k]):
            out.append(k)
    return out


def _core_ends(toks: list[str], keys: list[str], at: int, size: int, before: int, after: int) -> tuple[set[str], set[str]]:
    """The content stems within ``before`` words before the core ``keys[at:at + size]`` and ``after`` words after it."""
    return ({keys[k] for k in _window(toks, at - 1, at - 1 - before)},
            {keys[k] for k in _window(toks, at + size, at + size + after)})


def ends_exchanged_around(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The words on the two sides of a run the claim shares with a sentence restating it, exchanged: "the
    psychiatric staff delivered education to the pharmacists" for "the impact pharmacists have in delivering
    education to the psychiatric staff" (a 78th trial: *supported*, P(entails) 0.95), "HIF-1alpha provides a route
    for the degradation of p53" for "p53 provides a route for the degradation in hypoxic tumor cells of HIF-1alpha"
    (a 76th: *supported*). The shared run holds two content words or more (the relation); the claim's nearest content
    word before it stands after it in the sentence (within seven words) and its nearest after it stands before it
    (within five), neither on its own side too; no sentence of the source has the claim's order around the run.
    Code shows it: confidence 0.9, ``proven``."""
    ctoks = _WORD.findall(claim_text)
    ckeys = [_key(w) for w in ctoks]
    for _passage, sent in restating(claim_text, pool):
        stoks = _WORD.findall(sent)
        skeys = [_key(w) for w in stoks]
        blocks = difflib.SequenceMatcher(None, ckeys, skeys, autojunk=False).get_matching_blocks()
        for a, b, size in blocks:
            if size < 2 or sum(_content(w) for w in ctoks[a:a + size]) < 2:
                continue
            cb, ca = _window(ctoks, a - 1, a - 4), _window(ctoks, a + size, a + size + 4)
            if not cb or not ca:
                continue
            x, y = ckeys[cb[0]], ckeys[ca[0]]
            if x == y:
                continue
            s_before, s_after = _core_ends(stoks, skeys, b, size, 5, 7)
            if not (x in s_after and y in s_before and x not in s_before and y not in s_after):
                continue
            there = next(k for k in _window(stoks, b + size, b + size + 7) if skeys[k] == x)
            if _lead_in(ctoks, ca[0], a + size) != _lead_in(stoks, there, b + size):
                continue  # "cycling controls ... in beige fat" for "beige fat controls ... via Ca2+ cycling": the
                # word after the run is tied to it by another preposition (a faithful SciFact claim)
            core = ckeys[a:a + size]
            if _said_so(core, x, y, source_text or " ".join(pool)):
                continue
            return Tag("polarity_flip", f"The claim has {ctoks[cb[0]]!r} before '{' '.join(ctoks[a:a + size])}' and "
                       f"{ctoks[ca[0]]!r} after it, where the source has them the other way round: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(ctoks[cb[0]], ctoks[ca[0]]),), proven=True)
    return None


def _lead_in(toks: list[str], k: int, core_end: int) -> str:
    """The word that ties ``toks[k]`` to the run ending at ``core_end`` (the nearest preposition before it, past
    articles and the words of its own phrase: *of* in "... in hypoxic tumor cells of HIF-1alpha"), or ``""`` where
    its phrase follows the run directly."""
    j = k - 1
    while j >= core_end and (toks[j].lower() in ("the", "a", "an") or _content(toks[j])):
        j -= 1
    return toks[j].lower() if j >= core_end else ""


def _said_so(core: list[str], x: str, y: str, source_text: str) -> bool:
    """A sentence of the source has ``x`` before the run ``core`` and ``y`` after it (the claim's order)."""
    n = len(core)
    for s in split_sentences(source_text):
        toks = _WORD.findall(s)
        keys = [_key(w) for w in toks]
        for k in range(len(keys) - n + 1):
            if keys[k:k + n] == core:
                before, after = _core_ends(toks, keys, k, n, 5, 7)
                if x in before and y in after:
                    return True
    return False


_SYMMETRIC = re.compile(r"(?:versus|vs|with|between|interact|bind|bound|associat|correlat|compar|similar|differ|"
                        r"link|overlap|contact|fus|equal|same|like)", re.I)
"""Words between two terms that make their order free ("A interacts with B", "A versus B")."""
_COORDINATORS = frozenset({"and", "or", "nor", "either", "neither"})
_POSSESSIVES = frozenset({"its", "their", "his", "her"})


def _named(toks: list[str], k: int) -> bool:
    """``toks[k]`` is a term: a content word, or a short name in capitals past the first word (*Myc*, *Tat*)."""
    return _content(toks[k]) or (k > 0 and len(toks[k]) >= 2 and toks[k][:1].isupper() and toks[k].isalnum())


def _at(blocks, i: int, j: int, last: int = -1) -> bool:
    """The claim's word ``i`` is aligned to the sentence's word ``j`` inside a matching block of two words or more (or
    of one where ``i`` is ``last``, the claim's last word: "regulates the expression of STAT3" for "... of the Myc
    transcription factor", a 93rd trial)."""
    return any(a <= i < a + n and b + (i - a) == j and (n >= 2 or i == last) for a, b, n in blocks)


def terms_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """Two content terms of a sentence restating the claim exchanged in the claim around the relation they share:
    "All patients with bone metastases had liver metastases" for "All patients with liver metastases had bone
    metastases" (an 86th trial: *partial*), "Both RhoA and its substrate, the guanine nucleotide exchange factor
    Vav2" for "Both Vav2 and its substrate, the small GTPase RhoA" (an 83rd: *supported*, P(entails) 0.68).

    Each term stands once in the claim and once in the sentence, in the other order, at most twelve words apart;
    putting each in the other's place aligns it inside a run of two words or more and adds two aligned words or
    more; a run of two words or more the two sides share between the terms holds a content word (the relation), and
    neither term is an adverb in *-ly* ("behavior changed abruptly" for "an abrupt change in behavior"); no word
    between them in the claim makes their order free (:data:`_SYMMETRIC`: *with*, *interacts*, *correlates*; a
    coordinator not followed by a possessive: "Liver weight and body weight" for "Body weight and liver weight"); the
    remaining differences hold no direction, degree or negation word ("B is lower than A" for "A is higher than B" is
    faithful); no sentence of the source has the claim's order around the relation. Code shows it: confidence 0.9,
    ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (a sentence saying it the claim's way stops the tag).

    Returns:
        A ``polarity_flip`` tag, or None.
    """
    ctoks = _WORD.findall(claim_text)
    ckeys = [_key(w) for w in ctoks]
    for _passage, sent in restating(claim_text, pool):
        stoks = _WORD.findall(sent)
        skeys = [_key(w) for w in stoks]
        for i, l in ((i, l) for i in range(len(ckeys)) for l in range(i + 1, min(len(ckeys), i + 13))):
            x, y = ckeys[i], ckeys[l]
            if x == y or not (_named(ctoks, i) and _named(ctoks, l)) or not all(
                    ckeys.count(k) == 1 and skeys.count(k) == 1 for k in (x, y)):
                continue
            j, m = skeys.index(x), skeys.index(y)
            if m > j or any(_SYMMETRIC.match(w) or w in ";:()" for w in ctoks[i + 1:l]) or any(
                    ctoks[c].lower() in _COORDINATORS and ctoks[c + 1].lower() not in _POSSESSIVES
                    for c in range(i + 1, l)):
                continue  # "Liver weight and body weight" for "Body weight and liver weight": a coordination, order
                # free; not "RhoA and its substrate, ... Vav2" (what follows names a relation)
            # the claim's words around the two only (a clause the sentence moved elsewhere aligns apart: "With regard
            # to substrate specificity, ..., BsPif1 differs from human Pif1" for "BsPif1 is different from yeast Pif1,
            # ... with regard to substrate specificity", a 92nd trial)
            a0, b0 = max(0, i - 5), min(len(ckeys), l + 6)
            near = ckeys[a0:b0]
            moved = near[:i - a0] + [y] + near[i - a0 + 1:l - a0] + [x] + near[l - a0 + 1:]
            base = sum(n for _a, _b, n in difflib.SequenceMatcher(None, near, skeys, autojunk=False).get_matching_blocks())
            blocks = [(a + a0, b, n) for a, b, n in
                      difflib.SequenceMatcher(None, moved, skeys, autojunk=False).get_matching_blocks()]
            if sum(n for _a, _b, n in blocks) < base + 2 or not (
                    _at(blocks, i, m) and _at(blocks, l, j, len(ckeys) - 1)):
                continue
            whole = ckeys[:i] + [y] + ckeys[i + 1:l] + [x] + ckeys[l + 1:]
            lo, hi = max(((max(a, i + 1), min(a + n, l)) for a, _b, n in blocks), key=lambda r: r[1] - r[0])
            if hi - lo < 2 or not any(_content(w) for w in ctoks[lo:hi]) or _turned(whole, skeys) or any(
                    w.lower().endswith("ly") for w in (ctoks[i], ctoks[l])):
                continue  # the relation must be two words or more the two share ("behavior changed abruptly" for "an
                # abrupt change in behavior" is a nominalisation, a 77th trial's faithful claim), between terms
            if (_in_order(x, ckeys[lo:hi], y, source_text or " ".join(pool)) or _voice_turned(claim_text, sent)
                    or _closer_in_order(claim_text, x, y, sent, pool)):
                continue
            run = re.sub(r" ([,;:)])", r"\1", " ".join(ctoks[lo:hi]))
            run = re.sub(r"(?:[\s,]+(?:the|a|an))+[\s,]*$|^(?:(?:the|a|an)[\s,]+)+|,$", "", run, flags=re.I)
            return Tag("polarity_flip", f"The claim exchanges {ctoks[i]!r} and {ctoks[l]!r} around "
                       f"'{run}': the source has them the other way round, \u201c{sent[:200]}\u201d",
                       0.9, (TagEvidence(ctoks[i], ctoks[l]),), proven=True)
    return None


def _closer_in_order(claim_text: str, x: str, y: str, sent: str, pool: list[str]) -> bool:
    """Another pool sentence restates the claim at least as closely as ``sent`` and has ``x`` before ``y`` (keys), as
    the claim does: "Expression of the SASP is governed by IL-1 signalling that depends on the inflammasome" read
    against "The inflammasome and IL-1 signalling are activated ..." when "Expression of the SASP is controlled by
    inflammasome-mediated IL-1 signalling" says it the claim's way (a 188th trial's faithful claim)."""
    at = overlap_score(claim_text, sent)
    for passage in pool:
        for other in split_sentences(passage):
            if other == sent or overlap_score(claim_text, other) < at:
                continue
            keys = [_key(p) for w in _WORD.findall(other) for p in w.split("-") if p]  # (*inflammasome-mediated*)
            if x in keys and y in keys and keys.index(x) < keys.index(y):
                return True
    return False


_BY = re.compile(r"\b(\w{4,}(?:ed|en))\s+by\b", re.I)


def _voice_turned(claim_text: str, sent: str) -> bool:
    """A verb the sentence has in the passive (*is maintained by*) stands active in the claim (*maintains*): the
    terms change ends with the voice ("The collagen-based exoskeleton ... maintains the final shape of the epidermis"
    for "The final shape of the epidermis is maintained by the collagenous exoskeleton, secreted by the apical surface
    of the epidermis", a 183rd trial's faithful claim: a proven exchange of 'surface' and 'shape')."""
    passive = {stem(m.group(1).lower()) for m in _BY.finditer(sent)}
    words = re.findall(r"\w+", claim_text.lower())
    return any(stem(w) in passive and (k + 1 >= len(words) or words[k + 1] != "by") and not w.endswith(("ed", "en"))
               for k, w in enumerate(words))


def _turned(moved: list[str], skeys: list[str]) -> bool:
    """A difference left between ``moved`` and ``skeys`` holds, on one side only, a negation, a degree word
    (:data:`~citeproof.detectors.cues.DEGREE`) or a direction word (the cues: "B is lower than A" for "A is higher
    than B" is faithful), or a word against its antonym; one both keep is no turn ("resembles yeast Pif1 more
    closely" for "resembles more human Pif1", a 92nd trial)."""
    ops = difflib.SequenceMatcher(None, moved, skeys, autojunk=False).get_opcodes()
    mine = {w for t, i1, i2, _j1, _j2 in ops if t != "equal" for w in moved[i1:i2]}
    theirs = {w for t, _i1, _i2, j1, j2 in ops if t != "equal" for w in skeys[j1:j2]}
    return any(NEGATOR.fullmatch(w) or w in DEGREE or any(rx.match(w) for rx in CUE_RES.values())
               for w in mine ^ theirs) or any(_OPPOSITE.get(w) in theirs for w in mine)


def _in_order(x: str, core: list[str], y: str, source_text: str) -> bool:
    """A sentence of the source has ``x``, then the run ``core``, then ``y``, within twelve words (the claim's
    order)."""
    for s in split_sentences(source_text):
        keys = [_key(w) for w in _WORD.findall(s)]
        for p in (p for p, k in enumerate(keys) if k == x):
            rest = keys[p + 1:p + 13]
            at = next((q for q in range(len(rest) - len(core) + 1) if rest[q:q + len(core)] == core), None)
            if at is not None and y in rest[at + len(core):]:
                return True
    return False


_ARTICLES = frozenset({"the", "a", "an"})


def _phrase(toks: list[str], start: int, step: int) -> list[str]:
    """The run of content words from ``toks[start]`` walking by ``step`` (past articles first when walking on),
    lower-cased stems; [] where none stands there."""
    k = start
    while step > 0 and 0 <= k < len(toks) and toks[k].lower() in _ARTICLES:
        k += step
    out = []
    while 0 <= k < len(toks) and _content(toks[k]) and toks[k] not in ",;:()":
        out.append(_key(toks[k]))
        k += step
    return out if step > 0 else out[::-1]


def phrases_exchanged_around(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The phrases on the two sides of a relation the claim shares with a sentence restating it, exchanged whole:
    "mismatch repair deficiency consequent to a hypermutator phenotype" for "a hypermutator phenotype consequent to
    mismatch repair deficiency" (a 97th trial: *supported*, P(entails) 0.96). The relation is a run of words alike
    holding a content word and no word that makes the order free (:data:`_SYMMETRIC`, *and*, *or*); each side is the
    run of content words next to it, read by its head (last) word; no sentence of the source has the claim's order
    around the relation. Code shows it: confidence 0.9, ``proven``."""
    ctoks = _WORD.findall(claim_text)
    ckeys = [_key(w) for w in ctoks]
    for _passage, sent in restating(claim_text, pool):
        stoks = _WORD.findall(sent)
        skeys = [_key(w) for w in stoks]
        shared = ((a, b, n) for n in (3, 2, 1) for a in range(len(ckeys) - n + 1) for b in range(len(skeys) - n + 1)
                  if ckeys[a:a + n] == skeys[b:b + n])  # every run the two share, not one alignment's
        for a, b, size in shared:
            core = ctoks[a:a + size]
            if not size or not any(_content(w) for w in core) or any(
                    _SYMMETRIC.match(w) or w.lower() in _COORDINATORS or w in ",;:()" for w in core):
                continue
            mine = (_phrase(ctoks, a - 1, -1), _phrase(ctoks, a + size, 1))
            theirs = (_phrase(stoks, b - 1, -1), _phrase(stoks, b + size, 1))
            if not (all(mine) and all(theirs)) or mine[0][-1] == mine[1][-1] or (mine[1][-1], mine[0][-1]) != (
                    theirs[0][-1], theirs[1][-1]):
                continue  # each side's head word (its last) on the other side ("contacts promote the establishment
                # of cohesion" for "cohesion establishment promotes ... contacts", a 97th trial)
            if _phrases_in_order(mine, ckeys[a:a + size], source_text or sent):
                continue  # the source says it the claim's way too
            before = " ".join(ctoks[a - len(mine[0]):a])
            after = " ".join(w for w in ctoks[a + size:a + size + len(mine[1]) + 1] if w.lower() not in _ARTICLES)
            return Tag("polarity_flip", f"The claim has {before!r} before '{' '.join(core)}' and {after!r} after it, "
                       f"where the source has them the other way round: \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(before, after),), proven=True)
    return None


def _phrases_in_order(sides: tuple[list[str], list[str]], core: list[str], source_text: str) -> bool:
    """A sentence of the source has the phrase ``sides[0]``, the run ``core`` and the phrase ``sides[1]`` in that order
    (read by their head words, as :func:`phrases_exchanged_around` reads them)."""
    for s in split_sentences(source_text):
        toks = _WORD.findall(s)
        keys = [_key(w) for w in toks]
        for k in range(len(keys) - len(core) + 1):
            if keys[k:k + len(core)] != core:
                continue
            before, after = _phrase(toks, k - 1, -1), _phrase(toks, k + len(core), 1)
            if before and after and (before[-1], after[-1]) == (sides[0][-1], sides[1][-1]):
                return True
    return False
