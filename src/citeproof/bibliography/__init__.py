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


def _parse(text: str, path: Path):
    """bibtexparser's library of ``text``; its crashes become :class:`BibliographyError` naming ``path``."""
    import bibtexparser

    try:
        return bibtexparser.parse_string(text)
    except RecursionError:
        raise BibliographyError(f"{path}: braces nested too deep to read; is this a .bib file?") from None
    except Exception as exc:  # noqa: BLE001 - bibtexparser's splitter on input it was not written for
        raise BibliographyError(f"{path}: bibtexparser could not read this file ({type(exc).__name__}: {exc}); check that it is a .bib file") from None


def read_bibtex(path: Path) -> tuple[list[Reference], list[Diagnostic]]:
    """Parse one BibTeX/BibLaTeX file (:func:`read_bibtex_keyed` without the broken keys)."""
    refs, diags, _ = read_bibtex_keyed(path)
    return refs, diags


def read_bibtex_keyed(path: Path) -> tuple[list[Reference], list[Diagnostic], dict[str, str]]:
    """Parse one BibTeX/BibLaTeX file.

    Args:
        path: the .bib file.

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
        # a run against it would only write every citation as an unknown citekey and exit 0 (issue 30)
        raise BibliographyError(f"{path}: holds no BibTeX entry, so every citekey would be unknown; check that this is the right file")
    return refs, diags, broken


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
    for path in paths:
        path = Path(path)
        if is_zotero_library(path):
            refs, diags, path = read_zotero(path, collection)
        elif path.suffix.lower() in (".json", ".csl", ".csljson"):
            refs, diags = read_csl_json(path)
        else:
            refs, diags, broken = read_bibtex_keyed(path)
            for key, why in broken.items():
                bib.unknown_reasons.setdefault(key, why)
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
