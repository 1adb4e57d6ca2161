"""The one place citeproof opens an onnxruntime session and cuts inputs into batches (issue 17).

Both models (the dense tier's embedder, :mod:`citeproof.retrieval.dense`, and
the entailment cross-encoder, :mod:`citeproof.judges.entailment`) are BERT-sized
encoders whose activations grow with rows x length (and length squared in
attention). Two measures keep the memory of a run flat:

* onnxruntime's CPU arena is on and its memory pattern off. With the arena off (the issue 17 setting)
  every batch faulted its pages in again: embedding 800 demo passages took 50.6 CPU-s, 10.1 of them
  system time, and 2.98 M page faults; with the arena on, 34.2 CPU-s, 0.7 system, 0.17 M faults, for a
  peak of 460 MiB instead of 416 (issue 27, 2026-12-02, 2 busy cores). The arena keeps the largest batch's
  buffers for the session's life, which is what the token budget below bounds (the scale job peaked at
  2.4 GiB when batches were 32 x 256 word pieces); the memory pattern (pre-planned buffers per input
  shape) is off, as it added 170 MiB (613 MiB) for no CPU saved;
* the shipped int8 models take one input a call (:data:`ROWS_PER_CALL`: their rows would change each other's
  outputs); where a caller batches (a float model), batches are cut by a token budget (:data:`MAX_BATCH_TOKENS`
  = rows x padded length) at the least padded cost (:func:`token_batches`).

Idle threads do not spin (``session.intra_op.allow_spinning = 0``), so CPU time
is work done.

On glibc, freed large buffers would otherwise stay in the heap: glibc raises its
mmap threshold each time a large mmapped block is freed (up to 32 MiB), after
which a model's activations come from the heap and fragment it. Measured on 300
demo passages through the embedder: peak 953 MiB as glibc sets it, 568 MiB with
the threshold fixed at 1 MiB (:func:`_fix_mmap_threshold`) and ORT's memory
pattern off, for about the same CPU time.
"""

from __future__ import annotations

import os

from collections.abc import Sequence
from pathlib import Path

__all__ = ["BATCH_OVERHEAD_TOKENS", "MAX_BATCH_TOKENS", "MMAP_THRESHOLD", "ROWS_PER_CALL", "open_session", "token_batches"]

MMAP_THRESHOLD = 1 << 20
"""Allocations from this size (bytes) are mmapped and returned to the system when freed (glibc ``M_MMAP_THRESHOLD``)."""

_FIXED = False


