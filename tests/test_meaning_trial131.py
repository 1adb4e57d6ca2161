"""Issue 28: what the hundred-and-thirty-first to hundred-and-thirty-fourth new users' trials found (2026-12-07,
session 27; held out on `1339987`: 11, 10, 12 and 9 of 20 false claims caught, 1, 3, 1 and 3 called *supported*;
faithful paraphrases 0, 0, 2 and 1 called *unsupported* or *contradicted*), with two misses of trial 127 the same
rules read. Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): mortality in eastern Europe (doc
19961177), lithium in SCA1 mice (31884697), DNA and neutrophil proteases in CF sputum (46517055), chromatin and histone
modifications (8267678), L-threonine engineering in E. coli (1818578), Tie2 and Angiopoietin-1 in the bone marrow niche
(17271462), ghrelin and adipocytes (31564409) and acetylcysteine before contrast agents (140098548).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven
from citeproof.detectors.across import sides_exchanged
from citeproof.detectors.denials import negation_dropped_in_clause, negation_in_run
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.pairings import respective_order_turned, role_names_exchanged, setting_moved
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.detectors.reversals import restated_flip
from citeproof.detectors.swaps import detect_term_swap
from citeproof.text.sentences import split_sentences

MORTALITY = ("RESULTS A divergence in the trends for all cause mortality between eastern Europe and the western nations "
             "occurred in about 1970, when the rates in western countries steadily declined but those in eastern "
             "Europe remained fairly static. In the age group 0-64 mortality from causes considered amenable to "
             "medical care fell less quickly in eastern Europe than in the West, particularly after 1970.")
SCA1 = ("Caused by an expanded polyglutamine tract in ataxin 1 (ATXN1), SCA1 pathogenesis involves a multifactorial "
        "process that likely begins with misfolding of ATXN1, which has functional consequences on its interactions, "
        "leading to transcriptional dysregulation.")
SPUTUM = ("Treating CF sputum with DNase dramatically increases its elastase activity, which can then be "
          "stoichiometrically inhibited by exogenous elastase inhibitors. However, DNase treatment does not increase "
          "the activities of protease 3 and cathepsin G, indicating their different distribution and/or binding in CF "
          "sputum. Combining the effects of protease inhibitors with that of DNA-degrading agents could counter the "
          "deleterious proteolytic effects of NSPs in CF lung secretions.")
CHROMATIN = ("Chromatin is not an inert structure, but rather an instructive DNA scaffold that can respond to external "
             "cues to regulate the many uses of DNA. A principle component of chromatin that plays a key role in this "
             "regulation is the modification of histones.")
THREONINE = ("Feedback inhibitions of aspartokinase I and III (encoded by thrA and lysC, respectively) and "
             "transcriptional attenuation regulations (located in thrL) were removed. Pathways for Thr degradation were "
             "removed by deleting tdh and mutating ilvA.")
TIE2 = ("Here, we demonstrate that HSCs expressing the receptor tyrosine kinase Tie2 are quiescent and antiapoptotic, "
        "and comprise a side-population (SP) of HSCs, which adhere to osteoblasts (OBs) in the BM niche. The interaction "
        "of Tie2 with its ligand Angiopoietin-1 (Ang-1) induced cobblestone formation of HSCs in vitro and maintained "
        "in vivo long-term repopulating activity of HSCs.")
GHRELIN = ("The expression of the ghrelin receptor (growth hormone secretagogue receptor, GHS-R) was analyzed in omental "
           "adipose tissue using western blot and immunohistochemistry, and the effect of acylated ghrelin and desacyl "
           "ghrelin (0.1–1000 pmol l−1) on adipogenesis was determined in vitro in omental adipocytes.")
CREATININE = ("In the acetylcysteine group, the mean serum creatinine concentration decreased significantly (P<0.001), "
              "from 2.5+/-1.3 to 2.1+/-1.3 mg per deciliter 48 hours after the administration of the contrast medium, "
              "whereas in the control group, the mean serum creatinine concentration increased nonsignificantly "
              "(P=0.18), from 2.4+/-1.3 to 2.6+/-1.5 mg per deciliter.")


def _tag(rule, claim: str, source: str):
    tag = rule(claim, split_sentences(source), source)
    return None if tag is None else (tag.name, tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span)


def test_subjects_exchanged_between_two_clauses_side_by_side():
    """Trial 127's 9 (*supported*, P(entails) 0.92): east and west exchanged across *while* / *but*, *declined* and
    *static* staying in their clauses. The clauses put the other way round, each whole, and a faithful paraphrase
    are no exchange."""
    assert _tag(sides_exchanged, "Around 1970 the trends diverged, as all-cause mortality rates in eastern Europe "
                "steadily declined while those in the western countries remained fairly static.", MORTALITY
                ) == ("polarity_flip", True, "eastern", "western")
    assert _tag(sides_exchanged, "Around 1970 the trends diverged, as mortality rates in eastern Europe remained "
                "fairly static while those in the western countries steadily declined.", MORTALITY) is None
    assert _tag(sides_exchanged, "Around 1970 the trends diverged, as the rates in western countries steadily "
                "declined while those in eastern Europe remained fairly static.", MORTALITY) is None


def test_two_events_put_in_the_other_order_around_leads_to():
    """Trial 127's 21 (*supported*, 0.96): misfolding leads to transcriptional dysregulation, not the reverse. The
    order kept, in other words, is no exchange; nor is *is preceded by* (the order turned in words)."""
    assert _tag(sides_exchanged, "SCA1 pathogenesis likely begins with transcriptional dysregulation, which leads to "
                "misfolding of ATXN1 and altered interactions.", SCA1)[:3] == ("polarity_flip", True, "transcriptional")
    assert _tag(sides_exchanged, "SCA1 pathogenesis likely begins with misfolding of ATXN1, which leads to altered "
                "interactions and transcriptional dysregulation.", SCA1) is None


def test_an_approximate_year_is_not_ten_years_off():
    """Trial 127's 25 (*partial*, no tag): "about 1980" matched "about 1970" within the 12% slack of an approximate
    quantity. Two years' slack for a year; a proven drift on the restating sentence."""
    tags = detect_number_drift("A divergence in all-cause mortality trends between eastern Europe and the western "
                               "nations occurred in about 1980.", MORTALITY, source_text=MORTALITY)
    assert [(t.proven, t.evidence[0].claim_span, t.evidence[0].evidence_span) for t in tags] == [
        (True, "about 1980", "about 1970")]
    assert detect_number_drift("A divergence in all-cause mortality trends between eastern Europe and the western "
                               "nations occurred around 1971.", MORTALITY, source_text=MORTALITY) == []
    about, exact = extract_quantities("about 12%")[0], extract_quantities("13%")[0]
    assert quantities_match(about, exact)  # the slack of other approximate quantities is unchanged


