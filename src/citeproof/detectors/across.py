"""Who does what to whom, read across the relation a claim shares with a sentence restating it (issue 28).

:func:`ends_moved_across` is the general form of the narrower exchange rules of :mod:`citeproof.detectors.voices` and
:mod:`citeproof.detectors.reversals` (a fixed window of words, one word each side, a list of relation words): the
claim's phrase before a run it shares with the sentence stands after that run in the sentence, and its phrase after
the run stands before it. Found by the hundred-and-third to hundred-and-sixth new users' trials (session 26, held out
on `158179f`: five of the fourteen false claims called *supported* exchanged two roles in the source's own words):

- "Age-dependent decline lies at the heart of changes in transcriptional networks and chromatin state" for "Changes in
  transcriptional networks and chromatin state lie at the heart of age-dependent decline";
- "... conversion of mouse cardiac cells into fibroblasts" for "... conversion of mouse fibroblasts into cardiac cells";
- "JAK1 directly phosphorylated AMPK" for "AMPK directly phosphorylated two residues ... of JAK1";
- "the distribution of proteins and lipids is retrieved from the strong background of DNA" for "the distribution of
  DNA is retrieved from the strong background of proteins and lipids".

Code shows it: ``polarity_flip`` at 0.9, ``proven``; tried by :func:`citeproof.detectors.reversals.restated_flip`
after every narrower rule.
"""

from __future__ import annotations

import re
from collections import Counter

from citeproof.detectors.cues import BE_FORMS, CUE_RES, DEGREE, HAVE_FORMS, MODALS, NEG_WORDS
from citeproof.detectors.restated import _opposite
from citeproof.detectors.terms import _is_verb, restating
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS

__all__ = ["comparison_mirrored", "comparison_turned", "degree_turned_on_quality", "ends_moved_across", "sides_exchanged", "turned_over_list"]

_TOKEN = re.compile(r"\w[\w'+/]*(?:-/-|-(?!\w))?|[,;:]")
"""A word (``CD4+CD25-`` whole, its sign kept; ``age-dependent`` two words, as ``endotoxin-induced`` is "endotoxins
induced" in another's writing; brackets dropped, so ``GITR(-/-)`` reads ``GITR``) or a clause mark."""
_OPENERS = frozenset({"while", "whereas", "but", "which", "that", "although", "though", "because", "when", "where",
                      "whom", "who", "whose", "if", "unless", "since"})
"""Words that open another clause: the phrases moved are read within the clause of the shared run."""
_JOIN = frozenset({"and", "or", "&"})
_RELATIVE = frozenset({"which", "who", "whose", "that"})
_TIES = frozenset("of to by from into onto in on at for as than through via toward towards against but whereas unlike".split())
"""Prepositions and words of contrast that tie a relation's run to its phrases ("c-Myc-dependent but beta-catenin-
independent", a 119th trial)."""
_DETERMINERS = frozenset({"the", "a", "an", "these", "this", "those", "its", "their", "both", "each", "all", "some"})
_BETWEEN = BE_FORMS | HAVE_FORMS | MODALS | frozenset({"also", "further", "thereby", "then", "still", "only", "often",
                                                       "always", "indeed", "not"})
"""Words that stand between a subject and the run it shares (*were* in "cells were able to exert ...")."""
_LINKS = frozenset({"into", "onto", "to", "from", "than", "towards", "toward"})
"""Single words that order two phrases ("fibroblasts into cardiac cells"): a run of one of them may be the relation."""
_SYMMETRIC = re.compile(r"(?:versus|vs|with$|between|among|interact|bind|bound|associat|correlat|compar|similar|differ|"
                        r"link|overlap|contact|fus(?:e|es|ed|ion|ing)$|equal(?:s|led|ed)?$|same$|like$|alike|resembl|match|paired|"
                        r"coexist|coloc|cooperat|communicat|interplay|cross-?talk|relat(?:e|es|ed|ing|ion|ions|ionship)$|"
                        r"connect|shar(?:e|es|ed|ing)$|mutual|reciproc|together|vice|adjacen|near$|nearby|close$|"
                        r"next$|proxim|parallel|analog|homolog|equivalen|identical|counterpart|opposite|neighbo|"
                        r"both$|neither$|either$|and$|or$)", re.I)
