"""Reading a citing document: the reader registry by suffix, claims and the document's own bibliography.

Moved out of :mod:`citeproof.pipeline` (which re-exports every name). The readers live in
:mod:`citeproof.readers`; this module picks one and merges a citing PDF's printed reference list with given
bibliographies.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

from citeproof.bibliography import Bibliography
from citeproof.errors import CiteproofError, InputError, UnknownFormatError
from citeproof.model import (
    Claim,
    Diagnostic,
)
from citeproof.readers.attributions import AttributionReader
from citeproof.readers.docx import DocxReader
from citeproof.readers.latex import LatexReader
from citeproof.readers.markdown import MarkdownReader
from citeproof.readers.pdf import PdfReader

READERS: dict[str, Callable[[], object]] = {
    ".md": MarkdownReader,
    ".markdown": MarkdownReader,
    ".pandoc": MarkdownReader,
    ".rmd": MarkdownReader,
    ".qmd": MarkdownReader,
    ".txt": MarkdownReader,
    ".tex": LatexReader,
    ".ltx": LatexReader,
    ".tar.gz": LatexReader,
    ".tgz": LatexReader,
    ".pdf": PdfReader,
    ".docx": DocxReader,
    ".json": AttributionReader,
    ".odt": DocxReader,
}
"""Citing-document readers by file suffix (a plain dict registry, ``STYLE.md``).

Readers with a ``read_document(path)`` method also hand back the document's
own bibliography (a LaTeX file's .bib or .bbl, a PDF's printed reference
list); :func:`check` uses it when no ``--bib`` is given."""


def reader_for(path: Path) -> object:
    """A reader instance for ``path``'s suffix (``.tar.gz`` counts as one suffix).

    Raises:
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    name = path.name.lower()
    for suffix in sorted(READERS, key=len, reverse=True):
        if name.endswith(suffix):
            return READERS[suffix]()
    raise UnknownFormatError(f"{path}: no reader for '{path.suffix}' files; citeproof reads {', '.join(sorted(READERS))}")


def read_document(path: Path) -> tuple[list[Claim], Bibliography | None]:
    """Read a citing document: its claims and, when it carries one, its own bibliography.

    Returns:
        ``(claims, bibliography or None)``. Markdown gives None; LaTeX the
        .bib/.bbl it names; a PDF its printed reference list keyed by the
        labels as printed.

    Raises:
        InputError: the file does not exist or cannot be read.
        UnknownFormatError: no reader for the suffix.
    """
    claims, bib, _diagnostics = read_input(path)
    return claims, bib


