"""Hostile inputs for the security tests and the fuzz campaign (issue 18): plain functions returning bytes.

Each generator builds its file from scratch (no copied files), small enough to
keep in memory. ``python tests/hostile.py DIR`` writes them all into ``DIR``
(the corpus ``make fuzz`` starts from).

- :func:`billion_laughs_pdf`: form XObjects nested ``depth`` deep, each
  drawing the next ``fanout`` times; the innermost shows text. 11 x 10 is
  about 3 KB and asks MuPDF to lay out 10^10 strings.
- zips the web page must refuse with a 400: :func:`corrupt_zip`,
  :func:`crc_failing_zip`, :func:`deflate64_zip`, :func:`encrypted_zip`,
  :func:`long_name_zip`, :func:`file_and_folder_zip`.
"""

from __future__ import annotations

import io
import struct
import sys
import zipfile
import zlib
from pathlib import Path

DRAFT = b"The moon is made of green cheese [@moon].\n"
BIB = b"@article{moon, title = {On the moon}, author = {Smith, Ann}, year = {2020}}\n"


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF from the bodies of objects 1..n (object 1 the catalog), with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def billion_laughs_pdf(depth: int = 11, fanout: int = 10) -> bytes:
    """A one-page PDF whose page draws form X0, which draws X1 ``fanout`` times, ... down to X``depth-1``, which shows "lol".

    Args:
        depth: nesting levels of form XObjects (11 in the issue).
        fanout: how many times each form draws the next (10 in the issue).

    Returns:
        The PDF's bytes (about 3 KB for 11 x 10); the page expands to
        ``fanout ** (depth - 1)`` strings.
    """
    first_form = 6  # objects: 1 catalog, 2 pages, 3 page, 4 page content, 5 font, 6.. forms
    objs: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X0 %d 0 R >> >> >>" % first_form,
        _stream(b"", b"q /X0 Do Q"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for level in range(depth):
        if level == depth - 1:
            body = b"BT /F1 12 Tf 72 700 Td (lol) Tj ET"
            res = b"/Resources << /Font << /F1 5 0 R >> >>"
        else:
            body = b" ".join(b"q /X%d Do Q" % (level + 1) for _ in range(fanout))
            res = b"/Resources << /XObject << /X%d %d 0 R >> >>" % (level + 1, first_form + level + 1)
        objs.append(_stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + res, body))
    return _pdf(objs)


def _zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def corrupt_zip() -> bytes:
    """A zip whose central directory is intact but whose first member's compressed data is garbage."""
    data = bytearray(_zip({"draft.md": DRAFT * 20, "refs.bib": BIB}))
    start = data.index(b"draft.md") + len(b"draft.md")  # the local header's name ends; data follows
    for i in range(start, start + 40):
        data[i] ^= 0x5A
    return bytes(data)


def crc_failing_zip() -> bytes:
    """A stored (uncompressed) zip whose first member's bytes were changed after its CRC-32 was written."""
    data = bytearray(_zip({"draft.md": DRAFT, "refs.bib": BIB}, zipfile.ZIP_STORED))
    i = data.index(b"green cheese")
    data[i:i + 5] = b"GREEN"
    return bytes(data)


def deflate64_zip() -> bytes:
    """A zip whose members claim compression method 9 (Deflate64), which Python's zipfile cannot read."""
    data = bytearray(_zip({"draft.md": DRAFT, "refs.bib": BIB}))
    for sig, off in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):  # method field in local and central headers
        pos = data.find(sig)
        while pos != -1:
            struct.pack_into("<H", data, pos + off, 9)
            pos = data.find(sig, pos + 4)
    return bytes(data)


def encrypted_zip() -> bytes:
    """A zip whose members carry the "encrypted" flag (ZipCrypto); no password is given with the upload."""
    data = bytearray(_zip({"draft.md": DRAFT, "refs.bib": BIB}, zipfile.ZIP_STORED))
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general-purpose flag bit 0
        pos = data.find(sig)
        while pos != -1:
            flags = struct.unpack_from("<H", data, pos + off)[0]
            struct.pack_into("<H", data, pos + off, flags | 1)
            pos = data.find(sig, pos + 4)
    return bytes(data)


def long_name_zip(length: int = 300) -> bytes:
    """A zip holding a Markdown document whose file name is ``length`` characters (over the 255 a file system allows)."""
    return _zip({"a" * (length - 3) + ".md": DRAFT, "refs.bib": BIB})


def file_and_folder_zip() -> bytes:
    """A zip holding ``x.md`` and ``x.md/y.md``: the same name as a file and as a folder."""
    return _zip({"x.md": DRAFT, "x.md/y.md": DRAFT, "refs.bib": BIB})


def zlib_garbage() -> bytes:
    """Random-looking bytes that are no format at all (a seedless, fixed stream)."""
    return zlib.compress(bytes(range(256)) * 8)[::-1]


CORPUS = {
    "billion-laughs.pdf": billion_laughs_pdf,
    "corrupt.zip": corrupt_zip,
    "crc-failing.zip": crc_failing_zip,
    "deflate64.zip": deflate64_zip,
    "encrypted.zip": encrypted_zip,
    "long-name.zip": long_name_zip,
    "file-and-folder.zip": file_and_folder_zip,
}
"""File name -> generator: the hostile corpus."""


def write_corpus(folder: Path, corpus: dict | None = None) -> list[Path]:
    """Write every file of ``corpus`` (default :data:`CORPUS`: name -> generator) into ``folder`` (created); returns the paths in order."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, make in (CORPUS if corpus is None else corpus).items():
        path = folder / name
        path.write_bytes(make())
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write_corpus(Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-corpus")):
        print(p, p.stat().st_size)
