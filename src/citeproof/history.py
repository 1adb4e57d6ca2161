"""Run history: what was checked, with what, and what came out (issue 15, part 5).

Every ``citeproof check`` that uses the cache records one row in ``<cache dir>/history.sqlite`` (beside the
parsed-source cache, in a file of its own so that a damaged or locked history never costs a parsed source):
the time (UTC), the citeproof version, the document and the SHA-256 of its bytes, each bibliography with its
SHA-256, the SHA-256 of every source read (per citekey), the tiers and model versions, the summary counts and
the run time. ``citeproof history [DOCUMENT]`` lists them. Recording is best effort: a history that cannot be
written is a warning, never a failed run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citeproof.model import Report

__all__ = ["RunRecord", "record_run", "list_runs", "cited_works", "HISTORY_FILE"]

HISTORY_FILE = "history.sqlite"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT, version TEXT, "
           "document TEXT, document_sha256 TEXT, record TEXT)")


@dataclass
class RunRecord:
    """One recorded run.

    Attributes:
        id: row number, from 1, in the order runs were recorded.
        created: ISO 8601 UTC time, seconds.
        version: the citeproof version that ran.
        document: the document path as given (resolved to an absolute path).
        document_sha256: SHA-256 of the document's bytes ('' when unreadable).
        record: the rest: ``bibliographies`` [{path, sha256}], ``sources`` {citekey: sha256}, ``tiers``,
            ``models``, ``summary`` (the report's counts), ``seconds``, ``works`` (:func:`cited_works`; absent in
            runs recorded before issue 25).
    """

    id: int
    created: str
    version: str
    document: str
    document_sha256: str
    record: dict[str, Any]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return ""
    return h.hexdigest()


def _connect(cache_dir: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(Path(cache_dir) / HISTORY_FILE, timeout=5)
    conn.execute(_SCHEMA)
    return conn


def cited_works(report: Report) -> dict[str, dict[str, Any]]:
    """The works a report cites, for ``citeproof watch`` (issue 25, part 6): citekey -> ``{"doi", "title",
    "retracted", "corrected"}``, the last two as the run knew them (its ``retracted_source`` / ``corrected_source``
    tags; False when the run was not online). The DOI is the entry's, else a ``doi:`` citekey's; '' when neither."""
    tagged: dict[str, set[str]] = {}
    for f in report.findings:
        tagged.setdefault(f.citation.citekey, set()).update(t.name for t in f.tags)
    out: dict[str, dict[str, Any]] = {}
    for key in sorted(tagged):
        ref = report.references.get(key)
        doi = (ref.doi if ref is not None else "") or (key[4:] if key.lower().startswith("doi:") and key[4:].startswith("10.") else "")
        out[key] = {"doi": doi.lower(), "title": ref.title if ref is not None else "",
                    "retracted": "retracted_source" in tagged[key], "corrected": "corrected_source" in tagged[key]}
    return out


def record_run(report: Report, cache_dir: Path, summary: dict[str, Any]) -> str | None:
    """Append one run to the history.

    Args:
        report: the finished report (its metadata gives version, tiers and timings).
        cache_dir: the cache folder (must exist).
        summary: the summary counts as the JSON report writes them.

    Returns:
        None when recorded, else a warning sentence naming the file and why it was not (the run still
        counts; nothing is raised).
    """
    meta = report.metadata
    from citeproof.retrieval.dense import MODEL_VERSION as DENSE_MODEL

    models = {}
    if "dense" in (meta.get("tiers") or []):
        models["dense"] = DENSE_MODEL
    if "entailment" in (meta.get("tiers") or []):
        from citeproof.judges import entailment

        models["entailment"] = entailment.MODEL_PATH.name
    rec = {
        "bibliographies": [{"path": str(Path(p).resolve()), "sha256": _sha256(Path(p))} for p in meta.get("bibliographies") or []],
        "sources": {k: s.sha256 for k, s in sorted(report.sources.items()) if getattr(s, "sha256", None)},
        "tiers": list(meta.get("tiers") or []),
        "models": models,
        "summary": summary,
        "seconds": (meta.get("timings_s") or {}).get("total"),
        "works": cited_works(report),
    }
    doc = Path(report.document)
    try:
        with _connect(cache_dir) as conn:
            conn.execute("INSERT INTO runs (created, version, document, document_sha256, record) VALUES (?, ?, ?, ?, ?)",
                         (meta.get("created") or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), meta.get("citeproof_version", ""),
                          str(doc.resolve()), _sha256(doc), json.dumps(rec, ensure_ascii=False)))
        conn.close()
    except (sqlite3.Error, OSError) as exc:
        return f"{Path(cache_dir) / HISTORY_FILE}: run not recorded in the history ({exc})"
    return None


def list_runs(cache_dir: Path, document: Path | None = None, limit: int = 50) -> list[RunRecord]:
    """Recorded runs, newest first.

    Args:
        cache_dir: the cache folder.
        document: only runs of this document (compared as an absolute path), or all when None.
        limit: at most this many rows.

    Returns:
        The runs; an empty list when there is no history yet.

    Raises:
        sqlite3.DatabaseError: the history file is damaged (the caller names the file).
    """
    db = Path(cache_dir) / HISTORY_FILE
    if not db.is_file():
        return []
    with _connect(cache_dir) as conn:
        if document is None:
            rows = conn.execute("SELECT id, created, version, document, document_sha256, record FROM runs ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        else:
            rows = conn.execute("SELECT id, created, version, document, document_sha256, record FROM runs WHERE document=? ORDER BY id DESC LIMIT ?",
                                (str(Path(document).resolve()), limit)).fetchall()
    conn.close()
    return [RunRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]
