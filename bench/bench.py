"""Performance figures for citeproof (``make bench``).

Measures, on the bundled demo sample (examples/manubot):

* PDF pages parsed per second (PyMuPDF + citeproof's reading order), over
  the sample's four source PDFs (215 pages);
* the whole ``check`` run with the lexical tier, cold (empty cache) and
  warm (cache filled), and citations checked per second for each; then with
  every available tier (dense and entailment too), cold and warm;
* citing-PDF reading (lines, reference list, markers, claims) in seconds
  per page, on the sample's own PDF and, where ``../shared/data`` is
  present, on the cv-papers and arXiv PDFs.

Targets (issue 2, 2 cores): the whole sample under 10 s cold and 2 s warm.
Timings are wall-clock, best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.pipeline import CheckOptions, check  # noqa: E402
from citeproof.readers.pdf import parse_time_per_page  # noqa: E402
from citeproof.sources.pdf import parse_pdf  # noqa: E402

SAMPLE = ROOT / "examples" / "manubot"


def best_of(n: int, fn):
    best, result = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    pdfs = sorted((SAMPLE / "cited").glob("*.pdf"))
    blobs = [p.read_bytes() for p in pdfs]
    t_pdf, parsed = best_of(a.repeat, lambda: [parse_pdf(b) for b in blobs])
    pages = sum(p.pages for p in parsed)
    doc, bib = SAMPLE / "citing" / "meta-review.md", SAMPLE / "meta-review.bib"

    def cold(tiers):
        with tempfile.TemporaryDirectory() as d:
            return check(doc, [bib], CheckOptions(cache_dir=Path(d), tiers=tiers))

    t_cold, rep = best_of(a.repeat, lambda: cold(["lexical"]))
    warm_dir = Path(tempfile.mkdtemp())
    check(doc, [bib], CheckOptions(cache_dir=warm_dir, tiers=["lexical"]))
    t_warm, _ = best_of(a.repeat, lambda: check(doc, [bib], CheckOptions(cache_dir=warm_dir, tiers=["lexical"])))
    n = len(rep.findings)
    t_all_cold, rep_all = best_of(1, lambda: cold(None))
    warm_all = Path(tempfile.mkdtemp())
    check(doc, [bib], CheckOptions(cache_dir=warm_all))
    t_all_warm, _ = best_of(a.repeat, lambda: check(doc, [bib], CheckOptions(cache_dir=warm_all)))
    citing = [SAMPLE / "citing" / "meta-review.pdf"]
    shared = ROOT.parent / "shared" / "data"
    for sub in ("cv-papers", "arxiv-pdfs"):
        if (shared / sub).is_dir():
            citing += sorted((shared / sub).glob("*.pdf"))
    per_pdf = [parse_time_per_page(p, repeat=a.repeat) for p in citing]
    citing_pages = sum(r["pages"] for r in per_pdf)
    citing_s = sum(r["seconds"] for r in per_pdf)
    figures = {
        "pdf_pages": pages,
        "pdf_parse_s": round(t_pdf, 3),
        "pdf_pages_per_s": round(pages / t_pdf, 1),
        "citations": n,
        "check_cold_s": round(t_cold, 3),
        "check_warm_s": round(t_warm, 3),
        "citations_per_s_cold": round(n / t_cold, 1),
        "citations_per_s_warm": round(n / t_warm, 1),
        "citing_pdfs": len(per_pdf),
        "citing_pdf_pages": citing_pages,
        "citing_pdf_ms_per_page": round(1000 * citing_s / citing_pages, 2) if citing_pages else None,
        "tiers_all": rep_all.metadata["tiers"],
        "check_all_tiers_cold_s": round(t_all_cold, 3),
        "check_all_tiers_warm_s": round(t_all_warm, 3),
        "target_all_tiers_cold_s": 30,
        "target_cold_s": 10,
        "target_warm_s": 2,
    }
    if a.json:
        print(json.dumps(figures))
        return
    print(f"PDF parsing: {pages} pages in {t_pdf:.2f} s = {pages / t_pdf:.0f} pages/s")
    print(f"check, lexical tier, cold cache: {t_cold:.2f} s for {n} citations = {n / t_cold:.0f} citations/s (target < 10 s)")
    print(f"check, lexical tier, warm cache: {t_warm:.2f} s for {n} citations = {n / t_warm:.0f} citations/s (target < 2 s)")
    print(f"check, all tiers ({', '.join(rep_all.metadata['tiers'])}), cold cache: {t_all_cold:.2f} s (target < 30 s); warm: {t_all_warm:.2f} s")
    print(f"citing PDFs: {len(per_pdf)} PDFs, {citing_pages} pages read in {citing_s:.2f} s = {1000 * citing_s / citing_pages:.1f} ms/page")
    for r in per_pdf:
        print(f"  {Path(r['path']).name}: {r['pages']} pages, {1000 * r['seconds_per_page']:.1f} ms/page, {r['entries']} references, {r['markers']} markers, {r['linked']} linked")


if __name__ == "__main__":
    main()
