"""CSL-JSON items -> :class:`~citeproof.model.Reference`: the one CSL item reader.

Every way a CSL item reaches citeproof goes through :func:`csl_reference`:
a CSL-JSON bibliography file (:func:`read_csl_json`), the ``references:`` of
a pandoc/Quarto front matter, a Manubot ``references.json``, and the
``itemData`` a Zotero or Mendeley field carries inside a Word document.

Variables are typed as CSL-JSON's schema says (``csl-data.json`` of the
citation-style-language/schema repository): ordinary variables are strings
or numbers, names arrays of name objects, dates objects with ``date-parts``
(or a string, as some exporters write); ``file``/``files`` a string or an
array of strings.

Two modes:

* strict (a bibliography the user hands over): a value of the wrong kind is
  a :class:`~citeproof.errors.BibliographyError` naming the file and the
  first bad JSON path (``$[3].author``), so the user can fix it;
* lenient (items embedded in a document written by a reference manager's
  plugin, which the user cannot edit): a value of the wrong kind reads as
  empty, and the other variables of the item are kept.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from citeproof.bibliography.doi import normalise_doi
from citeproof.errors import BibliographyError
from citeproof.model import Attachment, Diagnostic, Reference

__all__ = ["csl_reference", "not_a_bibliography", "read_csl_document", "read_csl_items", "read_csl_json"]

_CSL_NAME_FIELDS = ("author", "editor")
_CSL_TEXT_PARTS = ("family", "given", "literal", "dropping-particle", "non-dropping-particle", "suffix")


def _kind(value: object) -> str:
    """A JSON value's kind in words, for messages (``a number``, ``an object``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"[:60]
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


class _Values:
    """Reads the typed variables of CSL items from one source, strictly or leniently (module docstring)."""

    def __init__(self, source: object, lenient: bool) -> None:
        self.source = source
        self.lenient = lenient

    def fail(self, where: str, what: str) -> None:
        """Raise (strict) the error for the bad value at JSON path ``where``; do nothing (lenient)."""
        if not self.lenient:
            raise BibliographyError(f"{self.source}: {where}: {what}")

    def text(self, where: str, value: object) -> str:
        """An ordinary variable (a string or a number) as text."""
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.fail(where, f"expected a string or a number, got {_kind(value)}; fix this CSL-JSON item")
        return ""

    def names(self, where: str, value: object) -> tuple[str, ...]:
        """A name variable (an array of name objects) as ``Family, Given`` strings."""
        if value is None:
            return ()
        if not isinstance(value, list):
            self.fail(where, f"expected an array of names like {{\"family\": \"Doe\", \"given\": \"J\"}}, got {_kind(value)}")
            return ()
        names = []
        for i, a in enumerate(value):
            if not isinstance(a, dict):
                self.fail(f"{where}[{i}]", f"expected a name object like {{\"family\": \"Doe\"}}, got {_kind(a)}")
                continue
            parts = {k: self.text(f"{where}[{i}].{k}", a.get(k)) for k in _CSL_TEXT_PARTS}
            name = (parts["family"] + (", " + parts["given"] if parts["given"] else "")).strip(", ") or parts["literal"]
            if name:
                names.append(name)
        return tuple(names)

    def year(self, where: str, value: object) -> str:
        """The year of a date variable (``date-parts``, else the first 4 digits of ``raw``/``literal``)."""
        if value is None or value == "":
            return ""
        if isinstance(value, str):  # some exporters write the date as a plain string
            m = re.search(r"\d{4}", value)
            return m.group(0) if m else ""
        if not isinstance(value, dict):
            self.fail(where, f"expected a date object like {{\"date-parts\": [[2020, 5]]}}, got {_kind(value)}")
            return ""
        parts = value.get("date-parts")
        if parts is not None:
            if not isinstance(parts, list):
                self.fail(f"{where}.date-parts", f"expected an array of [year, month, day] arrays, got {_kind(parts)}")
                parts = []
            for i, dp in enumerate(parts):
                if not isinstance(dp, list) or not dp:
                    got = "an empty array" if isinstance(dp, list) else _kind(dp)
                    self.fail(f"{where}.date-parts[{i}]", f"expected an array like [2020, 5, 17], got {got}")
                    continue
                for j, x in enumerate(dp):
                    self.text(f"{where}.date-parts[{i}][{j}]", x)
            if parts and isinstance(parts[0], list) and parts[0]:
                year = self.text(f"{where}.date-parts[0][0]", parts[0][0])
                if year:
                    return year
        for k in ("raw", "literal"):
            m = re.search(r"\d{4}", self.text(f"{where}.{k}", value.get(k)))
            if m:
                return m.group(0)
        return ""

    def files(self, where: str, item: dict) -> tuple[str, ...]:
        """The item's attached files (``file`` or ``files``: a string or an array of strings)."""
        key = "file" if item.get("file") is not None else "files"
        value = item.get(key)
        if value is None or value == "":
            return ()
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list):
            self.fail(f"{where}.{key}", f"expected a file path or an array of file paths, got {_kind(value)}")
            return ()
        out = []
        for i, v in enumerate(value):
            if not isinstance(v, str):
                self.fail(f"{where}.{key}[{i}]", f"expected a file path (a string), got {_kind(v)}")
                continue
            out.append(v)
        return tuple(out)


