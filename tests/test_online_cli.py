"""``--online`` on the command line; and no network connection without it, ever."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))

from online_world import web, write_inputs  # noqa: E402,F401 (web: the shared fixture)

from citeproof.cli import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "manubot"



def _forbid_network(monkeypatch) -> list:
    attempts: list[tuple] = []

    def refuse(*args, **kwargs):
        attempts.append(args[1:] or tuple(kwargs.items()))
        raise OSError("network forbidden in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


def test_check_without_online_opens_no_connection(tmp_path, monkeypatch):
    """The whole demo (125 citations, 5 local sources, every report format): any attempt to connect or resolve a name fails it."""
    attempts = _forbid_network(monkeypatch)
    res = CliRunner().invoke(app, ["check", str(DEMO / "citing" / "meta-review.md"), "--bib", str(DEMO / "meta-review.bib"), "--tier", "lexical",
                                   "--out", str(tmp_path), "--format", "md,json,html,sarif", "--cache-dir", str(tmp_path / "cache"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert attempts == []
    data = json.loads((tmp_path / "meta-review.citeproof.json").read_text())
    assert data["summary"]["citations"] == 125 and "online" not in data["metadata"]
    assert data["summary"]["sources_available"] == 7


@pytest.mark.slow
def test_every_tier_opens_no_connection(tmp_path, monkeypatch):
    """Dense and entailment tiers too (their models are local files): a draft citing one local source."""
    attempts = _forbid_network(monkeypatch)
    (tmp_path / "src.md").write_text("# Results\n\nFace masks reduced household transmission of influenza by 70 percent in 259 households.\n")
    (tmp_path / "d.md").write_text("Masks cut household influenza transmission by 70 percent [@src].\n")
    (tmp_path / "r.bib").write_text("@article{src, title={Masks}, author={Roe, A}, year={2020}, file={src.md}}\n")
    res = CliRunner().invoke(app, ["check", str(tmp_path / "d.md"), "--bib", str(tmp_path / "r.bib"), "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "c"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert attempts == []
    data = json.loads((tmp_path / "o" / "d.citeproof.json").read_text())
    assert data["findings"][0]["verdict"] != "unverifiable" and len(data["metadata"]["tiers"]) >= 2


def test_check_online_from_the_command_line(web, tmp_path, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)
    draft, bib = write_inputs(tmp_path)
    res = CliRunner().invoke(app, ["check", str(draft), "--bib", str(bib), "--online", "--email", "me@uni.edu", "--tier", "lexical",
                                   "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache"), "--quiet"])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "out" / "draft.citeproof.json").read_text())
    first = data["findings"][0]
    assert first["citekey"] == "wakefield" and first["tags"][0]["name"] == "retracted_source"
    assert data["metadata"]["online"]["works"]["masks"]["fulltext"] == "Europe PMC full text (JATS)"
    assert data["metadata"]["online"]["email_given"] is True
    md = (tmp_path / "out" / "draft.citeproof.md").read_text()
    head = md.split("## Retracted or corrected sources", 1)
    assert len(head) == 2 and "## Unverifiable" not in head[0]  # retractions open the Markdown report
    assert "- `wakefield`: **retracted_source**" in head[1] and "- `corrected`: **corrected_source**" in head[1]
    row = next(line for line in md.splitlines() if line.startswith("| 1 | `wakefield` | 5 |"))
    assert row.startswith("| 1 | `wakefield` | 5 | `retracted_source` ") and row.endswith(" not in the abstract; full text not available |")
    assert "`online-to-fetch`: 6 cited works still have no full text" in md


def test_audit_online_lists_existence_oa_retractions_and_what_to_fetch(web, tmp_path, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("COLUMNS", "250")
    draft, bib = write_inputs(tmp_path)
    res = CliRunner().invoke(app, ["audit", str(draft), "--bib", str(bib), "--online", "--email", "me@uni.edu", "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 1  # works without a readable full text remain
    out = res.output
    assert "cited works online" in out and "RETRACTED" in out and "NOT FOUND (possibly fabricated)" in out
    todo = [line.split(" | ") for line in out.splitlines() if line.startswith("to fetch: ")]
    assert {t[0][len("to fetch: "):] for t in todo} == {"wakefield", "maldacena", "titleonly", "fabricated", "wrongyear", "corrected"}
    assert ["to fetch: wakefield", "10.1016/s0140-6736(97)11096-0", "https://doi.org/10.1016/s0140-6736(97)11096-0", "closed", "abstract only"] in todo
    assert "3 of 9 cited works have a readable source" in out
