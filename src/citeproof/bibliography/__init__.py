"""Bibliographies -> :class:`~citeproof.model.Reference` records.

BibTeX/BibLaTeX through bibtexparser 2 (problems come back as data, as its
``failed_blocks``); CSL-JSON (an array of CSL items, or ``{"items": [...]}``).
Several files can be given: the first one to define a citekey wins, and each
later duplicate becomes a ``bib-duplicate-key`` diagnostic.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from citeproof.bibliography.file_field import parse_file_field
from citeproof.errors import BibliographyError
from citeproof.model import Attachment, Diagnostic, Reference

__all__ = ["Bibliography", "load_bibliographies", "read_bibtex", "read_csl_json", "normalise_doi"]


@dataclass
class Bibliography:
    """References from one or more files, by citekey.

    Attributes:
        entries: citekey -> Reference (first definition wins).
        files: the bibliography files read, in order.
        diagnostics: duplicate keys, unparseable entries, key-less entries.
        unknown_reasons: citekey -> why the document's own reference list has
            no entry for it (a citing PDF's unlinkable marker); used as the
            finding's reason.
        description: what the bibliography is, for messages ('' means the
            files themselves).
    """

    entries: dict[str, Reference] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unknown_reasons: dict[str, str] = field(default_factory=dict)
    description: str = ""

    def get(self, citekey: str) -> Reference | None:
        """The entry for ``citekey``; falls back to a case-insensitive match.

        BibTeX keys are case-insensitive to BibTeX itself; DOIs inside
        manubot keys are too.
        """
        ref = self.entries.get(citekey)
        if ref is not None:
            return ref
        low = citekey.lower()
        for k, v in self.entries.items():
            if k.lower() == low:
                return v
        return None


def normalise_doi(doi: str) -> str:
    """A DOI without resolver prefix, lower-cased (DOIs are case-insensitive).

    ``https://doi.org/10.7554/eLife.32822`` -> ``10.7554/elife.32822``.
    """
    doi = doi.strip()
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.I)
    return doi.strip().rstrip(".").lower()


_L2T = None


def _latex_to_text(value: str) -> str:
    """Title/author text without LaTeX markup (pylatexenc when present).

    Plain text (no ``\\``, braces, ``$`` or ``~``) is returned as is: building
    pylatexenc's converter is costly, so one converter is shared.
    """
    global _L2T
    if not re.search(r"[\\{}$~]", value):
        return re.sub(r"\s+", " ", value).strip()
    try:
        if _L2T is None:
            from pylatexenc.latex2text import LatexNodes2Text

            _L2T = LatexNodes2Text(math_mode="verbatim")
        text = _L2T.latex_to_text(value)
    except Exception:  # pylatexenc missing or markup it cannot read
        text = re.sub(r"\\[a-zA-Z]+\s*", "", value).replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()


def _authors(value: str) -> tuple[str, ...]:
    """A BibTeX name list split on top-level ``and`` by bibtexparser's own splitter.

    The splitter is what bibtexparser's ``SeparateCoAuthors`` middleware runs:
    a braced ``{Bill and Melinda Gates Foundation}`` stays one name.
    """
    from bibtexparser.middlewares.names import split_multiple_persons_names

    try:
        names = split_multiple_persons_names(value)
    except Exception:  # noqa: BLE001 - unbalanced braces: fall back to the plain split
        names = re.split(r"\s+and\s+", value)
    return tuple(t for t in (_latex_to_text(n.strip()) for n in names) if t)


def read_bibtex(path: Path) -> tuple[list[Reference], list[Diagnostic]]:
    """Parse one BibTeX/BibLaTeX file.

    Args:
        path: the .bib file.

    Returns:
        ``(references in file order, diagnostics)``. Within one file a
        repeated key keeps its first entry (a diagnostic says so); an
        unparseable block or a key-less entry becomes a diagnostic naming the
        line, and parsing goes on.

    Raises:
        BibliographyError: the file does not exist, is not UTF-8/Latin-1
            text, or holds no entry at all while holding text.
    """
    import bibtexparser

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BibliographyError(f"{path}: bibliography not found; check the --bib path") from None
    except IsADirectoryError:
        raise BibliographyError(f"{path}: is a folder; --bib takes a .bib or CSL-JSON file") from None
    except OSError as exc:
        raise BibliographyError(f"{path}: cannot read the bibliography ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    try:
        library = bibtexparser.parse_string(text)
    except RecursionError:
        raise BibliographyError(f"{path}: braces nested too deep to read; is this a .bib file?") from None
    except Exception as exc:  # noqa: BLE001 - bibtexparser's splitter on input it was not written for
        raise BibliographyError(f"{path}: bibtexparser could not read this file ({type(exc).__name__}: {exc}); check that it is a .bib file") from None
    refs: list[Reference] = []
    diags: list[Diagnostic] = []
    for block in library.failed_blocks:
        kind = type(block).__name__
        line = (block.start_line or 0) + 1
        if kind == "DuplicateBlockKeyBlock":
            diags.append(
                Diagnostic(
                    "bib-duplicate-key",
                    "warning",
                    f"{path}:{line}: citekey '{block.key}' is defined again; the first definition is used",
                    str(path),
                    line,
                )
            )
        else:
            why = (str(getattr(block, "error", "") or "").strip().splitlines() or ["syntax error"])[0]
            diags.append(
                Diagnostic(
                    "bib-parse",
                    "error",
                    f"{path}:{line}: this entry could not be parsed and is skipped ({why}); fix the entry's syntax",
                    str(path),
                    line,
                )
            )
    for entry in library.entries:
        line = (entry.start_line or 0) + 1
        if not entry.key.strip():
            diags.append(
                Diagnostic(
                    "bib-no-key",
                    "error",
                    f"{path}:{line}: @{entry.entry_type} entry has no citekey and cannot be cited; add a key after '{{'",
                    str(path),
                    line,
                )
            )
            continue
        f = {k.lower(): str(v.value) for k, v in entry.fields_dict.items()}
        attachments = tuple(parse_file_field(f.get("file", "")))
        arxiv = ""
        if f.get("archiveprefix", "").lower() == "arxiv" or f.get("eprinttype", "").lower() == "arxiv":
            arxiv = f.get("eprint", "")
        year = f.get("year", "") or f.get("date", "")[:4]
        refs.append(
            Reference(
                citekey=entry.key.strip(),
                entry_type=entry.entry_type.lower(),
                title=_latex_to_text(f.get("title", "")),
                authors=_authors(f.get("author", "")),
                year=year,
                container=_latex_to_text(f.get("journal", "") or f.get("journaltitle", "") or f.get("booktitle", "") or f.get("publisher", "")),
                doi=normalise_doi(f.get("doi", "")),
                arxiv=arxiv,
                url=f.get("url", ""),
                pmid=f.get("pmid", ""),
                pmcid=f.get("pmcid", ""),
                files=tuple(a.path for a in attachments),
                origin=f"{path}:{line}",
                attachments=attachments,
                pages=f.get("pages", ""),
            )
        )
    if not refs and not library.failed_blocks and text.strip() and "@" in text:
        raise BibliographyError(f"{path}: no BibTeX entry could be read; is this a .bib file?")
    if not refs and not library.failed_blocks:
        diags.append(
            Diagnostic(
                "bib-empty",
                "warning",
                f"{path}: holds no BibTeX entry, so every citekey will be unknown; check that this is the right file",
                str(path),
            )
        )
    return refs, diags


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


def _csl_text(path: Path, where: str, value: object) -> str:
    """A CSL ordinary variable (a string or a number, as CSL-JSON allows) as text.

    Raises:
        BibliographyError: ``value`` is an array, object or true/false; the
            message names the file and the JSON path.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise BibliographyError(f"{path}: {where}: expected a string or a number, got {_kind(value)}; fix this CSL-JSON item")


def _csl_names(path: Path, where: str, value: object) -> tuple[str, ...]:
    """A CSL name variable (an array of name objects) as ``Family, Given`` strings.

    Raises:
        BibliographyError: not an array of objects with string parts (file and JSON path named).
    """
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BibliographyError(f"{path}: {where}: expected an array of names like {{\"family\": \"Doe\", \"given\": \"J\"}}, got {_kind(value)}")
    names = []
    for i, a in enumerate(value):
        if not isinstance(a, dict):
            raise BibliographyError(f"{path}: {where}[{i}]: expected a name object like {{\"family\": \"Doe\"}}, got {_kind(a)}")
        parts = {k: _csl_text(path, f"{where}[{i}].{k}", a.get(k)) for k in _CSL_TEXT_PARTS}
        name = (parts["family"] + (", " + parts["given"] if parts["given"] else "")).strip(", ") or parts["literal"]
        if name:
            names.append(name)
    return tuple(names)


def _csl_year(path: Path, where: str, value: object) -> str:
    """The year of a CSL date variable (``date-parts``, else the first 4 digits of ``raw``/``literal``).

    Raises:
        BibliographyError: ``date-parts`` is not an array of arrays of
            numbers/strings, or the date is not an object (file and JSON path named).
    """
    if value is None or value == "":
        return ""
    if isinstance(value, str):  # some exporters write the date as a plain string
        m = re.search(r"\d{4}", value)
        return m.group(0) if m else ""
    if not isinstance(value, dict):
        raise BibliographyError(f"{path}: {where}: expected a date object like {{\"date-parts\": [[2020, 5]]}}, got {_kind(value)}")
    parts = value.get("date-parts")
    if parts is not None:
        if not isinstance(parts, list):
            raise BibliographyError(f"{path}: {where}.date-parts: expected an array of [year, month, day] arrays, got {_kind(parts)}")
        for i, dp in enumerate(parts):
            if not isinstance(dp, list) or not dp:
                got = "an empty array" if isinstance(dp, list) else _kind(dp)
                raise BibliographyError(f"{path}: {where}.date-parts[{i}]: expected an array like [2020, 5, 17], got {got}")
            for j, x in enumerate(dp):
                _csl_text(path, f"{where}.date-parts[{i}][{j}]", x)
        if parts and parts[0]:
            return _csl_text(path, f"{where}.date-parts[0][0]", parts[0][0])
    for k in ("raw", "literal"):
        m = re.search(r"\d{4}", _csl_text(path, f"{where}.{k}", value.get(k)))
        if m:
            return m.group(0)
    return ""


def _csl_files(path: Path, where: str, item: dict) -> tuple[str, ...]:
    """The item's attached files (``file`` or ``files``: a string or an array of strings).

    Raises:
        BibliographyError: another kind of value (file and JSON path named).
    """
    key = "file" if item.get("file") is not None else "files"
    value = item.get(key)
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list):
        raise BibliographyError(f"{path}: {where}.{key}: expected a file path or an array of file paths, got {_kind(value)}")
    out = []
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise BibliographyError(f"{path}: {where}.{key}[{i}]: expected a file path (a string), got {_kind(v)}")
        out.append(v)
    return tuple(out)


