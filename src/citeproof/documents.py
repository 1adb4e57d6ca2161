"""The one reader registry: citing documents -> claims and the document's own bibliography.

:data:`READER_LIST` holds every citing-document reader (:class:`Reader`: its suffixes, media types, whether
the document brings its own references, whether a given ``--bib`` enriches them, whether it is read in a
parse worker). The CLI, the web page, batch and the docs table read it; adding an input format is one
entry here (and the reader under :mod:`citeproof.readers`). This module also merges a citing PDF's or
Word file's printed reference list with given bibliographies.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

from citeproof.bibliography import Bibliography
from citeproof.errors import CiteproofError, InputError, UnknownFormatError
from citeproof.model import (
    Claim,
    Diagnostic,
)
from citeproof.readers.attributions import AttributionReader
from citeproof.readers.docx import DocxReader
from citeproof.readers.latex import LatexReader
from citeproof.readers.latex_files import confine_reads
from citeproof.readers.markdown import MarkdownReader
from citeproof.readers.pdf import PdfReader

@dataclass(frozen=True)
class ReadOptions:
    """How a :class:`Reader` reads.

    Attributes:
        confine_to: a folder the reader may not read outside of (a LaTeX
            ``\\input`` or ``\\bibliography``, a front matter's bibliography; the
            web page confines each job to its own); None: anywhere.
    """

    confine_to: Path | None = None


@dataclass(frozen=True)
class Reading:
    """What a :class:`Reader` read: the claims, the document's own bibliography (None: it has none) and the reader's diagnostics."""

    claims: list[Claim]
    bibliography: Bibliography | None
    diagnostics: list[Diagnostic]


@runtime_checkable
class Reader(Protocol):
    """A citing-document reader as the registry holds it (:data:`READERS`).

    Attributes:
        name: what the documents are called, for messages and the docs table ("Markdown").
        suffixes: file-name endings it reads, lower case, with the dot (``.tar.gz`` is one).
        media_types: the media types of those files (for upload forms and content negotiation).
        own_bibliography: "always" (the document carries its references: LaTeX, PDF, Word,
            attributions), "front matter" (a Markdown front matter or Manubot files may name one)
            or "no".
        enriched_by_bib: True when a given ``--bib`` enriches the document's own printed
            entries (:func:`merge_printed_references`: a PDF's, a Word file's) instead of replacing them.
    """

    name: str
    suffixes: tuple[str, ...]
    media_types: tuple[str, ...]
    own_bibliography: str
    enriched_by_bib: bool

    def read(self, path: Path, options: ReadOptions | None = None) -> Reading:
        """Read ``path``: claims, the document's own bibliography and diagnostics.

        Raises:
            InputError: the file cannot be read (named, with what to do).
        """
        ...


@dataclass(frozen=True)
class ReaderEntry:
    """One registered reader: the reader class (``read_document(path)`` gives an object with ``claims``,
    ``bibliography()`` and optionally ``diagnostics``) and what the registry says about it (:class:`Reader`).

    ``sandboxed``: the file is untrusted binary (a PDF) and is read in a parse worker with a time and
    memory limit (:mod:`citeproof.sources.sandbox`), so one hostile file cannot hang or exhaust the process.
    """

    name: str
    suffixes: tuple[str, ...]
    media_types: tuple[str, ...]
    load: Callable[[], object]
    own_bibliography: str = "no"
    enriched_by_bib: bool = False
    sandboxed: bool = False

    def read(self, path: Path, options: ReadOptions | None = None) -> Reading:
        """See :meth:`Reader.read`."""
        path = Path(path)
        opts = options or ReadOptions()
        with confine_reads(opts.confine_to) if opts.confine_to is not None else contextlib.nullcontext():
            if self.sandboxed:
                from citeproof.sources.sandbox import ParseLimitError, run_limited

                try:
                    kind, *rest = run_limited(_read_in_worker, self.name, path)
                except ParseLimitError as exc:
                    raise InputError(f"{path}: {exc}") from None
                if kind == "error":
                    raise InputError(rest[0])
                return Reading(rest[0], rest[1], [])  # the document's own diagnostics travel in its bibliography's
            doc = self.load().read_document(path)  # type: ignore[attr-defined]
            return Reading(doc.claims, doc.bibliography(), list(getattr(doc, "diagnostics", [])))


READER_LIST: tuple[ReaderEntry, ...] = (
    ReaderEntry("Markdown", (".md", ".markdown", ".pandoc", ".rmd", ".qmd", ".txt"),
                ("text/markdown", "text/x-markdown", "text/x-r-markdown", "text/plain"), MarkdownReader, own_bibliography="front matter"),
    ReaderEntry("LaTeX", (".tex", ".ltx", ".tar.gz", ".tgz"), ("application/x-tex", "text/x-tex", "application/gzip", "application/x-gzip"),
                LatexReader, own_bibliography="always"),
    ReaderEntry("PDF", (".pdf",), ("application/pdf",), PdfReader, own_bibliography="always", enriched_by_bib=True, sandboxed=True),
    ReaderEntry("Word", (".docx", ".odt"), ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                                            "application/vnd.oasis.opendocument.text"), DocxReader, own_bibliography="always", enriched_by_bib=True),
    ReaderEntry("attributions JSON", (".json",), ("application/json",), AttributionReader, own_bibliography="always"),
)
"""Every citing-document reader, in the order the docs table lists them. The CLI, the web page (its upload
lists and form), batch and ``docs/inputs.md`` all read this one registry (issue 29)."""

READERS: dict[str, ReaderEntry] = {suffix: entry for entry in READER_LIST for suffix in entry.suffixes}
"""Citing-document readers by file suffix (lower case, with the dot; ``.tar.gz`` counts as one)."""

DOCUMENT_SUFFIXES: tuple[str, ...] = tuple(READERS)
"""Every suffix a citing document may have."""


def reader_for(path: Path) -> ReaderEntry:
    """The registered reader for ``path``'s suffix (``.tar.gz`` counts as one suffix; case ignored).

    Raises:
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    name = path.name.lower()
    for suffix in sorted(READERS, key=len, reverse=True):
        if name.endswith(suffix):
            return READERS[suffix]
    raise UnknownFormatError(f"{path}: no reader for '{path.suffix}' files; citeproof reads {', '.join(sorted(READERS))}")


