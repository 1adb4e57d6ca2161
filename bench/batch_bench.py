"""The batch benchmark (issue 17, part 2): ``citeproof batch`` on a multi-document job, 1 and 2 workers.

The job: the 50-PDF scale job of ``bench/make_job.py`` (built once under ``build/bench-job``, shared with
``bench/scale.py``) split into ``--docs`` citing documents (default 8). Document *d* cites the ``--works`` works
(default 12) starting at work ``d * --step`` (default 6, wrapping at 50), with every citation of the scale draft
to those works (two per work), so neighbouring documents cite the same PDFs and each PDF is cited by about two
documents: 96 source files cited, 50 distinct, each parsed once (by SHA-256) for the whole batch.

Every measured run is a fresh Python process (as ``bench/run_one.py``) that calls the ``citeproof batch`` command
itself and reports: ``wall_s`` (imports, Ray's start and the whole command), ``cpu_s`` (user + system seconds of
the process and of every process under it: Ray's own processes and its workers, read with psutil before Ray is
shut down, plus any already reaped), the peak resident set of the largest process (VmHWM), and the command's
``batch-run.json`` (seconds of each round, CPU seconds inside the tasks). Runs, per worker count (1, then 2):
*cold* (empty cache, empty ``--out``), *warm* (the same cache, a new ``--out``: every document re-checked, the
sources read from the cache); then once *resumed* (the warm ``--out`` again: every document skipped).

The projection (``docs/scaling-out.md``) is computed here from the 1-worker cold run, Amdahl-style:
``S(N) = 1 / ((1 - p) + p / N)`` with ``p`` the share of the wall time spent in the parallel rounds (locating,
parsing the shared sources, checking documents), and, counting whole documents per worker,
``T(N) = T_serial + (T_locate + T_sources) / N + ceil(D / N) * t_doc``. The measured 2-worker run is printed beside
the projection for N = 2. Lexical tier by default; ``--all-tiers`` runs every tier (slow: about 6 CPU-s a citation).

Usage::

    python bench/batch_bench.py [--docs 8] [--works 12] [--step 6] [--all-tiers] [--json]
    python bench/batch_bench.py --report RUN.json     # print an earlier --json run again (nothing is run)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

T0 = time.perf_counter()  # a measured child's clock: before citeproof's and Ray's imports

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CITE = re.compile(r"^(.*) \[@(work\d+)\]\.$", re.MULTILINE)


def build_batch(base: Path, docs: int, works: int, step: int) -> Path:
    """Write the batch job's documents and ``manifest.json`` under ``base`` (the scale job); returns the manifest.

    Raises:
        SystemExit: the scale job's draft has no ``[@workNN]`` citations (not a ``make_job.py`` job).
    """
    text = (base / "draft.md").read_text(encoding="utf-8")
    cites = CITE.findall(text)
    keys = sorted({k for _, k in cites})
    if not keys:
        raise SystemExit(f"{base / 'draft.md'}: no [@workNN] citations; rebuild it with bench/make_job.py")
    folder = base / f"batch-{docs}x{works}s{step}"
    folder.mkdir(exist_ok=True)
    entries = []
    for d in range(docs):
        mine = {keys[(d * step + j) % len(keys)] for j in range(min(works, len(keys)))}
        body = [f"---\ntitle: citeproof batch benchmark document {d + 1}\n---\n"]
        body += [f"{claim} [@{key}].\n" for claim, key in cites if key in mine]
        name = f"doc{d + 1:02d}.md"
        (folder / name).write_text("\n".join(body), encoding="utf-8")
        entries.append({"path": name, "bib": ["../refs.bib"]})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"documents": entries}, indent=1) + "\n", encoding="utf-8")
    return manifest


# --- one measured run (the child process) -------------------------------------------------------------------

def _tree_usage() -> tuple[float, float]:
    """(CPU seconds, peak RSS MiB of the largest process) of this process and every process under it."""
    import psutil

    me = psutil.Process()
    ru_self, ru_kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru_self.ru_utime + ru_self.ru_stime + ru_kids.ru_utime + ru_kids.ru_stime
    peak = ru_self.ru_maxrss / 1024
    for p in me.children(recursive=True):
        try:
            t = p.cpu_times()
            cpu += t.user + t.system + t.children_user + t.children_system
            with open(f"/proc/{p.pid}/status", encoding="ascii") as f:
                hwm = next((int(x.split()[1]) for x in f if x.startswith("VmHWM:")), 0)
            peak = max(peak, hwm / 1024)
        except (psutil.Error, OSError):
            continue
    return cpu, peak


def child(manifest: str, out: str, cache: str, workers: int, all_tiers: bool) -> None:
    """Run ``citeproof batch`` in this process and print one JSON line (module docstring: what is measured)."""
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(ROOT / "bench"))
    from descendants import become_subreaper

    become_subreaper()  # a process Ray orphans comes back to this one, so _tree_usage still sees it
    import typer

    from citeproof.cli import app

    args = ["batch", manifest, "--out", out, "--cache-dir", cache, "--workers", str(workers), "--quiet", "--format", "json"]
    args += [] if all_tiers else ["--tier", "lexical"]
    code = 0
    try:
        app(args, standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    wall = time.perf_counter() - T0
    cpu, peak = _tree_usage()
    import ray

    if ray.is_initialized():
        ray.shutdown()
    records = [json.loads(x) for x in (Path(out) / "batch.jsonl").read_text(encoding="utf-8").splitlines()]
    print(json.dumps({"exit": code, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "peak_rss_mib": round(peak),
                      "stats": json.loads((Path(out) / "batch-run.json").read_text(encoding="utf-8")),
                      "failed": [r["document"] for r in records if r.get("error")],
                      "citations": sum((r.get("summary") or {}).get("citations", 0) for r in records)}))


def measure(manifest: Path, out: Path, cache: Path, workers: int, all_tiers: bool) -> dict:
    """One run in a fresh process (:func:`child`); its JSON line.

    Raises:
        SystemExit: the child crashed, exited 2, or a document failed (the bench would measure an error).
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(manifest), str(out), str(cache), str(workers)]
    r = subprocess.run(cmd + (["--all-tiers"] if all_tiers else []), capture_output=True, text=True, env=env, check=False)
    try:
        res = json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"batch run failed ({' '.join(cmd)}):\n{r.stderr[-3000:]}") from None
    if res["exit"] == 2 or res["failed"]:
        raise SystemExit(f"batch run failed: exit {res['exit']}, failed documents {res['failed']}\n{r.stderr[-3000:]}")
    return res


