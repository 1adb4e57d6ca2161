"""Issue 28: false claims in the source's own words that an eighth new user's trial found passing (2026-12-06,
session 19; three SciFact corpus abstracts no training claim cites, held out from the detectors: on the code before
these rules 3 of 20 false claims were supported and 9 caught), each rule with the faithful twin that must stay
untagged. No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): pericentrin's anchoring of gamma tubulin
complexes (doc 42035464), inositol phosphates after agonist stimulation (doc 22025252), and physical activity at 36
years in a birth cohort (doc 12205576).
"""

from __future__ import annotations

from citeproof.assist.consistency import inconsistent_pairs
from citeproof.detectors.attribution import detect_comparison_claim
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.restated import states_same_negation
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.readers.markdown import MarkdownReader
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

SILENCING = ("Pericentrin silencing by small interfering RNAs in somatic cells disrupted gamma tubulin localization and "
             "spindle organization in mitosis but had no effect on gamma tubulin localization or microtubule "
             "organization in interphase cells.")
XENOPUS = ("When added to Xenopus mitotic extracts, this domain uncoupled gamma TuRCs from centrosomes, inhibited "
           "microtubule aster assembly, and induced rapid disassembly of preassembled asters.")
ASTERS = ("All phenotypes were significantly reduced in a pericentrin mutant with diminished GCP2/3 binding and were "
          "specific for mitotic centrosomal asters as we observed little effect on interphase asters or on asters "
          "assembled by the Ran-mediated centrosome-independent pathway.")
ARREST = ("Additionally, pericentrin silencing or overexpression induced G2/antephase arrest followed by apoptosis in "
          "many but not all cell types.")
CONCLUDE = ("We conclude that pericentrin anchoring of gamma tubulin complexes at centrosomes in mitotic cells is "
            "required for proper spindle organization and that loss of this anchoring mechanism elicits a checkpoint "
            "response that prevents mitotic entry and triggers apoptotic cell death.")
INOSITOL = ("The formation of inositol phosphates in response to agonists was studied in brain slices, parotid gland "
            "fragments and in the insect salivary gland. All the tissues were found to contain glycerophosphoinositol, "
            "inositol 1-phosphate, inositol 1,4-bisphosphate and inositol 1,4,5-trisphosphate. Stimulation caused no "
            "change in the levels of glycerophosphoinositol in any of the tissues. Carbachol also induced a large "
            "increase in the level of inositol 1,4,5-trisphosphate in the parotid. Stimulation of brain slices with "
            "carbachol induced modest increase in the bis- and tris-phosphate.")
SPORT = ("Higher levels of education were associated with frequent participation in sports. Those who were most active "
         "in sport had been above average at sports in school, more outgoing socially in adolescence, had fewer health "
         "problems in childhood, were better educated, and had more mothers with a secondary education than those who "
         "were less active.")


def test_a_negation_added_to_the_clause_the_source_states_is_proven():
    """P07: the source's "no effect" is about interphase; the claim negates the mitosis clause. The policy's
    same-negation check had read the two as one negation and turned the judge's *contradicted* into *partial*."""
    claim = ("Pericentrin silencing by small interfering RNAs in somatic cells did not disrupt gamma tubulin "
             "localization and spindle organization in mitosis")
    [tag] = _proven(detect_polarity_flip, claim, SILENCING)
    assert _spans(tag) == ("did not disrupt", "disrupted")
    assert states_same_negation(claim, SILENCING) is None
    # the faithful twin: the claim negates what the source negates
    assert _proven(detect_polarity_flip, "Pericentrin silencing by small interfering RNAs in somatic cells did not "
                   "disrupt gamma tubulin localization or microtubule organization in interphase cells", SILENCING) == []


def test_a_reversed_verb_beside_a_dropped_comma_and_a_list_item_left_out_is_proven():
    """P09 ("centrosomes and enhanced" / "centrosomes, inhibited") and A09 (the diff paired the claim's *more* with
    the sentence's *more outgoing*, not with *fewer health problems*)."""
    [tag] = _proven(detect_polarity_flip, "When added to Xenopus mitotic extracts, the GCP2/3 binding domain of "
                    "pericentrin uncoupled gamma TuRCs from centrosomes and enhanced microtubule aster assembly", XENOPUS)
    assert _spans(tag) == ("enhanced", "inhibited")
    [tag] = _proven(detect_polarity_flip, "Those who were most active in sport had more health problems in childhood "
                    "than those who were less active", SPORT)
    assert _spans(tag) == ("more", "fewer")
    # faithful twins: the source's direction, and the comparison turned round as a whole (two reversals)
    assert _proven(detect_polarity_flip, "When added to Xenopus mitotic extracts, the GCP2/3 binding domain of "
                   "pericentrin uncoupled gamma TuRCs from centrosomes and blocked microtubule aster assembly", XENOPUS) == []
    for faithful in ("Those who were most active in sport had fewer health problems in childhood than those who were less active",
                     "Those who were less active in sport had more health problems in childhood than those who were most active"):
        assert _proven(detect_polarity_flip, faithful, SPORT) == []


