"""Word citing documents as each reference manager really stores them, and packages built to hurt (issues 26 part 2, 31 part 5).

Each fixture is written the way its manager writes it:

- Zotero with "store citations as bookmarks": a ``ZOTERO_BREF_<12 characters>`` bookmark around the citation's
  text and its code in ``docProps/custom.xml``, cut into properties ``<name>_1``, ``_2``... of 255 characters
  (Zotero's Word integration, ``Properties.setProperty``), ``ZOTERO_`` + ``ITEM CSL_CITATION {json}``;
- EndNote with a long citation: ``ADDIN EN.CITE`` holding the nested field ``ADDIN EN.CITE.DATA``, the
  ``<EndNote>`` XML base64 in ``<w:fldData>`` of both ``fldChar begin`` runs, wrapped at 76 characters;
- Mendeley Cite v3: an inline content control tagged ``MENDELEY_CITATION_v3_<base64 JSON>`` and a block-level one
  tagged ``MENDELEY_BIBLIOGRAPHY``;
- legacy Mendeley Desktop: ``ADDIN Mendeley Citation{uuid} CSL_CITATION {json}``;
- a .docx made by pandoc itself from a Markdown draft (pypandoc-binary, the test extra), citations left as text.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import textwrap
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.errors import InputError
from citeproof.model import CitationMode
from citeproof.readers.docx import read_word

runner = CliRunner()
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
SMITH = {"id": "ITEM-1", "type": "article-journal", "title": "Vitamin D and hip fractures in older women",
         "author": [{"family": "Smith", "given": "Anna"}, {"family": "Jones", "given": "B."}],
         "issued": {"date-parts": [["2020"]]}, "container-title": "BMJ", "DOI": "10.1136/bmj.m1234"}
LEE = {"id": "ITEM-2", "type": "article-journal", "title": "Falls in care homes", "author": [{"family": "Lee", "given": "C."}],
       "issued": {"date-parts": [["2018"]]}}


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{_esc(text)}</w:t></w:r>'


def _package(path: Path, body: str, custom: dict[str, str] | None = None) -> Path:
    doc = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W_NS}">'
           f"<w:body>{body}<w:sectPr/></w:body></w:document>")
    types = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
             + ('<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>' if custom else "")
             + "</Types>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", types)
        z.writestr("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
                   "</Relationships>")
        z.writestr("word/document.xml", doc)
        if custom:
            props = "".join(f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{i}" name="{_esc(k)}"><vt:lpwstr>{_esc(v)}</vt:lpwstr></property>'
                            for i, (k, v) in enumerate(custom.items(), start=2))
            z.writestr("docProps/custom.xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                       '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
                       f'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">{props}</Properties>')
    return path


def _csl_citation(items: list[tuple[dict, dict]], uri_base: str) -> dict:
    return {"citationID": "a1b2c3", "properties": {"formattedCitation": "(Smith et al., 2020)", "plainCitation": "(Smith et al., 2020)", "noteIndex": 0},
            "citationItems": [{"id": d["id"], "uris": [f"{uri_base}{d['id']}"], "itemData": d, **o} for d, o in items],
            "schema": "https://github.com/citation-style-language/schema/raw/master/csl-citation.json"}


def _only_claim_keys(doc) -> list[list[str]]:
    return [[c.citekey for c in cl.citations] for cl in doc.claims if cl.citations]


def test_zotero_citations_stored_as_bookmarks_are_read_from_the_custom_properties(tmp_path):
    code = "ZOTERO_ITEM CSL_CITATION " + json.dumps(_csl_citation([(SMITH, {"locator": "33", "label": "page"})], "http://zotero.org/users/4711/items/"))
    assert len(code) > 600  # so the code spans three 255-character properties, as Zotero cuts it
    name = "ZOTERO_BREF_GiQ7DAWQYWLy"
    custom = {"ZOTERO_PREF_1": '<data data-version="3"><session id="x"/><prefs><pref name="fieldType" value="Bookmark"/></prefs></data>'}
    custom.update({f"{name}_{i // 255 + 1}": code[i:i + 255] for i in range(0, len(code), 255)})
    custom["ZOTERO_BREF_tY8k2LmQp0Zs_1"] = "ZOTERO_BIBL {\"uncited\":[],\"omitted\":[],\"custom\":[]} CSL_BIBLIOGRAPHY"
    body = (f"<w:p>{_run('Daily vitamin D reduced hip fractures by 22 percent in women over 70 ')}"
            f'<w:bookmarkStart w:id="0" w:name="{name}"/>{_run("(Smith et al., 2020, p. 33)")}<w:bookmarkEnd w:id="0"/>{_run(".")}</w:p>'
            f'<w:p><w:bookmarkStart w:id="1" w:name="ZOTERO_BREF_tY8k2LmQp0Zs"/>{_run("Smith, A., & Jones, B. (2020). Vitamin D and hip fractures. BMJ.")}'
            '<w:bookmarkEnd w:id="1"/></w:p>')
    doc = read_word(_package(tmp_path / "bookmarks.docx", body, custom))
    assert _only_claim_keys(doc) == [["smith2020"]]
    cit = doc.claims[0].citations[0]
    assert cit.locator.raw == "p. 33"
    ref = doc.references["smith2020"]
    assert (ref.title, ref.doi, ref.year) == ("Vitamin D and hip fractures in older women", "10.1136/bmj.m1234", "2020")
    assert "(Smith et al., 2020" not in doc.claims[0].text  # the shown citation is replaced, not read as prose
    assert not [d for d in doc.diagnostics if d.code == "docx-no-citations"]


def test_zotero_bookmarks_in_an_odt_are_read_from_its_user_defined_properties(tmp_path):
    """LibreOffice's Zotero plugin, "store citations as bookmarks": codes in meta.xml, 255 characters a piece;
    a bookmark LibreOffice renamed on copy (a digit appended) still finds its code."""
    code = "ZOTERO_ITEM CSL_CITATION " + json.dumps(_csl_citation([(SMITH, {"locator": "33", "label": "page"})], "http://zotero.org/users/4711/items/"))
    name = "ZOTERO_BREF_GiQ7DAWQYWLy"
    props = "".join(f'<meta:user-defined meta:name="{name}_{i // 255 + 1}" meta:value-type="string">{_esc(code[i:i + 255])}</meta:user-defined>'
                    for i in range(0, len(code), 255))
    props += '<meta:user-defined meta:name="ZOTERO_PREF_1" meta:value-type="string">&lt;data/&gt;</meta:user-defined>'
    text_ns = 'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    office = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {office} {text_ns}><office:body><office:text>'
               f'<text:p>Daily vitamin D reduced hip fractures by 22 percent in women over 70 <text:bookmark-start text:name="{name}"/>'
               f'(Smith et al., 2020, p. 33)<text:bookmark-end text:name="{name}"/>.</text:p>'
               f'<text:p>A second trial found the same in men <text:bookmark-start text:name="{name}1"/>(Smith et al., 2020, p. 33)'
               f'<text:bookmark-end text:name="{name}1"/>.</text:p>'
               '<text:p>Uncited text <text:bookmark-start text:name="ZOTERO_BREF_nocode000000"/>(Lee 2018)'
               '<text:bookmark-end text:name="ZOTERO_BREF_nocode000000"/>.</text:p>'
               '</office:text></office:body></office:document-content>')
    meta = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-meta {office} xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0">'
            f"<office:meta>{props}</office:meta></office:document-meta>")
    path = tmp_path / "bookmarks.odt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
        z.writestr("meta.xml", meta)
    doc = read_word(path)
    assert _only_claim_keys(doc) == [["smith2020"], ["smith2020"]]
    assert doc.claims[0].citations[0].locator.raw == "p. 33" and "(Smith et al." not in doc.claims[0].text
    assert doc.references["smith2020"].doi == "10.1136/bmj.m1234"
    (warn,) = [d for d in doc.diagnostics if "nocode" in d.message]
    assert "has no code in the document's properties" in warn.message


def _endnote_xml() -> str:
    return ('<EndNote><Cite><Author>Smith</Author><Year>2020</Year><RecNum>42</RecNum><DisplayText>(Smith et al. 2020)</DisplayText>'
            '<record><rec-number>42</rec-number><foreign-keys><key app="EN" db-id="vx9d2f5p0">42</key></foreign-keys>'
            '<ref-type name="Journal Article">17</ref-type><contributors><authors><author>Smith, Anna</author><author>Jones, B.</author></authors></contributors>'
            '<titles><title>Vitamin D and hip fractures in older women</title><secondary-title>BMJ</secondary-title></titles>'
            '<dates><year>2020</year></dates><electronic-resource-num>10.1136/bmj.m1234</electronic-resource-num></record></Cite>'
            '<Cite><Author>Lee</Author><Year>2018</Year><RecNum>7</RecNum><record><rec-number>7</rec-number>'
            '<contributors><authors><author>Lee, C.</author></authors></contributors><titles><title>Falls in care homes</title></titles>'
            '<dates><year>2018</year></dates></record></Cite></EndNote>')


def _endnote_field(payload: str | None) -> str:
    data = "\n".join(textwrap.wrap(base64.b64encode(payload.encode()).decode(), 76)) if payload is not None else ""
    begin = f'<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">{data}</w:fldData></w:fldChar></w:r>'
    return (begin + '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE </w:instrText></w:r>'
            + begin + '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE.DATA </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            + _run("(Lee 2018; Smith et al. 2020)") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def test_endnote_citation_with_its_record_base64_in_flddata(tmp_path):
    body = f"<w:p>{_run('Falls and hip fractures share their risk factors ')}{_endnote_field(_endnote_xml())}{_run('.')}</w:p>"
    doc = read_word(_package(tmp_path / "endnote.docx", body))
    assert _only_claim_keys(doc) == [["smith2020", "lee2018"]]
    assert doc.references["smith2020"].doi == "10.1136/bmj.m1234"
    assert doc.references["lee2018"].title == "Falls in care homes"
    assert "ADDIN" not in doc.claims[0].text and "(Lee 2018" not in doc.claims[0].text


def test_endnote_field_without_a_readable_record_is_said(tmp_path):
    body = f"<w:p>{_run('Falls and hip fractures share their risk factors ')}{_endnote_field(None)}{_run('.')}</w:p>"
    doc = read_word(_package(tmp_path / "endnote.docx", body))
    msgs = [d.message for d in doc.diagnostics if d.code == "docx-field"]
    assert len(msgs) == 1 and "EndNote field without its record" in msgs[0] and "paragraph 1" in msgs[0]


def test_mendeley_cite_v3_content_controls(tmp_path):
    payload = _csl_citation([(SMITH, {}), (LEE, {"locator": "4", "label": "page"})], "http://www.mendeley.com/documents/?uuid=")
    payload.update({"citationID": "MENDELEY_CITATION_6c2e5a8b-1f3d-4c8e-9a7b-2d4f6e8a0c1e", "isEdited": False,
                    "manualOverride": {"isManuallyOverridden": False, "citeprocText": "(Lee, 2018; Smith et al., 2020)", "manualOverrideText": ""}})
    tag = "MENDELEY_CITATION_v3_" + base64.b64encode(json.dumps(payload).encode()).decode()
    body = (f"<w:p>{_run('Falls and hip fractures share their risk factors ')}"
            f'<w:sdt><w:sdtPr><w:rPr><w:color w:val="000000"/></w:rPr><w:tag w:val="{tag}"/><w:id w:val="-1723137433"/></w:sdtPr>'
            f"<w:sdtContent>{_run('(Lee, 2018, p. 4; Smith et al., 2020)')}</w:sdtContent></w:sdt>{_run('.')}</w:p>"
            f'<w:sdt><w:sdtPr><w:tag w:val="MENDELEY_BIBLIOGRAPHY"/><w:id w:val="1"/></w:sdtPr><w:sdtContent>'
            f"<w:p>{_run('Lee, C. (2018). Falls in care homes.')}</w:p></w:sdtContent></w:sdt>")
    doc = read_word(_package(tmp_path / "mendeley3.docx", body))
    assert _only_claim_keys(doc) == [["smith2020", "lee2018"]]
    assert doc.claims[0].citations[1].locator.raw == "p. 4"
    assert doc.references["smith2020"].title == "Vitamin D and hip fractures in older women"
    assert len(doc.claims) == 1  # the bibliography control is not read as text


def test_legacy_mendeley_desktop_field(tmp_path):
    cit = _csl_citation([(SMITH, {})], "http://www.mendeley.com/documents/?uuid=")
    cit["mendeley"] = {"formattedCitation": "(Smith et al., 2020)", "plainTextFormattedCitation": "(Smith et al., 2020)",
                       "previouslyFormattedCitation": "(Smith et al., 2020)"}
    instr = "ADDIN Mendeley Citation{6a5c8e2f-3b1d-4f7a-9c2e-8d0b4a6f1e3c} CSL_CITATION " + json.dumps(cit)
    body = (f"<w:p>{_run('Daily vitamin D reduced hip fractures by 22 percent in women over 70 ')}"
            f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">{_esc(instr)}</w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_run("(Smith et al., 2020)")}<w:r><w:fldChar w:fldCharType="end"/></w:r>{_run(".")}</w:p>')
    doc = read_word(_package(tmp_path / "mendeley.docx", body))
    assert _only_claim_keys(doc) == [["smith2020"]]


@pytest.fixture
def pandoc():
    pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (the test extra) converts the Markdown draft")
    try:
        pypandoc.get_pandoc_version()
    except OSError:
        pytest.skip("pandoc is not installed")
    return pypandoc


def test_docx_made_by_pandoc_keeps_its_text_citations(tmp_path, pandoc):
    md = tmp_path / "draft.md"
    md.write_text("# Results\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70 [see @smith2020, p. 33].\n\n"
                  "Falls were rare in care homes [@lee2018; @smith2020].\n\n@lee2018 counted falls in 40 care homes.\n", encoding="utf-8")
    out = tmp_path / "draft.docx"
    pandoc.convert_file(str(md), "docx", outputfile=str(out))  # no --citeproc: the citations stay as text, as a draft's do
    doc = read_word(out)
    assert _only_claim_keys(doc) == [["smith2020"], ["lee2018", "smith2020"], ["lee2018"]]
    assert doc.claims[0].citations[0].locator.raw == "p. 33"
    assert doc.claims[2].citations[0].mode == CitationMode.NARRATIVE
    assert not [d for d in doc.diagnostics if d.code == "docx-no-citations"]
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{smith2020, title={Vitamin D and hip fractures}, author={Smith, Anna}, year={2020}}\n"
                   "@article{lee2018, title={Falls in care homes}, author={Lee, C.}, year={2018}}\n", encoding="utf-8")
    res = runner.invoke(app, ["gate", str(out), "--bib", str(bib)])
    assert res.exit_code == 0, res.output
    assert "4 citations, every citekey is in the bibliography" in res.output


# --- packages built to hurt (issue 31, part 5) -------------------------------------------------------------------

def _understated(path: Path, real: int) -> Path:
    """A .docx whose document.xml really unpacks to ``real`` bytes while both zip headers declare 1,024."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(f'<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>'.encode())
            block = b"a" * (1 << 20)
            for _ in range(real >> 20):
                fh.write(block)
            fh.write(b"</w:t></w:r></w:p></w:body></w:document>")
    data = bytearray(buf.getvalue())
    name = b"word/document.xml"
    for sig, size_at in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):  # central directory, then local header
        at = 0
        while (at := data.find(sig, at)) >= 0:
            name_len = struct.unpack_from("<H", data, at + (28 if sig == b"PK\x01\x02" else 26))[0]
            start = at + (46 if sig == b"PK\x01\x02" else 30)
            if bytes(data[start:start + name_len]) == name:
                if struct.unpack_from("<I", data, size_at + at)[0] != 0xFFFFFFFF:
                    struct.pack_into("<I", data, at + size_at, 1024)
                extra_len = struct.unpack_from("<H", data, at + (30 if sig == b"PK\x01\x02" else 28))[0]
                extra = start + name_len
                if sig == b"PK\x01\x02":  # the zip64 extra field holds the real sizes: declare 1 KB there too
                    end = extra + extra_len
                    i = extra
                    while i + 4 <= end:
                        hid, hlen = struct.unpack_from("<HH", data, i)
                        if hid == 1:
                            struct.pack_into("<Q", data, i + 4, 1024)
                        i += 4 + hlen
            at += 4
    path.write_bytes(bytes(data))
    return path