# --- the projection -------------------------------------------------------------------------------------------

def projection(cold1: dict, cold2: dict, docs: int, ns: tuple[int, ...] = (1, 2, 4, 8), corpus: int = 800, machines: int = 4) -> dict:
    """The inputs measured in the 1-worker cold run and the projected time and speed-up for ``ns`` workers.

    Time is counted in core-seconds (CPU seconds, which a dedicated core turns into the same wall seconds), so
    the projection does not depend on how busy the measuring machine was: ``T_sources`` and ``t_doc`` are the CPU
    seconds inside the source tasks and per document task; ``T_serial`` is everything else of the run (imports,
    Ray's start and its own processes, locating and hashing the sources, the index page).

    Args:
        cold1, cold2: the 1- and 2-worker cold runs (:func:`measure`).
        docs: documents in the measured job (``D0``).
        ns: worker counts to project.
        corpus: a larger corpus to project too, with the same sources per document and sharing.
        machines: for the cluster row: the most workers' worth of machines, each with its own cache, when the
            cache cannot be shared (docs/scaling-out.md): a source is then parsed up to ``min(machines, F / U)``
            times (``F`` source files cited, ``U`` distinct), once per machine whose documents cite it.

    Returns:
        ``{"inputs": {...}, "rows": [{"workers", "documents", "amdahl_speedup", "t_s", "speedup"}], "cluster": {...}}``:
        ``amdahl_speedup`` is ``1 / ((1 - p) + p / N)`` with ``p = 1 - T_serial / T(1)``; ``t_s`` is
        ``T_serial + (D / D0) * T_sources / N + ceil(D / N) * t_doc`` (whole documents per worker) and
        ``speedup`` is ``T(1) / T(N)`` for it; ``cluster`` is that for ``corpus`` documents on ``max(ns)`` workers
        with ``T_sources`` multiplied by ``min(machines, F / U)``.
    """
    cpu = cold1["stats"]["task_cpu_seconds"]
    st = cold1["stats"]
    t_src, t_doc = cpu["sources"], cpu["documents"] / docs
    serial = cold1["cpu_s"] - cpu["sources"] - cpu["documents"]
    inputs = {"cpu_1_s": cold1["cpu_s"], "wall_1_s": cold1["wall_s"], "serial_s": round(serial, 2), "sources_s": t_src,
              "t_doc_s": round(t_doc, 2), "documents": docs, "source_files_cited": st["source_files_cited"], "sources_parsed": st["sources_parsed"],
              "shared_parse_share": round(t_src / cold1["cpu_s"], 3), "per_document_s": round((t_src + cpu["documents"]) / docs, 2),
              "extra_worker_cpu_s": round(cold2["cpu_s"] - cold1["cpu_s"], 1)}
    rows = []
    for d in (docs, corpus):
        t1 = serial + (d / docs) * t_src + d * t_doc
        p = 1 - serial / t1
        for n in ns:
            tn = serial + (d / docs) * t_src / n + math.ceil(d / n) * t_doc
            rows.append({"workers": n, "documents": d, "p": round(p, 4), "amdahl_speedup": round(1 / ((1 - p) + p / n), 2),
                         "t_s": round(tn, 1), "speedup": round(t1 / tn, 2)})
    n, factor = max(ns), min(machines, st["source_files_cited"] / max(1, st["sources_parsed"]))
    t1 = serial + (corpus / docs) * t_src + corpus * t_doc
    tn = serial + (corpus / docs) * t_src * factor / n + math.ceil(corpus / n) * t_doc
    cluster = {"workers": n, "machines": machines, "documents": corpus, "parse_factor": round(factor, 2), "t_s": round(tn, 1), "speedup": round(t1 / tn, 2)}
    return {"inputs": inputs, "rows": rows, "cluster": cluster}


