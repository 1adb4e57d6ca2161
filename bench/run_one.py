"""One measured run in a fresh process, for ``bench/scale.py``; prints one JSON line.

    run_one.py parse DIR             raw PyMuPDF vs citeproof parsing of DIR/*.pdf
    run_one.py check JOB CACHE TIER  citeproof check JOB/draft.md --bib JOB/refs.bib (TIER: lexical | all)
    run_one.py baseline JOB          plain PyMuPDF + BM25: the best page of the cited PDF per citation

Reported: ``wall_s`` (monotonic clock around the work, imports included), ``cpu_s`` (user + system time, all
threads, of this process and of every process under it, from ``resource.getrusage``: the PDF parse workers are
stopped and waited for, and this process is the subreaper of the rest, which it reaps (``bench/descendants.py``;
``other_descendants_reaped`` counts them); ``cpu_main_s`` this process
alone), ``max_rss_mib`` (peak resident set of this process, ``ru_maxrss``) and ``worker_max_rss_mib`` (the largest
parse worker's).
"""

from __future__ import annotations

import json
import re
import resource
import sys
import time
from pathlib import Path

T0 = time.perf_counter()
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))
from descendants import become_subreaper, reap_all  # noqa: E402

SUBREAPER = become_subreaper()  # orphaned descendants come back to this process, so their CPU is counted


def usage() -> dict:
    """Wall time, CPU time of this process and its parse workers, and the peaks of this process and of the largest worker.

    citeproof parses PDFs in worker processes (``citeproof.sources.sandbox``); they are stopped and waited for
    first, so their CPU time counts (``RUSAGE_CHILDREN`` holds only children that ended and were waited for).
    """
    wall = time.perf_counter() - T0
    try:
        from citeproof.sources import sandbox

        workers = list(sandbox._IDLE) + list(sandbox._BUSY)
        sandbox.stop_all()
        for w in workers:
            w.proc.wait()
    except ImportError:
        pass
    orphans = reap_all()  # any other descendant, orphaned ones too (this process is their subreaper)
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall_s": round(wall, 3), "cpu_s": round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 3),
            "subreaper": SUBREAPER, "other_descendants_reaped": orphans,
            "cpu_main_s": round(me.ru_utime + me.ru_stime, 3), "max_rss_mib": round(me.ru_maxrss / 1024, 1),
            "worker_max_rss_mib": round(kids.ru_maxrss / 1024, 1)}


def parse(folder: Path) -> dict:
    import pymupdf

    from citeproof.sources.pdf import parse_pdf

    blobs = [p.read_bytes() for p in sorted(folder.glob("*.pdf"))]
    pages = 0
    t = time.perf_counter()
    for b in blobs:
        with pymupdf.open(stream=b, filetype="pdf") as d:
            pages += d.page_count
            for page in d:
                page.get_text()
    raw_text = time.perf_counter() - t
    t = time.perf_counter()
    for b in blobs:
        with pymupdf.open(stream=b, filetype="pdf") as d:
            for page in d:
                page.get_text("dict")
    raw_dict = time.perf_counter() - t
    t = time.perf_counter()
    for b in blobs:
        parse_pdf(b)
    ours = time.perf_counter() - t
    return {"pages": pages, "raw_text_pages_per_s": round(pages / raw_text, 1), "raw_dict_pages_per_s": round(pages / raw_dict, 1),
            "citeproof_pages_per_s": round(pages / ours, 1), "citeproof_vs_dict": round(raw_dict / ours, 3)}


def check(job: Path, cache: Path, tier: str) -> dict:
    from citeproof.pipeline import CheckOptions
    from citeproof.pipeline import check as run

    rep = run(job / "draft.md", [job / "refs.bib"], CheckOptions(cache_dir=cache, tiers=["lexical"] if tier == "lexical" else None))
    counts: dict[str, int] = {}
    for f in rep.findings:
        counts[f.verdict.value] = counts.get(f.verdict.value, 0) + 1
    return {"citations": len(rep.findings), "verdicts": counts, "tiers": rep.metadata["tiers"], "agreement": agreement(rep.findings)}


def agreement(findings) -> dict:
    """How often the verdict is what the job's sentence kind expects (a quality check on speed changes).

    ``bench/make_job.py`` writes citation c (from 0) on draft line 5 + 2c, of kind ``("verbatim", "reworded",
    "foreign")[c % 3]``: a verbatim sentence should be ``supported``, a reworded one ``supported`` or ``partial``,
    a foreign one neither. Returns ``{kind: [agreeing, total]}``.
    """
    kinds = ("verbatim", "reworded", "foreign")
    want = {"verbatim": {"supported"}, "reworded": {"supported", "partial"}}
    out = {k: [0, 0] for k in kinds}
    for f in findings:
        kind = kinds[((f.claim.line - 5) // 2) % 3]
        ok = f.verdict.value in want[kind] if kind in want else f.verdict.value not in {"supported", "partial"}
        out[kind][0] += int(ok)
        out[kind][1] += 1
    return out


def baseline(job: Path) -> dict:
    """What a user could write in twenty lines: each cited PDF's pages in a BM25 index, the top page taken."""
    import bm25s
    import pymupdf

    files = dict(re.findall(r"@article\{(\w+),.*?file = \{([^}]+)\}", (job / "refs.bib").read_text(), re.S))
    cites = re.findall(r"^(.*) \[@(\w+)\]\.$", (job / "draft.md").read_text(), re.M)
    indexes: dict[str, tuple] = {}
    best = []
    for claim, key in cites:
        if key not in indexes:
            with pymupdf.open(job / files[key]) as d:
                pages = [p.get_text() for p in d]
            idx = bm25s.BM25()
            idx.index(bm25s.tokenize(pages, stopwords="en", show_progress=False), show_progress=False)
            indexes[key] = (idx, pages)
        idx, pages = indexes[key]
        docs, scores = idx.retrieve(bm25s.tokenize([claim], stopwords="en", show_progress=False), k=1, show_progress=False)
        best.append(int(docs[0][0]) + 1)
    return {"citations": len(best), "pdfs": len(indexes)}


def main() -> None:
    kind = sys.argv[1]
    if kind == "parse":
        out = parse(Path(sys.argv[2]))
    elif kind == "check":
        out = check(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
    elif kind == "baseline":
        out = baseline(Path(sys.argv[2]))
    else:
        raise SystemExit(f"unknown run kind {kind!r}")
    print(json.dumps({**out, **usage()}))


if __name__ == "__main__":
    main()
