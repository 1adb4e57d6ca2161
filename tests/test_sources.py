"""Sources: PDF passages with pages and boxes, bad PDFs as reasons, text sources, cache, resolution."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citeproof.model import Reference
from citeproof.text.normalise import fold
from citeproof.sources import SourceResolver, load_source
from citeproof.sources.cache import Cache
from citeproof.sources.pdf import parse_pdf
from citeproof.sources.text import parse_markdown_source

from conftest import SAMPLE

CITED = SAMPLE / "cited"


@pytest.fixture(scope="module")
def scihub():
    return parse_pdf((CITED / "himmelstein2018-scihub.pdf").read_bytes())


def test_scihub_abstract_on_page_2(scihub):
    assert 40 == scihub.pages
    abstract = [p for p in scihub.passages if "68.9%" in p.text and "81.6 million" in p.text]
    assert 1 == len(abstract)
    p = abstract[0]
    assert (2, "abstract", True) == (p.page, p.section, p.quotable)
    x0, y0, x1, y1 = p.bbox
    assert 0 <= x0 < x1 <= 595 and 0 <= y0 < y1 <= 842
    assert scihub.text[p.char_start:p.char_end] == p.text
    assert "10.7554/elife.32822" == scihub.doi


def test_wrong_ligatures_fold_to_the_same_word(scihub):
    """The Sci-Hub PDF's fi/ff ligature glyphs have no code point (U+FFFD, or 'í'/'ì' with ligatures kept).

    The parser rebuilds the words ("\ufffdgshare" -> "figshare", 10 times in the PDF); folding still makes the
    old damaged spellings match.
    """
    assert "\ufffd" not in scihub.text
    words = set(scihub.text.split())
    assert {"find", "first", "figshare", "identified"} <= {w.strip(".,;:()").lower() for w in words}
    assert fold("índ") == fold("find") and fold("diìcult") == fold("difficult") and fold("de\ufffdne") == fold("define")


def test_margin_line_numbers_dropped():
    """The PLOS submission PDF numbers its lines in the margin; passages carry no such numbers."""
    parsed = parse_pdf((CITED / "blischak2016-git-github.pdf").read_bytes())
    body = next(p for p in parsed.passages if p.text.startswith("The first step is to learn how to version your own code"))
    assert "In this tutorial, we will run Git from the" in body.text
    assert 2 == body.page


def test_running_feet_dropped():
    parsed = parse_pdf((CITED / "blischak2016-git-github.pdf").read_bytes())
    assert not any(p.text.startswith("PLOS") and "/14" in p.text for p in parsed.passages)


def _pdf_bytes(text: str | None, **save) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    if text:
        page.insert_text((72, 72), text)
    return doc.tobytes(**save)


def test_bad_pdfs_give_reasons():
    assert "encrypted" in parse_pdf(_pdf_bytes("secret", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")).error
    good = _pdf_bytes("hello world text")
    assert "corrupt or truncated" in parse_pdf(good[: len(good) // 3]).error
    assert "no text layer" in parse_pdf(_pdf_bytes(None)).error
    assert "corrupt or truncated" in parse_pdf(b"").error


def test_markdown_source_paragraphs_with_lines():
    passages, full = parse_markdown_source("---\ntitle: x\n---\n\n# Results\n\nWe found a large effect.\nIt held.\n\n```\ncode\n```\n")
    assert [("results", 5, None), ("We found a large effect. It held.", 7, None)] == [(p.text.lower() if p.line == 5 else p.text, p.line, p.page) for p in passages]
    assert "results" == passages[1].section


def test_cache_hit_and_swap(tmp_path):
    cache = Cache(tmp_path / "c")
    src = tmp_path / "s.md"
    src.write_text("Alpha beta gamma.\n")
    a = load_source("k", src, "test", cache)
    b = load_source("k", src, "test", cache)
    assert (a.sha256, [p.text for p in a.passages]) == (b.sha256, [p.text for p in b.passages])
    src.write_text("Delta epsilon.\n")  # same path, new bytes: noticed
    c = load_source("k", src, "test", cache)
    assert ["Delta epsilon."] == [p.text for p in c.passages]


def test_resolution_order(tmp_path):
    bibdir, other, sources = tmp_path / "bib", tmp_path / "other", tmp_path / "src"
    for d in (bibdir, other, sources):
        d.mkdir()
    (other / "paper.pdf").write_bytes((CITED / "blischak2016-git-github.pdf").read_bytes())
    (sources / "key2.md").write_text("Text of key two.\n")
    res = SourceResolver([bibdir, other], [sources], Cache(None))
    ref = Reference(citekey="k", files=("C:\\Users\\x\\Zotero\\storage\\ABC\\paper.pdf",), origin=f"{bibdir / 'refs.bib'}:1")
    path, how, _ = res.find(ref)
    assert (other / "paper.pdf", "bib file field, file name in a .bib folder") == (path, how)
    path, how, _ = res.find(Reference(citekey="key2", origin=f"{bibdir / 'refs.bib'}:2"))
    assert (sources / "key2.md", "--sources key2.md (citekey)") == (path, how)
    missing = res.resolve("nope", Reference(citekey="nope", origin=f"{bibdir / 'refs.bib'}:3"))
    assert missing.path is None and "no file in --sources matched" in missing.error


def test_doi_match_in_sources(tmp_path):
    (tmp_path / "whatever.pdf").write_bytes((CITED / "himmelstein2018-scihub.pdf").read_bytes())
    res = SourceResolver([], [tmp_path], Cache(None))
    path, how, _ = res.find(Reference(citekey="doi:10.7554/eLife.32822", doi="10.7554/elife.32822"))
    assert (tmp_path / "whatever.pdf", "--sources DOI match (10.7554/elife.32822)") == (path, how)


def test_ligature_repairs_use_the_documents_own_spelling():
    from citeproof.text.glyphs import Vocabulary, repair_words

    texts = ["We de\ufffdne the scope.", "Drug e\ufffdux pumps.", "Efflux was measured.", "Martín et al. agree."]
    vocab = Vocabulary(texts)
    assert ["We define the scope.", "Drug efflux pumps.", "Efflux was measured.", "Martín et al. agree."] == [repair_words(t, vocab) for t in texts]
    # without the document's own spelling, no vocabulary word explains "e?ux": the gap gets the commonest ligature
    assert "Drug efiux pumps." == repair_words("Drug e\ufffdux pumps.", Vocabulary(["Drug e\ufffdux pumps."]))


def test_sources_parse_in_parallel_as_in_series(tmp_path, monkeypatch):
    """resolve_sources with 2 parallel parses gives what 1 gives; two keys naming one file parse it once (issue 17)."""
    from citeproof import pipeline, sources as sources_mod

    for name in ("blischak2016-git-github.pdf", "himmelstein2018-scihub.pdf"):
        (tmp_path / name).write_bytes((CITED / name).read_bytes())
    refs = {
        "git": Reference(citekey="git", files=("blischak2016-git-github.pdf",), origin=f"{tmp_path / 'r.bib'}:1"),
        "hub": Reference(citekey="hub", files=("himmelstein2018-scihub.pdf",), origin=f"{tmp_path / 'r.bib'}:2"),
        "hub2": Reference(citekey="hub2", files=("himmelstein2018-scihub.pdf",), origin=f"{tmp_path / 'r.bib'}:3"),
    }
    parsed: list[str] = []
    real = sources_mod.load_source
    monkeypatch.setattr(sources_mod, "load_source", lambda key, path, *a, **k: parsed.append(path.name) or real(key, path, *a, **k))
    results = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("CITEPROOF_PARSE_WORKERS", workers)
        parsed.clear()
        res = SourceResolver([tmp_path], [], Cache(None))
        got = pipeline.resolve_sources(["git", "hub", "nope", "hub2"], refs.get, res)
        assert list(got) == ["git", "hub", "hub2"]
        assert sorted(parsed) == ["blischak2016-git-github.pdf", "himmelstein2018-scihub.pdf"]
        assert got["hub2"].citekey == "hub2" and got["hub2"].passages is got["hub"].passages
        results[workers] = {k: (s.sha256, [p.text for p in s.passages]) for k, s in got.items()}
    assert results["1"] == results["2"] and len(results["2"]["git"][1]) > 20


@pytest.mark.parametrize("bad", ["0", "two", "-1"])
def test_parse_workers_must_be_a_whole_number(monkeypatch, bad):
    """A wrong CITEPROOF_PARSE_WORKERS is an error that names the variable and what to give."""
    from citeproof.errors import CiteproofError
    from citeproof.pipeline import parse_workers

    monkeypatch.setenv("CITEPROOF_PARSE_WORKERS", bad)
    with pytest.raises(CiteproofError, match="CITEPROOF_PARSE_WORKERS=.*whole number"):
        parse_workers()