"""Words that make the order of two phrases free ("A interacts with B", "A is similar to B")."""
_FREE = re.compile(_SYMMETRIC.pattern.replace("both$|neither$|either$|and$|or$", "vs$"), re.I)
"""The same, but for *and* / *or* / *both*: read between the sentence's phrases, where "Ser515 and Ser518" may stand."""


_SIGN = re.compile(r"\(([+\-\u2212](?:/[+\-\u2212])?)\)")
"""A marker's sign or a genotype in brackets (*CD24(+)*, *Aire(-/-)*): read as *CD24+*, *Aire-/-*, so that *CD24(-)*
and *Aire(+/+)* are other words (trials 135 and 139)."""


def _signed(text: str) -> str:
    return _SIGN.sub(lambda m: m.group(1).replace("\u2212", "-"), text)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_signed(text))


def _content(w: str) -> bool:
    """A word that names something: not a stop word; two characters or more, or a digit (*T* alone is not)."""
    lw = w.lower()
    return w[:1].isalnum() and lw not in STOPWORDS and lw not in _BETWEEN and (len(w) >= 2 or w.isdigit())


def _key(w: str) -> str:
    return stem(w.lower())


def _clause(toks: list[str], start: int, stop: int, lists: bool = False) -> tuple[int, int]:
    """The bounds of the clause holding ``toks[start:stop]``: from after the nearest clause mark or opener before it to
    the nearest one after it; with ``lists``, back past the commas of a list the clause opens with ("Self-reported
    functional status, depression, and hostility accounted for ...", a 146th trial)."""
    lo = start
    while lo > 0 and toks[lo - 1] not in ",;:" and toks[lo - 1].lower() not in _OPENERS:
        lo -= 1
    while lists and 1 < lo < start and toks[lo - 1] == ",":
        item = next((k for k in range(lo, start) if toks[k] in ",;:"), start) - lo  # this piece's words
        prev = lo - 1
        while prev > 0 and toks[prev - 1] not in ",;:" and toks[prev - 1].lower() not in _OPENERS:
            prev -= 1
        if not (toks[lo].lower() in _JOIN or 1 <= item <= 3) or lo - 1 - prev > 4 or not all(
                _content(w) or w.lower() in _JOIN or w in "," for w in toks[prev:lo - 1]):
            break  # no list: an opening phrase before the comma ("Among 8715 patients treated initially with
            # clopidogrel, 994 were switched to ..."), or the run right after a comma
        lo = prev  # back past a list's item (four words at most, naming words) and its comma
    hi = stop
    while hi < len(toks) and toks[hi] not in ",;:" and toks[hi].lower() not in _OPENERS:
        hi += 1
    return lo, hi


def _phrase_before(toks: list[str], i: int) -> tuple[int, int]:
    """``(start, stop)`` of the run of naming words (joined by *and* / *or*) ending just before ``toks[i]``, past the
    words that may stand between a subject and its verb; ``(i, i)`` when there is none."""
    if i and toks[i - 1] == ",":  # past a relative clause to the phrase it qualifies ("Cell fusion, which is often
        # caused by viruses, is also triggered by ...", a 120th trial)
        k = next((k for k in range(i - 2, 0, -1) if toks[k] == "," and toks[k + 1].lower() in _RELATIVE), None)
        if k is not None:
            i = k
    j = i - 1
    while j >= 0 and (toks[j].lower() in _BETWEEN or (toks[j].lower().endswith("ly") and len(toks[j]) > 4)):
        j -= 1
    stop = j + 1
    while j >= 0 and (_content(toks[j]) or (toks[j].lower() in _JOIN and j > 0 and _content(toks[j - 1])
                                            and j + 1 < stop)):
        j -= 1
    return j + 1, stop


