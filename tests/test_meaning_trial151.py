"""Issue 28: what the hundred-and-fifty-first to hundred-and-fifty-fourth new users' trials found (2026-12-07,
session 28; held out on `47a848a`: 14, 12, 11 and 9 of 20 false claims caught, 2, 2, 1 and 5 called *supported*;
no faithful paraphrase called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): Apoe-knockout mice (doc 37205759), transgenic IL-10
and EAE (854417), vitamin D and multiple sclerosis (22843838), electroporation of mouse embryos (14893428), PI3K and
mTORC1 inhibition in breast cancer brain metastases (1389264), NF1 in neurons (33796570), Tet1 (2086909), RhoA
exchange factors in megakaryocytes (33076846), SIVrcm in macaques (31560225), Prrx1 and the EMT (825728) and the small
ribosomal subunit with tetracycline, edeine and IF3 (23342686).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven, tag_map as _tags

APOE = ("Apoe has been demonstrated to play a central role in lipoprotein metabolism. Apoe-deficient (Apoe(-/-)) mice "
        "develop atherosclerotic plaques spontaneously, followed by obesity. In this study, we investigated whether "
        "lipid deposition caused by Apoe knockout affects reproduction in female mice.")
IL10 = ("The hIL-10 transgenic mice are highly resistant to EAE induced by active immunization, and this resistance "
        "appears to be mediated by suppression of autoreactive T cell function. Myelin-reactive T helper 1 cells are "
        "induced but nonpathogenic in the IL-10 transgenic mice. Antibody depletion confirmed that EAE resistance is "
        "dependent on the presence of the transgenic IL-10.")
VITAMIN_D = ("It is known that vitamin D has immunomodulatory functions and suppresses an animal model of MS. It is also "
             "considered that vitamin D-related genes are critical susceptible genes for MS. An approach from "
             "environmental and genetic aspects is needed to investigate the association between vitamin D and MS.")
EMBRYOS = ("Transfection is facilitated by forceps-type electrodes, which hold the uterus and/or the yolk sac containing "
           "the embryo. More than ten embryos in a single pregnant mouse can be operated on within 30 min. More than 90% "
           "of operated embryos survive.")
PI3K = ("Combined inhibition of PI3K and mTOR resulted in durable tumor regressions in three of five PDXs, and "
        "therapeutic response was correlated with a reduction in the phosphorylation of 4EBP1, an mTORC1 effector.")
NF1 = ("Introduction of a Synapsin I promoter driven Cre transgenic mouse strain into the conditional NF1 background has "
       "ablated NF1 function in most differentiated neuronal populations. These mice have abnormal development of the "
       "cerebral cortex. Furthermore, although they are tumor free, these mice display extensive astrogliosis in the "
       "absence of conspicuous neurodegeneration or microgliosis.")
TET1 = ("Tet1 mutant mice are viable, fertile, and grossly normal. Our data suggest that Tet1 loss leading to a partial "
        "reduction in 5hmC levels does not affect pluripotency in ESCs and is compatible with embryonic and postnatal "
        "development.")
MK = ("Polyploidization can precede the development of aneuploidy in cancer. Polyploidization in megakaryocytes (Mks), "
      "in contrast, is a highly controlled developmental process critical for efficient platelet production via unknown "
      "mechanisms. Using primary cells, we demonstrate that the guanine exchange factors GEF-H1 and ECT2, which are often "
      "overexpressed in cancer and are essential for RhoA activation during cytokinesis, must be downregulated for Mk "
      "polyploidization. The first (2N-4N) endomitotic cycle requires GEF-H1 downregulation, whereas subsequent cycles "
      "(>4N) require ECT2 downregulation. Exogenous expression of both GEF-H1 and ECT2 prevents endomitosis, resulting "
      "in proliferation of 2N Mks.")
SIV = ("In this report, additional in vitro replication studies and the results of SIVrcm infection in macaques are "
       "presented. SIVrcm causes little cytopathic effedct in Molt 4 Clone 8 cells and in rhesus and human PBMCs. In "
       "vivo, SIVrcm is non-pathogenic after 200 days in rhesus macaques and after one year in cynomolgous macaques, but "
       "does cause a chronic infection in both macaques.")
PRRX1 = ("Metastatic colonization requires the repression of the epithelial-mesenchymal transition inducer Prrx1.\n\n"
         "The epithelial-mesenchymal transition (EMT) is required in the embryo for the formation of tissues for which "
         "cells originate far from their final destination. We show that the homeobox factor Prrx1 is an EMT inducer "
         "conferring migratory and invasive properties.")
IF3 = ("The location of the C-terminal domain of IF3, at the solvent side of the platform, sheds light on the formation "
       "of the initiation complex, and implies that the anti-association activity of IF3 is due to its influence on the "
       "conformational dynamics of the small ribosomal subunit.")


def test_a_negation_the_claim_adds_before_the_end_of_its_clause():
    """Trial 151's 20 (*partial*, 0.75 unproven): the six words after the claim's *not* ran past its clause
    ("spontaneously, although they do become obese" / "spontaneously, followed by obesity")."""
    assert "polarity_flip" in _proven("Apoe-deficient mice do not develop atherosclerotic plaques spontaneously, "
                                      "although they do become obese.", APOE)
    assert "polarity_flip" in _proven("Apoe-deficient mice do not develop atherosclerotic plaques spontaneously.", APOE)
    assert "polarity_flip" not in _tags("Mice lacking Apoe spontaneously develop atherosclerotic plaques and later "
                                        "become obese.", APOE)


def test_a_negation_the_claim_adds_where_the_source_puts_two_words_after_the_verb():
    """Trial 153's 7 (*partial*, 0.75 unproven): "are not induced in the IL-10 transgenic mice" for "are induced but
    nonpathogenic in the IL-10 transgenic mice". Words that weaken (*only*, *rarely*) are no such two words."""
    assert "polarity_flip" in _proven("Myelin-reactive T helper 1 cells are not induced in the IL-10 transgenic mice.",
                                      IL10)
    assert "polarity_flip" not in _proven("In the IL-10 transgenic mice, myelin-reactive T helper 1 cells are still "
                                          "induced, yet they do not cause disease.", IL10)
    assert "polarity_flip" not in _proven(
        "Myelin-reactive T helper 1 cells are not induced in the IL-10 transgenic mice.",
        "Myelin-reactive T helper 1 cells are induced only rarely in the IL-10 transgenic mice.")


