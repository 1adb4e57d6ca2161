"""Issue 28: what the thirtieth to thirty-fifth new users' trials found (2026-12-06, session 22; held out, 30-32 on
`a7788ab`: 15, 16 and 13 of 20 false claims caught, 2, 2 and 1 supported; 33-35 on `bf4866d`: 15, 17 and 13
caught, 1, 0 and 1 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): habitual exercise and arterial compliance
(doc 752423), HMGB1 in peripheral artery disease (21372171), preimplantation culture of mouse embryos (13441537),
olmesartan against ramipril in elderly patients (22730024), RFID interference with medical devices (997143),
peripheral arterial disease in the elderly (1358909), hypnotics and sleep apnoea (5431268).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

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


def test_coordinated_groups_compared_the_other_way_round():
    """31 C17 (*supported*): "smaller in the sedentary and recreationally active men than in the endurance-trained
    men" for the other way round; each compared term is read whole past its *and*."""
    claim = ("Age-related differences in central arterial compliance were smaller in the sedentary and recreationally "
             "active men than in the endurance-trained men.")
    (tag,) = proven(detect_polarity_flip, claim, COMPLIANCE)
    assert spans(tag) == ("smaller in the sedentary and recreationally active men than in the endurance-trained men",
                          "smaller in the endurance-trained men than in the sedentary and recreationally active men")
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "Age-related differences in central arterial compliance were smaller in "
                      "the endurance-trained men than in the sedentary and recreationally active men.", COMPLIANCE)


def test_a_direction_turned_before_the_same_object_in_a_sentence_holding_the_claim():
    """32 C4 (*supported*): "increased expression of the imprinted gene H19" where the sentence holding every other
    word of the claim but its verb says "decreased expression of the imprinted H19"; its other direction word
    ("reduced in weight") is of another thing."""
    (tag,) = proven(detect_polarity_flip, "The M16 + FCS fetuses also displayed increased expression of the imprinted "
                    "gene H19.", CULTURE)
    assert spans(tag) == ("increased", "decreased") and escalates(tag)
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
    assert spans(tag) == ("alterations", "No alterations") and escalates(tag)
    assert not proven(detect_polarity_flip, "In the M16 + FCS fetuses, no alterations were detected for the imprinted "
                      "gene Mest.", CULTURE)


def test_of_all_ages_where_the_source_names_an_age_group():
    """32 C2 (*partial*, 0.9 unproven): "in hypertensive patients of all ages" for "in elderly hypertensive patients"."""
    (tag,) = proven(detect_scope_inflation, "Olmesartan medoxomil provides a more effective and sustained 24-h BP control "
                    "than ramipril in hypertensive patients of all ages, particularly in the hours farthest from last "
                    "intake.", OLMESARTAN)
    assert spans(tag) == ("of all ages", "elderly") and escalates(tag)


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


RFID = ("CONTEXT Health care applications of autoidentification technologies, such as radio frequency identification "
        "(RFID), have been proposed to improve patient safety and also the tracking and tracing of medical equipment. "
        "DESIGN AND SETTING Without a patient being connected, EMI by 2 RFID systems (active 125 kHz and passive 868 "
        "MHz) was assessed under controlled conditions during May 2006, in the proximity of 41 medical devices.")
AAI = ("Subjects with an AAI <0.90 were more likely to be smokers, to have hypertension, and to have symptomatic or "
       "asymptomatic cardiovascular disease compared with subjects with an AAI of 0.90 or higher.")
HYPNOTICS = ("These doses of common hypnotics have differential effects on the respiratory arousal threshold but do not "
             "reduce upper airway muscle activity or alter airway collapsibility during sleep.")


def test_a_negation_past_a_list_item_the_claim_leaves_out():
    """33 C24 and 35 C26 (*partial*, 0.75 and 0.85): "were not more likely to be smokers or to have hypertension"
    (the sentence goes on "and to have symptomatic ... disease"); "and reduce upper airway muscle activity during
    sleep" for "but do not reduce upper airway muscle activity or alter airway collapsibility during sleep"."""
    (tag,) = proven(detect_polarity_flip, "Subjects with an AAI <0.90 were not more likely to be smokers or to have "
                    "hypertension compared with subjects with an AAI of 0.90 or higher.", AAI)
    assert spans(tag) == ("not more", "more") and escalates(tag)
    (tag,) = proven(detect_polarity_flip, "These doses of common hypnotics have differential effects on the respiratory "
                    "arousal threshold and reduce upper airway muscle activity during sleep.", HYPNOTICS)
    assert spans(tag) == ("and reduce", "but do not reduce")
    assert not proven(detect_polarity_flip, "Subjects with an AAI <0.90 were more likely to be smokers or to have "
                      "hypertension compared with subjects with an AAI of 0.90 or higher.", AAI)


def test_all_for_these_doses_of_a_kind():
    """35 C2 (*partial*, 0.8 unproven): "All hypnotics" for "These doses of common hypnotics"."""
    (tag,) = proven(detect_scope_inflation, HYPNOTICS.replace("These doses of common hypnotics", "All hypnotics"),
                    HYPNOTICS)
    assert spans(tag) == ("All", "These doses of common")


def test_have_been_proposed_to_is_a_hedge_and_may_the_month_is_none():
    """33 C27 (*supported*): "RFID improve patient safety" for "have been proposed to improve"; and "during May 2006"
    had tagged two faithful claims with a dropped hedge."""
    (tag,) = detect_hedge_removed("Health care applications of RFID improve patient safety and also the tracking and "
                                  "tracing of medical equipment.", RFID, source_text=RFID)
    assert (tag.confidence, spans(tag)) == (0.7, ("", "have been proposed to"))
    dated = RFID.split(" DESIGN AND SETTING ")[1]
    assert detect_hedge_removed("EMI by two RFID systems was assessed under controlled conditions in 2006, near 41 "
                                "medical devices.", dated, source_text=dated) == []
