"""Bad input never ends in a traceback (issue 18, section 4): CSL-JSON and .bib, the caches, error verdicts, citing PDFs."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.bibliography import load_bibliographies, read_bibtex, read_csl_json
from citeproof.cli import app
from citeproof.errors import BibliographyError
from citeproof.model import Verdict
from citeproof.sources import load_source
from citeproof.sources.cache import Cache

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


# --- CSL-JSON and BibTeX -----------------------------------------------------------------


CSL_BAD = {
    "non_utf8": (b'[{"id": "a", "title": "Caf\xe9"}]', "byte 26: not UTF-8"),
    "random_bytes": (bytes(range(256)) * 3, "is a binary file, not a bibliography"),  # NUL bytes: said before decoding (issue 30)
    "nested_100k": (b"[" * 100_000, "nested too deep"),
    "author_5": (json.dumps([{"id": "a", "author": 5}]).encode(), "$[0].author: expected an array of names"),
    "author_item_5": (json.dumps([{"id": "a", "author": [{"family": "Doe"}, 5]}]).encode(), "$[0].author[1]: expected a name object"),
    "file_5": (json.dumps([{"id": "a", "file": 5}]).encode(), "$[0].file: expected a file path"),
    "date_parts_empty": (json.dumps([{"id": "a", "issued": {"date-parts": [[]]}}]).encode(), "$[0].issued.date-parts[0]: expected an array like [2020, 5, 17], got an empty array"),
    "date_parts_5": (json.dumps([{"id": "a", "issued": {"date-parts": [5]}}]).encode(), "$[0].issued.date-parts[0]: expected an array"),
    "title_object": (json.dumps({"items": [{"id": "a"}, {"id": "b", "title": {"x": 1}}]}).encode(), "$.items[1].title: expected a string or a number, got an object"),
    "top_number": (b"5", "$: expected an array of CSL items"),
    "item_string": (b'["a"]', "$[0]: expected a CSL item"),
    "huge_int": (b"[" + b"9" * 5000 + b"]", "not valid CSL-JSON"),
}


@pytest.mark.parametrize("name", sorted(CSL_BAD))
def test_malformed_csl_json_is_a_bibliography_error_naming_file_and_path(tmp_path, name):
    """Each of these ended in a traceback (exit 1, read as 'gate failed'); now a BibliographyError naming the file and first bad path."""
    data, expected = CSL_BAD[name]
    p = tmp_path / f"{name}.json"
    p.write_bytes(data)
    with pytest.raises(BibliographyError) as err:
        read_csl_json(p)
    assert str(p) in str(err.value)
    assert expected in str(err.value)


@pytest.mark.parametrize("name", ["author_5", "nested_100k", "non_utf8"])
def test_malformed_csl_json_exits_2_in_gate_and_check(tmp_path, name):
    doc = tmp_path / "d.md"
    doc.write_text("A claim [@a].\n")
    p = tmp_path / "refs.json"
    p.write_bytes(CSL_BAD[name][0])
    for cmd in ("gate", "check"):
        r = runner.invoke(app, [cmd, str(doc), "--bib", str(p), "-q"] + (["--no-cache"] if cmd == "check" else []))
        assert 2 == r.exit_code, r.output
        assert "refs.json" in r.output and "Traceback" not in r.output


def test_valid_csl_json_variants_read(tmp_path):
    p = tmp_path / "ok.json"
    items = [
        {"id": 7, "type": "article-journal", "title": 12, "author": [{"family": "Doe", "given": "Jane"}, {"literal": "WHO"}], "issued": {"date-parts": [["2019", 3]]}},
        {"id": "b", "issued": {"raw": "May 2001"}, "files": ["b.pdf"], "DOI": "doi:10.1/X"},
        {"id": "c", "issued": "2003-01-02"},
    ]
    p.write_text(json.dumps(items))
    refs, diags = read_csl_json(p)
    assert [] == diags
    assert ("7", "12", ("Doe, Jane", "WHO"), "2019") == (refs[0].citekey, refs[0].title, refs[0].authors, refs[0].year)
    assert ("2001", ("b.pdf",), "10.1/x") == (refs[1].year, refs[1].files, refs[1].doi)
    assert "2003" == refs[2].year


def test_bib_with_braces_nested_deep_is_a_diagnostic_not_a_crash(tmp_path):
    p = tmp_path / "deep.bib"
    p.write_text("@article{a, title=" + "{" * 50_000 + "}\n@article{b, title={Fine}}\n")
    try:
        refs, diags = read_bibtex(p)
    except BibliographyError as exc:  # acceptable: the whole file is unreadable
        assert str(p) in str(exc)
        return
    assert diags  # the bad entry is reported


def test_bib_random_bytes_and_folder(tmp_path):
    p = tmp_path / "r.bib"
    p.write_bytes(bytes(range(256)) * 4 + b"@")
    with pytest.raises(BibliographyError, match="r.bib"):
        read_bibtex(p)
    with pytest.raises(BibliographyError, match="is a folder"):
        load_bibliographies([tmp_path])


def test_braced_corporate_author_is_one_author(tmp_path):
    """Bug: a plain split on 'and' made three authors of two."""
    p = tmp_path / "a.bib"
    p.write_text("@report{g, author={{Bill and Melinda Gates Foundation} and Smith, John}, title={T}}\n")
    refs, _ = read_bibtex(p)
    assert ("Bill and Melinda Gates Foundation", "Smith, John") == refs[0].authors


# --- error verdicts ----------------------------------------------------------------------


def _doc_with_source(tmp_path: Path, body: str) -> tuple[Path, Path]:
    (tmp_path / "src.md").write_text("# Results\n\nThe treatment reduced mortality by 12 percent in adults over sixty.\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{k, title={Mortality}, file={src.md}}\n")
    doc = tmp_path / "d.md"
    doc.write_text(body)
    return doc, bib


@pytest.mark.parametrize(
    "body",
    [
        "The treatment reduced mortality by 12 percent.\n\n- [@k]\n",
        "The treatment reduced mortality by 12 percent.\n\n| study | ref |\n|---|---|\n| a | [@k] |\n",
    ],
    ids=["list_item", "table_cell"],
)
def test_citation_only_unit_is_judged_not_an_error(tmp_path, body):
    """Bug: pipeline called dataclasses.replace without importing dataclasses: verdict 'error' (NameError), silently."""
    from citeproof.pipeline import CheckOptions, check

    doc, bib = _doc_with_source(tmp_path, body)
    report = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"]))
    assert [] == [f.reasons[0] for f in report.findings if f.verdict == Verdict.ERROR]
    assert [] == [d for d in report.diagnostics if d.code == "internal-error"]
    assert any("claim_from_context" in f.flags for f in report.findings)


def test_error_verdict_is_never_silent(tmp_path, monkeypatch):
    """An exception while judging is an 'error' finding carrying the exception text, and an error diagnostic."""
    from citeproof import pipeline

    doc, bib = _doc_with_source(tmp_path, "The treatment reduced mortality by 12 percent [@k].\n")

    def boom(self, *a, **k):
        raise ZeroDivisionError("planted for the test")

    monkeypatch.setattr(pipeline.Tiers, "candidates", boom)
    report = pipeline.check(doc, [bib], pipeline.CheckOptions(use_cache=False, tiers=["lexical"]))
    f = report.findings[0]
    assert Verdict.ERROR == f.verdict
    assert "ZeroDivisionError: planted for the test" in f.reasons[0]
    diag = [d for d in report.diagnostics if d.code == "internal-error"]
    assert 1 == len(diag) and "error" == diag[0].severity and "planted for the test" in diag[0].message
    r = runner.invoke(app, ["check", str(doc), "--bib", str(bib), "--no-cache", "--tier", "lexical", "-q", "--out", str(tmp_path / "o")])
    assert "planted for the test" in r.output


# --- the caches --------------------------------------------------------------------------


def _filled_cache(folder: Path, n: int = 400) -> None:
    c = Cache(folder)
    for i in range(n):
        c.put(f"{i:064x}", "p", {"i": i, "pad": "x" * 200})
    c._store.close()


def _damage_after_header(db: Path) -> None:
    """Keep the 100-byte header and the first page; overwrite every later page with garbage."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    assert len(data) > 3 * page
    data[page:] = bytes((i * 37 + 11) % 251 for i in range(len(data) - page))
    db.write_bytes(bytes(data))


