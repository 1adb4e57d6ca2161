"""Issue 25, part 4: ``--annotate DIR`` writes findings back into copies of the cited PDFs and of a Word document.

The PDFs are the demo sample's real ones; the Word document is built the way Word stores Zotero fields (the
fixtures of ``tests/test_docx.py``). Originals are compared byte for byte before and after.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pymupdf
import pytest
from lxml import etree
from typer.testing import CliRunner

from citeproof.assist.annotate import annotate
from citeproof.cli import app
from citeproof.pipeline import CheckOptions, check
from citeproof.readers.docx import read_word
from tests.test_assist import DRAFT, _bib
from tests.test_docx import LEE, MARTINEZ, SMITH, _docx, _field, _p, _run, _zotero

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_pdf_copies_carry_a_highlight_and_note_per_evidence_box(tmp_path):
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT, encoding="utf-8")
    report = check(draft, [_bib(tmp_path)], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"]))
    originals = {f.evidence.source.path: _sha(f.evidence.source.path) for f in report.findings if f.evidence is not None}
    res = annotate(report, tmp_path / "ann")
    assert sorted(p.name for p in res.written) == ["blischak2016-git-github.citeproof.pdf", "himmelstein2018-scihub.citeproof.pdf"]
    assert {p: _sha(p) for p in originals} == originals  # the originals are only read
    with pymupdf.open(tmp_path / "ann" / "himmelstein2018-scihub.citeproof.pdf") as doc:
        notes = {(page.number + 1, a.info["subject"]): a.info["content"] for page in doc for a in page.annots() if a.type[1] == "Highlight"}
        assert all(a.vertices for page in doc for a in page.annots())  # highlights over words (quads), not bare boxes
    by_line = {f.citation.line: f for f in report.findings if f.citation.citekey == "scihub"}
    f5 = by_line[5]
    page = f5.evidence.passage.page
    note = notes[(page, f5.verdict.value)]
    assert note.startswith(f"citeproof: {f5.verdict.value} (tier lexical")
    assert f"{draft}:5:{DRAFT.splitlines()[4].index('@scihub') + 1}: [@scihub, p. 3] Coverage was substantially higher" in note
    assert "did you mean [@scihub, pp. 8\u20139]?" not in note or page == 3


@pytest.fixture
def word_doc(tmp_path) -> tuple[Path, Path]:
    body = "".join([
        _p(_run("Results"), style="Heading1"),
        _p(_run("Daily vitamin D reduced hip fractures by 22 percent in women over 70 "), _field(_zotero([(SMITH, {})]), "(Smith et al., 2020)"), _run(".")),
        _p(_run("Vitamin D doubled the rate of falls in care homes "), _field(_zotero([(SMITH, {}), (LEE, {})]), "(Lee, 2018; Smith et al., 2020)"), _run(".")),
        "<w:tbl><w:tr><w:tc>" + _p(_run("Balance training")) + "</w:tc><w:tc>"
        + _p(_run("fewer falls "), _field(_zotero([(MARTINEZ, {})]), "(Martínez, 2021)")) + "</w:tc></w:tr></w:tbl>",
    ])
    foot = '<w:footnote w:id="1">' + _p(_run("Lee reported the same in care homes "), _field(_zotero([(LEE, {})]), "(Lee, 2018)"), _run(".")) + "</w:footnote>"
    docx = _docx(tmp_path / "paper.docx", body, foot)
    src = tmp_path / "sources"
    src.mkdir()
    (src / "smith2020.md").write_text("# Vitamin D and hip fractures in older women\n\nIn 2,686 women over 70, daily vitamin D "
                                      "reduced hip fractures by 22 percent over five years.\n", encoding="utf-8")
    return docx, src


def test_word_copy_has_a_comment_at_each_flagged_citation(word_doc, tmp_path):
    docx, src = word_doc
    before = _sha(docx)
    r = CliRunner().invoke(app, ["check", str(docx), "--sources", str(src), "--out", str(tmp_path / "out"), "--format", "json",
                                 "--tier", "lexical", "-q", "--no-cache", "--annotate", str(tmp_path / "ann")])
    assert r.exit_code == 0, r.output
    assert _sha(docx) == before
    copy = tmp_path / "ann" / "paper.citeproof.docx"
    with zipfile.ZipFile(copy) as z:
        doc = etree.fromstring(z.read("word/document.xml"))
        comments = etree.fromstring(z.read("word/comments.xml"))
        assert b"comments.xml" in z.read("word/_rels/document.xml.rels")
        assert b"wordprocessingml.comments+xml" in z.read("[Content_Types].xml")
    texts = {c.get(W + "id"): "\n".join("".join(t.text or "" for t in p.iter(W + "t")) for p in c.findall(W + "p")) for c in comments}
    paras = [p for p in doc.find(W + "body") if p.tag == W + "p"]
    # paragraph 2 (supported) has no comment; paragraph 3 holds the unsupported smith2020 and the unverifiable lee2018
    assert paras[1].find(W + "commentRangeStart") is None
    ids = [e.get(W + "id") for e in paras[2].findall(W + "commentRangeStart")]
    assert len(ids) == 2 and all(paras[2].find(f"{W}r/{W}commentReference[@{W}id='{i}']") is not None for i in ids)
    said = " ".join(texts[i] for i in ids)
    assert "[@smith2020] unsupported" in said and "[@lee2018] unverifiable" in said
    assert "smith2020.md" in said  # the evidence: which source, and the passage
    report = json.loads((tmp_path / "out" / "paper.citeproof.json").read_text())
    assert len(comments) == sum(1 for f in report["findings"] if f["verdict"] != "supported" or f["tags"] or f["suggestions"]) - 1  # less the footnote's
    assert "in a footnote; not commented" in r.output
    # the copy still reads as the same document
    assert [(c.line, c.text) for c in read_word(copy).claims] == [(c.line, c.text) for c in read_word(docx).claims]


def test_annotating_into_the_originals_folder_leaves_them_alone(word_doc):
    """--annotate DIR may be the folder the document itself is in: the copy goes beside it, under another name."""
    docx, src = word_doc
    before = _sha(docx)
    report = check(docx, [], CheckOptions(source_dirs=[src], use_cache=False, tiers=["lexical"]))
    res = annotate(report, docx.parent)
    assert [p.name for p in res.written] == ["paper.citeproof.docx"] and _sha(docx) == before