def test_a_turned_word_beside_the_singular_of_a_plural_short_form():
    """Trial 154's 15 (*supported*, no tag): "must be upregulated for megakaryocyte polyploidization" for "must be
    downregulated for Mk polyploidization", the source defining "megakaryocytes (Mks)"."""
    assert "polarity_flip" in _proven("The guanine exchange factors GEF-H1 and ECT2 must be upregulated for "
                                      "megakaryocyte polyploidization to proceed.", MK)
    assert "polarity_flip" not in _tags("The guanine exchange factors GEF-H1 and ECT2 must be downregulated for "
                                        "megakaryocyte polyploidization to proceed.", MK)


def test_a_number_the_source_names_only_of_something_else():
    """Trial 154's 27 (*supported*): "resulting in the proliferation of 4N megakaryocytes" for "... of 2N Mks", the
    claim's 4N standing only in "(>4N)" of a sentence far less like the claim. Trial 153's 30 (*partial*, no tag):
    "within 10 min" for "within 30 min", the sentence's own "ten embryos" taken for the ten minutes."""
    assert "number_drift" in _proven("Exogenous expression of both GEF-H1 and ECT2 prevents endomitosis, resulting in "
                                     "the proliferation of 4N megakaryocytes.", MK)
    assert "number_drift" not in _tags("Exogenous expression of both GEF-H1 and ECT2 prevents endomitosis, resulting "
                                       "in the proliferation of 2N megakaryocytes.", MK)
    assert "number_drift" in _proven("With in vivo electroporation, more than ten embryos in a single pregnant mouse "
                                     "can be operated on within 10 min.", EMBRYOS)
    assert "number_drift" not in _tags("With in vivo electroporation, more than ten embryos in a single pregnant mouse "
                                       "can be operated on within 30 min.", EMBRYOS)


