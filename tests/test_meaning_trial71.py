"""Issue 28: what the seventy-first to seventy-fourth new users' trials found (2026-12-07, session 23; held out on
`88212ab`: 9, 14, 9 and 14 of 20 false claims caught, 3, 1, 2 and 2 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): WRN in Werner syndrome (doc 25838286),
Notch activation and neural stem cell-like colonies (25050969), emotional dysregulation in adult ADHD (1068106),
direct conversion of fibroblasts to neurons (4303075).
"""

from __future__ import annotations

from citeproof.detectors.polarity import detect_polarity_flip
from tests.meaning_cases import escalates, proven

WRN = "WRN possesses both 3' --> 5' exonuclease and 3' --> 5' helicase activities."
HES = ("mRNA of Hes5 but not Hes1, both of which are major downstream molecules of the Notch pathway, was also "
       "detected.")
ADHD = ("Neither the current ICD-10 and DSM-IV nor the upcoming DSM-5 includes symptoms of emotional dysregulation as a "
        "core aspect of ADHD.")
NEURONS = ("We hypothesized that combinatorial expression of neural-lineage-specific transcription factors could directly "
           "convert fibroblasts into neurons.")


def test_a_direction_along_the_strand_turned():
    """71 S24 (*supported* at 0.92): "5' --> 3' helicase" for "3' --> 5' helicase"."""
    (tag,) = proven(detect_polarity_flip, "WRN possesses both 3' --> 5' exonuclease and 5' --> 3' helicase "
                    "activities.", WRN)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, WRN, WRN)


def test_as_well_as_for_but_not_and_neither_nor_dropped():
    """72 S23 (*supported*): "Hes5 as well as Hes1" for "Hes5 but not Hes1"; 73 S24 (*supported*): "The current ICD-10
    and DSM-IV, as well as the upcoming DSM-5, include" for "Neither ... nor ... includes"."""
    (tag,) = proven(detect_polarity_flip, "mRNA of Hes5 as well as Hes1, both major downstream molecules of the Notch "
                    "pathway, was detected", HES)
    assert escalates(tag)
    (tag,) = proven(detect_polarity_flip, "The current ICD-10 and DSM-IV, as well as the upcoming DSM-5, include "
                    "symptoms of emotional dysregulation as a core aspect of ADHD.", ADHD)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "mRNA of Hes5 but not Hes1 was detected", HES)


def test_the_ends_of_into_exchanged_beside_the_writers_named_two_ways():
    """73 S09 (*supported* at 0.98): "The authors hypothesized ... could directly convert neurons into fibroblasts"
    for "We hypothesized ... convert fibroblasts into neurons"."""
    (tag,) = proven(detect_polarity_flip, "The authors hypothesized that combinatorial expression of "
                    "neural-lineage-specific transcription factors could directly convert neurons into fibroblasts.",
                    NEURONS)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "The authors hypothesized that combinatorial expression of "
                      "neural-lineage-specific transcription factors could directly convert fibroblasts into neurons.",
                      NEURONS)


def test_a_long_form_the_claim_changed_is_not_read_short():
    """Regression seen on `eval meaning`'s generated swaps (session 23): "the central conceptual system" against
    "the central nervous system (CNS)" had lost its (unproven) swap once the sentence was read as the source writes it
    ("... in the CNS"): the claim holds words of that long form, so the sentence stays spelled out."""
    from citeproof.detectors.swaps import detect_term_swap

    source = ("Recent findings challenge the concept that microglia solely function in disease states in the central "
              "nervous system (CNS). Microglia are the resident macrophages of the CNS.")
    tags = detect_term_swap("Microglia are an innate immune cell type of the central conceptual system.", source,
                            source_text=source)
    assert tags and tags[0].evidence[0].claim_span == "conceptual"


def test_a_run_whose_words_stand_in_the_sentence_by_stem_is_no_swap():
    """Regression seen on `eval meaning` (a faithful SciFact claim, session 23): "Lin28 generates iPSCs from mouse
    embryonic fibroblasts" against "Lin28 (SNEL) in mouse embryonic fibroblasts (MEFs) generated high-quality iPSCs"
    read as 'generates iPSCs' / 'SNEL' (a reordering: *generated* and *iPSCs* stand in the sentence)."""
    from citeproof.detectors.swaps import detect_term_swap

    source = ("Based on tetraploid complementation, we found that ectopic expression of Sall4, Nanog, Esrrb, and Lin28 "
              "(SNEL) in mouse embryonic fibroblasts (MEFs) generated high-quality iPSCs more efficiently than the "
              "conventional combination of Oct4, Sox2, Klf4 and Myc.")
    tags = detect_term_swap("Ectopic expression of Sall4, Nanog, Esrrb, and Lin28 generates iPSCs from mouse embryonic "
                            "fibroblasts more efficiently than other factor combinations.", source, source_text=source)
    assert not any("SNEL" in e.evidence_span for t in tags for e in t.evidence)


def test_a_strand_direction_with_a_typographic_dash():
    """71 S24 in the pipeline: pandoc's smart punctuation turns the claim's "-->" into "–>" (an en dash)."""
    (tag,) = proven(detect_polarity_flip, "WRN possesses both 3' –> 5' exonuclease and 5' –> 3' helicase activities.",
                    WRN)
    assert escalates(tag)
