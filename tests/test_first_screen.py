"""The first screen (issue 30): mistakes that stop a run, one summary everywhere, the no-source box, the findings
worth a look, -v, --help, the pre-commit hook and the Action, prose mentions against pandoc, JSON schema 2,
and the identity of a --sources file."""

from __future__ import annotations

import io
import json
import re
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from citeproof.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _zip(members: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)
    return buf.getvalue()


DOCX = _zip({"[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document><w:body><w:p><w:r><w:t>References</w:t></w:r></w:p></w:body></w:document>"})
ODT = _zip({"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<office:document-content/>"})


def _draft(tmp_path: Path, text: str = "Unrelated words about volcanoes [@k].\n") -> Path:
    (tmp_path / "d.md").write_text(text, encoding="utf-8")
    return tmp_path / "d.md"


# --- 1. mistakes that stop a run -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, data, looks", [
    ("refs.docx", DOCX, "is a Word document, not a bibliography"),
    ("refs.odt", ODT, "is an OpenDocument text document, not a bibliography"),
    ("refs.bib", _zip({"a.txt": "x"}), "is a zip archive, not a bibliography"),
    ("refs.bib", b"<!DOCTYPE html><html><body>Sign in</body></html>", "is an HTML page, not a bibliography"),
    ("refs.bib", b"\x89PNG\r\n\x1a\n\x00\x00", "is an image, not a bibliography"),
    ("refs.bib", b"", "holds no BibTeX entry, so every citekey would be unknown"),
    ("refs.txt", b"Just some notes, no entry here.\n", "holds no BibTeX entry"),
    ("refs.json", b"[]", "holds no CSL-JSON item, so every citekey would be unknown"),
])
def test_a_file_that_is_no_bibliography_stops_the_run(tmp_path, name, data, looks):
    """``check draft.md --bib refs.docx`` wrote 125 unverifiable findings and exited 0; now exit 2, the file named, no report."""
    doc = _draft(tmp_path)
    (tmp_path / name).write_bytes(data)
    r = runner.invoke(app, ["check", str(doc), "--bib", str(tmp_path / name), "--out", str(tmp_path / "out"), "--no-cache"])
    assert 2 == r.exit_code, r.output
    assert f"{tmp_path / name}: {looks}" in r.output
    assert not (tmp_path / "out").exists()
    g = runner.invoke(app, ["gate", str(doc), "--bib", str(tmp_path / name)])
    assert 2 == g.exit_code and looks in g.output


def test_an_unexpected_error_is_one_line_and_exit_2(tmp_path, monkeypatch):
    """A bug is one line naming the file (exit 2, never a traceback with 1, which means "a gate failed"); -v, after the
    subcommand too, prints the trace."""
    import citeproof.pipeline

    def broken(*a, **k):
        raise KeyError("the 'x' field")

    monkeypatch.setattr(citeproof.pipeline, "check", broken)
    doc = _draft(tmp_path)
    (tmp_path / "r.bib").write_text("@article{k, title={T}}\n")
    r = runner.invoke(app, ["check", str(doc), "--bib", str(tmp_path / "r.bib"), "--no-cache", "-q"])
    assert 2 == r.exit_code
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert [f"error: {doc}: unexpected KeyError: \"the 'x' field\" (a bug in citeproof; run with -v for the trace)"] == lines
    v = runner.invoke(app, ["check", str(doc), "--bib", str(tmp_path / "r.bib"), "--no-cache", "-q", "-v"])
    assert 2 == v.exit_code and "Traceback (most recent call last)" in v.output and "in broken" in v.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_on_a_busy_port_is_exit_2_naming_it(tmp_path):
    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = runner.invoke(app, ["serve", "--port", str(port), "--jobs-dir", str(tmp_path / "jobs")])
    assert 2 == r.exit_code
    assert f"port {port} on 127.0.0.1 is in use by another program; choose another with --port N" in r.output
    assert "citeproof web page on" not in r.output


