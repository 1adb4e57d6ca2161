"""Issue 28: what the twenty-first and twenty-second new users' trials found (2026-12-06, session 21, held out on
`ad6761b`: 8 and 13 of 20 false claims caught, 2 and 2 supported), and the nineteenth's place widening. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): hormone replacement therapy in
inflammatory bowel disease (doc 12236208), filopodia in Drosophila dorsal closure (13963620), cytomegalovirus
microRNAs (6404801), heat shock proteins in stem cells (20524091), Musca sorbens breeding media (34760396); and, for
a faithful twin, beige fat thermogenesis (19205437).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.polarity import _negation_mismatch, detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.significance import detect_significance_inflation
from citeproof.detectors.swaps import detect_term_swap
from citeproof.judges.policy import POLICY, escalation
from citeproof.model import Verdict
from tests.meaning_cases import proven, spans

HRT = ("Patients with inflammatory bowel disease have an increased prevalence of osteoporosis, and suffer high rates of "
       "spinal bone loss. Hormone replacement therapy (HRT) is effective in the treatment and prevention of osteoporosis "
       "but has not been studied in patients with inflammatory bowel disease. Changes in bone density for patients with "
       "ulcerative colitis and Crohn's disease were not significantly different.")
CLOSURE = ("We observe mutually exclusive interactions between the filopodia of engrailed and patched cells. Finally, we "
           "characterise the behaviour of a patched-expressing cell that we observe within the engrailed region of "
           "segments A1-A5, and provide evidence that this cell contributes to cell matching.")
CMV = ("Recently, a number of viruses, particularly of the herpesvirus family, have been shown to express their own miRNAs "
       "to control both viral and cellular transcripts. During subacute infection of a mutant mouse cytomegalovirus "
       "lacking two viral miRNAs, virus production is selectively reduced in salivary glands, an organ essential for "
       "virus persistence and horizontal transmission.")
MUSCA = ("We sought to identify breeding media of M. sorbens in a rural Gambian village endemic for trachoma. We consider "
         "that human faeces are the best larval medium for M. sorbens, although some breeding also occurs in animal "
         "faeces.")
BEIGE = ("Our study uncovers a noncanonical thermogenic mechanism through which beige fat controls whole-body energy "
         "homeostasis via Ca2+ cycling.")


def test_significance_the_restating_sentence_denies_is_proven_and_contradicts():
    """21 C19 (*partial*, the tag 0.9 but unproven): "differed significantly between patients with ulcerative colitis
    and those with Crohn's disease" for "... were not significantly different"."""
    claim = ("Changes in bone density under HRT differed significantly between patients with ulcerative colitis and "
             "those with Crohn's disease.")
    [tag] = detect_significance_inflation(claim, HRT, source_text=HRT)
    assert (tag.proven, spans(tag)) == (True, ("significantly", "not significantly"))
    assert escalation(Verdict.SUPPORTED, [tag], POLICY)[0] == Verdict.CONTRADICTED
    assert detect_significance_inflation(claim.replace("differed significantly", "did not differ significantly"), HRT,
                                         source_text=HRT) == []


def test_a_cause_for_an_increased_prevalence_is_an_overclaim():
    """21 C27 (*supported*): "Inflammatory bowel disease causes osteoporosis" for "an increased prevalence of
    osteoporosis" (the whole abstract also names treatments, so the trial's tag was 0.7)."""
    [tag] = detect_causal_overclaim("Inflammatory bowel disease causes osteoporosis and high rates of spinal bone loss "
                                    "in affected patients.", HRT, source_text=HRT)
    assert (tag.confidence, spans(tag)) == (0.85, ("causes", "an increased prevalence of"))  # 0.7 beside effect words
    assert detect_causal_overclaim("Patients with inflammatory bowel disease have an increased prevalence of "
                                   "osteoporosis.", HRT, source_text=HRT) == []


def test_a_name_whose_digits_differ_is_a_proven_swap():
    """21 C29 (*partial*): "segments A1-A8" for "segments A1-A5" (the word diff joined "A1-A5" to the clause after)."""
    claim = ("There is evidence that a patched-expressing cell found within the engrailed region of segments A1-A8 "
             "contributes to cell matching.")
    [tag] = proven(detect_term_swap, claim, CLOSURE)
    assert spans(tag) == ("A1-A8", "A1-A5")
    assert proven(detect_term_swap, claim.replace("A1-A8", "A1-A5"), CLOSURE) == []


