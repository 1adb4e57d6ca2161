"""Retrieval-strength features (judges/strength.py), the profile's feature columns, and the nested fit (training/ci_fit.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import training_module

from citeproof.eval.citation_integrity import profile_columns
from citeproof.retrieval.sentence_bm25 import BM25Index, order
from citeproof.judges.entailment import FEATURE_NAMES
from citeproof.judges.strength import STRENGTH_FEATURE_NAMES, strength_features


# A cited article's sentences, in order (written for this test).
ARTICLE = [
    "Patients were recruited from three outpatient clinics between 2015 and 2018.",
    "Atorvastatin lowered LDL cholesterol by 38% after twelve weeks of treatment.",
    "Adverse events were rare and mostly mild muscle pain.",
    "The reduction in LDL cholesterol persisted at the one-year follow-up visit.",
    "Funding was provided by a national research council.",
]
CLAIM = "Atorvastatin lowered LDL cholesterol, with a reduction that persisted at one year."


def test_strength_features_on_an_article():
    """Real values: BM25 of the claim over the article, coverage of retrieved vs whole source, share entailing."""
    bm = BM25Index(ARTICLE).scores(CLAIM)
    top = order(bm)[:2]
    assert [1, 3] == sorted(top)  # the two sentences about LDL cholesterol
    probs = np.array([[0.81, 0.15, 0.04], [0.32, 0.60, 0.08]])
    f = strength_features(CLAIM, ARTICLE, bm, None, top, probs)
    assert (7,) == f.shape
    assert f[0] == pytest.approx(math.log1p(max(bm)))
    rest = np.delete(np.array(bm), int(np.argmax(bm)))
    assert f[1] == pytest.approx((max(bm) - rest.mean()) / rest.std())
    assert (0.0, 0.0) == (f[2], f[3])  # no dense tier: the cosine features are 0
    # content words: atorvastatin lowered ldl cholesterol reduction persisted one year -> 8; "year" is only in "one-year"
    assert f[4] == pytest.approx(f[5])  # every claim word found anywhere is in the two retrieved sentences
    assert 0.7 < f[5] < 1.0
    assert 0.5 == f[6]  # one of the two retrieved sentences has P(entails) >= 0.5


def test_strength_features_coverage_counts_words_across_retrieved_sentences():
    """A claim whose words are spread over two sentences is covered by the two together, not by either alone."""
    claim = "Recruitment ran from 2015 and funding came from a research council."
    bm = BM25Index(ARTICLE).scores(claim)
    only_first = strength_features(claim, ARTICLE, bm, None, [0], np.array([[0.1, 0.8, 0.1]]))
    both = strength_features(claim, ARTICLE, bm, None, [0, 4], np.array([[0.1, 0.8, 0.1], [0.2, 0.7, 0.1]]))
    assert only_first[4] < both[4] == both[5]
    assert 0.0 == both[6]


def test_strength_features_with_cosines():
    """The cosine features are the best cosine and its margin over the other sentences, in standard deviations."""
    cos = [0.12, 0.71, 0.20, 0.55, 0.05]
    bm = BM25Index(ARTICLE).scores(CLAIM)
    f = strength_features(CLAIM, ARTICLE, bm, cos, [1], np.array([[0.9, 0.05, 0.05]]))
    rest = np.array([0.12, 0.20, 0.55, 0.05])
    assert f[2] == pytest.approx(0.71)
    assert f[3] == pytest.approx((0.71 - rest.mean()) / rest.std())


def test_strength_features_rejects_mismatched_inputs():
    bm = BM25Index(ARTICLE).scores(CLAIM)
    with pytest.raises(ValueError, match="5 sentences but 4 BM25 scores"):
        strength_features(CLAIM, ARTICLE, bm[:4], None, [1], np.array([[0.9, 0.05, 0.05]]))
    with pytest.raises(ValueError, match="2 retrieved sentences but 1 rows"):
        strength_features(CLAIM, ARTICLE, bm, None, [1, 3], np.array([[0.9, 0.05, 0.05]]))


def test_profile_columns_follow_the_profile_names():
    """A profile's feature names select columns of the harness's 19 features, in the profile's order."""
    names = list(FEATURE_NAMES) + list(STRENGTH_FEATURE_NAMES)
    assert list(range(12)) == profile_columns({})
    assert [names.index("log_best_bm25"), names.index("max_entails")] == profile_columns(
        {"features": ["log_best_bm25", "max_entails"]})
    with pytest.raises(ValueError, match="unknown features"):
        profile_columns({"features": ["max_entails", "page_number"]})


def test_shipped_citation_integrity_profile_is_consistent():
    """The shipped profile names only computable features, one coefficient each, and a retrieval block the harness reads."""
    from citeproof.judges.entailment import load_config

    prof = load_config()["profiles"]["citation_integrity"]
    cols = profile_columns(prof)
    assert len(cols) == len(prof["mean"]) == len(prof["scale"]) == len(prof["coef"][0])
    how = prof.get("retrieval", {"method": "bm25", "top_k": 3})
    assert how["method"] in ("bm25", "bm25+dense") and 1 <= how["top_k"] <= 20


def _ci_fit():
    pytest.importorskip("sklearn", reason="the decision layer's fit needs scikit-learn (the test extra)")
    return training_module("ci_fit")


def test_nested_fit_chooses_the_features_that_separate_the_classes():
    """Nested CV picks, on the other folds only, the feature set that carries the signal, and beats the judge's 12 alone.

    Rows are shaped as the Citation-Integrity cache makes them (12 judge features, 7 strength features):
    the judge's features are noise, while irrelevant claims have a weak best BM25 and low source coverage,
    and accurate ones a high share of entailing sentences.
    """
    ci_fit = _ci_fit()
    from citeproof.eval.citation_integrity import LABELS

    rng = np.random.default_rng(7)
    gold = ["ACCURATE"] * 60 + ["NOT_ACCURATE"] * 40 + ["IRRELEVANT_OR_NEI"] * 30
    X = rng.normal(0.0, 1.0, size=(len(gold), 19))
    for i, g in enumerate(gold):
        X[i, 12] = rng.normal(1.0 if g == "IRRELEVANT_OR_NEI" else 2.5, 0.3)   # log_best_bm25
        X[i, 17] = rng.normal(0.4 if g == "IRRELEVANT_OR_NEI" else 0.9, 0.08)  # coverage_source
        X[i, 18] = rng.normal(0.6 if g == "ACCURATE" else 0.2, 0.1)            # share_entailing
    folds = np.arange(len(gold)) % 5
    classes = ["supported", "partial", "unsupported"]
    mapping = {"supported": "ACCURATE", "partial": "NOT_ACCURATE", "unsupported": "IRRELEVANT_OR_NEI",
               "contradicted": "NOT_ACCURATE"}
    inv = {"ACCURATE": "supported", "NOT_ACCURATE": "partial", "IRRELEVANT_OR_NEI": "unsupported"}
    y = [inv[g] for g in gold]
    sets = {k: v for k, v in ci_fit.FEATURE_SETS.items() if k != "judge12+strength"}
    report, chosen = ci_fit.nested_cv({("bm25", 3): X}, sets, y, gold, folds, classes, mapping, LABELS)
    assert {"bm25@3 judge12+bm25"} == {c["setting"] for c in chosen.values()}
    base, _ = ci_fit.cv(X[:, sets["judge12"]], y, folds, classes, mapping, LABELS, gold)
    assert report["macro_f1"] > 0.8 > base["macro_f1"] + 0.3
