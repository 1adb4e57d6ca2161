"""A reversal inside a run of words the claim shares with a source sentence (issue 28): a false claim often joins
words of two source sentences or leaves out an item of the sentence's list, so the word diff is not one word for one;
:func:`reversal_in_run` counts the content words stated alike on each side of the turned word. Tried by
:func:`citeproof.detectors.reversals.restated_flip`; code shows it: confidence 0.9, ``proven``.
"""

from __future__ import annotations

from citeproof.detectors.cues import DEGREE, NEGATOR, PREPOSITIONS, WHEN, light_token
from citeproof.detectors.restated import _conjunct, _opposite, _readings
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, stem_opcodes

__all__ = ["RUN_AROUND", "reversal_in_run", "turned_in_place"]



def _run_content(ops: list[tuple[str, int, int, int, int]], cw: list[str], sw: list[str],
                 source_text: str = "") -> tuple[int, set[str]]:
    """Walking ``ops`` in the order given, the content words (3+ characters, not stop words) of the claim that the
    sentence states word for word, up to the first difference that is not light (:func:`light_token`), a conjunct
    the claim leaves out (:func:`_conjunct`) or three words or more the sentence adds without a negation; and their
    stems. Claim words naming what the sentence's *this* points back to count as stated (``names_referent``: "When
    the disposition index is altered there is a lower risk" for "When this is altered there is a higher risk", a
    27th trial)."""
    from citeproof.detectors.terms import names_referent, same_term

    n, stems = 0, set()
    for t, i1, i2, j1, j2 in ops:
        if t == "equal" or (t == "replace" and "".join(cw[i1:i2]).replace("-", "") == "".join(sw[j1:j2]).replace("-", "")) or (
                t == "replace" and source_text and (names_referent(cw[i1:i2], sw[j1:j2], source_text)
                                                                or same_term(cw[i1:i2], [w.upper() for w in sw[j1:j2]],
                                                                             source_text))):
            # (or the term the source abbreviates, written in capitals: "blocking lipid droplet biogenesis" for
            # "blocking LD biogenesis", an 87th trial)
            words = [w for w in cw[i1:i2] if len(w) >= 3 and w not in STOPWORDS]
            n, stems = n + len(words), stems | {stem(w) for w in words}
        elif t == "insert" and (_conjunct(sw[j1:j2]) or (j2 - j1 >= 3 and not any(NEGATOR.fullmatch(w) for w in sw[j1:j2]))):
            # a conjunct or aside of the sentence's own, or an item of its list ("had been above average at sports in
            # school, more outgoing socially in adolescence, had fewer ...", an eighth trial), left out by the claim
            continue
        elif not all(light_token(w) for w in cw[i1:i2] + sw[j1:j2]) and not (
                i2 - i1 == j2 - j1 == 1 and {cw[i1], sw[j1]} <= PREPOSITIONS):  # "through" / "after" (an 87th trial)
            break
    return n, stems


def _beside(cw: list[str], i: int, words: list[str]) -> bool:
    """``words`` hold the claim's word ``cw[i]`` with the claim's next content word (3+ letters, no stop word) the next
    after it, by stem; or the claim's word ends the claim and stands in ``words``."""
    after = next((stem(w) for w in cw[i + 1:] if len(w) >= 3 and w not in STOPWORDS), None)
    for k, w in enumerate(words):
        if stem(w) == stem(cw[i]):
            nxt = next((stem(x) for x in words[k + 1:] if len(x) >= 3 and x not in STOPWORDS), None)
            if after is None or nxt == after:
                return True
    return False


def _in_turn(words: list[str], there: list[str]) -> bool:
    """``words`` stand in ``there`` in the same order (by stem), others between them."""
    it = iter(stem(w) for w in there)
    return all(any(stem(w) == x for x in it) for w in words)


RUN_AROUND = (2, 5)
"""A reversal inside a run (:func:`_reversal_in_run`): at least 2 content words stated alike on each side of the
reversed word, and 5 in all."""


