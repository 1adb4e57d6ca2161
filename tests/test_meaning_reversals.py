"""Issue 28: false claims in the source's own words that a new user's trial on SciFact abstracts found passing
(2026-12-06), each rule with the faithful twin that must stay untagged. No model: the detectors alone.

The sources are abstracts of the SciFact corpus (Wadden et al. 2020) as the trial used them: a malaria study of
parasite multiplication, a headache trial of amitriptylinoxide (AO) against amitriptyline (AM), and a keratin 17
study.
"""

from __future__ import annotations

import pytest

from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.significance import detect_significance_inflation
from citeproof.detectors.swaps import detect_term_swap

MALARIA = ("P. falciparum parasites causing severe malaria were less selective and multiplied more at high parasitemias "
           "than those causing uncomplicated malaria. Parasites causing severe malaria exhibited unrestricted red blood "
           "cell invasion, whereas those from uncomplicated malaria were restricted to a geometric mean of 40 (31%-53%) "
           "of red blood cells.")
HEADACHE = ("In 197 patients with chronic tension-type headache efficacy and tolerability of 60-90 mg amitriptylinoxide "
            "(AO) were compared with 50-75 mg amitriptyline (AM) and placebo (PL) in a double-blind, parallel-group "
            "trial. No significant difference emerged between AO, AM and PL with respect to the primary study endpoint. "
            "Amitriptyline is the medication of first choice in the treatment of chronic tension-type headache.")
KERATIN = ("Mouse skin keratinocytes lacking keratin 17 (ref. 4) show depressed protein translation and are of smaller "
           "size, correlating with decreased Akt/mTOR signalling activity. Two amino acid residues located in the "
           "amino-terminal head domain of keratin 17 are required for the serum-dependent relocalization of 14-3-3σ "
           "from the nucleus to the cytoplasm, and for the concomitant stimulation of mTOR activity and cell growth.")


def _proven_flip(claim: str, source: str):
    return [t for t in detect_polarity_flip(claim, source, source_text=source) if t.proven]


class TestRestatedReversal:
    @pytest.mark.parametrize("claim, source, said, where", [
        # the trial's K7: was *supported* at P(entails) 0.96
        ("Two amino acid residues located in the amino-terminal head domain of keratin 17 are required for the "
         "serum-dependent relocalization of 14-3-3σ from the cytoplasm to the nucleus.", KERATIN, "cytoplasm", "nucleus"),
        # M9: the two groups' findings given to each other across "whereas"
        ("Parasites causing uncomplicated malaria exhibited unrestricted red blood cell invasion, whereas those from "
         "severe malaria were restricted to a geometric mean of 40 (31%-53%) of red blood cells.", MALARIA,
         "uncomplicated", "severe"),
    ])
    def test_two_terms_exchanged_across_a_relation_are_a_proven_flip(self, claim, source, said, where):
        (tag,) = _proven_flip(claim, source)
        assert tag.name == "polarity_flip" and tag.confidence == 0.9
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (said, where)
        assert tag.message.startswith(f"The claim exchanges {said!r} and {where!r}")

    @pytest.mark.parametrize("claim, source, said, where", [
        ("P. falciparum parasites causing severe malaria were more selective and multiplied more at high parasitemias "
         "than those causing uncomplicated malaria.", MALARIA, "more", "less"),
        # "(ref. 4)" in the source's sentence and not in the claim: light tokens, still the same sentence
        ("Mouse skin keratinocytes lacking keratin 17 show depressed protein translation and are of larger size, "
         "correlating with decreased Akt/mTOR signalling activity.", KERATIN, "larger", "smaller"),
    ])
    def test_one_word_turned_into_its_opposite_is_a_proven_flip(self, claim, source, said, where):
        (tag,) = _proven_flip(claim, source)
        assert tag.message.startswith(f"The claim says {said!r} where the source says {where!r}, every other word alike")

    @pytest.mark.parametrize("claim, source", [
        # the sources' own sentences, and faithful rewordings of them
        ("Parasites causing severe malaria exhibited unrestricted red blood cell invasion, whereas those from "
         "uncomplicated malaria were restricted to a geometric mean of 40 (31%-53%) of red blood cells.", MALARIA),
        ("Two amino acid residues located in the amino-terminal head domain of keratin 17 are required for the "
         "serum-dependent relocalization of 14-3-3σ from the nucleus to the cytoplasm.", KERATIN),
        ("Mouse skin keratinocytes lacking keratin 17 show depressed protein translation and are of smaller size.", KERATIN),
        # two terms exchanged across "and" are a reordering, not a reversal
        ("Two amino acid residues located in the amino-terminal head domain of keratin 17 are required for the "
         "stimulation of cell growth and mTOR activity.", "Two amino acid residues located in the amino-terminal head "
         "domain of keratin 17 are required for the stimulation of mTOR activity and cell growth."),
    ])
    def test_the_same_statement_is_no_flip(self, claim, source):
        assert not _proven_flip(claim, source)


