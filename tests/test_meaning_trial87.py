"""Issue 28: what the eighty-seventh to ninetieth new users' trials found (2026-12-07, session 25; held out on
`17b9573`: 7, 7, 14 and 9 of 20 false claims caught, 4, 0, 0 and 4 supported; faithful paraphrases 0, 3, 2 and 1
called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): lipid droplets and cell survival
(doc 10482574), dual NRTI/NNRTI resistance (6426919), abdominal adiposity and death in Europe (23967973), COPD
(7285256), Italian mucopolysaccharidosis type I mutations (6503534), social isolation and support (146653163),
leading- and lagging-strand replication (41314611), interleukin-18 null mice (25050364); and, from earlier rounds,
bone and liver metastases (trial 86) and Vav2 and RhoA (trial 83).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, judged, proven, spans

LD = ("Cells exposed to stress of different origins synthesize triacylglycerols and generate lipid droplets (LD), but "
      "the physiological relevance of this response is uncertain. Using complete nutrient deprivation of cells in "
      "culture as a simple model of stress, we have addressed whether LD biogenesis has a protective role in cells "
      "committed to die. Complete nutrient deprivation induced the biogenesis of LD in human LN18 glioblastoma and "
      "HeLa cells and also in CHO and rat primary astrocytes. In all cell types, death was associated with LD "
      "depletion and was accelerated by blocking LD biogenesis after pharmacological inhibition of Group IVA "
      "phospholipase A2 (cPLA2α) or down-regulation of ceramide kinase.")
METASTASES = "All patients with liver metastases had bone metastases."
VAV2 = ("Both Vav2 and its substrate, the small GTPase RhoA, were found to play a direct role in the Cav1-mediated "
        "prevention of bacterial uptake.")
STRANDS = ("Specialized DNA polymerases transiently replace the replicative polymerase and copy past lesions, thus "
           "generating mutations, the major initiating cause of cancer. We monitored, in Escherichia coli, the kinetics "
           "of replication of both strands of DNA molecules containing a single replication block in either the "
           "leading or lagging strand.")
SYMPOSIUM = ("They have combined presentations originally made at a National Institute on Aging-sponsored symposium "
             "on applied gerontology held in August 1992.")
IL18 = "Central IL-18 administration reduced high-fat diet intake in wildtype mice, but not in mice lacking the IL-18 receptor."


def test_two_terms_exchanged_around_the_relation_they_share_are_a_proven_reversal():
    """Trial 86's 4 (*partial*) and trial 83's 27 (*supported*, P(entails) 0.68): the two terms trade places around
    "metastases had" and "and its substrate"."""
    [tag] = proven(detect_polarity_flip, "All patients with bone metastases had liver metastases", METASTASES)
    assert spans(tag) == ("bone", "liver") and escalates(tag)
    [tag] = proven(detect_polarity_flip, "Both RhoA and its substrate, the guanine nucleotide exchange factor Vav2, "
                   "were found to play a direct role in the Cav1-mediated prevention of bacterial uptake", VAV2)
    assert spans(tag) == ("RhoA", "Vav2")
    assert "around 'and its substrate'" in tag.message


def test_coordinations_nominalisations_and_the_claims_own_order_are_no_exchange():
    """The faithful twins: the claim as the source says it; two coordinated phrases turned round (a fifteenth
    trial's test); "behavior changed abruptly" for "an abrupt change in behavior" (a 77th trial's faithful claim,
    which an early form of the rule called *contradicted*)."""
    assert proven(detect_polarity_flip, METASTASES.rstrip("."), METASTASES) == []
    both = "Body weight and liver weight rose in the WD-fed mice."
    assert proven(detect_polarity_flip, "Liver weight and body weight rose in the WD-fed mice", both) == []
    src = ("We examined six patients with an abrupt change in behavior after infarction involving the inferior genu of "
           "the internal capsule.")
    assert proven(detect_polarity_flip, "Tatemichi and colleagues examined six patients whose behavior changed abruptly "
                  "after an infarct involving the inferior genu of the internal capsule", src) == []


def test_a_turned_verb_after_the_sources_own_conjunct_and_abbreviation_is_proven():
    """Trial 87's 17 (*supported*, P(entails) 0.82): "delayed" for "accelerated", the source saying "LD" for the
    claim's "lipid droplet" and "after" for its "through", and a conjunct of its own before the verb."""
    claim = ("Cell death was delayed by blocking lipid droplet biogenesis through pharmacological inhibition of cPLA2α "
             "or down-regulation of ceramide kinase")
    [tag] = proven(detect_polarity_flip, claim, LD)
    assert spans(tag)[0] == "delayed" and "'accelerated'" in tag.message
    assert proven(detect_polarity_flip, claim.replace("delayed", "accelerated"), LD) == []


