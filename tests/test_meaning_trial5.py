"""Issue 28: false claims in the source's own words that a fifth, sixth and seventh new user's trials found passing
(2026-12-06, session 18; each on three SciFact corpus abstracts no training claim cites, held out from the detectors),
each rule with the faithful twin that must stay untagged. No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): nuclear and cytoplasmic behaviour in the
mitotic cycles of Drosophila embryos (doc 25670099), the metagenome of a natural crude-oil seep (doc 16626846), and
NRAGE in hepatocellular carcinoma (doc 22521091).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

WAVES = ("During nuclear cycles 10 through 13, it is commonly observed in living embryos that the syncytial blastoderm "
         "nuclei enter (and leave) mitosis in one of two waves that originate nearly simultaneously from the opposite "
         "anterior and posterior poles of the embryo, and terminate in its midregion. From our preparations of "
         "quick-frozen embryos, we estimate that these mitotic waves take on average about half a minute to travel over "
         "the embryonic surface from pole to equator.")
YOLK = ("The yolk nuclei, which remain in the core of the embryo when the rest of the nuclei migrate to the periphery, "
        "divide in synchrony with the migrating nuclei at nuclear cycles 8 and 9, and just after the now peripherally "
        "located nuclei at nuclear cycle 10. After cycle 10, these yolk nuclei cease dividing and become polyploid. The "
        "syncytial embryo has at least three distinct levels of cytoskeletal organization: structured domains of "
        "cytoplasm are organized around each blastoderm nucleus; radially directed tracks orient colchicine-sensitive "
        "saltatory transport throughout the peripheral cytoplasm; and a long-range organization of the core of the "
        "embryo makes possible coherent movements of the large inner yolk mass in concert with each nuclear cycle.")
SEEP = ("Members of Oceanospirillales, a bacterial order belonging to the Deltaproteobacteria, recruited less than 2% of "
        "the assembled genes within the SBC metagenome. We hypothesize that this difference results from the SBC oil "
        "seep being mostly anaerobic, while the DWH oil plume is aerobic.")
NRAGE = ("It was demonstrated that the expression levels of NRAGE mRNA correlated significantly with those of "
         "apoptosis-antagonizing transcription factor (AATF), and were not affected by cirrhosis in non-cancerous liver "
         "tissues when compared to elevated levels in HCC tissues.")


def test_two_groups_exchanged_across_parallel_clauses_are_a_proven_flip():
    """c11 and c17 (the judge said supported at 0.96 and 0.84): where the waves start and end, which site is
    anaerobic and which aerobic."""
    waves = ("During nuclear cycles 10 through 13, the syncytial blastoderm nuclei enter mitosis in one of two waves "
             "that originate in the midregion of the embryo and terminate at its opposite anterior and posterior poles")
    [tag] = _proven(detect_polarity_flip, waves, WAVES)
    assert _spans(tag) == (
        "midregion", "opposite anterior and posterior poles")
    seep = ("The authors hypothesize that this difference results from the DWH oil plume being mostly anaerobic, while "
            "the SBC oil seep is aerobic")
    [tag] = _proven(detect_polarity_flip, seep, SEEP)
    assert _spans(tag) == ("DWH oil plume", "SBC oil seep")
    # the faithful twins: the same words the source's way round
    assert _proven(detect_polarity_flip, ("During nuclear cycles 10 through 13, the syncytial blastoderm nuclei enter "
                                          "mitosis in waves that originate at the opposite anterior and posterior poles "
                                          "of the embryo and terminate in its midregion"), WAVES) == []
    assert _proven(detect_polarity_flip, ("The authors hypothesize that this difference results from the SBC oil seep "
                                          "being mostly anaerobic, while the DWH oil plume is aerobic"), SEEP) == []


def test_block_exchange_without_a_clause_joiner_is_a_paraphrase():
    """The same shape with no joiner between the two terms is how faithful citations reorder a sentence ("CCL19 is a
    ligand for CCR7" / "the CCR7 ligand, CCL19")."""
    source = "The CCR7 ligand, CCL19, attracts naive T cells to lymph nodes."
    claim = "CCL19 is a ligand for CCR7 and attracts naive T cells to lymph nodes."
    assert _proven(detect_polarity_flip, claim, source) == []
    # a list reordered while a term moves: "size" is coordinated with "number", no clause of its own (a faithful
    # Citation-Integrity training citation the first version of the rule tagged)
    assert _proven(detect_polarity_flip, "It is known that reduction in size and number of goblet cells is a "
                   "characteristic feature of human ulcerative colitis.",
                   "Goblet cells are reduced in number and size in ulcerative colitis.") == []
    # with "while" between the two terms the same order is an exchange of roles
    [tag] = _proven(detect_polarity_flip, "CCL19 is the ligand, while CCR7 attracts naive T cells to lymph nodes.",
                    "CCR7 is the ligand, while CCL19 attracts naive T cells to lymph nodes.")
    assert (tag.evidence[0].claim_span.lower(), tag.evidence[0].evidence_span.lower()) == ("ccl19", "ccr7")


def test_negation_dropped_past_a_conjunct_the_claim_leaves_out():
    """c22 (supported at 0.89 on another sentence): "correlated ... with AATF, and were not affected by cirrhosis"
    cited as "were affected by cirrhosis"."""
    claim = "The expression levels of NRAGE mRNA were affected by cirrhosis in non-cancerous liver tissues"
    [tag] = _proven(detect_polarity_flip, claim, NRAGE)
    assert _spans(tag) == ("affected", "not affected")
    assert _proven(detect_polarity_flip, claim.replace("were affected", "were not affected"), NRAGE) == []


def test_direction_word_turned_past_a_conjunct_and_an_aside():
    """c24 (supported, the judge's 0.69): "divide ... at nuclear cycles 8 and 9, and just after" cited as "just
    before"; the source's relative clause and first conjunct sit between the claim's words."""
    claim = "The yolk nuclei divide just before the now peripherally located nuclei at nuclear cycle 10"
    [tag] = _proven(detect_polarity_flip, claim, YOLK)
    assert _spans(tag) == ("before", "after")
    assert _proven(detect_polarity_flip, claim.replace("before", "after"), YOLK) == []


def test_term_swap_read_on_the_clause_that_restates_the_claim():
    """c26 (partial, its 0.7 swap unproven): the claim restates one clause of a sentence of three, and its last
    words were aligned with the next clause's."""
    claim = ("Radially directed tracks orient cytochalasin-sensitive saltatory transport throughout the peripheral "
             "cytoplasm of the syncytial embryo")
    [tag] = _proven(detect_term_swap, claim, YOLK)
    assert _spans(tag) == ("cytochalasin-sensitive", "colchicine-sensitive")
    assert detect_term_swap(claim.replace("cytochalasin", "colchicine"), YOLK, source_text=YOLK) == []


def test_a_bound_restated_ten_times_looser_is_number_drift():
    """c16 (supported at 0.77): "less than 2%" cited as "less than 20%"; implied, yet not the number the source
    gives. A bound restated with its own number, or an exact figure under the claim's bound, still matches."""
    claim = ("Members of Oceanospirillales, a bacterial order belonging to the Deltaproteobacteria, recruited less than "
             "20% of the assembled genes within the SBC metagenome")
    [tag] = detect_number_drift(claim, SEEP, source_text=SEEP)
    assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span, tag.proven) == ("less than 20%", "less than 2%", True)
    assert detect_number_drift(claim.replace("20%", "2%"), SEEP, source_text=SEEP) == []
    exact = SEEP.replace("less than 2%", "1.8%")
    assert detect_number_drift(claim.replace("20%", "2%"), exact, source_text=exact) == []


