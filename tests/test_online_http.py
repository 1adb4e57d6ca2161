"""The polite HTTP layer against injected faults on a loopback server (issue 12, part 5)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from online_server import FakeWeb, bytes_reply, json_reply, sequence  # noqa: E402
from online_world import make_pdf  # noqa: E402

from citeproof.model import Verdict  # noqa: E402
from citeproof.pipeline import CheckOptions, check  # noqa: E402
from citeproof.sources.online import crossref  # noqa: E402
from citeproof.sources.online.http import OnlineSettings, PoliteHTTP  # noqa: E402


@pytest.fixture(scope="module")
def _servers():
    w = FakeWeb()
    yield w
    w.stop()


@pytest.fixture()
def web(_servers, monkeypatch):
    _servers.reset()
    for k, v in _servers.env.items():
        monkeypatch.setenv(k, v)
    return _servers


def fast(tmp_path, **kw) -> PoliteHTTP:
    s = OnlineSettings(email="me@uni.edu", timeout_s=kw.pop("timeout_s", 2.0), backoff_s=0.01, **kw)
    return PoliteHTTP(s, tmp_path / "cache")


class FakeClock:
    """Stands in for the ``time`` module of the HTTP layer: a still clock whose sleeps are recorded, not slept."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return 100.0

    def sleep(self, s: float) -> None:
        self.slept.append(round(s, 3))

    def time(self) -> float:
        return time.time()


@pytest.fixture()
def clock(monkeypatch):
    from citeproof.sources.online import http as http_mod

    c = FakeClock()
    monkeypatch.setattr(http_mod, "time", c)
    return c


def test_429_with_retry_after_is_honoured_then_succeeds(web, tmp_path, clock):
    web["files"].routes["/a"] = sequence(lambda r: (429, {"Retry-After": "7", "Content-Type": "text/plain"}, b"slow down"), json_reply({"ok": 1}))
    http = fast(tmp_path)
    f = http.get(web["files"].url + "/a")
    assert f.ok and f.json() == {"ok": 1}
    assert http.requests_made == 2 and len(web["files"].requests) == 2
    assert 7.0 in clock.slept  # waited what the service asked, not the 0.01 s backoff


def test_retry_after_beyond_the_cap_gives_up_with_the_reason(web, tmp_path):
    web["files"].routes["/a"] = lambda r: (429, {"Retry-After": "3600"}, b"")
    f = fast(tmp_path).get(web["files"].url + "/a")
    assert not f.ok and "asked to wait 3600 s" in f.error
    assert len(web["files"].requests) == 1


def test_500_is_retried_with_backoff_and_not_cached(web, tmp_path):
    web["files"].routes["/a"] = lambda r: (500, {"Content-Type": "text/plain"}, b"oops")
    http = fast(tmp_path, retries=2)
    f = http.get(web["files"].url + "/a")
    assert f.status == 500 and f.error.endswith("HTTP 500 after 3 tries")
    assert len(web["files"].requests) == 3
    http.get(web["files"].url + "/a")
    assert len(web["files"].requests) == 6  # a failure is never served from the cache


def test_timeout_is_a_stated_failure(web, tmp_path):
    def stall(req):
        time.sleep(1.5)
        return 200, {"Content-Type": "application/json"}, b"{}"

    web["files"].routes["/slow"] = stall
    f = fast(tmp_path, timeout_s=0.3, retries=1).get(web["files"].url + "/slow")
    assert not f.ok and "timed out after 0.3 s (2 tries)" in f.error


def test_malformed_json_is_a_reason_not_a_crash(web, tmp_path):
    web["crossref"].routes["/works/10.1000/x"] = bytes_reply(b'{"status": "ok", "message": {"DOI": ', "application/json")
    rec, why = crossref.work_by_doi(fast(tmp_path), "10.1000/x")
    assert rec is None and "malformed JSON" in why


