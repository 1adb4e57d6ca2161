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

plus escaped ``\\:`` and ``\\;``, URLs (``:https\\://host/a.pdf:PDF``) and a
fourth part holding the source URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Attachment", "parse_file_field"]

_COLON = "\x00"
_SEMI = "\x01"


@dataclass(frozen=True)
class Attachment:
    """One file named by a ``file`` field.

    Attributes:
        path: the path (or URL) as the reference manager meant it, escapes
            decoded.
        description: the label (``Full Text PDF``) or ''.
        mime: the declared type (``application/pdf``, ``PDF``) or ''.
        mendeley_relative: True for Mendeley's ``:home/x/a.pdf:pdf`` form,
            where an absolute Unix path lost its leading ``/``.
    """

    path: str
    description: str = ""
    mime: str = ""
    mendeley_relative: bool = False

    @property
    def is_url(self) -> bool:
        """True when the attachment is a web address, not a local file."""
        return bool(re.match(r"^[a-z][a-z0-9+.-]*://", self.path, re.I))


def _unlatex(value: str) -> str:
    """Undo the LaTeX escapes reference managers put in paths."""
    value = value.replace("$\\backslash$", "\\")
    value = value.replace("{\\textbackslash}", "\\").replace("\\textbackslash{}", "\\")
    value = re.sub(r"\{\\([_&%$#~])\}", r"\1", value)
    value = re.sub(r"\\([_&%$#])", r"\1", value)
    value = re.sub(r"\{\\~\{?\}?\}", "~", value)
    value = value.replace("{", "").replace("}", "")
    return value.strip().strip('"').strip()


def parse_file_field(value: str) -> list[Attachment]:
    """Decode a BibTeX ``file`` field into its attachments.

    Args:
        value: the field's value as bibtexparser gives it (outer braces or
            quotes already removed).

    Returns:
        Attachments in the order written; empty parts are skipped. Nothing
        is checked against the file system here.

    Examples:
        >>> parse_file_field("Full Text PDF:files/743/a.pdf:application/pdf")[0].path
        'files/743/a.pdf'
        >>> parse_file_field(":home/x/a.pdf:pdf")[0].mendeley_relative
        True
    """
    text = _unlatex(value)
    text = text.replace("\\:", _COLON).replace("\\;", _SEMI)
    out: list[Attachment] = []
    for part in text.split(";"):
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
        restore = lambda s: s.replace(_COLON, ":").replace(_SEMI, ";").strip()  # noqa: E731
        if len(pieces) >= 3:
            desc, path, mime = pieces[0], pieces[1], pieces[2]
            path = restore(path)
            mendeley = desc == "" and not path.startswith(("/", "\\")) and not re.match(r"^[A-Za-z]:", path) and not re.match(r"^[a-z]+://", path, re.I)
            # Mendeley writes absolute Unix paths without the leading slash; Zotero
            # and JabRef write relative paths with the same shape. Both are tried.
            out.append(Attachment(path, restore(desc), restore(mime), mendeley_relative=mendeley and "/" in path))
        elif len(pieces) == 2 and pieces[0].strip() == "":
            out.append(Attachment(restore(pieces[1])))
        else:
            out.append(Attachment(restore(":".join(pieces))))
    return [a for a in out if a.path]