def test_stop_for_cease_is_a_paraphrase():
    """c25 (faithful, lowered to partial by a 0.7 swap): "stop dividing" for "cease dividing"."""
    claim = "Once cycle 10 has passed, the yolk nuclei stop dividing and become polyploid"
    assert detect_term_swap(claim, YOLK, source_text=YOLK) == []


def test_report_says_what_decided_and_which_passage_is_shown(tmp_path):
    """The trial's report remarks: a verdict a proven tag made reads "decided by `tag` (proven by code)" beside its
    tier; the passage header says whether the judge read it; ``needs_review`` is explained where it stands."""
    import dataclasses

    from report_samples import small_report

    from citeproof.model import Tag, TagEvidence
    from citeproof.reports.markdown import render_markdown

    report = small_report(tmp_path)
    f = report.findings[1]
    proven = Tag("number_drift", "The claim says '75%' where the evidence says '68.9%'.", 0.9,
                 (TagEvidence("75%", "68.9%"),), proven=True)
    report.findings[1] = dataclasses.replace(
        f, tags=[proven], flags=["needs_review"],
        reasons=["contradicted: number_drift on the sentence that restates the claim (the judge alone said supported)"])
    md = render_markdown(report)
    assert "tier lexical · decided by `number_drift` (proven by code)" in md
    assert "`needs_review` (the tiers disagree, or the judge leaned hard against this verdict" in md
    assert "Passage holding most of the claim's words (" in md and "Best passage" not in md
    # an unproven tag, or a verdict the judge made, is not "decided by" the tag
    report.findings[1] = dataclasses.replace(f, tags=[dataclasses.replace(proven, proven=False)])
    assert "decided by" not in render_markdown(report)