def test_preventing_for_generating_is_a_proven_reversal():
    """Trial 90's 22 (*supported*, P(entails) 0.81): the sentence copied but for its verb."""
    claim = ("Specialized DNA polymerases transiently replace the replicative polymerase and copy past lesions, thus "
             "preventing mutations, the major initiating cause of cancer")
    [tag] = proven(detect_polarity_flip, claim, STRANDS)
    assert "'preventing'" in tag.message and "'generating'" in tag.message
    assert proven(detect_polarity_flip, claim.replace("preventing", "generating"), STRANDS) == []


def test_another_organism_than_the_sources_is_a_proven_swap():
    """Trial 90's 24 (*supported*, P(entails) 0.97): yeast for the source's E. coli, the sentence restructured; the
    source's organism in any spelling is no swap."""
    claim = ("The kinetics of replication of both strands were monitored in Saccharomyces cerevisiae using DNA molecules "
             "that carried a single replication block in either the leading or the lagging strand")
    [tag] = proven(detect_term_swap, claim, STRANDS)
    assert spans(tag) == ("Saccharomyces cerevisiae", "Escherichia coli") and escalates(tag)
    for same in ("Escherichia coli", "E. coli"):
        assert proven(detect_term_swap, claim.replace("Saccharomyces cerevisiae", same), STRANDS) == []


def test_another_year_of_the_same_month_is_a_proven_drift():
    """Trial 90's 5 (*supported*, P(entails) 0.69): the quantity parser reads no number in a dated month."""
    claim = "The symposium on applied gerontology from which the article was compiled was held in August 1996"
    [tag] = detect_number_drift(claim, SYMPOSIUM, source_text=SYMPOSIUM)
    assert (spans(tag), tag.proven) == (("August 1996", "August 1992"), True)
    assert detect_number_drift(claim.replace("1996", "1992"), SYMPOSIUM, source_text=SYMPOSIUM) == []


def test_in_vivo_for_work_in_culture_is_a_proven_widening():
    """Trial 87's 20 (*supported* on the title, P(entails) 0.89): the source's cells are in culture (its rat
    astrocytes too), and it studies no animal; a source that studies mice is not read so."""
    claim = ("In vivo, cell viability during nutrient deprivation is sustained by β-oxidation of fatty acids that "
             "requires the biogenesis and mobilization of lipid droplets")
    [tag] = proven(detect_scope_inflation, claim, LD)
    assert spans(tag) == ("In vivo", "in culture") and escalates(tag)
    mice = LD + " Mice fed a ketogenic diet showed the same dependence."
    assert proven(detect_scope_inflation, claim, mice) == []


def test_a_negation_the_claim_words_its_own_way_is_not_dropped():
    """Trial 90's 17 (faithful, *contradicted* by a proven tag): "an effect that was absent in mice lacking" says the
    source's "but not in mice lacking"."""
    claim = ("Injecting IL-18 into the brain lowered high-fat diet intake in wildtype mice, an effect that was absent "
             "in mice lacking the IL-18 receptor")
    assert proven(detect_polarity_flip, claim, IL18) == []
    assert proven(detect_polarity_flip, claim.replace("an effect that was absent in", "an effect also seen in"),
                  IL18) != []


def test_synonyms_of_how_often_and_of_adding_are_no_swap():
    """Trial 88's 5 and 30 (faithful, *unsupported* by a proven term_swap): *often* / *frequently*, *alongside* / *in
    addition to*."""
    copd = ("Precise definitions of COPD vary and are frequently dependent on an accurate diagnosis of the problem by a "
            "physician.")
    assert detect_term_swap("Precise definitions of COPD vary and often depend on an accurate diagnosis by a physician",
                            copd, source_text=copd) == []
    whr = ("CONCLUSIONS These data suggest that both general adiposity and abdominal adiposity are associated with the "
           "risk of death and support the use of waist circumference or waist-to-hip ratio in addition to BMI in "
           "assessing the risk of death.")
    assert detect_term_swap("The data suggest that both general and abdominal adiposity are associated with the risk "
                            "of death, supporting the use of waist circumference or waist-to-hip ratio alongside BMI",
                            whr, source_text=whr) == []


