"""The bad-input campaign, short run (issue 18, section 5): hypothesis over the readers, and the hostile corpus.

No exception but citeproof's own errors (which name the file; CLI exit 2)
may escape a reader, and the Markdown reader never finds fewer citations
than pandoc. About 400 generated inputs here (``make test``); ``make fuzz``
runs 10,000 and counts crashes, hangs and lost citations
(``tests/fuzz_campaign.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

import fuzz_targets as T
import hostile_inputs as H
import strategies as S
from citeproof.cli import app

ROOT = Path(__file__).resolve().parents[1]
SHORT = settings(max_examples=int(os.environ.get("CITEPROOF_FUZZ_EXAMPLES", "60")), deadline=None, database=None, suppress_health_check=list(HealthCheck))
runner = CliRunner()


def _only_own_errors(fn, value) -> int | None:
    """Run ``fn(value)``; citeproof's own errors are a refusal (None), anything else escapes and fails the test."""
    try:
        return fn(value)
    except T.ALLOWED:
        return None


@SHORT
@given(S.markdown_documents())
def test_markdown_reader_never_crashes(text):
    _only_own_errors(T.markdown, text)


@SHORT
@given(S.latex_documents())
def test_latex_reader_never_crashes(text):
    _only_own_errors(T.latex, text)


@SHORT
@given(S.bibtex_documents())
def test_bibtex_reader_never_crashes(text):
    _only_own_errors(T.bibtex, text)


@SHORT
@given(S.csl_json_documents())
def test_csl_json_reader_never_crashes(data):
    _only_own_errors(T.csl_json, data)


@settings(SHORT, max_examples=max(10, SHORT.max_examples // 2))
@given(S.pdf_documents())
def test_pdf_readers_never_crash(data):
    _only_own_errors(T.citing_pdf, data)
    assert T.source_pdf(data) >= 0  # a bad source is an error string on the source, never an exception


@settings(SHORT, max_examples=max(10, SHORT.max_examples // 2))
@given(S.markdown_documents(unclosed_fences=False))
def test_markdown_never_finds_fewer_citations_than_pandoc(text):
    """pandoc is the oracle (pypandoc-binary, in the test extra); the hostile corpus below holds unclosed fences."""
    pytest.importorskip("pypandoc", reason="pypandoc-binary (the pandoc oracle) is not installed")
    want = T.pandoc_citations(text)
    if want is not None:  # None: pandoc itself gave up on this input (it is exponential on runs of '[')
        assert T.markdown(text) >= want


# --- the hostile corpus --------------------------------------------------------------------



@pytest.mark.parametrize("name", sorted(n for n in H.GENERATORS if n.endswith(".md")))
def test_hostile_markdown_keeps_pandocs_citations(tmp_path, name):
    """Unclosed fences, lists 12 deep, quotes 25 deep...: the Markdown reader keeps every citation pandoc finds."""
    data = H.GENERATORS[name]()
    text = data.decode("utf-8", "replace")
    pytest.importorskip("pypandoc", reason="pypandoc-binary (the pandoc oracle) is not installed")
    want = T.pandoc_citations(text)
    if want is None:
        pytest.skip(f"pandoc gave no answer within {T.PANDOC_TIMEOUT_S:.0f} s (it is exponential on runs of '[')")
    assert T.markdown(text) >= want


@pytest.mark.parametrize("name", sorted(H.GENERATORS))
def test_hostile_file_never_ends_in_a_traceback(tmp_path, name):
    """Every hostile file through the command line: exit 0, 1 or 2 with a message, never a traceback."""
    path = tmp_path / name
    path.write_bytes(H.GENERATORS[name]())
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{doe2001, title = {Statins and mortality}, year = {2001}}\n")
    if path.suffix in (".json", ".bib"):
        doc = tmp_path / "draft.md"
        doc.write_text(H.CITE)
        args = ["gate", str(doc), "--bib", str(path)]
    elif path.suffix == ".pdf":
        args = ["gate", str(path)]
    else:
        args = ["gate", str(path), "--bib", str(bib)]
    r = runner.invoke(app, args)
    assert r.exit_code in (0, 1, 2), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    if path.suffix == ".json":  # every hostile CSL-JSON file is malformed: exit 2 naming the file
        assert 2 == r.exit_code and name in r.output


def test_hostile_corpus_script_writes_every_file(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "hostile_inputs.py"), str(tmp_path)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert 0 == r.returncode, r.stderr
    assert sorted(H.GENERATORS) == sorted(p.name for p in tmp_path.iterdir())


@pytest.mark.slow
def test_fuzz_campaign_counts_and_exits_0(tmp_path):
    """``make fuzz`` in miniature: the runner counts inputs per target and exits 0 with no crash or hang."""
    import json

    r = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_campaign.py"), "--examples", "30", "--json", "--pandoc-every", "5"],
                       capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    res = json.loads(r.stdout)
    assert 0 == r.returncode, r.stdout[-2000:]
    assert res["totals"]["inputs"] == sum(t["inputs"] for t in res["targets"].values()) > len(H.GENERATORS)
    assert len(H.GENERATORS) == res["targets"]["hostile_corpus"]["inputs"]
    assert (0, 0) == (res["totals"]["crashes"], res["totals"]["hangs"])
    assert set(res["targets"]) == {"markdown", "latex", "bibtex", "csl_json", "citing_pdf", "source_pdf", "hostile_corpus"}


@pytest.mark.slow
def test_web_and_online_campaign_short():
    """issue 31, part 6: the web and online campaign's short run (``make fuzz`` sends 2,000 requests)."""
    import fuzz_web

    res = fuzz_web.run(n_requests=int(os.environ.get("CITEPROOF_FUZZ_WEB_REQUESTS", "150")), seed=0, quiet=True)
    c = res["counts"]
    assert c["requests"] >= 150 and c["jobs_done"] >= 1, c
    assert (0, 0, 0) == (c["5xx"], c["off_promise"], c["lost"]), res["examples"]
    assert c["refused_fetches"] > 0 and c["bad_identifiers"] > 0, c  # the hostile bibliographies reached the online tier