def test_a_verb_negated_with_does_is_a_denial_whatever_word_stands_before_it():
    """Trial 132's 12 (*partial*, P(entails) 0.65): "DNase treatment of CF sputum also increases the activities of
    protease 3" for "DNase treatment does not increase ...": the claim's word before the verb (*also*) is free when
    the sentence negates with *does*, and the verb's forms compare by stem."""
    tag = negation_in_run("DNase treatment of CF sputum also increases the activities of protease 3 and cathepsin G.",
                          split_sentences(SPUTUM), SPUTUM)
    assert (tag.name, tag.proven) == ("polarity_flip", True) and "leaves out 'not'" in tag.message
    assert negation_in_run("DNase treatment does not increase the activities of protease 3 and cathepsin G in CF "
                           "sputum.", split_sentences(SPUTUM), SPUTUM) is None


def test_a_short_first_clause_without_the_sources_not():
    """Trial 132's 16 (*supported*, 0.94): "Chromatin is an inert structure, serving as a DNA scaffold ...": three
    content words before the comma, read on sentences restating the whole claim."""
    tag = negation_dropped_in_clause("Chromatin is an inert structure, serving as a DNA scaffold for the many uses of "
                                     "DNA.", split_sentences(CHROMATIN), CHROMATIN)
    assert (tag.name, tag.proven) == ("polarity_flip", True)
    assert negation_dropped_in_clause("Chromatin is not an inert structure, serving rather as an instructive DNA "
                                      "scaffold for the many uses of DNA.", split_sentences(CHROMATIN), CHROMATIN) is None


