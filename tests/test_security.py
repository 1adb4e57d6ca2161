"""Issue 18, security holes: a citekey, a LaTeX include or a bundle's .bib never reads a file it should not."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from citeproof.model import Reference
from citeproof.pipeline import CheckOptions, check
from citeproof.sources import SourceResolver
from citeproof.sources.cache import Cache

SECRET = "The launch code is 271828 and the moon is made of green cheese."


@pytest.fixture()
def layout(tmp_path):
    """``srcs/`` (one harmless source), ``outside/secret.md`` beside it, a job-like ``jobs/<id>/input/draft.md``."""
    (tmp_path / "srcs").mkdir()
    (tmp_path / "srcs" / "other.md").write_text("# Other\n\nNothing to see.\n", "utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", "utf-8")
    other_job = tmp_path / "jobs" / ("a" * 32) / "input"
    other_job.mkdir(parents=True)
    (other_job / "draft.md").write_text(f"# Someone else's draft\n\n{SECRET}\n", "utf-8")
    return tmp_path


@pytest.mark.parametrize("key", ["../outside/secret", "{root}/outside/secret", "{root}/jobs/" + "a" * 32 + "/input/draft", "..", "srcs/../../outside/secret"])
def test_citekey_is_not_a_path(layout, key):
    """``<sources>/<citekey>.md`` is looked up only when the citekey is a plain name inside the folder."""
    key = key.format(root=layout)
    resolver = SourceResolver([], [layout / "srcs"], Cache(None))
    path, how, tried = resolver.find(Reference(citekey=key))
    assert (None, "") == (path, how)
    src = resolver.resolve(key, Reference(citekey=key))
    assert [] == src.passages and src.error


def test_plain_citekey_still_found(layout):
    resolver = SourceResolver([], [layout / "srcs"], Cache(None))
    path, how, _ = resolver.find(Reference(citekey="other"))
    assert (layout / "srcs" / "other.md", "--sources other.md (citekey)") == (path, how)


def test_citekey_path_does_not_reach_the_report(layout):
    """A draft citing ``[@{/abs/secret}]`` and ``[@{../outside/secret}]`` gets no text of those files."""
    draft = layout / "draft.md"
    draft.write_text(f"The moon is made of green cheese [@{{{layout}/outside/secret}}].\n\nThe launch code is 271828 [@{{../outside/secret}}].\n", "utf-8")
    report = check(draft, [], CheckOptions(source_dirs=[layout / "srcs"], use_cache=False, tiers=["lexical"]))
    assert 2 == len(report.findings)
    for f in report.findings:
        assert "unverifiable" == f.verdict.value and f.evidence is None
        assert f.source is None or not f.source.passages


def _cli(*args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run([sys.executable, "-m", "citeproof.cli", "check", *args, "--no-cache", "--tier", "lexical", "-q", "-f", "json"],
                          cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def _tex(inputs: str) -> str:
    return (
        "\\documentclass{article}\n\\begin{document}\n"
        "Green cheese makes up the moon \\cite{moon}.\n\n"
        f"{inputs}\n\n"
        "\\bibliography{refs}\n\\end{document}\n"
    )


def _bib(file_field: str) -> str:
    return f"@article{{moon,\n  title = {{On the moon}},\n  author = {{Smith, Ann}},\n  year = {{2020}},\n  file = {{{file_field}}}\n}}\n"


@pytest.fixture()
def secrets_dir(tmp_path):
    """``outside/secret.tex`` (LaTeX text) and ``outside/secret.md`` (a source-like file) outside the document's folder."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.tex").write_text(f"{SECRET} \\cite{{moon}}\n", "utf-8")
    (out / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", "utf-8")
    return out


def test_local_tex_reads_only_its_folder(tmp_path, secrets_dir):
    """``\\input{/abs}``, ``\\input{../x}`` and a .bib file field outside the document's folder are not read; --allow-outside reads them."""
    doc = tmp_path / "paper"
    doc.mkdir()
    (doc / "main.tex").write_text(_tex(f"\\input{{{secrets_dir}/secret}}\n\n\\input{{../outside/secret}}"), "utf-8")
    (doc / "refs.bib").write_text(_bib(str(secrets_dir / "secret.md")), "utf-8")
    r = _cli("main.tex", "--out", str(tmp_path / "out"), cwd=doc)
    assert r.returncode in (0, 1), r.stderr
    text = (tmp_path / "out" / "main.citeproof.json").read_text("utf-8")
    assert "271828" not in text
    data = json.loads(text)
    assert 2 == sum(d["code"] == "tex-include-outside" for d in data["diagnostics"])
    assert all(f["evidence"] is None for f in data["findings"])
    r = _cli("main.tex", "--out", str(tmp_path / "out2"), "--allow-outside", cwd=doc)
    assert r.returncode in (0, 1), r.stderr
    assert "271828" in (tmp_path / "out2" / "main.citeproof.json").read_text("utf-8")


def test_bundle_reads_only_itself(tmp_path, secrets_dir):
    """An arXiv bundle's ``\\input{/abs}``, ``\\input{/proc/self/environ}`` and .bib file fields stay inside the bundle."""
    members = {
        "main.tex": _tex(f"\\input{{{secrets_dir}/secret}}\n\n\\input{{/proc/self/environ}}").encode(),
        "refs.bib": _bib(str(secrets_dir / "secret.md")).encode(),
    }
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    bundle = tmp_path / "2401.00001.tar.gz"
    bundle.write_bytes(buf.getvalue())
    r = _cli(str(bundle), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    text = (tmp_path / "out" / "2401.00001.citeproof.json").read_text("utf-8")
    assert "271828" not in text and "PATH=" not in text
    data = json.loads(text)
    assert 2 == sum(d["code"] == "tex-include-outside" for d in data["diagnostics"])
    assert [None] == [f["evidence"] for f in data["findings"]]
    assert "outside the allowed folder" in json.dumps(data["findings"][0]["reasons"]) + json.dumps(data["findings"][0]["provenance"])


@pytest.mark.slow
def test_pdf_billion_laughs_is_one_unverifiable_finding(tmp_path, monkeypatch):
    """A 3 KB PDF of nested form XObjects ends as one finding with the limit's reason; the other citation is judged."""
    from hostile import billion_laughs_pdf

    monkeypatch.setenv("CITEPROOF_PARSE_TIMEOUT", "15")
    monkeypatch.setenv("CITEPROOF_PARSE_MEMORY_MB", "1024")
    srcs = tmp_path / "srcs"
    srcs.mkdir()
    data = billion_laughs_pdf()
    assert len(data) < 4000
    (srcs / "laughs.pdf").write_bytes(data)
    (srcs / "moon.md").write_text("# The moon\n\nThe moon is made of green cheese, the survey found.\n", "utf-8")
    draft = tmp_path / "draft.md"
    draft.write_text("The moon is made of green cheese [@moon].\n\nLaughter is contagious [@laughs].\n", "utf-8")
    report = check(draft, [], CheckOptions(source_dirs=[srcs], use_cache=False, tiers=["lexical"]))
    by_key = {f.citation.citekey: f for f in report.findings}
    assert "unverifiable" == by_key["laughs"].verdict.value
    assert "limit" in by_key["laughs"].source.error and "CITEPROOF_PARSE_" in by_key["laughs"].source.error
    assert "unverifiable" != by_key["moon"].verdict.value and by_key["moon"].evidence is not None


def test_parse_worker_returns_results_and_reasons(monkeypatch):
    """The worker gives back what the function returns; a function that raises is a ParseLimitError with its message."""
    from citeproof.sources.pdf import parse_pdf
    from citeproof.sources.sandbox import ParseLimitError, ParseLimits, run_limited

    from hostile import billion_laughs_pdf

    parsed = run_limited(parse_pdf, billion_laughs_pdf(depth=3, fanout=2), limits=ParseLimits(seconds=60, memory_mb=4096))
    assert (None, 1) == (parsed.error, parsed.pages)
    assert ["lol lol lol lol"] == [p.text for p in parsed.passages]  # 2 ** (3 - 1) strings
    with pytest.raises(ParseLimitError, match="ZeroDivisionError"):
        run_limited(divmod, 1, 0, limits=ParseLimits(seconds=60, memory_mb=4096))


def test_prestarted_worker_is_the_one_the_first_parse_uses(monkeypatch):
    """prestart() leaves one idle worker (not two); the next parse takes it instead of starting another."""
    from citeproof.sources import sandbox

    sandbox.stop_all()
    started = []
    real = sandbox._Worker

    class Counting(real):
        def __init__(self, memory_mb, warm=""):
            started.append(memory_mb)
            super().__init__(memory_mb, warm)

    monkeypatch.setattr(sandbox, "_Worker", Counting)
    lim = sandbox.ParseLimits(seconds=60, memory_mb=2048)
    sandbox.prestart(lim, warm="citeproof.sources.pdf")
    sandbox.prestart(lim)
    assert [2048] == started
    assert (1, 7) == sandbox.run_limited(divmod, 15, 8, limits=lim)
    assert [2048] == started
    sandbox.prestart(sandbox.ParseLimits(seconds=0))  # workers off: nothing starts
    assert [2048] == started
    with pytest.raises(ValueError, match="not a module name"):
        sandbox.prestart(lim, warm="os; import this")
    sandbox.stop_all()


@pytest.mark.parametrize("fmt", ["json", "md", "html", "sarif"])
def test_reports_clip_runaway_claims(tmp_path, fmt):
    """A 100,000-character claim cited 50 times is shown clipped in each finding (the 109 KB draft wrote 2.1 GB of JSON)."""
    import dataclasses

    from citeproof.reports import get_writer
    from citeproof.reports.clip import MAX_CLAIM_CHARS
    from report_samples import small_report

    report = small_report(tmp_path)
    long_text = "word " * 20_000
    f = report.findings[1]
    f.claim = dataclasses.replace(f.claim, text=long_text, raw=long_text + " [@smith]")
    report.findings = [f] * 50
    buf = io.StringIO()
    get_writer(fmt).write(report, buf)
    out = buf.getvalue()
    assert len(out) < 50 * 3 * (MAX_CLAIM_CHARS + 2000)
    assert f"{100_000 - MAX_CLAIM_CHARS} more characters" in out


@pytest.mark.slow
def test_citing_pdf_billion_laughs_is_a_clear_error(tmp_path):
    """A citing PDF that expands without end stops at the parse limit: exit 2 with the reason, not minutes and gigabytes."""
    import os
    import subprocess
    import sys

    from hostile import billion_laughs_pdf

    (tmp_path / "paper.pdf").write_bytes(billion_laughs_pdf())
    (tmp_path / "srcs").mkdir()
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root / "src"), "CITEPROOF_PARSE_TIMEOUT": "10", "CITEPROOF_PARSE_MEMORY_MB": "1024"}
    r = subprocess.run([sys.executable, "-m", "citeproof.cli", "check", "paper.pdf", "--sources", "srcs", "--no-cache", "-q"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert 2 == r.returncode, r.stderr
    assert "paper.pdf" in r.stderr and "limit" in r.stderr and "CITEPROOF_PARSE_" in r.stderr
