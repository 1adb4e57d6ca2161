"""JATS XML articles (PMC ``.nxml``, Europe PMC ``fullTextXML``, publishers' ``.xml``) -> passages with sections.

The one JATS reader: local files (a ``file`` field or ``--sources``) and the
online path's Europe PMC full text both come here.

What is read (JATS 1.x, NISO Z39.96; NLM 3.0 archiving articles alike):

* the first ``<abstract>`` that is not graphical or a teaser (section
  ``abstract``), then ``<body>``, then the back matter's ``<ack>``
  (section ``acknowledgements``) and ``<app>`` appendices; the reference
  list (``<ref-list>``), footnote groups and ``<sub-article>`` (peer review)
  are never passages;
* each ``<p>`` is one passage whose ``section`` is the lower-cased title of
  its top-level ``<sec>``; a table, figure, boxed text or display formula
  inside a ``<p>`` (PMC places them there) is kept out of the paragraph's
  text: a figure's or table's label and caption become one passage of
  section ``caption``, each table row one passage of section ``table``
  (``Table 2: cell | cell | cell``), table footnotes section ``caption``;
* ``title``: the article title of ``<front>``; ``metadata``: its title, DOI,
  year and authors with the XML line each came from
  (:mod:`citeproof.sources.metadata` shape).

Offsets index the returned full text; there are no pages (``page`` None) and
``line`` is the line (from 1) of the XML file where the passage's element
starts. Named HTML entities (``&nbsp;``, ``&ndash;``), which PMC files use
without their DTD, are read as their characters; no DTD or external entity
is ever loaded (lxml with ``resolve_entities=False``, ``no_network=True``).
"""

from __future__ import annotations

import html.entities
import re

from citeproof.model import Passage
from citeproof.sources.parsed import ParsedSource

__all__ = ["parse_jats", "parse_jats_source", "JATS_PARSER_VERSION", "JATS_TYPES", "looks_like_jats"]

JATS_PARSER_VERSION = "jats-2"
"""Bumped whenever passages would come out differently; part of the cache key."""

JATS_TYPES = {".nxml": "application/jats+xml", ".xml": "application/jats+xml"}
"""Suffix -> media type (an ``.xml`` that holds no ``<article>`` is an error saying so)."""

_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]{1,31});")
_KEPT_OUT = {"table-wrap", "table-wrap-group", "fig", "fig-group", "boxed-text", "disp-formula", "disp-formula-group",
             "supplementary-material", "code", "graphic", "media"}
_BACK = {"ack": "acknowledgements", "app": "appendix"}
_BLOCKISH = {"p", "title", "label", "caption", "list-item", "def-item", "td", "th", "tr", "sec", "attrib"}
_BARE_NUMBERS = re.compile(r"\d+(?:\s*[-–,]\s*\d+)*")


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _named_entities(data: bytes) -> bytes:
    """``&nbsp;`` -> ``&#160;`` for every HTML named entity (the five XML ones left alone)."""
    def rep(m: re.Match) -> bytes:
        name = m.group(1).decode("ascii")
        if name in _XML_ENTITIES or name not in html.entities.name2codepoint:
            return m.group(0)
        return b"&#%d;" % html.entities.name2codepoint[name]
    return _ENTITY.sub(rep, data)


def looks_like_jats(head: bytes) -> bool:
    """True when the first bytes of an XML file name a JATS/NLM DTD or open an ``<article>``."""
    h = head[:4000]
    return re.search(rb"JATS|NLM//DTD|<(?:\w+:)?article[\s>]", h) is not None


def _text(el, kept: list | None = None) -> str:
    """The text of ``el`` without the block elements of :data:`_KEPT_OUT` (appended to ``kept``) or MathML."""
    parts: list[str] = []

    def walk(e) -> None:
        if e.text and isinstance(e.tag, str):
            parts.append(e.text)
        for c in e:
            tag = _local(c.tag)
            if tag in _KEPT_OUT and kept is not None:
                kept.append(c)
            elif tag in ("math", "tex-math"):
                parts.append(" ")
            elif tag == "xref" and c.get("ref-type") in ("bibr", "fn") and _BARE_NUMBERS.fullmatch("".join(c.itertext()).strip() or "x"):
                before = "".join(parts).rstrip()[-1:]  # a superscript reference number: "arms1." would make one word of it
                parts.append("".join(c.itertext()).strip() if before and before in "[(,;–-" else " [" + "".join(c.itertext()).strip() + "]")
            elif tag and tag not in _KEPT_OUT:
                pad = " " if tag in _BLOCKISH else ""
                parts.append(pad)
                walk(c)
                parts.append(pad)
            if c.tail:
                parts.append(c.tail)
    walk(el)
    return _squash("".join(parts))


def _child(el, name: str):
    return next((c for c in el if _local(c.tag) == name), None)


def _table_units(tw, units: list) -> None:
    label_el = _child(tw, "label")
    label = _text(label_el) if label_el is not None else ""
    cap = _child(tw, "caption")
    cap_text = _text(cap) if cap is not None else ""
    if label or cap_text:
        units.append(("caption", _squash(f"{label}. {cap_text}" if label and cap_text else label or cap_text), tw))
    if _local(tw.tag) == "table-wrap":
        for tr in tw.iter():
            if _local(tr.tag) != "tr":
                continue
            cells = [_text(td) for td in tr if _local(td.tag) in ("td", "th")]
            cells = [c for c in cells if c]
            if cells:
                units.append(("table", (f"{label}: " if label else "") + " | ".join(cells), tr))
        for foot in (e for e in tw if _local(e.tag) == "table-wrap-foot"):
            if _text(foot):
                units.append(("caption", _text(foot), foot))
    else:  # a fig or a group: label and caption
        for inner in tw:
            if _local(inner.tag) in ("fig", "table-wrap"):
                _table_units(inner, units)