def test_a_hedge_dropped_from_implies_can_and_it_is_considered():
    """Trials 151's 21, 154's 11 and 152's 20 (*supported*): "demonstrates that" for "implies that", "precedes" for
    "can precede", "have been established as" for "It is also considered that". Each claim that keeps the hedge is
    clear."""
    assert _tags("The location of the C-terminal domain of IF3 at the solvent side of the platform demonstrates that "
                 "the anti-association activity of IF3 is due to its influence on the conformational dynamics of the "
                 "small ribosomal subunit.", IF3)["hedge_removed"][0] >= 0.7
    assert "hedge_removed" not in _tags("The position of the C-terminal domain of IF3 implies that its anti-association "
                                        "activity is due to its influence on the conformational dynamics of the small "
                                        "ribosomal subunit.", IF3)
    assert _tags("Polyploidization precedes the development of aneuploidy in cancer.", MK)["hedge_removed"][0] >= 0.7
    assert "hedge_removed" not in _tags("Polyploidization can precede the development of aneuploidy in cancer.", MK)
    assert _tags("Vitamin D-related genes have been established as critical susceptibility genes for MS.",
                 VITAMIN_D)["hedge_removed"][0] >= 0.85
    assert "hedge_removed" not in _tags("Vitamin D-related genes are also considered critical susceptibility genes for "
                                        "MS.", VITAMIN_D)


def test_who_induces_whom_said_with_an_agent_noun():
    """Trial 152's 6 (*supported*, 0.95): "The epithelial-mesenchymal transition induces the homeobox factor Prrx1"
    for "Prrx1 is an EMT inducer"; trial 153's 18 (*supported*, 0.92): "mTORC1, an effector of 4EBP1" for "4EBP1, an
    mTORC1 effector"."""
    assert "polarity_flip" in _proven("The epithelial-mesenchymal transition induces the homeobox factor Prrx1, which "
                                      "confers migratory and invasive properties.", PRRX1)
    assert "polarity_flip" not in _tags("The homeobox factor Prrx1 induces the epithelial-mesenchymal transition and "
                                        "confers migratory and invasive properties.", PRRX1)
    assert "polarity_flip" in _proven("Response to combined PI3K and mTOR inhibition correlated with reduced "
                                      "phosphorylation of mTORC1, an effector of 4EBP1.", PI3K)
    assert "polarity_flip" not in _tags("Response to combined PI3K and mTOR inhibition correlated with reduced "
                                        "phosphorylation of 4EBP1, an effector of mTORC1.", PI3K)


def test_a_swap_beside_a_compound_written_apart_and_a_frame_reworded():
    """Trial 154's 24 (*partial*, no tag): "a Nestin promoter-driven Cre transgenic strain" for "a Synapsin I promoter
    driven Cre transgenic mouse strain", the hyphen had made the word diff read two words for one. The faithful twin
    opens "Crossing" for "Introduction of": an action named otherwise at the start, no swap."""
    assert "term_swap" in _proven("Crossing a Nestin promoter-driven Cre transgenic strain into the conditional NF1 "
                                  "background ablated NF1 function in most differentiated neuronal populations.", NF1)
    assert "term_swap" not in _tags("Crossing a Synapsin I promoter-driven Cre transgenic strain into the conditional "
                                    "NF1 background ablated NF1 function in most differentiated neuronal populations.",
                                    NF1)


def test_together_with_for_in_the_absence_of():
    """Trial 154's 6 (*partial*, no tag): "display extensive astrogliosis together with conspicuous neurodegeneration
    and microgliosis" for "... in the absence of conspicuous neurodegeneration or microgliosis"."""
    assert "polarity_flip" in _proven("Although they are tumor free, mice lacking neuronal NF1 display extensive "
                                      "astrogliosis together with conspicuous neurodegeneration and microgliosis.", NF1)
    assert "polarity_flip" not in _tags("Although tumor free, mice lacking neuronal NF1 show extensive astrogliosis "
                                        "without conspicuous neurodegeneration or microgliosis.", NF1)


def test_humans_added_where_the_source_has_only_human_cells():
    """Trial 154's 12 (*supported*): "non-pathogenic in both macaques and humans" where the source's only people are
    "human PBMCs"."""
    assert "scope_inflation" in _proven("In vivo, SIVrcm is non-pathogenic in both macaques and humans, although it does "
                                        "cause a chronic infection.", SIV)
    assert "scope_inflation" not in _tags("In vivo, SIVrcm is non-pathogenic in rhesus and cynomolgus macaques, although "
                                          "it does cause a chronic infection in both.", SIV)


