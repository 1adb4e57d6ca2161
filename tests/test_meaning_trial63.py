"""Issue 28: what the sixty-third to sixty-sixth new users' trials found (2026-12-07, session 23; held out on
`d12b233`: 14, 14, 13 and 13 of 20 false claims caught, 2, 0, 1 and 1 supported), and a cause 62 left *supported*.
No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): TNF and regulatory T cells (doc
38830961), checkpoint responses to replication fork barriers (27840664), soy protein and homocysteine (20083834),
NGF signalling in Alzheimer's disease (24652030), SRC in trastuzumab resistance (5270265), metformin (13466622),
PKCθ and WASp at the immunological synapse (11195653), osteopetrotic op/op mice (24356383).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

TREGS = ("In cocultures of Tregs and Teffs, inhibition of proliferation of Teffs by Tregs was initially transiently "
         "abrogated by exposure to TNF, but longer exposure to TNF restored suppressive effects.")
UNLIKE = "Unlike TNF, IL-1beta and IL-6 did not up-regulate FoxP3-expressing Tregs."
RFB = ("In this review we discuss the different types of potential replication fork barriers (RFB) and how these "
       "distinct RFBs can result in different DNA structures at the stalled replication fork. The DNA structure "
       "checkpoints which act within S phase respond to different RFBs in different ways and we thus discuss the "
       "processes that are controlled by the DNA replication checkpoints, paying particular attention to the function "
       "of the intra-S phase checkpoint that stabilises the stalled fork.")
ELISA = ("Fasting blood samples were collected at the end of each diet period and end points analyzed by enzyme-linked "
         "immunosorbent assay.")
BFCN = ("Age-related degeneration of basal forebrain cholinergic neurons (BFCNs) occurs early and contributes "
        "significantly to cognitive decline in Alzheimer's disease (AD). Proper function and morphology of BFCNs "
        "depends on the supply of nerve growth factor (NGF) from the cortex and the hippocampus. We will discuss in vivo "
        "evidence supporting decreased retrograde transport of NGF in a mouse model with BFCN degeneration, and will "
        "attempt to match these findings with our studies in postmortem human AD brain.")
SRC = ("We find that SRC is activated in both acquired and de novo trastuzumab-resistant cells and uncover a novel "
       "mechanism of SRC regulation involving dephosphorylation by PTEN.")
AMPK = ("Stimulation of 5′-AMP-activated protein kinase, although dispensable for the glucose-lowering effect of "
        "metformin, confers insulin sensitivity, mainly by modulating lipid metabolism.")
SYNAPSE = ("Here, we find that IS formation during antigen recognition comprises cycles of stable IS formation and "
           "autonomous naive T cell migration. The migration phase is driven by PKCtheta, which is localized to the "
           "F-actin-dependent peripheral (p)SMAC. IS reformation is driven by the Wiscott Aldrich Syndrome protein (WASp).")
OPOP = ("In the femoral metaphyses of op/op mice, intense alkaline phosphatase (ALPase)-positive osteoblasts were "
        "observed on the metaphyseal bone in close proximity to the erosion zone of the growth plates.")


def test_two_names_exchanged_around_by():
    """63 S13 (*supported* at 0.94): "inhibition of proliferation of Tregs by Teffs" for "... of Teffs by Tregs"."""
    (tag,) = proven(detect_polarity_flip, TREGS.replace("of Teffs by Tregs", "of Tregs by Teffs"), TREGS)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, TREGS, TREGS)


def test_like_for_unlike_beside_a_dropped_negation():
    """63 S17 (*partial*): "Like TNF, IL-1beta and IL-6 up-regulated" for "Unlike TNF, ... did not up-regulate"; the
    source's own statement with *failed to* says it."""
    (tag,) = proven(detect_polarity_flip, "Like TNF, IL-1beta and IL-6 up-regulated FoxP3-expressing Tregs", UNLIKE)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "Unlike TNF, IL-1beta and IL-6 failed to up-regulate FoxP3-expressing "
                      "Tregs", UNLIKE)


def test_a_plural_short_form_and_a_cell_cycle_phase():
    """64 S09 (*partial*, an unproven swap of 'replication fork barriers' for 'RFBs'): the source writes *RFBs* after
    defining *RFB*, so the claim's long form is that short form; then *G2 phase* for *S phase* is the swap."""
    claim = ("The DNA structure checkpoints which act within {} phase respond to different replication fork barriers "
             "in different ways")
    (tag,) = proven(detect_term_swap, claim.format("G2"), RFB)
    assert spans(tag) == ("G2 phase", "S phase") and escalates(tag)
    assert not detect_term_swap(claim.format("S"), RFB, source_text=RFB)