def _line(name: str, r: dict, docs: int) -> str:
    ph, cpu = r["stats"]["phase_seconds"], r["stats"]["task_cpu_seconds"]
    return (f"{name:<18}{r['wall_s']:7.1f} s wall {r['cpu_s']:7.1f} CPU-s  per document {r['wall_s'] / docs:5.1f} s, "
            f"{r['cpu_s'] / docs:5.1f} CPU-s  | Ray start {ph['ray_start']:4.1f} s, locate {ph['locate']:4.1f} s, "
            f"sources {ph['sources']:5.1f} s ({cpu['sources']:5.1f} CPU-s in tasks), documents {ph['documents']:5.1f} s "
            f"({cpu['documents']:5.1f} CPU-s in tasks) | peak {r['peak_rss_mib']} MiB")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        a = sys.argv[2:]
        child(a[0], a[1], a[2], int(a[3]), "--all-tiers" in a)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "bench-job", help="the scale job's folder (built if missing)")
    ap.add_argument("--docs", type=int, default=8, help="citing documents in the batch")
    ap.add_argument("--works", type=int, default=12, help="works each document cites (two citations each)")
    ap.add_argument("--step", type=int, default=6, help="offset between neighbouring documents' works (overlap = works - step)")
    ap.add_argument("--all-tiers", action="store_true", help="every tier instead of the lexical tier (slow)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--report", type=Path, metavar="RUN.json", help="print the figures and projection of an earlier --json run, running nothing")
    a = ap.parse_args()
    if a.report:
        res = json.loads(a.report.read_text(encoding="utf-8"))
        res["projection"] = projection(res["cold_1"], res["cold_2"], res["job"]["documents"])
        show(res)
        return
    sys.path.insert(0, str(HERE))
    import scale  # bench/scale.py: the 50-PDF job, built once and shared

    base = scale.job(a.work, 50, 100)
    manifest = build_batch(base, a.docs, a.works, a.step)
    res: dict = {"job": {"documents": a.docs, "works_per_document": a.works, "step": a.step, "tiers": "all" if a.all_tiers else "lexical"}}
    with tempfile.TemporaryDirectory(prefix="citeproof-batch-bench-") as tmp:
        tmp = Path(tmp)
        for w in (1, 2):
            cache = tmp / f"cache-{w}"
            res[f"cold_{w}"] = measure(manifest, tmp / f"out-cold-{w}", cache, w, a.all_tiers)
            res[f"warm_{w}"] = measure(manifest, tmp / f"out-warm-{w}", cache, w, a.all_tiers)
        res["resumed"] = measure(manifest, tmp / "out-warm-2", tmp / "cache-2", 2, a.all_tiers)
    st = res["cold_1"]["stats"]
    res["job"].update(citations=res["cold_1"]["citations"], source_files_cited=st["source_files_cited"], sources_parsed=st["sources_parsed"])
    res["speedup_2_vs_1"] = {k: round(res[f"{k}_1"]["wall_s"] / res[f"{k}_2"]["wall_s"], 2) for k in ("cold", "warm")}
    res["speedup_2_vs_1_after_ray_start"] = {k: after_ray_start(res[f"{k}_1"], res[f"{k}_2"]) for k in ("cold", "warm")}
    res["projection"] = projection(res["cold_1"], res["cold_2"], a.docs)
    res["load_average"] = os.getloadavg()
    res["cpus"] = os.cpu_count()
    if a.json:
        print(json.dumps(res))
        return
    show(res)


