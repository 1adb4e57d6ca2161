"""LaTeX and pandoc details (issue 26, part 4).

The LaTeX inputs are written as papers write them: amsthm theorem and proof environments whose optional argument
names the source (``\\begin{theorem}[Theorem 3.6 in \\cite{k}]``), biblatex's less common citation commands as its
manual gives their arguments, and a verbose (footnote) style paper with ``\\footcite`` after the full stop. The pandoc
cases are checked against pandoc itself (pypandoc-binary, the test extra), the oracle for what is a citation.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from citeproof.judges.policy import mark_naming
from citeproof.model import CitationMode, Finding, Verdict
from citeproof.readers.latex import read_latex
from citeproof.readers.markdown import MarkdownReader

PREAMBLE = "\\documentclass{article}\n\\usepackage{amsthm}\n\\usepackage[style=verbose]{biblatex}\n\\newtheorem{theorem}{Theorem}\n\\begin{document}\n"


def _tex(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "paper.tex"
    p.write_text(PREAMBLE + body + "\n\\end{document}\n", encoding="utf-8")
    return p


def test_citations_in_optional_arguments_of_theorem_and_proof(tmp_path):
    doc = read_latex(_tex(tmp_path, "\\begin{theorem}[Theorem 3.6 in \\cite{kato1966}]\n"
                                    "Every bounded monotone sequence of self-adjoint operators converges strongly.\n\\end{theorem}\n"
                                    "\\begin{proof}[Proof, following {\\cite[p.~12]{reed1980}}]\nApply the spectral theorem.\n\\end{proof}\n"
                                    "\\begin{figure}[htbp]\nA figure without citations.\n\\end{figure}\n"))
    got = [(c.line, [x.citekey for x in c.citations], c.text) for c in doc.claims]
    assert got[0][:2] == (6, ["kato1966"])
    assert "Every bounded monotone sequence of self-adjoint operators converges strongly." in got[0][2]
    assert got[1][:2] == (9, ["reed1980"]) and "Apply the spectral theorem." in got[1][2]
    assert doc.claims[1].citations[0].locator.raw == "p. 12"
    assert len(doc.claims) == 2


@pytest.mark.parametrize(("command", "mode", "locator"), [
    ("\\citetitle{k}", CitationMode.NARRATIVE, None),
    ("\\citetitle*{k}", CitationMode.NARRATIVE, None),
    ("\\Citetitle{k}", CitationMode.NARRATIVE, None),
    ("\\citedate{k}", CitationMode.SUPPRESS_AUTHOR, None),
    ("\\citeurl{k}", CitationMode.PARENTHETICAL, None),
    ("\\footfullcite[p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\volcite{2}[45]{k}", CitationMode.PARENTHETICAL, "45"),
    ("\\pvolcite[see]{2}[45--47]{k}", CitationMode.PARENTHETICAL, "45–47"),
    ("\\Pvolcite{2}{k}", CitationMode.PARENTHETICAL, "vol. 2"),
    ("\\fvolcite{3}[12]{k}", CitationMode.PARENTHETICAL, "12"),
    ("\\ftvolcite{3}[12]{k}", CitationMode.PARENTHETICAL, "12"),
    ("\\svolcite{3}[12]{k}", CitationMode.PARENTHETICAL, "12"),
    ("\\tvolcite{3}[12]{k}", CitationMode.NARRATIVE, "12"),
    ("\\avolcite{3}[12]{k}", CitationMode.PARENTHETICAL, "12"),
    ("\\notecite[see][p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\Notecite[p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\pnotecite[p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\fnotecite[p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\citepalias{k}", CitationMode.PARENTHETICAL, None),
    ("\\citetalias{k}", CitationMode.NARRATIVE, None),
    ("\\citeA{k}", CitationMode.NARRATIVE, None),  # apacite
    ("\\citeNP[p.~4]{k}", CitationMode.PARENTHETICAL, "p. 4"),
    ("\\shortcite{k}", CitationMode.PARENTHETICAL, None),
    ("\\citeasnoun{k}", CitationMode.NARRATIVE, None),  # harvard
])
def test_biblatex_and_natbib_commands_that_were_skipped(tmp_path, command, mode, locator):
    doc = read_latex(_tex(tmp_path, f"Falls in care homes doubled between 2010 and 2020 {command}.\n"))
    assert [[(c.citekey, c.mode) for c in cl.citations] for cl in doc.claims] == [[("k", mode)]]
    loc = doc.claims[0].citations[0].locator
    assert (loc.raw if loc else None) == locator
    assert not [d for d in doc.diagnostics if d.code == "tex-unknown-cite"]


def test_an_unknown_command_that_takes_a_key_is_a_diagnostic(tmp_path):
    doc = read_latex(_tex(tmp_path, "Falls doubled \\mycite{lee2018}.\nAs \\textcquote[p.~4]{smith2020}{falls are common} says.\n"
                                    "\\citestyle{authoryear}\n"))
    unknown = [d for d in doc.diagnostics if d.code == "tex-unknown-cite"]
    assert [(d.line, d.message.split(" looks like")[0].split(": ", 1)[1]) for d in unknown] == [
        (6, "\\mycite{lee2018}"), (7, "\\textcquote{smith2020}")]
    assert all("is not checked" in d.message and "\\cite" in d.message for d in unknown)


def test_volcites_reads_each_volume_and_its_pages(tmp_path):
    """biblatex's \\volcites(multipre)(multipost)[pre]{volume}[pages]{key}... (manual 3.9.9) was a tex-unknown-cite."""
    doc = read_latex(_tex(tmp_path, "Reason has limits \\volcites(see)(and passim){1}[3]{kant1787}[cf.]{2}[5]{hume1739}.\n"))
    (claim,) = doc.claims
    got = [(c.citekey, c.locator.raw if c.locator else None) for c in claim.citations]
    assert got == [("kant1787", "3"), ("hume1739", "5")]  # the pages are the locator, as for \\volcite
    assert not [d for d in doc.diagnostics if d.code == "tex-unknown-cite"]


