"""Compare two JSON reports: which findings are new, resolved or changed (issue 15: baselines).

A finding is identified across runs by :func:`finding_id`: the SHA-256 of its document, citekey, claim text
and the SHA-256 of the source it was judged against. The same id in two reports is the same claim judged
against the same bytes. Findings whose ids differ are then paired within one (document, citekey) by the
similarity of their claim texts (:func:`pair_by_claim`): such a pair is one citation whose claim or source
changed, reported as *changed*, never as one resolved and one new finding.

Works on the JSON report's plain data (``schema_version`` 1 or 2, :mod:`citeproof.reports.json`; a schema-2
report's ``works`` are inlined into its findings on reading), so a report written by an older citeproof without
``id`` fields is still comparable: the id is recomputed from the fields.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeproof.errors import InputError

__all__ = ["finding_id", "inline_works", "ReportDiff", "diff_reports", "load_report", "new_or_changed_ids", "pair_by_claim", "PAIR_MIN_SIMILARITY"]


def finding_id(finding: dict[str, Any]) -> str:
    """The stable id of one JSON finding: 16 hex characters.

    Args:
        finding: a finding as the JSON report writes it (needs ``document``, ``citekey``, ``claim``;
            ``provenance.sha256`` when the source was read).

    Returns:
        The first 16 hex digits of SHA-256 over document, citekey, claim text and source hash, joined by
        U+001F. Equal ids mean the same claim text judged against the same source bytes.
    """
    src = (finding.get("provenance") or {}).get("sha256") or ""
    key = "\x1f".join([str(finding.get("document", "")), str(finding.get("citekey", "")), str(finding.get("claim", "")), src])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _tags(f: dict[str, Any]) -> list[str]:
    return sorted(t.get("name", "") if isinstance(t, dict) else str(t) for t in f.get("tags") or [])


@dataclass
class Change:
    """One citation present in both reports whose claim, source, verdict or tags differ.

    Attributes:
        old, new: the finding in each report.
        what: what differs, e.g. ``["verdict supported -> partial", "claim text"]``.
    """

    old: dict[str, Any]
    new: dict[str, Any]
    what: list[str]


@dataclass
class ReportDiff:
    """The difference between two reports.

    Attributes:
        new: findings only in the new report.
        resolved: findings only in the old report.
        changed: citations in both whose claim, source, verdict or tags differ.
        unchanged: how many findings are the same in both.
    """

    new: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[dict[str, Any]] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    unchanged: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: ``{"new": [...], "resolved": [...], "changed": [{"old", "new", "what"}], "unchanged": n}``."""
        return {"new": self.new, "resolved": self.resolved, "unchanged": self.unchanged,
                "changed": [{"old": c.old, "new": c.new, "what": c.what} for c in self.changed]}


def read_json(path: Path, what: str, fix: str) -> Any:
    """The parsed JSON of ``path``.

    Raises:
        InputError: the file is missing or not UTF-8 JSON; the message names the file, ``what`` was expected and
            ``fix`` (what to do).
    """
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; {fix}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a {what} ({exc}); {fix}") from None