def test_worldwide_for_one_study_site_is_proven_scope_inflation():
    """c06 (partial, its 0.8 tag unproven): one seep's metagenome cited as "metagenomes worldwide"; a source that
    names a world or global scope anywhere keeps the tag unproven."""
    from citeproof.detectors.scope import detect_scope_inflation

    claim = ("Members of Oceanospirillales recruit less than 2% of the assembled genes in natural marine oil seep "
             "metagenomes worldwide")
    [tag] = detect_scope_inflation(claim, SEEP, source_text=SEEP)
    assert (tag.name, tag.proven, tag.evidence[0].claim_span) == ("scope_inflation", True, "worldwide")
    wide = SEEP + " Natural seeps release oil into the oceans worldwide."
    assert [t.proven for t in detect_scope_inflation(claim, SEEP, source_text=wide)] == [False]


def test_two_species_exchanged_across_of_need_no_joiner():
    """The fourth trial's c04, left open then: "the rat ortholog (Slc23a1) of a mouse transporter" for the source's
    "the mouse ortholog (...) of a rat ascorbic-acid transporter"; single words of one kind (species) exchanged."""
    source = ("We have created mice deficient in the mouse ortholog (solute carrier family 23 member 1 or Slc23a1) of a "
              "rat ascorbic-acid transporter, Svct2 (ref. 4). Slc23a1-/- mice died within a few minutes of birth.")
    claim = "The knockout mice were deficient in the rat ortholog (Slc23a1) of a mouse ascorbic-acid transporter, Svct2"
    [tag] = _proven(detect_polarity_flip, claim, source)
    assert _spans(tag) == ("rat", "mouse")
    assert _proven(detect_polarity_flip, claim.replace("rat ortholog", "MOUSE").replace("mouse ascorbic", "rat ascorbic")
                   .replace("MOUSE", "mouse ortholog"), source) == []


def test_relevance_gate_off_by_default_and_masks_unrelated_contradictions():
    """The gate measured this session (docs/meaning.md, not shipped): with ``relevant_at`` 0 the features are as
    before; at 0.6 a contradiction read on a sentence sharing few of the claim's words no longer counts."""
    import numpy as np

    from citeproof.judges.entailment import SentenceScores, features, load_config, relevant

    claim = "Across 30 representative paired specimens, NRAGE protein and mRNA showed concordant expression patterns"
    windows = ["In 30 representative paired specimens, NRAGE protein and mRNA expression patterns were concordant.",
               NRAGE]
    sc = SentenceScores(windows, [0, 1], np.array([[0.40, 0.40, 0.20], [0.06, 0.06, 0.88]]))
    assert relevant(claim, windows, 0.0).tolist() == [True, True]
    assert relevant(claim, windows, 0.6).tolist() == [True, False]
    off, on = features(claim, sc), features(claim, sc, 0.6)
    assert off[1] == 0.88 and on[1] == 0.20  # max P(contradicts)
    assert "relevant_at" not in load_config()  # shipped off


def test_term_swap_read_on_the_conjunct_that_restates_the_claim():
    """c20 (partial, 0.7): "apoptosis-inducing factor (AIF)" for "apoptosis-antagonizing transcription factor (AATF)",
    the source sentence going on ", and were not affected by cirrhosis ..."."""
    claim = ("The expression levels of NRAGE mRNA correlated significantly with those of apoptosis-inducing factor (AIF) "
             "in HCC")
    [tag] = _proven(detect_term_swap, claim, NRAGE)
    assert tag.evidence[0].claim_span == "apoptosis-inducing"
    faithful = claim.replace("apoptosis-inducing factor (AIF)", "apoptosis-antagonizing transcription factor (AATF)")
    assert _proven(detect_term_swap, faithful, NRAGE) == []


