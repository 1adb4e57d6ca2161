"""The judge's meaning stage (issue 28): its generated pairs, its held-out sources and the int8 -> float weights.

``training/`` is not a package and torch is a training-only dependency: what is tested here needs neither
torch nor a model run, only the data in ``../shared/data`` (skipped with a reason where absent) and onnx.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import training_module

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
JUDGE = ROOT / "src" / "citeproof" / "judges" / "models" / "entailment-minilm-l6-int8.onnx"


@pytest.fixture(scope="module")
def hard_cases():
    return training_module("hard_cases")


class TestScopeAndTermSwaps:
    def test_a_population_the_source_names_is_widened(self, hard_cases):
        p = "Mice fed a high-fat diet gained about 12% more weight than controls."
        h = "A high-fat diet makes mice gain weight."
        assert hard_cases.widen_scope(p, h, random.Random(0)) == "A high-fat diet makes humans gain weight."

    def test_in_vitro_becomes_in_vivo_and_case_is_kept(self, hard_cases):
        p = "In vitro, the compound blocked viral entry."
        h = "In vitro the compound blocks viral entry."
        assert hard_cases.widen_scope(p, h, random.Random(0)) == "In vivo the compound blocks viral entry."

    def test_no_widening_without_the_word_in_the_premise(self, hard_cases):
        # "mice" only in the hypothesis: widening it would not make a claim the premise fails to entail
        assert hard_cases.widen_scope("Patients improved.", "Mice improved.", random.Random(0)) is None
        assert hard_cases.widen_scope("Patients improved.", "Patients improved.", random.Random(0)) is None

    def test_hedges_and_causation_are_not_scope_swaps(self, hard_cases):
        # issue 28: hedge_removed and causal_overclaim stay *partial*; they are not trained as false claims
        p = "Smoking may be associated with lung cancer."
        assert hard_cases.widen_scope(p, "Smoking may be associated with lung cancer.", random.Random(0)) is None

    def test_term_swap_takes_a_word_of_the_document_in_the_claim_word_place(self, hard_cases):
        premise = "Metformin reduced hepatic glucose production in diabetic patients."
        doc = "Insulin resistance raised renal glucose uptake in the kidney. Glucagon secretion was unchanged."
        h = "Metformin reduced hepatic glucose production."
        new = hard_cases.swap_term(premise, h, random.Random(3), doc)
        assert new is not None and new != h
        changed = [(a, b) for a, b in zip(h.split(), new.split()) if a != b]
        assert len(changed) == 1 and len(new.split()) == len(h.split())  # one word, in place

    def test_not_entailed_labels_both_rules_and_skips_what_does_not_apply(self, hard_cases):
        triples = [("In mice, metformin reduced hepatic glucose production and insulin secretion.",
                    "In mice, metformin reduced hepatic glucose production.", None),
                   ("It rained.", "It rained.", None)]
        out = hard_cases.not_entailed(triples, seed=1)
        assert {r for _p, _h, r in out} == {"term", "scope"}
        assert all(p == triples[0][0] and h != triples[0][1] for p, h, _r in out)
        assert out == hard_cases.not_entailed(triples, seed=1)  # deterministic for a seed


@pytest.fixture(scope="module")
def built():
    md = training_module("meaning_data")
    md_pairs, record, _twins = md.build(DATA, nli_replay=200)
    return md, md_pairs, record


@pytest.mark.skipif(not (DATA / "scifact" / "claims_train.jsonl").is_file() or not (DATA / "wice-dev").is_dir(),
                    reason="../shared/data/scifact or wice-dev absent")
class TestMeaningData:
    def test_no_pair_comes_from_a_source_the_evaluation_samples(self, built):
        md, pairs, record = built
        held = md.held_out_sources(DATA)
        assert record["held_out"]["wice"] == 150 and record["held_out"]["scifact_docs"] > 150
        tj = training_module("train_judge")
        corpus = {r["doc_id"]: r["abstract"] for r in tj.read_jsonl(DATA / "scifact" / "corpus.jsonl")}
        # section headers ("Methods.") recur in every corpus: a sentence of 30+ characters is one abstract's
        held_sents = {s for d in held["scifact_docs"] for s in corpus.get(d, []) if len(s) >= 30}
        premises = {p for p, _h, _l in pairs}
        assert not premises & held_sents
        wice = tj.read_jsonl(DATA / "wice-dev" / "claim_dev.jsonl")
        held_claims = {wice[i]["claim"] for i in held["wice"]}
        assert not {h for _p, h, _l in pairs} & held_claims

    def test_calibration_claims_train_nothing(self, built):
        md, pairs, record = built
        tj = training_module("train_judge")
        cal = set(record["calibrate_claims"])
        claims = {c["id"]: c["claim"] for c in tj.read_jsonl(DATA / "scifact" / "claims_train.jsonl")}
        assert len(cal) == record["scifact_claims"]["calibrate"] > 100
        assert not {claims[c] for c in cal} & {h for _p, h, _l in pairs}

    def test_labels_and_sources_are_what_the_record_says(self, built):
        _md, pairs, record = built
        assert record["total"] == len(pairs) == sum(record["pairs"].values())
        assert set(record["labels"]) <= {0, 1, 2, 3} and record["labels"][3] > 500  # swaps and WiCE: not entailed
        assert record["pairs"]["term swaps"] > 200 and record["pairs"]["scope swaps"] > 10

    def test_wice_labels_map_to_entails_and_not_entailed(self, built):
        md, _pairs, _record = built
        rows = md.wice_pairs(DATA, skip=set())
        assert {lab for _p, _h, lab, _d in rows} == {0, 3}
        supported = next(r for r in rows if r[2] == 0)
        assert supported[0][:40] in supported[3]  # the premise is made of the page's own sentences


@pytest.fixture(scope="module")
def state():
    return training_module("dequantize").dequantized_state(JUDGE)


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="onnx not installed")
class TestDequantize:
    def test_every_linear_layer_is_named_with_torch_shapes(self, state):
        assert state["bert.embeddings.word_embeddings.weight"].shape == (30522, 384)
        for i in range(6):
            pre = f"bert.encoder.layer.{i}."
            for lin in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
                assert state[pre + lin + ".weight"].shape == (384, 384)
            assert state[pre + "intermediate.dense.weight"].shape == (1536, 384)  # [out, in]: transposed back
            assert state[pre + "output.dense.weight"].shape == (384, 1536)
        assert state["head.weight"].shape == (3, 384) and state["head.bias"].shape == (3,)
        assert len(state) == 103 and all(v.dtype == np.float32 for v in state.values())

    def test_the_weights_quantize_back_to_the_shipped_integers(self, state):
        import onnx
        from onnx import numpy_helper

        init = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(JUDGE)).graph.initializer}
        q = init["head.weight_Transposed_quantized"]
        scale, zp = init["head.weight_Transposed_scale"], init["head.weight_Transposed_zero_point"]
        back = np.round(state["head.weight"].T / scale + zp.astype(np.float32)).astype(q.dtype)
        assert np.array_equal(back, q)
        w = state["bert.embeddings.word_embeddings.weight"]
        wq = init["bert.embeddings.word_embeddings.weight_quantized"]
        ws, wz = init["bert.embeddings.word_embeddings.weight_scale"], init["bert.embeddings.word_embeddings.weight_zero_point"]
        assert np.array_equal(np.round(w / ws + wz.astype(np.float32)).astype(wq.dtype), wq)


class TestDeviceMeaning:
    """The accelerator's round trip (``training/device_meaning.py``): what travels and what comes back, byte for byte."""

    def test_weights_cut_into_parts_come_back_whole(self, tmp_path):
        dm = training_module("device_meaning")
        blob = bytes(range(256)) * 5  # 1,280 bytes
        (tmp_path / "meaning.pt").write_bytes(blob)
        parts = dm.split(tmp_path / "meaning.pt", tmp_path / "out", part_bytes=500)
        assert [p.name for p in parts] == ["meaning.pt.part0", "meaning.pt.part1", "meaning.pt.part2"]
        assert [p.stat().st_size for p in parts] == [500, 500, 280]
        back = dm.join(tmp_path / "out", tmp_path / "back" / "meaning.pt")
        assert back.read_bytes() == blob

    def test_a_damaged_or_missing_part_is_refused_by_name(self, tmp_path):
        dm = training_module("device_meaning")
        (tmp_path / "w.pt").write_bytes(b"x" * 1000)
        parts = dm.split(tmp_path / "w.pt", tmp_path / "out", part_bytes=400)
        parts[1].write_bytes(b"y" * 400)
        with pytest.raises(SystemExit, match="SHA-256"):
            dm.join(tmp_path / "out", tmp_path / "w2.pt")
        parts[2].unlink()
        with pytest.raises(SystemExit, match="w.pt.part2"):
            dm.join(tmp_path / "out", tmp_path / "w2.pt")

    def test_more_parts_than_can_come_back_is_an_error(self, tmp_path):
        dm = training_module("device_meaning")
        (tmp_path / "big.pt").write_bytes(b"z" * 800)
        with pytest.raises(SystemExit, match="8 parts"):
            dm.split(tmp_path / "big.pt", tmp_path / "out", part_bytes=100)

    def test_gzipped_pairs_read_back_as_written(self, tmp_path):
        md, tj = training_module("meaning_data"), training_module("train_judge")
        pairs = [("Mice gained 12% weight.", "Mice gained weight.", 0), ("Café au lait spots.", "No spots.", 3)]
        twins = [("Mice gained 12% weight.", "Mice gained weight.", "Rats gained weight.")]
        paths = md.write(tmp_path, pairs, {"total": 2}, twins, gz=True)
        assert [p.name for p in paths] == ["pairs.jsonl.gz", "twins.jsonl.gz", "split.json"]
        assert [(r["premise"], r["hypothesis"], r["label"]) for r in tj.read_jsonl(paths[0])] == pairs
        assert [(r["premise"], r["hypothesis"], r["changed"]) for r in tj.read_jsonl(paths[1])] == twins