def test_serve_binds_before_it_prints_its_address(tmp_path):
    """The address printed is already listening: a request sent the moment the line appears is answered."""
    pytest.importorskip("uvicorn")
    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "citeproof", "serve", "--port", "0", "--jobs-dir", str(tmp_path / "jobs")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line + proc.stderr.read() if proc.poll() is not None else line
        # bound before the line was printed: connecting cannot be refused, even though uvicorn may still be starting
        with socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=10):
            pass
        deadline = time.monotonic() + 60
        while True:
            try:
                assert 200 == httpx.get(f"http://127.0.0.1:{m.group(1)}/", timeout=10).status_code
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


# --- 3. conventions ------------------------------------------------------------------------------------------

def _sourced(tmp_path: Path) -> tuple[Path, Path]:
    """A draft citing one work with a source (a sentence and a table row of names) and two without."""
    (tmp_path / "s.md").write_text("Claim text here indeed, about glaciers and their retreat.\n", encoding="utf-8")
    (tmp_path / "r.bib").write_text("@article{k, title={Glaciers}, year={2020}, file={s.md}}\n@article{m, title={M}}\n@article{n, title={N}}\n")
    doc = _draft(tmp_path, "Unrelated words about volcanoes and lava [@k].\n\nMore words on oceans [@m] and deserts [@n].\n\n"
                           "| tool | reference |\n|---|---|\n| Manubot | [@k] |\n")
    return doc, tmp_path / "r.bib"


def test_verbose_after_the_subcommand_logs_citeproof_and_quiets_third_parties(tmp_path):
    doc, bib = _sourced(tmp_path)
    base = ["check", str(doc), "--bib", str(bib), "--no-cache", "--tier", "lexical", "-q", "--out", str(tmp_path / "o")]
    r = runner.invoke(app, base + ["-v"])
    assert r.exit_code == 0, r.output
    assert f"INFO citeproof.pipeline: read {doc}: 3 claim units, 4 citations" in r.output
    assert f"INFO citeproof.sources: source {tmp_path / 's.md'} (k): parsed, 1 passages" in r.output
    assert "INFO citeproof.pipeline: timings: read" in r.output
    assert "markdown_it" not in r.output and "DEBUG" not in r.output
    again = runner.invoke(app, base + ["-v"])
    assert "(k): from the cache" not in again.output  # --no-cache: parsed afresh
    loud = runner.invoke(app, ["-vv", *base[:-2], "--out", str(tmp_path / "o"), "-v"])  # -vv before and -v after: -vvv
    assert "DEBUG markdown_it" in loud.output


def test_help_shows_no_python_type_names():
    from typer.main import get_command

    group = get_command(app)
    names = [[n] for n in group.commands] + [[n, s] for n, c in group.commands.items() if hasattr(c, "commands") for s in c.commands]
    assert len(names) > 15
    for argv in names:
        r = runner.invoke(app, [*argv, "--help"])
        assert 0 == r.exit_code, (argv, r.output)
        assert not re.search(r"<(?:list\[|path>|int|float|str>|text>|int range|float range)", r.output), (argv, r.output)
    assert "DOCUMENT  The citing documents" in runner.invoke(app, ["check", "--help"]).output


def test_gate_on_a_readme_without_citations_is_ok(tmp_path):
    readme = _draft(tmp_path, "# My project\n\nMail me at alice@example.org; run `make @all`.\n")
    r = runner.invoke(app, ["gate", str(readme)])
    assert (0, f"{readme}: no citation, nothing to check") == (r.exit_code, r.output.strip())
    cited = _draft(tmp_path, "A claim [@k].\n")
    r = runner.invoke(app, ["gate", str(cited)])
    assert 2 == r.exit_code and "give the bibliography with --bib refs.bib" in r.output


def test_pre_commit_hooks_skip_citeproofs_own_reports():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {"citeproof-gate", "citeproof-check"} == {h["id"] for h in hooks}
    for h in hooks:  # pre-commit: a file runs when `files` re.search-es its path and `exclude` does not
        runs = lambda p: bool(re.search(h["files"], p)) and not re.search(h.get("exclude", "^$"), p)  # noqa: E731
        assert runs("paper/draft.md") and runs("thesis/ch1.tex") and runs("notes/analysis.qmd")
        assert not runs("paper/draft.citeproof.md") and not runs("out/thesis.citeproof.tex")


