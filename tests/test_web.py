"""The web page (issue 6): uploads, background jobs, reports, and no path escaping a job folder."""

from __future__ import annotations

import io
import json
import stat
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart")
from fastapi.testclient import TestClient  # noqa: E402

from citeproof.web.app import create_app  # noqa: E402
from citeproof.web.jobs import Limits, UploadError, safe_join, safe_name  # noqa: E402
from report_samples import DEMO, demo_zip_bytes, shared_cache  # noqa: E402

ZIP = "application/zip"


@pytest.fixture(scope="module")
def cache_dir():
    """The session's parse cache: the demo's PDFs are parsed once."""
    return shared_cache()


@pytest.fixture()
def jobs_dir(tmp_path):
    return tmp_path / "jobs"


@pytest.fixture()
def app(jobs_dir, cache_dir):
    return create_app(jobs_dir=jobs_dir, cache_dir=cache_dir)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def demo(tmp_path_factory, cache_dir):
    """(client, app, job id, final state) of one demo upload, shared by the tests that only read it."""
    app = create_app(jobs_dir=tmp_path_factory.mktemp("demo-jobs"), cache_dir=cache_dir)
    with TestClient(app) as c:
        r = c.post("/jobs", files={"document": ("demo.zip", demo_zip_bytes(), ZIP)}, follow_redirects=False)
        assert 303 == r.status_code, r.text
        job_id = r.headers["location"].rsplit("/", 1)[1]
        yield c, app, job_id, app.state.jobs.wait(job_id, timeout=90)


def _zip(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name), data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, target)
    return buf.getvalue()


def _post(client, files, **data):
    return client.post("/jobs", files=files, data=data, headers={"Accept": "application/json"})


def _job_dirs(jobs_dir: Path) -> list[Path]:
    return [p for p in jobs_dir.iterdir() if p.is_dir()] if jobs_dir.exists() else []


class TestDemoUpload:
    @pytest.fixture()
    def done(self, demo):
        return demo[2], demo[3]

    @pytest.fixture()
    def client(self, demo):
        return demo[0]

    def test_runs_and_offers_reports(self, client, done):
        """The zip's document is found, the job finishes, the page frames the report and offers downloads."""
        job_id, state = done
        assert "done" == state["status"], state
        assert "citing/meta-review.md" == state["document"]
        assert ["meta-review.bib"] == state["bibliographies"]
        page = client.get(f"/jobs/{job_id}").text
        assert f'src="/jobs/{job_id}/files/out/meta-review.citeproof.html"' in page
        for fmt in ("json", "sarif", "md"):
            assert f'href="/jobs/{job_id}/report.{fmt}"' in page
        sarif = client.get(f"/jobs/{job_id}/report.sarif")
        assert 200 == sarif.status_code and "attachment" in sarif.headers["content-disposition"]
        log = sarif.json()
        data = client.get(f"/jobs/{job_id}/report.json").json()
        assert len(data["findings"]) == len(log["runs"][0]["results"]) == state["summary"]["citations"]
        # paths in SARIF are relative to the upload, not the server's folders
        assert "citing/meta-review.md" == log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]

    def test_report_links_open_the_uploaded_pdf(self, client, done):
        """A page link in the framed report resolves to the uploaded PDF in the same job."""
        job_id, state = done
        html = client.get(f"/jobs/{job_id}/files/out/{state['reports']['html']}").text
        assert "citing/meta-review.md:" in html and "/jobs/" not in html.split("<main", 1)[1][:200]
        import re

        href = re.search(r'class="source-link" href="([^"#]+\.pdf)#page=\d+"', html).group(1)
        assert href.startswith("../input/cited/")
        r = client.get(f"/jobs/{job_id}/files/out/{href}")
        assert 200 == r.status_code and r.content.startswith(b"%PDF-")

    def test_status_json(self, client, done):
        """The polling endpoint gives status and progress, uncached."""
        job_id, _ = done
        r = client.get(f"/jobs/{job_id}/status")
        assert "no-store" == r.headers["cache-control"]
        s = r.json()
        assert ("done", 125, 125) == (s["status"], s["done"], s["total"])

    def test_survives_a_restart(self, demo, cache_dir):
        """A new app on the same jobs folder still serves the job (state on disk)."""
        _, app, job_id, _ = demo
        with TestClient(create_app(jobs_dir=app.state.jobs.root, cache_dir=cache_dir)) as c2:
            assert "done" == c2.get(f"/jobs/{job_id}/status").json()["status"]
            assert 200 == c2.get(f"/jobs/{job_id}").status_code
            assert job_id in c2.get("/").text