def _phrase_after(toks: list[str], j: int) -> tuple[int, int]:
    """``(start, stop)`` of the run of naming words (joined by *and* / *or*) starting at ``toks[j]``, past a comma and
    determiners ("deficiency of HIF-1α enhanced, gram-positive endotoxin-induced KLF2 expression"), with its *of*
    phrase; ``(j, j)`` when there is none."""
    if j < len(toks) and toks[j] == ",":
        j += 1
    while j < len(toks) and toks[j].lower() in _DETERMINERS:
        j += 1
    k = j
    while k < len(toks) and (_content(toks[k]) or (toks[k].lower() in _JOIN and k > j and k + 1 < len(toks)
                                                   and _content(toks[k + 1]))):
        k += 1
    if k > j and k + 1 < len(toks) and toks[k].lower() == "of":  # its *of* phrase ("carriers of the RR genotype",
        m = k + 1  # a 124th trial)
        while m < len(toks) and toks[m].lower() in _DETERMINERS:
            m += 1
        n = m
        while n < len(toks) and _content(toks[n]):
            n += 1
        k = n if n > m else k
    return j, k


def _voice(toks: list[str], at: int, n: int) -> tuple[bool, bool]:
    """(a form of *be* or *get* just before the run ``toks[at:at + n]``, past adverbs and *not*; *by* just after it)."""
    j = at - 1
    while j >= 0 and (toks[j].lower() in ("not", "also", "further", "then") or toks[j].lower().endswith("ly")):
        j -= 1
    return (j >= 0 and toks[j].lower() in BE_FORMS | {"get", "gets", "got", "become", "became"},
            at + n < len(toks) and toks[at + n].lower() == "by")


def _shared_runs(ckeys: list[str], skeys: list[str]) -> list[tuple[int, int, int]]:
    """``(claim start, sentence start, length)`` of every maximal run of keys the two share (neither can be
    lengthened at either end), longest first."""
    runs = []
    for a in range(len(ckeys)):
        for b in range(len(skeys)):
            if ckeys[a] != skeys[b] or (a and b and ckeys[a - 1] == skeys[b - 1]):
                continue
            n = 0
            while a + n < len(ckeys) and b + n < len(skeys) and ckeys[a + n] == skeys[b + n]:
                n += 1
            runs.append((a, b, n))
    return sorted(runs, key=lambda r: -r[2])


def _cues(toks: list[str]) -> list[str]:
    """The direction, degree and negation words of ``toks``, as their classes, sorted."""
    out = []
    for w in toks:
        lw = w.lower()
        out += [c for c, rx in CUE_RES.items() if rx.match(lw)]
        if lw in DEGREE:
            out.append(lw)
        if lw in NEG_WORDS:
            out.append("not")
    return sorted(out)


_COMPARING = re.compile(r"(?:compar\w*|with|versus|vs|to|than)$", re.I)


def _ordered_comparison(core: list[str]) -> bool:
    """A comparison that runs one way: its only symmetric words are those of comparing (*in comparison with*), beside
    a word of direction or degree ("RR carriers showed an increased proteasome activity in comparison with RH
    carriers", a 124th trial)."""
    return (all(_COMPARING.match(w) for w in core if _SYMMETRIC.match(w))
            and any(_cue_class(w.lower()) is not None or w.lower() in DEGREE for w in core))


def _relation(core: list[str]) -> bool:
    """The shared run can carry a relation that runs one way: two words or more, one of them naming something and one
    a preposition (:data:`_TIES`), a form of *be* / *have* or a verb's ending, or a single ordering word
    (:data:`_LINKS`) or verb of direction; never a symmetric one (:data:`_SYMMETRIC`)."""
    if any(_SYMMETRIC.match(w) for w in core) and not _ordered_comparison(core):
        return False
    if len(core) == 1:  # (or a verb of direction: "neutrophils inhibit natural killer cell function", a 114th trial)
        return core[0].lower() in _LINKS or _cue_class(core[0].lower()) is not None
    # a relation, not a piece of a noun phrase ("HES3 and HES4 human ES cell lines" read against "human ES cell lines
    # (HES3 and HES4 ...)", a 113th trial's faithful claim): a preposition, a form of be or have, or a verb's ending
    return any(_content(w) for w in core) and any(
        w.lower() in _TIES or w.lower() in _BETWEEN or (len(w) > 4 and re.search(r"(?:ed|es|ing)$", w.lower()))
        for w in core) or (len(core) >= 3 and core[-1].lower() in _DETERMINERS and _is_verb(core[-2]))
    # (or a common verb and its object's article: "CD24(-) cells generate the CD24(+) population" for "CD24(+) cells
    # generate the CD24(-) population", a 135th trial)