def test_two_groups_exchanged_past_a_moved_term_are_proven():
    """P08: which asters the phenotypes were specific for, with "pericentrin" moved besides."""
    claim = ("The phenotypes caused by the GCP2/3 binding domain of pericentrin were specific for interphase asters, as "
             "we observed little effect on mitotic centrosomal asters")
    [tag] = _proven(detect_polarity_flip, claim, ASTERS)
    assert {tag.evidence[0].claim_span, tag.evidence[0].evidence_span} == {"interphase", "mitotic centrosomal"}
    assert _proven(detect_polarity_flip, "The phenotypes caused by the GCP2/3 binding domain of pericentrin were specific "
                   "for mitotic centrosomal asters, as we observed little effect on interphase asters", ASTERS) == []
    # a faithful SciFact training claim the first version called an exchange (PRDM14 / primordial germ, "during" read
    # past as the moved term inside them)
    prdm = ("Blimp1 (Prdm1), the key determinant of primordial germ cells (PGCs), plays a combinatorial role with Prdm14 "
            "during PGC specification from postimplantation epiblast cells.")
    assert _proven(detect_polarity_flip, "The PRDM1 gene, when combined with the PRDM14 gene, plays an important role "
                   "during primordial germ cell specification", prdm) == []


def test_all_for_not_all_and_all_types_for_one_are_proven_widenings():
    """P10 ("in all cell types" for "many but not all cell types": the source's own *all* had hidden it) and A10 ("all
    types of physical activity" for "sports"); I02's "in every tissue" for "in any of the tissues" is no widening, and
    "many cell types" no dropped negation."""
    [tag] = _proven(detect_scope_inflation, "Pericentrin silencing or overexpression induced G2/antephase arrest followed "
                    "by apoptosis in all cell types", ARREST)
    assert _spans(tag) == ("all", "many but not all")
    [tag] = _proven(detect_scope_inflation, "Higher levels of education were associated with frequent participation in "
                    "all types of physical activity", SPORT)
    assert _spans(tag) == ("all types of physical activity", "sports")
    many = "Pericentrin silencing or overexpression induced G2/antephase arrest followed by apoptosis in many cell types"
    assert _proven(detect_scope_inflation, many, ARREST) == [] and _proven(detect_polarity_flip, many, ARREST) == []
    assert detect_scope_inflation("Agonist stimulation left glycerophosphoinositol levels unchanged in every tissue "
                                  "studied", INOSITOL.split(". ")[2], source_text=INOSITOL) == []


def test_a_swap_past_the_sentences_frame_or_an_added_topic_word_is_proven():
    """P06 (the sentence opens "We conclude that" where the claim opens "Loss of", a word the sentence says later) and
    I06 (the claim adds "inositol", the source's topic, to "bis- and tris-phosphate")."""
    [tag] = _proven(detect_term_swap, "Loss of pericentrin anchoring of gamma tubulin complexes in mitotic cells elicits a "
                    "checkpoint response that prevents mitotic entry and triggers necrotic cell death", CONCLUDE)
    assert _spans(tag) == ("necrotic", "apoptotic")
    [tag] = _proven(detect_term_swap, "Stimulation of brain slices with noradrenaline induced a modest increase in "
                    "inositol bis- and tris-phosphate", INOSITOL)
    assert _spans(tag) == ("noradrenaline", "carbachol")
    # faithful twins: the source's own terms, and a reporting verb for a common one (I01: 'examined' / 'found')
    for faithful, source in (("Loss of pericentrin anchoring of gamma tubulin complexes in mitotic cells elicits a "
                              "checkpoint response that prevents mitotic entry and triggers apoptotic cell death", CONCLUDE),
                             ("Stimulation of brain slices with carbachol induced a modest increase in inositol bis- and "
                              "tris-phosphate", INOSITOL),
                             ("All of the tissues examined contained glycerophosphoinositol together with inositol "
                              "1-phosphate, inositol 1,4-bisphosphate and inositol 1,4,5-trisphosphate", INOSITOL)):
        assert detect_term_swap(faithful, source, source_text=source) == []


def test_two_groups_compared_by_the_claim_are_no_comparison_with_the_cited_work():
    """A02 (faithful): "more often than men did" compares women with men, as the source does."""
    raw = "Women, on the other hand, reported cycling and walking more often than men did [@activity]."
    assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="activity") == []
    raw = "Our method reports cycling more often than the earlier survey did [@activity]."
    assert [t.name for t in detect_comparison_claim(raw, None, raw_claim=raw, citekey="activity")] == ["comparison_claim"]


def test_inconsistent_numbers_still_found_beside_topic_words():
    """The topic discount (session 19) keeps a clash whose numbers share more than the work's topic."""
    claims = MarkdownReader().read_string("".join(f"{s} [@a].\n\n" for s in (
        "A stratified sample of about 3500 men and women was studied regularly from birth until 43 years",
        "Men reported high rates of sport at 36 years, and 40% of men cycled",
        "Women reported higher rates of walking at 36 years",
        "Of the men studied at 36 years, 25% cycled")))
    assert [(p["this"], p["other"]) for p in inconsistent_pairs(claims)] == [("40%", "25%")]


def test_causes_for_is_associated_with_stays_a_swap():
    """Found while fitting this trial's rules (a first version read *associated* as a reporting verb and the claim's
    *causes*, whose stem the sentence holds in "from any cause", as a word the sentence moved): a fourth trial's c18
    went from unsupported to supported."""
    source = ("Digoxin therapy is associated with an increased risk of death from any cause among women, but not men, "
              "with heart failure and depressed left ventricular systolic function.")
    claim = ("Digoxin therapy causes an increased risk of death from any cause among women with heart failure and "
             "depressed left ventricular systolic function")
    [tag] = detect_term_swap(claim, source, source_text=source)
    # unproven since session 24 (a verb for a verb in a verb's place is no swap of terms): an association stated as a
    # cause is *partial* with its tag, as issue 28 asks of causal_overclaim, not *supported*
    assert (_spans(tag), tag.confidence, tag.proven) == (("causes", "associated"), 0.7, False)
