"""Issue 28: what the seventy-fifth to seventy-eighth new users' trials found (2026-12-07, session 24; held out on
`3350c84`: 12, 12, 15 and 9 of 20 false claims caught, 3, 3, 1 and 4 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): virulence in opportunistic pathogens
(doc 3038933), HIF-1alpha motifs binding p53 (10247314), transport of vitamins A and E (21380348), nitrite against
shock (13823200), pharmacists in mental health (31612088), maternal protein restriction and lifespan (9513785).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

CONFORM = ("An increasing number of studies now demonstrate that many opportunistic pathogens (OPs) do not conform to "
           "these assumptions, with virulence factors maintained instead because of advantages in non-parasitic "
           "contexts.")
CONSTRAINED = ("We illustrate that virulence selection is constrained by correlations between these external and focal "
               "settings and pinpoint drivers of key environmental correlations, with a focus on generalist strategies "
               "and phenotypic plasticity.")
NITRITE = ("Reduction of nitrite to NO may occur enzymatically at low pH and oxygen tension by deoxyhemoglobin, "
           "deoxymyoglobin, xanthine oxidase, mitochondrial complexes, or NO synthase (NOS).")
NMR = ("Two sequence motifs from HIF-1alpha bind to the DNA-binding site of p53. We found from NMR spectroscopy that "
       "these sequence motifs bind to the DNA-binding site of p53c.")
ROUTE = ("The binding data support the proposal that p53 provides a route for the degradation in hypoxic tumor cells of "
         "HIF-1alpha that is not hydroxylated at the two proline residues.")
PHARMACISTS = ("Nine of the studies examined the role of pharmacists in providing treatment recommendations and patient "
               "education, five featured pharmacists as providers (with prescriptive authority), and the remaining two "
               "described the impact pharmacists have in delivering education to the psychiatric staff. Six of the 16 "
               "studies were prospective, but only three of these incorporated a randomization procedure for patients "
               "or facilities.")
LIFESPAN = ("Low birth weight caused by maternal protein restriction followed by catch-up growth (recuperated animals) was "
            "associated with shortened lifespan whereas protein restriction and slow growth during lactation (postnatal "
            "low protein: PLP animals) increased lifespan.")
RETINOIDS = ("Vitamin A and its derivatives, collectively called retinoids, are solubilized by intracellular "
             "retinoid-binding proteins such as cellular retinol-binding protein (CRBP), cellular retinoic acid-binding "
             "protein (CRABP) and cellular retinal-binding protein (CRALBP).")
BEIGE = ("Our study uncovers a noncanonical thermogenic mechanism through which beige fat controls whole-body energy "
         "homeostasis via Ca2+ cycling.")


def test_a_negation_dropped_in_the_claims_first_clause():
    """75 S15 (*supported* at 0.87): "many opportunistic pathogens conform to these assumptions, maintaining virulence
    factors because they aid parasitic exploitation" for "... do not conform to these assumptions, with virulence
    factors maintained instead ...": the clause after the comma differs, the first clause drops the negation."""
    (tag,) = proven(detect_polarity_flip, "An increasing number of studies now demonstrate that many opportunistic "
                    "pathogens conform to these assumptions, maintaining virulence factors because they aid parasitic "
                    "exploitation.", CONFORM)
    assert escalates(tag) and "first clause" in tag.message
    assert not proven(detect_polarity_flip, "An increasing number of studies now demonstrate that many opportunistic "
                      "pathogens do not conform to these assumptions, maintaining virulence factors for other reasons.",
                      CONFORM)


def test_the_actor_and_the_acted_on_exchanged_across_voices():
    """75 S17 (*supported* at 0.89): "Virulence selection constrains the correlations" for "virulence selection is
    constrained by correlations"; the same relation in the other voice, or said with another verb, is no exchange."""
    (tag,) = proven(detect_polarity_flip, "Virulence selection constrains the correlations between external and focal "
                    "settings.", CONSTRAINED)
    assert escalates(tag) and spans(tag) == ("selection", "correlations")
    assert not proven(detect_polarity_flip, "Correlations between external and focal settings constrain virulence "
                      "selection.", CONSTRAINED)
    assert not proven(detect_polarity_flip, "Selection on virulence is limited by correlations between external and "
                      "focal environments, and generalist strategies and phenotypic plasticity are highlighted as "
                      "drivers of these correlations.", CONSTRAINED)  # the 75th trial's faithful S18


def test_a_degree_governing_two_nouns_turned_for_the_second():
    """76 S13 (*supported* at 0.92): "at low pH and high oxygen tension" for "at low pH and oxygen tension"."""
    (tag,) = proven(detect_polarity_flip, "Reduction of nitrite to NO may occur enzymatically at low pH and high oxygen "
                    "tension by deoxyhemoglobin, deoxymyoglobin, xanthine oxidase, mitochondrial complexes or NO "
                    "synthase.", NITRITE)
    assert escalates(tag) and spans(tag)[0] == "high oxygen"
    assert not proven(detect_polarity_flip, "Nitrite can be reduced to NO enzymatically at low pH and oxygen tension by "
                      "deoxyhemoglobin, deoxymyoglobin, xanthine oxidase, mitochondrial complexes or NO synthase.", NITRITE)


