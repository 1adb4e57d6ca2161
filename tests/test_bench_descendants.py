"""Issue 27: ``make bench`` counts the CPU of every descendant, orphaned ones too (bench/descendants.py).

No timing is asserted: only that an orphaned grandchild comes back to the subreaper and is reaped by it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_CHILD_SUBREAPER is Linux's")
def test_an_orphaned_grandchild_is_reaped_by_the_subreaper(tmp_path):
    # a fresh process becomes the subreaper, starts a child that starts a grandchild and exits at once;
    # the grandchild (now an orphan) must come back to the subreaper and be reaped by it. (In a process of its own:
    # reap_all in pytest's process would wait for, and stop, the session's servers.)
    script = textwrap.dedent(f"""
        import importlib.util, os, subprocess, sys
        spec = importlib.util.spec_from_file_location("d", {str(ROOT / "bench" / "descendants.py")!r})
        d = importlib.util.module_from_spec(spec); spec.loader.exec_module(d)
        assert d.become_subreaper()
        child = subprocess.Popen([sys.executable, "-c",
            "import subprocess, sys; subprocess.Popen([sys.executable, '-c', 'sum(range(10**6))']); sys.exit(0)"])
        child.wait()
        print(d.reap_all(grace_s=60))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "1"

