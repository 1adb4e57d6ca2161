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


class TestTheSentenceTheAuthorWrote:
    """Issue 10, section 3: each citation is judged on the sentence it stands in."""

    def test_narrative_citation_opening_a_sentence_is_its_own(self):
        cl = claims("First sentence here. @lee2018 showed that the rate doubles.\n")
        assert [("[...] showed that the rate doubles.", "lee2018")] == [(c.text, c.citations[0].citekey) for c in cl]

    def test_bracketed_citation_after_a_period_still_joins_the_sentence_before(self):
        cl = claims("The rate doubles. [@a] The next sentence.\n")
        assert ["The rate doubles."] == [c.text for c in cl]

    def test_inline_note_is_one_footnote_finding(self):
        cl = claims("A claim here.^[See @lee2018 for the details.] More text.\n")
        assert [("footnote", "See [...] for the details.", 1, 20)] == [
            (c.kind.value, c.text, c.line, c.citations[0].column) for c in cl
        ]

    def test_inline_note_on_a_later_line_keeps_its_line(self):
        cl = claims("Line one.\nThe claim^[Shown by [@b, p. 4].] holds [@a].\n")
        got = {c.citations[0].citekey: (c.kind.value, c.text, c.line) for c in cl}
        assert {"a": ("sentence", "The claim holds.", 2), "b": ("footnote", "Shown by.", 2)} == got

    def test_et_al_and_figure_in_parentheses_stay_one_sentence(self):
        cl = claims("Lee et al. (Fig. 2) reported growth [@lee].\n")
        assert ["Lee et al. (Fig. 2) reported growth."] == [c.text for c in cl]

    def test_no_cut_at_ref_sec_eq_fig(self):
        cl = claims("As shown in ref. [2] the effect is large [@a]. Sec. 3 shows it [@b]. See Eq. 4 and Fig. S1 [@c].\n")
        assert ["As shown in ref. [2] the effect is large.", "Sec. 3 shows it.", "See Eq. 4 and Fig. S1."] == [c.text for c in cl]

    def test_bracketed_span_gives_its_text(self):
        cl = claims("[The effect is large]{.mark} [@a].\n")
        assert ["The effect is large."] == [c.text for c in cl]

    def test_no_claim_ends_with_two_periods(self):
        cl = claims("As in Fig. 1.[@a].\n\nThe rate doubles. [@b].\n\nIt was so... [@c]\n")
        assert ["As in Fig. 1.", "The rate doubles.", "It was so..."] == [c.text for c in cl]
