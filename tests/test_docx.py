"""Word and OpenDocument citing documents with Zotero, Mendeley and EndNote fields (issue 14, part 1).

The fixtures are written here the way Word stores them: complex fields (``fldChar`` begin/separate/end) whose
instruction is split over several ``instrText`` runs, simple fields (``fldSimple``, as Mendeley's plugin
writes), a bibliography field, a table, a heading, a footnote; and an .odt with Zotero reference marks.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.errors import InputError
from citeproof.model import CitationMode, UnitKind
from citeproof.readers.docx import read_word

runner = CliRunner()
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

SMITH = {"id": 4012, "type": "article-journal", "title": "Vitamin D and hip fractures in older women",
         "author": [{"family": "Smith", "given": "Anna"}, {"family": "Jones", "given": "B."}],
         "issued": {"date-parts": [[2020, 3]]}, "container-title": "BMJ", "DOI": "10.1136/bmj.m1234"}
LEE = {"id": 77, "type": "article-journal", "title": "Falls in care homes", "author": [{"family": "Lee", "given": "C."}],
       "issued": {"date-parts": [[2018]]}}
MARTINEZ = {"id": "a1b2", "type": "article-journal", "title": "Exercise and balance", "author": [{"family": "Martínez", "given": "D."}],
            "issued": {"date-parts": [["2021"]]}}


def _zotero(items: list[tuple[dict, dict]]) -> str:
    cit = {"citationID": "x8Yk2", "properties": {"formattedCitation": "(Smith et al., 2020)", "plainCitation": "(Smith et al., 2020)", "noteIndex": 0},
           "citationItems": [{"id": d["id"], "uris": [f"http://zotero.org/users/123/items/K{d['id']}"], "itemData": d, **o} for d, o in items],
           "schema": "https://github.com/citation-style-language/schema/raw/master/csl-citation.json"}
    return "ADDIN ZOTERO_ITEM CSL_CITATION " + json.dumps(cit)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{_esc(text)}</w:t></w:r>'


def _field(instr: str, shown: str) -> str:
    """A complex field, its instruction split into 60-character instrText runs as Word does with long ones."""
    parts = "".join(f'<w:r><w:instrText xml:space="preserve">{_esc(instr[i:i + 60])}</w:instrText></w:r>' for i in range(0, len(instr), 60))
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>' + parts + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            + _run(shown) + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def _p(*runs: str, style: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}{''.join(runs)}</w:p>"


def _docx(path: Path, body: str, footnotes: str = "") -> Path:
    doc = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W_NS}"><w:body>{body}<w:sectPr/></w:body></w:document>'
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="xml" ContentType="application/xml"/></Types>')
        z.writestr("word/document.xml", doc)
        if footnotes:
            z.writestr("word/footnotes.xml", f'<?xml version="1.0"?><w:footnotes xmlns:w="{W_NS}">{footnotes}</w:footnotes>')
    return path


@pytest.fixture
def zotero_docx(tmp_path) -> Path:
    body = "".join([
        _p(_run("Results"), style="Heading1"),
        _p(_run("Daily vitamin D reduced hip fractures by 22 percent in women over 70 "),
           _field(_zotero([(SMITH, {"locator": "33", "label": "page", "prefix": "see"})]), "(see Smith et al., 2020, p. 33)"),
           _run(". Falls were rare.")),
        _p(_run("Falls and fractures share risk factors "), _field(_zotero([(SMITH, {}), (LEE, {})]), "(Lee, 2018; Smith et al., 2020)"),
           _run(".")),
        "<w:tbl><w:tr><w:tc>" + _p(_run("Balance training")) + "</w:tc><w:tc>"
        + _p(_run("fewer falls "), _field(_zotero([(MARTINEZ, {})]), "(Martínez, 2021)")) + "</w:tc></w:tr></w:tbl>",
        _p(_field("ADDIN ZOTERO_BIBL {\"uncited\":[]} CSL_BIBLIOGRAPHY", "Smith A, Jones B. Vitamin D and hip fractures. BMJ 2020.")),
    ])
    foot = ('<w:footnote w:id="1">' + _p(_run("Lee reported the same in care homes "), _field(_zotero([(LEE, {})]), "(Lee, 2018)"), _run("."))
            + "</w:footnote>")
    return _docx(tmp_path / "paper.docx", body, foot)


def test_zotero_fields_give_claims_and_bibliography(zotero_docx):
    doc = read_word(zotero_docx)
    by_text = {c.text: c for c in doc.claims}
    claim = next(c for c in doc.claims if c.text.startswith("Daily vitamin D"))
    assert "Daily vitamin D reduced hip fractures by 22 percent in women over 70." == claim.text
    (cite,) = claim.citations
    assert ("smith2020", "see", "page", "33", 2) == (cite.citekey, cite.signal, cite.locator.label, cite.locator.value, claim.line)
    joint = next(c for c in doc.claims if c.text.startswith("Falls and fractures"))
    assert ["smith2020", "lee2018"] == [c.citekey for c in joint.citations]
    row = next(c for c in doc.claims if c.kind == UnitKind.TABLE_ROW)
    assert "Balance training" in row.text and "fewer falls" in row.text and ["martinez2021"] == [c.citekey for c in row.citations]
    foot = next(c for c in doc.claims if c.kind == UnitKind.FOOTNOTE)
    assert foot.text.startswith("Lee reported the same") and ["lee2018"] == [c.citekey for c in foot.citations]
    assert not any("BMJ 2020" in t or "Falls were rare" in t for t in by_text)
    refs = doc.bibliography().entries
    assert {"smith2020", "lee2018", "martinez2021"} == set(refs)
    assert ("Vitamin D and hip fractures in older women", "10.1136/bmj.m1234", ("Smith, Anna", "Jones, B."), "2020") == (
        refs["smith2020"].title, refs["smith2020"].doi, refs["smith2020"].authors, refs["smith2020"].year)
    assert [] == doc.diagnostics


def test_mendeley_simple_field_and_suppress_author(tmp_path):
    cit = {"citationItems": [{"id": "ITEM-1", "itemData": LEE, "suppress-author": 1, "uris": ["http://www.mendeley.com/documents/?uuid=9f"]}],
           "mendeley": {"formattedCitation": "(2018)"}, "properties": {"noteIndex": 0}, "schema": "https://github.com/citation-style-language/schema/raw/master/csl-citation.json"}
    body = _p(_run("Lee found that falls were common in care homes "),
              f'<w:fldSimple w:instr="{_esc("ADDIN CSL_CITATION " + json.dumps(cit))}">{_run("(2018)")}</w:fldSimple>', _run("."))
    doc = read_word(_docx(tmp_path / "m.docx", body))
    (claim,) = doc.claims
    assert "Lee found that falls were common in care homes." == claim.text
    assert ("lee2018", CitationMode.SUPPRESS_AUTHOR) == (claim.citations[0].citekey, claim.citations[0].mode)


def test_endnote_field(tmp_path):
    xml = ("<EndNote><Cite><Author>Smith</Author><Year>2020</Year><RecNum>12</RecNum><DisplayText>(Smith, 2020)</DisplayText>"
           "<record><rec-number>12</rec-number><contributors><authors><author>Smith, Anna</author></authors></contributors>"
           "<titles><title>Vitamin D and hip fractures in older women</title><secondary-title>BMJ</secondary-title></titles>"
           "<dates><year>2020</year></dates><electronic-resource-num>10.1136/bmj.m1234</electronic-resource-num></record></Cite></EndNote>")
    body = _p(_run("Vitamin D prevents hip fractures "), _field("ADDIN EN.CITE " + xml, "(Smith, 2020)"), _run("."))
    doc = read_word(_docx(tmp_path / "e.docx", body))
    (claim,) = doc.claims
    assert ["smith2020"] == [c.citekey for c in claim.citations]
    ref = doc.references["smith2020"]
    assert ("10.1136/bmj.m1234", "BMJ") == (ref.doi, ref.container)


def test_odt_with_zotero_reference_marks(tmp_path):
    name = _esc(_zotero([(SMITH, {})])[len("ADDIN "):] + " RNDa8d3kq")
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
               f'<text:p>Vitamin D reduced fractures <text:reference-mark-start text:name="{name}"/>(Smith et al., 2020)'
               f'<text:reference-mark-end text:name="{name}"/>. Other text.</text:p></office:text></office:body></office:document-content>')
    path = tmp_path / "p.odt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    (claim,) = read_word(path).claims
    assert ("Vitamin D reduced fractures.", ["smith2020"]) == (claim.text, [c.citekey for c in claim.citations])


def test_no_fields_is_said(tmp_path):
    doc = read_word(_docx(tmp_path / "plain.docx", _p(_run("Falls are common (Lee 2018)."))))
    assert [] == doc.claims
    assert ["docx-no-citations"] == [d.code for d in doc.diagnostics] and "plain.docx" in doc.diagnostics[0].message


@pytest.mark.parametrize("content", [b"not a zip", None])
def test_bad_packages_name_the_file(tmp_path, content):
    path = tmp_path / "bad.docx"
    if content is None:
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("other.xml", "<a/>")
    else:
        path.write_bytes(content)
    with pytest.raises(InputError, match="bad.docx"):
        read_word(path)
    r = runner.invoke(app, ["check", str(path), "--tier", "lexical", "--no-cache"])
    assert 2 == r.exit_code and "bad.docx" in r.output


def test_check_gate_and_audit_need_no_bib(zotero_docx, tmp_path):
    """The fields are the bibliography: check judges against --sources by citekey; gate and audit work on .docx."""
    src = tmp_path / "sources"
    src.mkdir()
    (src / "smith2020.md").write_text("# Vitamin D and hip fractures in older women\n\nIn 2,686 women over 70, daily vitamin D "
                                      "reduced hip fractures by 22 percent over five years.\n")
    r = runner.invoke(app, ["check", str(zotero_docx), "--sources", str(src), "--out", str(tmp_path / "out"), "--format", "json",
                            "--tier", "lexical", "--quiet", "--no-cache"])
    assert 0 == r.exit_code, r.output
    report = json.loads((tmp_path / "out" / "paper.citeproof.json").read_text())
    first = next(f for f in report["findings"] if f["claim"].startswith("Daily vitamin D"))
    assert ("smith2020", "supported", 2) == (first["citekey"], first["verdict"], first["line"])
    verdicts = sorted((f["line"], f["citekey"], f["verdict"]) for f in report["findings"])
    assert [(2, "smith2020", "supported"), (3, "lee2018", "unverifiable"), (3, "smith2020", "unsupported"),
            (4, "martinez2021", "unverifiable"), (7, "lee2018", "unverifiable")] == verdicts  # table row: its first cell's paragraph; footnotes count on after the body
    assert 0 == runner.invoke(app, ["gate", str(zotero_docx)]).exit_code
    audit = runner.invoke(app, ["audit", str(zotero_docx), "--sources", str(src), "--no-cache", "--quiet"])
    assert 1 == audit.exit_code and "lee2018" in audit.output and "smith2020" not in audit.output


def test_field_items_are_read_leniently_by_the_one_csl_reader(tmp_path):
    """A plugin-written item with wrongly typed variables keeps its good ones; the same item in a --bib file is an error naming its path."""
    odd = {"id": 9, "type": "article-journal", "title": "Hip protectors in nursing homes", "author": [{"family": "Kiel", "given": "D."}, "et al."],
           "issued": {"date-parts": "2007"}, "DOI": ["10.1001/jama.298.4.413"], "page": 413}
    doc = read_word(_docx(tmp_path / "odd.docx", _p(_run("Hip protectors did not prevent fractures "), _field(_zotero([(odd, {})]), "(Kiel, 2007)"), _run("."))))
    ref = doc.references["kiel"]
    assert ("Hip protectors in nursing homes", ("Kiel, D.",), "", "", "413") == (ref.title, ref.authors, ref.year, ref.doi, ref.pages)
    bib = tmp_path / "odd.json"
    bib.write_text(json.dumps([odd]))
    from citeproof.bibliography import read_csl_json
    from citeproof.errors import BibliographyError

    with pytest.raises(BibliographyError, match=r"odd\.json: \$\[0\]\.author\[1\]: expected a name object"):
        read_csl_json(bib)


def _plain_docx(path: Path, body_paras: list[str], refs: list[str], heading: str = "References", table: str = "", foot: str = "") -> Path:
    body = "".join([_p(_run("Falls in older adults"), style="Heading1"), *[_p(_run(t)) for t in body_paras], table,
                    _p(_run(heading), style="Heading1"), *[_p(_run(r)) for r in refs]])
    return _docx(path, body, foot)


AY_REFS = ["Lee, C. (2018). Falls in care homes. Age and Ageing, 47(2), 200-207.",
           "Smith, A., Jones, B., & Brown, C. (2020). Vitamin D and hip fractures in older women. BMJ, 368, m1234. https://doi.org/10.1136/bmj.m1234",
           "Martínez, D., & Okafor, E. (2021). Exercise and balance in older adults. Journal of Aging Research, 12, 33-41."]


def test_plain_text_author_year_citations_and_typed_list(tmp_path):
    """A .docx with (Smith et al., 2020) typed as text and an APA reference list: read as the PDF reader reads them."""
    foot = '<w:footnote w:id="1">' + _p(_run("Lee (2018) reported the same in care homes.")) + "</w:footnote>"
    path = _plain_docx(tmp_path / "typed.docx", [
        "Daily vitamin D reduced hip fractures by 22 percent in women over 70 (see Smith et al., 2020, p. 33).",
        "Balance training reduces falls (Martínez & Okafor, 2021; Lee, 2018). Falls were rare in one trial (Nguyen, 2017).",
    ], AY_REFS, foot=foot)
    doc = read_word(path)
    first = next(c for c in doc.claims if c.text.startswith("Daily vitamin D"))
    (cite,) = first.citations
    assert ("Smith et al. 2020", "see", "page", "33", 2) == (cite.citekey, cite.signal, cite.locator.label, cite.locator.value, first.line)
    assert "Daily vitamin D reduced hip fractures by 22 percent in women over 70." == first.text
    both = next(c for c in doc.claims if c.text.startswith("Balance training"))
    assert ["Martínez and Okafor 2021", "Lee 2018"] == [c.citekey for c in both.citations]
    nguyen = next(c for c in doc.claims if c.text.startswith("Falls were rare"))
    assert ["Nguyen 2017"] == [c.citekey for c in nguyen.citations]
    foot_claim = next(c for c in doc.claims if c.kind == UnitKind.FOOTNOTE)
    assert [("Lee 2018", CitationMode.NARRATIVE)] == [(c.citekey, c.mode) for c in foot_claim.citations]
    bib = doc.bibliography()
    assert {"Lee 2018", "Smith et al. 2020", "Martínez and Okafor 2021"} == set(bib.entries)
    assert ("10.1136/bmj.m1234", "2020") == (bib.entries["Smith et al. 2020"].doi, bib.entries["Smith et al. 2020"].year)
    assert "no first author 'Nguyen' with year 2017" in bib.unknown_reasons["Nguyen 2017"]
    assert not any("Age and Ageing" in c.text for c in doc.claims)  # the reference list is not claims
    assert {"docx-unlinked-marker", "docx-plain-citations"} == {d.code for d in doc.diagnostics}


NUMBERED = ["C. Lee. Falls in care homes. Age and Ageing, 47(2):200-207, 2018.",
            "A. Smith, B. Jones, and C. Brown. Vitamin D and hip fractures in older women. BMJ, 368:m1234, 2020. doi:10.1136/bmj.m1234",
            "D. Martínez and E. Okafor. Exercise and balance in older adults. Journal of Aging Research, 12:33-41, 2021."]


def test_plain_text_numeric_citations_with_word_numbered_list(tmp_path):
    """[1]-style markers, a list numbered by Word itself (no number in the text), and a marker in a table cell."""
    table = ("<w:tbl><w:tr><w:tc>" + _p(_run("Balance training")) + "</w:tc><w:tc>" + _p(_run("fewer falls [3]")) + "</w:tc></w:tr></w:tbl>")
    path = _plain_docx(tmp_path / "numeric.docx", [
        "Daily vitamin D reduced hip fractures by 22 percent in women over 70 [2].",
        "Falls and fractures share risk factors [1, 2]. Some trials disagree [1-3].",
    ], NUMBERED, heading="Bibliography", table=table)
    doc = read_word(path)
    assert [("2",), ("1", "2"), ("1", "2", "3"), ("3",)] == [tuple(c.citekey for c in cl.citations) for cl in doc.claims]
    assert "Balance training; fewer falls" == doc.claims[-1].text
    assert ("Vitamin D and hip fractures in older women", "10.1136/bmj.m1234") == (doc.references["2"].title, doc.references["2"].doi)
    assert {} == doc.unknown_reasons
    labelled = read_word(_plain_docx(tmp_path / "labelled.docx", ["Vitamin D prevents fractures [2]. Nothing else does [4]."],
                                     [f"[{k}] {r}" for k, r in enumerate(NUMBERED, start=1)]))
    assert [["2"], ["4"]] == [[c.citekey for c in cl.citations] for cl in labelled.claims]
    assert "marker [4] has no entry 4 in the reference list (3 entries found)" == labelled.bibliography().unknown_reasons["4"]


def test_plain_text_docx_goes_through_check(tmp_path):
    src = tmp_path / "sources"
    src.mkdir()
    path = _plain_docx(tmp_path / "typed.docx", ["Daily vitamin D reduced hip fractures by 22 percent in women over 70 (Smith et al., 2020)."], AY_REFS)
    (src / "10.1136_bmj.m1234.md").write_text("# Vitamin D and hip fractures in older women\n\nIn 2,686 women over 70, daily vitamin D "
                                              "reduced hip fractures by 22 percent over five years.\n")
    r = runner.invoke(app, ["check", str(path), "--sources", str(src), "--out", str(tmp_path / "out"), "--format", "json", "--tier", "lexical", "--quiet", "--no-cache"])
    assert 0 == r.exit_code, r.output
    (f,) = json.loads((tmp_path / "out" / "typed.citeproof.json").read_text())["findings"]
    assert ("Smith et al. 2020", 2) == (f["citekey"], f["line"])


def test_a_zip_bomb_part_is_refused_before_it_is_inflated(tmp_path):
    path = tmp_path / "bomb.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"<" + b" " * (65 * 2**20) + b"/>")
    assert path.stat().st_size < 2**20
    with pytest.raises(InputError, match=r"bomb\.docx: word/document\.xml unpacks to 65 MiB, over the 64 MiB limit"):
        read_word(path)