def test_complete_for_partial():
    """Trial 152's 18 (*partial*, only the dropped hedge): "Tet1 loss leading to a complete loss of 5hmC" for "... to
    a partial reduction in 5hmC levels"."""
    assert "scope_inflation" in _proven("Tet1 loss leading to a complete loss of 5hmC does not affect pluripotency in "
                                        "ESCs and is compatible with embryonic and postnatal development.", TET1)
    assert "scope_inflation" not in _tags("Losing Tet1, which only partly reduces 5hmC levels, leaves pluripotency in "
                                          "ESCs intact and is compatible with embryonic and postnatal development.", TET1)


PROTEASOME = ("In the present study, we established a transgenic (Tg) mouse model with decreased proteasomal "
              "chymotrypsin-like activity. Tg mice exhibited a shortened life span and developed age-related "
              "phenotypes. When Tg mice were fed a high-fat diet, they developed more pronounced obesity and hepatic "
              "steatosis than did wild-type mice.")
FUSION = ("Although normal cells indeed fail to proliferate after fusion, expression of an oncogene or a mutated tumor "
          "suppressor p53 in just one of the fusion partners is sufficient to produce heterogeneous progeny.")


def test_two_names_each_where_the_other_stands():
    """Trial 154's 1 (*supported*, 0.92): "megakaryocytes lacking GEF-H1 through elevated expression of Mkl1" for
    "Mks lacking Mkl1, ... is via elevated GEF-H1 expression"."""
    assert "polarity_flip" in _proven("Polyploidization is prevented in megakaryocytes lacking GEF-H1 through elevated "
                                      "expression of Mkl1.", MK + " Furthermore, we have shown that the mechanism by "
                                      "which polyploidization is prevented in Mks lacking Mkl1, which is mutated in "
                                      "megakaryocytic leukemia, is via elevated GEF-H1 expression.")
    assert "polarity_flip" not in _tags("Polyploidization is prevented in megakaryocytes lacking Mkl1 through elevated "
                                        "expression of GEF-H1.", MK + " Furthermore, we have shown that the mechanism "
                                        "by which polyploidization is prevented in Mks lacking Mkl1, which is mutated in "
                                        "megakaryocytic leukemia, is via elevated GEF-H1 expression.")


def test_a_noun_phrase_reordered_exchanges_no_names():
    """Faithful claims of trials 104 (25) and 153 (27's words) read as exchanges by the first form of the rule above:
    "an ImmTAC uses its anti-CD3 end" for "the anti-CD3 effector end of the ImmTAC", "the mTORC1 effector 4EBP1" for
    "4EBP1, an mTORC1 effector"."""
    immtac = ("Once bound to tumour cells the anti-CD3 effector end of the ImmTAC drives recruitment of polyclonal T "
              "cells to the tumour site, leading to a potent redirected T cell response and tumour cell destruction.")
    assert "polarity_flip" not in _tags("After binding a tumour cell, an ImmTAC uses its anti-CD3 end to recruit "
                                        "polyclonal T cells, producing a potent redirected T cell response that "
                                        "destroys the tumour cell.", immtac)
    assert "polarity_flip" not in _tags("Therapeutic response to combined PI3K and mTOR inhibition went with a reduction "
                                        "in the phosphorylation of the mTORC1 effector 4EBP1.", PI3K)


def test_what_a_comparison_is_made_against_exchanged():
    """Trial 151's 25 (*partial*, no tag): wild-type mice "more pronounced obesity ... than did the transgenic mice"
    for Tg mice "more pronounced obesity ... than did wild-type mice"."""
    assert "polarity_flip" in _proven("When fed a high-fat diet, wild-type mice developed more pronounced obesity and "
                                      "hepatic steatosis than did the transgenic mice with decreased proteasomal "
                                      "activity.", PROTEASOME)
    assert "polarity_flip" not in _tags("On a high-fat diet, the transgenic mice developed more pronounced obesity and "
                                        "hepatic steatosis than wild-type mice.", PROTEASOME)


