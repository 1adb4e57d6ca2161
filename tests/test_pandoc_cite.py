"""Pandoc citation syntax: our scanner against hand-written cases and against pandoc itself."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest
from fuzz_targets import pandoc_cite_keys

from citeproof.model import CitationMode
from citeproof.readers.markdown import MarkdownReader
from citeproof.readers.pandoc_cite import is_crossref, normalise_signal, parse_locator

from conftest import SAMPLE


def cites(md: str):
    return [c for cl in MarkdownReader().read_string(md) for c in cl.citations]


class TestSyntax:
    def test_bracketed_group_with_prefix_locator_suffix(self):
        """[see @a, p. 33; also @b, ch. 1] gives two citations with their parts."""
        a, b = cites("A claim holds here [see @a, p. 33; also @b, ch. 1].\n")
        assert ("a", "see", "page", "33") == (a.citekey, a.prefix, a.locator.label, a.locator.value)
        assert ("b", "also", "chapter", "1") == (b.citekey, b.prefix, b.locator.label, b.locator.value)
        assert ("see", "see also") == (a.signal, b.signal)
        assert (0, 2, 1, 2) == (a.group_index, a.group_size, b.group_index, b.group_size)

    def test_modes(self):
        got = cites("Smith says so @smith [p. 4]. Also [-@jones]. And [@lee].\n")
        assert [("smith", CitationMode.NARRATIVE), ("jones", CitationMode.SUPPRESS_AUTHOR), ("lee", CitationMode.PARENTHETICAL)] == [
            (c.citekey, c.mode) for c in got
        ]
        assert "4" == got[0].locator.value

    def test_keys_with_inner_punctuation_and_braces(self):
        got = cites("One [@doi:10.1098/rsif.2017.0387]. Two [@doi:10/gddkhn]. Three @{foo_bar.baz.}.\n")
        assert ["doi:10.1098/rsif.2017.0387", "doi:10/gddkhn", "foo_bar.baz."] == [c.citekey for c in got]

    def test_trailing_period_not_in_key(self):
        assert ["Foo_bar.baz"] == [c.citekey for c in cites("As said by @Foo_bar.baz.\n")]

    def test_not_citations(self):
        md = (
            "Write to me@example.org or <a@b.org>.\n\n"
            "Code `x = [@notakey]` here.\n\n"
            "```\n[@incode]\n```\n\n"
            "<div data-x=\"@attr\"></div>\n\n"
            "See Figure @fig:one and Table @tbl:two and Eq. @eq:3 and @sec:intro.\n"
        )
        assert [] == cites(md)

    def test_footnote_bodies_are_read(self):
        md = "Main text.[^1]\n\n[^1]: A note citing [@foot].\n"
        got = MarkdownReader().read_string(md)
        assert ["foot"] == [c.citekey for cl in got for c in cl.citations]
        assert "footnote" == got[0].kind.value

    def test_link_text_and_targets(self):
        got = cites("See [the repo](https://github.com/x/y@abc) and [text](https://a.org) [@real].\n")
        assert ["real"] == [c.citekey for c in got]


class TestLocator:
    @pytest.mark.parametrize(
        "suffix,label,value,rest",
        [
            (", p. 33", "page", "33", ""),
            (", pp. 33-35 and passim", "page", "33-35", "and passim"),
            (", 33", "page", "33", ""),
            (", ch. 1", "chapter", "1", ""),
            (", sec. 2.3", "section", "2.3", ""),
            (", fig. 4", "figure", "4", ""),
            (", {vol. 3}", "volume", "3", ""),
        ],
    )
    def test_parse(self, suffix, label, value, rest):
        loc, r = parse_locator(suffix)
        assert (label, value, rest) == (loc.label, loc.value, r)

    def test_no_locator_keeps_suffix(self):
        assert (None, "and elsewhere") == parse_locator(", and elsewhere")

    def test_pages(self):
        loc, _ = parse_locator(", pp. 33-35")
        assert [33, 34, 35] == loc.pages()
        loc, _ = parse_locator(", pp. 123-5")
        assert [123, 124, 125] == loc.pages()


def test_signals():
    assert ["see", "cf.", "see e.g.", "but see", None] == [
        normalise_signal(p) for p in ("see", "cf.", "see, e.g.,", "but see", "as shown by")
    ]


def test_crossref():
    assert is_crossref("fig:workflow") and is_crossref("tbl:x") and not is_crossref("doi:10.1/x")


def _pandoc_keys(path) -> list[str]:
    """Citekeys of pandoc's Cite elements, figure alt text counted once, crossrefs aside."""
    pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (the pandoc oracle) is not installed")
    doc = json.loads(pypandoc.convert_file(str(path), "json", format="markdown"))
    return pandoc_cite_keys(doc)


def test_sample_keys_equal_pandoc_cites():
    """The oracle: every Cite pandoc finds in the real sample, and no other, in the same multiset."""
    path = SAMPLE / "citing" / "meta-review.md"
    ours = [c.citekey for cl in MarkdownReader().read(path) for c in cl.citations]
    theirs = _pandoc_keys(path)
    assert 125 == len(theirs)
    assert Counter(theirs) == Counter(ours)


def test_syntax_fixture_equals_pandoc(tmp_path):
    md = tmp_path / "forms.md"
    md.write_text(
        "# Intro [@head]\n\n"
        "Plain [@a] and compound [@b; @c]. With parts [see @d, p. 33; also @e, ch. 1].\n"
        "Suppressed [-@f]. In-text @g says and @h [p. 3] too.\n"
        "Keys: [@doi:10.1098/rsif.2017.0387], [@doi:10/gddkhn], [@url:https://x.org/a_b].\n"
        "Mail me@x.org; code `@no`; crossref @fig:a.\n\n"
        "| col | ref |\n|---|---|\n| row one | [@i] |\n\n"
        "- item with [@j]\n- other @k\n\n"
        "Note.[^n]\n\n[^n]: Footnote [@l].\n",
        encoding="utf-8",
    )
    ours = [c.citekey for cl in MarkdownReader().read(md) for c in cl.citations]
    assert Counter(_pandoc_keys(md)) == Counter(ours)
    assert "head" in ours and "l" in ours


def test_pandoc_binary_present():
    """CI installs pypandoc-binary: the oracle tests above must not silently skip there."""
    import os

    if os.environ.get("CI") != "true":
        pytest.skip("only enforced in CI")
    import pypandoc

    assert pypandoc.get_pandoc_version()
    assert shutil.which("python3")
