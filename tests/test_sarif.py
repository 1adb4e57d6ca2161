"""SARIF 2.1.0 output (issue 6): valid against the OASIS schema, one result per finding, gates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citeproof.reports import WRITERS
from citeproof.reports.sarif import LEVELS, SarifWriter, report_to_sarif
from report_samples import DEMO_BIB, DEMO_DOC, ROOT, shared_cache, small_report

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text("utf-8"))


def _validate(log: dict) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert [] == [f"{list(e.path)}: {e.message}" for e in errors]


def _run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "citeproof.cli", "check", str(DEMO_DOC.relative_to(ROOT)), "--bib", str(DEMO_BIB.relative_to(ROOT)),
         "--out", str(tmp_path / "out"), "--cache-dir", str(shared_cache()), "-q", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )


def test_schema_is_the_oasis_one():
    """The committed schema is SARIF 2.1.0's (draft-04, OASIS id)."""
    assert SCHEMA["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    assert "2.1.0" == SCHEMA["properties"]["version"]["enum"][0]


def test_schema_catches_a_broken_log():
    """The validator really checks: a result without a message is refused."""
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "error"}]}]}
    validator = jsonschema.Draft4Validator(SCHEMA)
    assert list(validator.iter_errors(bad))


class TestSmallReport:
    @pytest.fixture()
    def log(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        return report_to_sarif(small_report(tmp_path))

    def test_valid(self, log):
        """The log validates against the official SARIF 2.1.0 schema."""
        _validate(log)

    def test_one_result_per_finding_with_levels(self, log):
        """One result per finding, in order; level and rule from the verdict (unknown citekey first)."""
        results = log["runs"][0]["results"]
        assert ["citeproof/unknown-citekey", "citeproof/contradicted", "citeproof/unverifiable", "citeproof/supported"] == [r["ruleId"] for r in results]
        assert ["error", "error", "note", "none"] == [r["level"] for r in results]
        assert ["fail", "fail", "fail", "pass"] == [r["kind"] for r in results]
        rules = log["runs"][0]["tool"]["driver"]["rules"]
        assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)

    def test_location_is_citing_file_and_line(self, log):
        """Each result sits at the citing file (relative, %SRCROOT%) and the citation's line and column."""
        loc = log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]
        assert {"uri": "draft.md", "uriBaseId": "%SRCROOT%"} == loc["artifactLocation"]
        assert {"startLine": 3, "startColumn": 12} == loc["region"]

    def test_evidence_page_and_message(self, log):
        """The best passage is a related location with its page; the message names key, verdict, reason."""
        r = log["runs"][0]["results"][1]
        assert "cited/a%20b.pdf" == r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert "page 7" in r["relatedLocations"][0]["message"]["text"]
        assert 7 == r["properties"]["page"]
        assert r["message"]["text"].startswith("[smith] contradicted")
        assert "the numbers differ" in r["message"]["text"]

    def test_paths_outside_root_become_file_uris(self, tmp_path):
        """A document outside the root gets an absolute file:// URI (still valid)."""
        log = report_to_sarif(small_report(tmp_path), root=tmp_path / "elsewhere")
        uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("file:///")
        _validate(log)


def test_levels_cover_every_verdict():
    """Every verdict (and unknown citekeys) has a SARIF level."""
    from citeproof.model import Verdict

    assert {v.value for v in Verdict} | {"unknown-citekey"} == set(LEVELS)
    assert WRITERS["sarif"] is SarifWriter


def test_demo_sarif_validates_and_fail_on(tmp_path):
    """On the demo: SARIF validates, holds every finding; --fail-on sets the exit code."""
    r = _run_cli(tmp_path, "--format", "sarif,json", "--fail-on", "unsupported,contradicted")
    assert 1 == r.returncode, r.stderr  # the demo has unsupported findings
    log = json.loads((tmp_path / "out" / "meta-review.citeproof.sarif").read_text())
    data = json.loads((tmp_path / "out" / "meta-review.citeproof.json").read_text())
    _validate(log)
    results = log["runs"][0]["results"]
    assert len(data["findings"]) == len(results)
    assert {"uri": "examples/manubot/citing/meta-review.md", "uriBaseId": "%SRCROOT%"} == results[0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert [f["line"] for f in data["findings"]] == [x["locations"][0]["physicalLocation"]["region"]["startLine"] for x in results]
    r = _run_cli(tmp_path, "--format", "sarif", "--fail-on", "contradicted")
    assert 0 == r.returncode, r.stderr


def test_a_unit_with_no_claim_fails_no_gate_and_is_no_sarif_error(tmp_path):
    """A table row of names and identifiers (not_a_claim) stays in the report but fails neither --fail-on nor code scanning
    (new-user trial: it counted as '1 unsupported' and exit 1); an unknown citekey in such a row still fails."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    src = tmp_path / "src"
    src.mkdir()
    (src / "scihub.txt").write_text("Sci-Hub provides access to nearly all scholarly literature.\n\nIt holds 85 million articles.\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{scihub, title={Sci-Hub}, year={2018}}\n")
    doc = tmp_path / "draft.md"
    doc.write_text("# Tools\n\n| Tool | Identifier |\n|---|---|\n| Kubernetes Helm Chart | doi:10/xyz [@scihub] |\n")
    args = ["check", str(doc), "--bib", str(bib), "--sources", str(src), "--tier", "lexical", "--no-cache", "--out", str(tmp_path / "out"),
            "--format", "json,sarif", "--fail-on", "unsupported,contradicted,unverifiable,partial,unknown"]
    r = CliRunner().invoke(app, args)
    data = json.loads((tmp_path / "out" / "draft.citeproof.json").read_text())
    (f,) = data["findings"]
    assert "not_a_claim" in f["flags"] and f["verdict"] != "supported"
    assert 0 == r.exit_code, r.output
    (res,) = json.loads((tmp_path / "out" / "draft.citeproof.sarif").read_text())["runs"][0]["results"]
    assert ("notApplicable", "none") == (res["kind"], res["level"])
    doc.write_text("# Tools\n\n| Tool | Identifier |\n|---|---|\n| Kubernetes Helm Chart | doi:10/xyz [@nokey] |\n")
    r = CliRunner().invoke(app, args)
    assert 1 == r.exit_code and "unknown citekey" in r.output
    (res,) = json.loads((tmp_path / "out" / "draft.citeproof.sarif").read_text())["runs"][0]["results"]
    assert ("fail", "error") == (res["kind"], res["level"])


def test_tag_evidence_leaves_out_an_empty_side():
    """off_topic's evidence has no claim span: the reports said [claim “” vs source “...”] (new-user trial)."""
    from citeproof.model import TagEvidence

    assert "source \u201cAuthor order\u201d" == TagEvidence("", "Author order").describe()
    assert "claim \u201c75%\u201d vs source \u201c68.9%\u201d" == TagEvidence("75%", "68.9%").describe()
    assert "claim \u201cmortality\u201d" == TagEvidence("mortality", "").describe()
    assert "" == TagEvidence().describe()
