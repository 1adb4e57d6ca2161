"""Issue 28: what the twenty-fourth to twenty-ninth new users' trials found (2026-12-06, session 22; held out, 24-26 on
`9dac20f`: 12, 13 and 12 of 20 false claims caught, 4, 3 and 1 supported; 27-29 on `6921dbe`: 12, 17 and 15 caught,
4, 1 and 0 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): exercise capacity of diabetic veterans
(doc 24918110), blood lipids and breast cancer in Norwegian women (9171913), sepsis-2 and sepsis-3 epidemiology
(3776162), gustducin in gut L cells (20829129), TNF-alpha and atherosclerosis in apoE-/- mice (22889972), the
Friedewald estimate of LDL cholesterol (15360986), plasma vitamin D and colorectal cancer (520579), VEGF in skeletal
development (11716783), metabolic syndrome and diabetes (27449472), cardiac pacing for vasovagal syncope (6549091),
modified TERT mRNA (23036207), QT dispersion (15194125), mesenchymal stem cells in type 1 diabetes (24101431), CD8+ T
cells in HIV infection (35987381).
"""

from __future__ import annotations

from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.model import Verdict
from tests.meaning_cases import escalates, proven, spans

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


def test_a_negation_dropped_from_the_clause_after_but_is_proven():
    """24 C13 (*supported*): the claim restates the clause after ", but" whole, with its *not* left out."""
    (tag,) = proven(detect_polarity_flip, "BMI was significantly associated with mortality in this population of male "
                    "veterans with type 2 diabetes.", METS)
    assert spans(tag) == ("significantly", "not significantly") and escalates(tag)
    assert not proven(detect_polarity_flip, "BMI was not significantly associated with mortality in this population "
                      "of male veterans with type 2 diabetes.", METS)


def test_two_groups_cut_at_one_value_exchanged_are_a_proven_flip():
    """24 C2 (*supported*): "5 or more" and "fewer than 5" given each other's side of "more likely to die"."""
    claim = ("After adjustment for age, ethnicity, examination year, BMI, presence of cardiovascular disease, and CVD risk "
             "factors, diabetic patients achieving 5 or more maximal METs were 70% more likely to die than those "
             "achieving fewer than 5 maximal METs.")
    (tag,) = proven(detect_polarity_flip, claim, METS)
    assert spans(tag) == ("5 or more", "<5") and escalates(tag)
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
    assert spans(tag) == ("39 262", "153 257") and escalates(tag)


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
    assert ("HDL", "LDL") in [(e.claim_span, e.evidence_span) for e in tag.evidence] and escalates(tag)
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
    assert spans(tag) == ("positive", "inverse") and escalates(tag)


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
    assert spans(tag) == ("Mammalian", "Mouse") and escalates(tag)
    assert not proven(detect_scope_inflation, "Murine intestinal L cells also express alpha-gustducin.", GUSTDUCIN)


def test_any_type_or_regardless_of_where_the_source_names_one_or_a_range():
    """24 C3 and 26 C8 (*partial*, 0.8 unproven): "any type of diabetes" for "type 2 diabetes"; "Regardless of
    triglyceride concentration" for "When triglycerides were less than 2.0 g/L"."""
    (tag,) = proven(detect_scope_inflation, "The study population comprised 831 consecutive patients with any type of "
                    "diabetes referred for exercise testing for clinical reasons between 1995 and 2006.", METS)
    assert spans(tag) == ("any type of diabetes", "type 2 diabetes")
    (tag,) = proven(detect_scope_inflation, "Regardless of triglyceride concentration, greater than 90% of estimated "
                    "LDL cholesterol values were acceptable, within +/- 10% of measured values.", FRIEDEWALD)
    assert spans(tag)[1] == "When triglycerides were less than 2.0 g/L" and escalates(tag)
    assert not proven(detect_scope_inflation, "When triglycerides were below 2.0 g/L, over 90% of estimated LDL "
                      "cholesterol values were acceptable.", FRIEDEWALD)


def test_a_verdict_a_proven_tag_decided_is_not_marked_for_review(tmp_path):
    """Three trials' users found ``needs_review`` on every proven contradiction and stopped filtering on it: the
    escalated finding names its word diff instead."""
    from citeproof.pipeline import CheckOptions, check

    (tmp_path / "s.txt").write_text(METS + "\n", encoding="utf-8")
    (tmp_path / "refs.bib").write_text("@article{s, title={T}, author={U}, year={2010}, file={s.txt}}\n")
    (tmp_path / "d.md").write_text("Each 1-MET increase in exercise capacity conferred a 20% survival benefit [@s].\n")
    (f,) = check(tmp_path / "d.md", [tmp_path / "refs.bib"], CheckOptions(use_cache=False, tiers=["lexical"])).findings
    assert f.verdict == Verdict.UNSUPPORTED and "needs_review" not in f.flags
    assert [(t.name, t.proven) for t in f.tags if t.proven] == [("number_drift", True)]


SYNDROME = ("Although different definitions have been developed by various consensus groups, epidemiological studies "
            "demonstrate that they all associate the metabolic syndrome with a similar cardiometabolic risk, which is "
            "high for diabetes (ranging between three- and 20-fold), depending on the number of components and the "
            "inclusion of impaired fasting glucose, impaired glucose tolerance or both. The latter appear to indicate the failure of the beta cell to produce enough insulin to compensate for the "
            "increased demand due to insulin resistance. There is a hyperbolic relationship between insulin production "
            "and insulin sensitivity, which can be calculated by the disposition index. When this is altered there is a "
            "higher risk of developing Type 2 diabetes. There have been no clinical trials in subjects selected by the "
            "diagnosis of metabolic syndrome, but structured lifestyle changes have been tested in people with impaired "
            "fasting glucose/impaired glucose tolerance and have been able to reduce incident Type 2 diabetes by almost "
            "50%, as long as a weight loss of at least 5% is achieved. Oral antidiabetic and anti-obesity drugs have "
            "also been successful to a lesser degree.")
