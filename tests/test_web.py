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
LOCAL = "http://127.0.0.1"
"""The test client's address: the server answers only to loopback Host names (DNS rebinding)."""


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
    with TestClient(app, base_url=LOCAL) as c:
        yield c


@pytest.fixture(scope="module")
def demo(tmp_path_factory, cache_dir):
    """(client, app, job id, final state) of one demo upload, shared by the tests that only read it."""
    app = create_app(jobs_dir=tmp_path_factory.mktemp("demo-jobs"), cache_dir=cache_dir)
    with TestClient(app, base_url=LOCAL) as c:
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
        with TestClient(create_app(jobs_dir=app.state.jobs.root, cache_dir=cache_dir, single_user=True), base_url=LOCAL) as c2:
            assert "done" == c2.get(f"/jobs/{job_id}/status").json()["status"]
            assert 200 == c2.get(f"/jobs/{job_id}").status_code
            assert job_id in c2.get("/").text  # listed: the server says it is single-user


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
        """A document of no kind citeproof reads (an .rtf) is refused with 415."""
        r = _post(client, {"document": ("draft.rtf", b"{\\rtf1 Falls are common.}", "application/rtf")})
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
        with TestClient(app, base_url=LOCAL) as c:
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
        with TestClient(app, base_url=LOCAL) as c:
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


# -- LaTeX and PDF citing documents ------------------------------------------

LATEX = Path(__file__).parent / "data" / "latex"
MANUBOT = Path(__file__).parent.parent / "examples" / "manubot"


def _source_pdf(title: str, body: str) -> bytes:
    """A small one-page source PDF made with PyMuPDF."""
    fitz = pytest.importorskip("fitz")
    doc = fitz.open()
    page = doc.new_page()
    page.insert_textbox(fitz.Rect(72, 72, 520, 760), f"{title}\n\n{body}", fontsize=11)
    data = doc.tobytes()
    doc.close()
    return data


SMITH_PDF_TEXT = (
    "Deep nets are accurate",
    (
        "We show that deep nets are accurate on every benchmark we tried. The protocol follows earlier work, with changes; "
        "parenthetical forms of citation work too."
    ),
)


def _latex_members() -> dict[str, bytes]:
    return {
        "paper.tex": (LATEX / "paper.tex").read_bytes(),
        "refs.bib": (LATEX / "refs.bib").read_bytes(),
        "sections/methods.tex": (LATEX / "sections" / "methods.tex").read_bytes(),
        "sections/discussion.tex": (LATEX / "sections" / "discussion.tex").read_bytes(),
    }


def _assert_latex_job(client, app, job_id: str, document: str) -> dict:
    s = app.state.jobs.wait(job_id, timeout=60)
    assert "done" == s["status"], s
    assert document == s["document"]
    # tests/data/latex/paper.tex has 26 citations of 3 works; only smith2020 has a source (10 of them)
    assert (26, 3, 1, []) == (s["summary"]["citations"], s["summary"]["citekeys"], s["summary"]["sources_available"], s["summary"]["unknown_citekeys"])
    findings = client.get(f"/jobs/{job_id}/report.json").json()["findings"]
    assert 26 == len(findings)
    assert 10 == sum(1 for f in findings if f["citekey"] == "smith2020" and f["source"])
    accurate = next(f for f in findings if f["claim"] == "Deep nets are accurate.")
    assert ("smith2020", 10, "supported") == (accurate["citekey"], accurate["line"], accurate["verdict"])
    assert "paper.tex" == accurate["document"].rsplit("/", 1)[-1]
    return s


def test_latex_zip_with_its_bib_and_a_source(client, app):
    """A zip of a LaTeX paper (\\input sections, \\bibliography{refs}) and a source PDF named by citekey."""
    members = {**_latex_members(), "cited/smith2020.pdf": _source_pdf(*SMITH_PDF_TEXT)}
    r = _post(client, {"document": ("paper.zip", _zip(members), ZIP)})
    assert 201 == r.status_code, r.text
    s = _assert_latex_job(client, app, r.json()["id"], "paper.tex")
    assert [] == s["bibliographies"]  # the document's own \bibliography{refs} is used, as the CLI does without --bib
    assert ["cited"] == s["source_dirs"]
    assert "paper.citeproof.html" == s["reports"]["html"]


