"""JATS XML full text (Europe PMC ``fullTextXML``) -> passages with section labels.

Each ``<p>`` of the abstract and body is one passage; its ``section`` is the
lower-cased title of the enclosing top-level ``<sec>`` (``introduction``,
``methods``, ``results``...), ``abstract`` for the abstract, and
``references``-like back matter is skipped. Figures' and tables' captions
become passages of section ``caption``. Offsets index the returned full
text; there are no pages (``page`` None), and ``line`` counts passages from 1.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from citeproof.model import Passage

__all__ = ["parse_jats", "JATS_PARSER_VERSION"]

JATS_PARSER_VERSION = "jats-1"


def _text(el: ET.Element) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def parse_jats(data: bytes) -> tuple[list[Passage], str, str, str | None]:
    """Read a JATS article.

    Args:
        data: the XML bytes.

    Returns:
        ``(passages, full text, article title, error or None)``; the error
        says why no passage could be read (malformed XML, no ``<article>``
        body or abstract).
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        return [], "", "", f"malformed JATS XML ({exc})"
    if _local(root.tag) != "article":
        art = next((e for e in root.iter() if _local(e.tag) == "article"), None)
        if art is None:
            return [], "", "", "the XML holds no JATS <article>"
        root = art
    title_el = next((e for e in root.iter() if _local(e.tag) == "article-title"), None)
    title = _text(title_el) if title_el is not None else ""
    units: list[tuple[str, str]] = []

    def walk(el: ET.Element, section: str) -> None:
        for child in el:
            tag = _local(child.tag)
            if tag == "sec":
                t = next((c for c in child if _local(c.tag) == "title"), None)
                label = section or (_text(t).lower() if t is not None else "")
                walk(child, label)
            elif tag == "p":
                txt = _text(child)
                if txt:
                    units.append((section, txt))
            elif tag in ("fig", "table-wrap"):
                cap = next((c for c in child.iter() if _local(c.tag) == "caption"), None)
                if cap is not None and _text(cap):
                    units.append(("caption", _text(cap)))
            elif tag in ("list", "list-item", "boxed-text", "disp-quote"):
                walk(child, section)

    for el in root.iter():
        if _local(el.tag) == "abstract" and el.get("abstract-type") not in ("graphical", "teaser"):
            before = len(units)
            walk(el, "abstract")
            if len(units) == before and _text(el):
                units.append(("abstract", _text(el)))
            break
    body = next((e for e in root if _local(e.tag) == "body"), None)
    if body is not None:
        walk(body, "")
    passages, parts, pos = [], [], 0
    for i, (section, txt) in enumerate(units, start=1):
        passages.append(Passage(id=f"j{i}", text=txt, page=None, line=i, char_start=pos, char_end=pos + len(txt), section=section))
        parts.append(txt)
        pos += len(txt) + 2
    if not passages:
        return [], "", title, "the JATS XML holds no abstract or body paragraphs"
    return passages, "\n\n".join(parts), title, None