PACING = ("The interim analysis showed a significant effect in favor of permanent cardiac pacing (recurrence of syncope in "
          "2 patients [4.3%] after a median of 390 days) compared with medical treatment (recurrence of syncope in 12 "
          "patients [25.5%] after a median of 135 days; OR, 0.133; 95% CI, 0.028 to 0.632; P=0.004).")
TERT = ("This rapid method of extending telomeres and increasing cell proliferative capacity without risk of insertional "
        "mutagenesis should have broad utility in disease modeling, drug screening, and regenerative medicine.")
QT = ("This study investigated interobserver (two observers) and intrasubject (two measurements) reproducibility of QT "
      "dispersion from abnormal electrocardiograms in patients with previous myocardial infarction, and compared a "
      "user-interactive with an automatic measurement system.")
MSC = ("After the intravenous administration of 5 \u00d7 10(5) syngeneic MSCs, we observed that mice with T1DM reverted "
       "their hyperglycemia and presented no donor-derived insulin-producing cells.")
CD8 = "CD8+ T cells are activated in an antigen-independent manner in HIV-infected individuals."


def test_a_bound_is_not_met_by_the_sentences_other_number():
    """27 C13 (*supported*): "at least 10%" where the sentence says "at least 5%" beside "almost 50%"."""
    (tag,) = proven(detect_number_drift, "Structured lifestyle changes tested in people with impaired fasting "
                    "glucose/impaired glucose tolerance have been able to reduce incident Type 2 diabetes by almost 50%, "
                    "as long as a weight loss of at least 10% is achieved.", SYNDROME)
    assert spans(tag) == ("at least 10%", "at least 5%") and escalates(tag)


def test_greater_for_lesser_and_a_reversal_past_a_referent():
    """27 C14 (*supported*) and C11 (*partial*, 0.85 unproven): "to a greater degree" for "to a lesser degree";
    "When the disposition index is altered there is a lower risk" for "When this is altered there is a higher"."""
    (tag,) = proven(detect_polarity_flip, "Oral antidiabetic and anti-obesity drugs have also been successful to a "
                    "greater degree.", SYNDROME)
    assert spans(tag) == ("greater", "lesser")
    (tag,) = proven(detect_polarity_flip, "When the disposition index is altered there is a lower risk of developing "
                    "Type 2 diabetes.", SYNDROME)
    assert spans(tag) == ("lower", "higher")
    assert not proven(detect_polarity_flip, "When the disposition index is altered there is a higher risk of "
                      "developing Type 2 diabetes.", SYNDROME)


def test_a_negation_added_where_the_sentence_has_asides():
    """27 C30 (*partial*, 0.75): the restating sentence holds two bracketed asides between the claim's words."""
    (tag,) = proven(detect_polarity_flip, "The interim analysis showed no significant effect in favor of permanent "
                    "cardiac pacing compared with medical treatment.", PACING)
    assert spans(tag) == ("no significant", "a significant") and "(recurrence of syncope" in tag.message


def test_a_hedge_dropped_beside_one_the_claim_keeps_and_should_have():
    """27 C29 and 28 C22 (*supported*): "indicate" kept from "appear to indicate"; "has" for "should have"."""
    (tag,) = detect_hedge_removed("Impaired fasting glucose and impaired glucose tolerance indicate the failure of the "
                                  "beta cell to produce enough insulin to compensate for the increased demand due to "
                                  "insulin resistance.", SYNDROME, source_text=SYNDROME)
    assert (tag.confidence, spans(tag)) == (0.7, ("", "appear to"))
    assert detect_hedge_removed("Impaired fasting glucose and impaired glucose tolerance appear to indicate the failure "
                                "of the beta cell to produce enough insulin.", SYNDROME, source_text=SYNDROME) == []
    (tag,) = detect_hedge_removed(TERT.replace("should have", "has"), TERT, source_text=TERT)
    assert (tag.confidence, spans(tag)) == (0.7, ("", "should have"))


def test_a_power_of_ten_in_brackets_is_read():
    """29 C13 (*partial*, no tag): "5 x 10(6) syngeneic MSCs" for "5 x 10(5)"."""
    assert [(q.text, q.lo) for q in extract_quantities(MSC)][:1] == [("5 \u00d7 10(5)", 500000.0)]
    (tag,) = proven(detect_number_drift, MSC.replace("10(5)", "10(6)"), MSC)
    assert spans(tag) == ("5 \u00d7 10(6)", "5 \u00d7 10(5)")


def test_all_for_a_group_the_sentence_qualifies():
    """29 C30 and 28 C30 (*partial*, 0.8 unproven): "in all individuals with chronic viral infections" for "in
    HIV-infected individuals"; "in all cardiac patients" for "in patients with previous myocardial infarction"."""
    (tag,) = proven(detect_scope_inflation, "CD8(+) T cells are activated in an antigen-independent manner in all "
                    "individuals with chronic viral infections.", CD8)
    assert spans(tag) == ("all", "HIV-infected")
    (tag,) = proven(detect_scope_inflation, QT.replace("patients with previous myocardial infarction",
                                                       "all cardiac patients"), QT)
    assert spans(tag) == ("all cardiac patients", "patients with previous myocardial infarction") and escalates(tag)
