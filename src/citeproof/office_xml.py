"""Office packages (.docx, .pptx, .odt): zip parts read as XML, shared by the citing-document reader and the source parser.

:mod:`citeproof.readers.docx` (citing Word/OpenDocument files) and
:mod:`citeproof.sources.office` (cited Office files) both read the XML
parts of an Office package with the standard library; here are the XML
namespaces they need and :func:`read_part`, which refuses a part larger than
:data:`MAX_PART_BYTES` once unpacked (a "zip bomb": a few KB that unpack to
gigabytes) before reading it.

The formats: Office Open XML, ECMA-376 (WordprocessingML ``w:``,
PresentationML ``p:``, DrawingML ``a:``), and OpenDocument 1.3 (OASIS:
``office:``, ``text:``, ``table:``).
"""

from __future__ import annotations

import zipfile
import zlib
from xml.etree import ElementTree as ET

__all__ = ["W", "A", "P", "R", "REL", "DC", "TEXT_NS", "OFFICE_NS", "TABLE_NS", "MAX_PART_BYTES", "MAX_DEPTH", "PartError", "read_part"]

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
DC = "{http://purl.org/dc/elements/1.1/}"
TEXT_NS = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
OFFICE_NS = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
TABLE_NS = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"

MAX_PART_BYTES = 64 << 20
"""Largest unpacked size of one XML part read (64 MiB; a 1,000-page novel's ``document.xml`` is about 20 MiB)."""

MAX_DEPTH = 256
"""Deepest element nesting read (a Word body is about 10 deep, tables in tables some 30; the readers walk the tree
recursively, and Python's recursion limit is 1,000)."""

_CHUNK = 1 << 20
"""Bytes unpacked and parsed at a time (1 MiB): memory stays near one chunk plus the tree, whatever the zip header says."""


class PartError(ValueError):
    """A part is missing, too large once unpacked, nested too deep or not well-formed XML; the message says which."""


def read_part(zf: zipfile.ZipFile, name: str) -> ET.Element:
    """The root element of part ``name`` of an open package, unpacked and parsed 1 MiB at a time.

    The zip header's sizes are not trusted: a part whose header understates it (1 KB declared, 1 GiB real) is
    cut at the declared size by :mod:`zipfile` and fails its CRC check, and a part that unpacks past
    :data:`MAX_PART_BYTES` is refused as soon as it does, so memory stays near one chunk plus the tree.
    This is the one reader of Office parts: citing documents (:mod:`citeproof.readers.docx`) and sources
    (:mod:`citeproof.sources.office`) both use it.

    Raises:
        PartError: no such part, it unpacks to more than :data:`MAX_PART_BYTES`, it cannot be unpacked (bad
            CRC, encrypted, unknown compression, truncated), elements nest deeper than :data:`MAX_DEPTH`, or
            it is not well-formed XML.
    """
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise PartError(f"has no {name}") from None
    if info.file_size > MAX_PART_BYTES:
        raise PartError(f"{name} unpacks to {info.file_size // (1 << 20)} MiB, over the {MAX_PART_BYTES >> 20} MiB limit")
    parser = ET.XMLParser()
    total = 0
    try:
        with zf.open(info) as fh:
            while True:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > MAX_PART_BYTES:
                    raise PartError(f"{name} unpacks to more than the {MAX_PART_BYTES >> 20} MiB limit")
                parser.feed(chunk)
            root = parser.close()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as exc:
        if isinstance(exc, PartError):
            raise
        raise PartError(f"{name} cannot be unpacked ({exc})") from None  # bad CRC, truncated, encrypted, unknown compression
    except ET.ParseError as exc:
        if total == 0:
            raise PartError(f"{name} is empty") from None
        raise PartError(f"{name} is not well-formed XML ({exc})") from None
    level, depth = [root], 1
    while level:  # level by level, so a chain 100,000 deep costs MAX_DEPTH short steps and a wide tree one pass
        if depth > MAX_DEPTH:
            raise PartError(f"{name} nests elements more than {MAX_DEPTH} deep")
        level = [child for el in level for child in el]
        depth += 1
    return root

