"""Triage decisions on the web page, kept on the server per job (issue 15, part 1).

The job's HTML report, opened from the server, saves each decision with ``POST /jobs/{id}/review`` and reads them
back with ``GET /jobs/{id}/review``, so a reload or another browser sees them. They are kept as the job's review
sidecar, ``out/<stem>.citeproof.review.json``, the same file :mod:`citeproof.reports.review` reads and the HTML report
exports (so ``citeproof check --review`` and ``citeproof eval feedback`` take it as it is).

A POST body is JSON: ``{"finding": "<finding id>", "decision": "genuine" | "false_alarm" | "accepted" | null,
"note": "..."}`` (``null`` withdraws the decision). What the record says about the finding (document, citekey, line,
claim, verdict, tier, tags, passage) is copied from the job's JSON report, never taken from the request; a finding id
the report does not hold is refused. The Host/Origin rules of :mod:`citeproof.web.security` apply as to every POST;
a body that is not ``application/json`` is refused too (a cross-site form cannot send one without a CORS preflight).
"""

from __future__ import annotations

import json
import os
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from citeproof.reports import report_stem
from citeproof.reports.review import DECISIONS

__all__ = ["MAX_NOTE_CHARS", "ReviewError", "load_job_review", "save_job_decision"]

MAX_NOTE_CHARS = 2000
"""Longest note kept (characters)."""

MAX_BODY_BYTES = 1024 * 1024
"""Largest decision body read (bytes; ``413`` above): a note of :data:`MAX_NOTE_CHARS` characters, escaped, is under 25 KB."""

_LOCK = threading.Lock()


class ReviewError(ValueError):
    """A decision the server refuses; ``status_code`` is the HTTP status to answer with."""

    def __init__(self, message: str, status_code: int = 400) -> None:
        super().__init__(message)
        self.status_code = status_code


def _paths(folder: Path, state: dict[str, Any]) -> tuple[Path, Path]:
    """``(JSON report, review sidecar)`` of a finished job.

    Raises:
        ReviewError: 409 when the job has no JSON report (not finished, or failed).
    """
    name = (state.get("reports") or {}).get("json")
    if state.get("status") != "done" or not name:
        raise ReviewError("the job has no report to review yet", 409)
    stem = report_stem(state["document"])
    return folder / "out" / name, folder / "out" / f"{stem}.citeproof.review.json"


def load_job_review(folder: Path, state: dict[str, Any]) -> dict[str, Any]:
    """The job's review sidecar: ``{"citeproof_review": 1, "document", "decisions": {finding id: record}}``.

    Args:
        folder: the job's folder (:meth:`citeproof.web.jobs.JobStore.folder`).
        state: its state (:meth:`~citeproof.web.jobs.JobStore.state`).

    Raises:
        ReviewError: 409 when the job has no report yet.
    """
    _report, side = _paths(folder, state)
    try:
        data = json.loads(side.read_text("utf-8"))
    except FileNotFoundError:
        data = None
    except (OSError, json.JSONDecodeError):  # only this module writes it, atomically; start afresh rather than fail
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), dict):
        data = {"citeproof_review": 1, "document": state["document"], "decisions": {}}
    return data


def save_job_decision(folder: Path, state: dict[str, Any], body: bytes) -> dict[str, Any]:
    """Record (or withdraw) one decision on the job's report; returns the whole sidecar after the change.

    Args:
        folder, state: as for :func:`load_job_review`.
        body: the request body (module docstring).

    Raises:
        ReviewError: 400 for a body that is not the JSON above (nested too deeply, a lone surrogate in
            a string), an unknown decision or a note over :data:`MAX_NOTE_CHARS`; 413 for a body over
            :data:`MAX_BODY_BYTES`; 404 for a finding id the report does not hold; 409 for a job without a report.
    """
    report_path, side = _paths(folder, state)
    if len(body) > MAX_BODY_BYTES:
        raise ReviewError(f"the body is larger than {MAX_BODY_BYTES:,} bytes", 413)
    try:
        req = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReviewError(f"the body is not JSON ({exc})") from None
    except RecursionError:  # 100,000 '[' (issue 31): a refusal, not a 500
        raise ReviewError("the body is not JSON this server reads (nested too deeply)") from None
    if not isinstance(req, dict) or not isinstance(req.get("finding"), str):
        raise ReviewError('give {"finding": "<finding id>", "decision": "genuine" | "false_alarm" | "accepted" | null, "note": "..."}')
    decision, note = req.get("decision"), req.get("note", "")
    if decision is not None and decision not in DECISIONS:
        raise ReviewError(f"decision must be one of {', '.join(DECISIONS)} (or null to withdraw it), not {decision!r}")
    if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
        raise ReviewError(f"note must be text of at most {MAX_NOTE_CHARS} characters")
    if not _encodable(note) or not _encodable(req["finding"]):  # a lone surrogate ("\ud800") cannot be written as UTF-8
        raise ReviewError("note and finding must be Unicode text (the body holds a lone surrogate escape)")
    findings = {f.get("id"): f for f in json.loads(report_path.read_text("utf-8")).get("findings", [])}
    f = findings.get(req["finding"])
    if f is None:
        raise ReviewError(f"the report has no finding {req['finding'][:80]!r}", 404)
    with _LOCK:
        data = load_job_review(folder, state)
        if decision is None:
            data["decisions"].pop(req["finding"], None)
        else:
            ev = f.get("evidence") or {}
            data["decisions"][req["finding"]] = {
                "decision": decision, "note": note, "at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "document": f.get("document"), "citekey": f.get("citekey"), "line": f.get("line"), "claim": f.get("claim"),
                "verdict": f.get("verdict"), "tier": f.get("tier"), "tags": [t.get("name") for t in f.get("tags", [])],
                "passage": ev.get("text") or "",
            }
        text = json.dumps(data, indent=1, ensure_ascii=False)
        tmp = side.with_name(side.name + f".{threading.get_ident()}.tmp")
        try:
            tmp.write_text(text, "utf-8")
            os.replace(tmp, side)
        except BaseException:
            tmp.unlink(missing_ok=True)  # never a partial review.json.*.tmp left behind
            raise
    return data


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