def read_document(path: Path) -> tuple[list[Claim], Bibliography | None]:
    """Read a citing document: its claims and, when it carries one, its own bibliography.

    Returns:
        ``(claims, bibliography or None)``. Markdown gives None (unless its
        front matter names one); LaTeX the .bib/.bbl it names; a PDF its
        printed reference list keyed by the labels as printed.

    Raises:
        InputError: the file does not exist or cannot be read.
        UnknownFormatError: no reader for the suffix.
    """
    claims, bib, _diagnostics = read_input(path)
    return claims, bib


def read_input(path: Path, options: ReadOptions | None = None) -> tuple[list[Claim], Bibliography | None, list[Diagnostic]]:
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
    got = reader_for(path).read(path, options)
    return got.claims, got.bibliography, got.diagnostics


def given_bibliography(document: Path, own: Bibliography | None, given: Bibliography) -> Bibliography:
    """The bibliography a run uses when ``--bib`` files were given: they replace the document's own,
    except for a reader whose printed entries they enrich (PDF, Word: :func:`merge_printed_references`)."""
    if own is not None and reader_for(document).enriched_by_bib:
        return merge_printed_references(own, given)
    return given


def _read_in_worker(name: str, path: Path) -> tuple:
    """``("ok", claims, bibliography)`` of a sandboxed reader's document, or ``("error", message)`` (run in a parse worker)."""
    entry = next(e for e in READER_LIST if e.name == name)
    try:
        doc = entry.load().read_document(path)  # type: ignore[attr-defined]
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
