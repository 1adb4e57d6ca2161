"""Source kinds of issue 26 (parts 5 and 6): JATS XML files, CJK text, DjVu, subtitles and transcripts, recordings.

The JATS article is shaped as PMC's ``.nxml`` files are (the JATS archiving DTD named but not shipped, a
structured abstract, a table inside a paragraph, a figure, MathML, acknowledgements and a reference list,
named HTML entities as publishers' XML uses them). The DjVu book is built here with djvulibre's own encoder
(``c44``) from page images PyMuPDF renders, its text layer set with ``djvused``, one page left a bare scan;
the subtitle files follow SubRip, WebVTT and YouTube's rolling-caption layout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.model import Locator, Passage, Reference
from citeproof.readers.markdown import read_markdown
from citeproof.readers.pandoc_cite import parse_locator
from citeproof.reports.diff import inline_works
from citeproof.retrieval.lexical import LexicalIndex, coverage
from citeproof.sources import SourceResolver, load_source
from citeproof.sources.cache import Cache
from citeproof.sources.jats import parse_jats_source
from citeproof.sources.transcript import cues_to_passages, looks_like_transcript, parse_srt, parse_timed_text, parse_vtt, passages_at
from citeproof.text.normalise import fold, terms
from citeproof.text.sentences import split_sentences

NXML = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">
<article xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
<front>
<journal-meta><journal-id journal-id-type="nlm-ta">BMC Infect Dis</journal-id><journal-title-group><journal-title>BMC Infectious Diseases</journal-title></journal-title-group></journal-meta>
<article-meta>
<article-id pub-id-type="pmcid">PMC6543210</article-id>
<article-id pub-id-type="doi">10.1186/s12879-019-4102-1</article-id>
<title-group><article-title>Face masks and hand hygiene against household influenza transmission</article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Cowling</surname><given-names>Benjamin J</given-names></name></contrib>
<contrib contrib-type="author"><name><surname>Chan</surname><given-names>Kwok-Hung</given-names></name></contrib></contrib-group>
<pub-date pub-type="epub"><day>12</day><month>6</month><year>2019</year></pub-date>
<abstract>
<sec><title>Background</title><p>Influenza spreads readily within households.</p></sec>
<sec><title>Results</title><p>Masks with hand hygiene begun within 36&nbsp;hours of symptom onset reduced secondary infections by 70%.</p></sec>
</abstract>
</article-meta>
</front>
<body>
<sec id="s1"><title>Methods</title>
<p>We randomised 259 index patients and their households to three arms<xref ref-type="bibr" rid="r1">1</xref>.</p>
<sec id="s1a"><title>Outcomes</title>
<p>The secondary attack rate is given in Table&nbsp;1 by arm, with <inline-formula><mml:math><mml:mi>n</mml:mi></mml:math></inline-formula> households each.
<table-wrap id="t1"><label>Table 1</label><caption><p>Secondary attack rate by study arm</p></caption>
<table><thead><tr><th>Arm</th><th>Households</th><th>Secondary attack rate</th></tr></thead>
<tbody><tr><td>Control</td><td>91</td><td>10.5%</td></tr><tr><td>Masks and hand hygiene</td><td>83</td><td>3.1%</td></tr></tbody></table>
<table-wrap-foot><p>Rates are per contact over 7 days.</p></table-wrap-foot></table-wrap>
</p>
</sec></sec>
<sec id="s2"><title>Discussion</title>
<p>Early use of masks and hand hygiene reduced transmission&mdash;but only when begun within 36 hours.</p>
<fig id="f1"><label>Figure 1</label><caption><title>Flow of households</title><p>Households enrolled and followed up.</p></caption></fig>
</sec>
</body>
<back>
<ack><p>We thank the Centre for Health Protection for its support.</p></ack>
<ref-list><title>References</title><ref id="r1"><mixed-citation>Smith J. Influenza in households. Lancet. 2001.</mixed-citation></ref></ref-list>
</back>
</article>
"""


