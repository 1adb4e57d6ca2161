"""Issue 28: what a seventeenth new user's trial found (2026-12-06, session 20; three SciFact corpus abstracts no
training claim cites, held out: on the code after the sixteenth trial's finds, `3612ec9`, 2 of 20 false claims were
supported and 13 caught, 1 of 10 faithful claims contradicted by the judge). No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): tenofovir intravaginal rings in macaques
(doc 43378932), Ex-FABP in chondrocytes (doc 21487212) and the new tumour-response guidelines (doc 15541119).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

EXFABP = ("Its expression is enhanced after cell treatment with inflammatory stimuli and repressed by anti-inflammatory "
          "agents, behaving as an acute phase protein. Myoblasts transfected with the same expression vector showed "
          "extensive cell death and impaired myotube formation.")
IVR = ("Although a few IVRs have entered the clinical pipeline, 100% efficacy in a repeated macaque vaginal challenge "
       "model has not been achieved. With four monthly ring changes in this repeated challenge model, TDF IVRs generated "
       "reproducible and protective drug levels.")
RECIST = ("This new concept has been largely validated by the Response Evaluation Criteria in Solid Tumors (Recist) "
          "Group and integrated into the present guidelines.")


def test_two_terms_exchanged_between_opposite_verbs_are_a_proven_reversal():
    """E08 (*supported* at 0.97): "enhanced after ... anti-inflammatory agents and repressed by inflammatory stimuli"."""
    claim = ("Its expression is enhanced after cell treatment with anti-inflammatory agents and repressed by "
             "inflammatory stimuli, behaving as an acute phase protein")
    [tag] = _proven(detect_polarity_flip, claim, EXFABP)
    assert _spans(tag) == ("anti-inflammatory agents", "inflammatory stimuli")
    assert _proven(detect_polarity_flip, EXFABP.split(". ")[0], EXFABP) == []


def test_a_cause_between_two_findings_the_sentence_lists_is_an_overclaim():
    """E10 (*supported*, no tag): "showed extensive cell death, which caused impaired myotube formation" for "...
    cell death and impaired myotube formation"; the sentence's *transfected* (manipulation wording the claim repeats)
    had counted as the source stating an effect."""
    [tag] = detect_causal_overclaim("Myoblasts transfected with the same expression vector showed extensive cell "
                                    "death, which caused impaired myotube formation", EXFABP, source_text=EXFABP)
    assert (tag.confidence, tag.evidence[0].claim_span) == (0.7, "caused")


def test_already_in_the_place_of_not_is_a_proven_flip():
    """I06: "has already been achieved" for "has not been achieved"."""
    [tag] = _proven(detect_polarity_flip, "Although a few IVRs have entered the clinical pipeline, 100% efficacy in a "
                    "repeated macaque vaginal challenge model has already been achieved", IVR)
    assert _spans(tag) == ("already been", "not been")


def test_women_added_beside_the_macaques_is_a_proven_widening():
    """I08: "drug levels in both macaques and women" for a sentence about the macaque model alone."""
    [tag] = _proven(detect_scope_inflation, "With four monthly ring changes, TDF IVRs generated reproducible and "
                    "protective drug levels in both macaques and women", IVR)
    assert _spans(tag) == ("in both macaques and women", "")
    assert _proven(detect_scope_inflation, "With four monthly ring changes, TDF IVRs generated reproducible and "
                   "protective drug levels in the macaques", IVR) == []


def test_one_named_body_for_another_is_a_proven_swap():
    """R06 (*partial*, no tag): "the World Health Organization" for "the Response Evaluation Criteria in Solid Tumors
    (Recist) Group": each a proper name, one term (seven words had been too long a run for a swap)."""
    [tag] = _proven(detect_term_swap, RECIST.rstrip(".").replace(
        "Response Evaluation Criteria in Solid Tumors (Recist) Group", "World Health Organization"), RECIST)
    assert tag.evidence[0].claim_span == "World Health Organization"
    assert detect_term_swap(RECIST.rstrip(".").replace("(Recist) ", ""), RECIST, source_text=RECIST) == []


def test_a_cause_the_sentence_names_itself_is_no_overclaim():
    """A first version of E10's rule set aside every causal word the claim repeats, so a faithful SciFact training
    claim, "... kidney cancers ... are attributable to excess weight", got a 0.7 tag against "... could be
    attributable to ..." (measured on the 1,736 faithful training citations); a cause the sentence names still counts."""
    src = ("Assuming causality, 41% of uterine and 10% or more of gallbladder, kidney, liver, and colon cancers could be "
           "attributable to excess weight.")
    assert detect_causal_overclaim("Ten percent of kidney cancers in the UK are attributable to excess weight", src,
                                   source_text=src) == []
