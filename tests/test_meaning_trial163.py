"""Issue 28: what the hundred-and-sixty-third to hundred-and-sixty-sixth new users' trials found (2026-12-07,
session 29; held out on `0f0300e`). Each rule beside its faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): genetic lesions in myelodysplastic syndromes (doc
2359152), a computerised dietary recall for adolescents (20048431), the NK-92 cell line (15462523), the Relationship
Assessment Scale (144801076), household crowding in Bangkok (36211049), astrocytic calcium and glutamate release
(13458119), spermatogenesis and FSH (45244537) and energy budgets of neural computation (9796495).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven, tag_map as _tags
from citeproof.readers.claims import tidy_claim_text
from citeproof.text.sentences import enumerated_items, split_sentences

MDS = ("Forty-seven genes were significantly mutated with TET2, SF3B1, ASXL1, SRSF2, DNMT3A, and RUNX1 mutated in >10% "
       "of cases. Many mutations were associated with higher risk groups and/or blast elevation. The status of 14 genes "
       "combined with conventional factors revealed a novel prognostic model ('Model-1') separating patients into four "
       "risk groups ('low', 'intermediate', 'high', 'very high risk') with 3-year survival of 95.2, 69.3, 32.8, and "
       "5.3% (P<0.001).")
RECALL = ("Development and evaluation of a self-administered computerized 24-h dietary recall method for adolescents in "
          "Europe\n\nObjective:To describe the development of a European computerized 24-h dietary recall method for "
          "adolescents.Methods:Two hundred and thirty-six adolescents of eight European cities completed the 24-h "
          "recall twice (once by self-report and once by interview).Results:A small but significant underestimate in "
          "energy intake was found in the self-reports. Percentage omissions were on average 3.7%; percentage "
          "intrusions: 2.0%.")
NK92 = ("Cytotoxic cell lines have been established from patients with clonal NK-cell lymphoma. Those cells can be "
        "expanded in culture in the presence of IL-2. NK-92 is the only cell line that has been infused into patients "
        "with advanced cancer.")
RAS = ("In Study I, the 7-item Relationship Assessment Scale (RAS) was administered to 125 subjects who reported "
       "themselves to be \"in love.\" The scale correlated .80 with a longer criterion measure, the Dyadic Adjustment "
       "Scale (Spanier, 1976). In Study II, analyses supported a single factor, alpha reliability of .86, and "
       "correlations with relevant relationship measures.")
CROWDING = ("We rely on data from a large (n = 2017) random sample of households in Bangkok, Thailand, a context that "
            "has a higher level and broader range of crowding than typically found in the United States. Objective "
            "household crowding is found to be detrimental to psychological well-being. There is no evidence of a "
            "gender effect.")
ASTROCYTES = ("We used flash photolysis to raise internal calcium in astrocytes, while monitoring astrocytic calcium "
              "levels and glutamate, which evoked slow inward currents that were recorded electrophysiologically from "
              "single neurons grown on microislands of astrocytes.")
TESTIS = ("Evaluation of testicular functions (production of sperm and androgens) is an important aspect of preclinical "
          "safety assessment and testicular toxicity is comparatively far more common than ovarian toxicity.")
ENERGY = ("Using this new knowledge, this paper provides revised estimates for the energy expenditure on neural "
          "computation in a simple model for the cerebral cortex and a detailed model of the cerebellar cortex.")
CTNNB1 = ("Many hepatic tumors such as hepatocellular adenomas, hepatocellular cancers, and hepatoblastomas have "
          "mutations in CTNNB1 that result in constitutive activation of beta-catenin, so this molecule could be a "
          "therapeutic target.")


def test_a_trend_read_across_a_series_the_source_lists_the_other_way():
    """Trial 163's 6 (*supported*, no tag): survival "rose steadily from the 'low' to the 'very high risk' group"
    where the source lists 95.2, 69.3, 32.8 and 5.3% in that order."""
    assert "polarity_flip" in _proven("In Model-1, 3-year survival rose steadily from the 'low' to the 'very high "
                                      "risk' group.", MDS)
    assert "polarity_flip" in _proven("In Model-1, 3-year survival fell from the 'very high risk' to the 'low' group.",
                                      MDS)
    assert "polarity_flip" not in _proven("In Model-1, 3-year survival fell steadily from the 'low' to the 'very high "
                                          "risk' group.", MDS)


def test_a_decimal_written_with_its_digits_turned():
    """Trial 163's 22 (*partial*, 0.9 unproven): "7.3%" for "3.7%"; trial 164's 12: ".68" for ".86", which the
    reader had also glued to the word before ("of.68")."""
    assert "number_drift" in _proven("When self-reports were compared with interviews, percentage omissions were on "
                                     "average 7.3% and percentage intrusions 2.0%.", RECALL)
    assert "number_drift" in _proven("In Study II, analyses supported a single factor, alpha reliability of .68, and "
                                     "correlations with relevant relationship measures.", RAS)
    assert "number_drift" not in _tags("Percentage omissions averaged 3.7% and intrusions 2.0%.", RECALL)
    assert tidy_claim_text("alpha reliability of .68 , and r .80 .") == "alpha reliability of .68, and r .80."


def test_a_number_word_the_source_writes_in_a_compound():
    """Trial 164's 18, faithful (*unsupported*): "a short seven-item instrument" for "the 7-item Relationship
    Assessment Scale" had drifted against the 125 subjects."""
    assert "number_drift" not in _tags("The Relationship Assessment Scale is a short seven-item instrument intended to "
                                       "measure satisfaction.", RAS)
    assert "number_drift" in _tags("The Relationship Assessment Scale was administered to 152 subjects.", RAS)