def _csl_document(path: Path) -> tuple[list, str]:
    """The CSL-JSON file's items and the JSON path of their array (``$`` or ``$.items``).

    Raises:
        BibliographyError: missing file, a folder, not UTF-8, not JSON (line
            and column given), nested too deep, or not an array of items.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BibliographyError(f"{path}: bibliography not found; check the --bib path") from None
    except IsADirectoryError:
        raise BibliographyError(f"{path}: is a folder; --bib takes a .bib or CSL-JSON file") from None
    except OSError as exc:
        raise BibliographyError(f"{path}: cannot read the bibliography ({exc.strerror})") from None
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
    """Parse a CSL-JSON bibliography (an array of items or ``{"items": [...]}``).

    Variables are typed as CSL-JSON's schema says (``csl-data.json`` of the
    citation-style-language/schema repository): ordinary variables are
    strings or numbers, names arrays of name objects, dates objects with
    ``date-parts``; ``file``/``files`` a string or an array of strings.

    Args:
        path: the .json file.

    Returns:
        ``(references in file order, diagnostics)``; an item without ``id``
        is a ``bib-no-key`` diagnostic and is skipped.

    Raises:
        BibliographyError: missing file, not UTF-8, invalid JSON (line and
            column), nested too deep, or a value of the wrong kind: the
            message names the file and the first bad JSON path
            (``$[3].author``).
    """
    items, where = _csl_document(path)
    refs: list[Reference] = []
    diags: list[Diagnostic] = []
    for n, item in enumerate(items):
        at = f"{where}[{n}]"
        if not isinstance(item, dict):
            raise BibliographyError(f"{path}: {at}: expected a CSL item (an object with an \"id\"), got {_kind(item)}")
        key = _csl_text(path, f"{at}.id", item.get("id")).strip()
        if not key:
            diags.append(Diagnostic("bib-no-key", "error", f"{path}: item {n + 1} ({at}) has no 'id' and cannot be cited", str(path)))
            continue
        authors = _csl_names(path, f"{at}.author", item.get("author"))
        for name_field in _CSL_NAME_FIELDS[1:]:
            _csl_names(path, f"{at}.{name_field}", item.get(name_field))
        files = _csl_files(path, at, item)
        refs.append(
            Reference(
                citekey=key,
                entry_type=_csl_text(path, f"{at}.type", item.get("type")),
                title=_csl_text(path, f"{at}.title", item.get("title")),
                authors=authors,
                year=_csl_year(path, f"{at}.issued", item.get("issued")),
                container=_csl_text(path, f"{at}.container-title", item.get("container-title")),
                doi=normalise_doi(_csl_text(path, f"{at}.DOI", item.get("DOI"))),
                url=_csl_text(path, f"{at}.URL", item.get("URL")),
                pmid=_csl_text(path, f"{at}.PMID", item.get("PMID")),
                pmcid=_csl_text(path, f"{at}.PMCID", item.get("PMCID")),
                files=files,
                origin=f"{path}:item {n + 1}",
                attachments=tuple(Attachment(unicodedata.normalize("NFC", f)) for f in files),
                pages=_csl_text(path, f"{at}.page", item.get("page")),
            )
        )
    return refs, diags


def load_bibliographies(paths: list[Path]) -> Bibliography:
    """Read several bibliography files; the first definition of a key wins.

    Args:
        paths: .bib / .bibtex / .json (CSL-JSON) files, in priority order.

    Returns:
        The merged :class:`Bibliography`.

    Raises:
        BibliographyError: a file is missing or unreadable as a whole.
    """
    bib = Bibliography()
    for path in paths:
        path = Path(path)
        if path.suffix.lower() in (".json", ".csl", ".csljson"):
            refs, diags = read_csl_json(path)
        else:
            refs, diags = read_bibtex(path)
        bib.files.append(path)
        bib.diagnostics.extend(diags)
        for ref in refs:
            if ref.citekey in bib.entries:
                first = bib.entries[ref.citekey].origin
                bib.diagnostics.append(
                    Diagnostic(
                        "bib-duplicate-key",
                        "warning",
                        f"{ref.origin}: citekey '{ref.citekey}' is already defined at {first}; the first definition is used",
                        str(path),
                        int(ref.origin.rsplit(":", 1)[-1]) if ref.origin.rsplit(":", 1)[-1].isdigit() else 0,
                    )
                )
                continue
            bib.entries[ref.citekey] = ref
    return bib
