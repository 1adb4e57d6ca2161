"""Issue 28: what the hundred-and-forty-third to hundred-and-forty-sixth new users' trials found (2026-12-07,
session 27; held out on `68cf2fb`: 13, 12, 8 and 12 of 20 false claims caught, 1, 1, 5 and 3 called *supported*;
faithful paraphrases 0, 1, 0 and 2 called *unsupported* or *contradicted*). Each rule beside its faithful twin. No
model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): LAR in the hemopoietic system (doc
21392223), PTEN loss and PI3K activation (15113221), quality of life in advanced heart failure (37029185) and Stathmin
in endometrial carcinoma (2389574); the list of switched drugs is trial 115's (44384384).
"""

from __future__ import annotations

from citeproof.detectors.across import ends_moved_across
from citeproof.detectors.denials import negation_in_run
from citeproof.detectors.swaps import detect_term_swap
from citeproof.text.sentences import split_sentences

LAR = ("In contrast to the c-kit(+)B220(+)CD19(+) pre-BI cells from normal mice, counterparts of pre-BI cells from "
       "PAX-5-deficient mice express LAR, indicating that PAX-5-mediated commitment to the B cell lineage results in "
       "suppression of LAR.")
PI3K = ("The oncogenic phosphatidylinositol 3-kinase (PI3K) pathway is frequently activated in solid tumors; however, "
        "currently, no reliable test for PI3K pathway activation exists for human tumors.")
HEART = ("Self-reported functional status, depression, and hostility accounted for 43% of the variance in total "
         "psychosocial adjustment to illness.")
SWITCHES = ("Among 8715 patients treated initially with clopidogrel, 994 (11.4%) were switched to prasugrel or "
            "ticagrelor; switching occurred primarily after percutaneous coronary intervention (60.9%) and at the time "
            "of hospital discharge (26.7%). Among 3284 patients treated initially with prasugrel or ticagrelor, 448 "
            "(13.6%) were switched to clopidogrel.")
STATHMIN = ("Stathmin analysis in preoperative curettage samples significantly correlated with, and was an independent "
            "predictor of, lymph node metastases.")


def _tag(rule, claim: str, source: str):
    tag = rule(claim, split_sentences(source), source)
    return None if tag is None else (tag.name, tag.proven)


def test_what_accounts_for_what_past_the_commas_of_a_list():
    """Trial 146's 8 (*supported*, P(entails) 0.94): the sentence's subject is a list ("Self-reported functional
    status, depression, and hostility accounted for ..."), whose commas had bounded its clause. An opening phrase
    before a comma is no list (trial 115's faithful claim on the switched drugs stays clear)."""
    assert _tag(ends_moved_across, "Psychosocial adjustment to illness accounted for 43% of the variance in "
                "self-reported functional status, depression, and hostility.", HEART) == ("polarity_flip", True)
    assert _tag(ends_moved_across, "Self-reported functional status, depression and hostility together accounted for 43% "
                "of the variance in psychosocial adjustment to illness.", HEART) is None
    assert _tag(ends_moved_across, "When patients on prasugrel or ticagrelor were switched to clopidogrel, about half of "
                "the switches happened at hospital discharge.", SWITCHES) is None


def test_a_negation_that_ends_its_clause_denies_nothing_after_it():
    """Trial 144's faithful 27 (*contradicted*, a proven flip): "whereas normal pre-BI cells do not, commitment to the
    B cell lineage ..." read *not commitment*."""
    assert _tag(negation_in_run, "Because pre-BI-like cells from PAX-5-deficient mice express LAR whereas normal pre-BI "
                "cells do not, commitment to the B cell lineage driven by PAX-5 appears to suppress LAR.", LAR) is None


def test_no_before_a_noun_whatever_word_stands_before_it():
    """Trial 145's 20 (*supported*, 0.89): "and reliable tests for PI3K pathway activation already exist" for
    "currently, no reliable test for PI3K pathway activation exists"."""
    assert _tag(negation_in_run, "The oncogenic PI3K pathway is frequently activated in solid tumors, and reliable tests "
                "for PI3K pathway activation already exist for human tumors.", PI3K) == ("polarity_flip", True)
    assert _tag(negation_in_run, "The PI3K pathway is often activated in solid tumors, yet no reliable test for PI3K "
                "pathway activation exists for human tumors.", PI3K) is None


def test_status_for_analysis_is_no_swap():
    """Trial 146's faithful 7 (*unsupported*, 'status' / 'analysis' a proven swap)."""
    assert detect_term_swap("Stathmin status in preoperative curettage samples was an independent predictor of lymph "
                            "node metastases.", STATHMIN, source_text=STATHMIN) == []
