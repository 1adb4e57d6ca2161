"""Bibliographies: bibtexparser 2 entries, problems as diagnostics, several files, CSL-JSON, real exports."""

from __future__ import annotations

import json

import pytest

from citeproof.bibliography import load_bibliographies, normalise_doi
from citeproof.errors import BibliographyError

from conftest import SAMPLE, need_data


def test_sample_bib():
    bib = load_bibliographies([SAMPLE / "meta-review.bib"])
    assert 101 == len(bib.entries)
    ref = bib.get("doi:10.7554/eLife.32822")
    assert ("10.7554/elife.32822", ("cited/himmelstein2018-scihub.pdf",), "2018") == (ref.doi, ref.files, ref.year)
    assert ref.title == "Sci-Hub provides access to nearly all scholarly literature"
    assert [] == bib.diagnostics


def test_duplicates_keyless_and_broken_entries(tmp_path):
    a = tmp_path / "a.bib"
    a.write_text("@article{k1, title={First}}\n@article{k1, title={Again}}\n@article{, title={No key}}\n@misc{bad title=}\n@book{k2, title={Fine}}\n")
    bib = load_bibliographies([a])
    assert {"k1": "First", "k2": "Fine"} == {k: v.title for k, v in bib.entries.items()}
    codes = sorted(d.code for d in bib.diagnostics)
    assert ["bib-duplicate-key", "bib-no-key", "bib-parse"] == codes
    assert any(f"{a}:2" in d.message for d in bib.diagnostics if d.code == "bib-duplicate-key")


def test_first_bib_wins(tmp_path):
    a, b = tmp_path / "a.bib", tmp_path / "b.bib"
    a.write_text("@article{k, title={From A}}\n")
    b.write_text("@article{k, title={From B}}\n@article{only_b, title={B only}}\n")
    bib = load_bibliographies([a, b])
    assert ("From A", "B only") == (bib.get("k").title, bib.get("only_b").title)
    assert 1 == sum(d.code == "bib-duplicate-key" for d in bib.diagnostics)


def test_csl_json(tmp_path):
    p = tmp_path / "refs.json"
    p.write_text(json.dumps([{"id": "x", "title": "T", "DOI": "https://doi.org/10.1/ABC", "author": [{"family": "Doe", "given": "J"}], "issued": {"date-parts": [[2020]]}}]))
    ref = load_bibliographies([p]).get("x")
    assert ("T", "10.1/abc", ("Doe, J",), "2020") == (ref.title, ref.doi, ref.authors, ref.year)


def test_missing_and_bad_files(tmp_path):
    with pytest.raises(BibliographyError, match="not found"):
        load_bibliographies([tmp_path / "nope.bib"])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BibliographyError, match=r"bad.json:1:2"):
        load_bibliographies([bad])


def test_normalise_doi():
    assert "10.7554/elife.32822" == normalise_doi("https://doi.org/10.7554/eLife.32822")


@pytest.mark.parametrize(
    "name,expect_file",
    [
        ("zotero_native_export__isdata-org_IndustrialSymbiosis.bib", True),
        ("zotero_betterbibtex__Panreta_My_Library.bib", True),
        ("mendeley__Jollyhrothgar_mendeley.bib", True),
        ("jabref210__frank2679_paper_MCRA_formula.bib", True),
        ("paperpile__hkarl_mobile_wireless.bib", True),
    ],
)
def test_real_exports_parse(name, expect_file):
    """Real reference-manager exports (read in place) give entries with decoded file paths."""
    path = need_data("bib-file-fields") / name
    bib = load_bibliographies([path])
    assert len(bib.entries) > 5
    with_files = [r for r in bib.entries.values() if r.files]
    assert bool(with_files) == expect_file
    for r in with_files:
        for f in r.files:
            assert "{" not in f and "$\\backslash$" not in f


def test_a_pdf_given_as_the_bibliography_is_refused(tmp_path):
    """--bib paper.pdf gave 28 'entry could not be parsed' errors and exit 0 (new-user trial); now one clear error, exit 2."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    pdf = next((SAMPLE / "cited").glob("*.pdf"))
    with pytest.raises(BibliographyError, match=r"is a PDF, not a bibliography; --bib takes a \.bib or CSL-JSON file"):
        load_bibliographies([pdf])
    doc = tmp_path / "d.md"
    doc.write_text("A claim [@a].\n")
    r = CliRunner().invoke(app, ["gate", str(doc), "--bib", str(pdf)])
    assert 2 == r.exit_code and "not a bibliography" in r.output
