"""BibTeX/biblatex fields as reference managers export them (issue 26, part 3).

What bibtexparser 2 reads as written and BibTeX/biber read otherwise, done here on an entry's fields (a dict of
lower-cased field name -> value, braces already stripped):

- :func:`blank_comment_lines`: a line starting with ``%`` is a comment to biber (and to every manager writing one),
  so a ``%``-commented copy of an entry is not an entry; bibtexparser reads it as one (fields named ``%   title``)
  and, being first, it shadowed the real entry.
- :func:`merge_repeated`: a field given twice (Better BibTeX with ZotFile writes two ``file`` fields; repeated
  ``keywords``): ``file`` values are joined with ``;`` (the field's own separator), ``keywords`` with ``,``, any
  other keeps its first value, as BibTeX does ("Repeated entry---this's ... ignored").
- :func:`inherit`: ``crossref`` and biblatex ``xdata``: a child takes every field it lacks from its parent
  (biblatex manual, 2.4.1 and appendix B, the default inheritance): the parent's ``title`` becomes the child's
  ``booktitle`` (``maintitle`` for a multi-volume parent), its ``author``/``editor``, year, publisher and
  container carry over; ``ids``, ``crossref``, ``xref``, ``label``, ``shorthand`` and the parent's own title are
  never inherited as such.
- :func:`attachments`: BibDesk's ``bdsk-file-N`` (base64 of a property list holding the file's ``relativePath``,
  read with :mod:`plistlib`) and ``Local-Zo-Url-N`` (``file:`` URLs or paths), as :class:`~citeproof.model.Attachment`.
- :func:`name_form`: a name with a particle (``von``, ``de la``) in biblatex's form: ``Neumann, John von``, or
  ``von Neumann, John`` when the entry's ``options`` hold ``useprefix`` (=``true``).
"""

from __future__ import annotations

import base64
import binascii
import plistlib
import re
from urllib.parse import unquote, urlparse

from citeproof.model import Attachment

__all__ = ["blank_comment_lines", "strip_enclosing", "merge_repeated", "inherit", "attachments", "useprefix", "name_form", "TEX_LOGOS"]

_COMMENT_LINE = re.compile(r"^[ \t]*%[^\n]*", re.M)
_NOT_INHERITED = {"ids", "crossref", "xref", "xdata", "entryset", "label", "shorthand", "shorthandintro", "sortkey", "sortname",
                  "title", "subtitle", "titleaddon", "shorttitle", "sorttitle", "indextitle", "indexsorttitle", "execute", "related",
                  "options", "keywords", "file", "abstract", "annotation", "note", "url", "doi", "eprint", "pages"}
_MULTIVOLUME = {"mvbook", "mvcollection", "mvproceedings", "mvreference"}
_FILE_SUFFIX = re.compile(r"\.[A-Za-z0-9]{2,5}$")

TEX_LOGOS = {"TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX", "XeTeX": "XeTeX", "XeLaTeX": "XeLaTeX",
             "LuaTeX": "LuaTeX", "LuaLaTeX": "LuaLaTeX", "pdfTeX": "pdfTeX", "pdfLaTeX": "pdfLaTeX", "ConTeXt": "ConTeXt",
             "AmS": "AMS", "AmSTeX": "AMS-TeX", "AMSTeX": "AMS-TeX", "MF": "Metafont", "MP": "MetaPost", "eTeX": "e-TeX",
             "BibLaTeX": "BibLaTeX", "METAFONT": "METAFONT"}
"""Logo macros -> their text (pylatexenc knows none of them and dropped ``{\\TeX}`` from a title)."""


def blank_comment_lines(text: str) -> str:
    """``text`` with every line that starts with ``%`` emptied (line numbers and other offsets' lines kept)."""
    return _COMMENT_LINE.sub("", text)


def strip_enclosing(value: str) -> str:
    """A raw BibTeX value without its outer ``{...}`` or ``"..."`` (bibtexparser's failed blocks keep them)."""
    v = value.strip()
    if len(v) >= 2 and ((v[0] == "{" and v[-1] == "}") or (v[0] == '"' and v[-1] == '"')):
        return v[1:-1]
    return v