def test_two_words_exchanged_in_their_places_are_a_proven_flip():
    """21 C05 (*partial*): "an engrailed-expressing cell found within the patched region" for "a patched-expressing
    cell that we observe within the engrailed region"; "A and B" turned round, or a sentence turned round around its
    verb (a faithful SciFact claim), is none."""
    claim = ("There is evidence that an engrailed-expressing cell found within the patched region of segments A1-A5 "
             "contributes to cell matching.")
    [tag] = proven(detect_polarity_flip, claim, CLOSURE)
    assert spans(tag) == ("engrailed", "patched")
    assert proven(detect_polarity_flip, claim.replace("an engrailed", "a patched").replace("the patched", "the engrailed"),
                  CLOSURE) == []
    assert proven(detect_polarity_flip, "We observe mutually exclusive interactions between the filopodia of patched and "
                  "engrailed cells.", CLOSURE) == []
    assert proven(detect_polarity_flip, "Ca2+ cycling controls whole-body energy homeostasis in beige fat.", BEIGE) == []


def test_an_opposite_cue_on_more_of_the_target_than_an_agreeing_one_downgrades():
    """21 C17 (*supported*, no tag): "shows selectively increased virus production in salivary glands" for "virus
    production is selectively reduced in salivary glands"; the source's "express their own miRNAs" agreed on two
    target words and silenced the rule."""
    claim = ("During subacute infection, a mouse cytomegalovirus lacking two viral miRNAs shows selectively increased "
             "virus production in salivary glands.")
    [tag] = detect_polarity_flip(claim, CMV, source_text=CMV)
    assert (tag.confidence >= 0.6, spans(tag)) == (True, ("increased", "reduced"))
    assert detect_polarity_flip(claim.replace("increased", "reduced"), CMV, source_text=CMV) == []


def test_a_claim_spread_over_a_continent_the_source_never_names_is_a_proven_widening():
    """19 C11 (*partial*): "Across the trachoma-endemic regions of Africa" for one Gambian village."""
    [tag] = proven(detect_scope_inflation, "Across the trachoma-endemic regions of Africa, human faeces are the best "
                   "larval medium for Musca sorbens.", MUSCA)
    assert spans(tag) == ("Across the trachoma-endemic regions of Africa", "")
    assert proven(detect_scope_inflation, "In a Gambian village, human faeces are the best larval medium for Musca "
                  "sorbens.", MUSCA) == []
    assert proven(detect_scope_inflation, "Across West Africa, human faeces are the best larval medium for Musca "
                  "sorbens.", MUSCA + " Flies were trapped across West Africa.") == []


def test_a_negation_message_quotes_the_claim_s_words():
    """20 and 21: "The claim negates ('not' decre endog SIP1 expre...)" quoted stems' first letters."""
    tag = _negation_mismatch("The filopodia do not express tethers in the embryo.",
                             ["The filopodia express tethers and align sheets in the embryo."])
    assert "('not' express tethers embryo...)" in tag.message

HSP = ("It appears that embryonic stem cells exhibit increased stress tolerance and concomitant high levels of chaperone "
       "expression. The function of Hsp, which are typically associated with stress response and tolerance, is well "
       "characterized in differentiated cells. Furthermore, we propose a model of chaperone-modulated self-renewal in "
       "mouse embryonic stem cells.")


def test_it_appears_that_is_a_hedge_and_as_a_result_of_a_cause():
    """22 C07 and C30 (*supported*): "have been shown to exhibit" for "It appears that embryonic stem cells exhibit";
    "stress tolerance as a result of their high levels of chaperone expression" for "and concomitant high levels"."""
    from citeproof.detectors.hedging import detect_hedge_removed

    claim = ("Embryonic stem cells have been shown to exhibit increased stress tolerance and concomitant high levels of "
             "chaperone expression.")
    [tag] = detect_hedge_removed(claim, HSP, source_text=HSP)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "It appears that")
    [tag] = detect_causal_overclaim("Embryonic stem cells appear to exhibit increased stress tolerance as a result of "
                                    "their high levels of chaperone expression.", HSP, source_text=HSP)
    assert (tag.confidence >= 0.7, tag.evidence[0].claim_span) == (True, "as a result of")


def test_all_inside_the_replaced_run_is_a_proven_widening_and_the_authors_are_we():
    """22 C18 (*partial*): "that holds for all types of mammalian stem cells" for "in mouse embryonic stem cells"; its
    faithful twin "The authors propose ..." for "Furthermore, we propose ..." was a proven swap (*authors* /
    *Furthermore*)."""
    [tag] = proven(detect_scope_inflation, "The authors propose a model of chaperone-modulated self-renewal that holds "
                   "for all types of mammalian stem cells.", HSP)
    assert spans(tag) == ("all types of mammalian", "in mouse embryonic")
    faithful = "The authors propose a model of chaperone-modulated self-renewal in mouse embryonic stem cells."
    assert proven(detect_term_swap, faithful, HSP) == [] and proven(detect_scope_inflation, faithful, HSP) == []
    [tag] = proven(detect_term_swap, faithful.replace("mouse", "human"), HSP)
    assert spans(tag) == ("human", "mouse")


