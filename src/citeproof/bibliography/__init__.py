"""Bibliographies -> :class:`~citeproof.model.Reference` records.

BibTeX/BibLaTeX through bibtexparser 2 (problems come back as data, as its
``failed_blocks``); CSL-JSON (an array of CSL items, or ``{"items": [...]}``; read by
:mod:`citeproof.bibliography.csl`, the one CSL item reader).
Several files can be given: the first one to define a citekey wins, and each
later duplicate becomes a ``bib-duplicate-key`` diagnostic.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from citeproof.bibliography.csl import read_bibliography_bytes, read_csl_json
from citeproof.bibliography.bibtex_fields import TEX_LOGOS, attachments as extra_attachments, blank_comment_lines, inherit, merge_repeated, name_form, strip_enclosing, useprefix
from citeproof.bibliography.bibtex_problems import MissingComma, comma_repairs, failed_block_key, failed_block_reason
from citeproof.bibliography.doi import normalise_doi
from citeproof.bibliography.file_field import parse_file_field
from citeproof.bibliography.zotero import is_zotero_library, read_zotero
from citeproof.errors import BibliographyError
from citeproof.model import Diagnostic, Reference

__all__ = ["Bibliography", "load_bibliographies", "read_bibtex", "read_bibtex_keyed", "read_csl_json", "normalise_doi"]


@dataclass
class Bibliography:
    """References from one or more files, by citekey.

    Attributes:
        entries: citekey -> Reference (first definition wins).
        files: the bibliography files read, in order.
        diagnostics: duplicate keys, unparseable entries, key-less entries.
        unknown_reasons: citekey -> why the bibliography has no entry for it
            (a citing PDF's unlinkable marker, a .bib entry that could not be
            parsed); used as the finding's reason.
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
            from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

            db = get_default_latex_context_db()
            db.add_context_category("tex-logos", prepend=True, macros=[MacroTextSpec(k, simplify_repl=v) for k, v in TEX_LOGOS.items()])
            _L2T = LatexNodes2Text(math_mode="verbatim", latex_context=db)
        text = _L2T.latex_to_text(value)
    except Exception:  # pylatexenc missing or markup it cannot read
        text = re.sub(r"\\([a-zA-Z]+)\s*", lambda m: TEX_LOGOS.get(m.group(1), ""), value).replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()


def _authors(value: str, use_prefix: bool = False) -> tuple[str, ...]:
    """A BibTeX name list split on top-level ``and`` by bibtexparser's own splitter.

    The splitter is what bibtexparser's ``SeparateCoAuthors`` middleware runs:
    a braced ``{Bill and Melinda Gates Foundation}`` stays one name. A name with a
    particle takes biblatex's form (:func:`~citeproof.bibliography.bibtex_fields.name_form`:
    ``Neumann, John von``; ``von Neumann, John`` with ``useprefix``).
    """
    from bibtexparser.middlewares.names import split_multiple_persons_names

    try:
        names = split_multiple_persons_names(value)
    except Exception:  # noqa: BLE001 - unbalanced braces: fall back to the plain split
        names = re.split(r"\s+and\s+", value)
    return tuple(t for t in (_latex_to_text(name_form(n.strip(), use_prefix)) for n in names) if t)


def _parse(text: str, path: Path):
    """bibtexparser's library of ``text``; its crashes become :class:`BibliographyError` naming ``path``."""
    import bibtexparser

    try:
        return bibtexparser.parse_string(text)
    except RecursionError:
        raise BibliographyError(f"{path}: braces nested too deep to read; is this a .bib file?") from None
    except Exception as exc:  # noqa: BLE001 - bibtexparser's splitter on input it was not written for
        why = " ".join(str(exc).split())[:200] or "its structure is not BibTeX's"
        raise BibliographyError(f"{path}: could not be read as BibTeX ({why}); check that it is a .bib file whose entries look like "
                                "@article{key, field = {value}, ...}") from None


def read_bibtex(path: Path) -> tuple[list[Reference], list[Diagnostic]]:
    """Parse one BibTeX/BibLaTeX file (:func:`read_bibtex_keyed` without the broken keys)."""
    refs, diags, _ = read_bibtex_keyed(path)
    return refs, diags


