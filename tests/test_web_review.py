"""Triage decisions on the web page, kept on the server per job (issue 15, part 1 on the web)."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart")
from fastapi.testclient import TestClient  # noqa: E402

from citeproof.reports.review import load_review  # noqa: E402
from citeproof.web.app import create_app  # noqa: E402
from citeproof.web.review import ReviewError, load_job_review  # noqa: E402
from report_samples import shared_cache  # noqa: E402

LOCAL = "http://127.0.0.1"
DRAFT = (b"Daily vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n\n"
         b"Vitamin K cured scurvy in sailors on long voyages [@trial].\n")
BIB = b"@article{trial, title={A trial of vitamin D}, year={2019}}\n"
TRIAL = b"# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n"


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """(app, client, job id, JSON report) of one finished two-citation job."""
    app = create_app(jobs_dir=tmp_path_factory.mktemp("jobs"), cache_dir=shared_cache())
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/jobs", files=[("document", ("draft.md", DRAFT, "text/markdown")), ("bib", ("refs.bib", BIB, "text/plain")),
                                   ("sources", ("trial.md", TRIAL, "text/markdown"))], headers={"Accept": "application/json"})
        assert 201 == r.status_code, r.text
        job_id = r.json()["id"]
        assert "done" == app.state.jobs.wait(job_id, timeout=90)["status"]
        report = c.get(f"/jobs/{job_id}/report.json").json()
        yield app, c, job_id, report


def _finding(report, word):
    return next(f for f in report["findings"] if word in f["claim"])


def _say(client, job_id, body, **headers):
    return client.post(f"/jobs/{job_id}/review", content=json.dumps(body), headers={"Content-Type": "application/json", **headers})


def test_saved_decision_is_seen_by_another_browser(job):
    app, c, job_id, report = job
    fid = _finding(report, "scurvy")["id"]
    r = _say(c, job_id, {"finding": fid, "decision": "genuine", "note": "the trial says nothing of scurvy"}, Origin=LOCAL)
    assert 200 == r.status_code, r.text
    with TestClient(app, base_url=LOCAL) as other:  # no shared state but the server
        got = other.get(f"/jobs/{job_id}/review").json()
    d = got["decisions"][fid]
    assert ("genuine", "the trial says nothing of scurvy", "trial", "unsupported") == (d["decision"], d["note"], d["citekey"], d["verdict"])
    assert "Vitamin K cured scurvy" in d["claim"]  # copied from the report, not from the request
    # the file is the review sidecar the CLI reads
    side = app.state.jobs.folder(job_id) / "out" / "draft.citeproof.review.json"
    assert "genuine" == load_review(side)[fid]["decision"]


def test_null_withdraws_a_decision(job):
    _app, c, job_id, report = job
    fid = _finding(report, "hip fractures")["id"]
    assert 200 == _say(c, job_id, {"finding": fid, "decision": "false_alarm", "note": ""}).status_code
    assert fid in c.get(f"/jobs/{job_id}/review").json()["decisions"]
    assert 200 == _say(c, job_id, {"finding": fid, "decision": None}).status_code
    assert fid not in c.get(f"/jobs/{job_id}/review").json()["decisions"]


def test_cross_site_post_is_refused(job):
    _app, c, job_id, report = job
    fid = _finding(report, "scurvy")["id"]
    r = _say(c, job_id, {"finding": fid, "decision": "accepted"}, Origin="http://evil.example")
    assert 403 == r.status_code
    r = _say(c, job_id, {"finding": fid, "decision": "accepted"}, **{"Sec-Fetch-Site": "cross-site"})
    assert 403 == r.status_code
    # a plain form post (what a cross-site form could send without a preflight) is not JSON
    r = c.post(f"/jobs/{job_id}/review", data={"finding": fid, "decision": "accepted"})
    assert 415 == r.status_code
    assert "accepted" != c.get(f"/jobs/{job_id}/review").json()["decisions"].get(fid, {}).get("decision")


@pytest.mark.parametrize("body, status, says", [
    ({"finding": "0" * 16, "decision": "genuine"}, 404, "no finding"),
    ({"finding": "FID", "decision": "maybe"}, 400, "decision must be one of genuine, false_alarm, accepted"),
    ({"finding": "FID", "decision": "genuine", "note": "x" * 2001}, 400, "at most 2000 characters"),
    (["not", "an", "object"], 400, '{"finding"'),
])
def test_bad_decisions_are_refused_with_the_reason(job, body, status, says):
    _app, c, job_id, report = job
    if isinstance(body, dict) and body["finding"] == "FID":
        body = {**body, "finding": _finding(report, "scurvy")["id"]}
    r = _say(c, job_id, body)
    assert status == r.status_code and says in r.json()["error"]


def test_not_json_is_refused(job):
    _app, c, job_id, _report = job
    r = c.post(f"/jobs/{job_id}/review", content=b"{nope", headers={"Content-Type": "application/json"})
    assert 400 == r.status_code and "not JSON" in r.json()["error"]


def test_unknown_job_is_404(job):
    _app, c, _job_id, _report = job
    assert 404 == c.get("/jobs/" + "a" * 32 + "/review").status_code


def test_report_page_knows_where_to_save(job):
    _app, c, job_id, _report = job
    html = c.get(f"/jobs/{job_id}/report.html").text
    config = json.loads(re.search(r'<script type="application/json" id="report-config">(.*?)</script>', html).group(1))
    assert f"/jobs/{job_id}/review" == config["review_url"]  # read by the report's (hashed, value-free) script
    assert f'href="/jobs/{job_id}/review"' in c.get(f"/jobs/{job_id}").text


def test_job_without_report_has_nothing_to_review(tmp_path):
    with pytest.raises(ReviewError) as e:
        load_job_review(tmp_path, {"status": "running", "document": "draft.md", "reports": {}})
    assert 409 == e.value.status_code
