"""Citing-PDF markers that are and are not citations, and tables as rows (issue 11, markers half).

Every marker kind has a hit and a near miss, on PDFs written here with
PyMuPDF: a real superscript is set smaller and above the baseline, as a
typesetter sets it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.model import CitationMode, UnitKind
from citeproof.readers.pdf import read_pdf
from citeproof.readers.pdf_markers import author_year_markers, bracket_role, superscript_role
from conftest import DATA, SAMPLE, need

ARXIV = DATA / "arxiv-pdfs"
CV = DATA / "cv-papers"


class _Writer:
    """Writes runs of text on pages: ``(text, size, rise)``; a rise > 0 is a superscript."""

    def __init__(self):
        import pymupdf

        self.pymupdf = pymupdf
        self.doc = pymupdf.open()
        self.page = None

    def new_page(self):
        self.page = self.doc.new_page(width=612, height=792)

    def run(self, x, y, parts):
        for text, size, rise in parts:
            self.page.insert_text((x, y - rise), text, fontsize=size, fontname="helv")
            x += self.pymupdf.get_text_length(text, fontname="helv", fontsize=size)

    def text(self, x, y, text, size=10, font="helv"):
        self.page.insert_text((x, y), text, fontsize=size, fontname=font)

    def references(self, y, entries):
        self.text(72, y, "References", 12, "hebo")
        for i, t in enumerate(entries):
            self.text(72, y + 20 + 14 * i, t)

    def save(self, path: Path) -> Path:
        self.doc.save(path)
        return path


def _claims(doc):
    return [(c.text, [x.citekey for x in c.citations]) for c in doc.claims]


def S(t):  # a superscript run
    return (t, 6, 3.5)


def N(t):  # a body-text run
    return (t, 10, 0)


# ---------------------------------------------------------------- superscripts


@pytest.mark.parametrize(
    "prev,core,nxt,role",
    [
        ("about black holes", "1", ". An", "cite"),
        ("the result is robust.", "2", " We", "cite"),
        ("as shown in 2019.", "3", " We", "cite"),
        ("Censorship”", "4", " is", "cite"),
        ("several studies", "1-3", " agree", "cite"),
        ("", "1", "Department of Physics", "label"),
        ("uses the ", "10", "B isotope", "isotope"),
        ("dating with ", "14", "C is", "isotope"),
        ("imaging with ", "18", "F-FDG", "isotope"),
        ("fission of ", "235", "U was", "isotope"),
        ("a light (", "12", "C) and", "isotope"),
        ("grows as x", "2", " and", "exponent"),
        ("and r", "3", " over", "exponent"),
        ("an area of 5 m", "2", " at", "exponent"),
        ("closest to 224", "2", " pixels", "exponent"),
        ("at 10−", "4", " FPPW", "exponent"),
        ("radius, 2GM/c", "2", " (which", "exponent"),
        ("a field of 3 deg", "2", " with", "exponent"),
        ("we find 10⁶.", "9", " NEOs", "exponent"),
        ("a mass of 31.1+2.", "2", "", "exponent"),
        ("the ", "1", "st quartile", "ordinal"),
        ("in the ", "5", "x mode", "notation"),
    ],
)
def test_superscript_roles(prev, core, nxt, role):
    """Each rule of :func:`superscript_role`, hits (``cite``) and near misses, from the characters around the raised number."""
    assert role == superscript_role(prev, core, nxt)


def _isotope_pdf(path: Path) -> Path:
    w = _Writer()
    w.new_page()
    w.run(72, 100, [N("Boron capture uses the "), S("10"), N("B isotope and works in mice"), S("1"), N(".")])
    w.run(72, 114, [N("Dating with "), S("14"), N("C holds to 50,000 years."), S("2")])
    w.run(72, 128, [N("PET with "), S("18"), N("F-FDG and fission of "), S("235"), N("U were reviewed"), S("3"), N(".")])
    w.run(72, 142, [N("Loss grows as x"), S("2"), N(" and r"), S("3"), N(" over 5 m"), S("2"), N(" at 224"), S("2"), N(" pixels"), S("4"), N(".")])
    w.run(72, 156, [N("Only the "), S("1"), N("st quartile of the survey changed"), S("5"), N(".")])
    w.run(72, 170, [N("Seven samples"), S("9"), N(" were lost in transit"), S("1,3"), N(".")])
    w.new_page()
    w.run(72, 100, [N("Energy is conserved"), S("2"), N(" in the model"), S("4"), N(".")])
    w.run(72, 740, [("2", 5, 3), ("This footnote explains the conservation law.", 8, 0)])  # a raised label, glued
    w.new_page()
    w.references(100, [f"{i}. A. Author{i}. Title number {i}. J. Tests {i}, 1 (2020)." for i in range(1, 6)])
    return w.save(path)


def test_superscript_citations_and_their_near_misses(tmp_path):
    """Superscript citations cite; isotopes, exponents, ordinals, footnote marks and numbers past the list do not.

    The isotope and exponent numbers keep their printed form (``224²``, not
    ``2242``); the footnote mark ² on page 2 has its footnote at the page foot,
    labelled by a raised ² glued to its text (read ``2 This footnote``).
    """
    doc = read_pdf(_isotope_pdf(tmp_path / "sup.pdf"))
    assert ("numbered", "superscript", 5) == (doc.style, doc.marker_style, len(doc.entries))
    assert [
        ("Boron capture uses the ¹⁰B isotope and works in mice.", ["1"]),
        ("Dating with ¹⁴C holds to 50,000 years.", ["2"]),
        ("PET with ¹⁸F-FDG and fission of ²³⁵U were reviewed.", ["3"]),
        ("Loss grows as x² and r³ over 5 m² at 224² pixels.", ["4"]),
        ("Only the ¹st quartile of the survey changed.", ["5"]),
        ("Seven samples were lost in transit.", ["1", "3"]),
        ("Energy is conserved in the model.", ["4"]),
    ] == _claims(doc)
    assert doc.markers == doc.linked == 8


def test_real_superscript_paper_keeps_its_five_and_no_exponent():
    """1805.05865 cites by superscript 1-5 (``them⁵.``); ``2GM/c²`` stays an exponent in the claim text."""
    doc = read_pdf(need(ARXIV / "1805.05865.pdf"))
    assert ["1", "2", "3", "4", "5"] == [c.citekey for cl in doc.claims for c in cl.citations]


def test_bracket_paper_exponent_reads_as_printed():
    """Fast R-CNN's ``224²`` pixels (a superscript in a bracket-style paper) reads ``224²``, not ``2242``."""
    doc = read_pdf(need(CV / "fast_rcnn_ICCV2015.pdf"))
    import pymupdf

    from citeproof.readers.pdf import _extract_lines

    lines, _ = _extract_lines(pymupdf.open(doc.path))
    text = " ".join(ln.text for ln in lines)
    assert "224² pixels" in text and "2242 pixels" not in text


