"""One reader registry and one source registry (issue 29 part 2, issue 30's web item): the CLI, the web page's
upload form and its server-side checks all read them, so the page takes every citing-document type the CLI reads."""

from __future__ import annotations

import json
import re

import pytest

from citeproof.documents import READER_LIST, READERS, Reader, given_bibliography, reader_for
from citeproof.errors import UnknownFormatError
from citeproof.sources import SOURCE_PARSERS, SUFFIXES

pytest.importorskip("fastapi")
pytest.importorskip("multipart")
from fastapi.testclient import TestClient  # noqa: E402

from citeproof.web.app import create_app  # noqa: E402

LOCAL = "http://127.0.0.1"
CLAIM = "Expense ratios of equity index funds fell to 0.05 percent after 2010"
SOURCE = b"# Fees\n\nAfter 2010 the average expense ratio of US equity index funds fell from 0.27 percent to 0.05 percent.\n"
BIB = b"@article{fees, title={Fees}, year={2021}}\n"


def test_every_reader_follows_the_protocol_and_owns_its_suffixes():
    """Each registered reader is a :class:`Reader`; each suffix names one; an unknown one is refused by name."""
    assert all(isinstance(e, Reader) for e in READER_LIST)
    assert sorted(READERS) == sorted(s for e in READER_LIST for s in e.suffixes)
    assert {".md", ".qmd", ".rmd", ".txt", ".tex", ".tar.gz", ".pdf", ".docx", ".odt", ".json"} <= set(READERS)
    assert ("LaTeX", "PDF", "Word") == (reader_for("x/Paper.TAR.GZ").name, reader_for("a.pdf").name, reader_for("b.odt").name)
    assert [e.name for e in READER_LIST if e.enriched_by_bib] == ["PDF", "Word"]  # the special cases are the readers' own flags
    with pytest.raises(UnknownFormatError, match="no reader for '.xyz'"):
        reader_for("notes.xyz")


def test_a_given_bib_replaces_a_latex_bibliography_but_enriches_a_pdf_list(tmp_path):
    from citeproof.bibliography import Bibliography
    from citeproof.model import Reference

    own = Bibliography(entries={"1": Reference(citekey="1", title="Fees of index funds")})
    given = Bibliography(entries={"fees": Reference(citekey="fees", title="Fees of index funds", files=("fees.pdf",))})
    assert given_bibliography(tmp_path / "paper.tex", own, given) is given
    merged = given_bibliography(tmp_path / "paper.pdf", own, given)
    assert ["1"] == list(merged.entries) and ("fees.pdf",) == merged.entries["1"].files


def test_the_upload_form_lists_every_registered_type():
    """The form's accept lists are the registries' suffixes (they were written out by hand: no .qmd, no .pptx)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(jobs_dir=tmp), base_url=LOCAL) as client:
        page = client.get("/").text
    doc_accept = re.search(r'id="document" name="document" accept="([^"]*)"', page).group(1).split(",")
    src_accept = re.search(r'id="sources" name="sources" accept="([^"]*)"', page).group(1).split(",")
    assert set(doc_accept) == set(READERS) | {".zip"}
    assert set(src_accept) == set(SUFFIXES) and {".docx", ".odt", ".pptx", ".rtf"} <= set(src_accept)
    for p in SOURCE_PARSERS.values():
        assert f"{p.name} ({', '.join(p.suffixes)})" in page


@pytest.fixture()
def client(tmp_path):
    app = create_app(jobs_dir=tmp_path / "jobs", cache_dir=tmp_path / "cache")
    with TestClient(app, base_url=LOCAL) as c:
        yield c, app


@pytest.mark.parametrize("name", ["draft.qmd", "draft.Rmd", "draft.txt"])
def test_the_page_checks_quarto_rmarkdown_and_text_documents(client, name):
    """Every Markdown-reader suffix the CLI reads is a citing document the page accepts and checks."""
    c, app = client
    r = c.post("/jobs", files=[("document", (name, f"{CLAIM} [@fees].\n".encode(), "text/plain")), ("bib", ("refs.bib", BIB, "text/plain")),
                               ("sources", ("fees.txt", SOURCE, "text/plain"))], headers={"accept": "application/json"})
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=120)
    assert ("done", name, 1, 1) == (s["status"], s["document"], s["summary"]["citations"], s["summary"]["sources_available"]), s


def test_the_page_checks_an_attributions_file_without_a_bibliography(client):
    """An attributions .json brings its own sources (inline text): no .bib is asked for, as on the CLI."""
    c, app = client
    doc = {"nodes": [{"id": "p1", "type": "paragraph", "text": CLAIM + ".", "attributions": [{"source_id": "fees"}]}],
           "sources": [{"id": "fees", "text": SOURCE.decode(), "title": "Fees"}]}
    r = c.post("/jobs", files=[("document", ("answer.json", json.dumps(doc).encode(), "application/json"))], headers={"accept": "application/json"})
    assert 201 == r.status_code, r.text
    s = app.state.jobs.wait(r.json()["id"], timeout=120)
    assert ("done", 1, 1) == (s["status"], s["summary"]["citations"], s["summary"]["sources_available"]), s