def _checkpoint(db: Path) -> None:
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_cache_with_damaged_pages_after_a_good_header_is_rebuilt(tmp_path):
    _filled_cache(tmp_path)
    db = tmp_path / "citeproof.sqlite"
    _checkpoint(db)
    _damage_after_header(db)
    c = Cache(tmp_path)
    for i in range(0, 400, 40):  # every lookup is a miss or a hit, never an exception
        c.get(f"{i:064x}", "p")
    c.put("ab" * 32, "p", {"ok": True})
    assert {"ok": True} == c.get("ab" * 32, "p")
    assert "damaged" in (c.warning or "")
    assert (tmp_path / "citeproof.sqlite.broken").exists()


def test_cache_of_an_old_schema_is_rebuilt_in_place(tmp_path):
    conn = sqlite3.connect(str(tmp_path / "citeproof.sqlite"))
    conn.execute("CREATE TABLE parsed (sha256 TEXT, parser TEXT, payload BLOB, PRIMARY KEY (sha256, parser))")
    conn.execute("INSERT INTO parsed VALUES ('a', 'p', x'00')")
    conn.commit()
    conn.close()
    c = Cache(tmp_path)
    c.put("a", "p", {"v": 1})
    assert {"v": 1} == c.get("a", "p")
    assert "older layout" in (c.warning or "")
    assert not (tmp_path / "citeproof.sqlite.broken").exists()


