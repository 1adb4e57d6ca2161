"""Issue 28: what an eighteenth new user's trial found (2026-12-06, session 20, on the session's final rules `0abaac6`:
4 of 20 false claims supported, 14 caught, 1 of 10 faithful claims contradicted by the judge). No model.

The source is a sentence of a SciFact corpus abstract (Wadden et al. 2020): the economic impact of glaucoma in
Australia (doc 21914176).
"""

from __future__ import annotations

from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.swaps import detect_term_swap

GLAUCOMA = ("MAIN OUTCOME MEASURES The cost-effectiveness of different interventions to prevent vision loss from primary "
            "open-angle glaucoma was measured in terms of financial cost (Australian dollars) and disability-adjusted life "
            "years. Health system costs over the same time period are estimated to increase from $AU355 million to "
            "$AU784 million.")


def test_two_compounds_alike_only_in_their_last_part_are_a_swap():
    """G06 (*supported*): "quality-adjusted life years" for "disability-adjusted life years": the shared "-adjusted"
    made the two one spelling of one word (80% alike)."""
    claim = ("The cost-effectiveness of different interventions to prevent vision loss from primary open-angle glaucoma "
             "was measured in terms of financial cost (Australian dollars) and quality-adjusted life years")
    [tag] = detect_term_swap(claim, GLAUCOMA, source_text=GLAUCOMA)
    assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("quality-adjusted", "disability-adjusted")
    assert detect_term_swap(claim.replace("quality-adjusted", "disability-adjusted"), GLAUCOMA, source_text=GLAUCOMA) == []


def test_are_estimated_to_dropped_is_a_removed_hedge():
    """G08 (*supported*): "will increase" for "are estimated to increase"."""
    [tag] = detect_hedge_removed("Health system costs over the same time period will increase from $AU355 million to "
                                 "$AU784 million", GLAUCOMA, source_text=GLAUCOMA)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "are estimated to")
    assert detect_hedge_removed("Health system costs over the same time period are estimated to increase from $AU355 "
                                "million to $AU784 million", GLAUCOMA, source_text=GLAUCOMA) == []