def test_a_method_the_source_never_names_for_the_one_it_used():
    """76 S26 (*supported* at 0.96): "X-ray crystallography showed" for "We found from NMR spectroscopy"; its long form
    is the same method."""
    (tag,) = proven(detect_term_swap, "X-ray crystallography showed that these sequence motifs bind to the DNA-binding "
                    "site of p53c.", NMR)
    assert escalates(tag) and spans(tag) == ("X-ray crystallography", "NMR")
    assert not proven(detect_term_swap, "Nuclear magnetic resonance showed that these sequence motifs bind to the "
                      "DNA-binding site of p53c.", NMR)


def test_the_words_around_a_shared_relation_exchanged():
    """76 S29 (*supported*): "HIF-1alpha provides a route for the degradation of p53" for "p53 provides a route for the
    degradation in hypoxic tumor cells of HIF-1alpha"; 78 S06 (*supported* at 0.95): "the psychiatric staff delivered
    education to the pharmacists" for "pharmacists ... delivering education to the psychiatric staff". A faithful
    SciFact training claim, "Ca2+ cycling controls whole-body energy homeostasis in beige fat" for "beige fat controls
    whole-body energy homeostasis via Ca2+ cycling", ties its words to the relation by other prepositions."""
    (tag,) = proven(detect_polarity_flip, "The binding data support the proposal that HIF-1alpha provides a route for "
                    "the degradation of p53 in hypoxic tumor cells.", ROUTE)
    assert escalates(tag) and spans(tag) == ("HIF-1alpha", "p53")
    (tag,) = proven(detect_polarity_flip, "In two of the studies, the psychiatric staff delivered education to the "
                    "pharmacists.", PHARMACISTS)
    assert escalates(tag) and spans(tag) == ("staff", "pharmacists")
    assert not proven(detect_polarity_flip, "In two of the studies, pharmacists delivered education to the psychiatric "
                      "staff.", PHARMACISTS)
    assert not proven(detect_polarity_flip, "Ca2+ cycling controls whole-body energy homeostasis in beige fat.", BEIGE)


def test_one_for_a_count_written_as_a_word():
    """78 S07 (*supported* at 0.92): "only one of these incorporated a randomization procedure" for "only three"."""
    (tag,) = proven(detect_number_drift, "Six of the 16 studies were prospective, but only one of these incorporated a "
                    "randomization procedure for patients or facilities.", PHARMACISTS)
    assert escalates(tag) and spans(tag) == ("one", "three")
    assert not proven(detect_number_drift, "Six of the 16 studies were prospective, but only three of these "
                      "incorporated a randomization procedure for patients or facilities.", PHARMACISTS)


def test_a_cause_stated_once_more_than_the_sentence_states_it():
    """78 S12 (*supported*): "Low birth weight caused by maternal protein restriction followed by catch-up growth causes
    a shortened lifespan" for "... was associated with shortened lifespan": the source's own *caused* had hidden the
    claim's second cause."""
    tags = detect_causal_overclaim("Low birth weight caused by maternal protein restriction followed by catch-up "
                                   "growth causes a shortened lifespan in recuperated animals.", LIFESPAN,
                                   source_text=LIFESPAN)
    assert [(t.name, t.confidence, spans(t)) for t in tags] == [("causal_overclaim", 0.85, ("causes", "associated"))]
    assert not detect_causal_overclaim("Low birth weight caused by maternal protein restriction followed by catch-up "
                                       "growth was associated with a shortened lifespan.", LIFESPAN,
                                       source_text=LIFESPAN)


def test_a_name_and_what_it_names_in_the_other_order_are_no_exchange():
    """76 S04, faithful (*contradicted*: a proven false alarm): "Retinoids, the collective name for vitamin A and its
    derivatives, are solubilized ..." for "Vitamin A and its derivatives, collectively called retinoids, are
    solubilized ..."."""
    assert not proven(detect_polarity_flip, "Retinoids, the collective name for vitamin A and its derivatives, are "
                      "solubilized by intracellular binding proteins such as CRBP, CRABP and CRALBP.", RETINOIDS)


def test_a_sentence_opening_with_a_greek_letter_is_its_own():
    """76: "... vision in humans [@k]. α-Tocopherol, the main form of vitamin E ... [@k]." had been one claim, judged
    twice."""
    from citeproof.text.sentences import split_sentences

    assert split_sentences("CRALBP-mediated transport is not essential for vision in humans. α-Tocopherol, the main "
                           "form of vitamin E, is transported by α-TTP. β-catenin levels rose. Smith et al. α-TTP binds "
                           "it.") == ["CRALBP-mediated transport is not essential for vision in humans.",
                                      "α-Tocopherol, the main form of vitamin E, is transported by α-TTP.",
                                      "β-catenin levels rose.", "Smith et al. α-TTP binds it."]


