"""Where reference managers hide a Word citation's code when it is not in the field instruction (issue 26, part 2).

:mod:`citeproof.readers.docx` reads a citation from its field instruction. Three managers keep the code elsewhere,
and this module gets it back as the instruction text the reader already understands:

- **Zotero, "store citations as bookmarks"** (the document preference for files shared with other word
  processors): the citation's text is a bookmark ``ZOTERO_BREF_<12 random characters>``; its code is in the
  document's custom properties (``docProps/custom.xml``) as ``ZOTERO_BREF_<id>_1``, ``_2``... of at most 255
  characters each (Word's limit on a property value), which joined give ``ZOTERO_ITEM CSL_CITATION {json}``
  (the field code without its ``ADDIN ``); the bibliography's ``ZOTERO_BIBL {json} CSL_BIBLIOGRAPHY``.
  (Zotero's Word integration, ``Properties.setProperty``/``Bookmark.getCode``.)
- **Zotero in LibreOffice, "store citations as bookmarks"** (.odt): the same ``ZOTERO_BREF_*`` bookmarks
  (``text:bookmark-start``/``-end``), their codes in the document's user-defined properties (``meta.xml``,
  ``meta:user-defined``), split the same way into ``_1``, ``_2``... of at most 255 characters
  (zotero-libreoffice-integration's ``Bookmark.getCode`` and ``Properties``); LibreOffice appends a number to a
  copied bookmark's name, so a name with no property is tried without its last one to three characters.
- **EndNote, long citations**: ``ADDIN EN.CITE`` holds a nested field ``ADDIN EN.CITE.DATA`` and the
  ``<EndNote>...`` XML is base64 in the ``<w:fldData>`` of that field's ``fldChar begin`` (the payload is too long
  for an instruction); :func:`field_data_text` decodes it.
- **Mendeley Cite (v3, the Word add-in of Mendeley Reference Manager)**: each citation is a content control
  (``w:sdt``) whose tag is ``MENDELEY_CITATION_v3_<base64 of the CSL citation JSON>``; the bibliography's tag is
  ``MENDELEY_BIBLIOGRAPHY``. :func:`mendeley_v3_code` gives ``CSL_CITATION {json}``.
"""

from __future__ import annotations

import base64
import binascii
import re
import zipfile
from pathlib import Path

from citeproof.model import Diagnostic
from citeproof.office_xml import PartError, read_part

__all__ = ["ZOTERO_BOOKMARK", "MENDELEY_V3", "MENDELEY_BIBLIOGRAPHY", "bookmark_code", "bookmark_codes", "field_data_text", "mendeley_v3_code"]

ZOTERO_BOOKMARK = "ZOTERO_BREF_"
MENDELEY_V3 = "MENDELEY_CITATION_v3_"
MENDELEY_BIBLIOGRAPHY = "MENDELEY_BIBLIOGRAPHY"
_CUSTOM = "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}"
_PIECE = re.compile(r"^(ZOTERO_BREF_[A-Za-z0-9_]+?)_(\d+)$")


_META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"

_PROPERTY_PARTS = {
    # part -> (property element, attribute holding its name)
    "docProps/custom.xml": (_CUSTOM + "property", "name"),  # Word
    "meta.xml": (_META + "user-defined", _META + "name"),  # OpenDocument
}


def bookmark_codes(zf: zipfile.ZipFile, path: Path, diagnostics: list[Diagnostic]) -> dict[str, str]:
    """Zotero bookmark name -> its code (``ZOTERO_ITEM CSL_CITATION {...}``), from the package's document properties:
    Word's ``docProps/custom.xml``, OpenDocument's ``meta.xml`` user-defined fields (module docstring), the
    ``_1``, ``_2``... pieces joined in order.

    Returns:
        ``{}`` when the package has no such part; an unreadable part becomes a warning in ``diagnostics`` (the
        bookmarks are then read as their text).
    """
    part = next((p for p in _PROPERTY_PARTS if p in zf.namelist()), None)
    if part is None:
        return {}
    try:
        root = read_part(zf, part)
    except PartError as exc:
        diagnostics.append(Diagnostic("docx-field", "warning", f"{path}: {exc}; Zotero citations stored as bookmarks are not read", str(path)))
        return {}
    element, attribute = _PROPERTY_PARTS[part]
    pieces: dict[str, list[tuple[int, str]]] = {}
    for prop in root.iter(element):
        m = _PIECE.match(prop.get(attribute) or "")
        if m:
            pieces.setdefault(m.group(1), []).append((int(m.group(2)), "".join(prop.itertext())))
    return {name: "".join(v for _, v in sorted(parts)) for name, parts in pieces.items()}


def bookmark_code(codes: dict[str, str], name: str) -> str:
    """The code of bookmark ``name``: its own, else that of the name less its last 1-3 characters (a copied
    bookmark, renamed by LibreOffice or Word); '' when none."""
    for cut in range(0, 4):
        code = codes.get(name[: len(name) - cut] if cut else name, "")
        if code:
            return code
    return ""


def _b64(text: str) -> bytes:
    """Base64 text (whitespace and missing padding tolerated) -> bytes; raises ValueError when it is not base64."""
    s = re.sub(r"\s+", "", text)
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not base64 ({exc})") from None


def _text(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and data[1:2] == b"\x00"):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def field_data_text(data: str) -> str:
    """The text a ``<w:fldData>`` carries (EndNote's ``<EndNote>...`` XML), or '' when it is not base64 text."""
    try:
        return _text(_b64(data)).strip("\x00 \r\n\t")
    except ValueError:
        return ""


def mendeley_v3_code(tag: str) -> str:
    """``CSL_CITATION {json}`` for a Mendeley Cite content-control tag ``MENDELEY_CITATION_v3_<base64>``.

    Raises:
        ValueError: the tag's payload is not base64 (the message says so).
    """
    return "CSL_CITATION " + _text(_b64(tag[len(MENDELEY_V3):]))