def test_action_installs_with_the_lock_and_caches_pip_and_citeproof():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    steps = action["runs"]["steps"]
    install = next(s for s in steps if s.get("name", "").startswith("Install citeproof"))
    assert '-c "$GITHUB_ACTION_PATH/requirements.lock"' in install["run"]
    caches = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    paths = {s["with"]["path"] for s in caches}
    assert "${{ steps.keys.outputs.pip }}" in paths and "${{ runner.temp }}/citeproof-cache" in paths
    check = next(s for s in steps if s.get("name") == "Check the citations")
    assert "${{ runner.temp }}/citeproof-cache" == check["env"]["CITEPROOF_CACHE_DIR"]
    keyed = next(s for s in caches if "citeproof-cache" in s["with"]["path"])
    assert "restore-keys" in keyed["with"] and "github.run_id" in keyed["with"]["key"]  # restored from the last run, saved anew
    assert steps.index(next(s for s in steps if s.get("id") == "keys")) < steps.index(caches[0]) < steps.index(install)


PROSE = [
    "Thanks to @alice for the review.", "Ping @alice's branch.", "(@alice)", "Thanks (@alice) today.", "(@a) b (@c)",
    "@alice. Then more.", "@alice) item", "  @alice. x", "@1. x", "@alice-b. x", "- (@alice) item", "@alice.x",
    "Text\n@alice. next", "@alice.\n\nMore [@bob].", "Email alice@example.org now.", "Escaped \\@alice here.",
    "See <https://x.org/@alice> now.", "npm i @scope/pkg", "cc: @alice, @bob-smith", "`@alice` in code",
]


def test_prose_mentions_are_citations_only_where_pandoc_reads_one():
    """The oracle is pandoc itself (pypandoc-binary): "@alice. Then more." opens a numbered example, no citation."""
    pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (the pandoc oracle) is not installed")
    from fuzz_targets import pandoc_cite_keys

    from citeproof.readers.markdown import MarkdownReader

    for text in PROSE:
        theirs = sorted(pandoc_cite_keys(json.loads(pypandoc.convert_text(text + "\n", "json", format="markdown"))))
        ours = sorted(c.citekey for cl in MarkdownReader().read_string(text + "\n") for c in cl.citations)
        assert theirs == ours, text
    assert [] == [c for cl in MarkdownReader().read_string("@alice. Then more.\n") for c in cl.citations]


# --- 2. the report opens on what to do -----------------------------------------------------------------------

@pytest.fixture()
def sourced_run(tmp_path):
    doc, bib = _sourced(tmp_path)
    r = runner.invoke(app, ["check", str(doc), "--bib", str(bib), "--no-cache", "--tier", "lexical", "--out", str(tmp_path / "o"),
                            "--format", "md,json,html", "--fail-on", "unsupported"])
    return r, tmp_path / "o"


def test_every_writer_gives_the_same_counts(sourced_run):
    """The sentence and the table row are both unsupported; the row holds no claim: "2 (of which 1 not a claim)" in the
    terminal, the Markdown, the HTML and the JSON, and the --fail-on line counts the 1 that fails."""
    r, out = sourced_run
    assert 1 == r.exit_code, r.output
    data = json.loads((out / "d.citeproof.json").read_text())
    assert (2, 1) == (data["summary"]["verdicts"]["unsupported"], data["summary"]["not_a_claim"]["unsupported"])
    assert re.search(r"│ unsupported\s+│\s+2 \(of which 1 not a claim\) │", r.output)
    assert "| unsupported | 2 (of which 1 not a claim) |" in (out / "d.citeproof.md").read_text()
    assert "<b>2</b> <small class=\"nac\">of which 1 not a claim</small>" in (out / "d.citeproof.html").read_text()
    assert "failing (--fail-on unsupported): 1 unsupported (of 2; 1 not a claim)" in r.output


