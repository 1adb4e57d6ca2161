"""``citeproof batch``: many citing documents, the same stage functions, as Ray tasks (issue 17, part 2).

DESIGN.md ("Scale out, not up"): no home-made scheduler. A batch runs in two rounds of Ray tasks:

1. **Sources, once each.** Every document's cited references are located (:meth:`SourceResolver.find`, no
   parsing); the files are grouped by the SHA-256 of their bytes and each distinct file is parsed by one task
   into the shared SQLite cache. A source cited by forty documents is parsed once.
2. **Documents.** Each document is checked by :func:`citeproof.pipeline.check` (the function ``citeproof check``
   calls) in its own task, reading the parsed sources from that cache, and its reports are written.

Ray is an optional extra (``pip install 'citeproof[batch]'``). By default citeproof starts a local Ray with
``workers`` CPUs; ``address`` joins an existing cluster (``auto`` or ``ray://host:10001``), in which case the
cache folder and every input path must be visible to every node at the same path (a shared file system).

Output (``out``): ``batch-run.json`` (this run's counts: documents checked and resumed, source files cited and
distinct files parsed, seconds; ``phase_seconds``: wall seconds of starting Ray and of each round; ``task_cpu_seconds``:
CPU seconds spent inside the source and document tasks, summed over workers), ``batch.jsonl`` with one record per document (``document``, ``summary``, ``report``: the JSON
report's path relative to ``out``, ``error``, ``input_sha256``, ``seconds``, ``cpu_seconds``, ``resumed``), the reports under
``out/reports/``, and ``index.html``: per-document counts, the worst citations across the corpus, the most-cited
works still without a source. A re-run skips every document whose inputs (document, bibliographies, the files in
its source folders, tiers, citeproof version) are unchanged. A document that fails is a record with its error,
never the end of the batch.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from citeproof import __version__
from citeproof.errors import InputError

__all__ = ["BatchDocument", "load_batch", "run_batch", "RECORDS_FILE", "SEVERITY"]

RECORDS_FILE = "batch.jsonl"
CITING_SUFFIXES = (".md", ".markdown", ".tex", ".ltx", ".tar.gz", ".tgz")
SEVERITY = {"contradicted": 0, "unsupported": 1, "partial": 2, "error": 3, "unverifiable": 4, "supported": 5}
"""Verdict order of the corpus-wide "worst citations" list (the report's reading order)."""


@dataclass
class BatchDocument:
    """One citing document of a batch.

    Attributes:
        path: the citing document.
        bib: its bibliography files (may be empty for LaTeX, bundles and PDFs, which carry their own).
        sources: its ``--sources`` folders.
    """

    path: Path
    bib: list[Path] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)


def _paths(value: Any, where: str, base: Path) -> list[Path]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: expected a path or a list of paths")
    return [(base / v) if not Path(v).is_absolute() else Path(v) for v in value]


def load_batch(target: Path) -> list[BatchDocument]:
    """The documents of a batch, from a manifest or a folder.

    Args:
        target: a manifest ``{"documents": [{"path": ..., "bib": [...], "sources": [...]}]}`` (paths relative to
            the manifest's folder), or a folder: every citing document in it (Markdown, LaTeX, arXiv bundles, and
            in sub-folders too, skipping hidden folders and folders named ``sources``), each with the .bib of the
            same name beside it, else the folder's only .bib, else none, and the ``sources`` folder beside it as
            its ``--sources``. PDFs are named only in a manifest (in a folder they are usually sources).

    Returns:
        The documents, in manifest order or sorted by path.

    Raises:
        InputError: the manifest is missing, not JSON or malformed (the message names the first bad path, such as
            ``documents[2].bib``), or the folder holds no citing document.
    """
    target = Path(target)
    if target.is_dir():
        return _from_folder(target)
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{target}: no such manifest or folder") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{target}: not a JSON manifest ({exc}); see `citeproof batch --help` for its shape") from None
    docs = data.get("documents") if isinstance(data, dict) else None
    if not isinstance(docs, list) or not docs:
        raise InputError(f"{target}: the manifest needs a non-empty 'documents' list")
    out = []
    for i, d in enumerate(docs):
        where = f"{target}: documents[{i}]"
        if not isinstance(d, dict) or not isinstance(d.get("path"), str):
            raise InputError(f"{where}: each document needs a 'path' string")
        out.append(BatchDocument(_paths(d["path"], f"{where}.path", target.parent)[0],
                                 _paths(d.get("bib"), f"{where}.bib", target.parent),
                                 _paths(d.get("sources"), f"{where}.sources", target.parent)))
    return out