def test_folder_in_place_of_the_database_runs_without_cache(tmp_path):
    (tmp_path / "citeproof.sqlite").mkdir()
    c = Cache(tmp_path)
    c.put("a", "p", {"v": 1})
    assert c.get("a", "p") is None
    assert "is a folder" in (c.warning or "")
    assert (tmp_path / "citeproof.sqlite").is_dir()


_LOCKER = textwrap.dedent(
    """
    import sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.read()
    conn.execute("ROLLBACK")
    """
)


def test_database_locked_by_another_process_is_left_alone(tmp_path):
    """Bug: a healthy database locked by another process was renamed .broken after 30 s."""
    c = Cache(tmp_path)
    c.put("a", "p", {"v": 1})
    c._store.close()
    db = tmp_path / "citeproof.sqlite"
    _checkpoint(db)
    sqlite3.connect(str(db)).execute("PRAGMA journal_mode=DELETE").connection.close()
    locker = subprocess.Popen([sys.executable, "-c", _LOCKER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert "locked" == locker.stdout.readline().strip()
        c2 = Cache(tmp_path, busy_timeout_s=0.2)
        assert c2.get("a", "p") is None
        c2.put("b", "p", {"v": 2})
        assert "locked by another process" in (c2.warning or "")
    finally:
        locker.stdin.close()
        locker.wait(timeout=20)
    assert not (tmp_path / "citeproof.sqlite.broken").exists()
    assert {"v": 1} == Cache(tmp_path).get("a", "p")


_READONLY_RUN = textwrap.dedent(
    """
    import importlib.util, sys
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("cache_module", sys.argv[2])  # the module alone: it needs only the stdlib
    cache_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cache_module)
    c = cache_module.Cache(Path(sys.argv[1]))
    c.put("a", "p", {"v": 1})
    print(repr(c.get("a", "p")), "|", c.warning)
    """
)


@pytest.mark.parametrize("existing_db", [False, True])
def test_read_only_cache_folder_runs_without_cache(existing_db):
    import tempfile

    tmp_path = Path(tempfile.mkdtemp(prefix="citeproof-ro-", dir="/tmp"))  # pytest's own tmp is 0700: another user could not reach it
    folder = tmp_path / "ro"
    folder.mkdir()
    if existing_db:
        _filled_cache(folder, 3)
        _checkpoint(folder / "citeproof.sqlite")
    os.chmod(folder, 0o555)
    for f in folder.iterdir():
        os.chmod(f, 0o444)
    os.chmod(tmp_path, 0o755)
    # the child reads its own copy of the module from the world-readable folder: the clone itself may sit under a
    # private (0700) folder that user nobody cannot enter (issue 31, part 7)
    pkg = tmp_path / "pkg" / "citeproof"  # cache.py imports citeproof.errors (stdlib only) and nothing else
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    shutil.copyfile(ROOT / "src" / "citeproof" / "errors.py", pkg / "errors.py")
    module = tmp_path / "cache_module.py"
    shutil.copyfile(ROOT / "src" / "citeproof" / "sources" / "cache.py", module)
    for d in (tmp_path / "pkg", pkg):
        os.chmod(d, 0o755)
    for f in (module, pkg / "__init__.py", pkg / "errors.py"):
        os.chmod(f, 0o644)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "pkg")}
    python, kwargs = sys.executable, {}
    if os.geteuid() == 0:  # root ignores file modes: run as nobody, with a Python nobody may run (the module needs only the stdlib)
        python, kwargs = shutil.which("python3", path="/usr/bin:/usr/local/bin") or sys.executable, {"user": 65534, "group": 65534}
    try:
        r = subprocess.run([python, "-c", _READONLY_RUN, str(folder), str(module)], capture_output=True, text=True, env=env, timeout=60, cwd="/", **kwargs)
    except PermissionError:
        pytest.skip("running as root, and user nobody cannot run a Python here")
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(tmp_path, ignore_errors=True)
    assert 0 == r.returncode, r.stderr
    assert "Traceback" not in r.stderr
    assert "without the cache" in r.stdout or "not cached" in r.stdout
    assert not (folder / "citeproof.sqlite.broken").exists()