def test_the_no_source_box_opens_the_report(sourced_run):
    r, out = sourced_run
    said = "2 of 3 cited works have no readable source, so 2 citations cannot be checked"
    assert said in r.output
    assert "2  no local source: the bibliography entry has no file field and no --sources folder was given" in r.output
    for way in ("1. citeproof audit ", "2. --online: ", "3. --sources DIR: "):
        assert way in r.output
    md = (out / "d.citeproof.md").read_text()
    assert md.index("## 2 of 3 cited works have no readable source") < md.index("## Unsupported")
    assert "<details><summary>2 works without a readable source</summary>" in md
    html = (out / "d.citeproof.html").read_text()
    assert html.index('id="no-source"') < html.index('id="findings"')
    assert '<details class="fold" id="works-without-source">' in html


def test_the_terminal_lists_the_findings_worth_a_look(sourced_run, tmp_path):
    r, _ = sourced_run
    doc = tmp_path / "d.md"
    col = doc.read_text().splitlines()[0].index("@k") + 1  # line:column of the citation (session 24)
    assert re.search(rf"^{re.escape(str(doc))}:1:{col}: unsupported \[@k\](?: [\w,]+)? - Unrelated words about volcanoes and lava\.$", r.output, re.M), r.output
    assert "worth a look (1, worst first):" in r.output  # the table row holds no claim: not listed
    quiet = runner.invoke(app, ["check", str(doc), "--bib", str(tmp_path / "r.bib"), "--no-cache", "--tier", "lexical",
                                "--out", str(tmp_path / "o2"), "--show", "0"])
    assert "worth a look" not in quiet.output and "unsupported [@k]" not in quiet.output


def test_json_schema_2_lists_each_work_once(sourced_run):
    jsonschema = pytest.importorskip("jsonschema")
    from citeproof.reports.diff import finding_id, load_report
    from citeproof.reports.json import REPORT_SCHEMA_PATH

    _, out = sourced_run
    path = out / "d.citeproof.json"
    data = json.loads(path.read_text())
    jsonschema.validate(data, json.loads(REPORT_SCHEMA_PATH.read_text()))
    assert ("urn:citeproof:schema:report:2", 2) == (data["$schema"], data["schema_version"])
    assert ["k", "m", "n"] == sorted(data["works"])
    assert all(f["work"] == f["citekey"] and not {"reference", "provenance", "sources_considered"} & set(f) for f in data["findings"])
    assert data["works"]["k"]["source"].endswith("s.md") and "Glaciers" == data["works"]["k"]["reference"]["title"]
    assert 2 == sum(f["work"] == "k" for f in data["findings"])  # the work's record is written once for its two citations
    inlined = load_report(path)  # readers of schema 1's shape get the records back
    assert all(finding_id(f) == f["id"] for f in inlined["findings"])
    assert "Glaciers" == next(f for f in inlined["findings"] if f["citekey"] == "k")["reference"]["title"]


# --- 4. the identity of a source -----------------------------------------------------------------------------

PAPER = "Opportunities and obstacles for deep learning in biology and medicine"


def _blog(year: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>Opportunities and obstacles for deep learning in biology and medicine</title>"
            f'<meta name="author" content="Daniel S. Himmelstein"><meta property="article:published_time" content="{year}-06-01">'
            f'<meta name="citation_author" content="M&uuml;ller, Jan"></head><body><article><h1>{PAPER}</h1>'
            "<p>Daniel S. Himmelstein, Travers Ching and colleagues wrote a review together on GitHub; this post tells how the "
            "writing went, who joined and what the tools did for the authors over two years of work.</p></article></body></html>")


