"""The verdict policy: how the tiers' judgements become one verdict with one story.

Two judgements come in for a claim against one source: the entailment tier's
(a calibrated probability for its verdict) and the lexical tier's (coverage of
the claim's distinctive words, :mod:`citeproof.judges.lexical`). The policy
(selective prediction with a reject option, Chow 1970):

1. the entailment tier decides when it is confident: its calibrated
   probability is at least :attr:`Policy.support_at` for *supported*,
   :attr:`Policy.decide_at` for *unsupported*/*partial*,
   :attr:`Policy.contradict_at` for *contradicted*;
2. otherwise it abstains and the lexical tier decides with its fallback
   lines (:attr:`Policy.fallback_supported_at`, :attr:`Policy.fallback_partial_at`);
3. **one story**: when the lexical tier would say *supported* but the
   entailment tier leaned *unsupported* or *contradicted* with confidence at
   least :attr:`Policy.lean_against_at`, the tiers disagree; the finding is
   ``partial`` with the ``needs_review`` flag and a reason naming both
   tiers' positions, never a silent ``supported`` whose own reasons say the
   network leaned against it. A weaker lean against support leaves
   ``supported`` but still marks ``needs_review`` and says the tiers
   disagree. When the lexical tier finds nothing but the
   entailment tier leaned *supported* (its most likely class), the finding keeps
   the lexical verdict and is marked ``needs_review`` the same way.

Citation signals: a contrary signal (*but see*, *contra*, *but cf.*, see
:data:`CONTRARY_SIGNALS`) says the source cuts against the claim.
:func:`apply_contrary_signal` maps the judgement so: a source that
contradicts the claim is ``supported`` (the signal is right), a source that
supports the claim is ``contradicted`` (the signal is wrong), anything else
stays as judged with a reason saying what was expected.

How the numbers were set: ``citeproof.eval.policy_fit`` (planted-error items
from SciFact and Citation-Integrity training splits; 5 folds grouped by
item, each fold's figures from the setting chosen on the other four);
``docs/detectors.md`` holds the before/after figures.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

from citeproof.judges.base import Judgement
from citeproof.judges.judged import judged_in, judged_sentence, restating_read
from citeproof.judges.doubts import contradicts_a_proposal, contradicts_elsewhere, restating_clear, same_negation
from citeproof.text.grounding import restates_verbatim
from citeproof.model import Citation, Claim, Finding, Source, Tier, Verdict

__all__ = [
    "CONTRARY_SIGNALS",
    "explanatory_parenthetical",
    "POLICY",
    "Policy",
    "TAG_REPORT_FLOOR",
    "ACCUSING_TAGS",
    "CONTRADICTING_TAGS",
    "LEXICAL_ONLY",
    "escalation",
    "judged_sentence",
    "apply_contrary_signal",
    "apply_detectors",
    "decide",
    "is_contrary",
    "mark_naming",
]

CONTRARY_SIGNALS = frozenset({"but see", "contra", "but cf.", "but cf", "but compare"})
"""Bluebook signals that say the cited source cuts against the claim (Bluebook rule 1.2(c))."""

ACCUSING_TAGS = frozenset({"number_drift", "polarity_flip", "term_swap", "scope_inflation", "significance_inflation"})
"""Tags whose difference code proves on the sentence that restates the claim: confident, they make the
verdict *unsupported* (:func:`escalation`), so a gate on ``unsupported,contradicted`` catches them."""

CONTRADICTING_TAGS = frozenset({"polarity_flip", "significance_inflation"})
"""Accusing tags that mean the source states the opposite: the verdict becomes *contradicted*."""


@dataclass(frozen=True)
class Policy:
    """The thresholds of the verdict policy (all calibrated probabilities or coverages in [0, 1]).

    Attributes:
        support_at: least entailment confidence to decide *supported*.
        decide_at: least entailment confidence to decide *unsupported* or *partial*.
        contradict_at: least entailment confidence to decide *contradicted*.
        fallback_supported_at: coverage at which the lexical tier says *supported* after the entailment tier abstained.
        fallback_partial_at: coverage at which the lexical tier says *partial* after the entailment tier abstained.
        lean_against_at: least confidence of an abstaining entailment lean against support
            (*unsupported*, *contradicted*) that stops a lexical *supported* (1.01: never).
        lean_contradicted_at: the same line for a *contradicted* lean alone (None: ``lean_against_at``).
        confirm_at: least confidence of an abstaining *supported* lean that confirms the meaning when the
            lexical tier finds the claim's words (:func:`decide`, rule 2); below it the citation is *partial*.
        escalate_at: least confidence of a tag in ``accusing`` that makes a *supported* or *partial* verdict
            *unsupported* (*contradicted* for :data:`CONTRADICTING_TAGS`) (:func:`escalation`).
        accusing: the tags that escalate (default :data:`ACCUSING_TAGS`).
        judged_overlap_at: least share of the claim's content words (:func:`~citeproof.text.stems.overlap_score`)
            the sentence the judge read must hold for its confident *contradicted* to stand; below it the judge
            contradicted something else (:func:`decide`; 0: off). A third: on the 875 rows of ``eval meaning`` it
            changes 7 verdicts (two real citations *contradicted* -> *partial*, SciFact macro-F1 0.412 -> 0.416;
            five false claims in the source's own words *contradicted* -> *unsupported*, now by their proven tag;
            no other column moves), where a line of 0.4 also loses a true contradiction (SciFact 0.393).
        restating_clear_below: a *contradicted* the judge read on one sentence, while another holding more of the
            claim's words (at least ``judged_overlap_at``, and a tenth more than the judged one) has P(contradicts)
            below this line, contradicted something else (:func:`~citeproof.judges.doubts.restating_clear`; 0: off).
        restating_whole_below: the same where the other sentence holds 80% of the claim's words or more (it restates
            it nearly whole) and a tenth more than the judged one, whatever the judged one holds, with P(contradicts)
            below this line (an 88th trial's faithful "After adjustment for BMI, both waist circumference and
            waist-to-hip ratio remained strongly associated" was *contradicted* on a METHODS sentence, P 0.78, while
            the sentence it restates read 0.56; 0: off).
    """

    support_at: float = 0.6
    decide_at: float = 0.7
    contradict_at: float = 0.8
    fallback_supported_at: float = 0.35
    fallback_partial_at: float = 0.20
    lean_against_at: float = 0.7
    lean_contradicted_at: float | None = None
    confirm_at: float = 0.55
    escalate_at: float = 0.85
    accusing: frozenset = ACCUSING_TAGS
    judged_overlap_at: float = 1 / 3
    restating_clear_below: float = 0.5
    restating_whole_below: float = 0.6

    def lean_line(self, lean: Verdict) -> float:
        """The least confidence at which an abstaining lean ``lean`` against support stops a lexical *supported*.

        ``lean_contradicted_at`` for a *contradicted* lean when set, else ``lean_against_at``.
        """
        if lean == Verdict.CONTRADICTED and self.lean_contradicted_at is not None:
            return self.lean_contradicted_at
        return self.lean_against_at


POLICY = Policy()
"""The shipped policy (issue 28; lines re-fitted 2026-12-06 for the meaning-stage judge). ``support_at`` 0.6,
``confirm_at`` 0.55, ``lean_against_at`` 0.7 (both leans), ``escalate_at`` 0.85 (proven tags), chosen by
``citeproof eval meaning`` (:mod:`citeproof.eval.meaning`) on 875 rows of the training splits (150 SciFact, 150
Citation-Integrity, 150 WiCE dev, 200 generated term swaps, 100 SciFact sentences as they stand and 125 with one
term or number changed), 5 folds grouped by source, best of the grid by :func:`citeproof.eval.meaning.objective`:
every fold chose these lines (``lean_contradicted_at`` 0.6 in two folds). Held out (pooled), against the
2026-11-29 judge with its own re-fitted lines on the same rows: SciFact macro-F1 0.412 (0.424), Citation-Integrity
0.290 (0.305), WiCE 3-way 0.447 (0.417), term swaps called supported 15.0% (26.5%), faithful citations called
unsupported or contradicted 8.9% (8.2%), supported 48.0% (47.0%); false claims in the source's own words supported
3.2% (2.4%), unsupported or contradicted 92.8% (92.8%). Against what shipped before (old judge, lines 0.8 / 0.7),
all rows: SciFact 0.412 (0.425), Citation-Integrity 0.290 (0.264), WiCE 0.454 (0.424), swaps supported 15.0%
(16.0%), faithful against 7.6% (8.2%), faithful supported 48.0% (44.4%) (``docs/meaning.md``, model card
*Meaning stage*). The first lines (2026-12-02: 0.8 / 0.7) were fitted for the earlier judge; they are kept in
``docs/meaning.md``."""


def _on_page(ev) -> str:
    page = getattr(getattr(ev, "passage", None), "page", None)
    return f", page {page}" if page else ""


def _lead(out: Judgement, reason: str, named: str) -> Judgement:
    """``out`` with ``reason`` first among its reasons and the judged sentence (``named``, when any) second."""
    out.reasons[:0] = [reason, named] if named else [reason]
    return out


def _floor2(x: float) -> str:
    return f"{math.floor(x * 100) / 100:.2f}"


def needed(verdict: Verdict, policy: Policy = POLICY) -> float:
    """Least entailment confidence for ``verdict`` to be decided by the entailment tier."""
    if verdict == Verdict.CONTRADICTED:
        return policy.contradict_at
    if verdict == Verdict.SUPPORTED:
        return policy.support_at
    return policy.decide_at


LEXICAL_ONLY = "lexical tier only: a word-overlap verdict, the meaning was not checked"
"""The reason every verdict of a run without the entailment tier carries (``--tier lexical``)."""


def _verbatim_evidence(claim: str | None, entailment: Judgement, lexical: Judgement):
    """The evidence (entailment's judged sentence first, then the lexical passage) that restates ``claim`` word for word."""
    if not claim:
        return None
    ev = entailment.evidence
    if ev is not None and ev.sentence and restates_verbatim(claim, ev.sentence):
        return ev
    ev = lexical.evidence
    if ev is not None and getattr(ev.passage, "text", None) and restates_verbatim(claim, ev.passage.text):
        return ev
    return None


def _for_review(lexical: Judgement, reason: str, named: str | None, evidence=None) -> Judgement:
    """A copy of ``lexical`` made *partial* with ``needs_review``, ``reason`` first (:func:`_lead`): a judge's
    *contradicted* the policy does not let stand (the same negation, a sentence about something else). ``evidence``
    replaces the lexical evidence when given."""
    out = dataclasses.replace(lexical, verdict=Verdict.PARTIAL, evidence=evidence if evidence is not None else lexical.evidence,
                              reasons=list(lexical.reasons), flags=list(lexical.flags) + ["needs_review"])
    return _lead(out, reason, named)


def decide(entailment: Judgement | None, lexical: Judgement, policy: Policy = POLICY, claim: str | None = None) -> Judgement:
    """One verdict from the entailment and the (fallback) lexical judgements: *supported* is earned by meaning.

    Rules (issue 28; lines fitted by :mod:`citeproof.eval.meaning`, cross-validated on training splits):

    1. the entailment tier decides when it is confident (:func:`needed`);
    2. otherwise, when the lexical tier finds the claim's words (*supported* or *partial*):
       a lean against support (*unsupported*, *contradicted*) at least :meth:`Policy.lean_line` makes the
       verdict that lean (the words are there, the meaning is not); a *supported* lean at least
       :attr:`Policy.confirm_at` confirms a lexical *supported* (the tier becomes ``entailment``, the evidence
       the judged passage); anything else is at most *partial*, with a reason saying the words were found and
       the meaning was not confirmed. Word overlap alone never makes a citation *supported*;
    3. when the lexical tier finds too few words, its verdict stands (a supported lean marks ``needs_review``).

    Before rule 1: a claim that stands word for word in a source sentence that asserts it
    (:func:`citeproof.text.grounding.restates_verbatim`) is *supported* whatever the judge says (a confident
    judgement against marks ``needs_review``) — an exact
    quotation cannot say more than its source, and the network's doubt there is its own error (an exact copy
    of a sentence had P(entails) 0.79 and a calibrated 0.61 in the web test). A claim with one word or number
    changed is not a restatement; the detectors judge those (:func:`escalation`).

    Before rule 1 too: a *contradicted* judgement where the judged or the lexical passage holds a sentence that
    restates the claim and negates what the claim negates (:func:`citeproof.detectors.restated.states_same_negation`)
    becomes *partial* with ``needs_review`` when the lexical tier finds the claim's words: the network reads a
    negated claim as contradicted even against its own sentence ("Exposure to PM2.5 was not associated with
    changes in memory" had P(contradicts) 0.96 on a sentence about lung function and 0.66 on the one that says
    it). The detectors still judge what differs (:func:`escalation`).

    Before rule 1 as well: a *contradicted* that would decide (rule 1 or its lean, rule 2) read on a sentence that holds less than
    :attr:`Policy.judged_overlap_at` of the claim's content words contradicts something else; with the claim's words
    found by the lexical tier the verdict is *partial* with ``needs_review`` (:func:`~citeproof.judges.doubts.contradicts_elsewhere`);
    so it is when that sentence reports a proposal the claim does not (:func:`~citeproof.judges.doubts.contradicts_a_proposal`).

    Without the entailment tier (``--tier lexical``, or the tier unavailable) the lexical verdict stands,
    with the reason :data:`LEXICAL_ONLY`.

    Args:
        entailment: the entailment tier's judgement, or None when it did not run.
        lexical: the lexical tier's judgement with the fallback lines
            (:attr:`Policy.fallback_supported_at`, ``fallback_partial_at``) when
            the entailment tier ran, its own lines otherwise.
        policy: the thresholds.
        claim: the claim's text, for the word-for-word rule (None: the rule is off).

    Returns:
        The deciding :class:`Judgement` (a copy; inputs are not changed). Its reasons name the sentence the
        entailment judge read and its P(entails) / P(contradicts) (:func:`judged_sentence`).
    """
    if entailment is None:
        out = dataclasses.replace(lexical, reasons=list(lexical.reasons), flags=list(lexical.flags))
        out.reasons.append(LEXICAL_ONLY)
        return out
    named = judged_sentence(entailment)
    need = needed(entailment.verdict, policy)
    quoted = _verbatim_evidence(claim, entailment, lexical) if lexical.verdict == Verdict.SUPPORTED else None
    if quoted is not None:
        out = dataclasses.replace(lexical, verdict=Verdict.SUPPORTED, evidence=quoted, confidence=round(max(lexical.confidence, 0.9), 4),
                                  reasons=list(lexical.reasons), flags=list(lexical.flags))
        said = "said" if entailment.confidence >= need else "leaned"
        if entailment.verdict in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED) and entailment.confidence >= need:
            out.flags.append("needs_review")  # the judge was sure of the opposite: a person should look
        return _lead(out, (f"the claim stands word for word in the source{_on_page(quoted)}: supported (the entailment "
                          f"judge {said} '{entailment.verdict.value}' with calibrated confidence {_floor2(entailment.confidence)})"), judged_in(quoted, entailment))
    same = same_negation(claim, entailment, lexical) if entailment.verdict == Verdict.CONTRADICTED else None
    if same is not None and lexical.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL):
        sent, ev, how = same
        return _for_review(lexical, (f"the entailment judge said 'contradicted' (calibrated confidence {_floor2(entailment.confidence)}), "
                           f"but the source {how}: \u201c{sent[:200]}\u201d; partial, not "
                           "contradicted (the network reads a negated claim as contradicted) — read the passage"), restating_read(ev, entailment), ev)
    sure = entailment.confidence >= min(need, policy.lean_line(Verdict.CONTRADICTED))  # it decides, or its lean does
    elsewhere = contradicts_elsewhere(claim, entailment, policy) if sure else None
    if elsewhere is not None and lexical.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL):
        sent, share = elsewhere
        return _for_review(lexical, (f"the entailment judge said 'contradicted' (calibrated confidence {_floor2(entailment.confidence)}) "
                           f"on a sentence that holds {share:.0%} of the claim's content words, less than the "
                           f"{policy.judged_overlap_at:.0%} a sentence restating it holds: \u201c{sent[:200]}\u201d; it "
                           "contradicted something else, so partial, not contradicted — read the passage"), restating_read(lexical.evidence, entailment))
    clear = restating_clear(claim, entailment, policy) if sure else None
    if clear is not None and lexical.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL):
        sent, share, pc = clear
        return _for_review(lexical, (f"the entailment judge said 'contradicted' (calibrated confidence {_floor2(entailment.confidence)}) "
                           f"on another sentence than the one that restates the claim ({share:.0%} of its content words), "
                           f"which it is far less sure contradicts it (P(contradicts) {pc:.2f}): "
                           f"\u201c{sent[:200]}\u201d; "
                           "partial, not contradicted — read the passage"), restating_read(lexical.evidence, entailment))
    proposal = contradicts_a_proposal(claim, entailment) if sure else None
    if proposal is not None and lexical.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL):
        return _for_review(lexical, (f"the entailment judge said 'contradicted' (calibrated confidence {_floor2(entailment.confidence)}) "
                           f"on a sentence that reports a proposal, not a finding: \u201c{proposal[:200]}\u201d; a source "
                           "may test a proposal and find against it, so partial, not contradicted — read the passage"),
                           restating_read(lexical.evidence, entailment))
    if entailment.confidence >= need:
        out = dataclasses.replace(entailment, reasons=list(entailment.reasons), flags=list(entailment.flags))
        if named:
            out.reasons.append(named)
        return out
    lean, conf = entailment.verdict, entailment.confidence
    out = dataclasses.replace(lexical, reasons=list(lexical.reasons), flags=list(lexical.flags))
    against = lean in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)
    line = policy.lean_line(lean)
    words = lexical.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL)
    if words and against and conf >= line:
        out.verdict = lean
        out.tier = entailment.tier  # the judge's lean decided, not the words
        out.confidence = round(conf, 4)
        if entailment.evidence is not None:
            out.evidence = entailment.evidence
        out.flags.append("needs_review")
        what = "contradicts it" if lean == Verdict.CONTRADICTED else "does not entail it"
        return _lead(out, (
            f"the claim's words are in the source, but the entailment judge finds that the passage {what} "
            f"(it leaned '{lean.value}' with calibrated confidence {_floor2(conf)}, at or above the {line:.2f} line): "
            f"{lean.value}, not partial — read the passage"), named)
    if lexical.verdict == Verdict.SUPPORTED and lean == Verdict.SUPPORTED and conf >= policy.confirm_at:
        out = dataclasses.replace(entailment, verdict=Verdict.SUPPORTED, confidence=round(conf, 4),
                                  reasons=list(entailment.reasons), flags=list(entailment.flags))
        if out.evidence is None:
            out.evidence = lexical.evidence
        out.reasons.insert(0, (f"the entailment judge confirms the meaning (it leaned 'supported' with calibrated confidence "
                               f"{_floor2(conf)}, at or above the {policy.confirm_at:.2f} line) and the lexical tier "
                               "finds the claim's words"))
        out.reasons += [r for r in lexical.reasons if r not in out.reasons]
        if named:
            out.reasons.append(named)
        return out
    if lexical.verdict == Verdict.SUPPORTED:
        out.verdict = Verdict.PARTIAL
        out.confidence = round(max(1.0 - conf, 0.5) if lean == Verdict.SUPPORTED else max(conf, 0.5), 4)
        if against:
            out.flags.append("needs_review")
        return _lead(out, (
            f"the claim's words were found, but the meaning was not confirmed: the entailment judge leaned "
            f"'{lean.value}' with calibrated confidence {_floor2(conf)} (supported needs {policy.support_at:.2f}, or "
            f"{policy.confirm_at:.2f} when the words are there); partial — read the passage"), judged_in(out.evidence, entailment))
    if lexical.verdict == Verdict.UNSUPPORTED and lean in (Verdict.SUPPORTED, Verdict.PARTIAL) and conf >= 0.5:
        out.flags.append("needs_review")
        out.reasons.append(
            f"the tiers disagree: the entailment tier leaned '{lean.value}' with calibrated confidence {_floor2(conf)} "
            f"(below the {need:.2f} it needs to decide) while the lexical tier found too few of the claim's words"
        )
        if named:
            out.reasons.append(named)
        return out
    out.reasons.append(f"the entailment tier abstained: it leaned '{lean.value}' with calibrated confidence {_floor2(conf)}, "
                       f"below the {need:.2f} it needs to decide; the lexical tier decided")
    named = judged_in(out.evidence, entailment)
    if named:
        out.reasons.append(named)
    return out


