"""``citeproof eval feedback DIR``: reviewers' decisions as labelled pairs and precision on reviewed flags (issue 15, part 4)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.eval.feedback import feedback_metrics, load_feedback, wilson

runner = CliRunner()

TRIAL = "# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n"
DRAFT = ("In women over 70, daily Vitamin D reduced hip fractures by 22 percent [@trial].\n\n"
         "Vitamin K cured scurvy in sailors on long voyages [@trial].\n\n"
         "Zinc lozenges shortened common colds in children by three days [@trial].\n\n"
         "Magnesium improved sleep quality in older adults [@ghost2019].\n")


def _run(tmp_path):
    """A checked draft: one supported, two unsupported and one unverifiable citation, JSON report in out/."""
    src = tmp_path / "sources"
    src.mkdir()
    (src / "trial.md").write_text(TRIAL)
    (tmp_path / "refs.bib").write_text("@article{trial, title={A trial}, year={2019}}\n@article{ghost2019, title={Magnesium and sleep}, year={2019}}\n")
    (tmp_path / "draft.md").write_text(DRAFT)
    out = tmp_path / "out"
    r = runner.invoke(app, ["check", str(tmp_path / "draft.md"), "--bib", str(tmp_path / "refs.bib"), "--sources", str(src),
                            "--out", str(out), "--format", "json", "--tier", "lexical", "--no-cache"])
    assert r.exit_code in (0, 1), r.output
    findings = json.loads((out / "draft.citeproof.json").read_text())["findings"]
    return out, findings


def _record(f, decision, note=""):
    return {"decision": decision, "note": note, "at": "2026-12-01T10:00:00Z", "document": f["document"],
            "citekey": f["citekey"], "line": f["line"], "claim": f["claim"]}


def _by_claim(findings, word):
    return next(f for f in findings if word in f["claim"])


def _sidecars(tmp_path):
    out, findings = _run(tmp_path)
    assert ["supported", "unsupported", "unsupported", "unverifiable"] == [_by_claim(findings, w)["verdict"] for w in ("Vitamin D", "scurvy", "Zinc", "Magnesium")]
    decisions = {
        _by_claim(findings, "scurvy")["id"]: _record(_by_claim(findings, "scurvy"), "genuine", "wrong source"),
        _by_claim(findings, "Zinc")["id"]: _record(_by_claim(findings, "Zinc"), "false_alarm", "table 2 says so"),
        _by_claim(findings, "Magnesium")["id"]: _record(_by_claim(findings, "Magnesium"), "accepted"),
        _by_claim(findings, "Vitamin D")["id"]: _record(_by_claim(findings, "Vitamin D"), "genuine", "it was 12 percent"),
        "0123456789abcdef": {"decision": "genuine", "document": "draft.md", "citekey": "gone", "line": 9, "claim": "an old sentence"},
    }
    (out / "draft.citeproof.review.json").write_text(json.dumps({"citeproof_review": 1, "document": "draft.md", "decisions": decisions}))
    # a second reviewer's file exported from an HTML report, with no JSON report beside it: the record carries the finding
    other = tmp_path / "out" / "colleague"
    other.mkdir()
    (other / "thesis.citeproof.review.json").write_text(json.dumps({"citeproof_review": 1, "document": "thesis.md", "decisions": {
        "aa00": {"decision": "false_alarm", "document": "thesis.md", "citekey": "lee2020", "line": 4, "claim": "Lee found X.",
                 "verdict": "contradicted", "tier": "entailment", "tags": ["negation_flip"], "passage": "Lee found not X."}}}))
    return out


def test_pairs_join_the_report_and_the_record(tmp_path):
    out = _sidecars(tmp_path)
    pairs, counts = load_feedback(out)
    assert {"sidecars": 2, "decisions": 6, "from_report": 4, "from_record": 1, "unmatched": 1} == counts
    scurvy = next(p for p in pairs if "scurvy" in p.claim)
    assert ("unsupported", "lexical", "genuine", "wrong source") == (scurvy.verdict, scurvy.tier, scurvy.label, scurvy.note)
    assert "vitamin D reduced hip fractures" in scurvy.passage
    lee = next(p for p in pairs if p.citekey == "lee2020")
    assert ("contradicted", "entailment", ("negation_flip",), "Lee found not X.") == (lee.verdict, lee.tier, lee.tags, lee.passage)


def test_precision_per_tier_verdict_and_tag(tmp_path):
    pairs, _ = load_feedback(_sidecars(tmp_path))
    m = feedback_metrics(pairs)
    assert (4, 1, 2, 1, 0.3333) == tuple(m["flags"][k] for k in ("reviewed", "genuine", "false_alarm", "accepted", "precision"))
    assert {"entailment", "lexical"} <= set(m["by_tier"])
    assert (0, 1, 0.0) == (m["by_tier"]["entailment"]["genuine"], m["by_tier"]["entailment"]["false_alarm"], m["by_tier"]["entailment"]["precision"])
    assert (1, 1, 0.5) == (m["by_verdict"]["unsupported"]["genuine"], m["by_verdict"]["unsupported"]["false_alarm"], m["by_verdict"]["unsupported"]["precision"])
    assert (None, 1) == (m["by_verdict"]["unverifiable"]["precision"], m["by_verdict"]["unverifiable"]["accepted"])
    assert 1 == m["by_tag"]["negation_flip"]["false_alarm"]
    assert (1, 1) == (m["by_tag"]["off_topic"]["genuine"], m["by_tag"]["off_topic"]["false_alarm"])
    assert 1 == m["misses"]


def test_wilson_interval_matches_the_textbook_value():
    """Wilson (1927) 95% interval for 8 of 10: [0.490, 0.943] (Newcombe 1998, table I, method 3)."""
    assert (0.4902, 0.9433) == wilson(8, 10)
    assert wilson(0, 0) is None


def test_cli_prints_tables_and_writes_pairs(tmp_path):
    out = _sidecars(tmp_path)
    pairs_file = tmp_path / "pairs.jsonl"
    r = runner.invoke(app, ["eval", "feedback", str(out), "--pairs", str(pairs_file)])
    assert 0 == r.exit_code, r.output
    assert "6 decisions in 2 review files; 5 labelled pairs (4 joined to a JSON report, 1 from the review file alone), 1 unmatched" in r.output
    assert "| all flags | 4 | 1 | 2 | 1 | 0.33 [" in r.output
    rows = [json.loads(x) for x in pairs_file.read_text().splitlines()]
    assert 5 == len(rows) and {"claim", "passage", "label", "verdict", "tier", "tags"} <= set(rows[0])
    j = runner.invoke(app, ["eval", "feedback", str(out), "--json"])
    assert 0.3333 == json.loads(j.output)["metrics"]["flags"]["precision"]


def test_folder_without_sidecars_is_exit_2(tmp_path):
    r = runner.invoke(app, ["eval", "feedback", str(tmp_path)])
    assert 2 == r.exit_code and "no *.citeproof.review.json file" in r.output


def test_bad_sidecar_names_the_file(tmp_path):
    (tmp_path / "x.citeproof.review.json").write_text(json.dumps({"decisions": {"ab": {"decision": "maybe"}}}))
    r = runner.invoke(app, ["eval", "feedback", str(tmp_path)])
    assert 2 == r.exit_code and "x.citeproof.review.json" in r.output and "decisions.ab.decision" in r.output
