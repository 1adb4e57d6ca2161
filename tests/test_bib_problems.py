"""A .bib that is partly wrong: unparseable entries and missing commas are named, and the exit code says so."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeproof.bibliography import load_bibliographies, read_bibtex
from citeproof.cli import app

runner = CliRunner()

GOOD_AND_BROKEN = """\
@article{good,
  title = {Cats sleep for most of the day},
  author = {Smith, Jane},
  year = {2020},
}

@article{bad,
  title = {Dogs bark {loudly,
  author = {Doe, John},
  year = {2021},
}
"""

DRAFT = "# Draft\n\nCats sleep for most of the day [@good]. Dogs bark at strangers [@bad].\n"


def _write(tmp_path, bib_text, draft=DRAFT):
    (tmp_path / "refs.bib").write_text(bib_text)
    (tmp_path / "draft.md").write_text(draft)
    return tmp_path / "draft.md", tmp_path / "refs.bib"


def test_unparseable_entry_names_key_line_and_why(tmp_path):
    _, bib_path = _write(tmp_path, GOOD_AND_BROKEN)
    bib = load_bibliographies([bib_path])
    assert ["good"] == list(bib.entries)
    (d,) = bib.diagnostics
    assert ("bib-parse", "error", 7) == (d.code, d.severity, d.line)
    assert f"{bib_path}:7: entry 'bad' could not be parsed" in d.message
    assert "braces do not balance: 5 '{' and 3 '}'" in d.message  # was "(syntax error)": bibtexparser's reason was not read
    assert bib.unknown_reasons["bad"].startswith(f"its entry at {bib_path}:7 could not be parsed")


def test_check_exits_2_and_citations_of_the_broken_entry_say_why(tmp_path):
    draft, bib_path = _write(tmp_path, GOOD_AND_BROKEN)
    res = runner.invoke(app, ["check", str(draft), "--bib", str(bib_path), "--out", str(tmp_path / "out"), "--offline", "--quiet"])
    assert 2 == res.exit_code, res.output  # was 0
    assert "the bibliography has 1 problem" in res.output
    report = json.loads((tmp_path / "out" / "draft.citeproof.json").read_text())
    bad = [f for f in report["findings"] if f["citekey"] == "bad"]
    assert 1 == len(bad) and "unverifiable" == bad[0]["verdict"]
    assert bad[0]["reasons"][0].startswith(f"its entry at {bib_path}:7 could not be parsed (its braces do not balance")


def test_gate_exits_2_on_a_broken_entry_even_when_it_is_not_cited(tmp_path):
    draft, bib_path = _write(tmp_path, GOOD_AND_BROKEN, "# Draft\n\nCats sleep [@good].\n")
    res = runner.invoke(app, ["gate", str(draft), "--bib", str(bib_path)])
    assert 2 == res.exit_code, res.output
    assert f"{bib_path}:7: entry 'bad' could not be parsed" in res.output


MISSING_COMMAS = """\
@article{x,
  title = {Cats sleep}
  author = {Smith, Jane},
  year = 2020
  journal = "Nature",
}
@article{y,
  title = "Dogs " # "bark"
  author = {Doe, J} ,
  note = {a = b, c}
}
"""


def test_missing_comma_is_reported_by_line_and_read_as_meant(tmp_path):
    p = tmp_path / "m.bib"
    p.write_text(MISSING_COMMAS)
    refs, diags = read_bibtex(p)
    # before: title 'Cats sleep} author = {Smith, Jane', no author, year '2020\n journal = "Nature"', all silent
    assert [("x", ("Smith, Jane",), "2020", "Nature"), ("y", ("Doe, J",), "", "")] == [(r.citekey, r.authors, r.year, r.container) for r in refs]
    assert "Cats sleep" == refs[0].title  # y's title is a '#' concatenation, which is one value followed by the missing comma
    assert [("bib-missing-comma", 2, "title", "author"), ("bib-missing-comma", 4, "year", "journal"), ("bib-missing-comma", 8, "title", "author")] == [
        (d.code, d.line, d.message.split("after the '")[1].split("'")[0], d.message.split("so '")[1].split("'")[0]) for d in diags
    ]
    assert all(d.message.startswith(f"{p}:{d.line}: a comma is missing") and d.severity == "error" for d in diags)


def test_well_formed_values_holding_equals_signs_are_not_missing_commas(tmp_path):
    p = tmp_path / "ok.bib"
    p.write_text('@misc{k,\n  note = {x = 1\n  and y = 2},\n  title = "A {=} B",\n  howpublished = {\\url{http://a.org/?q=1}}\n}\n')
    refs, diags = read_bibtex(p)
    assert ([], ["k"]) == (diags, [r.citekey for r in refs])


def test_check_exits_2_on_a_missing_comma(tmp_path):
    (tmp_path / "refs.bib").write_text(MISSING_COMMAS)
    (tmp_path / "draft.md").write_text("# D\n\nCats sleep a lot [@x].\n")
    res = runner.invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--out", str(tmp_path / "o"), "--offline", "-q"])
    assert 2 == res.exit_code, res.output
    assert f"{tmp_path / 'refs.bib'}:2: a comma is missing after the 'title' field, so 'author' was read into it" in res.output
