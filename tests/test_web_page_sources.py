"""Web pages as sources (issue 19, part 2): a reference with only a URL, read under --online from a loopback
page; saved pages in another encoding read as written.

The pages are written here in the shape a news site or blog serves: navigation, a main article, a
"related posts" sidebar and a footer; the services (``online_world``) hold no record of the work.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from online_server import bytes_reply, json_reply  # noqa: E402
from online_world import web  # noqa: E402,F401 (web: the shared fixture)

from citeproof.model import Reference, Verdict  # noqa: E402
from citeproof.pipeline import CheckOptions, check  # noqa: E402
from citeproof.sources import load_source  # noqa: E402
from citeproof.sources.cache import Cache  # noqa: E402
from citeproof.sources.online.webpage import page_url  # noqa: E402

TITLE = "Why our city banned leaf blowers"
ARTICLE = (
    "The council voted 7 to 2 on Tuesday to ban gas-powered leaf blowers from January 2027, after residents "
    "measured noise levels of 95 decibels on residential streets."
)
SECOND = "Landscapers will receive rebates of up to 500 dollars towards electric equipment."


def _page(charset: str = "utf-8", extra: str = "") -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="{charset}"><title>{TITLE} | Riverside Gazette</title>
<meta name="author" content="Dana Whitfield"></head>
<body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article>
<h1>{TITLE}</h1>
<p>{ARTICLE}</p>
<p>{SECOND}{extra}</p>
</article>
<aside><h2>Related posts</h2><ul><li><a href="/a">Council budget passes</a></li><li><a href="/b">New bike lanes open</a></li></ul></aside>
<footer>Copyright Riverside Gazette. All rights reserved.</footer>
</body></html>
"""


@pytest.fixture(autouse=True)
def _point_at_loopback(web, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)


def _inputs(folder: Path, url: str, file_field: str = "") -> tuple[Path, Path]:
    bib = folder / "refs.bib"
    fields = f"url={{{url}}}" if url else f"file={{{file_field}}}"
    bib.write_text(f"@online{{gazette2026, title={{{TITLE}}}, author={{Whitfield, Dana}}, year={{2026}}, {fields}}}\n")
    draft = folder / "draft.md"
    draft.write_text("The council banned gas-powered leaf blowers after residents measured 95 decibels on residential streets [@gazette2026].\n")
    return draft, bib


def _no_record(web) -> None:
    """The services answer, and hold no record of the page's title."""
    empty = json_reply({"status": "ok", "message-type": "work-list", "message": {"items": [], "total-results": 0}})
    web["crossref"].routes["/works?query.bibliographic=leaf blowers"] = empty
    web["openalex"].routes["/works?search=leaf blowers"] = json_reply({"meta": {"count": 0}, "results": []})


def test_url_only_reference_read_from_its_page_under_online(web, tmp_path):
    _no_record(web)
    web["files"].routes["/news/leaf-blowers"] = bytes_reply(_page().encode(), "text/html; charset=utf-8")
    url = web["files"].url + "/news/leaf-blowers"
    draft, bib = _inputs(tmp_path, url)
    offline = check(draft, [bib], CheckOptions(cache_dir=tmp_path / "c0", tiers=["lexical"]))
    assert Verdict.UNVERIFIABLE == offline.findings[0].verdict
    assert offline.findings[0].reasons[0].endswith(f"; its web page ({url}) is read only with --online")  # nothing fetched without it
    before = len(web["files"].requests)
    rep = check(draft, [bib], CheckOptions(cache_dir=tmp_path / "c", tiers=["lexical"], online=True))
    (f,) = rep.findings
    assert Verdict.SUPPORTED == f.verdict, f.reasons
    assert ARTICLE == f.evidence.passage.text
    assert f.source.origin == f"online: web page {url}" and "text/html" == f.source.media_type
    assert not any("Related posts" in p.text or "Copyright" in p.text or "Home" == p.text for p in f.source.passages)
    assert "reference_not_found" not in f.flags
    assert any(r == f"read from the reference's web page ({url}); no scholarly record holds the work" for r in f.reasons)
    work = rep.metadata["online"]["works"]["gazette2026"]
    assert "web page" == work["fulltext"] and url == work["fulltext_url"] and work["ladder"][-1].endswith("read, 3 passages")
    assert 1 == len(web["files"].requests) - before  # one GET of the page, nothing else sent to its host
    req = web["files"].requests[-1]
    assert "/news/leaf-blowers" == req.path and not req.query
    # the second run reads the page from the cache
    check(draft, [bib], CheckOptions(cache_dir=tmp_path / "c", tiers=["lexical"], online=True))
    assert 1 == len(web["files"].requests) - before


def test_zotero_snapshot_link_is_a_page_url_and_doi_links_are_not():
    ref = Reference(citekey="k", files=("https://example.org/post.html",))
    assert "https://example.org/post.html" == page_url(ref)
    assert "" == page_url(Reference(citekey="k", url="https://doi.org/10.1000/xyz"))
    assert "http://example.org/a" == page_url(Reference(citekey="k", url="https://dx.doi.org/10.1/x", files=("http://example.org/a",)))


def test_a_page_that_fails_is_said_on_the_ladder(web, tmp_path):
    _no_record(web)
    web["files"].routes["/gone"] = bytes_reply(b"<html><body>Not here</body></html>", "text/html", status=410)
    web["files"].routes["/menu"] = bytes_reply(b"<html><body><nav><a href='/'>Home</a><a href='/x'>News</a></nav></body></html>", "text/html")
    for path, expect in (("/gone", "HTTP 410"), ("/menu", "the page holds no main text")):
        draft, bib = _inputs(tmp_path, web["files"].url + path)
        rep = check(draft, [bib], CheckOptions(cache_dir=tmp_path / ("c" + path.strip("/")), tiers=["lexical"], online=True))
        (f,) = rep.findings
        assert Verdict.UNVERIFIABLE == f.verdict
        ladder = rep.metadata["online"]["works"]["gazette2026"]["ladder"]
        assert any(step.startswith("web page: ") and expect in step for step in ladder), ladder


def test_saved_page_in_its_declared_encoding(tmp_path):
    """A page saved as windows-1252 (a curly apostrophe, 'café') and one in GBK read as written."""
    latin = tmp_path / "latin.html"
    latin.write_bytes(_page("windows-1252", extra=" The caf\u00e9 owners\u2019 group welcomed it.").encode("cp1252"))
    src = load_source("k", latin, "test", Cache(None))
    assert src.passages[-1].text.endswith("The caf\u00e9 owners\u2019 group welcomed it.")
    chinese = "议会以七票对两票通过禁令，居民在住宅街道上测得九十五分贝的噪音。"
    gbk = tmp_path / "gbk.html"
    gbk.write_bytes(f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk"></head><body><article><p>{chinese}</p>'
                    f"<p>{chinese}</p></article></body></html>".encode("gbk"))
    assert [chinese, chinese] == [p.text for p in load_source("k", gbk, "test", Cache(None)).passages]
