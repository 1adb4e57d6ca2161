"""Issue 18, the web page: private jobs, Host/Origin checks, headers, streamed limits, bad zips as 400s."""

from __future__ import annotations

import io
import re
import socket
import zipfile

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart")
from fastapi.testclient import TestClient  # noqa: E402

import hostile  # noqa: E402
from citeproof.web.app import create_app  # noqa: E402
from citeproof.web.jobs import Limits  # noqa: E402
from report_samples import shared_cache  # noqa: E402

LOCAL = "http://127.0.0.1"
MD = b"The moon is made of green cheese [@moon].\n"
BIB = hostile.BIB


@pytest.fixture()
def app(tmp_path):
    return create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache())


@pytest.fixture()
def client(app):
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def _upload(client, **headers):
    files = [("document", ("draft.md", MD, "text/markdown")), ("bib", ("refs.bib", BIB, "text/plain"))]
    return client.post("/jobs", files=files, headers={"Accept": "application/json", **headers})


def test_jobs_are_not_listed(client, app):
    """``/`` shows no one's jobs: a job is reached only through its own link."""
    r = _upload(client)
    assert 201 == r.status_code, r.text
    job_id = r.json()["id"]
    app.state.jobs.wait(job_id, timeout=120)
    page = client.get("/").text
    assert job_id not in page and "Recent jobs" not in page
    assert 200 == client.get(f"/jobs/{job_id}").status_code
    assert 32 == len(job_id)


def test_single_user_server_lists_jobs(tmp_path):
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache(), single_user=True)
    with TestClient(app, base_url=LOCAL) as c:
        job_id = _upload(c).json()["id"]
        app.state.jobs.wait(job_id, timeout=120)
        assert job_id in c.get("/").text


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io"])
def test_foreign_host_is_refused(app, host):
    """DNS rebinding: a request naming another host is refused, whatever address it reached."""
    with TestClient(app, base_url=f"http://{host}") as c:
        r = c.get("/")
        assert 400 == r.status_code and "Host" in r.json()["error"]
        assert 400 == _upload(c).status_code


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_loopback_hosts_are_served(app, host):
    with TestClient(app, base_url=f"http://{host}") as c:
        assert 200 == c.get("/").status_code


def test_allowed_host_option(tmp_path):
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache(), allowed_hosts=["citeproof.lan"])
    with TestClient(app, base_url="http://citeproof.lan:8000") as c:
        assert 200 == c.get("/").status_code
    with TestClient(app, base_url=LOCAL) as c:
        assert 400 == c.get("/").status_code


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"}, {"Origin": "http://127.0.0.1:9999"}, {"Sec-Fetch-Site": "cross-site"}])
def test_cross_origin_post_is_refused(client, app, headers):
    """CSRF: a form on another site cannot start a job; nothing is stored."""
    r = _upload(client, **headers)
    assert 403 == r.status_code and "another site" in r.json()["error"]
    assert [] == list(app.state.jobs.root.iterdir())


def test_same_origin_post_is_accepted(client):
    assert 201 == _upload(client, Origin=LOCAL, **{"Sec-Fetch-Site": "same-origin"}).status_code


def test_security_headers(client, app):
    r = client.get("/")
    assert "frame-ancestors 'self'" in r.headers["content-security-policy"] and "default-src 'self'" in r.headers["content-security-policy"]
    assert ("SAMEORIGIN", "nosniff", "same-origin") == (r.headers["x-frame-options"], r.headers["x-content-type-options"], r.headers["referrer-policy"])
    job_id = _upload(client).json()["id"]
    state = app.state.jobs.wait(job_id, timeout=120)
    for url in (f"/jobs/{job_id}", f"/jobs/{job_id}/status", f"/jobs/{job_id}/files/out/{state['reports']['html']}", "/jobs/" + "0" * 32):
        assert "SAMEORIGIN" == client.get(url).headers["x-frame-options"], url


def test_error_log_and_state_are_not_served(client, app):
    """A failed job's traceback stays in the server's log: /files/ serves the uploads and reports only."""
    job_id = _upload(client).json()["id"]
    app.state.jobs.wait(job_id, timeout=120)
    folder = app.state.jobs.root / job_id
    (folder / "error.log").write_text("Traceback (most recent call last):\n  File \"/srv/secret/path.py\"\n")
    for rel in ("error.log", "state.json", "./error.log", "out/../error.log", "input/%00x", "input/" + "a" * 300):
        r = client.get(f"/jobs/{job_id}/files/{rel}")
        assert 404 == r.status_code, rel
    assert 200 == client.get(f"/jobs/{job_id}/files/input/draft.md").status_code


def test_internal_error_is_logged_not_shown(client, app, monkeypatch, caplog):
    """An unexpected exception in a job: the page gets its kind, the traceback goes to the log."""
    import citeproof.pipeline

    def boom(*a, **k):
        raise KeyError("/srv/private/thing")

    monkeypatch.setattr(citeproof.pipeline, "check", boom)
    job_id = _upload(client).json()["id"]
    state = app.state.jobs.wait(job_id, timeout=120)
    assert "failed" == state["status"] and "KeyError" in state["error"] and "/srv/private" not in state["error"]
    assert "Traceback" not in client.get(f"/jobs/{job_id}").text
    assert any("job " + job_id in r.getMessage() and r.exc_info for r in caplog.records)


def _rest_of_response(conn, head: bytes) -> bytes:
    """Read from ``conn`` until the HTTP response begun in ``head`` is complete (its headers, then Content-Length
    bytes of body), or the server closes; returns what was read after ``head``."""
    got = b""
    conn.settimeout(10)
    while True:
        data = head + got
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            m = re.search(rb"(?im)^content-length:\s*(\d+)", data[:end])
            if m is None or len(data) - (end + 4) >= int(m.group(1)):
                return got
        try:
            more = conn.recv(65536)
        except (socket.timeout, ConnectionResetError):
            return got
        if not more:
            return got
        got += more