def test_a_named_number_in_the_words_of_the_next_sentence():
    """Trial 164's 26 (*supported*): "can be expanded in culture in the presence of IL-15", the claim joining two
    sentences and the one judged naming no interleukin."""
    claim = ("Cytotoxic cell lines established from patients with clonal NK-cell lymphoma can be expanded in culture in "
             "the presence of {}.")
    assert "number_drift" in _proven(claim.format("IL-15"), NK92)
    assert "number_drift" not in _tags(claim.format("IL-2"), NK92)


def test_a_name_in_the_same_words_company_as_the_sources():
    """Trial 164's 25 and 20 (*partial* on the judge alone): "households in Chiang Mai, Thailand" for "in Bangkok,
    Thailand"; "a longer criterion measure, the Locke-Wallace Marital Adjustment Test" for "..., the Dyadic
    Adjustment Scale". A name and its abbreviation are one name."""
    assert "term_swap" in _proven("Using a large random sample of households in Chiang Mai, Thailand, the authors "
                                  "found objective household crowding to be detrimental to psychological well-being.",
                                  CROWDING)
    assert "term_swap" in _proven("The RAS correlated .80 with a longer criterion measure, the Locke-Wallace Marital "
                                  "Adjustment Test.", RAS)
    assert "term_swap" not in _proven("Using a large random sample of households in Bangkok, Thailand, the authors "
                                      "found objective household crowding to be detrimental to psychological "
                                      "well-being.", CROWDING)
    assert "term_swap" not in _proven("Crowding in Thailand is higher than typically found in the US.", CROWDING)


def test_a_finding_the_source_denies_with_there_is_no():
    """Trial 164's 7 (*partial*): "The analyses found evidence of a gender effect" for "There is no evidence of a
    gender effect"."""
    assert "polarity_flip" in _proven("The analyses found evidence of a gender effect of household crowding on "
                                      "psychological well-being.", CROWDING)
    assert "polarity_flip" not in _proven("The analyses found no evidence of a gender effect of household crowding on "
                                          "psychological well-being.", CROWDING)


def test_in_the_intact_brain_for_neurons_grown_on_microislands():
    """Trial 165's 16 (*supported*): "In the intact brain, raising astrocytic calcium ... evoked slow inward currents"
    for neurons "grown on microislands of astrocytes"."""
    assert "scope_inflation" in _proven("In the intact brain, raising astrocytic calcium by flash photolysis evoked "
                                        "slow inward currents in adjacent neurons.", ASTROCYTES)
    assert "scope_inflation" not in _tags("Raising astrocytic calcium by flash photolysis evoked slow inward currents "
                                          "in neurons grown on astrocyte microislands.", ASTROCYTES)


