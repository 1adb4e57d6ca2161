"""LaTeX citing documents: every natbib/biblatex command form, structure, bibliographies, arXiv bundles."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeproof.cli import app
from citeproof.model import CitationMode, UnitKind
from citeproof.pipeline import CheckOptions, check
from citeproof.readers.latex import find_main_tex, read_bbl, read_latex
from conftest import FIXTURES

PAPER = FIXTURES / "latex" / "paper.tex"


@pytest.fixture(scope="module")
def doc():
    return read_latex(PAPER)


def _find(doc, fragment):
    hits = [c for c in doc.claims if fragment in c.text]
    assert 1 == len(hits), [c.text for c in doc.claims]
    return hits[0]


class TestCommands:
    def test_cite_and_citep(self, doc):
        """``\\cite``/``\\citep`` are parenthetical and vanish from the claim; a trailing comment is dropped."""
        c = _find(doc, "Parenthetical forms work too.")
        assert [("lee2018", CitationMode.PARENTHETICAL), ("smith2020", CitationMode.PARENTHETICAL)] == [(x.citekey, x.mode) for x in c.citations]
        assert (10, 2) == (c.citations[0].line, c.citations[0].group_size)
        assert "Deep nets are accurate." == _find(doc, "Deep nets").text

    def test_citet_is_narrative_and_elided(self, doc):
        """``\\citet`` and ``\\citet*`` become ``[...]``."""
        c = _find(doc, "showed, a narrative")
        assert "As [...] showed, a narrative cite is elided." == c.text
        assert CitationMode.NARRATIVE == c.citations[0].mode
        assert "Starred [...] is narrative." == _find(doc, "Starred").text

    def test_optional_arguments(self, doc):
        """One optional argument is the locator; two are prenote (signal) and postnote."""
        c = _find(doc, "See the pinpoint")
        a, b = c.citations
        assert ("smith2020", "page", "42", None) == (a.citekey, a.locator.label, a.locator.value, a.signal)
        assert ("lee2018", "chapter", "3", "see") == (b.citekey, b.locator.label, b.locator.value, b.signal)

    def test_citealp_citeauthor_citeyear(self, doc):
        """``\\citealp`` is parenthetical, ``\\citeauthor`` narrative, ``\\citeyear`` suppress-author; math is removed with its fake cite."""
        assert "Math is removed and stays." == _find(doc, "Math").text
        assert "Rates rose 50% (see here)." == _find(doc, "Rates rose").text  # \\% and \\href, which pylatexenc 2 cannot read
        c = _find(doc, "wrote it in")
        assert [CitationMode.NARRATIVE, CitationMode.SUPPRESS_AUTHOR] == [x.mode for x in c.citations]
        keys = {x.citekey for cl in doc.claims for x in cl.citations}
        assert {"smith2020", "lee2018", "jones2019"} == keys  # no 'commented', 'ghost', 'mathghost', 'eqghost', 'hidden' (\nocite)

    def test_biblatex_commands(self, doc):
        """``\\parencite``, ``\\textcite``, ``\\autocite``, ``\\footcite``, ``\\smartcite``, ``\\supercite``."""
        assert "First item cites." == _find(doc, "First item").text
        assert "Second item has [...] as subject." == _find(doc, "Second item").text
        c = _find(doc, "Biblatex")
        assert ["lee2018", "jones2019", "smith2020"] == [x.citekey for x in c.citations]
        assert "ch. 2" == c.citations[1].locator.raw
        assert "As shown by." == _find(doc, "As shown by").text

    def test_multicite(self, doc):
        """``\\cites(see)()[p.~3]{a}[cf.][]{b}``: the global prenote goes to the first key, each group keeps its own notes."""
        c = _find(doc, "Multicite")
        a, b = c.citations
        assert ("smith2020", "see", "p. 3") == (a.citekey, a.signal, a.locator.raw)
        assert ("lee2018", "cf.", None) == (b.citekey, b.signal, b.locator)
        assert (0, 2, 1, 2) == (a.group_index, a.group_size, b.group_index, b.group_size)


class TestStructure:
    def test_units(self, doc):
        """Headings, list items, captions, table rows and footnotes are their own units."""
        kinds = {c.text: c.kind for c in doc.claims}
        assert UnitKind.HEADING == kinds["Introduction of [...]"]
        assert UnitKind.LIST_ITEM == kinds["First item cites."]
        assert UnitKind.CAPTION == kinds["Results from."]
        assert UnitKind.FOOTNOTE == kinds["As shown by."]

    def test_table_rows(self, doc):
        """Rows split at ``\\\\``, cells joined as prose, rules dropped; the header row cites nothing."""
        rows = [c for c in doc.claims if c.kind == UnitKind.TABLE_ROW]
        assert [("Ours; 91%", 31, ["smith2020"]), ("Theirs; 88%", 32, ["lee2018"])] == [(c.text, c.line, [x.citekey for x in c.citations]) for c in rows]
        assert "p. 7" == rows[1].citations[0].locator.raw

    def test_input_keeps_file_and_line(self, doc):
        """Claims from ``\\input file`` (no braces) and ``\\subfile{...}`` name that file and its own line; comment lines are skipped."""
        d = _find(doc, "The discussion agrees")
        assert d.document.endswith("sections/discussion.tex") and 2 == d.line
        c = _find(doc, "We follow the protocol")
        assert c.document.endswith("sections/methods.tex") and 3 == c.line
        assert "We follow the protocol of [...] with changes." == c.text
        assert "p. 5" == c.citations[0].locator.raw

    def test_own_bibliography(self, doc):
        """``\\bibliography{refs}`` names refs.bib beside the file."""
        assert [PAPER.parent / "refs.bib"] == doc.bib_files
        bib = doc.bibliography()
        assert {"smith2020", "lee2018", "jones2019"} == set(bib.entries)


class TestBbl:
    def test_natbib_bibitems(self):
        """``\\bibitem[label]{key}`` entries are parsed from their typeset text."""
        bbl = r"""\begin{thebibliography}{2}
