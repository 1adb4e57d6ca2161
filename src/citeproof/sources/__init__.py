"""References -> Sources -> Passages: finding the local file and parsing it.

Resolution order for a reference's file (issue 2, "Bibliography"):

1. each path in the entry's ``file`` field, as written if absolute, else
   against the .bib's own folder; Mendeley's slash-less absolute paths also
   with a leading ``/``;
2. the same path's tail (file name, then the last two components) against
   the other .bib folders, then each ``--sources`` folder;
3. in ``--sources`` folders: ``<citekey>.pdf`` (also ``.md``, ``.txt``,
   ``.html``; ``/`` and ``:`` in keys may be written ``_`` or ``-``), then a
   PDF whose DOI (metadata or first two pages) equals the entry's DOI, then
   a file whose arXiv id (first page, metadata or file name) equals the
   entry's, then a file whose own title (PDF metadata, the largest text on
   page 1, or a Markdown file's first heading) or first-page text matches the
   entry's title by rapidfuzz (score >= :data:`TITLE_MATCH_MIN`, out of 100).
   Each match says how it was made and its score (``Source.origin``); two
   files scoring alike make the match ambiguous: no file, both named.

A reference with no file becomes a :class:`~citeproof.model.Source` whose
``error`` says what was tried; an unreadable file one whose ``error`` says
why. Nothing here raises for a bad source.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import threading
import time
from dataclasses import asdict
from pathlib import Path

from citeproof.bibliography import normalise_doi
from citeproof.model import Attachment, Passage, Reference, Source, SourceCandidate
from citeproof.sources.attachments import attachments_of, choose_source, find_on_disk, unread_type
from citeproof.sources.cache import Cache
from citeproof.sources.identity import (DOCUMENT_ENTRY_TYPES, WEB_ENTRY_TYPES, authors_agree, identity_agreement, is_short_title, short_title_match,
                                        source_identity, title_score)
from citeproof.sources.kinds import KIND_SUFFIXES, READ_NAMES, recording_error, refine_media_type
from citeproof.sources.office import OFFICE_TYPES
from citeproof.sources.pdf import pdf_metadata
from citeproof.sources.registry import SOURCE_PARSERS, SUFFIXES, UNREAD_SUFFIXES, SourceParser, media_type_of  # noqa: F401 - re-exported
from citeproof.sources.sandbox import ParseLimitError, run_limited
from citeproof.sources.text import TEXT_PARSER_VERSION, parse_text  # noqa: F401 - TEXT_PARSER_VERSION re-exported

_log = logging.getLogger(__name__)

__all__ = ["SourceResolver", "load_source", "media_type_of", "SOURCE_PARSERS", "SourceParser", "SUFFIXES", "UNREAD_SUFFIXES", "TITLE_MATCH_MIN", "source_identity", "title_score"]

TITLE_MATCH_MIN = 90.0
"""Lowest rapidfuzz score (0-100) at which a title match is accepted."""

TITLE_AMBIGUITY = 3.0
"""Two files whose title scores are within this many points are ambiguous."""

def load_source(citekey: str, path: Path, origin: str, cache: Cache, ocr: str = "auto") -> Source:
    """Read and parse one source file, through the cache.

    Args:
        citekey: the reference the file stands for.
        path: the file.
        origin: how it was found (kept in the report's provenance).
        cache: parsed-source cache.
        ocr: ``--ocr`` mode for PDFs (``auto``, ``force``, ``never``;
            :mod:`citeproof.sources.ocr`); part of the cache key.

    Returns:
        A :class:`Source`; ``error`` is set (and ``passages`` empty) when the
        file cannot be read or parsed.
    """
    src = Source(citekey=citekey, path=str(path), origin=origin)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        src.error = f"{path}: is a folder, not a file; point the bibliography's file field at the PDF inside it"
        return src
    except OSError as exc:
        src.error = f"{path}: cannot be read ({exc.strerror or exc})"
        return src
    src.sha256 = hashlib.sha256(data).hexdigest()
    src.media_type = refine_media_type(media_type_of(path, data[:5]), data)
    if not data:
        src.error = f"{path}: the file is empty"
        return src
    if path.suffix.lower() == ".pdf" and src.media_type != "application/pdf":
        looks = "an HTML page (a login or paywall page saved as .pdf?)" if data.lstrip()[:15].lower().startswith((b"<!doctype", b"<html", b"<?xml", b"<head")) else "something else"
        src.error = f"{path}: not a PDF: the file is {looks}; download the article's PDF again"
        src.media_type = ""
        return src
    if not src.media_type and recording_error(path):
        src.error = f"{path}: {recording_error(path)}"
        return src
    if not src.media_type:
        kind = unread_type(path)
        what = f"{kind} ({path.suffix}), a type citeproof does not read" if kind else f"unsupported file type '{path.suffix}'"
        src.error = f"{path}: {what}; citeproof reads PDF, Markdown, text, HTML, Word (.docx), OpenDocument (.odt), PowerPoint (.pptx), {READ_NAMES}: export it as PDF"
        return src
    kind = SOURCE_PARSERS[src.media_type]
    parser = kind.version(ocr)
    hit = cache.get(src.sha256, parser)
    if hit is not None:
        try:  # a payload of another layout (an extra or missing key) is a miss, parsed again below
            src.passages = [Passage(**{**p, "bbox": tuple(p["bbox"]) if p.get("bbox") else None, "bbox_end": tuple(p["bbox_end"]) if p.get("bbox_end") else None,
                                       "margin_numbers": tuple(p.get("margin_numbers") or ())}) for p in hit["passages"]]
            src.text, src.title, src.pages, src.error = hit["text"], hit["title"], hit["pages"], hit["error"]
            src.notes, src.ocr, src.metadata = list(hit.get("notes", [])), hit.get("ocr", ""), dict(hit.get("metadata", {}))
            _log.info("source %s (%s): from the cache, %d passages", path, citekey, len(src.passages))
            return src
        except (TypeError, KeyError, ValueError, AttributeError):
            src.passages, src.text, src.title, src.pages, src.error = [], "", "", 0, None
    t0 = time.perf_counter()
    cacheable = kind.parse(src, data, path, ocr)
    _log.info("source %s (%s): parsed, %d passages, %d pages (%.2f s)%s", path, citekey, len(src.passages), src.pages or 0,
              time.perf_counter() - t0, f"; {src.error}" if src.error else "")
    if cacheable:  # not when installing the OCR engine would read it
        cache.put(
            src.sha256,
            parser,
            {"passages": [asdict(p) for p in src.passages], "text": src.text, "title": src.title, "pages": src.pages, "error": src.error,
             "notes": src.notes, "ocr": src.ocr, "metadata": src.metadata},
        )
    return src


def inline_source(citekey: str, text: str, origin: str) -> Source:
    """A source whose text the citing input supplied inline: passages as for a text file, no path.

    ``sha256`` is the SHA-256 of the UTF-8 text; ``origin`` says where the text came from.
    """
    src = Source(citekey=citekey, path=None, origin=f"inline text ({origin})", media_type="text/plain",
                 sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    src.passages, src.text = parse_text(text)
    src.title = src.passages[0].text[:200] if src.passages else ""
    if not src.passages:
        src.error = f"{origin}: the inline source text is empty"
    return src


def _key_variants(citekey: str) -> list[str]:
    out = [citekey, re.sub(r"[/:]", "_", citekey), re.sub(r"[/:]", "-", citekey), re.sub(r"[^\w.-]+", "_", citekey)]
    return list(dict.fromkeys(out))


def _plain_name(name: str) -> bool:
    """True when ``name`` is one file name: no folder separator, not ``.``/``..``, no NUL.

    Citekeys come from the document (an upload, on the web page), so
    ``<sources>/<citekey>.pdf`` must never be a path that leaves the folder.
    """
    return bool(name) and name not in (".", "..") and not any(ch in name for ch in "/\\\0") and not re.match(r"^[A-Za-z]:", name)


class SourceResolver:
    """Finds and loads the source file of each reference.

    Args:
        bib_dirs: folders of the bibliography files, in ``--bib`` order.
        source_dirs: ``--sources`` folders.
        cache: parsed-source cache.
        confine: when set, a file a bibliography names is read only if it
            resolves inside this folder, one of these folders, or a
            ``source_dirs`` folder (the web page sets it to the job's folder,
            so an uploaded .bib cannot pull in a server file; the CLI to a
            LaTeX document's folder and its bundle).
        ocr: ``--ocr`` mode for scanned PDFs (:mod:`citeproof.sources.ocr`).

    Loaded sources are memoised by file path, so two citekeys naming the
    same PDF parse it once.
    """

    def __init__(self, bib_dirs: list[Path], source_dirs: list[Path], cache: Cache, confine: Path | list[Path] | None = None, ocr: str = "auto") -> None:
        self.ocr = ocr
        roots = [confine] if isinstance(confine, (str, Path)) else list(confine or [])
        self.confine = [Path(r).resolve() for r in roots + list(source_dirs)] if confine is not None else None
        self.bib_dirs = [Path(d) for d in bib_dirs]
        self.source_dirs = [Path(d) for d in source_dirs]
        self.cache = cache
        self._loaded: dict[str, Source] = {}
        self._lock = threading.Lock()
        self._index_lock = threading.Lock()  # the folder indexes are built once, whichever thread asks first
        self._parsing: dict[str, threading.Lock] = {}  # resolved path -> held while one thread parses it
        self._doi_index: dict[str, Path] | None = None
        self._ids: list[tuple[Path, dict]] | None = None

    def _doi_map(self) -> dict[str, Path]:
        """DOI -> PDF in the ``--sources`` folders (built once, on demand)."""
        with self._index_lock:
            return self._build_doi_map()

    def _build_doi_map(self) -> dict[str, Path]:
        if self._doi_index is None:
            index: dict[str, Path] = {}
            for d in self.source_dirs:
                for pdf in sorted(d.rglob("*.pdf")):
                    try:
                        data = pdf.read_bytes()
                    except OSError:
                        continue
                    sha = hashlib.sha256(data).hexdigest()
                    meta = self.cache.get(sha, "meta-1")
                    if meta is None:
                        try:
                            title, doi, err = run_limited(pdf_metadata, data)
                        except ParseLimitError as exc:
                            title, doi, err = "", "", str(exc)
                        meta = {"title": title, "doi": doi, "error": err}
                        self.cache.put(sha, "meta-1", meta)
                    if meta.get("doi"):
                        index.setdefault(normalise_doi(meta["doi"]), pdf)
            self._doi_index = index
        return self._doi_index

    def _identities(self) -> list[tuple[Path, dict]]:
        """``(file, source_identity)`` for every readable file in the ``--sources`` folders (built once, cached by content)."""
        with self._index_lock:
            return self._build_identities()

    def _build_identities(self) -> list[tuple[Path, dict]]:
        if self._ids is None:
            ids: list[tuple[Path, dict]] = []
            for d in self.source_dirs:
                for f in sorted(d.rglob("*")):
                    if not f.is_file() or f.suffix.lower() not in SUFFIXES:
                        continue
                    try:
                        data = f.read_bytes()
                    except OSError:
                        continue
                    sha = hashlib.sha256(data).hexdigest()
                    meta = self.cache.get(sha, "ident-3:" + f.suffix.lower())
                    if meta is None:
                        try:
                            meta = run_limited(source_identity, f, data) if media_type_of(f, data[:5]) == "application/pdf" or f.suffix.lower() in OFFICE_TYPES else source_identity(f, data)
                        except ParseLimitError:
                            meta = {"title": "", "doi": "", "arxiv": "", "head": "", "year": "", "kind": "document"}
                        self.cache.put(sha, "ident-3:" + f.suffix.lower(), meta)
                    ids.append((f, meta))
            self._ids = ids
        return self._ids

    def match_by_identity(self, ref: Reference) -> tuple[Path | None, str, list[str]]:
        """Match ``ref`` to a ``--sources`` file by DOI (JATS XML), arXiv id, then by title.

        Returns:
            ``(path or None, how it was matched with its score, notes)``; when
            two files match about equally well the path is None and the
            notes start with ``ambiguous:`` naming both.
        """
        notes: list[str] = []
        if not self.source_dirs:
            return None, "", notes
        ids = self._identities()
        if ref.doi:  # a JATS file's DOI (PDFs are matched by DOI before this)
            want_doi = normalise_doi(ref.doi)
            hits = [f for f, m in ids if m.get("doi") and f.suffix.lower() in KIND_SUFFIXES and normalise_doi(m["doi"]) == want_doi]
            if len(hits) == 1:
                return hits[0], f"--sources DOI match ({ref.doi})", notes
        if ref.arxiv:
            want = re.sub(r"v\d+$", "", ref.arxiv.lower())
            hits = [f for f, m in ids if m.get("arxiv") and m["arxiv"].lower() == want]
            notes.append(f"files in --sources by arXiv id {ref.arxiv}")
            if len(hits) == 1:
                return hits[0], f"--sources arXiv match ({ref.arxiv})", notes
        if ref.title:
            scored = []
            fields: dict[Path, list[str]] = {}
            short = is_short_title(ref.title)
            for f, m in ids:
                if short:
                    ok, why = short_title_match(ref, m)
                    if why:
                        notes.append(f"{f.name}: {why}")
                    scored.append((100.0 if ok else 0.0, f))
                    continue
                sc = title_score(ref.title, m.get("title", ""), m.get("head", ""))
                if sc >= TITLE_MATCH_MIN and authors_agree(ref, m.get("head", "")) is False:
                    notes.insert(0, f"passed over: {f.name}: title matches (score {sc:.0f}) but its first page does not name the first author")
                    continue
                if sc >= TITLE_MATCH_MIN:  # a title alone is no identity: the type, year or DOI must agree too (issue 30)
                    agree, differ = identity_agreement(ref, m)
                    comparable = bool(ref.doi or (ref.year or "")[:4].isdigit() or ref.container
                                      or (ref.entry_type or "").lower() in WEB_ENTRY_TYPES | DOCUMENT_ENTRY_TYPES)
                    if comparable and not agree:
                        notes.insert(0, f"passed over: {f.name}: title matches (score {sc:.0f}) but neither the entry's type, year nor DOI agrees with the file"
                                     + (f" ({' and '.join(differ)} differ{'s' if len(differ) == 1 else ''})" if differ else ""))
                        continue
                    fields[f] = agree
                scored.append((sc, f))
            scored.sort(key=lambda t: -t[0])
            notes.append(f"titles of {len(ids)} files in --sources")
            good = [(sc, f) for sc, f in scored if sc >= TITLE_MATCH_MIN]
            if good:
                best_sc, best_f = good[0]
                rivals = [(sc, f) for sc, f in good[1:] if best_sc - sc <= TITLE_AMBIGUITY and f.resolve() != best_f.resolve()]
                if rivals:
                    names = ", ".join(f"{f.name} ({sc:.0f})" for sc, f in [good[0]] + rivals)
                    notes.insert(0, f"ambiguous: the title matches {names} about equally")
                    return None, "", notes
                if short:
                    return best_f, "--sources title match (short title equals the file's title; first author or year agrees)", notes
                agreed = fields.get(best_f) or []
                also = f"; {' and '.join(agreed)} agree{'s' if len(agreed) == 1 else ''}" if agreed else "; the entry has no type, year or DOI to compare"
                return best_f, f"--sources title match (score {best_sc:.1f}{also})", notes
            if scored and scored[0][0] >= 70:
                notes.insert(0, f"closest title: {scored[0][1].name} (score {scored[0][0]:.0f}, below {TITLE_MATCH_MIN:.0f})")
        return None, "", notes

    def _allowed(self, path: Path) -> bool:
        """False when ``confine`` folders are set and ``path`` resolves outside all of them."""
        if self.confine is None:
            return True
        try:
            target = path.resolve()
        except (OSError, ValueError):
            return False
        return any(target.is_relative_to(root) for root in self.confine)

    def locate(self, att: Attachment, ref: Reference) -> tuple[Path | None, str, list[str]]:
        """Find one attachment of ``ref``'s ``file`` field on disk.

        The path as written if absolute, else against the .bib's own folder
        (Mendeley's slash-less absolute paths also with a leading ``/``);
        then its tail (file name, last two components) against the other
        .bib folders and each ``--sources`` folder. Names are matched in
        either Unicode normal form (:func:`~citeproof.sources.attachments.find_on_disk`).

        Returns:
            ``(path or None, how it was found, places tried)``.
        """
        tried: list[str] = []
        if att.is_url:
            return None, "", [f"{att.path} (a web address; not fetched)"]
        first_dir = Path(ref.origin.rsplit(":", 1)[0]).parent if ref.origin else None
        dirs_own = [first_dir] if first_dir else []
        other_dirs = [d for d in self.bib_dirs if d not in dirs_own]
        path_s = att.path
        win = re.match(r"^[A-Za-z]:[\\/]", path_s) is not None
        parts = [p for p in re.split(r"[\\/]", path_s) if p]
        p = Path(path_s.replace("\\", "/")) if win else Path(path_s)
        candidates: list[tuple[Path, str]] = []
        if p.is_absolute() and not win:
            candidates.append((p, "bib file field"))
        if att.mendeley_relative:
            candidates.append((Path("/" + path_s), "bib file field (Mendeley path)"))
        if not p.is_absolute() and not win:
            for d in dirs_own:
                candidates.append((d / p, "bib file field"))
        tails = [Path(*parts[-1:])] + ([Path(*parts[-2:])] if len(parts) >= 2 else [])
        for d in dirs_own + other_dirs:
            if not p.is_absolute() and not win:
                candidates.append((d / p, "bib file field, other .bib folder"))
            for t in tails:
                candidates.append((d / t, "bib file field, file name in a .bib folder"))
        for d in self.source_dirs:
            if not p.is_absolute() and not win:
                candidates.append((d / p, "bib file field, in --sources"))
            for t in tails:
                candidates.append((d / t, "bib file field, file name in --sources"))
        for c, how in candidates:
            tried.append(str(c))
            if not self._allowed(c):
                tried[-1] += " (outside the allowed folder; not read)"
                continue
            found = find_on_disk(c)
            if found is not None and self._allowed(found):
                return found, how, tried
        return None, "", tried

    def find(self, ref: Reference) -> tuple[Path | None, str, list[str]]:
        """Locate the file for ``ref``: its first attachment found on disk
        (:meth:`locate`), else a ``--sources`` file by citekey, DOI, arXiv id
        or title; a ``<citekey>.docx`` (or other type citeproof does not
        read) is returned too, so its load says what it is.

        Returns:
            ``(path or None, how it was found, places tried)``.
        """
        tried: list[str] = []
        for att in attachments_of(ref):
            hit, how, where = self.locate(att, ref)
            tried.extend(where)
            if hit is not None:
                return hit, how, tried
        for d in self.source_dirs:
            for v in _key_variants(ref.citekey):
                if not _plain_name(v):
                    continue  # a citekey is a name, never a path: '../x', '/etc/x' are not looked up
                for suf in (".pdf", ".md", ".txt", ".html", *OFFICE_TYPES, *KIND_SUFFIXES):
                    c = d / (v + suf)
                    tried.append(str(c))
                    if not self._allowed(c):
                        tried[-1] += " (outside the allowed folder; not read)"
                        continue
                    if c.is_file():
                        return c, f"--sources {c.name} (citekey)", tried
        if ref.doi and self.source_dirs:
            hit = self._doi_map().get(normalise_doi(ref.doi))
            tried.append(f"PDFs in --sources by DOI {ref.doi}")
            if hit is not None:
                return hit, f"--sources DOI match ({ref.doi})", tried
        hit, how, notes = self.match_by_identity(ref)
        if hit is not None:
            return hit, how, tried + notes
        unread = self._unread_by_citekey(ref)
        if unread is not None:
            return unread, f"--sources {unread.name} (citekey)", tried + notes
        return None, "", notes + tried

    def _unread_by_citekey(self, ref: Reference) -> Path | None:
        """A ``--sources`` file named after the citekey whose type citeproof
        does not read (``smith2020.docx``), so the finding can name it."""
        for d in self.source_dirs:
            for v in _key_variants(ref.citekey):
                for suf in UNREAD_SUFFIXES:
                    c = d / (v + suf)
                    if c.is_file() and self._allowed(c):
                        return c
        return None

    def load(self, citekey: str, path: Path, how: str) -> Source:
        """The parsed source at ``path`` (memoised by resolved path; a second
        citekey naming the same file shares the parse, keeping its own
        citekey and origin). Safe to call from several threads: a file two
        threads ask for at once is parsed by one while the other waits."""
        key = str(path.resolve())
        with self._lock:
            parsing = self._parsing.setdefault(key, threading.Lock())
        with parsing:
            with self._lock:
                cached = self._loaded.get(key)
            if cached is None:
                cached = load_source(citekey, path, how, self.cache, self.ocr)
                with self._lock:
                    self._loaded[key] = cached
        if cached.citekey != citekey or cached.origin != how:
            # Same file, other citekey: share the parse, keep this key's provenance.
            return Source(
                citekey=citekey, path=cached.path, sha256=cached.sha256, media_type=cached.media_type, origin=how,
                passages=cached.passages, text=cached.text, error=cached.error, title=cached.title, pages=cached.pages,
                notes=cached.notes, ocr=cached.ocr, metadata=cached.metadata,
            )
        return cached

    def resolve(self, citekey: str, ref: Reference) -> Source:
        """The loaded source for ``ref`` (memoised), or one carrying the reason it has none.

        When the entry names files, every one is located and read and the
        work itself is chosen (:func:`~citeproof.sources.attachments.choose_source`);
        the Source's ``considered`` says which file was read and why each
        other one was passed over. Only when none exists on disk are the
        ``--sources`` folders searched.
        """
        if ref.text and not ref.files:
            return inline_source(citekey, ref.text, ref.origin)
        considered: list[SourceCandidate] = []
        if attachments_of(ref):
            chosen, considered, tried = choose_source(self, citekey, ref, self.load)
            if chosen is not None:
                return chosen
            src = self._resolve_elsewhere(citekey, dataclasses.replace(ref, files=(), attachments=()), has_field=True)
            if src.path is None:
                urls = [a.path for a in attachments_of(ref) if a.is_url]
                local = [a.path for a in attachments_of(ref) if not a.is_url]
                if not local:
                    lead = f"the bibliography names only web addresses ({', '.join(urls)}); citeproof fetches them only with --online"
                else:
                    looked = [t for t in tried if not t.endswith("(a web address; not fetched)")]
                    lead = f"the file named in the bibliography ({', '.join(local)}) was not found; looked at {len(looked)} places, e.g. {looked[0] if looked else '-'}"
                src = dataclasses.replace(src, error=lead + ("" if not self.source_dirs else f"; {src.error}"), considered=considered)
            else:
                src = dataclasses.replace(src, considered=considered + [SourceCandidate(src.path, True, f"read: found by {src.origin}")])
            return src
        src = self._resolve_elsewhere(citekey, ref)
        if src.path is not None and not src.considered:  # a --sources match is a file considered too (the report says which, and why)
            src = dataclasses.replace(src, considered=[SourceCandidate(src.path, True, f"read: found by {src.origin}")])
        return src

    def _resolve_elsewhere(self, citekey: str, ref: Reference, has_field: bool = False) -> Source:
        """:meth:`resolve` without the file field: ``--sources`` by citekey, DOI, arXiv id, title."""
        path, how, tried = self.find(ref)
        if path is None:
            if tried and tried[0].startswith("ambiguous:"):
                return Source(citekey=citekey, error=f"no unique local source: {tried[0]}; name the file in the bibliography to choose", origin="not found")
            near = next((t for t in tried if t.startswith(("closest title:", "passed over:"))), None)
            if near is not None:  # say why the nearest file was not taken (a new user's file matched by title, passed over in silence)
                return Source(citekey=citekey, error=f"no file in --sources matched the DOI, arXiv id or title; {near}", origin="not found")
            bare = not (ref.title or ref.doi or ref.arxiv or ref.authors or ref.year or ref.url or ref.origin or has_field)
            if self.source_dirs and bare:  # no entry to read (no --bib, or the key is in none): only the file name can match
                reason = (f"no bibliography entry describes this citekey, so only a --sources file named after it "
                          f"({citekey}.pdf, .md, .txt ...) can be its source, and none is there")
            elif self.source_dirs:
                reason = ("" if has_field else "no file field in the bibliography entry, and ") + "no file in --sources matched the citekey, DOI, arXiv id or title"
            else:
                reason = "no local source: the bibliography entry has no file field and no --sources folder was given"
            if ref.url and not has_field:
                reason += f"; its web page ({ref.url}) is read only with --online"
            return Source(citekey=citekey, error=reason, origin="not found")
        return self.load(citekey, path, how)
