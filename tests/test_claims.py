"""Claim units: sentence, table row, list item, heading; markup removed, narrative cites elided."""

from __future__ import annotations

from citeproof.readers.claims import split_sentences
from citeproof.readers.markdown import MarkdownReader

from conftest import SAMPLE


def claims(md: str):
    return MarkdownReader().read_string(md)


def test_abbreviations_do_not_split():
    text = "Deep models (e.g. CNNs) work, cf. Smith et al. 2019 who used Fig. 1 and i.e. many. J. R. Tolkien wrote it. Next."
    got = [text[s:e] for s, e in split_sentences(text)]
    assert ["Deep models (e.g. CNNs) work, cf. Smith et al. 2019 who used Fig. 1 and i.e. many.", "J. R. Tolkien wrote it.", "Next."] == got


def test_sentence_unit_and_line():
    cl = claims("First sentence here.\nSecond one cites [@a] and ends.\nThird [@b].\n")
    assert [("Second one cites and ends.", 2), ("Third.", 3)] == [(c.text, c.line) for c in cl]


def test_narrative_cite_becomes_ellipsis():
    cl = claims("As @smith showed, the effect is large.\n")
    assert "As [...] showed, the effect is large." == cl[0].text


def test_citation_after_period_joins_previous_sentence():
    cl = claims("The effect is large. [@a]\nAnother sentence.\n")
    assert ["The effect is large."] == [c.text for c in cl]


def test_table_row_is_prose_without_pipes():
    md = "| Tool | Feature |\n|---|---|\n| Manubot | versioned writing [@x] |\n| Other | none |\n"
    cl = claims(md)
    assert 1 == len(cl)
    assert "Manubot; versioned writing" == cl[0].text
    assert ("table_row", 3) == (cl[0].kind.value, cl[0].line)


def test_list_item_and_heading():
    cl = claims("# Methods of @ref\n\n- an item cites [@a]\n- plain\n")
    assert [("heading", "Methods of [...]"), ("list_item", "an item cites")] == [(c.kind.value, c.text) for c in cl]


def test_markup_removed():
    cl = claims("We used [Manubot](https://manubot.org) and **bold** `code` words [@a].\n")
    assert "We used Manubot and bold code words." == cl[0].text


def test_sample_units_never_whole_paragraphs():
    """On the real sample every unit is at most a few sentences long, and each citation keeps its line."""
    cl = MarkdownReader().read(SAMPLE / "citing" / "meta-review.md")
    assert 82 == len(cl)  # 9 manubot alias lines are one unit each
    assert max(len(c.text) for c in cl) < 700
    first = cl[0]
    assert (327, "doi:10.1515/9781400839452") == (first.line, first.citations[0].citekey)
    assert first.text.startswith("This development has decreased the barriers")
    binder = [c for c in cl if any(x.citekey == "doi:10.25080/Majora-4af1f417-011" for x in c.citations)]
    # The figure-caption sentence with a link before its citation stays one sentence.
    assert any(c.text.startswith("The notebook to generate this figure can be interactively launched using Binder") for c in binder)
