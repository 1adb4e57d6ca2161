"""Sources online (issue 12) end to end, against loopback services on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from online_world import SECRET_WORDS, web, write_inputs  # noqa: E402,F401 (web: the shared fixture)

from citeproof.model import Verdict  # noqa: E402
from citeproof.pipeline import CheckOptions, check  # noqa: E402
from citeproof.sources.online import ABSTRACT_ONLY_REASON  # noqa: E402
from citeproof.sources.online.record import MATCH_MIN  # noqa: E402



@pytest.fixture(autouse=True)
def _point_at_loopback(web, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)


@pytest.fixture(scope="module")
def run(web, tmp_path_factory):
    """One online check of the draft (lexical tier), and the requests it made."""
    import os

    folder = tmp_path_factory.mktemp("online")
    draft, bib = write_inputs(folder)
    saved = dict(os.environ)
    os.environ.update(web.env)
    try:
        before = len(web.all_requests())
        report = check(draft, [bib], CheckOptions(cache_dir=folder / "cache", tiers=["lexical"], online=True, email="me@uni.edu"))
        requests = web.all_requests()[before:]
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {"report": report, "requests": requests, "folder": folder, "draft": draft, "bib": bib}


def finding(report, key):
    return next(f for f in report.findings if f.citation.citekey == key)


def work(report, key):
    return report.metadata["online"]["works"][key]


def test_open_access_pdf_after_a_login_page(run):
    f = finding(run["report"], "manubot")
    w = work(run["report"], "manubot")
    assert w["how"] == "DOI via Crossref, OpenAlex"
    assert w["fulltext"] == "open-access PDF"
    assert w["fulltext_url"].endswith("/pdf/manubot.pdf")
    assert any("/login gave an HTML page" in step for step in w["ladder"])  # Unpaywall's best location was a login page
    assert f.source.origin.startswith("online: open-access PDF via Unpaywall (repository)")
    assert f.source.usable and f.source.pages == 1
    assert f.verdict == Verdict.SUPPORTED
    assert f.evidence.passage.page == 1 and "versions manuscripts using git" in f.evidence.passage.text
    assert not {"reference_not_found", "metadata_mismatch", "abstract_only"} & set(f.flags)


def test_retracted_work_is_tagged_and_shown_first(run):
    report = run["report"]
    f = finding(report, "wakefield")
    assert f.tags[0].name == "retracted_source"
    assert "10.1016/s0140-6736(10)60175-4" in f.tags[0].message and "retraction-watch" in f.tags[0].message
    assert report.findings[0] is f
    assert work(report, "wakefield")["retracted"] is True
    assert "metadata_mismatch" not in f.flags  # "RETRACTED:" before the title is no mismatch


def test_abstract_alone_never_says_unsupported(run):
    f = finding(run["report"], "wakefield")
    assert work(run["report"], "wakefield")["fulltext"] == "abstract only"
    assert f.source.passages[0].section == "abstract"
    assert "abstract_only" in f.flags
    assert f.verdict == Verdict.UNVERIFIABLE
    assert f.reasons[0] == ABSTRACT_ONLY_REASON


def test_arxiv_new_style_with_version_gives_the_arxiv_pdf(run):
    f = finding(run["report"], "attention")
    w = work(run["report"], "attention")
    assert w["how"] == "arXiv id 1706.03762v5 via the arXiv API"
    assert w["fulltext"] == "arXiv PDF" and w["arxiv"] == "1706.03762v5"
    assert f.verdict == Verdict.SUPPORTED
    assert "recurrence and convolutions" in f.evidence.passage.text


def test_arxiv_old_style_and_a_truncated_pdf_fall_to_the_abstract(run):
    w = work(run["report"], "maldacena")
    assert w["how"] == "arXiv id hep-th/9711200 via the arXiv API"
    assert w["title"] == "The Large N Limit of Superconformal Field Theories and Supergravity"
    assert w["fulltext"] == "abstract only"
    assert any(step.startswith("arXiv PDF (arXiv):") and "9711200v3" in step and "passages" not in step for step in w["ladder"])
    assert finding(run["report"], "maldacena").source.origin.startswith("online: abstract only (arxiv)")


def test_europe_pmc_jats_full_text_with_sections(run):
    f = finding(run["report"], "masks")
    w = work(run["report"], "masks")
    assert w["how"] == "PMID 33186535 via Europe PMC" and w["pmcid"] == "PMC7654321"
    assert w["fulltext"] == "Europe PMC full text (JATS)"
    assert [p.section for p in f.source.passages] == ["abstract", "introduction", "methods", "methods", "results", "caption"]
    assert f.evidence.passage.section == "results"
    assert f.verdict == Verdict.SUPPORTED
    assert "metadata_mismatch" not in f.flags  # Europe PMC writes "Cowling BJ": still the cited first author


def test_title_search_resolves_with_a_score_above_the_line(run):
    w = work(run["report"], "titleonly")
    assert w["how"].startswith("title, first author and year via OpenAlex search")
    assert w["score"] >= MATCH_MIN and w["doi"] == "10.7554/elife.32822"
    assert w["fulltext"] == "abstract only"  # no PDF known; the OpenAlex abstract


def test_fabricated_reference_is_not_found(run):
    f = finding(run["report"], "fabricated")
    w = work(run["report"], "fabricated")
    assert w["not_found"] is True and w["found"] is False
    assert "reference_not_found" in f.flags
    assert "scored" in f.reasons[0] and "below the" in f.reasons[0]  # the closest record was refused, with its score
    assert f.verdict == Verdict.UNVERIFIABLE


def test_wrong_year_is_a_metadata_mismatch_not_a_fabrication(run):
    f = finding(run["report"], "wrongyear")
    assert "metadata_mismatch" in f.flags and "reference_not_found" not in f.flags
    assert work(run["report"], "wrongyear")["metadata_mismatch"] == ["year: 2016 cited, 2018 on record"]


def test_correction_is_tagged(run):
    f = finding(run["report"], "corrected")
    assert [t.name for t in f.tags][:1] == ["corrected_source"]
    assert "10.1038/nature12930" in f.tags[0].message
    assert "needs_review" in f.flags


def test_to_fetch_list(run):
    todo = {t["citekey"]: t for t in run["report"].metadata["online"]["to_fetch"]}
    assert set(todo) == {"wakefield", "maldacena", "titleonly", "fabricated", "wrongyear", "corrected"}
    assert todo["wakefield"]["oa_status"] == "closed" and todo["wakefield"]["url"] == "https://doi.org/10.1016/s0140-6736(97)11096-0"
    assert todo["fabricated"]["state"] == "not found online"
    assert any(d.code == "online-to-fetch" and "6 cited works" in d.message for d in run["report"].diagnostics)


def test_privacy_only_identifiers_and_metadata_leave(run):
    assert run["requests"], "the online run made requests"
    for r in run["requests"]:
        assert r.headers["User-Agent"].startswith("citeproof/") and "mailto:me@uni.edu" in r.headers["User-Agent"]
        for word in SECRET_WORDS:
            assert word.lower() not in r.url.lower(), (word, r.url)
    searched = [r.query.get("search") or r.query.get("query.bibliographic") for r in run["requests"] if r.path == "/works" and r.query]
    assert "Quantum entanglement of household cats predicts citation counts" in searched
    assert all("predict citations" not in (s or "") for s in searched)  # the claim's wording never


def test_second_run_uses_the_cache_only(run, web):
    before = len(web.all_requests())
    again = check(run["draft"], [run["bib"]], CheckOptions(cache_dir=run["folder"] / "cache", tiers=["lexical"], online=True, email="me@uni.edu"))
    assert len(web.all_requests()) == before
    assert again.metadata["online"]["requests"] == 0
    assert {f.citation.citekey: f.verdict for f in again.findings} == {f.citation.citekey: f.verdict for f in run["report"].findings}


def test_offline_answers_from_the_cache_and_says_what_is_missing(run, web, tmp_path):
    before = len(web.all_requests())
    warm = check(run["draft"], [run["bib"]], CheckOptions(cache_dir=run["folder"] / "cache", tiers=["lexical"], offline=True, email="me@uni.edu"))
    assert work(warm, "masks")["fulltext"] == "Europe PMC full text (JATS)"
    cold = check(run["draft"], [run["bib"]], CheckOptions(cache_dir=tmp_path / "empty", tiers=["lexical"], offline=True))
    assert len(web.all_requests()) == before
    w = work(cold, "manubot")
    assert w["found"] is False and w["not_found"] is False and "--offline forbids the request" in w["failed"]
    f = finding(cold, "manubot")
    assert "reference_not_found" not in f.flags and f.verdict == Verdict.UNVERIFIABLE
    assert "online: " in f.source.error
