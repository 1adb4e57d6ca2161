"""Issue 28: what the hundred-and-eighty-third to hundred-and-eighty-sixth new users' trials found (2026-12-07,
session 30; held out on `092c2ad`: 9 of 80 false claims *supported*, 47 caught). Each rule beside its faithful twin.
No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): E-cadherin and Rac1 (doc 14149065), C. elegans
epidermal morphogenesis (10937190), complementary foods (13338820), immune-complex-induced neutrophil apoptosis
(9225850), the BDI-IA and BDI-II (38211681), the GOLD strategy for COPD (20109325), subclonal mutations in CLL (667451),
DNA demethylation in 2i (14923462) and the monocyte-to-lymphocyte ratio in malaria (13959707).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven, tag_map as _tags

CADHERIN = ("Experiments using microengineered substrates showed that E-cadherin engagement stimulated the peak in "
            "proliferation at intermediate seeding densities, and that the proliferation arrest at high densities did "
            "not involve E-cadherin, but rather resulted from a crowding-dependent decrease in cell spreading against "
            "the underlying substrate. Rac1 activity, which was induced by E-cadherin engagement specifically at "
            "intermediate seeding densities, was required for the cadherin-stimulated proliferation.")
EPIDERMIS = ("The dorsally located epidermal sheet undergoes epiboly to enclose the rest of the embryo in a process known "
             "as ventral enclosure; this movement requires both an intact epidermal layer and substrate neuroblasts. "
             "Following enclosure, the epidermis elongates, a process driven by coordinated cell shape changes. The "
             "final shape of the epidermis is maintained by the collagenous exoskeleton, secreted by the apical surface "
             "of the epidermis.")
NEUTROPHILS = ("We show here that activation of human neutrophils with insoluble immune complexes drives a previously "
               "uncharacterized, PI3K-dependent, non-canonical, pro-apoptotic signaling pathway, "
               "Fc\u03b3R-PI3K\u03b2/\u03b4-Cdc42-Pak-Mek-Erk.")
BDI = ("The mean rating for Sadness on the BDI-IA was higher than it was on the BDI-II, but the mean ratings for Past "
       "Failure, Self-Dislike, Change in Sleeping Pattern, and Change in Appetite were higher on the BDI-II than they "
       "were on the BDI-IA.")
GOLD = ("This executive summary presents the main contents of the second 5-year revision of the GOLD document. "
        "Nonpharmacologic and pharmacologic management of COPD matched to this assessment is recommended in an "
        "evidence-based attempt to relieve symptoms and reduce risk of exacerbations. The GOLD initiative will "
        "continue to bring COPD to the attention of all relevant shareholders and will hopefully inspire future "
        "national and local guidelines on the management of COPD.")
CLL = ("We studied intratumoral heterogeneity in 149 chronic lymphocytic leukemia (CLL) cases by integrating "
       "whole-exome sequence and copy number to measure the fraction of cancer cells harboring each somatic mutation. "
       "Ten of twelve CLL cases treated with chemotherapy (but only one of six without treatment) underwent clonal "
       "evolution, predominantly involving subclones with driver mutations (e.g., SF3B1 and TP53) that expanded over "
       "time.")
DEMETHYLATION = ("Switch to 2i triggers rapid onset of both the ground-state gene expression program and global DNA "
                 "demethylation.")
MALARIA = ("This association is evident among children with asymptomatic P. falciparum infection at the time the cell "
           "counts are measured (Hazard ratio (HR) = 2.7 (95% CI 1.42, 5.01, P = 0.002) but not in those without "
           "detectable parasitaemia.")


def test_did_for_did_not():
    """Trial 183's 9 (*supported* at 0.89)."""
    claim = ("Experiments using microengineered substrates showed that the proliferation arrest at high densities {} "
             "E-cadherin.")
    assert "polarity_flip" in _proven(claim.format("did involve"), CADHERIN)
    assert "polarity_flip" not in _proven(claim.format("did not involve"), CADHERIN)


def test_a_passive_relative_clause_made_active():
    """Trial 183's 16 (*supported* at 0.88)."""
    assert "polarity_flip" in _proven("Rac1 activity induced E-cadherin engagement specifically at intermediate "
                                      "seeding densities.", CADHERIN)
    assert "polarity_flip" not in _proven("E-cadherin engagement induced Rac1 activity specifically at intermediate "
                                          "seeding densities.", CADHERIN)


def test_but_not_against_and():
    """Trial 186's 2 (*supported*) and trial 183's 4 (*partial*)."""
    joined = ("The association was evident among children with asymptomatic infection {} those without detectable "
              "parasitaemia.")
    assert "polarity_flip" in _proven(joined.format("and also among"), MALARIA)
    assert "polarity_flip" not in _proven(joined.format("but not among"), MALARIA)
    denied = "Ventral enclosure requires an intact epidermal layer {} substrate neuroblasts."
    assert "polarity_flip" in _proven(denied.format("but not the"), EPIDERMIS)
    assert "polarity_flip" not in _proven(denied.format("and the"), EPIDERMIS)


