"""Issue 28: what the sixty-seventh to seventieth new users' trials found (2026-12-07, session 23; held out on
`c09d72a`: 13, 14, 12 and 14 of 20 false claims caught, 2 supported each; one faithful claim proven a swap). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): SIRT1 on chromatin (doc 5824955),
gamma-tocopherol (4500832), interleukin 7 receptor-deficient mice (9160947), CYP1A1 and CYP1B1 in endometriosis
(25628793), cancer-associated adipocytes (2130391).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from citeproof.text.sentences import split_sentences
from tests.meaning_cases import escalates, proven, spans

SIRT1 = ("Using embryonic stem cells, we show that mammalian Sir2, SIRT1, represses repetitive DNA and a functionally "
         "diverse set of genes across the mouse genome.")
TOCOPHEROL = ("gamma-Tocopherol appears to be a more effective trap for lipophilic electrophiles than is alpha-tocopherol. "
              "gamma-Tocopherol is well absorbed and accumulates to a significant degree in some human tissues; it is "
              "metabolized, however, largely to 2,7,8-trimethyl-2-(beta-carboxyethyl)-6-hydroxychroman (gamma-CEHC), "
              "which is mainly excreted in the urine.")
IL7 = ("Interleukin 7 (IL-7) stimulates the proliferation of B cell progenitors, thymocytes, and mature T cells through an "
       "interaction with a high affinity receptor (IL-7R) belonging to the hematopoietin receptor superfamily.")
ADIPOCYTES = ("We show that murine and human tumor cells cocultivated with mature adipocytes exhibit increased invasive "
              "capacities in vitro and in vivo, using an original two-dimensional coculture system.")
CYP = ("Using a cross-sectional study design with 58 premenopausal women who were not under hormonal treatment, we were "
       "able to identify an overall increased CYP1A1 and CYP1B1 mRNA expression in superficial lesions compared with the "
       "healthy endometrium.")


def test_a_swap_beside_the_writers_named_two_ways():
    """67 S24 (*supported*): "Using fibroblasts, the authors show" for "Using embryonic stem cells, we show": one
    replaced run held the swap and the writers."""
    (tag,) = proven(detect_term_swap, "Using fibroblasts, the authors show that mammalian Sir2, SIRT1, represses "
                    "repetitive DNA and a functionally diverse set of genes across the mouse genome.", SIRT1)
    assert spans(tag) == ("fibroblasts", "embryonic stem cells") and escalates(tag)
    assert not proven(detect_term_swap, SIRT1.replace("we show", "the authors show"), SIRT1)


def test_a_chemical_name_with_other_locants():
    """68 S05 (*supported* at 0.93): "2,5,8-trimethyl-2-(beta-carboxyethyl)-6-hydroxychroman" for "2,7,8-..."; and the
    sentence that opens with *gamma-Tocopherol* is a sentence of its own."""
    assert split_sentences(TOCOPHEROL)[1].startswith("gamma-Tocopherol is well absorbed")
    claim = ("Absorbed gamma-tocopherol is metabolized largely to {}-trimethyl-2-(beta-carboxyethyl)-6-hydroxychroman "
             "(gamma-CEHC), which is mainly excreted in the urine")
    (tag,) = proven(detect_term_swap, claim.format("2,5,8"), TOCOPHEROL)
    assert spans(tag) == ("2,5,8-trimethyl-2", "2,7,8-trimethyl-2") and escalates(tag)
    assert not proven(detect_term_swap, claim.format("2,7,8"), TOCOPHEROL)


def test_an_unknown_synonym_between_long_agreeing_runs_is_not_proven():
    """70 S11 (faithful, *unsupported*): "B cell precursors" for "B cell progenitors" was proven by the rule for one
    word between long agreeing runs (session 23's, meant for *rat* / *mouse*): it now takes two words of one closed
    kind only, and the two are one meaning."""
    claim = ("IL-7 promotes the proliferation of B cell precursors, thymocytes and mature T cells by binding a "
             "high-affinity receptor, IL-7R, which is a member of the hematopoietin receptor superfamily.")
    assert not [t for t in run_detectors_text(claim, IL7, source_text=IL7) if t.proven]


def test_two_groups_exchanged_around_cocultivated_with():
    """70 S02 (*supported* at 0.96): "Mature adipocytes cocultivated with murine and human tumor cells exhibited
    increased invasive capacities" for the tumour cells cocultivated with the adipocytes."""
    (tag,) = proven(detect_polarity_flip, "Mature adipocytes cocultivated with murine and human tumor cells exhibited "
                    "increased invasive capacities in vitro and in vivo in an original two-dimensional coculture system.",
                    ADIPOCYTES)
    assert escalates(tag)


def test_two_sites_exchanged_around_compared_with_past_two_moved_words():
    """70 S26 (*supported* at 0.90): "increased overall in the healthy endometrium compared with superficial lesions"
    for "an overall increased ... in superficial lesions compared with the healthy endometrium"; a claim that turns
    the direction too ("decreased ... in the healthy endometrium compared with ...") says the same, and is no proven
    flip."""
    claim = "CYP1A1 and CYP1B1 mRNA expression was {} overall in {} compared with {}."
    (tag,) = proven(detect_polarity_flip, claim.format("increased", "the healthy endometrium", "superficial lesions"),
                    CYP)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, claim.format("decreased", "the healthy endometrium", "superficial lesions"),
                      CYP)
    assert not proven(detect_polarity_flip, claim.format("increased", "superficial lesions", "the healthy endometrium"),
                      CYP)