# ---------------------------------------------------------------- bracketed numbers


@pytest.mark.parametrize(
    "text,role",
    [
        ("as shown in [15].", "cite"),
        ("The network[11] is deep.", "cite"),
        ("The CNN[11] is deep.", "cite"),
        ("studied in representations [15] before", "cite"),
        ("see [3] for details", "cite"),
        ("the product [3] ⊗ [8] holds", "math"),
        ("the sum [15] + [6] holds", "math"),
        ("only the [15] is attractive", "article"),
        ("appear in the [15] multiplet", "article"),
        ("states in [15] multiplets", "notation-noun"),
        ("a state in [6]-plets", "notation-noun"),
        ("in [15] representations", "notation-noun"),
        ("the entry x[3] is zero", "index"),
        ("the matrix A[15] is zero", "index"),
        ("weights W1[2] are zero", "index"),
    ],
)
def test_bracket_roles(text, role):
    """The documented rule of :func:`bracket_role` on the first ``[n]`` of each text: hits cite, near misses are notation."""
    start = text.index("[")
    assert role == bracket_role(text, start, text.index("]", start) + 1)


def _bracket_pdf(path: Path) -> Path:
    w = _Writer()
    w.new_page()
    body = [
        "Deep nets are accurate [1]. The [15] and [6] representations were found [2].",
        "The product [3] × [8] = [1] + [8] holds in general [3].",
        "The entries x[3] and A[15] are zero as in [4].",
        "The network[5] and the CNN[6] both train fast.",
        "States in [15] multiplets were studied in representations [7].",
    ]
    for i, t in enumerate(body):
        w.text(72, 100 + 14 * i, t)
    w.references(200, [f"[{i}] A. Author{i}. Title number {i}. J. Tests {i}, 1 (2020)." for i in range(1, 21)])
    return w.save(path)


def test_bracket_notation_is_left_alone(tmp_path):
    """Representations, tensor products and indices in running text are not markers; the citations beside them are."""
    doc = read_pdf(_bracket_pdf(tmp_path / "br.pdf"))
    assert ("numbered", "brackets", 20) == (doc.style, doc.marker_style, len(doc.entries))
    assert [
        ("Deep nets are accurate.", ["1"]),
        ("The [15] and [6] representations were found.", ["2"]),
        ("The product [3] × [8] = [1] + [8] holds in general.", ["3"]),
        ("The entries x[3] and A[15] are zero as in.", ["4"]),
        ("The network and the CNN both train fast.", ["5", "6"]),
        ("States in [15] multiplets were studied in representations.", ["7"]),
    ] == _claims(doc)


