"""Citing PDFs: reference lists, markers, links to entries and to local sources (real papers)."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from citeproof.model import CitationMode
from citeproof.pipeline import CheckOptions, check
from citeproof.readers.pdf import read_pdf
from citeproof.readers.pdf_markers import author_year_markers as _author_year_markers
from citeproof.readers.pdf_markers import expand as _expand
from citeproof.readers.pdf_markers import numeric_markers as _numeric_markers
from citeproof.reports.json import finding_to_dict
from conftest import DATA, SAMPLE, need

CV = DATA / "cv-papers"
ARXIV = DATA / "arxiv-pdfs"
META = SAMPLE  # the bundled copy of shared/data/manubot-meta-review: always present


@lru_cache(maxsize=None)
def _read(path: str):
    return read_pdf(path)


@pytest.fixture(scope="module")
def fast_rcnn_report(tmp_path_factory):
    pdf = need(CV / "fast_rcnn_ICCV2015.pdf")
    return check(pdf, [], CheckOptions(source_dirs=[CV], cache_dir=tmp_path_factory.mktemp("cache")))


class TestMarkers:
    def test_ranges_expand(self):
        """``[1–4, 7]`` covers 1, 2, 3, 4 and 7; a reversed range is one number."""
        assert [1, 2, 3, 4, 7] == _expand("1–4, 7")
        assert [1, 2, 3] == _expand("1-3")
        assert [5] == _expand("5-2")

    def test_numeric_forms(self):
        """Single, list, range and adjacent groups; adjacent groups are one compound citation."""
        text = "One [1], two [1,3], three [2-4], four [1–4, 7], five [11][23][10], six [0, 1] interval."
        got = [m.labels for m in _numeric_markers(text, 30, False)]
        assert [["1"], ["1", "3"], ["2", "3", "4"], ["1", "2", "3", "4", "7"], ["11", "23", "10"]] == got

    def test_numbers_beyond_the_list_are_no_marker(self):
        """``[40]`` in a paper with 25 entries is not read as a citation."""
        assert [] == _numeric_markers("see interval [40, 50]", 25, False)

    def test_author_year_forms(self):
        """Parenthetical, narrative with letter years, and prefixed/located groups."""
        ms = _author_year_markers("as shown (Smith et al., 2020). Smith and Jones (2019a, b) disagree (see Smith 2020, p. 4; Lee 2018).")
        assert [["Smith et al. 2020"], ["Smith and Jones 2019a", "Smith and Jones 2019b"], ["Smith 2020", "Lee 2018"]] == [m.labels for m in ms]
        assert CitationMode.NARRATIVE == ms[1].mode
        assert ["see", ""] == ms[2].prefixes
        assert ["p. 4", ""] == ms[2].posts


class TestFastRCNN:
    def test_reference_list(self):
        """All 25 numbered entries, parsed: [11] is SPPnet, [14] AlexNet, [8] DPM."""
        doc = _read(str(need(CV / "fast_rcnn_ICCV2015.pdf")))
        assert ("numbered", 25) == (doc.style, len(doc.entries))
        refs = {e.label: e.reference for e in doc.entries}
        assert "Spatial pyramid pooling in deep convolutional networks for visual recognition" == refs["11"].title
        assert ("He", "Zhang", "Ren", "Sun") == refs["11"].authors
        assert ("2014", "ECCV") == (refs["11"].year, refs["11"].container)
        assert "ImageNet classification with deep convolutional neural networks" == refs["14"].title
        assert "Object detection with discriminatively trained part based models" == refs["8"].title
        assert "1502.05082" == refs["12"].arxiv
        assert ("Microsoft COCO: common objects in context", "1405.0312") == (refs["18"].title, refs["18"].arxiv)
        assert all(r.title and r.year and r.authors for r in refs.values())

    def test_every_marker_links_and_pages_match_the_printed_backrefs(self):
        """Each entry ends with the pages citing it (``2012. 1, 4, 6``): the markers found are on exactly those pages."""
        pdf = need(CV / "fast_rcnn_ICCV2015.pdf")
        doc = _read(str(pdf))
        assert doc.markers == doc.linked == 75
        import pymupdf

        raw = pymupdf.open(pdf)[8].get_text()
        printed = {}
        for m in re.finditer(r"\[(\d+)\](.*?)(?=\n\[\d+\]|\Z)", raw[raw.index("[1]"):], re.S):
            tail = re.search(r"(?:19|20)\d\d\.\s+([\d,\s]+)$", m.group(2).strip())
            printed[m.group(1)] = {int(x) for x in re.findall(r"\d+", tail.group(1))}
        assert 25 == len(printed)
        found: dict[str, set[int]] = {}
        for c in doc.claims:
            for cit in c.citations:
                found.setdefault(cit.citekey, set()).add(cit.line)
        assert printed == found

    def test_each_occurrence_reaches_the_right_pdf(self, fast_rcnn_report):
        """Every [11], [14] and [8] finding carries SPPnet, AlexNet and DPM, matched by title with the score recorded."""
        want = {"11": "SPPnet.pdf", "14": "alexnet_NIPS2012.pdf", "8": "DPM_TPAMI2010.pdf"}
        got = Counter((f.citation.citekey, Path(f.source.path).name) for f in fast_rcnn_report.findings if f.citation.citekey in want)
        assert {("11", "SPPnet.pdf"): 23, ("14", "alexnet_NIPS2012.pdf"): 4, ("8", "DPM_TPAMI2010.pdf"): 3} == dict(got)
        for f in fast_rcnn_report.findings:
            if f.citation.citekey in want:
                # a title is no identity alone: the entry's type (a printed reference naming its venue), year or DOI agrees too
                assert f.source.origin.startswith("--sources title match (score 100.0; ") and f.source.origin.endswith(("agree)", "agrees)")), f.source.origin
        other = {f.citation.citekey for f in fast_rcnn_report.findings if f.source is not None and f.source.path}
        assert set(want) == other

    def test_cases_named_in_the_issue(self, fast_rcnn_report):
        """SPPnet [11] in the paper's own measurement, AlexNet [14] in a parenthesis, and "[24] found that DPM [8]"."""
        by_key: dict[str, list] = {}
        for f in fast_rcnn_report.findings:
            by_key.setdefault(f.citation.citekey, []).append(f)
        own = [f for f in by_key["11"] if f.claim.text.endswith("3× faster than SPPnet.")]
        assert 1 == len(own) and 1 == own[0].claim.page
        assert "compared_with_cited" in own[0].flags and "with SPPnet" in own[0].reasons[-1]
        caffe = [f for f in by_key["14"] if "CaffeNet (essentially AlexNet)" in f.claim.text]
        assert 1 == len(caffe) and "compared_with_cited" not in caffe[0].flags
        f24 = [f for f in by_key["24"] if "found that DPM" in f.claim.text]
        f8 = [f for f in by_key["8"] if "found that DPM" in f.claim.text]
        assert 1 == len(f24) == len(f8)
        assert f24[0].claim.text.startswith("Zhu et al. found that DPM mAP saturates")  # "et al." ends no sentence
        assert CitationMode.NARRATIVE == f24[0].citation.mode  # "Zhu et al. [24] found": the authors named in the text
        assert "claim_of_other_citation" in f8[0].flags
        assert "'24'" in f8[0].reasons[-1]

    def test_json_location(self, fast_rcnn_report):
        """For a PDF, ``line`` is the citing page and ``location`` holds page and box."""
        f = next(f for f in fast_rcnn_report.findings if f.citation.citekey == "24")
        d = finding_to_dict(f)
        assert 7 == d["line"] == d["location"]["page"]
        x0, y0, x1, y1 = d["location"]["bbox"]
        assert 0 < x0 < x1 <= 612 and 0 < y0 < y1 <= 792
        assert "24" == d["citekey"] and "Do we need more training data" in d["reference"]["title"]
        assert d["source"] is None