def test_latex_file_with_bib_and_source_as_files(client, app):
    """A .tex uploaded directly, with its .bib and a source as separate files."""
    tex = b"\\documentclass{article}\n\\begin{document}\nDeep nets are accurate \\cite{smith2020}.\nAnd footnotes \\cite{jones2019}.\n\\bibliography{refs}\n\\end{document}\n"
    r = _post(client, [
        ("document", ("draft.tex", tex, "application/x-tex")),
        ("bib", ("refs.bib", (LATEX / "refs.bib").read_bytes(), "text/plain")),
        ("sources", ("smith2020.pdf", _source_pdf(*SMITH_PDF_TEXT), "application/pdf")),
    ])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=60)
    assert "done" == s["status"], s
    assert ("draft.tex", ["bib/refs.bib"], ["sources"]) == (s["document"], s["bibliographies"], s["source_dirs"])
    findings = client.get(f"/jobs/{s['id']}/report.json").json()["findings"]
    assert [("jones2019", 4, "unverifiable"), ("smith2020", 3, "supported")] == sorted((f["citekey"], f["line"], f["verdict"]) for f in findings)


def test_arxiv_bundle(client, app):
    """An arXiv .tar.gz source bundle is read as LaTeX with its own .bib; the reports are named after the bundle."""
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in _latex_members().items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    r = _post(client, [("document", ("2101.00001.tar.gz", buf.getvalue(), "application/gzip")), ("sources", ("smith2020.pdf", _source_pdf(*SMITH_PDF_TEXT), "application/pdf"))])
    assert 201 == r.status_code, r.text
    s = _assert_latex_job(client, app, r.json()["id"], "2101.00001.tar.gz")
    assert "2101.00001.citeproof.html" == s["reports"]["html"]


def test_bundle_limits(jobs_dir, cache_dir):
    """A bundle that unpacks past the job limit, or is no gzip, is refused and leaves nothing behind."""
    import tarfile

    app = create_app(jobs_dir=jobs_dir, cache_dir=cache_dir, limits=Limits(max_file_bytes=20_000, max_total_bytes=50_000, max_files=10))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("paper.tex")
        info.size = 200_000
        tar.addfile(info, io.BytesIO(b"%" * 200_000))
    assert len(buf.getvalue()) < 20_000  # small compressed, large unpacked
    with TestClient(app, base_url=LOCAL) as c:
        r = _post(c, {"document": ("b.tar.gz", buf.getvalue(), "application/gzip")})
        assert 413 == r.status_code and "unpacked" in r.json()["error"]
        r = _post(c, {"document": ("b.tgz", b"\\documentclass{article}", "application/gzip")})
        assert 415 == r.status_code and "not a gzip" in r.json()["error"]
    assert [] == _job_dirs(jobs_dir)


def test_latex_upload_cannot_read_outside_the_job(client, app, tmp_path):
    """\\input and \\bibliography naming files outside the upload are not read into the report."""
    secret = tmp_path / "secret.tex"
    secret.write_text("The launch code is 0000 \\cite{smith2020}.\n")
    (tmp_path / "secret.bib").write_text("@misc{smith2020, title={Secret title}}\n")
    tex = f"\\documentclass{{article}}\n\\begin{{document}}\nDeep nets are accurate \\cite{{smith2020}}.\n\\input{{{secret}}}\n\\bibliography{{{tmp_path / 'secret'}}}\n\\end{{document}}\n"
    r = _post(client, [("document", ("d.tex", tex.encode(), "application/x-tex")), ("sources", ("smith2020.pdf", _source_pdf(*SMITH_PDF_TEXT), "application/pdf"))])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=60)
    assert "done" == s["status"], s
    data = client.get(f"/jobs/{s['id']}/report.json").json()
    assert ["Deep nets are accurate."] == [f["claim"] for f in data["findings"]]
    assert "launch code" not in json.dumps(data) and "Secret title" not in json.dumps(data)
    assert any(d["code"] == "tex-include-outside" for d in data["diagnostics"])


def _manubot_sources() -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("sources", (p.name, p.read_bytes(), "application/octet-stream")) for p in sorted((MANUBOT / "cited").iterdir())]


def _assert_meta_review_pdf(client, s: dict) -> None:
    """The citing PDF's printed references, matched to the local sources by title: as `citeproof check meta-review.pdf --sources cited/`."""
    assert "done" == s["status"], s
    assert (116, 7) == (s["summary"]["citations"], s["summary"]["sources_available"])
    verdicts = {k: v for k, v in s["summary"]["verdicts"].items() if v}
    # 103 markers cite works without a local file; the 13 judged ones depend on the tiers installed.
    assert 103 == verdicts.pop("unverifiable") and 13 == sum(verdicts.values())
    findings = client.get(f"/jobs/{s['id']}/report.json").json()["findings"]
    # reference 7 is the Git introduction; supported or partial, as in test_git_intro_supports_line_404 (the
    # judge's confidence sits at the 0.70 line there)
    best = next(f for f in findings if f["citekey"] == "7" and f["verdict"] in ("supported", "partial")
                and f["source"].endswith("blischak2016-git-github.pdf"))
    assert 5 == best["location"]["page"] and best["evidence"]["page"] in (1, 10)  # introduction or glossary, as in test_git_intro_supports_line_404
    assert "version control" in best["evidence"]["text"].lower()
    assert "meta-review.citeproof.html" == s["reports"]["html"]


