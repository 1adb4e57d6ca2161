"""The source's own words: glyph repair, line-end hyphens, sentences across breaks, page labels.

Fixtures are PDFs made here with PyMuPDF in the shapes real papers have (two
columns, a sentence running from a column foot or a page foot to the next
head, page labels from 101, printed page numbers); the ligature damage is
tested on the demo's own Deep Review and Sci-Hub PDFs, which carry it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from citeproof.model import Passage
from citeproof.pdf_layout import page_blocks, page_labels, words_dict
from citeproof.sources.pdf import join_lines, label_sections, parse_pdf, sheets_for_pages
from citeproof.text.glyphs import Vocabulary, clean_glyphs, drop_private_use, join_hyphen, repair_words

from conftest import SAMPLE, need_data

CITED = SAMPLE / "cited"
BAD = re.compile("[\ufffd\ue000-\uf8ff]")
W, H = 595, 842
LEFT, RIGHT = (50, 290), (305, 545)


def _box(page, col, y0, y1, text, size=10):
    rc = page.insert_textbox(pymupdf.Rect(col[0], y0, col[1], y1), text, fontsize=size, fontname="helv")
    assert rc >= 0, f"text does not fit: {text[:40]}"


def _two_column_paper() -> bytes:
    doc = pymupdf.open()
    p1 = doc.new_page(width=W, height=H)
    _box(p1, LEFT, 60, 200, "Methods. We sampled forty lakes in the northern basin during two summers and measured the nitrogen content of the water column at three depths.")
    _box(p1, LEFT, 210, 400, "Across all lakes the mean concentration of nitrate rose by twelve percent between the first and the second summer, and the rise was")
    _box(p1, RIGHT, 60, 200, "largest in the shallow lakes of the eastern shore, where farms drain into the water.")
    _box(p1, RIGHT, 210, 400, "Phosphate did not change over the same period in any lake of the basin we studied, which")
    p2 = doc.new_page(width=W, height=H)
    _box(p2, LEFT, 60, 200, "suggests that the farms add nitrogen but little phosphate to the lakes of the region.")
    _box(p2, LEFT, 210, 400, "Results. Oxygen fell in the deep water of every lake by the end of both summers.")
    _box(p2, RIGHT, 60, 200, "Discussion. The lakes warm earlier in spring than they did a decade ago.")
    _box(p2, RIGHT, 210, 400, "Warmer water holds less oxygen, so the deep layers suffer first.")
    return doc.tobytes()


# ---------------------------------------------------------------- across breaks


@pytest.fixture(scope="module")
def lakes():
    return parse_pdf(_two_column_paper())


def test_sentence_across_a_column_break_is_one_passage(lakes):
    p = next(p for p in lakes.passages if "rise was" in p.text)
    assert p.text == ("Across all lakes the mean concentration of nitrate rose by twelve percent between the first and the second "
                      "summer, and the rise was largest in the shallow lakes of the eastern shore, where farms drain into the water.")
    # starts in the left column, ends at the head of the right one, same page
    assert (1, None) == (p.page, p.page_end)
    assert p.bbox[2] < W / 2 and p.bbox_end[0] > W / 2 and p.bbox_end[1] < p.bbox[1]
    assert lakes.text[p.char_start:p.char_end] == p.text


def test_sentence_across_a_page_break_is_one_passage(lakes):
    p = next(p for p in lakes.passages if p.text.startswith("Phosphate"))
    assert p.text.endswith("we studied, which suggests that the farms add nitrogen but little phosphate to the lakes of the region.")
    assert (1, 2) == (p.page, p.page_end)
    assert p.bbox[0] > W / 2 and p.bbox_end[0] < W / 2  # right column of page 1, then left column of page 2
    assert "pages 1–2" == p.where()
    assert not any(q.text.startswith("suggests") for q in lakes.passages)


def test_finished_sentences_stay_their_own_passages(lakes):
    starts = [p.text.split(".")[0] for p in lakes.passages]
    assert ["Methods", "Across all lakes the mean concentration of nitrate rose by twelve percent between the first and the second summer, and the rise was largest in the shallow lakes of the eastern shore, where farms drain into the water",
            "Phosphate did not change over the same period in any lake of the basin we studied, which suggests that the farms add nitrogen but little phosphate to the lakes of the region",
            "Results", "Discussion", "Warmer water holds less oxygen, so the deep layers suffer first"] == starts


# ---------------------------------------------------------------- hyphens


@pytest.mark.parametrize(
    "left, right, joined",
    [
        ("the classi-", "fication of tumours", "the classification of tumours"),
        ("an interferon-", "dependent response", "an interferon-dependent response"),
        ("of n-", "tridecanal in the gland", "of n-tridecanal in the gland"),
        ("a long-", "term study", "a long-term study"),
        ("a non-", "compartmental model", "a non-compartmental model"),
        ("the pro-", "cessing time", "the processing time"),
        ("SARS-", "CoV-2 spread", "SARS-CoV-2 spread"),
        ("in the ex-", "periment we", "in the experiment we"),
        ("results -", "and more", "results - and more"),
    ],
)
def test_line_end_hyphens(left, right, joined):
    assert joined == join_lines([left, right], Vocabulary([left, right]))


def test_the_documents_own_spelling_decides_a_hyphen():
    """'work-/flow' keeps its hyphen by default, joins where the paper writes 'workflow'."""
    assert join_hyphen("work-", "flow", Vocabulary()) is False
    assert join_hyphen("work-", "flow", Vocabulary(["A reproducible workflow helps."])) is True
    assert join_hyphen("data-", "base", Vocabulary(["a data-base we built"])) is False


def test_hyphens_in_a_pdf_block():
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((72, 100), "Type I interferon-\ndependent genes rose after the classi-\nfication of long-\nterm cases.", fontsize=11, fontname="helv")
    parsed = parse_pdf(doc.tobytes())
    assert ["Type I interferon-dependent genes rose after the classification of long-term cases."] == [p.text for p in parsed.passages]


# ---------------------------------------------------------------- glyphs


def test_private_use_glyphs_are_dropped():
    assert "Code is shared." == drop_private_use("\uf05a\ue000Code is shared.")
    assert "See Code" == clean_glyphs("See \uf05a Code", Vocabulary())


@pytest.mark.parametrize(
    "damaged, repaired",
    [
        ("the classi\ufffdcation task", "the classification task"),
        ("its \ufffdexibility", "its flexibility"),
        ("by shu\ufffding labels", "by shuffling labels"),
        ("Di\ufffdcult Cases", "Difficult Cases"),
        ("\ufffdRST RESULTS", "FIRST RESULTS"),
        ("a \ufffdle on disk", "a file on disk"),
        ("\ufffdpull requests", "pull requests"),  # a bullet glyph, not a ligature: no ligature makes a word
    ],
)
def test_ligature_gaps_rebuilt_from_the_vocabulary(damaged, repaired):
    assert repaired == repair_words(damaged, Vocabulary())


@pytest.fixture(scope="module")
def deep_review():
    return parse_pdf((CITED / "ching2018-deep-review.pdf").read_bytes())


def test_deep_review_has_no_unreadable_glyph(deep_review):
    """The Deep Review's OpenSans ligatures have no code point (928 damaged words before) and it uses U+F05A."""
    assert not BAD.search(deep_review.text)
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", deep_review.text)}
    assert {"classification", "flexibility", "shuffling", "difficult", "specific", "different"} <= words
    assert all(deep_review.text[p.char_start:p.char_end] == p.text for p in deep_review.passages)


