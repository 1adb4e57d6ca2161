"""Where the entailment judge's *contradicted* is doubtful (issue 28): read on another sentence than the one
restating the claim, or against a sentence that says what the claim says its own way (the same negation, no
difference, a thing set apart, a turn the same way). :func:`citeproof.judges.policy.decide` reads these and makes
such a citation *partial* with ``needs_review``; ``policy`` is its :class:`~citeproof.judges.policy.Policy` (the
lines read: ``judged_overlap_at``, ``restating_clear_below``, ``restating_whole_below``), passed in so this module
stands below it. Each rule was found by new users' trials on SciFact abstracts (docs/meaning.md)."""

from __future__ import annotations

import re

from citeproof.detectors.denials import antonym_for, states_excluded, states_no_difference, states_same_contrast, states_same_direction
from citeproof.detectors.restated import states_same_negation
from citeproof.judges.base import Judgement
from citeproof.model import Verdict
from citeproof.text.stems import overlap_score

__all__ = ["contradicts_a_proposal", "contradicts_elsewhere", "restating_clear", "same_negation"]


def same_negation(claim: str | None, entailment: Judgement, lexical: Judgement) -> tuple[str, object, str] | None:
    """(the sentence, its evidence, how it says what the claim says) where the judged passage, then the lexical
    passage, negates what ``claim`` negates (:func:`citeproof.detectors.restated.states_same_negation`) or denies a
    difference the claim denies (:func:`citeproof.detectors.denials.states_no_difference`), or sets apart what it sets
    apart (:func:`citeproof.detectors.denials.states_same_contrast`); None otherwise."""
    if not claim:
        return None
    for ev in (entailment.evidence, lexical.evidence):
        text = getattr(getattr(ev, "passage", None), "text", None) if ev is not None else None
        if not text:
            continue
        if (sent := states_same_negation(claim, text)) is not None:
            return sent, ev, "negates what the claim negates"
        if (sent := states_no_difference(claim, text)) is not None:
            return sent, ev, "denies the difference the claim denies"
        if (sent := states_same_contrast(claim, text)) is not None:
            return sent, ev, "sets apart what the claim sets apart"
        if (sent := states_same_direction(claim, text)) is not None:
            return sent, ev, "turns what the claim turns the same way"
        if (sent := states_excluded(claim, text)) is not None:
            return sent, ev, "excludes by 'but not' what the claim denies"
    return None


def contradicts_elsewhere(claim: str | None, entailment: Judgement, policy) -> tuple[str, float] | None:
    """(the judged sentence, its share of the claim's content words) when the judge's *contradicted* was read on a
    sentence holding less than :attr:`~citeproof.judges.policy.Policy.judged_overlap_at` of them; None otherwise (or when the rule is off).
    Found by new users' trials (2026-12-06, trials 9-11): faithful paraphrases called *contradicted* at P(contradicts)
    0.94-0.97 on a methods or behavioural-assay sentence holding 18-25% of the claim's words."""
    if not claim or policy.judged_overlap_at <= 0 or entailment.verdict != Verdict.CONTRADICTED:
        return None
    sent = getattr(entailment.evidence, "sentence", None) if entailment.evidence is not None else None
    if not sent:
        return None
    share = overlap_score(claim, sent)
    return (sent, share) if share < policy.judged_overlap_at else None


def restating_clear(claim: str | None, entailment: Judgement, policy) -> tuple[str, float, float] | None:
    """(the sentence restating the claim, its share of the claim's content words, its P(contradicts)) when the
    judge's *contradicted* was read on another sentence, holding less than half of the claim's content words, while
    that one, holding at least :attr:`~citeproof.judges.policy.Policy.judged_overlap_at` of the claim's words and a tenth more than the judged
    sentence, has P(contradicts) below :attr:`~citeproof.judges.policy.Policy.restating_clear_below`; None otherwise (or when the rule is off).
    (A SciFact training contradiction read on a sentence holding 57% of the claim's words, beside one holding 71%,
    stays.) Found by new
    users' trials (2026-12-06, trials 10-14): faithful paraphrases called *contradicted* on a neighbouring sentence
    ("... blockade were observed consistently across ..." for a claim restating "This finding suggests that PD-L1
    expression status alone is insufficient ...")."""
    if (not claim or max(policy.restating_clear_below, policy.restating_whole_below) <= 0
            or entailment.verdict != Verdict.CONTRADICTED or entailment.restating is None
            or entailment.evidence is None):
        return None
    sent = getattr(entailment.evidence, "sentence", None)
    window, _pe, pc, _cov = entailment.restating
    if not sent or window == sent or antonym_for(claim, window):
        return None  # (nor where that sentence holds the opposite of a claim's word: "18 were negative for" beside "18
        # were positive, and 1 was equivocal for", a 115th trial's false claim)
    share, judged = overlap_score(claim, window), overlap_score(claim, sent)
    if pc < policy.restating_clear_below and judged < 0.5 and share >= max(policy.judged_overlap_at, judged + 0.1):
        return window, share, pc
    if pc < policy.restating_whole_below and share >= max(0.8, judged + 0.1) and window not in sent:
        return window, share, pc  # a sentence restating the claim nearly whole, not read as contradicting it (not
        # when the judged window holds it: "... also was blunted in IL-18 knockout mice" read with its neighbour, a
        # 90th trial's false claim, P(contradicts) 0.97 beside 0.41 alone)
    return None


_PROPOSED = re.compile(r"\b(?:is|are|was|were|has been|have been|had been)\s+(?:widely\s+|long\s+|often\s+)?(?:proposed|"
                       r"hypothesi[sz]ed|postulated|speculated|thought|believed|predicted)\s+to\b|\bit\s+(?:is|was|has been|"
                       r"had been)\s+(?:proposed|hypothesi[sz]ed|postulated|suggested)\s+that\b|\bhypothes[ie]s\b", re.I)
"""What a sentence reports as a proposal the work then tests, not as its finding."""


def contradicts_a_proposal(claim: str | None, entailment: Judgement) -> str | None:
    """The judged sentence when the judge's *contradicted* was read on a sentence that reports a proposal
    (:data:`_PROPOSED`: *Stem cells are proposed to segregate chromosomes asymmetrically*) and the claim reports
    none; None otherwise. A source that tests a proposal and refutes it is contradicted by its own opening: a 170th
    trial's faithful "keeping older DNA strands during division is not a general property of stem cells" was called
    *contradicted* at P(contradicts) 0.97 on the proposal."""
    if not claim or entailment.verdict != Verdict.CONTRADICTED or entailment.evidence is None or _PROPOSED.search(claim):
        return None
    sent = getattr(entailment.evidence, "sentence", None)
    return sent if sent and _PROPOSED.search(sent) else None