def is_contrary(signal: str | None) -> bool:
    """Whether ``signal`` (normalised, e.g. ``but see``) is a contrary signal (:data:`CONTRARY_SIGNALS`)."""
    return bool(signal) and signal.strip().lower().rstrip(",") in CONTRARY_SIGNALS


def apply_contrary_signal(j: Judgement, signal: str) -> Judgement:
    """Judge a citation under a contrary signal: the source is expected to cut against the claim.

    Args:
        j: the policy's judgement of the claim as written (no signal relief applied).
        signal: the contrary signal (``but see``...).

    Returns:
        A copy: ``contradicted`` becomes ``supported`` (the source cuts against
        the claim, as signalled); an entailment-tier ``supported`` becomes
        ``contradicted`` (the source agrees with the claim the signal says it
        opposes), a lexical-tier one ``partial`` (word overlap cannot tell
        agreement from disagreement); other
        verdicts stay and are marked ``needs_review``. A reason says which.
    """
    out = dataclasses.replace(j, reasons=list(j.reasons), flags=list(j.flags))
    if j.tier != Tier.ENTAILMENT and j.verdict == Verdict.SUPPORTED:
        # word overlap cannot tell a source that agrees from one that disagrees (judges/lexical.py)
        out.verdict = Verdict.PARTIAL
        if "needs_review" not in out.flags:
            out.flags.append("needs_review")
        out.reasons.insert(0, f"signal '{signal}' says the source cuts against the claim; the source discusses it, "
                              "but the deciding tier cannot tell agreement from disagreement: read the passage")
        return out
    if j.verdict == Verdict.CONTRADICTED:
        out.verdict = Verdict.SUPPORTED
        out.reasons.insert(0, f"signal '{signal}': the source cuts against the claim, as the signal says")
    elif j.verdict == Verdict.SUPPORTED:
        out.verdict = Verdict.CONTRADICTED
        out.reasons.insert(0, f"signal '{signal}' says the source cuts against the claim, but the source supports it: "
                              "drop the signal or cite a contrary source")
    else:
        if "needs_review" not in out.flags:
            out.flags.append("needs_review")
        out.reasons.insert(0, f"signal '{signal}' says the source cuts against the claim; the source neither supports "
                              f"nor clearly contradicts it ({j.verdict.value})")
    return out


