"""The HTML report as a reading workspace (issue 15, part 6): groups, side-by-side evidence, the judged sentence,
candidate passages, a crop of the PDF page, CSV export, relative paths, print styles."""

from __future__ import annotations

import base64
import csv
import io
import re
from pathlib import Path

import pymupdf
import pytest

from citeproof.model import Citation, Claim, Evidence, Finding, Reference, Report, Tier, UnitKind, Verdict
from citeproof.reports.html import CSV_COLUMNS, render_html, sentence_span
from citeproof.sources import load_source
from citeproof.sources.cache import Cache
from citeproof.text.normalise import terms

TEXT = ("Across 48 hospitals, mortality fell by 12 percent in the treated group. Costs rose slightly. "
        "Nurses reported fewer night-time alarms on wards that used the protocol.")


def _pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 100, 523, 200), TEXT, fontsize=11)
    page.insert_textbox(pymupdf.Rect(72, 400, 523, 480), "Table 2 lists the wards and their alarm counts per week.", fontsize=11)
    doc.save(path)
    return path


def _report(tmp: Path) -> Report:
    """A supported finding with a judged sentence and candidates, three unverifiable citations of two works, a table row."""
    src = load_source("trial", _pdf(tmp / "trial.pdf"), "bib file field", Cache(None))
    assert src.passages and src.passages[0].bbox is not None
    best, other = src.passages[0], src.passages[-1]
    doc = str(tmp / "draft.md")

    def claim(i, text, key, line, kind=UnitKind.SENTENCE):
        cite = Citation(citekey=key, line=line, column=3, raw=f"[@{key}]")
        return Claim(id=f"c{i}", text=text, raw=f"{text} [@{key}]", citations=(cite,), document=doc, line=line, kind=kind), cite

    ev = Evidence(best, src, {"entails": 0.93}, tuple(terms("mortality fell treated group")), sentence="mortality fell by 12 percent in the treated group.")
    alt = Evidence(other, src, {"lexical": 0.2}, tuple(terms("wards")))
    c1, k1 = claim(1, "Mortality fell in treated groups.", "trial", 3)
    findings = [Finding(c1, k1, Verdict.SUPPORTED, 0.93, 0.9, Tier.ENTAILMENT, ev, ["entailed"], reference=Reference(citekey="trial"), source=src, alternatives=[alt])]
    for i, (key, line) in enumerate((("ghostwork", 5), ("ghostwork", 9), ("other", 12)), start=2):
        c, k = claim(i, f"A sentence on line {line}.", key, line)
        findings.append(Finding(c, k, Verdict.UNVERIFIABLE, tier=Tier.NONE, reasons=[f"no local source for {key}"], flags=["no_source"],
                                reference=Reference(citekey=key)))
    c5, k5 = claim(5, "shortDOI; DOI Proxy Server API; doi:10/gddkhn", "trial", 20, UnitKind.TABLE_ROW)
    findings.append(Finding(c5, k5, Verdict.UNSUPPORTED, 0.1, 0.6, Tier.ENTAILMENT, None, ["no passage entails it", "a table row of names"],
                            flags=["not_a_claim"], reference=Reference(citekey="trial"), source=src))
    return Report(document=doc, findings=findings, metadata={"citeproof_version": "0.1.0", "tiers": ["entailment"]})


