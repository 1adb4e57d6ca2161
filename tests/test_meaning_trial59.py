"""Issue 28: what the fifty-ninth to sixty-second new users' trials found (2026-12-07, session 23; held out on
`22b2b0e`: 10, 12, 13 and 12 of 20 false claims caught, 3, 0, 3 and 2 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): arginase I in activated macrophages (doc
11181416), drug distribution into tuberculosis lesions (16787954), the sympathetic nervous system of ob/ob mice
(25687558), neutrophils in lung metastasis (878526), dorsomorphin and cardiomyogenesis (14296612), prisoners' health in
Italy (14843502), CD169+ macrophages and iNKT cells (1933281), genomic regions required for M. tuberculosis growth
(7970974).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

NALTREXONE = ("Administration of naltrexone, a long-acting opiate antagonist, failed to reverse the suppression of SNS "
              "activity observed in the ob/ob mice.")
CASEUM = ("Rifampicin even accumulates in necrotic caseum, a critical lesion site where persisting tubercle bacilli "
          "reside. In contrast, moxifloxacin, which is active in vitro against a subpopulation of Mycobacterium "
          "tuberculosis that persists in specific niches under drug pressure and has achieved treatment shortening in "
          "mice, does not diffuse well in caseum, concordant with its failure to shorten therapy in recent clinical "
          "trials.")
WINDOWS = ("We suggest that such differential spatial distribution and kinetics of accumulation in lesions may create "
           "temporal and spatial windows of monotherapy in specific niches, allowing the gradual development of "
           "multidrug-resistant TB.")
MALDI = ("Using a matrix-assisted laser desorption/ionization (MALDI) mass spectrometry imaging suite in a biosafety "
         "containment facility, we show that the key sterilizing drugs rifampicin and pyrazinamide efficiently "
         "penetrate the sites of TB infection in lung lesions.")
ARGINASE = ("Thus endogenous levels of arginase I are limiting for polyamine synthesis, but not for NO synthesis, by "
            "activated macrophage cells. This study also demonstrates that it is possible to alter arginase I levels "
            "sufficiently to affect polyamine synthesis without affecting induced NO synthesis.")
DORSOMORPHIN = ("METHODOLOGY/ PRINCIPAL FINDINGS We describe the use of dorsomorphin, a selective small molecule "
                "inhibitor of BMP signaling, to induce myocardial differentiation in mouse ES cells.")
NEUTROPHILS = ("Using various strategies to block neutrophil recruitment to the pre-metastatic site, we demonstrate that "
               "neutrophils specifically support metastatic initiation.")
LEUKOTRIENES = ("Importantly, we find that neutrophil-derived leukotrienes aid the colonization of distant tissues by "
                "selectively expanding the sub-pool of cancer cells that retain high tumorigenic potential.")
PRISON = ("RESULTS Respectively, 31.6% and 43.5% of prisoners reported a poor perceived health status and a poor quality "
          "of life, and 60% admitted that their health was worsened or greatly worsened during the prison stay.")
INKT = ("Although it is known that iNKT cells recognize glycolipids presented by CD1d, how and where they encounter "
        "antigen in vivo remains unclear. After antigen administration, iNKT cells became confined in a CD1d-dependent "
        "manner in close proximity to subcapsular sinus CD169(+) macrophages. Thus, CD169(+) macrophages can act as true "
        "antigen-presenting cells controlling early iNKT cell activation and favoring the fast initiation of immune "
        "responses.")
GROWTH = ("Here, we use an unbiased analysis to comprehensively identify genomic regions, including genes, domains, and "
          "intergenic elements, required for the optimal growth of Mycobacterium tuberculosis, a major global health "
          "pathogen.")


def test_failed_to_is_a_negation():
    """59 S20 (*supported* at 0.89): "reversed the suppression" for "failed to reverse the suppression"."""
    (tag,) = proven(detect_polarity_flip, NALTREXONE.replace("failed to reverse", "reversed"), NALTREXONE)
    assert escalates(tag)


def test_a_negation_dropped_after_a_conjunct_the_claim_leaves_out():
    """59 S26 (*supported*): "..., diffuses well in caseum" for "... and has achieved treatment shortening in mice,
    does not diffuse well in caseum"; the claim keeping *does not* is no flip."""
    claim = ("Moxifloxacin, which is active in vitro against a subpopulation of Mycobacterium tuberculosis that persists "
             "in specific niches under drug pressure, {} well in caseum.")
    (tag,) = proven(detect_polarity_flip, claim.format("diffuses"), CASEUM)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, claim.format("does not diffuse"), CASEUM)


