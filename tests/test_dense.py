"""Dense retrieval: rank fusion, embeddings, the SQLite vector cache, SciFact evidence recall."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from citeproof.model import Passage
from citeproof.retrieval import dense
from citeproof.retrieval.dense import reciprocal_rank_fusion

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
needs_model = pytest.mark.skipif(not dense.available(), reason=f"dense tier unavailable: {dense.unavailable_reason()}")
needs_data = pytest.mark.skipif(not (DATA / "scifact").is_dir(), reason="../shared/data/scifact is absent")


class TestReciprocalRankFusion:
    def test_agreeing_rankings_keep_order(self):
        """Two identical rankings fuse to the same order with scores 2/(60+r)."""
        out = reciprocal_rank_fusion([[3, 1, 2], [3, 1, 2]])
        assert [3, 1, 2] == [i for i, _ in out]
        assert pytest.approx(2 / 61) == out[0][1]

    def test_item_high_in_both_wins(self):
        """An item second in both lists beats one first in one list and absent from the other."""
        out = reciprocal_rank_fusion([[7, 5], [9, 5]])
        assert 5 == out[0][0]

    def test_bad_k(self):
        """k must be positive."""
        with pytest.raises(ValueError):
            reciprocal_rank_fusion([[1]], k=0)


@needs_model
@pytest.mark.slow
class TestEmbedder:
    def test_paraphrase_closer_than_unrelated(self):
        """A paraphrase is nearer the claim than an unrelated sentence; rows are unit length."""
        e = dense.Embedder()
        v = e.embed(["Aspirin lowers the risk of stroke.", "Taking aspirin reduces stroke incidence.",
                     "The telescope imaged a distant galaxy."])
        assert (3, 384) == v.shape
        assert pytest.approx(1.0, abs=1e-4) == float((v[0] ** 2).sum())
        assert float(v[0] @ v[1]) > 0.6 > float(v[0] @ v[2])

    def test_a_texts_vector_does_not_depend_on_the_others(self):
        """One text a call (onnx_session.ROWS_PER_CALL): the int8 embedder quantizes each call's activations with one
        scale, so a batch's rows would move each other's vectors; a text embedded alone or among others is the same."""
        texts = ["Aspirin lowers the risk of stroke.", "The telescope imaged a distant galaxy in 2019 over 40 nights of observation.", "Mice."]
        together = dense.Embedder().embed(texts)
        for k, t in enumerate(texts):
            assert np.array_equal(dense.Embedder().embed([t])[0], together[k])

    def test_cache_keyed_by_source_and_text(self, tmp_path):
        """Vectors land in SQLite once per (source sha, model, index); a changed passage is re-embedded."""
        r = dense.DenseRetriever(tmp_path)
        ps = [Passage(id="p1", text="Mice lacking the gene were obese."), Passage(id="p2", text="The sky is blue.")]
        ranked = r.rank("The knockout mice gained weight.", ps, source_sha="abc")
        assert 0 == ranked[0][0]
        db = sqlite3.connect(tmp_path / "embeddings.sqlite")
        assert 2 == db.execute("SELECT count(*) FROM vectors WHERE source_sha='abc'").fetchone()[0]
        r2 = dense.DenseRetriever(tmp_path)
        calls = []
        orig = r2.embedder.embed
        r2.embedder.embed = lambda texts: calls.append(list(texts)) or orig(texts)
        r2.passage_vectors(ps, "abc")
        assert [] == calls  # all from the cache
        r2.passage_vectors([ps[0], Passage(id="p2", text="The sky is green.")], "abc")
        assert [["The sky is green."]] == calls


@needs_model
@needs_data
@pytest.mark.slow
def test_scifact_rationale_recall_at_3():
    """Dense cosine alone puts over half the rationale sentences of 40 SciFact claims in its top 3.

    Measured 2026-11-29: 54 of 93 (0.58); fusion with BM25 and the entailment
    judge does better (see ``eval/scifact.py``).
    """
    corpus = {}
    with open(DATA / "scifact" / "corpus.jsonl") as f:
        for line in f:
            r = json.loads(line)
            corpus[r["doc_id"]] = r["abstract"]
    r = dense.DenseRetriever(None)
    hit = tot = 0
    with open(DATA / "scifact" / "claims_train.jsonl") as f:
        claims = [json.loads(line) for line in f]
    for c in [c for c in claims if c["evidence"]][:40]:
        for doc, evs in c["evidence"].items():
            sents = corpus[int(doc)]
            top = {i for i, _ in r.rank(c["claim"], [Passage(id=str(i), text=s) for i, s in enumerate(sents)])[:3]}
            for ev in evs:
                for i in ev["sentences"]:
                    tot += 1
                    hit += i in top
    assert hit / tot >= 0.5


def test_vector_cache_is_keyed_by_text_not_position(tmp_path):
    """Bug: vectors were keyed by position in the list passed, so one claim's passage subset read another's vectors."""
    import numpy as np

    from citeproof.retrieval.dense import VectorCache

    cache = VectorCache(tmp_path / "v.sqlite")
    a, b = np.ones(4, dtype=np.float32), np.full(4, 2.0, dtype=np.float32)
    cache.put("sha", "m", [(0, "alpha", a), (1, "beta", b)])
    got = cache.get("sha", "m", ["beta", "gamma", "alpha"])
    assert [2.0, None, 1.0] == [None if v is None else float(v[0]) for v in got]


class _CountingEmbedder:
    """Unit vectors from a text's letters (a real-shaped stand-in for the model), counting every text embedded."""

    def __init__(self):
        self.texts: list[str] = []

    def embed(self, texts):
        import numpy as np

        self.texts += list(texts)
        out = np.zeros((len(texts), dense.DIM), dtype=np.float32)
        for r, t in enumerate(texts):
            for ch in t.lower():
                if ch.isalpha():
                    out[r, ord(ch) % dense.DIM] += 1.0
            out[r] /= max(float(np.linalg.norm(out[r])), 1e-12)
        return out


