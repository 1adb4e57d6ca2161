"""Issue 10, "The right file": several attachments, paths as reference managers write them, unreadable types.

Fixtures are written here: .bib entries shaped like Zotero, JabRef, Mendeley and Better BibTeX exports
(``shared/data/bib-file-fields`` shows the real forms), PDFs generated with PyMuPDF, a publisher-style
landing page with a "Recommended articles" sidebar.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from citeproof.bibliography import read_bibtex
from citeproof.cli import app
from citeproof.model import Verdict
from citeproof.pipeline import CheckOptions, check
from citeproof.reports.json import report_to_dict
from citeproof.reports.markdown import render_markdown
from citeproof.sources import SourceResolver
from citeproof.sources.attachments import find_on_disk
from citeproof.sources.cache import Cache

TITLE = "Sleep deprivation impairs spatial memory in adult zebrafish"
MADE_UP = "Drinking coffee daily doubles lifespan in adult zebrafish kept in warm water"

LANDING = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sleep deprivation impairs spatial memory in adult zebrafish - ScienceDirect</title>
<script>window.dataLayer = [{"page": "article"}]; var teaser = "Drinking coffee daily doubles lifespan";</script>
<style>.sidebar{float:right}</style>
</head>
<body>
<div id="cookie-banner" class="cookie-consent">We use cookies to help provide and enhance our service and tailor content and ads. By continuing you agree to the use of cookies.</div>
<header class="site-header">
  <nav><ul><li><a href="/">Home</a></li><li><a href="/journals">Journals &amp; Books</a></li><li><a href="/help">Help</a></li></ul></nav>
</header>
<main>
<article>
<h1 class="article-title">Sleep deprivation impairs spatial memory in adult zebrafish</h1>
<div class="authors">Ana Martínez, Tomás Dvořák</div>
<section class="abstract">
<h2>Abstract</h2>
<p>Sleep is thought to support memory consolidation, but evidence from fish is scarce. We deprived adult zebrafish of sleep for one night using gentle mechanical stimulation and tested them in a plus-maze spatial task the following morning.</p>
<p>Sleep-deprived fish made 42% more errors than rested controls and took longer to reach the goal arm, while swimming speed was unchanged. Recovery sleep of one night restored performance to control levels.</p>
<p>These results indicate that a single night of sleep loss impairs spatial memory in zebrafish without affecting locomotion.</p>
</section>
</article>
</main>
<aside class="sidebar recommended-articles">
<h2>Recommended articles</h2>
<ul>
<li><a href="/a1">Drinking coffee daily doubles lifespan in adult zebrafish kept in warm water</a><p>Journal of Fish Biology, 2021</p></li>
<li><a href="/a2">Melatonin treatment reverses memory loss caused by sleep deprivation in mice</a><p>Neuroscience Letters, 2020</p></li>
</ul>
</aside>
<footer><p>Copyright 2024 Elsevier B.V. All rights reserved. Cookies are used by this site. Terms and conditions. Privacy policy.</p></footer>
</body>
</html>
"""

BODY = [
    "Sleep is thought to support memory consolidation, but evidence from fish is scarce. We deprived adult "
    "zebrafish of sleep for one night using gentle mechanical stimulation and tested them in a plus-maze "
    "spatial task the following morning.",
    "Sleep-deprived fish made 42% more errors than rested controls and took longer to reach the goal arm, "
    "while swimming speed was unchanged. Recovery sleep of one night restored performance to control levels.",
    "These results indicate that a single night of sleep loss impairs spatial memory in zebrafish without "
    "affecting locomotion.",
]