def test_shortens_for_elongates_and_shrank_for_expanded():
    """Trial 183's 8 and trial 185's 29 (*partial*, unproven swaps)."""
    claim = "Once enclosure is complete, the epidermis {} in a process driven by coordinated cell shape changes."
    assert "polarity_flip" in _proven(claim.format("shortens"), EPIDERMIS)
    assert "polarity_flip" not in _proven(claim.format("elongates"), EPIDERMIS)
    clones = ("After chemotherapy, clonal evolution in CLL predominantly involved subclones with driver mutations such "
              "as SF3B1 and TP53 that {} over time.")
    assert "polarity_flip" in _proven(clones.format("shrank"), CLL)
    assert "polarity_flip" not in _proven(clones.format("expanded"), CLL)


def test_protects_from_for_pro():
    """Trial 184's 7 (*supported* at 0.94)."""
    claim = ("Activating human neutrophils with insoluble immune complexes drives a PI3K-dependent, non-canonical "
             "signaling pathway that {}.")
    assert "polarity_flip" in _proven(claim.format("protects the cells from apoptosis"), NEUTROPHILS)
    assert "polarity_flip" not in _proven(claim.format("promotes apoptosis"), NEUTROPHILS)


def test_the_other_clause_of_a_sentence_says_it_the_claims_way():
    """Trial 184's 20, faithful (*contradicted* on a proven exchange of 'BDI-IA' and 'BDI-II')."""
    assert "polarity_flip" not in _proven("Mean Sadness ratings were higher on the BDI-IA than on the BDI-II.", BDI)


def test_the_passive_made_active_is_no_exchange():
    """Trial 183's 19, faithful (*contradicted* on a proven exchange of 'surface' and 'shape')."""
    assert "polarity_flip" not in _proven("The collagen-based exoskeleton, secreted from the apical surface of the "
                                          "epidermis, maintains the final shape of the epidermis.", EPIDERMIS)


def test_hopefully_and_an_attempt_hedge():
    """Trial 185's 25 and 4 (*supported* at 0.96 and 0.95)."""
    assert "hedge_removed" in _tags("The GOLD initiative will inspire future national and local guidelines on the "
                                    "management of COPD.", GOLD)
    assert "hedge_removed" not in _tags("The GOLD initiative will hopefully inspire future national and local "
                                        "guidelines on the management of COPD.", GOLD)
    assert "hedge_removed" in _tags("Management of COPD matched to this assessment has been shown to relieve symptoms "
                                    "and reduce risk of exacerbations.", GOLD)


def test_an_ordinal_before_a_number_compound():
    """Trial 185's 13 (*partial*: an unproven swap of 'third' for 'second')."""
    claim = "The GOLD executive summary presents the main contents of the {} 5-year revision of the GOLD document."
    assert "number_drift" in _proven(claim.format("third"), GOLD)
    assert "number_drift" not in _proven(claim.format("second"), GOLD)


def test_one_ome_for_another():
    """Trial 185's 21 (*partial*)."""
    claim = ("Intratumoral heterogeneity in 149 CLL cases was studied by integrating {} sequence and copy number to "
             "measure the fraction of cancer cells harboring each somatic mutation.")
    assert "term_swap" in _proven(claim.format("whole-genome"), CLL)
    assert "term_swap" not in _proven(claim.format("whole-exome"), CLL)


def test_a_count_of_the_same_group():
    """Trial 185's 27 (*partial*, no number tag): "three of six" for "one of six"."""
    claim = ("Ten of twelve CLL cases treated with chemotherapy, but only {} of six without treatment, underwent clonal "
             "evolution.")
    assert "number_drift" in _proven(claim.format("three"), CLL)
    assert "number_drift" not in _proven(claim.format("one"), CLL)


def test_a_cause_between_both_results():
    """Trial 185's 11 (*supported* at 0.96)."""
    assert _tags("After the switch to 2i, global DNA demethylation drives the rapid onset of the ground-state gene "
                 "expression program.", DEMETHYLATION).get("causal_overclaim", (0, False))[0] >= 0.7
    assert "causal_overclaim" not in _tags("The switch to 2i triggers both the ground-state gene expression program "
                                           "and global DNA demethylation.", DEMETHYLATION)


def test_a_count_said_otherwise_is_no_drift():
    """Faithful claims of trials 133 and 136 the count rule had proven drifting: "one of 41 patients" for "1 of the 41
    patients", "Nine of the 11 studies" for "all but 2 of the 11 studies"."""
    assert "number_drift" not in _proven("Only one of 41 patients given acetylcysteine had a rise in serum "
                                         "creatinine.", "A rise in serum creatinine occurred in 1 of the 41 patients "
                                         "given acetylcysteine.")
    assert "number_drift" not in _proven("Nine of the 11 studies that assessed the outcome of care reported "
                                         "significant improvements.", "All but 2 of the 11 studies that assessed the "
                                         "outcome of care reported significant improvements.")


def test_a_joined_thing_said_absent_is_no_joining():
    """Trial 158's 6, faithful (*contradicted* on the but-not rule): "and was absent from the central fraction"."""
    assert "polarity_flip" not in _proven("The spot appeared only in the peripheral fraction and was absent from the "
                                          "central fraction and other brain regions.", "This novel spot was detected "
                                          "only in the peripheral fraction, but not in the central fraction and other "
                                          "regions of the brain.")