def test_two_names_given_each_others_sentence():
    """59 S25 (*partial*): "Moxifloxacin even accumulates in necrotic caseum, whereas rifampicin does not diffuse
    well" stitched from the two sentences, each drug in the other's place; the right way round is no flip."""
    (tag,) = proven(detect_polarity_flip, "Moxifloxacin even accumulates in necrotic caseum, whereas rifampicin does "
                    "not diffuse well in caseum.", CASEUM)
    assert spans(tag) == ("Moxifloxacin", "rifampicin") and escalates(tag)
    assert not proven(detect_polarity_flip, "Rifampicin even accumulates in necrotic caseum, whereas moxifloxacin "
                      "does not diffuse well in caseum.", CASEUM)


def test_preventing_for_allowing():
    """59 S28 (*supported* at 0.87)."""
    claim = WINDOWS.replace("We suggest that such", "Such").replace("allowing", "preventing")
    (tag,) = proven(detect_polarity_flip, claim, WINDOWS)
    assert spans(tag) == ("preventing", "allowing")


def test_a_swap_beside_the_report_in_the_other_voice():
    """59 S22 (*partial*): "... were shown to efficiently penetrate ... in lymph node lesions" for "we show that ...
    efficiently penetrate ... in lung lesions"; 62 S06: "an unbiased analysis was used" for "we use an unbiased
    analysis", *leprae* for *tuberculosis*."""
    claim = ("Using a MALDI mass spectrometry imaging suite in a biosafety containment facility, the key sterilizing "
             "drugs rifampicin and pyrazinamide were shown to efficiently penetrate the sites of TB infection in {} "
             "lesions.")
    (tag,) = proven(detect_term_swap, claim.format("lymph node"), MALDI)
    assert spans(tag) == ("lymph node", "lung") and escalates(tag)
    assert not proven(detect_term_swap, claim.format("lung"), MALDI)
    (tag,) = proven(detect_term_swap, "Here, an unbiased analysis was used to comprehensively identify genomic "
                    "regions, including genes, domains, and intergenic elements, required for the optimal growth of "
                    "Mycobacterium leprae, a major global health pathogen", GROWTH)
    assert spans(tag) == ("leprae", "tuberculosis")


def test_every_cell_type_for_activated_macrophages():
    """59 S12 (*partial*): "in every mammalian cell type" for "by activated macrophage cells"."""
    (tag,) = proven(detect_scope_inflation, "Thus endogenous levels of arginase I are limiting for polyamine synthesis, "
                    "but not for NO synthesis, in every mammalian cell type.", ARGINASE)
    assert escalates(tag)


def test_nitric_oxide_written_short_is_no_negation():
    """59 S14 (faithful, *unsupported*): "induced nitric oxide production", read as the source writes it ("induced NO
    production"), was a claim that negates, judged against the title."""
    title = "Arginase I: a limiting factor for nitric oxide and polyamine synthesis by activated macrophages?"
    source = (title + "\nBecause arginase hydrolyzes arginine to produce ornithine and urea, it has the potential to "
              "regulate nitric oxide (NO) and polyamine synthesis.\nWe tested whether expression of the cytosolic "
              "isoform of arginase (arginase I) was limiting for NO or polyamine production by activated RAW 264.7 "
              "macrophage cells.")
    tags = run_detectors_text("The work further shows that arginase I can be raised enough to change polyamine "
                              "production while leaving induced nitric oxide production untouched.", title,
                              source_text=source)
    assert not [t for t in tags if t.name == "polarity_flip" and "negates" in t.message]