def _from_folder(folder: Path) -> list[BatchDocument]:
    files = sorted(p for p in folder.rglob("*") if p.is_file()
                   and not any(part.startswith(".") or part == "sources" for part in p.relative_to(folder).parts[:-1])
                   and not p.name.startswith("."))
    docs = []
    for p in files:
        if not p.name.lower().endswith(CITING_SUFFIXES) or ".citeproof." in p.name:
            continue
        same = p.with_name(p.name.split(".")[0] + ".bib")
        bibs = [same] if same.is_file() else sorted(p.parent.glob("*.bib"))
        docs.append(BatchDocument(p, bibs if len(bibs) == 1 else [], [p.parent / "sources"] if (p.parent / "sources").is_dir() else []))
    if not docs:
        raise InputError(f"{folder}: holds no citing document (.md, .tex, .tar.gz); give a manifest to name PDFs or other files")
    return docs


def _sha_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def input_sha256(doc: BatchDocument, tiers: list[str] | None) -> str:
    """SHA-256 over what a document's result depends on: its bytes, its bibliographies' bytes, the names, sizes
    and modification times of the files in its source folders, the tiers and the citeproof version.

    Raises:
        OSError: the document or a bibliography cannot be read (the batch records that as the document's error).
    """
    h = hashlib.sha256()
    h.update(f"citeproof {__version__}\x1f{sorted(tiers or [])}".encode())
    for p in [doc.path, *doc.bib]:
        h.update(f"\x1e{p}\x1f{_sha_file(p)}".encode())
    for d in doc.sources:
        for f in sorted(Path(d).rglob("*")) if Path(d).is_dir() else []:
            if f.is_file():
                st = f.stat()
                h.update(f"\x1e{f}\x1f{st.st_size}\x1f{st.st_mtime_ns}".encode())
    return h.hexdigest()


# --- the two kinds of task (plain functions: Ray wraps them; tests may call them directly) -------------------

def locate_sources(doc: BatchDocument, cache_dir: str) -> list[tuple[str, str, str]]:
    """The files a document's citations would read: ``[(citekey, path, how found)]``; parses nothing.

    Any failure (unreadable document or bibliography) gives ``[]``: the document's own task reports it.
    """
    from citeproof.bibliography import Bibliography, load_bibliographies
    from citeproof.pipeline import read_document
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache

    try:
        claims, own = read_document(doc.path)
        bib = load_bibliographies(doc.bib) if doc.bib else (own or Bibliography())
    except Exception:  # noqa: BLE001 - reported by check_document
        return []
    resolver = SourceResolver([p.parent for p in bib.files], list(doc.sources), Cache(Path(cache_dir)))
    found = []
    for key in dict.fromkeys(c.citekey for cl in claims for c in cl.citations):
        ref = bib.get(key)
        if ref is None:
            continue
        path, how, _ = resolver.find(ref)
        if path is not None:
            found.append((key, str(path), how))
    return found


def parse_source(citekey: str, path: str, how: str, cache_dir: str) -> str:
    """Parse one source file into the shared cache; returns its error or ''."""
    from citeproof.sources import load_source
    from citeproof.sources.cache import Cache

    return load_source(citekey, Path(path), how, Cache(Path(cache_dir))).error or ""


def cpu_seconds() -> float:
    """User + system CPU seconds of this process (all threads) and of its child processes, live and reaped.

    The children are the PDF parser's sandbox workers (:mod:`citeproof.sources.sandbox`), which outlive a task, so
    the difference of two calls is a task's CPU cost. Live children are read with psutil (skipped where it is
    missing; then only reaped children count).
    """
    total = time.process_time()
    try:
        import resource

        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += ru.ru_utime + ru.ru_stime
        import psutil
    except ImportError:
        return total
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            continue
    return total


def parse_source_timed(citekey: str, path: str, how: str, cache_dir: str) -> tuple[str, float]:
    """:func:`parse_source` and the CPU seconds it took (:func:`cpu_seconds`, the parser's worker included)."""
    c0 = cpu_seconds()
    error = parse_source(citekey, path, how, cache_dir)
    return error, cpu_seconds() - c0


