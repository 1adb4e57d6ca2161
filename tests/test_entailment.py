"""The entailment tier: sentence splitting, the shipped int8 ONNX model, verdicts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from citeproof.judges import entailment as ent
from citeproof.model import Citation, Claim, Evidence, Passage, Source, Tier, Verdict

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
needs_model = pytest.mark.skipif(not ent.available(), reason=f"entailment tier unavailable: {ent.unavailable_reason()}")
needs_data = pytest.mark.skipif(not (DATA / "scifact").is_dir(), reason="../shared/data/scifact is absent")


class TestSplitSentences:
    def test_abbreviations_do_not_split(self):
        """*et al.*, *Fig.*, *e.g.* and initials stay inside their sentence."""
        text = ("We used the method of Smith et al. (2001) to measure it. Results are in Fig. 2 and Table 1. "
                "The effect was large, e.g. 20% higher. P. Smith agreed with the result.")
        assert [
            "We used the method of Smith et al. (2001) to measure it.",
            "Results are in Fig. 2 and Table 1.",
            "The effect was large, e.g. 20% higher.",
            "P. Smith agreed with the result.",
        ] == ent.split_sentences(text)

    def test_closing_brackets_stay(self):
        """A sentence ending inside brackets or quotes keeps the closing mark."""
        assert ["It was seen (see above.)", "The next sentence is here."] == ent.split_sentences(
            "It was seen (see above.) The next sentence is here.")

    def test_blank(self):
        """Blank text gives no sentences."""
        assert [] == ent.split_sentences("  \n ")


def test_numbers_and_negation():
    """Numbers of the claim missing from the text, and one-sided negation, are measured."""
    assert 0.5 == ent.numbers_missing("20% of 300 mice", "300 mice, 25% of them")
    assert 0.0 == ent.numbers_missing("no numbers", "12")
    assert 1.0 == ent.negation_mismatch("X does not cause Y", "X causes Y")
    assert 0.0 == ent.negation_mismatch("X never causes Y", "X did not cause Y")


def test_coverage():
    """Coverage counts the claim's content words found in the text."""
    assert 1.0 == ent.coverage("Aspirin lowers stroke risk", "stroke risk: aspirin lowers it")
    assert 0.0 == ent.coverage("the of and", "anything")


class TestBoundSentences:
    """The judge reads at most SENTENCE_BUDGET sentences of a claim's candidates (issue 17)."""

    CLAIM = "Metformin reduced hepatic glucose output in obese mice."

    def groups(self):
        filler = [f"The cohort was recruited in clinic number {i} during the spring." for i in range(12)]
        return [
            filler[:6] + ["Metformin reduced hepatic glucose output in obese mice by 30%."],
            filler[6:] + ["Hepatic glucose output fell in mice given metformin."],
            ["Obese mice were fed a high-fat diet.", "Glucose was measured weekly."] + filler[:5],
        ]

    def test_small_sets_are_untouched(self):
        """Candidates holding no more than the budget keep every sentence, in order (blank ones dropped)."""
        g = [["First sentence here.", "  ", "Second one."], ["Third one."]]
        assert [["First sentence here.", "Second one."], ["Third one."]] == ent.bound_sentences(self.CLAIM, g, budget=5)

    def test_budget_keeps_best_covering_and_each_candidate(self):
        """21 sentences cut to 6: each candidate keeps its 2 best-covering, in passage order, the verbatim one first of all."""
        kept = ent.bound_sentences(self.CLAIM, self.groups(), budget=6, per_candidate=2)
        assert [len(k) for k in kept] == [2, 2, 2]
        assert kept[0][-1] == "Metformin reduced hepatic glucose output in obese mice by 30%."
        assert kept[1][-1] == "Hepatic glucose output fell in mice given metformin."
        assert kept[2] == ["Obese mice were fed a high-fat diet.", "Glucose was measured weekly."]
        assert sum(map(len, kept)) == 6

    def test_rest_of_budget_goes_to_best_coverage(self):
        """After each candidate's share, the budget is filled by coverage, not by candidate order."""
        g = [["Metformin reduced glucose output.", "Mice were obese.", "Unrelated text about budgets."],
             ["Nothing relevant is said here at all.", "Another unrelated remark follows."]]
        kept = ent.bound_sentences(self.CLAIM, g, budget=3, per_candidate=1)
        assert kept == [["Metformin reduced glucose output.", "Mice were obese."], ["Nothing relevant is said here at all."]]