def test_fails_to_and_the_authors_demonstrate_that_not():
    """60 S04 (*partial*): "fails to induce myocardial differentiation" for "to induce ..."; 60 S16 (*partial*): "the
    authors demonstrate that neutrophils do not support" for "we demonstrate that neutrophils specifically support"."""
    (tag,) = proven(detect_polarity_flip, "Dorsomorphin, a selective small molecule inhibitor of BMP signaling, fails "
                    "to induce myocardial differentiation in mouse ES cells", DORSOMORPHIN)
    assert escalates(tag)
    (tag,) = proven(detect_polarity_flip, "Using various strategies to block neutrophil recruitment to the "
                    "pre-metastatic site, the authors demonstrate that neutrophils do not support metastatic initiation",
                    NEUTROPHILS)
    assert escalates(tag)


def test_two_terms_of_several_words_exchanged():
    """60 S18 (*partial*): "Cancer-cell-derived leukotrienes ... the sub-pool of neutrophils" for "neutrophil-derived
    leukotrienes ... the sub-pool of cancer cells", past the frame "Importantly, we find that"; *A and B* turned
    round is no exchange."""
    (tag,) = proven(detect_polarity_flip, "Cancer-cell-derived leukotrienes aid the colonization of distant tissues by "
                    "selectively expanding the sub-pool of neutrophils that retain high pro-metastatic potential",
                    LEUKOTRIENES)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "Both neutrophils and cancer cells were counted in the lungs of the mice.",
                      "Both cancer cells and neutrophils were counted in the lungs of the mice.")


def test_one_word_turned_each_time_it_stands():
    """60 S25 (*partial*): "stated that their health had improved or greatly improved" for "admitted that their
    health was worsened or greatly worsened"."""
    claim = ("Respectively, 31.6% and 43.5% of prisoners reported a poor perceived health status and a poor quality of "
             "life, and 60% stated that their health had improved or greatly improved during the prison stay")
    (tag,) = proven(detect_polarity_flip, claim, PRISON)
    assert spans(tag) == ("improved", "worsened") and escalates(tag)
    assert not detect_term_swap(claim.replace("improved", "worsened"), PRISON, source_text=PRISON)


def test_a_negation_added_where_the_sentence_doubts_something_else():
    """61 S02 (*partial*): "it is known that iNKT cells do not recognize glycolipids" where the sentence's *unclear*
    is about how and where they meet antigen; "We tested whether" still frames the negated words."""
    (tag,) = proven(detect_polarity_flip, "Although it is known that iNKT cells do not recognize glycolipids presented "
                    "by CD1d, how and where they encounter antigen in vivo remains unclear", INKT)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "We tested whether iNKT cells do not recognize glycolipids presented by "
                      "CD1d.", "We tested whether iNKT cells recognize glycolipids presented by CD1d.")


def test_a_two_word_term_for_one_with_a_generic_head_said_elsewhere():
    """61 S06 (*supported*): "CD169+ dendritic cells" for "CD169(+) macrophages": *cells* stands elsewhere in the
    sentence ("iNKT cells"), which had read the run as a reordering."""
    (tag,) = proven(detect_term_swap, "After antigen administration, iNKT cells became confined in close proximity to "
                    "subcapsular sinus CD169+ dendritic cells", INKT)
    assert spans(tag) == ("dendritic cells", "macrophages") and escalates(tag)


def test_can_act_as_is_a_hedge():
    """61 S09 (*supported*): "CD169+ macrophages act as true antigen-presenting cells" for "can act as"."""
    tags = detect_hedge_removed("CD169+ macrophages act as true antigen-presenting cells controlling early iNKT cell "
                                "activation and favoring the fast initiation of immune responses", INKT, source_text=INKT)
    assert [t for t in tags if "can act as" in t.message and t.confidence >= 0.7]
