"""Where users run it (issue 18, section 6): config files, several documents, --out -, logging, python -m,
cache prune, the JSON Schema, the pre-commit hooks and the GitHub Action."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.config import Config, find_config, load_config
from citeproof.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _project(tmp_path: Path, config: str | None = None, name: str = ".citeproof.toml") -> Path:
    """A small project: a source, a .bib naming it, two drafts (one with an unknown key), optionally a config."""
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "refs").mkdir()
    (tmp_path / "pdfs" / "k.md").write_text("# Results\n\nThe treatment reduced mortality by 12 percent in adults over sixty.\n")
    (tmp_path / "refs" / "refs.bib").write_text("@article{k, title={Mortality in adults}, author={Doe, Jane}, year={2020}}\n")
    (tmp_path / "good.md").write_text("The treatment reduced mortality by 12 percent [@k].\n")
    (tmp_path / "bad.md").write_text("A claim with an unknown key [@nobody].\n")
    if config is not None:
        (tmp_path / name).write_text(config)
    return tmp_path


CONFIG = """
bibliography = "refs/refs.bib"
sources = ["pdfs"]
tiers = ["lexical"]
fail-on = "unsupported,contradicted"
format = "json"
online = true
email = "me@example.org"
future-feature = {x = 1}

[llm]
endpoint = "http://127.0.0.1:9/v1"
model = "local"
"""


class TestLoadConfig:
    def test_citeproof_toml_paths_resolve_against_its_folder(self, tmp_path):
        _project(tmp_path, CONFIG)
        cfg = load_config(tmp_path / ".citeproof.toml")
        assert [tmp_path / "refs" / "refs.bib"] == cfg.bibliographies
        assert [tmp_path / "pdfs"] == cfg.sources
        assert (["lexical"], "unsupported,contradicted", "json") == (cfg.tiers, cfg.fail_on, cfg.format)
        assert cfg.online is True and "http://127.0.0.1:9/v1" == cfg.llm["endpoint"]
        assert {"x": 1} == cfg.extra["future-feature"] and "me@example.org" == cfg.extra["email"]

    def test_pyproject_tool_table(self, tmp_path):
        (tmp_path / "pyproject.toml").write_text('[project]\nname = "paper"\n\n[tool.citeproof]\nbibliography = ["a.bib", "b.json"]\nfail_on = ["unknown"]\n')
        sub = tmp_path / "chapters"
        sub.mkdir()
        found = find_config(sub / "ch1.md")
        assert tmp_path / "pyproject.toml" == found
        cfg = load_config(found)
        assert ([tmp_path / "a.bib", tmp_path / "b.json"], "unknown") == (cfg.bibliographies, cfg.fail_on)

    def test_pyproject_without_the_table_is_not_a_config(self, tmp_path):
        (tmp_path / ".git").mkdir()
        (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
        assert find_config(tmp_path / "d.md") is None

    def test_citeproof_toml_wins_over_pyproject_and_walk_stops_at_git(self, tmp_path):
        (tmp_path / "pyproject.toml").write_text("[tool.citeproof]\nformat = 'md'\n")
        repo = tmp_path / "repo"
        (repo / ".git").mkdir(parents=True)
        assert find_config(repo / "d.md") is None  # the config above the repository is not this project's
        (repo / ".citeproof.toml").write_text("format = 'json'\n")
        (repo / "pyproject.toml").write_text("[tool.citeproof]\nformat = 'html'\n")
        assert repo / ".citeproof.toml" == find_config(repo / "d.md")

    @pytest.mark.parametrize(
        "text, message",
        [
            ("bibliography = 5\n", "'bibliography' must be a string or a list of strings"),
            ("online = 'yes'\n", "'online' must be true or false"),
            ("llm = 'http://x'\n", "'llm' must be a table"),
            ("format = [\n", "not valid TOML"),
        ],
    )
    def test_bad_config_is_an_input_error_naming_the_file(self, tmp_path, text, message):
        p = tmp_path / ".citeproof.toml"
        p.write_text(text)
        with pytest.raises(InputError, match=re.escape(message)) as err:
            load_config(p)
        assert str(p) in str(err.value)

    def test_bad_config_exits_2_in_check(self, tmp_path):
        _project(tmp_path, "bibliography = 5\n")
        r = runner.invoke(app, ["check", str(tmp_path / "good.md"), "--no-cache"])
        assert 2 == r.exit_code and ".citeproof.toml" in r.output


class TestCheckWithConfig:
    def test_settings_come_from_the_config(self, tmp_path):
        _project(tmp_path, CONFIG)
        r = runner.invoke(app, ["check", str(tmp_path / "good.md"), "--no-cache", "-q"])
        assert 0 == r.exit_code, r.output
        report = json.loads((tmp_path / "good.citeproof.json").read_text())
        assert not (tmp_path / "good.citeproof.md").exists()  # format = "json"
        f = report["findings"][0]
        assert ("supported", str(tmp_path / "pdfs" / "k.md")) == (f["verdict"], f["source"])
        assert ["lexical"] == report["metadata"]["tiers"]

    def test_command_line_wins_and_fail_on_from_config(self, tmp_path):
        _project(tmp_path, CONFIG + "\n", name=".citeproof.toml")
        (tmp_path / ".citeproof.toml").write_text(CONFIG.replace('fail-on = "unsupported,contradicted"', 'fail-on = "unknown"'))
        r = runner.invoke(app, ["check", str(tmp_path / "bad.md"), "--no-cache", "-q"])
        assert 1 == r.exit_code  # unknown citekey, failing by the config's fail-on
        r = runner.invoke(app, ["check", str(tmp_path / "bad.md"), "--no-cache", "-q", "--fail-on", ""])
        assert 0 == r.exit_code

    def test_unbuilt_settings_are_passed_through_to_check_options(self, tmp_path, monkeypatch):
        from citeproof import pipeline

        _project(tmp_path, CONFIG)
        seen = {}
        real = pipeline.check

        def spy(document, bibs, options):
            seen["settings"] = dict(options.settings)
            for name in ("online", "email"):
                if hasattr(options, name):
                    seen[name] = getattr(options, name)
            return real(document, bibs, options)

        monkeypatch.setattr(pipeline, "check", spy)
        r = runner.invoke(app, ["check", str(tmp_path / "good.md"), "--no-cache", "-q"])
        assert 0 == r.exit_code, r.output
        carried = {**seen["settings"], **{k: v for k, v in seen.items() if k != "settings"}}
        assert {"endpoint": "http://127.0.0.1:9/v1", "model": "local"} == carried["llm"]
        assert (True, "me@example.org", {"x": 1}) == (carried["online"], carried["email"], carried["future-feature"])


class TestSeveralDocuments:
    def test_gate_takes_several_files_and_exits_with_the_worst(self, tmp_path):
        _project(tmp_path, 'bibliography = "refs/refs.bib"\n')
        r = runner.invoke(app, ["gate", str(tmp_path / "good.md"), str(tmp_path / "bad.md")])
        assert 1 == r.exit_code
        assert f"{tmp_path / 'bad.md'}:1: unknown citekey 'nobody'" in r.output
        assert f"{tmp_path / 'good.md'}: 1 citation, every citekey is in the bibliography" in r.output
        assert 0 == runner.invoke(app, ["gate", str(tmp_path / "good.md"), str(tmp_path / "good.md")]).exit_code

    def test_gate_missing_file_among_several_is_exit_2(self, tmp_path):
        _project(tmp_path, 'bibliography = "refs/refs.bib"\n')
        r = runner.invoke(app, ["gate", str(tmp_path / "good.md"), str(tmp_path / "gone.md")])
        assert 2 == r.exit_code and "gone.md: no such file" in r.output

    def test_check_writes_a_report_per_document(self, tmp_path):
        _project(tmp_path, CONFIG)
        out = tmp_path / "out"
        r = runner.invoke(app, ["check", str(tmp_path / "good.md"), str(tmp_path / "bad.md"), "--no-cache", "-q", "--out", str(out), "--fail-on", "unknown"])
        assert 1 == r.exit_code
        assert {"good.citeproof.json", "bad.citeproof.json"} == {p.name for p in out.iterdir()}


def _schema() -> dict:
    from citeproof.reports.json import REPORT_SCHEMA_PATH

    return json.loads(REPORT_SCHEMA_PATH.read_text())


def _validate(report: dict) -> None:
    import jsonschema

    jsonschema.Draft202012Validator(_schema(), format_checker=jsonschema.FormatChecker()).validate(report)


class TestJsonOut:
    def test_out_dash_writes_json_alone_to_stdout(self, tmp_path):
        _project(tmp_path)
        r = subprocess.run(
            [sys.executable, "-m", "citeproof", "check", "good.md", "bad.md", "--bib", "refs/refs.bib", "--sources", "pdfs", "--tier", "lexical", "--no-cache", "--out", "-"],
            cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300,
        )
        assert 0 == r.returncode, r.stderr
        lines = r.stdout.splitlines()
        assert 2 == len(lines)  # one JSON report per line, nothing else on stdout
        reports = [json.loads(x) for x in lines]
        assert ["good.md", "bad.md"] == [x["document"] for x in reports]
        assert "supported" == reports[0]["findings"][0]["verdict"]
        assert "citeproof: good.md" in r.stderr  # the summary went to stderr
        for rep in reports:
            _validate(rep)
        assert not list(tmp_path.glob("*.citeproof.*"))


class TestSchema:
    def test_schema_is_a_valid_draft_2020_12_schema_and_enums_match_the_model(self):
        import jsonschema

        from citeproof.model import CitationMode, Tier, UnitKind, Verdict
        from citeproof.reports.json import REPORT_SCHEMA_ID

        schema = _schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        assert REPORT_SCHEMA_ID == schema["$id"] == schema["properties"]["$schema"]["const"]
        defs = schema["$defs"]
        assert [v.value for v in Verdict] == defs["verdict"]["enum"]
        assert [t.value for t in Tier] == defs["tier"]["enum"]
        assert [u.value for u in UnitKind] == defs["unit"]["enum"]
        assert [m.value for m in CitationMode] == defs["mode"]["enum"]

    def test_every_report_of_the_demo_sample_validates(self, sample_report):
        from citeproof.reports.json import REPORT_SCHEMA_ID, report_to_dict

        d = report_to_dict(sample_report)
        assert REPORT_SCHEMA_ID == d["$schema"]
        _validate(d)

    def test_reports_with_errors_pdf_locations_and_diagnostics_validate(self, tmp_path, monkeypatch):
        from citeproof import pipeline
        from citeproof.reports.json import report_to_dict

        _project(tmp_path)
        (tmp_path / "mixed.md").write_text("The treatment reduced mortality by 12 percent [@k, p. 4; @nobody].\n\n- [@k]\n")
        rep = pipeline.check(tmp_path / "mixed.md", [tmp_path / "refs" / "refs.bib"], pipeline.CheckOptions(source_dirs=[tmp_path / "pdfs"], use_cache=False, tiers=["lexical"]))
        _validate(report_to_dict(rep))
        monkeypatch.setattr(pipeline.Tiers, "candidates", lambda *a, **k: 1 / 0)
        rep = pipeline.check(tmp_path / "mixed.md", [tmp_path / "refs" / "refs.bib"], pipeline.CheckOptions(source_dirs=[tmp_path / "pdfs"], use_cache=False, tiers=["lexical"]))
        d = report_to_dict(rep)
        assert "error" in {f["verdict"] for f in d["findings"]} and d["diagnostics"]
        _validate(d)

    def test_a_broken_report_does_not_validate(self, sample_report):
        import jsonschema

        from citeproof.reports.json import report_to_dict

        d = report_to_dict(sample_report)
        d["findings"][0]["verdict"] = "probably fine"
        with pytest.raises(jsonschema.ValidationError):
            _validate(d)


class TestCommandLine:
    def test_python_dash_m(self, tmp_path):
        r = subprocess.run([sys.executable, "-m", "citeproof", "--version"], capture_output=True, text=True, env=ENV, timeout=120)
        from citeproof import __version__

        assert (0, f"citeproof {__version__}") == (r.returncode, r.stdout.strip())

    def test_log_level_and_verbose(self, tmp_path):
        _project(tmp_path)
        (tmp_path / "cache").mkdir()
        (tmp_path / "cache" / "citeproof.sqlite").mkdir()  # the cache logs at info level that it runs without
        args = ["check", "good.md", "--bib", "refs/refs.bib", "--sources", "pdfs", "--tier", "lexical", "--cache-dir", "cache", "-q", "--format", "json"]
        quiet = subprocess.run([sys.executable, "-m", "citeproof", *args], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        loud = subprocess.run([sys.executable, "-m", "citeproof", "-v", *args], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        debug = subprocess.run([sys.executable, "-m", "citeproof", "--log-level", "debug", *args], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        assert (0, 0, 0) == (quiet.returncode, loud.returncode, debug.returncode)
        assert "INFO citeproof.sources.cache" not in quiet.stderr
        assert "INFO citeproof.sources.cache" in loud.stderr and "INFO citeproof.sources.cache" in debug.stderr
        bad = runner.invoke(app, ["--log-level", "chatty", "version"])
        assert 2 == bad.exit_code and "--log-level" in bad.output

    def test_cache_prune(self, tmp_path):
        import numpy as np

        from citeproof.retrieval.dense import DIM, VectorCache
        from citeproof.sources.cache import Cache

        c = Cache(tmp_path)
        c.put("a", "p", {"v": 1})
        c.put("b", "p", {"v": 2})
        VectorCache(tmp_path / "embeddings.sqlite").put("s", "m", [(0, "t", np.ones(DIM, dtype=np.float32))])
        (tmp_path / "citeproof.sqlite.broken").write_bytes(b"x" * 10)
        r = runner.invoke(app, ["cache", "prune", "--cache-dir", str(tmp_path), "--older-than", "30"])
        assert 0 == r.exit_code and "deleted 0 parsed sources, 0 passage vectors, 1 damaged file" in r.output
        assert {"v": 1} == Cache(tmp_path).get("a", "p")
        r = runner.invoke(app, ["cache", "prune", "--cache-dir", str(tmp_path)])
        assert 0 == r.exit_code and "deleted 2 parsed sources, 1 passage vector, 0 damaged files" in r.output
        assert Cache(tmp_path).get("a", "p") is None
        assert 2 == runner.invoke(app, ["cache", "prune", "--cache-dir", str(tmp_path / "none")]).exit_code


def _citeproof_command() -> list[str]:
    """The installed console script when it sits beside this Python, else ``python -m citeproof``."""
    script = Path(sys.executable).with_name("citeproof")
    return [str(script)] if script.exists() else [sys.executable, "-m", "citeproof"]


class TestPreCommitHooks:
    def _hooks(self) -> dict:
        hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
        return {h["id"]: h for h in hooks}

    def test_gate_by_default_check_manual(self):
        hooks = self._hooks()
        assert {"citeproof-gate", "citeproof-check"} == set(hooks)
        assert "stages" not in hooks["citeproof-gate"] and ["manual"] == hooks["citeproof-check"]["stages"]
        for h in hooks.values():
            assert {"id", "name", "entry", "language"} <= set(h) and "python" == h["language"]
            assert re.search(h["files"], "paper/draft.md") and re.search(h["files"], "paper/main.tex") and not re.search(h["files"], "src/x.py")

    def test_gate_hook_entry_runs_on_staged_files(self, tmp_path):
        _project(tmp_path, 'bibliography = "refs/refs.bib"\n')
        entry = self._hooks()["citeproof-gate"]["entry"].split()
        assert "citeproof" == entry[0]
        cmd = _citeproof_command() + entry[1:]
        ok = subprocess.run(cmd + ["good.md"], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=120)
        bad = subprocess.run(cmd + ["good.md", "bad.md"], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=120)
        assert (0, 1) == (ok.returncode, bad.returncode), ok.stderr + bad.stderr
        assert "bad.md:1: unknown citekey 'nobody'" in bad.stdout

    def test_check_hook_entry_runs(self, tmp_path):
        _project(tmp_path, CONFIG)
        entry = self._hooks()["citeproof-check"]["entry"].split()
        r = subprocess.run(_citeproof_command() + entry[1:] + ["good.md"], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        assert 0 == r.returncode, r.stderr
        assert (tmp_path / "good.citeproof.json").exists()


class TestGitHubAction:
    def _action(self) -> dict:
        return yaml.safe_load((ROOT / "action.yml").read_text())

    def test_action_parses_and_uploads_sarif(self):
        a = self._action()
        assert "composite" == a["runs"]["using"] and {"documents", "bib", "sources", "fail-on", "out", "upload-sarif"} <= set(a["inputs"])
        steps = a["runs"]["steps"]
        for s in steps:
            assert ("uses" in s) != ("run" in s)
            if "run" in s:
                assert "bash" == s["shell"]
                assert "${{" not in s["run"]  # inputs reach scripts through env, never pasted into the script
        upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
        assert "${{ inputs.out }}" == upload["with"]["sarif_file"] and upload["if"].startswith("always()")

    def test_action_check_step_runs(self, tmp_path):
        _project(tmp_path, 'tiers = ["lexical"]\n')
        step = next(s for s in self._action()["runs"]["steps"] if s.get("name") == "Check the citations")
        bindir = tmp_path / "bin"
        bindir.mkdir()
        (bindir / "citeproof").write_text("#!/bin/sh\nexec " + " ".join(f"'{c}'" for c in _citeproof_command()) + ' "$@"\n')
        (bindir / "citeproof").chmod(0o755)
        inputs = {"documents": "good.md bad.md", "bib": "refs/refs.bib", "sources": "pdfs", "fail-on": "unknown", "out": "citeproof-out"}
        env = {**ENV, "PATH": f"{bindir}:{os.environ['PATH']}", "CITEPROOF_CACHE_DIR": str(tmp_path / "cache")}
        for k, v in step["env"].items():
            m = re.search(r"inputs\.([\w-]+)", v)
            env[k] = inputs[m.group(1)] if m else env[k]  # CITEPROOF_CACHE_DIR: the runner's cached folder, here tmp_path/cache
        r = subprocess.run(["bash", "-c", step["run"]], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
        assert 1 == r.returncode, r.stderr  # bad.md's unknown citekey fails the step, as fail-on says
        sarif = sorted(p.name for p in (tmp_path / "citeproof-out").glob("*.sarif"))
        assert ["bad.citeproof.sarif", "good.citeproof.sarif"] == sarif
        log = json.loads((tmp_path / "citeproof-out" / "good.citeproof.sarif").read_text())
        assert "2.1.0" == log["version"]


def test_package_metadata_a_package_index_expects():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["authors"] and meta["license"] and meta["readme"] == "README.md"
    assert {"Homepage", "Source", "Issues"} <= set(meta["urls"])
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in meta["classifiers"])
    assert "citeproof.cli:main" == meta["scripts"]["citeproof"]
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"^pip install (\.|\"?citeproof)", readme, re.M)
