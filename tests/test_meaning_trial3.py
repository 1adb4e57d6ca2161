"""Issue 28: false claims in the source's own words that a third new user's trial found passing (2026-12-06), each
rule with the faithful twin that must stay untagged. No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020) as the trial used them: a randomized trial
of noninvasive ventilation (NIV) in transplant recipients, a study of cryptochrome and hepatic gluconeogenesis, and
a community study of heart-failure incidence and survival in Olmsted County.
"""

from __future__ import annotations

import pytest

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.quantities import extract_quantities
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

NIV = ("RESULTS The 2 groups were similar at study entry. The use of NIV was associated with a significant reduction in "
       "the rate of endotracheal intubation (20% vs 70%; P = .002), rate of fatal complications (20% vs 50%; P = .05), "
       "and intensive care unit mortality (20% vs 50%; P = .05). Hospital mortality did not differ. CONCLUSIONS These "
       "results indicate that transplantation programs should consider NIV in the treatment of selected recipients of "
       "transplantation with acute respiratory failure.")
CRY = ("Here we show that Creb activity during fasting is modulated by Cry1 and Cry2, which are rhythmically expressed in "
       "the liver. Cry1 expression was elevated during the night-day transition, when it reduced fasting gluconeogenic "
       "gene expression by blocking glucagon-mediated increases in intracellular cAMP concentrations and in the protein "
       "kinase A-mediated phosphorylation of Creb. In biochemical reconstitution studies, we found that Cry1 inhibited "
       "accumulation of cAMP in response to G protein-coupled receptor (GPCR) activation but not to forskolin, a direct "
       "activator of adenyl cyclase. As hepatic overexpression of Cry1 lowered blood glucose concentrations and improved "
       "insulin sensitivity in insulin-resistant db/db mice, our results suggest that compounds that enhance "
       "cryptochrome activity may provide therapeutic benefit to individuals with type 2 diabetes.")
HF = ("Patients were 4537 Olmsted County residents (57% women; mean [SD] age, 74 [14] years) with a diagnosis of heart "
      "failure between 1979 and 2000. RESULTS The incidence of heart failure was higher among men (378/100 000 "
      "persons; 95% confidence interval [CI], 361-395 for men; 289/100 000 persons; 95% CI, 277-300 for women) and did "
      "not change over time among men or women. Survival after heart failure diagnosis was worse among men than women "
      "(relative risk, 1.33; 95% CI, 1.24-1.43) but overall improved over time (5-year age-adjusted survival, 43% in "
      "1979-1984 vs 52% in 1996-2000, P<.001). However, men and younger persons experienced larger survival gains, "
      "contrasting with less or no improvement for women and elderly persons.")


@pytest.mark.parametrize("claim, source, spans", [
    # N4: a short sentence the claim holds whole, its "not" left out
    ("Hospital mortality differed between the NIV and standard treatment groups.", NIV, ("differed", "did not differ")),
    # C5: increased / reduced (direction cues of one axis), the sentence going on past the claim
    ("Cry1 expression was elevated during the night-day transition, when it increased fasting gluconeogenic gene "
     "expression.", CRY, ("increased", "reduced")),
    # H4: improved / declined (two axes, named as antonyms), the figures in brackets left out
    ("Survival after heart failure diagnosis was worse among men than women but overall declined over time.", HF,
     ("declined", "improved")),
    # N5: the reversal inside a run of shared words; the claim then goes on with another sentence's words
    ("The use of NIV was associated with a significant increase in the rate of endotracheal intubation in recipients "
     "of solid organ transplantation with acute respiratory failure.", NIV, ("increase", "reduction")),
])
def test_reversals_are_proven_flips(claim, source, spans):
    (tag,) = _proven(detect_polarity_flip, claim, source)
    assert tag.confidence == 0.9
    assert _spans(tag) == spans