def test_runtime_never_imports_torch():
    """Importing and loading the entailment tier does not import torch (DESIGN.md: training-only extra)."""
    code = ("import sys; import citeproof.judges.entailment as e, citeproof.retrieval.dense as d\n"
            "if e.available(): e.EntailmentJudge().predict_pairs([('a b', 'a')])\n"
            "if d.available(): d.Embedder().embed(['x'])\n"
            "assert 'torch' not in sys.modules, 'torch was imported'")
    src = str(Path(__file__).parents[1] / "src")
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": src, "PATH": ""})


@needs_model
def test_shipped_files():
    """The shipped model is int8 ONNX under 30 MB with its card and a complete calibration."""
    assert ent.MODEL_PATH.stat().st_size <= 30_000_000
    assert (ent.MODELS_DIR / "MODEL_CARD.md").is_file()
    cfg = json.loads(ent.CONFIG_PATH.read_text())
    assert ["supported", "contradicted", "unsupported"] == cfg["classes"]
    assert (3, len(ent.FEATURE_NAMES)) == np.asarray(cfg["coef"]).shape
    assert "citation_integrity" in cfg["profiles"]


def _claim(text: str, signal: str | None = None) -> Claim:
    return Claim(id="c1", text=text, raw=text, citations=(Citation(citekey="k", signal=signal),), document="d.md", line=1)


def _evidence(*texts: str) -> list[Evidence]:
    src = Source(citekey="k")
    return [Evidence(passage=Passage(id=f"p{i}", text=t), source=src) for i, t in enumerate(texts)]


@needs_model
@pytest.mark.slow
class TestJudge:
    @pytest.fixture(scope="class")
    def judge(self):
        return ent.EntailmentJudge()

    def test_probabilities(self, judge):
        """predict_pairs returns (n, 3) rows summing to 1."""
        p = judge.predict_pairs([("Aspirin reduced strokes by 20% in the trial.", "Aspirin reduces strokes.")] * 3)
        assert (3, 3) == p.shape
        assert np.allclose(p.sum(1), 1.0, atol=1e-5)

    PREMISE = "In the randomised trial, vitamin D supplementation significantly reduced the risk of fractures."

    def test_planted_negation(self, judge):
        """A negated claim scores contradicts above entails, and below the faithful claim on entails."""
        p = judge.predict_pairs([(self.PREMISE, "Vitamin D supplementation reduces fracture risk."),
                                 (self.PREMISE, "Vitamin D supplementation does not reduce fracture risk.")])
        assert p[1, 2] > p[1, 0]
        assert p[1, 2] > p[0, 2]
        assert p[0, 0] > p[1, 0]

    def test_pipeline_flags_direction_flip(self):
        """What the network misses, the pipeline still flags: polarity_flip downgrades or the verdict is not supported."""
        from citeproof.pipeline import judge_text

        f = judge_text("Vitamin D supplementation increases fracture risk.", self.PREMISE)
        assert f.verdict != Verdict.SUPPORTED
        assert "polarity_flip" in {t.name for t in f.tags}

    def test_verdicts(self, judge):
        """A negated claim is contradicted, an off-topic claim unsupported; evidence and reasons come back."""
        ev = _evidence("Methods were standard. In the randomised trial, vitamin D supplementation significantly "
                       "reduced the risk of fractures in elderly women. Funding came from a charity.")
        con = judge.judge(_claim("Vitamin D supplementation does not reduce fracture risk in elderly women."), ev)
        off = judge.judge(_claim("Deep convolutional networks classify ImageNet images accurately."), ev)
        assert (Verdict.CONTRADICTED, Verdict.UNSUPPORTED) == (con.verdict, off.verdict)
        assert Tier.ENTAILMENT == con.tier
        assert 0.0 <= con.confidence <= 1.0 and con.evidence is ev[0]
        assert "contradicts" in con.evidence.scores
        assert "reduced the risk of fractures" in con.reasons[0]

    def test_paraphrase_supported(self, judge):
        """A close paraphrase of the source sentence should be supported."""
        ev = _evidence("In the randomised trial, vitamin D supplementation significantly reduced the risk of "
                       "fractures in elderly women.")
        assert Verdict.SUPPORTED == judge.judge(_claim("Vitamin D supplementation reduces fracture risk in elderly women."), ev).verdict

    def test_signal_relaxes(self, judge):
        """Under ``see`` the supported probability is higher than without a signal."""
        f = np.array([0.45, 0.05, 0.45, 0.05, 0.3, 0.04, 0.6, -0.2, -2.9, 0.6, 0.0, 0.0])
        _, p0 = ent.decide(f, judge.config)
        _, p1 = ent.decide(f, judge.config, "see")
        assert p1[0] > p0[0]

    def test_no_candidates(self, judge):
        """No candidates: unsupported, no evidence."""
        j = judge.judge(_claim("Anything."), [])
        assert Verdict.UNSUPPORTED == j.verdict and j.evidence is None


