"""Issue 25: uncited claims, suggestions from the user's library, locator repair, inconsistent citations.

Real-shaped inputs: a draft citing the demo sample's real PDFs (the Sci-Hub coverage study, the Git/GitHub
introduction) for sentences taken from them, one with the wrong work, one with the wrong page; the demo
manuscript itself for uncited claims. The lexical tier keeps the runs quick; the library search is the run's own.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.assist.consistency import inconsistent_pairs
from citeproof.assist.locators import corrected_locator
from citeproof.assist.paragraphs import markdown_paragraphs, text_paragraphs
from citeproof.assist.uncited import finding_cue, own_or_exempt, uncited_claims
from citeproof.cli import app
from citeproof.pipeline import CheckOptions, check
from citeproof.readers.markdown import MarkdownReader
from tests.conftest import SAMPLE

CITED = SAMPLE / "cited"
DRAFT = """# Access to the literature

Version control records every change to a manuscript [@git].
Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref [@git].
Coverage was substantially higher for articles from toll access journals than for articles from open access journals [@scihub, p. 3].

Sci-Hub's database contains 68.9% of all scholarly articles with DOIs [@scihub].
Several studies have shown that 85.1% of articles published in toll access journals are in Sci-Hub's database.
Only 45% of all scholarly articles with DOIs are in Sci-Hub's database [@scihub].

