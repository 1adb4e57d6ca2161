"""Issue 28: what the twenty-fourth to twenty-sixth new users' trials found (2026-12-06, session 22, held out on
`9dac20f`: 12, 13 and 12 of 20 false claims caught, 4, 3 and 1 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): exercise capacity of diabetic veterans
(doc 24918110), blood lipids and breast cancer in Norwegian women (9171913), sepsis-2 and sepsis-3 epidemiology
(3776162), gustducin in gut L cells (20829129), TNF-alpha and atherosclerosis in apoE-/- mice (22889972), the
Friedewald estimate of LDL cholesterol (15360986), plasma vitamin D and colorectal cancer (520579), VEGF in skeletal
development (11716783).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.judges.policy import POLICY, escalation
from citeproof.model import Verdict
from tests.meaning_cases import proven, spans

METS = ("Each 1-MET increase in exercise capacity conferred a 10% survival benefit (hazard ratio 0.90 [95% CI 0.82-0.98]; "
        "P = 0.01), but BMI was not significantly associated with mortality. After adjustment for age, ethnicity, "
        "examination year, BMI, presence of cardiovascular disease (CVD), and CVD risk factors, diabetic patients "
        "achieving <5 maximal METs were 70% more likely to die (1.70 [1.13-2.54]) than those achieving > or =5 maximal "
        "METs. The study population comprised 831 consecutive patients with type 2 diabetes referred for exercise "
        "testing for clinical reasons between 1995 and 2006.")
LIPIDS = ("The screening consisted of a questionnaire, anthropometric measurements, and nonfasting blood drawn for analysis "
          "of total serum cholesterol (TC), triglyceride (TG), and high density lipoprotein (HDL) cholesterol. Low density "
          "lipoprotein (LDL) cholesterol was calculated by the Friedewald's formula. The corresponding relative risks "
          "and CIs were 0.82 (CI=0.58-1.16) for TG, 1.02 (CI=0.73-1.42) for HDL, and 0.93 (CI=0.67-1.29) for LDL.")
SEPSIS = ("Methods We used a high-quality, national, intensive care unit (ICU) database of 654 918 consecutive admissions "
          "to 189 adult ICUs in England, from January 2011 to December 2015. Results From among 197 724 Sepsis-2 severe "
          "sepsis and 197 142 Sepsis-3 sepsis cases, we identified 153 257 Sepsis-2 septic shock and 39 262 Sepsis-3 "
          "septic shock cases.")
APOE = ("RT-PCR analysis indicated that the expression levels of intercellular adhesion molecule-1 (ICAM-1), vascular "
        "cell adhesion molecule-1 (VCAM-1) and monocyte chemoattractant protein-1 (MCP-1) were significantly higher in "
        "apoE-/- than apoE-/-/TNF-alpha-/- mice.")
GUSTDUCIN = "Mouse intestinal L cells also express alpha-gustducin. The human L cell line NCI-H716 expresses alpha-gustducin."
FRIEDEWALD = ("When triglycerides were less than 2.0 g/L, greater than 90% of estimated LDL cholesterol values were "
              "acceptable, within +/- 10% of measured values. Nevertheless, the use of estimated LDL for risk "
              "classification based on the National Cholesterol Education Program Adult Treatment Panel cutpoints of "
              "1.30 and 1.60 g/L was considered acceptable.")
VITAMIN_D = ("RESULTS We found a significant inverse linear association between plasma 25(OH)D and risk of colorectal cancer "
             "(P = 0.02). This inverse association remained strong when limited to women > or =60 years at blood "
             "collection (P = 0.006) but was not apparent among the younger women (P = 0.70).")
VEGF = ("VEGF regulates osteoclastic differentiation, migration, and activity. Bone fractures can heal in two divergent "
        "ways, similar to the two ways of forming bone during embryonic development.")


def _escalates(tag) -> bool:
    to, _ = escalation(Verdict.SUPPORTED, [tag], POLICY)
    return to in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)


def test_a_negation_dropped_from_the_clause_after_but_is_proven():
    """24 C13 (*supported*): the claim restates the clause after ", but" whole, with its *not* left out."""
    (tag,) = proven(detect_polarity_flip, "BMI was significantly associated with mortality in this population of male "
                    "veterans with type 2 diabetes.", METS)
    assert spans(tag) == ("significantly", "not significantly") and _escalates(tag)
    assert not proven(detect_polarity_flip, "BMI was not significantly associated with mortality in this population "
                      "of male veterans with type 2 diabetes.", METS)


def test_two_groups_cut_at_one_value_exchanged_are_a_proven_flip():
    """24 C2 (*supported*): "5 or more" and "fewer than 5" given each other's side of "more likely to die"."""
    claim = ("After adjustment for age, ethnicity, examination year, BMI, presence of cardiovascular disease, and CVD risk "
             "factors, diabetic patients achieving 5 or more maximal METs were 70% more likely to die than those "
             "achieving fewer than 5 maximal METs.")
    (tag,) = proven(detect_polarity_flip, claim, METS)
    assert spans(tag) == ("5 or more", "<5") and _escalates(tag)
    faithful = claim.replace("5 or more", "TMP").replace("fewer than 5", "5 or more").replace("TMP", "fewer than 5")
    assert not proven(detect_polarity_flip, faithful, METS)