_PARENTHETICAL_RE = re.compile(
    r"\s*[,;]?\s*\(\s*(?P<verb>holding|finding|concluding|noting|explaining|stating|reasoning|recognizing|recognising|"
    r"ruling|observing|suggesting|reporting|showing|describing|arguing|rejecting|affirming|reversing)\s+(?:that\s+)?"
    r"(?P<what>(?:[^()]|\([^()]*\))+?)\s*\)")


def explanatory_parenthetical(claim_raw: str, cite_raw: str) -> tuple[str, str] | None:
    """The Bluebook explanatory parenthetical right after a citation: what the source is cited *for*.

    ``... [@smith2019] (holding that a landlord owes no duty to trespassers).``
    -> ``("A landlord owes no duty to trespassers.", "holding")``. The
    parenthetical, not the sentence around it, is then the claim checked
    against the source (Bluebook rule 1.5: it explains the proposition for
    which the source is cited).

    Args:
        claim_raw: the sentence as written, with its citation markup.
        cite_raw: the citation group as written (``[@smith2019]``), found in ``claim_raw``.

    Returns:
        ``(claim text, verb)``, or None when no parenthetical follows the citation.
    """
    if not cite_raw:
        return None
    at = claim_raw.find(cite_raw)
    if at < 0:
        return None
    m = _PARENTHETICAL_RE.match(claim_raw, at + len(cite_raw))
    if not m:
        return None
    what = m.group("what").strip().rstrip(".;, ")
    if len(what.split()) < 3:
        return None
    return what[0].upper() + what[1:] + ".", m.group("verb")


