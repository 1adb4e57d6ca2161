"""Command-line polish: readable lines, refused contradictions, grammar, help text, config typos, front matter."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeproof.cli import app

runner = CliRunner()


def _draft(tmp_path, n=1):
    bib = "".join(f"@article{{w{i},\n  title = {{A study of sleeping cats number {i} in the wild}},\n  author = {{Smith, Jane}},\n  year = {{2020}},\n}}\n" for i in range(n))
    cites = " ".join(f"Cats sleep a lot in study {i} [@w{i}]." for i in range(n))
    (tmp_path / "refs.bib").write_text(bib)
    (tmp_path / "draft.md").write_text(f"# Draft\n\n{cites}\n")
    return tmp_path / "draft.md", tmp_path / "refs.bib"


def test_offline_to_fetch_note_is_one_short_line(tmp_path):
    """Bug: under --offline the to-fetch note listed every work's full failure (two URLs each) on one ~29 KB line."""
    draft, bib = _draft(tmp_path, 30)
    res = runner.invoke(app, ["check", str(draft), "--bib", str(bib), "--offline", "--out", str(tmp_path / "o"), "-q", "--cache-dir", str(tmp_path / "c")])
    assert 0 == res.exit_code, res.output
    (note,) = [line for line in res.output.splitlines() if line.startswith("info: ")]
    assert note.startswith("info: 30 cited works still have no full text (not in the cache and --offline sends no request: 30)")
    assert "w0, w1, w2" in note and "w9 and 20 more" in note and "https://" not in note
    assert len(note) < 400, len(note)
    report = json.loads((tmp_path / "o" / "draft.citeproof.json").read_text())
    assert 30 == len(report["metadata"]["online"]["to_fetch"])  # the full list stays in the JSON


def test_online_and_offline_together_are_refused(tmp_path):
    draft, bib = _draft(tmp_path)
    for cmd in ("check", "audit"):
        res = runner.invoke(app, [cmd, str(draft), "--bib", str(bib), "--online", "--offline"])
        assert 2 == res.exit_code, (cmd, res.output)
        assert "--online and --offline contradict each other: drop --offline to send requests, or drop --online" in res.output
    assert not (tmp_path / "draft.citeproof.json").exists()


def test_negative_llm_max_cost_is_refused(tmp_path):
    draft, bib = _draft(tmp_path)
    res = runner.invoke(app, ["check", str(draft), "--bib", str(bib), "--llm-max-cost", "-1"])
    assert 2 == res.exit_code, res.output
    assert "Invalid value for '--llm-max-cost': Input should be greater than or equal to 0" in res.output
    assert not (tmp_path / "draft.citeproof.json").exists()


def test_counts_agree_with_one(tmp_path):
    draft, bib = _draft(tmp_path)
    res = runner.invoke(app, ["gate", str(draft), "--bib", str(bib)])
    assert (0, "1 citation, every citekey is in the bibliography") == (res.exit_code, res.output.strip())  # was "1 citations"
    (tmp_path / "draft.md").write_text("# D\n\nCats sleep [@nope].\n")
    res = runner.invoke(app, ["gate", str(draft), "--bib", str(bib)])
    assert "1 citation, 1 with an unknown citekey (1 distinct)" in res.output
    res = runner.invoke(app, ["check", str(draft), "--bib", str(bib), "--out", str(tmp_path / "o")])
    assert "0 of 1 cited work has a readable source; 1 unknown citekey" in res.output


def test_check_help_shows_one_example_a_line_and_every_input_kind():
    res = runner.invoke(app, ["check", "--help"], terminal_width=100)
    lines = [line.strip() for line in res.output.splitlines()]
    assert "citeproof check paper.pdf --sources pdfs/" in lines  # was folded into the previous example
    assert "citeproof check draft.md --bib refs.bib --out - | jq .summary" in lines
    text = " ".join(lines)
    assert all(kind in text for kind in (".docx", ".odt", ".json", ".tex", ".tar.gz", "PDF"))
    # what the report's words mean (new users' trials, issue 28, asked what "proven by code" and needs_review are)
    assert '"proven by code"' in text and "needs_review marks a finding" in text and "1 a --fail-on gate failed" in text


def test_config_typo_names_file_line_and_the_key_meant(tmp_path):
    (tmp_path / ".citeproof.toml").write_text('sources = ["pdfs"]\nbibliograpy = "refs.bib"\n')
    draft, _ = _draft(tmp_path)
    res = runner.invoke(app, ["gate", str(draft)])
    assert 2 == res.exit_code
    assert f"{tmp_path / '.citeproof.toml'}:2: unknown key 'bibliograpy'; did you mean 'bibliography'?" in res.output


def test_config_typo_in_pyproject_and_unknown_future_keys(tmp_path):
    from citeproof.config import load_config
    from citeproof.errors import InputError

    p = tmp_path / "pyproject.toml"
    p.write_text('[project]\nname = "x"\nformat = "not ours"\n\n[tool.citeproof]\nbibliography = "r.bib"\nformt = "md"\n')
    try:
        load_config(p)
        raise AssertionError("a typo was accepted")
    except InputError as exc:
        assert str(exc).startswith(f"{p}:7: unknown key 'formt'; did you mean 'format'?")
    p.write_text('[tool.citeproof]\nbibliography = "r.bib"\nwidgets = 3\nsources-dir = "x"\n')  # not typos: a later version's settings
    assert {"widgets": 3, "sources-dir": "x"} == load_config(p).extra


