"""Scanned PDF sources: OCR routing, OCR'd passages, the missing-engine finding (issue 19, part 1).

The scanned PDFs are made here: a real page of a sample PDF (or a page of
text set here) rendered to a grey image and put alone into a new PDF, as a
scanner would. Tests that run Tesseract are skipped where it is not
installed; ``CITEPROOF_REQUIRE_OCR=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os

import pymupdf
import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.model import Reference, Verdict
from citeproof.pipeline import CheckOptions, check
from citeproof.sources import SourceResolver, load_source
from citeproof.sources.cache import Cache
from citeproof.sources.ocr import read_pdf, tessdata_dir
from citeproof.sources.pdf import PARSER_VERSION, _unread_pages
from citeproof.pdf_layout import PageBlocks

from conftest import SAMPLE

REQUIRED = os.environ.get("CITEPROOF_REQUIRE_OCR") == "1"


@pytest.fixture(scope="module")
def engine():
    if tessdata_dir("eng") is None:
        reason = "Tesseract with English data is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)"
        if REQUIRED:
            pytest.fail(f"CITEPROOF_REQUIRE_OCR=1 but {reason}", pytrace=False)
        pytest.skip(reason)


def _scan(page: pymupdf.Page, out: pymupdf.Document, dpi: int = 200) -> None:
    """Append ``page`` to ``out`` as a scanner would: a grey JPEG of the page, no text layer."""
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    new = out.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, stream=pix.tobytes("jpeg"))


def _text_page(doc: pymupdf.Document, paragraphs: list[str]) -> pymupdf.Page:
    page = doc.new_page(width=595, height=842)
    y = 90
    for t in paragraphs:
        page.insert_textbox(pymupdf.Rect(72, y, 523, y + 120), t, fontsize=12, fontname="helv")
        y += 140
    return page


TRIAL = ("Randomised controlled trials of vitamin D supplementation showed no reduction in fracture risk among "
         "community-dwelling adults. The pooled relative risk was 1.03 across 32 trials.")
DOSES = "Adherence was above 80% in most trials, and the doses ranged from 400 to 4,000 IU per day."
DIGITAL = "The first page of this report carries a real text layer, typed and never scanned, with its own words."


def _scanned_pdf(paragraphs: list[str]) -> bytes:
    src = pymupdf.open()
    page = _text_page(src, paragraphs)
    out = pymupdf.open()
    _scan(page, out)
    return out.tobytes()


def _mixed_pdf() -> bytes:
    """Page 1 digital (a text layer), page 2 a scan of a text page."""
    out = pymupdf.open()
    _text_page(out, [DIGITAL])
    src = pymupdf.open()
    _scan(_text_page(src, [TRIAL, DOSES]), out)
    return out.tobytes()


@pytest.fixture(scope="module")
def scihub_scan() -> bytes:
    """Page 2 of the Sci-Hub paper (its abstract) as a 200 dpi grey scan."""
    real = pymupdf.open(SAMPLE / "cited" / "himmelstein2018-scihub.pdf")
    out = pymupdf.open()
    _scan(real[1], out)
    return out.tobytes()


@pytest.mark.slow
def test_scanned_real_page_read_by_ocr(engine, scihub_scan):
    assert "" == pymupdf.open(stream=scihub_scan, filetype="pdf")[0].get_text().strip()  # no text layer at all
    parsed = read_pdf(scihub_scan, "auto")
    assert parsed.error is None and [1] == parsed.ocr_pages and [] == parsed.scanned
    assert all(p.ocr and p.page == 1 for p in parsed.passages)
    abstract = next(p for p in parsed.passages if "81.6 million" in p.text)
    assert "68.9%" in abstract.text and "Sci-Hub" in abstract.text
    x0, y0, x1, y1 = abstract.bbox
    assert 0 <= x0 < x1 <= 595 and 0 <= y0 < y1 <= 842  # boxes in the page's own points
    assert parsed.text[abstract.char_start:abstract.char_end] == abstract.text


def test_invisible_ocr_layer_is_read_as_is():
    """A scan that already carries an invisible text layer (ocrmypdf's output) is read from it, not OCRed again."""
    doc = pymupdf.open(stream=_scanned_pdf([TRIAL]), filetype="pdf")
    doc[0].insert_textbox(pymupdf.Rect(72, 90, 523, 210), TRIAL, fontsize=12, fontname="helv", render_mode=3)
    parsed = read_pdf(doc.tobytes(), "auto")
    assert parsed.error is None and [] == parsed.ocr_pages and [] == parsed.scanned
    assert [TRIAL] == [p.text for p in parsed.passages] and not parsed.passages[0].ocr


def test_never_says_ocr_is_off():
    parsed = read_pdf(_scanned_pdf([TRIAL]), "never")
    assert [] == parsed.passages and [1] == parsed.scanned
    assert "OCR is off (--ocr never)" in parsed.error and "--ocr auto" in parsed.error


def test_without_engine_the_finding_says_what_to_install(tmp_path, monkeypatch):
    """Tesseract's language data missing: one unverifiable finding naming the packages; the result is not cached."""
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path / "empty-tessdata"))
    (tmp_path / "empty-tessdata").mkdir()
    (tmp_path / "scan.pdf").write_bytes(_scanned_pdf([TRIAL]))
    (tmp_path / "refs.bib").write_text("@article{scan2020, title={Vitamin D and fractures}, author={Doe, Jane}, year={2020}, file={scan.pdf}}\n")
    (tmp_path / "draft.md").write_text("Vitamin D supplements did not reduce fractures [@scan2020].\n")
    cache = tmp_path / "cache"
    rep = check(tmp_path / "draft.md", [tmp_path / "refs.bib"], CheckOptions(cache_dir=cache, tiers=["lexical"]))
    (f,) = rep.findings
    assert Verdict.UNVERIFIABLE == f.verdict and "unreadable_source" in f.flags
    assert "no text layer" in f.reasons[0] and "apt-get install tesseract-ocr tesseract-ocr-eng" in f.reasons[0]
    sha = f.source.sha256
    assert Cache(cache).get(sha, f"{PARSER_VERSION}:ocr-auto-eng") is None