def read_bibtex_keyed(path: Path, parents: dict[str, tuple[str, dict[str, str]]] | None = None,
                      records_out: dict[str, tuple[str, dict[str, str]]] | None = None) -> tuple[list[Reference], list[Diagnostic], dict[str, str]]:
    """Parse one BibTeX/BibLaTeX file.

    Args:
        path: the .bib file.
        parents: entries of the run's other BibTeX files, ``{lower-cased key: (entry type, fields)}``: a
            ``crossref`` or ``xdata`` parent this file lacks is taken from them (biber reads every data source
            of a document as one).
        records_out: when given, filled with this file's own entries in the same shape (before inheritance).

    Returns:
        ``(references in file order, diagnostics, broken)``. Within one file a
        repeated key keeps its first entry (a diagnostic says so); an
        unparseable block or a key-less entry becomes an ``error`` diagnostic
        naming the line, and parsing goes on; ``broken`` maps the citekey of
        each unparseable entry to why (for its citations' findings). A comma
        missing between two fields (which bibtexparser reads as one field
        holding both) is a ``bib-missing-comma`` error naming the line, and
        the entry is read as if the comma were there.

    Raises:
        BibliographyError: the file does not exist, is not UTF-8/Latin-1
            text, is some other kind of file (a Word document...), or holds no entry at all.
    """
    raw = read_bibliography_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    text = blank_comment_lines(text)  # a %-commented copy of an entry is no entry (biber), and must not shadow the real one
    library = _parse(text, path)
    diags: list[Diagnostic] = []
    commas: list[MissingComma] = []
    for _ in range(8):  # a comma missing after each of several fields in a row shows one field per pass
        found = comma_repairs(text, library.entries)
        if not found:
            break
        commas += found
        for c in sorted(found, key=lambda c: -c.offset):
            text = text[: c.offset] + "," + text[c.offset :]
        library = _parse(text, path)
    for c in sorted(commas, key=lambda c: c.line):
        diags.append(
            Diagnostic(
                "bib-missing-comma",
                "error",
                f"{path}:{c.line}: a comma is missing after the '{c.field}' field, so '{c.next_field}' was read into it; "
                f"it is read as if the comma were there: add ',' after the '{c.field}' value on line {c.line}",
                str(path),
                c.line,
            )
        )
    refs: list[Reference] = []
    broken: dict[str, str] = {}
    records: list[tuple[str, str, dict[str, str], int]] = []  # (type, key, fields, line)
    for block in library.failed_blocks:
        kind = type(block).__name__
        line = (block.start_line or 0) + 1
        if kind == "DuplicateBlockKeyBlock":
            diags.append(
                Diagnostic(
                    "bib-duplicate-key",
                    "warning",
                    f"{path}:{line}: citekey '{block.key}' is defined again; the first definition is used: rename or remove one of them",
                    str(path),
                    line,
                )
            )
        elif kind == "DuplicateFieldKeyBlock" and getattr(block, "ignore_error_block", None) is not None:
            entry = block.ignore_error_block
            fields, repeated = merge_repeated([(f.key, strip_enclosing(str(f.value))) for f in entry.fields])
            how = "; ".join(f"'{k}' values are joined" if k in ("file", "keywords") else f"the first '{k}' is used" for k in repeated)
            diags.append(
                Diagnostic(
                    "bib-duplicate-field",
                    "warning",
                    f"{path}:{line}: entry '{entry.key}' gives {', '.join(repr(k) for k in repeated)} more than once; {how}: "
                    "remove the repeated field (BibTeX itself keeps only the first)",
                    str(path),
                    line,
                )
            )
            records.append((entry.entry_type.lower(), entry.key.strip(), fields, line))
        else:
            why = failed_block_reason(block.raw, getattr(block, "error", ""))
            key = failed_block_key(block.raw)
            named = f"entry '{key}'" if key else "this entry"
            diags.append(
                Diagnostic(
                    "bib-parse",
                    "error",
                    f"{path}:{line}: {named} could not be parsed and is skipped ({why}); fix the entry's syntax",
                    str(path),
                    line,
                )
            )
            if key:
                broken[key] = f"its entry at {path}:{line} could not be parsed ({why}); fix the entry's syntax"
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
        records.append((entry.entry_type.lower(), entry.key.strip(), {k.lower(): str(v.value) for k, v in entry.fields_dict.items()}, line))
    records.sort(key=lambda r: r[3])
    by_key = {key.lower(): (typ, fields) for typ, key, fields, _ in reversed(records)}  # the first definition wins
    if records_out is not None:
        records_out.update(by_key)
    if parents:
        by_key = {**parents, **by_key}
    for typ, key, f, line in records:
        if typ == "xdata":  # a biblatex data container, not a citable work
            continue
        f = _inherited(f, by_key, f"{path}:{line}", key, diags, str(path), line)
        refs.append(_reference(typ, key, f, f"{path}:{line}"))
    if not refs and not library.failed_blocks and text.strip() and "@" in text:
        raise BibliographyError(f"{path}: no BibTeX entry could be read; is this a .bib file?")
    if not refs and not library.failed_blocks:
        # a run against it would only write every citation as an unknown citekey and exit 0 (issue 30)
        raise BibliographyError(f"{path}: holds no BibTeX entry, so every citekey would be unknown; check that this is the right file")
    return refs, diags, broken