@needs_model
@needs_data
@pytest.mark.slow
def test_scifact_support_pair_beats_nei_pair():
    """On real SciFact pairs, the rationale sentence of a SUPPORT claim scores entails above any sentence of an NEI abstract."""
    corpus = {}
    with open(DATA / "scifact" / "corpus.jsonl") as f:
        for line in f:
            r = json.loads(line)
            corpus[r["doc_id"]] = r["abstract"]
    claims = {}
    with open(DATA / "scifact" / "claims_train.jsonl") as f:
        for line in f:
            r = json.loads(line)
            claims[r["id"]] = r
    m = ent.EntailmentModel()
    sup = claims[9]  # "32% of liver transplantation programs required patients to discontinue methadone ..."
    doc = sup["cited_doc_ids"][0]
    rat = sup["evidence"][str(doc)][0]["sentences"]
    p_sup = m.predict_pairs([(corpus[doc][i], sup["claim"]) for i in rat])[:, 0].max()
    nei = claims[0]  # "0-dimensional biomaterials lack inductive properties." (NEI)
    nd = nei["cited_doc_ids"][0]
    p_nei = m.predict_pairs([(s, nei["claim"]) for s in corpus[nd]])[:, 0].max()
    assert p_sup > p_nei


@needs_model
@pytest.mark.slow
def test_a_pair_asked_again_is_not_run_again(monkeypatch):
    """predict_pairs keeps what it scored (issue 27): the same pairs again cost no inference call, and the answer
    is the one given the first time, row for row, with duplicates inside one call scored once."""
    model = ent.EntailmentModel()
    calls: list[int] = []
    real = model._session.run

    def run(names, feed):
        calls.append(len(feed["input_ids"]))
        return real(names, feed)

    monkeypatch.setattr(model, "_session", type("S", (), {"run": staticmethod(run)})())
    claim = "Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref."
    pairs = [("Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref.", claim),
             ("Coverage was higher for toll access journals.", claim),
             ("Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref.", claim)]
    first = model.predict_pairs(pairs)
    assert sum(calls) == 2  # the repeated pair was scored once
    assert np.array_equal(first[0], first[2]) and np.allclose(first.sum(1), 1.0)
    again = model.predict_pairs(pairs[::-1])
    assert sum(calls) == 2 and np.array_equal(again, first[::-1])
    monkeypatch.setattr(ent, "PAIR_MEMO", 1)
    model.predict_pairs([("A third premise about something else.", claim)])
    assert len(model._memo) == 1 and sum(calls) == 3


@needs_model
@pytest.mark.slow
def test_a_pairs_answer_does_not_depend_on_the_others():
    """One pair a call (onnx_session.ROWS_PER_CALL): the int8 model quantizes each call's activations with one
    scale, so a batch's rows would change each other's answers; a pair asked alone or among others gets the same."""
    claim = "Vitamin D supplementation reduced the risk of fractures."
    pairs = [("In the randomised trial, vitamin D supplementation significantly reduced the risk of fractures.", claim),
             ("Fracture rates were unchanged in the placebo group over the five years of follow-up, 1998 to 2003.", claim),
             ("No.", claim)]
    together = ent.EntailmentModel().predict_pairs(pairs)
    for k, pair in enumerate(pairs):
        assert np.array_equal(ent.EntailmentModel().predict_pairs([pair])[0], together[k])
