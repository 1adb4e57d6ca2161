"""Jobs of the web page: one folder each, state on disk, run in a thread.

A job folder holds::

    <jobs root>/<32 hex id>/
        state.json     status, progress, the document found, errors, reports
        input/         the uploads (a zip's members keep their folders)
        out/           the reports: <stem>.citeproof.{html,json,sarif,md}

Every path written under ``input/`` goes through
:func:`citeproof.web.uploads.safe_join`; uploads are limited and
type-checked there (:mod:`citeproof.web.uploads`).

The citing document is Markdown, LaTeX (``.tex``, or an arXiv ``.tar.gz``
bundle) or a PDF, uploaded directly or inside a zip (see
:func:`find_document`). LaTeX and PDF documents bring their own bibliography
(``.bib``/``.bbl``, a printed reference list), so a job needs no ``.bib`` for
them.

The work itself is :func:`citeproof.pipeline.check`; nothing here judges.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import secrets
import shutil
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

from citeproof.errors import CiteproofError
from citeproof.reports import report_stem
from citeproof.web.uploads import (
    BIB_SUFFIXES,
    BUNDLE_SUFFIXES,
    DOC_SUFFIXES,
    LATEX_SUFFIXES,
    MARKDOWN_SUFFIXES,
    OWN_BIBLIOGRAPHY_SUFFIXES,
    SOURCE_SUFFIXES,
    WORD_SUFFIXES,
    Limits,
    UploadError,
    check_bundle,
    check_content,
    copy_limited,
    document_kinds,
    extract_zip,
    safe_join,
    safe_name,
)

_log = logging.getLogger("citeproof.web")

__all__ = [
    "Limits",
    "UploadError",
    "JobStore",
    "safe_join",
    "safe_name",
    "extract_zip",
    "find_document",
    "check_bundle",
    "report_stem",
    "DOC_SUFFIXES",
    "WORD_SUFFIXES",
    "JOB_ID",
]

JOB_ID = re.compile(r"^[0-9a-f]{32}$")
"""What a job id looks like (``secrets.token_hex(16)``)."""

class _Interrupted(Exception):
    """The server is stopping: the job ends where it is."""


class _ReportTooLarge(Exception):
    """A report passed ``Limits.max_report_bytes``."""


class _CappedStream(io.TextIOBase):
    """A text stream that raises :class:`_ReportTooLarge` once more than ``limit`` characters were written."""

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner, self.limit, self.count = inner, limit, 0

    def write(self, text: str) -> int:
        self.count += len(text)
        if self.count > self.limit:
            raise _ReportTooLarge()
        return self.inner.write(text)


def _is_latex_main(path: Path) -> bool:
    """True for a .tex file holding ``\\documentclass`` and ``\\begin{document}`` outside comments."""
    from citeproof.readers.latex_files import strip_comment as _strip_comment

    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return False
    text = "\n".join(_strip_comment(x) for x in text.splitlines())
    return "\\documentclass" in text and "\\begin{document}" in text


_FILE_FIELD = re.compile(r"\bfile\s*=\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\"[^\"]*\")", re.I)
_CITE = re.compile(r"\[[^\]\n]*@[\w:./-]+|(?<![\w.])@[A-Za-z][\w:./-]*")


def find_document(input_dir: Path, bib_files: list[Path], wanted: str = "") -> Path:
    """Which file under ``input_dir`` is the citing document.

    ``wanted`` (a path inside the upload) wins when given; it may be Markdown,
    LaTeX or a PDF. Otherwise the candidates are Markdown files and LaTeX main
    files (a .tex with ``\\documentclass`` and ``\\begin{document}``); a PDF
    is never guessed, since PDFs beside a document are its sources. Markdown
    files that a bibliography entry names as its source (``file`` field) are
    ruled out, and so are those without pandoc citations (a README). With
    only Markdown left, the one with the most citations is taken; with only
    LaTeX, the main file named ``main``/``ms``/``paper``/..., else the
    largest; with Markdown that cites and LaTeX both, the choice is the
    user's.

    Raises:
        UploadError: ``wanted`` is not there or no document type; no document
            is found; Markdown and LaTeX documents are both there.
    """
    if wanted:
        path = safe_join(input_dir, wanted)
        if not path.is_file():
            raise UploadError(f"the upload holds no file {wanted!r}")
        if not path.name.lower().endswith(DOC_SUFFIXES):
            raise UploadError(f"{wanted!r} cannot be the citing document: it must be one of {document_kinds()}", 415)
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
    files = [p for p in sorted(input_dir.rglob("*")) if p.is_file()]
    counts = {p: len(_CITE.findall(p.read_text("utf-8", errors="replace"))) for p in files if p.suffix.lower() in MARKDOWN_SUFFIXES and p.resolve() not in named}
    markdown = {p: n for p, n in counts.items() if n}  # a README without citations is no citing document
    latex = [p for p in files if p.suffix.lower() in LATEX_SUFFIXES and _is_latex_main(p)]
    if latex:
        if markdown:
            shown = ", ".join(p.relative_to(input_dir).as_posix() for p in (list(markdown)[:2] + latex[:2]))
            raise UploadError(f"the zip holds Markdown and LaTeX documents ({shown}); name the citing document in 'path inside the zip'")
        named_main = [p for p in latex if p.stem.lower() in ("main", "ms", "paper", "article", "manuscript")]
        return (named_main or sorted(latex, key=lambda p: (-p.stat().st_size, len(p.parts))))[0]
    if not markdown:
        pdfs = [p for p in files if p.suffix.lower() == ".pdf"]
        shown = ", ".join(p.relative_to(input_dir).as_posix() for p in sorted(pdfs, key=lambda p: (len(p.parts), p))[:5]) + (f" and {len(pdfs) - 5} more" if len(pdfs) > 5 else "")
        hint = f"; a PDF in a zip is taken as a source: to check a citing PDF, name it in 'path inside the zip' (the zip's PDFs: {shown})" if pdfs else ""
        raise UploadError("no citing document found: the zip holds no Markdown (.md) file with pandoc citations ([@key]) and no LaTeX (.tex) file with \\documentclass and \\begin{document}" + hint)
    return max(markdown, key=lambda p: (markdown[p], -len(p.parts)))


def _names_own_bibliography(tex: Path, root: Path) -> bool:
    """True when a LaTeX main file names a .bib that is there, holds ``thebibliography``, or has a .bbl beside it."""
    from citeproof.readers.latex import confine_reads, read_latex

    try:
        with confine_reads(root):
            doc = read_latex(tex)
    except CiteproofError:
        return False
    return bool(doc.bib_files or doc.bbl_references)


def _source_dirs(input_dir: Path, document: Path) -> list[Path]:
    """Folders of an unpacked zip that hold source files besides the document (outermost only)."""
    doc = document.resolve()
    dirs = sorted({p.parent for p in input_dir.rglob("*") if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES and p.resolve() != doc}, key=lambda d: len(d.parts))
    kept: list[Path] = []
    for d in dirs:
        if not any(d == k or d.is_relative_to(k) for k in kept):
            kept.append(d)
    return kept


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
        self._stopping = threading.Event()
        self._bundles: dict[str, list[str]] = {}  # job id -> its unpacked citeproof-tex-* folders, while it runs
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

    def _recover(self, reason: str = "interrupted: the server stopped before this job finished; upload again") -> None:
        """Jobs left queued or running (by a stopped server) are marked failed with ``reason``."""
        for s in self.recent(limit=10_000):
            if s.get("status") in ("queued", "running"):
                self._update(s["id"], status="failed", stage="failed", error=reason, finished=_now())

    # -- creating and running ------------------------------------------
    def create(
        self,
        document: tuple[str, BinaryIO] | None,
        sources: list[tuple[str, BinaryIO]] = (),  # type: ignore[assignment]
        bibs: list[tuple[str, BinaryIO]] = (),  # type: ignore[assignment]
        document_path: str = "",
        online: bool = False,
    ) -> str:
        """Store the uploads of a new job and queue it (``online``: look the cited works up online, issue 12).

        A document uploaded directly is read by its suffix: Markdown,
        LaTeX (``.tex``), an arXiv ``.tar.gz``/``.tgz`` bundle, or a PDF. A
        zip is unpacked and its document found by :func:`find_document`. For
        a LaTeX or PDF document, or a Markdown one without any .bib, the
        zip's folders holding source files (PDF, Markdown, text, HTML) other
        than the document are searched like ``--sources`` folders (by
        citekey, DOI, arXiv id, title); a Markdown document with a .bib finds
        its sources through the ``file`` fields, as ``citeproof check --bib``
        does.

        Bibliographies: uploaded .bib files always count. A zip's .bib files
        count too, except for a LaTeX document that names its own .bib or
        carries a ``.bbl``/``thebibliography`` (that one is used, as the CLI
        does without ``--bib``). A PDF's printed reference list is enriched
        by the given .bib files. Markdown needs a .bib or source files;
        LaTeX and PDFs bring their own reference list.

        Args:
            document: (file name, stream) of the citing document: Markdown,
                LaTeX, an arXiv bundle, a PDF, or a zip holding the document
                with its .bib and sources.
            sources: (file name, stream) of source files (PDF, Markdown,
                text, HTML), named ``<citekey>.pdf`` or matched by DOI,
                arXiv id or title.
            bibs: (file name, stream) of bibliography files.
            document_path: which file of a zip is the citing document
                (default: found by :func:`find_document`; needed for a
                citing PDF, since a PDF in a zip is otherwise a source).

        Returns:
            The new job's id.

        Raises:
            UploadError: an upload was refused; nothing is kept then.
        """
        if document is None or not document[0]:
            raise UploadError(f"choose the citing document ({', '.join(DOC_SUFFIXES)}) or a .zip holding it")
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
            is_zip = doc_name.lower().endswith(".zip")
            if is_zip:
                tmp = folder / "upload.zip"
                budget -= copy_limited(document[1], tmp, self.limits.max_file_bytes, f"upload {doc_name!r}")
                files, skipped = extract_zip(tmp, inp, self.limits, budget)
                budget -= sum(p.stat().st_size for p in files)
                count += len(files)
                tmp.unlink()
            elif doc_name.lower().endswith(DOC_SUFFIXES):
                target = safe_join(inp, doc_name)
                budget -= copy_limited(document[1], target, self.limits.max_file_bytes, f"document {doc_name!r}")
                check_content(target, f"document {doc_name!r}")
                if doc_name.lower().endswith(BUNDLE_SUFFIXES):
                    budget -= check_bundle(target, self.limits, budget)
                count += 1
                document_path = doc_name
            else:
                raise UploadError(
                    f"{doc_name}: the citing document must be one of {document_kinds()},"
                    " or a .zip holding it (with its .bib and sources)",
                    415,
                )
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
                    budget -= copy_limited(stream, target, min(self.limits.max_file_bytes, max(budget, 0)), f"{label} {name!r}")
                    check_content(target, f"{label} {name!r}")
            bib_files = sorted(p for p in inp.rglob("*") if p.suffix.lower() in (".bib", ".bibtex")) + sorted((inp / "bib").glob("*.json"))
            doc = find_document(inp, bib_files, document_path)
            uploaded_bibs = (inp / "bib").resolve()
            if doc.suffix.lower() in LATEX_SUFFIXES and _names_own_bibliography(doc, inp):
                # the document's own .bib/.bbl, as the CLI reads it without --bib; uploaded .bib files still replace it
                bib_files = [p for p in bib_files if p.resolve().is_relative_to(uploaded_bibs)]
            elif doc.name.lower().endswith(BUNDLE_SUFFIXES):
                bib_files = [p for p in bib_files if p.resolve().is_relative_to(uploaded_bibs)]
            src_dirs = [inp / "sources"] if (inp / "sources").is_dir() else []
            if is_zip and (doc.name.lower().endswith(OWN_BIBLIOGRAPHY_SUFFIXES) or not bib_files):
                # Markdown with a .bib finds its sources through the file fields, as `citeproof check --bib` does
                src_dirs += [d for d in _source_dirs(inp, doc) if d.resolve() != (inp / "sources").resolve()]
            if not bib_files and not src_dirs and not doc.name.lower().endswith(OWN_BIBLIOGRAPHY_SUFFIXES):
                raise UploadError("give a bibliography (.bib, in the zip or as a file) or source files: without either a Markdown document cannot be checked")
        except OSError as exc:  # a name the file system refuses, a full disk: the upload's fault or not, never a 500
            shutil.rmtree(folder, ignore_errors=True)
            _log.warning("upload refused: %s", exc)
            raise UploadError(f"the upload could not be stored ({exc.strerror or exc}); check the file names") from None
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        state = {
            "id": job_id,
            "status": "queued",
            "created": _now(),
            "document": doc.resolve().relative_to(inp).as_posix(),
            "bibliographies": [p.resolve().relative_to(inp).as_posix() for p in bib_files],
            "source_dirs": [p.resolve().relative_to(inp).as_posix() for p in src_dirs],
            "skipped": skipped,
            "stage": "queued",
            "done": 0,
            "total": 0,
            "error": None,
            "summary": None,
            "reports": {},
            "online": bool(online),
        }
        with self._lock:
            self._write_state(folder, state)
        self._pool.submit(self._run, job_id)
        return job_id

    def _run(self, job_id: str) -> None:
        """Run one job: :func:`citeproof.pipeline.check`, then write the reports."""
        from citeproof.readers.latex_files import bundle_scope

        with bundle_scope() as made:  # an arXiv bundle's unpacked folder goes when the job ends (issue 31)
            self._bundles[job_id] = made
            try:
                self._run_in_scope(job_id, made)
            finally:
                self._bundles.pop(job_id, None)

    def scrub(self, text: str, job_id: str, bundles: list[str] = ()) -> str:  # type: ignore[assignment]
        """``text`` with every server path of the job replaced by one relative to it (issue 31): the
        upload folder by nothing (``sources/k.pdf``), the job folder by nothing (``out/...``), an unpacked
        bundle by the bundle's name, the cache folder by ``<cache>``, the jobs folder by ``<jobs>``."""
        folder = self.root / job_id
        state_doc = ""
        try:
            state_doc = json.loads((folder / "state.json").read_text("utf-8")).get("document", "")
        except (OSError, ValueError):
            pass
        pairs: dict[str, str] = {}
        for path, shown in [(folder / "input", ""), (folder, ""), (self.root, "<jobs>/")] + [(Path(b), (state_doc or "bundle") + "/") for b in bundles] + (
                [(self.cache_dir, "<cache>/")] if self.cache_dir is not None else []):
            for form in {str(path), str(path.resolve()), os.path.abspath(path)}:
                pairs[form.rstrip("/")] = shown
        for prefix in sorted(pairs, key=len, reverse=True):
            shown = pairs[prefix]
            for form in dict.fromkeys((prefix, json.dumps(prefix)[1:-1])):  # as written, and inside a JSON string
                # the folder itself, or a path under it; never a longer name that merely starts the same
                text = re.sub(re.escape(form) + r"(?:(/)|(?![\w.-]))",
                              lambda m, shown=shown: shown if m.group(1) else (shown.rstrip("/") or "."), text)
        return text

    def _run_in_scope(self, job_id: str, bundles: list[str]) -> None:
        from citeproof.pipeline import CheckOptions, check, summarise
        from citeproof.readers.latex import confine_reads
        from citeproof.readers.latex_files import remove_bundle_folders
        from citeproof.reports import get_writer, make_utf8_safe, write_file

        folder = self.root / job_id
        inp = (folder / "input").resolve()
        out = folder / "out"
        state = self._update(job_id, status="running", stage="reading", started=_now())
        last = [0.0]

        def progress(stage: str, done: int, total: int) -> None:
            if self._stopping.is_set():
                raise _Interrupted()
            now = time.monotonic()
            if done == total or now - last[0] > 0.2:
                last[0] = now
                self._update(job_id, stage=stage, done=done, total=total)

        try:
            opts = CheckOptions(
                source_dirs=[inp / d for d in state["source_dirs"]],
                cache_dir=self.cache_dir,
                progress=progress,
                confine_to=inp,  # a .bib's file field cannot reach outside the job folder
                online=bool(state.get("online")),
                email=os.environ.get("CITEPROOF_EMAIL", ""),
            )
            with confine_reads(inp):  # a LaTeX upload's \input and \bibliography stay in the job folder
                report = check(inp / state["document"], [inp / b for b in state["bibliographies"]], opts)
            self._update(job_id, stage="writing reports")
            stem = report_stem(state["document"])
            reports = {}
            make_utf8_safe(report)  # an upload's lone surrogate is escaped, as the CLI's writers do (issue 31)
            for fmt in ("html", "json", "sarif", "md"):
                w = get_writer(fmt)
                if hasattr(w, "out_dir"):
                    w.out_dir = out
                if hasattr(w, "root"):
                    w.root = inp
                if hasattr(w, "review_url"):
                    w.review_url = f"/jobs/{job_id}/review"  # triage decisions saved on this server (web/review.py)
                path = out / f"{stem}.citeproof{w.suffix}"
                try:
                    buf = io.StringIO()
                    w.write(report, _CappedStream(buf, self.limits.max_report_bytes))
                    # the reports name files relative to the job, never by their place on the server
                    # whole or not at all (a temporary file replaced into place), as the CLI writes its reports
                    write_file(path, self.scrub(buf.getvalue(), job_id, bundles).encode("utf-8", "backslashreplace"))
                except _ReportTooLarge:
                    path.unlink(missing_ok=True)
                    raise CiteproofError(
                        f"the {fmt} report is larger than the limit of {self.limits.max_report_bytes // (1024 * 1024)} MiB "
                        f"({len(report.findings)} findings); split the document, or check it with the command line"
                    ) from None
                reports[fmt] = path.name
            if self._stopping.is_set():
                return
            remove_bundle_folders(bundles)  # before the job reads as finished
            self._update(job_id, status="done", stage="done", finished=_now(), reports=reports, summary=summarise(report.findings))
        except _Interrupted:
            return  # shutdown() has marked it
        except CiteproofError as exc:
            if not self._stopping.is_set():
                error = self.scrub(str(exc), job_id, bundles)
                remove_bundle_folders(bundles)
                self._update(job_id, status="failed", stage="failed", error=error, finished=_now())
        except Exception as exc:  # noqa: BLE001 - a job must never die silently
            # the traceback goes to the server's log and error.log (never served); the page shows the reason only
            _log.exception("job %s failed", job_id)
            (folder / "error.log").write_text(traceback.format_exc(), "utf-8")
            remove_bundle_folders(bundles)
            if not self._stopping.is_set():
                self._update(job_id, status="failed", stage="failed", error=f"internal error ({type(exc).__name__}); please report it with the server's log", finished=_now())

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

    def shutdown(self, wait: bool = False) -> None:
        """Stop: queued jobs are dropped and running ones stopped, all marked interrupted.

        A running job stops at its next progress step (a source parsed, a
        citation judged); a PDF parse in progress is killed
        (:func:`citeproof.sources.sandbox.stop_all`). So SIGTERM ends the
        server within seconds, not after the longest job. The running jobs'
        unpacked ``.tar.gz`` bundles (``citeproof-tex-*``) are deleted.

        Args:
            wait: also wait for the job threads to end (tests).
        """
        from citeproof.sources.sandbox import stop_all

        from citeproof.readers.latex_files import remove_bundle_folders

        self._stopping.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._recover("interrupted: the server stopped before this job finished; upload again")
        stop_all()
        for made in list(self._bundles.values()):  # running jobs' unpacked bundles (each job removes its own when it ends)
            remove_bundle_folders(made)
        if wait:
            self._pool.shutdown(wait=True)