@pytest.mark.parametrize("claim, source", [
    ("Hospital mortality did not differ between the NIV and standard treatment groups.", NIV),
    ("Cry1 expression was elevated during the night-day transition, when it reduced fasting gluconeogenic gene "
     "expression.", CRY),
    ("The use of NIV was associated with a significant reduction in the rate of endotracheal intubation in recipients "
     "of solid organ transplantation with acute respiratory failure.", NIV),
    # the source says "increases" too, of another thing: no reversal of the claim's own words
    ("Cry1 blocked glucagon-mediated increases in intracellular cAMP concentrations.", CRY),
    ("Survival after heart failure diagnosis was worse among men than women but overall improved over time.", HF),
])
def test_the_faithful_twins_are_no_flip(claim, source):
    assert not _proven(detect_polarity_flip, claim, source)


def test_a_mean_with_its_spread_in_brackets_keeps_its_unit():
    """H2: "mean age, 64 years" against "mean [SD] age, 74 [14] years" was 0.5 ("appears nowhere")."""
    assert [(q.lo, q.unit) for q in extract_quantities("mean [SD] age, 74 [14] years")] == [(74.0, "years")]
    (tag,) = detect_number_drift("Patients were 4537 Olmsted County residents (57% women; mean age, 64 years) with a "
                                 "diagnosis of heart failure between 1979 and 2000.", HF, source_text=HF)
    assert tag.proven and _spans(tag) == ("64 years", "74 [14] years")


def test_a_rate_per_power_of_ten_is_read_as_its_numbers():
    """H3, faithful, was a 0.9 number_drift ('289' where the evidence says '277-300'): "289/100 000 persons" had read
    as the fraction 2.89 and "100 000" as two numbers."""
    assert [q.lo for q in extract_quantities("289/100 000 persons")] == [289.0, 100000.0]
    assert [q.kind for q in extract_quantities("in 3/4 of patients")] == ["fraction"]
    assert detect_number_drift("Men had a higher incidence of heart failure than women, roughly 378 versus 289 cases "
                               "per 100 000 persons.", HF, source_text=HF) == []


def test_a_decade_is_no_number_of_seconds():
    """H6, faithful: "the early 1980s" read as 1980 seconds, then matched against the source's years."""
    assert [(q.kind, q.unit) for q in extract_quantities("in the early 1980s, after 5 s")] == [("decade", ""), ("number", "s")]
    tags = detect_number_drift("Five-year age-adjusted survival rose from 43% in the early 1980s to 52% in the late "
                               "1990s.", HF, source_text=HF)
    assert not any(t.proven for t in tags)


def test_a_human_population_in_the_place_of_mice_is_proven_scope_inflation():
    """C8: the restating sentence names humans further on ("individuals with type 2 diabetes"), so the evidence-wide
    rule did not fire; word for word, "patients" stands where the source has "db/db mice"."""
    claim = ("Hepatic overexpression of Cry1 lowered blood glucose concentrations and improved insulin sensitivity in "
             "insulin-resistant patients with type 2 diabetes.")
    (tag,) = _proven(detect_scope_inflation, claim, CRY)
    assert _spans(tag) == ("patients", "mice")
    assert not _proven(detect_scope_inflation, claim.replace("patients with type 2 diabetes", "db/db mice"), CRY)


def test_not_at_all_is_no_universal_claim():
    """H9, faithful: "improved little or not at all" was tagged "generalises with 'all'"."""
    assert detect_scope_inflation("Women and the elderly improved little or not at all.", HF, source_text=HF) == []


def test_a_three_word_term_in_the_place_of_two_is_a_swap():
    """H5: "myocardial infarction" where the source says "heart failure diagnosis" had no tag (a run of three content
    words was never read as a term)."""
    (tag,) = _proven(detect_term_swap, "Survival after myocardial infarction was worse among men than women (relative "
                     "risk, 1.33; 95% CI, 1.24-1.43).", HF)
    assert _spans(tag) == ("myocardial infarction", "heart failure diagnosis")


def test_blocked_for_inhibited_is_no_swap():
    """C6, faithful: "Cry1 blocked cAMP accumulation" against "Cry1 inhibited accumulation of cAMP" was a 0.7 swap."""
    assert detect_term_swap("In reconstitution experiments, Cry1 blocked accumulation of cAMP in response to G "
                            "protein-coupled receptor activation.", CRY, source_text=CRY) == []