def test_bounds_written_after_the_number_and_in_words():
    """"5 or more", "> or =5", "more than 650,000" and "younger than 60 years" bound their numbers the right way; a
    ceiling never matches a floor, nor a bound a number of another unit."""
    assert [(q.text, q.bound) for q in extract_quantities("5 or more maximal METs, > or =5 METs, 2 or fewer")] == [
        ("5 or more", ">"), ("> or =5", ">"), ("2 or fewer", "<")]
    more, = extract_quantities("more than 650,000 admissions")
    assert more.bound == ">" and quantities_match(more, extract_quantities("654 918 admissions")[0])
    younger, = extract_quantities("women younger than 60 years")
    assert younger.bound == "<" and not quantities_match(younger, extract_quantities("women > or =60 years")[0])
    assert not quantities_match(younger, extract_quantities("P = 0.006")[0])


def test_a_faithful_rounded_count_and_a_year_in_a_date_are_no_drift():
    """25 C9, faithful, was *unsupported* (proven): "more than 650,000" had read as a ceiling and "2011" took the slot
    of "654 918"."""
    assert detect_number_drift("The analysis drew on more than 650,000 consecutive admissions to 189 adult intensive "
                               "care units in England between 2011 and 2015.", SEPSIS, source_text=SEPSIS) == []


def test_counts_with_spaced_thousands_exchanged_between_groups():
    """25 C13 (*supported*): "39 262" and "153 257" given to each other's definition of septic shock."""
    (tag,) = proven(detect_polarity_flip, "From among 197 724 Sepsis-2 severe sepsis and 197 142 Sepsis-3 sepsis cases, "
                    "there were 39 262 Sepsis-2 septic shock and 153 257 Sepsis-3 septic shock cases.", SEPSIS)
    assert spans(tag) == ("39 262", "153 257") and _escalates(tag)


def test_values_exchanged_across_an_aside_and_a_comma():
    """24 C5 (*supported*): "1.02 for TG, 0.82 for HDL" for "0.82 (CI=...) for TG, 1.02 (CI=...) for HDL"."""
    (tag,) = proven(detect_polarity_flip, "The corresponding relative risks were 1.02 for TG, 0.82 for HDL, and 0.93 for "
                    "LDL.", LIPIDS)
    assert spans(tag) == ("1.02", "0.82")
    assert not proven(detect_polarity_flip, "The corresponding relative risks were 0.82 for TG, 1.02 for HDL, and 0.93 "
                      "for LDL.", LIPIDS)


def test_a_comparison_turned_round_with_a_shared_head_noun():
    """25 C19 (*supported*): "higher in apoE-/-/TNF-alpha-/- than apoE-/- mice" for the other way round."""
    claim = APOE.replace("apoE-/- than apoE-/-/TNF-alpha-/- mice", "apoE-/-/TNF-alpha-/- than apoE-/- mice")
    (tag,) = proven(detect_polarity_flip, claim, APOE)
    assert spans(tag) == ("higher in apoE-/-/TNF-alpha-/- than apoE-/- mice",
                          "higher in apoE-/- than apoE-/-/TNF-alpha-/- mice")
    assert not proven(detect_polarity_flip, APOE, APOE)


