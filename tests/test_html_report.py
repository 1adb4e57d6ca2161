"""The HTML report (issue 6): self-contained, complete, highlighted, linked, accessible."""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from citeproof.reports import WRITERS, get_writer
from citeproof.reports.html import HtmlWriter, highlight_segments, relative_href, render_html
from citeproof.text.normalise import terms
from report_samples import DEMO_BIB, DEMO_DOC, ROOT, shared_cache, small_report


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _parse(html: str) -> list[tuple[str, dict]]:
    p = _Collect()
    p.feed(html)
    return p.tags


class TestHighlight:
    def test_pieces_join_back(self):
        """Joining the segments gives back the passage exactly."""
        text = "Open-source tools, e.g. GitHub, helped 68.9% of labs."
        segs = highlight_segments(text, terms("open source github labs 68.9%"))
        assert text == "".join(s for s, _ in segs)

    def test_marks_words_by_stem(self):
        """A word is marked when its stem is a matched term; stopwords and others are not."""
        segs = highlight_segments("The servers served many requests.", ("server",))
        assert [("servers", True)] == [s for s in segs if s[1]]

    def test_ligature_damage_still_matches(self):
        """'diìcult' (a damaged ligature in a PDF) is marked for the term of 'difficult'."""
        segs = highlight_segments("a diìcult result", tuple(terms("difficult")))
        assert [("diìcult", True)] == [s for s in segs if s[1]]

    def test_no_terms_no_marks(self):
        """Without matched terms the passage is one unmarked segment."""
        assert [("some text", False)] == highlight_segments("some text", ())


def test_relative_href(tmp_path):
    """Source links are relative to the report's folder, quoted, with #page=N."""
    out = tmp_path / "out"
    assert "../cited/a%20b.pdf#page=3" == relative_href(str(tmp_path / "cited" / "a b.pdf"), out, 3)
    assert relative_href(None, out, 3) is None


def test_registered():
    """`html` is a registered writer with the .html suffix."""
    assert WRITERS["html"] is HtmlWriter
    assert ".html" == get_writer("html").suffix


class TestSmallReport:
    @pytest.fixture()
    def html(self, tmp_path):
        return render_html(small_report(tmp_path), out_dir=tmp_path / "out")

    def test_every_finding_once_worst_first(self, html):
        """Each finding is an article, in the report's order, with its verdict."""
        verdicts = re.findall(r'<article class="finding"[^>]*data-verdict="(\w+)"', html)
        assert ["unverifiable", "contradicted", "unverifiable", "supported"] == verdicts

    def test_escapes_markup(self, html):
        """Claim text is escaped: a <script> in a claim never becomes markup."""
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html

    def test_self_contained(self, html):
        """No external stylesheet, script, font or image: it works from file:// offline."""
        tags = _parse(html)
        assert not [t for t, a in tags if t == "link"]
        assert not [a for t, a in tags if t in ("script", "img", "iframe") and a.get("src")]
        assert "@import" not in html and "url(" not in html

    def test_page_link_and_highlight(self, html):
        """The evidence links to the PDF page relative to the report, matched words marked."""
        assert 'href="../cited/a%20b.pdf#page=7"' in html
        assert "<mark>Mortality</mark>" in html and "<mark>treated</mark>" in html
        assert "<mark>difficult</mark>" not in html

    def test_tags_reasons_confidence_tier(self, html):
        """Tags show their spans; reasons, tier and confidence are there."""
        assert "number_drift" in html and "“75%”" in html and "“68.9%”" in html
        assert "the numbers differ" in html
        assert "tier lexical" in html and "confidence 0.80" in html
        assert "unknown citekey" in html

    def test_readable_without_js(self, html):
        """The filter form starts hidden (JS reveals it); all findings are plain HTML."""
        assert re.search(r'<form id="controls"[^>]*\shidden', html)
        assert 4 == html.count('<article class="finding"')

    def test_form_controls_have_labels(self, html):
        """Every select and input has a <label for=...>; the page declares its language."""
        tags = _parse(html)
        ids = {a["id"] for t, a in tags if t in ("select", "input")}
        labelled = {a.get("for") for t, a in tags if t == "label"}
        assert ids and ids <= labelled
        assert ("html", {"lang": "en"}) in tags

    def test_filter_options(self, html):
        """Filters offer the verdicts with counts, the tags, the citekeys and the sources."""
        assert '<option value="contradicted">contradicted (1)</option>' in html
        assert '<option value="number_drift">number_drift</option>' in html
        assert '<option value="ghost">ghost</option>' in html


def test_demo_report_via_cli(tmp_path):
    """`check --format html` on the demo writes a page holding every finding, links resolving to files."""
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, "-m", "citeproof.cli", "check", str(DEMO_DOC.relative_to(ROOT)), "--bib", str(DEMO_BIB.relative_to(ROOT)),
         "--out", str(out), "--format", "html,json", "--cache-dir", str(shared_cache()), "-q"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert 0 == r.returncode, r.stderr
    import json

    data = json.loads((out / "meta-review.citeproof.json").read_text())
    html = (out / "meta-review.citeproof.html").read_text()
    assert len(data["findings"]) == html.count('<article class="finding"')
    hrefs = set(re.findall(r'class="source-link" href="([^"]+)"', html))
    assert hrefs
    for h in hrefs:
        target = (out / unquote(h.split("#")[0])).resolve()
        assert target.is_file(), h
    pages = {f["evidence"]["page"] for f in data["findings"] if f["evidence"] and f["evidence"]["page"]}
    assert {int(p) for p in re.findall(r'class="source-link" href="[^"#]+#page=(\d+)"', html)} == pages  # the best passages' pages
    alt_pages = {int(p) for p in re.findall(r'class="alt-link" href="[^"#]+#page=(\d+)"', html)}
    assert alt_pages and alt_pages - pages  # the next candidates link their own pages