def test_payload_with_an_extra_key_is_a_miss(tmp_path):
    src = tmp_path / "s.md"
    src.write_text("# Title\n\nThe trial enrolled 400 adults.\n")
    cache = Cache(tmp_path / "c")
    first = load_source("k", src, "test", cache)
    from citeproof.sources.text import TEXT_PARSER_VERSION

    parser = TEXT_PARSER_VERSION + ":" + first.media_type
    hit = cache.get(first.sha256, parser)
    hit["passages"][0]["from_a_newer_version"] = 1
    cache.put(first.sha256, parser, hit)
    again = load_source("k", src, "test", cache)
    assert [p.text for p in first.passages] == [p.text for p in again.passages]
    assert again.error is None


def test_damaged_embeddings_database_is_rebuilt(tmp_path):
    import numpy as np

    from citeproof.retrieval.dense import DIM, VectorCache

    v = VectorCache(tmp_path / "embeddings.sqlite")
    v.put("s", "m", [(i, f"text {i}", np.full(DIM, i, dtype=np.float32)) for i in range(300)])
    v.close()
    _checkpoint(tmp_path / "embeddings.sqlite")
    _damage_after_header(tmp_path / "embeddings.sqlite")
    v2 = VectorCache(tmp_path / "embeddings.sqlite")
    got = v2.get("s", "m", ["text 1", "text 2"])
    assert all(g is None or g.shape == (DIM,) for g in got)
    v2.put("s", "m", [(0, "new", np.ones(DIM, dtype=np.float32))])
    assert 1.0 == float(v2.get("s", "m", ["new"])[0][0])
    assert any("damaged" in w for w in v2.warnings)


def test_embeddings_database_of_garbage_and_folder(tmp_path):
    from citeproof.retrieval.dense import VectorCache

    (tmp_path / "a.sqlite").write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)
    v = VectorCache(tmp_path / "a.sqlite")
    assert [None] == v.get("s", "m", ["x"])
    (tmp_path / "b.sqlite").mkdir()
    w = VectorCache(tmp_path / "b.sqlite")
    assert [None] == w.get("s", "m", ["x"]) and any("is a folder" in x for x in w.warnings)


