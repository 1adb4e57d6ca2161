"""``bench/batch_bench.py``'s arithmetic (issue 27): the 2-worker speed-up with Ray's start-up reported apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _batch_bench():
    spec = importlib.util.spec_from_file_location("batch_bench", ROOT / "bench" / "batch_bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(wall: float, ray_start: float) -> dict:
    return {"wall_s": wall, "stats": {"phase_seconds": {"ray_start": ray_start, "locate": 0.7, "sources": 7.2, "documents": 14.2}}}


def test_speed_up_leaves_out_each_runs_ray_start():
    """The 2026-12-03 quiet run: 26.3 s with 1 worker (Ray 3.9 s), 16.1 s with 2 (Ray 3.4 s): 1.64x as wall
    times, (26.3 - 3.9) / (16.1 - 3.4) = 1.76x once Ray's start is taken out of both."""
    bb = _batch_bench()
    assert 1.76 == bb.after_ray_start(_run(26.3, 3.9), _run(16.1, 3.4))
    assert 1.0 == bb.after_ray_start(_run(10.0, 0.0), _run(10.0, 0.0))
    assert 0.0 == bb.after_ray_start(_run(10.0, 1.0), _run(2.0, 2.0))  # nothing left after the start: no ratio
