"""``bench/scale.py``'s report (issue 27): the filed figures beside this run's, as multiples of the plain script."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import scale  # noqa: E402


def _run(cpu: float, mib: float = 200.0) -> dict:
    return {"wall_s": cpu * 0.8, "cpu_s": cpu, "max_rss_mib": mib,
            "agreement": {"verbatim": [32, 34], "reworded": [33, 33], "foreign": [28, 33]}}


def test_the_table_puts_filed_and_now_side_by_side_as_multiples_of_the_plain_script(capsys):
    # the figures of session 15's run (docs/development.md)
    res = {"job": {"pdfs": 50, "pages": 1188, "citations": 100, "kinds": {"verbatim": 34}},
           "parse": {"raw_text_pages_per_s": 246, "raw_dict_pages_per_s": 101, "citeproof_pages_per_s": 136, "citeproof_vs_dict": 1.35},
           "lexical_cold": _run(24.9), "lexical_warm": _run(1.7), "all_cold": _run(67.2, 339), "all_warm": _run(2.0),
           "all_edited": _run(3.5), "baseline": {"wall_s": 7.4, "cpu_s": 7.9, "max_rss_mib": 197},
           "lexical_vs_baseline": 2.69, "lexical_vs_baseline_cpu": 3.15}
    scale.report(res)
    out = capsys.readouterr().out
    assert "| all tiers, cold | 176.0 (peak 637 MiB) | 67.2 (peak 339 MiB) | 91 | 93 |" in out
    assert "| lexical / plain | 4.24x | 3.15x |" in out  # 19.1 / 4.5 as filed
    assert "| all tiers cold / plain | 39.11x | 8.51x | | | <= 13.33x |" in out  # 176 / 4.5; 67.2 / 7.9; 60 / 4.5
    assert "lexical tier / plain script = 3.15x CPU-s, 2.69x wall" in out


def test_a_lexical_only_run_prints_no_all_tier_rows(capsys):
    res = {"job": {"pdfs": 50, "pages": 1188, "citations": 100, "kinds": {}},
           "parse": {"raw_text_pages_per_s": 279, "raw_dict_pages_per_s": 79, "citeproof_pages_per_s": 109, "citeproof_vs_dict": 1.38},
           "lexical_cold": _run(18.4), "lexical_warm": _run(1.5), "baseline": {"wall_s": 6.2, "cpu_s": 6.7, "max_rss_mib": 197},
           "lexical_vs_baseline": 2.12, "lexical_vs_baseline_cpu": 2.75}
    scale.report(res)
    out = capsys.readouterr().out
    assert "all tiers" not in out and "| lexical / plain | 4.24x | 2.75x |" in out