def test_all_for_the_sources_total_is_no_widening():
    """Trial 89's 17 (faithful, *unsupported* by a proven scope tag read on another sentence): "of all alleles" for
    "of the total alleles"."""
    src = ("The two most common mutations in northern Europeans (W402X and Q70X) accounted for 11% and 13% of the "
           "alleles, respectively. The other mutations, P533R, A327P and G51D, accounted for 11%, 5.6% and 9.3% of the "
           "total alleles, respectively.")
    assert proven(detect_scope_inflation, "A327P and G51D accounted for 5.6% and 9.3% of all alleles, respectively",
                  src) == []


def test_a_cause_stated_outright_against_a_source_stating_none_is_partial():
    """Trial 90's 2 (*supported*: the tag at 0.5 downgraded nothing): 0.7, which makes *partial*; a source that states
    a cause somewhere keeps the old reading."""
    src = ("Considerable empirical evidence substantiates the importance of social networks and support to health and "
           "well-being among the elderly.")
    claim = ("This evidence establishes that strong social networks and support directly cause better health and "
             "well-being among the elderly")
    [tag] = detect_causal_overclaim(claim, src, source_text=src)
    assert (tag.confidence, tag.proven) == (0.7, False)
    caused = src + " Loneliness causes cognitive decline."
    assert [t.confidence for t in detect_causal_overclaim(claim, src, source_text=caused)] == [0.5]


def test_results_that_prove_the_mechanism_are_a_removed_hedge():
    """Trial 87's 10 (*supported*): "prove the unifying mechanism" for "provide support for a unifying mechanism"."""
    src = ("Together, these results confirm key predictions of our NNRTI resistance model and provide support for a "
           "unifying mechanism by which CN and RH mutations can exhibit dual NRTI and NNRTI resistance.")
    [tag] = detect_hedge_removed("Together, these results prove the unifying mechanism by which connection subdomain "
                                 "and RNase H mutations exhibit dual NRTI and NNRTI resistance", src, source_text=src)
    assert tag.confidence >= 0.65 and "prove the" in tag.message


def test_a_contradiction_read_beside_a_sentence_restating_the_claim_nearly_whole_is_partial():
    """Trial 88's 25 (faithful, *contradicted* at 0.74): the judge read a METHODS sentence holding two thirds of the
    claim's words (P(contradicts) 0.78) while the sentence restating it nearly whole read 0.56. Above the line, or
    with the rule off, the judgement stands."""
    from citeproof.judges.policy import Policy, decide
    from citeproof.model import Tier, Verdict

    claim = ("After adjustment for BMI, both waist circumference and waist-to-hip ratio remained strongly associated "
             "with the risk of death")
    restating = ("After adjustment for BMI, waist circumference and waist-to-hip ratio were strongly associated with "
                 "the risk of death.")
    methods = ("METHODS We examined the association of BMI, waist circumference, and waist-to-hip ratio with the risk "
               "of death among 359,387 participants from nine countries in the European Prospective Investigation into "
               "Cancer and Nutrition (EPIC).")
    lexical = judged(restating, Verdict.PARTIAL, 0.6)
    lexical.tier = Tier.LEXICAL
    out = decide(judged(methods, Verdict.CONTRADICTED, 0.74, (restating, 0.43, 0.56, 0.85)), lexical, Policy(),
                 claim=claim)
    assert (out.verdict, "needs_review" in out.flags) == (Verdict.PARTIAL, True)
    assert "P(contradicts) 0.56" in out.reasons[0]
    assert decide(judged(methods, Verdict.CONTRADICTED, 0.74, (restating, 0.2, 0.75, 0.85)), lexical, Policy(),
                  claim=claim).verdict == Verdict.CONTRADICTED
    assert decide(judged(methods, Verdict.CONTRADICTED, 0.74, (restating, 0.43, 0.56, 0.85)), lexical,
                  Policy(restating_whole_below=0), claim=claim).verdict == Verdict.CONTRADICTED
    # each line is off on its own: the other rule's line at 0 leaves this one on
    assert decide(judged(methods, Verdict.CONTRADICTED, 0.74, (restating, 0.43, 0.56, 0.85)), lexical,
                  Policy(restating_clear_below=0), claim=claim).verdict == Verdict.PARTIAL


COPD = ("Some of the risk factors for COPD are well-known and include smoking, occupational exposures, air pollution, "
        "airway hyperresponsiveness, asthma, and certain genetic variations, although many questions remain. These "
        "differences in the definition of COPD can have large effects on the estimates of COPD in the population. In "
        "most of the world, COPD prevalence and mortality are still increasing and likely will continue to rise in "
        "response to increases in smoking, particularly by women and adolescents.")
