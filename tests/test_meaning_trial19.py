"""Issue 28: what the nineteenth and twentieth new users' trials found (2026-12-06, session 21, held out on `9f5681c`:
trial 19 twice on the same three abstracts, 9 and 12 of 20 false claims caught, 3 and 2 supported; trial 20, 7 caught,
2 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): FTY720 and thymocyte emigration (doc
1336292), Musca sorbens breeding media (34760396), microRNA-192 in diabetic kidney glomeruli (19828689), replication
fork reversal (20231138), and, for two misses of trial 18, cerebral palsy among term births (13791044).
"""

from __future__ import annotations

from citeproof.detectors import run_detectors_text
from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import proven, spans

FTY720 = ("Daily administration of FTY720 at a dose of 1 mg / kg resulted in a marked decrease in the number of "
          "peripheral blood T lymphocytes. In the thymus, long-term daily administration of FTY720 caused a three- to "
          "fourfold increase in the proportion of mature medullary thymocytes (CD4(+)CD8(-) and CD4(-)CD8(+)) as well "
          "as a slight decrease in the double-positive cell (CD4(+)CD8(+)) ratio. High level expression of L-selectin "
          "by these subsets further suggests that they were prevented from leaving the thymus. By intrathymic labeling "
          "with fluorescein isothiocyanate, only one fourth of labeled cells could be detected in the lymph nodes and in "
          "the spleen of FTY720-treated mice compared to saline-treated control mice. Taken together, these results "
          "suggest that the immunosuppressive action of FTY720, at least in part, could be due to its inhibitory effect "
          "on T cell emigration from the thymus to the periphery.")
MUSCA = ("Musca sorbens emerged from human (6/9 trials), calf (3/9), cow (3/9), dog (2/9) and goat (1/9) faeces, but not "
         "from horse faeces, composting kitchen scraps or a soil control (0/9 of each). After adjusting for mass of "
         "medium, the greatest number of flies emerged from human faeces (1426 flies/kg).")
MIR192 = ("Transforming growth factor beta1 (TGF-beta), a key regulator of these extracellular matrix genes, is increased "
          "in mesangial cells (MC) in DN. By microarray profiling, we noted that TGF-beta increased Col1a2 mRNA in mouse "
          "MC (MMC) but also decreased mRNA levels of an E-box repressor, deltaEF1. Interestingly, we noted that SIP1 is "
          "a target of microRNA-192 (miR-192), a key miR highly expressed in the kidney. miR-192 levels also were "
          "increased by TGF-beta in MMC. TGF-beta treatment or transfection with miR-192 decreased endogenous SIP1 "
          "expression as well as reporter activity of a SIP1 3' UTR-containing luciferase construct in MMC. "
          "Importantly, the in vivo relevance was noted by the observation that miR-192 levels were enhanced "
          "significantly in glomeruli isolated from streptozotocin-injected diabetic mice as well as diabetic db/db mice "
          "relative to corresponding nondiabetic controls, in parallel with increased TGF-beta and Col1a2 levels.")
FORKS = ("Mutations affecting fork reversal also induced unrestrained fork progression and chromosomal breakage, "
         "suggesting fork remodeling as a global fork slowing and protection mechanism. Targeting these fork protection "
         "systems represents a promising strategy to potentiate cancer chemotherapy.")
PALSY = ("CONTEXT Although preterm delivery is a well-established risk factor for cerebral palsy (CP), preterm "
         "deliveries contribute only a minority of affected infants. DESIGN, SETTING, AND PARTICIPANTS Population-based "
         "follow-up study using the Medical Birth Registry of Norway to identify 1,682,441 singleton children born in "
         "the years 1967-2001 with a gestational age of 37 through 44 weeks and no congenital anomalies.")


def test_a_kept_in_part_excuses_no_dropped_suggest():
    """19 C27 (*supported* in both runs): "These results demonstrate that ... is, at least in part, due to" for
    "these results suggest that ..., at least in part, could be due to": the claim's *in part* qualifies how much, and
    had counted as a hedge the claim kept."""
    claim = ("These results demonstrate that the immunosuppressive action of FTY720 is, at least in part, due to its "
             "inhibitory effect on T cell emigration from the thymus to the periphery.")
    [tag] = detect_hedge_removed(claim, FTY720, source_text=FTY720)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "suggest")
    kept = claim.replace("These results demonstrate that", "These results suggest that")
    assert detect_hedge_removed(kept, FTY720, source_text=FTY720) == []