def test_every_and_any_are_still_universal_claims():
    """The "not at all" fix first swallowed *every*, *always*, *any* and *universal* (a comment in the pattern list):
    measured on the faithful training citations, three tags vanished."""
    (tag,) = detect_scope_inflation("The drug works in every patient and always.", "It worked in most patients.")
    assert tag.evidence[0].claim_span.lower() in ("every", "always", "every patient")
    assert detect_scope_inflation("All patients improved.", "Some patients improved.") != []


def test_digit_groups_set_apart_by_a_punctuation_space():
    """A faithful Citation-Integrity citation ("499,000 were under-five children") against The Lancet's "499\u2008000
    (447\u2008000–558\u2008000)": read as 499 it was a proven number_drift."""
    src = "1\u00b73 million deaths were caused by diarrhoeal diseases, including 499\u2008000 (447\u2008000\u2013558\u2008000) in children."
    assert [q.lo for q in extract_quantities(src)][:2] == [1300000.0, 499000.0]
    assert detect_number_drift("Of 1.3 million deaths from diarrheal diseases, 499,000 were children.", src, source_text=src) == []


TRIAL_NIV = ("Over time, a sustained improvement in PaO2 to FIO2 was noted in 12 patients (60%) in the NIV group, and in 5 "
             "patients (25%) randomized to standard treatment (P = .03).")


def test_two_groups_exchanged_across_parallel_clauses_are_a_proven_flip():
    """N7: the two arms' results given to each other ("12 patients (60%) randomized to standard treatment and ... 5
    patients (25%) in the NIV group") ended *partial*."""
    claim = ("Over time, a sustained improvement in PaO2 to FIO2 was noted in 12 patients (60%) randomized to standard "
             "treatment and in 5 patients (25%) in the NIV group.")
    (tag,) = _proven(detect_polarity_flip, claim, TRIAL_NIV)
    assert _spans(tag) == ("randomized standard treatment", "NIV group")
    assert not _proven(detect_polarity_flip, "Over time, a sustained improvement in PaO2 to FIO2 was noted in 12 "
                       "patients (60%) in the NIV group and in 5 patients (25%) randomized to standard treatment.", TRIAL_NIV)


@pytest.mark.parametrize("claim, source", [
    # faithful training citations of the same shape, no number between the terms: paraphrases
    ("CCL19 is a ligand for CCR7.", "Soluble CCL21 functionally resembles the second CCR7 ligand, CCL19, which lacks "
     "anchoring residues and forms soluble gradients."),
    ("Ca2+ cycling controls whole-body energy homeostasis in beige fat.", "Our study uncovers a noncanonical "
     "thermogenic mechanism through which beige fat controls whole-body energy homeostasis via Ca2+ cycling."),
    ("Insulin lowered glucose in mice.", "Glucose was lowered by insulin in mice."),
])
def test_reordered_terms_without_parallel_clauses_are_no_flip(claim, source):
    assert not _proven(detect_polarity_flip, claim, source)


def test_the_other_group_favoured_without_a_than_is_a_proven_flip():
    """H7: the claim puts women ahead of men; the source's sentence says "higher among men (...)" and never names
    women after the comparative. Asides in brackets are left out of both."""
    claim = ("The incidence of heart failure was higher among women (378/100 000 persons) than among men "
             "(289/100 000 persons).")
    [tag] = _proven(detect_polarity_flip, claim, HF)
    assert tag.evidence[0].claim_span == "women" and tag.evidence[0].evidence_span == "men"
    assert "higher among men" in tag.message


@pytest.mark.parametrize("claim", [
    "The incidence of heart failure was higher among men (378/100 000 persons) than among women (289/100 000 persons).",
    "Men had a higher incidence of heart failure than women in this community cohort.",
    "The incidence of heart failure was higher among men than among women in this community.",
])
def test_the_favoured_group_as_the_source_puts_it_is_no_flip(claim):
    assert _proven(detect_polarity_flip, claim, HF) == []