TAG_REPORT_FLOOR = 0.5
"""Tags less confident than this are not reported: a weak hint on every
citation (a hedge word somewhere in a long passage) buries the real ones."""


def escalation(verdict: Verdict, tags, policy: Policy = POLICY) -> tuple[Verdict | None, list]:
    """The verdict confident accusing tags call for, and those tags.

    A *supported* or *partial* verdict with a *proven* tag (:attr:`~citeproof.model.Tag.proven`: shown by code
    on the sentence that restates the claim) of ``policy.accusing`` at confidence at least
    ``policy.escalate_at`` becomes *contradicted* when one such tag is in :data:`CONTRADICTING_TAGS` (the
    source states the opposite), else *unsupported*. ``causal_overclaim`` and ``hedge_removed`` never
    escalate: they keep *partial* (:func:`apply_detectors`).

    Args:
        verdict: the judge's verdict.
        tags: the finding's tags (:class:`~citeproof.model.Tag`).
        policy: the thresholds.

    Returns:
        ``(new verdict, the accusing tags, surest first)``, or ``(None, [])`` when nothing changes.
    """
    if verdict not in (Verdict.SUPPORTED, Verdict.PARTIAL):
        return None, []
    firing = sorted((t for t in tags if t.name in policy.accusing and t.proven and t.confidence >= policy.escalate_at),
                    key=lambda t: -t.confidence)
    if not firing:
        return None, []
    return (Verdict.CONTRADICTED if any(t.name in CONTRADICTING_TAGS for t in firing) else Verdict.UNSUPPORTED), firing