def test_real_physics_representations_are_not_markers():
    """2503.05372: "[¯3] and [15] representations" and "[6] representations" (3 false markers before issue 11) are notation."""
    doc = read_pdf(need(ARXIV / "2503.05372.pdf"))
    claim = next(c for c in doc.claims if c.text.startswith("In Refs., it is argued"))
    assert "[¯3] and [15] representations" in claim.text
    assert 70 == doc.markers == doc.linked


# ---------------------------------------------------------------- author-year inside longer parentheses


def test_embedded_author_year_hits_and_near_misses():
    """An author-year inside a longer parenthesis is a narrative marker when the list has it; months, places and codes are not."""
    listed = {"Werner et al. 2002", "Harris and D’Abramo 2015"}.__contains__
    text = ("a scaling factor is used (as Werner et al. 2002 did), a deficit (compared to Harris & D’Abramo 2015 for H>24), "
            "an airburst (as happened in Chelyabinsk, Russia, in 2013), data (NOAO Prop. 2013B-0536; PI: L. Allen), "
            "a run (in March 2015) and a method (as Brown 2010 did).")
    ms = author_year_markers(text, accept=listed)
    assert [["Werner et al. 2002"], ["Harris and D’Abramo 2015"]] == [m.labels for m in ms]
    assert [CitationMode.NARRATIVE, CitationMode.NARRATIVE] == [m.mode for m in ms]
    assert ["Werner et al. 2002", "Harris & D’Abramo 2015"] == [text[m.start:m.end] for m in ms]
    assert [] == author_year_markers("a run (in March 2015) was done")  # no reference list to ask: the month rule alone
    assert [["Brown 2010"]] == [m.labels for m in author_year_markers("a method (as Brown 2010 did)")]


def test_embedded_author_year_in_a_pdf(tmp_path):
    """In a PDF the embedded cite is elided as ``[...]`` inside its parenthesis and links to its entry."""
    w = _Writer()
    w.new_page()
    body = [
        "A scaling factor is used (as Werner et al. 2002 did).",
        "They find a deficit of small objects (compared to Harris & Smith 2015 for H>24).",
        "An airburst was seen (as happened in Chelyabinsk, Russia, in 2013) and modelled (Werner et al. 2002).",
        "The rate is unknown (as Brown 2010 did not say).",
    ]
    for i, t in enumerate(body):
        w.text(72, 100 + 14 * i, t)
    w.text(72, 200, "References", 12, "hebo")
    refs = ["Harris, A. W., & Smith, P. 2015, Icarus, 257, 302", "Werner, S. C., Harris, A. W., & Neukum, G. 2002, Icarus, 156, 287"]
    for i, t in enumerate(refs):
        w.text(72, 220 + 14 * i, t)
    doc = read_pdf(w.save(tmp_path / "ay.pdf"))
    assert ("author-year", "author-year") == (doc.style, doc.marker_style)
    assert [
        ("A scaling factor is used (as [...] did).", ["Werner et al. 2002"]),
        ("They find a deficit of small objects (compared to [...] for H>24).", ["Harris and Smith 2015"]),
        ("An airburst was seen (as happened in Chelyabinsk, Russia, in 2013) and modelled.", ["Werner et al. 2002"]),
    ] == _claims(doc)
    assert [CitationMode.NARRATIVE] == [c.mode for c in doc.claims[0].citations]
    assert doc.markers == doc.linked == 3 and not doc.unlinked


def test_real_embedded_author_year_markers():
    """1707.04066: the two cites the issue names are found (79 -> 81 markers), and the one dangling cite stays the only one."""
    doc = read_pdf(need(ARXIV / "1707.04066v1.pdf"))
    texts = {c.citations[0].citekey: c.text for c in doc.claims if len(c.citations) == 1}
    assert "(as [...] did)" in texts["Werner et al. 2002"] or any("(as [...] did)" in c.text for c in doc.claims)
    assert any("compared to [...] for H>24" in c.text and "Harris and D’Abramo 2015" in [x.citekey for x in c.citations] for c in doc.claims)
    assert (81, 80, ["Lupton 2005"]) == (doc.markers, doc.linked, list(doc.unlinked))


# ---------------------------------------------------------------- tables