def _walk(el, section: str, units: list) -> None:
    for child in el:
        tag = _local(child.tag)
        if tag in ("sec", "app"):
            t = _child(child, "title")
            label = section or (_text(t).lower() if t is not None else "") or _BACK.get(tag, "")
            _walk(child, label, units)
        elif tag == "p":
            kept: list = []
            txt = _text(child, kept)
            if txt:
                units.append((section, txt, child))
            for k in kept:
                _block(k, section, units)
        elif tag in _KEPT_OUT:
            _block(child, section, units)
        elif tag in ("list", "list-item", "def-list", "def-item", "def", "disp-quote", "statement", "app-group"):
            _walk(child, section, units)
        elif tag in ("ref-list", "fn-group", "sub-article", "title", "label", "sec-meta"):
            continue


def _block(el, section: str, units: list) -> None:
    tag = _local(el.tag)
    if tag in ("table-wrap", "table-wrap-group", "fig", "fig-group"):
        _table_units(el, units)
    elif tag == "boxed-text":
        _walk(el, section, units)
    # formulas, code, graphics, media: no prose to quote


def _metadata(front) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if front is None:
        return out

    def put(field_name: str, value: str, el, what: str) -> None:
        if value and field_name not in out:
            out[field_name] = {"value": value, "quote": value[:300], "page": None, "line": el.sourceline, "from": f"JATS {what}"}
    for e in front.iter():
        tag = _local(e.tag)
        if tag == "article-title":
            put("title", _text(e), e, "<article-title>")
        elif tag == "article-id" and e.get("pub-id-type") == "doi":
            put("DOI", _text(e).lower(), e, '<article-id pub-id-type="doi">')
        elif tag == "pub-date":
            y = _child(e, "year")
            if y is not None:
                put("issued", _text(y), y, "<pub-date>")
    names = []
    for c in front.iter():
        if _local(c.tag) == "contrib" and c.get("contrib-type", "author") == "author":
            sur = next((s for s in c.iter() if _local(s.tag) == "surname"), None)
            if sur is not None and _text(sur):
                names.append((_text(sur), sur))
    if names:
        out["author"] = {"value": "; ".join(n for n, _ in names), "quote": names[0][0], "page": None, "line": names[0][1].sourceline, "from": "JATS <contrib>"}
    return out


def parse_jats_source(data: bytes) -> ParsedSource:
    """Read a JATS article (module docstring: what is read, sections, tables).

    Args:
        data: the XML bytes (untrusted).

    Returns:
        A :class:`ParsedSource` (no pages) with ``metadata``; ``error`` says
        why no passage could be read: malformed XML (with the parser's line),
        no ``<article>``, or no abstract or body paragraph.
    """
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(_named_entities(data), parser)
    except etree.XMLSyntaxError as exc:
        return ParsedSource(error=f"malformed JATS XML ({exc}); download the article's XML again")
    if root is None:
        return ParsedSource(error="malformed JATS XML (no root element); download the article's XML again")
    if _local(root.tag) != "article":
        art = next((e for e in root.iter() if _local(e.tag) == "article"), None)
        if art is None:
            return ParsedSource(error="the XML holds no JATS <article>")
        root = art
    front = _child(root, "front")
    meta = _metadata(front)
    title = meta.get("title", {}).get("value", "")
    units: list[tuple[str, str, object]] = []
    for el in (front.iter() if front is not None else ()):
        if _local(el.tag) == "abstract" and el.get("abstract-type") not in ("graphical", "teaser"):
            before = len(units)
            _walk(el, "abstract", units)
            if len(units) == before and _text(el):
                units.append(("abstract", _text(el), el))
            break
    body = _child(root, "body")
    if body is not None:
        _walk(body, "", units)
    back = _child(root, "back")
    if back is not None:
        for el in back:
            tag = _local(el.tag)
            if tag == "ack":
                _walk(el, "acknowledgements", units)
            elif tag in ("app-group", "app"):
                _walk(el if tag == "app-group" else [el], "", units)
    passages, parts, pos = [], [], 0
    for i, (section, txt, el) in enumerate(units, start=1):
        passages.append(Passage(id=f"j{i}", text=txt, page=None, line=getattr(el, "sourceline", None), char_start=pos, char_end=pos + len(txt), section=section))
        parts.append(txt)
        pos += len(txt) + 2
    if not passages:
        return ParsedSource(title=title, error="the JATS XML holds no abstract or body paragraphs", metadata=meta)
    return ParsedSource(passages=passages, text="\n\n".join(parts), title=title, metadata=meta)


def parse_jats(data: bytes) -> tuple[list[Passage], str, str, str | None]:
    """:func:`parse_jats_source` as ``(passages, full text, article title, error or None)`` (the online path's form)."""
    doc = parse_jats_source(data)
    return doc.passages, doc.text, doc.title, doc.error
