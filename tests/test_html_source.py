"""HTML sources: only the page's main text is evidence (issue 10, "HTML sources"); own fixtures."""

from __future__ import annotations

from citeproof.sources.text import parse_html

# Shaped like a publisher's full-text page built of <div>s (no <main>/<article>), with a left menu,
# a "People also read" box, a cookie dialog, a share bar, a footer and inline scripts.
DIV_PAGE = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>Glacier retreat exposes new habitat for alpine plants | Nature Plants</title>
<script type="application/ld+json">{"@type": "ScholarlyArticle", "headline": "Glacier retreat exposes new habitat"}</script>
</head>
<body>
<div class="c-cookie-dialog" role="dialog"><p>Your privacy, your choice. We use essential cookies to make sure the site can function. We also use optional cookies for advertising, personalisation of content, usage analysis and social media.</p><button>Accept all cookies</button></div>
<div class="c-header"><ul class="c-menu"><li><a href="/subjects">Browse subjects</a></li><li><a href="/about">About the journal</a></li><li><a href="/publish">Publish with us</a></li></ul></div>
<div class="c-article-body" id="content">
<h1 class="c-article-title">Glacier retreat exposes new habitat for alpine plants</h1>
<div class="c-article-section" id="Abs1-section">
<h2>Abstract</h2>
<div class="c-article-section__content"><p>Glaciers in the European Alps lost a third of their area between 1990 and 2020.
We surveyed 46 glacier forelands and found that pioneer plants colonised newly exposed ground within eight years on average.</p></div>
</div>
<div class="c-article-section" id="Sec2-section">
<h2>Results</h2>
<div class="c-article-section__content"><p>Species richness rose with time since deglaciation and levelled off after roughly 80 years.</p>
<table><tr><th>Site</th><th>Species</th></tr><tr><td>Morteratsch</td><td>31</td></tr></table></div>
</div>
</div>
<div class="c-article-share-box"><p>Share this article: anyone you share the following link with will be able to read this content.</p></div>
<aside class="c-reading-companion"><h3>People also read</h3><ul>
<li><a href="/x1">Glacier retreat triples the number of alpine plant species within a decade</a></li>
<li><a href="/x2">Alpine meadows will vanish by 2050 under every warming scenario</a></li></ul></aside>
<footer class="c-footer"><p>Nature Plants (Nat. Plants) ISSN 2055-0278. © 2024 Springer Nature Limited. Cookies. Accessibility statement.</p></footer>
<script>dataLayer.push({"event": "pageview"});</script>
</body>
</html>
"""


def test_only_main_text_becomes_passages():
    passages, full = parse_html(DIV_PAGE)
    texts = [p.text for p in passages]
    assert "Glacier retreat exposes new habitat for alpine plants" == texts[0]
    assert any(t.startswith("Glaciers in the European Alps lost a third of their area") and "within eight years on average" in t for t in texts)
    assert any("levelled off after roughly 80 years" in t for t in texts)
    for chrome in ("cookies", "Browse subjects", "Share this article", "People also read", "triples the number", "vanish by 2050", "ISSN", "dataLayer", "ScholarlyArticle"):
        assert chrome not in full, chrome


def test_passages_keep_their_line_and_section():
    passages, full = parse_html(DIV_PAGE)
    lines = DIV_PAGE.splitlines()
    for p in passages:
        assert p.text.split()[0] in lines[p.line - 1], (p.line, p.text)
        assert full[p.char_start:p.char_end] == p.text
    result = next(p for p in passages if "levelled off" in p.text)
    assert ("results", 1 + next(i for i, ln in enumerate(lines) if "Species richness rose" in ln)) == (result.section, result.line)


def test_xhtml_with_an_xml_declaration_is_read():
    """lxml refuses a decoded string that declares its encoding; the declaration must not empty the page."""
    page = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>\n'
            "<article><p>Moss cover halved the evaporation from bare peat in the two dry summers we measured.</p></article>\n</body></html>\n")
    passages, _ = parse_html(page)
    assert [(4, "Moss cover halved the evaporation from bare peat in the two dry summers we measured.")] == [(p.line, p.text) for p in passages]


def test_page_without_main_text_gives_no_passages():
    page = "<html><body><nav><ul><li><a href='/'>Home</a></li><li><a href='/login'>Log in</a></li></ul></nav><script>var x = 1;</script></body></html>"
    assert ([], "") == parse_html(page)