def test_jats_file_read_with_sections_and_tables_kept_out_of_paragraphs(tmp_path):
    path = tmp_path / "PMC6543210.nxml"
    path.write_text(NXML, encoding="utf-8")
    src = load_source("cowling2019", path, "test", Cache(None))
    assert src.usable and src.media_type == "application/jats+xml" and src.pages == 0
    assert src.title == "Face masks and hand hygiene against household influenza transmission"
    got = [(p.section, p.text) for p in src.passages]
    assert got[:2] == [("abstract", "Influenza spreads readily within households."),
                       ("abstract", "Masks with hand hygiene begun within 36 hours of symptom onset reduced secondary infections by 70%.")]
    outcome = next(p for p in src.passages if p.text.startswith("The secondary attack rate"))
    assert outcome.section == "methods" and outcome.text.endswith("with households each.")  # no table cells, no MathML
    assert "10.5%" not in outcome.text and "Control" not in outcome.text
    assert ("caption", "Table 1. Secondary attack rate by study arm") in got
    assert ("table", "Table 1: Masks and hand hygiene | 83 | 3.1%") in got
    assert ("caption", "Rates are per contact over 7 days.") in got
    assert ("caption", "Figure 1. Flow of households Households enrolled and followed up.") in got
    assert ("discussion", "Early use of masks and hand hygiene reduced transmission\u2014but only when begun within 36 hours.") in got
    assert ("acknowledgements", "We thank the Centre for Health Protection for its support.") in got
    assert "Smith J." not in src.text and "three arms [1]." in src.text  # a superscript reference number is not glued to its word
    assert outcome.line == NXML.splitlines().index(next(ln for ln in NXML.splitlines() if ln.startswith("<p>The secondary attack"))) + 1
    for p in src.passages:
        assert src.text[p.char_start:p.char_end] == p.text
    assert src.metadata["DOI"]["value"] == "10.1186/s12879-019-4102-1" and src.metadata["issued"]["value"] == "2019"
    assert src.metadata["author"]["value"] == "Cowling; Chan"


def test_jats_xml_found_in_sources_by_citekey_and_by_title(tmp_path):
    (tmp_path / "cowling2019.xml").write_text(NXML, encoding="utf-8")
    (tmp_path / "downloaded.nxml").write_text(NXML.replace("Face masks and hand hygiene against", "Hand hygiene alone and"), encoding="utf-8")
    res = SourceResolver([], [tmp_path], Cache(None))
    by_key = res.resolve("cowling2019", Reference(citekey="cowling2019"))
    assert by_key.usable and by_key.path.endswith("cowling2019.xml") and "(citekey)" in by_key.origin
    by_title = res.resolve("x", Reference(citekey="x", title="Hand hygiene alone and household influenza transmission"))
    assert by_title.usable and by_title.path.endswith("downloaded.nxml") and "title match" in by_title.origin
    (tmp_path / "cowling2019.xml").unlink()
    by_doi = SourceResolver([], [tmp_path], Cache(None)).resolve("y", Reference(citekey="y", doi="https://doi.org/10.1186/S12879-019-4102-1"))
    assert by_doi.usable and by_doi.path.endswith("downloaded.nxml") and by_doi.origin == "--sources DOI match (https://doi.org/10.1186/S12879-019-4102-1)"


