"""Issue 28: what the ninety-first to ninety-fourth new users' trials found (2026-12-07, session 25; held out on
`cb7e40a`: 14, 11, 9 and 15 of 20 false claims caught, 1, 2, 3 and 0 supported; faithful paraphrases 2, 1, 1 and 1
called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): LIF/STAT3 and Myc in ES cells (doc
25300426), the Bacteroides Pif1 helicase (17731780), the oxytocinase subfamily (22820637), rapamycin and synaptic
plasticity (10790846), MyD88 and Th17 cells (6767271).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, judged, proven, spans

MYC = ("In this report, we identify a key target of the LIF self-renewal pathway by showing that STAT3 directly "
       "regulates the expression of the Myc transcription factor. Murine ES cells express elevated levels of Myc and "
       "following LIF withdrawal, Myc mRNA levels collapse and Myc protein becomes phosphorylated on threonine 58 "
       "(T58), triggering its GSK3beta dependent degradation.")
PIF1 = ("ScPif1 DNA helicase is the prototypical member of a 5'-to-3' helicase superfamily conserved from bacteria to "
        "human and plays various roles in the maintenance of genomic homeostasis. Here we studied BsPif1 from yeast "
        "extracts. Interestingly, we found that BsPif1 is different from yeast Pif1, but resembles more human Pif1 with "
        "regard to substrate specificity, helicase activity and mode of action.")
LTP = ("Many forms of long-lasting behavioral and synaptic plasticity require the synthesis of new proteins. For "
       "example, long-term potentiation (LTP) that endures for more than an hour requires both transcription and "
       "translation.")


def test_a_short_name_exchanged_at_the_claims_end_is_a_proven_reversal():
    """Trial 93's 12 (*supported*, P(entails) 0.97): "Myc directly regulates the expression of STAT3" for "STAT3
    directly regulates the expression of the Myc transcription factor" (*Myc* is three letters; the claim ends on
    *STAT3*)."""
    claim = "A key link in this pathway is that Myc directly regulates the expression of STAT3"
    [tag] = proven(detect_polarity_flip, claim, MYC)
    assert spans(tag) == ("Myc", "STAT3") and escalates(tag)
    assert proven(detect_polarity_flip, "A key link in this pathway is that STAT3 directly regulates the expression of "
                  "Myc", MYC) == []


def test_two_organisms_exchanged_beside_a_shared_degree_word_are_a_proven_reversal():
    """Trial 92's 19 (*supported*, 0.91): the *more* both keep is no turned degree."""
    claim = ("With regard to substrate specificity, helicase activity and mode of action, BsPif1 differs from human "
             "Pif1 but resembles yeast Pif1 more closely")
    [tag] = proven(detect_polarity_flip, claim, PIF1)
    assert {spans(tag)[0], spans(tag)[1]} == {"human", "yeast"}
    assert proven(detect_polarity_flip, claim.replace("human Pif1 but resembles yeast", "yeast Pif1 but resembles "
                                                      "human"), PIF1) == []


def test_humans_named_as_a_kind_are_no_people_unstudied():
    """Trial 92's 11 (faithful, *unsupported* by a proven scope tag): "conserved from bacteria to human"."""
    claim = ("ScPif1 is the prototypical member of a 5'-to-3' helicase superfamily that is conserved from bacteria to "
             "humans and helps maintain genomic homeostasis")
    assert proven(detect_scope_inflation, claim, PIF1) == []
    lab = "We studied BsPif1 from yeast extracts and in human cell lines."
    assert proven(detect_scope_inflation, "BsPif1 protects humans from genomic instability", lab) != []


def test_rise_for_collapse_at_the_claims_end_is_a_proven_reversal():
    """Trial 93's 16 (*supported*, 0.81): the claim ends on "rise sharply" where the source goes on."""
    [tag] = proven(detect_polarity_flip, "Following LIF withdrawal, Myc mRNA levels rise sharply", MYC)
    assert spans(tag) == ("rise", "collapse")
    assert proven(detect_polarity_flip, "Following LIF withdrawal, Myc mRNA levels collapse", MYC) == []


def test_three_hours_for_an_hour_and_another_motif_number_are_proven_drifts():
    """Trial 94's 2 (*partial*: "an hour" is no quantity to the parser) and trial 92's 23 (*partial*: a number inside
    a motif's name)."""
    claim = "Long-term potentiation (LTP) that endures for more than three hours requires both transcription and translation"
    [tag] = detect_number_drift(claim, LTP, source_text=LTP)
    assert (spans(tag), tag.proven) == (("more than three hours", "an hour"), True)
    assert detect_number_drift(claim.replace("three hours", "one hour"), LTP, source_text=LTP) == []
    motif = "They share HEXXH(X)18E Zn-binding and GAMEN motifs essential for the enzymatic activities."
    claim = "The subfamily members share HEXXH(X)16E Zn-binding and GAMEN motifs essential for the enzymatic activities"
    [tag] = detect_number_drift(claim, motif, source_text=motif)
    assert (spans(tag), tag.proven) == (("HEXXH(X)16E", "HEXXH(X)18E"), True)
    assert detect_number_drift(claim.replace("16E", "18E"), motif, source_text=motif) == []


def test_depend_on_for_require_is_rewording():
    """Trial 94's 1 (faithful, *unsupported* by a proven term_swap), and trial 91's "drew on" for "using data"."""
    assert proven(detect_term_swap, "Many long-lasting forms of behavioral and synaptic plasticity depend on the "
                  "synthesis of new proteins", LTP) == []


def test_a_judges_contradiction_of_a_thing_set_apart_in_other_words_is_partial():
    """Trial 91's 3 (faithful, *contradicted* at P(contradicts) 0.83): "not merely" for "rather than simply"; a claim
    that denies outright keeps the contradiction."""
    from citeproof.detectors.denials import states_same_contrast
    from citeproof.judges.policy import Policy, decide
    from citeproof.model import Tier, Verdict

    src = ("Through measurement of Ag-specific responses after adoptive transfer of OTII cells, we confirmed that "
           "MyD88-dependent signaling controls Th17 differentiation rather than simply production of IL-17.")
    claim = ("Using adoptive transfer of OTII cells, the authors confirmed that MyD88-dependent signaling governs Th17 "
             "differentiation itself, not merely the production of IL-17")
    assert states_same_contrast(claim, src) == src
    denied = claim.replace("governs", "does not govern")
    assert states_same_contrast(denied, src) is None
    lexical = judged(src, Verdict.PARTIAL, 0.6)
    lexical.tier = Tier.LEXICAL
    out = decide(judged(src, Verdict.CONTRADICTED, 0.77), lexical, Policy(), claim=claim)
    assert (out.verdict, "needs_review" in out.flags) == (Verdict.PARTIAL, True)
    assert "sets apart what the claim sets apart" in out.reasons[0]