def make_pdf(path: Path, title: str, authors: str, paragraphs: list[str], pages: int = 1) -> Path:
    """A born-digital article PDF: title in 18 pt, authors, then body paragraphs, ``pages`` pages."""
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page(width=595, height=842)
        y = 72
        if n == 0:
            page.insert_textbox(pymupdf.Rect(72, y, 523, y + 60), title, fontsize=18, fontname="helv")
            page.insert_textbox(pymupdf.Rect(72, y + 66, 523, y + 86), authors, fontsize=11, fontname="helv")
            y += 110
        for para in paragraphs if n == 0 else [f"Methods continued on page {n + 1}. The fish were housed in groups of ten at 28 degrees under a fourteen hour light cycle."]:
            page.insert_textbox(pymupdf.Rect(72, y, 523, y + 90), para, fontsize=10, fontname="helv")
            y += 100
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    return path


def resolver_for(bib: Path, tmp_path: Path, sources: list[Path] | None = None) -> tuple[SourceResolver, dict]:
    refs, _ = read_bibtex(bib)
    return SourceResolver([bib.parent], sources or [], Cache(None)), {r.citekey: r for r in refs}


# --- several attachments -------------------------------------------------------------------------------


@pytest.fixture()
def zotero_landing_first(tmp_path):
    """A Zotero export listing the publisher's landing page before the PDF (the issue's example shape)."""
    (tmp_path / "files" / "357").mkdir(parents=True)
    (tmp_path / "files" / "357" / "S0166432821000123.html").write_text(LANDING, encoding="utf-8")
    pdf_name = "Martínez et al. - 2021 - Sleep deprivation impairs spatial memory in adult zebrafish.pdf"
    make_pdf(tmp_path / "files" / "3848" / pdf_name, TITLE, "Ana Martínez, Tomás Dvořák", BODY, pages=9)
    bib = tmp_path / "library.bib"
    bib.write_text(
        "@article{martinez2021sleep,\n"
        f"\ttitle = {{{TITLE}}},\n"
        "\tauthor = {Mart{\\'{i}}nez, Ana and Dvo{\\v{r}}{\\'a}k, Tom{\\'a}{\\v{s}}},\n"
        "\tjournal = {Behavioural Brain Research},\n"
        "\tyear = {2021},\n\tpages = {113--121},\n"
        "\tfile = {[HTML] from sciencedirect.com:files/357/S0166432821000123.html:text/html;"
        "Full Text PDF:files/3848/Mart{\\'{i}}nez et al. - 2021 - Sleep deprivation impairs spatial memory in adult zebrafish.pdf:application/pdf},\n"
        "}\n",
        encoding="utf-8",
    )
    doc = tmp_path / "draft.md"
    doc.write_text(
        f"{MADE_UP} [@martinez2021sleep].\n\n"
        "A single night of sleep loss impairs spatial memory in zebrafish without affecting locomotion [@martinez2021sleep].\n",
        encoding="utf-8",
    )
    return tmp_path, bib, doc


def test_pdf_read_over_the_landing_page_listed_first(zotero_landing_first):
    tmp_path, bib, doc = zotero_landing_first
    rep = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"]))
    made_up, real = sorted(rep.findings, key=lambda f: f.citation.line or f.claim.line)
    assert made_up.source.path.endswith("Sleep deprivation impairs spatial memory in adult zebrafish.pdf")
    assert [False, True] == [c.chosen for c in made_up.source.considered]
    html, pdf = made_up.source.considered
    assert html.path.endswith("S0166432821000123.html") and "an HTML page" in html.reason and "the PDF of the work was read instead" in html.reason
    assert pdf.reason.startswith("read: the PDF, title matches the entry") and "9 pages for the entry's 9" in pdf.reason
    assert made_up.verdict != Verdict.SUPPORTED
    assert Verdict.SUPPORTED == real.verdict and real.evidence.passage.page == 1


