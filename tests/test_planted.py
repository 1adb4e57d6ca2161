"""The planted-error benchmark: planting, the default judge, and a small seeded run."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from citeproof.eval.planted import (
    EXPECTED_TAG,
    clean_ci_claim,
    format_planted_markdown,
    is_flagged,
    lexical_judge,
    load_citation_integrity,
    load_scifact,
    run_planted,
)
from citeproof.eval.planting import KINDS, TEMPLATES, plant
from citeproof.model import Verdict

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
needs_data = pytest.mark.skipif(
    not ((DATA / "scifact" / "corpus.jsonl").exists() and (DATA / "citation-integrity" / "claims_train.jsonl").exists()),
    reason="../shared/data (scifact, citation-integrity) is absent")


class TestPlanting:
    CLAIM = "Excess gestational weight gain is associated with obesity-related pregnancy outcomes."

    def test_every_kind_has_dev_and_test_wording(self):
        """Each plantable kind has templates in both halves, so test-half recall can be reported."""
        for kind, templates in TEMPLATES.items():
            assert {"dev", "test"} == {t.half for t in templates}, kind
        assert set(KINDS) - {"swap"} == set(TEMPLATES)

    def test_plant_is_seeded(self):
        """The same seed gives the same plant; the plant differs from the claim."""
        a = plant("scope", self.CLAIM, random.Random(3))
        b = plant("scope", self.CLAIM, random.Random(3))
        assert a == b
        assert a.text != self.CLAIM

    def test_causal_plant_needs_an_associational_source(self):
        """An association is restated as a cause only when the evidence reports an association."""
        ev = "Excess gestational weight gain was associated with an increased risk of caesarean delivery."
        p = plant("causal", self.CLAIM, random.Random(0), evidence=ev, half="dev")
        assert "Excess gestational weight gain leads to obesity-related pregnancy outcomes." == p.text
        assert None is plant("causal", self.CLAIM, random.Random(1), evidence="Weight gain was measured.", half="dev")

    def test_number_plant_changes_only_stated_numbers(self):
        """A number is changed only when the source states it."""
        claim = "32% of liver transplantation programs required patients to discontinue methadone treatment in 2001."
        p = plant("number", claim, random.Random(0), source_text="methadone in 32% of all programs")
        assert p is not None and "32%" not in p.text
        assert None is plant("number", claim, random.Random(0), source_text="no numbers here")

    def test_polarity_negation_keeps_grammar(self):
        """``increases`` becomes ``does not increase`` (dev) or another negator (test)."""
        p = plant("polarity", "DUSP4 increases apoptosis.", random.Random(5), half="dev")
        assert p.text in ("DUSP4 does not increase apoptosis.", "DUSP4 decreases apoptosis.")


def test_clean_ci_claim():
    """Citation-Integrity markers and numeric cites are removed."""
    raw = "Recent studies have uncovered long noncoding RNAs as novel targets of p53 tumor suppression [<|multi_cit|>,7]."
    assert "Recent studies have uncovered long noncoding RNAs as novel targets of p53 tumor suppression." == clean_ci_claim(raw)


@needs_data
class TestJudgeAndData:
    def test_loaders(self):
        """370 SciFact SUPPORT pairs; Citation-Integrity ACCURATE claims all have their full text."""
        sf = load_scifact(DATA)
        ci = load_citation_integrity(DATA)
        assert 370 == len(sf)
        assert 1366 == len(ci)
        assert all(it["source_text"] for it in ci)

    def test_lexical_judge_supports_own_abstract_and_not_a_wrong_one(self):
        """SciFact 52 against its abstract is supported; against SciFact 34's abstract it is flagged."""
        sf = {it["id"]: it for it in load_scifact(DATA)}
        right = sf["scifact:52:45638119"]
        wrong = sf["scifact:34:11705328"]
        f = lexical_judge(right["claim"], right["source_text"])
        assert (Verdict.SUPPORTED, False) == (f.verdict, is_flagged(f))
        g = lexical_judge(right["claim"], wrong["source_text"])
        assert is_flagged(g)