def test_mixed_pdf_without_engine_keeps_the_text_page_and_notes_the_scan(tmp_path, monkeypatch):
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    parsed = read_pdf(_mixed_pdf(), "auto")
    assert parsed.error is None and [DIGITAL] == [p.text for p in parsed.passages]
    assert 1 == len(parsed.notes) and parsed.notes[0].startswith("page 2 is a scanned image without a text layer, not read: the OCR engine")
    assert "apt-get install tesseract-ocr tesseract-ocr-eng" in parsed.notes[0]
    assert not parsed.cacheable


@pytest.mark.slow
def test_mixed_pdf_ocrs_only_the_scanned_page(engine):
    parsed = read_pdf(_mixed_pdf(), "auto")
    assert [2] == parsed.ocr_pages and [] == parsed.notes
    by_page = {p.page: p for p in parsed.passages}
    assert DIGITAL == by_page[1].text and not by_page[1].ocr
    ocr = [p for p in parsed.passages if p.page == 2]
    assert 2 == len(ocr) and all(p.ocr for p in ocr)  # lines regrouped into the two paragraphs
    assert "pooled relative risk was 1.03 across 32 trials" in ocr[0].text and "400 to 4,000 IU" in ocr[1].text


@pytest.mark.slow
def test_force_reads_a_digital_page_by_ocr(engine):
    out = pymupdf.open()
    _text_page(out, [DIGITAL])
    parsed = read_pdf(out.tobytes(), "force")
    assert [1] == parsed.ocr_pages and 1 == len(parsed.passages) and parsed.passages[0].ocr
    assert "carries a real text layer" in parsed.passages[0].text


def test_garbled_text_layer_detected():
    """A page whose glyphs map to no text (U+FFFD) is garbled; a page of a few characters over an image is scanned."""
    doc = pymupdf.open(stream=_mixed_pdf(), filetype="pdf")

    def block(text):
        return {"type": 0, "lines": [{"spans": [{"text": text}]}]}

    pages = [PageBlocks(1, 595, 842, [block("\ufffd\ufffd\ufffdis is \ufffd\ufffde \ufffdrst \ufffdnding of the study")]),
             PageBlocks(2, 595, 842, [block("12")])]
    assert ([2], [1]) == _unread_pages(doc, pages, set())
    assert ([], [1]) == _unread_pages(doc, pages, {2})


@pytest.mark.slow
def test_check_marks_ocr_evidence_and_cli_takes_ocr(engine, tmp_path):
    (tmp_path / "scan.pdf").write_bytes(_scanned_pdf([TRIAL, DOSES]))
    (tmp_path / "refs.bib").write_text("@article{scan2020, title={Vitamin D and fractures}, author={Doe, Jane}, year={2020}, file={scan.pdf}}\n")
    (tmp_path / "draft.md").write_text("Trials of vitamin D supplementation showed no reduction in fracture risk, "
                                       "with a pooled relative risk of 1.03 [@scan2020].\n")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--ocr", "auto",
                                 "--cache-dir", str(tmp_path / "c"), "--tier", "lexical", "-q", "--format", "md,json,html"])
    assert r.exit_code in (0, 1), r.output
    data = json.loads((tmp_path / "draft.citeproof.json").read_text())
    (f,) = data["findings"]
    assert f["evidence"]["ocr"] is True and "ocr_evidence" in f["flags"]
    assert "pooled relative risk was 1.03" in f["evidence"]["text"]
    assert any("read by OCR from a scanned page (page 1)" in x for x in f["reasons"])
    assert "auto" == data["works"][f["work"]]["provenance"]["ocr"]
    # the reports say it where the passage is shown (issue 30)
    assert "**read by OCR from a scanned page: lower trust, check the quote against the page**" in (tmp_path / "draft.citeproof.md").read_text()
    assert "<strong>Read by OCR</strong> from a scanned page: lower trust" in (tmp_path / "draft.citeproof.html").read_text()
    # the cached parse is keyed by the mode: --ocr never reads the same file as unreadable
    src = SourceResolver([tmp_path], [], Cache(tmp_path / "c"), ocr="never").resolve("scan2020", Reference(citekey="scan2020", files=("scan.pdf",), origin=str(tmp_path / "refs.bib") + ":1"))
    assert not src.usable and "--ocr never" in src.error
    again = load_source("scan2020", tmp_path / "scan.pdf", "test", Cache(tmp_path / "c"), "auto")
    assert again.ocr == "auto" and all(p.ocr for p in again.passages)


def test_cli_rejects_an_unknown_ocr_mode(tmp_path):
    (tmp_path / "d.md").write_text("A claim [@a].\n")
    (tmp_path / "r.bib").write_text("@article{a, title={T}}\n")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "d.md"), "--bib", str(tmp_path / "r.bib"), "--ocr", "sometimes", "--no-cache"])
    assert 2 == r.exit_code and "--ocr must be one of auto, force, never" in r.output