def apply_detectors(f: Finding, claim: Claim, cite: Citation, source: Source | None, policy: Policy = POLICY) -> None:
    """Tag ``f`` with failure modes; a confident accusing one makes it *unsupported*, another *partial*.

    Confident tags of :data:`ACCUSING_TAGS` make a *supported* or *partial* verdict *unsupported* or
    *contradicted* (:func:`escalation`); other confident downgrading tags turn *supported* into *partial*.

    Detectors run after the judge, on the best evidence (``DESIGN.md``:
    detectors are checked by code, not taken from a model's say-so). A
    downgraded finding's confidence becomes its surest downgrading tag's, and
    its first reason names the tags and says the judge alone said supported,
    so label, confidence and reasons tell one story. Tags in
    :data:`~citeproof.detectors.INFORMATIONAL_TAGS` never change the verdict
    but mark the finding ``needs_review``.
    """
    from citeproof.detectors import DOWNGRADE_THRESHOLD, DOWNGRADING_TAGS, INFORMATIONAL_TAGS, run_detectors, should_downgrade

    try:
        tags = run_detectors(claim, f.evidence, source, citekey=cite.citekey)
    except Exception as exc:  # a detector bug must not cost the finding
        f.reasons.append(f"failure-mode detectors failed: {type(exc).__name__}: {exc}; please report it")
        return
    tags = [t for t in tags if t.confidence >= TAG_REPORT_FLOOR]
    f.tags.extend(tags)
    before = f.verdict
    to, accusing = escalation(f.verdict, tags, policy)
    if to is not None:
        f.verdict = to
        f.confidence = max(t.confidence for t in accusing)
        # no needs_review for this: the tag quotes the words that differ, which is what a person would check (three
        # trials' users found the flag on every proven contradiction and stopped filtering on it); the judge's own
        # flag for its disagreeing lean goes too, the proof settling it (a 40th trial's user: "--help says ... not
        # marked, but several carry it"); flags of other causes (a locator's page, the LLM tier) keep theirs
        if f.flags == ["needs_review"]:
            f.flags = []
        _judge_alone(f)
        f.reasons.insert(0, f"{to.value}: {', '.join(sorted({t.name for t in accusing}))} on the sentence that restates "
                            f"the claim (the judge alone said {before.value}); {accusing[0].message}")
    elif f.verdict == Verdict.SUPPORTED and should_downgrade(tags):
        f.verdict = Verdict.PARTIAL
        _judge_alone(f)
        firing = [t for t in tags if t.name in DOWNGRADING_TAGS and t.confidence >= DOWNGRADE_THRESHOLD]
        f.confidence = max(t.confidence for t in firing)  # how sure the finding is of *partial*: its surest tag
        f.reasons.insert(0, f"downgraded from supported: {', '.join(sorted({t.name for t in firing}))} "
                            f"(the judge alone said supported); {firing[0].message}")
    if any(t.name in INFORMATIONAL_TAGS for t in tags) and "needs_review" not in f.flags:
        f.flags.append("needs_review")


