"""The lexical tier: deterministic verdicts from term coverage.

It can say *supported* (the passage holds most of the claim's distinctive
words), *partial* (a weak match) or *unsupported* (nothing clears the
floor). It can never say *contradicted*: word overlap cannot tell "the
source says the opposite" from "the source says it" (``DESIGN.md``).

Thresholds on coverage (:mod:`citeproof.retrieval.lexical`), checked on
SciFact's training split (919 claim x cited-abstract pairs: 370 SUPPORT,
194 CONTRADICT, 355 NEI), 5 folds grouped by abstract:

* the floor that best separates "the abstract addresses the claim"
  (SUPPORT or CONTRADICT) from NEI, chosen on 4 folds, lies in 0.28-0.40;
  on the held-out fold it gives 0.734 balanced accuracy (mean of 5). We use
  :data:`PARTIAL_AT` = 0.30: 84 % of SUPPORT and 34 % of NEI pairs clear it.
* :data:`SUPPORTED_AT` = 0.55 is a high-precision zone: 37 % of SUPPORT,
  35 % of CONTRADICT and 2.3 % of NEI pairs reach it. That CONTRADICT pairs
  reach it as often as SUPPORT pairs is why this tier's *supported* means
  "the words are there", never "the meaning is".

A signal (*see*, *cf.*, *e.g.*) lowers both by :data:`SIGNAL_RELIEF`,
because such a citation vouches only for a related point.
"""

from __future__ import annotations

from citeproof.judges.base import Judgement
from citeproof.model import Claim, Evidence, Tier, Verdict
from citeproof.text.normalise import surface_words

__all__ = ["LexicalJudge", "SUPPORTED_AT", "PARTIAL_AT", "SIGNAL_RELIEF", "RELAXING_SIGNALS"]

SUPPORTED_AT = 0.55
"""Coverage at or above which the lexical tier says *supported*."""
PARTIAL_AT = 0.30
"""Coverage at or above which the lexical tier says *partial*."""
SIGNAL_RELIEF = 0.10
"""How much a relaxing signal lowers both thresholds."""
RELAXING_SIGNALS = frozenset({"see", "cf.", "see also", "e.g.", "see e.g.", "see generally", "compare"})
"""Signals that say the source supports a related point, not the claim itself (contrary signals,
*but see*, *but cf.*, are no relaxed *see*: :func:`citeproof.judges.policy.apply_contrary_signal`)."""


class LexicalJudge:
    """Verdicts from the best candidate's coverage (see module docstring)."""

    tier = Tier.LEXICAL

    def __init__(self, supported_at: float = SUPPORTED_AT, partial_at: float = PARTIAL_AT,
                 evidence_bands: tuple[float, float] = (SUPPORTED_AT, PARTIAL_AT)) -> None:
        """Args:
            supported_at: coverage for *supported*.
            partial_at: coverage for *partial*.
            evidence_bands: the (supported, partial) lines that group passages when an abstract is
                preferred as evidence (:meth:`_prefer_abstract`); the tier's own thresholds by
                default, so a judge with lower verdict lines still shows the same passage.
        """
        self.supported_at = supported_at
        self.partial_at = partial_at
        self.evidence_bands = evidence_bands

    @staticmethod
    def _prefer_abstract(candidates: list[Evidence], sup: float, par: float) -> Evidence:
        """The best candidate, or an abstract passage that earns the same verdict.

        An abstract states a paper's main findings, which is what a citation
        of the whole work usually vouches for (the premise of SciFact's
        abstract-level task, Wadden et al. 2020). With the tier's own
        thresholds the preference never changes the verdict: it only picks
        among passages in the same band.
        """
        def band(e: Evidence) -> int:
            c = e.scores.get("lexical", 0.0)
            return 2 if c >= sup else 1 if c >= par else 0

        best = candidates[0]
        if band(best) == 0:
            return best
        for e in candidates[1:]:
            if e.passage.section == "abstract" and len(e.passage.text) >= 60 and band(e) == band(best):
                return e
        return best

    def judge(self, claim: Claim, candidates: list[Evidence], signal: str | None = None) -> Judgement:
        """Judge ``claim`` on ``candidates`` (best first, from one source).

        Returns:
            A :class:`Judgement`; ``confidence`` grows with the distance of
            the coverage from the nearest threshold (0.5 at a threshold,
            towards 1 far from it).
        """
        relief = SIGNAL_RELIEF if signal in RELAXING_SIGNALS else 0.0
        sup, par = self.supported_at - relief, self.partial_at - relief
        if not candidates:
            return Judgement(Verdict.UNSUPPORTED, 0.0, 0.6, None, self.tier, ["the source has no passage sharing a distinctive word with the claim"])
        best = self._prefer_abstract(candidates, self.evidence_bands[0] - relief, self.evidence_bands[1] - relief)
        cov = best.scores.get("lexical", 0.0)
        matched = ", ".join(surface_words(claim.text, best.matched_terms)[:8]) or "none"
        where = f"page {best.passage.page}" if best.passage.page else (f"line {best.passage.line}" if best.passage.line else "the source")
        if cov >= sup:
            conf = min(1.0, 0.5 + (cov - sup) / max(1e-6, 1 - sup) * 0.5)
            return Judgement(Verdict.SUPPORTED, cov, conf, best, self.tier,
                             [f"{cov:.0%} of the claim's distinctive words appear together in a passage on {where} ({matched})"])
        if cov >= par:
            conf = 0.5 + min(cov - par, sup - cov) / max(1e-6, sup - par)
            return Judgement(Verdict.PARTIAL, cov, min(1.0, conf), best, self.tier,
                             [f"weak match: only {cov:.0%} of the claim's distinctive words appear in the best passage, on {where} ({matched})"])
        conf = min(1.0, 0.5 + (par - cov) / max(1e-6, par) * 0.5)
        return Judgement(Verdict.UNSUPPORTED, cov, conf, best, self.tier,
                         [f"no passage clears the floor: the best, on {where}, holds {cov:.0%} of the claim's distinctive words"])