def test_redirect_loop(web, tmp_path):
    web["files"].routes["/loop"] = lambda r: (302, {"Location": "loop2"}, b"")
    web["files"].routes["/loop2"] = lambda r: (302, {"Location": "loop"}, b"")
    f = fast(tmp_path).get(web["files"].url + "/loop")
    assert not f.ok and "redirect loop" in f.error
    assert len(web["files"].requests) == 6  # the first request and 5 redirects followed, no more


def test_oversize_body_is_refused(web, tmp_path):
    web["files"].routes["/big"] = bytes_reply(b"%PDF" + b"0" * 300_000, "application/pdf")
    f = fast(tmp_path, max_bytes=100_000).get(web["files"].url + "/big")
    assert not f.ok and "larger than the 100,000-byte cap" in f.error and f.body == b""


def test_oversize_without_content_length_is_cut_while_streaming(web, tmp_path):
    web["files"].routes["/nolength"] = lambda r: (200, {"Content-Type": "application/octet-stream", "X-Omit-Length": "1"}, b"x" * 300_000)
    f = fast(tmp_path, max_bytes=1000).get(web["files"].url + "/nolength")
    assert not f.ok and "larger than the 1,000-byte cap" in f.error


def test_cache_key_leaves_the_email_out_and_a_hit_sends_nothing(web, tmp_path):
    web["files"].routes["/w"] = json_reply({"v": 2})
    http = fast(tmp_path)
    assert http.get(web["files"].url + "/w", {"q": "1", "mailto": "me@uni.edu"}).ok
    again = PoliteHTTP(OnlineSettings(email="other@x.org"), tmp_path / "cache").get(web["files"].url + "/w", {"q": "1", "mailto": "other@x.org"})
    assert again.from_cache and again.json() == {"v": 2}
    assert len(web["files"].requests) == 1


def test_cache_key_keeps_the_urls_own_query():
    """Two PDFs behind one path (``download?id=1`` / ``?id=2``) are two cache entries (they were one)."""
    a = PoliteHTTP.cache_key("https://repo.example/download?id=1", {"mailto": "me@uni.edu"})
    assert a == "https://repo.example/download?id=1"
    assert PoliteHTTP.cache_key("https://repo.example/download?id=2", None) != a
    assert PoliteHTTP.cache_key("https://api.example/works", {"query": "x y", "email": "me@uni.edu"}) == "https://api.example/works?query=x+y"


def test_rate_limit_spaces_requests_to_one_service(web, tmp_path, clock):
    web["files"].routes["/r"] = json_reply({})
    http = PoliteHTTP(OnlineSettings(rates={"slowsvc": 10.0, "other": 10.0}), tmp_path / "c")
    for i in range(4):
        assert http.get(web["files"].url + f"/r?i={i}", service="slowsvc").ok
    assert http.get(web["files"].url + "/r?i=9", service="other").ok
    assert clock.slept == [0.1, 0.2, 0.3]  # 10/s: the 2nd, 3rd, 4th wait their turn; another service does not


