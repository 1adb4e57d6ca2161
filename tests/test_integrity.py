"""Merkle roots over passages and ``citeproof verify`` (issue 19, part 6)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.integrity import inclusion_proof, leaf_hash, merkle_root, verify_inclusion

runner = CliRunner()


def test_rfc6962_vectors():
    """The empty tree and the empty leaf hash to the values RFC 6962's reference implementation gives."""
    assert "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" == merkle_root([])
    assert "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d" == leaf_hash(b"").hex()


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 31])
def test_every_proof_verifies_and_no_other_leaf_does(n):
    leaves = [f"passage {i}".encode() for i in range(n)]
    root = merkle_root(leaves)
    for i in range(n):
        proof = inclusion_proof(leaves, i)
        assert verify_inclusion(leaves[i], i, n, proof, root)
        assert not verify_inclusion(leaves[i] + b"!", i, n, proof, root)
        if n > 1:
            assert not verify_inclusion(leaves[i], (i + 1) % n, n, proof, root)


def _run(tmp_path):
    src = tmp_path / "sources"
    src.mkdir()
    (src / "trial.md").write_text("# A trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n\n"
                                  "Adverse events were rare.\n")
    draft = tmp_path / "draft.md"
    draft.write_text("Vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n")
    r = runner.invoke(app, ["check", str(draft), "--sources", str(src), "--out", str(tmp_path / "out"), "--format", "json",
                            "--tier", "lexical", "--quiet", "--no-cache"])
    assert 0 == r.exit_code, r.output
    return tmp_path / "out" / "draft.citeproof.json", src / "trial.md"


def test_report_records_root_and_proof(tmp_path):
    report, _ = _run(tmp_path)
    data = json.loads(report.read_text())
    (f,) = data["findings"]
    prov = data["works"][f["work"]]["provenance"]
    assert 64 == len(prov["merkle_root"]) and prov["passages"] >= 2
    assert isinstance(f["evidence"]["leaf_index"], int) and f["evidence"]["proof"]


def test_verify_unchanged_edited_quote_and_changed_source(tmp_path):
    report, source = _run(tmp_path)
    ok = runner.invoke(app, ["verify", str(report)])
    assert 0 == ok.exit_code and "1 of 1 quote verified; 1 of 1 source as read" in ok.output
    data = json.loads(report.read_text())
    data["findings"][0]["evidence"]["text"] = data["findings"][0]["evidence"]["text"].replace("22 percent", "42 percent")
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    bad = runner.invoke(app, ["verify", str(edited)])
    assert 1 == bad.exit_code and "bad quote" in bad.output
    source.write_text(source.read_text().replace("rare", "common"))
    changed = runner.invoke(app, ["verify", str(report)])
    assert 1 == changed.exit_code and "changed" in changed.output and "trial.md" in changed.output
    source.unlink()
    assert "missing" in runner.invoke(app, ["verify", str(report)]).output
