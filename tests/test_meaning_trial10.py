"""Issue 28: what a tenth new user's trial found (2026-12-06, session 19; three SciFact corpus abstracts no training
claim cites, held out from the detectors: on the code after the ninth trial's rules 1 of 20 false claims was supported
and 17 caught). No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): an interrupted trial of Abeta immunization
(AN1792) in Alzheimer disease (doc 46565020) and E-cadherin/N-cadherin adhesion between fibroblasts and cancer cells
(doc 3727986).
"""

from __future__ import annotations

from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven

TRIAL = ("The authors report the results of a phase IIa immunotherapy trial of AN1792(QS-21) in patients with mild to "
         "moderate Alzheimer disease (AD) that was interrupted because of meningoencephalitis in 6% of immunized patients. "
         "Of the 300 AN1792(QS-21)-treated patients, 59 (19.7%) developed the predetermined antibody response. "
         "CONCLUSION Although interrupted, this trial provides an indication that Abeta immunotherapy may be useful in "
         "Alzheimer disease.")
CAFS = ("Cancer-associated fibroblasts (CAFs) promote tumour invasion and metastasis. We show that CAFs exert a physical "
        "force on cancer cells that enables their collective invasion.")


def test_a_hedge_removed_from_the_closest_sentence_is_tagged():
    """A09 (supported, no tag): the hedge check had counted "a ... trial ... that was interrupted", which holds 5 of the
    claim's 8 words and no hedge, as the source stating the claim plainly."""
    claim = "Although interrupted, this trial demonstrates that Abeta immunotherapy is useful in Alzheimer disease"
    [tag] = detect_hedge_removed(claim, TRIAL, source_text=TRIAL)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "may")
    assert detect_hedge_removed(claim.replace("demonstrates that", "suggests that").replace("is useful", "may be useful"),
                                TRIAL, source_text=TRIAL) == []


def test_a_universal_phrase_added_to_the_restated_sentence_is_a_proven_widening():
    """C08: "... their collective invasion in every tumour type" (an unproven 0.8 tag, *partial*)."""
    [tag] = _proven(detect_scope_inflation, "We show that CAFs exert a physical force on cancer cells that enables their "
                    "collective invasion in every tumour type", CAFS)
    assert tag.evidence[0].claim_span == "in every tumour type"
    assert _proven(detect_scope_inflation, "We show that CAFs exert a physical force on cancer cells that enables their "
                   "collective invasion", CAFS) == []


def test_a_trial_stopped_early_and_a_predefined_response_are_no_swaps():
    """A01 and A02 (faithful, *partial* by unproven swaps: "stopped" / "interrupted", "predefined" / "predetermined")."""
    for claim in ("The phase IIa trial of AN1792 in mild to moderate Alzheimer disease was stopped early because about 6% "
                  "of the immunized patients developed meningoencephalitis",
                  "Only about one in five of the 300 patients given AN1792 reached the predefined antibody response"):
        assert detect_term_swap(claim, TRIAL, source_text=TRIAL) == []