@pytest.mark.parametrize(
    "citing,want",
    [
        ("SPPnet.pdf", {"3": "alexnet_NIPS2012.pdf", "23": "DPM_TPAMI2010.pdf", "24": "HOG_CVPR2005.pdf"}),
        ("HSC.pdf", {"8": "HOG_CVPR2005.pdf", "13": "DPM_TPAMI2010.pdf", "19": "alexnet_NIPS2012.pdf"}),
        ("DPM_TPAMI2010.pdf", {"10": "HOG_CVPR2005.pdf"}),
    ],
)
def test_cv_papers_cite_each_other(citing, want):
    """The collection's README table: each citing paper's entries reach exactly the local PDFs it cites."""
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache

    doc = _read(str(need(CV / citing)))
    res = SourceResolver([], [CV], Cache(None))
    got = {}
    for e in doc.entries:
        src = res.resolve(e.label, e.reference)
        if src.path:
            got[e.label] = Path(src.path).name
    assert want == got


PRINTED = {
    "1508.05632v2.pdf": 53,
    "1707.04066v1.pdf": 26,
    "1805.05865.pdf": 5,
    "2301.05883.pdf": 33,
    "2303.03819.pdf": 27,
    "2304.10117.pdf": 33,
    "2503.05372.pdf": 39,
}
"""Entries printed in each paper's reference list (counted by hand from the PDFs)."""