def _inherited(f: dict[str, str], by_key: dict[str, tuple[str, dict[str, str]]], where: str, key: str, diags: list[Diagnostic],
               path: str, line: int) -> dict[str, str]:
    """The entry's fields completed from its ``xdata`` entries, then its ``crossref`` parent (one level, as BibTeX)."""
    for name in [x.strip() for x in f.get("xdata", "").split(",") if x.strip()] + ([f["crossref"].strip()] if f.get("crossref", "").strip() else []):
        if name.lower() == key.lower():  # an entry naming itself: nothing to inherit
            continue
        parent = by_key.get(name.lower())
        if parent is None:
            diags.append(Diagnostic("bib-crossref-missing", "warning", f"{where}: entry '{key}' inherits from '{name}', which is in none of "
                                    "the bibliographies given; its year, container and editors are not inherited: add that entry", path, line))
            continue
        f = inherit(f, parent[1], parent[0])
    return f


def _reference(typ: str, key: str, f: dict[str, str], origin: str) -> Reference:
    """A :class:`Reference` from an entry's (inherited) fields; an entry with editors and no author keeps the editors."""
    files = list(parse_file_field(f.get("file", ""))) + extra_attachments(f)
    arxiv = ""
    if f.get("archiveprefix", "").lower() == "arxiv" or f.get("eprinttype", "").lower() == "arxiv":
        arxiv = f.get("eprint", "")
    year = f.get("year", "") or f.get("date", "")[:4]
    names = f.get("author", "").strip() or f.get("editor", "").strip()
    return Reference(
        citekey=key,
        entry_type=typ,
        title=_latex_to_text(f.get("title", "")),
        authors=_authors(names, useprefix(f)),
        year=year,
        container=_latex_to_text(f.get("journal", "") or f.get("journaltitle", "") or f.get("booktitle", "") or f.get("maintitle", "") or f.get("publisher", "")),
        doi=normalise_doi(f.get("doi", "")),
        arxiv=arxiv,
        url=f.get("url", ""),
        pmid=f.get("pmid", ""),
        pmcid=f.get("pmcid", ""),
        files=tuple(a.path for a in files),
        origin=origin,
        attachments=tuple(files),
        pages=f.get("pages", ""),
    )


def load_bibliographies(paths: list[Path], collection: str | None = None) -> Bibliography:
    """Read several bibliography files; the first definition of a key wins.

    Args:
        paths: .bib / .bibtex / .json (CSL-JSON) files, or Zotero libraries (a data folder holding
            ``zotero.sqlite``, or that file: :mod:`citeproof.bibliography.zotero`), in priority order.
        collection: for Zotero libraries, only this collection (``--collection``).

    Returns:
        The merged :class:`Bibliography`.

    Raises:
        BibliographyError: a file is missing or unreadable as a whole.
    """
    bib = Bibliography()
    read: list[tuple[Path, list[Reference], list[Diagnostic]]] = []
    raw: dict[Path, dict[str, tuple[str, dict[str, str]]]] = {}  # each BibTeX file's own entries, for crossref across files
    for path in paths:
        path = Path(path)
        if is_zotero_library(path):
            refs, diags, path = read_zotero(path, collection)
        elif path.suffix.lower() in (".json", ".csl", ".csljson"):
            refs, diags = read_csl_json(path)
        else:
            raw[path] = {}
            refs, diags, broken = read_bibtex_keyed(path, records_out=raw[path])
            for key, why in broken.items():
                bib.unknown_reasons.setdefault(key, why)
        read.append((path, refs, diags))
    for k, (path, refs, diags) in enumerate(read):
        if path in raw and len(raw) > 1 and any(d.code == "bib-crossref-missing" for d in diags):
            parents: dict[str, tuple[str, dict[str, str]]] = {}
            for other in reversed([p for p in raw if p != path]):  # the earlier file's entry wins
                parents.update(raw[other])
            refs, diags, _ = read_bibtex_keyed(path, parents=parents)  # a parent in another file (biber reads them as one)
            read[k] = (path, refs, diags)
    for path, refs, diags in read:
        bib.files.append(path)
        bib.diagnostics.extend(diags)
        for ref in refs:
            if ref.citekey in bib.entries:
                first = bib.entries[ref.citekey].origin
                bib.diagnostics.append(
                    Diagnostic(
                        "bib-duplicate-key",
                        "warning",
                        f"{ref.origin}: citekey '{ref.citekey}' is already defined at {first}; the first definition is used: rename or remove one of them",
                        str(path),
                        int(ref.origin.rsplit(":", 1)[-1]) if ref.origin.rsplit(":", 1)[-1].isdigit() else 0,
                    )
                )
                continue
            bib.entries[ref.citekey] = ref
    return bib
