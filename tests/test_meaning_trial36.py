"""Issue 28: what the thirty-sixth to thirty-eighth new users' trials found (2026-12-06, session 22, held out on
`fdfd956`: 14, 19 and 18 of 20 false claims caught, 1, 0 and 0 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the costs of HIV/TB care to patients
(doc 13914633), FBW7 and KLF2 in endothelial cells (33068577), ambulatory blood pressure and renal function in
chronic kidney disease (8318922).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.judges.policy import POLICY, escalation
from citeproof.model import Verdict
from tests.meaning_cases import proven, spans

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


def _escalates(tag) -> bool:
    to, _ = escalation(Verdict.SUPPORTED, [tag], POLICY)
    return to in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)


def test_a_share_never_matches_a_whole_number_by_its_rounding():
    """36 C15 (*partial*, 0.9 unproven): "61% of TB patients" for "41%" was "stated" by the "1" of "1 USD = 7.3 ZAR"
    (61% as 0.61, within the rounding of 1)."""
    assert not quantities_match(extract_quantities("61% of TB patients")[0], extract_quantities("1 USD")[0])
    assert quantities_match(extract_quantities("61% of TB patients")[0], extract_quantities("a share of 0.61")[0])
    (tag,) = proven(detect_number_drift, "Thirty-one percent of pre-ART, 39% of ART, and 61% of TB patients borrowed "
                    "money or sold assets to finance health care.", COSTS)
    assert spans(tag) == ("61%", "41%") and _escalates(tag)


def test_a_degree_word_turned_twice_in_a_restating_sentence():
    """36 C28 (*partial*, no tag): "ZAR 29.2 less on traditional healers and ZAR 25.9 less on chemists" for "more"."""
    (tag,) = proven(detect_polarity_flip, "Pre-ART patients spent on average ZAR 29.2 less on traditional healers and ZAR "
                    "25.9 less on chemists and private doctors than ART patients.", COSTS)
    assert spans(tag) == ("less", "more") and _escalates(tag)
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
    assert (tag.name, spans(tag)) == ("polarity_flip", ("FBW7", "KLF2")) and _escalates(tag)
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
