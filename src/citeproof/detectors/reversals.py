"""Reversals inside a run of words the claim shares with a source sentence (issue 28), and :func:`restated_flip`, the
order in which every reversal rule is tried (those of :mod:`citeproof.detectors.restated` and these).

A false claim often joins words of two source sentences or leaves out an item of the sentence's list, so the word
diff is not one word for one: these rules count the content words stated alike on each side of the reversed word
(:func:`reversal_in_run`) and, where the alignment pairs the claim's direction word with another of the sentence's,
try the claim with that word turned (:func:`reversal_by_flip`). Code shows each: confidence 0.9, ``proven``.
"""

from __future__ import annotations

from citeproof.detectors.cues import CUE_RES, NEGATOR, light_token
from citeproof.detectors.restated import (_conjunct, _exchanged_blocks, _exchanged_in_phrase, _exchanged_roles,
                                          _negation_dropped, _opposite, _readings, _restated_reversal)
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, content_stems, stem_opcodes

__all__ = ["RUN_AROUND", "restated_flip", "reversal_by_flip", "reversal_in_run"]


def _run_content(ops: list[tuple[str, int, int, int, int]], cw: list[str], sw: list[str]) -> tuple[int, set[str]]:
    """Walking ``ops`` in the order given, the content words (3+ characters, not stop words) of the claim that the
    sentence states word for word, up to the first difference that is not light (:func:`light_token`), a conjunct
    the claim leaves out (:func:`_conjunct`) or three words or more the sentence adds without a negation; and their
    stems."""
    n, stems = 0, set()
    for t, i1, i2, j1, j2 in ops:
        if t == "equal":
            words = [w for w in cw[i1:i2] if len(w) >= 3 and w not in STOPWORDS]
            n, stems = n + len(words), stems | {stem(w) for w in words}
        elif t == "insert" and (_conjunct(sw[j1:j2]) or (j2 - j1 >= 3 and not any(NEGATOR.fullmatch(w) for w in sw[j1:j2]))):
            # a conjunct or aside of the sentence's own, or an item of its list ("had been above average at sports in
            # school, more outgoing socially in adolescence, had fewer ...", an eighth trial), left out by the claim
            continue
        elif not all(light_token(w) for w in cw[i1:i2] + sw[j1:j2]):
            break
    return n, stems


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
                ca = [x for x in range(i1, i2) if not light_token(cw[x])]
                sa = [x for x in range(j1, j2) if not light_token(sw[x])]
                if len(ca) != 1 or len(sa) != 1 or not _opposite(cw[ca[0]], sw[sa[0]]):
                    continue
                i1, j1 = ca[0], sa[0]
                (left, ls), (right, rs) = _run_content(ops[:k][::-1], cw, sw), _run_content(ops[k + 1:], cw, sw)
                if left < each or right < each or left + right < total:
                    continue
                need = ls | rs | {stem(cw[i1])}
                if any(need <= {stem(w) for w in _TOKEN_RE.findall(other.lower())}
                       for other in split_sentences(source_text or passage)):
                    continue  # the source also says it the claim's way
                a, b = cw[i1], sw[j1]
                return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, the words around it "
                           f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
    return None


def restated_flip(claim_text: str, pool: list[str], wide: list[str], source_text: str) -> Tag | None:
    """The first reversal a rule of this module or of :mod:`citeproof.detectors.restated` shows between the claim and a
    sentence that restates it.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        wide: ``pool`` and more source sentences about the claim (a short negated sentence the claim holds whole).
        source_text: the whole source (abbreviations it defines; what it also says).

    Returns:
        A proven ``polarity_flip`` tag at confidence 0.9, or None.
    """
    return (_restated_reversal(claim_text, pool) or _negation_dropped(claim_text, wide, source_text)
            or reversal_in_run(claim_text, pool, source_text) or reversal_by_flip(claim_text, pool, source_text)
            or _exchanged_roles(claim_text, pool)
            or _exchanged_in_phrase(claim_text, pool) or _exchanged_blocks(claim_text, pool))


_DEGREE = frozenset({"most", "least", "more", "less", "fewer", "fewest"})


def _direction_words(ops, cw: list[str], sw: list[str]) -> bool:
    """Some difference of ``ops`` other than an insert of the sentence's holds a direction word (:data:`CUE_RES`, a
    degree word of :data:`_DEGREE`) or a negation: the claim may also turn another word (two reversals undo each
    other: "the less active had more problems than the most active")."""
    return any(w in _DEGREE or NEGATOR.fullmatch(w) or any(rx.match(w) for rx in CUE_RES.values())
               for t, i1, i2, j1, j2 in ops if t in ("replace", "delete")
               for w in cw[i1:i2] + sw[j1:j2])


def reversal_by_flip(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A claim that says the opposite of a pool sentence which the word diff aligns elsewhere: "had more health
    problems in childhood than those who were less active" against "had been above average at sports in school,
    more outgoing socially in adolescence, had fewer health problems in childhood, ..., than those who were less
    active" (an eighth trial: the diff paired the claim's *more* with *more outgoing*).

    For each claim word with an opposite (:func:`~citeproof.detectors.restated._opposite`) in the sentence, before
    the claim's next word there and not the claim's own word, the claim is read with that word turned; where the
    turned word then stands with :data:`RUN_AROUND` content words alike on each side (:func:`_run_content`), no other
    difference holds a direction word or negation, and no other sentence of the source says it the claim's way, the
    claim reverses the sentence. Code shows it: confidence 0.9, ``proven``.
    """
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    each, total = RUN_AROUND
    claim_stems = content_stems(claim_text)  # a run needs 2 + 2 words alike: three distinct stems at least
    for passage in pool:
        for sent in (r for whole in split_sentences(passage) for r in _readings(whole)):
            if len(claim_stems & content_stems(sent)) <= each:
                continue  # too few shared content words for a run on each side (a whole full text may be the pool)
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            bigrams = {(stem(x), stem(y)) for x, y in zip(sw, sw[1:])}
            for i, a in enumerate(cw[:-1]):
                after = stem(cw[i + 1])
                if (stem(a), after) in bigrams:
                    continue  # the sentence states the claim's own word before the same word
                for b in dict.fromkeys(w for w in sw if _opposite(a, w) and (stem(w), after) in bigrams):
                    turned = cw[:i] + [b] + cw[i + 1:]
                    ops = stem_opcodes(turned, sw)
                    at = next((k for k, (t, i1, i2, _j, _l) in enumerate(ops) if t == "equal" and i1 <= i < i2), None)
                    if at is None or _direction_words(ops, turned, sw):
                        continue
                    t, i1, i2, j1, j2 = ops[at]
                    # walking out from the turned word: first the rest of its own equal block, then the other ops
                    left_walk = ([("equal", i1, i, j1, j1 + i - i1)] if i > i1 else []) + ops[:at][::-1]
                    right_walk = ([("equal", i + 1, i2, j1 + i + 1 - i1, j2)] if i + 1 < i2 else []) + ops[at + 1:]
                    (left, ls), (right, rs) = _run_content(left_walk, turned, sw), _run_content(right_walk, turned, sw)
                    if left < each or right < each or left + right < total:
                        continue
                    need = ls | rs | {stem(a)}
                    if any(need <= {stem(w) for w in _TOKEN_RE.findall(other.lower())}
                           for other in split_sentences(source_text or passage) if other.lower() != sent.lower()):
                        continue  # another sentence says it the claim's way (this one holds the claim's word by construction)
                    return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, the words around it "
                               f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
    return None
