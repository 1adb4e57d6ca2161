"""Issue 28: what the hundred-and-thirty-ninth to hundred-and-forty-second new users' trials found (2026-12-07,
session 27; held out on `f46204b`: 13, 10, 9 and 11 of 20 false claims caught, 3, 2, 3 and 2 called *supported*;
faithful paraphrases 0, 4, 0 and 0 called *unsupported* or *contradicted*). Each rule beside its faithful twin; two
false alarms mended, each with its false claim. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): Aire and IRBP-specific T cells (doc
8354687), bypass grafts in BARI (750781), PPARγ in chondrocytes (9956893) and the 2017 McDonald criteria (52176296).
"""

from __future__ import annotations

from citeproof.detectors.across import ends_moved_across
from citeproof.detectors.denials import negation_in_run
from citeproof.detectors.lexicon import spelled_otherwise
from citeproof.detectors.swaps import detect_term_swap
from citeproof.sources.text import parse_text
from citeproof.text.sentences import split_sentences

AIRE = ("Analyses of the polyclonal T-cell repertoire showed a high frequency of activated T cells specific for both IRBP "
        "tetramers in Aire(-/-) mice, but not in Aire(+/+) mice.")
BARI = ("Patients with TDM were more likely than those without to have small (<1.5 mm) grafted distal vessels (29% versus "
        "22%) and vessels of poor quality (9% versus 6%). After statistical adjustment, TDM was unrelated to having a "
        "graft stenosis > or =50% (adjusted odds ratio, 0.87; 95% CI, 0.58 to 1.32).")
PPARG = ("PPARγ agonist pioglitazone could inhibit the effects of AGEs-induced inflammatory response and PPARγ "
         "down-regulation.")
MCDONALD = ("Application of the 2017 revisions of McDonald criteria in our cohort led to a diagnosis of MS in 82.5% of the "
            "patients who could have not been diagnosed with MS according to the previous criteria at the time of the "
            "first demyelinating event.")


def _tag(rule, claim: str, source: str):
    tag = rule(claim, split_sentences(source), source)
    return None if tag is None else (tag.name, tag.proven)


def _swaps(claim: str, source: str):
    return [(t.proven, t.evidence[0].claim_span, t.evidence[0].evidence_span)
            for t in detect_term_swap(claim, source, source_text=source)]


def test_genotypes_in_brackets_are_told_apart():
    """Trial 139's 26 (*supported*, "the claim stands word for word in the source"): *Aire(+/+)* and *Aire(-/-)*
    exchanged around *but not*; the brackets had been dropped with the genotype."""
    assert _tag(ends_moved_across, "Analyses of the polyclonal T-cell repertoire showed a high frequency of activated T "
                "cells specific for both IRBP tetramers in Aire(+/+) mice, but not in Aire(-/-) mice.", AIRE) == (
        "polarity_flip", True)
    assert _tag(ends_moved_across, "Activated T cells specific for both IRBP tetramers were frequent in Aire(-/-) mice, but "
                "not in Aire(+/+) mice.", AIRE) is None


def test_more_likely_than_those_without_to_have_is_no_exchange():
    """Trial 140's faithful 29 (*contradicted*, a proven exchange around *than*): what follows *than* there is not the
    thing compared."""
    assert _tag(ends_moved_across, "Patients with treated diabetes more often had small grafted distal vessels (<1.5 mm) "
                "than patients without treated diabetes.", BARI) is None


def test_not_associated_for_unrelated_is_no_swap():
    """Trial 140's faithful 9 (*unsupported*: 'associated' / 'unrelated' a proven swap): a word negated by its prefix
    for a negator and a word says one thing."""
    assert _swaps("After statistical adjustment, treated diabetes was not associated with having a graft stenosis of "
                  "50% or more.", BARI) == []


def test_one_drug_of_a_class_for_another_is_no_spelling():
    """Trial 141's 25 (*partial*, no tag): *rosiglitazone* for *pioglitazone* had read as one word spelt otherwise
    (rapidfuzz ratio >= 80); the claim's drug is nowhere in the source. Spellings stay spellings."""
    assert _swaps("The PPARγ agonist rosiglitazone could inhibit the AGEs-induced inflammatory response and PPARγ "
                  "down-regulation in human chondrocytes.", PPARG) == [(True, "rosiglitazone", "pioglitazone")]
    assert not spelled_otherwise("rosiglitazone", "pioglitazone", "")
    assert spelled_otherwise("oesophagus", "esophagus", "") and spelled_otherwise("glomerular", "glomerual", "")


def test_a_negation_before_a_run_of_light_words():
    """Trial 142's 30 (*partial*): "could already have been diagnosed with MS according to" for "could have not been
    diagnosed with MS according to": six words held only two content words, so the run reaches ten."""
    assert _tag(negation_in_run, "Application of the 2017 revisions led to a diagnosis of MS in 82.5% of the patients who "
                "could already have been diagnosed with MS according to the previous criteria at the time of the first "
                "demyelinating event.", MCDONALD) == ("polarity_flip", True)
    assert _tag(negation_in_run, "Under the 2017 revisions, 82.5% of the patients who would not have been diagnosed with "
                "MS according to the previous criteria were diagnosed at the time of the first demyelinating event.",
                MCDONALD) is None


def test_a_plain_text_title_is_a_heading_never_judged_with_the_first_sentence():
    """Trials 141-142: a title line, a blank line, then the abstract; the lexical tier joined the two passages and the
    judge read them as one sentence (142's 13, a swap of *space* for *time*, was *supported* on the joined pair). The
    title is a heading passage now, never joined to the passage after it."""
    passages, text = parse_text("2017 revisions of McDonald criteria shorten the time to diagnosis of multiple sclerosis "
                                "in clinically isolated syndromes\n\nTo investigate the impact of the 2017 revisions. We "
                                "retrospectively analyzed 137 patients.\n")
    assert [p.section for p in passages] == ["2017 revisions of mcdonald criteria shorten the time to diagnosis of "
                                             "multiple sclerosis in clinically isolated syndromes", ""]
    # only the first paragraph: a web page's short lines further down stay passages like any other (marking each a
    # heading cost eval meaning's WiCE set 0.4725 -> 0.4615 macro-F1)
    passages, _ = parse_text("Sarah Palin\n\nShe was governor of Alaska.\n\nEarly life\n\nShe was born in Idaho.\n")
    assert [p.section for p in passages] == ["sarah palin", "", "", ""]
