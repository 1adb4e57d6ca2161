"""Issue 28: what the hundred-and-seventy-ninth to hundred-and-eighty-second new users' trials found (2026-12-07,
session 30; held out on `57def2e`: 14 of 80 false claims *supported*). Each rule beside its faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): ATM and ataxia telangiectasia (doc 30353437), NCBI GEO
(15617300), re-replication by DNA fiber spreading (15926408), actin and SRF in epidermal stem cells (15176526),
adipocyte O2 consumption and HIF-1alpha (1907601), dihydroartemisinin's stability (20761364), hypoxia and mRNA
translation (14874811), kinetochores under tension (17805221), gestational protein restriction in rats (1449692) and
spatial release from masking (43283375).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven, tag_map as _tags

AT = ("Ataxia telangiectasia (AT) has long intrigued the biomedical research community owing to the spectrum of "
      "defects that are characteristic of the disease, including neurodegeneration, immune dysfunction, "
      "radiosensitivity and cancer predisposition. Following the identification of mutations in ATM as the underlying "
      "cause of the disease, biochemical analysis of this protein kinase has shown that it is a crucial nexus for the "
      "cellular response to DNA double-stranded breaks.")
GEO = ("The Gene Expression Omnibus (GEO) is an international public repository for high-throughput microarray and "
       "next-generation sequence functional genomic data sets submitted by the research community. All data are "
       "freely available for download in a variety of formats.")
REREPLICATION = ("A major challenge each human cell-division cycle is to ensure that DNA replication origins do not "
                 "initiate more than once, a phenomenon known as re-replication. Using this method we demonstrate "
                 "substantial re-replication within 1 h of S phase entry in cells overproducing the replication "
                 "factor, Cdt1.")
SKIN = ("Here, we employ micropatterned surfaces to identify the signalling pathways by which restricted ECM contact "
        "triggers human epidermal stem cells to initiate terminal differentiation. Differentiation did not depend on "
        "ECM composition or density.")
HIF = ("These events are sufficient to trigger HIF-1\u03b1 induction, setting off the chronic adipose tissue "
       "inflammatory response characteristic of obesity.")
DHA = ("Artemisinins are peroxidic antimalarial drugs known to be very potent but highly chemically unstable; they "
       "degrade in the presence of ferrous iron, Fe(II)-heme, or biological reductants. A significant reduction in the "
       "antimalarial activity of DHA was seen after incubation in plasma and to a lesser extent in erythrocyte lysate.")
HYPOXIA = ("Cells can adapt to low O2 in part through activation of hypoxia-inducible factor (HIF). We report here that "
           "hypoxia inhibits mRNA translation by suppressing multiple key regulators, including eIF2alpha, eEF2, and the "
           "mammalian target of rapamycin (mTOR) effectors 4EBP1, p70S6K, and rpS6, independent of HIF. Hypoxic "
           "AMP-activated protein kinase (AMPK) activation also leads to eEF2 inhibition. Mutation of the TSC2 tumor "
           "suppressor gene confers a growth advantage to cells by repressing hypoxic mTOR inhibition and "
           "hypoxia-induced G1 arrest.")
KINETOCHORE = ("Incorrect attachments, which lack tension, are unstable and release quickly, allowing another chance "
               "for biorientation.")
PROTEIN = ("To test the hypothesis that PR can affect trophoblast differentiation in mid-and late pregnancy, rats were "
           "fed a 20% or an isocaloric 6% protein diet from Day 1 to 14 or 18 of pregnancy and effects of PR on "
           "trophoblast differentiation were determined by changes in expressions of marker gene(s) for trophoblast "
           "lineages. At Day 18 of pregnancy, PR increased expressions of Esrrb, Id1 andId2 (trophoblast stem cell "
           "markers), decreased expressions of Ascl2 (spongiotrophblast cell marker) and Prl2c1 (trophoblast giant cell "
           "marker), but did not alter expressions of Gjb3 and Pcdh12(glycogen cell markers) in the junctional zone "
           "(JZ). These results indicate that PR impairs the differentiation of trophoblast stem cell into "
           "spongiotrophoblast and trophoblast giant cells in JZ.")
MASKING = ("Three masking conditions were employed: speech-in-speech masking (involving both informational and "
           "energetic masking), speech-in-noise masking (involving energetic masking), and filtered speech-in-filtered "
           "speech masking (involving informational masking).")


def test_each_item_read_under_its_own_verb():
    """Trial 182's 20 and 9 (*partial*): one sentence increases three markers, decreases two and alters two not."""
    esrrb = ("At Day 18 of pregnancy, protein restriction {} expressions of the trophoblast stem cell markers Esrrb, "
             "Id1 and Id2 in the junctional zone.")
    assert "polarity_flip" in _proven(esrrb.format("decreased"), PROTEIN)
    assert "polarity_flip" not in _proven(esrrb.format("increased"), PROTEIN)
    gjb3 = ("At Day 18 of pregnancy, protein restriction {} expressions of the glycogen cell markers Gjb3 and Pcdh12 "
            "in the junctional zone.")
    assert "polarity_flip" in _proven(gjb3.format("altered"), PROTEIN)
    assert "polarity_flip" not in _proven(gjb3.format("did not alter"), PROTEIN)