def test_markdown_with_bib_and_sources_as_files(client, app, tmp_path):
    """Without a zip: the .md, the .bib and a source PDF (named by citekey) as separate uploads."""
    md = b"Sci-Hub provides access to nearly all scholarly literature [@scihub].\n"
    bib = b"@article{scihub, title={Sci-Hub provides access to nearly all scholarly literature}, year={2018}}\n"
    pdf = (DEMO / "cited" / "himmelstein2018-scihub.pdf").read_bytes()
    r = _post(client, [("document", ("draft.md", md, "text/markdown")), ("bib", ("refs.bib", bib, "text/plain")), ("sources", ("scihub.pdf", pdf, "application/pdf"))])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=60)
    assert "done" == s["status"], s
    assert 1 == s["summary"]["citations"] and 1 == s["summary"]["sources_available"]


def _small_zip() -> bytes:
    md = b"Sci-Hub provides access to nearly all scholarly literature [@scihub].\n"
    bib = b"@article{scihub, title={Sci-Hub}, year={2018}, file={cited/scihub.pdf}}\n"
    return _zip({"draft.md": md, "refs.bib": bib, "cited/scihub.pdf": (DEMO / "cited" / "himmelstein2018-scihub.pdf").read_bytes()})


def test_several_jobs_at_once(client, app):
    """Three jobs submitted together all finish, each in its own folder."""
    ids = [_post(client, {"document": ("small.zip", _small_zip(), ZIP)}).json()["id"] for _ in range(3)]
    assert 3 == len(set(ids))
    for i in ids:
        s = app.state.jobs.wait(i, timeout=120)
        assert "done" == s["status"], s
        assert 1 == s["summary"]["sources_available"]
        assert (app.state.jobs.root / i / "input" / "cited" / "scihub.pdf").is_file()


class TestZipSlip:
    @pytest.mark.parametrize(
        "name",
        ["../evil.md", "../../evil.md", "/tmp/evil.md", "a/../../evil.md", "..\\evil.md", "C:/evil.md", "C:\\evil.md"],
    )
    def test_member_paths_that_escape_are_refused(self, client, jobs_dir, tmp_path, name):
        """A zip with a member outside the job folder is refused whole; nothing is written anywhere."""
        data = _zip({"doc.md": b"A claim [@k].\n", "refs.bib": b"@misc{k, title={x}}\n", name: b"pwned"})
        r = _post(client, {"document": ("up.zip", data, ZIP)})
        assert 400 == r.status_code, r.text
        assert "leave the job folder" in r.json()["error"]
        assert [] == _job_dirs(jobs_dir)
        assert not (tmp_path / "evil.md").exists() and not (jobs_dir / "evil.md").exists()
        assert not Path("/tmp/evil.md").exists()

    def test_symlink_members_are_refused(self, client, jobs_dir):
        """A zip member that is a symbolic link is refused."""
        data = _zip({"doc.md": b"A claim [@k].\n", "refs.bib": b"@misc{k, title={x}}\n"}, links={"cited/k.pdf": "/etc/passwd"})
        r = _post(client, {"document": ("up.zip", data, ZIP)})
        assert 400 == r.status_code and "symbolic link" in r.json()["error"]
        assert [] == _job_dirs(jobs_dir)

    def test_upload_file_names_are_reduced_to_a_base_name(self, client, app):
        """A source uploaded as '../../x.pdf' lands in the job's sources folder as x.pdf."""
        pdf = (DEMO / "cited" / "himmelstein2018-scihub.pdf").read_bytes()
        r = _post(client, [("document", ("../../draft.md", b"Text [@x].\n", "text/markdown")), ("sources", ("../../x.pdf", pdf, "application/pdf"))])
        assert 201 == r.status_code, r.text
        folder = app.state.jobs.root / r.json()["id"]
        assert (folder / "input" / "sources" / "x.pdf").is_file() and (folder / "input" / "draft.md").is_file()
        app.state.jobs.wait(r.json()["id"], timeout=60)

    def test_files_route_stays_in_the_job(self, demo):
        """/jobs/{id}/files/... serves nothing outside the job folder, nor its state file."""
        client, app, job_id, _ = demo
        (app.state.jobs.root / "secret.txt").write_text("secret")
        for rel in ("..%2Fsecret.txt", "%2E%2E/secret.txt", "state.json", "..%2F..%2Fetc%2Fpasswd"):
            r = client.get(f"/jobs/{job_id}/files/{rel}")
            assert 404 == r.status_code, rel
        assert 404 == client.get("/jobs/not-a-job/status").status_code
        assert 404 == client.get("/jobs/" + "0" * 32).status_code

    def test_safe_join(self, tmp_path):
        """safe_join keeps ordinary nested paths and refuses escaping ones."""
        assert tmp_path.resolve() / "a" / "b.pdf" == safe_join(tmp_path, "a/./b.pdf")
        for bad in ("../x", "/x", "a/../../x", "C:x", "..\\x"):
            with pytest.raises(UploadError):
                safe_join(tmp_path, bad)
        outside = tmp_path.parent / "outside"
        outside.mkdir(exist_ok=True)
        (tmp_path / "link").symlink_to(outside)
        with pytest.raises(UploadError):
            safe_join(tmp_path, "link/x")

    def test_safe_name(self):
        """Upload names keep only their last part and safe characters."""
        assert "passwd" == safe_name("../../etc/passwd")
        assert "a_b.pdf" == safe_name("C:\\x\\a b.pdf")
        with pytest.raises(UploadError):
            safe_name("..")


