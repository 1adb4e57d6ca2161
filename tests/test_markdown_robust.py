"""Markdown the reader must not lose: pandoc (pypandoc-binary, the test extra) is the oracle.

Issue 18 section 4: an unclosed code fence, deep lists and block quotes,
hostile bracket runs, a paragraph of thousands of citations, a draft that is
not UTF-8. Issue 10 section 3: Quarto cross-references, front-matter
bibliographies. Speed is measured in ``bench/readers_scaling.py``, not here.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from citeproof.pipeline import CheckOptions, check
from citeproof.readers.markdown import MAX_NESTING, MarkdownReader
from citeproof.readers.pandoc_cite import bracket_pairs, scan_citations

from test_pandoc_cite import _pandoc_keys


def keys_of(path: Path) -> list[str]:
    return [c.citekey for cl in MarkdownReader().read(path) for c in cl.citations]


def write(tmp_path: Path, text: str, name: str = "draft.md") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


class TestNothingPandocFindsVanishes:
    def test_unclosed_code_fence(self, tmp_path):
        """CommonMark runs an unclosed fence to the end; pandoc reads it as text and finds every later citation."""
        p = write(tmp_path, "Intro [@a].\n\n```python\nx = 1  # cites @b\n\nLater text [@c].\n\n- item [@d]\n")
        assert Counter(_pandoc_keys(p)) == Counter(keys_of(p))
        assert {"a", "b", "c", "d"} == set(keys_of(p))
        doc = MarkdownReader().read_document(p)
        assert [("md-unclosed-fence", 3)] == [(d.code, d.line) for d in doc.diagnostics]

    def test_stray_carriage_returns_beside_an_unclosed_fence(self, tmp_path):
        """A lone CR is a line break to markdown-it; the fence repair counted lines by LF alone (IndexError, fuzz)."""
        from citeproof.readers.markdown import read_blocks

        text = "- $$\n  `x`\n  $$\n- ```\n  also x\r_ [@doe2020] y\n  ```\n- Text [@smith2020].\n"
        blocks, diags, _ = read_blocks(text)
        assert [k for b in blocks for k in ("doe2020", "smith2020") if f"@{k}" in b.text] == ["doe2020", "smith2020"]
        assert [d.code for d in diags] == ["md-unclosed-fence"]
        p = tmp_path / "cr.md"
        p.write_bytes(b"Intro.\r\rA claim [@a2020].\r\r```\rcode\r\nmore [@b2021].\r")
        assert set(keys_of(p)) == {"a2020", "b2021"} and set(_pandoc_keys(p)) <= set(keys_of(p))

    def test_closed_fence_still_hides_code(self, tmp_path):
        p = write(tmp_path, "Intro [@a].\n\n```\ncode [@b]\n```\n\nAfter [@c].\n")
        assert ["a", "c"] == keys_of(p) == sorted(_pandoc_keys(p))

    def test_list_nested_ten_deep(self, tmp_path):
        md = "".join("  " * i + f"- level {i} [@l{i}]\n" for i in range(12))
        p = write(tmp_path, md)
        assert Counter(_pandoc_keys(p)) == Counter(keys_of(p))
        assert "l11" in keys_of(p)

    def test_blockquote_twenty_deep(self, tmp_path):
        p = write(tmp_path, "> " * 22 + "quoted claim [@q].\n")
        assert ["q"] == _pandoc_keys(p) == keys_of(p)

    def test_deeper_than_the_reader_follows_is_read_as_text_with_a_warning(self, tmp_path):
        p = write(tmp_path, ">" * (MAX_NESTING + 50) + " very deep claim [@deep].\n")
        doc = MarkdownReader().read_document(p)
        assert [("very deep claim.", "deep")] == [(c.text, c.citations[0].citekey) for c in doc.claims]
        assert ["md-unplaced"] == [d.code for d in doc.diagnostics]

    def test_open_brackets_before_a_citation(self, tmp_path):
        """'[' * N before a citation (quadratic before: 50 KB took > 120 s): the citation is found."""
        p = write(tmp_path, "[" * 20_000 + " text [@a].\n")
        assert ["a"] == keys_of(p)

    def test_twenty_thousand_citations_in_a_paragraph(self):
        md = " ".join(f"Claim {n} holds [@k{n}]." for n in range(20_000)) + "\n"
        cl = MarkdownReader().read_string(md)
        assert 20_000 == len(cl)
        assert ("Claim 19999 holds.", "k19999", 1) == (cl[-1].text, cl[-1].citations[0].citekey, cl[-1].line)


def test_bracket_pairs_match_in_one_pass():
    """Nesting, escapes and blank lines as the scanner needs them."""
    assert {0: 9, 3: 5} == bracket_pairs("[a [b] c ]")
    assert {} == bracket_pairs("[ a \\] b")
    assert {} == bracket_pairs("[ a\n\n b ]")
    assert ["a", "b"] == [it.key for g in scan_citations("[see [x] @a] and [[@b]]") for it in g.items]


class TestQuarto:
    def test_crossrefs_are_not_citations(self):
        md = "See @fig-growth, @tbl-rates, @sec-methods, @eq-model, @lst-code and @thm-main; as @lee showed.\n"
        cl = MarkdownReader().read_string(md)
        assert [["lee"]] == [[c.citekey for c in x.citations] for x in cl]
        assert cl[0].text.startswith("See Figure, Table, Section, Equation, Listing and Theorem; as")  # a label is no prose

    def test_front_matter_bibliography_list_relative_to_the_document(self, tmp_path):
        (tmp_path / "refs").mkdir()
        (tmp_path / "refs" / "a.bib").write_text("@article{lee2018, title={Growth of things}, author={Lee, A.}, year={2018}}\n", encoding="utf-8")
        (tmp_path / "b.json").write_text(json.dumps([{"id": "kim", "title": "Kim's work", "type": "article"}]), encoding="utf-8")
        doc = write(tmp_path, "---\ntitle: x\nbibliography:\n  - refs/a.bib\n  - b.json\n---\n\nGrowth [@lee2018]. Work [@kim]. Lost [@nobody].\n", "draft.qmd")
        report = check(doc, [], CheckOptions(use_cache=False, tiers=("lexical",)))
        reasons = {f.citation.citekey: " ".join(f.reasons) for f in report.findings}
        assert [str(tmp_path / "refs" / "a.bib"), str(tmp_path / "b.json")] == report.metadata["bibliographies"]
        assert "not in the bibliography" not in reasons["lee2018"] and "not in the bibliography" not in reasons["kim"]
        assert "nobody" in reasons and reasons["nobody"] != reasons["kim"]

    def test_front_matter_single_file_and_inline_references(self, tmp_path):
        (tmp_path / "one.bib").write_text("@article{a1, title={First}, year={2001}}\n", encoding="utf-8")
        md = ("---\nbibliography: one.bib\nreferences:\n  - id: inl\n    type: article-journal\n    title: Inline entry\n"
              "    author:\n      - family: Doe\n        given: Jane\n    issued:\n      date-parts: [[2020]]\n---\n\nA [@a1]. B [@inl].\n")
        doc = MarkdownReader().read_document(write(tmp_path, md))
        bib = doc.bibliography()
        assert {"a1", "inl"} <= set(bib.entries)
        assert ("Inline entry", ("Doe, Jane",), "2020") == (bib.entries["inl"].title, bib.entries["inl"].authors, bib.entries["inl"].year)

    def test_front_matter_missing_file_is_a_diagnostic(self, tmp_path):
        doc = MarkdownReader().read_document(write(tmp_path, "---\nbibliography: nowhere.bib\n---\n\nA [@a].\n"))
        assert [] == doc.diagnostics  # moot when --bib is given
        bib = doc.bibliography()
        assert {} == bib.entries and ["md-missing-bib"] == [d.code for d in bib.diagnostics]

    def test_gate_needs_no_bib_option_with_front_matter(self, tmp_path):
        from typer.testing import CliRunner

        from citeproof.cli import app

        (tmp_path / "refs.bib").write_text("@article{a, title={A}}\n", encoding="utf-8")
        ok = write(tmp_path, "---\nbibliography: refs.bib\n---\n\nA [@a].\n", "ok.md")
        bad = write(tmp_path, "---\nbibliography: refs.bib\n---\n\nA [@a]. B [@b].\n", "bad.md")
        none = write(tmp_path, "A [@a].\n", "none.md")
        runner = CliRunner()
        assert 0 == runner.invoke(app, ["gate", str(ok), "-q"]).exit_code
        r = runner.invoke(app, ["gate", str(bad), "-q"])
        assert 1 == r.exit_code and "unknown citekey 'b'" in r.output
        assert 2 == runner.invoke(app, ["gate", str(none), "-q"]).exit_code

    def test_no_front_matter_no_bibliography(self, tmp_path):
        assert MarkdownReader().read_document(write(tmp_path, "A [@a].\n")).bibliography() is None

    def test_given_bib_wins_over_front_matter(self, tmp_path):
        (tmp_path / "fm.bib").write_text("@article{a, title={From front matter}}\n", encoding="utf-8")
        (tmp_path / "cli.bib").write_text("@article{a, title={From the command line}}\n", encoding="utf-8")
        doc = write(tmp_path, "---\nbibliography: fm.bib\n---\n\nA [@a].\n")
        report = check(doc, [tmp_path / "cli.bib"], CheckOptions(use_cache=False, tiers=("lexical",)))
        assert [str(tmp_path / "cli.bib")] == report.metadata["bibliographies"]


class TestEncoding:
    def test_latin1_draft_is_read_as_pandoc_reads_it(self, tmp_path):
        p = tmp_path / "draft.md"
        p.write_bytes("Line one.\n\nR\u00e9sultats robustes [@a].\n".encode("latin-1"))
        doc = MarkdownReader().read_document(p)
        assert ["R\u00e9sultats robustes."] == [c.text for c in doc.claims]
        assert [("input-not-utf8", "warning", 3)] == [(d.code, d.severity, d.line) for d in doc.diagnostics]
        assert _pandoc_keys(p) == ["a"]

    def test_stray_byte_does_not_stop_the_run(self, tmp_path):
        p = tmp_path / "draft.md"
        p.write_bytes(b"Claim one [@a].\n\nBroken \xff byte, claim two [@b].\n")
        report = check(p, [], CheckOptions(use_cache=False, tiers=("lexical",)))
        assert ["a", "b"] == sorted(f.citation.citekey for f in report.findings)
        assert "input-not-utf8" in [d.code for d in report.diagnostics]


_PIECES = [
    "Plain claim [@{k}].",
    "@{k} showed that it holds.",
    "A note.^[Shown by @{k}.]",
    "```\ncode @notacite\n```",
    "```python",
    "- item [@{k}]\n  - nested [@{k}x]",
    "> quoted [see @{k}, p. 3]",
    "| a | b |\n|---|---|\n| cell | [@{k}] |",
    "[" * 4 + " brackets [@{k}]",  # pandoc itself is exponential in the run length (12: 14 s)
    "Lee et al. (Fig. 2) found it [-@{k}].",
    "See @fig-one and @{k}.",
    "[span]{{.mark}} [@{k}]",
    "Text with *emphasis and `code @no` [@{k}; @{k}y].",
]


def test_generated_documents_lose_no_citation_pandoc_finds(tmp_path):
    """Seeded compositions of the hard cases: every Cite pandoc finds is among ours (same multiset or more)."""
    import random

    rng = random.Random(18)
    for n in range(25):
        parts = [rng.choice(_PIECES).format(k=f"d{n}p{j}") for j in range(rng.randint(3, 8))]
        depth = rng.choice([0, 0, 3, 12])
        text = "\n\n".join(parts) + "\n"
        if depth:
            text = "".join("  " * i + "- level\n" for i in range(depth)) + "  " * depth + "- " + text.replace("\n", "\n" + "  " * (depth + 1))
        p = write(tmp_path, text, f"gen{n}.md")
        theirs, ours = Counter(_pandoc_keys(p)), Counter(keys_of(p))
        assert not theirs - ours, (text, theirs - ours)