def test_a_blog_post_titled_like_the_paper_is_not_the_paper(tmp_path):
    from citeproof.model import Reference
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "post.html").write_text(_blog("2017"), encoding="utf-8")
    ref = Reference(citekey="ching", entry_type="article", title=PAPER, authors=("Ching, Travers", "Himmelstein, Daniel S."), year="2018",
                    doi="10.1098/rsif.2017.0387")
    src = SourceResolver([], [tmp_path / "src"], Cache(None)).resolve("ching", ref)
    assert src.path is None
    assert "post.html: title matches (score 100) but neither the entry's type, year nor DOI agrees with the file (type and year differ)" in src.error
    web = Reference(citekey="himmelstein2017", entry_type="online", title=PAPER, authors=("Himmelstein, Daniel S.",), year="2017")
    got = SourceResolver([], [tmp_path / "src"], Cache(None)).resolve("himmelstein2017", web)
    assert got.path.endswith("post.html") and "--sources title match (score 100.0; type and year agree)" == got.origin


def test_html_metadata_is_entity_decoded():
    from citeproof.sources.identity import source_identity
    from citeproof.sources.metadata import html_metadata

    meta = html_metadata('<html><head><title>Caf&eacute; &amp; M&uuml;ller&#8217;s notes</title><meta name="citation_author" content="M&uuml;ller, Jan">'
                         "</head><body></body></html>")
    assert ("Café & Müller’s notes", "Müller, Jan") == (meta["title"]["value"], meta["author"]["value"])
    ident = source_identity(Path("post.html"), _blog("2017").encode())
    assert (PAPER, "2017", "web page") == (ident["title"], ident["year"], ident["kind"])


