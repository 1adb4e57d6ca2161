"""Baselines: stable finding ids, ``citeproof diff`` and ``check --baseline`` (issue 15, part 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.reports.diff import diff_reports, finding_id, load_report

runner = CliRunner()

SOURCE = """# Vitamin D and fractures in elderly women

In a randomised trial of 2,686 women aged over 70, daily vitamin D supplementation reduced the risk of hip
fractures by 22 percent over five years compared with placebo.

Adverse events were rare and did not differ between the groups.
"""

DRAFT = """---
title: A draft
---

Vitamin D supplementation reduced the risk of hip fractures by 22 percent in women over 70 [@trial].

Adverse events were rare in that trial [@trial].
"""


def _project(tmp_path: Path) -> tuple[Path, Path]:
    src = tmp_path / "sources"
    src.mkdir()
    (src / "trial.md").write_text(SOURCE)
    (src / "other.md").write_text("# Unrelated\n\nGalaxy rotation curves flatten at large radii in spiral galaxies.\n")
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT)
    return draft, src


def _check(draft: Path, src: Path, out: Path, *extra: str):
    return runner.invoke(app, ["check", str(draft), "--sources", str(src), "--out", str(out), "--format", "json",
                               "--tier", "lexical", "--quiet", "--cache-dir", str(out.parent / "cache"), *extra])


def test_finding_id_depends_on_claim_and_source_bytes():
    base = {"document": "d.md", "citekey": "k", "claim": "A claim.", "provenance": {"sha256": "ab"}}
    assert 16 == len(finding_id(base))
    assert finding_id(base) == finding_id(dict(base, line=99, verdict="partial"))
    assert finding_id(base) != finding_id(dict(base, claim="Another claim."))
    assert finding_id(base) != finding_id(dict(base, provenance={"sha256": "cd"}))


def test_ids_are_written_and_a_rerun_is_unchanged(tmp_path):
    draft, src = _project(tmp_path)
    assert 0 == _check(draft, src, tmp_path / "a").exit_code
    assert 0 == _check(draft, src, tmp_path / "b").exit_code
    a = load_report(tmp_path / "a" / "draft.citeproof.json")
    b = load_report(tmp_path / "b" / "draft.citeproof.json")
    assert 2 == len({f["id"] for f in a["findings"]})
    d = diff_reports(a, b)
    assert ([], [], [], 2) == (d.new, d.resolved, d.changed, d.unchanged)


def test_edited_sentence_is_changed_and_new_citation_is_new(tmp_path):
    draft, src = _project(tmp_path)
    _check(draft, src, tmp_path / "a")
    draft.write_text(DRAFT.replace("Adverse events were rare", "Adverse events were very rare")
                     + "\nSpiral galaxies rotate with flat curves at large radii [@other].\n")
    _check(draft, src, tmp_path / "b")
    d = diff_reports(load_report(tmp_path / "a" / "draft.citeproof.json"), load_report(tmp_path / "b" / "draft.citeproof.json"))
    assert ["other"] == [f["citekey"] for f in d.new]
    assert 1 == len(d.changed) and ["claim text"] == d.changed[0].what[:1]
    assert "very rare" in d.changed[0].new["claim"]
    assert (1, []) == (d.unchanged, d.resolved)


def test_removed_citation_is_resolved(tmp_path):
    draft, src = _project(tmp_path)
    _check(draft, src, tmp_path / "a")
    draft.write_text(DRAFT.split("\nAdverse")[0] + "\n")
    _check(draft, src, tmp_path / "b")
    d = diff_reports(load_report(tmp_path / "a" / "draft.citeproof.json"), load_report(tmp_path / "b" / "draft.citeproof.json"))
    assert (1, 0, 0) == (len(d.resolved), len(d.new), len(d.changed))
    assert "Adverse" in d.resolved[0]["claim"]


def test_baseline_makes_fail_on_count_only_new_problems(tmp_path):
    draft, src = _project(tmp_path)
    draft.write_text(DRAFT + "\nHip fractures doubled in men who ran marathons [@trial].\n")
    first = _check(draft, src, tmp_path / "a", "--fail-on", "unsupported,partial")
    assert 1 == first.exit_code  # the marathon sentence is not in the source
    base = tmp_path / "a" / "draft.citeproof.json"
    assert 0 == _check(draft, src, tmp_path / "b", "--fail-on", "unsupported,partial", "--baseline", str(base)).exit_code
    draft.write_text(draft.read_text() + "\nVitamin K cured scurvy in sailors on long voyages [@trial].\n")
    again = _check(draft, src, tmp_path / "c", "--fail-on", "unsupported,partial", "--baseline", str(base))
    assert 1 == again.exit_code


def test_diff_command_prints_and_fails_on_new_problem(tmp_path):
    draft, src = _project(tmp_path)
    _check(draft, src, tmp_path / "a")
    draft.write_text(DRAFT + "\nVitamin K cured scurvy in sailors on long voyages [@trial].\n")
    _check(draft, src, tmp_path / "b")
    a, b = (str(tmp_path / x / "draft.citeproof.json") for x in "ab")
    r = runner.invoke(app, ["diff", a, b, "--fail-on", "unsupported"])
    assert 1 == r.exit_code, r.output
    assert "1 new, 0 resolved, 0 changed, 2 unchanged" in r.output
    assert "new       " in r.output and "[trial] unsupported" in r.output
    j = runner.invoke(app, ["diff", a, b, "--json"])
    assert 0 == j.exit_code and 1 == len(json.loads(j.output)["new"])


@pytest.mark.parametrize("content, what", [("{not json", "not a JSON report"), ('{"a": 1}', "no 'findings' list")])
def test_bad_report_is_exit_2_naming_the_file(tmp_path, content, what):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    r = runner.invoke(app, ["diff", str(bad), str(bad)])
    assert 2 == r.exit_code
    assert "bad.json" in r.output and what in r.output


def test_runs_are_recorded_in_the_history(tmp_path):
    """Each check with a cache adds a history row with the inputs' hashes and counts; --no-cache adds none."""
    import hashlib

    from citeproof.history import list_runs

    draft, src = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(draft, src, tmp_path / "a")
    draft.write_text(DRAFT + "\nVitamin K cured scurvy in sailors on long voyages [@trial].\n")
    _check(draft, src, tmp_path / "b")
    runner.invoke(app, ["check", str(draft), "--sources", str(src), "--out", str(tmp_path / "c"), "--tier", "lexical", "--quiet", "--no-cache"])
    runs = list_runs(cache, draft)
    assert 2 == len(runs)
    newest = runs[0]
    assert hashlib.sha256(draft.read_bytes()).hexdigest() == newest.document_sha256
    assert hashlib.sha256((src / "trial.md").read_bytes()).hexdigest() == newest.record["sources"]["trial"]
    assert 3 == newest.record["summary"]["citations"] and 2 == runs[1].record["summary"]["citations"]
    assert ["lexical"] == newest.record["tiers"]
    assert [] == list_runs(cache, tmp_path / "elsewhere.md")
    r = runner.invoke(app, ["history", str(draft), "--cache-dir", str(cache), "--json"])
    assert 0 == r.exit_code and [2, 1] == [x["id"] for x in json.loads(r.output)]
    table = runner.invoke(app, ["history", "--cache-dir", str(cache)])
    assert 0 == table.exit_code and "unsupported 1" in table.output


def test_damaged_history_is_exit_2_and_does_not_fail_check(tmp_path):
    draft, src = _project(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "history.sqlite").write_bytes(b"this is not a database" * 100)
    r = _check(draft, src, tmp_path / "a")
    assert 0 == r.exit_code and "run not recorded in the history" in r.output
    h = runner.invoke(app, ["history", "--cache-dir", str(cache)])
    assert 2 == h.exit_code and "history.sqlite" in h.output
