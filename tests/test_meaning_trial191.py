"""Issue 28: what the hundred-and-ninety-first to hundred-and-ninety-fourth new users' trials found (2026-12-07,
session 30; held out on `2aa6eba`: 8 of 80 false claims *supported*, five of them roles turned round). Each rule
beside its faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): Notch signalling in tumorigenesis (doc 17917408),
MeCP2 phosphorylation (1964163), Hoxa9 and Meis1a (18806488) and redirected regulatory T cells (36216395).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven

NOTCH = ("Numerous cellular functions and microenvironmental cues associated with tumorigenesis are modulated by Notch "
         "signaling, including proliferation, apoptosis, adhesion, epithelial-to-mesenchymal transition, and "
         "angiogenesis.")
TREGS = ("RESULTS Transduced Tregs maintained their Foxp3 level, could undergo repeated expansion upon ex vivo encounter "
         "with their cognate antigen in a major histocompatibility complex-independent, costimulation-independent, and "
         "contact-dependent manner and specifically suppressed Teff cells.")
MECP2 = ("Here, we show that neuronal activity and subsequent calcium influx trigger the de novo phosphorylation of "
         "MeCP2 at serine 421 (S421) by a CaMKII-dependent mechanism.")
HOXA9 = ("Hoxa9, Meis1 and Pbx1 encode homeodomaincontaining proteins implicated in leukemic transformation in both "
         "mice and humans.")


def test_the_agent_of_a_passive_exchanged():
    """Trial 191's 17 (*supported*): both passive, agent and patient exchanged."""
    claim = "{} {} modulated by {}."
    assert "polarity_flip" in _proven(claim.format("Notch signaling", "is itself", "numerous cellular functions and "
                                                   "microenvironmental cues associated with tumorigenesis"), NOTCH)
    assert "polarity_flip" not in _proven(claim.format("Numerous cellular functions and microenvironmental cues "
                                                       "associated with tumorigenesis", "are", "Notch signaling"),
                                          NOTCH)


def test_a_passive_for_the_sources_active():
    """Trial 192's 7 (*supported*): "were specifically suppressed by Teff cells" for "specifically suppressed Teff
    cells"; the means of a passive (*classified by presumed mechanism*) is no agent."""
    claim = ("Transduced Tregs could undergo repeated expansion upon ex vivo encounter with their cognate antigen and "
             "{}.")
    assert "polarity_flip" in _proven(claim.format("were specifically suppressed by Teff cells"), TREGS)
    assert "polarity_flip" not in _proven(claim.format("specifically suppressed Teff cells"), TREGS)
    assert "polarity_flip" not in _proven("In a meta-analysis, pesticides were classified by their presumed mechanism "
                                          "and not only by their chemical class.", "Pesticides were classified by "
                                          "presumed mechanism, not only by chemical class, in the meta-analysis.")


def test_dephosphorylation_for_phosphorylation():
    """Trial 191's 18 (*supported* at 0.98)."""
    claim = "Neuronal activity and the calcium influx that follows it trigger the {} of MeCP2 at S421."
    assert "polarity_flip" in _proven(claim.format("dephosphorylation"), MECP2)
    assert "polarity_flip" not in _proven(claim.format("phosphorylation"), MECP2)


def test_protecting_against_inserted():
    """Trial 192's 11 (*supported*)."""
    claim = ("Hoxa9, Meis1 and Pbx1 encode homeodomain-containing proteins implicated in {}leukemic transformation in "
             "both mice and humans.")
    assert "polarity_flip" in _proven(claim.format("protecting against "), HOXA9)
    assert "polarity_flip" not in _proven(claim.format(""), HOXA9)


def test_a_loss_of_methylation_is_demethylation():
    """Trial 173's 21, faithful (*contradicted* by the de- rule): "trigger loss of H3K36me2/3 methylation"."""
    assert "polarity_flip" not in _proven("Vitamin C was found to trigger loss of H3K36me2/3 methylation in cultured "
                                          "mouse embryonic fibroblasts.", "We first observed that vitamin C induces "
                                          "H3K36me2/3 demethylation in mouse embryonic fibroblasts in culture.")


def test_two_arguments_exchanged_across_whereas():
    """Trial 194's 4 (*supported* at 0.95, written with *while*; here *whereas*, a term of the clause reading): the
    predicates keep their places and the two collagens change clauses; the two whole clauses in the other order are
    a reordering."""
    source = ("Arterial smooth muscle cells (SMCs) are arrested in the G1 phase of the cell cycle on polymerized type I "
              "collagen fibrils, whereas monomer collagen supports SMC proliferation.")
    assert "polarity_flip" in _proven("Arterial smooth muscle cells are arrested in the G1 phase on monomer collagen, "
                                      "whereas polymerized type I collagen fibrils support their proliferation.", source)
    assert "polarity_flip" not in _proven("Whereas monomer collagen supports SMC proliferation, arterial smooth muscle "
                                          "cells are arrested in the G1 phase of the cell cycle on polymerized type I "
                                          "collagen fibrils.", source)
