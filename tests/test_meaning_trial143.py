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


# Trials 147-150 (held out on `a1b23ec`: 11, 13, 11 and 14 of 20 caught, 2, 3, 5 and 0 supported; faithful against
# 0, 0, 1, 1): the GluA2 review (doc 7729656), beta-catenin in the liver (3710557), late presentation of HIV (46353045).
IGLUR = ("Ionotropic glutamate receptors (iGluRs) constitute a family of ligand-gated ion channels that are essential for "
         "mediating fast synaptic transmission in the central nervous system.")
LIVER = ("Many hepatic tumors such as hepatocellular adenomas, hepatocellular cancers, and hepatoblastomas have mutations in "
         "CTNNB1 that result in constitutive activation of β-catenin, so this molecule could be a therapeutic target.")
HIV = ("In the Western world, approximately 10 and 30% of HIV-infected individuals still present with CD4+ T-cells <50 and "
       "<200/microl, respectively; estimates are substantially higher for developing countries.")


def test_a_greek_letter_and_its_name_are_one_word():
    """Trial 148: *beta-catenin* for the source's *β-catenin* made nine faithful paraphrases *partial* (a swap) and
    hid *inactivation* for *activation* (its 14, *supported*): stems spell Greek letters out."""
    from citeproof.detectors.runs import reversal_in_run
    from citeproof.text.normalise import stem

    assert stem("β-catenin") == stem("beta-catenin") == "beta-catenin" and stem("ERα") != stem("ERβ")
    assert _tag(reversal_in_run, "Many hepatic tumors such as hepatoblastomas have mutations in CTNNB1 that result in "
                "constitutive inactivation of beta-catenin.", LIVER) == ("polarity_flip", True)
    assert _tag(reversal_in_run, "Many hepatic tumors such as hepatoblastomas have mutations in CTNNB1 that result in "
                "constitutive activation of beta-catenin.", LIVER) is None


def test_a_share_is_no_bare_bound():
    """Trial 148's 29 (*supported*): "10 and 50%" matched the "<50" of "CD4+ T-cells <50 and <200/microl" beside the
    source's "10 and 30%"."""
    from citeproof.detectors.numbers import detect_number_drift

    (tag,) = detect_number_drift("In the Western world, approximately 10 and 50% of HIV-infected individuals still "
                                 "present with CD4+ T-cells <50 and <200/microl, respectively.", HIV, source_text=HIV)
    assert tag.proven and (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("50%", "30%")
    assert detect_number_drift("In the Western world, about 10 and 30% of HIV-infected individuals still present with "
                               "CD4+ T-cells <50 and <200/microl.", HIV, source_text=HIV) == []


def test_form_for_constitute_is_no_swap():
    """Trial 149's faithful 1 (*unsupported*, 'form' / 'constitute' a proven swap)."""
    tags = detect_term_swap("Ionotropic glutamate receptors form a family of ligand-gated ion channels that are "
                            "essential for fast synaptic transmission in the central nervous system.", IGLUR,
                            source_text=IGLUR)
    assert not [t for t in tags if t.proven or t.evidence[0].evidence_span == "constitute"]