def test_xml_that_is_not_jats_and_broken_jats_are_reasons(tmp_path):
    (tmp_path / "feed.xml").write_text("<?xml version='1.0'?><rss><channel><title>News</title></channel></rss>")
    assert load_source("k", tmp_path / "feed.xml", "t", Cache(None)).error.endswith("the XML holds no JATS <article>")
    assert parse_jats_source(NXML[: len(NXML) // 2].encode()).error.startswith("malformed JATS XML")
    bomb = b'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' \
           b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><article><body><p>x &d;</p></body></article>'
    doc = parse_jats_source(bomb)  # internal entities are never expanded
    assert doc.passages and len(doc.text) < 100


def test_check_cites_a_table_row_of_a_jats_source(tmp_path):
    (tmp_path / "a.nxml").write_text(NXML, encoding="utf-8")
    (tmp_path / "refs.bib").write_text("@article{cowling2019, title={Face masks and hand hygiene against household influenza transmission}, "
                                       "author={Cowling, Benjamin J.}, year={2019}, file={a.nxml}}\n")
    (tmp_path / "draft.md").write_text("With masks and hand hygiene the secondary attack rate was 3.1% in 83 households [@cowling2019].\n")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--no-cache", "--tier", "lexical", "-q"])
    assert r.exit_code == 0, r.output
    (f,) = json.loads((tmp_path / "draft.citeproof.json").read_text())["findings"]
    assert f["verdict"] == "supported" and f["evidence"]["text"] == "Table 1: Masks and hand hygiene | 83 | 3.1%"


# --- Chinese, Japanese, Korean -------------------------------------------------------------------------------

ZH_SOURCE = "研究发现，2016年的热浪导致北部珊瑚礁近一半的浅水珊瑚死亡。"
ZH_CLAIM = "2016年热浪导致北部珊瑚礁一半的浅水珊瑚死亡"


def _cov(claim: str, passage: str, others: tuple[str, ...] = ()) -> float:
    idx = LexicalIndex.build([Passage(id=str(i), text=t) for i, t in enumerate((passage,) + others)])
    return coverage(terms(claim), idx.passage_terms[0], idx)[0]


def test_cjk_runs_match_by_character_bigrams():
    assert terms("北部珊瑚礁") == ["北部", "部珊", "珊瑚", "瑚礁"]
    assert terms("2016年热浪 RNA聚合酶") == ["2016", "年热", "热浪", "rna", "聚合", "合酶"]
    other = ("南部珊瑚礁的恢复速度超出了所有人的预期。",)
    assert _cov(ZH_CLAIM, ZH_SOURCE, other) >= 0.85  # a whole run was one term: 0 before
    assert _cov(ZH_CLAIM, other[0], (ZH_SOURCE,)) < 0.3
    ja_src, ja_claim = "本研究では、睡眠不足が記憶力を著しく低下させることが示された。", "睡眠不足が記憶力を低下させることが示された"
    assert _cov(ja_claim, ja_src, ("被験者は120名であった。",)) >= 0.85
    ko_src, ko_claim = "연구 결과 수면 부족은 기억력을 크게 떨어뜨렸다.", "수면 부족은 기억력을 떨어뜨렸다"
    assert fold("기억력") == "기억력"  # NFKD split hangul into jamo; fold recomposes it
    assert _cov(ko_claim, ko_src, ("참가자는 120명이었다.",)) >= 0.85


def test_full_width_stops_end_sentences_and_close_the_claim(tmp_path):
    assert split_sentences("南部珊瑚礁恢复较快！原因是什么？" + ZH_SOURCE + "鱼类减少了。") == [
        "南部珊瑚礁恢复较快！", "原因是什么？", ZH_SOURCE, "鱼类减少了。"]
    doc = tmp_path / "d.md"
    doc.write_text(f"{ZH_CLAIM}[@hughes]。南部珊瑚礁恢复较快，但原因不明。鱼类数量在两年内下降了约三分之一[@pratchett]！\n", encoding="utf-8")
    claims = read_markdown(doc)
    assert [(c.text, [x.citekey for x in c.citations]) for c in claims] == [
        (ZH_CLAIM + "。", ["hughes"]), ("鱼类数量在两年内下降了约三分之一！", ["pratchett"])]
    doc.write_text(f"{ZH_CLAIM}。[@hughes]南部珊瑚礁恢复较快。\n\n睡眠不足が記憶力を低下させる。[@sato] 次の文です。\n", encoding="utf-8")
    assert [(c.text, [x.citekey for x in c.citations]) for c in read_markdown(doc)] == [  # a citation after the stop: the sentence before
        (ZH_CLAIM + "。", ["hughes"]), ("睡眠不足が記憶力を低下させる。", ["sato"])]


def test_check_supports_a_chinese_claim_differing_by_a_few_characters(tmp_path):
    (tmp_path / "hughes.md").write_text(f"# 热浪与珊瑚\n\n{ZH_SOURCE}依赖珊瑚的鱼类数量在两年内减少了约三分之一。\n\n南部珊瑚礁的恢复速度超出了所有人的预期。\n", encoding="utf-8")
    (tmp_path / "refs.bib").write_text("@article{hughes, title={热浪与珊瑚}, author={Hughes, Terry}, year={2018}, file={hughes.md}}\n", encoding="utf-8")
    (tmp_path / "draft.md").write_text(f"{ZH_CLAIM}[@hughes]。\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--no-cache", "--tier", "lexical", "-q"])
    assert r.exit_code == 0, r.output
    (f,) = json.loads((tmp_path / "draft.citeproof.json").read_text())["findings"]
    assert f["verdict"] == "supported" and f["evidence"]["text"].startswith(ZH_SOURCE)


# --- subtitles and transcripts ----------------------------------------------------------------------------------

SRT = """1
00:00:05,000 --> 00:00:09,000
Thank you all for coming to this session on ocean science.

2
00:00:09,500 --> 00:00:14,000
I want to start with some history of the expedition.

3
00:12:30,000 --> 00:12:34,500
<i>So what we found</i> on the northern reef

4
00:12:34,600 --> 00:12:40,000
is that the 2016 heatwave killed half of the shallow-water corals.

5
00:12:41,000 --> 00:12:51,000
And the fish that depend on them declined by about a third within two years.

6
00:25:00,000 --> 00:25:05,000
{\\an8}Finally, the southern reef recovered faster than anyone expected.
"""

YOUTUBE_VTT = """WEBVTT
Kind: captions
Language: en

00:00:01.120 --> 00:00:03.590 align:start position:0%
 
so<00:00:01.439><c> what</c><00:00:01.680><c> we</c><00:00:01.839><c> found</c>

00:00:03.590 --> 00:00:03.600 align:start position:0%
so what we found
 

00:00:03.600 --> 00:00:06.150 align:start position:0%
so what we found
is<00:00:03.919><c> that</c><00:00:04.160><c> the</c><00:00:04.400><c> reef</c><00:00:04.640><c> bleached</c>

NOTE the speaker changes here

00:00:06.150 --> 00:00:09.000
<v Terry Hughes>Twice in two years.
"""


def test_subtitle_cues_and_rolling_captions():
    cues = parse_srt(SRT)
    assert [(c.start, c.end, c.line) for c in cues[2:4]] == [(750.0, 754.5, 11), (754.6, 760.0, 15)]
    assert cues[2].text == "So what we found on the northern reef" and cues[5].text.startswith("Finally,")
    vtt = parse_vtt(YOUTUBE_VTT)
    assert [c.text for c in vtt] == ["so what we found", "is that the reef bleached", "Twice in two years."]
    assert vtt[2].speaker == "Terry Hughes" and vtt[0].start == 1.12
    passages, text = cues_to_passages(cues)
    assert [(p.where(), p.line) for p in passages] == [("at 00:05-00:14", 3), ("at 12:30-12:51", 11), ("at 25:00-25:05", 23)]
    assert passages[1].text.startswith("So what we found on the northern reef is that the 2016 heatwave")
    assert text[passages[1].char_start:passages[1].char_end] == passages[1].text


def test_timed_text_transcripts_in_their_common_layouts():
    bracketed = "Transcript: Reefs after the heatwave\n\n[00:00:05] Welcome everyone.\n[00:12:30] Terry Hughes: So what we found on the northern reef\n[00:12:34] is that the heatwave killed half of the corals.\n"
    cues = parse_timed_text(bracketed)
    assert looks_like_transcript(bracketed) and [(c.start, c.end, c.speaker) for c in cues] == [(5.0, 750.0, ""), (750.0, 754.0, "Terry Hughes"), (754.0, 754.0, "")]
    youtube = "0:05\nwelcome back to the channel\n12:30\nso what we found on the northern reef\n12:34\nis that the heatwave killed half of the corals\n"
    assert looks_like_transcript(youtube) and [c.start for c in parse_timed_text(youtube)] == [5.0, 750.0, 754.0]
    rev = "Terry Hughes (00:12:30):\nSo what we found on the northern reef.\n\nJanet Lee (00:12:41):\nHalf of them?\n\nTerry Hughes (00:12:43):\nHalf.\n"
    assert [(c.start, c.speaker, c.text) for c in parse_timed_text(rev)][:2] == [(750.0, "Terry Hughes", "So what we found on the northern reef."), (761.0, "Janet Lee", "Half of them?")]
    assert not looks_like_transcript("The meeting starts at\n10:30 in the morning.\nWe discussed the reef.\nThen lunch.\n")


def test_time_locators_parse_and_pick_passages():
    assert parse_locator(", 12:34") == (Locator("timestamp", "12:34", "12:34"), "")
    assert parse_locator(", at 1:02:03-1:02:40 and passim")[0].times() == [(3723.0, 3760.0)]
    assert parse_locator(", p. 33")[0].label == "page" and Locator("timestamp", "12:34", "12:34").pages() == []
    passages, _ = cues_to_passages(parse_srt(SRT))
    assert [p.where() for p in passages_at(passages, [(754.0, 754.0)])] == ["at 12:30-12:51"]
    assert passages_at(passages, [(3540.0, 3540.0)]) == []


def _check(tmp_path: Path, draft: str, bib: str) -> list[dict]:
    (tmp_path / "refs.bib").write_text(bib)
    (tmp_path / "draft.md").write_text(draft)
    r = CliRunner().invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--no-cache", "--tier", "lexical", "-q", "--format", "json,md"])
    assert r.exit_code == 0, r.output
    data = inline_works(json.loads((tmp_path / "draft.citeproof.json").read_text()))  # schema 2: the work's record beside each finding
    return sorted(data["findings"], key=lambda f: f["line"])


def test_check_a_talk_by_its_time_locator(tmp_path):
    (tmp_path / "talk.srt").write_text(SRT)
    bib = "@misc{talk, title={Reefs after the heatwave}, author={Hughes, Terry}, year={2019}, howpublished={Talk}, file={talk.srt}}\n"
    draft = ("The 2016 heatwave killed half of the shallow-water corals on the northern reef [@talk, 12:34].\n\n"
             "The southern reef recovered faster than anyone expected [@talk, 12:34].\n\n"
             "The southern reef recovered faster than anyone expected [@talk, 59:00].\n")
    at, wrong_time, past_end = _check(tmp_path, draft, bib)
    assert at["verdict"] == "supported" and at["evidence"]["time_start"] == 750.0 and at["evidence"]["time_end"] == 771.0
    assert "searched 12:30-12:51 of the recording only, as the locator '12:34' says" in at["reasons"]
    assert wrong_time["verdict"] != "supported" and "Finally" not in wrong_time["evidence"]["text"]
    assert past_end["verdict"] == "partial" and "locator_time_missing" in past_end["flags"]
    assert "it ends at 25:05" in " ".join(past_end["reasons"])
    assert "(`" + str(tmp_path / "talk.srt") + "`, at 12:30-12:51, line 11;" in (tmp_path / "draft.citeproof.md").read_text()
    (tmp_path / "talk.md").write_text("So what we found is that the 2016 heatwave killed half of the shallow-water corals on the northern reef.\n")
    (f,) = _check(tmp_path, "The 2016 heatwave killed half of the shallow-water corals [@talk, 12:34].\n", bib.replace("talk.srt", "talk.md"))
    assert f["verdict"] == "supported" and "the locator '12:34' names a time in a recording, but the source is not a transcript or subtitles; searched all of it" in f["reasons"]


def test_a_recording_is_one_unverifiable_finding_and_its_subtitles_are_preferred(tmp_path):
    (tmp_path / "talk.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 64)
    bib = "@misc{talk, title={Reefs after the heatwave}, author={Hughes, Terry}, year={2019}, file={talk.mp4}}\n"
    (f,) = _check(tmp_path, "The heatwave killed half of the corals [@talk, 12:34].\n", bib)
    assert f["verdict"] == "unverifiable"
    assert "a video (.mp4): citeproof reads no speech" in f["reasons"][0] and "talk.srt, talk.vtt" in f["reasons"][0]
    (tmp_path / "talk.vtt").write_text("WEBVTT\n\n12:30.000 --> 12:40.000\nSo what we found is that the heatwave killed half of the corals.\n")
    bib2 = "@misc{talk, title={Reefs after the heatwave}, author={Hughes, Terry}, year={2019}, file={:talk.mp4:video/mp4;:talk.vtt:text/vtt}}\n"
    (f,) = _check(tmp_path, "The heatwave killed half of the corals [@talk, 12:34].\n", bib2)
    assert f["verdict"] == "supported" and f["evidence"]["source"].endswith("talk.vtt")


# --- DjVu -------------------------------------------------------------------------------------------------------

DJVU_TOOLS = all(shutil.which(t) for t in ("ddjvu", "djvused", "djvutxt", "c44", "djvm"))
# CITEPROOF_REQUIRE_DJVU=1 (CI) runs them anyway, so a missing djvulibre fails instead of skipping.
needs_djvu = pytest.mark.skipif(not DJVU_TOOLS and os.environ.get("CITEPROOF_REQUIRE_DJVU") != "1", reason="djvulibre-bin (ddjvu, djvused, djvutxt, c44, djvm) is not installed; .ci/run installs it")

PAGES = ["Chapter 1. The northern reef.\n\nCoral bleaching killed half of the shallow-water corals on the northern reef in 2016.",
         "Chapter 2. The fish.\n\nReef fish populations fell by about a third within two years of the bleaching."]


def _djvu_book(tmp_path: Path, text_layer: tuple[bool, ...], titles: tuple[str, ...] = ()) -> Path:
    """A DjVu book of len(text_layer) pages: each page image rendered at 150 dpi, IW44-encoded by c44, bundled by djvm;
    pages marked True get a hidden text layer (page > para zones, as a scanner's OCR writes it); ``titles`` are set
    as the pages' titles (the printed page numbers, as archive.org's scans carry them)."""
    from citeproof.pdf_layout import load_pymupdf

    pymupdf = load_pymupdf()
    parts = []
    for k, layer in enumerate(text_layer, start=1):
        doc = pymupdf.open()
        page = doc.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 500), PAGES[k - 1], fontsize=16)
        pgm = tmp_path / f"p{k}.pgm"
        page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).save(str(pgm))
        out = tmp_path / f"p{k}.djvu"
        subprocess.run(["c44", "-dpi", "150", str(pgm), str(out)], check=True, capture_output=True)
        if layer:
            heading, body = PAGES[k - 1].split("\n\n")
            cut = body.index(" ", 45)
            sexp = tmp_path / f"p{k}.txt"
            sexp.write_text(f'(page 0 0 1275 1650 (para 150 1450 1100 1500 (line 150 1450 1100 1500 "{heading}")) '
                            f'(para 150 1100 1100 1400 (line 150 1300 1100 1350 "{body[:cut]}") (line 150 1240 1100 1290 "{body[cut + 1:]}")))\n')
            subprocess.run(["djvused", str(out), "-e", f"select 1; set-txt {sexp}", "-s"], check=True, capture_output=True)
        parts.append(str(out))
    book = tmp_path / "book.djvu"
    subprocess.run(["djvm", "-c", str(book), *parts], check=True, capture_output=True)
    if titles:
        script = "; ".join(f'select {k}; set-page-title "{t}"' for k, t in enumerate(titles, start=1))
        subprocess.run(["djvused", str(book), "-e", script, "-s"], check=True, capture_output=True)
    return book