class TestTrialFalseAlarms:
    def test_a_claim_that_denies_significance_is_no_inflation(self):
        """The trial's H4, a faithful claim, was tagged "the claim says 'significantly' where the evidence reports a
        non-significant result": its "Neither ... nor ... differed significantly" denies significance."""
        claim = "Neither amitriptylinoxide nor amitriptyline differed significantly from placebo on the primary endpoint."
        assert detect_significance_inflation(claim, HEADACHE, source_text=HEADACHE) == []
        tags = detect_significance_inflation("Amitriptylinoxide differed significantly from placebo on the primary endpoint.",
                                             "No significant difference emerged between AO, AM and PL.", source_text=HEADACHE)
        assert [t.confidence for t in tags] == [0.9]  # the same words without the denial: inflation

    def test_names_the_source_abbreviates_are_no_swap_word_for_word(self):
        """H2's tag read "the claim says 'amitriptylinoxide amitriptyline' where the source says 'AO AM'": the source
        defines both abbreviations, so the run is the same words."""
        claim = ("No significant difference emerged between amitriptylinoxide, amitriptyline and placebo with respect to "
                 "the primary study endpoint.")
        assert detect_term_swap(claim, HEADACHE, source_text=HEADACHE) == []

    def test_two_drugs_the_source_names_apart_are_a_swap_even_first_in_the_sentence(self):
        """H6: "Amitriptylinoxide is the medication of first choice" against the source's "Amitriptyline is ...": the
        spellings are alike (one drug's name inside the other's), but the source writes both, and the swap stands at
        the sentence's start (no agreeing word before it)."""
        (tag,) = detect_term_swap("Amitriptylinoxide is the medication of first choice in the treatment of chronic "
                                  "tension-type headache.", HEADACHE, source_text=HEADACHE)
        assert tag.proven and (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("Amitriptylinoxide", "Amitriptyline")
        assert detect_term_swap("Amitriptyline is the medication of first choice in the treatment of chronic "
                                "tension-type headache.", HEADACHE, source_text=HEADACHE) == []

    def test_human_cells_against_mouse_cells_is_scope_inflation(self):
        """K2: "Human skin keratinocytes" against the source's "Mouse skin keratinocytes" had no tag."""
        (tag,) = detect_scope_inflation("Human skin keratinocytes lacking keratin 17 show depressed protein translation.",
                                        KERATIN, source_text=KERATIN)
        assert tag.proven and (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("Human", "Mouse")
        assert detect_scope_inflation("Mouse skin keratinocytes lacking keratin 17 show depressed protein translation.",
                                      KERATIN, source_text=KERATIN) == []
        assert detect_scope_inflation("Human immunodeficiency virus replicates in these mouse cells.", KERATIN,
                                      source_text=KERATIN) == []

    def test_a_start_difference_too_short_to_prove_leaves_the_other_swap_unproven(self):
        """A claim of five content words differing at the sentence's start and once more: the start is no proof, and
        the other swap is then not the only difference (it must not be proven)."""
        source = "Metformin lowers hepatic glucose output."
        (tag,) = detect_term_swap("Insulin lowers renal glucose output.", source, source_text=source)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("renal", "hepatic")
        assert tag.confidence == 0.7 and not tag.proven


def test_a_negation_around_the_opposite_word_is_no_reversal():
    """"not of smaller size" does not say the opposite of "of larger size": a negation is never a light difference."""
    source = "Mouse skin keratinocytes lacking keratin 17 show depressed protein translation and are not of smaller size."
    assert not _proven_flip("Mouse skin keratinocytes lacking keratin 17 show depressed protein translation and are of "
                            "larger size.", source)
    assert _proven_flip("Mouse skin keratinocytes lacking keratin 17 show depressed protein translation and are of "
                        "larger size.", source.replace("not of", "of"))


class TestNegationOnOneSide:
    """The trial's H2: "A significant difference emerged between amitriptylinoxide, amitriptyline and placebo" against
    the source's "No significant difference emerged between AO, AM and PL" ended *partial*; the dropped "No" is a
    reversal code can show, past the abbreviations the source defines."""

    @pytest.mark.parametrize("claim, spans", [
        ("A significant difference emerged between amitriptylinoxide, amitriptyline and placebo with respect to the "
         "primary study endpoint.", ("A significant", "No significant")),
        ("Significant difference emerged between AO, AM and PL with respect to the primary study endpoint.",
         ("Significant", "No significant")),
    ])
    def test_a_negation_the_claim_leaves_out_is_a_proven_flip(self, claim, spans):
        (tag,) = _proven_flip(claim, HEADACHE)
        assert tag.confidence == 0.9 and (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == spans
        assert tag.message.startswith(f"The claim says {spans[0]!r} where the source says {spans[1]!r} (it leaves out "
                                      "'no'), every other word alike: \u201cNo significant")

    def test_a_negation_the_claim_adds_to_a_finding_is_a_proven_flip(self):
        source = "Mouse skin keratinocytes lacking keratin 17 show depressed protein translation."
        (tag,) = _proven_flip("Mouse skin keratinocytes lacking keratin 17 do not show depressed protein translation.",
                              source)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("do not show", "show")
        assert tag.message.startswith("The claim says 'do not show' where the source says 'show' (it adds 'not')")

    @pytest.mark.parametrize("claim, source", [
        # the source's own negation kept, abbreviations spelled out: faithful
        ("No significant difference emerged between amitriptylinoxide, amitriptyline and placebo with respect to the "
         "primary study endpoint.", HEADACHE),
        # "not only ... but also" denies nothing
        ("Keratin 17 regulates cell growth.", "Keratin 17 not only regulates cell growth but also protein translation."),
        # a negated claim that answers the question a sentence asks
        ("Keratin 17 does not regulate cell growth in mouse skin.",
         "We tested whether keratin 17 regulates cell growth in mouse skin."),
        # ... or that holds for a part the sentence itself negates
        ("Keratin 17 was not associated with cell growth.",
         "Keratin 17 was associated with cell growth in mouse skin but not in human skin."),
        # ... or that the source states elsewhere with the same negation
        ("Keratin 17 does not regulate cell growth in mouse skin.",
         "It was believed that keratin 17 regulates cell growth in mouse skin. Keratin 17 does not regulate cell "
         "growth in mouse skin."),
    ])
    def test_no_flip_without_a_denial_on_one_side(self, claim, source):
        assert not _proven_flip(claim, source)