\bibitem[{Smith et~al.(2020)}]{smith2020}
Smith, J., Doe, J., \& Roe, R. 2020, \newblock Deep nets are accurate, \newblock J. Tests, 12, 1
\bibitem[Lee(2018)]{lee2018} Lee, K. 2018, Signals, arXiv:1801.01234
\end{thebibliography}"""
        refs = {r.citekey: r for r in read_bbl(bbl, "x.bbl")}
        assert ["lee2018", "smith2020"] == sorted(refs)
        assert ("Smith", "2020") == (refs["smith2020"].authors[0], refs["smith2020"].year)
        assert "1801.01234" == refs["lee2018"].arxiv
        assert "x.bbl:2" == refs["smith2020"].origin

    def test_biblatex_entries(self):
        """biblatex's ``\\entry`` records give title, names, year and DOI directly."""
        bbl = r"""\entry{smith2020}{article}{}
  \name{author}{1}{}{{{}{family={Smith},familyi={S\bibinitperiod},given={Jane}}}}
  \field{title}{Deep nets are accurate}
  \field{year}{2020}
  \verb{doi}
  \verb 10.1234/jt.2020.1
  \endverb
\endentry"""
        (r,) = read_bbl(bbl, "y.bbl")
        assert ("smith2020", "Deep nets are accurate", ("Smith",), "2020", "10.1234/jt.2020.1") == (r.citekey, r.title, r.authors, r.year, r.doi)


def _bundle(tmp_path: Path, with_bib: bool) -> Path:
    src = tmp_path / "src"
    shutil.copytree(PAPER.parent, src)
    if not with_bib:
        (src / "refs.bib").unlink()
        (src / "paper.bbl").write_text(
            "\\begin{thebibliography}{3}\n\\bibitem{smith2020} J. Smith, Deep nets are accurate. J. Tests, 2020.\n"
            "\\bibitem{lee2018} K. Lee. Signals in citations. In Proc. Tests, 2018.\n\\bibitem{jones2019} A. Jones. All about footnotes. Press, 2019.\n"
            "\\end{thebibliography}\n", encoding="utf-8")
    (src / "macros.tex").write_text("\\newcommand{\\x}{y}\n% \\documentclass{article} \\begin{document} in a comment\n", encoding="utf-8")
    out = tmp_path / "2401.00001.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        for f in sorted(src.rglob("*")):
            tar.add(f, arcname=str(f.relative_to(src)), recursive=False)
        evil = tarfile.TarInfo("../escape.tex")
        data = b"\\documentclass{article}\\begin{document}\\cite{x}\\end{document}"
        evil.size = len(data)
        tar.addfile(evil, io.BytesIO(data))
    return out


class TestArxivBundle:
    def test_main_file_and_bbl(self, tmp_path):
        """The main file has ``\\documentclass`` and ``\\begin{document}``; with no .bib the .bbl is read; ``..`` members are skipped."""
        doc = read_latex(_bundle(tmp_path, with_bib=False))
        assert doc.main.endswith("2401.00001.tar.gz/paper.tex")
        assert len(read_latex(PAPER).claims) == len(doc.claims) == 19
        assert "2401.00001.tar.gz/paper.tex: bibliography file refs.bib not found" in doc.diagnostics[0].message
        bib = doc.bibliography()
        assert {"smith2020", "lee2018", "jones2019"} == set(bib.entries)
        assert "Signals in citations" == bib.entries["lee2018"].title
        assert not (tmp_path / "escape.tex").exists()

    def test_cli_report_name(self, tmp_path):
        """``citeproof check 2401.00001.tar.gz`` writes ``2401.00001.citeproof.json`` with the bundle's own bibliography."""
        import json

        bundle = _bundle(tmp_path, with_bib=True)
        r = CliRunner().invoke(app, ["check", str(bundle), "--out", str(tmp_path / "out"), "--no-cache", "-q"])
        assert 0 == r.exit_code, r.output
        d = json.loads((tmp_path / "out" / "2401.00001.citeproof.json").read_text(encoding="utf-8"))
        assert 26 == d["summary"]["citations"] and [] == d["summary"]["unknown_citekeys"]
        assert all(f["document"].startswith(str(bundle) + "/") for f in d["findings"])

    def test_find_main_ignores_commented_documentclass(self, tmp_path):
        """A file whose ``\\documentclass`` is in a comment is not the main file."""
        (tmp_path / "a.tex").write_text("% \\documentclass{x}\n% \\begin{document}\n", encoding="utf-8")
        (tmp_path / "b.tex").write_text("\\documentclass{x}\n\\begin{document}\nhi\n\\end{document}\n", encoding="utf-8")
        assert tmp_path / "b.tex" == find_main_tex(tmp_path)