def test_part_for_aspect_is_no_swap():
    """Trial 165's 6, faithful (*unsupported* on a proven swap): "an important part of" for "an important aspect
    of"."""
    assert "term_swap" not in _tags("Evaluating sperm and androgen production is an important part of preclinical "
                                    "safety assessment.", TESTIS)
    assert "term_swap" in _tags("Evaluating sperm and androgen production is an important part of clinical "
                                "efficacy assessment.", TESTIS)


def test_direct_measurement_for_revised_estimates():
    """Trial 165's 7 (*supported*): "By direct measurement, the paper establishes the energy expenditure" for
    "provides revised estimates ... in a simple model"."""
    tags = _tags("By direct measurement, the paper establishes the energy expenditure on neural computation in the "
                 "cerebral and cerebellar cortex.", ENERGY)
    assert tags.get("hedge_removed", (0, False))[0] >= 0.6
    assert "hedge_removed" not in _tags("The paper provides revised estimates of the energy expenditure on neural "
                                        "computation in the cerebral and cerebellar cortex.", ENERGY)


def test_a_cause_the_claim_adds_beside_the_sources_own_result_in():
    """Trial 148's 18 (*supported*): "Mutations in CTNNB1 that result in constitutive activation of beta-catenin cause
    hepatocellular adenomas" for tumors that "have mutations in CTNNB1 that result in constitutive activation";
    trial 163's 15 (*partial*, no tag): mutations "pushed MDS patients into higher risk groups" for "were associated
    with higher risk groups"."""
    tags = _tags("Mutations in CTNNB1 that result in constitutive activation of beta-catenin cause hepatocellular "
                 "adenomas, hepatocellular cancers and hepatoblastomas.", CTNNB1)
    assert tags.get("causal_overclaim", (0, False))[0] >= 0.6
    assert "causal_overclaim" not in _tags("Many hepatic tumors have mutations in CTNNB1 that result in constitutive "
                                           "activation of beta-catenin.", CTNNB1)
    assert _tags("Many mutations pushed MDS patients into higher risk groups.", MDS)["causal_overclaim"][0] >= 0.6


def test_a_structured_abstracts_labels_glued_to_the_sentence_before():
    """Trial 163's diet source: "(interview).Methods:Two hundred ..." and "in Europe Objective:To describe" had made
    one sentence of the title and three of the abstract's parts."""
    sents = split_sentences(RECALL)
    assert sents[0].endswith("adolescents in Europe")
    assert sents[1].startswith("Objective:To describe")
    assert any(s.startswith("Methods:Two hundred") for s in sents)
    assert any(s.startswith("Results:A small") for s in sents)
    assert split_sentences("The value was 3.5 in results: all of them.") == ["The value was 3.5 in results: all of "
                                                                             "them."]


SAGA = ("This study reveals (1) a greater diversity and specialization of regulation associated with the SAGA "
        "transcription pathway compared to the TFIID pathway, (2) new regulators enriched at tRNA genes, (3) a global "
        "co-occupancy network of >20,000 unique regulator combinations, (4) regulators of the SAGA pathway located "
        "largely distal to the core promoter and regulators of the TFIID pathway located proximally, and (5) distinct "
        "mobilization of SAGA- versus TFIID-linked regulators during acute heat shock.")


def test_two_places_exchanged_inside_one_item_of_an_enumerating_sentence():
    """Trial 166's 13 (*partial*, no tag): SAGA's regulators "largely proximal", TFIID's "distally", for the fourth
    of five findings one sentence enumerates."""
    assert enumerated_items(SAGA)[3] == ("regulators of the SAGA pathway located largely distal to the core promoter "
                                         "and regulators of the TFIID pathway located proximally")
    assert len(enumerated_items(SAGA)) == 5 and enumerated_items("A (1) lone mark.") == []
    claim = ("Regulators of the SAGA pathway were located largely {} to the core promoter, whereas regulators of the "
             "TFIID pathway were located {}.")
    assert "polarity_flip" in _proven(claim.format("proximal", "distally"), SAGA)
    assert "polarity_flip" not in _tags(claim.format("distal", "proximally"), SAGA)