class TestArxivPapers:
    @pytest.mark.parametrize("name", sorted(PRINTED))
    def test_entries_found_equal_entries_printed(self, name):
        """Segmentation finds exactly the printed number of entries, numbered or author-year."""
        doc = _read(str(need(ARXIV / name)))
        assert PRINTED[name] == len(doc.entries)
        if doc.style == "numbered":
            assert [str(i) for i in range(1, PRINTED[name] + 1)] == [e.label for e in doc.entries]

    @pytest.mark.parametrize("name", sorted(PRINTED))
    def test_markers_link(self, name):
        """Every marker links to an entry, except one real dangling cite (Lupton 2005 has no entry)."""
        doc = _read(str(need(ARXIV / name)))
        assert doc.markers > 0
        if name == "1707.04066v1.pdf":
            assert doc.markers - 1 == doc.linked
            assert ["Lupton 2005"] == list(doc.unlinked)
            assert "no first author 'Lupton' with year 2005" in doc.unlinked["Lupton 2005"]
        else:
            assert doc.markers == doc.linked

    def test_representations_are_not_markers(self):
        """SU(3) multiplets ``[8]``, ``[6]``, ``[15]`` after an operator or an article are notation, not citations."""
        doc = _read(str(need(ARXIV / "2503.05372.pdf")))
        got = {c.text[:40]: [x.citekey for x in c.citations] for c in doc.claims}
        assert ["14", "20"] == got["This decomposition is given by [¯3] ⊗[8]"]
        assert ["14", "20"] == got["Non-strange isospin-1/2 multiplets appea"]
        first = next(c for c in doc.claims if c.text.startswith("In the past, attempts were made"))
        assert [str(i) for i in range(1, 18)] == [x.citekey for x in first.citations]  # [1–5], [6, 7] ... [11–17]

    def test_author_year_labels(self):
        """Author-year entries are labelled as printed; 2014a/2014b stay apart."""
        doc = _read(str(need(ARXIV / "1707.04066v1.pdf")))
        labels = [e.label for e in doc.entries]
        assert "author-year" == doc.style
        assert {"Mommert et al. 2014a", "Mommert et al. 2014b", "Harris and D’Abramo 2015", "Mainzer et al. 2011", "Rabinowitz 1993"} <= set(labels)
        keys = Counter(c.citekey for cl in doc.claims for c in cl.citations)
        assert keys["Mainzer et al. 2011"] >= 3

    def test_superscripts_not_exponents(self):
        """1805.05865 cites by superscript 1-5; exponents (c², 10⁻⁵) are not markers."""
        doc = _read(str(need(ARXIV / "1805.05865.pdf")))
        assert "superscript" == doc.marker_style
        assert ["1", "2", "3", "4", "5"] == [c.citekey for cl in doc.claims for c in cl.citations]

    def test_unlinkable_marker_is_a_finding(self, tmp_path):
        """A marker with no entry becomes an unknown-citekey finding whose reason says why."""
        pdf = need(ARXIV / "1707.04066v1.pdf")
        rep = check(pdf, [], CheckOptions(cache_dir=tmp_path))
        bad = [f for f in rep.findings if f.citation.citekey == "Lupton 2005"]
        assert 1 == len(bad)
        assert "unknown_citekey" in bad[0].flags
        assert bad[0].reasons[0].startswith("marker 'Lupton 2005' matches no entry of the reference list")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    bib = need(META / "meta-review.bib")
    cache = tmp_path_factory.mktemp("cache")
    md = check(need(META / "citing" / "meta-review.md"), [bib], CheckOptions(cache_dir=cache))
    pdf = check(need(META / "citing" / "meta-review.pdf"), [bib], CheckOptions(cache_dir=cache))
    return md, pdf


