"""A source's own citation metadata, each field with the quote it was read from (issue 19, part 5).

What the cited file itself says it is, in CSL-JSON field names:

``title``
    a saved page's ``citation_title``/``dc.title``/``og:title`` meta tag,
    else its ``<title>``; a PDF's metadata title (unless it is a file name
    such as "Microsoft Word - draft.docx"), else the largest text in the top
    half of page 1 (:func:`~citeproof.sources.identity.source_identity`).
``author``
    a page's ``citation_author`` (or ``author``/``dc.creator``) tags; a PDF's
    metadata author.
``issued``
    a page's ``citation_publication_date``/``citation_date``/``dc.date``/
    ``article:published_time``; on page 1 of a PDF, the year of a
    "Published", "©"/"Copyright" or "Accepted" line.
``DOI``
    a page's ``citation_doi``/``dc.identifier``; a PDF's metadata (subject,
    keywords) or a ``doi`` on page 1.
``container-title``
    a page's ``citation_journal_title`` (or ``citation_conference_title``).

Each field is ``{"value", "quote", "page", "line", "from"}``: the text it
was read from (the meta tag, the line of page 1), the page (from 1) or the
line (of a page's HTML), and which of the above it was.

:func:`compare` sets them against the bibliography entry; a difference is a
``metadata_mismatch`` on the findings citing that source, as the online
check reports one against the services' record. Rules: DOIs differ when both
exist and differ after normalising; titles when the rapidfuzz score
(:func:`~citeproof.sources.identity.title_score`) is below
:data:`~citeproof.sources.titles.TITLE_MISFIT`; years when more than
one apart (a work's online-first and issue years often differ by one); the
first author when the source names authors and none of them is the entry's
first author.
"""

from __future__ import annotations

import html as _html
import re

from citeproof.model import Passage, Reference

__all__ = ["html_metadata", "pdf_metadata_fields", "compare"]

_META = re.compile(r"<meta\b[^>]*>", re.I | re.S)
_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.S)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_TAGS = {
    "title": ("citation_title", "dc.title", "og:title"),
    "author": ("citation_author", "dc.creator", "author"),
    "issued": ("citation_publication_date", "citation_date", "citation_online_date", "dc.date", "article:published_time"),
    "DOI": ("citation_doi", "dc.identifier", "prism.doi"),
    "container-title": ("citation_journal_title", "citation_conference_title", "prism.publicationname"),
}
_PUBLISHED = re.compile(r"(?i)\b(?:published(?: online)?|©|\(c\)|copyright|accepted)\b[^.\n]{0,40}?\b((?:19|20)\d\d)\b")
_FILE_TITLE = re.compile(r"(?i)microsoft word|untitled|\.(?:docx?|tex|pdf)$|^\s*$")


def html_metadata(html: str) -> dict[str, dict]:
    """The citation metadata a saved page's ``<meta>`` tags (and ``<title>``) give, with the tag as the quote.

    Args:
        html: the page's text.

    Returns:
        CSL field -> ``{"value", "quote", "page": None, "line", "from"}``;
        ``author`` holds every author (``value`` joined by ``; ``). Values are
        entity-decoded (``M&uuml;ller`` gives ``Müller``, ``&#233;`` gives ``é``:
        :func:`html.unescape`, the HTML5 named references); ``quote`` is the tag as written.
    """
    out: dict[str, dict] = {}
    authors: list[tuple[str, str, int]] = []
    for m in _META.finditer(html[:200_000]):
        attrs = {a.group(1).lower(): (a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None else a.group(4)) for a in _ATTR.finditer(m.group(0))}
        name = (attrs.get("name") or attrs.get("property") or "").lower()
        value = re.sub(r"\s+", " ", _html.unescape(attrs.get("content") or "")).strip()  # M&uuml;ller is Müller
        if not name or not value:
            continue
        line = html.count("\n", 0, m.start()) + 1
        quote = re.sub(r"\s+", " ", m.group(0))[:300]
        for fld, names in _TAGS.items():
            if name not in names:
                continue
            if fld == "author":
                authors.append((value, quote, line))
            elif fld == "DOI":
                d = _DOI.search(value)
                if d and "DOI" not in out:
                    out["DOI"] = {"value": d.group(1).rstrip(".,;").lower(), "quote": quote, "page": None, "line": line, "from": f"meta tag {name}"}
            elif fld == "issued":
                y = _YEAR.search(value)
                if y and "issued" not in out:
                    out["issued"] = {"value": y.group(1), "quote": quote, "page": None, "line": line, "from": f"meta tag {name}"}
            elif fld not in out or names.index(name) < names.index(out[fld]["from"].split()[-1]):
                out[fld] = {"value": value, "quote": quote, "page": None, "line": line, "from": f"meta tag {name}"}
    if authors:
        out["author"] = {"value": "; ".join(a for a, _, _ in authors), "quote": authors[0][1], "page": None, "line": authors[0][2], "from": "meta tags citation_author"}
    if "title" not in out:
        t = re.search(r"<title[^>]*>(.*?)</title>", html[:200_000], re.I | re.S)
        if t and t.group(1).strip():
            value = re.sub(r"\s+", " ", _html.unescape(re.sub(r"<[^>]*>", " ", t.group(1)))).strip()
            out["title"] = {"value": value, "quote": t.group(0)[:300], "page": None, "line": html.count("\n", 0, t.start()) + 1, "from": "<title>"}
    return out


