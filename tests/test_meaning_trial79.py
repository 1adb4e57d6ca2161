"""Issue 28: what the seventy-ninth to eighty-second new users' trials found (2026-12-07, session 24; held out on
`c75afa4`: 12, 13, 9 and 14 of 20 false claims caught, 3, 0, 2 and 1 supported; faithful paraphrases 1, 4, 0 and 3
called *unsupported* or *contradicted*, seven of the eight by a proven tag). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the p21 Cdk-interacting protein
(doc 13614794), tuberculosis treatment outcomes (22414304), the follistatin:activin complex (40383969), CTCF at the
H19 imprinting control region (140874), the midbody ring in Drosophila germline stem cells (17601006), Th17-polarized
cells and melanoma (3545805).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

CDK2 = ("The cyclin-dependent kinase Cdk2 associates with cyclins A, D, and E and has been implicated in the control of "
        "the G1 to S phase transition in mammals.")
H19 = ("It is thought that the H19 imprinting control region (ICR) directs the silencing of the maternally inherited "
       "Igf2 allele through a CTCF-dependent chromatin insulator.")
TH17 = ("CD4+ T cells can differentiate into multiple effector subsets, but the potential roles of these subsets in "
        "anti-tumor immunity have not been fully explored.")
MIDBODY = ("However, whether the asymmetry in cytokinesis correlates with cell fate or has functional relevance has been "
           "poorly explored. Here we show that the MR is asymmetrically segregated during GSC divisions in a centrosome "
           "age-dependent manner: male GSCs, which inherit the mother centrosome, exclude the MR, whereas female GSCs, "
           "which we here show inherit the daughter centrosome, inherit the MR.")
TB = ("Standardized treatment outcomes of treatment completion, death, default, and transfer to another district were "
      "assessed in relation to type of TB, human immunodeficiency virus (HIV) serostatus, age and gender. Two hundred "
      "and fifty-four patients (31%) died by the end of treatment, half of the deaths occurring in the first month.")
TGF = ("TGF-beta ligands stimulate diverse cellular differentiation and growth responses by signaling through type I "
       "and II receptors.")


def _unproven(claim: str, source: str) -> tuple:
    """The term_swap tags of ``claim`` as ``(claim words, source words, confidence, proven)``."""
    return tuple((*spans(t), t.confidence, t.proven) for t in detect_term_swap(claim, source, source_text=source))


def test_a_verb_for_a_verb_in_a_verbs_place_is_no_swap_of_terms():
    """Faithful paraphrases called *unsupported* by a proven swap: 79 S21 ("Cdk2 binds cyclins" for "associates with",
    P(entails) 0.98), 80 S01 ("is believed to silence" for "It is thought that ... directs the silencing"), 82 S08
    ("... and retain it" for "which ... inherit the MR"). The tag stays, unproven: *partial* at most. A noun for a
    noun in the same sentence stays proven."""
    assert _unproven("Cdk2 binds cyclins A, D and E and has been implicated in controlling the G1 to S phase "
                     "transition in mammalian cells.", CDK2) == (("binds", "associates", 0.7, False),)
    assert _unproven("The H19 imprinting control region (ICR) is believed to silence the maternally inherited Igf2 "
                     "allele by acting as a CTCF-dependent chromatin insulator.", H19)[0][2:] == (0.7, False)
    assert not proven(detect_term_swap, "Male germline stem cells, which inherit the mother centrosome, exclude the "
                      "midbody ring, whereas female germline stem cells inherit the daughter centrosome and retain it.",
                      MIDBODY)
    (tag,) = proven(detect_term_swap, "The cyclin-dependent kinase Cdk2 associates with cyclins A, D, and E and has "
                    "been implicated in the control of the G1 to S phase transition in plants.", CDK2)
    assert escalates(tag) and spans(tag) == ("plants", "mammals")


def test_words_of_how_many_or_how_well_and_a_particle_are_no_terms():
    """82 S21 ("several effector subsets" for "multiple", P(entails) 0.90), 82 S04 ("little explored" for "poorly
    explored"), 80 S23 ("transfer out" for "transfer to another district"): *unsupported* by a proven swap."""
    assert _unproven("CD4+ T cells can differentiate into several effector subsets, although the roles of these "
                     "subsets in anti-tumor immunity have not been fully explored.", TH17) == (
        ("several", "multiple", 0.7, False),)
    assert _unproven("Whether this asymmetry in cytokinesis relates to cell fate or has any functional relevance had "
                     "been little explored.", MIDBODY)[0][2:] == (0.7, False)
    assert not proven(detect_term_swap, "Treatment completion, death, default and transfer out were analysed "
                      "according to TB type, HIV serostatus, age and gender.", TB)


def test_a_label_naming_two_is_read_whole():
    """80 S11 (faithful, *unsupported*): "type I and type II receptors" for "type I and II receptors" read as *type II*
    for *type I*; a number outside the run is still a swap."""
    claim = ("TGF-beta ligands drive a range of cellular differentiation and growth responses by signalling through "
             "type I and type II receptors.")
    assert not [t for t in detect_term_swap(claim, TGF, source_text=TGF) if t.proven]
    from citeproof.detectors.lexicon import labelled_swap

    assert labelled_swap("through type III receptors", "through type I receptors").claim_span == "type III"
    assert labelled_swap("stage 3 disease", "stages 2-4 disease") is None  # two numbers: no one to put it against


def test_number_words_are_read_whole():
    """80 S27 (faithful, *unsupported*): "254 patients (31%) had died" for "Two hundred and fifty-four patients (31%)
    died", read as *fifty-four* (and *Two hundred* as 2)."""
    from citeproof.detectors.quantities import extract_quantities

    assert [(q.text, q.lo) for q in extract_quantities("Two hundred and fifty-four patients, two and three cells, a "
                                                         "dozen eggs")] == [
        ("Two hundred and fifty-four", 254.0), ("two", 2.0), ("three", 3.0), ("a dozen", 12.0)]
    assert not detect_number_drift("By the end of treatment 254 patients (31%) had died, half of them during the first "
                                   "month.", TB, source_text=TB)
    (tag,) = proven(detect_number_drift, "By the end of treatment 245 patients (31%) had died, half of them during "
                    "the first month.", TB)
    assert spans(tag)[0] == "245"


IL15 = ("During the entire circadian cycle, the knockout mice had a significantly higher acrophase in locomotor activity "
        "and heat dissipation. During the light phase, there was significantly greater food intake, oxygen consumption, "
        "and carbon dioxide production.")
SUZ12 = ("Finally, we demonstrate that the PcGs are actively recruited to several genes during ES cell differentiation, "
         "which despite an increase in H3K27me3 levels is not always sufficient to prevent transcriptional activation.")


def test_a_direction_turned_before_a_long_run_alike():
    """81 S14 (*partial*, an unproven flip): "the knockout mice showed significantly lower food intake, oxygen
    consumption and carbon dioxide production" for "there was significantly greater food intake, ..."."""
    (tag,) = proven(detect_polarity_flip, "During the light phase, the knockout mice showed significantly lower food "
                    "intake, oxygen consumption and carbon dioxide production.", IL15)
    assert escalates(tag) and spans(tag) == ("lower", "greater")
    assert not proven(detect_polarity_flip, "During the light phase, the knockout mice showed significantly greater food "
                      "intake, oxygen consumption and carbon dioxide production.", IL15)


def test_a_negation_inside_a_long_run_alike():
    """81 S28 (*partial*): "the resulting increase in H3K27me3 is always sufficient to prevent transcriptional
    activation" for "... is not always sufficient to prevent transcriptional activation"."""
    (tag,) = proven(detect_polarity_flip, "PcG proteins are actively recruited to several genes during ES cell "
                    "differentiation, and the resulting increase in H3K27me3 is always sufficient to prevent "
                    "transcriptional activation.", SUZ12)
    assert escalates(tag) and "leaves out 'not'" in tag.message
    assert not proven(detect_polarity_flip, "PcG proteins are recruited to several genes during ES cell differentiation, "
                      "and the increase in H3K27me3 is not always sufficient to prevent transcriptional activation.",
                      SUZ12)


def test_no_significant_difference_where_the_source_reports_one():
    """81 S13 (*partial*): "the knockout mice showed no significant difference in the acrophase of locomotor activity"
    for "had a significantly higher acrophase in locomotor activity"."""
    (tag,) = proven(detect_polarity_flip, "Across the entire circadian cycle, the knockout mice showed no significant "
                    "difference in the acrophase of locomotor activity or heat dissipation.", IL15)
    assert escalates(tag) and spans(tag) == ("no significant difference in the acrophase", "significantly higher acrophase")
    assert not proven(detect_polarity_flip, "Across the entire circadian cycle, the knockout mice showed a significantly "
                      "higher acrophase of locomotor activity and heat dissipation.", IL15)


ATD = ("The extracellular amino-terminal domains (ATDs) of the ionotropic glutamate receptor subunits form a "
       "semiautonomous component of all glutamate receptors that resides distal to the membrane and controls a "
       "surprisingly diverse set of receptor functions.")
EBV = ("Epstein-Barr virus (EBV) latency III infection converts B lymphocytes into lymphoblastoid cell lines (LCLs) by "
       "expressing EBV nuclear and membrane proteins, EBNAs, and latent membrane proteins (LMPs), which regulate "
       "transcription through Notch and tumor necrosis factor receptor pathways.")
REVIEW = ("This review will summarize recent progress on the molecular mechanisms of invadopodia/podosome formation, with "
          "strong emphasis on the roles of lipid rafts and phosphoinositides.")
WNT = ("Here we provide evidence from human, mouse, and cell culture studies showing that Wnt5a-mediated, noncanonical "
       "Wnt signaling contributes to obesity-associated metabolic dysfunction by increasing adipose tissue "
       "inflammation.")


def test_the_third_rounds_faithful_paraphrases_are_not_proven_swaps():
    """Held-out trials 83-86 (session 24, on `04101d9`): four faithful paraphrases *unsupported* by a proven swap, each
    entailed at 0.93-0.98: *that sits* / *that resides*, *Epstein-Barr virus turns* / *converts* (the run read as
    *EBV turns*), *particular emphasis* / *strong emphasis*, *cell culture data* / *studies*. Each stays tagged,
    unproven (*partial* at most)."""
    for claim, source in (
            ("The extracellular amino-terminal domains (ATDs) of ionotropic glutamate receptor subunits form a "
             "semiautonomous component of all glutamate receptors that sits distal to the membrane.", ATD),
            ("Latency III infection with Epstein-Barr virus turns B lymphocytes into lymphoblastoid cell lines through "
             "EBV nuclear and latent membrane proteins that regulate transcription via the Notch and tumor necrosis "
             "factor receptor pathways.", EBV),
            ("This review summarizes recent progress on the molecular mechanisms of invadopodia and podosome formation, "
             "with particular emphasis on lipid rafts and phosphoinositides.", REVIEW),
            ("Human, mouse and cell culture data indicate that Wnt5a-mediated noncanonical Wnt signaling contributes to "
             "obesity-associated metabolic dysfunction by increasing adipose tissue inflammation.", WNT)):
        assert not proven(detect_term_swap, claim, source), claim
    (tag,) = proven(detect_term_swap, "This review summarizes recent progress on the molecular mechanisms of "
                    "invadopodia/podosome formation, with strong emphasis on the roles of lipid rafts and "
                    "sphingolipids.", REVIEW)
    assert spans(tag) == ("sphingolipids", "phosphoinositides")