def test_a_promising_strategy_is_a_hedge():
    """20 C03 (*supported*): "has been shown to potentiate" for "represents a promising strategy to potentiate"."""
    [tag] = detect_hedge_removed("Targeting these fork protection systems has been shown to potentiate cancer "
                                 "chemotherapy.", FORKS, source_text=FORKS)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "a promising strategy")
    assert detect_hedge_removed("Targeting these fork protection systems is a promising strategy to potentiate cancer "
                                "chemotherapy.", FORKS, source_text=FORKS) == []


def test_could_be_detected_is_no_hedge():
    """19b C23 (faithful, *partial*): "only one fourth of labeled cells could be detected" reports what was found."""
    claim = ("After intrathymic labeling with fluorescein isothiocyanate, only one fourth of labeled cells were detected "
             "in the lymph nodes and spleen of FTY720-treated mice.")
    assert [t.evidence[0].evidence_span for t in detect_hedge_removed(claim, FTY720, source_text=FTY720)
            if t.confidence >= 0.5] == []


def test_a_cause_for_in_parallel_with_is_an_overclaim():
    """20 C06 (*supported*): "the rise in miR-192 caused the parallel increase in TGF-beta levels" for "miR-192 levels
    were enhanced ..., in parallel with increased TGF-beta and Col1a2 levels"."""
    [tag] = detect_causal_overclaim("In the glomeruli of diabetic mice, the rise in miR-192 caused the parallel "
                                    "increase in TGF-beta levels.", MIR192, source_text=MIR192)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "in parallel with")
    assert detect_causal_overclaim("In the glomeruli of diabetic mice, miR-192 rose in parallel with TGF-beta levels.",
                                   MIR192, source_text=MIR192) == []


def test_one_letter_designation_before_its_noun_is_a_proven_swap():
    """19 C03 and 19b C15 (*partial*): "peripheral blood B lymphocytes" for "peripheral blood T lymphocytes"."""
    claim = ("Daily administration of FTY720 at a dose of 1 mg/kg resulted in a marked decrease in the number of "
             "peripheral blood B lymphocytes.")
    [tag] = proven(detect_term_swap, claim, FTY720)
    assert spans(tag) == ("blood B", "blood T")
    assert proven(detect_term_swap, claim.replace(" B ", " T "), FTY720) == []


def test_word_fractions_and_shares_are_quantities():
    """19 C06 (*partial*): "only one tenth" for "only one fourth" (the source's "one fourth" had been read as *four*);
    19 C21 (*unsupported* for the wrong reason): "in 8 of 9 trials" for "human (6/9 trials)"."""
    claim = ("After intrathymic labeling with fluorescein isothiocyanate, only one tenth of labeled cells could be "
             "detected in the lymph nodes and in the spleen of FTY720-treated mice compared to saline-treated control "
             "mice.")
    [tag] = proven(detect_number_drift, claim, FTY720)
    assert spans(tag) == ("one tenth", "one fourth")
    assert detect_number_drift(claim.replace("one tenth", "a quarter"), FTY720, source_text=FTY720) == []
    [tag] = detect_number_drift("Musca sorbens emerged from human faeces in 8 of 9 trials.", MUSCA, source_text=MUSCA)
    assert (spans(tag), tag.proven) == (("8 of 9", "6/9"), True)
    assert detect_number_drift("Musca sorbens emerged from human faeces in six of nine trials.", MUSCA,
                               source_text=MUSCA) == []


def test_a_turned_degree_word_opening_both_sentences_is_a_proven_flip():
    """19 C12 (*partial*, no tag): "Low level expression of L-selectin by the accumulating thymocyte subsets" for
    "High level expression of L-selectin by these subsets"."""
    claim = ("Low level expression of L-selectin by the accumulating thymocyte subsets suggests that they were "
             "prevented from leaving the thymus.")
    [tag] = proven(detect_polarity_flip, claim, FTY720)
    assert spans(tag) == ("low", "high")
    assert proven(detect_polarity_flip, "High" + claim[3:], FTY720) == []


def test_an_opposite_cue_sharing_two_target_words_downgrades():
    """19b C12 and 19 C01 (*supported*, the tag at 0.55): "caused a slight increase in the ratio of double-positive
    (CD4+CD8+) cells" for "a slight decrease in the double-positive cell ratio", beside the sentence's own "increase"
    of the mature cells."""
    claim = ("In the thymus, long-term daily administration of FTY720 caused a slight increase in the ratio of "
             "double-positive (CD4+CD8+) cells.")
    [tag] = detect_polarity_flip(claim, FTY720, source_text=FTY720)
    assert (tag.name, tag.confidence, spans(tag)) == ("polarity_flip", 0.65, ("increase", "decrease"))
    assert detect_polarity_flip(claim.replace("increase", "decrease"), FTY720, source_text=FTY720) == []