def _fix_mmap_threshold() -> None:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` (once per process; nothing elsewhere than glibc)."""
    global _FIXED
    if _FIXED:
        return
    _FIXED = True
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD = -3 (malloc.h)
    except (OSError, AttributeError):  # not glibc: its allocator keeps its own policy
        pass

MAX_BATCH_TOKENS = 4096
"""Most word pieces (rows x padded length) in one inference call: 16 x 256 or 64 x 64."""


THREADS_ENV = "CITEPROOF_THREADS"
"""Environment variable: intra-op threads of each model session (a whole number, at least 1; unset: 2).

``citeproof batch`` sets it to 1 in its Ray tasks unless it is set: Ray gives each task one CPU, and two models
of two threads each in two workers on two cores cost more than one thread each. Measured (2026-12-03, 2 cores,
the cross-encoder, 400 pairs in each of two processes at once): 7.5 CPU-s and 7.4 s each with 2 threads, 5.9 and
5.9 with 1; a process alone: 4.5 CPU-s / 2.7 s with 2 threads, 3.8 / 3.8 with 1 (outputs identical)."""


def default_threads() -> int:
    """Intra-op threads for a model session: :data:`THREADS_ENV` when set, else 2 (the machines' cores).

    Raises:
        CiteproofError: :data:`THREADS_ENV` is set to something other than a whole number of at least 1 (the
            message names the variable and the value; :class:`citeproof.tiers.Tiers` asks at its start, so a run
            fails before any work).
    """
    from citeproof.errors import CiteproofError

    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return 2
    if not raw.isdigit() or int(raw) < 1:
        raise CiteproofError(f"{THREADS_ENV}={raw!r}: give a whole number of threads for each model, 1 or more (or unset it)")
    return int(raw)


def open_session(path: Path | str, threads: int | None = None):
    """An onnxruntime CPU session for ``path`` with the arena on, the memory pattern off and ``threads`` intra-op threads.

    Args:
        path: the ``.onnx`` file.
        threads: intra-op threads (inter-op is 1); None: :func:`default_threads`.

    Returns:
        ``onnxruntime.InferenceSession``.

    Raises:
        ImportError: onnxruntime is not installed (callers check first).
        onnxruntime's own errors: the file is not a model it can load.
    """
    import onnxruntime as ort

    _fix_mmap_threshold()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads if threads is not None else default_threads()
    opts.inter_op_num_threads = 1
    opts.enable_cpu_mem_arena = True  # reused across batches: no page faults per batch (module docstring)
    opts.enable_mem_pattern = False  # no per-shape buffer plans: they cost memory and saved no CPU
    # Idle intra-op threads sleep instead of spinning: a spinning thread burns a core between the
    # small batches of a check (CPU time with nothing done), and on a shared or busy machine (the web
    # page, Ray workers) it takes cores from the others.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


ROWS_PER_CALL = 1
"""Inputs per inference call for the shipped int8 models (the embedder and the cross-encoder): one.

Their activations are quantized per call (onnxruntime's ``DynamicQuantizeLinear``: one scale for the whole input
tensor), so the rows of a batch change each other's outputs. Measured on the 875 rows of ``citeproof eval meaning``
(2026-12-03, issue 27): batches cut by padded cost (:func:`token_batches`, 16 word pieces a call) against batches
of 32 moved P(entails) by a median 0.016 (165 rows by more than 0.05) and changed the judged sentence of 125 rows;
one input a call is the answer the input has alone, whatever else the run judges, and costs no more on a CPU (a
call costs about what 10 word pieces do, :data:`BATCH_OVERHEAD_TOKENS`): the scale job's cold all-tier run went
from 129 (cut by padded cost) to 112 CPU-s with it, the pair memo and the sentence cache. Macro-F1 on those rows, shipped lines,
batches of 32 / one a call: SciFact 0.418 / 0.418, Citation-Integrity 0.255 / 0.258, WiCE 0.415 / 0.408."""

BATCH_OVERHEAD_TOKENS = 16
"""What one inference call costs beyond its padded word pieces, in word pieces (for :func:`token_batches`).

Measured on 2 cores (2026-12-03, both models, CPU-ms per call): rows x length 1 x 16 7.0, 1 x 64 20.3, 4 x 64 66.3,
16 x 64 299.7, 16 x 128 702.4: about 2.5 ms a call plus 0.25-0.35 ms a padded word piece, flat in the rows (large
batches buy nothing on a CPU), so a call costs about what 10 word pieces do; 16 leaves room for faster kernels."""


def token_batches(lengths: Sequence[int], max_rows: int, max_tokens: int = MAX_BATCH_TOKENS,
                  overhead: int = BATCH_OVERHEAD_TOKENS) -> list[list[int]]:
    """Indices of inputs grouped into batches, shortest first, at the least padded cost.

    Inputs are sorted by length and cut into runs of like length: the cut is the one that minimises the sum over
    batches of ``overhead + rows x longest`` (dynamic programming over the sorted lengths), within a row and token
    budget. Right-padding to the longest of a batch wasted 59% of the cross-encoder's and 48% of the embedder's
    word pieces on the scale job with one batch a call (issue 27).

    Args:
        lengths: each input's length in word pieces (after truncation).
        max_rows: most inputs in one batch (>= 1).
        max_tokens: most ``rows x longest length`` in one batch; an input
            longer than the budget goes alone.
        overhead: the cost of one call in word pieces (:data:`BATCH_OVERHEAD_TOKENS`).

    Returns:
        lists of indices into ``lengths``; every index once; within a batch,
        lengths ascend, so the last one sets the padding; batches in ascending length.
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    ls = [max(lengths[i], 1) for i in order]
    n = len(ls)
    best = [0] + [0] * n  # best[k]: least cost of the first k sorted inputs
    cut = [0] * (n + 1)  # cut[k]: where the last batch of the first k starts
    for k in range(1, n + 1):
        longest = ls[k - 1]
        best[k], cut[k] = best[k - 1] + overhead + longest, k - 1
        for j in range(k - 2, max(k - max_rows, 0) - 1, -1):  # the last batch is sorted[j:k]
            if (k - j) * longest > max_tokens:
                break
            c = best[j] + overhead + (k - j) * longest
            if c < best[k]:
                best[k], cut[k] = c, j
    batches: list[list[int]] = []
    k = n
    while k > 0:
        batches.append(order[cut[k]:k])
        k = cut[k]
    return batches[::-1]