EPIC = ("METHODS We examined the association of BMI, waist circumference, and waist-to-hip ratio with the risk of death "
        "among 359,387 participants from nine countries in the European Prospective Investigation into Cancer and "
        "Nutrition (EPIC). RESULTS During a mean follow-up of 9.7 years, 14,723 participants died. BMI remained "
        "significantly associated with the risk of death in models that included waist circumference or waist-to-hip "
        "ratio (P<0.001).")


def test_no_longer_for_remained_is_a_proven_reversal():
    """Trial 88's 28 (*partial*; the judge read the restating sentence P(contradicts) 0.22)."""
    claim = ("BMI was no longer significantly associated with the risk of death once waist circumference or "
             "waist-to-hip ratio was included in the models")
    [tag] = proven(detect_polarity_flip, claim, EPIC)
    assert spans(tag)[0].startswith("no longer") and spans(tag)[1].startswith("remained")
    assert proven(detect_polarity_flip, claim.replace("was no longer", "remained"), EPIC) == []
    # a word of place after it says no state (a Citation-Integrity accurate claim's "remain in place until")
    assert proven(detect_polarity_flip, "Strong social distancing measures must remain in place until a vaccine is "
                  "available", "Strong social distancing measures are no longer in place anywhere.") == []


def test_a_count_written_with_the_sources_digits_in_another_order_is_a_proven_drift():
    """Trial 88's 22 (*partial*: 0.9 unproven, the passage shown held no death count)."""
    claim = ("The EPIC analysis examined BMI, waist circumference and waist-to-hip ratio among 359,387 participants from "
             "nine European countries, of whom 41,723 died during follow-up")
    tags = [t for t in detect_number_drift(claim, EPIC, source_text=EPIC) if t.proven]
    assert [spans(t) for t in tags] == [("41,723", "14,723")]
    assert detect_number_drift(claim.replace("41,723", "14,723"), EPIC, source_text=EPIC) == []
    # a range or a year is no count (Citation-Integrity accurate claims: "12-20" by "2021", "2011" by "1,021")
    assert [t for t in detect_number_drift("Between 12-20 patients were enrolled each year", "Enrolment ended in 2021.",
                                           source_text="Enrolment ended in 2021.") if t.proven] == []


def test_a_turned_word_ending_the_claim_is_proven_on_four_words_alike():
    """Trial 88's 8 (*partial*, an unproven flip): the claim stops at "declining" where the source goes on."""
    [tag] = proven(detect_polarity_flip, "In most of the world, COPD prevalence and mortality are now declining", COPD)
    assert spans(tag) == ("declining", "increasing")
    assert proven(detect_polarity_flip, "In most of the world, COPD prevalence and mortality are still increasing",
                  COPD) == []


def test_another_disease_in_a_list_is_a_proven_swap():
    """Trial 88's 3 (*partial*, unproven): diabetes for asthma between the same list items."""
    claim = ("Besides smoking, recognised risk factors for COPD include occupational exposures, air pollution, airway "
             "hyperresponsiveness, diabetes and certain genetic variations")
    [tag] = proven(detect_term_swap, claim, COPD)
    assert spans(tag) == ("diabetes", "asthma")
    assert proven(detect_term_swap, claim.replace("diabetes", "asthma"), COPD) == []


def test_a_judges_contradiction_of_a_denied_difference_against_a_stated_likeness_is_partial():
    """Trial 89's 7 (faithful, *contradicted* at P(contradicts) 0.92): "did not differ between the groups" for "The
    two groups had a similar ..."; a likeness beside a turned word, or a claim saying they differed, keeps it."""
    from citeproof.detectors.denials import states_no_difference
    from citeproof.judges.policy import Policy, decide
    from citeproof.model import Tier, Verdict

    src = ("The two groups had a similar intensity of nursing care workload, time interval from study entry to "
           "endotracheal intubation, duration of hospitalization, and hospital mortality.")
    claim = "Duration of hospitalization and the time from study entry to intubation did not differ between the groups"
    assert states_no_difference(claim, src) == src
    assert states_no_difference(claim.replace("did not differ", "was longer"), src) is None
    assert states_no_difference(claim, src.replace("similar intensity", "similar, lower intensity")) is None
    lexical = judged(src, Verdict.PARTIAL, 0.6)
    lexical.tier = Tier.LEXICAL
    out = decide(judged(src, Verdict.CONTRADICTED, 0.91, (src, 0.07, 0.92, 0.8)), lexical, Policy(), claim=claim)
    assert (out.verdict, "needs_review" in out.flags) == (Verdict.PARTIAL, True)
    assert "denies the difference the claim denies" in out.reasons[0]
