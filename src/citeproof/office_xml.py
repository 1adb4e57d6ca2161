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
from xml.etree import ElementTree as ET

__all__ = ["W", "A", "P", "R", "REL", "DC", "TEXT_NS", "OFFICE_NS", "TABLE_NS", "MAX_PART_BYTES", "PartError", "read_part"]

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


class PartError(ValueError):
    """A part is missing, too large once unpacked, or not well-formed XML; the message says which."""


def read_part(zf: zipfile.ZipFile, name: str) -> ET.Element:
    """The root element of part ``name`` of an open package.

    Raises:
        PartError: no such part, it unpacks to more than
            :data:`MAX_PART_BYTES`, or it is not well-formed XML.
    """
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise PartError(f"has no {name}") from None
    if info.file_size > MAX_PART_BYTES:
        raise PartError(f"{name} unpacks to {info.file_size // (1 << 20)} MiB, over the {MAX_PART_BYTES >> 20} MiB limit")
    try:
        with zf.open(info) as fh:
            data = fh.read(MAX_PART_BYTES + 1)
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:  # bad CRC, encrypted member, unknown compression
        raise PartError(f"{name} cannot be unpacked ({exc})") from None
    if len(data) > MAX_PART_BYTES:
        raise PartError(f"{name} unpacks to more than the {MAX_PART_BYTES >> 20} MiB limit")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise PartError(f"{name} is not well-formed XML ({exc})") from None
