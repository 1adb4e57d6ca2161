"""JSON attribution inputs: nodes with attributions and LLM answers with cite tags (issue 14, part 3)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.errors import InputError
from citeproof.model import UnitKind
from citeproof.readers.attributions import read_attributions

runner = CliRunner()
SCHEMA = json.loads((Path(__file__).parents[1] / "src" / "citeproof" / "schemas" / "attributions.schema.json").read_text())

FUND = ("Index funds charge lower fees than actively managed funds. After 2010 the average expense ratio of US equity "
        "index funds fell from 0.27 percent to 0.05 percent. Active funds' ratios fell less.")


def _nodes(tmp_path: Path) -> Path:
    (tmp_path / "report.md").write_text("# Annual report\n\nRevenue grew by 12 percent in 2023, driven by exports.\n")
    doc = {"nodes": [
        {"id": "h1", "type": "heading", "text": "Costs of investing", "attributions": []},
        {"id": "p1", "type": "paragraph", "text": "Expense ratios of index funds fell to 0.05 percent after 2010.",
         "attributions": [{"source_id": "fund", "section_id": "2"}]},
        {"id": "p2", "type": "paragraph", "text": "Revenue grew by 40 percent in 2023.", "attributions": [{"source_id": "annual", "span": {"start": 17, "end": 70}}]},
        {"id": "c1", "type": "table_cell", "text": "Exports drove the growth of revenue.", "attributions": [{"source_id": "annual"}]},
    ], "sources": [{"id": "fund", "text": FUND, "title": "Fees"}, {"id": "annual", "path": "report.md"}]}
    p = tmp_path / "gen.json"
    p.write_text(json.dumps(doc))
    return p


def test_nodes_become_claims_with_locators(tmp_path):
    path = _nodes(tmp_path)
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)
    doc = read_attributions(path)
    assert [("fund", 2, UnitKind.SENTENCE), ("annual", 3, UnitKind.SENTENCE), ("annual", 4, UnitKind.TABLE_ROW)] == [
        (c.citations[0].citekey, c.line, c.kind) for c in doc.claims]
    assert ("section", "2") == (doc.claims[0].citations[0].locator.label, doc.claims[0].citations[0].locator.value)
    assert "17-70" == doc.claims[1].citations[0].locator.value
    assert FUND == doc.references["fund"].text and ("report.md",) == doc.references["annual"].files


def test_check_judges_each_node_with_inline_and_file_sources(tmp_path):
    path = _nodes(tmp_path)
    r = runner.invoke(app, ["check", str(path), "--out", str(tmp_path / "out"), "--format", "json", "--tier", "lexical", "--quiet", "--no-cache"])
    assert 0 == r.exit_code, r.output
    rep = json.loads((tmp_path / "out" / "gen.citeproof.json").read_text())
    by_line = {f["line"]: f for f in rep["findings"]}
    assert "supported" == by_line[2]["verdict"] and "inline text" in rep["works"][by_line[2]["work"]]["provenance"]["origin"]
    assert "0.05 percent" in by_line[2]["evidence"]["text"]
    assert by_line[3]["source"].endswith("report.md")
    # 40 vs 12 percent in the restating sentence: a proven number_drift makes the citation unsupported (issue 28)
    assert ("unsupported", ["number_drift"]) == (by_line[3]["verdict"], [t["name"] for t in by_line[3]["tags"]])
    assert by_line[3]["tags"][0]["proven"]
    conf = [f["confidence"] for f in rep["findings"]]
    assert round(sum(conf) / len(conf), 4) == rep["summary"]["overall_confidence"]
    assert "text" not in rep["works"][by_line[2]["work"]]["reference"]


def test_llm_answer_with_cite_tags(tmp_path):
    doc = {"answer": "Index fund expense ratios fell to 0.05 percent after 2010 [1]. Active funds fell less【1†source】. "
                     "Bonds are safe [2, 9]. Email me@example.org [note].",
           "sources": [{"id": "1", "text": FUND}, {"id": 2, "text": "Bond prices fall when interest rates rise."}]}
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    jsonschema.validate(doc, SCHEMA)
    claims = read_attributions(path).claims
    assert [("Index fund expense ratios fell to 0.05 percent after 2010.", ["1"]), ("Active funds fell less.", ["1"])] == [
        (c.text, [x.citekey for x in c.citations]) for c in claims]


@pytest.mark.parametrize("doc, where", [
    ({"nodes": [], "sources": "x"}, "sources"),
    ({"nodes": [{"text": "a", "attributions": [{"source_id": "s"}]}], "sources": [{"id": "t", "text": "b"}]}, "nodes[0].attributions[0].source_id"),
    ({"nodes": [{"text": "a"}, {"text": "b", "attributions": 5}], "sources": []}, "nodes[1].attributions"),
    ({"nodes": [], "sources": [{"id": "s"}]}, "sources[0]"),
    ({"sources": []}, "(top level)"),
])
def test_bad_documents_name_the_first_offending_path(tmp_path, doc, where):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"bad\.json: " + __import__("re").escape(where)):
        read_attributions(path)
    assert 2 == runner.invoke(app, ["check", str(path), "--tier", "lexical", "--no-cache"]).exit_code