def test_exacerbate_for_counter_is_a_reversal():
    """Trial 132's 9 (*partial*, an unproven swap): *counter* and *exacerbate* are opposites (cues.ANTONYMS)."""
    tag = restated_flip("Combining protease inhibitors with DNA-degrading agents could exacerbate the deleterious "
                        "proteolytic effects of NSPs in CF lung secretions.", split_sentences(SPUTUM),
                        split_sentences(SPUTUM), SPUTUM)
    assert (tag.name, tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (
        "polarity_flip", True, "exacerbate", "counter")
    assert restated_flip("Combining protease inhibitors with DNA-degrading agents could counter the deleterious "
                         "proteolytic effects of NSPs in CF lung secretions.", split_sentences(SPUTUM),
                         split_sentences(SPUTUM), SPUTUM) is None


def test_a_ranges_end_changed_is_a_drift_and_a_bare_number_inside_it_no_match():
    """Trial 134's 5 (*partial*): "0.1–100 pmol l−1" for "0.1–1000 pmol l−1" had matched the bare "1" of "l−1"
    inside the range. A bare number at the range's end still matches ("from 2.4 to 2.6 mg" / "from 2.4+/-1.3 to
    2.6+/-1.5 mg", the unit written once)."""
    tags = detect_number_drift("The effect of acylated and desacyl ghrelin on adipogenesis was tested in vitro in "
                               "omental adipocytes at concentrations of 0.1–100 pmol l−1.", GHRELIN, source_text=GHRELIN)
    assert [(t.proven, t.evidence[0].claim_span, t.evidence[0].evidence_span) for t in tags] == [
        (True, "0.1–100 pmol", "0.1–1000 pmol")]
    assert detect_number_drift("The effect of acylated and desacyl ghrelin on adipogenesis was determined in vitro in "
                               "omental adipocytes at 0.1–1000 pmol l−1.", GHRELIN, source_text=GHRELIN) == []
    assert detect_number_drift("In the control group, the mean serum creatinine concentration rose from 2.4 to 2.6 mg "
                               "per deciliter.", CREATININE, source_text=CREATININE) == []


def test_a_respectively_list_in_the_other_order():
    """Trial 132's 11 (*supported*, 0.93): which gene encodes which enzyme turned by the list before *respectively*."""
    assert _tag(respective_order_turned, "Feedback inhibition was removed from aspartokinase I and III, which are "
                "encoded by lysC and thrA, respectively.", THREONINE) == ("polarity_flip", True, "lysC and thrA",
                                                                          "thrA and lysC")
    assert _tag(respective_order_turned, "Feedback inhibition was removed from aspartokinase I and III, encoded by "
                "thrA and lysC, respectively.", THREONINE) is None


def test_a_role_noun_before_the_other_name():
    """Trial 134's 11 (*supported*, 0.96): "its ligand Tie2" for "Tie2 with its ligand Angiopoietin-1"; the pipeline
    writes the claim's *Angiopoietin-1* as the source's short form *Ang-1*, and the rule reads both."""
    for name in ("Angiopoietin-1", "Ang-1"):
        assert _tag(role_names_exchanged, f"Binding of the receptor {name} to its ligand Tie2 induced cobblestone "
                    "formation of HSCs in vitro.", TIE2) == ("polarity_flip", True, "ligand Tie2",
                                                             "ligand Angiopoietin-1")
    assert _tag(role_names_exchanged, "Binding of Tie2 to its ligand Angiopoietin-1 induced cobblestone formation of "
                "HSCs in vitro.", TIE2) is None


def test_in_vivo_moved_onto_the_finding_made_in_vitro():
    """Trial 134's 24 (*supported*, 0.97): the sentence holds both settings, each of its own finding."""
    assert _tag(setting_moved, "Angiopoietin-1 signalling through Tie2 was shown to induce cobblestone formation of "
                "HSCs in vivo and to maintain their long-term repopulating activity.", TIE2) == (
        "scope_inflation", True, "in vivo", "in vitro")
    assert _tag(setting_moved, "Angiopoietin-1 signalling through Tie2 induced cobblestone formation of HSCs in vitro "
                "and maintained their repopulating activity in vivo.", TIE2) is None
    assert "scope_inflation" in _proven("Tie2 and its ligand Angiopoietin-1 induce cobblestone formation of HSCs in "
                                        "vivo.", TIE2)


def test_one_word_for_a_phrase_and_method_verbs_are_no_swap():
    """Trial 134's faithful 22 (*unsupported*: "resistant to apoptosis" for "antiapoptotic" a proven swap) and 5
    ("tested" for "determined", an unproven one)."""
    assert not [t for t in detect_term_swap("HSCs that express Tie2 are quiescent and resistant to apoptosis, and they "
                                            "adhere to osteoblasts in the BM niche.", TIE2, source_text=TIE2)]
    assert not [t for t in detect_term_swap("The effect of acylated and desacyl ghrelin (0.1–1000 pmol l−1) on "
                                            "adipogenesis was tested in vitro in omental adipocytes.", GHRELIN,
                                            source_text=GHRELIN)]
