"""The long fuzz run (``make fuzz``): N generated inputs over the readers, counted, never stopping at the first failure.

Usage::

    python tests/fuzz_campaign.py [--examples 10000] [--seed 0] [--timeout 20] [--pandoc-every 1] [--json]

Inputs are split over the targets by the weights in ``TARGETS``; each runs
under a wall-clock limit (SIGALRM; a reader stuck in C code is counted when
it returns). Prints, per target: inputs tried, crashes (an exception other
than citeproof's own errors), hangs (over ``--timeout`` s), lost citations
(Markdown inputs where citeproof reads fewer citations than pandoc does), and
the first few failing inputs. Exits 1 when there is any crash or hang.
Also reads every file of the hostile corpus (``tests/hostile_inputs.py``).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from hypothesis import HealthCheck, Phase, given, seed as hyp_seed, settings  # noqa: E402

import fuzz_targets as T  # noqa: E402
import strategies as S  # noqa: E402

TARGETS = {
    # name: (strategy, target, weight, compare with pandoc)
    "markdown": (S.markdown_documents(), T.markdown, 35, True),
    "latex": (S.latex_documents(), T.latex, 20, False),
    "bibtex": (S.bibtex_documents(), T.bibtex, 15, False),
    "csl_json": (S.csl_json_documents(), T.csl_json, 15, False),
    "citing_pdf": (S.pdf_documents(), T.citing_pdf, 8, False),
    "source_pdf": (S.pdf_documents(), T.source_pdf, 7, False),
}


class Hang(Exception):
    """Raised by the alarm when one input runs past the limit."""


def _alarm(_sig, _frame):
    raise Hang()


EXAMPLES_PER_KIND = {"crash": 8, "hang": 8, "lost": 4}
"""How many failing inputs of each kind a target keeps to print (lost citations never crowd out crashes)."""


def _keep(res: dict, example: dict) -> None:
    if sum(1 for e in res["examples"] if e["kind"] == example["kind"]) < EXAMPLES_PER_KIND[example["kind"]]:
        res["examples"].append(example)


def run_target(name: str, n: int, seed: int, timeout: float, pandoc_every: int) -> dict:
    """Feed ``n`` generated inputs to one target; return the counts and the first failing inputs."""
    strategy, target, _w, compare = TARGETS[name]
    res = {"inputs": 0, "crashes": 0, "hangs": 0, "lost_citations": 0, "compared": 0, "slowest_s": 0.0, "examples": []}

    @hyp_seed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(strategy)
    def one(value):
        res["inputs"] += 1
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            got = target(value)
        except Hang:
            res["hangs"] += 1
            _keep(res, {"kind": "hang", "input": repr(value)[:300]})
            return
        except T.ALLOWED:
            return
        except Exception as exc:  # noqa: BLE001 - a crash is what we count
            res["crashes"] += 1
            _keep(res, {"kind": "crash", "error": f"{type(exc).__name__}: {exc}"[:300], "where": traceback.format_exc().splitlines()[-3][:200], "input": repr(value)[:2000]})
            return
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            res["slowest_s"] = max(res["slowest_s"], round(time.perf_counter() - t0, 3))
        if compare and res["inputs"] % pandoc_every == 0:
            want = T.pandoc_citations(value)
            if want is not None:
                res["compared"] += 1
                if got < want:
                    res["lost_citations"] += 1
                    _keep(res, {"kind": "lost", "citeproof": got, "pandoc": want, "input": repr(value)[:300]})

    one()
    return res


def run_corpus(timeout: float) -> dict:
    """Read every file of the hostile corpus with the matching reader."""
    import tempfile

    import hostile_inputs

    res = {"inputs": 0, "crashes": 0, "hangs": 0, "lost_citations": 0, "compared": 0, "slowest_s": 0.0, "examples": []}
    by_suffix = {".md": T.markdown_file, ".tex": lambda b: T.latex(b.decode("utf-8", "replace")), ".bib": lambda b: T.bibtex(b.decode("latin-1")), ".json": T.csl_json, ".pdf": T.citing_pdf}
    folder = Path(tempfile.mkdtemp(prefix="citeproof-hostile-"))
    for path in hostile_inputs.write_all(folder):
        fn = by_suffix.get(path.suffix)
        if fn is None:
            continue
        res["inputs"] += 1
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            fn(path.read_bytes())
        except Hang:
            res["hangs"] += 1
            res["examples"].append({"kind": "hang", "input": path.name})
        except T.ALLOWED:
            pass
        except Exception as exc:  # noqa: BLE001
            res["crashes"] += 1
            res["examples"].append({"kind": "crash", "error": f"{type(exc).__name__}: {exc}"[:300], "input": path.name})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            res["slowest_s"] = max(res["slowest_s"], round(time.perf_counter() - t0, 3))
    return res


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; print a table (or JSON); exit 1 on any crash or hang."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=10_000, help="generated inputs in all (split over the targets by weight)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds one input may take before it counts as a hang")
    ap.add_argument("--pandoc-every", type=int, default=1, help="compare every k-th Markdown input with pandoc")
    ap.add_argument("--only", nargs="*", choices=sorted(TARGETS), help="run only these targets")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    names = args.only or list(TARGETS)
    total_w = sum(TARGETS[n][2] for n in names)
    results: dict[str, dict] = {}
    t0 = time.perf_counter()
    for name in names:
        n = max(1, round(args.examples * TARGETS[name][2] / total_w))
        results[name] = run_target(name, n, args.seed, args.timeout, args.pandoc_every)
    results["hostile_corpus"] = run_corpus(args.timeout)
    elapsed = time.perf_counter() - t0
    totals = {k: sum(r[k] for r in results.values()) for k in ("inputs", "crashes", "hangs", "lost_citations", "compared")}
    if args.json:
        print(json.dumps({"targets": results, "totals": totals, "seconds": round(elapsed, 1)}, indent=2))
    else:
        print(f"{'target':<16}{'inputs':>8}{'crashes':>9}{'hangs':>7}{'lost':>6}{'vs pandoc':>11}{'slowest s':>11}")
        for name, r in results.items():
            print(f"{name:<16}{r['inputs']:>8}{r['crashes']:>9}{r['hangs']:>7}{r['lost_citations']:>6}{r['compared']:>11}{r['slowest_s']:>11}")
        print(f"{'total':<16}{totals['inputs']:>8}{totals['crashes']:>9}{totals['hangs']:>7}{totals['lost_citations']:>6}{totals['compared']:>11}   in {elapsed:.0f} s")
        for name, r in results.items():
            for ex in r["examples"]:
                print(f"  {name}: {json.dumps(ex, ensure_ascii=False)}")
    return 1 if totals["crashes"] or totals["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
