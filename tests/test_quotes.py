"""Quotations checked verbatim (``text/grounding.py``, ``detectors/quotes.py``) on a real abstract.

The source is SciFact corpus document 45638119 (the ALDH breast stem cell
abstract, training split); quotes are its own sentences, typeset as a PDF
would give them, or altered by one documented edit.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from citeproof.detectors import DOWNGRADING_TAGS, run_detectors_text
from citeproof.detectors.quotes import detect_borrowed_wording, detect_misquotation, quotations
from citeproof.text.grounding import Alignment, align, normalise, word_diff

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
pytestmark = pytest.mark.skipif(not (DATA / "scifact" / "corpus.jsonl").exists(), reason="../shared/data/scifact is absent")

SENT = ("Utilizing in vitro and in vivo experimental systems, we show that normal and cancer human mammary epithelial "
        "cells with increased aldehyde dehydrogenase activity (ALDH) have stem/progenitor properties.")


@lru_cache(maxsize=1)
def abstract() -> str:
    with open(DATA / "scifact" / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["doc_id"] == 45638119:
                return " ".join(d["abstract"])
    raise AssertionError("doc 45638119 missing")


class TestAlign:
    def test_exact_quote_found_at_its_offsets(self):
        src = abstract()
        quote = "normal and cancer human mammary epithelial cells with increased aldehyde dehydrogenase activity"
        a = align(quote, src)
        assert isinstance(a, Alignment)
        assert src[a.start:a.end] == quote
        assert (a.coverage, a.density, a.score) == (1.0, 1.0, 100.0)
        assert a.exact

    def test_typesetting_does_not_count(self):
        """A PDF's line-end hyphen, curly quotes and capitals fold away; offsets point into the original text."""
        src = abstract().replace("dehydrogenase activity", "dehydro-\ngenase activity")
        a = align("Cells with increased aldehyde dehydrogenase activity (ALDH) have stem/progenitor properties", src)
        assert a.score == 100.0
        assert src[a.start:a.end].startswith("cells with increased aldehyde dehydro-\ngenase")

    def test_changed_word_is_named(self):
        src = abstract()
        quote = "cells with decreased aldehyde dehydrogenase activity (ALDH) have stem/progenitor properties"
        a = align(quote, src)
        assert a.coverage == pytest.approx(10 / 11, abs=1e-3)
        assert 80 < a.score < 100
        ops = word_diff(quote, src[a.start:a.end])
        assert [(o.op, o.quote, o.source) for o in ops] == [("replace", "decreased", "increased")]
        assert str(ops[0]) == "quote has \u201cdecreased\u201d where the source has \u201cincreased\u201d"

    def test_absent_quote_scores_low(self):
        a = align("the galaxy rotation curves flatten at large radii", abstract())
        assert a.coverage < 0.3 and a.score < 60

    def test_empty_inputs(self):
        assert align("", abstract()) == Alignment(0, 0, 0.0, 0.0, 0.0)
        assert align("anything at all", "") == Alignment(0, 0, 0.0, 0.0, 0.0)

    def test_normalise_keeps_offsets(self):
        text = "An \u201cex-\nample\u201d  here"
        folded, idx = normalise(text)
        assert folded == 'an "example" here'
        assert text[idx[folded.index("here")]:].startswith("here")


class TestMisquotation:
    def test_verbatim_quote_passes(self):
        raw = f"The authors report that \u201c{SENT[:-1]}\u201d [@ginestier2007]."
        assert detect_misquotation(raw, None, raw_claim=raw, source_text=abstract()) == []

    def test_altered_quote_is_tagged_with_its_diff(self):
        raw = ("The authors report that \u201cnormal and cancer human mammary epithelial cells with reduced aldehyde "
               "dehydrogenase activity (ALDH) have stem/progenitor properties\u201d [@ginestier2007].")
        tags = detect_misquotation(raw, None, raw_claim=raw, source_text=abstract())
        assert [t.name for t in tags] == ["misquotation"]
        assert "quote has \u201creduced\u201d where the source has \u201cincreased\u201d" in tags[0].message
        assert tags[0].confidence == 0.85 and "misquotation" in DOWNGRADING_TAGS

    def test_quote_not_in_source(self):
        raw = "They concluded that \u201cALDH is dispensable for every mammary stem cell function\u201d [@ginestier2007]."
        tags = detect_misquotation(raw, None, raw_claim=raw, source_text=abstract())
        assert [(t.name, t.confidence) for t in tags] == [("misquotation", 0.7)]
        assert "not in the source's words" in tags[0].message

    def test_ellipsis_joins_two_verbatim_pieces(self):
        raw = ("They \u201cshow that normal and cancer human mammary epithelial cells [...] have stem/progenitor "
               "properties\u201d [@ginestier2007].")
        assert detect_misquotation(raw, None, raw_claim=raw, source_text=abstract()) == []

    def test_scare_quotes_are_not_quotations(self):
        assert quotations('so-called "stem cells" and \u201ccancer stem cells\u201d [@k]') == []