def read_input(path: Path) -> tuple[list[Claim], Bibliography | None, list[Diagnostic]]:
    """:func:`read_document` plus the reader's own diagnostics (encoding fall-back, text read as plain text...).

    Raises:
        InputError: the file does not exist or cannot be read.
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file; check the path of the citing document")
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give the citing document itself (e.g. {path}/draft.md)")
    reader = reader_for(path)
    if isinstance(reader, PdfReader):
        # an untrusted PDF: parsed in a worker with a time and memory limit (citeproof.sources.sandbox)
        from citeproof.sources.sandbox import ParseLimitError, run_limited

        try:
            kind, *rest = run_limited(_read_pdf_document, path)
        except ParseLimitError as exc:
            raise InputError(f"{path}: {exc}") from None
        if kind == "error":
            raise InputError(rest[0])
        return rest[0], rest[1], []  # the PDF's own diagnostics travel in its bibliography's
    if hasattr(reader, "read_document"):
        doc = reader.read_document(path)
        return doc.claims, doc.bibliography(), list(getattr(doc, "diagnostics", []))
    return reader.read(path), None, []  # type: ignore[attr-defined]


def _read_pdf_document(path: Path) -> tuple:
    """``("ok", claims, bibliography)`` of a citing PDF, or ``("error", message)`` (run in a parse worker)."""
    try:
        doc = PdfReader().read_document(path)
    except CiteproofError as exc:
        return ("error", str(exc))
    return ("ok", doc.claims, doc.bibliography())


def read_claims(path: Path) -> list[Claim]:
    """Read a citing document with the reader registered for its suffix.

    Raises:
        InputError: the file does not exist.
        UnknownFormatError: no reader for the suffix.
    """
    return read_document(path)[0]


def merge_printed_references(printed: Bibliography, given: Bibliography) -> Bibliography:
    """Enrich a PDF's printed reference list with matching ``--bib`` entries.

    Each printed entry keeps its printed label as citekey; when a ``--bib``
    entry has the same DOI, the same arXiv id, or a title scoring at least
    :data:`citeproof.sources.TITLE_MATCH_MIN` (rapidfuzz), the printed entry
    takes that entry's ``file`` paths and origin (``file:line`` of the .bib
    entry, so relative paths resolve against the .bib's folder) and any
    identifier it lacked. One ``info`` diagnostic counts the matches by kind.
    """

    from citeproof.bibliography import normalise_doi
    from citeproof.model import Diagnostic
    from citeproof.sources import TITLE_MATCH_MIN, authors_agree, title_score

    if not printed.entries:  # nothing printed to enrich (a .docx pandoc made, citing by key): the --bib is the bibliography
        return Bibliography(entries=dict(given.entries), files=list(given.files), diagnostics=list(printed.diagnostics) + list(given.diagnostics),
                            unknown_reasons={**given.unknown_reasons, **printed.unknown_reasons}, description=given.description)
    hows: dict[str, int] = {}
    by_doi = {normalise_doi(r.doi): r for r in given.entries.values() if r.doi}
    by_arxiv = {r.arxiv.lower(): r for r in given.entries.values() if r.arxiv}
    out = Bibliography(files=list(printed.files) + list(given.files), diagnostics=list(printed.diagnostics) + list(given.diagnostics),
                       unknown_reasons=dict(printed.unknown_reasons), description=printed.description)
    for key, ref in printed.entries.items():
        match, how = None, ""
        if ref.doi and normalise_doi(ref.doi) in by_doi:
            match, how = by_doi[normalise_doi(ref.doi)], f"DOI {ref.doi}"
        elif ref.arxiv and ref.arxiv.lower() in by_arxiv:
            match, how = by_arxiv[ref.arxiv.lower()], f"arXiv {ref.arxiv}"
        elif ref.title:
            good = [(title_score(ref.title, r.title), r) for r in given.entries.values() if r.title]
            good = [(sc, r) for sc, r in good if sc >= TITLE_MATCH_MIN and authors_agree(ref, " ".join(r.authors)) is not False]
            good.sort(key=lambda t: -t[0])
            if len(good) == 1 or (len(good) > 1 and good[0][0] - good[1][0] > 3):
                match, how = good[0][1], f"title score {good[0][0]:.1f}"
            elif len(good) > 1:
                out.diagnostics.append(Diagnostic("pdf-ref-bib-ambiguous", "warning", f"printed reference [{key}] matches several --bib entries by title: {', '.join(r.citekey for _, r in good[:4])}; none used", "", 0))
        if match is None:
            out.entries[key] = ref
            continue
        out.entries[key] = dataclasses.replace(
            ref, files=match.files, attachments=match.attachments, origin=match.origin, doi=ref.doi or match.doi, arxiv=ref.arxiv or match.arxiv, title=ref.title or match.title,
            entry_type=ref.entry_type or match.entry_type,
        )
        hows[how.split()[0]] = hows.get(how.split()[0], 0) + 1
    if printed.entries:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(hows.items())) or "none"
        out.diagnostics.append(Diagnostic("pdf-ref-bib-match", "info", f"{sum(hows.values())} of {len(printed.entries)} printed references matched a --bib entry (by {detail}); the rest are checked as printed"))
    return out
