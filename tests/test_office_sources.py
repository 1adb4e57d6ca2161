"""Office files as cited sources: .docx, .odt, .pptx read into passages with paragraph numbers (issue 19, part 3).

The .docx, .odt and .pptx files are written here by pandoc (pypandoc-binary, a test dependency) from one
Markdown article, as a word processor would save them: a title block, headings, a table, a footnote; the deck
has speaker notes. A .docx with tracked changes and a field is written by hand the way Word stores them.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.model import Reference, Verdict
from citeproof.office_xml import MAX_PART_BYTES
from citeproof.pipeline import CheckOptions, check
from citeproof.sources import SourceResolver, load_source
from citeproof.sources.cache import Cache
from citeproof.sources.office import parse_office

pypandoc = pytest.importorskip("pypandoc")

ARTICLE = """---
title: Tidal marshes store carbon
author: Luz Reyes
---

# Introduction

Tidal marshes bury 218 grams of carbon per square metre each year, more than most forests.[^1]

| Site | Burial rate |
|------|------|
| Plum Island | 218 |
| Elkhorn Slough | 144 |

# Methods

We cored 24 marshes along the Atlantic coast between 2015 and 2018.

[^1]: Measured with lead-210 dating.
"""

DECK = """---
title: Marsh carbon
---

# Burial rates

- Marshes bury 218 g C per square metre per year
- Forests bury far less

::: notes
The rates come from lead-210 dating of 24 cores.
:::

# Methods

We cored 24 marshes.
"""

EXPECTED = [  # (paragraph, section, text): the same for the .docx and the .odt pandoc writes from ARTICLE
    (1, None, "Tidal marshes store carbon"),
    (2, None, "Luz Reyes"),
    (3, "introduction", "Introduction"),
    (4, "introduction", "Tidal marshes bury 218 grams of carbon per square metre each year, more than most forests."),
    (5, "introduction", "Site | Burial rate"),
    (7, "introduction", "Plum Island | 218"),
    (9, "introduction", "Elkhorn Slough | 144"),
    (11, "methods", "Methods"),
    (12, "methods", "We cored 24 marshes along the Atlantic coast between 2015 and 2018."),
    (13, "notes", "Measured with lead-210 dating."),
]


def _write(tmp_path: Path, markdown: str, suffix: str, name: str = "marsh") -> Path:
    out = tmp_path / f"{name}{suffix}"
    pypandoc.convert_text(markdown, suffix[1:], format="markdown", outputfile=str(out))
    return out


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_word_and_odt_paragraphs_numbered_alike(tmp_path, suffix):
    doc = parse_office(_write(tmp_path, ARTICLE, suffix).read_bytes(), suffix)
    assert doc.error is None and "Tidal marshes store carbon" == doc.title and 0 == doc.pages
    got = [(p.line, p.section if p.line > 2 else None, p.text) for p in doc.passages]
    assert EXPECTED == got
    assert all(p.page is None and doc.text[p.char_start:p.char_end] == p.text for p in doc.passages)


def test_pptx_slides_are_pages_and_notes_follow(tmp_path):
    doc = parse_office(_write(tmp_path, DECK, ".pptx").read_bytes(), ".pptx")
    assert doc.error is None and 3 == doc.pages and "Marsh carbon" == doc.title
    got = [(p.page, p.line, p.section, p.text) for p in doc.passages]
    assert [
        (1, 1, "marsh carbon", "Marsh carbon"),
        (2, 2, "burial rates", "Burial rates"),
        (2, 3, "burial rates", "Marshes bury 218 g C per square metre per year"),
        (2, 4, "burial rates", "Forests bury far less"),
        (2, 5, "notes", "The rates come from lead-210 dating of 24 cores."),
        (3, 6, "methods", "Methods"),
        (3, 7, "methods", "We cored 24 marshes."),
    ] == got


def _docx(body: str, core_title: str = "") -> bytes:
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        zf.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{w}"><w:body>{body}</w:body></w:document>')
        if core_title:
            zf.writestr("docProps/core.xml", '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
                        f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{core_title}</dc:title></cp:coreProperties>')
    return buf.getvalue()


def test_docx_tracked_deletions_and_field_codes_are_not_text():
    body = ('<w:p><w:r><w:t xml:space="preserve">Marshes bury </w:t></w:r>'
            '<w:del w:id="1" w:author="R"><w:r><w:delText>about 300</w:delText></w:r></w:del>'
            '<w:ins w:id="2" w:author="R"><w:r><w:t>218</w:t></w:r></w:ins>'
            '<w:r><w:t xml:space="preserve"> grams a year (see Table </w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> REF _Ref123 \\h </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
            '<w:r><w:t>).</w:t></w:r></w:p>'
            '<w:sdt><w:sdtContent><w:p><w:r><w:t>Inside a content control.</w:t></w:r></w:p></w:sdtContent></w:sdt>')
    doc = parse_office(_docx(body, core_title="Marsh burial"), ".docx")
    assert [(1, "Marshes bury 218 grams a year (see Table 1)."), (2, "Inside a content control.")] == [(p.line, p.text) for p in doc.passages]
    assert "Marsh burial" == doc.title


def test_bad_office_files_give_reasons():
    assert parse_office(b"PK\x03\x04" + b"\x00" * 40, ".docx").error.startswith("not a Word document: the file is not a zip package")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("content.xml", "<x/>")
    assert "it has no word/document.xml (a renamed file of another kind?)" in parse_office(buf.getvalue(), ".docx").error
    assert "content.xml has no office:text body" in parse_office(buf.getvalue(), ".odt").error
    broken = _docx("<w:p><w:r><w:t>unclosed</w:r></w:p>")
    assert "word/document.xml is not well-formed XML" in parse_office(broken, ".docx").error
    assert "a Word document with no text" == parse_office(_docx("<w:p/>"), ".docx").error


def test_zip_bomb_part_refused_before_unpacking():
    """A document.xml that unpacks past MAX_PART_BYTES (a few KB packed) is refused by its declared size."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", b" " * (MAX_PART_BYTES + 1))
    assert len(buf.getvalue()) < 200_000
    err = parse_office(buf.getvalue(), ".docx").error
    assert "word/document.xml unpacks to 64 MiB, over the 64 MiB limit" in err


