"""Reader scaling on hostile inputs (issue 18, section 3): each must grow linearly.

For each case the reader runs at size n and 4n; a linear reader takes about
4x as long at 4n, a quadratic one about 16x. Printed: seconds at n and 4n and
their ratio. Run: ``python bench/readers_scaling.py`` (about a minute on 2 cores).

Cases:

* ``'[' * N`` before a citation (the bracket matcher), and runs of unclosed
  ``*``, ``[x](`` and ``^[`` (the inline-markup patterns, syntok's bracket search);
* one paragraph holding N citations, one sentence each, and all in one sentence;
* N ``\\cite`` commands in one LaTeX sentence.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.readers.latex import read_latex  # noqa: E402
from citeproof.readers.markdown import MarkdownReader  # noqa: E402


def _md(text: str) -> int:
    return sum(len(c.citations) for c in MarkdownReader().read_string(text))


def _tex(text: str) -> int:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "main.tex"
        p.write_text(text, encoding="utf-8")
        return sum(len(c.citations) for c in read_latex(p).claims)


CASES = {
    "open brackets before a citation": (lambda n: _md("[" * n + " text [@a].\n"), 12_500),
    "citations, one sentence each": (lambda n: _md(" ".join(f"Claim number {k} holds [@k{k}]." for k in range(n)) + "\n"), 1_250),
    "citations in one sentence": (lambda n: _md("All of " + ", ".join(f"[@k{k}]" for k in range(n)) + " agree.\n"), 5_000),
    "unclosed emphasis before a citation": (lambda n: _md("*a " * n + "[@a].\n"), 2_000),
    "unclosed link targets": (lambda n: _md("[x](" * n + " [@a].\n"), 2_000),
    "unclosed inline notes": (lambda n: _md("^[" * n + " [@a].\n"), 4_000),
    "LaTeX \\cite in one sentence": (
        lambda n: _tex("\\documentclass{article}\\begin{document}\nAll of " + ", ".join(f"\\cite{{k{k}}}" for k in range(n)) + " agree.\n\\end{document}\n"),
        2_500,
    ),
}


def main() -> None:
    for name, (run, n) in CASES.items():
        times = []
        for size in (n, 4 * n):
            t = time.perf_counter()
            count = run(size)
            times.append(time.perf_counter() - t)
        print(f"{name:34s} n={n:>6}: {times[0]:6.2f} s   4n: {times[1]:6.2f} s   ratio {times[1] / max(times[0], 1e-9):5.1f}   ({count} citations at 4n)")


if __name__ == "__main__":
    main()