def inline_works(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with each finding's work record (``reference``, ``provenance``, ``sources_considered``) copied
    into the finding from ``works[finding["work"]]``, as schema 1 wrote it; a schema-1 report is returned as is.

    Modifies ``data`` in place and returns it. A finding whose ``work`` is absent from ``works`` gets nulls.
    """
    works = data.get("works")
    if not isinstance(works, dict):
        return data
    for f in data.get("findings", []):
        if isinstance(f, dict):
            w = works.get(f.get("work", f.get("citekey"))) or {}
            for k in ("reference", "provenance"):
                f.setdefault(k, w.get(k))
            f.setdefault("sources_considered", w.get("sources_considered") or [])
    return data


def load_report(path: Path) -> dict[str, Any]:
    """Read a citeproof JSON report (schema 1 or 2), each finding's work record inlined (:func:`inline_works`).

    Raises:
        InputError: the file is missing, not JSON, or not a citeproof report (no ``findings`` list); the
            message names the file and what to give instead.
    """
    path = Path(path)
    data = read_json(path, "JSON report", "give a file written by `citeproof check --format json`")
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise InputError(f"{path}: not a citeproof JSON report (no 'findings' list); give a file written by `citeproof check --format json`")
    for i, f in enumerate(data["findings"]):
        if not isinstance(f, dict):
            raise InputError(f"{path}: findings[{i}] is not an object; is this a citeproof JSON report?")
    return inline_works(data)


PAIR_MIN_SIMILARITY = 60.0
"""Least rapidfuzz ``ratio`` (0-100) between two claim texts for an edited claim to count as the same citation."""


def pair_by_claim(olds: list[dict[str, Any]], news: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pair citations of one document and citekey across two runs: most similar claim texts first.

    Args:
        olds, news: dicts with ``claim`` (and ``line``), all of the same document and citekey.

    Returns:
        ``(old, new)`` pairs whose claims score at least :data:`PAIR_MIN_SIMILARITY` (rapidfuzz ``ratio``), greedy
        by similarity, then by line distance; each item is used at most once.
    """
    from rapidfuzz import fuzz

    cands = sorted(((fuzz.ratio(o.get("claim") or "", n.get("claim") or ""), -abs((o.get("line") or 0) - (n.get("line") or 0)), i, j)
                    for i, o in enumerate(olds) for j, n in enumerate(news)), reverse=True)
    used_o: set[int] = set()
    used_n: set[int] = set()
    pairs = []
    for score, _, i, j in cands:
        if score < PAIR_MIN_SIMILARITY:
            break
        if i in used_o or j in used_n:
            continue
        used_o.add(i)
        used_n.add(j)
        pairs.append((olds[i], news[j]))
    return pairs


def _what_differs(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    what = []
    if old.get("claim") != new.get("claim"):
        what.append("claim text")
    if (old.get("provenance") or {}).get("sha256") != (new.get("provenance") or {}).get("sha256"):
        what.append("source file")
    if old.get("verdict") != new.get("verdict"):
        what.append(f"verdict {old.get('verdict')} -> {new.get('verdict')}")
    if _tags(old) != _tags(new):
        what.append(f"tags {', '.join(_tags(old)) or '-'} -> {', '.join(_tags(new)) or '-'}")
    return what


def diff_reports(old: dict[str, Any], new: dict[str, Any]) -> ReportDiff:
    """Compare two JSON reports (module docstring: how findings are paired).

    Args:
        old, new: JSON reports as :func:`load_report` returns them (schema 1 or 2; a schema-2 report's works
            are inlined into its findings here if they are not yet, :func:`inline_works`).

    Returns:
        A :class:`ReportDiff`; ``new``/``resolved`` keep each report's order (worst first).
    """
    old, new = inline_works(old), inline_works(new)
    out = ReportDiff()
    old_by_id: dict[str, list[dict]] = defaultdict(list)
    for f in old["findings"]:
        old_by_id[f.get("id") or finding_id(f)].append(f)
    unmatched_new = []
    for f in new["findings"]:
        bucket = old_by_id.get(f.get("id") or finding_id(f))
        if bucket:
            o = bucket.pop(0)
            what = _what_differs(o, f)
            if what:
                out.changed.append(Change(o, f, what))
            else:
                out.unchanged += 1
        else:
            unmatched_new.append(f)
    rest_old: dict[tuple, list[dict]] = defaultdict(list)
    for fs in old_by_id.values():
        for f in fs:
            rest_old[(f.get("document"), f.get("citekey"))].append(f)
    rest_new: dict[tuple, list[dict]] = defaultdict(list)
    for f in unmatched_new:
        rest_new[(f.get("document"), f.get("citekey"))].append(f)
    paired_old: set[int] = set()
    paired_new: set[int] = set()
    for key, news in rest_new.items():
        for o, n in pair_by_claim(rest_old.get(key, []), news):
            out.changed.append(Change(o, n, _what_differs(o, n)))
            paired_old.add(id(o))
            paired_new.add(id(n))
    order = {id(f): i for i, f in enumerate(new["findings"])}
    out.changed.sort(key=lambda c: order[id(c.new)])
    out.new = [f for f in new["findings"] if id(f) in {id(x) for x in unmatched_new} and id(f) not in paired_new]
    out.resolved = [f for f in old["findings"] if id(f) in {id(x) for fs in rest_old.values() for x in fs} and id(f) not in paired_old]
    return out


def new_or_changed_ids(baseline: dict[str, Any], current: dict[str, Any]) -> set[str]:
    """Ids of the findings of ``current`` that are new or changed against ``baseline``.

    ``--baseline`` uses this so that ``--fail-on`` counts only what the baseline did not already have.
    A finding whose citation is unchanged but whose verdict or tags changed counts as changed.
    """
    d = diff_reports(baseline, current)
    return {f.get("id") or finding_id(f) for f in d.new} | {c.new.get("id") or finding_id(c.new) for c in d.changed}
