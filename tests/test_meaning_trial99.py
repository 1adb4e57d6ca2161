"""Issue 28: what the ninety-ninth to hundred-and-second new users' trials found (2026-12-07, session 25; held out on
`582349a`: 13, 9, 9 and 9 of 20 false claims caught, 1, 2, 3 and 1 supported; faithful paraphrases 3, 1, 0 and 0
called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): gene supplementation therapy for retinal
dystrophies (doc 29634262), FXR and atherosclerosis (22674621), T cell activation and synapses (15972906), quiescent
glioblastoma cells and microRNAs (67787658); and, from earlier rounds, hepatic steatosis on co-housing (trial 93) and
collaborative care (trial 78).
"""

from __future__ import annotations

from citeproof.detectors.denials import states_same_direction
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import judged, proven, spans


def test_a_verb_in_ie_and_its_ying_form_are_one_word():
    """Trial 100's 19 (faithful, *unsupported* by a proven term_swap 'underlie' / 'underlying': the stems part)."""
    src = "In this review, we examine the molecular components, geometry, and timing underlying kinapses and synapses."
    assert proven(detect_term_swap, "The review examines the molecular components, geometry and timing that underlie "
                  "kinapses and synapses", src) == []


def test_three_decades_for_the_last_decade_is_a_proven_drift():
    """Trial 99's 12 (*supported*, P(entails) 0.96; the tag at 0.5 had said the quantity stands nowhere)."""
    src = "Over the last decade, gene supplementation therapy for inherited retinal degeneration has come of age."
    claim = "Over the last three decades, gene supplementation therapy for inherited retinal degeneration has come of age"
    [tag] = detect_number_drift(claim, src, source_text=src)
    assert (spans(tag), tag.proven) == (("three decades", "the last decade"), True)
    assert detect_number_drift(claim.replace("three decades", "decade"), src, source_text=src) == []


def test_enhanced_for_a_blunting_effect_is_a_flip():
    """Trial 101's 17 (*supported*, 0.96): *blunting* is a word of lowering; the flip (unproven) makes *partial*."""
    src = ("Since Cyclin D1 is a major regulator of cell cycle progression, we performed cause-effect studies and showed "
           "a blunting effects of miR-93 and -193 in Cyclin D1 expression.")
    tags = detect_polarity_flip("Cause-effect studies showed that miR-93 and -193 enhanced Cyclin D1 expression", src,
                                source_text=src)
    assert [(t.name, "'blunting'" in t.message) for t in tags] == [("polarity_flip", True)]


def test_a_judges_contradiction_of_the_same_direction_in_other_words_is_partial():
    """Trial 99's 8 and trial 93's 29 (faithful, *contradicted* at 0.78 and 0.80): "smaller ... further elevated" for
    "less ... a further increase", "led to worse" for "results in exacerbation". A claim that widens (trial 78's
    false "have always involved" for "often have involved"), turns a word or negates keeps the contradiction."""
    from citeproof.judges.policy import Policy, decide
    from citeproof.model import Tier, Verdict

    src = ("Compared to ApoE-null mice, the FXR/ApoE double-null mice were found to have less atherosclerotic lesion "
           "area in the aorta, despite a further increase in the serum cholesterols and triglycerides.")
    claim = ("In female FXR/ApoE double-null mice, aortic lesion area was smaller than in ApoE-null controls, even though "
             "serum cholesterol and triglycerides were further elevated")
    assert states_same_direction(claim, src) == src
    assert states_same_direction(claim.replace("smaller", "larger"), src) is None
    assert states_same_direction(claim.replace("was smaller", "was not smaller"), src) is None
    care = ("Efforts to improve the outcomes of patients with mental illness often have involved incorporating the skills "
            "of a variety of health care professionals into collaborative care models.")
    assert states_same_direction("Efforts to improve the outcomes of patients with mental illness have always involved "
                                 "incorporating a variety of health care professionals into collaborative care models",
                                 care) is None
    lexical = judged(src, Verdict.PARTIAL, 0.6)
    lexical.tier = Tier.LEXICAL
    out = decide(judged(src, Verdict.CONTRADICTED, 0.74), lexical, Policy(), claim=claim)
    assert (out.verdict, "needs_review" in out.flags) == (Verdict.PARTIAL, True)
    assert "turns what the claim turns the same way" in out.reasons[0]