def test_three_words_for_three_at_the_end():
    """64 S13 (*partial*): "analyzed by high-performance liquid chromatography" for "by enzyme-linked immunosorbent
    assay"."""
    (tag,) = proven(detect_term_swap, ELISA.replace("enzyme-linked immunosorbent assay", "high-performance liquid "
                                                    "chromatography"), ELISA)
    assert spans(tag) == ("high-performance liquid chromatography", "enzyme-linked immunosorbent assay")


def test_the_two_ends_of_depends_on_exchanged():
    """65 S03 (*supported* at 0.85): the cortex and the hippocampus depending on NGF from the basal forebrain
    cholinergic neurons, where the neurons depend on NGF from the cortex and the hippocampus."""
    def flips(claim: str) -> list:  # the claim as the pipeline compares it: the long forms the source writes short
        return [t for t in run_detectors_text(claim, BFCN, source_text=BFCN) if t.name == "polarity_flip" and t.proven]

    (tag,) = flips("Proper function and morphology of the cortex and the hippocampus depends on the supply of nerve "
                   "growth factor (NGF) from basal forebrain cholinergic neurons.")
    assert escalates(tag)
    assert not flips("Proper function and morphology of basal forebrain cholinergic neurons depends on the supply of "
                     "nerve growth factor (NGF) from the cortex and the hippocampus.")


def test_one_word_for_one_between_long_agreeing_runs():
    """65 S08 (*partial*): "... retrograde transport of NGF in a rat model with BFCN degeneration" for "... in a mouse
    model ...", the sentence reworded around it ("We will discuss", "our studies")."""
    claim = ("In vivo evidence supports decreased retrograde transport of NGF in a {} model with BFCN degeneration, and "
             "the authors attempt to match these findings with their studies in postmortem human AD brain.")
    (tag,) = proven(detect_term_swap, claim.format("rat"), BFCN)
    assert spans(tag) == ("rat", "mouse") and escalates(tag)
    assert not proven(detect_term_swap, claim.format("mouse"), BFCN)


def test_a_negative_prefix_turns_the_word():
    """65 S15 (*partial*): "SRC is inactivated" for "SRC is activated"; 66 S07 (*supported* at 0.89): "is
    indispensable for" for "although dispensable for"."""
    (tag,) = proven(detect_polarity_flip, "SRC is inactivated in both acquired and de novo trastuzumab-resistant "
                    "cells.", SRC)
    assert spans(tag) == ("inactivated", "activated")
    (tag,) = proven(detect_polarity_flip, "Stimulation of 5′-AMP-activated protein kinase is indispensable for the "
                    "glucose-lowering effect of metformin and confers insulin sensitivity, mainly by modulating lipid "
                    "metabolism.", AMPK)
    assert spans(tag) == ("indispensable", "dispensable") and escalates(tag)


def test_names_given_each_others_sentence_past_a_tie():
    """66 S18 (*partial*): "The migration phase is driven by WASp, whereas IS reformation is driven by PKCtheta":
    *IS* (the synapse) stands as every sentence's *is*, so several sentences tied for the second clause."""
    (tag,) = proven(detect_polarity_flip, "The migration phase is driven by WASp, whereas IS reformation is driven by "
                    "PKCtheta.", SYNAPSE)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "The migration phase is driven by PKCtheta, whereas IS reformation is "
                      "driven by WASp.", SYNAPSE)


def test_every_subset_added_in_place_of_the_writers_frame():
    """66 S13 (*partial*): "In every T cell subset, IS formation ..." for "Here, we find that IS formation ..."."""
    (tag,) = proven(detect_scope_inflation, "In every T cell subset, IS formation during antigen recognition comprises "
                    "cycles of stable IS formation and autonomous T cell migration.", SYNAPSE)
    assert escalates(tag)


def test_induced_for_observed_near():
    """62 S24 (*supported*): "the erosion zone of the growth plates induced intense ... osteoblasts" for "osteoblasts
    were observed ... in close proximity to the erosion zone": a cause the restating sentence does not state (0.7, it
    downgrades; causes stay *partial* by the issue's design)."""
    tags = detect_causal_overclaim("In the femoral metaphyses of op/op mice, the erosion zone of the growth plates "
                                   "induced intense alkaline phosphatase (ALPase)-positive osteoblasts on the adjacent "
                                   "metaphyseal bone", OPOP, source_text=OPOP)
    assert [t for t in tags if t.confidence >= 0.7 and "induced" in t.message]