def test_footcite_after_the_full_stop_belongs_to_the_sentence_before(tmp_path):
    doc = read_latex(_tex(tmp_path, "Patients were treated with aspirin.\\footcite[p.~7]{smith2020} Bleeding was rare in the control arm.\n"
                                    "Falls were common.\\cite{lee2018} Fractures were rarer.\n"
                                    "Others disagree. \\cite{okafor2021} reported the opposite.\n"))
    got = [(c.text, [x.citekey for x in c.citations]) for c in doc.claims]
    assert got[0] == ("Patients were treated with aspirin.", ["smith2020"])
    assert got[1] == ("Falls were common.", ["lee2018"])
    assert got[2][1] == ["okafor2021"] and "reported the opposite" in got[2][0]  # a \cite opening a sentence stays in it
    assert len(got) == 3


# --- pandoc -----------------------------------------------------------------------------------------------------

def _pandoc_cites(path: Path) -> list[tuple[str, str]]:
    pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (the pandoc oracle) is not installed")
    doc = json.loads(pypandoc.convert_file(str(path), "json", format="markdown"))
    out: list[tuple[str, str]] = []

    def walk(x):
        if isinstance(x, dict):
            if x.get("t") == "Cite":
                out.extend((c["citationId"], c["citationMode"]["t"]) for c in x["c"][0])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(doc["blocks"])
    return out


_PANDOC_MODE = {"AuthorInText": CitationMode.NARRATIVE, "SuppressAuthor": CitationMode.SUPPRESS_AUTHOR, "NormalCitation": CitationMode.PARENTHETICAL}


def test_example_list_labels_and_bare_suppress_author_read_as_pandoc_reads_them(tmp_path):
    md = tmp_path / "draft.md"
    md.write_text("(@good) Vitamin D reduces falls in women over 70.\n(@bad) Vitamin D cures osteoporosis.\n\n"
                  "As (@good) shows, a claim can be narrow [@smith2020]. Example @bad overreaches.\n\n"
                  "Smith -@smith2020 found fewer fractures. Lee found more falls [-@lee2018, p. 4].\n", encoding="utf-8")
    ours = [(c.citekey, c.mode) for cl in MarkdownReader().read(md) for c in cl.citations]
    theirs = [(k, _PANDOC_MODE[m]) for k, m in _pandoc_cites(md)]
    assert Counter(ours) == Counter(theirs)
    assert Counter(ours) == Counter([("smith2020", CitationMode.PARENTHETICAL), ("smith2020", CitationMode.SUPPRESS_AUTHOR),
                                     ("lee2018", CitationMode.SUPPRESS_AUTHOR)])
    claims = MarkdownReader().read(md)
    assert any(c.text == "Smith found fewer fractures." for c in claims)


def _row_finding(tmp_path: Path, row: str) -> Finding:
    md = tmp_path / "table.md"
    md.write_text(f"| Driver | Finding |{' x |' * (row.count('|') - 3)}\n|---|---|{'---|' * (row.count('|') - 3)}\n{row}\n", encoding="utf-8")
    (claim,) = MarkdownReader().read(md)
    f = Finding(claim=claim, citation=claim.citations[0], verdict=Verdict.SUPPORTED, confidence=0.9)
    mark_naming(f, claim, claim.citations[0])
    return f


@pytest.mark.parametrize(("row", "passed_over"), [
    ("| Bleaching | 30% of coral loss [@hughes2017] |", False),
    ("| Ocean warming | 1.5-fold rise in bleaching events [@hughes2018] |", False),
    ("| Storms | reduced cover by 12 points [@death2012] |", False),
    ("| Hughes et al. | 2017 [@hughes2017] |", True),
    ("| Coral Trait Database | doi:10.1038/sdata.2016.17 [@madin2016] |", True),
    ("| shortDOI | DOI Proxy Server API | `doi:10/gddkhn` [@doi:10/gddkhn] |", True),  # the demo's identifier table
    ("| ISBN | Zotero translation-server | `isbn:9780262517638` [@isbn:9780262517638] |", True),
])
def test_a_table_row_stating_a_finding_with_a_number_is_a_claim(tmp_path, row, passed_over):
    f = _row_finding(tmp_path, row)
    assert ("not_a_claim" in f.flags) is passed_over
