"""The web page's "look the cited works up online" checkbox (issue 12), against the loopback services."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
sys.path.insert(0, str(Path(__file__).parent))

from fastapi.testclient import TestClient  # noqa: E402
from online_world import BIB, DRAFT, web  # noqa: E402,F401 (web: the shared fixture)

from citeproof.web.app import create_app  # noqa: E402



def _run_job(client, online: bool) -> dict:
    files = [("document", ("draft.md", DRAFT.encode(), "text/markdown")), ("bib", ("refs.bib", BIB.encode(), "application/x-bibtex"))]
    r = client.post("/jobs", files=files, data={"online": "true"} if online else {}, headers={"Accept": "application/json"})
    assert r.status_code == 201, r.text
    url = r.json()["url"]
    for _ in range(600):  # bounded: at most 60 s
        state = client.get(url + "/status").json()
        if state["status"] in ("done", "failed"):
            return state
        time.sleep(0.1)
    raise AssertionError("the job did not finish")


def test_checkbox_is_on_the_page_and_off_by_default(tmp_path):
    with TestClient(create_app(jobs_dir=tmp_path / "jobs", cache_dir=tmp_path / "cache"), base_url="http://127.0.0.1") as c:
        page = c.get("/").text
    assert '<input type="checkbox" id="online" name="online" value="true"' in page and "checked" not in page.split('id="online"')[1].split(">")[0]


def test_a_server_not_started_with_allow_online_fetches_nothing(web, tmp_path, monkeypatch):
    """issue 31: online mode is the operator's choice (serve --allow-online); the checkbox says when it is off."""
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)
    before = len(web.all_requests())
    with TestClient(create_app(jobs_dir=tmp_path / "jobs", cache_dir=tmp_path / "cache"), base_url="http://127.0.0.1") as c:
        page = c.get("/").text
        box = page.split('id="online"')[1].split(">")[0]
        assert "disabled" in box and "Online lookups are off on this server" in page and "--allow-online" in page
        files = [("document", ("draft.md", DRAFT.encode(), "text/markdown")), ("bib", ("refs.bib", BIB.encode(), "application/x-bibtex"))]
        r = c.post("/jobs", files=files, data={"online": "true"}, headers={"Accept": "application/json"})
        assert 403 == r.status_code and "--allow-online" in r.json()["error"]
        r = c.post("/jobs", files=files, data={"online": "true"})  # the form: the page again, with the reason
        assert 403 == r.status_code and "online lookups are off" in r.text
        assert [] == list((tmp_path / "jobs").iterdir())  # no job was made
    assert len(web.all_requests()) == before
    with TestClient(create_app(jobs_dir=tmp_path / "jobs2", cache_dir=tmp_path / "cache", allow_online=True), base_url="http://127.0.0.1") as c:
        page = c.get("/").text
        assert "disabled" not in page.split('id="online"')[1].split(">")[0] and "Online lookups are off" not in page


def test_online_job_looks_works_up_and_an_offline_one_does_not(web, tmp_path, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("CITEPROOF_EMAIL", "me@uni.edu")
    with TestClient(create_app(jobs_dir=tmp_path / "jobs", cache_dir=tmp_path / "cache", allow_online=True), base_url="http://127.0.0.1") as c:
        before = len(web.all_requests())
        plain = _run_job(c, online=False)
        assert plain["status"] == "done" and plain["online"] is False
        assert len(web.all_requests()) == before
        state = _run_job(c, online=True)
        assert state["status"] == "done" and state["online"] is True
        report = json.loads(c.get(f"/jobs/{state['id']}/report.json").content)
    assert report["metadata"]["online"]["works"]["wakefield"]["retracted"] is True
    assert report["findings"][0]["tags"][0]["name"] == "retracted_source"
    assert any("mailto:me@uni.edu" in r.headers["User-Agent"] for r in web.all_requests()[before:])