class TestRefusals:
    def test_wrong_document_type(self, client):
        """A document that is neither Markdown nor a zip is refused with 415."""
        r = _post(client, {"document": ("draft.docx", b"PK..", "application/octet-stream")})
        assert 415 == r.status_code and "Markdown" in r.json()["error"]

    def test_fake_pdf(self, client):
        """A 'PDF' that is not one is refused."""
        r = _post(client, [("document", ("d.md", b"x [@k]\n", "text/markdown")), ("sources", ("k.pdf", b"hello", "application/pdf"))])
        assert 415 == r.status_code and "not a PDF" in r.json()["error"]

    def test_fake_zip(self, client):
        """A .zip that is not one is refused."""
        r = _post(client, {"document": ("d.zip", b"not a zip", ZIP)})
        assert 415 == r.status_code

    def test_too_big(self, jobs_dir, cache_dir):
        """Files over the size limit get 413 and leave nothing behind."""
        app = create_app(jobs_dir=jobs_dir, cache_dir=cache_dir, limits=Limits(max_file_bytes=1000, max_total_bytes=5000, max_files=10))
        with TestClient(app) as c:
            r = _post(c, {"document": ("d.md", b"x" * 2000, "text/markdown")})
            assert 413 == r.status_code
            # a zip bomb-ish member: small compressed, large uncompressed
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr("d.md", "x [@k]\n")
                zf.writestr("refs.bib", "@misc{k,title={x}}\n")
                zf.writestr("big.txt", "a" * 100_000)
            r = _post(c, {"document": ("d.zip", buf.getvalue(), ZIP)})
            assert 413 == r.status_code, r.text
            r = _post(c, {"document": ("d.zip", _zip({f"f{i}.md": b"x" for i in range(20)}), ZIP)})
            assert 413 == r.status_code
        assert [] == _job_dirs(jobs_dir)

    def test_declared_size_over_limit(self, jobs_dir, cache_dir):
        """A request whose Content-Length is over the job limit is refused before it is read."""
        app = create_app(jobs_dir=jobs_dir, cache_dir=cache_dir, limits=Limits(max_file_bytes=1000, max_total_bytes=1000, max_files=10))
        with TestClient(app) as c:
            r = _post(c, {"document": ("d.md", b"x" * (2 * 1024 * 1024), "text/markdown")})
            assert 413 == r.status_code and "limit" in r.json()["error"]

    def test_uploaded_html_is_served_as_text(self, client, app):
        """An uploaded HTML source is served as text/plain, so it never runs in the page's origin."""
        r = _post(client, [("document", ("d.md", b"x [@k]\n", "text/markdown")), ("sources", ("k.html", b"<script>alert(1)</script>", "text/html"))])
        job_id = r.json()["id"]
        app.state.jobs.wait(job_id, timeout=60)
        got = client.get(f"/jobs/{job_id}/files/input/sources/k.html")
        assert got.headers["content-type"].startswith("text/plain") and "nosniff" == got.headers["x-content-type-options"]

    def test_nothing_to_check_against(self, client):
        """A lone Markdown file (no bibliography, no sources) is refused with a reason."""
        r = _post(client, {"document": ("d.md", b"x [@k]\n", "text/markdown")})
        assert 400 == r.status_code and "bibliography" in r.json()["error"]

    def test_html_form_error_is_shown(self, client):
        """Without Accept: JSON, a refused upload re-renders the form with the reason."""
        r = client.post("/jobs", files={"document": ("d.exe", b"MZ", "application/octet-stream")})
        assert 415 == r.status_code and 'role="alert"' in r.text and "Markdown" in r.text