CAPSULAR = ("Confusion and memory loss from capsular genu infarction\n"
            "We examined six patients with an abrupt change in behavior after infarction involving the inferior genu "
            "of the internal capsule.\n"
            "A right-sided infarct caused transient impairment in visuospatial memory.\n"
            "Functional brain imaging in three patients showed a focal reduction in hemispheric perfusion.\n"
            "\"\n")


def test_a_title_line_is_a_heading_and_a_lone_quote_no_passage():
    """Four users of session 24 found a source's title glued to its first abstract sentence as the evidence shown
    ("line 1"); a 77th trial's abstract, ending in a line holding a lone *"*, was one passage for all its findings."""
    from citeproof.model import Source
    from citeproof.retrieval.lexical import LexicalRetriever
    from citeproof.sources.text import parse_text

    passages, _ = parse_text(CAPSULAR)
    assert [(p.line, p.section != "") for p in passages] == [(1, True), (2, False), (3, False), (4, False)]
    src = Source(citekey="k", passages=passages)
    found = LexicalRetriever().retrieve("Memory loss from capsular genu infarction: six patients examined after an "
                                        "infarct of the inferior genu of the internal capsule", src)
    assert all("+" not in e.passage.id or not e.passage.id.startswith("p00001") for e in found)
    assert not any(e.passage.text.startswith("Confusion and memory loss from capsular genu infarction We") for e in found)


def _finding(reasons, shown, cands, passages):
    from citeproof.model import Citation, Claim, Evidence, Finding, Source, Verdict

    src = Source(citekey="k", passages=passages)
    claim = Claim(id="c1", text="x", raw="x", citations=(Citation("k"),), document="d.md", line=1)
    ev = [Evidence(passage=p, source=src, scores={"lexical": s}) for p, s in cands]
    f = Finding(claim=claim, citation=claim.citations[0], verdict=Verdict.PARTIAL, reasons=reasons,
                evidence=ev[shown], alternatives=[e for k, e in enumerate(ev) if k != shown])
    return f, ev, src


def test_the_evidence_shown_holds_the_sentence_the_verdict_rests_on():
    """Users of every trial found the passage shown was not the sentence judged (session 24: 7 of 107 findings of four
    trials). After the detectors, the evidence becomes the passage holding the deciding sentence; a joined pair is
    narrowed to the sentence's own passage; the verdict does not change."""
    from citeproof.judging import deciding_sentence, show_deciding_passage
    from citeproof.model import Passage

    a = Passage(id="p00002", text="To date, the information available about these modifications has been incomplete.", line=2)
    b = Passage(id="p00003", text="To address this issue, we isolated all 22 species of mt tRNAs from bovine liver.", line=3)
    c = Passage(id="p00004", text="These modifications are required for the proper functioning of mt tRNAs.", line=4)
    pair = Passage(id="p00002+p00003", text=a.text + " " + b.text, line=2)
    judged = ("judged sentence: \u201cTo address this issue, we isolated all 22 species of mt tRNAs from bovine "
              "liver.\u201d network P(entails) 0.30, P(contradicts) 0.20")
    f, ev, src = _finding(["partial: the words were found", judged], 0, [(pair, 0.7), (c, 0.4)], [a, b, c])
    show_deciding_passage(f, ev, src)
    assert (f.evidence.passage.id, f.evidence.passage.line, f.evidence.scores) == ("p00003", 3, {"lexical": 0.7})
    # a detector's sentence decides when its tag made the verdict; the passage first shown moves to the alternatives
    tag = ("unsupported: term_swap on the sentence that restates the claim (the judge alone said supported); the claim "
           "says 'liver' where the source says 'kidney': \u201cThese modifications are required for the proper "
           "functioning of mt tRNAs.\u201d")
    f, ev, src = _finding([tag, judged], 0, [(pair, 0.7), (c, 0.4)], [a, b, c])
    assert deciding_sentence(f).startswith("These modifications")
    show_deciding_passage(f, ev, src)
    assert f.evidence.passage.id == "p00004" and f.alternatives[0].passage.id == "p00002+p00003"
    # nothing quoted, nothing moved
    f, ev, src = _finding(["lexical tier only"], 0, [(pair, 0.7), (c, 0.4)], [a, b, c])
    show_deciding_passage(f, ev, src)
    assert f.evidence.passage.id == "p00002+p00003"


def test_a_droplet_is_no_drop():
    """75: "a fatty meal transiently induces their accumulation" and "The large cytosolic lipid droplet accumulation
    ... causes the reduced ..." were warned of as incompatible directions, "induces" vs "droplet" (*drop\\w\\**)."""
    from citeproof.assist.consistency import _direction_clash
    from citeproof.detectors.polarity import _cues

    assert [c[1] for c in _cues("Large cytosolic lipid droplets accumulate in enterocytes.")] == []
    assert [c[1] for c in _cues("Plasma TG levels dropped sharply.")] == ["dropped"]
    assert _direction_clash(
        "Although enterocytes are not thought to store triglyceride-rich lipid droplets, a fatty meal transiently "
        "induces their accumulation in the cytosol.",
        "The large cytosolic lipid droplet accumulation in absorptive enterocytes causes the reduced postprandial "
        "plasma triglyceride concentrations seen in intestine-specific CGI-58 knockout mice.") is None
