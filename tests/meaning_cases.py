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
