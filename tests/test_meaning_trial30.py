"""Issue 28: what the thirtieth to thirty-second new users' trials found (2026-12-06, session 22, held out on
`a7788ab`: 15, 16 and 13 of 20 false claims caught, 2, 2 and 1 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): habitual exercise and arterial compliance
(doc 752423), HMGB1 in peripheral artery disease (21372171), preimplantation culture of mouse embryos (13441537),
olmesartan against ramipril in elderly patients (22730024).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.judges.policy import POLICY, escalation
from citeproof.model import Verdict
from tests.meaning_cases import proven, spans

COMPLIANCE = ("However, arterial compliance in the endurance-trained middle-aged and older men was 20% to 35% higher than "
              "in the 2 less active groups (P:<0.01). As such, age-related differences in central arterial compliance "
              "were smaller in the endurance-trained men than in the sedentary and recreationally active men.")
HMGB1 = ("We found that the concentrations of HMGB1 were increased in the plasma of the patients with atherosclerosis, "
         "and there were significant correlations between the plasma HMGB1 and fibrinogen levels.")
CULTURE = ("These M16 + FCS fetuses were reduced in weight as compared with controls and M16 fetuses and had decreased "
           "expression of the imprinted H19 and insulin-like growth factor 2 genes associated with a gain of DNA "
           "methylation at an imprinting control region upstream of H19. No alterations were detected for the "
           "imprinted gene Mest.")
OLMESARTAN = ("CONCLUSIONS Olmesartan medoxomil provides a more effective and sustained 24-h BP control than ramipril in "
              "elderly hypertensive patients, particularly in the hours farthest from last intake.")


def _escalates(tag) -> bool:
    to, _ = escalation(Verdict.SUPPORTED, [tag], POLICY)
    return to in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)


def test_coordinated_groups_compared_the_other_way_round():
    """31 C17 (*supported*): "smaller in the sedentary and recreationally active men than in the endurance-trained
    men" for the other way round; each compared term is read whole past its *and*."""
    claim = ("Age-related differences in central arterial compliance were smaller in the sedentary and recreationally "
             "active men than in the endurance-trained men.")
    (tag,) = proven(detect_polarity_flip, claim, COMPLIANCE)
    assert spans(tag) == ("smaller in the sedentary and recreationally active men than in the endurance-trained men",
                          "smaller in the endurance-trained men than in the sedentary and recreationally active men")
    assert _escalates(tag)
    assert not proven(detect_polarity_flip, "Age-related differences in central arterial compliance were smaller in "
                      "the endurance-trained men than in the sedentary and recreationally active men.", COMPLIANCE)


def test_a_direction_turned_before_the_same_object_in_a_sentence_holding_the_claim():
    """32 C4 (*supported*): "increased expression of the imprinted gene H19" where the sentence holding every other
    word of the claim but its verb says "decreased expression of the imprinted H19"; its other direction word
    ("reduced in weight") is of another thing."""
    (tag,) = proven(detect_polarity_flip, "The M16 + FCS fetuses also displayed increased expression of the imprinted "
                    "gene H19.", CULTURE)
    assert spans(tag) == ("increased", "decreased") and _escalates(tag)
    assert not proven(detect_polarity_flip, "The M16 + FCS fetuses also displayed decreased expression of the imprinted "
                      "gene H19.", CULTURE)


def test_a_turned_direction_with_one_adverb_more_is_proven():
    """What test_detectors' A20 example had shown unproven (0.85): every other content word of the claim but
    *markedly* is in the sentence, so the turned word is shown by code."""
    ev = "Inhibiting A20 expression decreased GSC growth and survival."
    (tag,) = proven(detect_polarity_flip, "Inhibiting A20 expression markedly increased GSC growth and survival.", ev)
    assert spans(tag) == ("increased", "decreased")


def test_the_sources_opening_negation_where_the_claim_names_its_context():
    """32 C29 (*partial*, no tag): "In the M16 + FCS fetuses, alterations were detected for the imprinted gene Mest"
    for "No alterations were detected for the imprinted gene Mest"."""
    (tag,) = proven(detect_polarity_flip, "In the M16 + FCS fetuses, alterations were detected for the imprinted gene "
                    "Mest.", CULTURE)
    assert spans(tag) == ("alterations", "No alterations") and _escalates(tag)
    assert not proven(detect_polarity_flip, "In the M16 + FCS fetuses, no alterations were detected for the imprinted "
                      "gene Mest.", CULTURE)


def test_of_all_ages_where_the_source_names_an_age_group():
    """32 C2 (*partial*, 0.9 unproven): "in hypertensive patients of all ages" for "in elderly hypertensive patients"."""
    (tag,) = proven(detect_scope_inflation, "Olmesartan medoxomil provides a more effective and sustained 24-h BP control "
                    "than ramipril in hypertensive patients of all ages, particularly in the hours farthest from last "
                    "intake.", OLMESARTAN)
    assert spans(tag) == ("of all ages", "elderly") and _escalates(tag)


def test_a_correlation_told_as_one_term_raising_the_other():
    """31 C3 (*supported*): "HMGB1 significantly increased the fibrinogen levels" for "significant correlations
    between the plasma HMGB1 and fibrinogen levels": *partial* (0.7), never more; "X increases risk of Y" is how an
    association is reported, no overclaim."""
    (tag,) = detect_causal_overclaim("In the plasma of the patients with atherosclerosis, HMGB1 significantly increased "
                                     "the fibrinogen levels.", HMGB1, source_text=HMGB1)
    assert (tag.name, tag.confidence, tag.proven, tag.evidence[0].claim_span) == ("causal_overclaim", 0.7, False,
                                                                                   "increased")
    risk = "The association between haplogroup I and increased risk of coronary artery disease was independent."
    assert detect_causal_overclaim("In British men, haplogroup I increases risk of coronary artery disease.", risk,
                                   source_text=risk) == []


def test_words_of_one_meaning_are_no_swap():
    """Faithful claims of trials 24-31 tagged ``term_swap`` 0.7: *elderly* / *older*, *comparable* / *similar*,
    *uptake* / *consumption*."""
    source = "Participants aged 60 years and older had similar mortality and comparable oxygen consumption."
    assert detect_term_swap("Elderly participants had comparable mortality and similar oxygen uptake.", source,
                            source_text=source) == []
    assert detect_term_swap("Participants aged 60 years and older had similar mortality and comparable oxygen uptake.",
                            source, source_text=source) == []  # was a proven swap
