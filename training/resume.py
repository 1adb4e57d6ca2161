"""Resumable training runs: where a run stopped, what it has seen, and what the next run does.

A training stage (``train_judge.py general --checkpoint C``) saves, every few minutes and when its time budget
ends, the network, the optimiser's moments and a :class:`Progress` record. The next run of the same stage loads
them and carries on from the same batch of the same epoch, so NLI epochs accumulate across runs (and machines,
when the checkpoint is copied along) instead of restarting from the backbone.

This module is the bookkeeping only, with no torch, so that it is tested everywhere:

* the order of the pairs in epoch *e* is a pure function of (seed, e) (:func:`epoch_order`), so a resumed run
  regenerates exactly the plan it left and skips the batches already trained on;
* a record of every run (:class:`RunRecord`: steps, pairs seen, epochs covered, loss at its start and end) is kept
  in the checkpoint and in ``history.json`` beside it; the model card's per-stage figures come from there;
* the data a checkpoint was trained on is fingerprinted (:func:`fingerprint`): a run whose prepared pairs differ
  keeps the weights but starts a new epoch, and says so, rather than skipping pairs it never saw.

The learning rate restarts with each run (warm-up, then linear decay to 0 at the run's end or time budget): the
"warm restarts" schedule of Loshchilov and Hutter (SGDR, ICLR 2017), with AdamW's moments carried over.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class RunRecord:
    """One training run of one stage: what it did, for the model card."""

    stage: str
    started: str  # ISO date and time, UTC
    minutes: float = 0.0
    steps: int = 0
    pairs_seen: int = 0
    epoch_from: float = 0.0  # epochs completed before the run (fractional)
    epoch_to: float = 0.0  # epochs completed after it
    loss_first: float | None = None  # running loss after its first logged steps
    loss_last: float | None = None
    lr: float = 0.0
    data_pairs: int = 0
    note: str = ""


@dataclass
class Progress:
    """Where a stage stands across runs.

    ``epoch`` counts completed epochs; ``batch`` is the next batch of epoch ``epoch`` to train on (0-based);
    ``batches_per_epoch`` is the length of an epoch's plan in batches; ``data`` is the :func:`fingerprint` of the
    prepared pairs.
    """

    stage: str
    seed: int
    data: str
    epoch: int = 0
    batch: int = 0
    batches_per_epoch: int = 0
    total_steps: int = 0
    history: list[RunRecord] = field(default_factory=list)

    @property
    def epochs_done(self) -> float:
        """Completed epochs, fractional (for example 1.5 after one and a half passes)."""
        if not self.batches_per_epoch:
            return float(self.epoch)
        return self.epoch + self.batch / self.batches_per_epoch

    def advance(self) -> None:
        """Count one trained batch; roll over to the next epoch at the end of the plan."""
        self.batch += 1
        self.total_steps += 1
        if self.batches_per_epoch and self.batch >= self.batches_per_epoch:
            self.epoch += 1
            self.batch = 0

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "Progress":
        hist = [RunRecord(**r) for r in d.get("history", [])]
        return cls(**{k: v for k, v in d.items() if k != "history"}, history=hist)


def fingerprint(pairs: list[tuple[str, str, int]]) -> str:
    """A short digest of the prepared pairs (count, then every premise, hypothesis and label in order)."""
    h = hashlib.sha256(str(len(pairs)).encode())
    for p, q, lab in pairs:
        h.update(p.encode("utf-8", "replace"))
        h.update(b"\x00")
        h.update(q.encode("utf-8", "replace"))
        h.update(b"\x00%d\x01" % lab)
    return h.hexdigest()[:16]


def epoch_order(n: int, seed: int, epoch: int) -> list[int]:
    """The order of ``n`` pairs in epoch ``epoch``: a permutation fixed by (seed, epoch), the same on every run."""
    idx = list(range(n))
    random.Random(seed * 100_003 + epoch).shuffle(idx)
    return idx


def bucketed_batches(order: list[int], lengths: list[int], bs: int, seed: int, epoch: int) -> list[list[int]]:
    """Cut ``order`` into batches of ``bs``, sorting each chunk of 50 batches by length (less padding), then
    shuffle the batches; deterministic in (seed, epoch). ``lengths`` are characters per pair."""
    out: list[list[int]] = []
    chunk = bs * 50
    for s in range(0, len(order), chunk):
        part = sorted(order[s: s + chunk], key=lambda i: lengths[i])
        out += [part[j: j + bs] for j in range(0, len(part), bs)]
    random.Random(seed * 100_003 + epoch + 7).shuffle(out)
    return out


def remaining_plan(progress: Progress, lengths: list[int], bs: int, epochs: float) -> list[tuple[int, list[int]]]:
    """The batches a run trains on, as (epoch, batch) in order: from where ``progress`` stopped, ``epochs``
    epochs' worth of batches (fractional allowed: 0.5 is half an epoch's batches).

    Sets ``progress.batches_per_epoch``. Raises ValueError on an empty data set or ``bs`` < 1.
    """
    if not lengths or bs < 1:
        raise ValueError("nothing to train on: no pairs, or a batch size below 1")
    n = len(lengths)
    per_epoch = (n + bs - 1) // bs
    progress.batches_per_epoch = per_epoch
    want = int(round(epochs * per_epoch))
    out: list[tuple[int, list[int]]] = []
    ep, b = progress.epoch, progress.batch
    while len(out) < want:
        plan = bucketed_batches(epoch_order(n, progress.seed, ep), lengths, bs, progress.seed, ep)
        for j in range(b, len(plan)):
            if len(out) >= want:
                break
            out.append((ep, plan[j]))
        ep, b = ep + 1, 0
    return out


def lr_at(step: int, total: int, elapsed_s: float, budget_s: float, peak: float, warmup: int = 30) -> float:
    """Learning rate of one step of a run: linear warm-up over ``warmup`` steps, then linear decay to 0 at the end
    of the run's plan or of its wall-time budget, whichever comes first (``budget_s`` 0: no budget)."""
    frac = max(step / max(total, 1), elapsed_s / budget_s if budget_s else 0.0)
    return peak * min((step + 1) / max(warmup, 1), max(0.0, 1.0 - frac))


def write_history(path: Path, progress: Progress) -> None:
    """Write ``progress``'s run records as JSON (a list, oldest first) to ``path``."""
    path.write_text(json.dumps([asdict(r) for r in progress.history], indent=1) + "\n", encoding="utf-8")