def _stands_whole(ckeys: list[str], ctoks: list[str], source_text: str) -> bool:
    """The claim's naming words, in order and next to each other, are a run of some sentence's naming words."""
    mine = " ".join(k for k, w in zip(ckeys, ctoks) if _content(w))
    return bool(mine) and any(mine in " ".join(_key(w) for w in _tokens(s) if _content(w))
                              for s in split_sentences(source_text))


def _said_the_claims_way(core: list[str], a_keys: set[str], b_keys: set[str], source_text: str) -> bool:
    """A sentence of the source has a word of ``a_keys`` before the run ``core`` and one of ``b_keys`` after it, in the
    run's clause."""
    n = len(core)
    for s in split_sentences(source_text):
        toks = _tokens(s)
        keys = [_key(w) for w in toks]
        for k in range(len(keys) - n + 1):
            if keys[k:k + n] == core:
                lo, hi = _clause(toks, k, k + n)
                if a_keys & set(keys[lo:k]) and b_keys & set(keys[k + n:hi]):
                    return True
    return False


def ends_moved_across(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's phrase before a run it shares with a sentence restating it stands after that run in the sentence,
    and its phrase after the run stands before it: two roles exchanged around one relation.

    The run (the relation) is a maximal run of words the two share: two words or more, one of them naming something,
    or one ordering word (*into*, *to*, *from*, *than*); no word of it, nor of the words between the phrases, makes the
    order free (*with*, *and*, *similar*, *compared*...: :data:`_SYMMETRIC`). Each phrase is the run of naming words
    next to it (joined by *and*, past *were* / *can* before it and articles after it); every word of both stands in
    the sentence, at least one of each only on the other side of the run (in the run's clause), and the claim's clause
    holds no direction, degree or negation word the sentence's clause lacks (so "lower in B than in A" for "higher in
    A than in B" is no exchange). A run of one word may also be a verb of direction (*inhibit*). Active for passive ("X phosphorylates Y" / "Y is phosphorylated by X") is no
    exchange: a form of *be* before the run, or *by* after it, on one side only (a run holding *by* is passive on both
    sides, *is facilitated by* and a reduced *facilitated by* alike). No sentence of the source says it
    the claim's way.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim (sentences restating the claim,
            :func:`~citeproof.detectors.terms.restating`, are read).
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag at 0.9 whose evidence pairs the two phrases as the claim writes them, or None.
    """
    claim_text = _signed(claim_text)
    spans = [m.span() for m in _TOKEN.finditer(claim_text)]
    ctoks = [claim_text[x:y] for x, y in spans]
    ckeys = [_key(w) for w in ctoks]
    for _passage, sent in restating(claim_text, pool):
        stoks = _tokens(sent)
        skeys = [_key(w) for w in stoks]
        for a, b, n in _shared_runs(ckeys, skeys):
            core = ctoks[a:a + n]  # (its marks kept: "cell lineage itself, complex as it is, plays ...", a 107th trial)
            if not _relation([w for w in core if w not in ",;:"]):
                continue
            if [w.lower() for w in core] == ["than"] and "to" in [w.lower() for w in stoks[b + 1:b + 5] + ctoks[a + 1:a + 5]]:
                continue  # "more likely than those without to have small grafted distal vessels": what follows *than*
                # is not the thing compared (a 140th trial's faithful "more often had small ... vessels than patients
                # without" was a proven exchange)
            a0, a1 = _phrase_before(ctoks, a)
            b0, b1 = _phrase_after(ctoks, a + n)
            if a0 == a1 or b0 == b1 or ("by" not in (w.lower() for w in core)
                                        and _voice(ctoks, a, n) != _voice(stoks, b, n)):
                continue  # active for passive ("X inhibited Y" / "Y was inhibited by X") is no exchange
            if any(_FREE.match(w) for w in ctoks[a1:a] + ctoks[a + n:b0]):
                continue
            a_keys = {ckeys[k] for k in range(a0, a1) if _content(ctoks[k])}
            b_keys = {ckeys[k] for k in range(b0, b1) if _content(ctoks[k])}
            lo, hi = _clause(stoks, b, b + n, lists=True)
            before, after = set(skeys[lo:b]), set(skeys[b + n:hi])
            if not (a_keys | b_keys) <= set(skeys):
                continue  # the claim names its ends in other words: no exchange in the source's own words
            moved_a = {k for k in a_keys if k in after and k not in before}
            moved_b = {k for k in b_keys if k in before and k not in after}
            if not moved_a or not moved_b:
                continue
            c_lo, c_hi = _clause(ctoks, a, a + n)
            if Counter(_cues(ctoks[c_lo:c_hi])) - Counter(_cues(stoks[lo:hi])):
                continue  # the claim's clause turns a word the sentence's does not ("lower in B than in A" for "higher
                # in A than in B"); the sentence's clause may hold more ("Sustained expression of KLF2 reduced and
                # deficiency of KLF2 enhanced ..." read against the claim's "deficiency of HIF-1α enhanced", a 111th
                # trial: a comma bounds the claim's clause there)
            at_b = max(k for k in range(lo, b) if skeys[k] in moved_b)
            at_a = min(k for k in range(b + n, hi) if skeys[k] in moved_a)
            if any(_FREE.match(w) and _key(w) not in ckeys  # (a word of the claim's phrases: "the binding of TRF2")
                   for w in stoks[max(at_b + 1, b - 3):b] + stoks[b + n:min(at_a, b + n + 3)]):
                continue  # "B interacts with ... A" in the sentence
            if _said_the_claims_way(ckeys[a:a + n], moved_a, moved_b, source_text or " ".join(pool)):
                continue
            if _stands_whole(ckeys, ctoks, source_text or " ".join(pool)):
                return None  # the claim stands word for word in the source: nothing of it exchanged ("In examining
                # effects of SES, influences of initial problem severity have been largely ignored" read against
                # another sentence's "influence of SES", a faithful claim of `eval meaning`'s own-words set); read
                # last, as it reads every sentence of a full text
            x, y = claim_text[spans[a0][0]:spans[a1 - 1][1]], claim_text[spans[b0][0]:spans[b1 - 1][1]]
            shown = claim_text[spans[a][0]:spans[a + n - 1][1]].strip(",;: ")
            return Tag("polarity_flip", f"The claim has {x!r} before '{shown}' and {y!r} after it, where the "
                       f"source has them the other way round: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(x, y),),
                       proven=True)
    return None


def _cue_class(w: str) -> str | None:
    """``up``, ``down``, ``good`` or ``bad`` for a direction word (:data:`~citeproof.detectors.cues.CUE_RES`), else
    None."""
    return next((c for c, rx in CUE_RES.items() if rx.match(w)), None)


_OVER_LIST = frozenset({"of", "the", "a", "an", "and", "or", "in", "both"})
"""Words that may stand between a direction word and the last noun of the list it governs ("the loss of the anergic
phenotype and suppressor activity")."""


def turned_over_list(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's direction word before a noun where a sentence restating the claim has the opposite one governing a
    list that ends in that noun: "paralleled by increased suppressor activity" for "paralleled by the loss of the
    anergic phenotype and suppressor activity" (a 106th trial: *supported*, P(entails) 0.90). The noun is the run of
    one to three naming words after the claim's direction word; in the sentence the nearest direction word before it,
    within seven words of list (:data:`_OVER_LIST` and naming words only, no negation, no second direction word), is of
    the opposite class (:data:`~citeproof.detectors.cues.OPPOSITE`); no source sentence has a word of the claim's class
    right before the noun. Code shows it: ``polarity_flip`` at 0.9, ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag whose evidence pairs the claim's words with the source's, or None.
    """
    from citeproof.detectors.cues import OPPOSITE

    ctoks = _tokens(claim_text)
    for k, w in enumerate(ctoks):
        cls = _cue_class(w.lower())
        if cls is None or (k and ctoks[k - 1].lower() in NEG_WORDS):
            continue
        stop = k + 1
        while stop < len(ctoks) and stop - k <= 3 and _content(ctoks[stop]):
            stop += 1
        noun = [_key(x) for x in ctoks[k + 1:stop]]
        if not noun:
            continue
        for _passage, sent in restating(claim_text, pool):
            stoks = _tokens(sent)
            skeys = [_key(x) for x in stoks]
            for p in range(len(skeys) - len(noun) + 1):
                if skeys[p:p + len(noun)] != noun:
                    continue
                found, j = None, p - 1
                while j >= max(0, p - 8):
                    lw = stoks[j].lower()
                    if lw in NEG_WORDS or lw in ",;:":
                        break
                    c = _cue_class(lw)
                    if c is not None:
                        if found is not None:
                            found = None
                            break  # two direction words ("prevented the increase in ..."): not read
                        found = (j, c)
                    elif not (lw in _OVER_LIST or _content(stoks[j])):
                        break
                    j -= 1
                if found is None or found[1] != OPPOSITE[cls]:
                    continue
                if not any(x.lower() in _JOIN for x in stoks[found[0]:p]):
                    continue  # the opposite word right before the noun is the plain word diff's (other rules read it)
                if _said_before(cls, noun, source_text or " ".join(pool)):
                    continue
                said, there = " ".join(ctoks[k:stop]), " ".join(stoks[found[0]:p + len(noun)])
                return Tag("polarity_flip", f"The claim says {said!r} where the source's {stoks[found[0]]!r} governs "
                           f"the list that ends in it: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, there),),
                           proven=True)
    return None


def _said_before(cls: str, noun: list[str], source_text: str) -> bool:
    """A sentence of the source has a direction word of class ``cls`` within two words before ``noun`` (by stem)."""
    for s in split_sentences(source_text):
        toks = _tokens(s)
        keys = [_key(x) for x in toks]
        for p in range(len(keys) - len(noun) + 1):
            if keys[p:p + len(noun)] == noun and any(_cue_class(x.lower()) == cls for x in toks[max(0, p - 2):p]):
                return True
    return False


_HIGH = frozenset({"high", "highly", "higher", "strong", "strongly", "great", "greatly", "good", "well"})
_LOW = frozenset({"low", "lowly", "lower", "poor", "poorly", "weak", "weakly", "little", "slight", "slightly", "badly"})


def degree_turned_on_quality(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's degree of a quality opposite to the one a sentence restating the claim gives that quality, the
    quality written in another form: "converts mouse fibroblasts into cardiac cells ..., though only with low
    efficiency" for "enables the highly efficient conversion of mouse fibroblasts into cardiac cells" (a 103rd trial:
    *supported*, P(entails) 0.85). The two quality words share their first six letters (*efficiency* / *efficient*);
    no source sentence has the claim's degree before that quality. Code shows it: ``polarity_flip`` at 0.9,
    ``proven``."""
    ctoks = _tokens(claim_text)
    for k in range(len(ctoks) - 1):
        deg, q = ctoks[k].lower(), ctoks[k + 1].lower()
        side = _HIGH if deg in _HIGH else _LOW if deg in _LOW else None
        if side is None or len(q) < 6 or not _content(q):
            continue
        other = _LOW if side is _HIGH else _HIGH
        pattern = re.compile(rf"\b(?P<deg>{'|'.join(sorted(other))})\s+(?P<q>{re.escape(q[:6])}\w*)", re.I)
        mine = re.compile(rf"\b(?:{'|'.join(sorted(side))})\s+{re.escape(q[:6])}\w*", re.I)
        if mine.search(source_text or " ".join(pool)):
            continue
        for _passage, sent in restating(claim_text, pool):
            m = pattern.search(sent)
            if m is not None and not re.search(r"\b(?:not|never|no|hardly)\s+(?:\w+\s+)?$", sent[:m.start()], re.I):
                # (not a denied degree: "poorly understood" for "is not well understood", a 188th trial's faithful)
                said = f"{ctoks[k]} {ctoks[k + 1]}"
                return Tag("polarity_flip", f"The claim says {said!r} where the source says {m.group(0)!r}: "
                           f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, m.group(0)),), proven=True)
    return None


_CONTRAST = frozenset({"while", "whereas", "but", "although", "though", "yet"})
"""Words that set two clauses side by side: each clause pairs a subject with what is said of it."""
_LINK = re.compile(r"(?:lead(?:s|ing)?|led|result(?:s|ed|ing)?|give(?:s|n)?|gave|giving|trigger(?:s|ed|ing)?|"
                   r"precede(?:s|d)?|preceding)$", re.I)
"""Verbs that order two events (*A leads to B*, *A results in B*, *A gives rise to B*, *A precedes B*)."""


def _split_at(toks: list[str], words) -> tuple[int, str] | None:
    """The first token of ``toks`` (not in the first three) that ``words`` holds (a set, or a pattern to match), and
    its key."""
    for i, w in enumerate(toks):
        if i >= 3 and (w.lower() in words if isinstance(words, frozenset) else words.match(w)):
            return i, _key(w)[:4]
    return None


def _sides(toks: list[str], at: int, ordered: bool) -> tuple[set[str], set[str]]:
    """The keys (naming words and negations) before and after ``toks[at]``: the whole of each half for an order of
    events, the clause next to the word for clauses side by side."""
    lo, hi = (0, len(toks)) if ordered else (_clause(toks, at, at)[0], _clause(toks, at + 1, at + 1)[1])
    return ({_key(w) for w in toks[lo:at] if _content(w) or w.lower() in NEG_WORDS},
            {_key(w) for w in toks[at + 1:hi] if _content(w) or w.lower() in NEG_WORDS})


def sides_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """Two clauses set side by side, or two events in order, whose subjects the claim exchanges: the claim's first
    part holds words the sentence restating it has only in its second part, and the other way round.

    - Side by side (*while*, *whereas*, *but* ...: :data:`_CONTRAST`): "rates in eastern Europe steadily declined
      while those in the western countries remained fairly static" for "the rates in western countries steadily
      declined but those in eastern Europe remained fairly static" (a 127th trial, *supported* at P(entails) 0.92).
      Words must also stay on each side (*declined* first, *static* second), so that a claim that puts the clauses
      the other way round, each whole, is no exchange.
    - In order (*leads to*, *results in*, *gives rise to*, *precedes*: :data:`_LINK`, the same verb on both sides):
      "begins with transcriptional dysregulation, which leads to misfolding of ATXN1" for "begins with misfolding of
      ATXN1 ..., leading to transcriptional dysregulation" (the same trial, P(entails) 0.96).

    Each claim word read is a naming word (or a negation) found once on one side of the split in the claim and once
    on one side in the sentence; the claim's naming words stand in the sentence (at least 80%), and no sentence of
    the source says it the claim's way (verbatim).

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim (sentences restating the claim read).
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag at 0.9 naming the words exchanged, or None.
    """
    ctoks = _tokens(claim_text)
    ckeys = [_key(w) for w in ctoks]
    named = {k for k, w in zip(ckeys, ctoks) if _content(w)}
    for words, ordered in ((_CONTRAST, False), (_LINK, True)):
        cut = _split_at(ctoks, words)
        if cut is None:
            continue
        c1, c2 = _sides(ctoks, cut[0], ordered)
        for _passage, sent in restating(claim_text, pool):
            stoks = _tokens(sent)
            at = _split_at(stoks, words)
            if at is None or (ordered and at[1] != cut[1]):
                continue
            if ordered and any(w.lower() == "by" for w in ctoks[cut[0] + 1:cut[0] + 3] + stoks[at[0] + 1:at[0] + 3]):
                continue  # "is preceded by": the order turned in words
            skeys = {_key(w) for w in stoks}
            if not named or len(named & skeys) < 0.8 * len(named):
                continue
            s1, s2 = _sides(stoks, at[0], ordered)
            both = (c1 & c2) | (s1 & s2)
            a, b = (c1 & s2) - both - s1, (c2 & s1) - both - s2
            p, q = (c1 & s1) - both, (c2 & s2) - both
            if not a or not b or (not ordered and not (p - NEG_WORDS and q)):
                continue
            if Counter(_cues(ctoks)) - Counter(_cues(stoks)):
                continue  # the claim also turns a word of direction: read by the rules of direction
            if _stands_whole(ckeys, ctoks, source_text or " ".join(pool)):
                return None
            x = next(w for w in ctoks[:cut[0]] if _key(w) in a)
            y = next(w for w in ctoks[cut[0] + 1:] if _key(w) in b)
            return Tag("polarity_flip", f"The claim puts {x!r} in its first part and {y!r} in its second, where the "
                       f"source has them the other way round: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(x, y),),
                       proven=True)
    return None


def comparison_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim compares the same two things as the sentence restating it, in the same order, the other way: "Tcf1 is
    expressed at lower levels than Lef1" for "Tcf1 is higher expressed than Lef1" (a 137th trial: *partial*, an
    unproven flip; the words between differ, so no rule of words alike read it).

    Each side has *than* after a word of direction or degree within six words before it (opposites by
    :func:`~citeproof.detectors.restated._opposite`); the first naming word after *than* is the same; two naming words
    of the claim's clause before *than* stand in the sentence's clause before its own; no sentence of the
    source says the claim's comparative before *than* and that word.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim (sentences restating it are read).
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    ctoks = _tokens(claim_text)
    mine = list(_frames(ctoks))
    if not mine:
        return None
    for _passage, sent in restating(claim_text, pool):
        for word, y, before in _frames(_tokens(sent)):
            for cword, cy, cbefore in mine:
                if cy != y or not _opposite(cword, word) or len(cbefore & before) < 2:
                    continue
                if any((cword, cy) in {(w, yy) for w, yy, _b in _frames(_tokens(s))}
                       for s in split_sentences(source_text or sent)):
                    continue
                return Tag("polarity_flip", f"The claim says {cword!r} than where the source says {word!r} than, of "
                           f"the same two things: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(cword, word),),
                           proven=True)
    return None