class TestManubotPdfAgreesWithMarkdown:
    def test_reference_list(self):
        """100 numbered entries with DOIs where printed; Manubot's bold title line is the title."""
        doc = _read(str(need(META / "citing" / "meta-review.pdf")))
        assert 100 == len(doc.entries) and doc.markers == doc.linked
        refs = {e.label: e.reference for e in doc.entries}
        assert "Sci-Hub provides access to nearly all scholarly literature" == refs["40"].title
        assert "10.7554/elife.32822" == refs["40"].doi
        assert ("Himmelstein", "Romero", "Levernier") == refs["40"].authors[:3]
        assert "Towards Data Science" == refs["9"].container

    def test_as_many_markers_as_markdown_citations(self):
        """The PDF's 116 markers are the Markdown's 116 citations (Manubot's ``[@tag:x]: url:...`` alias lines print no marker)."""
        from citeproof.readers.markdown import read_markdown

        md = [cl for cl in read_markdown(need(META / "citing" / "meta-review.md")) if not re.match(r"^\[@[^\]]+\]:", cl.raw)]
        doc = _read(str(need(META / "citing" / "meta-review.pdf")))
        assert 116 == sum(len(cl.citations) for cl in md) == doc.markers == doc.linked

    def test_same_sources_same_counts(self, reports):
        """Each locally available work is reached by as many PDF markers as Markdown citekeys."""
        md, pdf = reports

        def per_source(rep):
            return Counter(Path(f.source.path).name for f in rep.findings if f.source is not None and f.source.path)

        assert per_source(md) == per_source(pdf)
        assert 12 == sum(per_source(pdf).values())

    def test_same_claims(self, reports):
        """Each Markdown claim citing a local source has its PDF twin citing the same source.

        Compared by rapidfuzz (the PDF drops its "fi" ligatures); table rows
        are compared in tests/test_pdf_markers.py.
        """
        from rapidfuzz import fuzz

        md, pdf = reports

        def claims(rep):
            return [(Path(f.source.path).name, f.claim.text) for f in rep.findings
                    if f.source is not None and f.source.path and f.claim.kind.value != "table_row"]

        md_claims, pdf_claims = claims(md), claims(pdf)
        assert 10 == len(md_claims) == len(pdf_claims)
        for src, text in md_claims:
            best = max(fuzz.ratio(text, t) for s, t in pdf_claims if s == src)
            assert best >= 85, (src, text)

    def test_sources_folder_alone(self, tmp_path):
        """Without --bib, DOI and title matching against ``cited/`` say how each link was made."""
        rep = check(need(META / "citing" / "meta-review.pdf"), [], CheckOptions(source_dirs=[META / "cited"], cache_dir=tmp_path))
        how = {f.citation.citekey: (Path(f.source.path).name, f.source.origin) for f in rep.findings if f.source is not None and f.source.path}
        assert ("ching2018-deep-review.pdf", "--sources DOI match (10.1098/rsif.2017.0387)") == how["5"]
        assert ("himmelstein2018-scihub.pdf", "--sources DOI match (10.7554/elife.32822)") == how["40"]
        for key, name in (("7", "blischak2016-git-github.pdf"), ("50", "himmelstein2017-rephetio.md")):
            assert name == how[key][0] and how[key][1].startswith("--sources title match (score 100.0; "), how[key]
            assert how[key][1].endswith(("agree)", "agrees)", "the entry has no type, year or DOI to compare)")), how[key]


