"""The one place citeproof opens an onnxruntime session and cuts inputs into batches (issue 17).

Both models (the dense tier's embedder, :mod:`citeproof.retrieval.dense`, and
the entailment cross-encoder, :mod:`citeproof.judges.entailment`) are BERT-sized
encoders whose activations grow with rows x length (and length squared in
attention). Two measures keep the memory of a run flat:

* onnxruntime's CPU arena is off (``enable_cpu_mem_arena = False``): with it
  on, the arena keeps the largest batch's buffers for the session's life (the
  scale job peaked at 2.4 GiB, +617 MiB embedder and +493 MiB cross-encoder
  after one 32 x 256-token batch); without it each run's buffers are freed;
* batches are cut by a token budget (:data:`MAX_BATCH_TOKENS` = rows x padded
  length), so long inputs go in small batches and short ones in large ones.

Idle threads do not spin (``session.intra_op.allow_spinning = 0``), so CPU time
is work done.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["MAX_BATCH_TOKENS", "open_session", "token_batches"]

MAX_BATCH_TOKENS = 4096
"""Most word pieces (rows x padded length) in one inference call: 16 x 256 or 64 x 64."""


def open_session(path: Path | str, threads: int = 2):
    """An onnxruntime CPU session for ``path`` with the arena off and ``threads`` intra-op threads.

    Args:
        path: the ``.onnx`` file.
        threads: intra-op threads (the machine's cores; inter-op is 1).

    Returns:
        ``onnxruntime.InferenceSession``.

    Raises:
        ImportError: onnxruntime is not installed (callers check first).
        onnxruntime's own errors: the file is not a model it can load.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.enable_cpu_mem_arena = False
    # Idle intra-op threads sleep instead of spinning: a spinning thread burns a core between the
    # small batches of a check (CPU time with nothing done), and on a shared or busy machine (the web
    # page, Ray workers) it takes cores from the others.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def token_batches(lengths: Sequence[int], max_rows: int, max_tokens: int = MAX_BATCH_TOKENS) -> list[list[int]]:
    """Indices of inputs grouped into batches, shortest first, each within a row and token budget.

    Args:
        lengths: each input's length in word pieces (after truncation).
        max_rows: most inputs in one batch (>= 1).
        max_tokens: most ``rows x longest length`` in one batch; an input
            longer than the budget goes alone.

    Returns:
        lists of indices into ``lengths``; every index once; within a batch,
        lengths ascend, so the last one sets the padding.
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    cur: list[int] = []
    for i in order:
        longest = max(lengths[i], 1)
        if cur and (len(cur) + 1 > max_rows or (len(cur) + 1) * longest > max_tokens):
            batches.append(cur)
            cur = []
        cur.append(i)
    if cur:
        batches.append(cur)
    return batches