def test_a_turned_word_the_two_sentences_end_alike_after():
    """Trial 153's 2 (*partial*, 0.85 unproven, and a causal tag on a claim that reports the correlation itself):
    "was correlated with an increase in the phosphorylation of 4EBP1, an mTORC1 effector" for "... a reduction in
    ..."."""
    tags = _tags("Therapeutic response to PI3K and mTOR inhibition was correlated with an increase in the "
                 "phosphorylation of 4EBP1, an mTORC1 effector.", PI3K)
    assert tags.get("polarity_flip") == (0.9, True) and "causal_overclaim" not in tags
    assert "polarity_flip" not in _tags("Therapeutic response to PI3K and mTOR inhibition was correlated with a "
                                        "reduction in the phosphorylation of 4EBP1, an mTORC1 effector.", PI3K)


def test_do_not_for_fail_to_is_no_added_negation():
    """Trial 120's faithful 22 became *contradicted* once a negation's run could end at its clause: "Normal cells do
    not proliferate after fusion" for "normal cells indeed fail to proliferate after fusion"."""
    assert "polarity_flip" not in _proven("Normal cells do not proliferate after fusion, but an oncogene or mutant p53 "
                                          "in just one of the two partners is enough to yield heterogeneous progeny.",
                                          FUSION)


ASTROCYTES = ("Astrocytes also influence neuronal physiology by responding to neurotransmitters and neuropeptides and by "
              "releasing regulatory factors termed gliotransmitters.")
CRMP2 = ("Lumbar spinal nerve segments, peripheral and central to DRG, were dissected from 5-wk-old Wistar rats and the "
         "lysates were subjected to large-sized 2-DE at pH 5-6. The C-terminal fragment of CRMP-2 was not detected in "
         "periCRMP-2 by MS analyses.")


def test_round_35_two_words_turned_round_and_a_negation_left_out_in_another_voice():
    """Held out on `f4f5df1` (trials 155-158): "Neurons influence astrocyte physiology" for "Astrocytes also influence
    neuronal physiology" (158's 3, *supported* at 0.99) and "MS analyses detected the C-terminal fragment" for "... was
    not detected ... by MS analyses" (158's 4, *partial*, no tag). Their faithful twins stay clear, and "based on" is
    "using" (156's faithful twin had a proven swap)."""
    assert "polarity_flip" in _proven("Neurons influence astrocyte physiology by responding to neurotransmitters and "
                                      "neuropeptides.", ASTROCYTES)
    assert "polarity_flip" not in _tags("Astrocytes influence neuronal physiology by responding to neurotransmitters "
                                        "and neuropeptides.", ASTROCYTES)
    assert "polarity_flip" in _proven("MS analyses detected the C-terminal fragment of CRMP-2 in periCRMP-2.", CRMP2)
    assert "polarity_flip" not in _proven("MS analyses did not detect the C-terminal fragment of CRMP-2 in periCRMP-2.",
                                          CRMP2)
    assert "term_swap" not in _tags("The human capital cost analysis was based on publicly accessible data.",
                                    "DESIGN Human capital cost analysis using publicly accessible data.")


def test_two_dimensional_is_no_count_of_weeks():
    """Trial 158's faithful 9 (*unsupported*, a proven drift): "separated by two-dimensional electrophoresis" read
    'two' against the "5" of "5-wk-old"."""
    assert "number_drift" not in _proven("Spinal nerve lysates from young Wistar rats were separated by two-dimensional "
                                         "electrophoresis to compare segments peripheral and central to the dorsal root "
                                         "ganglia.", CRMP2)