def test_front_matter_bibliography_problems_are_named(tmp_path):
    cases = {
        "bibliography: missing.bib": "draft.md:3: bibliography file missing.bib named in the front matter not found",
        "bibliography: [1, 2]": "draft.md:3: 'bibliography:' must be a file name or a list of file names, not a list holding a number",
        'note: "open\nbibliography: refs.bib': "the YAML front matter cannot be read",
    }
    for yaml_line, expected in cases.items():
        (tmp_path / "draft.md").write_text(f"---\ntitle: T\n{yaml_line}\n---\n\nCats sleep [@w0].\n")
        res = runner.invoke(app, ["gate", str(tmp_path / "draft.md")])
        assert 2 == res.exit_code, res.output
        assert expected in res.output and "give the bibliography with --bib" in res.output, res.output  # was the generic line alone


def test_unreadable_front_matter_bibliography_names_the_document_line(tmp_path):
    (tmp_path / "bad.txt").write_text("hello @ world\n")
    (tmp_path / "draft.md").write_text("---\ntitle: T\nbibliography: bad.txt\n---\n\nCats sleep [@w0].\n")
    res = runner.invoke(app, ["gate", str(tmp_path / "draft.md")])
    assert 2 == res.exit_code, res.output
    assert f"{tmp_path / 'draft.md'}:3: the bibliography its front matter names cannot be read: {tmp_path / 'bad.txt'}: no BibTeX entry could be read" in res.output


def test_claim_text_has_no_markdown_dashes_or_crossref_labels(tmp_path):
    from citeproof.pipeline import read_document

    doc = tmp_path / "d.md"
    doc.write_text("# T\n\nCats sleep most of the day---as studies show [@a].\n\n![Cats](c.png){#fig:cats}\n\n"
                   "As @fig:cats shows, dogs bark at night -- mostly [@a].\n\nTable @tbl:x lists the `--offline` runs [@a]; see [@fig:cats; @fig:dogs].\n")
    claims, _ = read_document(doc)
    assert ["Cats sleep most of the day\u2014as studies show.", "As Figure shows, dogs bark at night \u2013 mostly.",
            "Table lists the --offline runs; see Figure."] == [c.text for c in claims]  # were 'day---as', 'As fig:cats shows', 'Table tbl:x'



def test_claim_text_keeps_arrows_and_drops_html_comments(tmp_path):
    from citeproof.pipeline import read_document

    doc = tmp_path / "d.md"
    doc.write_text("# T\n\nThe 5' --> 3' helicase unwinds DNA <!-- check the figure --> in cells [@a]. "
                   "Signals run A <-- B and A <--> C from 1990--2000 [@a].\n")
    claims, _ = read_document(doc)
    assert ["The 5' --> 3' helicase unwinds DNA in cells.",
            "Signals run A <-- B and A <--> C from 1990\u20132000."] == [c.text for c in claims]
    # were "5' \u2013> 3'" (a new user's arrow shown back changed) and "<!\u2013 check the figure \u2013>" left in the claim

def test_demo_planting_skips_units_that_hold_no_claim(tmp_path):
    from citeproof.eval.demo_planted import plant_demo
    from citeproof.pipeline import CheckOptions, check

    src = tmp_path / "sources"
    src.mkdir()
    (src / "cats.txt").write_text("Domestic cats sleep for about fourteen hours a day on average, mostly in short naps.\n")
    (src / "dogs.txt").write_text("Dogs bark at strangers far more often than at their owners, mostly at night.\n")
    doc = tmp_path / "d.md"
    doc.write_text("# D\n\nCats sleep for fourteen hours a day [@cats]. Dogs bark at strangers at night [@dogs].\n\n"
                   "| Animal | Study |\n|---|---|\n| Cat | [@cats] |\n| Dog | [@dogs] |\n")
    report = check(doc, [], CheckOptions(source_dirs=[src], tiers=["lexical"], cache_dir=tmp_path / "c"))
    rows_units = [f for f in report.findings if "not_a_claim" in f.flags]
    assert 2 == len(rows_units) and all(f.evidence is not None for f in rows_units)  # judged, so the old code planted into them
    rows = plant_demo(report)
    assert [3, 3] == sorted(r.line for r in rows)  # was also lines 8 and 9 (the table rows)


def test_missing_bibliography_named_in_the_config_points_at_the_config(tmp_path):
    (tmp_path / ".citeproof.toml").write_text('sources = ["pdfs"]\nbibliography = ["refs/gone.bib"]\n')
    draft, _ = _draft(tmp_path)
    for cmd in ("gate", "check"):
        res = runner.invoke(app, [cmd, str(draft)])
        assert 2 == res.exit_code, res.output
        assert f"{tmp_path / '.citeproof.toml'}:2: bibliography gone.bib not found" in res.output  # was 'check the --bib path'
    assert 0 == runner.invoke(app, ["gate", str(draft), "--bib", str(tmp_path / "refs.bib")]).exit_code  # --bib wins over the config