def test_a_number_with_its_unit_hyphenated_is_read():
    """A sixth trial's c12 (partial, no tag): "an 8.6-cM interval" for "a 5.6-cM interval"; "5-HT" stays a name."""
    from citeproof.detectors.quantities import extract_quantities

    source = ("Our previous work mapped the locus responsible, SPCH1, to a 5.6-cM interval of region 7q31 on "
              "chromosome 7 (ref. 5).")
    claim = "Previous work mapped the locus responsible, SPCH1, to an 8.6-cM interval of region 7q31 on chromosome 7"
    [tag] = detect_number_drift(claim, source, source_text=source)
    assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span, tag.proven) == ("8.6-cM", "5.6-cM", True)
    assert detect_number_drift(claim.replace("an 8.6", "a 5.6"), source, source_text=source) == []
    assert [(q.lo, q.unit) for q in extract_quantities("a 10-mg dose of 5-HT")] == [(10.0, "mg")]


FOXP2 = ("Although studies of twins consistently indicate that a significant genetic component is involved1,2,3, most "
         "families segregating speech and language deficits show complex patterns of inheritance, and a gene that "
         "predisposes individuals to such disorders has not been identified. We have studied a unique three-generation "
         "pedigree, KE, in which a severe speech and language disorder is transmitted as an autosomal-dominant "
         "monogenic trait4.")


def test_reference_numbers_glued_to_words_do_not_hide_a_reversal():
    """A sixth trial (SciFact doc 83707680, Nature-style superscripts printed as "involved1,2,3", "trait4"): a dropped
    "not" and "autosomal-recessive" for "autosomal-dominant" were *supported* and *partial*."""
    dropped = ("Although studies of twins consistently indicate that a significant genetic component is involved, most "
               "families segregating speech and language deficits show complex patterns of inheritance, and a gene that "
               "predisposes individuals to such disorders has been identified")
    [tag] = _proven(detect_polarity_flip, dropped, FOXP2)
    assert _spans(tag) == ("been", "not been")
    assert _proven(detect_polarity_flip, dropped.replace("has been", "has not been"), FOXP2) == []
    recessive = ("In the three-generation KE pedigree, a severe speech and language disorder is transmitted as an "
                 "autosomal-recessive monogenic trait")
    [tag] = _proven(detect_polarity_flip, recessive, FOXP2)
    assert _spans(tag) == ("autosomal-recessive", "autosomal-dominant")
    assert _proven(detect_polarity_flip, recessive.replace("recessive", "dominant"), FOXP2) == []


def test_a_glued_number_is_read_as_a_note_only_beside_the_bare_word():
    from citeproof.text.stems import stem_opcodes

    assert stem_opcodes(["monogenic", "trait"], ["monogenic", "trait4"]) == [("equal", 0, 2, 0, 2)]
    # "epsilon4" against "epsilon3" stays a difference: neither text has the bare word
    assert [op[0] for op in stem_opcodes(["apoe", "epsilon3"], ["apoe", "epsilon4"])] == ["equal", "replace"]


def test_terms_exchanged_around_an_ordering_word_are_a_proven_flip():
    """A sixth trial's c01 (supported at 0.93): "Anti-HCV testing has become obsolete since the introduction of ALT
    surrogate testing" for the other way round. *since* orders the two terms; the faithful twin and a reordering with
    no such word ("CCL19 is a ligand for CCR7" / "the CCR7 ligand, CCL19") stay untagged."""
    source = ("ALT surrogate testing has become obsolete since the introduction of anti-HCV testing. The residual risk "
              "of HCV transmission is about 1 in 100 000 transfusions.")
    claim = "Anti-HCV testing has become obsolete since the introduction of ALT surrogate testing"
    [tag] = _proven(detect_polarity_flip, claim, source)
    assert _spans(tag) == ("Anti-HCV", "ALT surrogate")
    assert _proven(detect_polarity_flip, "ALT surrogate testing has become obsolete since the introduction of "
                   "anti-HCV testing", source) == []
    assert _proven(detect_polarity_flip, "CCL19 is a ligand for CCR7 and attracts naive T cells to lymph nodes.",
                   "The CCR7 ligand, CCL19, attracts naive T cells to lymph nodes.") == []