def test_round_36_unable_successive_and_a_genus_spelled_out():
    """Held out on `e8cd2ef` (trials 159-162: 49 caught, 3 supported of 80): "RISC is able to unfold structured RNA"
    for "demonstrating that RISC is unable to unfold structured RNA" (160's 25, *supported*); two faithful claims
    called *unsupported* by proven swaps: "at successive stages" for "at progressive stages" and "In wild-type
    Myxococcus xanthus" for "Wild-type strains of M. xanthus" (161's 6 and 8)."""
    risc = ("Here, we show, both in vitro and in vivo, that the accessibility of the target site correlates directly "
            "with the efficiency of cleavage, demonstrating that RISC is unable to unfold structured RNA.")
    assert "polarity_flip" in _proven("Experiments both in vitro and in vivo demonstrated that RISC is able to unfold "
                                      "structured RNA.", risc)
    assert "polarity_flip" not in _tags("Experiments both in vitro and in vivo demonstrated that RISC is unable to "
                                        "unfold structured RNA.", risc)
    golli = ("These mRNAs are temporally expressed within cells of the oligodendrocyte lineage at progressive stages of "
             "differentiation.")
    assert "term_swap" not in _proven("Within the oligodendrocyte lineage, these mRNAs are expressed at successive "
                                      "stages of differentiation.", golli)
    xanthus = ("Social motility of Myxococcus xanthus.\n\nWild-type strains of M. xanthus exhibit socially dependent "
               "swarming across soft surfaces by a mechanism known as 'S-motility' that requires the presence of "
               "extracellular type IV pili. Mutants of M. xanthus lacking pili do not swarm.")
    assert "term_swap" not in _proven("In wild-type Myxococcus xanthus, socially dependent swarming over soft surfaces, "
                                      "known as S-motility, requires extracellular type IV pili.", xanthus)


def test_round_36_inversely_for_directly_and_a_turned_word_near_the_end():
    """Trial 160's 14 (*partial*, an unproven swap): "correlates inversely with" for "correlates directly with"; its 3
    (*partial*, no tag): "was insufficient for all scales of the questionnaire" for "was sufficient for all scales."
    (one content word alike after the turned word, the sentence ending there)."""
    risc = ("Here, we show, both in vitro and in vivo, that the accessibility of the target site correlates directly "
            "with the efficiency of cleavage, demonstrating that RISC is unable to unfold structured RNA.")
    assert "polarity_flip" in _proven("The accessibility of the target site correlates inversely with the efficiency of "
                                      "cleavage by RISC, both in vitro and in vivo.", risc)
    assert "polarity_flip" not in _tags("The accessibility of the target site correlates directly with the efficiency "
                                        "of cleavage by RISC, both in vitro and in vivo.", risc)
    scales = ("The questionnaire was developed in three steps. The index of internal consistency reliability was "
              "sufficient for all scales.")
    assert "polarity_flip" in _proven("The index of internal consistency reliability was insufficient for all scales of "
                                      "the questionnaire.", scales)
    assert "polarity_flip" not in _tags("The index of internal consistency reliability was sufficient for all scales of "
                                        "the questionnaire.", scales)


def test_round_36_a_word_of_the_sources_own_inside_the_negated_run():
    """Trial 159's 14 (*partial*, 0.75 unproven): "are not hypersensitive to protein synthesis inhibitors" for "are
    hypersensitive to particular protein synthesis inhibitors"."""
    yar1 = ("We demonstrate that cells lacking YAR1 or LTV1 are hypersensitive to particular protein synthesis "
            "inhibitors and exhibit aberrant polysome profiles, with a reduced absolute number of 40S subunits and an "
            "excess of free 60S subunits.")
    assert "polarity_flip" in _proven("Cells lacking YAR1 or LTV1 are not hypersensitive to protein synthesis "
                                      "inhibitors, although they exhibit aberrant polysome profiles.", yar1)
    assert "polarity_flip" not in _tags("Cells lacking YAR1 or LTV1 are hypersensitive to protein synthesis inhibitors "
                                        "and exhibit aberrant polysome profiles.", yar1)


def test_round_36_invariably_for_frequently():
    """Trial 159's 26 (*partial*, an unproven widening): "JCV-infected glial cells are invariably located at" for "...
    are frequently located at"; "often" for "frequently" stays clear."""
    jcv = ("We now recognize that JCV-infected glial cells are frequently located at the gray-white matter junction or "
           "exclusively within the gray matter causing demyelination in the cortex.")
    assert "scope_inflation" in _proven("JCV-infected glial cells are invariably located at the gray-white matter "
                                        "junction or exclusively within the gray matter.", jcv)
    assert "scope_inflation" not in _tags("JCV-infected glial cells are often located at the gray-white matter junction "
                                          "or exclusively within the gray matter.", jcv)