@pytest.mark.slow
def test_a_part_whose_header_understates_it_is_read_within_a_small_budget(tmp_path):
    path = _understated(tmp_path / "understated.docx", 256 << 20)
    assert zipfile.ZipFile(path).getinfo("word/document.xml").file_size == 1024
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as info:
            read_word(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"peak {peak >> 20} MiB"  # reading it whole unpacked the full 256 MiB first
    msg = str(info.value)
    assert msg.startswith(f"{path}: word/document.xml cannot be unpacked") and "\n" not in msg
    res = runner.invoke(app, ["gate", str(path), "--bib", str(_bib(tmp_path))])
    assert res.exit_code == 2 and "understated.docx" in res.output and "Traceback" not in res.output


def _bib(tmp_path: Path) -> Path:
    p = tmp_path / "refs.bib"
    p.write_text("@article{smith2020, title={T}, author={Smith, A.}, year={2020}}\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_100000_nested_elements_exit_2_naming_the_file(tmp_path, suffix):
    path = tmp_path / f"deep{suffix}"
    deep = "<w:r>" * 100_000 + "</w:r>" * 100_000
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if suffix == ".docx":
            z.writestr("word/document.xml", f'<w:document xmlns:w="{W_NS}"><w:body><w:p>{deep}</w:p></w:body></w:document>')
        else:
            z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
            z.writestr("content.xml", '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                       f'xmlns:w="{W_NS}"><office:body><office:text>{deep}</office:text></office:body></office:document-content>')
    with pytest.raises(InputError, match=r"nests elements more than 256 deep"):
        read_word(path)
    res = runner.invoke(app, ["gate", str(path), "--bib", str(_bib(tmp_path))])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"deep{suffix}" in lines[0] and "RecursionError" not in res.output


def test_a_truncated_docx_exits_2_with_one_line(tmp_path):
    whole = _package(tmp_path / "whole.docx", f"<w:p>{_run('Text.')}</w:p>").read_bytes()
    path = tmp_path / "truncated.docx"
    path.write_bytes(whole[: len(whole) // 2])
    res = runner.invoke(app, ["gate", str(path), "--bib", str(_bib(tmp_path))])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "truncated.docx" in lines[0] and "Traceback" not in res.output


@pytest.mark.parametrize("instr", [
    'ADDIN ZOTERO_ITEM CSL_CITATION {"citationItems": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "ADDIN EN.CITE " + "<EndNote>" + "<Cite>" * 50 + "</EndNote>",
])
def test_hostile_field_payloads_are_one_warning_each(tmp_path, instr):
    body = (f"<w:p>{_run('Falls doubled ')}<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r>"
            f'<w:r><w:instrText xml:space="preserve">{_esc(instr)}</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'{_run("(Smith 2020)")}<w:r><w:fldChar w:fldCharType="end"/></w:r>{_run(".")}</w:p>')
    doc = read_word(_package(tmp_path / "hostile.docx", body))
    warnings = [d for d in doc.diagnostics if d.code == "docx-field"]
    assert len(warnings) == 1 and "paragraph 1" in warnings[0].message and "skipped" in warnings[0].message


def test_a_mendeley_tag_that_is_not_base64_is_said(tmp_path):
    body = (f"<w:p>{_run('Falls doubled ')}<w:sdt><w:sdtPr><w:tag w:val=\"MENDELEY_CITATION_v3_not*base64!\"/></w:sdtPr>"
            f"<w:sdtContent>{_run('(Smith 2020)')}</w:sdtContent></w:sdt>{_run('.')}</w:p>")
    doc = read_word(_package(tmp_path / "m.docx", body))
    warnings = [d.message for d in doc.diagnostics if d.code == "docx-field"]
    assert len(warnings) == 1 and "unreadable Mendeley Cite content control" in warnings[0]
    assert not [d for d in doc.diagnostics if d.code == "docx-no-citations"]


def test_citations_in_endnotes_are_read_after_the_footnotes(tmp_path):
    instr = "ZOTERO_ITEM CSL_CITATION " + json.dumps(_csl_citation([(LEE, {})], "http://zotero.org/users/4711/items/"))
    path = _package(tmp_path / "notes.docx", f"<w:p>{_run('Falls were common.')}<w:r><w:endnoteReference w:id=\"2\"/></w:r></w:p>")
    endnotes = (f'<w:endnotes xmlns:w="{W_NS}"><w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote>'
                f'<w:endnote w:id="2"><w:p>{_run("Falls in care homes doubled over the decade ")}'
                f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN {_esc(instr)} </w:instrText></w:r>'
                f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_run("(Lee, 2018)")}<w:r><w:fldChar w:fldCharType="end"/></w:r>{_run(".")}</w:p>'
                "</w:endnote></w:endnotes>")
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("word/endnotes.xml", endnotes)
    doc = read_word(path)
    assert _only_claim_keys(doc) == [["lee2018"]]
    assert doc.claims[0].kind.value == "footnote" and doc.claims[0].line == 3  # body paragraph 1, the separator 2, the endnote 3