def test_two_whole_clauses_in_the_other_order_are_a_reordering():
    """The second trial's M4, faithful, was *contradicted* by a first version of the ordering-word rule: the claim
    puts the source's two clauses around "whereas" the other way round ("parasites from ..." read *from* as an
    ordering word)."""
    source = ("Parasites causing severe malaria exhibited unrestricted red blood cell invasion, whereas those from "
              "uncomplicated malaria were restricted to a geometric mean of 40 (31%-53%) of red blood cells.")
    claim = ("Parasites from uncomplicated infections could invade only a restricted subset of red cells (geometric mean "
             "40%), whereas parasites from severe infections invaded red blood cells without restriction")
    assert _proven(detect_polarity_flip, claim, source) == []


def test_a_cause_the_restating_sentence_does_not_state_downgrades():
    """A sixth trial's c19 (*supported* at 0.97, its causal tag 0.5): "a severe initial presentation causes
    subsequent flares to be of lesser severity" for a sentence that only describes the course; 0.7 downgrades to
    *partial* (``causal_overclaim`` stays partial by design). The source's own causal wording keeps it silent."""
    from citeproof.detectors.causal import detect_causal_overclaim

    source = ("Many human organ-specific autoimmune diseases are characterized by the initial presentation of the "
              "disease being the most severe, with subsequent flares being of lesser severity and duration.")
    claim = ("In many human organ-specific autoimmune diseases, a severe initial presentation causes subsequent flares "
             "to be of lesser severity and duration")
    [tag] = detect_causal_overclaim(claim, source, source_text=source)
    assert (tag.confidence, tag.evidence[0].claim_span) == (0.7, "causes")
    causal = source.replace("characterized by", "marked by").replace("with subsequent", "which causes subsequent")
    assert detect_causal_overclaim(claim, causal, source_text=causal) == []


def test_incorporating_for_expressing_is_a_paraphrase():
    """A faithful Citation-Integrity training citation (ci:491) became a proven swap once the source's glued reference
    numbers ("previously9,10,16") stopped counting as a difference: *incorporating* is one common verb for another."""
    source = ("The SARS-CoV-2 pseudoviruses expressing a luciferase reporter gene were generated in an approach similar "
              "to as described previously9,10,16.")
    claim = ("A SARS-CoV-2 pseudovirus, incorporating a luciferase reporter gene, was generated similar to previously "
             "described approaches.")
    assert detect_term_swap(claim, source, source_text=source) == []


def test_mouse_and_human_for_mouse_cells_is_proven_scope_inflation():
    """A seventh trial's N10 (*supported* at 0.96): "in mouse and human embryonic stem cells" for the source's mouse
    cells; *mouse* (singular) was missing from the both-populations patterns."""
    from citeproof.detectors.scope import detect_scope_inflation

    evidence = "However, here we report that Nanog fluctuates in mouse embryonic stem cells."
    [tag] = detect_scope_inflation("Nanog fluctuates in mouse and human embryonic stem cells", evidence,
                                   source_text=evidence)
    assert (tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (True, "human", "mouse")
    assert detect_scope_inflation("Nanog fluctuates in mouse embryonic stem cells", evidence, source_text=evidence) == []


def test_term_swap_past_a_word_moved_within_the_sentence():
    """A seventh trial's C5 (partial, 0.7): "the folding of ... the p53 tumour suppressor protein" for "the ... Von
    Hippel-Lindau tumour suppressor protein ... folding"; a moved verb or adverb ("as previously described" / "as
    described previously", a faithful Citation-Integrity citation) is not set aside."""
    source = ("CCT/TRiC is also involved in the oncoprotein cyclin E, the Von Hippel-Lindau tumour suppressor protein, "
              "cyclin B and p21(ras) folding which strongly suggests that it is involved in cell proliferation.")
    claim = ("CCT/TRiC is also involved in the folding of the oncoprotein cyclin E, the p53 tumour suppressor protein, "
             "cyclin B and p21(ras)")
    [tag] = _proven(detect_term_swap, claim, source)
    assert _spans(tag) == ("p53", "Von Hippel-Lindau")
    assert detect_term_swap(claim.replace("p53", "Von Hippel-Lindau"), source, source_text=source) == []
    lenti = ("The SARS-CoV-2 pseudoviruses expressing a luciferase reporter gene were generated in an approach similar "
             "to as described previously9,10,16.")
    assert _proven(detect_term_swap, "A lentiviral pseudovirus expressing a luciferase reporter gene was generated as "
                   "previously described.", lenti) == []