@needs_djvu
def test_djvu_text_layer_read_with_page_numbers(tmp_path):
    src = load_source("k", _djvu_book(tmp_path, (True, True)), "test", Cache(None), ocr="never")
    assert src.usable and src.media_type == "image/vnd.djvu" and src.pages == 2 and src.notes == []
    assert [(p.page, p.text) for p in src.passages] == [(1, "Chapter 1. The northern reef."), (1, PAGES[0].split("\n\n")[1]),
                                                         (2, "Chapter 2. The fish."), (2, PAGES[1].split("\n\n")[1])]
    assert not any(p.ocr for p in src.passages)


@needs_djvu
def test_check_a_djvu_book_by_its_printed_page(tmp_path):
    _djvu_book(tmp_path, (True, True), titles=("102", "103"))
    bib = "@book{book, title={Reefs}, author={Hughes, Terry}, year={2019}, file={book.djvu}}\n"
    (f,) = _check(tmp_path, "Reef fish populations fell by about a third within two years [@book, p. 103].\n", bib)
    assert f["verdict"] == "supported" and f["evidence"]["page"] == 2 and f["evidence"]["page_label"] == "103"
    assert f["provenance"]["media_type"] == "image/vnd.djvu"
    assert "`, page 2 (printed 103);" in (tmp_path / "draft.citeproof.md").read_text()