def test_a_pdf_with_no_metadata_title_is_known_by_its_largest_text(tmp_path):
    """A CVPR paper's PDF opens on the Open Access watermark and has an empty metadata title: it was "passed over: its
    title does not match (score 64 of 100)" and the Zotero landing page listed before it (an abstract) was read. Its title
    is the largest text on page 1: the PDF, the full text, is read."""
    import pymupdf

    from citeproof.bibliography import read_bibtex
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache

    title = "Deep Residual Learning for Image Recognition"
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_textbox(pymupdf.Rect(40, 20, 572, 60), "This CVPR paper is the Open Access version, provided by the Computer Vision Foundation. "
                        "Except for this watermark, it is identical to the accepted version; the final published version of the proceedings "
                        "is available on IEEE Xplore.", fontsize=7, fontname="helv")
    page.insert_textbox(pymupdf.Rect(100, 80, 512, 110), title, fontsize=14, fontname="helv")
    page.insert_textbox(pymupdf.Rect(100, 115, 512, 160), "Kaiming He   Xiangyu Zhang   Shaoqing Ren   Jian Sun\nMicrosoft Research", fontsize=10, fontname="helv")
    for n, col in enumerate((50, 316, 50, 316)):
        page.insert_textbox(pymupdf.Rect(col, 170 + 300 * (n // 2), col + 246, 460 + 300 * (n // 2)),
                            "Deeper neural networks are more difficult to train. We present a residual learning framework to ease the training "
                            "of networks that are substantially deeper than those used previously. " * 3, fontsize=9, fontname="helv")
    doc.set_metadata({"title": "", "author": ""})
    doc.save(tmp_path / "paper.pdf")
    (tmp_path / "landing.html").write_text(
        f"<!DOCTYPE html><html><head><title>{title} | IEEE Conference Publication | IEEE Xplore</title></head><body><main><h1>{title}</h1>"
        "<p>Abstract: Deeper neural networks are more difficult to train. We present a residual learning framework.</p></main></body></html>")
    (tmp_path / "r.bib").write_text("@inproceedings{he2016, title={" + title + "}, author={He, Kaiming and Zhang, Xiangyu}, year={2016}, "
                                    "booktitle={CVPR}, file={[HTML] from ieee.org:landing.html:text/html;paper.pdf:paper.pdf:application/pdf}}\n")
    (ref,), _ = read_bibtex(tmp_path / "r.bib")
    src = SourceResolver([tmp_path], [], Cache(None)).resolve("he2016", ref)
    assert src.path.endswith("paper.pdf")
    (landing, pdf) = src.considered
    assert (False, True) == (landing.chosen, pdf.chosen)
    assert "the PDF of the work was read instead" in landing.reason and pdf.reason.startswith("read: the PDF, title matches the entry (score 100)")
    assert title == src.metadata["title"]["value"] and "largest text on page 1" == src.metadata["title"]["from"]


# --- what a fresh new user met (issue 30's README trial, session 2) ---------------------------------------------------

def _tomato(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "botany-tomatoes.md").write_text(
        "# Why tomatoes are fruits\n\nBotanists class the tomato as a fruit because it develops from the ovary of a flower.\n")
    doc = tmp_path / "draft.md"
    doc.write_text("Botanists class the tomato as a fruit because it develops from the flower ovary [@lee2019].\n\n"
                   "Bananas are berries in the botanical sense [@nobody2020].\n")
    return doc


def test_a_file_passed_over_by_title_says_why(tmp_path):
    """The title matched (score 100) but the file does not name the first author: the reason said "no file matched"."""
    doc = _tomato(tmp_path)
    (tmp_path / "refs.bib").write_text("@misc{lee2019, title={Why tomatoes are fruits}, author={Lee, Ann}, year={2019}}\n"
                                       "@misc{nobody2020, title={Bananas}, year={2020}}\n")
    r = runner.invoke(app, ["check", str(doc), "--bib", str(tmp_path / "refs.bib"), "--sources", str(tmp_path / "src"), "--tier", "lexical",
                            "--no-cache", "-q", "--format", "json", "--out", str(tmp_path / "o")])
    assert 0 == r.exit_code, r.output
    lee = next(f for f in json.loads((tmp_path / "o" / "draft.citeproof.json").read_text())["findings"] if f["citekey"] == "lee2019")
    assert "unverifiable" == lee["verdict"]
    assert lee["reasons"][0].endswith("passed over: botany-tomatoes.md: title matches (score 100) but its first page does not name the first author")


def test_without_a_bibliography_the_run_says_so_and_advises_only_what_was_not_done(tmp_path):
    """No --bib: the caption said "0 unknown citekeys", the reason "no file field in the bibliography entry", and the box
    advised --sources to a user who had given it."""
    doc = _tomato(tmp_path)
    r = runner.invoke(app, ["check", str(doc), "--sources", str(tmp_path / "src"), "--tier", "lexical", "--no-cache", "--format", "md",
                            "--out", str(tmp_path / "o")])
    assert 0 == r.exit_code, r.output
    assert "0 of 2 cited works have a readable source; no bibliography given, so citekeys were not checked" in r.output
    assert "no bibliography entry describes this citekey" in r.output  # the box groups by the reason's first clause
    md = (tmp_path / "o" / "draft.citeproof.md").read_text()
    assert "so only a --sources file named after it (lee2019.pdf, .md, .txt ...) can be its source, and none is there" in md
    assert "--sources DIR:" not in r.output and "name the files after the citekeys:" in r.output
    assert "2. --online: " in r.output and "title, first author and year" in " ".join(r.output.split())


def test_a_run_without_network_says_so_in_one_readable_line():
    from citeproof.sources.online import _short_state

    state = "https://api.openalex.org/works/x: request failed (ConnectError: cannot resolve 'api.openalex.org' ([Errno -2] Name or service not known))"
    assert "no network: cannot resolve api.openalex.org" == _short_state(state)
    assert "the request failed (ReadTimeout)" == _short_state("https://x.org/a: request failed (ReadTimeout: timed out after 20 s)")
    long = _short_state("a long state " * 10 + "(with a bracket that is never closed before the cut and more words")
    assert len(long) <= 84 and long.count("(") == long.count(")") and long.endswith(" …")


def test_a_missing_sources_folder_is_not_found_and_a_file_is_not_a_folder(tmp_path):
    doc = _tomato(tmp_path)
    r = runner.invoke(app, ["check", str(doc), "--sources", str(tmp_path / "nodir"), "-q", "--out", str(tmp_path / "o")])
    assert 2 == r.exit_code and f"{tmp_path / 'nodir'}: --sources folder not found" in r.output
    r = runner.invoke(app, ["check", str(doc), "--sources", str(doc), "-q", "--out", str(tmp_path / "o")])
    assert 2 == r.exit_code and "--sources must be a folder" in r.output and "and this is a file" in r.output


def test_a_console_line_names_sixteen_words_and_the_words_a_proven_tag_read(tmp_path):
    """Trials 87-90's users could not tell their sentences apart by the console's first eight words; where a tag
    proven by code decided, the line ends with the words it read as changed."""
    import dataclasses

    from citeproof.model import Tag, TagEvidence
    from citeproof.reports.summary import finding_line
    from tests.report_samples import small_report

    f = small_report(tmp_path).findings[1]
    long = dataclasses.replace(f.claim, text="Cell death was delayed by blocking lipid droplet biogenesis through "
                               "pharmacological inhibition of cPLA2α or down-regulation of ceramide kinase.")
    f = dataclasses.replace(f, claim=long, tags=[Tag("polarity_flip", "turned", 0.9,
                                                     (TagEvidence("delayed", "accelerated"),), proven=True)])
    line = finding_line(f)
    assert line.endswith(" - Cell death was delayed by blocking lipid droplet biogenesis through pharmacological "
                         "inhibition of cPLA2α or down-regulation ... (claim 'delayed', source 'accelerated')")
    unproven = dataclasses.replace(f, tags=[dataclasses.replace(f.tags[0], proven=False)])
    assert "(claim '" not in finding_line(unproven)


def test_partial_findings_that_name_a_difference_are_told_apart(tmp_path):
    """Every new users' round (trials 87-110) asked to tell the *partial* findings that name a difference (an unproven
    swap, a dropped hedge) from those whose meaning the judge was not sure of. The summary counts them, the Markdown
    report gives them their own group first, the HTML marks each and the console table says how many."""
    from rich.console import Console

    from citeproof.cli._common import _summary_table
    from citeproof.model import Tag, TagEvidence, Verdict
    from citeproof.reports.html import render_html
    from citeproof.reports.markdown import render_markdown
    from citeproof.triage import difference_named, summarise
    from tests.report_samples import small_report

    report = small_report(tmp_path)
    swapped, unsure = report.findings[1], report.findings[3]  # contradicted (number_drift), supported
    swapped.verdict, unsure.verdict = Verdict.PARTIAL, Verdict.PARTIAL
    swapped.tags = [Tag("term_swap", "the claim says 'fell' where the source says 'rose'", 0.7, (TagEvidence("fell", "rose"),))]
    unsure.tags = [Tag("borrowed_wording", "8 consecutive words", 0.6)]
    assert [difference_named(f) for f in (swapped, unsure)] == [True, False]
    assert summarise(report.findings)["partial_named"] == 1
    md = render_markdown(report)
    assert "| partial | 2 (1 names a difference) |" in md
    named_at = md.index("## Partial, a difference named")
    unsure_at = md.index("## Partial, the meaning not confirmed")
    assert named_at < md.index("Mortality fell by 75%") < unsure_at < md.index("Mortality fell in the treated group.")
    assert render_html(report).count('class="named"') == 1
    console = Console(record=True, width=120)
    console.print(_summary_table(report))
    assert "2 (1 names a difference)" in console.export_text()


def test_the_markdown_report_quotes_the_judged_sentence_in_bold_within_its_passage():
    """New users of trials 111-114: "Passage the judge read" was the whole abstract cut at 900 characters, often before
    the sentence the verdict rested on. Now that sentence, in bold, with 200 characters of its passage each side."""
    from citeproof.reports.markdown import _around

    head = "Background words. " * 30
    sentence = "Loss of the BAF250a protein correlated strongly with the ARID1A mutations."
    tail = " Later words." * 40
    shown = _around(head + sentence + tail, sentence)
    assert f"**{sentence}**" in shown
    assert shown.startswith("[…] ") and shown.endswith(" […]") and len(shown) < len(sentence) + 2 * 200 + 20
    assert _around("A short passage. Its sentence.", "Its sentence.") == "A short passage. **Its sentence.**"
    assert _around("x " * 600, "not there").endswith(" […]")