@needs_data
class TestRunPlanted:
    @pytest.fixture(scope="class")
    @classmethod
    def result(cls):
        return run_planted(DATA, seed=13, limit=40, ci_max=20)

    def test_reproducible(self, result):
        """The same seed gives the same records and figures."""
        again = run_planted(DATA, seed=13, limit=40, ci_max=20)
        assert result["records"] == again["records"]
        assert result["kinds"] == again["kinds"]

    def test_seed_changes_the_sample(self, result):
        """Another seed draws other items."""
        other = run_planted(DATA, seed=14, limit=40, ci_max=20)
        assert {r["item"] for r in result["records"]} != {r["item"] for r in other["records"]}

    def test_figures(self, result):
        """40 items judged untouched; every kind planted at least once; figures add up."""
        assert 40 == result["n_items"] == result["untouched"]["n"]
        for kind, k in result["kinds"].items():
            assert k["n"] >= 1, kind
            assert k["caught"] == round(k["recall"] * k["n"])
            assert k["n"] == sum(v["n"] for v in k["by_template"].values())
        assert set(result["kinds"]) == set(KINDS)
        recs = [r for r in result["records"] if r["kind"] != "untouched"]
        assert len(recs) == result["overall"]["n"]
        # the benchmark measures something: most plants are caught, most untouched pass
        assert result["overall"]["recall"] >= 0.6
        assert result["untouched"]["clean_rate"] >= 0.7
        assert result["kinds"]["scope"]["recall"] >= 0.8

    def test_markdown(self, result):
        """The Markdown table has a row per kind and the pooled row."""
        md = format_planted_markdown(result)
        rows = [line for line in md.splitlines() if line.startswith("| ") and not line.startswith(("| kind", "| ---"))]
        assert len(result["kinds"]) + 1 == len(rows)
        for kind in result["kinds"]:
            assert f"| {kind} |" in md
        assert set(EXPECTED_TAG) == set(KINDS)


@needs_data
def test_with_detectors_adds_tags_to_a_tagless_judge():
    """A judge that returns no tags gets the detectors' tags and their downgrade."""
    from citeproof.eval.planted import with_detectors

    def bare(claim_text, source_text, *, citekey="src"):
        f = lexical_judge(claim_text, source_text, citekey=citekey)
        f.tags = []
        f.verdict = Verdict.SUPPORTED
        return f

    sf = {it["id"]: it for it in load_scifact(DATA)}
    it = sf["scifact:52:45638119"]
    planted = "In all patients and every population, " + it["claim"][0].lower() + it["claim"][1:]
    f = with_detectors(bare)(planted, it["source_text"])
    assert "scope_inflation" in {t.name for t in f.tags}
    assert Verdict.PARTIAL == f.verdict


def test_planted_report_says_when_the_pipeline_is_in_sample():
    """The pipeline's judge was fitted on the splits the harness plants into: the report opens with a warning;
    the word-overlap judge fits nothing and gets none."""
    from citeproof.eval.planted import format_planted_markdown, in_sample_note, summarize

    recs = [{"item": "scifact:1:2", "dataset": "scifact", "kind": "untouched", "template": "", "half": "", "text": "t",
             "source": "2", "verdict": "supported", "tags": [], "flagged": False},
            {"item": "scifact:1:2", "dataset": "scifact", "kind": "scope", "template": "scope.adverb", "half": "dev",
             "text": "t", "source": "2", "verdict": "partial", "tags": ["scope_inflation"], "flagged": True}]
    res = summarize(recs, seed=13, judge_name="judge_text+detectors", n_items=1)
    assert in_sample_note("sentence") is None
    res["in_sample_note"] = in_sample_note("pipeline")
    md = format_planted_markdown(res)
    assert md.splitlines()[2].startswith("**WARNING: in-sample: the shipped entailment network")
    assert "citation_integrity profile was fitted on Citation-Integrity's training split" in md
    assert "| scope | 1 | 1.000 |" in md
