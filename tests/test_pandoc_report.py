"""--format tex,pdf (issue 6): rendered through pandoc and LuaLaTeX, or a clear word on what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from citeproof.errors import MissingToolError
from citeproof.reports import get_writer
from report_samples import DEMO_BIB, DEMO_DOC, ROOT, shared_cache


def _run_cli(tmp_path, *args, env_extra=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "citeproof.cli", "check", str(DEMO_DOC.relative_to(ROOT)), "--bib", str(DEMO_BIB.relative_to(ROOT)),
         "--out", str(tmp_path / "out"), "--cache-dir", str(shared_cache()), "-q", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env,
    )


def _has_pandoc() -> bool:
    try:
        import pypandoc

        pypandoc.get_pandoc_path()
        return True
    except (ImportError, OSError):
        return False


@pytest.mark.skipif(not _has_pandoc(), reason="pandoc (PyPI pypandoc-binary) is not installed")
def test_tex(tmp_path):
    """--format tex writes a standalone LaTeX document holding the findings."""
    r = _run_cli(tmp_path, "--format", "tex")
    assert 0 == r.returncode, r.stderr
    tex = (tmp_path / "out" / "meta-review.citeproof.tex").read_text()
    assert "\\begin{document}" in tex and "doi:10/gddkhn" in tex
    assert "\\begin{itemize}" in tex  # "Why:" lists are lists, not run-on text


def test_pdf_without_lualatex_says_what_is_missing(tmp_path):
    """With no lualatex on PATH, pdf is skipped with a stderr line; the exit code and other reports are unaffected."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    r = _run_cli(tmp_path, "--format", "md,pdf", env_extra={"PATH": str(bindir)})
    assert 0 == r.returncode, r.stderr
    assert "pdf report not written" in r.stderr and "LuaLaTeX is not installed" in r.stderr
    assert (tmp_path / "out" / "meta-review.citeproof.md").is_file()
    assert not (tmp_path / "out" / "meta-review.citeproof.pdf").exists()


def test_missing_tool_error_is_a_runtime_error():
    """MissingToolError is a CiteproofError and a RuntimeError."""
    assert issubclass(MissingToolError, RuntimeError)


@pytest.mark.skipif(not (_has_pandoc() and shutil.which("lualatex")), reason="LuaLaTeX (apt texlive-luatex) is not installed")
@pytest.mark.slow
def test_pdf(tmp_path):
    """With pandoc and LuaLaTeX, --format pdf writes a PDF."""
    r = _run_cli(tmp_path, "--format", "pdf")
    assert 0 == r.returncode, r.stderr
    pdf = tmp_path / "out" / "meta-review.citeproof.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-"), r.stderr
    assert "pdf" == get_writer("pdf").name


def test_tex_without_pandoc_names_the_package(monkeypatch, tmp_path):
    """Without pypandoc the tex writer raises MissingToolError naming pypandoc-binary."""
    import io

    from report_samples import small_report

    monkeypatch.setitem(sys.modules, "pypandoc", None)
    with pytest.raises(MissingToolError, match="pypandoc-binary"):
        get_writer("tex").write(small_report(tmp_path), io.StringIO())


@pytest.mark.skipif(not _has_pandoc(), reason="pandoc (PyPI pypandoc-binary) is not installed")
def test_raw_tex_in_sources_is_quoted_as_text(tmp_path):
    """Issue 18: TeX a source or claim carries (``\\directlua``, ``{=latex}``) is typeset as text, never as markup."""
    import io

    from report_samples import small_report

    report = small_report(tmp_path)
    import dataclasses

    f = report.findings[1]
    passage = dataclasses.replace(f.evidence.passage, text=r"Mortality fell \directlua{os.execute('touch /tmp/pwned')} and \input{/etc/passwd} here.")
    f.evidence = dataclasses.replace(f.evidence, passage=passage)
    f.claim = dataclasses.replace(f.claim, text=r"Mortality fell `\write18{rm -rf ~}`{=latex} by 75%.")
    buf = io.StringIO()
    get_writer("tex").write(report, buf)
    tex = buf.getvalue()
    assert "\\directlua{" not in tex and "\\input{/etc/passwd}" not in tex and "\\write18{" not in tex
    assert "\\textbackslash{}directlua" in tex or "\\textbackslash directlua" in tex
