"""Reference-entry parsing and matching references to local source files."""

from __future__ import annotations

from citeproof.bibliography.pdf_refs import RefLine, author_year_label, parse_reference, segment_references
from citeproof.model import Reference
from citeproof.sources import SourceResolver, title_score
from citeproof.sources.cache import Cache


def _lines(*texts, x=50.0, indent=()):
    return [RefLine(t, 1, (x + (10 if i in indent else 0), 100 + 12 * i, 300, 110 + 12 * i)) for i, t in enumerate(texts)]


class TestSegment:
    def test_numbered_needs_the_next_number(self):
        """A line starting ``2012.`` or ``3.`` out of sequence continues the entry."""
        entries, style = segment_references(_lines("[1] A. B. Title one. In X,", "2012. 3, 4", "[2] C. D. Title two.", "[4] not next", "[3] E. F. Three."))
        assert "numbered" == style
        assert ["1", "2", "3"] == [e.label for e in entries]
        assert "A. B. Title one. In X, 2012." == entries[0].text  # back-references dropped
        assert "C. D. Title two. [4] not next" == entries[1].text

    def test_author_year_hanging_indent(self):
        """Entries start at the left edge; indented lines continue them."""
        entries, style = segment_references(
            _lines("Smith, J., & Lee, K. 2020, ApJ,", "12, 3", "Lee, K. 2018, AJ, 1, 2", "Zed, A. 2001, in Proc.", "Big Book", indent=(1, 4))
        )
        assert "author-year" == style
        assert ["Smith, J., & Lee, K. 2020, ApJ, 12, 3", "Lee, K. 2018, AJ, 1, 2", "Zed, A. 2001, in Proc. Big Book"] == [e.text for e in entries]


class TestParse:
    def test_cv_style(self):
        """Authors. Title. In Venue, year."""
        r = parse_reference("A. Krizhevsky, I. Sutskever, and G. Hinton. ImageNet classification with deep convolutional neural networks. In NIPS, 2012.")
        assert (("Krizhevsky", "Sutskever", "Hinton"), "ImageNet classification with deep convolutional neural networks", "NIPS", "2012") == (r.authors, r.title, r.container, r.year)

    def test_physics_style_and_ids(self):
        """Authors, Title, Journal vol, page (year), arXiv id; DOIs lower-cased."""
        r = parse_reference("R. N. Cahn and J. D. Jackson, Spin orbit forces in heavy quark mesons, Phys. Rev. D68, 037502 (2003), arXiv:hep-ph/0305012 [hep-ph].")
        assert (("Cahn", "Jackson"), "Spin orbit forces in heavy quark mesons", "2003", "hep-ph/0305012") == (r.authors, r.title, r.year, r.arxiv)
        r = parse_reference("M. He, “Heavy-Quark Diffusion,” arXiv:2204.09299 2022. doi:10.1234/ABC.5.")
        assert ("Heavy-Quark Diffusion", "2204.09299", "10.1234/abc.5") == (r.title, r.arxiv, r.doi)

    def test_author_year_label(self):
        """One, two and three-plus authors give ``A 2020``, ``A and B 2020``, ``A et al. 2020``."""
        assert "Lee 2018" == author_year_label(parse_reference("Lee, K. 2018, AJ, 1, 2", style="author-year"))
        assert "Fowler and Chillemi 1992" == author_year_label(parse_reference("Fowler, J. W., & Chillemi, J. R. 1992. IRAS data. In Survey", style="author-year"))
        assert "Mommert et al. 2014a" == author_year_label(parse_reference("Mommert, M., Hora, J. L., Farnocchia, D., et al. 2014a, ApJ, 786, 148", style="author-year"))


class TestMatching:
    def test_title_score_survives_ligatures_and_case(self):
        """"ﬁ" ligatures and case do not lower the score; an unrelated title scores low."""
        assert 100.0 == title_score("Efficient object detection", "Eﬃcient Object Detection")
        assert title_score("Efficient object detection", "A survey of graph kernels") < 60

    def test_arxiv_id_then_title_then_ambiguity(self, tmp_path):
        """A file named by its arXiv id matches by id; two files with one title are ambiguous and both named."""
        src = tmp_path / "src"
        src.mkdir()
        (src / "2301.05883.md").write_text("# Radiative corrections for electron scattering\n\nText.\n", encoding="utf-8")
        (src / "a.md").write_text("# Deep learning for cats\n\nSmith wrote this.\n", encoding="utf-8")
        (src / "b.md").write_text("# Deep Learning for Cats\n\nSmith again.\n", encoding="utf-8")
        (src / "c.md").write_text("# Graph kernels revisited at length\n\nBy Zed.\n", encoding="utf-8")
        res = SourceResolver([], [src], Cache(None))
        s = res.resolve("7", Reference(citekey="7", arxiv="2301.05883v2"))
        assert ("2301.05883.md", "--sources arXiv match (2301.05883v2)") == (s.path.split("/")[-1], s.origin)
        s = res.resolve("8", Reference(citekey="8", title="Graph kernels revisited at length", authors=("Zed",)))
        assert ("c.md", "--sources title match (score 100.0; the entry has no type, year or DOI to compare)") == (s.path.split("/")[-1], s.origin)
        s = res.resolve("9", Reference(citekey="9", title="Deep learning for cats", authors=("Smith",)))
        assert s.path is None
        assert "ambiguous" in s.error and "a.md (100)" in s.error and "b.md (100)" in s.error

    def test_title_match_needs_the_first_author(self, tmp_path):
        """Same title, but the file's first page never names the entry's first author: no match."""
        src = tmp_path / "src"
        src.mkdir()
        (src / "review.md").write_text("# Opportunities and obstacles for deep learning\n\nBy Ching and Himmelstein.\n", encoding="utf-8")
        res = SourceResolver([], [src], Cache(None))
        s = res.resolve("9", Reference(citekey="9", title="Opportunities and obstacles for deep learning", authors=("Blogger",)))
        assert s.path is None
        s = res.resolve("10", Reference(citekey="10", title="Opportunities and obstacles for deep learning", authors=("Ching",)))
        assert s.path.endswith("review.md")
