"""A source's own metadata with the quote it came from, and differences from the entry (issue 19, part 5).

The PDFs are made here with PyMuPDF (a title block, a DOI and a "Published" line on page 1, metadata set as
publishers set it); the saved page carries the Highwire ``citation_*`` tags journal sites serve.
"""

from __future__ import annotations

import json

import pymupdf
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.model import Reference
from citeproof.sources import load_source
from citeproof.sources.cache import Cache
from citeproof.sources.metadata import compare, html_metadata

from conftest import SAMPLE

TITLE = "Tidal marshes store carbon for centuries"
BODY = ("Tidal marshes bury 218 grams of carbon per square metre each year, more than most forests, "
        "and keep it for centuries in waterlogged soils.")


def _pdf(path, *, meta_title="", doi="10.1000/marsh.2019.7", year="2019") -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 60, 523, 130), TITLE, fontsize=20, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 140, 523, 170), "Luz Reyes, Tomas Okafor", fontsize=11, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 180, 523, 210), f"Published: 12 March {year}. https://doi.org/{doi}", fontsize=9, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 240, 523, 400), BODY, fontsize=11, fontname="helv")
    doc.set_metadata({"title": meta_title, "author": "Luz Reyes; Tomas Okafor" if meta_title else ""})
    doc.save(path)


def test_pdf_fields_carry_their_quotes(tmp_path):
    _pdf(tmp_path / "a.pdf", meta_title="Microsoft Word - marsh_final_v3.docx")
    md = load_source("k", tmp_path / "a.pdf", "t", Cache(None)).metadata
    assert {"value": TITLE, "quote": TITLE, "page": 1, "line": None, "from": "largest text on page 1"} == md["title"]  # a file name is no title
    assert "10.1000/marsh.2019.7" == md["DOI"]["value"] and 1 == md["DOI"]["page"] and "https://doi.org/10.1000/marsh.2019.7" in md["DOI"]["quote"]
    assert ("2019", 1) == (md["issued"]["value"], md["issued"]["page"]) and md["issued"]["quote"].startswith("Published: 12 March 2019")
    assert {"value": "Luz Reyes; Tomas Okafor", "quote": "Author: Luz Reyes; Tomas Okafor", "page": None, "line": None, "from": "PDF metadata"} == md["author"]


def test_entry_differences_become_metadata_mismatch(tmp_path):
    _pdf(tmp_path / "marsh.pdf", meta_title=TITLE, doi="10.1000/other.2011.2", year="2011")
    (tmp_path / "refs.bib").write_text("@article{reyes2019, title={Tidal marshes store carbon for centuries}, author={Reyes, Luz}, year={2019},"
                                       " doi={10.1000/marsh.2019.7}, file={marsh.pdf}}\n"
                                       "@article{reyes2019b, title={Tidal marshes store carbon for centuries}, author={Reyes, Luz}, year={2018},"
                                       " doi={10.1000/other.2011.2}, file={marsh.pdf}}\n")
    (tmp_path / "draft.md").write_text("Tidal marshes bury 218 grams of carbon per square metre each year [@reyes2019].\n\n"
                                       "Marshes keep carbon for centuries in waterlogged soils [@reyes2019b].\n")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--no-cache", "--tier", "lexical", "-q"])
    assert r.exit_code in (0, 1), r.output
    data = json.loads((tmp_path / "draft.citeproof.json").read_text())
    first, second = data["findings"]
    assert "metadata_mismatch" in first["flags"] and "supported" == first["verdict"]
    (said,) = [x for x in first["reasons"] if x.startswith("the source's own metadata differ")]
    assert 'DOI: 10.1000/marsh.2019.7 in the entry, 10.1000/other.2011.2 in the source (page 1: "Published: 12 March 2011. https://doi.org/10.1000/other.2011.2")' in said
    assert 'year: 2019 in the entry, 2011 in the source (page 1: "Published: 12 March 2011.' in said
    assert "title:" not in said and "author:" not in said
    assert 1 == sum(x.startswith("the source's own metadata differ") for x in second["reasons"])  # the same DOI; years 2018 and 2011
    assert "10.1000/other.2011.2" == data["works"][first["work"]]["provenance"]["metadata"]["DOI"]["value"]


def test_saved_page_meta_tags():
    page = """<html><head>
<title>Marsh carbon | Coastal Journal</title>
<meta name="citation_title" content="Tidal marshes store carbon for centuries">
<meta name="citation_author" content="Reyes, Luz">
<meta name="citation_author" content="Okafor, Tomas">
<meta name="citation_publication_date" content="2019/03/12">
<meta name="citation_doi" content="doi:10.1000/marsh.2019.7">
<meta name="citation_journal_title" content="Coastal Journal">
</head><body><p>Text.</p></body></html>"""
    md = html_metadata(page)
    assert {"value": "Tidal marshes store carbon for centuries", "quote": '<meta name="citation_title" content="Tidal marshes store carbon for centuries">',
            "page": None, "line": 3, "from": "meta tag citation_title"} == md["title"]
    assert ("Reyes, Luz; Okafor, Tomas", 4) == (md["author"]["value"], md["author"]["line"])
    assert ("2019", "10.1000/marsh.2019.7", "Coastal Journal") == (md["issued"]["value"], md["DOI"]["value"], md["container-title"]["value"])
    wrong = Reference(citekey="k", title="Seagrass meadows and blue carbon", authors=("Smith, Ann",), year="2019", doi="10.1000/marsh.2019.7")
    said = compare(wrong, md)
    assert 2 == len(said) and said[0].startswith("title: 'Seagrass meadows and blue carbon' in the entry, 'Tidal marshes store carbon for centuries' in the source (line 3:")
    assert said[1].startswith("author: first author 'Smith' in the entry is not among the source's authors (line 4:")
    assert [] == compare(Reference(citekey="k", title="Tidal marshes store carbon for centuries", authors=("Reyes, L.",), year="2020"), md)
    assert [] == compare(Reference(citekey="k", title="T"), md)  # bug: a one-letter entry title scored 0 against every source


def test_sample_sources_agree_with_their_entries_but_the_preprint_doi():
    """The demo's cited PDFs: only the entry citing the bioRxiv preprint DOI differs from the file (the journal version)."""
    from citeproof.bibliography import load_bibliographies

    bib = load_bibliographies([SAMPLE / "meta-review.bib"])
    differ = {}
    for key, ref in bib.entries.items():
        if ref.files and ref.files[0].endswith(".pdf"):
            src = load_source(key, SAMPLE / ref.files[0], "t", Cache(None))
            differ[key] = compare(ref, src.metadata)
    assert 6 == len(differ)
    assert {"doi:10.1101/142760"} == {k for k, v in differ.items() if v}
    assert differ["doi:10.1101/142760"][0].startswith("DOI: 10.1101/142760 in the entry, 10.1098/rsif.2017.0387 in the source (page 1:")