def test_a_noun_of_direction_after_its_item():
    """Trial 181's 21 (*supported* at 0.98): "leads to activation of eEF2" for "leads to eEF2 inhibition"."""
    claim = "Hypoxic activation of AMP-activated protein kinase (AMPK) also leads to {} of eEF2."
    assert "polarity_flip" in _proven(claim.format("activation"), HYPOXIA)
    assert "polarity_flip" not in _proven(claim.format("inhibition"), HYPOXIA)


def test_dependent_for_independent():
    """Trial 181's 11 (*supported*) and trial 180's 7 (*partial*)."""
    claim = ("Hypoxia inhibits mRNA translation by suppressing multiple key regulators, including eIF2alpha, eEF2 and "
             "the mTOR effectors 4EBP1, p70S6K and rpS6, in a HIF-{} manner.")
    assert "polarity_flip" in _proven(claim.format("dependent"), HYPOXIA)
    assert "polarity_flip" not in _proven(claim.format("independent"), HYPOXIA)
    ecm = "Differentiation of keratinocytes {} ECM composition and density."
    assert "polarity_flip" in _proven(ecm.format("depended on"), SKIN)
    assert "polarity_flip" not in _proven(ecm.format("did not depend on"), SKIN)


def test_to_a_greater_extent_for_a_lesser():
    """Trial 181's 25 (*supported* at 0.91)."""
    claim = ("DHA's antimalarial activity dropped significantly after incubation in plasma and to {} extent in "
             "erythrocyte lysate.")
    assert "polarity_flip" in _proven(claim.format("an even greater"), DHA)
    assert "polarity_flip" not in _proven(claim.format("a lesser"), DHA)


def test_an_opposite_in_a_paraphrase():
    """Trial 179's 10 (*supported*: radioresistance) and trial 181's 20 (*partial*: stable)."""
    claim = "Patients with ataxia telangiectasia show {} alongside neurodegeneration and immune dysfunction."
    assert "polarity_flip" in _proven(claim.format("radioresistance"), AT)
    assert "polarity_flip" not in _proven(claim.format("radiosensitivity"), AT)
    attach = "Incorrect attachments, which lack tension, are {} and {} quickly."
    assert "polarity_flip" in _proven(attach.format("stable", "do not release"), KINETOCHORE)
    assert "polarity_flip" not in _proven(attach.format("unstable", "release"), KINETOCHORE)
    # a word negated by its prefix, the source writing the word joined ("noncoding"): no opposite of "coding"
    assert "polarity_flip" not in _proven("Most of the genome is transcribed as non-coding RNAs.",
                                          "Most transcripts overlap protein coding genes or noncoding RNAs.")


def test_twice_for_once():
    """Trial 179's 12 (*supported*, an unproven number tag)."""
    claim = ("A major challenge in each human cell-division cycle is to ensure that DNA replication origins do not "
             "initiate more than {}.")
    assert "number_drift" in _proven(claim.format("twice"), REREPLICATION)
    assert "number_drift" not in _proven(claim.format("once"), REREPLICATION)


def test_a_definition_turned_round_is_no_exchange():
    """Trial 179's 8, faithful (*contradicted* on a proven exchange of 're-replication' and 'cell-division cycle')."""
    assert "polarity_flip" not in _proven("Re-replication refers to DNA replication origins initiating more than once "
                                          "within a single cell-division cycle.", REREPLICATION)


def test_a_cause_between_two_items_of_a_list():
    """Trial 179's 6 and 30 (*supported*): the source lists the disease's defects side by side."""
    for claim in ("The immune dysfunction seen in ataxia telangiectasia drives the neurodegeneration that "
                  "characterizes the disease.",
                  "In ataxia telangiectasia, radiosensitivity causes the characteristic cancer predisposition."):
        assert _tags(claim, AT).get("causal_overclaim", (0, False))[0] >= 0.7
    assert "causal_overclaim" not in _tags("Ataxia telangiectasia is characterised by neurodegeneration, immune "
                                           "dysfunction, radiosensitivity and cancer predisposition.", AT)


