"""No request to where the user did not point (issue 31, parts 1 and 2), against real loopback servers.

The fake services (``online_server.FakeWeb``) are configured through the ``CITEPROOF_*_URL`` variables,
the one allow-list that may point at loopback; a :class:`online_server.Trap` is a loopback "internal
service" nothing configures, which logs every connection opened to it. Every refusal happens before a
socket is opened, so no test sends a packet anywhere but 127.0.0.0/8.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from online_server import FakeWeb, Trap, bytes_reply, json_reply  # noqa: E402
from online_world import crossref_work, make_pdf, openalex_work  # noqa: E402

from citeproof.pipeline import CheckOptions, check  # noqa: E402
from citeproof.sources.online.http import OnlineSettings, PoliteHTTP  # noqa: E402
from citeproof.sources.online.identifiers import arxiv_problem, doi_problem, pmid_problem, segment  # noqa: E402
from citeproof.sources.online.netguard import address_problem  # noqa: E402


@pytest.fixture(scope="module")
def _servers():
    w, trap = FakeWeb(), Trap()
    yield w, trap
    w.stop()
    trap.stop()


@pytest.fixture()
def web(_servers, monkeypatch):
    w, trap = _servers
    w.reset()
    trap.connections.clear()
    for k, v in w.env.items():
        monkeypatch.setenv(k, v)
    return w


@pytest.fixture()
def trap(_servers):
    return _servers[1]


def http(tmp_path) -> PoliteHTTP:
    return PoliteHTTP(OnlineSettings(email="me@uni.edu", timeout_s=3.0, retries=0, backoff_s=0.01), tmp_path / "cache")


@pytest.mark.parametrize("ip,why", [
    ("127.0.0.1", "a loopback address"), ("127.8.9.10", "a loopback address"), ("::1", "a loopback address"),
    ("10.1.2.3", "a private address"), ("172.16.0.9", "a private address"), ("192.168.1.1", "a private address"), ("fc00::5", "a private address"),
    ("fd12:3456::1", "a private address"), ("169.254.169.254", "a link-local address"), ("fe80::1%2", "a link-local address"),
    ("224.0.0.1", "a multicast address"), ("ff02::1", "a multicast address"), ("0.0.0.0", "an unspecified address"), ("::", "an unspecified address"),
    ("240.0.0.1", "a reserved address"), ("::ffff:127.0.0.1", "a loopback address"), ("::ffff:169.254.169.254", "a link-local address"),
    ("100.64.0.1", "not a public address"), ("192.0.2.10", "a private address"),
])
def test_every_non_public_range_is_refused(ip, why):
    assert why == address_problem(ip)


@pytest.mark.parametrize("ip", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "151.101.1.69"])
def test_public_addresses_pass(ip):
    assert address_problem(ip) is None


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "2130706433", "0x7f.0.0.1", "127.1"])
def test_a_url_to_loopback_is_refused_before_any_connection(web, trap, tmp_path, host):
    h = http(tmp_path)
    f = h.get(f"http://{host}:{trap.port}/admin")
    assert not f.ok and f.refused and "refused: a loopback address" in f.error, f.error
    assert [] == trap.connections and 0 == h.requests_made


def test_ipv6_loopback_is_refused(web, tmp_path):
    f = http(tmp_path).get("http://[::1]:9/admin")
    assert f.refused and "refused: a loopback address" in f.error


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/_x", "//127.0.0.1/x", "javascript:alert(1)"])
def test_only_http_and_https_are_fetched(web, trap, tmp_path, url):
    f = http(tmp_path).get(url)
    assert f.refused and "refused: " in f.error and [] == trap.connections


def test_every_redirect_hop_is_checked(web, trap, tmp_path):
    web["files"].routes["/to-trap"] = lambda r: (302, {"Location": trap.url + "/admin"}, b"")
    web["files"].routes["/to-file"] = lambda r: (302, {"Location": "file:///etc/passwd"}, b"")
    web["files"].routes["/to-metadata"] = lambda r: (301, {"Location": "http://169.254.169.254/latest/meta-data/"}, b"")
    h = http(tmp_path)
    f = h.get(web["files"].url + "/to-trap")
    assert f.refused and "refused: a loopback address" in f.error and [] == trap.connections
    assert 1 == len(web["files"].requests)  # the allowed hop was asked, the next one never
    assert h.get(web["files"].url + "/to-file").refused
    g = h.get(web["files"].url + "/to-metadata")
    assert g.refused and "refused: a link-local address (169.254.169.254)" in g.error


def test_the_connection_goes_to_the_address_that_was_checked(web, tmp_path, monkeypatch):
    """One DNS answer per connection, and the socket is opened on that address, never by name (no rebinding)."""
    lookups, connects = [], []
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.create_connection

    def answers(host, port, *a, **kw):  # a rebinding resolver: a public address first, loopback after
        if host != "rebind.test":
            return real_getaddrinfo(host, port, *a, **kw)
        lookups.append(host)
        ip = "93.184.216.34" if len(lookups) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]

    def connect(address, *a, **kw):
        connects.append(address)
        if not address[0].startswith("127."):
            raise ConnectionRefusedError("the test sends nothing off loopback")
        return real_connect(address, *a, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", answers)
    monkeypatch.setattr(socket, "create_connection", connect)
    f = http(tmp_path).get("http://rebind.test:8080/x")
    assert not f.ok and not f.refused and "ConnectError" in f.error
    assert ["rebind.test"] == lookups and [("93.184.216.34", 8080)] == connects  # the checked address, not the name


def test_configured_api_urls_are_the_allow_list(web, trap, tmp_path, monkeypatch):
    web["crossref"].routes["/works"] = json_reply({"status": "ok", "message": {"items": []}})
    h = http(tmp_path)
    assert h.get(web["crossref"].url + "/works", service="crossref").ok  # configured: loopback allowed
    # the same host on another port is not configured
    assert h.get(f"http://127.0.0.1:{trap.port}/works").refused and [] == trap.connections
    monkeypatch.setenv("CITEPROOF_CROSSREF_URL", trap.url)  # the operator points a service at it: allowed
    assert PoliteHTTP(OnlineSettings(retries=0), tmp_path / "c2").get(trap.url + "/works", service="crossref").ok
    assert 1 == len(trap.connections)


def _run(tmp_path, bib_entries: str, claim_keys: list[str]):
    draft, bib = tmp_path / "draft.md", tmp_path / "refs.bib"
    draft.write_text("\n\n".join(f"Manubot automates citations and references for scholarly writing [@{k}]." for k in claim_keys) + "\n")
    bib.write_text(bib_entries)
    return check(draft, [bib], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"], online=True, email="me@uni.edu"))


def test_a_bib_url_to_an_internal_service_is_refused_on_the_finding(web, trap, tmp_path):
    empty = json_reply({"status": "ok", "message": {"items": []}})
    web["crossref"].routes["/works"] = empty
    web["openalex"].routes["/works"] = json_reply({"meta": {"count": 0}, "results": []})
    rep = _run(tmp_path, f"@online{{admin, title={{Admin console}}, year={{2024}}, url={{{trap.url}/admin}}}}\n"
                         f"@online{{filefield, title={{Snapshot}}, year={{2024}}, file={{Snapshot:http\\://10.0.0.7/x.html:text/html}}}}\n"
                         f"@online{{meta, title={{Metadata}}, year={{2024}}, url={{http://169.254.169.254/latest/meta-data/iam}}}}\n",
               ["admin", "filefield", "meta"])
    by = {f.citation.citekey: f for f in rep.findings}
    assert [] == trap.connections
    assert not any(Trap.SECRET.decode() in (p.text for p in (f.source.passages if f.source else [])) for f in rep.findings)
    for key, why in (("admin", "refused: a loopback address"), ("filefield", "refused: a private address (10.0.0.7)"), ("meta", "refused: a link-local address (169.254.169.254)")):
        f = by[key]
        assert "fetch_refused" in f.flags and any(why in r for r in f.reasons), (key, f.reasons)
        assert f.verdict.value == "unverifiable"
        assert any(why in s for s in rep.metadata["online"]["works"][key]["refused"])


def test_service_answers_pointing_inside_are_refused(web, trap, tmp_path):
    doi = "10.1371/journal.pcbi.1007128"
    web["crossref"].routes[f"/works/{doi}"] = json_reply(crossref_work(doi, "Open collaborative writing with Manubot", [("Daniel S.", "Himmelstein")], 2019, "PLOS Computational Biology"))
    web["openalex"].routes[f"/works/doi:{doi}"] = json_reply(openalex_work(doi, "Open collaborative writing with Manubot", ["Daniel S. Himmelstein"], 2019, "PLOS",
                                                                           pdf_url=trap.url + "/openalex.pdf"))
    web["unpaywall"].routes[f"/v2/{doi}"] = json_reply({"doi": doi, "is_oa": True, "oa_status": "gold", "best_oa_location": {"url_for_pdf": web["files"].url + "/moved", "host_type": "publisher"},
                                                         "oa_locations": [{"url_for_pdf": "http://[fd00::1]/x.pdf", "host_type": "repository"}]})
    web["files"].routes["/moved"] = lambda r: (302, {"Location": trap.url + "/unpaywall.pdf"}, b"")
    rep = _run(tmp_path, f"@article{{m, title={{Open collaborative writing with Manubot}}, author={{Himmelstein, Daniel S.}}, year={{2019}}, doi={{{doi}}}}}\n", ["m"])
    (f,) = rep.findings
    assert [] == trap.connections
    refused = rep.metadata["online"]["works"]["m"]["refused"]
    assert 3 == len(refused) and "fetch_refused" in f.flags, refused
    assert any("/moved: refused: a loopback address" in s for s in refused) and any("refused: a private address (fd00::1)" in s for s in refused)


@pytest.mark.parametrize("doi,ok", [
    ("10.1371/journal.pcbi.1007128", True), ("10.1016/s0140-6736(97)11096-0", True), ("10.1023/a:1026654312961", True), ("10.1000/a/b/c", True),
    ("10.1/../../../../admin", False), ("10.1234/../../admin", False), ("10.1234/a/./b", False), ("10.1234/a b", False), ("10.1234/a\x00", False), ("10.1234/%2e%2e/%2E%2E/admin", False), ("10.1234/a%2fb", False), ("10.1234/a\\..\\b", False),
    ("11.1234/x", False), ("10.1234", False), ("10.1234/" + "x" * 400, False),
])
def test_doi_forms(doi, ok):
    assert (doi_problem(doi) is None) is ok


def test_identifier_checks():
    assert arxiv_problem("2101.00001v2") is None and arxiv_problem("hep-th/9711200") is None and arxiv_problem("arXiv:1706.03762") is None
    assert arxiv_problem("https://arxiv.org/abs/1706.03762v5") is None
    assert arxiv_problem("../../admin") and arxiv_problem("1706.03762&max_results=1000")
    assert pmid_problem("33186535") is None and pmid_problem("1/../2") and pmid_problem("123 OR 1=1")
    assert "10.1371%2Fjournal.pcbi.1007128" == segment("10.1371/journal.pcbi.1007128")


def test_identifiers_never_move_the_request_path(web, tmp_path):
    doi = "10.1371/journal.pcbi.1007128"
    web["crossref"].routes[f"/works/{doi}"] = json_reply(crossref_work(doi, "Open collaborative writing with Manubot", [("Daniel S.", "Himmelstein")], 2019, "PLOS Computational Biology"))
    web["files"].routes["/pdf/m.pdf"] = bytes_reply(make_pdf(["Manubot", "Manubot automates citations and references for scholarly writing."]), "application/pdf")
    bib = (f"@article{{good, title={{Open collaborative writing with Manubot}}, author={{Himmelstein, Daniel S.}}, year={{2019}}, doi={{{doi}}}}}\n"
           "@article{dots, title={Admin}, year={2020}, doi={10.1/../../../../admin}}\n"
           "@article{arx, title={Admin two}, year={2020}, eprint={../../admin}, archiveprefix={arXiv}}\n"
           "@article{pm, title={Admin three}, year={2020}, pmid={1/../../admin}}\n")
    rep = _run(tmp_path, bib, ["good", "dots", "arx", "pm"])
    by = {f.citation.citekey: f for f in rep.findings}
    for key in ("dots", "arx", "pm"):
        tags = {t.name: t.message for t in by[key].tags}
        assert "bad_identifier" in tags and "needs_review" in by[key].flags, (key, tags)
        assert rep.metadata["online"]["works"][key]["bad_identifiers"]
    assert "bad_identifier" not in {t.name for t in by["good"].tags}
    sent = [r for r in web.all_requests()]
    assert not any("admin" in r.url.lower().split("?")[0] for r in sent), [r.url for r in sent]
    assert any(r.url.startswith("/works/10.1371%2Fjournal.pcbi.1007128") for r in web["crossref"].requests)  # one encoded segment
    for service in ("crossref", "openalex"):  # every path the services saw is a route citeproof builds
        assert all(r.path == "/works" or r.path.startswith("/works/") for r in web[service].requests), [r.url for r in web[service].requests]
