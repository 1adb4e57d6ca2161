"""Issue 28: what the thirty-sixth to forty-second new users' trials found (2026-12-06, session 22; held out, 36-38 on
`fdfd956`: 14, 19 and 18 of 20 false claims caught, 1, 0 and 0 supported; 39-42 on `6b66e38`: 15, 16, 15 and 11
caught, 2, 3, 1 and 4 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the costs of HIV/TB care to patients
(doc 13914633), FBW7 and KLF2 in endothelial cells (33068577), ambulatory blood pressure and renal function in
chronic kidney disease (8318922), body-mass index and mortality in Korea (11630388), N-acetylcysteine in the nucleus
accumbens (4700428), AFF1 and AFF4 in osteogenesis (25022826), the Keap1-Nrf2 system (6259170), the omega-6/omega-3
ratio in angiogenesis (18375089), IL-17 and G-CSF in granulopoiesis (24612804).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.quantities import extract_quantities, quantities_match
from tests.meaning_cases import escalates, proven, spans

COSTS = ("RESULTS Total monthly health expenditures [1 USD = 7.3 South African Rand (ZAR)] were ZAR 171 [95% confidence "
         "interval (CI): 134 to 207] for pre-ART, ZAR 164 (95% CI: 141 to 187) for ART, and ZAR 122 (95% CI: 105 to 140) "
         "for TB patients (P = 0.01). Although overall patient costs were similar across groups, pre-ART patients spent "
         "on average ZAR 29.2 more on traditional healers and ZAR 25.9 more on chemists and private doctors than ART "
         "patients, whereas ART patients spent ZAR 34.0 more than pre-ART patients on transport to clinics (P < 0.05 for "
         "all results). Thirty-one percent of pre-ART, 39% of ART, and 41% of TB patients borrowed money or sold assets "
         "to finance health care.")
FBW7 = ("We identified the zinc finger transcription factor Krüppel-like factor 2 (KLF2) as a physiological target of "
        "FBW7 in endothelial cells. The siRNA-mediated knockdown of FBW7 showed that KLF2 is an essential target of FBW7 "
        "in the regulation of endothelial functions.")
CKD = ("The purpose of this cross-sectional study was to examine whether the variables of ambulatory BP and the heart "
       "rate (HR) profile, central hemodynamics, and arterial stiffness were closely related to the renal function "
       "parameters (urine albumin excretion rate [UACR] and estimated glomerular filtration rate [eGFR]) observed in 25 "
       "consecutive hospitalized hypertensive patients with CKD. There were significant positive relationships between "
       "UACR and 24-hour, daytime, and nighttime ambulatory systolic BP.")


def test_a_share_never_matches_a_whole_number_by_its_rounding():
    """36 C15 (*partial*, 0.9 unproven): "61% of TB patients" for "41%" was "stated" by the "1" of "1 USD = 7.3 ZAR"
    (61% as 0.61, within the rounding of 1)."""
    assert not quantities_match(extract_quantities("61% of TB patients")[0], extract_quantities("1 USD")[0])
    assert quantities_match(extract_quantities("61% of TB patients")[0], extract_quantities("a share of 0.61")[0])
    (tag,) = proven(detect_number_drift, "Thirty-one percent of pre-ART, 39% of ART, and 61% of TB patients borrowed "
                    "money or sold assets to finance health care.", COSTS)
    assert spans(tag) == ("61%", "41%") and escalates(tag)


def test_a_degree_word_turned_twice_in_a_restating_sentence():
    """36 C28 (*partial*, no tag): "ZAR 29.2 less on traditional healers and ZAR 25.9 less on chemists" for "more"."""
    (tag,) = proven(detect_polarity_flip, "Pre-ART patients spent on average ZAR 29.2 less on traditional healers and ZAR "
                    "25.9 less on chemists and private doctors than ART patients.", COSTS)
    assert spans(tag) == ("less", "more") and escalates(tag)
    assert not proven(detect_polarity_flip, "Pre-ART patients spent on average ZAR 29.2 more on traditional healers and "
                      "ZAR 25.9 more on chemists and private doctors than ART patients.", COSTS)


def test_the_named_ends_of_a_relation_exchanged_past_a_description():
    """36 C2 (*supported*): "FBW7 as a physiological target of the zinc finger transcription factor Krüppel-like factor
    2 (KLF2)" for "KLF2 as a physiological target of FBW7"; a name before the relation noun ("the CCR7 ligand") says
    whose, and is no end (tests/test_meaning_trial3.py)."""
    # read as the source writes it (run_detectors_text: "Krüppel-like factor 2 (KLF2)" is "KLF2"), as the pipeline does
    (tag,) = [t for t in run_detectors_text("The authors identified FBW7 as a physiological target of the zinc finger "
                                            "transcription factor Krüppel-like factor 2 (KLF2) in endothelial cells.",
                                            FBW7, source_text=FBW7) if t.proven]
    assert (tag.name, spans(tag)) == ("polarity_flip", ("FBW7", "KLF2")) and escalates(tag)
    assert not proven(detect_polarity_flip, "The authors identified KLF2 as a physiological target of FBW7 in "
                      "endothelial cells.", FBW7)


def test_a_study_population_moved_to_the_front_is_no_exchange():
    """37 C10, faithful, was *contradicted* by a proven exchange of "25 hospitalized hypertensive patients with CKD"
    and "ambulatory" against the study's purpose sentence, which states no finding."""
    claim = ("In a cross-sectional study of 25 hospitalized hypertensive patients with chronic kidney disease, urinary "
             "albumin excretion was higher in those with higher 24-hour, daytime and nighttime ambulatory systolic "
             "blood pressure.")
    source = ("Strict blood pressure (BP) control is reportedly important for the management of hypertensive patients "
              "with chronic kidney disease (CKD). " + CKD)
    assert [t for t in run_detectors_text(claim, source, source_text=source) if t.proven] == []


