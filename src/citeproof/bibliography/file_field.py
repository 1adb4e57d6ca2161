"""The BibTeX ``file`` field as reference managers write it.

Conventions handled (real exports, ``shared/data/bib-file-fields/README.md``):

=====================  ==================================================
Zotero native export   ``desc:relative/path:mime``, ``;`` between files
Zotero Better BibTeX   a bare absolute path (``C:\\Users\\x\\a.pdf``)
Mendeley Desktop       ``:home/x/a.pdf:pdf`` (no leading slash), ``{\\_}``
Mendeley on Windows    ``:C$\\backslash$:/Users/x/a.pdf:pdf``, ``:C\\:/...``
JabRef 2.10            ``File = {:path:PDF}``
Paperpile              a path relative to the Paperpile folder
=====================  ==================================================

plus escaped ``\\:`` and ``\\;``, unescaped ``:`` and ``;`` inside file
names, LaTeX accents (``Mart{\\'{i}}nez``), URLs (``:https\\://host/a.pdf:PDF``) and a
fourth part holding the source URL.
"""

from __future__ import annotations

import re
import unicodedata

from citeproof.model import Attachment

__all__ = ["Attachment", "parse_file_field", "decode_latex_accents"]

_COLON = "\x00"
_SEMI = "\x01"

# A LaTeX accent as reference managers write it in a path: symbol accents
# (\'e, \'{e}, \'\i) bare or braced; letter accents (\v{c}, \c{c}) only with a
# braced argument, so a Windows path's "\bob" or "\users" is never read as one.
_ACCENT = re.compile(
    r"""\\[\'`^"~=.]\s*(?:\{\s*(?:\\[ij](?![A-Za-z])|[A-Za-z])\s*\}|\\[ij](?![A-Za-z])|[A-Za-z])"""
    r"""|\\[uvHckrbd]\s*\{\s*(?:\\[ij](?![A-Za-z])|[A-Za-z])\s*\}"""
)
# Special letters, only inside their own braces ({\ss}, {\o}): bare "\o" is
# too common in Windows paths.
_SPECIAL = re.compile(r"\{\\(ss|o|O|aa|AA|ae|AE|oe|OE|l|L|i|j)\s*\}")
_L2T = None

# Types a file field's third part names (Zotero: MIME types; JabRef,
# Mendeley: file-type names).
_TYPE_WORDS = {
    "pdf", "html", "htm", "xhtml", "text", "txt", "markdown", "md", "url", "word", "docx", "doc", "odt", "rtf",
    "postscript", "ps", "djvu", "epub", "tex", "latex", "image", "png", "jpg", "jpeg", "gif", "tiff", "xml",
    "zip", "powerpoint", "pptx", "excel", "xlsx", "csv", "opendocument text", "link", "file",
}


def _latex_chars(span: str) -> str:
    global _L2T
    if _L2T is None:
        from pylatexenc.latex2text import LatexNodes2Text

        _L2T = LatexNodes2Text(math_mode="verbatim")
    try:
        return _L2T.latex_to_text(span)
    except Exception:  # markup pylatexenc cannot read: leave it
        return span


def decode_latex_accents(value: str) -> str:
    r"""Turn the LaTeX accents of a path into Unicode letters (NFC).

    ``Mart{\'{i}}nez`` -> ``Martínez``, ``D{\'e}tection`` -> ``Détection``,
    ``{\v{C}}apek`` -> ``Čapek``, ``Stra{\ss}e`` -> ``Straße``. The accent
    commands are found by pattern and converted by pylatexenc; Windows
    backslashes (``C:\Users\bob``) are left alone.
    """
    if "\\" not in value:
        return unicodedata.normalize("NFC", value)
    value = _SPECIAL.sub(lambda m: _latex_chars("\\" + m.group(1)), value)
    value = _ACCENT.sub(lambda m: _latex_chars(m.group(0)), value)
    return unicodedata.normalize("NFC", value)


def _unlatex(value: str) -> str:
    """Undo the LaTeX escapes reference managers put in paths."""
    value = decode_latex_accents(value)
    value = value.replace("$\\backslash$", "\\")
    value = value.replace("{\\textbackslash}", "\\").replace("\\textbackslash{}", "\\")
    value = re.sub(r"\{\\([_&%$#~])\}", r"\1", value)
    value = re.sub(r"\\([_&%$#])", r"\1", value)
    value = re.sub(r"\{\\~\{?\}?\}", "~", value)
    value = value.replace("{", "").replace("}", "")
    return value.strip().strip('"').strip()


