"""``citeproof locate SOURCE "phrase"``: pages and passages holding a phrase, exact then fuzzy (issue 15, part 7)."""

from __future__ import annotations

import json

import pymupdf
import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.locate import locate_phrase
from citeproof.single_source import open_source

from conftest import DATA, need

runner = CliRunner()

PAGE1 = ("Expense ratios of index funds fell steadily between 2010 and 2020 across all asset classes that we examined. "
         "The decline was largest for equity funds domiciled in the United States, where the median expense ratio")
PAGE2 = "halved over the decade. Bond funds saw smaller changes."
LAST = "We attribute the fall to competition between the three largest providers rather than to regulation."


def _pdf(path):
    """A two-page article whose second sentence runs on from page 1 to page 2; a paragraph of its own lower on page 2."""
    doc = pymupdf.open()
    for text in (PAGE1, PAGE2):
        page = doc.new_page(width=595, height=842)
        page.insert_textbox(pymupdf.Rect(72, 72, 523, 200), text, fontsize=11)
    doc[1].insert_textbox(pymupdf.Rect(72, 300, 523, 500), LAST, fontsize=11)
    doc.save(path)
    return path


def _invoke(*args):
    return runner.invoke(app, ["locate", *args, "--no-cache"])


def test_exact_phrase_names_its_page_and_passage(tmp_path):
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "competition between the three largest providers", "--json")
    assert 0 == r.exit_code, r.output
    got = json.loads(r.output)
    assert "exact" == got["match"]
    assert [[2]] == [h["pages"] for h in got["hits"]]
    assert "competition between the three largest providers" == got["hits"][0]["text"]
    assert "page 2" == got["hits"][0]["where"]


def test_phrase_across_a_page_break_names_both_pages(tmp_path):
    """Case and a page break inside the phrase do not stop an exact match; both pages are named."""
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "The MEDIAN expense ratio halved over the decade", "--json")
    assert 0 == r.exit_code, r.output
    hit = json.loads(r.output)["hits"][0]
    assert ("exact", [1, 2], "pages 1-2") == (hit["kind"], hit["pages"], hit["where"])


def test_fuzzy_when_no_exact_match(tmp_path):
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "competition among the three biggest providers", "--json")
    assert 0 == r.exit_code, r.output
    got = json.loads(r.output)
    assert "fuzzy" == got["match"]
    assert [2] == got["hits"][0]["pages"]
    assert 80 <= got["hits"][0]["score"] < 100


def test_absent_phrase_exits_1_and_says_so(tmp_path):
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "vitamin D reduced hip fractures")
    assert 1 == r.exit_code
    assert '"vitamin D reduced hip fractures" not found' in r.output


def test_citekey_with_bib_reads_the_file_field(tmp_path):
    (tmp_path / "trial.md").write_text("# Trial\n\nSome background.\n\nDaily vitamin D reduced hip\nfractures by 22 percent in women over 70.\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{trial2019,\n  title = {A trial},\n  author = {Doe, Jane},\n  year = {2019},\n  file = {trial.md}\n}\n")
    r = _invoke("trial2019", "hip fractures by 22 percent", "--bib", str(bib))
    assert 0 == r.exit_code, r.output
    assert "found exactly in 1 place" in r.output
    assert "line 5" in r.output


def test_unknown_citekey_is_exit_2(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{trial2019,\n  title = {A trial},\n  year = {2019}\n}\n")
    r = _invoke("smith2020", "anything", "--bib", str(bib))
    assert 2 == r.exit_code
    assert "smith2020: not a file, and not a citekey of the bibliography" in r.output


def test_phrase_without_words_is_refused(tmp_path):
    src = open_source(str(_pdf(tmp_path / "funds.pdf")), use_cache=False)
    with pytest.raises(ValueError, match="holds no word"):
        locate_phrase(src, " -- ")


def test_real_paper_exact_hits_in_reading_order():
    """Dalal & Triggs (CVPR 2005): the method's name stands in the title and the abstract, both on page 1."""
    pdf = need(DATA / "cv-papers" / "HOG_CVPR2005.pdf")
    hits = locate_phrase(open_source(str(pdf), use_cache=False), "grids of histograms of oriented gradient (HOG) descriptors")
    assert [("exact", [1])] == [(h.kind, h.pages) for h in hits]
    more = locate_phrase(open_source(str(pdf), use_cache=False), "linear SVM", limit=50)
    assert all(a.start < b.start for a, b in zip(more, more[1:]))
    assert len(more) >= 3 and {h.kind for h in more} == {"exact"}


def test_text_output_keeps_the_source_spacing_around_the_match(tmp_path):
    """The match is printed as the source has it: no space inserted before a comma that follows it (new-user report)."""
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "between the three largest")
    assert 0 == r.exit_code, r.output
    assert "competition between the three largest providers rather" in " ".join(r.output.split())
    r = _invoke(str(_pdf(tmp_path / "funds.pdf")), "all asset classes")
    assert "all asset classes that we examined." in " ".join(r.output.split())
    p = tmp_path / "comma.txt"
    p.write_text("Sci-Hub covers popular, paywalled articles well.\n")
    r = _invoke(str(p), "covers popular")
    assert "covers popular, paywalled" in " ".join(r.output.split())


def test_no_bib_and_no_file_says_so_plainly(tmp_path):
    r = _invoke("nothere.pdf", "x")
    assert 2 == r.exit_code
    assert "nothere.pdf: not a file, and not a citekey either (no --bib was given)" in " ".join(r.output.split())