def test_scihub_words_repaired_in_place():
    parsed = parse_pdf((CITED / "himmelstein2018-scihub.pdf").read_bytes())
    assert not BAD.search(parsed.text)
    assert 10 <= len(re.findall(r"\bfigshare\b", parsed.text, re.I))


# ---------------------------------------------------------------- page labels


def _labelled(first: int | None, printed: int | None) -> bytes:
    doc = pymupdf.open()
    for i in range(3):
        page = doc.new_page(width=W, height=H)
        _box(page, LEFT, 80, 300, f"Section {i + 1}. The survey counted {10 * (i + 1)} nesting pairs of terns on the island in that year.")
        if printed is not None:
            page.insert_text((W / 2, H - 30), str(printed + i), fontsize=9, fontname="helv")
    if first is not None:
        doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": first}])
    return doc.tobytes()


def test_pdf_page_labels_are_kept():
    parsed = parse_pdf(_labelled(101, None))
    assert ["101", "102", "103"] == [p.page_label for p in parsed.passages]
    assert [2] == sheets_for_pages(parsed.passages, [102])
    assert [] == sheets_for_pages(parsed.passages, [2])  # the 2nd sheet is page 102, not page 2
    assert "page 2 (printed 102)" == parsed.passages[1].where()


def test_printed_page_numbers_when_the_pdf_has_no_labels():
    parsed = parse_pdf(_labelled(None, 57))
    assert ["57", "58", "59"] == [p.page_label for p in parsed.passages]
    assert not any(p.text.strip().isdigit() for p in parsed.passages)
    assert [3] == sheets_for_pages(parsed.passages, [59])