class TestBorrowedWording:
    def test_unquoted_copy_is_tagged(self):
        raw = f"{SENT} [@ginestier2007]"
        tags = detect_borrowed_wording(raw, None, raw_claim=raw, source_text=abstract())
        assert [t.name for t in tags] == ["borrowed_wording"]
        assert tags[0].message.startswith("28 consecutive words")  # word tokens: stem/progenitor is two
        assert "borrowed_wording" not in DOWNGRADING_TAGS

    def test_paraphrase_and_quoted_copy_are_not(self):
        para = ("Mammary cells with high ALDH activity, normal or malignant, behave as stem or progenitor cells in "
                "culture and in mice [@ginestier2007].")
        assert detect_borrowed_wording(para, None, raw_claim=para, source_text=abstract()) == []
        quoted = f"\u201c{SENT}\u201d [@ginestier2007]"
        assert detect_borrowed_wording(quoted, None, raw_claim=quoted, source_text=abstract()) == []

    def test_reported_through_run_detectors_text(self):
        raw = f"{SENT} [@ginestier2007]"
        names = [t.name for t in run_detectors_text(SENT, SENT, source_text=abstract(), raw_claim=raw, citekey="ginestier2007")]
        assert "borrowed_wording" in names and "misquotation" not in names


# --- one aligner for the quotation detectors and the LLM tier (issue 13) ----------------------------

_FUNDS = ("Methods. We surveyed 412 mutual funds. The survey found that the expense ratios of equity mutual funds "
          "declined by about 40 percent between 2000 and 2020, while bond fund ratios were \ufb02at. Ef-\nficiency gains "
          "were largest for index funds, whose ratios fell the most. Other results follow.")


def test_align_finds_all_words_of_a_reordered_quote():
    """A quote with its clauses swapped: the character window alone finds 3/4 of its words, the word window all."""
    from citeproof.text.grounding import grounded

    q = "between 2000 and 2020 the expense ratios of equity mutual funds declined by about 40 percent"
    a = align(q, _FUNDS)
    assert _FUNDS[a.start : a.end] == "the expense ratios of equity mutual funds declined by about 40 percent between 2000 and 2020"
    assert (a.coverage, a.density) == (1.0, 1.0) and a.score < 100
    assert grounded(a)


def test_llm_quotes_are_folded_like_quotations():
    """An LLM's plain-typed quote grounds against a ligature and a line-end hyphenation in the PDF text."""
    from citeproof.text.grounding import grounded

    a = align("efficiency gains were largest for index funds", _FUNDS)
    assert _FUNDS[a.start : a.end] == "Ef-\nficiency gains were largest for index funds" and a.exact and grounded(a)
    b = align("bond fund ratios were flat", _FUNDS)
    assert _FUNDS[b.start : b.end] == "bond fund ratios were \ufb02at" and b.exact
    c = align("bond funds became far more expensive after 2010", _FUNDS)
    assert not grounded(c)


def test_words_fast_path_equals_the_offset_mapped_normalise():
    """grounding.words folds the whole string at once; it must give the tokens normalise() gives (issue 17 speed-up)."""
    import random

    from citeproof.text.grounding import _WORD_RE, normalise, words

    rng = random.Random(3)
    alphabet = "ab Z-\n\t\u2010\u2013\u2019'\"3_\u03a3\u03c3\u00e7\u00c5.,\ufb01\ufb02\u00a0"
    texts = ["inter-\n  val and ex-\nample", "x -\nnot joined", "3-\n4 stays", "\u2018Quoted\u2019 \ufb01ne \u2014 dash"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(2000)]
    for t in texts:
        assert words(t) == _WORD_RE.findall(normalise(t)[0]), repr(t)
    assert words("inter-\n  val") == ["interval"]
