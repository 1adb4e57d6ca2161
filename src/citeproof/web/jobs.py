"""Jobs of the web page: one folder each, state on disk, run in a thread.

A job folder holds::

    <jobs root>/<32 hex id>/
        state.json     status, progress, the document found, errors, reports
        input/         the uploads (a zip's members keep their folders)
        out/           the reports: <stem>.citeproof.{html,json,sarif,md}

Every path written under ``input/`` goes through :func:`safe_join`, which
refuses absolute paths, ``..`` parts, drive letters and anything that would
resolve outside the folder; zip members that are links are refused too
(zip-slip). Uploads are limited in size, in count and (for zips) in
uncompressed size, and type-checked by suffix and content.

The work itself is :func:`citeproof.pipeline.check`; nothing here judges.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import stat
import threading
import time
import traceback
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from citeproof.errors import CiteproofError

__all__ = [
    "Limits",
    "UploadError",
    "JobStore",
    "safe_join",
    "safe_name",
    "extract_zip",
    "find_document",
    "JOB_ID",
]

JOB_ID = re.compile(r"^[0-9a-f]{32}$")
"""What a job id looks like (``secrets.token_hex(16)``)."""

DOC_SUFFIXES = (".md", ".markdown")
"""Citing documents the pipeline reads (its Markdown reader)."""
SOURCE_SUFFIXES = (".pdf", ".md", ".markdown", ".txt", ".html", ".htm")
"""Source files accepted beside the document."""
BIB_SUFFIXES = (".bib", ".bibtex", ".json")
"""Bibliography files (BibTeX or CSL-JSON)."""
ZIP_MEMBER_SUFFIXES = DOC_SUFFIXES + SOURCE_SUFFIXES + BIB_SUFFIXES + (".csl", ".yaml", ".yml", ".tsv", ".csv", ".png", ".jpg", ".jpeg", ".svg")
"""Zip members that are extracted; others are skipped (and listed in the job state)."""


class UploadError(CiteproofError, ValueError):
    """An upload was refused: wrong type, too big, or a path that escapes its folder.

    ``status_code`` is the HTTP status the web page answers with.
    """

    def __init__(self, message: str, status_code: int = 400) -> None:
        super().__init__(message)
        self.status_code = status_code


@dataclass(frozen=True)
class Limits:
    """Upload limits of the web page.

    Attributes:
        max_file_bytes: largest single uploaded file.
        max_total_bytes: all uploads of one job together, zip members
            counted uncompressed.
        max_files: files in one job, zip members included.
    """

    max_file_bytes: int = 50 * 1024 * 1024
    max_total_bytes: int = 200 * 1024 * 1024
    max_files: int = 500


def safe_name(filename: str) -> str:
    """The last part of an uploaded file name, reduced to safe characters.

    ``../../etc/passwd`` gives ``passwd``; ``C:\\x\\a b.pdf`` gives ``a_b.pdf``.

    Raises:
        UploadError: nothing usable is left.
    """
    base = PurePosixPath((filename or "").replace("\\", "/")).name
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).lstrip(".")
    if not base or base in {".", ".."}:
        raise UploadError(f"unusable file name {filename!r}")
    return base[:200]


def safe_join(root: Path, relative: str) -> Path:
    """``root / relative``, refusing any path that would leave ``root``.

    Args:
        root: the folder everything must stay in.
        relative: a path as an upload or a zip member names it (``/`` or ``\\``
            separators).

    Returns:
        The resolved path, inside ``root``.

    Raises:
        UploadError: the path is absolute, has a drive, a ``..`` part, or
            resolves outside ``root`` (through a link, say).
    """
    name = relative.replace("\\", "/")
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or re.match(r"^[A-Za-z]:", name) or any(p == ".." for p in parts):
        raise UploadError(f"path {relative!r} would leave the job folder")
    base = root.resolve()
    target = (base / PurePosixPath(*[p for p in parts if p not in (".", "")])).resolve()
    if target != base and not target.is_relative_to(base):
        raise UploadError(f"path {relative!r} would leave the job folder")
    return target


def _copy_limited(src: BinaryIO, dest: Path, limit: int, what: str) -> int:
    size = 0
    with dest.open("wb") as fh:
        while True:
            chunk = src.read(1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                fh.close()
                dest.unlink(missing_ok=True)
                raise UploadError(f"{what} is larger than the limit of {limit // (1024 * 1024)} MiB", 413)
            fh.write(chunk)
    return size


def _check_content(path: Path, label: str) -> None:
    """Type check by content: PDFs start with ``%PDF-``, text must be UTF-8."""
    suffix = path.suffix.lower()
    with path.open("rb") as fh:
        head = fh.read(1024)
    if suffix == ".pdf":
        if b"%PDF-" not in head:
            raise UploadError(f"{label} is named .pdf but is not a PDF file", 415)
        return
    if suffix in (".png", ".jpg", ".jpeg"):
        return
    if b"\x00" in head:
        raise UploadError(f"{label} is not a text file", 415)
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadError(f"{label} is not UTF-8 text", 415) from exc


def extract_zip(zip_path: Path, dest: Path, limits: Limits, budget: int) -> tuple[list[Path], list[str]]:
    """Extract a zip's allowed members under ``dest`` without letting any escape.

    Args:
        zip_path: the uploaded zip.
        dest: the job's input folder.
        limits: the upload limits.
        budget: bytes still allowed for this job.

    Returns:
        (files extracted, names skipped because of their type).

    Raises:
        UploadError: not a zip; a member is a link, has an absolute or ``..``
            path; too many members; too large once uncompressed.
    """
    try:
        zf = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as exc:
        raise UploadError("the uploaded .zip is not a zip file", 415) from exc
    written: list[Path] = []
    skipped: list[str] = []
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_files:
            raise UploadError(f"the zip holds {len(infos)} entries; the limit is {limits.max_files}", 413)
        # refuse the whole zip before writing anything if one path is bad
        plan: list[tuple[zipfile.ZipInfo, Path]] = []
        for info in infos:
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UploadError(f"zip member {info.filename!r} is a symbolic link; links are refused")
            target = safe_join(dest, info.filename)
            if info.is_dir():
                continue
            if target.suffix.lower() not in ZIP_MEMBER_SUFFIXES or any(p.startswith(".") for p in PurePosixPath(info.filename).parts) or "__MACOSX" in info.filename:
                skipped.append(info.filename)
                continue
            plan.append((info, target))
        if sum(i.file_size for i, _ in plan) > budget:
            raise UploadError(f"the zip is larger than the limit of {limits.max_total_bytes // (1024 * 1024)} MiB once uncompressed", 413)
        for info, target in plan:
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src:
                # the header's size can lie: count what is really written
                n = _copy_limited(src, target, min(limits.max_file_bytes, budget), f"zip member {info.filename!r}")
            budget -= n
            _check_content(target, f"zip member {info.filename!r}")
            written.append(target)
    return written, skipped


_FILE_FIELD = re.compile(r"\bfile\s*=\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\"[^\"]*\")", re.I)
_CITE = re.compile(r"\[[^\]\n]*@[\w:./-]+|(?<![\w.])@[A-Za-z][\w:./-]*")


def find_document(input_dir: Path, bib_files: list[Path], wanted: str = "") -> Path:
    """Which Markdown file under ``input_dir`` is the citing document.

    ``wanted`` (a path inside the upload) wins when given. Otherwise Markdown
    files that a bibliography entry names as its source (``file`` field) are
    ruled out, and of the rest the one with the most pandoc citations is taken.

    Raises:
        UploadError: ``wanted`` is not there, or no Markdown document is found.
    """
    if wanted:
        path = safe_join(input_dir, wanted)
        if not path.is_file():
            raise UploadError(f"the upload holds no file {wanted!r}")
        return path
    named: set[Path] = set()
    for bib in bib_files:
        # only the file fields are needed: a regex plus the file-field decoder,
        # not a full (slow) parse of every entry
        from citeproof.bibliography.file_field import parse_file_field

        text = bib.read_text("utf-8", errors="replace") if bib.suffix.lower() in (".bib", ".bibtex") else ""
        for m in _FILE_FIELD.finditer(text):
            for att in parse_file_field(m.group(1)[1:-1]):
                if not att.is_url and not att.mendeley_relative:
                    named.add((bib.parent / att.path).resolve())
    candidates = [p for p in sorted(input_dir.rglob("*")) if p.is_file() and p.suffix.lower() in DOC_SUFFIXES and p.resolve() not in named]
    if not candidates:
        raise UploadError("no citing document found: upload a Markdown (.md) file, or a zip holding one")
    return max(candidates, key=lambda p: (len(_CITE.findall(p.read_text("utf-8", errors="replace"))), -len(p.parts)))


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class JobStore:
    """Job folders under ``root`` and a small thread pool that runs them.

    Args:
        root: the jobs folder (created if missing).
        cache_dir: the parse cache folder handed to the pipeline (None: its
            default).
        workers: jobs run at once; more wait their turn.
        limits: upload limits.
    """

    def __init__(self, root: Path, cache_dir: Path | None = None, workers: int = 2, limits: Limits | None = None) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.limits = limits or Limits()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="citeproof-job")
        self._lock = threading.Lock()
        self._recover()

    # -- state on disk -------------------------------------------------
    def folder(self, job_id: str) -> Path:
        """The folder of ``job_id``.

        Raises:
            KeyError: not a job id, or no such job.
        """
        if not JOB_ID.match(job_id or ""):
            raise KeyError(job_id)
        path = self.root / job_id
        if not (path / "state.json").is_file():
            raise KeyError(job_id)
        return path

    def state(self, job_id: str) -> dict[str, Any]:
        """The job's state as stored in ``state.json``.

        Raises:
            KeyError: no such job.
        """
        path = self.folder(job_id) / "state.json"
        for _ in range(5):
            try:
                return json.loads(path.read_text("utf-8"))
            except json.JSONDecodeError:  # pragma: no cover - replaced atomically; defensive
                time.sleep(0.01)
        return json.loads(path.read_text("utf-8"))

    def _write_state(self, folder: Path, state: dict[str, Any]) -> None:
        state["updated"] = _now()
        tmp = folder / f"state.json.{threading.get_ident()}.tmp"
        tmp.write_text(json.dumps(state, indent=1, ensure_ascii=False), "utf-8")
        os.replace(tmp, folder / "state.json")

    def _update(self, job_id: str, **changes: Any) -> dict[str, Any]:
        with self._lock:
            folder = self.root / job_id
            state = json.loads((folder / "state.json").read_text("utf-8"))
            state.update(changes)
            self._write_state(folder, state)
            return state

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """The most recent jobs' states, newest first."""
        states = []
        for d in self.root.iterdir():
            if JOB_ID.match(d.name) and (d / "state.json").is_file():
                try:
                    states.append(json.loads((d / "state.json").read_text("utf-8")))
                except (OSError, json.JSONDecodeError):
                    continue
        states.sort(key=lambda s: s.get("created", ""), reverse=True)
        return states[:limit]

    def _recover(self) -> None:
        """Jobs left queued or running by a stopped server are marked failed."""
        for s in self.recent(limit=10_000):
            if s.get("status") in ("queued", "running"):
                self._update(s["id"], status="failed", error="interrupted: the server stopped before this job finished; upload again")

    # -- creating and running ------------------------------------------
    def create(
        self,
        document: tuple[str, BinaryIO] | None,
        sources: list[tuple[str, BinaryIO]] = (),  # type: ignore[assignment]
        bibs: list[tuple[str, BinaryIO]] = (),  # type: ignore[assignment]
        document_path: str = "",
    ) -> str:
        """Store the uploads of a new job and queue it.

        Args:
            document: (file name, stream) of the citing document: Markdown,
                or a zip holding it with its .bib and sources.
            sources: (file name, stream) of source files (PDF, Markdown,
                text, HTML), named ``<citekey>.pdf`` or matched by DOI.
            bibs: (file name, stream) of bibliography files.
            document_path: which file of a zip is the citing document
                (default: found by :func:`find_document`).

        Returns:
            The new job's id.

        Raises:
            UploadError: an upload was refused; nothing is kept then.
        """
        if document is None or not document[0]:
            raise UploadError("choose the citing document (.md) or a .zip holding it")
        job_id = secrets.token_hex(16)
        folder = self.root / job_id
        inp = folder / "input"
        inp.mkdir(parents=True)
        inp = inp.resolve()
        (folder / "out").mkdir()
        try:
            budget = self.limits.max_total_bytes
            count = 0
            doc_name = safe_name(document[0])
            skipped: list[str] = []
            if doc_name.lower().endswith(".zip"):
                tmp = folder / "upload.zip"
                budget -= _copy_limited(document[1], tmp, self.limits.max_file_bytes, f"upload {doc_name!r}")
                files, skipped = extract_zip(tmp, inp, self.limits, budget)
                budget -= sum(p.stat().st_size for p in files)
                count += len(files)
                tmp.unlink()
            elif doc_name.lower().endswith(DOC_SUFFIXES):
                target = safe_join(inp, doc_name)
                budget -= _copy_limited(document[1], target, self.limits.max_file_bytes, f"document {doc_name!r}")
                _check_content(target, f"document {doc_name!r}")
                count += 1
                document_path = document_path or doc_name
            else:
                raise UploadError(f"{doc_name}: the citing document must be Markdown (.md) or a .zip holding it (with its .bib and sources)", 415)
            for label, items, suffixes, sub in (("source", sources, SOURCE_SUFFIXES, "sources"), ("bibliography", bibs, BIB_SUFFIXES, "bib")):
                for filename, stream in items:
                    if not filename:
                        continue
                    name = safe_name(filename)
                    if not name.lower().endswith(suffixes):
                        raise UploadError(f"{name}: a {label} file must be one of {', '.join(suffixes)}", 415)
                    count += 1
                    if count > self.limits.max_files:
                        raise UploadError(f"more than {self.limits.max_files} files in one job", 413)
                    target = safe_join(inp, f"{sub}/{name}")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    budget -= _copy_limited(stream, target, min(self.limits.max_file_bytes, max(budget, 0)), f"{label} {name!r}")
                    _check_content(target, f"{label} {name!r}")
            bib_files = sorted(p for p in inp.rglob("*") if p.suffix.lower() in (".bib", ".bibtex")) + sorted((inp / "bib").glob("*.json"))
            doc = find_document(inp, bib_files, document_path)
            src_dirs = [inp / "sources"] if (inp / "sources").is_dir() else []
            if not bib_files and not src_dirs:
                raise UploadError("give a bibliography (.bib, in the zip or as a file) or source files: without either nothing can be checked")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        state = {
            "id": job_id,
            "status": "queued",
            "created": _now(),
            "document": doc.resolve().relative_to(inp).as_posix(),
            "bibliographies": [p.resolve().relative_to(inp).as_posix() for p in bib_files],
            "source_dirs": [p.relative_to(inp).as_posix() for p in src_dirs],
            "skipped": skipped,
            "stage": "queued",
            "done": 0,
            "total": 0,
            "error": None,
            "summary": None,
            "reports": {},
        }
        with self._lock:
            self._write_state(folder, state)
        self._pool.submit(self._run, job_id)
        return job_id

    def _run(self, job_id: str) -> None:
        """Run one job: :func:`citeproof.pipeline.check`, then write the reports."""
        from citeproof.pipeline import CheckOptions, check, summarise
        from citeproof.reports import get_writer

        folder = self.root / job_id
        inp = (folder / "input").resolve()
        out = folder / "out"
        state = self._update(job_id, status="running", stage="reading", started=_now())
        last = [0.0]

        def progress(stage: str, done: int, total: int) -> None:
            now = time.monotonic()
            if done == total or now - last[0] > 0.2:
                last[0] = now
                self._update(job_id, stage=stage, done=done, total=total)

        try:
            opts = CheckOptions(
                source_dirs=[inp / d for d in state["source_dirs"]],
                cache_dir=self.cache_dir,
                progress=progress,
            )
            report = check(inp / state["document"], [inp / b for b in state["bibliographies"]], opts)
            self._update(job_id, stage="writing reports")
            stem = Path(state["document"]).stem
            reports = {}
            for fmt in ("html", "json", "sarif", "md"):
                w = get_writer(fmt)
                if hasattr(w, "out_dir"):
                    w.out_dir = out
                if hasattr(w, "root"):
                    w.root = inp
                path = out / f"{stem}.citeproof{w.suffix}"
                with path.open("w", encoding="utf-8") as fh:
                    w.write(report, fh)
                reports[fmt] = path.name
            self._update(job_id, status="done", stage="done", finished=_now(), reports=reports, summary=summarise(report.findings))
        except CiteproofError as exc:
            self._update(job_id, status="failed", stage="failed", error=str(exc), finished=_now())
        except Exception as exc:  # noqa: BLE001 - a job must never die silently
            (folder / "error.log").write_text(traceback.format_exc(), "utf-8")
            self._update(job_id, status="failed", stage="failed", error=f"internal error ({type(exc).__name__}: {exc}); please report it", finished=_now())

    def wait(self, job_id: str, timeout: float = 60.0) -> dict[str, Any]:
        """Block until the job is done or failed (for tests and scripts).

        Raises:
            TimeoutError: still running after ``timeout`` seconds.
        """
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.state(job_id)
            if s["status"] in ("done", "failed"):
                return s
            time.sleep(0.05)
        raise TimeoutError(f"job {job_id} still {self.state(job_id)['status']} after {timeout} s")

    def shutdown(self) -> None:
        """Stop taking jobs; wait for the running ones."""
        self._pool.shutdown(wait=True)