def _table_pdf(path: Path) -> Path:
    w = _Writer()
    w.new_page()
    w.text(72, 100, "Results are in Table 1 and improve on prior work [1].")
    rows = [("Method", "mAP", "AP50", "FPS"), ("DPM [2]", "33.7", "40.1", "0.1"), ("R-CNN [3]", "58.5", "66.0", "0.05"), ("Ours", "66.9", "70.0", "5.0")]
    for i, row in enumerate(rows):
        for x, cell in zip((72, 200, 260, 320), row):
            w.text(x, 130 + 12 * i, cell, 9)
    w.text(72, 190, "Table 1: Detection results on the test set.", 9)
    w.text(72, 220, "Our method is faster than R-CNN [3].")
    w.text(200, 250, "a = b + c", 10)
    w.text(500, 250, "(1)", 10)
    w.text(200, 266, "d = e + f", 10)
    w.text(500, 266, "(2)", 10)
    w.text(72, 290, "Both identities follow from [4].")
    w.references(340, [f"[{i}] A. Author{i}. Title number {i}. J. Tests {i}, 1 (2020)." for i in range(1, 6)])
    return w.save(path)


def test_table_rows_are_claims_and_equations_are_not_tables(tmp_path):
    """A table's rows are ``table_row`` claims with cells joined by ``; ``; numbered equations stay prose."""
    doc = read_pdf(_table_pdf(tmp_path / "tab.pdf"))
    got = [(c.kind, c.text, [x.citekey for x in c.citations]) for c in doc.claims]
    assert [
        (UnitKind.SENTENCE, "Results are in Table 1 and improve on prior work.", ["1"]),
        (UnitKind.TABLE_ROW, "DPM; 33.7; 40.1; 0.1", ["2"]),
        (UnitKind.TABLE_ROW, "R-CNN; 58.5; 66.0; 0.05", ["3"]),
        (UnitKind.SENTENCE, "Our method is faster than R-CNN.", ["3"]),
        (UnitKind.SENTENCE, "Both identities follow from.", ["4"]),
    ] == got


def _two_narrow_columns_pdf(path: Path) -> Path:
    """Three-column-style prose: two narrow ragged columns whose lines share baselines (a table's shape, but prose)."""
    w = _Writer()
    w.new_page()
    left = ["Deep networks learn features that", "transfer across many tasks and", "domains with little tuning [1]."]
    right = ["Sparse codes describe patches", "with few active atoms of a", "learned dictionary as in [2]."]
    for i, (a, b) in enumerate(zip(left, right)):
        w.text(72, 100 + 12 * i, a, 9)
        w.text(330, 100 + 12 * i, b, 9)
    w.references(200, [f"[{i}] A. Author{i}. Title number {i}. J. Tests {i}, 1 (2020)." for i in range(1, 4)])
    return w.save(path)


def test_narrow_prose_columns_are_not_a_table(tmp_path):
    """Side-by-side narrow paragraphs are sentences, not rows (each column is three lines of words from one left edge).

    (MuPDF puts both columns in one block, so their reading order interleaves:
    a layout limit this test does not judge.)
    """
    doc = read_pdf(_two_narrow_columns_pdf(tmp_path / "cols.pdf"))
    assert {UnitKind.SENTENCE} == {c.kind for c in doc.claims}
    assert ["1", "2"] == sorted(x.citekey for c in doc.claims for x in c.citations)


def test_real_tables_are_rows():
    """Fast R-CNN's Table 3 row citing SPPnet [11] is one row of cells, no longer a run of numbers in a paragraph."""
    doc = read_pdf(need(CV / "fast_rcnn_ICCV2015.pdf"))
    rows = [c for c in doc.claims if c.kind == UnitKind.TABLE_ROW]
    first = next(c for c in rows if c.citations[0].citekey == "11")
    assert first.text.startswith("SPPnet BB †; 07; \\ diff; 73.9; 72.3; 62.5") and 5 == first.page
    assert ["10", "10", "10"] == [c.citations[0].citekey for c in rows if c.text.startswith("R-CNN BB;")]
    assert 75 == doc.markers == doc.linked


def test_manubot_pdf_table_rows_match_the_markdown_rows():
    """The meta-review's identifier table: each Markdown table row has its PDF twin, a ``table_row`` with one citation.

    Wrapped cells (``Digital Object Identifier`` / ``(DOI)``) join their row;
    compared by rapidfuzz (>= 85: the PDF wraps long identifiers mid-cell).
    """
    from rapidfuzz import fuzz

    from citeproof.readers.markdown import read_markdown

    md = [c for c in read_markdown(SAMPLE / "citing" / "meta-review.md") if c.kind == UnitKind.TABLE_ROW]
    pdf = [c for c in read_pdf(SAMPLE / "citing" / "meta-review.pdf").claims if c.kind == UnitKind.TABLE_ROW]
    assert 10 == len(md) == len(pdf)
    for m, p in zip(md, pdf):
        assert fuzz.ratio(m.text, p.text) >= 85, (m.text, p.text)
        assert 1 == len(m.citations) == len(p.citations)
    assert "Digital Object Identifier (DOI); DOI Content Negotiation; doi:10.1098/rsif.2017.0387" == pdf[0].text