def test_citing_pdf_with_sources_as_files(client, app):
    """A citing PDF uploaded directly is checked against its printed reference list, no .bib needed."""
    r = _post(client, [("document", ("meta-review.pdf", (MANUBOT / "citing" / "meta-review.pdf").read_bytes(), "application/pdf"))] + _manubot_sources())
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=120)
    assert ([], ["sources"]) == (s["bibliographies"], s["source_dirs"])
    _assert_meta_review_pdf(client, s)


def test_citing_pdf_in_a_zip_is_named(client, app):
    """A PDF in a zip is a source unless 'path inside the zip' names it; named, it is the citing document."""
    members = {"citing/meta-review.pdf": (MANUBOT / "citing" / "meta-review.pdf").read_bytes()}
    members.update({f"cited/{p.name}": p.read_bytes() for p in sorted((MANUBOT / "cited").glob("*.pdf"))})
    r = _post(client, {"document": ("paper.zip", _zip(members), ZIP)})
    assert 400 == r.status_code and "path inside the zip" in r.json()["error"] and "citing/meta-review.pdf" in r.json()["error"]
    # with the Markdown source too (it cites with [@key]) and the PDF named, the PDF is the document
    members.update({f"cited/{p.name}": p.read_bytes() for p in sorted((MANUBOT / "cited").glob("*.md"))})
    r = _post(client, {"document": ("paper.zip", _zip(members), ZIP)}, document_path="citing/meta-review.pdf")
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=120)
    assert ("citing/meta-review.pdf", ["cited"]) == (s["document"], s["source_dirs"])
    _assert_meta_review_pdf(client, s)


def test_find_document_latex_and_pdf(tmp_path):
    """A zip's LaTeX main file is found; a README.md without citations does not compete; a PDF is never guessed."""
    from citeproof.web.jobs import find_document

    (tmp_path / "README.md").write_text("How to build the paper.\n")
    (tmp_path / "sections").mkdir()
    (tmp_path / "sections" / "intro.tex").write_text("Text \\cite{a}.\n")
    (tmp_path / "paper.tex").write_text("% \\documentclass in a comment only\n\\begin{document}\\input{sections/intro}\\end{document}\n")
    (tmp_path / "cited.pdf").write_bytes(b"%PDF-1.4\n")
    with pytest.raises(UploadError, match="no LaTeX.*path inside the zip"):
        find_document(tmp_path, [])
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\n\\begin{document}\\input{sections/intro}\\end{document}\n")
    assert tmp_path / "paper.tex" == find_document(tmp_path, [])
    (tmp_path / "notes.md").write_text("A claim [@a].\n")
    with pytest.raises(UploadError, match="Markdown and LaTeX"):
        find_document(tmp_path, [])
    assert (tmp_path / "cited.pdf").resolve() == find_document(tmp_path, [], "cited.pdf")
    # a .txt is a citing document the CLI reads (the Markdown reader), so naming one is accepted (issue 29/30)
    assert (tmp_path / "README.txt").resolve() == find_document(tmp_path, [], "README.txt" if (tmp_path / "README.txt").write_text("x") else "")
    with pytest.raises(UploadError, match="cannot be the citing document"):
        find_document(tmp_path, [], "table.csv" if (tmp_path / "table.csv").write_text("x") else "")


def test_bib_file_field_cannot_read_outside_the_job(client, app, tmp_path):
    """An uploaded .bib naming an absolute or ../ path outside its job folder is not read."""
    secret = tmp_path / "secret.txt"
    secret.write_text("Sci-Hub provides access to nearly all scholarly literature, says the server secret.\n")
    md = b"Sci-Hub provides access to nearly all scholarly literature [@a]. Again [@b].\n"
    bib = ("@article{a, title={A}, file={" + str(secret) + "}}\n@article{b, title={B}, file={../../../../" + secret.name + "}}\n").encode()
    r = _post(client, [("document", ("draft.md", md, "text/markdown")), ("bib", ("refs.bib", bib, "text/plain"))])
    assert 201 == r.status_code, r.text
    job = r.json()["id"]
    s = app.state.jobs.wait(job, timeout=60)
    assert "done" == s["status"], s
    assert 0 == s["summary"]["sources_available"]
    reports = "".join(p.read_text("utf-8", errors="replace") for p in (app.state.jobs.root / job).rglob("*.citeproof.*"))
    assert "server secret" not in reports


