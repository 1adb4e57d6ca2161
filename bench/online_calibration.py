"""Calibration of the online title-match line (``MATCH_MIN``): real entries, real-shaped cases.

    python bench/online_calibration.py [--line 85]

Reads the demo's BibTeX and, where present, ``../shared/data/bib-file-fields``
(real libraries; read in place). See
:mod:`citeproof.sources.online.calibration` for the cases.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.bibliography import load_bibliographies  # noqa: E402
from citeproof.sources.online.calibration import calibrate  # noqa: E402
from citeproof.sources.online.record import MATCH_MIN  # noqa: E402


def libraries() -> list:
    paths = [ROOT / "examples" / "manubot" / "meta-review.bib"] + sorted((ROOT / ".." / "shared" / "data" / "bib-file-fields").glob("*.bib"))
    out = []
    for p in paths:
        try:
            out.append(list(load_bibliographies([p]).entries.values()))
        except Exception as exc:  # noqa: BLE001 - a library that does not parse is left out, and said so
            print(f"skipped {p.name}: {exc}", file=sys.stderr)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--line", type=float, default=MATCH_MIN)
    a = ap.parse_args()
    res = calibrate(libraries(), a.line)
    print(f"{res['entries']} entries: {res['positives']} same-work cases, {res['negatives']} other-work cases; line {res['line']}")
    print(f"lowest same-work score {res['min_positive']}, highest other-work score {res['max_negative']}")
    print(f"refused though the same work: {res['false_refusals']}; taken though another work: {res['false_accepts']}")
    for label, (n, lo, hi) in res["by_label"].items():
        print(f"  {label:<50} n={n:<5} min={lo:<6} max={hi}")
    print("worst same-work:", *res["worst_positive"], sep="\n  ")
    print("worst other-work:", *res["worst_negative"], sep="\n  ")


if __name__ == "__main__":
    main()
