"""Helpers for the new-user trial tests of issue 28 (``tests/test_meaning_trial*.py``)."""

from __future__ import annotations


def proven(detector, claim: str, source: str) -> list:
    """The tags ``detector`` proves by code for ``claim`` against ``source`` (the source also as ``source_text``)."""
    return [t for t in detector(claim, source, source_text=source) if t.proven]


def spans(tag) -> tuple[str, str]:
    """``(claim_span, evidence_span)`` of ``tag``'s first evidence: the words a detector read as changed."""
    return tag.evidence[0].claim_span, tag.evidence[0].evidence_span


def escalates(tag) -> bool:
    """``tag`` makes a *supported* finding *unsupported* or *contradicted* (the policy's :func:`escalation`)."""
    from citeproof.judges.policy import POLICY, escalation
    from citeproof.model import Verdict

    to, _ = escalation(Verdict.SUPPORTED, [tag], POLICY)
    return to in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)


def judged(sentence: str, verdict, confidence: float, restating=None):
    """An entailment :class:`~citeproof.judges.base.Judgement` of ``verdict`` read on ``sentence`` (its passage the
    sentence alone), with the judge's reading of the sentence restating the claim, ``restating`` ``(sentence,
    P(entails), P(contradicts), share)``, for the policy's rules."""
    from types import SimpleNamespace

    from citeproof.judges.base import Judgement
    from citeproof.model import Tier

    ev = SimpleNamespace(sentence=sentence, scores={}, passage=SimpleNamespace(page=None, text=sentence))
    return Judgement(verdict, confidence, confidence, ev, Tier.ENTAILMENT, restating=restating)


def tag_map(claim: str, source: str) -> dict[str, tuple[float, bool]]:
    """Each tag's name -> ``(confidence, proven)``, every detector on ``source`` as evidence and as the whole source."""
    from citeproof.detectors import run_detectors_text

    return {t.name: (t.confidence, t.proven) for t in run_detectors_text(claim, source, source_text=source)}


def proven_names(claim: str, source: str) -> set[str]:
    """The names of the tags every detector proves by code for ``claim`` against ``source``."""
    return {name for name, (_c, is_proven) in tag_map(claim, source).items() if is_proven}
