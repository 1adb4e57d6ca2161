"""Issue 28: what a sixteenth new user's trial found (2026-12-06, session 20; three SciFact corpus abstracts no
training claim cites, held out: on the code after the fifteenth trial's rules, `802dbff`, 1 of 20 false claims was
supported and 17 caught, but 2 of 10 faithful claims were *unsupported* by proven term swaps). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the human serum metabolome (doc 31070360),
del(14q) in CLL (doc 42377686) and the TatA translocase subunit (doc 5473074).
"""

from __future__ import annotations

from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

METABOLOME = ("Many advances have been made with common changes being identified in ageing, the menopause and cancer but "
              "several problems of interpretation have emerged from these studies. These include the small sample sizes "
              "in most human studies and the differences between human and rodent metabolomes.")
TATA = ("TatA is considered to be a bifunctional subunit, which can form a protein-conducting channel by "
        "self-oligomerization and can also participate in substrate recognition. TatA(d) shows an L-shaped structure "
        "formed by a transmembrane helix and an amphipathic helix, while the C-terminal tail is largely unstructured.")


def test_the_number_of_subjects_for_the_sample_size_is_no_swap():
    """M02 (faithful, *unsupported*): "the small number of subjects" for "the small sample sizes"."""
    claim = ("Interpretation problems include the small number of subjects in most human studies and the differences "
             "between the metabolomes of humans and rodents")
    assert detect_term_swap(claim, METABOLOME, source_text=METABOLOME) == []
    [tag] = _proven(detect_term_swap, claim.replace("human studies", "animal studies").replace(
        "the small number of subjects", "the small sample sizes"), METABOLOME)
    assert _spans(tag) == ("animal", "human")


def test_adopts_for_shows_a_structure_is_no_swap():
    """T03 (faithful, *unsupported*): "adopts an L-shaped structure built from" for "shows ... formed by"."""
    claim = ("TatA(d) adopts an L-shaped structure built from a transmembrane helix and an amphipathic helix, with a "
             "C-terminal tail that is largely unstructured")
    assert detect_term_swap(claim, TATA, source_text=TATA) == []


def test_is_considered_to_be_dropped_is_a_removed_hedge():
    """T10 (*supported*): "TatA is a bifunctional subunit" for "TatA is considered to be a bifunctional subunit"."""
    claim = ("TatA is a bifunctional subunit, which can form a protein-conducting channel by self-oligomerization and "
             "can also participate in substrate recognition")
    [tag] = detect_hedge_removed(claim, TATA, source_text=TATA)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "is considered to")
    assert detect_hedge_removed(claim.replace("TatA is a", "TatA is considered to be a"), TATA, source_text=TATA) == []


def test_a_negation_tag_quotes_the_words_as_written():
    """D02: the tag's evidence span was the stem 'diƒer' (the text layer's folded form), not a word of the source."""
    src = "Cytogenetic and molecular abnormalities showed a difference between the CLL and SLL cases."
    tags = detect_polarity_flip("Cytogenetic and molecular abnormalities did not differ significantly between the CLL "
                                "and SLL cases", src, source_text=src)
    assert tags and all("ƒ" not in (t.message + t.evidence[0].claim_span + t.evidence[0].evidence_span) for t in tags)


def test_showing_for_detected_stays_a_proven_swap():
    """A first version put *show* among the common verbs for T03's *adopts* / *shows*; ``eval meaning``'s generated
    swap "amplifications were showing for 192 genomic clones" (for "were detected") then went unproven. *shows* is a
    reporting verb already: *adopts* needed only to be a verb. Session 24's rule that a verb for a verb is no swap of
    terms holds only where the claim rewords more than the verb: a sentence copied but for its verb stays proven."""
    src = ("High-level amplifications were detected for 192 genomic clones, most frequently at 6p22.3 (E2F3), 8p12 "
           "(FGFR1), 8q22.2 (CMYC), 11q13 (CCND1, EMS1, INT2), and 19q13.1 (CCNE).")
    [tag] = _proven(detect_term_swap, src.rstrip(".").replace("were detected", "were showing"), src)
    assert _spans(tag) == ("showing", "detected")