@pytest.fixture()
def html(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return render_html(_report(tmp_path), out_dir=tmp_path / "out")


def test_unverifiable_grouped_per_work_with_the_reason_once(html):
    groups = re.findall(r'<details class="group" id="g\d+" data-kind="unverifiable">(.*?)</details>', html, re.S)
    assert 2 == len(groups)
    ghost = next(g for g in groups if "ghostwork" in g)
    assert "2 citations" in ghost and "lines 5, 9" in ghost
    assert 1 == ghost.count("no local source for ghostwork")  # in the summary, not again in each card
    assert 2 == ghost.count('<article class="finding"')
    assert 5 == html.count('<article class="finding"')  # every finding is still there


def test_not_a_claim_rows_are_one_collapsed_group_at_the_end(html):
    m = re.search(r'<details class="group" id="g\d+" data-kind="not_a_claim">(.*?)</details>', html, re.S)
    assert m and "Table rows that hold no claim" in m.group(1) and "doi:10/gddkhn" in m.group(1)
    assert html.rindex('data-kind="not_a_claim"') > html.rindex('data-kind="unverifiable"')
    assert "no passage entails it" in m.group(1)  # a row's own reasons are all kept


def test_claim_and_passage_side_by_side_with_real_words_marked(html):
    card = html[html.index('id="f1"'):html.index("</article>", html.index('id="f1"'))]
    claim = re.search(r'<blockquote class="claim">(.*?)</blockquote>', card, re.S).group(1)
    assert ["Mortality", "fell", "treated", "groups"] == re.findall(r"<mark>(.*?)</mark>", claim)
    assert '<div class="pair two">' in card and '<div class="col-evidence">' in card
    assert "<dt>Matched words</dt><dd>mortality, fell, treated, group</dd>" in card  # words as written, not stems


def test_the_judged_sentence_is_underlined_inside_the_passage(html):
    judged = re.search(r'<span class="judged"[^>]*>(.*?)</span>', html, re.S).group(1)
    assert "<mark>mortality</mark> <mark>fell</mark> by 12 percent in the <mark>treated</mark> <mark>group</mark>." == judged
    assert "Underlined: the sentence the entailment tier scored." in html


def test_next_candidates_one_click_away(html):
    m = re.search(r'<details class="alts">(.*?)</details>', html, re.S)
    assert m and "Next candidate passage (1)" in m.group(1)
    assert "Table 2 lists the <mark>wards</mark>" in m.group(1) and 'class="alt-link" href="../trial.pdf#page=1"' in m.group(1)


def test_crop_of_the_pdf_region_is_an_embedded_png(html):
    src = re.search(r'<figure class="crop"><img src="data:image/png;base64,([^"]+)" alt="([^"]+)"', html)
    assert src and "page 1 of trial.pdf" in src.group(2)
    png = base64.b64decode(src.group(1))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    with pymupdf.open(stream=png, filetype="png") as img:  # about the passage's box (451 x 100 pt at 96 dpi), not the page
        r = img[0].rect
        assert 300 < r.width < 700 and r.height < 300


def test_csv_export_is_a_data_link_with_every_finding(html, tmp_path):
    m = re.search(r'<a id="csv-export" href="data:text/csv;charset=utf-8;base64,([^"]+)" download="draft.citeproof.csv">', html)
    assert m
    rows = list(csv.reader(io.StringIO(base64.b64decode(m.group(1)).decode("utf-8-sig"))))
    assert list(CSV_COLUMNS) == rows[0]
    assert 6 == len(rows)
    first = dict(zip(rows[0], rows[1]))
    assert ("1", "supported", "draft.md", "3", "trial", "1") == (first["rank"], first["verdict"], first["document"], first["line"], first["citekey"], first["page"])
    assert first["evidence"].startswith("Across 48 hospitals")


def test_paths_in_the_title_are_relative(html):
    assert "<title>citeproof: draft.md</title>" in html
    assert "<code>draft.md</code>" in html


def test_print_stylesheet(html):
    css = html[html.index("@media print"):]
    assert "#controls, .triage, .review-bar, .skip, .exports" in css[:200]


def test_sentence_span_ignores_typesetting():
    text = "First sentence. The drug\u2014at 5 mg\u2014cut  mortality by a THIRD. Last one."
    s, e = sentence_span(text, "the drug-at 5 mg-cut mortality by a third.")
    assert "The drug\u2014at 5 mg\u2014cut  mortality by a THIRD." == text[s:e]
    assert sentence_span(text, "Nothing like it appears here at all, not a word.") is None


def test_pipeline_records_the_judged_sentence_and_the_next_candidates():
    """The entailment tier keeps the sentence it scored; retrieval's next passages are the finding's alternatives."""
    from citeproof.judges import entailment
    from citeproof.pipeline import judge_text

    if entailment.unavailable_reason():
        pytest.skip(f"the entailment tier cannot run: {entailment.unavailable_reason()}")
    source = ("Across 48 hospitals, mortality fell by 12 percent in the treated group. Costs rose slightly.\n\n"
              "Nurses on treated wards reported fewer alarms at night.\n\n"
              "Mortality in the control group did not change over the study period.\n")
    f = judge_text("Mortality fell by 12 percent in the treated group.", source, tiers=["lexical", "entailment"])
    assert f.evidence is not None and f.evidence.sentence
    assert sentence_span(f.evidence.passage.text, f.evidence.sentence) is not None
    assert 2 == len(f.alternatives)
    assert f.evidence.passage.id not in {a.passage.id for a in f.alternatives}