def test_a_condition_dropped_from_the_cells():
    """Trial 179's 11 (*supported* at 0.95): "in human cells" for "in cells overproducing ... Cdt1"."""
    assert "scope_inflation" in _proven("Substantial re-replication occurs within 1 h of S phase entry in human "
                                        "cells.", REREPLICATION)
    assert "scope_inflation" not in _proven("Substantial re-replication occurs within 1 h of S phase entry in cells "
                                            "overproducing Cdt1.", REREPLICATION)


def test_a_human_setting_for_rats_and_for_cells():
    """Trial 182's 2 (*partial*: "in human pregnancy" for rats), trial 181's 23 (*supported*: "In human tumors" for
    cells), trial 180's 25 (*supported*: "in intact human skin" for micropatterned surfaces)."""
    assert "scope_inflation" in _proven("Gestational protein restriction impairs the differentiation of trophoblast "
                                        "stem cells in human pregnancy.", PROTEIN)
    assert "scope_inflation" not in _proven("Gestational protein restriction impairs the differentiation of "
                                            "trophoblast stem cells in rat pregnancy.", PROTEIN)
    assert "scope_inflation" in _proven("In human tumors, mutation of the TSC2 tumor suppressor gene confers a growth "
                                        "advantage by repressing hypoxic mTOR inhibition.", HYPOXIA)
    assert "scope_inflation" in _proven("Restricted ECM contact triggers epidermal stem cells in intact human skin to "
                                        "initiate terminal differentiation.", SKIN)
    assert "scope_inflation" not in _proven("Restricted ECM contact triggers human epidermal stem cells to initiate "
                                            "terminal differentiation.", SKIN)


def test_mice_for_rats_and_renal_for_immune():
    """Trial 182's 30 and trial 179's 22 (*partial*, unproven swaps)."""
    claim = ("To test whether protein restriction affects trophoblast differentiation, {} were fed a 20% or an "
             "isocaloric 6% protein diet from Day 1 to 14 or 18 of pregnancy.")
    assert "term_swap" in _proven(claim.format("mice"), PROTEIN)
    assert "term_swap" not in _proven(claim.format("rats"), PROTEIN)
    defects = ("The defects characteristic of ataxia telangiectasia include neurodegeneration, {} dysfunction, "
               "radiosensitivity and cancer predisposition.")
    assert "term_swap" in _proven(defects.format("renal"), AT)
    assert "term_swap" not in _proven(defects.format("immune"), AT)


def test_a_run_of_three_words_for_four():
    """Trial 179's 5 (*supported* at 0.89): "mass spectrometry proteomics" for "next-generation sequence functional
    genomic"."""
    claim = ("GEO is an international public repository for high-throughput microarray and {} data sets submitted by "
             "the research community.")
    assert "term_swap" in _proven(claim.format("mass spectrometry proteomics"), GEO)
    assert "term_swap" not in _proven(claim.format("next-generation sequence functional genomic"), GEO)


def test_the_effect_made_the_cause():
    """Trial 180's 22 (*supported* at 0.94)."""
    assert "polarity_flip" in _proven("Early in obesity, the chronic adipose tissue inflammatory response is "
                                      "sufficient to trigger HIF-1\u03b1 induction in adipocytes.", HIF)
    assert "polarity_flip" not in _proven("Early in obesity, these events are sufficient to trigger HIF-1\u03b1 "
                                          "induction, setting off the chronic adipose tissue inflammatory response.",
                                          HIF)


def test_the_condition_made_the_object():
    """Trial 181's 2 (*supported* at 0.98)."""
    claim = "Artemisinins are very potent, and they degrade {}ferrous iron, Fe(II)-heme and biological reductants."
    assert "polarity_flip" in _proven(claim.format(""), DHA)
    assert "polarity_flip" not in _proven(claim.format("in the presence of "), DHA)


def test_an_item_given_another_items_aside():
    """Trial 182's 11 (*supported* at 0.98)."""
    claim = ("Speech-in-noise masking, which involves {} masking, was one of the three masking conditions "
             "employed.")
    assert "polarity_flip" in _proven(claim.format("informational"), MASKING)
    assert "polarity_flip" not in _proven(claim.format("energetic"), MASKING)
