"""Compare the demo ``check`` timings of two checkouts, interleaved (issue 10: no slowdown over 10%).

Usage::

    git worktree add /tmp/before <old-commit>
    python bench/compare.py /tmp/before .           # prints a table; --rounds N, --json

Each measurement runs in a fresh Python process (so *cold* includes loading
the models and reading the PDFs, as a user's first run does) on the bundled
demo sample (``examples/manubot``) with an empty cache; *warm* is a second
``check`` in the same process with the cache that the cold run filled; *edit*
a third after one cited sentence of the draft changed (issue 15: a re-run
re-judges what changed; targets warm < 3 s, one edit < 5 s with all tiers). The two
checkouts alternate round by round, so a machine that slows down part-way
affects both alike; the table gives the median over rounds and the change in
per cent (positive = the second checkout is slower). Timings are wall-clock
seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root / "src"))
from citeproof.pipeline import CheckOptions, check
tiers = sys.argv[2].split(",")
sample = Path(sys.argv[3])
doc, bib = sample / "citing" / "meta-review.md", sample / "meta-review.bib"
with tempfile.TemporaryDirectory() as d:
    t = time.perf_counter(); check(doc, [bib], CheckOptions(cache_dir=Path(d), tiers=tiers)); cold = time.perf_counter() - t
    t = time.perf_counter(); check(doc, [bib], CheckOptions(cache_dir=Path(d), tiers=tiers)); warm = time.perf_counter() - t
    edited = Path(d) / doc.name
    marker = "accepted by the journal in March 2018 [@doi:10.1098/rsif.2017.0387]"
    edited.write_text(doc.read_text().replace(marker, marker.replace("accepted", "formally accepted"), 1))
    t = time.perf_counter(); check(edited, [bib], CheckOptions(cache_dir=Path(d), tiers=tiers)); edit = time.perf_counter() - t
print(json.dumps({"cold": cold, "warm": warm, "edit": edit}))
"""

SETTINGS = {"lexical": "lexical", "all tiers": "lexical,dense,entailment"}
PHASES = ("cold", "warm", "edit")


def measure(root: Path, tiers: str, sample: Path) -> dict[str, float]:
    """One cold, warm and one-edit ``check`` of the demo in a fresh process; seconds.

    Raises:
        subprocess.CalledProcessError: the child failed (its stderr is shown).
    """
    out = subprocess.run([sys.executable, "-c", _CHILD, str(root), tiers, str(sample)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    sample = Path(__file__).resolve().parents[1] / "examples" / "manubot"
    runs: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(a.rounds):
        for name, tiers in SETTINGS.items():
            for side, root in (("before", a.before), ("after", a.after)):
                r = measure(root.resolve(), tiers, sample)
                print(f"{side} {name}: " + ", ".join(f"{k} {v:.2f} s" for k, v in r.items()), file=sys.stderr, flush=True)
                for phase in PHASES:
                    runs.setdefault((name, phase, side), []).append(r[phase])
    rows = []
    for name in SETTINGS:
        for phase in PHASES:
            b = statistics.median(runs[(name, phase, "before")])
            f = statistics.median(runs[(name, phase, "after")])
            rows.append({"setting": name, "phase": phase, "before_s": round(b, 3), "after_s": round(f, 3),
                         "change_pct": round(100 * (f - b) / b, 1)})
    if a.json:
        print(json.dumps({"rounds": a.rounds, "rows": rows}))
        return
    print(f"demo check, median of {a.rounds} interleaved rounds (fresh process each)")
    print(f"{'setting':<10} {'phase':<5} {'before s':>9} {'after s':>9} {'change':>8}")
    for r in rows:
        print(f"{r['setting']:<10} {r['phase']:<5} {r['before_s']:>9.3f} {r['after_s']:>9.3f} {r['change_pct']:>7.1f}%")


if __name__ == "__main__":
    main()
