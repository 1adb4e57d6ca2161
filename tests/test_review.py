"""Review decisions carried over between runs, stale when the claim changed, and --fail-on (issue 15, part 1)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeproof.cli import app

runner = CliRunner()
SOURCE = "# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n"


def _setup(tmp_path, claim2="Vitamin K cured scurvy in sailors on long voyages"):
    src = tmp_path / "sources"
    src.mkdir(exist_ok=True)
    (src / "trial.md").write_text(SOURCE)
    draft = tmp_path / "draft.md"
    draft.write_text(f"Vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n\n{claim2} [@trial].\n")
    return draft, src


def _check(draft, src, out, *extra):
    return runner.invoke(app, ["check", str(draft), "--sources", str(src), "--out", str(out), "--format", "json,md", "--tier", "lexical",
                               "--no-cache", "--fail-on", "unsupported", *extra])


def _decide(out, fid, decision, finding):
    side = out / "draft.citeproof.review.json"
    side.write_text(json.dumps({"citeproof_review": 1, "document": finding["document"], "decisions": {fid: {
        "decision": decision, "note": "checked by hand", "at": "2026-12-01T10:00:00Z", "document": finding["document"],
        "citekey": finding["citekey"], "line": finding["line"], "claim": finding["claim"]}}}))


def test_false_alarm_is_carried_and_skipped_by_fail_on(tmp_path):
    draft, src = _setup(tmp_path)
    out = tmp_path / "out"
    assert 1 == _check(draft, src, out).exit_code
    bad = next(f for f in json.loads((out / "draft.citeproof.json").read_text())["findings"] if f["verdict"] == "unsupported")
    _decide(out, bad["id"], "false_alarm", bad)
    r = _check(draft, src, out)
    assert 0 == r.exit_code, r.output
    f = next(x for x in json.loads((out / "draft.citeproof.json").read_text())["findings"] if x["id"] == bad["id"])
    assert ("false_alarm", False) == (f["review"]["decision"], f["review"]["stale"])
    assert "Reviewer's decision: **false alarm**: checked by hand" in (out / "draft.citeproof.md").read_text()


def test_edited_claim_makes_the_decision_stale_and_fail_on_counts_it(tmp_path):
    draft, src = _setup(tmp_path)
    out = tmp_path / "out"
    _check(draft, src, out)
    bad = next(f for f in json.loads((out / "draft.citeproof.json").read_text())["findings"] if f["verdict"] == "unsupported")
    _decide(out, bad["id"], "accepted", bad)
    _setup(tmp_path, claim2="Vitamin K cured scurvy in sailors on very long voyages")
    r = _check(draft, src, out)
    assert 1 == r.exit_code
    f = next(x for x in json.loads((out / "draft.citeproof.json").read_text())["findings"] if x["verdict"] == "unsupported")
    assert ("accepted", True) == (f["review"]["decision"], f["review"]["stale"])
    assert "(stale: the claim or the source changed since)" in (out / "draft.citeproof.md").read_text()


def test_bad_review_file_is_exit_2(tmp_path):
    draft, src = _setup(tmp_path)
    side = tmp_path / "r.json"
    side.write_text(json.dumps({"decisions": {"x": {"decision": "maybe"}}}))
    r = _check(draft, src, tmp_path / "out", "--review", str(side))
    assert 2 == r.exit_code and "decisions.x.decision" in r.output