def test_check_with_a_locked_or_damaged_cache_exits_0(tmp_path):
    doc, bib = _doc_with_source(tmp_path, "The treatment reduced mortality by 12 percent [@k].\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "citeproof.sqlite").mkdir()
    (cache / "embeddings.sqlite").write_bytes(b"not a database at all" * 50)
    r = runner.invoke(app, ["check", str(doc), "--bib", str(bib), "--cache-dir", str(cache), "-q", "--out", str(tmp_path / "o")])
    assert 0 == r.exit_code, r.output
    assert "is a folder" in r.output


# --- citing PDFs -------------------------------------------------------------------------


def _citing_pdf_bytes() -> bytes:
    import pymupdf

    doc = pymupdf.open()
    body = [
        "Introduction",
        "Mortality fell by a third in the treated group [1].",
        "The effect held in older adults as well [2].",
        "References",
        "[1] Doe J. A trial of statins. Lancet. 2001;357:1-9.",
        "[2] Roe K. Statins in the elderly. BMJ. 2003;326:2-8.",
    ]
    for page_text in (body[:3], body[3:]):
        page = doc.new_page()
        for i, line in enumerate(page_text):
            page.insert_text((72, 100 + 18 * i), line, fontsize=11)
    return doc.tobytes()


def test_truncated_citing_pdf_is_read_with_a_repair_diagnostic(tmp_path):
    from citeproof.readers.pdf import read_pdf

    full = _citing_pdf_bytes()
    p = tmp_path / "cut.pdf"
    p.write_bytes(full[: int(len(full) * 0.85)])  # the xref table and trailer are gone
    doc = read_pdf(p)
    assert doc.pages >= 1 and doc.claims
    repaired = [d for d in doc.diagnostics if d.code == "pdf-repaired"]
    assert 1 == len(repaired) and "MuPDF repaired it" in repaired[0].message and str(p) in repaired[0].message
    whole = tmp_path / "whole.pdf"
    whole.write_bytes(full)
    assert [] == [d for d in read_pdf(whole).diagnostics if d.code == "pdf-repaired"]


def test_pdf_with_no_pages_says_so(tmp_path):
    """Bug: a 0-page PDF was reported as 'no text layer (scanned?)'."""
    p = tmp_path / "empty.pdf"
    p.write_bytes(b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
    r = runner.invoke(app, ["check", str(p), "--no-cache", "-q"])
    assert 2 == r.exit_code
    assert "has no pages" in r.output and "scanned" not in r.output


def test_pdf_with_a_broken_page_tree_is_an_input_error(tmp_path):
    """Found by make fuzz: FzErrorFormat 'malformed page tree' escaped read_pdf (10 of 800 mutated citing PDFs)."""
    from citeproof.errors import InputError
    from citeproof.readers.pdf import read_pdf

    p = tmp_path / "tree.pdf"
    p.write_bytes(_citing_pdf_bytes().replace(b"/Kids", b"/Xids"))
    with pytest.raises(InputError, match="MuPDF cannot read its pages"):
        read_pdf(p)


def test_pdf_whose_page_count_cannot_be_read_is_an_input_error_and_a_source_error(tmp_path):
    """Found by the fuzz test (session 20): a page tree whose /Count exceeds its kids made PyMuPDF's ``page_count``
    raise "Invalid number of pages" out of read_pdf. As a citing PDF it is an input error naming the file; as a cited
    source, a parse error a user can act on (one ``unverifiable`` finding)."""
    import re

    from citeproof.errors import InputError
    from citeproof.readers.pdf import read_pdf
    from citeproof.sources.pdf import parse_pdf, pdf_metadata

    data = _citing_pdf_bytes()
    assert re.search(rb"/Count 2\b", data)
    p = tmp_path / "count.pdf"
    p.write_bytes(re.sub(rb"/Count 2\b", b"/Count 22", data, count=1))
    with pytest.raises(InputError, match=r"count\.pdf: the PDF is damaged and MuPDF cannot read its page tree"):
        read_pdf(p)
    parsed = parse_pdf(p.read_bytes())
    assert parsed.passages == [] and "page tree cannot be read" in parsed.error
    title, doi, error = pdf_metadata(p.read_bytes())
    assert (title, doi) == ("", "") and "pages cannot be read" in error


def test_a_lone_surrogate_in_a_csl_title_is_judged_and_cached(tmp_path):
    """``"\\ud800"`` is valid JSON: the judgement cache's key (``judgecache._digest``) encoded it as strict UTF-8 and the
    run ended in a traceback. Now it is judged, cached and re-used."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    (tmp_path / "trial.md").write_text("# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n")
    (tmp_path / "refs.json").write_text('[{"id": "trial", "type": "article-journal", "title": "A trial \\ud800", "file": "trial.md"}]')
    (tmp_path / "d.md").write_text("Daily vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n")
    args = ["check", str(tmp_path / "d.md"), "--bib", str(tmp_path / "refs.json"), "--tier", "lexical", "-q", "--format", "json",
            "--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")]
    for _ in range(2):
        r = CliRunner().invoke(app, args)
        assert 0 == r.exit_code, r.output
    data = json.loads((tmp_path / "o" / "d.citeproof.json").read_text("utf-8"))
    assert "supported" == data["findings"][0]["verdict"] and 1 == data["metadata"]["judgement_cache"]["reused"]


def test_reports_are_as_readable_as_any_file_the_user_writes(tmp_path):
    """The atomic writes (a temporary file replaced into place) left every report 0600 whatever the umask: a new user's
    reports, a CI artifact, a web server's files could not be read by anyone else."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    (tmp_path / "d.md").write_text("Cats sleep a lot [@k].\n")
    (tmp_path / "r.bib").write_text("@article{k, title={Cats}, year={2020}}\n")
    old = os.umask(0o022)
    try:
        r = CliRunner().invoke(app, ["check", str(tmp_path / "d.md"), "--bib", str(tmp_path / "r.bib"), "--tier", "lexical", "-q",
                                     "--no-cache", "--format", "json,md,html", "--out", str(tmp_path / "o")])
    finally:
        os.umask(old)
    assert 0 == r.exit_code, r.output
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "o").iterdir()}
    assert modes == {"d.citeproof.json": 0o644, "d.citeproof.md": 0o644, "d.citeproof.html": 0o644}
