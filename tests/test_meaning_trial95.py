"""Issue 28: what the ninety-fifth to ninety-eighth new users' trials found (2026-12-07, session 25; held out on
`1b99e3a`: 10, 10, 9 and 12 of 20 false claims caught, 1, 0, 3 and 0 supported; faithful paraphrases 3, 0, 1 and 0
called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the hygiene hypothesis in IBD (doc
25878014), epigenetic memory of beta cell-derived iPSCs (27588420), antiplatelet guideline implementation (44827480),
glioblastoma genes and pathways (1836154), time-dependent effects in survival analysis (13179318).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

IBD = ("The hygiene hypothesis is thought to be a significant contributor to the growing incidence of inflammatory bowel "
       "disease (IBD) around the world, although the evidence for specific factors that underlie the hygiene "
       "hypothesis in IBD is unclear.")
BIPSC = ("However, the beta cell-derived iPSCs (BiPSCs) maintained open chromatin structure at key beta-cell genes, "
         "together with a unique DNA methylation signature that distinguishes them from other PSCs. Our results suggest "
         "that the epigenetic memory may predispose BiPSCs to differentiate more readily into insulin producing cells.")
AGENTS = ("Appropriate selection of newer agents was high initially (79.2%-82.8%), with further increase as selection at "
          "discharge (89.4%-89.8%).")
GBM = ("Here we report the interim integrative analysis of DNA copy number, gene expression and DNA methylation "
       "aberrations in 206 glioblastomas - the most common type of primary adult brain cancer - and nucleotide sequence "
       "aberrations in 91 of the 206 glioblastomas. This analysis provides new insights into the roles of ERBB2, NF1 and "
       "TP53, uncovers frequent mutations of the phosphatidylinositol- 3- OH kinase regulatory subunit gene PIK3R1, and "
       "provides a network view of the pathways altered in the development of glioblastoma. Furthermore, integration of "
       "mutation, DNA methylation and clinical treatment data reveals a link between MGMT promoter methylation and a "
       "hypermutator phenotype consequent to mismatch repair deficiency in treated glioblastomas, an observation with "
       "potential clinical implications.")


def test_a_denied_view_is_a_proven_negation():
    """Trial 96's 6 (*partial*): "is not thought to be" for "is thought to be"; the view itself is what the claim
    denies, so the view does not excuse the negation."""
    claim = ("The hygiene hypothesis is not thought to be a significant contributor to the growing incidence of "
             "inflammatory bowel disease (IBD) around the world")
    [tag] = proven(detect_polarity_flip, claim, IBD)
    assert spans(tag) == ("not thought", "thought") and escalates(tag)
    assert proven(detect_polarity_flip, claim.replace("is not thought", "is thought"), IBD) == []


def test_a_negation_after_an_opening_clause_and_a_defined_short_form_is_proven():
    """Trial 96's 5 (*partial*): "Despite reprogramming, the beta cell-derived iPSCs did not maintain" for "However,
    the beta cell-derived iPSCs (BiPSCs) maintained" (the claim read with the source's short form, *BiPSCs*, whose
    letters its long form does not spell in order)."""
    claim = ("Despite reprogramming, the beta cell-derived iPSCs did not maintain open chromatin structure at key "
             "beta-cell genes")
    [tag] = proven(detect_polarity_flip, claim, BIPSC)
    assert "main clause" in tag.message and "'not'" in tag.message
    assert proven(detect_polarity_flip, claim.replace("did not maintain", "maintained"), BIPSC) == []


def test_turned_degrees_past_a_hyphen_and_before_the_sources_own_words_are_proven():
    """Trial 96's 19 and 26 (*partial*): "less readily into insulin-producing cells" for "more readily into insulin
    producing cells"; "with a further decrease at discharge" for "with further increase as selection at discharge"."""
    [tag] = proven(detect_polarity_flip, "The authors suggest that epigenetic memory may predispose BiPSCs to "
                   "differentiate less readily into insulin-producing cells", BIPSC)
    assert spans(tag) == ("less", "more")
    claim = "Appropriate selection of newer agents was high initially (79.2%-82.8%), with a further decrease at discharge"
    [tag] = proven(detect_polarity_flip, claim, AGENTS)
    assert spans(tag) == ("decrease", "increase")
    assert proven(detect_polarity_flip, claim.replace("decrease", "increase"), AGENTS) == []