def _judge_alone(f: Finding) -> None:
    """Mark the judge's own lead reason as what the judge alone said, before a detector changes the verdict (a new
    user read "unsupported: term_swap ..." above "...; partial — read the passage" as two verdicts)."""
    if f.reasons and not f.reasons[0].startswith("before the detectors: "):
        f.reasons[0] = "before the detectors: " + f.reasons[0]


_ALIAS_DEFINITION = re.compile(r"^\s*\[@[^\]\s]+\]:\s*\S+\s*$")
"""A Manubot alias line, ``[@tag:x]: doi:10.1000/xyz``: a key's definition, read as a unit (pandoc sees a citation there)."""


def mark_naming(f: Finding, claim: Claim, cite: Citation) -> None:
    """Flag ``not_a_claim`` (a table row of names and identifiers, a Manubot alias line) and ``naming_citation`` (a marker mid-sentence).

    Both change only the reading order (:func:`citeproof.triage.attention_rank`) and add a
    reason: the verdict still says whether the source holds the sentence.
    """
    from citeproof.detectors.attribution import naming_phrase
    from citeproof.model import UnitKind
    from citeproof.readers.claims import states_finding

    if _ALIAS_DEFINITION.match(claim.raw or ""):
        f.flags.append("not_a_claim")
        f.reasons.append("a Manubot citekey alias line ([@tag:x]: doi:...) defines what a key stands for; there is no statement to check")
        return
    if claim.kind == UnitKind.TABLE_ROW:
        cells = [c for c in re.split(r"\s*;\s*", claim.text) if c.strip()]
        if cells and all(len(c.split()) <= 5 for c in cells) and not states_finding(cells):  # "Bleaching | 30% of coral loss" is a claim
            f.flags.append("not_a_claim")
            f.reasons.append("a table row of names and identifiers: the citation identifies what is named; there is no statement to check")
            return
    named = naming_phrase(claim.raw, cite.raw)
    if named:
        f.flags.append("naming_citation")
        f.reasons.append(f"the marker stands mid-sentence after \u201c{named}\u201d: it may name that work rather than vouch for the whole sentence")