def merge_repeated(fields: list[tuple[str, str]]) -> tuple[dict[str, str], list[str]]:
    """``(name, value)`` pairs in file order -> (one value per lower-cased name, the names that were repeated)."""
    out: dict[str, str] = {}
    repeated: list[str] = []
    for name, value in fields:
        key = name.lower().strip()
        if key not in out:
            out[key] = value
            continue
        if key not in repeated:
            repeated.append(key)
        if key == "file" and value.strip():
            out[key] = f"{out[key]};{value}" if out[key].strip() else value
        elif key == "keywords" and value.strip():
            out[key] = f"{out[key]}, {value}" if out[key].strip() else value
    return out, repeated


def inherit(child: dict[str, str], parent: dict[str, str], parent_type: str) -> dict[str, str]:
    """The child's fields completed from its ``crossref``/``xdata`` parent (module docstring); the child's own win."""
    out = dict(child)
    for key, value in parent.items():
        if key not in _NOT_INHERITED and key not in out and value.strip():
            out[key] = value
    title = parent.get("title", "")
    if title.strip():
        slot = "maintitle" if parent_type in _MULTIVOLUME else "booktitle"
        out.setdefault(slot, title)
        if parent_type == "periodical":
            out.setdefault("journaltitle", title)
    return out


def _bdsk_path(value: str) -> str:
    """The relative path a BibDesk ``bdsk-file-N`` value names, or ''."""
    try:
        data = base64.b64decode(re.sub(r"\s+", "", value), validate=True)
        plist = plistlib.loads(data)
    except (binascii.Error, ValueError, plistlib.InvalidFileException, OverflowError, TypeError):
        return ""
    if isinstance(plist, dict) and isinstance(plist.get("relativePath"), str):
        return plist["relativePath"]
    objects = plist.get("$objects") if isinstance(plist, dict) else None  # an NSKeyedArchiver archive (BibDesk before 1.7)
    if isinstance(objects, list):
        for obj in objects:
            if isinstance(obj, dict) and "relativePath" in obj:
                ref = obj["relativePath"]
                idx = ref.data if isinstance(ref, plistlib.UID) else ref
                if isinstance(idx, int) and 0 <= idx < len(objects) and isinstance(objects[idx], str):
                    return objects[idx]
        return next((o for o in objects if isinstance(o, str) and _FILE_SUFFIX.search(o) and not o.startswith("$")), "")
    return ""


def attachments(fields: dict[str, str]) -> list[Attachment]:
    """BibDesk ``bdsk-file-N`` and ``local-zo-url-N`` attachments of an entry, in field-number order.

    A ``file:`` URL becomes its path; web addresses are left out (they are links, not files, and are never fetched
    from here).
    """
    found: list[tuple[int, int, Attachment]] = []
    for key, value in fields.items():
        m = re.fullmatch(r"(bdsk-file|local-zo-url)-(\d+)", key)
        if not m:
            continue
        if m.group(1) == "bdsk-file":
            path = _bdsk_path(value)
            if path:
                found.append((0, int(m.group(2)), Attachment(path=path, description="BibDesk file")))
            continue
        v = value.strip()
        if v.lower().startswith("file:"):
            path = unquote(urlparse(v).path)
        elif re.match(r"^[a-z][a-z0-9+.-]*://", v, re.I):
            continue
        else:
            path = v
        if path:
            found.append((1, int(m.group(2)), Attachment(path=path, description="Local-Zo-Url")))
    return [a for _, _, a in sorted(found, key=lambda t: (t[0], t[1]))]


def useprefix(fields: dict[str, str]) -> bool:
    """Whether the entry's biblatex ``options`` turn ``useprefix`` on (``useprefix`` or ``useprefix=true``)."""
    for opt in (fields.get("options") or "").split(","):
        name, _, val = opt.partition("=")
        if name.strip().lower() == "useprefix":
            return val.strip().lower() in ("", "true")
    return False


def name_form(name: str, use_prefix: bool) -> str:
    """A BibTeX name with a particle in biblatex's form (module docstring); a name without one as written."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    try:
        parts = parse_single_name_into_parts(name)
    except Exception:  # noqa: BLE001 - bibtexparser on a name it cannot split: keep it as written
        return name
    if not parts.von or not parts.last:
        return name
    von, last = " ".join(parts.von), " ".join(parts.last)
    given = " ".join(parts.first)
    jr = (", " + " ".join(parts.jr)) if parts.jr else ""
    if use_prefix:
        return f"{von} {last}{jr}" + (f", {given}" if given else "")
    return f"{last}{jr}, " + " ".join(p for p in (given, von) if p)