def test_an_acronym_swapped_with_its_long_form_is_a_proven_swap():
    """24 C21 and 26 C21 (*supported*, *partial*): HDL for LDL, where the source spells LDL out in that sentence or
    the claim adds the word the acronym holds."""
    (tag,) = proven(detect_term_swap, "High density lipoprotein (HDL) cholesterol was calculated by the Friedewald's "
                    "formula.", LIPIDS)
    assert ("HDL", "LDL") in [(e.claim_span, e.evidence_span) for e in tag.evidence] and _escalates(tag)
    (tag,) = proven(detect_term_swap, "Nevertheless, the use of estimated HDL cholesterol for risk classification based "
                    "on the National Cholesterol Education Program Adult Treatment Panel cutpoints of 1.30 and 1.60 g/L "
                    "was considered acceptable.", FRIEDEWALD)
    assert spans(tag) == ("HDL cholesterol", "LDL")
    assert not proven(detect_term_swap, "Low density lipoprotein (LDL) cholesterol was calculated by the Friedewald's "
                      "formula.", LIPIDS)


def test_two_words_a_letter_apart_are_two_terms_not_one_spelling():
    """26 C7 (*supported*): *osteoblastic* for *osteoclastic*; *tumor* for *tumour* stays one word."""
    (tag,) = proven(detect_term_swap, "VEGF regulates osteoblastic differentiation, migration, and activity.", VEGF)
    assert spans(tag) == ("osteoblastic", "osteoclastic")
    assert not proven(detect_term_swap, "VEGF regulates osteoclastic differentiation, migration, and activity.", VEGF)


def test_positive_for_inverse_association_is_a_proven_flip():
    """26 C5 (*partial*, no tag): an association's sign turned."""
    (tag,) = proven(detect_polarity_flip, "We found a significant positive linear association between plasma 25(OH)D and "
                    "risk of colorectal cancer (P = 0.02).", VITAMIN_D)
    assert spans(tag) == ("positive", "inverse") and _escalates(tag)


def test_a_number_said_twice_keeps_one_slot_for_the_claims_other():
    """26 C25 (*partial*, 0.9 unproven): "three divergent ways, similar to the two ways" for "two ... the two"."""
    (tag,) = proven(detect_number_drift, "Bone fractures can heal in three divergent ways, similar to the two ways of "
                    "forming bone during embryonic development.", VEGF)
    assert spans(tag) == ("three", "two")


def test_a_ceiling_for_the_sources_floor_is_a_proven_drift():
    """26 C10 (*partial*): "women younger than 60 years" for "women > or =60 years"."""
    (tag,) = proven(detect_number_drift, "This inverse association remained strong when limited to women younger than "
                    "60 years at blood collection (P = 0.006) but was not apparent among the older women (P = 0.70).",
                    VITAMIN_D)
    assert spans(tag) == ("younger than 60 years", "> or =60 years")


def test_a_class_for_one_species_is_a_proven_widening():
    """25 C18 (*supported*): "Mammalian intestinal L cells" for "Mouse intestinal L cells"."""
    (tag,) = proven(detect_scope_inflation, "Mammalian intestinal L cells also express alpha-gustducin.", GUSTDUCIN)
    assert spans(tag) == ("Mammalian", "Mouse") and _escalates(tag)
    assert not proven(detect_scope_inflation, "Murine intestinal L cells also express alpha-gustducin.", GUSTDUCIN)


def test_any_type_or_regardless_of_where_the_source_names_one_or_a_range():
    """24 C3 and 26 C8 (*partial*, 0.8 unproven): "any type of diabetes" for "type 2 diabetes"; "Regardless of
    triglyceride concentration" for "When triglycerides were less than 2.0 g/L"."""
    (tag,) = proven(detect_scope_inflation, "The study population comprised 831 consecutive patients with any type of "
                    "diabetes referred for exercise testing for clinical reasons between 1995 and 2006.", METS)
    assert spans(tag) == ("any type of diabetes", "type 2 diabetes")
    (tag,) = proven(detect_scope_inflation, "Regardless of triglyceride concentration, greater than 90% of estimated "
                    "LDL cholesterol values were acceptable, within +/- 10% of measured values.", FRIEDEWALD)
    assert spans(tag)[1] == "When triglycerides were less than 2.0 g/L" and _escalates(tag)
    assert not proven(detect_scope_inflation, "When triglycerides were below 2.0 g/L, over 90% of estimated LDL "
                      "cholesterol values were acceptable.", FRIEDEWALD)
