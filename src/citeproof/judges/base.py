"""What every judge returns, and the protocol a judge follows.

A judge looks at one claim and the candidate evidence retrieval found in one
source and returns a :class:`Judgement`. Judges never do I/O and never mix
their scores with another tier's (``DESIGN.md``, "Tiers, reported
separately").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from citeproof.model import Claim, Evidence, Tier, Verdict


@dataclass
class Judgement:
    """One tier's decision for one claim against one source.

    Attributes:
        verdict: supported / partial / contradicted / unsupported.
        score: the tier's score for the deciding evidence, in [0, 1].
        confidence: how sure the tier is of ``verdict``, in [0, 1].
        evidence: the evidence that decided it, or None when nothing cleared
            the floor.
        reasons: sentences for the report.
        tier: the tier that decided.
        flags: machine-readable markers for the finding (``needs_review`` when tiers disagree).
        llm: the LLM tier's record (opinions, grounding, tokens), when it ran.
        restating: the entailment tier's window holding the most of the claim's content words, as
            ``(window, P(entails), P(contradicts), share of the claim's content words)``, or None (other tiers).
    """

    verdict: Verdict
    score: float
    confidence: float
    evidence: Evidence | None
    tier: Tier
    reasons: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    llm: dict | None = None
    restating: tuple[str, float, float, float] | None = None


class Judge(Protocol):
    """A tier. ``judge`` must be pure: same inputs, same Judgement."""

    tier: Tier

    def judge(self, claim: Claim, candidates: list[Evidence], signal: str | None = None) -> Judgement:
        """Decide the claim against candidate evidence (best first).

        Args:
            claim: the claim unit (``claim.text`` is what is scored).
            candidates: evidence from retrieval, best first, all from one
                source; may be empty.
            signal: the citation's signal (``see``, ``cf.``...) which relaxes
                thresholds, or None.
        """
        ...