@needs_djvu
def test_djvu_bare_page_unread_without_ocr_and_bad_file_is_a_reason(tmp_path):
    src = load_source("k", _djvu_book(tmp_path, (True, False)), "test", Cache(None), ocr="never")
    assert [p.page for p in src.passages] == [1, 1]
    assert src.notes == ["page 2 has no text layer (scanned images); OCR is off (--ocr never): run with --ocr auto to read them"]
    (tmp_path / "broken.djvu").write_bytes(b"AT&TFORM\x00\x00\x00\x10DJVU" + b"\x00" * 8)
    bad = load_source("k", tmp_path / "broken.djvu", "test", Cache(None))
    assert not bad.usable and bad.error.startswith(f"{tmp_path / 'broken.djvu'}: not a DjVu file djvulibre can read")


@pytest.mark.slow
@needs_djvu
def test_djvu_bare_scan_read_by_ocr_keeps_its_page(tmp_path):
    from citeproof.sources.ocr import tessdata_dir

    if tessdata_dir("eng") is None:
        pytest.skip("Tesseract with English data is not installed; .ci/run installs it")
    src = load_source("k", _djvu_book(tmp_path, (True, False)), "test", Cache(None), ocr="auto")
    assert src.usable and src.ocr == "auto"
    scanned = [p for p in src.passages if p.page == 2]
    assert scanned and all(p.ocr for p in scanned) and not any(p.ocr for p in src.passages if p.page == 1)
    assert "fell by about a third" in " ".join(p.text for p in scanned)