def csl_reference(item: dict, *, citekey: str, where: str, origin: str, source: object = "", lenient: bool = False) -> Reference:
    """One CSL item as a :class:`Reference`.

    Args:
        item: the CSL item (a dict, as parsed from JSON or YAML).
        citekey: the key the Reference gets (a file's ``id``; a Word reader's own key).
        where: the item's JSON path, for messages (``$[3]``).
        origin: the Reference's ``origin`` (``refs.json:item 4``).
        source: what is named first in messages (the file).
        lenient: read a wrongly typed value as empty instead of raising (module docstring).

    Raises:
        BibliographyError: strict mode only: a variable of the wrong kind (the message names ``source`` and the
            JSON path, e.g. ``$[3].author[0]``).
    """
    v = _Values(source, lenient)
    authors = v.names(f"{where}.author", item.get("author"))
    for name_field in _CSL_NAME_FIELDS[1:]:
        v.names(f"{where}.{name_field}", item.get(name_field))
    files = v.files(where, item)
    return Reference(
        citekey=citekey,
        entry_type=v.text(f"{where}.type", item.get("type")),
        title=v.text(f"{where}.title", item.get("title")),
        authors=authors,
        year=v.year(f"{where}.issued", item.get("issued")),
        container=v.text(f"{where}.container-title", item.get("container-title")),
        doi=normalise_doi(v.text(f"{where}.DOI", item.get("DOI"))),
        url=v.text(f"{where}.URL", item.get("URL")),
        pmid=v.text(f"{where}.PMID", item.get("PMID")),
        pmcid=v.text(f"{where}.PMCID", item.get("PMCID")),
        files=files,
        origin=origin,
        attachments=tuple(Attachment(unicodedata.normalize("NFC", f)) for f in files),
        pages=v.text(f"{where}.page", item.get("page")),
    )


def read_csl_items(items: list, source: object, where: str = "$") -> tuple[list[Reference], list[Diagnostic]]:
    """Strictly read a list of CSL items (a file's array, a front matter's ``references:``).

    Args:
        items: the items, in order.
        source: what names them in messages and origins (a path, or ``draft.md (front matter references)``).
        where: the JSON path of the array (``$``, ``$.items``).

    Returns:
        ``(references in order, diagnostics)``; an item without ``id`` is a ``bib-no-key`` diagnostic and is skipped.

    Raises:
        BibliographyError: an item is not an object, or a variable has the wrong kind (source and JSON path named).
    """
    refs: list[Reference] = []
    diags: list[Diagnostic] = []
    v = _Values(source, lenient=False)
    for n, item in enumerate(items):
        at = f"{where}[{n}]"
        if not isinstance(item, dict):
            raise BibliographyError(f"{source}: {at}: expected a CSL item (an object with an \"id\"), got {_kind(item)}")
        key = v.text(f"{at}.id", item.get("id")).strip()
        if not key:
            diags.append(Diagnostic("bib-no-key", "error", f"{source}: item {n + 1} ({at}) has no 'id' and cannot be cited", str(source)))
            continue
        refs.append(csl_reference(item, citekey=key, where=at, origin=f"{source}:item {n + 1}", source=source))
    return refs, diags


