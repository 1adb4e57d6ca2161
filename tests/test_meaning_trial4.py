"""Issue 28: false claims in the source's own words that a fourth new user's trial found passing (2026-12-06, three
SciFact training abstracts the detectors had never met), each rule with the faithful twin that must stay untagged.
No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): sex-based differences in the effect of
digoxin for heart failure (doc 33533307), cancer screening among cancer survivors (doc 41074251), and the
ascorbic-acid transporter Slc23a1 (doc 19799455).
"""

from __future__ import annotations

import pytest

from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

DIGOXIN = ("CONCLUSIONS The effect of digoxin therapy differs between men and women. Digoxin therapy is associated "
           "with an increased risk of death from any cause among women, but not men, with heart failure and depressed "
           "left ventricular systolic function.")
SCREENING = ("BACKGROUND Knowledge, attitudes, and risk perception in relation to second primary cancer (SPC) screening "
             "and their impact on screening practices in cancer survivors are largely unknown. RESULTS Approximately "
             "37.7% of survivors had undergone all appropriate SPC screening tests. Although there was no association "
             "found between perceived risk and positive attitudes with screening behavior, higher knowledge was noted "
             "to be significantly associated with the completion of all appropriate SPC screening (adjusted odds ratio, "
             "1.81; 95% confidence interval, 1.03-3.33).")
SLC = ("We have created mice deficient in the mouse ortholog (solute carrier family 23 member 1 or Slc23a1) of a rat "
       "ascorbic-acid transporter, Svct2 (ref. 4). Slc23a1-/- mice died within a few minutes of birth with respiratory "
       "failure and intraparenchymal brain hemorrhage. Lungs showed no postnatal expansion but had normal surfactant "
       "protein B levels.")


def test_two_groups_exchanged_across_but_not_are_a_proven_flip():
    """c29 (the judge said supported at 0.94): *men* has three letters, which the exchange rule had read as a light
    token like "al" or "ref"."""
    claim = ("Digoxin therapy is associated with an increased risk of death from any cause among men, but not women, "
             "with heart failure and depressed left ventricular systolic function.")
    [tag] = _proven(detect_polarity_flip, claim, DIGOXIN)
    assert _spans(tag) == ("men", "women")
    assert _proven(detect_polarity_flip, claim.replace("among men, but not women", "among women, but not men"),
                   DIGOXIN) == []


def test_everyone_in_the_place_of_a_group_singled_out_is_proven_scope_inflation():
    """c10 (supported at P(entails) 0.95): the finding for women, but not men, given to all patients."""
    claim = ("Digoxin therapy is associated with an increased risk of death from any cause among patients with heart "
             "failure and depressed left ventricular systolic function.")
    [tag] = _proven(detect_scope_inflation, claim, DIGOXIN)
    assert _spans(tag) == ("patients", "women but not men")
    # the group named, or a population word where the source names no group singled out: no widening shown
    assert _proven(detect_scope_inflation, claim.replace("among patients", "among women"), DIGOXIN) == []
    source = DIGOXIN.replace("among women, but not men,", "among older adults")
    assert _proven(detect_scope_inflation, claim, source) == []


@pytest.mark.parametrize("claim, source, spans", [
    # c03 (supported at 0.89): the source's "no association" dropped; the claim adds the study's population
    ("An association was found between perceived risk and positive attitudes with screening behavior among cancer "
     "survivors.", SCREENING, ("An association", "no association")),
    # c20: a "not" the claim adds, naming the mice the sentence leaves to its context
    ("Lungs of Slc23a1-/- mice showed no postnatal expansion and did not have normal surfactant protein B levels.",
     SLC, ("and did not have normal", "but had normal")),
])
def test_a_negation_on_one_side_past_the_claims_context_words_is_a_proven_flip(claim, source, spans):
    [tag] = _proven(detect_polarity_flip, claim, source)
    assert _spans(tag) == spans


@pytest.mark.parametrize("claim, source", [
    ("No association was found between perceived risk and positive attitudes with screening behavior among cancer "
     "survivors.", SCREENING),
    ("Lungs of Slc23a1-/- mice showed no postnatal expansion but had normal surfactant protein B levels.", SLC),
    # words the source never says are no context: the rule stays silent
    ("An association was found between perceived risk and positive attitudes with screening behavior among "
     "teenagers.", SCREENING),
])
def test_the_faithful_twins_and_foreign_context_are_no_proven_flip(claim, source):
    assert _proven(detect_polarity_flip, claim, source) == []


def test_a_swap_past_an_abbreviation_and_the_studys_population_is_proven():
    """c21: income for knowledge was 0.7 (not proven) because "second primary cancer" / "SPC" and the added "among
    cancer survivors" counted as differences; the source defines the one and studies the other."""
    claim = ("Higher income was noted to be significantly associated with the completion of all appropriate second "
             "primary cancer screening among cancer survivors (adjusted odds ratio, 1.81).")
    [tag] = _proven(detect_term_swap, claim, SCREENING)
    assert _spans(tag) == ("income", "knowledge")
    assert detect_term_swap(claim.replace("Higher income", "Higher knowledge"), SCREENING, source_text=SCREENING) == []


def test_a_direction_turned_past_words_the_claim_leaves_out_is_a_proven_flip():
    """c13: "markedly elevated" for the source's "undetectable or markedly reduced" was a proven ``term_swap``
    (*unsupported*); a direction word turned is a reversal, so ``polarity_flip`` proves it (*contradicted*)."""
    source = ("Ascorbic-acid levels were undetectable or markedly reduced in the blood and tissues of Slc23a1-/- mice. "
              + SLC)
    claim = "Ascorbic-acid levels were markedly elevated in the blood and tissues of Slc23a1-/- mice."
    [tag] = _proven(detect_polarity_flip, claim, source)
    assert _spans(tag) == ("elevated", "reduced")
    # since the fifth trial the run rule reads past the source's own disjunct ("undetectable or"); the path through
    # term_swap's alignment (polarity._swap_shown) still proves the same turned word
    assert "the words around it alike" in tag.message
    from citeproof.detectors.polarity import _swap_shown

    assert _swap_shown(claim, [source], "elevated", "reduced", source).startswith("Ascorbic-acid levels were undetectable")
    assert _swap_shown(claim, [source], "elevated", "undetectable", source) is None
    assert _proven(detect_polarity_flip, claim.replace("elevated", "reduced"), source) == []