def test_all_patients_in_the_place_of_selected_recipients_is_proven_scope_inflation():
    """N10: "all patients" where the restating sentence says "selected recipients of transplantation"."""
    claim = ("These results indicate that NIV should be considered in the treatment of all patients with acute "
             "respiratory failure.")
    [tag] = _proven(detect_scope_inflation, claim, NIV)
    assert _spans(tag) == (
        "all patients", "selected recipients of transplantation")
    faithful = ("These results indicate that NIV should be considered in the treatment of selected transplant "
                "recipients with acute respiratory failure.")
    assert detect_scope_inflation(faithful, NIV, source_text=NIV) == []


def test_a_moved_quantity_the_source_says_did_not_differ_is_a_proven_flip():
    """N8: the claim moves the list's ICU reduction onto hospital mortality, which a short source sentence says did
    not differ; the faithful ICU claim and a claim that agrees stay untagged."""
    claim = "The use of NIV was associated with a significant reduction in hospital mortality (20% vs 50%; P = .05)."
    [tag] = _proven(detect_polarity_flip, claim, NIV)
    assert tag.evidence[0].claim_span == "reduction in hospital mortality"
    assert tag.evidence[0].evidence_span == "Hospital mortality did not differ."
    for faithful in ("The use of NIV was associated with a significant reduction in intensive care unit mortality "
                     "(20% vs 50%; P = .05).", "Hospital mortality did not differ between the two groups."):
        assert _proven(detect_polarity_flip, faithful, NIV) == []


HORMONES = ("Elevations in circulating glucagon and epinephrine, two hormones that activate hepatic gluconeogenesis, "
            "trigger the cAMP-mediated phosphorylation of cAMP response element-binding protein (Creb) and "
            "dephosphorylation of the Creb-regulated transcription coactivator-2 (Crtc2)--two key transcriptional "
            "regulators of this process.")


def test_two_terms_exchanged_inside_a_phrase_past_the_long_names_is_a_proven_flip():
    """C10 (the judge said supported at 0.93): the claim gives phosphorylation to Crtc2 and dephosphorylation to
    Creb; the source defines both short forms after long names and says it the other way round."""
    claim = ("Glucagon and epinephrine trigger the cAMP-mediated phosphorylation of Crtc2 and dephosphorylation of "
             "Creb, two key transcriptional regulators of hepatic gluconeogenesis.")
    [tag] = _proven(detect_polarity_flip, claim, HORMONES)
    assert _spans(tag) == ("Crtc2", "Creb")
    faithful = claim.replace("of Crtc2", "of XX").replace("of Creb", "of Crtc2").replace("of XX", "of Creb")
    assert "phosphorylation of Creb and dephosphorylation of Crtc2" in faithful
    assert _proven(detect_polarity_flip, faithful, HORMONES) == []


def test_two_terms_reordered_in_the_same_role_are_no_flip():
    source = "Bleeding was seen in group A patients and in group B patients receiving warfarin."
    claim = "Bleeding was seen in group B patients and in group A patients receiving warfarin."
    assert _proven(detect_polarity_flip, claim, source) == []


def test_two_drugs_reordered_across_and_are_no_flip():
    source = "Bleeding was seen in warfarin patients and in aspirin patients during the first year."
    claim = "Bleeding was seen in aspirin patients and in warfarin patients during the first year."
    assert _proven(detect_polarity_flip, claim, source) == []


def test_a_swap_is_read_on_the_sources_restating_sentence_when_the_passage_is_another():
    """C2 with the source a sentence per line: the passage judged best is the next sentence ("Cry1 expression was
    elevated ..."); the swap is shown on the sentence that restates the claim."""
    claim = ("Creb activity during fasting is modulated by Cry1 and Cry2, which are rhythmically expressed in skeletal "
             "muscle.")
    other = CRY.split(". ")[1]
    assert other.startswith("Cry1 expression was elevated")
    [tag] = _proven(lambda c, e, source_text: detect_term_swap(c, other, source_text=source_text), claim, CRY)
    assert _spans(tag) == ("skeletal muscle", "liver")
    assert detect_term_swap(claim.replace("skeletal muscle", "the liver"), other, source_text=CRY) == []