def reversal_in_run(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A reversal inside a run of words the claim shares with a pool sentence, where claim and sentence go on
    differently before or after it (a false claim joining two sentences of the source): "The use of NIV was
    associated with a significant increase in the rate of endotracheal intubation in recipients of ..." against
    "... with a significant reduction in the rate of endotracheal intubation (20% vs 70%) ...".

    One word of the claim turned into its opposite (:func:`_opposite`) with, on each side, the claim's words stated
    alike up to the first difference that is not light: at least :data:`RUN_AROUND` content words. Not when some
    sentence of the source states the claim's own word with those content words (the source says both, of
    different things). Found by a new user's trial on a SciFact abstract (2026-12-06): a 0.85 ``polarity_flip`` that
    did not escalate. Code shows it: confidence 0.9, ``proven``.
    """
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    each, total = RUN_AROUND
    for passage in pool:
        for sent in (r for whole in split_sentences(passage) for r in _readings(whole)):
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            ops = stem_opcodes(cw, sw)
            for k, (t, i1, i2, j1, j2) in enumerate(ops):
                if t != "replace":
                    continue
                # one word for one, light tokens beside it ("centrosomes and enhanced" / "centrosomes, inhibited")
                # (a degree word is the reversed word too: "ZAR 29.2 less on traditional healers" for "more", 36th)
                ca = [x for x in range(i1, i2) if not light_token(cw[x]) or cw[x] in DEGREE]
                sa = [x for x in range(j1, j2) if not light_token(sw[x]) or sw[x] in DEGREE]
                if i2 - i1 == j2 - j1 == 1 and _opposite(cw[i1], sw[j1], cw[i2:]):
                    ca, sa = [i1], [j1]  # two light words, opposites, one for the other ("switched 'off'" for "'on'")
                if i2 == len(cw) and len(sa) > 1:  # the claim ends here: the sentence's first word past *still*
                    ca = [x for x in ca if cw[x] not in WHEN and not cw[x].endswith("ly")]  # "rise sharply" (93rd)
                    sa = [x for x in sa if sw[x] not in WHEN][:1]
                elif len(sa) > 1 and (cut := max((x for x in range(j1, j2) if sw[x] == "and"), default=None)):
                    # the sentence's own conjunct before the turned verb: "death was associated with LD depletion and
                    # was accelerated by blocking" for "death was delayed by blocking" (an 87th trial)
                    sa = [x for x in sa if x > cut]
                elif len(sa) > 1 and len(ca) == 1 and _opposite(cw[ca[0]], sw[sa[0]], cw[ca[0] + 1:]):
                    sa = sa[:1]  # the turned word first, words of the sentence's own after it ("further decrease at
                    # discharge" for "further increase as selection at discharge", a 96th trial)
                if len(ca) != 1 or len(sa) != 1 or not _opposite(cw[ca[0]], sw[sa[0]], cw[ca[0] + 1:]):
                    continue
                i1, j1 = ca[0], sa[0]
                (left, ls), (right, rs) = (_run_content(ops[:k][::-1], cw, sw, source_text),
                                           _run_content(ops[k + 1:], cw, sw, source_text))
                # both open alike up to the turned word: the left side is whole however short ("There were
                # significantly more sandflies in the intervention group" for "... fewer sandflies ...", a 44th trial)
                whole = all(t == "equal" for t, *_ in ops[:k]) and left >= 1 and right >= 3
                # or what it turns is long and alike: "showed significantly lower food intake, oxygen consumption and
                # carbon dioxide production" for "there was significantly greater food intake, ..." (an 81st trial)
                long_after = left >= 1 and right >= 5
                # or the claim ends with it, four content words alike before ("In most of the world, COPD prevalence
                # and mortality are now declining" for "... are still increasing and likely will continue", 88th)
                rest = [w for w in cw[i1 + 1:] if w not in WHEN and not w.endswith("ly")]
                last = left >= 4 and len(rest) <= 4 and _in_turn(rest, sw[j1 + 1:])  # "with a further decrease at
                # discharge" for "with further increase as selection at discharge (89.4%-89.8%)" (a 96th trial)
                # or both end alike after it, four content words: "was correlated with an increase in the
                # phosphorylation of 4EBP1, an mTORC1 effector" for "... a reduction in ..." (a 153rd trial, *partial*)
                ends = left >= 1 and right >= 4 and all(t == "equal" for t, *_ in ops[k + 1:]) or (
                    # or four content words alike before it and the sentence's every word after it the claim's: "The
                    # index of internal consistency reliability was insufficient for all scales of the questionnaire"
                    # for "... was sufficient for all scales." (a 160th trial: *partial*, no tag)
                    left >= 4 and right >= 1 and all(t in ("equal", "delete") for t, *_ in ops[k + 1:]))
                if (left < each or right < each or left + right < total) and not (whole or long_after or last or ends):
                    continue
                need = ls | rs | {stem(cw[i1])}
                if any(need <= {stem(w) for w in _TOKEN_RE.findall(other.lower())} and (
                        other.lower() != sent.lower() or _beside(cw, i1, [w.lower() for w in _TOKEN_RE.findall(other)]))
                       for other in split_sentences(source_text or passage)):
                    continue  # the source also says it the claim's way (in this sentence, with the claim's word beside
                    # the words next to it: "switched 'on' by engagement with bone-lining cells ..., and switched
                    # 'off' by osteoclasts" holds 'off' of the osteoclasts only, a 135th trial)
                a, b = cw[i1], sw[j1]
                return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, the words around it "
                           f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
    return None


def _alike(cw: list[str], k: int, sw: list[str], j: int, step: int) -> int:
    """Content words alike (by stem) going ``step`` from ``cw[k]`` and ``sw[j]`` in step, light tokens passed over on
    either side, up to the first that differ."""
    n, k, j = 0, k + step, j + step
    while 0 <= k < len(cw) and 0 <= j < len(sw):
        if light_token(cw[k]):
            k += step
            continue
        if light_token(sw[j]):
            j += step
            continue
        if stem(cw[k]) != stem(sw[j]):
            break
        n, k, j = n + 1, k + step, j + step
    return n


def turned_in_place(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A word of the claim whose opposite stands in a pool sentence with the claim's words alike on both sides (two
    content words or more before, two or more after), where the word diff paired the claim's words with another
    clause of the sentence that says the claim's word of something else: "Lobular involution, the age-related atrophy
    of breast lobules, is positively associated with breast cancer risk, as is mammographic breast density" for "...
    breast lobules, is inversely associated with breast cancer risk, and mammographic breast density (MBD) is
    positively associated ..." (a 118th trial: *supported*, P(entails) 0.97). Not when the source has the claim's own
    word with two of the same content words before it. Code shows it: ``polarity_flip`` at 0.9, ``proven``."""
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    for passage in pool:
        for sent in split_sentences(passage):
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            for k, w in enumerate(cw):
                if light_token(w):
                    continue
                for j, v in enumerate(sw):
                    if v == w or not _opposite(w, v, cw[k + 1:]):
                        continue
                    if _alike(cw, k, sw, j, -1) < 2 or _alike(cw, k, sw, j, 1) < 2:
                        continue
                    if any(_alike(cw, k, ow, x, -1) >= 2 for other in split_sentences(source_text or passage)
                           for ow in [[t.lower() for t in _TOKEN_RE.findall(other)]]
                           for x, t in enumerate(ow) if stem(t) == stem(w)):
                        continue  # the source says the claim's word with the claim's words before it too
                    return Tag("polarity_flip", f"The claim says {w!r} where the source says {v!r}, the words around it "
                               f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(w, v),), proven=True)
    return None

