"""The batching of model inputs (``citeproof.onnx_session.token_batches``, issue 27): runs of like length, at the
least padded cost, within the row and token budgets."""

from __future__ import annotations

import random
import re

from citeproof.onnx_session import BATCH_OVERHEAD_TOKENS, MAX_BATCH_TOKENS, token_batches


def _cost(lengths: list[int], batches: list[list[int]], overhead: int = BATCH_OVERHEAD_TOKENS) -> int:
    return sum(overhead + len(b) * max(lengths[i] for i in b) for b in batches)


def _greedy(lengths: list[int], max_rows: int, max_tokens: int) -> list[list[int]]:
    """The batching before issue 27: sorted, filled up to the row and token budget."""
    out, cur = [], []
    for i in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        if cur and (len(cur) + 1 > max_rows or (len(cur) + 1) * lengths[i] > max_tokens):
            out.append(cur)
            cur = []
        cur.append(i)
    return out + ([cur] if cur else [])


def test_short_and_long_inputs_are_not_padded_together():
    lengths = [10, 10, 10, 100, 12, 100, 50]
    assert token_batches(lengths, 32) == [[0, 1, 2, 4], [6], [3, 5]]
    # the old way padded all seven to 100 word pieces: 700 against 4 x 12 + 50 + 2 x 100 = 298
    assert _cost(lengths, _greedy(lengths, 32, MAX_BATCH_TOKENS)) == BATCH_OVERHEAD_TOKENS + 700
    assert _cost(lengths, token_batches(lengths, 32)) == 3 * BATCH_OVERHEAD_TOKENS + 298


def test_equal_lengths_fill_the_row_budget():
    assert [len(b) for b in token_batches([5] * 40, 32)] == [32, 8]
    assert [len(b) for b in token_batches([256] * 40, 32)] == [16, 16, 8]  # 16 x 256 = MAX_BATCH_TOKENS


def test_edge_cases():
    assert token_batches([], 4) == []
    assert token_batches([5000], 4) == [[0]]  # longer than the token budget: alone
    assert token_batches([0, 0, 3], 8) == [[0, 1, 2]]


def test_random_inputs_keep_every_rule_and_never_cost_more_than_filling():
    rng = random.Random(27)
    for _ in range(200):
        n = rng.randint(1, 120)
        lengths = [rng.randint(1, 300) for _ in range(n)]
        rows = rng.choice([1, 4, 16, 32])
        batches = token_batches(lengths, rows)
        assert sorted(i for b in batches for i in b) == list(range(n))
        for b in batches:
            ls = [lengths[i] for i in b]
            assert ls == sorted(ls) and len(b) <= rows
            assert len(b) == 1 or len(b) * ls[-1] <= MAX_BATCH_TOKENS
        flat = [lengths[i] for b in batches for i in b]
        assert flat == sorted(flat)
        assert _cost(lengths, batches) <= _cost(lengths, _greedy(lengths, rows, MAX_BATCH_TOKENS))


def test_threads_come_from_the_environment(monkeypatch):
    """CITEPROOF_THREADS sets each model session's intra-op threads; a bad value is a clear error before any work."""
    import pytest

    from citeproof.errors import CiteproofError
    from citeproof.onnx_session import THREADS_ENV, default_threads

    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert default_threads() == 2
    monkeypatch.setenv(THREADS_ENV, " 1 ")
    assert default_threads() == 1
    from citeproof.judges import entailment
    from citeproof.onnx_session import open_session

    if entailment.unavailable_reason() is None:
        assert open_session(entailment.MODEL_PATH).get_session_options().intra_op_num_threads == 1
        assert open_session(entailment.MODEL_PATH, 2).get_session_options().intra_op_num_threads == 2
    for bad in ("0", "two", "-1", "1.5"):
        monkeypatch.setenv(THREADS_ENV, bad)
        with pytest.raises(CiteproofError, match=f"CITEPROOF_THREADS='{re.escape(bad)}'"):
            default_threads()
    from citeproof.tiers import Tiers

    with pytest.raises(CiteproofError, match="CITEPROOF_THREADS"):
        Tiers(["lexical", "entailment"])
    assert Tiers(["lexical"]).used == ["lexical"]  # the lexical tier runs no model: nothing to ask


def test_a_batch_task_shares_the_cpus_among_the_workers(monkeypatch, tmp_path):
    """Ray gives a task one CPU: a document task's models run the local CPUs / workers threads (1 on a cluster),
    unless CITEPROOF_THREADS says otherwise; the task sets it in its worker before any model loads."""
    import os

    from citeproof import batch
    from citeproof.batch import BatchDocument, check_document, task_threads
    from citeproof.onnx_session import THREADS_ENV

    monkeypatch.setenv(THREADS_ENV, "x")  # recorded, so the test leaves the environment as it found it
    monkeypatch.delenv(THREADS_ENV)
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 8)
    assert [task_threads(None, 1), task_threads(None, 2), task_threads(None, 8), task_threads(None, 16),
            task_threads(None, None), task_threads("ray://head:10001", 2)] == [8, 4, 1, 1, 1, 1]
    monkeypatch.setenv(THREADS_ENV, "3")
    assert task_threads(None, 2) == 3 and task_threads("auto", 2) == 3
    doc = BatchDocument(path=tmp_path / "missing.md", bib=[], sources=[])
    rec = check_document(doc, str(tmp_path / "out"), "missing", str(tmp_path / "cache"), ["lexical"], [], "sha", 2)
    assert rec["error"] and os.environ[THREADS_ENV] == "2"
