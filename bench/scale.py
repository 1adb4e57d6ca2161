"""The scale benchmark (issue 17): the generated job (``bench/make_job.py``) through citeproof and a baseline.

Every measured run is a fresh Python process (``bench/run_one.py``) that reports its own wall time, CPU time
(user + system, all threads) and peak resident memory, so runs do not share warm imports or memory:

* parsing: the job's PDFs through raw PyMuPDF (``get_text()`` and ``get_text("dict")``) and through
  citeproof's parser, pages per second, in one process;
* ``check`` with the lexical tier and with all tiers, each cold (empty cache) and warm (second run);
* the baseline: a plain PyMuPDF + BM25 script (every page of the cited PDF indexed with bm25s, the best page
  taken as the evidence), cold, as the ratio citeproof / baseline;
* all tiers after one sentence of the draft changed (warm cache otherwise: the judgement cache re-judges it).

``--scaling`` adds the table of the lexical tier, cold, over citations 25-200 at 50 PDFs and over about
300-2,400 pages at 100 citations (growth must stay linear). Targets (issue 27, 2 cores, CPU-s of every descendant):
all tiers cold <= 60 CPU-s, peak RSS < 1 GiB, warm <= 2 CPU-s, one sentence edited <= 5 CPU-s, agreement with
the answer key at least the lexical tier's; the lexical tier <= 1.5x the baseline's CPU-s; parsing >= 0.8 of
``get_text("dict")``. :data:`FILED` holds the figures the issue was filed with, printed beside today's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import make_job  # noqa: E402


def one(*args: str) -> dict:
    """Run ``bench/run_one.py ARGS`` in a fresh process; its JSON line."""
    r = subprocess.run([sys.executable, str(HERE / "run_one.py"), *args], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"bench/run_one.py {' '.join(args)} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def job(folder: Path, pdfs: int, citations: int, seed: int = 7) -> Path:
    """The job in ``folder`` (generated once; kept between runs)."""
    marker = folder / "job.json"
    if marker.is_file():
        j = json.loads(marker.read_text())
        if (j["pdfs"], j["citations"], j["seed"]) == (pdfs, citations, seed):
            return folder
        shutil.rmtree(folder)
    make_job.build(folder, pdfs, citations, seed)
    return folder


FILED = {"all_cold": 176.0, "all_cold_mib": 637, "all_warm": 2.0, "lexical_cold": 19.1, "baseline": 4.5,
         "all_agreement": 91, "lexical_agreement": 97}
"""Issue 27's figures as filed (CPU-s medians of 3 rounds on another machine; agreement out of 100), for the
side-by-side lines. CPU-s on one machine are not CPU-s on another (the int8 kernels ran twice as slowly on a CPU
without AVX2, docs/development.md): compare the ratios, and commits on one machine."""

EDITED_FROM, EDITED_TO = " [@", ", as reported [@"
"""The edit of the edited run: the draft's first citing sentence gains three words before its citation."""


def agreed(r: dict) -> int:
    """Verdicts that agree with the answer key, out of the job's citations."""
    return sum(a for a, _n in r["agreement"].values())


def fmt(r: dict) -> str:
    """Wall, CPU (parse workers included) and peak memory of one run; its verdict agreement where it has one."""
    out = f"{r['wall_s']:7.1f} s wall {r['cpu_s']:7.1f} CPU-s {r['max_rss_mib']:6.0f} MiB"
    if "worker_max_rss_mib" in r and r["worker_max_rss_mib"]:
        out += f" (largest parse worker {r['worker_max_rss_mib']:.0f} MiB)"
    if "agreement" in r:
        out += " | expected verdicts: " + ", ".join(f"{k} {a}/{n}" for k, (a, n) in r["agreement"].items())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "bench-job")
    ap.add_argument("--scaling", action="store_true", help="also the scaling table (citations 25-200, pages about 300-2,400)")
    ap.add_argument("--lexical-only", action="store_true", help="skip the all-tier runs")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    folder = job(a.work, 50, 100)
    meta = json.loads((folder / "job.json").read_text())
    res: dict = {"job": {k: meta[k] for k in ("pdfs", "pages", "citations", "kinds")}}
    res["parse"] = one("parse", str(folder / "pdfs"))
    with tempfile.TemporaryDirectory() as cache:
        res["lexical_cold"] = one("check", str(folder), cache, "lexical")
        res["lexical_warm"] = one("check", str(folder), cache, "lexical")
    if not a.lexical_only:
        with tempfile.TemporaryDirectory() as cache:
            res["all_cold"] = one("check", str(folder), cache, "all")
            res["all_warm"] = one("check", str(folder), cache, "all")
            draft = folder / "draft.md"
            text = draft.read_text(encoding="utf-8")
            lines = text.splitlines(keepends=True)
            first = next(k for k, line in enumerate(lines) if EDITED_FROM in line)
            lines[first] = lines[first].replace(EDITED_FROM, EDITED_TO, 1)
            try:
                draft.write_text("".join(lines), encoding="utf-8")
                res["all_edited"] = one("check", str(folder), cache, "all")
            finally:
                draft.write_text(text, encoding="utf-8")
    res["baseline"] = one("baseline", str(folder))
    res["lexical_vs_baseline"] = round(res["lexical_cold"]["wall_s"] / res["baseline"]["wall_s"], 2)
    res["lexical_vs_baseline_cpu"] = round(res["lexical_cold"]["cpu_s"] / res["baseline"]["cpu_s"], 2)
    if a.scaling:
        rows = []
        for n in (25, 50, 100, 200):
            f = job(a.work.parent / f"bench-job-c{n}", 50, n)
            with tempfile.TemporaryDirectory() as cache:
                rows.append({"citations": n, "pages": json.loads((f / "job.json").read_text())["pages"], **one("check", str(f), cache, "lexical")})
        for pdfs in (12, 25, 50, 100):
            f = job(a.work.parent / f"bench-job-p{pdfs}", pdfs, 100)
            with tempfile.TemporaryDirectory() as cache:
                rows.append({"citations": 100, "pages": json.loads((f / "job.json").read_text())["pages"], **one("check", str(f), cache, "lexical")})
        res["scaling"] = rows
    if a.json:
        print(json.dumps(res))
        return
    report(res)