def test_no_labels_means_sheets():
    parsed = parse_pdf(_labelled(None, None))
    assert ["", "", ""] == [p.page_label for p in parsed.passages]
    assert [2] == sheets_for_pages(parsed.passages, [2])
    assert "page 2" == parsed.passages[1].where()
    doc = pymupdf.open(stream=_labelled(None, None), filetype="pdf")
    assert ["", "", ""] == page_labels(page_blocks(doc, 0))


def test_where_names_sheet_and_printed_range():
    p = Passage(id="p1", text="x", page=3, page_label="103", page_end=4)
    assert "pages 3–4 (printed 103–104)" == p.where()
    assert "" == Passage(id="p2", text="x").where()


def test_locator_searches_the_labelled_page(tmp_path: Path):
    """A citation 'p. 102' to a reprint labelled from 101 is judged on sheet 2, and the report says so."""
    from citeproof.pipeline import CheckOptions, check
    from citeproof.reports.markdown import render_markdown

    (tmp_path / "terns.pdf").write_bytes(_labelled(101, None))
    (tmp_path / "refs.bib").write_text("@article{terns,\n  title = {Terns},\n  file = {terns.pdf},\n}\n")
    (tmp_path / "draft.md").write_text("The survey counted 20 nesting pairs of terns on the island [@terns, p. 102].\n")
    rep = check(tmp_path / "draft.md", [tmp_path / "refs.bib"], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"]))
    f = rep.findings[0]
    assert "locator_page_missing" not in f.flags
    assert (2, "102") == (f.evidence.passage.page, f.evidence.passage.page_label)
    assert any("searched page(s) 102 (PDF sheet 2) only" in r for r in f.reasons)
    assert "page 2 (printed 102)" in render_markdown(rep)
    (tmp_path / "draft2.md").write_text("The survey counted 20 nesting pairs of terns on the island [@terns, p. 2].\n")
    f = check(tmp_path / "draft2.md", [tmp_path / "refs.bib"], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"])).findings[0]
    assert "locator_page_missing" in f.flags
    assert any("labelled 101 to 103" in r for r in f.reasons)


# ---------------------------------------------------------------- every passage reads as the PDF shows it

_LIG_OR_GLYPH = re.compile(r"ffi|ffl|ff|fi|fl|\ufffd")


def _letters(text: str) -> str:
    """Letters and digits only, lower case, any ligature (or a glyph standing for one) as one placeholder."""
    from citeproof.text.normalise import fold

    return re.sub(r"[^0-9a-zƒ]", "", fold(_LIG_OR_GLYPH.sub("ƒ", text.lower())))


def _pdf_letters(page) -> str:
    """PyMuPDF's own text of a page, none of citeproof's code: spans under 1 pt (invisible) and bare-number lines left out."""
    out = []
    for block in page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)["blocks"]:
        for line in block.get("lines", []):
            t = "".join(s["text"] for s in line["spans"] if s["size"] >= 1)
            if not re.fullmatch(r"\s*\d{1,4}\s*", t):
                out.append(t)
    return _letters("\n".join(out))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ching2018-deep-review.pdf", "himmelstein2018-scihub.pdf", "blischak2016-git-github.pdf", "perez-riverol2016-ten-simple-rules-github.pdf"])
def test_every_passage_reads_as_the_pdf_shows_it(name):
    """Each passage's letters, in order, are on its page(s) in the PDF (a run-on passage: a head on the first page, the rest after).

    Ligature letters match the PDF's unmapped glyph only as "a ligature" (which one is the vocabulary's
    choice); spacing, hyphens and punctuation are not compared.
    """
    data = (CITED / name).read_bytes()
    parsed = parse_pdf(data)
    doc = pymupdf.open(stream=data, filetype="pdf")
    pages = [_pdf_letters(p) for p in doc]
    wrong = []
    for p in parsed.passages:
        q, first, last = _letters(p.text), p.page, p.page_end or p.page
        rest = "".join(pages[first:last])
        if q in "".join(pages[first - 1:last]):
            continue
        if last > first and any(q[:k] in pages[first - 1] and q[k:] in rest for k in range(1, len(q))):
            continue
        wrong.append((p.id, p.page, p.text[:80]))
    assert [] == wrong
    assert not BAD.search(parsed.text)


# ---------------------------------------------------------------- the words layout (issue 27)


def _lines(pages) -> list[list[tuple[str, tuple, bool]]]:
    """Per page: each line's text (spaces collapsed), box and whether it is turned text."""
    return [[(" ".join("".join(s["text"] for s in ln["spans"]).split()), tuple(ln["bbox"]), abs(ln["dir"][1]) > 0.1)
             for b in pg.blocks for ln in b["lines"]] for pg in pages]


@pytest.mark.parametrize("name", ["ching2018-deep-review.pdf", "himmelstein2018-scihub.pdf", "blischak2016-git-github.pdf", "perez-riverol2016-ten-simple-rules-github.pdf"])
def test_words_layout_reads_the_lines_dict_reads(name):
    """Read through PyMuPDF's ``words``, every page has dict's lines: same text and direction, the box within dict's.

    A words box is the words': dict's line box also covers the spaces around them (up to 6 pt on these papers,
    taller in a larger font), so the words box may be smaller, never larger.

    The four demo PDFs hold two columns, tables, a landscape table page (Blischak's page 11, turned text) and
    ligature gaps; :func:`page_blocks` reads a cited PDF's pages from the second on this way.
    """
    doc = pymupdf.open(CITED / name)
    flags = pymupdf.TEXT_MEDIABOX_CLIP
    by_dict, by_words = page_blocks(doc, flags), page_blocks(doc, flags, words_from=1)
    assert [(p.width, p.height, p.label) for p in by_dict] == [(p.width, p.height, p.label) for p in by_words]
    for a, b in zip(_lines(by_dict), _lines(by_words)):
        a, b = [x for x in a if x[0]], [x for x in b if x[0]]  # a line of icon glyphs only is empty either way
        assert [(t, turned) for t, _box, turned in a] == [(t, turned) for t, _box, turned in b]
        for (_t, (ax0, ay0, ax1, ay1), _), (_, (bx0, by0, bx1, by1), _) in zip(a, b):
            assert ax0 - 0.5 <= bx0 <= bx1 <= ax1 + 0.5 and ay0 - 0.5 <= by0 <= by1 <= ay1 + 0.5


def test_words_layout_finds_turned_text_and_the_unrotated_page():
    """A line set at 90 degrees is turned text without fonts to say so; a page with /Rotate keeps dict's width and height."""
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((72, 100), "Table 2. Online courses about Git", fontsize=10, fontname="helv")
    page.insert_text((300, 700), "Name of the material and its address", fontsize=10, fontname="helv", rotate=90)
    page.insert_text((400, 700), "Overview", fontsize=10, fontname="helv", rotate=90)
    page.insert_text((72, 300), "I a", fontsize=10, fontname="helv")
    got = {ln["spans"][0]["text"]: abs(ln["dir"][1]) > 0.1 for b in words_dict(page, 0)["blocks"] for ln in b["lines"]}
    assert {"Table 2. Online courses about Git": False, "Name of the material and its address": True, "Overview": True, "I a": False} == got
    page.set_rotation(90)
    d, w = page.get_text("dict"), words_dict(page, 0)
    assert (d["width"], d["height"]) == (w["width"], w["height"]) == (W, H)


def test_words_layout_without_mupdfs_line_directions_reads_them_from_the_word_boxes(monkeypatch):
    """On a PyMuPDF that does not expose MuPDF's lines, a line of several words set at 90 degrees is still turned."""
    import citeproof.pdf_layout as layout

    monkeypatch.setattr(layout, "_turned_lines", lambda tp: None)
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((72, 100), "Table 2. Online courses about Git", fontsize=10, fontname="helv")
    page.insert_text((300, 700), "Name of the material and its address", fontsize=10, fontname="helv", rotate=90)
    got = {ln["spans"][0]["text"]: abs(ln["dir"][1]) > 0.1 for b in words_dict(page, 0)["blocks"] for ln in b["lines"]}
    assert {"Table 2. Online courses about Git": False, "Name of the material and its address": True} == got


# ---------------------------------------------------------------- margin line numbers copied with a claim


def _numbered_manuscript() -> bytes:
    """A manuscript page with its lines numbered in the left margin from 77, as review copies and preprints are."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = ["Due to its distributed design, each up-to-date local repository is a whole copy of the",
             "project's history. These copies act as independent backups as well, present on each user's storage",
             "device. Binary files such as images or raw data are stored as a single large entity in git.",
             "Such files are better kept elsewhere."]
    page.insert_text((72, 100), lines, fontsize=10, fontname="helv", lineheight=1.4)  # one paragraph block
    page.insert_text((30, 100), [str(77 + k) for k in range(len(lines))], fontsize=10, fontname="helv", lineheight=1.4)
    return doc.tobytes()


def test_margin_line_numbers_are_kept_beside_their_passage():
    """The numbers are dropped from the text and kept, in page order, on the passage they stand beside."""
    p = next(p for p in parse_pdf(_numbered_manuscript()).passages if "backups" in p.text)
    assert (77, 78, 79, 80) == p.margin_numbers
    assert not re.search(r"\b7[7-9]\b|\b80\b", p.text)


def test_without_copied_line_numbers_needs_a_margin_number_and_an_exact_quotation():
    from citeproof.text.grounding import without_copied_line_numbers

    text = "These copies act as independent backups as well, present on each user's storage device. Then more."
    claim = "These copies act as independent backups as well, present on each user's storage 78 device."
    assert ("These copies act as independent backups as well, present on each user's storage device.", (78,)) == without_copied_line_numbers(claim, text, (77, 78, 79))
    assert (claim, ()) == without_copied_line_numbers(claim, text, (77, 79))  # not a number printed beside the passage
    assert (claim, ()) == without_copied_line_numbers(claim, text, ())
    changed = "These copies act as dependent backups as well, present on each user's storage 78 device."
    assert (changed, ()) == without_copied_line_numbers(changed, text, (78,))  # the rest is no quotation
    two = "Binary files such as images or raw data are stored as a single 79 large entity in 80 git."
    assert ("Binary files such as images or raw data are stored as a single large entity in git.", (79, 80)) == without_copied_line_numbers(
        two, "Binary files such as images or raw data are stored as a single large entity in git.", (79, 80))
    assert ("the 78 teams", ()) == without_copied_line_numbers("the 78 teams", "We thank the teams.", (78,))  # too short to be a quotation


def test_a_claim_copied_with_its_line_numbers_is_judged_without_them(tmp_path: Path):
    """The scale job's "storage 78 device": flagged, the number named, and the claim judged as the source has it."""
    from citeproof.pipeline import CheckOptions, check

    (tmp_path / "git.pdf").write_bytes(_numbered_manuscript())
    (tmp_path / "refs.bib").write_text("@article{git,\n  title = {Git},\n  file = {git.pdf},\n}\n")
    (tmp_path / "draft.md").write_text("These copies act as independent backups as well, present on each user's storage 78 device [@git].\n")
    f = check(tmp_path / "draft.md", [tmp_path / "refs.bib"], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"])).findings[0]
    assert "margin_line_numbers" in f.flags
    assert any(r.startswith("the claim holds 78: the line number the source prints in its margin beside this text (page 1)") for r in f.reasons)
    assert "supported" == f.verdict.value and not any(t.name == "number_drift" for t in f.tags)


def test_repair_copied_ligatures_takes_only_the_sources_own_spelling():
    """A Þ (or U+FFFD) inside a copied word is a ligature only where the cited source has the rebuilt word."""
    from citeproof.text.glyphs import Vocabulary, repair_copied_ligatures

    v = Vocabulary(["However, large Rootstock changes can make upgrading existing manuscripts difficult. The first "
                    "SIGNIFICANT result was significant."])
    assert ("upgrading is difficult, the first SIGNIFICANT one", [("diÞcult", "difficult"), ("Þrst", "first"), ("SIGNIÞCANT", "SIGNIFICANT")]) == \
        repair_copied_ligatures("upgrading is diÞcult, the Þrst SIGNIÞCANT one", v)
    assert ("classification", [("classi\ufffdcation", "classification")]) == repair_copied_ligatures(
        "classi\ufffdcation", Vocabulary(["a classification of them"]))
    for kept in ("Þingvellir and Þór", "Straße", "a diÞcult case"):  # Icelandic, German; a word the source lacks
        assert (kept, []) == repair_copied_ligatures(kept, Vocabulary(["The meeting was held near the lake. A fling."]))


def test_a_claim_copied_with_a_broken_ligature_is_judged_as_the_source_spells_it(tmp_path: Path):
    """The scale job's work41: "manuscripts diÞcult" (OpenSans maps ffi to Þ) was judged unlike its own source
    sentence and ended partial; now flagged, the word named, and the quotation supported."""
    from citeproof.pipeline import CheckOptions, check

    (tmp_path / "manubot.md").write_text("# Upgrading\n\nUpgrading a Manubot instance is an opt-in procedure. However, large Rootstock "
                                         "changes can make upgrading existing manuscripts difficult.\n")
    (tmp_path / "refs.bib").write_text("@article{manubot,\n  title = {Manubot},\n  file = {manubot.md},\n}\n")
    (tmp_path / "draft.md").write_text("However, large Rootstock changes can make upgrading existing manuscripts diÞcult [@manubot].\n")
    f = check(tmp_path / "draft.md", [tmp_path / "refs.bib"], CheckOptions(cache_dir=tmp_path / "cache", tiers=["lexical"])).findings[0]
    assert "broken_ligatures" in f.flags
    assert any(r.startswith("'diÞcult' is 'difficult' in the source") for r in f.reasons)
    assert "supported" == f.verdict.value


# ---------------------------------------------------------------- figures after the reference list


def test_a_caption_after_the_references_is_evidence_and_the_list_resumes():
    """A figure set after (or inside) the reference list is the paper's text; the next reference entry resumes the list."""
    texts = ["Results", "The survey found 104 objects.", "References", "[1] Mainzer A. NEOWISE. ApJ 2011.",
             "Figure 7. Histograms of H magnitudes. The top axis shows diameters, assuming an albedo of 0.2.",
             "number of W84 NEOs", "[2] Jedicke R. Surveys. Icarus 2016.", "12. Ram K. Git can facilitate reproducibility.",
             "TABLE 3: Survey fields", "Mainzer, A., Grav, T. 2011, ApJ 743, 156"]
    got = [p.section for p in label_sections([Passage(id=f"p{i}", text=t, page=1) for i, t in enumerate(texts)])]
    assert ["results", "results", "references", "references", "", "", "references", "references", "", "references"] == got


def test_the_albedo_caption_after_the_references_is_retrieved():
    """The scale job's miss: the arXiv paper's Figure 7 caption (page 18, after the references) is the claim's evidence."""
    from citeproof.model import Source
    from citeproof.retrieval.lexical import LexicalRetriever

    data = (need_data("arxiv-pdfs") / "1707.04066v1.pdf").read_bytes()
    parsed = parse_pdf(data)
    src = Source(citekey="neo", path=None, sha256="x", media_type="application/pdf", origin="pdf", passages=parsed.passages, text=parsed.text)
    best = LexicalRetriever().retrieve("The top axis shows diameters, assuming that each object has an albedo of 0.2.", src)[0]
    assert (18, 1.0) == (best.passage.page, best.scores["lexical"])
    assert best.passage.text.startswith("Figure 7. Histograms of H magnitudes")


# ---------------------------------------------------------------- the citing-PDF reader shares the rules


def test_citing_pdf_keeps_compound_hyphens(tmp_path: Path):
    """A citing PDF's claim keeps "interferon-dependent" and "long-term", joins "classi-fication"."""
    from citeproof.readers.pdf import read_pdf

    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    body = ("Type I interferon-\ndependent genes rose after the classi-\nfication of long-\nterm cases [1].\n"
            "\nReferences\n\n[1] A. Author. Interferon in chronic infection. J. Virol. 2019.\n[2] B. Author. Another paper. 2020.")
    page.insert_text((72, 100), body, fontsize=11, fontname="helv")
    path = tmp_path / "citing.pdf"
    doc.save(path)
    d = read_pdf(path)
    assert ["Type I interferon-dependent genes rose after the classification of long-term cases."] == [c.text for c in d.claims]
    assert ["1"] == [c.citekey for c in d.claims[0].citations]