def test_another_gene_of_the_family_is_a_proven_swap_and_the_same_gene_with_a_suffix_is_not():
    """Trial 97's 16 (*supported*, P(entails) 0.93): PIK3CA for the source's PIK3R1. *FOXO3* for *FOXO3A* is one
    gene (a faithful SciFact claim)."""
    claim = "It also uncovers frequent mutations of PIK3CA, the phosphatidylinositol-3-OH kinase regulatory subunit gene"
    [tag] = proven(detect_term_swap, claim, GBM)
    assert spans(tag) == ("PIK3CA", "PIK3R1") and escalates(tag)
    assert proven(detect_term_swap, claim.replace("PIK3CA", "PIK3R1"), GBM) == []
    foxo = "We identify a noncoding polymorphism in FOXO3A at which the minor allele is associated with longevity."
    assert proven(detect_term_swap, "A noncoding polymorphism in FOXO3 is associated with longevity", foxo) == []


def test_a_word_the_sentence_writes_in_another_form_elsewhere_is_no_swap():
    """Trial 97's 4 (faithful, *unsupported* by a proven term_swap): "in adults" for "primary adult brain cancer"."""
    assert proven(detect_term_swap, "Glioblastoma is the most common type of primary brain cancer in adults",
                  GBM) == []


def test_two_phrases_exchanged_around_a_shared_relation_are_a_proven_reversal():
    """Trial 97's 18 (*supported*, P(entails) 0.96): cause and consequence exchanged around "consequent to"."""
    claim = ("Integrating these data linked MGMT promoter methylation to mismatch repair deficiency consequent to a "
             "hypermutator phenotype in treated glioblastomas")
    [tag] = proven(detect_polarity_flip, claim, GBM)
    assert spans(tag) == ("mismatch repair deficiency", "hypermutator phenotype")
    assert proven(detect_polarity_flip, "Integrating these data linked MGMT promoter methylation to a hypermutator "
                  "phenotype consequent to mismatch repair deficiency in treated glioblastomas", GBM) == []


def test_causes_for_a_link_between_is_partial():
    """Trial 97's 19 (*supported*): "a link between" is an association; the tag at 0.7 makes *partial*."""
    [tag] = detect_causal_overclaim("MGMT promoter methylation causes a hypermutator phenotype in treated "
                                    "glioblastomas", GBM, source_text=GBM)
    assert (tag.confidence, "'a link between'" in tag.message) == (0.7, True)


def test_means_for_implies_is_rewording():
    """Trial 95's 30 (faithful, *unsupported* by a proven term_swap 'means only' / 'implies focusing')."""
    src = "It will be shown that using time-dependent risk factors usually implies focusing on short-term effects only."
    assert proven(detect_term_swap, "Using time-dependent risk factors usually means that only short-term effects are "
                  "in focus", src) == []


def test_the_actor_and_the_acted_on_exchanged_by_their_head_words_is_a_proven_reversal():
    """Trial 97's 26 (*partial* only by an unproven swap, then *supported* once that swap was read as rewording):
    "contacts promote the establishment of cohesion" for "cohesion establishment promotes ... contacts"."""
    src = ("During replication, cohesion establishment promotes numerous long-range intra-chromosomal contacts and "
           "correlates with the individualization of chromosomes, which culminates at metaphase.")
    claim = "During replication, numerous long-range intra-chromosomal contacts promote the establishment of cohesion"
    [tag] = proven(detect_polarity_flip, claim, src)
    assert "before 'promote'" in tag.message and escalates(tag)
    assert proven(detect_polarity_flip, "During replication, the establishment of cohesion promotes numerous "
                  "long-range intra-chromosomal contacts", src) == []