def read_bibliography_bytes(path: Path) -> bytes:
    """The bytes of a bibliography file (.bib or CSL-JSON).

    Raises:
        BibliographyError: the file is missing, a folder, unreadable or a
            PDF, with the path and what to do.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BibliographyError(f"{path}: bibliography not found; check the --bib path") from None
    except IsADirectoryError:
        raise BibliographyError(f"{path}: is a folder; --bib takes a .bib or CSL-JSON file") from None
    except OSError as exc:
        raise BibliographyError(f"{path}: cannot read the bibliography ({exc.strerror})") from None
    if raw[:5] == b"%PDF-":
        raise BibliographyError(f"{path}: is a PDF, not a bibliography; --bib takes a .bib or CSL-JSON file (a source PDF goes in --sources)")
    looks = not_a_bibliography(raw)
    if looks:
        raise BibliographyError(f"{path}: is {looks}, not a bibliography; --bib takes a .bib or CSL-JSON file"
                                + (" (a source document goes in --sources)" if "document" in looks or "page" in looks else ""))
    return raw


_ZIP_KINDS = (("word/", "a Word document"), ("ppt/", "a PowerPoint file"), ("xl/", "an Excel workbook"))
_ODF_KINDS = ((b"opendocument.text", "an OpenDocument text document"), (b"opendocument.spreadsheet", "an OpenDocument spreadsheet"),
              (b"opendocument.presentation", "an OpenDocument presentation"))


def not_a_bibliography(raw: bytes) -> str:
    """What a file that cannot be a bibliography looks like from its bytes (``a Word document``), or '' when it may be one.

    Recognised: zip packages (Word, PowerPoint, Excel, OpenDocument, other
    zip archives, by their member names), gzip, RTF, HTML pages, images
    (PNG, JPEG, GIF) and other binary files (a NUL byte in the first 4,096
    bytes, which neither BibTeX nor JSON text holds). A PDF is told apart by
    :func:`read_bibliography_bytes` itself.
    """
    head = raw[:4096]
    if head.startswith(b"PK\x03\x04"):
        import io
        import zipfile

        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as z:
                names = z.namelist()
                mime = z.read("mimetype")[:80] if "mimetype" in names else b""
        except (zipfile.BadZipFile, KeyError, OSError, ValueError):
            return "a zip archive"
        for marker, what in _ODF_KINDS:
            if marker in mime:
                return what
        for prefix, what in _ZIP_KINDS:
            if any(n.startswith(prefix) for n in names):
                return what
        return "a zip archive"
    if head.startswith(b"\x1f\x8b"):
        return "a gzip archive"
    if head.startswith(b"{\\rtf"):
        return "an RTF document"
    if head.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")):
        return "an image"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "a UTF-16 text file (save it as UTF-8)"
    if head.startswith((b"\xd0\xcf\x11\xe0",)):
        return "an old Office document (.doc, .xls)"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:15].lower().startswith((b"<!doctype html", b"<html", b"<head")):
        return "an HTML page"
    if b"\x00" in head:
        return "a binary file"
    return ""


def read_csl_document(path: Path) -> tuple[list, str]:
    """The CSL-JSON file's items and the JSON path of their array (``$`` or ``$.items``).

    Raises:
        BibliographyError: missing file, a folder, not UTF-8, not JSON (line
            and column given), nested too deep, or not an array of items.
    """
    raw = read_bibliography_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BibliographyError(f"{path}: byte {exc.start}: not UTF-8 text, and JSON must be UTF-8; re-export the bibliography as UTF-8 CSL-JSON") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BibliographyError(f"{path}:{exc.lineno}:{exc.colno}: not valid CSL-JSON ({exc.msg})") from None
    except RecursionError:
        raise BibliographyError(f"{path}: not valid CSL-JSON (arrays or objects nested too deep to read); is this a CSL-JSON export?") from None
    except ValueError as exc:  # e.g. an integer longer than Python's int/str conversion limit
        raise BibliographyError(f"{path}: not valid CSL-JSON ({exc})") from None
    if isinstance(data, dict) and "items" in data:
        items, where = data["items"], "$.items"
    else:
        items, where = data, "$"
    if not isinstance(items, list):
        raise BibliographyError(f"{path}: {where}: expected an array of CSL items (or {{\"items\": [...]}}), got {_kind(items)}; is this a CSL-JSON export?")
    return items, where


def read_csl_json(path: Path) -> tuple[list[Reference], list[Diagnostic]]:
    """Parse a CSL-JSON bibliography file (an array of items or ``{"items": [...]}``), strictly.

    Args:
        path: the .json file.

    Returns:
        ``(references in file order, diagnostics)``; an item without ``id``
        is a ``bib-no-key`` diagnostic and is skipped.

    Raises:
        BibliographyError: missing file, not UTF-8, invalid JSON (line and
            column), nested too deep, or a value of the wrong kind: the
            message names the file and the first bad JSON path
            (``$[3].author``); or no item at all (``[]``: every citekey would be unknown).
    """
    items, where = read_csl_document(path)
    if not items:
        raise BibliographyError(f"{path}: holds no CSL-JSON item, so every citekey would be unknown; check that this is the right file")
    return read_csl_items(items, path, where)