def test_a_long_form_the_source_writes_short_is_read_short():
    """20 C04 (*partial*): "miR-192 levels were decreased by TGF-beta in mouse mesangial cells" for "miR-192 levels
    also were increased by TGF-beta in MMC" (MMC is "mouse MC", MC "mesangial cells")."""
    claim = "miR-192 levels were decreased by TGF-beta in mouse mesangial cells."
    [tag] = [t for t in run_detectors_text(claim, MIR192, source_text=MIR192) if t.proven]
    assert (tag.name, spans(tag)) == ("polarity_flip", ("decreased", "increased"))
    assert [t for t in run_detectors_text(claim.replace("decreased", "increased"), MIR192, source_text=MIR192)
            if t.proven] == []


def test_a_one_way_relation_turned_round_is_a_proven_flip():
    """20 C23 (*partial*): "microRNA-192 is a target of SIP1" for "SIP1 is a target of microRNA-192 (miR-192)"; 18 C10
    (*supported*): "CP is a well-established risk factor for preterm delivery" for the other way round."""
    claim = "Interestingly, microRNA-192 is a target of SIP1, an E-box repressor similar to deltaEF1."
    [tag] = proven(detect_polarity_flip, claim, MIR192)
    assert spans(tag) == ("miR-192", "SIP1")  # as the source writes it short
    assert proven(detect_polarity_flip, "Interestingly, SIP1 is a target of microRNA-192, a key miR highly expressed in "
                  "the kidney.", MIR192) == []
    claim = ("Although CP is a well-established risk factor for preterm delivery, preterm deliveries contribute only a "
             "minority of affected infants.")
    [tag] = proven(detect_polarity_flip, claim, PALSY)
    assert spans(tag) == ("CP", "preterm delivery")
    assert proven(detect_polarity_flip, "Although preterm delivery is a well-established risk factor for CP, preterm "
                  "deliveries contribute only a minority of affected infants.", PALSY) == []


def test_a_group_joined_to_the_sentence_s_is_a_proven_widening():
    """18 C09 (*supported*): "1,682,441 singleton and twin children" for "1,682,441 singleton children"; the source
    names no twins."""
    claim = ("Population-based follow-up study using the Medical Birth Registry of Norway to identify 1,682,441 "
             "singleton and twin children born in the years 1967-2001 with a gestational age of 37 through 44 weeks.")
    [tag] = proven(detect_scope_inflation, claim, PALSY)
    assert spans(tag) == ("singleton and twin children", "singleton children")
    assert proven(detect_scope_inflation, claim.replace("singleton and twin", "singleton"), PALSY) == []
    # a coordinate the source names elsewhere is context, not a widening
    assert proven(detect_scope_inflation, claim.replace("twin", "term"), PALSY + " Most were term births.") == []


def test_a_short_opening_is_no_part_of_its_own():
    """Trial 20's report credited "Following training" and "Interestingly" as the parts the source carries."""
    from citeproof.detectors.joint import split_parts

    parts = split_parts("Following training, the percentage area of type I fibres increased, and mitochondrial volume "
                        "density exceeded that of controls.")
    assert parts == ["Following training, the percentage area of type I fibres increased",
                     "mitochondrial volume density exceeded that of controls"]


def test_a_comparison_the_source_draws_elsewhere_names_no_citing_work():
    """19 C25: "were not significantly larger than those from other media" read as comparing the citing work with
    the cited one, the passage being the next sentence."""
    from citeproof.detectors.attribution import detect_comparison_claim

    source = ("Male and female flies emerging from human faeces were significantly larger than those from other media, "
              "suggesting that they would be more fecund. Female flies caught from children's eyes were of a similar "
              "size to those from human faeces.")
    claim = "Male and female flies emerging from human faeces were not significantly larger than those from other media."
    passage = "Female flies caught from children's eyes were of a similar size to those from human faeces."
    assert detect_comparison_claim(claim, passage, raw_claim=claim + " [@musca]", citekey="musca",
                                   source_text=source) == []
    assert [t.name for t in detect_comparison_claim(claim, passage, raw_claim=claim + " [@musca]", citekey="musca")] \
        == ["comparison_claim"]
