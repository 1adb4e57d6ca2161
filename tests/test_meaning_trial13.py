"""Issue 28: what a thirteenth new user's trial found (2026-12-06, session 19; three SciFact corpus abstracts no
training claim cites, held out from the detectors: on the code after the twelfth trial's rules 3 of 20 false claims
were supported and 13 caught). No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): lipoproteins isolated by precipitation
(doc 33955641), homocysteine and vascular disease (doc 16252863), and EGCG and oxidative stress in oral cells (doc
6650933).
"""

from __future__ import annotations

from citeproof.detectors.causal import detect_causal_overclaim
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.quantities import extract_quantities
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

MTT = ("3-(4,5-dimethylthiazol-2-yl)-2,5-diphenyltetrazolium bromide assay and 5-bromodeoxyuridine incorporation data "
       "were also compared between the two oral carcinoma cell lines treated by EGCG.")
SERUM = "Procedures are described for the isolation of lipoproteins from human serum by precipitation with polyanions and divalent cations."
HCY = ("During the 1990s, there have been many reports associating elevated plasma homocysteine levels with "
       "arteriosclerotic cardiovascular disease and consistent evidence that dietary and supplemental folic acid can "
       "reduce homocysteine levels.")


def test_a_chemical_names_locants_are_no_quantities():
    """G05: the "3" of "3-(4,5-dimethylthiazol-2-yl)" matched the claim's "three", so "three" for "two" went untagged."""
    assert [q.text for q in extract_quantities(MTT)] == ["two"]
    # (a unit of time joined by a hyphen is the number's unit since session 29: "a 30-day chase", a 170th trial)
    assert [q.text for q in extract_quantities("1,2-dichloroethane in 20-year-old men given 10-mg doses")] == ["20-year",
                                                                                                       "10-mg"]
    [tag] = _proven(detect_number_drift, "Tetrazolium (MTT) assay and 5-bromodeoxyuridine incorporation data were "
                    "compared between the three oral carcinoma cell lines treated by EGCG", MTT)
    assert _spans(tag) == ("three", "two")


def test_a_population_added_beside_the_sources_is_a_proven_widening():
    """L10: "from human and animal serum" for "from human serum" (the judge said supported at 0.98)."""
    [tag] = _proven(detect_scope_inflation, SERUM.replace("human serum", "human and animal serum"), SERUM)
    assert _spans(tag) == ("human and animal", "human")
    assert _proven(detect_scope_inflation, SERUM, SERUM) == []


def test_associating_is_association_language_and_trial_synonyms_are_no_swaps():
    """H08 ("reports showing that ... levels cause ..." for "reports associating ... levels with ...": no tag at all)
    and G03 / H02 (faithful: "exposed to" / "treated with", "enrolled" / "examined")."""
    [tag] = detect_causal_overclaim("During the 1990s, there have been many reports showing that elevated plasma "
                                    "homocysteine levels cause arteriosclerotic cardiovascular disease", HCY, source_text=HCY)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.85, "associating")
    source = "The study examined 750 patients younger than age 60 and 800 healthy control subjects."
    assert detect_term_swap("The study enrolled 750 patients younger than age 60 and 800 healthy control subjects",
                            source, source_text=source) == []


def test_false_alarms_the_session_measured_on_faithful_training_citations():
    """Found re-running the detectors on the 1,736 faithful SciFact and Citation-Integrity training citations: a
    semicolon inside "(HR, 1.13; 95% CI, 1.02-1.26)" cut the clause, so "increased risk of pancreatic cancer" became a
    proven swap for *prostate* (SciFact claim 953); and a word the claim adds counts as the source's topic only when a
    quarter of its sentences hold it (a full text's "previously" had made "quantified" / "assessed" a proven swap)."""
    source = ("In adjusted analyses, there was no association with 8 of the 10 additional cancers; ever use of "
              "pioglitazone was associated with increased risk of prostate cancer (HR, 1.13; 95% CI, 1.02-1.26) and "
              "pancreatic cancer (HR, 1.41; 95% CI, 1.16-1.71).")
    assert _proven(detect_term_swap, "Pioglitazone use is significantly associated with an increased risk of pancreatic "
                   "cancer", source) == []
    methods = " ".join(["Cells were cultured as previously described."] * 3 + [f"Assay {k} was run on day {k}." for k in range(20)]
                       + ["RBD-specific binding antibodies were assessed by ELISA essentially as described."])
    assert _proven(detect_term_swap, "Binding antibodies were quantified by ELISA essentially as previously described",
                   methods) == []
