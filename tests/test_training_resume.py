"""Resumable training of the entailment judge (training/resume.py, training/train_judge.py's NLI data).

The bookkeeping is torch-free, so it is tested here on every machine: a run that stops part-way and a second
run that resumes must together train on exactly the batches one uninterrupted run would have, in the same order.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import training_module

ROOT = Path(__file__).resolve().parents[1]
NLI = ROOT.parent / "shared" / "data" / "nli"


@pytest.fixture(scope="module")
def resume():
    return training_module("resume")


@pytest.fixture(scope="module")
def train_judge():
    return training_module("train_judge")


def _lengths(n: int) -> list[int]:
    rng = random.Random(5)
    return [rng.randint(20, 400) for _ in range(n)]


def test_stopped_and_resumed_runs_train_on_the_uninterrupted_plan(resume):
    lengths = _lengths(1000)  # 32 batches of 32 (the last one 8 pairs)
    whole = resume.Progress(stage="general", seed=13, data="x")
    uninterrupted = resume.remaining_plan(whole, lengths, 32, 2.0)
    assert len(uninterrupted) == 64
    assert [ep for ep, _ in uninterrupted] == [0] * 32 + [1] * 32

    p = resume.Progress(stage="general", seed=13, data="x")
    first = resume.remaining_plan(p, lengths, 32, 2.0)[:20]  # the time budget ends after 20 batches
    for _ in first:
        p.advance()
    assert (p.epoch, p.batch) == (0, 20)
    assert p.epochs_done == pytest.approx(20 / 32)
    # Round-trip through JSON, as the checkpoint does.
    p = resume.Progress.from_json(json.loads(json.dumps(p.to_json())))
    second = resume.remaining_plan(p, lengths, 32, 2.0 - 20 / 32)
    assert first + second == uninterrupted
    for _ in second:
        p.advance()
    assert (p.epoch, p.batch, p.total_steps) == (2, 0, 64)


def test_each_epoch_sees_every_pair_once_in_a_new_order(resume):
    lengths = _lengths(300)
    p = resume.Progress(stage="general", seed=1, data="x")
    plan = resume.remaining_plan(p, lengths, 32, 2.0)
    ep0 = [i for ep, b in plan if ep == 0 for i in b]
    ep1 = [i for ep, b in plan if ep == 1 for i in b]
    assert sorted(ep0) == sorted(ep1) == list(range(300))
    assert ep0 != ep1


def test_fractional_epochs_and_bad_input(resume):
    p = resume.Progress(stage="scifact", seed=3, data="x")
    assert len(resume.remaining_plan(p, _lengths(640), 32, 0.5)) == 10
    with pytest.raises(ValueError, match="nothing to train on"):
        resume.remaining_plan(p, [], 32, 1.0)


def test_learning_rate_warms_up_then_decays_to_zero_by_plan_or_budget(resume):
    assert resume.lr_at(0, 100, 0.0, 0.0, 1e-4, warmup=10) == pytest.approx(1e-5)
    assert resume.lr_at(50, 100, 0.0, 0.0, 1e-4, warmup=10) == pytest.approx(5e-5)
    # Half the wall-time budget is spent at step 10 of 100: the decay follows the clock.
    assert resume.lr_at(10, 100, 30.0, 60.0, 1e-4, warmup=10) == pytest.approx(5e-5)
    assert resume.lr_at(99, 100, 0.0, 0.0, 1e-4, warmup=10) == pytest.approx(1e-6)
    assert resume.lr_at(5, 100, 61.0, 60.0, 1e-4) == 0.0


def test_fingerprint_tells_other_data_apart(resume):
    a = [("The drug lowered mortality.", "Mortality fell.", 0), ("It rained.", "It was dry.", 2)]
    assert resume.fingerprint(a) == resume.fingerprint(list(a))
    assert resume.fingerprint(a) != resume.fingerprint(a[:1])
    assert resume.fingerprint(a) != resume.fingerprint([a[0], ("It rained.", "It was dry.", 1)])


def test_history_is_written_for_the_model_card(resume, tmp_path):
    p = resume.Progress(stage="general", seed=13, data="x")
    p.history.append(resume.RunRecord(stage="general", started="2026-12-01T20:00:00Z", steps=3000,
                                      pairs_seen=96000, epoch_from=0.0, epoch_to=1.12, loss_last=0.52))
    resume.write_history(tmp_path / "history.json", p)
    rows = json.loads((tmp_path / "history.json").read_text())
    assert rows[0]["pairs_seen"] == 96000 and rows[0]["epoch_to"] == 1.12


@pytest.mark.skipif(not (NLI / "med" / "test.jsonl").exists(), reason="../shared/data/nli is absent")
def test_general_stage_reads_every_trainable_nli_file_including_med_and_help(train_judge):
    listed = {rel for rel, _ in train_judge.NLI_FILES}
    on_disk = {str(p.relative_to(NLI)) for p in NLI.rglob("*.jsonl")}
    # Every file but ANLI (CC BY-NC: evaluation only) trains the general stage.
    assert on_disk - listed == {p for p in on_disk if p.startswith("anli/")}
    pairs = train_judge.nli_pairs(random.Random(13))
    # 86,135 lines in data/nli less ANLI's 6,398 (the README's sizes).
    assert len(pairs) == 79_737
    med = ("No delegate finished the report on time.", "No delegate finished the report.", 3)
    assert med in pairs  # a MED monotonicity pair, binary: not entailed
    labels = {lab for _, _, lab in pairs}
    assert labels == {0, 1, 2, 3}
    capped = train_judge.nli_pairs(random.Random(13), max_breaking=2000, max_binary=12000)
    assert len(capped) == 79_737 - (8_193 - 2_000) - (8_209 + 10_000 + 9_832 + 5_382 + 6_514 - 12_000)


def test_nli_scores_are_accuracy_and_macro_f1(train_judge):
    import numpy as np

    probs = np.array([[.9, .05, .05], [.1, .8, .1], [.1, .2, .7], [.6, .3, .1]])
    # Predicted 0, 1, 2, 0 against gold 0, 1, 2, 2: F1 entail 2/3, neutral 1, contradict 2/3.
    assert train_judge.nli_scores(probs, [0, 1, 2, 2]) == {"n": 4, "accuracy": 0.75, "macro_f1": 0.7778}


@pytest.mark.skipif(not (NLI / "anli" / "r1_dev.jsonl").exists(), reason="../shared/data/nli is absent")
def test_the_held_out_nli_figure_reads_anli_dev_which_never_trains(train_judge):
    dev = train_judge.anli_dev()
    assert len(dev) == 1000 + 1000 + 1198
    assert {lab for _, _, lab in dev} == {0, 1, 2}
    assert not any(rel.startswith("anli/") for rel, _ in train_judge.NLI_FILES)