class TestPipeline:
    def test_check_uses_the_documents_bibliography(self, tmp_path):
        """``check`` with no --bib reads the .bib the document names: no unknown citekeys."""
        rep = check(PAPER, [], CheckOptions(cache_dir=tmp_path))
        assert 26 == len(rep.findings)
        assert not [f for f in rep.findings if "unknown_citekey" in f.flags]

    def test_cli_needs_no_bib_for_latex_and_pdf(self, tmp_path):
        """``citeproof check paper.tex`` and ``gate`` run without --bib; Markdown still asks for one."""
        r = CliRunner().invoke(app, ["check", str(PAPER), "--out", str(tmp_path), "--no-cache", "-q"])
        assert 0 == r.exit_code, r.output
        assert (tmp_path / "paper.citeproof.json").exists()
        r = CliRunner().invoke(app, ["gate", str(PAPER)])
        assert 0 == r.exit_code and "26 citations, every citekey is in the bibliography" in r.output
        md = tmp_path / "a.md"
        md.write_text("Text [@x].\n", encoding="utf-8")
        r = CliRunner().invoke(app, ["check", str(md), "--no-cache", "-q"])
        assert 2 == r.exit_code


def _tex(tmp_path: Path, body: str, **files: str) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    main = tmp_path / "main.tex"
    main.write_text("\\documentclass{article}\n\\newif\\ifdraft\n\\begin{document}\n" + body + "\\end{document}\n", encoding="utf-8")
    return main


class TestWhatIsNotTypeset:
    """Issue 10 section 3 and issue 18 section 4: only what LaTeX typesets is read, and all of it."""

    def test_iffalse_is_not_read(self, tmp_path):
        doc = read_latex(_tex(tmp_path, "Seen \\cite{a}.\n\\iffalse\nHidden \\cite{b}. \\ifdraft x \\fi still hidden \\cite{c}.\n\\fi\nSeen too \\cite{d}.\n"))
        assert [("Seen.", ["a"]), ("Seen too.", ["d"])] == [(c.text, [x.citekey for x in c.citations]) for c in doc.claims]

    def test_bibliographystyle_never_leaks_into_a_claim(self, tmp_path):
        doc = read_latex(_tex(tmp_path, "The last claim \\cite{a}.\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n"))
        assert ["The last claim."] == [c.text for c in doc.claims]

    def test_a_file_input_twice_is_read_twice(self, tmp_path):
        doc = read_latex(_tex(tmp_path, "\\input{part}\n\\input{part}\n", **{"part.tex": "Repeated claim \\cite{r}.\n"}))
        assert [("part.tex", 1), ("part.tex", 1)] == [(Path(c.document).name, c.line) for c in doc.claims]
        assert not [d for d in doc.diagnostics if d.code == "tex-include-loop"]

    def test_an_include_loop_is_still_stopped(self, tmp_path):
        doc = read_latex(_tex(tmp_path, "\\input{loop}\n", **{"loop.tex": "Looping \\cite{l}.\n\\input{loop}\n"}))
        assert 1 == len(doc.claims) and ["tex-include-loop"] == [d.code for d in doc.diagnostics]

    def test_unclosed_dollar_does_not_swallow_the_next_paragraph(self, tmp_path):
        doc = read_latex(_tex(tmp_path, "Cost is 5$ per unit.\n\nThe next paragraph cites \\cite{a} and $x$ math.\n"))
        assert [("The next paragraph cites and math.", ["a"])] == [(c.text, [x.citekey for x in c.citations]) for c in doc.claims]

    def test_latin1_file_is_read_with_a_warning(self, tmp_path):
        main = tmp_path / "main.tex"
        main.write_bytes("\\documentclass{article}\n\\begin{document}\nR\u00e9sultats \\cite{a}.\n\\end{document}\n".encode("latin-1"))
        doc = read_latex(main)
        assert ["R\u00e9sultats."] == [c.text for c in doc.claims]
        assert [("input-not-utf8", "warning", 3)] == [(d.code, d.severity, d.line) for d in doc.diagnostics]

    def test_ten_thousand_cites_in_one_sentence(self, tmp_path):
        """All read, in one claim (bench/readers_scaling.py shows the time grows linearly)."""
        keys = [f"k{n}" for n in range(10_000)]
        doc = read_latex(_tex(tmp_path, "All of " + ", ".join(f"\\cite{{{k}}}" for k in keys) + " agree.\n"))
        assert 1 == len(doc.claims) and keys == [c.citekey for c in doc.claims[0].citations]