def test_every_fault_ends_as_a_state_on_the_finding(web, tmp_path):
    """A whole check in which each service misbehaves: every citation gets a finding with a reason."""
    cr, oa, up, files = web["crossref"], web["openalex"], web["unpaywall"], web["files"]
    cr.routes["/works/10.1000/a"] = lambda r: (500, {}, b"")
    oa.routes["/works/doi:10.1000/a"] = bytes_reply(b"<html>not json</html>", "application/json")
    for doi, pdf in (("10.1000/b", "/trunc.pdf"), ("10.1000/c", "/login"), ("10.1000/d", "/loop")):
        cr.routes[f"/works/{doi}"] = json_reply({"status": "ok", "message": {"DOI": doi, "title": [f"Work {doi}"], "author": [{"family": "Roe", "given": "A"}], "issued": {"date-parts": [[2020]]}}})
        up.routes[f"/v2/{doi}"] = json_reply({"doi": doi, "is_oa": True, "oa_status": "green", "best_oa_location": {"url_for_pdf": files.url + pdf, "host_type": "repository"}, "oa_locations": []})
    files.routes["/trunc.pdf"] = bytes_reply(make_pdf(["Some text", "More text"])[:300], "application/pdf")
    files.routes["/login"] = bytes_reply(b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")
    files.routes["/loop"] = lambda r: (302, {"Location": "loop"}, b"")
    (tmp_path / "d.md").write_text("Alpha [@a]. Beta [@b]. Gamma [@c]. Delta [@d].\n")
    (tmp_path / "r.bib").write_text("".join(f"@article{{{k}, title={{Work 10.1000/{k}}}, author={{Roe, A}}, year={{2020}}, doi={{10.1000/{k}}}}}\n" for k in "abcd"))
    report = check(tmp_path / "d.md", [tmp_path / "r.bib"], CheckOptions(cache_dir=tmp_path / "c", tiers=["lexical"], online=True, email="me@uni.edu"))
    by = {f.citation.citekey: f for f in report.findings}
    assert len(by) == 4 and all(f.verdict == Verdict.UNVERIFIABLE for f in by.values())
    w = report.metadata["online"]["works"]
    assert w["a"]["found"] is False and w["a"]["not_found"] is False
    assert "HTTP 500 after 4 tries" in w["a"]["failed"] and "malformed JSON" in w["a"]["failed"]
    assert "reference_not_found" not in by["a"].flags and "online lookup not completed" in " ".join(by["a"].reasons)
    assert any("/trunc.pdf" in s and "passages" not in s for s in w["b"]["ladder"])
    assert any("/login gave an HTML page" in s for s in w["c"]["ladder"])
    assert any("redirect loop" in s for s in w["d"]["ladder"])
    for k in "bcd":
        assert w[k]["fulltext"] == "none" and "found online, but no open full text" in by[k].source.error


def test_a_doi_of_another_work_is_not_the_cited_work(web, tmp_path):
    """A generated reference with a real DOI of an unrelated paper: not judged against that paper."""
    cr, oa = web["crossref"], web["openalex"]
    other = {"status": "ok", "message": {"DOI": "10.1371/journal.pcbi.1007128", "title": ["Open collaborative writing with Manubot"],
                                         "author": [{"family": "Himmelstein", "given": "Daniel S."}], "issued": {"date-parts": [[2019]]}}}
    cr.routes["/works/10.1371/journal.pcbi.1007128"] = json_reply(other)
    real = {"id": "https://openalex.org/W9", "doi": "https://doi.org/10.1/real", "title": "Deep learning for protein folding in yeast",
            "publication_year": 2021, "authorships": [{"author": {"display_name": "Kim Park"}}]}
    oa.routes["/works?search=Deep learning for protein folding"] = json_reply({"meta": {"count": 1}, "results": [real]})
    (tmp_path / "d.md").write_text("Folding was solved [@gen]. Folding in yeast [@real].\n")
    (tmp_path / "r.bib").write_text(
        "@article{gen, title={Quantum annealing of household budgets}, author={Doe, Jane}, year={2020}, doi={10.1371/journal.pcbi.1007128}}\n"
        "@article{real, title={Deep learning for protein folding in yeast}, author={Park, Kim}, year={2021}, doi={10.1371/journal.pcbi.1007128}}\n")
    report = check(tmp_path / "d.md", [tmp_path / "r.bib"], CheckOptions(cache_dir=tmp_path / "c", tiers=["lexical"], online=True))
    by = {f.citation.citekey: f for f in report.findings}
    w = report.metadata["online"]["works"]
    assert w["gen"]["not_found"] is True and "reference_not_found" in by["gen"].flags
    assert "registered to another work: 'Open collaborative writing with Manubot'" in by["gen"].reasons[0]
    assert w["real"]["found"] is True and w["real"]["doi"] == "10.1/real"
    assert "DOI: 10.1371/journal.pcbi.1007128 cited, 10.1/real on record" in w["real"]["metadata_mismatch"]
    assert "metadata_mismatch" in by["real"].flags
