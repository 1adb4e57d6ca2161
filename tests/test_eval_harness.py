"""Eval harnesses: metrics, folds, claim cleaning and small real runs of both benchmarks."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.eval import folds
from citeproof.eval.citation_integrity import clean_claim, run_citation_integrity
from citeproof.eval.metrics import classification_report, format_eval_text, in_sample_note
from citeproof.retrieval.sentence_bm25 import bm25_scores
from citeproof.eval.scifact import load_pairs, recall_at, run_scifact, sentence_recall_at
from citeproof.judges import entailment as ent

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
needs_model = pytest.mark.skipif(not ent.available(), reason=f"entailment tier unavailable: {ent.unavailable_reason()}")


def test_classification_report():
    """Macro-F1 averages per-class F1; the confusion matrix is gold x predicted."""
    r = classification_report(["a", "a", "b", "c"], ["a", "b", "b", "a"], ["a", "b", "c"])
    assert [[1, 1, 0], [0, 1, 0], [1, 0, 0]] == r["confusion"]
    assert pytest.approx((0.5 + 2 / 3 + 0) / 3, abs=1e-4) == r["macro_f1"]
    assert 0.5 == r["per_class"]["a"]["recall"]
    assert "macro-F1 0.389" in format_eval_text(r)


def test_evidence_recall_counts_complete_rationale_sets():
    """FEVER's evidence recall: a pair counts when one whole gold set is in the top k; the sentence share is stricter."""
    pairs = [
        {"ranking": [4, 1, 7, 0], "rationale": [1, 2, 7], "rationale_sets": [[1, 2], [7]]},  # set [7] complete at k=3
        {"ranking": [3, 5, 6, 2], "rationale": [2, 5], "rationale_sets": [[2, 5]]},  # 5 in, 2 not: no set complete
        {"ranking": [0, 1, 2], "rationale": [], "rationale_sets": []},  # NEI: not counted
    ]
    assert 0.5 == recall_at(pairs, 3)
    assert 1.0 == recall_at(pairs, 4)
    assert round(3 / 5, 4) == sentence_recall_at(pairs, 3)  # 1 and 7 of the first, 5 of the second


def test_scifact_pairs_keep_evidence_sets():
    """SciFact train claim 1141 cites 12009265 with two CONTRADICT sets: sentences 9 and 10, and sentence 14."""
    base = DATA / "scifact"
    if not (base / "claims_train.jsonl").exists():
        pytest.skip("../shared/data/scifact is absent")
    [p] = [p for p in load_pairs(base / "claims_train.jsonl", base / "corpus.jsonl") if p["claim_id"] == 1141]
    assert ("contradicted", [9, 10, 14], [[9, 10], [14]]) == (p["gold"], p["rationale"], p["rationale_sets"])


def test_grouped_folds_share_documents():
    """Claims citing a same document always land in one fold."""
    f = folds.grouped_folds([(1, ["d1"]), (2, ["d1", "d2"]), (3, ["d2"]), (4, ["d3"]), (5, ["d4"])], 2)
    assert f[1] == f[2] == f[3]
    assert {0, 1} == set(f.values())


def test_clean_claim():
    """Citation-Integrity markers and numeric brackets disappear; punctuation is re-attached."""
    assert "Metformin blocks CI activity and p53 tumour suppression." == clean_claim(
        "Metformin blocks CI activity [<|multi_cit|>, 48] and p53 tumour suppression [<|cit|>][46].")


def test_in_sample_note_names_the_training_split():
    """The training split is flagged in-sample; another file (a held-out split) is not."""
    assert in_sample_note("scifact", "data/scifact/claims_train.jsonl").startswith("in-sample: the shipped entailment network")
    assert in_sample_note("scifact", "data/scifact/claims_dev.jsonl") is None
    assert in_sample_note("citation-integrity", "claims_train.jsonl").startswith("in-sample: the shipped decision layer")
    res = {"dataset": "scifact", "n": 2, "macro_f1": 0.5, "accuracy": 0.5, "labels": ["a"], "confusion": [[1]],
           "per_class": {"a": {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 1}}}
    assert format_eval_text(res).startswith("scifact: 2 pairs")
    res.update(in_sample=True, in_sample_note="in-sample: x")
    assert format_eval_text(res).splitlines()[:2] == ["WARNING: in-sample: x", "scifact: 2 pairs"]


def test_bm25_prefers_matching_sentence():
    """BM25 scores the sentence sharing rare terms highest."""
    s = bm25_scores("methadone transplantation", ["Liver transplantation required stopping methadone.", "Mice were fed."])
    assert s[0] > s[1] == 0.0


@needs_model
@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "scifact").is_dir(), reason="../shared/data/scifact is absent")
def test_run_scifact_small():
    """Ten real SciFact claims run end to end with every figure present."""
    r = run_scifact(DATA / "scifact" / "claims_train.jsonl", DATA / "scifact" / "corpus.jsonl", limit=10)
    assert ["supported", "contradicted", "other"] == r["labels"]
    assert 0.0 <= r["macro_f1"] <= 1.0 and r["n"] >= 10
    assert r["recall_at_3"] is not None and 0.0 <= r["recall_at_3"] <= 1.0
    assert sum(map(sum, r["confusion"])) == r["n"]
    assert "recall@1/3/5" in format_eval_text(r)
    assert r["in_sample"] is True and "fine-tuned on SciFact's training split" in r["in_sample_note"]
    assert format_eval_text(r).startswith("WARNING: in-sample: the shipped entailment network")


@needs_model
@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "citation-integrity").is_dir(), reason="../shared/data/citation-integrity is absent")
def test_run_citation_integrity_small():
    """Five real Citation-Integrity claims run against their cited full text."""
    d = DATA / "citation-integrity"
    r = run_citation_integrity(d / "claims_train.jsonl", d / "reference_fulltext", limit=5)
    assert ["ACCURATE", "NOT_ACCURATE", "IRRELEVANT_OR_NEI"] == r["labels"]
    assert 5 == r["n"] + r["skipped"]
    assert "ACCURATE" == r["mapping"]["supported"]
    assert r["in_sample"] is True and "citation_integrity profile" in r["in_sample_note"]
    from citeproof.judges.entailment import load_config

    how = load_config()["profiles"]["citation_integrity"].get("retrieval", {"method": "bm25", "top_k": 3})
    assert how == r["retrieval"]  # the harness retrieves as the profile was fitted