def _superscript_pdf(path: Path) -> Path:
    """A two-page PDF citing by superscripts, with an exponent and a footnote mark on page 1."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)

    def run(x, y, parts):
        for text, size, rise in parts:
            page.insert_text((x, y - rise), text, fontsize=size, fontname="helv")
            x += pymupdf.get_text_length(text, fontname="helv", fontsize=size)

    run(72, 100, [("Deep networks are accurate on every benchmark", 10, 0), ("1", 6, 3.5), (". The energy scales as 10", 10, 0), ("5", 6, 3.5), (" joules.", 10, 0)])
    run(72, 114, [("Footnote marks are not citations", 10, 0), ("2", 6, 3.5), (" but later work agrees", 10, 0), ("1,3", 6, 3.5), (".", 10, 0)])
    run(72, 128, [("A range of studies confirms it", 10, 0), ("1-3", 6, 3.5), (" in the end.", 10, 0)])
    page.insert_text((72, 740), "2 This footnote explains the mark.", fontsize=8, fontname="helv")
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 170), "References", fontsize=12, fontname="hebo")
    for i, t in enumerate(["1. A. Smith. Deep networks are accurate. J. Tests, 2020.", "2. B. Lee. Energy scales. Phys. Rev. 1, 2 (2019).", "3. C. Jones. Later work. Nature 5, 6 (2021)."]):
        page.insert_text((72, 190 + 14 * i), t, fontsize=10, fontname="helv")
    doc.save(path)
    return path


def test_superscripts_footnote_marks_and_exponents(tmp_path):
    """Superscript 1, 1,3 and 1-3 cite; the exponent in 10⁵ and the footnote mark ² (its footnote is on the page) do not."""
    doc = read_pdf(_superscript_pdf(tmp_path / "sup.pdf"))
    assert ("numbered", "superscript", 3) == (doc.style, doc.marker_style, len(doc.entries))
    got = [(c.text, [x.citekey for x in c.citations], c.page) for c in doc.claims]
    assert [
        ("Deep networks are accurate on every benchmark.", ["1"], 1),
        ("Footnote marks are not citations but later work agrees.", ["1", "3"], 1),
        ("A range of studies confirms it in the end.", ["1", "2", "3"], 1),
    ] == got


@pytest.mark.parametrize(
    "name,entries,markers",
    [
        ("himmelstein2018-scihub.pdf", 130, 184),
        ("perez-riverol2016-ten-simple-rules-github.pdf", 24, 26),
        ("blischak2016-git-github.pdf", 6, 6),  # 8 before issue 11: two were the index in ``int(x[3])`` in a code listing
        ("ching2018-deep-review.pdf", 615, 844),
    ],
)
def test_cited_pdfs_as_citing_documents(name, entries, markers):
    """The sample's sources read as citing PDFs: every printed entry found, every marker linked.

    Sci-Hub prints its entry numbers as separate text in the margin (``1.`` at a
    page top looks like a running head); Ten Simple Rules' list is interrupted
    by a rotated table and resumes at entry 6; the Deep Review has 615 entries.
    """
    doc = _read(str(SAMPLE / "cited" / name))
    assert ("numbered", entries) == (doc.style, len(doc.entries))
    assert [str(i) for i in range(1, entries + 1)] == [e.label for e in doc.entries]
    assert markers == doc.markers == doc.linked
    if name.startswith("perez"):
        assert doc.entries[4].text.endswith("2016;12(1):e1004668.")  # no table text appended to [5]
    if name.startswith("himmelstein"):
        assert ("Sci-Hub provides access to nearly all scholarly literature", "10.7554/elife.32822") == (doc.entries[0].reference.title, doc.entries[0].reference.doi)


def test_author_year_pdf_end_to_end(tmp_path):
    """Author-year markers in a PDF: signal and locator kept, narrative cites elided, 2019a/2019b told apart."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    body = [
        "Deep nets generalise well (see Smith 2020, p. 4; Lee 2018).",
        "Smith and Jones (2019a, b) disagree about the margins.",
        "Results hold across tasks (Smith et al., 2021).",
    ]
    for i, t in enumerate(body):
        page.insert_text((72, 100 + 14 * i), t, fontsize=10, fontname="helv")
    page.insert_text((72, 200), "References", fontsize=12, fontname="hebo")
    refs = [
        ("Lee, K. 2018, Signals in citations, J. Tests, 3, 1", None),
        ("Smith, J. 2020, Deep nets generalise, J. Tests, 5, 2", None),
        ("Smith, J., & Jones, P. 2019a, Margins I, Proc. Tests,", "12, 33"),
        ("Smith, J., & Jones, P. 2019b, Margins II, Proc. Tests,", "13, 44"),
        ("Smith, J., Lee, K., & Roe, R. 2021, Across tasks, Nature, 1, 1", None),
    ]
    y = 220
    for first, cont in refs:
        page.insert_text((72, y), first, fontsize=10, fontname="helv")
        y += 14
        if cont:
            page.insert_text((84, y), cont, fontsize=10, fontname="helv")
            y += 14
    doc.save(tmp_path / "ay.pdf")
    d = read_pdf(tmp_path / "ay.pdf")
    assert ("author-year", "author-year", 5) == (d.style, d.marker_style, len(d.entries))
    assert ["Lee 2018", "Smith 2020", "Smith and Jones 2019a", "Smith and Jones 2019b", "Smith et al. 2021"] == [e.label for e in d.entries]
    c1, c2, c3 = d.claims
    assert "Deep nets generalise well." == c1.text
    (a, b) = c1.citations
    assert ("Smith 2020", "see", "p. 4", "Lee 2018", None) == (a.citekey, a.signal, a.locator.raw, b.citekey, b.signal)
    assert "[...] disagree about the margins." == c2.text
    assert [("Smith and Jones 2019a", CitationMode.NARRATIVE), ("Smith and Jones 2019b", CitationMode.NARRATIVE)] == [(x.citekey, x.mode) for x in c2.citations]
    assert ["Smith et al. 2021"] == [x.citekey for x in c3.citations]
    assert d.markers == d.linked == 5


def test_gate_on_a_pdf_names_the_dangling_marker():
    """``citeproof gate paper.pdf`` needs no --bib and exits 1 on the marker that links to no entry."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    pdf = need(ARXIV / "1707.04066v1.pdf")
    r = CliRunner().invoke(app, ["gate", str(pdf)])
    assert 1 == r.exit_code
    assert f"{pdf}:3: unknown citekey 'Lupton 2005'" in r.output
    assert "81 citations, 1 with an unknown citekey (1 distinct)" in r.output  # 79 before issue 11's cites inside longer parentheses


def test_reports_say_page_for_a_pdf(fast_rcnn_report):
    """The Markdown and HTML reports locate a citing PDF's findings by page, not line."""
    import io

    from citeproof.reports import get_writer

    out = {}
    for fmt in ("md", "html"):
        buf = io.StringIO()
        get_writer(fmt).write(fast_rcnn_report, buf)
        out[fmt] = buf.getvalue()
    assert "fast_rcnn_ICCV2015.pdf:p7 · sentence" in out["md"]
    assert "fast_rcnn_ICCV2015.pdf, page 7</span>" in out["html"]
