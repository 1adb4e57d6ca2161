"""The web page serves nothing a browser will run, names no server path, and keeps no leftovers (issue 31,
parts 3 and 5): a real app behind Starlette's test client, real uploads and jobs."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from citeproof.readers.latex_files import bundle_scope, extract_bundle  # noqa: E402
from citeproof.reports.html import script_hashes  # noqa: E402
from citeproof.web.app import create_app  # noqa: E402
from report_samples import shared_cache  # noqa: E402

LOCAL = "http://127.0.0.1"
DRAFT = (b"Daily vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n\n"
         b"Vitamin K cured scurvy in sailors on long voyages [@trial].\n")
BIB = b"@article{trial, title={A trial of vitamin D}, year={2019}, file={sources/trial.md}}\n"
TRIAL = b"# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n"
EVIL_CSL = b'<?xml version="1.0"?><style xmlns="http://purl.org/net/xbiblio/csl"><script xmlns="http://www.w3.org/1999/xhtml">alert(document.domain)</script></style>'
EVIL_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
LATEX = Path(__file__).parent / "data" / "latex"


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """(app, client, job id, jobs folder) of one finished job from a zip holding hostile side files."""
    jobs = tmp_path_factory.mktemp("jobs")
    app = create_app(jobs_dir=jobs, cache_dir=shared_cache())
    with TestClient(app, base_url=LOCAL) as c:
        z = _zip({"draft.md": DRAFT, "refs.bib": BIB, "sources/trial.md": TRIAL, "evil.csl": EVIL_CSL, "evil.svg": EVIL_SVG,
                  "page.html": b"<script>alert(1)</script>", "paper.pdf": b"%PDF-1.4 <script>alert(1)</script>", "pic.png": b"\x89PNG<html><script>alert(1)</script>"})
        r = c.post("/jobs", files={"document": ("upload.zip", z, "application/zip")}, headers={"Accept": "application/json"})
        assert 201 == r.status_code, r.text
        job_id = r.json()["id"]
        state = app.state.jobs.wait(job_id, timeout=120)
        assert "done" == state["status"], state
        yield app, c, job_id, jobs


@pytest.mark.parametrize("name", ["evil.csl", "evil.svg", "page.html", "draft.md", "refs.bib"])
def test_uploaded_text_is_served_as_plain_text(job, name):
    _app, c, job_id, _ = job
    r = c.get(f"/jobs/{job_id}/files/input/{name}")
    assert 200 == r.status_code
    assert "text/plain; charset=utf-8" == r.headers["content-type"] and "nosniff" == r.headers["x-content-type-options"]


@pytest.mark.parametrize("name", ["paper.pdf", "pic.png"])
def test_other_uploads_are_downloads(job, name):
    _app, c, job_id, _ = job
    r = c.get(f"/jobs/{job_id}/files/input/{name}")
    assert 200 == r.status_code and "application/octet-stream" == r.headers["content-type"]
    assert r.headers["content-disposition"].startswith("attachment") and "nosniff" == r.headers["x-content-type-options"]


def test_the_report_is_html_and_its_scripts_run_by_hash(job):
    _app, c, job_id, _ = job
    state = c.get(f"/jobs/{job_id}/status").json()
    r = c.get(f"/jobs/{job_id}/files/out/{state['reports']['html']}")
    assert r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    script_src = re.search(r"script-src ([^;]*)", csp).group(1)
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    bodies = re.findall(r"<script>(.*?)</script>", r.text, re.S)
    assert len(bodies) == 2
    for body in bodies:  # every inline script of the served report is allowed by its hash, nothing else is
        digest = "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        assert digest in script_src
    assert sorted(script_hashes()) == sorted(s for s in script_src.split() if s.startswith("'sha256-"))


def test_the_job_page_has_no_inline_script(job):
    _app, c, job_id, _ = job
    for page in ("/", f"/jobs/{job_id}"):
        html = c.get(page).text
        assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html), page
    js = c.get("/static/job.js")
    assert 200 == js.status_code and js.headers["content-type"].startswith("text/javascript") and "data-status-url" in js.text
    assert 404 == c.get("/static/../app.py").status_code and 404 == c.get("/static/other.js").status_code


def test_reports_and_reviews_name_no_server_path(job):
    app, c, job_id, jobs = job
    state = c.get(f"/jobs/{job_id}/status").json()
    server_paths = {str(jobs), str(Path(jobs).resolve()), str(shared_cache()), tempfile.gettempdir() + "/"}
    texts = {fmt: c.get(f"/jobs/{job_id}/report.{fmt}").text for fmt in ("json", "md", "sarif", "html")}
    report = json.loads(texts["json"])
    fid = report["findings"][0]["id"]
    review = c.post(f"/jobs/{job_id}/review", content=json.dumps({"finding": fid, "decision": "genuine", "note": "ok"}), headers={"Content-Type": "application/json"})
    assert 200 == review.status_code
    texts["review"] = review.text
    texts["status"] = json.dumps(state)
    for name, text in texts.items():
        for p in server_paths:
            assert p not in text, (name, p)
    assert "draft.md" == report["findings"][0]["document"] and "sources/trial.md" == report["findings"][0]["source"]
    assert "draft.md" == review.json()["decisions"][fid]["document"]


def test_api_description_only_with_debug(tmp_path):
    with TestClient(create_app(jobs_dir=tmp_path / "j"), base_url=LOCAL) as c:
        assert 404 == c.get("/openapi.json").status_code and 404 == c.get("/docs").status_code and 404 == c.get("/redoc").status_code
    with TestClient(create_app(jobs_dir=tmp_path / "j", debug=True), base_url=LOCAL) as c:
        assert 200 == c.get("/openapi.json").status_code and "/jobs" in c.get("/openapi.json").json()["paths"]
        assert 200 == c.get("/docs").status_code


def _review_tmp(jobs: Path, job_id: str) -> list[Path]:
    return sorted((jobs / job_id / "out").glob("*.tmp"))


@pytest.mark.parametrize("body", [
    b'{"finding": "F", "decision": "genuine", "note": "\\ud800"}',
    b'{"finding": "\\udfff", "decision": "genuine"}',
    b"[" * 100_000,
    b'{"finding": ' * 50_000,
    b'{"finding": "F", "decision": "genuine", "note": "' + b"\xff\xfe" + b'"}',
])
def test_hostile_review_bodies_are_400_and_leave_nothing(job, body):
    _app, c, job_id, jobs = job
    fid = c.get(f"/jobs/{job_id}/report.json").json()["findings"][0]["id"]
    before = c.get(f"/jobs/{job_id}/review").json()
    r = c.post(f"/jobs/{job_id}/review", content=body.replace(b'"F"', json.dumps(fid).encode()), headers={"Content-Type": "application/json"})
    assert 400 == r.status_code, r.text
    assert "error" in r.json()
    assert [] == _review_tmp(jobs, job_id)
    assert before == c.get(f"/jobs/{job_id}/review").json()


def test_a_bundle_job_removes_its_unpacked_folder(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where mkdtemp puts citeproof-tex-*
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name in ("paper.tex", "refs.bib", "sections/methods.tex", "sections/discussion.tex"):
            data = (LATEX / name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache())
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/jobs", files={"document": ("2101.00001.tar.gz", buf.getvalue(), "application/gzip")}, headers={"Accept": "application/json"})
        assert 201 == r.status_code, r.text
        state = app.state.jobs.wait(r.json()["id"], timeout=120)
        assert "done" == state["status"], state
        assert [] == sorted(scratch.glob("citeproof-tex-*"))
        report = c.get(f"/jobs/{state['id']}/report.json").text
        assert str(scratch) not in report and "2101.00001.tar.gz/paper.tex" in report  # the document named inside its bundle


def test_shutdown_removes_running_jobs_bundles(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    bundle = tmp_path / "b.tar.gz"
    with tarfile.open(bundle, "w:gz") as tar:
        tar.add(LATEX / "paper.tex", arcname="paper.tex")
    app = create_app(jobs_dir=tmp_path / "jobs")
    store = app.state.jobs
    with bundle_scope() as made:  # as a running job holds it
        folder = extract_bundle(bundle)
        store._bundles["0" * 32] = made
        assert folder.is_dir()
        store.shutdown()
        assert not folder.exists()
    assert [] == sorted(scratch.glob("citeproof-tex-*"))


def test_a_lone_surrogate_in_an_upload_is_escaped_and_reports_are_written_whole(tmp_path):
    """The web job wrote its reports with ``Path.write_text``: an upload whose CSL-JSON title holds a lone surrogate
    (``"\\ud800"``, valid JSON) failed the whole job with UnicodeEncodeError, and a failed write could leave half a
    report. Now the reports go through the CLI's ``make_utf8_safe`` and ``write_file``."""
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache())
    draft = b"Daily vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n"
    csl = b'[{"id": "trial", "type": "article-journal", "title": "A trial of vitamin D \\ud800", "issued": {"date-parts": [[2019]]}}]'
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/jobs", files=[("document", ("draft.md", draft, "text/markdown")), ("bib", ("refs.json", csl, "application/json")),
                                   ("sources", ("trial.md", TRIAL, "text/markdown"))], headers={"Accept": "application/json"})
        assert 201 == r.status_code, r.text
        state = app.state.jobs.wait(r.json()["id"], timeout=120)
        assert "done" == state["status"] and ["bib/refs.json"] == state["bibliographies"], (state, [p.read_text()[-1500:] for p in (tmp_path / "jobs").rglob("error.log")])
        out = tmp_path / "jobs" / r.json()["id"]
        written = sorted(p.name for p in out.rglob("*.citeproof.*"))
        assert {"draft.citeproof.json", "draft.citeproof.html", "draft.citeproof.md"} <= set(written)
        assert not list(out.rglob("*.tmp"))
        data = json.loads((next(out.rglob("draft.citeproof.json"))).read_text("utf-8"))  # valid UTF-8 JSON
        assert data["works"]["trial"]["reference"]["title"] == "A trial of vitamin D \\ud800"  # escaped, as the CLI writes it