BMI = ("In all groups, the risk of death from respiratory causes was higher among subjects with a lower BMI, and the risk "
       "of death from atherosclerotic cardiovascular disease or cancer was higher among subjects with a higher BMI.")
AFF1 = "Mechanistically, we find that AFF1 regulates the expression of DKK1 via binding to its promoter region."
NAC = ("METHODS Rats were trained to self-administer cocaine for 2 weeks and following extinction received either "
       "intra-accumbens NAC or systemic NAC 30 or 120 minutes, respectively, before inducing reinstatement with a "
       "conditioned cue or a combined cue and cocaine injection.")
OMEGA = ("It is well established that the metabolites of omega-6 and omega-3 fatty acids, which must be obtained through "
         "the diet and cannot be synthesized de novo in mammals, have differential effects on cellular processes. "
         "However, most studies thus far have failed to account for the role of the n-6 FA/n-3 FA ratio in angiogenesis "
         "and instead examined the absolute levels of n-6 and n-3 FA.")
IL17 = "However, IL-17 also protects mice from G-CSF neutralization-induced neutropenia."


def test_two_opposites_exchanged_between_clauses():
    """39 C30 (*supported*): "higher among subjects with a higher BMI, and ... with a lower BMI" for the other way."""
    claim = BMI.replace("a lower BMI", "TMP").replace("a higher BMI", "a lower BMI").replace("TMP", "a higher BMI")
    (tag,) = proven(detect_polarity_flip, claim, BMI)
    assert spans(tag) == ("higher", "lower") and escalates(tag)
    assert not proven(detect_polarity_flip, BMI, BMI)


def test_a_verb_between_two_names_turned_round():
    """40 C27 (*supported* at 0.97): "DKK1 regulates the expression of AFF1" for "AFF1 regulates ... DKK1"."""
    (tag,) = proven(detect_polarity_flip, "Mechanistically, DKK1 regulates the expression of AFF1 via binding to its "
                    "promoter region.", AFF1)
    assert spans(tag) == ("DKK1", "AFF1") and escalates(tag)
    assert not proven(detect_polarity_flip, "Mechanistically, AFF1 regulates the expression of DKK1 via binding to its "
                      "promoter region.", AFF1)


def test_a_number_after_a_name_with_the_unit_of_the_next():
    """40 C14 (*supported*): "NAC 60 or 120 minutes" for "NAC 30 or 120 minutes": the 60 had read as part of the name
    "NAC 60" (like "HER 2")."""
    assert [q.text for q in extract_quantities("systemic NAC 60 or 120 minutes")] == ["60", "120 minutes"]
    assert [q.text for q in extract_quantities("mutations in BRCA 1 or 2 carriers")] == ["2"]
    (tag,) = proven(detect_number_drift, "Following extinction, rats received either intra-accumbens NAC or systemic "
                    "NAC 60 or 120 minutes, respectively, before inducing reinstatement with a conditioned cue or a "
                    "combined cue and cocaine injection.", NAC)
    assert spans(tag) == ("60", "30")


def test_a_negation_after_a_conjunct_inside_the_replaced_words():
    """42 C24 (*supported*, no tag): "which can be synthesized de novo" for "which must be obtained through the diet
    and cannot be synthesized de novo"."""
    (tag,) = proven(detect_polarity_flip, "The metabolites of omega-6 and omega-3 fatty acids, which can be synthesized "
                    "de novo in mammals, have differential effects on cellular processes.", OMEGA)
    assert spans(tag) == ("can be", "cannot be") and escalates(tag)


def test_all_for_most_after_a_connective():
    """42 C22 (*partial*, 0.9 unproven): "All studies thus far" for "However, most studies thus far"."""
    (tag,) = proven(detect_scope_inflation, "All studies thus far have failed to account for the role of the n-6 FA/n-3 "
                    "FA ratio in angiogenesis and instead examined the absolute levels of n-6 and n-3 FA.", OMEGA)
    assert spans(tag) == ("All", "However most")


def test_two_hyphenated_names_exchanged_after_an_opening_however():
    """42 C5 (*supported*): "G-CSF also protects mice from IL-17 neutralization-induced neutropenia" for "However,
    IL-17 also protects mice from G-CSF ..."."""
    (tag,) = proven(detect_polarity_flip, "G-CSF also protects mice from IL-17 neutralization-induced neutropenia.", IL17)
    assert spans(tag) == ("G-CSF", "IL-17") and escalates(tag)
    assert not proven(detect_polarity_flip, "IL-17 also protects mice from G-CSF neutralization-induced neutropenia.",
                      IL17)