def task_threads(address: str | None, workers: int | None) -> int:
    """Intra-op threads for each model in a document task: ``CITEPROOF_THREADS`` when set, else the local CPUs
    shared among the workers (at least 1), and 1 on a cluster (Ray gives each task one CPU).

    Raises:
        CiteproofError: ``CITEPROOF_THREADS`` is set to something other than a whole number >= 1.
    """
    from citeproof.onnx_session import THREADS_ENV, default_threads

    if os.environ.get(THREADS_ENV, "").strip():
        return default_threads()
    if address:
        return 1
    cpus = os.cpu_count() or 1
    return max(1, cpus // max(1, workers or cpus))


def check_document(doc: BatchDocument, out_dir: str, name: str, cache_dir: str, tiers: list[str] | None,
                   formats: list[str], input_sha: str, threads: int = 1) -> dict[str, Any]:
    """Check one document with :func:`citeproof.pipeline.check` and write its reports; returns its record.

    Never raises: a failure is a record with ``error`` set (``"ExceptionType: message"``). The models run
    ``threads`` intra-op threads each (:func:`task_threads`; :data:`citeproof.onnx_session.THREADS_ENV` in the
    worker, whose models load once).
    """
    from citeproof.onnx_session import THREADS_ENV
    from citeproof.pipeline import CheckOptions, check, summarise
    from citeproof.reports import get_writer, write_reports

    os.environ[THREADS_ENV] = str(threads)
    t0, c0 = time.perf_counter(), cpu_seconds()
    rec: dict[str, Any] = {"document": str(doc.path), "bib": [str(p) for p in doc.bib], "sources": [str(p) for p in doc.sources],
                           "input_sha256": input_sha, "summary": None, "report": None, "error": None, "resumed": False}
    try:
        report = check(doc.path, list(doc.bib), CheckOptions(source_dirs=list(doc.sources), cache_dir=Path(cache_dir), tiers=tiers))
        target = Path(out_dir) / "reports"
        target.mkdir(parents=True, exist_ok=True)
        written, skipped = write_reports(report, [get_writer(f) for f in dict.fromkeys(["json", *formats])], target, name)
        rec["summary"] = summarise(report.findings)
        rec["report"] = f"reports/{name}.citeproof.json"
        if skipped:
            rec["warnings"] = [f"{fmt} report not written: {why}" for fmt, why in skipped]
    except Exception as exc:  # noqa: BLE001 - one bad document never ends the batch
        rec["error"] = f"{type(exc).__name__}: {exc}"
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    rec["cpu_seconds"] = round(cpu_seconds() - c0, 3)
    return rec


# --- the driver ------------------------------------------------------------------------------------------------

def _names(docs: list[BatchDocument]) -> list[str]:
    """Report base names, unique within the batch (``draft``, ``draft-2``...)."""
    from citeproof.reports import report_stem

    seen: Counter[str] = Counter()
    out = []
    for d in docs:
        stem = report_stem(d.path)
        seen[stem] += 1
        out.append(stem if seen[stem] == 1 else f"{stem}-{seen[stem]}")
    return out


def _previous(out_dir: Path) -> dict[str, dict]:
    path = out_dir / RECORDS_FILE
    prev: dict[str, dict] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(r, dict) and "document" in r:
                prev[r["document"]] = r
    return prev


def _write_records(out_dir: Path, records: list[dict]) -> None:
    tmp = out_dir / (RECORDS_FILE + ".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    os.replace(tmp, out_dir / RECORDS_FILE)


def start_ray(address: str | None, workers: int | None) -> Any:
    """Connect to Ray: a local instance with ``workers`` CPUs (default: all), or the cluster at ``address``.

    Without ``address`` the instance is always a new local one (Ray's ``address="local"``), even on a machine of
    a cluster (``ray start`` ran there, or ``RAY_ADDRESS`` is set), where Ray would otherwise join that cluster
    and refuse the CPU count; ``address="auto"`` joins it.

    Raises:
        InputError: Ray is not installed (the message says how to install it) or the address cannot be reached.
    """
    try:
        import ray
    except ImportError:
        raise InputError("citeproof batch needs Ray: pip install 'citeproof[batch]'") from None
    if ray.is_initialized():
        return ray
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(address="local", num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
                     object_store_memory=128 * 1024 * 1024, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise InputError(f"cannot start or reach Ray{' at ' + address if address else ''}: {exc}") from None
    return ray


def run_batch(docs: list[BatchDocument], out_dir: Path, *, cache_dir: Path, tiers: list[str] | None = None,
              formats: list[str] | None = None, address: str | None = None, workers: int | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> list[dict[str, Any]]:
    """Check every document as Ray tasks (module docstring: the two rounds, output, resumption).

    Args:
        docs: the documents (:func:`load_batch`).
        out_dir: output folder (created).
        cache_dir: the parsed-source cache shared by all tasks.
        tiers: as ``check --tier`` (None: all available).
        formats: report formats besides JSON (``md``, ``html``...).
        address: an existing Ray cluster, or None for a local one.
        workers: CPUs of the local Ray (ignored with ``address``).
        progress: called as ``progress(stage, done, total)`` for ``sources`` and ``documents``.

    Returns:
        One record per document, in ``docs`` order (also written to ``out_dir/batch.jsonl``; ``index.html`` beside).

    Raises:
        InputError: Ray is missing or unreachable, or ``out_dir`` cannot be written.
    """
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{exc.filename}: cannot create the folder ({exc.strerror})") from None
    formats = [f for f in (formats or ["md"]) if f != "json"]
    names = _names(docs)
    prev = _previous(out_dir)
    records: list[dict | None] = [None] * len(docs)
    todo: list[tuple[int, str]] = []
    for i, d in enumerate(docs):
        try:
            sha = input_sha256(d, tiers)
        except OSError as exc:
            records[i] = {"document": str(d.path), "summary": None, "report": None, "resumed": False,
                          "error": f"{exc.filename or d.path}: cannot be read ({exc.strerror or exc})"}
            continue
        old = prev.get(str(d.path))
        if old and old.get("input_sha256") == sha and not old.get("error") and old.get("report") and (out_dir / old["report"]).is_file():
            records[i] = {**old, "resumed": True}
        else:
            todo.append((i, sha))
    t0 = time.perf_counter()
    stats = {"documents": len(docs), "documents_checked": len(todo), "documents_resumed": len(docs) - len(todo) - sum(1 for r in records if r and r.get("error")),
             "source_files_cited": 0, "sources_parsed": 0}
    phases = {"ray_start": 0.0, "locate": 0.0, "sources": 0.0, "documents": 0.0}
    cpu = {"sources": 0.0, "documents": 0.0}
    if todo:
        ray = start_ray(address, workers)
        cache = str(Path(cache_dir).resolve())
        phases["ray_start"] = time.perf_counter() - t0
        t = time.perf_counter()
        locate = ray.remote(locate_sources)
        located = ray.get([locate.remote(docs[i], cache) for i, _ in todo])
        by_sha: dict[str, tuple[str, str, str]] = {}
        for found in located:
            for key, path, how in found:
                try:
                    by_sha.setdefault(_sha_file(Path(path)), (key, path, how))
                except OSError:
                    continue  # the document's task reports the unreadable file
        stats["source_files_cited"] = sum(len(f) for f in located)
        stats["sources_parsed"] = len(by_sha)
        phases["locate"], t = time.perf_counter() - t, time.perf_counter()
        parse = ray.remote(parse_source_timed)
        pending = [parse.remote(k, p, h, cache) for k, p, h in by_sha.values()]
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            cpu["sources"] += sum(c for _, c in ray.get(ready))
            done += len(ready)
            if progress:
                progress("sources", done, len(by_sha))
        phases["sources"], t = time.perf_counter() - t, time.perf_counter()
        task = ray.remote(check_document)
        threads = task_threads(address, workers)
        futures = {task.remote(docs[i], str(out_dir.resolve()), names[i], cache, tiers, formats, sha, threads): i for i, sha in todo}
        pending = list(futures)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                records[futures[ref]] = ray.get(ref)
                cpu["documents"] += records[futures[ref]].get("cpu_seconds") or 0.0
            done += len(ready)
            _write_records(out_dir, [r for r in records if r is not None])
            if progress:
                progress("documents", done, len(todo))
        phases["documents"] = time.perf_counter() - t
    final = [r for r in records if r is not None]
    _write_records(out_dir, final)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    stats["phase_seconds"] = {k: round(v, 3) for k, v in phases.items()}
    stats["task_cpu_seconds"] = {k: round(v, 3) for k, v in cpu.items()}
    (out_dir / "batch-run.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    from citeproof.reports.batch_html import write_index

    write_index(final, out_dir)
    return final