Open access increased the citation rates of articles [@lost].
Open access decreased the citation rates of articles [@lost].
"""


def _bib(folder: Path) -> Path:
    bib = folder / "refs.bib"
    bib.write_text(
        "@article{scihub, title = {Sci-Hub provides access to nearly all scholarly literature}, author = {Himmelstein, Daniel S.},"
        f" year = {{2018}}, file = {{{CITED / 'himmelstein2018-scihub.pdf'}}}}}\n"
        "@article{git, title = {A Quick Introduction to Version Control with Git and GitHub}, author = {Blischak, John D.},"
        f" year = {{2016}}, file = {{{CITED / 'blischak2016-git-github.pdf'}}}}}\n"
        "@article{lost, title = {Open access and citations}, author = {Nobody, A.}, year = {2020}}\n",
        encoding="utf-8",
    )
    return bib


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assist")
    draft = folder / "draft.md"
    draft.write_text(DRAFT, encoding="utf-8")
    bib = _bib(folder)
    report = check(draft, [bib], CheckOptions(cache_dir=folder / "cache", tiers=["lexical"]))
    return folder, draft, bib, report


def _at(report, line: int, key: str):
    return next(f for f in report.findings if f.citation.line == line and f.citation.citekey == key)


# --- part 1: uncited claims -------------------------------------------------------------------------------

def test_cues_and_exemptions_on_real_sentences():
    # sentences from the demo manuscript and from PMC articles (Citation Integrity's reference texts)
    assert finding_cue("The greatest success to date of open collaborative writing is arguably Wikipedia, whose English version contains over 5.5 million articles.") == ("number", "5.5 million")
    assert finding_cue("Several randomized clinical trials have demonstrated that diabetes is preventable.")[0] == "reported"
    assert own_or_exempt("We annotated the author list to indicate that author order was partly randomized and emphasize that the order did not indicate one author contributed more than another.") == "own"
    assert own_or_exempt("Across the 22 N-linked glycosylation sites, 52% are fucosylated and 15% of the glycans contain at least one sialic acid residue (table S2 and fig. S3).") == "own"
    assert own_or_exempt("Interestingly, it also activates autophagy by increasing p62, thereby enhancing the cells' ability to process damaged proteins.") == "refers back"
    assert own_or_exempt("A sensitivity analysis is defined as a repeated analysis under changed assumptions about the data.") == "definition"
    assert own_or_exempt("Manubot also addresses other shortcomings.") == "short"
    assert own_or_exempt("In a study of 184 patients with severe COVID-19 from 3 academic medical centers in the Netherlands, 31% developed incident VTE.") == ""


def test_uncited_claims_of_the_demo_manuscript():
    paras = markdown_paragraphs((SAMPLE / "citing" / "meta-review.md").read_text(encoding="utf-8"))
    flagged = {u.sentence.line: u for u in uncited_claims(paras)}
    assert sorted(flagged) == [705, 747]
    assert flagged[747].cue == "number" and flagged[747].words == "5.5 million"
    # a sentence whose next one links a web page is still flagged; the linking one is not (a link is a citation)
    assert 748 not in flagged


def test_markdown_paragraphs_mark_what_cites():
    paras = markdown_paragraphs(DRAFT)
    lines = {s.line: s.citekeys for p in paras for s in p.sentences}
    assert lines[4] == ("git",) and lines[8] == () and lines[5] == ("scihub",)
    # the reader and the paragraphs agree on where each cited sentence starts
    claims = MarkdownReader().read_string(DRAFT)
    assert {c.line for c in claims} == {ln for ln, keys in lines.items() if keys}


def test_text_paragraphs_numeric_markers():
    text = "Deep networks need much data [12]. They are large. The loss of CFTR results in the loss of transport [69•].\n\nAnother paragraph."
    paras = text_paragraphs(text)
    assert [s.citekeys for s in paras[0].sentences] == [("[12]",), (), ("[69•]",)]
    assert paras[1].line == 3


def test_uncited_claim_diagnostic_names_a_library_candidate(drafted):
    _folder, draft, _bib, report = drafted
    (u,) = report.uncited
    assert u["line"] == 8 and u["cue"] == "number" and u["words"] == "85.1%"
    cand = u["candidate"]
    assert cand["citekey"] == "scihub" and cand["page"] == 2
    assert "85.1% of articles published in toll access journals" in cand["evidence"]
    d = next(d for d in report.diagnostics if d.code == "uncited_claim")
    assert d.line == 8 and d.file == str(draft) and "@scihub, p. 2" in d.message


# --- part 2: suggestions from the library ---------------------------------------------------------------------

def test_unsupported_citation_gets_the_right_work(drafted):
    f = _at(drafted[3], 4, "git")
    assert f.verdict.value == "unsupported"
    (s,) = [s for s in f.suggestions if s["kind"] == "source"]
    assert s["citekey"] == "scihub" and s["page"] == 2 and s["locator"] == "p. 2"
    assert s["message"].startswith("did you mean [@scihub, p. 2]?")
    assert "68.9% of the 81.6 million scholarly articles registered with Crossref" in s["evidence"]
    # a supported or partial citation is not second-guessed
    assert _at(drafted[3], 3, "git").suggestions == []


def test_suggestions_in_every_report_format(drafted, tmp_path):
    from citeproof.reports.html import render_html
    from citeproof.reports.json import report_to_dict
    from citeproof.reports.markdown import render_markdown
    from citeproof.reports.sarif import report_to_sarif
    import jsonschema

    report = drafted[3]
    d = report_to_dict(report)
    jsonschema.validate(d, json.loads((Path(__file__).parents[1] / "src/citeproof/reports/schema.json").read_text()))
    git = next(f for f in d["findings"] if f["citekey"] == "git" and f["line"] == 4)
    assert git["suggestions"][0]["citekey"] == "scihub"
    assert d["uncited_claims"][0]["line"] == 8
    md = render_markdown(report)
    assert "Suggestion: did you mean [@scihub, p. 2]?" in md and "## Sentences that state a finding and cite nothing" in md
    html = render_html(report, tmp_path, crops=False)
    assert 'class="suggestion" data-kind="source"' in html and "did you mean [@scihub, p. 2]?" in html
    assert 'class="suggestion" data-kind="locator"' in html and "Inconsistent with line 9" in html
    sarif = report_to_sarif(report)
    texts = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
    assert any("Suggestion: did you mean [@scihub, p. 2]?" in t for t in texts)


# --- part 3: locator repair -----------------------------------------------------------------------------------

def test_wrong_page_gets_the_corrected_locator(drafted):
    f = _at(drafted[3], 5, "scihub")
    (s,) = [s for s in f.suggestions if s["kind"] == "locator"]
    # "coverage was substantially higher for articles from toll rather than open access journals" runs from sheet 8 to 9
    assert s["old_locator"] == "p. 3" and s["locator"] == "pp. 8\u20139" and s["page"] == 8
    assert "toll rather than open access journals" in s["evidence"]


def test_corrected_locator_keeps_the_label():
    assert corrected_locator("p. 3", "2") == "p. 2"
    assert corrected_locator("pp. 3-4", "7") == "p. 7"
    assert corrected_locator("page 3", "12") == "page 12"


def test_fix_locators_writes_a_patch_and_changes_nothing(drafted, tmp_path):
    folder, draft, bib, _report = drafted
    before = draft.read_bytes()
    patch = tmp_path / "fix.patch"
    r = CliRunner().invoke(app, ["fix", "--locators", str(draft), "--bib", str(bib), "--tier", "lexical", "--cache-dir", str(folder / "cache"), "-q", "--patch", str(patch)])
    assert r.exit_code == 1, r.output
    assert draft.read_bytes() == before
    text = patch.read_text(encoding="utf-8")
    assert "-Coverage was substantially higher" in text and "[@scihub, pp. 8\u20139]." in text
    copy = tmp_path / "draft.md"
    copy.write_bytes(before)
    done = subprocess.run(["patch", str(copy), str(patch)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "[@scihub, pp. 8\u20139]" in copy.read_text(encoding="utf-8") and "[@scihub, p. 3]" not in copy.read_text(encoding="utf-8")


def test_fix_needs_a_kind(tmp_path):
    r = CliRunner().invoke(app, ["fix", str(tmp_path / "x.md")])
    assert r.exit_code == 2 and "--locators" in r.output


# --- part 5: inconsistent citations -------------------------------------------------------------------------

def test_inconsistent_numbers_and_directions(drafted):
    report = drafted[3]
    f7, f9 = _at(report, 7, "scihub"), _at(report, 9, "scihub")
    assert [(x["kind"], x["this"], x["other"], x["other_line"]) for x in f7.inconsistencies] == [("number", "68.9%", "45%", 9)]
    assert f9.inconsistencies[0]["other_line"] == 7
    # the source is missing and still the two sentences are compared
    lost = _at(report, 11, "lost")
    assert lost.verdict.value == "unverifiable"
    assert [(x["kind"], x["this"], x["other"]) for x in lost.inconsistencies] == [("direction", "increased", "decreased")]
    diags = [d for d in report.diagnostics if d.code == "inconsistent_citations"]
    assert sorted(d.line for d in diags) == [7, 11]
    assert "line 12" in next(d.message for d in diags if d.line == 11)


def test_consistent_citations_are_not_flagged():
    claims = MarkdownReader().read_string(
        "Sci-Hub's database contains 68.9% of all scholarly articles with DOIs [@s].\n"
        "Coverage was 85.1% for articles published in toll access journals [@s].\n"
        "Coverage increased for older articles [@s]. Downloads decreased on weekends [@s].\n")
    assert inconsistent_pairs(claims) == []


def test_assist_can_be_turned_off(tmp_path):
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT, encoding="utf-8")
    report = check(draft, [_bib(tmp_path)], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"], assist=False))
    assert report.uncited == [] and all(not f.suggestions and not f.inconsistencies for f in report.findings)


def test_a_warm_rerun_searches_nothing_again(drafted):
    """The library and locator searches are kept in the judgement cache: the second run reuses every one."""
    folder, draft, bib, first = drafted
    again = check(draft, [bib], CheckOptions(cache_dir=folder / "cache", tiers=["lexical"]))
    assert again.metadata["assist"]["reused"] >= 3  # the unsupported citation, the locator, the uncited sentence
    assert [f.suggestions for f in again.findings] == [f.suggestions for f in first.findings]
    assert again.uncited == first.uncited


def test_a_sources_file_no_entry_names_is_suggested_by_path(tmp_path):
    """--sources files that no bibliography entry claims are part of the library (suggested by their path)."""
    import shutil

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(CITED / "himmelstein2017-rephetio.md", pdfs / "rephetio-notes.md")
    draft = tmp_path / "draft.md"
    draft.write_text("Version control records every change to a manuscript [@git].\n"
                     "Hetionet v1.0 consists of 47,031 nodes of 11 types and 2,250,197 relationships of 24 types [@git].\n", encoding="utf-8")
    report = check(draft, [_bib(tmp_path)], CheckOptions(source_dirs=[pdfs], cache_dir=tmp_path / "cache", tiers=["lexical"]))
    f = _at(report, 2, "git")
    assert f.verdict.value == "unsupported"
    (s,) = f.suggestions
    assert s["citekey"] is None and s["path"].endswith("rephetio-notes.md") and s["locator"] == ""
    assert s["message"].startswith(f"did you mean the file {s['path']}?")
    assert "47,031 nodes of 11 types" in s["evidence"]