def test_check_against_a_docx_source_cites_the_paragraph(tmp_path):
    _write(tmp_path, ARTICLE, ".docx")
    (tmp_path / "refs.bib").write_text("@article{reyes2019, title={Tidal marshes store carbon}, author={Reyes, Luz}, year={2019}, file={marsh.docx}}\n")
    (tmp_path / "draft.md").write_text("Tidal marshes bury 218 grams of carbon per square metre each year [@reyes2019].\n")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--no-cache", "--tier", "lexical", "-q"])
    assert 0 == r.exit_code, r.output
    data = json.loads((tmp_path / "draft.citeproof.json").read_text())
    (f,) = data["findings"]
    assert "supported" == f["verdict"] and 4 == f["evidence"]["line"] and f["evidence"]["page"] is None
    assert data["works"][f["work"]]["provenance"]["media_type"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert "`, paragraph 4; lexical coverage" in (tmp_path / "draft.citeproof.md").read_text()


def test_odt_found_in_sources_by_citekey_and_docx_by_title(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    _write(src, ARTICLE, ".odt", name="reyes2019")
    _write(src, DECK.replace("Marsh carbon", "Blue carbon in salt marshes of New England"), ".pptx", name="talk")
    res = SourceResolver([], [src], Cache(None))
    by_key = res.resolve("reyes2019", Reference(citekey="reyes2019"))
    assert by_key.usable and by_key.path.endswith("reyes2019.odt") and "(citekey)" in by_key.origin
    by_title = res.resolve("x", Reference(citekey="x", title="Blue carbon in salt marshes of New England"))
    assert by_title.usable and by_title.path.endswith("talk.pptx") and "title match" in by_title.origin and 3 == by_title.pages


def test_one_bad_docx_is_one_unverifiable_finding(tmp_path):
    (tmp_path / "lee2020.docx").write_bytes(b"PK\x03\x04" + b"\x00" * 30)
    (tmp_path / "d.md").write_text("Adults need seven to nine hours of sleep [@lee2020].\n")
    f = check(tmp_path / "d.md", [], CheckOptions(source_dirs=[tmp_path], use_cache=False, tiers=["lexical"])).findings[0]
    assert Verdict.UNVERIFIABLE == f.verdict and "unreadable_source" in f.flags
    assert f.reasons[0].startswith(f"{tmp_path / 'lee2020.docx'}: not a Word document: the file is not a zip package")


def test_office_parse_is_cached_by_content(tmp_path):
    path = _write(tmp_path, ARTICLE, ".docx")
    cache = Cache(tmp_path / "c")
    first = load_source("k", path, "test", cache)
    key = "office-1:" + first.media_type
    assert cache.get(first.sha256, key)["passages"][3]["text"].startswith("Tidal marshes bury 218 grams")
    assert [p.text for p in load_source("k", path, "test", cache).passages] == [p.text for p in first.passages]


def test_rtf_read_through_pandoc(tmp_path):
    rtf = pypandoc.convert_text(ARTICLE, "rtf", format="markdown", extra_args=["--standalone"]).encode("latin-1", "replace")
    doc = parse_office(rtf, ".rtf")
    assert doc.error is None
    got = [(p.line, p.section, p.text) for p in doc.passages]
    assert (4, "introduction", "Tidal marshes bury 218 grams of carbon per square metre each year, more than most forests.") in got
    assert (5, "introduction", "Site | Burial rate") in got and "We cored 24 marshes along the Atlantic coast between 2015 and 2018." == got[-1][2]
    assert parse_office(b"PK\x03\x04 not rtf", ".rtf").error.startswith("not an RTF document")