def test_report_says_which_file_was_read_and_which_passed_over(zotero_landing_first):
    tmp_path, bib, doc = zotero_landing_first
    rep = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"]))
    whole = report_to_dict(rep)
    data = whole["findings"][0]
    assert data["source"].endswith(".pdf") and data["source"] == whole["works"][data["work"]]["source"]
    assert [(Path(c["path"]).suffix, c["chosen"]) for c in whole["works"][data["work"]]["sources_considered"]] == [(".html", False), (".pdf", True)]
    md = render_markdown(rep)
    assert "Passed over: `" + str(tmp_path / "files" / "357" / "S0166432821000123.html") + "` (an HTML page" in md
    from citeproof.reports.html import render_html

    page = render_html(rep)
    assert "<dt>Passed over</dt><dd>" in page and "S0166432821000123.html: an HTML page (a snapshot or landing page)" in page
    assert "Source file: `" + data["source"] + "` (read: the PDF, title matches the entry (score 100), names the first author, 9 pages for the entry's 9)." in md


def test_audit_names_the_file_passed_over(zotero_landing_first):
    tmp_path, bib, doc = zotero_landing_first
    r = CliRunner().invoke(app, ["audit", str(doc), "--bib", str(bib), "--no-cache"], env={"COLUMNS": "1000"})
    assert 0 == r.exit_code, r.output
    assert f"passed over: {tmp_path / 'files' / '357' / 'S0166432821000123.html'} (an HTML page" in r.output