def test_word_documents_are_uploaded_like_the_others(client, app):
    """A .docx with Zotero fields needs no .bib (its fields are the bibliography); an .odt too; a .docx that is not a zip is refused."""
    import tempfile

    from test_docx import SMITH, _docx, _field, _p, _run, _zotero

    with tempfile.TemporaryDirectory() as tmp:
        body = _p(_run("Daily vitamin D reduced hip fractures by 22 percent in women over 70 "), _field(_zotero([(SMITH, {})]), "(Smith et al., 2020)"), _run("."))
        docx = _docx(Path(tmp) / "paper.docx", body).read_bytes()
    source = b"# Vitamin D and hip fractures in older women\n\nIn 2,686 women over 70, daily vitamin D reduced hip fractures by 22 percent over five years.\n"
    r = _post(client, [("document", ("paper.docx", docx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document")),
                       ("sources", ("smith2020.md", source, "text/markdown"))])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=60)
    assert ("done", "paper.docx", [], ["sources"]) == (s["status"], s["document"], s["bibliographies"], s["source_dirs"]), s
    assert (1, 1) == (s["summary"]["citations"], s["summary"]["sources_available"])
    report = client.get(f"/jobs/{r.json()['id']}/report.json")
    found = report.json()["findings"][0]
    # a paraphrase (word order changed): supported needs the judge's confirmation, partial otherwise (issue 28); the
    # upload is what this test is about, so either verdict on line 1 with the sentence as evidence passes
    assert found["verdict"] in ("supported", "partial") and 1 == found["line"] and "22 percent" in found["evidence"]["text"]
    zipped = _post(client, {"document": ("paper.zip", _zip({"paper.docx": docx, "sources/smith2020.md": source}), ZIP)}, document_path="paper.docx")
    assert 201 == zipped.status_code, zipped.text
    assert "done" == app.state.jobs.wait(zipped.json()["id"], timeout=60)["status"]
    fake = _post(client, [("document", ("paper.docx", b"Daily vitamin D [@smith2020].\n", "application/octet-stream"))])
    assert 415 == fake.status_code and "'paper.docx' is named .docx but is not a Word file" in fake.json()["error"]
    name = _zotero([(SMITH, {})])[len("ADDIN "):].replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;") + " RNDa8d3kq"
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>Daily vitamin D reduced hip fractures '
               f'by 22 percent in women over 70 <text:reference-mark-start text:name="{name}"/>(Smith et al., 2020)<text:reference-mark-end text:name="{name}"/>.'
               '</text:p></office:text></office:body></office:document-content>')
    odt = _zip({"mimetype": b"application/vnd.oasis.opendocument.text", "content.xml": content.encode()})
    r = _post(client, [("document", ("paper.odt", odt, "application/vnd.oasis.opendocument.text")), ("sources", ("smith2020.md", source, "text/markdown"))])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=60)
    assert ("done", 1, 1) == (s["status"], s["summary"]["citations"], s["summary"]["sources_available"]), s


def test_office_sources_are_uploaded_like_pdfs(client, app, tmp_path):
    """A source uploaded as .docx is read (citeproof.sources.office) and judged; a fake one is refused by content."""
    pypandoc = pytest.importorskip("pypandoc")
    src = tmp_path / "fees.docx"
    pypandoc.convert_text("# Fees\n\nExpense ratios of equity mutual funds fell by about 40 percent between 2000 and 2020.\n",
                          "docx", format="markdown", outputfile=str(src))
    md = b"Expense ratios of equity mutual funds fell by about 40 percent between 2000 and 2020 [@fees].\n"
    bib = b"@article{fees, title={Fees}, year={2021}}\n"
    r = _post(client, [("document", ("draft.md", md, "text/markdown")), ("bib", ("refs.bib", bib, "text/plain")),
                       ("sources", ("fees.docx", src.read_bytes(), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"))])
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=120)
    assert "done" == s["status"], s
    assert (1, 1, 1) == (s["summary"]["citations"], s["summary"]["sources_available"], s["summary"]["verdicts"]["supported"])
    bad = _post(client, [("document", ("draft.md", md, "text/markdown")), ("bib", ("refs.bib", bib, "text/plain")),
                         ("sources", ("fees.pptx", b"just text", "application/octet-stream"))])
    assert 415 == bad.status_code and "not a PowerPoint file" in bad.text