def test_timed_passages_keep_their_time_through_the_cache_and_a_joined_pair(tmp_path):
    from citeproof.model import Source
    from citeproof.retrieval.lexical import LexicalRetriever

    path = tmp_path / "talk.srt"
    path.write_text(SRT)
    cache = Cache(tmp_path / "cache")
    first = load_source("talk", path, "test", cache)
    again = load_source("talk", path, "test", cache)  # from the cache
    assert [(p.time_start, p.time_end) for p in again.passages] == [(p.time_start, p.time_end) for p in first.passages] == [(5.0, 14.0), (750.0, 771.0), (1500.0, 1505.0)]
    a = Passage(id="t1", text="The heatwave of 2016 struck the northern reef in March.", time_start=750.0, time_end=757.0)
    b = Passage(id="t2", text="Half of the shallow-water corals died within weeks.", time_start=757.5, time_end=766.0)
    src = Source(citekey="talk", passages=[a, b, Passage(id="t3", text="Questions from the audience followed.", time_start=900.0, time_end=910.0)], sha256="x")
    (best, *_) = LexicalRetriever().retrieve("The 2016 heatwave on the northern reef killed half of the shallow-water corals.", src)
    assert best.passage.id == "t1+t2" and best.passage.where() == "at 12:30-12:46"


def test_latex_time_locator(tmp_path):
    from citeproof.readers.latex import read_latex

    tex = tmp_path / "paper.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\nHalf of the corals died~\\cite[12:34]{talk}.\n\\end{document}\n")
    cites = [c for claim in read_latex(tex).claims for c in claim.citations]
    assert [(c.citekey, c.locator) for c in cites] == [("talk", Locator("timestamp", "12:34", "12:34"))]