def test_failed_job_keeps_its_reason(client, app):
    """A document the pipeline cannot read ends as a failed job with the reason, not a crash."""
    r = _post(client, [("document", ("d.md", b"x [@k]\n", "text/markdown")), ("bib", ("r.bib", b"@misc{k, title={x}}\n", "text/plain"))])
    job_id = r.json()["id"]
    s = app.state.jobs.wait(job_id, timeout=60)
    assert "done" == s["status"], s  # a one-citation job runs fine
    (app.state.jobs.root / job_id / "input" / "d.md").unlink()
    app.state.jobs._pool.submit(app.state.jobs._run, job_id).result(timeout=60)
    s = app.state.jobs.state(job_id)
    assert "failed" == s["status"] and s["error"]
    assert "The job failed" in client.get(f"/jobs/{job_id}").text


def test_interrupted_jobs_are_marked_failed(jobs_dir, cache_dir):
    """A job left 'running' by a stopped server is marked failed when the app starts again."""
    folder = jobs_dir / ("a" * 32)
    folder.mkdir(parents=True)
    (folder / "state.json").write_text(json.dumps({"id": "a" * 32, "status": "running", "created": "x", "document": "d.md"}))
    app = create_app(jobs_dir=jobs_dir, cache_dir=cache_dir)
    s = app.state.jobs.state("a" * 32)
    assert "failed" == s["status"] and "interrupted" in s["error"]


def test_find_document_skips_markdown_sources(tmp_path):
    """A Markdown file a .bib entry names as its source is not taken for the citing document."""
    from citeproof.web.jobs import find_document

    (tmp_path / "draft.md").write_text("One claim [@a].\n")
    (tmp_path / "cited").mkdir()
    (tmp_path / "cited" / "paper.md").write_text("[@x] [@y] [@z] and @w says so.\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={A}, file = {cited/paper.md}}\n")
    assert tmp_path / "draft.md" == find_document(tmp_path, [bib])
    assert (tmp_path / "cited" / "paper.md").resolve() == find_document(tmp_path, [bib], "cited/paper.md")
    with pytest.raises(UploadError):
        find_document(tmp_path, [bib], "../x.md")


def test_serve_command(tmp_path):
    """`citeproof serve` listens on 127.0.0.1, takes an upload and finishes the job (no browser needed)."""
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    from report_samples import ROOT

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CITEPROOF_CACHE_DIR": str(shared_cache())}
    proc = subprocess.Popen(
        [sys.executable, "-m", "citeproof.cli", "serve", "--port", str(port), "--jobs-dir", str(tmp_path / "jobs")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                if 200 == httpx.get(base + "/", timeout=1).status_code:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "serve did not answer in 30 s"
            time.sleep(0.1)
        r = httpx.post(base + "/jobs", files={"document": ("small.zip", _small_zip(), ZIP)}, headers={"Accept": "application/json"}, timeout=30)
        assert 201 == r.status_code, r.text
        status_url = base + r.json()["url"] + "/status"
        while (s := httpx.get(status_url, timeout=5).json())["status"] not in ("done", "failed"):
            assert time.monotonic() < deadline + 60
            time.sleep(0.1)
        assert "done" == s["status"], s
        assert "2.1.0" == httpx.get(base + r.json()["url"] + "/report.sarif", timeout=5).json()["version"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
