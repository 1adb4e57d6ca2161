"""Incremental re-runs as a user sees them (issue 15 part 3): ``citeproof check`` in a fresh process each time.

Usage::

    python bench/rerun.py                  # all tiers; --tiers lexical; --json

On the bundled demo (``examples/manubot``), with one empty cache folder:
*cold* fills it; *warm* re-runs the unchanged draft; *edit* re-runs after one
cited sentence changed (the judgement cache re-judges that sentence only).
Each is the wall-clock time of a new ``python -m citeproof check`` process
(imports, reading, sources from the cache, models loaded only when a citation
needs them), as a user re-running the command pays it. Targets (issue 15, all
tiers, 2 cores): warm < 3 s, one edit < 5 s. The ``judgements:`` line of each
run's summary says how many judgements were reused.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "manubot"
MARKER = "accepted by the journal in March 2018 [@doi:10.1098/rsif.2017.0387]"


def run_check(doc: Path, cache: Path, out: Path, tiers: str) -> tuple[float, str]:
    """One ``citeproof check`` in a new process: (wall seconds, its ``judgements:`` line or '').

    Raises:
        subprocess.CalledProcessError: the check exited with 2 (bad invocation) or crashed.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "citeproof", "check", str(doc), "--bib", str(SAMPLE / "meta-review.bib"),
           "--cache-dir", str(cache), "--out", str(out), "--format", "json"] + [a for t in tiers.split(",") for a in ("--tier", t)]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t
    if p.returncode not in (0, 1):
        raise subprocess.CalledProcessError(p.returncode, cmd, p.stdout, p.stderr)
    m = re.search(r"judgements: .*", p.stdout + p.stderr)
    return wall, m.group(0) if m else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiers", default="lexical,dense,entailment")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        doc = SAMPLE / "citing" / "meta-review.md"
        rows = {}
        rows["cold"] = run_check(doc, d / "cache", d / "out", a.tiers)
        rows["warm"] = run_check(doc, d / "cache", d / "out", a.tiers)
        edited = d / doc.name
        text = doc.read_text()
        if MARKER not in text:
            raise SystemExit(f"{doc}: the sentence this benchmark edits is gone; update MARKER in {__file__}")
        edited.write_text(text.replace(MARKER, MARKER.replace("accepted", "formally accepted"), 1))
        rows["edit"] = run_check(edited, d / "cache", d / "out", a.tiers)
    load = os.getloadavg()[0]
    if a.json:
        print(json.dumps({"tiers": a.tiers, "load_1min": load, **{k: {"s": round(v[0], 3), "judgements": v[1]} for k, v in rows.items()}}))
        return
    targets = {"warm": 3.0, "edit": 5.0}
    print(f"citeproof check of the demo, fresh process each, tiers {a.tiers} (1-min load average {load:.1f})")
    for k, (s, line) in rows.items():
        tgt = f" (target < {targets[k]:.0f} s)" if k in targets else ""
        print(f"{k:<5} {s:7.2f} s{tgt}  {line}")


if __name__ == "__main__":
    main()
