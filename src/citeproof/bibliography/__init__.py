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
    names = [n.strip() for n in re.split(r"\s+and\s+", value) if n.strip()]
    return tuple(_latex_to_text(n) for n in names)


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
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    library = bibtexparser.parse_string(text)
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


def read_csl_json(path: Path) -> tuple[list[Reference], list[Diagnostic]]:
    """Parse a CSL-JSON bibliography (an array of items or ``{"items": [...]}``).

    Raises:
        BibliographyError: missing file or invalid JSON (the message gives
            the line and column of the JSON error).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BibliographyError(f"{path}: bibliography not found; check the --bib path") from None
    except json.JSONDecodeError as exc:
        raise BibliographyError(f"{path}:{exc.lineno}:{exc.colno}: not valid CSL-JSON ({exc.msg})") from None
    items = data.get("items", []) if isinstance(data, dict) else data
    refs: list[Reference] = []
    diags: list[Diagnostic] = []
    for n, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict) or not item.get("id"):
            diags.append(Diagnostic("bib-no-key", "error", f"{path}: item {n + 1} has no 'id' and cannot be cited", str(path)))
            continue
        authors = tuple(
            (a.get("family", "") + (", " + a["given"] if a.get("given") else "")).strip(", ") or a.get("literal", "")
            for a in item.get("author", [])
            if isinstance(a, dict)
        )
        issued = item.get("issued", {})
        year = ""
        if isinstance(issued, dict) and issued.get("date-parts"):
            year = str(issued["date-parts"][0][0])
        files = item.get("file") or item.get("files") or []
        if isinstance(files, str):
            files = [files]
        refs.append(
            Reference(
                citekey=str(item["id"]),
                entry_type=str(item.get("type", "")),
                title=str(item.get("title", "")),
                authors=authors,
                year=year,
                container=str(item.get("container-title", "")),
                doi=normalise_doi(str(item.get("DOI", ""))),
                url=str(item.get("URL", "")),
                pmid=str(item.get("PMID", "")),
                pmcid=str(item.get("PMCID", "")),
                files=tuple(str(f) for f in files),
                origin=f"{path}:item {n + 1}",
                attachments=tuple(Attachment(unicodedata.normalize("NFC", str(f))) for f in files),
                pages=str(item.get("page", "")),
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
