"""Triage decisions kept beside the report (issue 15, part 1).

A reviewer marks a finding *genuine* (a real problem), *false_alarm* or *accepted*, with a note. The decisions live
in ``<stem>.citeproof.review.json`` beside the reports (the HTML report exports it; the next ``check`` reads it)::

    {"citeproof_review": 1, "document": "draft.md",
     "decisions": {"<finding id>": {"decision": "false_alarm", "note": "...", "at": "2026-12-01T10:00:00Z",
                                    "document": "draft.md", "citekey": "smith2020", "line": 12, "claim": "..."}}}

The key is the finding's stable id (:func:`citeproof.reports.diff.finding_id`: document, citekey, claim text,
source bytes). A decision whose id is in the new run carries over as it is; a decision whose id is gone is paired,
as ``citeproof diff`` pairs findings (:func:`~citeproof.reports.diff.pair_by_claim`: same document and citekey, the
most similar claim text), with a finding of the new run and shown as **stale**: the claim or the source changed since the reviewer decided, so it counts for nothing until renewed.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from citeproof.errors import InputError
from citeproof.model import Finding, Report
from citeproof.reports.diff import finding_id, pair_by_claim, read_json

__all__ = ["DECISIONS", "review_path", "load_review", "attach_review", "finding_key", "dismissed"]

DECISIONS = ("genuine", "false_alarm", "accepted")
"""The decisions a reviewer can make."""


def finding_key(f: Finding) -> str:
    """The stable id of a :class:`Finding` (the JSON report's ``id``)."""
    return finding_id({"document": f.claim.document, "citekey": f.citation.citekey, "claim": f.claim.text,
                       "provenance": {"sha256": f.source.sha256 if f.source is not None else ""}})


def review_path(out_dir: Path, stem: str) -> Path:
    """Where the sidecar of ``<stem>`` reports lives: ``<out_dir>/<stem>.citeproof.review.json``."""
    return Path(out_dir) / f"{stem}.citeproof.review.json"


def load_review(path: Path) -> dict[str, dict[str, Any]]:
    """The decisions of a sidecar file, by finding id.

    Raises:
        InputError: the file is not JSON or not a citeproof review (the message names the file and the first bad
            decision, e.g. ``decisions.ab12.decision``).
    """
    path = Path(path)
    data = read_json(path, "review file", "export it again from the HTML report")
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), dict):
        raise InputError(f"{path}: not a citeproof review file (no 'decisions' object)")
    out = {}
    for fid, d in data["decisions"].items():
        if not isinstance(d, dict) or d.get("decision") not in DECISIONS:
            raise InputError(f"{path}: decisions.{fid}.decision must be one of {', '.join(DECISIONS)}")
        out[str(fid)] = d
    return out


def attach_review(report: Report, decisions: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Put the decisions on the report: ``report.metadata["review"][finding id] = {decision, note, at, stale}``.

    Returns:
        Counts: ``{"carried": n, "stale": n, "orphaned": n}`` (orphaned: no finding of that document and citekey).
    """
    keyed = {finding_key(f): f for f in report.findings}
    review: dict[str, dict[str, Any]] = {}
    leftover: dict[tuple, list[dict]] = defaultdict(list)
    for fid, d in decisions.items():
        if fid in keyed:
            review[fid] = {**d, "stale": False}
        else:
            leftover[(d.get("document"), d.get("citekey"))].append(d)
    open_findings: dict[tuple, list[dict]] = defaultdict(list)
    for fid, f in keyed.items():
        if fid not in review:
            open_findings[(f.claim.document, f.citation.citekey)].append({"id": fid, "claim": f.claim.text, "line": f.citation.line or f.claim.line})
    stale = orphaned = 0
    for key, ds in leftover.items():
        pairs = pair_by_claim(ds, open_findings.get(key, []))
        for d, f in pairs:
            review[f["id"]] = {**d, "stale": True}
        stale += len(pairs)
        orphaned += len(ds) - len(pairs)
    report.metadata["review"] = review
    return {"carried": len(review) - stale, "stale": stale, "orphaned": orphaned}


def dismissed(report: Report, f: Finding) -> bool:
    """True when a current (not stale) decision marks ``f`` a false alarm or accepted: ``--fail-on`` skips it."""
    d = (report.metadata.get("review") or {}).get(finding_key(f))
    return bool(d) and not d.get("stale") and d.get("decision") in ("false_alarm", "accepted")