def pdf_metadata_fields(meta: dict, identity: dict, passages: list[Passage]) -> dict[str, dict]:
    """A PDF's citation metadata from its metadata dictionary and page 1.

    Args:
        meta: the PDF's metadata (PyMuPDF ``doc.metadata``: ``title``,
            ``author``, ``subject``, ``keywords``).
        identity: :func:`~citeproof.sources.identity.source_identity` of the
            file (its ``title``: the metadata title or page 1's largest text).
        passages: the parsed passages (page 1's are searched).

    Returns:
        CSL field -> ``{"value", "quote", "page", "line": None, "from"}``.
    """
    out: dict[str, dict] = {}
    first = [p for p in passages if p.page == 1]
    title = (meta.get("title") or "").strip()
    if title and not _FILE_TITLE.search(title):
        out["title"] = {"value": title, "quote": f"Title: {title}"[:300], "page": None, "line": None, "from": "PDF metadata"}
    elif identity.get("title"):
        t = identity["title"]
        hit = next((p for p in first if t[:40] in p.text), None)
        out["title"] = {"value": t, "quote": (hit.text if hit else t)[:300], "page": 1, "line": None, "from": "largest text on page 1"}
    author = (meta.get("author") or "").strip()
    if author and not _FILE_TITLE.search(author) and re.search(r"[A-Za-z\u00c0-\u024f]{2}", author):
        out["author"] = {"value": author, "quote": f"Author: {author}"[:300], "page": None, "line": None, "from": "PDF metadata"}
    for key in ("subject", "keywords"):
        d = _DOI.search(meta.get(key) or "")
        if d:
            out["DOI"] = {"value": d.group(1).rstrip(".,;)").lower(), "quote": f"{key.title()}: {meta[key]}"[:300], "page": None, "line": None, "from": "PDF metadata"}
            break
    for p in first:
        if "DOI" not in out:
            d = re.search(r"(?i)(?:\bdoi\b[:\s]*|doi\.org/)(10\.\d{4,9}/[^\s\"<>]+)", p.text)
            if d:
                out["DOI"] = {"value": d.group(1).rstrip(".,;)").lower(), "quote": _around(p.text, d.start(), d.end()), "page": 1, "line": None, "from": "page 1"}
        if "issued" not in out:
            y = _PUBLISHED.search(p.text)
            if y:
                out["issued"] = {"value": y.group(1), "quote": _around(p.text, y.start(), y.end()), "page": 1, "line": None, "from": "page 1"}
    return out


def _around(text: str, start: int, end: int, pad: int = 60) -> str:
    a, b = max(0, start - pad), min(len(text), end + pad)
    return ("…" if a else "") + text[a:b].strip() + ("…" if b < len(text) else "")


def compare(ref: Reference, fields: dict[str, dict]) -> list[str]:
    """Where the source's own metadata contradict the bibliography entry (module docstring's rules).

    Returns:
        Sentences such as ``DOI: 10.1/a in the entry, 10.1/b in the source
        (page 1: "…doi:10.1/b…")``; empty when nothing contradicts.
    """
    from citeproof.bibliography import normalise_doi
    from citeproof.sources.titles import TITLE_MISFIT, authors_agree, title_score

    def said(f: dict) -> str:
        where = f"page {f['page']}" if f.get("page") else f"line {f['line']}" if f.get("line") else f["from"]
        return f"({where}: \"{f['quote'][:160]}\")"

    out: list[str] = []
    d = fields.get("DOI")
    if ref.doi and d and not re.match(r"^10/", normalise_doi(ref.doi)) and normalise_doi(ref.doi) != normalise_doi(d["value"]):  # a shortDOI (10/gddkhn) names no DOI to compare
        out.append(f"DOI: {ref.doi} in the entry, {d['value']} in the source {said(d)}")
    t = fields.get("title")
    if len(ref.title) >= 8 and t and len(t["value"]) >= 8 and title_score(ref.title, t["value"]) < TITLE_MISFIT:  # a title of a few letters says too little
        out.append(f"title: {ref.title!r} in the entry, {t['value']!r} in the source {said(t)}")
    y = fields.get("issued")
    if ref.year[:4].isdigit() and y and abs(int(ref.year[:4]) - int(y["value"])) > 1:
        out.append(f"year: {ref.year[:4]} in the entry, {y['value']} in the source {said(y)}")
    a = fields.get("author")
    if a and authors_agree(ref, a["value"]) is False:
        first = next(x for x in ref.authors if x and x != "et al.")
        out.append(f"author: first author {first.split(',')[0]!r} in the entry is not among the source's authors {said(a)}")
    return out
