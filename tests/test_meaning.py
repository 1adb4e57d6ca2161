"""Verdicts that read meaning (issue 28): term swaps, shares, escalation, and the meaning evaluation.

The detector tests run on real-shaped sentence pairs (no model). The pipeline tests judge the issue's own
cases with every tier; each asserts what code proves (a tag that escalates), never a model output near a
line: the verdict holds whichever way the network leans.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from citeproof.detectors import run_detectors_text
from citeproof.detectors.shares import detect_share_drift, respective_shares
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap, restating_sentence, source_swaps
from citeproof.eval.meaning import final_verdict, metrics, term_swap_claim

# De'ath, Fabricius, Sweatman & Puotinen, PNAS 109(44), 2012: the abstract's own sentences.
CORAL = ("Based on the world's most extensive time series data on reef condition (2,258 surveys of 214 reefs over "
         "1985-2012), we show a major decline in coral cover from 28.0% to 13.8% (0.53% per year), a loss of 50.7% of "
         "initial coral cover. Tropical cyclones, coral predation by crown-of-thorns starfish (COTS), and coral bleaching "
         "accounted for 48%, 42%, and 10% of the respective estimated losses, amounting to 3.38% per year mortality rate.")


# A new user's source (issue 28's examples): an organ, an agency, a direction and a comparison to swap.
PM25 = ("We followed 4,120 adults in three European cities for ten years. Long-term exposure to fine particulate matter "
        "(PM2.5) was associated with a faster decline in lung function, measured as forced expiratory volume in one "
        "second. The decline was steeper among smokers than among never-smokers. Exposure was not associated with "
        "changes in memory or cognitive test scores. In a companion experiment in mice, PM2.5 increased the "
        "proliferation of airway epithelial cells. The US Food and Drug Administration (FDA) approved the inhaled drug "
        "tiotropium for this indication in 2004.")
APPROVAL = "approved the inhaled drug tiotropium for this indication in 2004."


class TestReversedComparison:
    def test_the_compared_groups_exchanged_is_a_proven_flip(self):
        (tag,) = detect_polarity_flip("The decline in lung function was steeper among never-smokers than among smokers.",
                                      PM25, source_text=PM25)
        assert tag.name == "polarity_flip" and tag.proven and tag.confidence == 0.9
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (
            "steeper among never-smokers than among smokers", "steeper among smokers than among never-smokers")
        assert "other way round" in tag.message and "steeper among smokers than among never-smokers" in tag.message
        (tag,) = detect_polarity_flip("The decline was steeper in never-smokers than in smokers.", PM25, source_text=PM25)
        assert tag.proven  # other function words around the groups

    @pytest.mark.parametrize("claim", [
        "The decline in lung function was steeper among smokers than among never-smokers.",  # as the source says
        "The decline in lung function was less steep among never-smokers than among smokers.",  # the same, turned
    ])
    def test_the_same_comparison_said_either_way_is_no_flip(self, claim):
        assert not [t for t in detect_polarity_flip(claim, PM25, source_text=PM25) if t.proven]


class TestTermSwap:
    @pytest.mark.parametrize("claim, source, said, where", [
        ("Loss of NRF2 impairs lung function in aged mice.", "Loss of NRF2 impairs memory function in aged mice.", "lung", "memory"),
        ("The FDA approved semaglutide for weight management in 2021.",
         "The WHO approved semaglutide for weight management in 2021.", "FDA", "WHO"),
        ("SIRT6 overexpression promotes cell death in pancreatic tumours.",
         "SIRT6 overexpression promotes cell proliferation in pancreatic tumours.", "death", "proliferation"),
        ("Microglia are an innate immune cell type of the central maturity system.",
         "Microglia are an innate immune cell type of the central nervous system.", "maturity", "nervous"),
    ])
    def test_a_swapped_term_is_named_in_a_word_diff(self, claim, source, said, where):
        tags = detect_term_swap(claim, source, source_text=source)
        assert len(tags) == 1 and tags[0].confidence == 0.9
        assert tags[0].message.startswith(f"the claim says {said!r} where the source says {where!r}")
        assert (tags[0].evidence[0].claim_span, tags[0].evidence[0].evidence_span) == (said, where)

    def test_an_agency_named_in_full_with_its_acronym_is_one_term(self):
        """A new user's check: "The WHO approved ..." against "The US Food and Drug Administration (FDA) approved ..."
        had passed as supported (the source's run of six words was too long to be a swap); the name with its
        acronym is one term, shown by its acronym."""
        (tag,) = detect_term_swap(f"The WHO {APPROVAL}", PM25, source_text=PM25)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("WHO", "FDA")
        assert tag.proven and tag.confidence == 0.9
        for same in ("The FDA", "The US Food and Drug Administration", "The US Food and Drug Administration (FDA)"):
            assert detect_term_swap(f"{same} {APPROVAL}", PM25, source_text=PM25) == []

    @pytest.mark.parametrize("claim, source", [
        ("Aspirin reduced the risk of stroke in older adults.", "Aspirin lowered the risk of stroke in older adults."),
        ("Metformin improves insulin sensitivity in obese patients.", "Metformin improved insulin sensitivity in obese patients."),
        ("COTS predation caused a third of the coral loss.", "Crown-of-thorns starfish predation caused a third of the coral loss."),
        ("The vaccine increased antibody titres in children.", "The vaccine decreased antibody titres in children."),
        ("Smoking is associated with lung cancer in women.", "Smoking is linked with lung cancer in women."),
        # a new user's faithful claim: how the finding is related or reported is no swapped term
        ("Tree canopy was associated with cooler streets in the 2019 survey.", "Tree canopy was reported with cooler streets in the 2019 survey."),
    ])
    def test_inflections_synonyms_abbreviations_and_directions_are_not_swaps(self, claim, source):
        assert detect_term_swap(claim, source, source_text=source) == []

    def test_a_term_next_to_a_common_verb_is_still_a_swap(self):
        """``causes`` / ``leads to`` is a paraphrase; the noun beside it is not (SciFact-shaped: a common verb used
        to excuse any word paired with it, so 'findings' for 'foot' passed)."""
        claim = "Induction of urokinase receptor signaling in podocytes causes findings process effacement and proteinuria."
        sent = ("Here we show that induction of urokinase receptor (uPAR) signaling in podocytes leads to foot process "
                "effacement and urinary protein loss via a mechanism that includes lipid-dependent activation of integrin.")
        (tag,) = detect_term_swap(claim, sent, source_text=sent)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("findings", "foot")

    def test_a_noun_made_from_a_common_verb_is_a_term(self):
        """``contribution`` / ``expression`` stem to the common verbs ``contribute`` / ``express``; only the verbs as
        written (``holds`` / ``contains``) are a paraphrase (eval meaning: this swap had passed as supported)."""
        sent = ("Based on tetraploid complementation, we found that ectopic expression of Sall4, Nanog, Esrrb, and Lin28 "
                "(SNEL) in mouse embryonic fibroblasts (MEFs) generated high-quality iPSCs more efficiently than other "
                "combinations of factors including OSKM.")
        claim = "Ectopic contribution of Sall4, Nanog, Esrrb, and Lin28 generates high-quality iPSCs in mouse embryonic fibroblasts."
        (tag,) = detect_term_swap(claim, sent, source_text=sent)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("contribution", "expression")
        faithful = ("Ectopic expression of Sall4, Nanog, Esrrb, and Lin28 generates induced pluripotent stem cells from "
                    "mouse embryonic fibroblasts more efficiently than other factor combinations.")
        assert detect_term_swap(faithful, sent, source_text=sent) == []  # "factor combinations": reordered, no swap

    def test_a_long_shared_opening_is_no_derivation(self):
        """``autoanti|bodies`` / ``autoanti|gens``: alike for eight letters, but what follows is no word ending."""
        sent = ("Here we show that chromatin fibers, so-called neutrophil extracellular traps (NETs), are released by "
                "ANCA-stimulated neutrophils and contain the targeted autoantigens proteinase-3 (PR3) and myeloperoxidase (MPO).")
        claim = "Neutrophil extracellular traps are released by ANCA-stimulated neutrophils and contain the targeted {} PR3 and MPO."
        (tag,) = detect_term_swap(claim.format("autoantibodies"), sent, source_text=sent)
        assert tag.evidence[0].claim_span == "autoantibodies" and tag.proven
        assert detect_term_swap(claim.format("autoantigens"), sent, source_text=sent) == []
        animals = "Vaccination induced lasting immunity in all treated animals."
        assert detect_term_swap("Vaccination induced lasting immunisation in all treated animals.", animals) == []
        assert detect_term_swap("Mitochondria fission precedes mitophagy in damaged cells.",
                                "Mitochondrial fission precedes mitophagy in damaged cells.") == []

    def test_a_claim_word_the_sentence_holds_elsewhere_still_swaps_the_term_it_replaced(self):
        """"epidermal metastatic factor receptor" against "epidermal growth factor receptor" in a sentence that also
        says "metastatic lung": the claim lost "growth" (no reordering: "growth" is nowhere in the claim)."""
        sent = ("All patients with metastatic lung, colorectal, pancreatic or head and neck cancers who initially benefit "
                "from epidermal growth factor receptor (EGFR)-targeted therapies eventually develop resistance.")
        claim = "Patients with metastatic cancers who initially benefit from epidermal {} factor receptor targeted therapies eventually develop resistance."
        (tag,) = detect_term_swap(claim.format("metastatic"), sent, source_text=sent)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("metastatic", "growth")
        assert detect_term_swap(claim.format("growth"), sent, source_text=sent) == []

    def test_a_swap_the_restating_sentence_rewords_is_found_in_the_source_by_its_neighbours(self):
        """SciFact-shaped (claim 1005, one word swapped): no sentence restates the claim word for word, but the
        source says "medullary thymic epithelial cells" where the claim has "thymic memory cells"; "memory" is in
        the source too ("T cell memory"), never between "thymic" and "cells"."""
        source = ("Aire-expressing medullary thymic epithelial cells (mTECs) play a key role in preventing autoimmunity "
                  "by expressing tissue-restricted antigens to help purge the emerging T cell receptor repertoire of "
                  "self-reactive specificities. Here we demonstrate a novel role for a CD4+3- inducer cell population, "
                  "previously linked to development of organized secondary lymphoid structures and maintenance of T "
                  "cell memory in the functional regulation of Aire-mediated promiscuous gene expression in the thymus. "
                  "We show that RANKL signals from this cell promote the maturation of RANK-expressing mTEC "
                  "progenitors into Aire+ mTECs.")
        claim = "RANK-RANKL pathway signalling is linked to development of Aire-expressing medullary thymic {} cells."
        ((ev, sent),) = source_swaps(claim.format("memory"), source)
        assert (ev.claim_span, ev.evidence_span) == ("memory", "epithelial")
        assert sent.startswith("Aire-expressing medullary thymic epithelial cells")
        (tag,) = detect_term_swap(claim.format("memory"), source, source_text=source)
        assert tag.confidence == 0.7 and not tag.proven  # found in the source, not in a restating sentence: partial
        assert tag.message.startswith("the claim says 'memory' where the source says 'epithelial'")
        assert source_swaps(claim.format("epithelial"), source) == []
        # a full text is not read this way: some sentence of it holds two neighbours around another word by chance
        from citeproof.detectors.swaps import SOURCE_SWAPS_MAX
        long = source + " Thymic selection was studied in detail." * (SOURCE_SWAPS_MAX // 39)
        assert len(long) > SOURCE_SWAPS_MAX and source_swaps(claim.format("memory"), long) == []
        assert detect_term_swap(claim.format("epithelial"), source, source_text=source) == []

    def test_words_between_function_words_adverbs_and_reordered_names_are_no_source_swaps(self):
        """Planted-benchmark false alarms on untouched citations: "subsequently" where the title says "Later";
        "TRF2" standing elsewhere in the sentence ("TRF2-RTEL1 interaction")."""
        title = ("Attention to Eyes is Present But in Decline in 2-6 Month-Olds Later Diagnosed with Autism. Infants "
                 "later diagnosed with autism show a decline in eye fixation from 2 until 24 months of age.")
        assert source_swaps("Infants subsequently diagnosed with autism show declining eye fixation.", title) == []
        sent = ("We show that the TRF2-RTEL1 interaction is mediated by a metal-coordinating C4C4 motif in RTEL1, "
                "which is compromised by the Hoyeraal-Hreidarsson syndrome (HHS) mutation, RTEL1(R1264H).")
        assert detect_term_swap("RTEL1 interacts with TRF2 through a C4C4 motif", sent, source_text=sent) == []

    def test_a_swap_in_a_sentence_ordered_otherwise_is_found_by_its_neighbours(self):
        claim = "Ca2+ cycling is a UCP1-enhanced thermogenic mechanism."
        sent = ("Here we report a robust UCP1-independent thermogenic mechanism in beige fat that involves enhanced "
                "ATP-dependent Ca2+ cycling by sarco/endoplasmic reticulum Ca2+-ATPase 2b.")
        (tag,) = detect_term_swap(claim, sent, source_text=sent)
        assert (tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == ("UCP1-enhanced", "UCP1-independent")
        assert tag.confidence == 0.7 and not tag.proven  # found by its neighbours: partial, never an accusation
        wice = "The Blanda Station is an underground plant, located approximately 230 meters under ground."
        (tag,) = detect_term_swap("The Blanda Station is an around plant, located approximately 230 metres below the surface.", wice)
        assert [(e.claim_span, e.evidence_span) for e in tag.evidence] == [("around", "underground")]  # metres is meters

    @pytest.mark.parametrize("claim, sent", [
        ("A 20-year-old HIV-positive patient on antiretroviral therapy in the U.S. can expect to live into his 70s.",
         "A 20-year-old HIV-positive adult on ART in the U.S. or Canada is expected to live into their early 70s."),
        ("Tumour growth slowed in the treated mice over the first 30 days of follow-up.",
         "Tumor growth slowed in the treated mice over the first 30 days of follow-up."),
        ("CD28 signals regulate trafficking of auto-reactive T cells into the pancreas.",
         "We demonstrate that CD28 signals regulate the trafficking of auto-reactive T cells into the pancreas."),
        # false alarms on faithful training citations (Citation-Integrity, SciFact), 2026-12-05
        ("PPARG is a master regulator of adipocyte differentiation in mice.",
         "PPARG is a master-regulator of adipocyte differentiation in mice."),
        ("XBP1 activation promotes tumorigenesis of triple-negative breast cancer cells.",
         "XBP1 activation promotes tumorigenicity of triple-negative breast cancer cells."),
        ("Having a main partner improves HIV outcomes.",  # a clause before "(HAART)" is no name of it
         "OBJECTIVES To explore the association between a stable partnership and clinical outcome in HIV infected "
         "patients receiving highly active antiretroviral therapy (HAART)."),
        ("PD-1 triggering on monocytes enhances IL-10 production by monocytes.",
         "Triggering of PD-1 expressed on monocytes by PD-L1 expressed on various cell types induced IL-10 production "
         "and led to reversible CD4+ T cell dysfunction."),
    ])
    def test_spellings_and_persons_are_not_swaps(self, claim, sent):
        assert detect_term_swap(claim, sent, source_text=sent) == []

    def test_no_restating_sentence_no_tag(self):
        assert restating_sentence("Loss of NRF2 impairs lung function.", "An unrelated sentence about rainfall.") is None
        assert detect_term_swap("Loss of NRF2 impairs lung function.", "An unrelated sentence about rainfall.") == []

    def test_the_generator_swaps_one_word_of_the_restating_sentence(self):
        src = "Loss of NRF2 impairs memory function in aged mice. Oxidative stress rises in the hippocampus."
        claim, was, now = term_swap_claim("Loss of NRF2 impairs memory function in aged mice.", src, random.Random(3))
        assert was in "Loss of NRF2 impairs memory function in aged mice." and now in src and claim != src.split(".")[0] + "."
        assert detect_term_swap(claim, src, source_text=src)


class TestShares:
    def test_respective_list_is_read_in_order(self):
        sent = CORAL.split("). ")[-1]
        assert [round(p) for _, p in respective_shares(sent)] == [48, 42, 10]
        assert respective_shares(sent)[2][0] == "coral bleaching"

    def test_most_for_a_ten_percent_factor_is_a_drift(self):
        tags = detect_share_drift("Bleaching caused most of the coral loss on the Great Barrier Reef between 1985 and 2012.",
                                  CORAL, source_text=CORAL)
        assert len(tags) == 1 and tags[0].name == "number_drift" and tags[0].confidence == 0.9
        assert "gives it 10%" in tags[0].message

    def test_the_largest_factor_is_the_main_cause(self):
        assert detect_share_drift("Tropical cyclones were the main cause of coral loss.", CORAL, source_text=CORAL) == []
        assert detect_share_drift("Coral bleaching was the main cause of coral loss.", CORAL, source_text=CORAL)[0].confidence == 0.9

    def test_one_number_drift_tag_when_both_checks_fire(self):
        tags = run_detectors_text("Bleaching caused most (95%) of the coral loss.", CORAL, source_text=CORAL)
        assert [t.name for t in tags].count("number_drift") == 1


def _row(e_verdict, e_conf, l_verdict, tags=(), dataset="scifact", gold="supported", faithful=True):
    return {"id": "x", "dataset": dataset, "group": "g", "gold": gold, "faithful": faithful, "claim": "c",
            "e": {"verdict": e_verdict, "confidence": e_conf, "score": e_conf, "entails": 0.5, "contradicts": 0.1,
                  "sentence": "s", "passage": "p"},
            "l": {"verdict": l_verdict, "confidence": 0.8, "score": 0.8, "passage": "p"},
            "tags_e": [list(t) for t in tags], "tags_l": [list(t) for t in tags]}


class TestSimulation:
    def test_final_verdict_follows_the_policy(self):
        from citeproof.judges.policy import POLICY, Policy

        assert final_verdict(_row("supported", 0.9, "supported")) == "supported"
        assert final_verdict(_row("supported", 0.2, "supported"), Policy(confirm_at=0.5)) == "partial"
        assert final_verdict(_row("unsupported", 0.9, "unsupported")) == "unsupported"
        assert final_verdict(_row("supported", 0.9, "supported", [("term_swap", 0.9, "m", True)]),
                             Policy(escalate_at=0.85)) == "unsupported"
        assert final_verdict(_row("supported", 0.9, "supported", [("term_swap", 0.9, "m", False)]),
                             Policy(escalate_at=0.85)) == "partial"  # not shown on the restating sentence: downgrade only
        assert final_verdict(_row("supported", 0.9, "supported", [("polarity_flip", 0.9, "m", True)]),
                             Policy(escalate_at=0.85)) == "contradicted"
        assert final_verdict(_row("supported", 0.9, "supported", [("hedge_removed", 0.9, "m")]), POLICY) == "partial"

    def test_metrics_count_swaps_and_faithful(self):
        rows = [_row("supported", 0.9, "supported", dataset="swap", gold="swap", faithful=False),
                _row("unsupported", 0.9, "unsupported", dataset="swap", gold="swap", faithful=False),
                _row("supported", 0.9, "supported"), _row("unsupported", 0.9, "supported", gold="other", faithful=False)]
        m = metrics(rows)
        assert (m["swap_supported"], m["faithful_against"], m["n_swap"], m["n_faithful"]) == (0.5, 0.0, 2, 1)
        assert m["scifact"]["macro_f1"] > 0


def test_eval_meaning_prints_every_figure_of_the_issue_from_recorded_rows(tmp_path):
    """``citeproof eval meaning --rows FILE``: the macro-F1s, swaps supported and faithful called against, with the
    lines cross-validated, and the planted benchmark's recall and precision from the summary kept beside the rows
    (no model runs here: the rows and the summary are given)."""
    import json

    from typer.testing import CliRunner

    from citeproof.cli import app

    rows = []
    for n in range(10):
        rows.append(dict(_row("supported", 0.9, "supported"), id=f"sf{n}", group=f"g{n}"))
        rows.append(dict(_row("unsupported", 0.9, "unsupported", gold="other", faithful=False), id=f"nei{n}", group=f"g{n}"))
        rows.append(dict(_row("supported", 0.9, "supported", dataset="swap", gold="swap", faithful=False,
                              tags=[("term_swap", 0.9, "m", True)] if n < 8 else []), id=f"sw{n}", group=f"g{n}"))
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (tmp_path / "rows.jsonl.planted.json").write_text(json.dumps(
        {"n": 100, "seed": 13, "recall": 0.9841, "precision": 0.5642, "clean_rate": 0.24, "n_planted": 377,
         "n_untouched": 100, "in_sample_note": "in-sample: ..."}), encoding="utf-8")
    res = CliRunner().invoke(app, ["eval", "meaning", "--rows", str(path), "--data", str(tmp_path)])
    assert res.exit_code == 0, res.output
    shipped = next(line for line in res.output.splitlines() if line.startswith("| shipped"))
    # SciFact: supported and other all right, contradicted absent (F1 0 of 3 labels); 2 of 10 swaps untagged
    assert shipped.startswith("| shipped | 0.667 | - | - | 20.0% | 0.0% | 100.0% |")
    assert "recall 0.984, precision 0.564, untouched left unflagged 0.240" in res.output
    res = CliRunner().invoke(app, ["eval", "meaning", "--rows", str(path), "--planted", "0", "--json"])
    got = json.loads(res.output)
    assert got["shipped"]["swap_supported"] == 0.2 and "planted" not in got


# ----------------------------------------------------------------------------------- the issue's cases, all tiers

def _needs_entailment():
    from citeproof.judges import entailment

    if entailment.unavailable_reason():
        pytest.skip(entailment.unavailable_reason())


@pytest.mark.slow
def test_bleaching_as_the_main_cause_is_not_supported():
    _needs_entailment()
    from citeproof.pipeline import judge_text

    f = judge_text("Bleaching caused most of the coral loss on the Great Barrier Reef between 1985 and 2012.", CORAL)
    assert f.verdict.value in ("unsupported", "contradicted")
    assert any(t.name == "number_drift" and t.confidence == 0.9 for t in f.tags)


@pytest.mark.slow
def test_mice_to_humans_with_another_number_is_caught_by_the_gate():
    _needs_entailment()
    from citeproof.pipeline import judge_text

    mice = ("Mice fed a high-fat diet may gain about 12% more body weight than mice fed a standard chow diet over twelve "
            "weeks. The weight gain was accompanied by insulin resistance and hepatic steatosis.")
    f = judge_text("High-fat diets cause 30% weight gain in humans.", mice)
    assert f.verdict.value in ("unsupported", "contradicted")
    assert {"number_drift", "scope_inflation"} <= {t.name for t in f.tags}


@pytest.mark.slow
@pytest.mark.parametrize("claim, verdict, tag", [
    (f"The WHO {APPROVAL}", "unsupported", "term_swap"),
    ("The decline in lung function was steeper among never-smokers than among smokers.", "contradicted", "polarity_flip"),
])
def test_a_new_users_swapped_agency_and_reversed_comparison_fail_the_gate(claim, verdict, tag):
    """Both had ended *supported* / *partial* with all tiers: a gate on unsupported,contradicted let them through."""
    _needs_entailment()
    from citeproof.pipeline import judge_text

    f = judge_text(claim, PM25)
    assert f.verdict.value == verdict
    assert any(t.name == tag and t.proven for t in f.tags)


def test_lexical_tier_says_its_verdicts_are_word_overlap():
    from citeproof.judges.policy import LEXICAL_ONLY
    from citeproof.pipeline import judge_text

    f = judge_text("Coral cover declined from 28.0% to 13.8% between 1985 and 2012.", CORAL, tiers=["lexical"])
    assert f.verdict.value == "supported" and LEXICAL_ONLY in f.reasons