@pytest.mark.parametrize("cache", [False, True])
def test_each_passage_is_embedded_once_per_source_across_claims(tmp_path, cache):
    """Issue 17: every claim's pool used to be embedded again (in memory without a cache, ~43 passages a citation)."""
    ps = [Passage(id=f"p{i}", text=f"Passage {i} says {'abcdefghijklmnop'[i]} things.") for i in range(16)]
    fake = _CountingEmbedder()
    r = dense.DenseRetriever(tmp_path if cache else None, embedder=fake)
    first = r.rank("claim one", ps[:10], source_sha="s1")
    r.rank("claim two", ps[5:15], source_sha="s1")
    r.rank("claim one", ps[:10], source_sha="s1")
    passages = [t for t in fake.texts if t.startswith("Passage")]
    assert sorted(passages) == sorted(p.text for p in ps[:15])  # 15 distinct passages, each once
    assert ["claim one", "claim two"] == [t for t in fake.texts if t.startswith("claim")]
    again = dense.DenseRetriever(tmp_path if cache else None, embedder=_CountingEmbedder())
    assert first == again.rank("claim one", ps[:10], source_sha="s1")  # same ranking from stored or fresh vectors
    assert (0 if cache else 10) == sum(1 for t in again.embedder.texts if t.startswith("Passage"))


def test_prefetch_embeds_the_claims_pools_in_one_call_per_source():
    """Issue 17, batching across claims: Tiers.prefetch embeds every claim text in one call and the union of the
    claims' dense pools in one call per source; judging afterwards embeds nothing more."""
    from citeproof.model import Citation, Claim, Source
    from citeproof.pipeline import DENSE_POOL, Tiers

    words = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega rho".split()
    passages = [Passage(id=f"p{i}", text=f"Passage {i}: {words[i % 12]} {words[(i * 5) % 12]} {words[(i * 7) % 12]} measured in mice.", page=1 + i // 10)
                for i in range(3 * DENSE_POOL)]
    src = Source(citekey="k", path="k.txt", sha256="s" * 64, passages=passages, text=" ".join(p.text for p in passages))
    claims = [Claim(id=f"c{j}", text=f"{words[j]} and {words[j + 3]} were measured in mice", raw="", document="d.md", line=j + 1,
                    citations=(Citation(citekey="k", raw="[@k]"),)) for j in range(4)]
    fake = _CountingEmbedder()
    tiers = Tiers(["lexical"])
    tiers._dense = dense.DenseRetriever(None, embedder=fake)
    calls: list[int] = []
    real = fake.embed
    fake.embed = lambda texts: calls.append(len(texts)) or real(texts)
    tiers.prefetch([(c, src) for c in claims] + [(claims[0], None)])
    union = set().union(*(tiers.dense_pool(c.text, src, None, set()) for c in claims))
    assert calls == [4, len(union)] and DENSE_POOL < len(union) <= 4 * DENSE_POOL
    for c in claims:
        tiers.candidates(c.text, src, None, set())
    assert calls == [4, len(union)]  # judging found every vector ready


def test_the_shipped_embedder_is_the_file_its_notice_describes():
    """The embedder ships inside the package (no model package to install), and its SHA-256 is the one
    ``models/NOTICE.md`` records for the per-channel int8 export (issue 27): a re-export must update both."""
    import hashlib
    import re

    path = dense.MODEL_PATH
    assert path.parent == Path(dense.__file__).parent / "models"
    assert dense.unavailable_reason() is None
    notice = (path.parent / "NOTICE.md").read_text(encoding="utf-8")
    recorded = re.search(r"# all-minilm-l6-v2-int8\.onnx.*?SHA-256\s+`([0-9a-f]{64})`", notice, re.S)
    assert recorded, "NOTICE.md names no SHA-256 for the embedder"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded.group(1)
    assert "per-channel" in dense.MODEL_VERSION  # the vector cache key changed with the model