def test_landing_page_alone_never_supports_a_claim_from_its_sidebar(tmp_path):
    """Before issue 10 the sidebar's "Recommended articles" were passages: the made-up claim scored 1.00."""
    (tmp_path / "landing.html").write_text(LANDING, encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(f"@article{{m21, title = {{{TITLE}}}, author = {{Mart{{\\'{{i}}}}nez, Ana}}, file = {{Snapshot:landing.html:text/html}}}}\n")
    doc = tmp_path / "draft.md"
    doc.write_text(f"{MADE_UP} [@m21].\n\nSleep-deprived fish made 42% more errors than rested controls [@m21].\n")
    rep = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"]))
    made_up, real = sorted(rep.findings, key=lambda f: f.citation.line or f.claim.line)
    assert Verdict.UNSUPPORTED == made_up.verdict
    assert Verdict.SUPPORTED == real.verdict
    assert real.evidence.passage.text[:40] in LANDING.splitlines()[real.evidence.passage.line - 1]  # the line it starts on
    assert [16, 19, 20, 21, 22] == [p.line for p in real.source.passages]  # h1, h2 and the abstract's paragraphs
    texts = " ".join(p.text for p in real.source.passages)
    for chrome in ("Recommended articles", "coffee", "cookies", "Journals & Books", "Elsevier", "dataLayer"):
        assert chrome not in texts


@pytest.fixture()
def jabref_supplement_first(tmp_path):
    """JabRef: ``Supplement:supp.pdf:PDF;Full text:main.pdf:PDF``; the supplement repeats the title."""
    title = "Nitrogen fertilisation raises grain protein in winter wheat"
    make_pdf(tmp_path / "Okafor2019" / "supp.pdf", "Supplementary Information for: " + title, "Chidi Okafor, Eva Lindqvist",
             ["Table S1. Field sites, soil types and sowing dates of the six trials.", "Figure S2. Weekly rainfall at each site during the season."], pages=2)
    make_pdf(tmp_path / "Okafor2019" / "main.pdf", title, "Chidi Okafor, Eva Lindqvist",
             ["Across six field trials, nitrogen fertilisation at 180 kg per hectare raised grain protein by 1.8 percentage points in winter wheat.",
              "Yield rose by 0.9 tonnes per hectare, and the protein gain held on sandy and clay soils alike."], pages=9)
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@Article{Okafor2019,\n"
        f"  Title                    = {{{title}}},\n"
        "  Author                   = {Okafor, Chidi and Lindqvist, Eva},\n"
        "  Journal                  = {Field Crops Research},\n  Year = {2019},\n  Pages = {201--209},\n"
        "  File                     = {Supplement:Okafor2019/supp.pdf:PDF;Full text:Okafor2019/main.pdf:PDF},\n"
        "}\n"
    )
    doc = tmp_path / "draft.md"
    doc.write_text("Nitrogen fertilisation raised grain protein by 1.8 percentage points in winter wheat [@Okafor2019].\n")
    return tmp_path, bib, doc


def test_main_text_read_over_the_supplement_listed_first(jabref_supplement_first):
    tmp_path, bib, doc = jabref_supplement_first
    f = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"])).findings[0]
    assert str(tmp_path / "Okafor2019" / "main.pdf") == f.source.path
    supp = f.source.considered[0]
    assert (str(tmp_path / "Okafor2019" / "supp.pdf"), False) == (supp.path, supp.chosen)
    assert supp.reason == "a supplement (labelled 'Supplement'), not the work itself"
    assert Verdict.SUPPORTED == f.verdict and "off_topic" not in [t.name for t in f.tags]


def test_supplement_known_by_its_first_page_when_names_say_nothing(tmp_path):
    """Neutral file names and labels: the first page's "Supporting Information" gives the supplement away."""
    title = "Urban heat islands shorten the flowering season of street trees"
    make_pdf(tmp_path / "files" / "11" / "article.pdf", "Supporting Information", "Ines Moreau, Karl Brandt",
             [title + ". Appendix tables of daily temperatures for the 40 monitored streets."])
    make_pdf(tmp_path / "files" / "12" / "article-2.pdf", title, "Ines Moreau, Karl Brandt",
             ["Street trees in the warmest districts flowered 9 days earlier and for 6 fewer days than park trees."])
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{moreau_urban_2022,\n\ttitle = {" + title + "},\n\tauthor = {Moreau, Ines and Brandt, Karl},\n"
        "\tfile = {Full Text PDF:files/11/article.pdf:application/pdf;Full Text PDF:files/12/article-2.pdf:application/pdf},\n}\n"
    )
    res, refs = resolver_for(bib, tmp_path)
    src = res.resolve("moreau_urban_2022", refs["moreau_urban_2022"])
    assert src.path.endswith("article-2.pdf")
    assert "a supplement (its first page reads 'Supporting Information'" in src.considered[0].reason


def test_file_of_another_work_passed_over_and_a_lone_misfit_flagged(tmp_path):
    """A PDF of a different paper attached to the entry loses to the entry's own HTML full text; alone, it is read but flagged."""
    title = "Beaver dams raise groundwater levels in semi-arid valleys"
    make_pdf(tmp_path / "wrong.pdf", "Grazing pressure and soil carbon in alpine meadows", "Tenzin Dorje",
             ["Heavy grazing lowered topsoil carbon by a fifth over ten years."])
    (tmp_path / "fulltext.html").write_text(
        f"<html><body><article><h1>{title}</h1><p>By Ruth Calloway.</p><p>Groundwater rose by 0.4 m within 200 m of the "
        "dams over three summers, compared with reaches without dams, and the valley floor stayed wet into August.</p></article></body></html>"
    )
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{calloway2020,\n title = {" + title + "},\n author = {Calloway, Ruth},\n"
        " file = {Full Text PDF:wrong.pdf:application/pdf;Full Text:fulltext.html:text/html}\n}\n"
        "@article{calloway2020b,\n title = {" + title + "},\n author = {Calloway, Ruth},\n"
        " file = {Full Text PDF:wrong.pdf:application/pdf}\n}\n"
    )
    res, refs = resolver_for(bib, tmp_path)
    src = res.resolve("calloway2020", refs["calloway2020"])
    assert src.path.endswith("fulltext.html")
    assert src.considered[0].reason.startswith("does not fit the entry: its title does not match the entry's (score")
    lone = res.resolve("calloway2020b", refs["calloway2020b"])
    assert lone.path.endswith("wrong.pdf") and lone.usable
    assert lone.considered[0].chosen and "check that this is the right file" in lone.considered[0].reason
    doc = tmp_path / "d.md"
    doc.write_text("Beaver dams raised groundwater by 0.4 m [@calloway2020b].\n")
    md = render_markdown(check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"])))
    assert f"Source file: `{tmp_path / 'wrong.pdf'}` (read: the PDF, but its title does not match the entry's (score" in md


def test_page_count_picks_the_article_over_a_short_correction(tmp_path):
    title = "Soil microbes speed leaf litter decay in boreal forests"
    make_pdf(tmp_path / "a.pdf", title, "Aino Virtanen", ["Correction: the unit of Table 2 is grams per square metre."], pages=1)
    make_pdf(tmp_path / "b.pdf", title, "Aino Virtanen", ["Litter inoculated with forest soil lost 31% of its mass in a year."], pages=12)
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{v18, title={" + title + "}, author={Virtanen, Aino}, pages={45--56}, file={:a.pdf:PDF;:b.pdf:PDF}}\n")
    res, refs = resolver_for(bib, tmp_path)
    src = res.resolve("v18", refs["v18"])
    assert src.path.endswith("b.pdf")
    assert "its 1 pages do not fit the entry's pages 12; b.pdf (12) does" == src.considered[0].reason


def test_every_unusable_file_is_named_with_its_reason(tmp_path):
    (tmp_path / "files" / "1").mkdir(parents=True)
    (tmp_path / "files" / "1" / "draft.docx").write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    (tmp_path / "files" / "2").mkdir()
    (tmp_path / "files" / "2" / "paper.pdf").write_bytes(b"")
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{k, title={Tidal marshes store carbon}, author={Reyes, Luz},\n"
        " file={Word:files/1/draft.docx:application/vnd.openxmlformats-officedocument.wordprocessingml.document;"
        "Full Text PDF:files/2/paper.pdf:application/pdf;Snapshot:files/3/missing.html:text/html}}\n"
    )
    doc = tmp_path / "d.md"
    doc.write_text("Tidal marshes store carbon [@k].\n")
    f = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"])).findings[0]
    assert Verdict.UNVERIFIABLE == f.verdict
    reason = f.reasons[0]
    assert reason.startswith("none of the 3 files the bibliography entry names can be used: ")
    assert f"{tmp_path / 'files' / '1' / 'draft.docx'} (not a Word document: the file is not a zip package" in reason
    assert f"{tmp_path / 'files' / '2' / 'paper.pdf'} (the file is empty)" in reason
    assert "files/3/missing.html (not found (looked at" in reason
    r = CliRunner().invoke(app, ["audit", str(doc), "--bib", str(bib), "--no-cache", "-q"])
    assert 1 == r.exit_code and "draft.docx (not a Word document" in r.output.replace("\n", "")


# --- paths as reference managers write them --------------------------------------------------------------


@pytest.mark.parametrize(
    "field,path",
    [
        # Zotero native export, accents as LaTeX
        ("Full Text PDF:files/12/Mart{\\'{i}}nez - 2021 - Sue{\\~n}o.pdf:application/pdf", "files/12/Martínez - 2021 - Sueño.pdf"),
        # JabRef
        (":papers/D{\\'e}tection des {\\'e}motions.pdf:PDF", "papers/Détection des émotions.pdf"),
        ("Full text:Dvo{\\v{r}}{\\'a}k/{\\v{C}}apek - Stra{\\ss}e.pdf:PDF", "Dvořák/Čapek - Straße.pdf"),
        # Better BibTeX, Windows: "\bob" and "\users" are not accents
        ("C:\\Users\\bob\\Zotero\\storage\\K7\\M{\\\"u}ller - 2019.pdf", "C:\\Users\\bob\\Zotero\\storage\\K7\\Müller - 2019.pdf"),
        # Zotero with an unescaped colon in the file name
        ("Full Text PDF:files/9/Lee - 2020 - Sleep: a review.pdf:application/pdf", "files/9/Lee - 2020 - Sleep: a review.pdf"),
        # ... and a fourth part holding the URL
        ("Full Text PDF:files/9/Lee - Sleep: a review.pdf:application/pdf:https\\://example.org/x", "files/9/Lee - Sleep: a review.pdf"),
        # Better BibTeX with a ';' inside the file name
        ("/home/ana/Zotero/storage/AB12CD34/Smith; Jones - 2018 - Tides.pdf", "/home/ana/Zotero/storage/AB12CD34/Smith; Jones - 2018 - Tides.pdf"),
    ],
)
def test_paths_decoded(field, path):
    from citeproof.bibliography.file_field import parse_file_field

    atts = parse_file_field(field)
    assert [path] == [a.path for a in atts]
    assert unicodedata.is_normalized("NFC", atts[0].path)


def test_semicolon_name_among_several_better_bibtex_files():
    from citeproof.bibliography.file_field import parse_file_field

    atts = parse_file_field("/z/storage/A1/Smith; Jones - 2018.pdf;/z/storage/B2/Smith; Jones - 2018 - Snapshot.html")
    assert ["/z/storage/A1/Smith; Jones - 2018.pdf", "/z/storage/B2/Smith; Jones - 2018 - Snapshot.html"] == [a.path for a in atts]


@pytest.mark.parametrize("bib_form,disk_form", [("NFC", "NFD"), ("NFD", "NFC")])
def test_unicode_normal_forms_differ_between_bib_and_disk(tmp_path, bib_form, disk_form):
    """macOS stores names decomposed (NFD); a .bib may hold either form."""
    folder = unicodedata.normalize(disk_form, "Dvořák")
    name = unicodedata.normalize(disk_form, "Martínez - 2021 - Détection.pdf")
    make_pdf(tmp_path / "files" / folder / name, "Détection précoce des crues", "Ana Martínez", ["Les crues ont été détectées six heures plus tôt."])
    written = unicodedata.normalize(bib_form, "files/Dvořák/Martínez - 2021 - Détection.pdf")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{m, title={Détection précoce des crues}, file={Full Text PDF:" + written + ":application/pdf}}\n", encoding="utf-8")
    res, refs = resolver_for(bib, tmp_path)
    src = res.resolve("m", refs["m"])
    assert src.usable and src.path == str(tmp_path / "files" / folder / name)


def test_find_on_disk_leaves_missing_files_missing(tmp_path):
    assert find_on_disk(tmp_path / "Martínez.pdf") is None
    (tmp_path / "Martínez").mkdir()
    assert find_on_disk(tmp_path / "Martínez") is None  # a folder is not a file


def test_unescaped_colon_path_is_read(tmp_path):
    make_pdf(tmp_path / "files" / "9" / "Lee - 2020 - Sleep: a review.pdf", "Sleep: a review", "Min Lee", ["Adults need seven to nine hours of sleep."])
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{lee2020, title={Sleep: a review}, author={Lee, Min}, file={Full Text PDF:files/9/Lee - 2020 - Sleep: a review.pdf:application/pdf}}\n")
    res, refs = resolver_for(bib, tmp_path)
    assert res.resolve("lee2020", refs["lee2020"]).usable


@pytest.mark.parametrize("suffix,kind", [(".doc", "a Word document"), (".epub", "an EPUB book"), (".ppt", "a PowerPoint file")])
def test_unread_type_in_sources_is_named(tmp_path, suffix, kind):
    src_dir = tmp_path / "pdfs"
    src_dir.mkdir()
    (src_dir / f"lee2020{suffix}").write_bytes(b"{\\rtf1 Sleep.}" if suffix == ".rtf" else b"PK\x03\x04" + b"\x00" * 30)
    doc = tmp_path / "d.md"
    doc.write_text("Adults need seven to nine hours of sleep [@lee2020].\n")
    f = check(doc, [], CheckOptions(source_dirs=[src_dir], use_cache=False, tiers=["lexical"])).findings[0]
    assert Verdict.UNVERIFIABLE == f.verdict and "unreadable_source" in f.flags
    assert f.reasons[0].startswith(f"{src_dir / ('lee2020' + suffix)}: {kind} ({suffix}), a type citeproof does not read")
    assert "no file" not in f.reasons[0] and "matched" not in f.reasons[0]


def test_mendeley_label_never_reaches_a_message(tmp_path):
    bib = tmp_path / "mendeley.bib"
    bib.write_text(
        "@article{Kullander1990,\nauthor = {Kullander, Sven},\ntitle = {{Highlights of the European muon collaboration}},\n"
        "file = {:home/nobody/.local/share/data/Mendeley Ltd./Mendeley Desktop/Downloaded/Kullander - 1990 - Highlights.pdf:pdf},\n"
        "year = {1990}\n}\n"
    )
    doc = tmp_path / "d.md"
    doc.write_text("Muons were scattered [@Kullander1990].\n")
    rep = check(doc, [bib], CheckOptions(use_cache=False, tiers=["lexical"]))
    text = json.dumps(report_to_dict(rep)) + render_markdown(rep)
    assert "mendeley:" not in text
    assert "the file named in the bibliography (home/nobody/.local/share/data/Mendeley Ltd./Mendeley Desktop/Downloaded/Kullander - 1990 - Highlights.pdf) was not found" in rep.findings[0].reasons[0]


def test_bibliography_keeps_labels_and_pages(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={T}, pages={201--209}, file={Supplement:s.pdf:PDF;Full text:m.pdf:PDF}}\n")
    (ref,), _ = read_bibtex(bib)
    assert ("201--209", ("s.pdf", "m.pdf"), ("Supplement", "Full text")) == (ref.pages, ref.files, tuple(a.description for a in ref.attachments))


def test_supplement_word_in_the_title_is_not_a_supplement(tmp_path):
    """Zotero names files 'Author - Year - Title.pdf': a title holding 'supplement' is the work itself."""
    title = "Dietary supplement use among elite athletes"
    name = f"Hughes - 2019 - {title}.pdf"
    make_pdf(tmp_path / "files" / "5" / name, title, "Owen Hughes", ["Ninety percent of the 300 athletes used at least one supplement."], pages=8)
    (tmp_path / "files" / "6").mkdir(parents=True)
    (tmp_path / "files" / "6" / "snapshot.html").write_text(
        f"<html><body><article><h1>{title}</h1><p>Ninety percent of the 300 athletes surveyed used at least one dietary supplement in the season.</p></article></body></html>"
    )
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{hughes2019, title={" + title + "}, author={Hughes, Owen},\n"
                   " file={Full Text PDF:files/5/" + name + ":application/pdf;Snapshot:files/6/snapshot.html:text/html}}\n")
    res, refs = resolver_for(bib, tmp_path)
    src = res.resolve("hughes2019", refs["hughes2019"])
    assert src.path.endswith(name) and "supplement" not in src.considered[0].reason
    assert src.considered[1].reason.startswith("an HTML page (a snapshot or landing page)")


def test_markdown_title_in_front_matter_fits(tmp_path):
    """The demo's rephetio.md holds its title only in YAML front matter; it was flagged as a misfit (score 46)."""
    title = "Systematic integration of biomedical knowledge prioritizes drugs for repurposing"
    (tmp_path / "rephetio.md").write_text(f"---\ntitle: {title}\nlang: en-US\n---\n\n## Abstract\n\nThe ability to computationally predict whether a compound treats a disease would improve drug discovery.\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{h17, title={{" + title + "}}, author={Himmelstein, Daniel S.}, file={rephetio.md}}\n")
    res, refs = resolver_for(bib, tmp_path)
    (only,) = res.resolve("h17", refs["h17"]).considered
    assert only.chosen and only.reason.startswith("read: a Markdown file, title matches the entry (score 100)")