APOE = ("In humans, apolipoprotein E (apoE) is a polymorphic multifunctional protein.1 It is coded by three alleles (e2, "
        "e3, e4) of a modulator gene at the apoE locus on chromosome 19, determining six apoE genotypes and plasma "
        "phenotypes. ApoE polymorphism modulates susceptibility to many diseases. It is, however, particularly notorious "
        "for its role in atherosclerotic arterial disease.5,6 The e4 allele (phenotypes E4/4 and E4/3) that is "
        "associated with higher low density lipoprotein cholesterol (LDL-C) is considered proatherogenic, whereas the "
        "presence of the e2 allele, being associated with lower LDL-C levels, is deemed to have the opposite effect "
        "(although it may be associated with increased plasma triglycerides). A recent meta-analysis fully supports the "
        "presence of the e4 allele as a significant risk factor for coronary artery disease.7")
CALCIUM = ("Whether this glutamate release pathway is used during physiological signaling or is recruited only under "
           "pathophysiological conditions is not well defined.")


def test_reference_numbers_after_a_full_stop_end_the_sentence():
    """Trial 166's apoE source: "disease.5,6 The e4 allele" and "protein.1 It is coded" had joined three sentences,
    so a *may* of the third hedged a claim restating the second. "Fig.5 The" stays one sentence."""
    sents = split_sentences(APOE)
    assert sents[0].endswith("multifunctional protein.1") and sents[1].startswith("It is coded")
    assert any(s.startswith("The e4 allele (phenotypes") for s in sents)
    assert split_sentences("See Fig.5 The end.") == ["See Fig.5 The end."]


def test_a_hedge_after_whereas_hedges_the_other_side():
    """Trial 166's 2, faithful (*partial* on a 0.7 hedge): "the e4 allele is considered proatherogenic" for the
    clause before "whereas the presence of the e2 allele ... (although it may be associated ...)"."""
    assert "hedge_removed" not in _tags("The e4 allele, associated with higher LDL cholesterol, is considered "
                                        "proatherogenic.", APOE)
    assert _tags("The e2 allele is associated with increased plasma triglycerides.", APOE)["hedge_removed"][0] >= 0.6


def test_a_booster_the_claim_denies_is_no_certainty():
    """Trial 165's 30, faithful (*partial* on a 0.65 booster): "had not been well established" for "is not well
    defined"."""
    assert "hedge_removed" not in _tags("Whether astrocytes use calcium-dependent glutamate release in normal "
                                        "physiological signalling had not been well established.", CALCIUM)
    assert _tags("It has been well established that astrocytes use calcium-dependent glutamate release in normal "
                 "physiological signalling.", CALCIUM)["hedge_removed"][0] >= 0.6


def test_give_rise_to_for_the_sources_determining():
    """Trial 166's 15, faithful (*partial* on a 0.7 cause): "three alleles ... give rise to six apoE genotypes" for
    "coded by three alleles ..., determining six apoE genotypes", against a "risk factor" in another sentence."""
    assert "causal_overclaim" not in _tags("Three alleles of the apoE gene on chromosome 19 give rise to six apoE "
                                           "genotypes.", APOE)
    assert _tags("Three alleles of the apoE gene on chromosome 19 cause coronary artery disease.", APOE).get(
        "causal_overclaim", (0, False))[0] >= 0.6


def test_a_verb_of_effect_for_the_restating_sentences_association():
    """Trial 166's 17 (*supported* once its source's sentences were cut right): "The e4 allele ... raises low density
    lipoprotein cholesterol" for "The e4 allele ... that is associated with higher low density lipoprotein
    cholesterol"."""
    tags = _tags("The e4 allele (E4/4 and E4/3) raises low density lipoprotein cholesterol and is therefore "
                 "considered proatherogenic.", APOE)
    assert tags.get("causal_overclaim", (0, False))[0] >= 0.6
    assert "causal_overclaim" not in _tags("The e4 allele (E4/4 and E4/3) is associated with higher low density "
                                           "lipoprotein cholesterol and is considered proatherogenic.", APOE)