def test_a_cause_clause_turned_into_a_consequence_is_no_exchange():
    """21 C03 (faithful, *contradicted* by a proven exchange): "not unique to dorsal closure, since it is also seen
    when laser wounds ... are repaired" for "also occurs during repair of laser wounds ..., and so this behaviour is
    not restricted to leading edge cells during dorsal closure"."""
    source = ("Filopodial matching also occurs during repair of laser wounds in the ventral epithelium, and so this "
              "behaviour is not restricted to leading edge cells during dorsal closure.")
    assert proven(detect_polarity_flip, "Matching of filopodia is not unique to dorsal closure, since it is also seen "
                  "when laser wounds in the ventral epithelium are repaired.", source) == []


def test_two_names_exchanged_where_the_sentence_opens_are_a_proven_flip():
    """23 C17 (*supported*): "ErbB4 is a secreted trophic factor that activates the postsynaptic NRG1 receptor" for
    "Neuregulin 1 (NRG1) is ... the postsynaptic erbB4 receptor" (the long form read as its short form)."""
    source = ("Neuregulin 1 (NRG1) is a secreted trophic factor that activates the postsynaptic erbB4 receptor tyrosine "
              "kinase. Both NRG1 and erbB4 have been repeatedly associated with schizophrenia.")
    claim = "ErbB4 is a secreted trophic factor that activates the postsynaptic NRG1 receptor tyrosine kinase."
    [tag] = proven(detect_polarity_flip, claim, source)
    assert spans(tag) == ("ErbB4", "NRG1")
    assert proven(detect_polarity_flip, "NRG1 is a secreted trophic factor that activates the postsynaptic erbB4 "
                  "receptor tyrosine kinase.", source) == []


def test_two_numbers_given_to_each_other_s_group_are_a_proven_flip():
    """19 C04 and 23 C24 (*supported*): odds ratios and percentages exchanged between two groups."""
    eggs = ("Egg rolls were the only item significantly associated with illness in both analyses (first control group: "
            "odds ratio [OR] 8.2, 95% confidence interval [CI] 2.3-31.6; second control group: OR 13.1, 95% CI "
            "2.1-97.0).")
    claim = ("Egg rolls were associated with illness with an odds ratio of 13.1 against the first control group and 8.2 "
             "against the second.")
    [tag] = proven(detect_polarity_flip, claim, eggs)
    assert spans(tag) == ("13.1", "8.2")
    assert proven(detect_polarity_flip, claim.replace("13.1", "X").replace("8.2", "13.1").replace("X", "8.2"), eggs) == []
    cns = ("The ratio of CNS metastases to total number of recurrence events was 16.94% (95% CI 10.85% to 24.07%) and "
           "8.33% (95% CI 6.49% to 10.86%) for the trastuzumab-treated and control groups, respectively.")
    claim = ("The ratio of CNS metastases to total number of recurrence events was 8.33% in the trastuzumab-treated group "
             "and 16.94% in the control group.")
    [tag] = proven(detect_polarity_flip, claim, cns)
    assert spans(tag) == ("8.33%", "16.94%")
    assert proven(detect_polarity_flip, "The ratio of CNS metastases to total number of recurrence events was 16.94% in "
                  "the trastuzumab-treated group and 8.33% in the control group.", cns) == []


def test_n_times_as_many_for_one_nth_is_a_proven_flip():
    """19b C03 (*supported*): "four times as many labeled cells were detected ... as in saline-treated control mice"
    for "only one fourth of labeled cells could be detected ... compared to saline-treated control mice"."""
    source = ("By intrathymic labeling with fluorescein isothiocyanate, only one fourth of labeled cells could be detected "
              "in the lymph nodes and in the spleen of FTY720-treated mice compared to saline-treated control mice.")
    claim = ("After intrathymic labeling with fluorescein isothiocyanate, four times as many labeled cells were detected "
             "in the lymph nodes and spleen of FTY720-treated mice as in saline-treated control mice.")
    [tag] = proven(detect_polarity_flip, claim, source)
    assert spans(tag) == ("four times", "one fourth")
    assert proven(detect_polarity_flip, claim.replace("four times as many", "a quarter as many"), source) == []


def test_all_the_source_says_elsewhere_is_no_named_widening():
    """The demo's Sci-Hub paper: "68.9% of all scholarly articles" against page 2's "as of March 2017, ... 68.9% of the
    81.6 million scholarly articles registered with Crossref" was a proven widening (*March*, then *Crossref*, read as
    a named kind) once the sentence stood alone; page 7 says "68.9% of all articles"."""
    page2 = ("Here we report that, as of March 2017, Sci-Hub's database contains 68.9% of the 81.6 million scholarly "
             "articles registered with Crossref and 85.1% of articles published in toll access journals.")
    claim = "Sci-Hub's database contains 68.9% of all scholarly articles"
    assert proven(detect_scope_inflation, claim, page2 + " Sci-Hub holds 56 million articles, 68.9% of all articles.") == []
    [tag] = proven(detect_scope_inflation, claim, page2)
    assert spans(tag) == ("all", "Crossref")