def after_ray_start(one: dict, two: dict) -> float:
    """Wall-time speed-up of run ``two`` over run ``one`` with each run's Ray start-up taken out (issue 27: "Ray's
    start-up reported apart"); the runs are :func:`main`'s records (``wall_s``, ``stats.phase_seconds.ray_start``).

    Ray's start (2.4-3.9 s a run in the quiet runs of 2026-12-03) is about the same for 1 and 2 workers and paid once per run, however
    many documents the run checks, so it is left out of the ratio and printed beside it.
    """
    w1 = one["wall_s"] - one["stats"]["phase_seconds"]["ray_start"]
    w2 = two["wall_s"] - two["stats"]["phase_seconds"]["ray_start"]
    return round(w1 / w2, 2) if w2 > 0 else 0.0


def show(res: dict) -> None:
    """Print a run's figures (:func:`main`'s ``res``) as lines of text."""
    j = res["job"]
    docs = j["documents"]
    print(f"batch job: {j['documents']} documents, {j['citations']} citations, {j['source_files_cited']} source files cited, "
          f"{j['sources_parsed']} distinct (parsed once each); {j['tiers']} tier(s); {res.get('cpus')} CPUs, "
          f"load average at the end {', '.join(f'{x:.2f}' for x in res['load_average'])}")
    for k, name in (("cold_1", "cold, 1 worker"), ("warm_1", "warm, 1 worker"), ("cold_2", "cold, 2 workers"), ("warm_2", "warm, 2 workers"), ("resumed", "resumed (all)")):
        print(_line(name, res[k], docs))
    s = res["speedup_2_vs_1"]
    pr = res["projection"]
    i = pr["inputs"]
    print(f"speed-up 2 workers vs 1 (wall): cold {s['cold']:.2f}x, warm {s['warm']:.2f}x")
    a = res["speedup_2_vs_1_after_ray_start"]
    print(f"speed-up 2 workers vs 1 (wall after Ray's start, which is reported apart above): cold {a['cold']:.2f}x, "
          f"warm {a['warm']:.2f}x (target >= 1.7x cold)")
    print(f"shared source parsing (cold, 1 worker): {i['sources_s']:.1f} of {i['cpu_1_s']:.1f} CPU-s = {100 * i['shared_parse_share']:.0f}% "
          f"({i['sources_parsed']} distinct files for {i['source_files_cited']} cited; wall {res['cold_1']['stats']['phase_seconds']['sources']:.1f} of {i['wall_1_s']:.1f} s)")
    print(f"per document (cold, 1 worker): {i['per_document_s']:.2f} CPU-s in tasks = t_doc {i['t_doc_s']:.2f} + T_sources / D {i['sources_s'] / i['documents']:.2f}; "
          f"cold with 2 workers took {i['extra_worker_cpu_s']:+.1f} CPU-s more than with 1 (the second worker's start)")
    print(f"projection (core-seconds; T(N) = T_serial + (D/D0) T_sources / N + ceil(D/N) t_doc, Amdahl S(N) = 1/((1-p) + p/N)): "
          f"T_serial {i['serial_s']:.1f}, T_sources {i['sources_s']:.1f}, t_doc {i['t_doc_s']:.2f}, D0 {i['documents']}")
    for row in pr["rows"]:
        note = f"   (measured wall: {s['cold']:.2f}x)" if row["workers"] == 2 and row["documents"] == i["documents"] else ""
        print(f"  D = {row['documents']:4d}, {row['workers']} workers: T(N) = {row['t_s']:7.1f} s, {row['speedup']:.2f}x; "
              f"Amdahl with p = {row['p']:.4f}: {row['amdahl_speedup']:.2f}x{note}")
    c = pr["cluster"]
    print(f"  D = {c['documents']:4d}, {c['workers']} workers on {c['machines']} machines, a cache per machine (each source parsed up to "
          f"{c['parse_factor']:.2f} times): T(N) = {c['t_s']:7.1f} s, {c['speedup']:.2f}x")


if __name__ == "__main__":
    main()