def _is_type(piece: str) -> bool:
    """True when ``piece`` is a file type as the third part of a file field
    holds it (``application/pdf``, ``PDF``), not a piece of a file name."""
    t = piece.strip()
    if re.fullmatch(r"[A-Za-z]+/[A-Za-z0-9.+-]+", t):
        return True
    return t.lower() in _TYPE_WORDS and not piece[:1].isspace()


def _complete(part: str) -> bool:
    """True when one ``;``-separated part names a whole attachment: it ends
    in a file type (``desc:path:mime``), a file extension, or is a URL.

    A part that is none of these was cut by a ``;`` inside a file name
    (Better BibTeX writes such names unescaped) and is joined to the next.
    """
    t = part.strip()
    if not t:
        return True
    pieces = t.split(":")
    if len(pieces) >= 3 and any(_is_type(p) for p in pieces[2:]):
        return True
    if re.search(r"\.[A-Za-z0-9]{1,5}$", t) or re.match(r"^[a-z][a-z0-9+.-]*" + _COLON + "//", t, re.I):
        return True
    return False


def _split_parts(text: str) -> list[str]:
    """The field cut at ``;``, re-joining parts a ``;`` inside a name split."""
    raw = text.split(";")
    out: list[str] = []
    for part in raw:
        if out and not _complete(out[-1]) and part.strip():
            out[-1] = out[-1] + ";" + part
        else:
            out.append(part)
    return out


def parse_file_field(value: str) -> list[Attachment]:
    r"""Decode a BibTeX ``file`` field into its attachments.

    Args:
        value: the field's value as bibtexparser gives it (outer braces or
            quotes already removed).

    Returns:
        Attachments in the order written; empty parts are skipped. Nothing
        is checked against the file system here. LaTeX accents become
        Unicode (NFC); a ``:`` inside a Zotero path (``Title: a
        subtitle.pdf``) and a ``;`` inside a Better BibTeX file name are kept
        in the path even when not escaped.

    Examples:
        >>> parse_file_field("Full Text PDF:files/743/a.pdf:application/pdf")[0].path
        'files/743/a.pdf'
        >>> parse_file_field(":home/x/a.pdf:pdf")[0].mendeley_relative
        True
        >>> parse_file_field("PDF:files/9/Lee - 2020 - Sleep: a review.pdf:application/pdf")[0].path
        'files/9/Lee - 2020 - Sleep: a review.pdf'
    """
    text = _unlatex(value)
    text = text.replace("\\:", _COLON).replace("\\;", _SEMI)
    out: list[Attachment] = []
    restore = lambda s: s.replace(_COLON, ":").replace(_SEMI, ";").strip()  # noqa: E731
    for part in _split_parts(text):
        part = part.strip()
        if not part:
            continue
        pieces = part.split(":")
        # A Windows drive letter split off by an unescaped colon: C:\... or C:/...
        merged: list[str] = []
        for p in pieces:
            if merged and re.fullmatch(r"[A-Za-z]", merged[-1].strip()) and p[:1] in ("\\", "/"):
                merged[-1] = merged[-1].strip() + ":" + p
            else:
                merged.append(p)
        pieces = merged
        # desc:path:type[:url]; an unescaped ':' inside the path makes more
        # pieces, so the type is the first piece from the third on that is one.
        kind_at = next((i for i in range(2, len(pieces)) if _is_type(pieces[i])), None)
        if kind_at is not None:
            desc, path, mime = pieces[0], restore(":".join(pieces[1:kind_at])), pieces[kind_at]
            mendeley = desc == "" and not path.startswith(("/", "\\")) and not re.match(r"^[A-Za-z]:", path) and not re.match(r"^[a-z]+://", path, re.I)
            # Mendeley writes absolute Unix paths without the leading slash; Zotero
            # and JabRef write relative paths with the same shape. Both are tried.
            out.append(Attachment(path, restore(desc), restore(mime), mendeley_relative=mendeley and "/" in path))
        elif len(pieces) >= 3 and not any(p[:1].isspace() for p in pieces[1:]):
            # desc:path:type with a type we do not know by name.
            desc, path, mime = pieces[0], restore(pieces[1]), pieces[2]
            mendeley = desc == "" and not path.startswith(("/", "\\")) and not re.match(r"^[A-Za-z]:", path) and not re.match(r"^[a-z]+://", path, re.I)
            out.append(Attachment(path, restore(desc), restore(mime), mendeley_relative=mendeley and "/" in path))
        elif len(pieces) == 2 and pieces[0].strip() == "":
            out.append(Attachment(restore(pieces[1])))
        else:
            out.append(Attachment(restore(":".join(pieces))))
    return [a for a in out if a.path]
