"""A negation on one side only of a claim and the source sentence that restates it (issue 28): "No significant
difference emerged between AO, AM and PL" against "A significant difference emerged between amitriptylinoxide,
amitriptyline and placebo" (:func:`negation_dropped`, tried by :func:`citeproof.detectors.reversals.restated_flip`
after :mod:`citeproof.detectors.restated`'s one word turned). Code compares the two word by word, so the tag is
``proven``. Found by new users' trials on SciFact abstracts (docs/meaning.md).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

from citeproof.detectors.cues import (AUX, BE_FORMS, CUE_RES, NEG_ANY_SIDE, NEGATOR, SETS_IN_DOUBT, content_stems,
                                     light_token)
from citeproof.detectors.restated import _CONTRAST, _conjunct, _differences, _EXCEPTED, _readings, states_same_negation
from citeproof.detectors.terms import RESTATE_AT, names_referent, restating, same_term, stated_in
from citeproof.detectors.lexicon import names_writers
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE as _TOKEN_RE
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, overlap_score
from citeproof.text.stems import content_stems as stems_of

__all__ = ["antonym_for", "ended_for_lasted", "states_excluded", "negation_dropped", "negation_dropped_in_clause", "negation_in_run",
           "null_against_difference", "states_no_difference", "states_same_contrast", "states_same_direction"]


_MANNER = frozenset({"negatively", "positively", "adversely", "favourably", "favorably", "significantly", "strongly",
                     "markedly", "substantially", "greatly", "already", "indeed", "now", "specifically", "selectively",
                     "directly", "largely", "mainly", "primarily", "partly", "partially", "efficiently"})
"""Adverbs of how much or which way a verb acts: the claim's negation in their place still denies the sentence's verb
("do not influence disease outcome" for "negatively influence disease outcome", a fifteenth trial); and *already*,
*indeed*, *now* where the sentence negates ("has already been achieved" for "has not been achieved", a seventeenth)."""

_NOT_A_DENIAL = frozenset({"only", "just", "merely", "solely", "exclusively", "least", "surprisingly",
                           "unexpectedly", "doubt", "wonder", "longer", "all"})
"""Words after a negation that make it no denial of what follows (*not only ... but also*, *no doubt*); *no
longer* says a state ended, which a claim without it may still report of its time; *not all* restricts a group
("in many but not all cell types": a claim of "many cell types" had been called a dropped negation; a claim of
"all" is ``scope_inflation``'s)."""


def _context_words(claim_words: list[str], sent_words: list[str], source_text: str) -> bool:
    """Words only the claim has (at its end the sentence may go on instead) that name the finding's context, not
    another finding: at most three content words, every one in the source, and no negation on either side
    ("among cancer survivors" for a study of cancer survivors; "of Slc23a1-/- mice" where the sentence says
    "Lungs")."""
    content = [w for w in claim_words if not light_token(w.lower())]
    if not content or len(content) > 3 or any(NEGATOR.fullmatch(w) for w in claim_words + sent_words):
        return False
    return stated_in(content, source_text)


_CLAUSE_BREAK = re.compile(r"(?:,|;)\s+(?:but|whereas|while|whilst|yet|since|because)\s+|;\s+|\s+(?=without\s)", re.I)
"""Where a sentence's contrasting clause opens; *without* stays with its clause ("... abolished the expression of mRNA
for mediators of inflammation (...) without affecting the expression of message for several other proteins", a 48th
trial's claim dropped the *without*)."""


def _with_clauses(sent: str) -> list[tuple[str, bool]]:
    """``(sent, False)`` and ``(clause, True)`` for each clause after a contrast (", but", "; whereas", ";"): a claim
    may restate one clause of a longer sentence whole ("BMI was significantly associated with mortality in this
    population of male veterans" against "Each 1-MET increase ... conferred a 10% survival benefit ..., but BMI was
    not significantly associated with mortality", a 24th trial); and ``sent`` without its asides (:func:`_readings`:
    "a significant effect in favor of permanent cardiac pacing (recurrence of syncope in 2 patients [4.3%] ...)
    compared with medical treatment (...)", a 27th)."""
    parts = _CLAUSE_BREAK.split(_EXCEPTED.sub(" ", sent))  # not after the *but* of ", but not mitosis," (57th)
    return [(x, False) for x in _readings(sent)] + [(p, True) for p in parts[1:] if p.strip()]


_FAILED = re.compile(r"\b(?:failed|fails|fail|failing|(?:was|were|is|are)\s+unable)\s+to\b", re.I)
"""*failed to X* / *was unable to X* deny *X* as *did not X* does."""
_UNABLE = re.compile(r"\bunable\s+to\b", re.I)


def _unable(text: str, other: str) -> str:
    """*unable to* as *not able to* where the other side says *able to* ("enhancers were unable to recapitulate their
    cell type specificity" for "were able to recapitulate", a 137th trial), else as *failed to* reads (:data:`_FAILED`)."""
    return _UNABLE.sub("not able to", text) if re.search(r"(?<!un)\bable\s+to\b", other, re.I) else text


_CONJ = frozenset({"and", "or"})
_AS_WELL_AS = re.compile(r"\bas\s+well\s+as\b", re.I)
_EXCEPTING = frozenset({"unlike", "except", "excluding", "besides", "apart", "other", "rather", "instead", "opposed"})
"""Words that set one thing apart as a negation does (*unlike X* / *but not X*)."""


def negation_dropped(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A pool sentence that restates the claim word for word but for one negation on one side only: the source
    negates what the claim states ("No significant difference emerged between AO, AM and PL" against "A
    significant difference emerged between amitriptylinoxide, amitriptyline and placebo"), or the claim negates
    what the sentence states as a finding.

    Words are compared by stem (:func:`_differences`); besides the negation the two may differ only by light tokens
    (:func:`light_token`), by a term the source abbreviates (:func:`~citeproof.detectors.terms.same_term`) and by what
    the sentence says before or after the claim's words; a negation just before the claim's first word counts. A
    short sentence (3+ content words) that the claim holds whole may stand for the restatement, the claim saying more
    before or after it, when the negation is the source's; so may the clause after a sentence's *but*
    (:func:`_with_clauses`).
    Not a denial: *not only*, *no doubt*, *no longer* (:data:`_NOT_A_DENIAL`). A negation the claim adds counts only
    when the sentence reports no view or question (:data:`SETS_IN_DOUBT`: "We tested whether X causes Y"), negates
    nothing itself ("associated in men but not in women") and no sentence of the source negates what the claim
    negates (:func:`states_same_negation`). Found by a new user's
    trial on SciFact abstracts (2026-12-06): the dropped "No" ended *partial*. Code shows it: confidence 0.9,
    ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (abbreviations it defines; the claim's negation stated elsewhere).

    Returns:
        A ``polarity_flip`` tag, or None.
    """
    co = _TOKEN_RE.findall(_AS_WELL_AS.sub("and", _FAILED.sub("not", _unable(claim_text, " ".join(pool)))))
    cw = [w.lower() for w in co]
    claim_stems = set(content_stems(co))
    for passage in pool:
        for sent, clause, whole in ((x, c, w) for w in split_sentences(passage) for x, c in _with_clauses(w)):
            # "failed to reverse" denies "reversed" (a 59th trial); "Hes5 as well as Hes1" is "Hes5 and Hes1" (72nd)
            so = _TOKEN_RE.findall(_AS_WELL_AS.sub("and", _FAILED.sub("not", _unable(sent, claim_text))))
            sw = [w.lower() for w in so]
            sent_stems = content_stems([w for w in so if w.lower() not in AUX and not NEGATOR.fullmatch(w)])
            # a short sentence the claim holds whole, saying more around it ("Hospital mortality did not differ."
            # against "Hospital mortality differed between the NIV and standard treatment groups")
            held = len(sent_stems) >= 3 and set(sent_stems) <= claim_stems
            if not held and (clause or overlap_score(claim_text, sent) < RESTATE_AT):
                continue
            negs: list[tuple[str, str, tuple[str, str]]] = []  # (side, negation word, (claim span, source span))
            at = len(sw)
            ok, negates_beyond, claim_beyond = True, False, False
            for t, i1, i2, j1, j2 in _differences(cw, sw):
                if t == "delete" and held and (i1 == 0 or i2 == len(cw)):
                    # the claim goes on past the sentence's words; at its end, words the source states (its context:
                    # "between visceral and subcutaneous arterioles", a 169th trial's added *not*) go nowhere new
                    claim_beyond = claim_beyond or i1 == 0 or not set(content_stems(co[i1:i2])) <= stems_of(source_text)
                    continue
                if (t == "replace" and held and i1 == 0 and NEGATOR.fullmatch(sw[j2 - 1])  # "There is no" (164th)
                        and all(light_token(w) for w in sw[j1:j2 - 1])
                        and not all(light_token(w.lower()) for w in co[i1:i2])
                        and not any(NEGATOR.fullmatch(w) for w in cw[i1:i2])):  # "did not affect" / "without affecting"
                    # the claim's context where the sentence opens with its negation: "In the M16 + FCS fetuses,
                    # alterations were detected for ... Mest" for "No alterations were detected for ... Mest" (32nd)
                    claim_beyond = True
                    negs.append(("source", sw[j2 - 1], (" ".join(co[i2:i2 + 1]), " ".join(so[j1:j2 + 1]))))
                    continue
                if t == "insert" and sw[j1] in _CONJ and (k := max((k for k in range(j1, j2) if NEGATOR.fullmatch(sw[k])),
                                                               default=None)) is not None:
                    # a conjunct the claim leaves out, then the negation ("... drug pressure and has achieved treatment
                    # shortening in mice, does not diffuse well" for "... drug pressure, diffuses well", a 59th trial)
                    head = k - 1 if k - 1 > j1 and sw[k - 1] in AUX else k
                    j1 = head if head - j1 >= 3 and not any(NEGATOR.fullmatch(w) for w in sw[j1:head]) else j1
                if t == "insert" and 0 < i1 < len(cw) and _conjunct(sw[j1:j2]):
                    continue  # the sentence says more of the same subject, in a conjunct the claim leaves out
                if t == "insert" and (i1 == len(cw) or (i1 == 0 and not NEGATOR.fullmatch(sw[j2 - 1]))):
                    # the sentence says more before or after the claim's words ("... in men but not in women"); a
                    # contrasting clause after all of them ("disrupted ... in mitosis but had no effect on ... in
                    # interphase cells", an eighth trial) negates another thing than the claim's
                    contrast = i1 == len(cw) and i1 > 0 and sw[j1] in _CONTRAST and content_stems(co[-2:])
                    negates_beyond = negates_beyond or (not contrast and any(NEGATOR.fullmatch(w) for w in sw[j1:j2]))
                    continue
                if (t == "delete" or (t == "replace" and i2 == len(cw))) and _context_words(
                        co[i1:i2], sw[j1:j2], source_text):
                    continue  # the claim names what the sentence leaves to its context ("Lungs of Slc23a1-/- mice")
                if t == "replace" and {" ".join(cw[i1:i2]), " ".join(sw[j1:j2])} == {"like", "unlike"}:
                    continue  # "Like TNF, IL-6 up-regulated" for "Unlike TNF, IL-6 did not up-regulate" (a 63rd trial):
                    # what is said of IL-6 is the negation's; the comparison with TNF turns with it
                if t == "replace" and (names_referent(co[i1:i2], so[j1:j2], source_text)
                                       or names_writers(co[i1:i2], so[j1:j2])):  # "the authors" / "we" (a 60th trial)
                    continue  # "The beta6-Fyn-FAK complex" for "This complex" (a twelfth trial)
                if t == "insert" and i1 == 0:
                    j1 = j2 - 1  # a negation right before the claim's first word ("No significant ...")
                if t == "replace":  # a conjunct of the sentence's own before the word that differs ("which can be
                    # synthesized" for "which must be obtained through the diet and cannot be synthesized", 42nd)
                    cut = next((p for p in range(j2 - 2, j1, -1) if sw[p] in ("and", "or") and _conjunct(sw[j1:p + 1])),
                               None)
                    j1 = cut + 1 if cut is not None else j1
                c_neg = [k for k in range(i1, i2) if NEGATOR.fullmatch(cw[k])]
                s_neg = [k for k in range(j1, j2) if NEGATOR.fullmatch(sw[k])]
                if bool(c_neg) != bool(s_neg) and _EXCEPTING.intersection(cw[i1:i2] if s_neg else sw[j1:j2]):
                    continue  # "replication, unlike mitosis, is required" for "replication, but not mitosis, is"
                spans = (" ".join(co[i1:i2 + 1]), " ".join(so[j1:j2 + 1]))  # with the word the negation governs
                negs += [("claim", cw[k], spans) for k in c_neg] + [("source", sw[k], spans) for k in s_neg]
                at = j1 if c_neg else at  # where the sentence stands without the claim's negation
                if any(k + 1 < len(sw) and sw[k + 1] in _NOT_A_DENIAL for k in s_neg) or any(
                        k + 1 < len(cw) and cw[k + 1] in _NOT_A_DENIAL for k in c_neg):
                    ok = False
                    break
                c_rest = [co[k] for k in range(i1, i2) if k not in c_neg]
                s_rest = [so[k] for k in range(j1, j2) if k not in s_neg]
                c_heavy = [w for w in c_rest if not light_token(w.lower())]  # "BiPSCs did" / "beta cell-derived
                s_heavy = [w for w in s_rest if not light_token(w.lower())]  # iPSCs": the term past "did" (96th)
                if not all(light_token(w.lower()) or w.lower() in _MANNER for w in c_rest + s_rest) and not (
                        (c_rest and s_rest and same_term(c_rest, s_rest, source_text))
                        or (c_heavy and s_heavy and same_term(c_heavy, s_heavy, source_text))):
                    ok = False
                    break
            if len(negs) > 1 and len({side for side, _w, _s in negs}) == 1:
                negs = [n for n in negs if n[1] != "nor"] or negs  # "not formally reported to A, B, nor to WHO" (45th)
            if not ok or len(negs) != 1:
                continue
            side, word, (c_span, s_span) = negs[0]
            # a view or question framing the negated words (before them, or a modal just after): "Although it is
            # known that iNKT cells recognize ..., how and where ... remains unclear" frames nothing (a 61st trial)
            denies_view = side == "claim" and c_span.split()[-1:] != [] and c_span.split()[-1].lower() in SETS_IN_DOUBT
            if side == "claim" and ((set(sw[:at + 2]) & SETS_IN_DOUBT and not denies_view) or negates_beyond
                                    or claim_beyond or states_same_negation(claim_text, source_text or passage)):
                continue  # (a view the claim itself denies is no view framing the words: "The hygiene hypothesis is
                # not thought to be a significant contributor" for "is thought to be", a 96th trial)
            head = c_span.split()[-1] if c_span.split() else ""
            if side == "source" and head and re.search(rf"\b(?:rather than|instead of|as opposed to)\b(?:\W+\w+){{0,3}}"
                                                        rf"\W+{re.escape(head)}\b", claim_text, re.I):
                continue  # the claim denies it its own way ("rather than by increasing" for "without increasing")
            if side == "source" and c_span and re.search(rf"\b(?:absent|abolished|abrogated|lost|missing|disappeared|"
                                                         rf"unaffected|unchanged)\W+(?:[\w-]+\W+){{0,2}}?"
                                                         rf"{re.escape(c_span)}\b", claim_text, re.I):
                continue  # "an effect that was absent in mice lacking" for "but not in mice lacking" (a 90th trial)
            if side == "source" and _LEFT_OUT.search(claim_text) and not _LEFT_OUT.search(whole):
                continue  # the claim turns the condition round itself ("Men who had received hormonal therapy ... were
                # excluded" for "Patients were included if ... they received no hormonal therapy", a 122nd trial's
                # faithful claim, *contradicted* by this rule)
            what = "leaves out" if side == "source" else "adds"
            return Tag("polarity_flip", f"The claim says {c_span!r} where the source says {s_span!r} (it {what} "
                       f"{word!r}), every other word alike: \u201c{whole[:200]}\u201d", 0.9,
                       (TagEvidence(c_span, s_span),), proven=True)
    return None


_HAVING = frozenset({"with", "had", "has", "have", "having", "a", "an", "any"})
"""Words of having before a negated noun's run ("with no history of" / "had a history of")."""
_DO = frozenset({"do", "does", "did"})
"""The word that carries a negation of a verb (*does not increase*): the claim's word before the verb is free."""


def _elliptic(text: str, words: list[str], j: int) -> bool:
    """The negation ``words[j]`` (lower-case tokens of ``text``) stands before a comma, semicolon or stop in ``text``:
    it negates a verb left out (*do not,*), not the words after it."""
    nth = words[:j].count(words[j])
    hits = list(re.finditer(rf"\b{re.escape(words[j])}\b", text, re.I))
    return nth < len(hits) and re.match(r"\s*[,;:.]", text[hits[nth].end():]) is not None


_LEFT_OUT = re.compile(r"\b(?:exclud\w*|ineligible|disqualif\w*|barred|omitted)\b", re.I)
"""Words by which a claim leaves out those a condition names (the source's *included if ... no X* said as *those with
X were excluded*)."""
_FIRST_CLAUSE = re.compile(r"^((?:[^,()]|\([^()]*\))+),\s")
_SUBORDINATE = frozenset("although though while whereas if unless because since when unlike like despite as after "
                         "before once given in by for with to".split())


def negation_dropped_in_clause(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """:func:`negation_dropped` on the claim's first clause: the words before its first comma (outside brackets),
    a main clause (not opening with a subordinator or a preposition) of at least six content words; or, where that
    clause opens with one, on the claim's words after it. "An increasing
    number of studies now demonstrate that many opportunistic pathogens conform to these assumptions, maintaining
    virulence factors because they aid parasitic exploitation" for "... many opportunistic pathogens (OPs) do not
    conform to these assumptions, with virulence factors maintained instead because of advantages in non-parasitic
    contexts": the clause after the comma differs, so the whole claim restated no sentence word for word, and a 75th
    trial's claim was *supported* (P(entails) 0.87). Code shows it: confidence 0.9, ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source.

    Returns:
        A ``polarity_flip`` tag whose message names the clause, or None.
    """
    m = _FIRST_CLAUSE.match(claim_text)
    if not m:
        return None
    clause = m.group(1).strip()
    words = _TOKEN_RE.findall(clause)
    which = "first"
    if words and words[0].lower() in _SUBORDINATE:  # "Despite reprogramming, the beta cell-derived iPSCs did not
        # maintain ..." for "However, the beta cell-derived iPSCs (BiPSCs) maintained ..." (a 96th trial): the main
        # clause after the opening one
        clause, which = claim_text[m.end():].strip().rstrip("."), "main"
        words = _TOKEN_RE.findall(clause)
    if not words or words[0].lower() in _SUBORDINATE or len(content_stems(words)) < 3:
        return None
    if len(content_stems(words)) < 6:  # a short clause, read only on sentences restating the whole claim ("Chromatin is
        # an inert structure, serving as a DNA scaffold ..." for "Chromatin is not an inert structure, but rather an
        # instructive DNA scaffold ...", a 132nd trial: *supported*)
        pool = [sent for _passage, sent in restating(claim_text, pool)]
    tag = negation_dropped(clause + ".", pool, source_text)
    if tag is None:
        return None
    return dataclasses.replace(tag, message=tag.message.replace(
        "every other word alike", f"the other words of the claim's {which} clause alike"))


def _clause_ends(text: str) -> set[int]:
    """Indexes of the word tokens (:data:`_TOKEN_RE`) of ``text`` after which a comma, semicolon, colon or the end
    of ``text`` stands."""
    spans = [m.span() for m in _TOKEN_RE.finditer(text)]
    return {k for k, (_a, b) in enumerate(spans)
            if k == len(spans) - 1 or re.search(r"[,;:.]", text[b:spans[k + 1][0]])}


def _runs_after(long: list[str], j: int, ends: set[int]) -> list[tuple[list[str], bool]]:
    """The runs of words after the negation ``long[j]`` to find on the other side: six words, or up to ten where
    they hold fewer than three content words ("have not been diagnosed with MS according to the previous
    criteria", a 142nd trial); then the words up to the end of its clause, three or more holding three content
    words ("do not develop atherosclerotic plaques spontaneously, although they do become obese" for "mice develop
    atherosclerotic plaques spontaneously, followed by obesity", a 151st trial), marked True. None holding a
    negation."""
    out = []
    if j < len(long) - 6:
        n = 6
        while n < 10 and j + 1 + n <= len(long) and sum(not light_token(x) for x in long[j + 1:j + 1 + n]) < 3:
            n += 1
        out.append((long[j + 1:j + 1 + n], False))
    end = min((k for k in ends if k > j), default=len(long) - 1)
    clause = long[j + 1:end + 1]
    if len(clause) >= 3 and (not out or len(clause) < len(out[0][0])):
        out.append((clause, True))
    return [(r, c) for r, c in out if sum(not light_token(x) for x in r) >= 3 and not any(NEGATOR.fullmatch(x) for x in r)]


_FAIL_WORDS = frozenset({"fail", "fails", "failed", "failing", "unable", "cannot", "lack", "lacks", "lacked", "lacking"})
"""Words that deny what follows them as a negation does."""
_GAP_WORDS = frozenset({"only", "rarely", "hardly", "seldom", "barely", "scarcely", "little", "less", "fewer", "few",
                        "partly", "partially", "weakly", "not", "no", "never"})


def _holds_run(short: list[str], i: int, run: list[str], gaps: bool = True) -> int:
    """How many words of ``short`` from ``i`` hold ``run`` word for word (by stem), or with up to two words of its
    own inside it ("are induced but nonpathogenic in the IL-10 transgenic mice" for "are not induced in the IL-10
    transgenic mice", a 153rd trial; "hypersensitive to particular protein synthesis inhibitors" for "not
    hypersensitive to protein synthesis inhibitors", a 159th; words that weaken or deny, :data:`_GAP_WORDS`, do not
    count as such); 0 when it does not hold it. Without ``gaps``, word for word only (a claim's own words inside the
    source's run, "An association was found between" for "no association found between", are the claim's
    rewording)."""
    want = [stem(x) for x in run]
    if [stem(x) for x in short[i:i + len(run)]] == want:
        return len(run)
    for gap in range(1, 3 if gaps else 1):
        for at in range(1, len(run)):
            got = short[i:i + at] + short[i + at + gap:i + len(run) + gap]
            if len(got) == len(run) and [stem(x) for x in got] == want and not (
                    set(short[i + at:i + at + gap]) & _GAP_WORDS):
                return len(run) + gap
    return 0


def negation_in_run(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A negation on one side only inside a run of words both sides share: the word before it and the six after it
    alike, three of those content words. "the resulting increase in H3K27me3 is always sufficient to prevent
    transcriptional activation" for "which despite an increase in H3K27me3 levels is not always sufficient to prevent
    transcriptional activation" (an 81st trial: *partial*; the words farther off differ, so :func:`negation_dropped`
    did not read it). A negation the claim adds counts only where the sentence reports no view or question and no
    sentence of the source negates what the claim negates. Code shows it: confidence 0.9, ``proven``."""
    for _passage, sent in ((p, s) for p in pool for s in split_sentences(p)):
        if overlap_score(claim_text, sent) < RESTATE_AT:
            continue
        # (*unable to* as *not able to* where the other side is able: "demonstrating that RISC is unable to unfold
        # structured RNA" for "is able to unfold structured RNA", a 160th trial: *supported*)
        ctext, stext = _unable(claim_text, sent), _unable(sent, claim_text)
        cw, sw = [w.lower() for w in _TOKEN_RE.findall(ctext)], [w.lower() for w in _TOKEN_RE.findall(stext)]
        for long, short, side in ((sw, cw, "source"), (cw, sw, "claim")):
            ends = _clause_ends(ctext if side == "claim" else stext)
            for j, w in enumerate(long):
                if not (0 < j < len(long) - 1 and NEGATOR.fullmatch(w)) or long[j + 1] in _NOT_A_DENIAL:
                    continue
                if _elliptic(ctext if side == "claim" else stext, long, j):
                    continue  # "whereas normal pre-BI cells do not, commitment to ...": the negation ends its clause
                    # (a 144th trial's faithful claim had a proven flip)
                at, run, held = None, [], 0
                for run, clause in _runs_after(long, j, ends):
                    at = next((i for i in range(1, len(short)) if (short[i - 1] == long[j - 1] or {
                        short[i - 1], long[j - 1]} <= _HAVING or {short[i - 1], long[j - 1]} <= BE_FORMS
                        or long[j - 1] in _DO or w == "no") and (held := _holds_run(short, i, run, side == "claim")) and not (
                        clause and any(NEGATOR.fullmatch(x) for x in short[i + held:]))), None)  # (a clause's
                    # run where the other side denies something after it: "associated with cell growth in mouse skin
                    # but not in human skin" for "was not associated with cell growth")  # ("who had a
                    # history of" for "men with no history of ...", a 125th trial: *supported*; "DNase treatment of
                    # CF sputum also increases the activities of protease 3" for "... does not increase ...", a 132nd)
                    if at is not None:
                        break
                if at is None or any(NEGATOR.fullmatch(x) or x in _FAIL_WORDS for x in short[max(0, at - 3):at]):
                    continue  # (or a verb of failing: "fail to proliferate after fusion" for "do not proliferate
                    # after fusion", a 120th trial's faithful claim)
                if side == "claim" and (set(sw) & SETS_IN_DOUBT or states_same_negation(claim_text, source_text or sent)):
                    continue
                if side == "source" and _LEFT_OUT.search(claim_text) and not _LEFT_OUT.search(sent):
                    continue  # "... were excluded" for "included if ... no ..." (see :func:`negation_dropped`)
                said = " ".join(_TOKEN_RE.findall(ctext)[at - 1 if side == "source" else j - 1:][:8])
                theirs = " ".join([long[j - 1], w] + run) if side == "source" else " ".join(short[at - 1:at + held])
                return Tag("polarity_flip", f"The claim says {said!r} where the source "
                           f"{'says' if side == 'source' else 'has'} {theirs!r} (it "
                           f"{'leaves out' if side == 'source' else 'adds'} {w!r}): \u201c{sent[:200]}\u201d", 0.9,
                           (TagEvidence(said, theirs),), proven=True)
    return None


_NO_DIFFERENCE = re.compile(r"\bno\s+(?:statistically\s+)?significant\s+(?:difference|change|effect)s?\s+(?:in|on|of|for)\s+"
                            r"(?:the\s+)?(?P<what>[\w-]+)", re.I)
_SIGNIFICANTLY = re.compile(r"\bsignificant(?:ly)?\s+(?:higher|lower|greater|smaller|larger|increased|decreased|reduced|"
                            r"elevated|more|less|fewer|shorter|longer|increases?|decreases?|reductions?)\s+(?:the\s+)?"
                            r"(?:[\w-]+\s+){0,1}?(?P<what>[\w-]+)", re.I)


def null_against_difference(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *no significant difference in X* where a sentence restating it reports X *significantly higher*
    (lower, increased...): "the knockout mice showed no significant difference in the acrophase of locomotor activity"
    for "the knockout mice had a significantly higher acrophase in locomotor activity" (an 81st trial: *partial*, an
    unproven flip). X is the same word (by stem) right after both; no sentence of the source states no difference in
    it. Code shows it: confidence 0.9, ``proven``."""
    for m in _NO_DIFFERENCE.finditer(claim_text):
        what = stem(m.group("what").lower())
        for _passage, sent in restating(claim_text, pool):
            d = next((d for d in _SIGNIFICANTLY.finditer(sent) if stem(d.group("what").lower()) == what), None)
            if d is None:
                continue
            if any(stem(n.group("what").lower()) == what for s in split_sentences(source_text or sent)
                   for n in _NO_DIFFERENCE.finditer(s)):
                return None
            return Tag("polarity_flip", f"The claim says {m.group(0)!r} where the source says {d.group(0)!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(m.group(0), d.group(0)),), proven=True)
    return None


_ENDED = re.compile(r"\bno\s+longer\s+(?P<rest>(?:[\w-]+\s+){1,3})", re.I)
_LASTED = re.compile(r"\b(?:remain(?:s|ed)?|still|continu(?:es|ed) to be)\s+(?P<rest>(?:[\w-]+\s+){1,3})", re.I)
"""*no longer X* (a state that ended) and *remained X*, *still X*, *continued to be X* (one that lasted)."""


def ended_for_lasted(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *no longer X* where a sentence restating it says *remained X* (or *still X*), or the other way
    round, X the same words by stem (*be* and the adverbs read past): "BMI was no longer significantly associated with
    the risk of death once waist circumference ... was included" for "BMI remained significantly associated with the
    risk of death in models that included waist circumference" (an 88th trial: *partial*; the judge read the
    restating sentence P(contradicts) 0.22). No sentence of the source says it the claim's way. Code shows it:
    confidence 0.9, ``proven``."""
    def heads(m: re.Match) -> list[str]:
        words = [w for w in m.group("rest").lower().split() if w not in ("be", "been") and not w.endswith("ly")]
        return [stem(w) for w in words[:1] if w not in STOPWORDS]  # a content word ("remain in place" says no state)

    for mine, theirs in ((_ENDED, _LASTED), (_LASTED, _ENDED)):
        for m in mine.finditer(claim_text + " "):
            what = heads(m)
            if not what:
                continue
            for _passage, sent in restating(claim_text, pool):
                d = next((d for d in theirs.finditer(sent + " ") if heads(d) == what), None)
                if d is None or any(heads(n) == what for s in split_sentences(source_text or sent)
                                    for n in mine.finditer(s + " ")):
                    continue
                a, b = m.group(0).strip(), d.group(0).strip()
                return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}: \u201c{sent[:200]}\u201d",
                           0.9, (TagEvidence(a, b),), proven=True)
    return None


_NO_DIFFERENCE_SAID = re.compile(r"\b(?:(?:did|do|does) not (?:significantly )?differ|no (?:statistically )?(?:significant )?"
                                 r"differences?|not (?:significantly |statistically )?different|(?:were|was|are|is) "
                                 r"(?:similar|comparable)|similar|comparable)\b", re.I)
"""A difference denied or a likeness stated: *did not differ*, *no significant difference*, *similar*, *comparable*."""


def states_no_difference(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content
    words) that says, as the claim does, that what it compares did not differ: "Duration of hospitalization and the
    time from study entry to intubation did not differ between the groups" for "The two groups had a similar ...
    time interval from study entry to endotracheal intubation, duration of hospitalization, and hospital mortality"
    (an 89th trial's faithful claim, *contradicted* at P(contradicts) 0.92: the network reads the denied difference
    against the stated likeness). Neither has another negation or a direction word. None otherwise."""
    m = _NO_DIFFERENCE_SAID.search(claim_text)
    if m is None or not text:
        return None
    rest = claim_text[:m.start()] + " " + claim_text[m.end():]
    if NEG_ANY_SIDE.search(rest) or _turns(rest):
        return None
    for _passage, sent in restating(claim_text, [text]):
        d = _NO_DIFFERENCE_SAID.search(sent)
        if d is None:
            continue
        other = sent[:d.start()] + " " + sent[d.end():]
        if not (NEG_ANY_SIDE.search(other) or _turns(other)):
            return sent
    return None


def _turns(text: str) -> bool:
    """``text`` holds a direction word (the cues: *higher*, *reduced*, *better*)."""
    return any(rx.match(w) for w in _TOKEN_RE.findall(text) for rx in CUE_RES.values())


_SET_APART = re.compile(r",?\s*\b(?:not (?:merely|simply|just|solely)|rather than(?: simply| merely| just)?|instead of|"
                        r"as opposed to)\b", re.I)
"""*X, not merely Y*, *X rather than simply Y*: one thing stated, another set apart."""


def states_same_contrast(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content
    words) that sets apart what the claim sets apart, in its own words: "MyD88-dependent signaling governs Th17
    differentiation itself, not merely the production of IL-17" for "... controls Th17 differentiation rather than
    simply production of IL-17" (a 91st trial's faithful claim, *contradicted* at P(contradicts) 0.83: the network
    reads the claim's *not* as a denial). Neither has another negation. None otherwise."""
    m = _SET_APART.search(claim_text)
    if m is None or not text or NEG_ANY_SIDE.search(claim_text[:m.start()] + " " + claim_text[m.end():]):
        return None
    for _passage, sent in restating(claim_text, [text]):
        d = _SET_APART.search(sent)
        if d is not None and not NEG_ANY_SIDE.search(sent[:d.start()] + " " + sent[d.end():]):
            return sent
    return None


def states_same_direction(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content
    words) that turns what the claim turns the same way in other words: the two hold as many direction words (the
    cues: *raised*, *smaller*, *elevated*) of each class, neither negates, every number of the claim stands in the
    sentence and so does every word of the claim's that widens to every case (:data:`_WIDE`: *always*, *all*). "Mice
    lacking FXR show a lipid profile that favours atherosclerosis, with raised serum cholesterol and triglycerides"
    for "... a proatherosclerotic lipid profile with
    increased serum cholesterols and triglycerides" (a 99th trial's faithful claim, *contradicted* at P(contradicts)
    0.91: the network reads one direction word for another as a turn). None otherwise."""
    mine = _cue_classes(claim_text)
    if not mine or _negates(claim_text) or not text:
        return None
    numbers = set(re.findall(r"\d+(?:\.\d+)?", claim_text))
    for _passage, sent in restating(claim_text, [text]):
        if _negates(sent):
            continue
        if (_cue_classes(sent) == mine and numbers <= set(re.findall(r"\d+(?:\.\d+)?", sent))
                and {w.lower() for w in _WIDE.findall(claim_text)} <= {w.lower() for w in _WIDE.findall(sent)}
                and not antonym_for(claim_text, sent)):
            return sent  # (not where the claim widens: "have always involved" for "often have involved", a 78th
            # trial's false claim the judge had rightly contradicted)
    return None


_BUT_NOT = re.compile(r"\bbut not(?: with| in| for| by| on| to)?\s+(?P<items>[^;.()]+)", re.I)
_DENIES = re.compile(r"\b(?:neither|nor|not|no)\b", re.I)


def states_excluded(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content
    words) that excludes by *but not* what the claim denies: "Neither carer gender nor patient gender was associated
    with carers' levels of unmet needs" for "Carer levels of unmet needs were significantly associated with carer age,
    ...; but not with carer gender or patient gender" (a 108th trial's faithful claim, *contradicted* at
    P(contradicts) 0.97: the network read the list of what is associated). Every content word the *but not* names
    stands in the claim, two of them at least, and the claim denies. None otherwise."""
    if not text or not _DENIES.search(claim_text):
        return None
    mine = stems_of(claim_text)
    for _passage, sent in restating(claim_text, [text]):
        for m in _BUT_NOT.finditer(sent):
            named = stems_of(m.group("items"))
            if len(named) >= 2 and named <= mine:
                return sent
    return None


_WIDE = re.compile(r"\b(?:always|never|all|every|invariably|universally|entirely|completely)\b", re.I)
"""Words that widen a finding to every case."""


def _negates(text: str) -> bool:
    """A word of ``text`` negates (*not*, *no*, *never*; not *lacking*: "Mice lacking FXR" turns nothing)."""
    return any(NEGATOR.fullmatch(w) for w in _TOKEN_RE.findall(text))


def antonym_for(claim_text: str, sent: str) -> bool:
    """A word of the claim the sentence lacks whose opposite (:data:`~citeproof.detectors.cues.ANTONYMS`) the sentence
    has: "18 were negative for MLH1 promoter hypermethylation" for "18 were positive, and 1 was equivocal for ..." (a
    115th trial's false claim, whose contradiction the judge had said and :func:`states_same_direction` had doubted)."""
    from citeproof.detectors.cues import ANTONYMS

    mine = {w.lower() for w in _TOKEN_RE.findall(claim_text)}
    theirs = {w.lower() for w in _TOKEN_RE.findall(sent)}
    return any(len(pair) == 2 and (a in mine - theirs and b in theirs - mine or b in mine - theirs and a in theirs - mine)
               for pair in ANTONYMS for a, b in [tuple(pair)])


def _cue_classes(text: str) -> Counter:
    """How many of ``text``'s words are cues of each direction class (*up*, *down*, *good*, *bad*)."""
    return Counter(c for w in _TOKEN_RE.findall(text) for c, rx in CUE_RES.items() if rx.match(w))