def report(res: dict) -> None:
    """Print :func:`main`'s results: one line per run, then issue 27's table (as filed beside now), then the scaling rows."""
    j, p = res["job"], res["parse"]
    print(f"scale job: {j['pdfs']} PDFs, {j['pages']} pages, {j['citations']} citations ({j['kinds']})")
    print(f"parsing: raw get_text() {p['raw_text_pages_per_s']:.0f} pages/s, get_text('dict') {p['raw_dict_pages_per_s']:.0f} pages/s, "
          f"citeproof {p['citeproof_pages_per_s']:.0f} pages/s = {p['citeproof_vs_dict']:.2f} of get_text('dict') (target >= 0.8)")
    print(f"check, lexical tier, cold: {fmt(res['lexical_cold'])}")
    print(f"check, lexical tier, warm: {fmt(res['lexical_warm'])}")
    if "all_cold" in res:
        print(f"check, all tiers, cold:    {fmt(res['all_cold'])} (target <= 60 CPU-s, < 1024 MiB)")
        print(f"check, all tiers, warm:    {fmt(res['all_warm'])} (target <= 2 CPU-s)")
        print(f"check, all tiers, one sentence edited: {fmt(res['all_edited'])} (target <= 5 CPU-s)")
    print(f"plain script (PyMuPDF get_text + bm25s: the best page of the cited PDF), cold: {fmt(res['baseline'])}; "
          f"lexical tier / plain script = {res['lexical_vs_baseline_cpu']:.2f}x CPU-s, {res['lexical_vs_baseline']:.2f}x wall "
          f"(target <= 1.5x CPU-s)")
    print()
    print("As filed: medians of 3 rounds on the machine issue 27 was filed on; now: this run, on this machine (compare the")
    print("multiples of the plain script: CPU-s move from machine to machine). Agreement: verdicts the answer key expects, of 100.")
    print()
    print("| run (issue 27) | CPU-s as filed | CPU-s now | agreement as filed | agreement now | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    if "all_cold" in res:
        print(f"| all tiers, cold | {FILED['all_cold']} (peak {FILED['all_cold_mib']} MiB) | {res['all_cold']['cpu_s']:.1f} "
              f"(peak {res['all_cold']['max_rss_mib']:.0f} MiB) | {FILED['all_agreement']} | {agreed(res['all_cold'])} "
              f"| <= 60 CPU-s, < 1,024 MiB, >= the lexical tier's agreement |")
        print(f"| all tiers, warm | {FILED['all_warm']} | {res['all_warm']['cpu_s']:.1f} | | | <= 2 CPU-s |")
        print(f"| all tiers, one sentence edited | | {res['all_edited']['cpu_s']:.1f} | | | <= 5 CPU-s |")
    print(f"| lexical tier, cold | {FILED['lexical_cold']} | {res['lexical_cold']['cpu_s']:.1f} | {FILED['lexical_agreement']} | "
          f"{agreed(res['lexical_cold'])} | <= 1.5x the plain script |")
    print(f"| plain script (PyMuPDF + bm25s) | {FILED['baseline']} | {res['baseline']['cpu_s']:.1f} | | | |")
    print(f"| lexical / plain | {FILED['lexical_cold'] / FILED['baseline']:.2f}x | {res['lexical_vs_baseline_cpu']:.2f}x | | | <= 1.5x |")
    if "all_cold" in res:
        # CPU-s move from machine to machine; the plain script of the same run is the yardstick (the filed 60 CPU-s
        # target was 13.3x the filed plain script's 4.5)
        print(f"| all tiers cold / plain | {FILED['all_cold'] / FILED['baseline']:.2f}x | "
              f"{res['all_cold']['cpu_s'] / res['baseline']['cpu_s']:.2f}x | | | <= {60 / FILED['baseline']:.2f}x |")
    for r in res.get("scaling", []):
        print(f"  scaling: {r['citations']:4d} citations, {r['pages']:5d} pages: {fmt(r)}")


if __name__ == "__main__":
    main()