def test_chunked_upload_is_cut_off_while_streaming(tmp_path):
    """A chunked body (no Content-Length) over the limit is answered 413 while it streams, not after all of it arrived.

    A real server on 127.0.0.1 (the test client buffers bodies): 12 MiB are
    offered against a 1 MiB limit; the answer must come before the client
    has sent them all, and no job is stored.
    """
    import socket
    import threading
    import time

    import uvicorn

    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache(), limits=Limits(max_file_bytes=1 << 20, max_total_bytes=1 << 20, max_files=10))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if server.started:
                break
            time.sleep(0.1)
        assert server.started
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(
            f"POST /jobs HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n"
            "Content-Type: multipart/form-data; boundary=xyzzy\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        )

        def chunk(data: bytes) -> bytes:
            return b"%x\r\n" % len(data) + data + b"\r\n"

        conn.sendall(chunk(b'--xyzzy\r\nContent-Disposition: form-data; name="document"; filename="draft.md"\r\nContent-Type: text/markdown\r\n\r\n'))
        conn.setblocking(False)
        sent, answer = 0, b""
        deadline = time.monotonic() + 120  # a bound, not a timing: a server that neither reads nor answers fails the test
        while sent < 12 << 20 and not answer and time.monotonic() < deadline:
            try:
                answer = conn.recv(65536)
            except BlockingIOError:
                pass
            try:
                conn.send(chunk(b"x" * 65536))
                sent += 65536
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                time.sleep(0.01)
        conn.setblocking(True)
        answer += _rest_of_response(conn, answer)  # the 413's head and its body may come in separate packets (issue 31, part 7)
        conn.close()
    finally:
        server.should_exit = True
        thread.join(20)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"limit" in answer
    assert sent < 12 << 20  # answered while the body was still coming
    assert [] == list((tmp_path / "jobs").iterdir())


@pytest.mark.parametrize(
    ("name", "make", "words"),
    [
        ("corrupt", hostile.corrupt_zip, "damaged"),
        ("crc", hostile.crc_failing_zip, "damaged"),
        ("deflate64", hostile.deflate64_zip, "compression"),
        ("encrypted", hostile.encrypted_zip, "encrypted"),
        ("long name", hostile.long_name_zip, "longer than"),
        ("file and folder", hostile.file_and_folder_zip, "as a file and as a folder"),
    ],
)
def test_bad_zip_is_a_400_with_a_message(client, app, name, make, words):
    r = client.post("/jobs", files={"document": ("upload.zip", make(), "application/zip")}, headers={"Accept": "application/json"})
    assert 400 == r.status_code, (name, r.status_code, r.text)
    assert words in r.json()["error"], r.json()
    assert [] == list(app.state.jobs.root.iterdir())


def test_nul_in_paths_is_a_400(client):
    r = client.post("/jobs", files={"document": ("upload.zip", _zip({"draft.md": MD, "refs.bib": BIB}), "application/zip")},
                    data={"document_path": "draft.md\x00.pdf"}, headers={"Accept": "application/json"})
    assert 400 == r.status_code and "control character" in r.json()["error"]
    assert 404 == client.get("/jobs/%00/status").status_code


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for n, d in members.items():
            zf.writestr(n, d)
    return buf.getvalue()


def test_report_size_is_capped(tmp_path):
    """A report over ``Limits.max_report_bytes`` fails the job with the reason instead of filling the disk."""
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=shared_cache(), limits=Limits(max_report_bytes=2000))
    with TestClient(app, base_url=LOCAL) as c:
        job_id = _upload(c).json()["id"]
        state = app.state.jobs.wait(job_id, timeout=120)
    assert "failed" == state["status"] and "larger than the limit" in state["error"]
    assert all(p.stat().st_size <= 2000 for p in (tmp_path / "jobs" / job_id / "out").iterdir())


@pytest.mark.slow
def test_sigterm_stops_a_busy_server_and_marks_jobs_interrupted(tmp_path):
    """While a billion-laughs PDF is being parsed the status page still answers; SIGTERM then ends the server
    within seconds (a bound, not a timing) and the job says it was interrupted."""
    import json
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    import httpx

    from report_samples import ROOT

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CITEPROOF_CACHE_DIR": str(shared_cache()), "CITEPROOF_PARSE_TIMEOUT": "600"}
    proc = subprocess.Popen([sys.executable, "-m", "citeproof.cli", "serve", "--port", str(port), "--jobs-dir", str(tmp_path / "jobs")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            assert proc.poll() is None, proc.stdout.read()
            try:
                if 200 == httpx.get(base + "/", timeout=1).status_code:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        files = [("document", ("draft.md", b"Laughter is contagious [@laughs].\n", "text/markdown")),
                 ("sources", ("laughs.pdf", hostile.billion_laughs_pdf(), "application/pdf"))]
        r = httpx.post(base + "/jobs", files=files, headers={"Accept": "application/json"}, timeout=30)
        assert 201 == r.status_code, r.text
        job_id = r.json()["id"]
        for _ in range(600):
            s = httpx.get(f"{base}/jobs/{job_id}/status", timeout=10).json()
            if s["status"] == "running":
                break
            time.sleep(0.1)
        time.sleep(3)  # MuPDF is expanding the page now, in the worker
        assert 200 == httpx.get(f"{base}/jobs/{job_id}/status", timeout=10).status_code
        assert 200 == httpx.get(base + "/", timeout=10).status_code
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    state = json.loads((tmp_path / "jobs" / job_id / "state.json").read_text())
    assert "failed" == state["status"] and "interrupted" in state["error"], state