def _frames(toks: list[str]):
    """Each comparison of ``toks``: (its word of direction or degree within six words before *than*, the first naming
    word after *than*, the naming words of the clause before *than*)."""
    for t, w in enumerate(toks):
        if w.lower() != "than":
            continue
        y = next((_key(x) for x in toks[t + 1:t + 4] if _content(x)), None)
        at = next((k for k in range(t - 1, max(-1, t - 7), -1) if _cue_class(toks[k].lower()) is not None
                   or toks[k].lower() in DEGREE or toks[k].lower() in _COMPARATIVES), None)
        if y is not None and at is not None:
            lo = _clause(toks, at, at + 1)[0]
            yield toks[at].lower(), y, {_key(x) for x in toks[lo:t] if _content(x) and x is not toks[at]}


def comparison_mirrored(claim_text: str, pool: list[str]) -> bool:
    """The claim makes the comparison of a sentence restating it from the other end: "Lef1 is expressed at lower
    levels than Tcf1" for "Tcf1 is higher expressed than Lef1" (a 137th trial's faithful twin had an unproven flip):
    opposite words, each side's thing after *than* among the other's words before it."""
    mine = list(_frames(_tokens(claim_text)))
    return bool(mine) and any(
        cy != y and _opposite(cword, word) and cy in before and y in cbefore
        for _passage, sent in restating(claim_text, pool) for word, y, before in _frames(_tokens(sent))
        for cword, cy, cbefore in mine)


_COMPARATIVES = frozenset("""higher lower greater smaller larger bigger more less fewer faster slower longer shorter
stronger weaker better worse earlier later older younger wider narrower""".split())
