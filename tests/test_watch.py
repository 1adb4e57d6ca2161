"""Issue 25, part 6: ``citeproof watch --online`` re-checks only the retraction status of works cited earlier.

The services are loopback stand-ins (:mod:`tests.online_server`) reached through the ``CITEPROOF_*_URL`` bases;
the history is the one real ``citeproof check`` runs record in the cache folder.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.history import list_runs
from tests.online_server import FakeWeb, json_reply
from tests.online_world import crossref_work, openalex_work

runner = CliRunner()
RETRACTION = {"type": "retraction", "DOI": "10.5555/notice.7", "source": "retraction-watch", "updated": {"date-parts": [[2025, 3, 1]]}}
BIB = """@article{kim2019, title = {Hydroxychloroquine shortens recovery in mild infection}, author = {Kim, Ji-woo}, year = {2019}, doi = {10.5555/hcq.2019}}
@article{ortiz2020, title = {Masks reduce household transmission}, author = {Ortiz, Ana}, year = {2020}, doi = {10.5555/masks.2020}}
"""


def _world(web: FakeWeb, retracted: bool) -> None:
    web.reset()
    kim = crossref_work("10.5555/hcq.2019", "Hydroxychloroquine shortens recovery in mild infection", [("Ji-woo", "Kim")], 2019, "J Trials",
                        updated_by=[RETRACTION] if retracted else ())
    ortiz = crossref_work("10.5555/masks.2020", "Masks reduce household transmission", [("Ana", "Ortiz")], 2020, "J Public Health")
    web["crossref"].routes["/works/10.5555/hcq.2019"] = json_reply(kim)
    web["crossref"].routes["/works/10.5555/masks.2020"] = json_reply(ortiz)
    web["openalex"].routes["/works/doi:10.5555/hcq.2019"] = json_reply(openalex_work("10.5555/hcq.2019", "Hydroxychloroquine shortens recovery in mild infection", ["Ji-woo Kim"], 2019, "J Trials", retracted=retracted))
    web["openalex"].routes["/works/doi:10.5555/masks.2020"] = json_reply(openalex_work("10.5555/masks.2020", "Masks reduce household transmission", ["Ana Ortiz"], 2020, "J Public Health"))


def test_watch_names_the_documents_citing_a_newly_retracted_work(tmp_path, monkeypatch):
    web = FakeWeb()
    try:
        for k, v in web.env.items():
            monkeypatch.setenv(k, v)
        cache = tmp_path / "cache"
        bib = tmp_path / "refs.bib"
        bib.write_text(BIB, encoding="utf-8")
        a = tmp_path / "review.md"
        a.write_text("Hydroxychloroquine shortened recovery by two days in mild infection [@kim2019].\n\n"
                     "Masks reduced household transmission by 19% [@ortiz2020].\n", encoding="utf-8")
        b = tmp_path / "letter.md"
        b.write_text("Masks reduced household transmission [@ortiz2020].\n", encoding="utf-8")
        for doc in (a, b):  # offline checks: the history records the cited works and that nobody knew of a retraction
            r = runner.invoke(app, ["check", str(doc), "--bib", str(bib), "--tier", "lexical", "--out", str(tmp_path / "out"), "--cache-dir", str(cache), "-q"])
            assert r.exit_code == 0, r.output
        works = list_runs(cache, a)[0].record["works"]
        assert works["kim2019"] == {"doi": "10.5555/hcq.2019", "title": "Hydroxychloroquine shortens recovery in mild infection", "retracted": False, "corrected": False}

        _world(web, retracted=False)
        r = runner.invoke(app, ["watch", "--online", "--cache-dir", str(cache)])
        assert r.exit_code == 0, r.output
        assert "watched 2 cited works of 2 documents: no newly retracted work" in r.output

        _world(web, retracted=True)  # the notice appears later
        r = runner.invoke(app, ["watch", "--online", "--cache-dir", str(cache)])
        assert r.exit_code == 1, r.output
        assert f"{a.resolve()}: cites 'kim2019' (doi:10.5555/hcq.2019), RETRACTED since the document was last checked (notice doi:10.5555/notice.7)" in r.output
        assert str(b.resolve()) not in r.output.replace("2 documents", "")
        # only the status was asked, by DOI: no title search, no document text
        paths = sorted({q.path for q in web.all_requests()})
        assert paths == ["/works/10.5555/hcq.2019", "/works/10.5555/masks.2020", "/works/doi:10.5555/hcq.2019", "/works/doi:10.5555/masks.2020"]
        assert not any("Hydroxychloroquine" in q.url or "recovery" in q.url for q in web.all_requests())

        r = runner.invoke(app, ["watch", "--offline", "--cache-dir", str(cache), "--json"])  # the online cache answers
        data = json.loads(r.stdout)
        assert r.exit_code == 1 and list(data["newly_retracted"]) == [str(a.resolve())]
        assert data["newly_retracted"][str(a.resolve())] == [{"citekey": "kim2019", "doi": "10.5555/hcq.2019", "notice": "10.5555/notice.7"}]

        # checked again online, the document's run knows of the retraction: no longer new
        r = runner.invoke(app, ["check", str(a), "--bib", str(bib), "--tier", "lexical", "--online", "--out", str(tmp_path / "out"), "--cache-dir", str(cache), "-q"])
        assert list_runs(cache, a)[0].record["works"]["kim2019"]["retracted"] is True
        r = runner.invoke(app, ["watch", "--online", "--cache-dir", str(cache)])
        assert r.exit_code == 0, r.output
    finally:
        web.stop()


def test_watch_needs_online_and_says_so(tmp_path):
    r = runner.invoke(app, ["watch", "--cache-dir", str(tmp_path)])
    assert r.exit_code == 2 and "--online" in r.output


def test_watch_without_history_watches_nothing(tmp_path, monkeypatch):
    r = runner.invoke(app, ["watch", "--online", "--cache-dir", str(tmp_path)])
    assert r.exit_code == 0 and "watched 0 cited works of 0 documents" in r.output
