"""Reviewer feedback as data: ``citeproof eval feedback DIR`` (issue 15, part 4).

Every ``<stem>.citeproof.review.json`` under DIR (the sidecar the HTML report exports, or the web page keeps per
job) holds a reviewer's decisions by finding id. Each decision is joined to its finding in the JSON report beside it
(``<stem>.citeproof.json``, same folder, matched by the finding's ``id``), else to the copy of the finding the sidecar
record carries (``verdict``, ``tier``, ``tags``, ``passage``; the HTML report exports them), and becomes one labelled
pair: claim, passage, the tool's verdict, tier and tags, and the human label (``genuine``, ``false_alarm``,
``accepted``).

Precision is the share of reviewed flags a human called a genuine problem, ``genuine / (genuine + false_alarm)``;
*accepted* (a real but tolerated problem, or a judgement call) counts for neither and is reported beside it. A
*flag* is a finding whose verdict is not ``supported``, and per tag every finding carrying the tag (a tag on a
supported citation is a flag too). A supported citation a reviewer marked genuine is a *miss*, counted apart.
Intervals are Wilson score intervals at 95% (Wilson, JASA 22:209, 1927), honest on the handful of decisions one
reviewer makes. Stale decisions (the claim or source changed since) are not in an exported sidecar; a decision
whose finding is in neither the report nor the record is counted as ``unmatched``, never dropped silently.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from citeproof.errors import InputError
from citeproof.reports.diff import read_json
from citeproof.reports.review import load_review

__all__ = ["SIDECAR_SUFFIX", "LabelledPair", "load_feedback", "feedback_metrics", "wilson", "format_feedback_markdown"]

SIDECAR_SUFFIX = ".citeproof.review.json"
"""The name every review sidecar ends with."""


@dataclass(frozen=True)
class LabelledPair:
    """One reviewed finding: what the tool saw and said, and what the human said.

    Attributes:
        document, citekey, line: where the citation is (line from 1).
        claim: the citing sentence as the report holds it.
        passage: the best passage the tool showed ('' when there was none, or it was not quotable).
        verdict, tier: the tool's verdict and deciding tier (``unknown`` when neither the report nor the record says).
        tags: the failure-mode tags on the finding.
        label: the reviewer's decision: ``genuine``, ``false_alarm`` or ``accepted``.
        note: the reviewer's note.
        finding_id: the stable finding id (:func:`citeproof.reports.diff.finding_id`).
        sidecar: the review file it came from.
    """

    document: str
    citekey: str
    line: int
    claim: str
    passage: str
    verdict: str
    tier: str
    tags: tuple[str, ...]
    label: str
    note: str
    finding_id: str
    sidecar: str

    @property
    def flagged(self) -> bool:
        """True when the tool raised a flag: a verdict other than supported, or any tag."""
        return self.verdict != "supported" or bool(self.tags)

    def to_dict(self) -> dict[str, Any]:
        """JSON data (the field names above; ``tags`` a list)."""
        d = asdict(self)
        d["tags"] = list(self.tags)
        return d


def _report_findings(side: Path) -> dict[str, dict]:
    """The findings of the JSON report beside ``side`` by id; ``{}`` when there is none.

    Raises:
        InputError: the report exists but is not JSON.
    """
    report = side.with_name(side.name[: -len(SIDECAR_SUFFIX)] + ".citeproof.json")
    if not report.is_file():
        return {}
    data = read_json(report, "JSON report", "run citeproof check again with --format json")
    return {f["id"]: f for f in data.get("findings", []) if isinstance(f, dict) and f.get("id")} if isinstance(data, dict) else {}


def load_feedback(folder: Path) -> tuple[list[LabelledPair], dict[str, int]]:
    """The labelled pairs of every review sidecar under ``folder`` (module docstring).

    Args:
        folder: a folder searched recursively for ``*.citeproof.review.json``.

    Returns:
        ``(pairs, counts)``; ``counts`` has ``sidecars``, ``decisions``, ``from_report`` (joined to a JSON report),
        ``from_record`` (only the sidecar's copy) and ``unmatched`` (no verdict known: not a pair).

    Raises:
        InputError: ``folder`` is not a folder, holds no sidecar, or a sidecar or report is malformed (the message
            names the file).
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder; give the folder holding the *{SIDECAR_SUFFIX} files")
    sides = sorted(folder.rglob("*" + SIDECAR_SUFFIX))
    if not sides:
        raise InputError(f"{folder}: no *{SIDECAR_SUFFIX} file in it; export the decisions from the HTML report first")
    counts = {"sidecars": len(sides), "decisions": 0, "from_report": 0, "from_record": 0, "unmatched": 0}
    pairs: list[LabelledPair] = []
    for side in sides:
        found = _report_findings(side)
        for fid, d in load_review(side).items():
            counts["decisions"] += 1
            f = found.get(fid)
            if f is not None:
                counts["from_report"] += 1
                ev = f.get("evidence") or {}
                seen = {"verdict": f.get("verdict"), "tier": f.get("tier"), "tags": [t.get("name") for t in f.get("tags", []) if isinstance(t, dict)],
                        "passage": ev.get("text") or "", "claim": f.get("claim"), "document": f.get("document"),
                        "citekey": f.get("citekey"), "line": f.get("line")}
            elif d.get("verdict"):
                counts["from_record"] += 1
                seen = d
            else:
                counts["unmatched"] += 1
                continue
            pairs.append(LabelledPair(
                document=str(seen.get("document") or d.get("document") or ""), citekey=str(seen.get("citekey") or d.get("citekey") or ""),
                line=int(seen.get("line") or d.get("line") or 0), claim=str(seen.get("claim") or d.get("claim") or "").strip(),
                passage=str(seen.get("passage") or ""), verdict=str(seen.get("verdict") or "unknown"), tier=str(seen.get("tier") or "unknown"),
                tags=tuple(str(t) for t in (seen.get("tags") or []) if t), label=str(d["decision"]), note=str(d.get("note") or ""),
                finding_id=fid, sidecar=str(side)))
    return pairs, counts


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """Wilson score interval of a proportion ``k / n`` (z = 1.96: 95%); None when ``n`` is 0."""
    if n == 0:
        return None
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)


def _cell(pairs: list[LabelledPair]) -> dict[str, Any]:
    g = sum(p.label == "genuine" for p in pairs)
    fa = sum(p.label == "false_alarm" for p in pairs)
    acc = sum(p.label == "accepted" for p in pairs)
    return {"reviewed": len(pairs), "genuine": g, "false_alarm": fa, "accepted": acc,
            "precision": round(g / (g + fa), 4) if g + fa else None, "ci95": wilson(g, g + fa)}


def feedback_metrics(pairs: list[LabelledPair]) -> dict[str, Any]:
    """Precision of the reviewed flags, overall and per tier, verdict and tag (module docstring).

    Returns:
        ``{"flags": cell, "by_tier": {tier: cell}, "by_verdict": {verdict: cell}, "by_tag": {tag: cell},
        "misses": n}``; a cell is ``{reviewed, genuine, false_alarm, accepted, precision (None without a genuine
        or false-alarm label), ci95 ([lo, hi] or None)}``.
    """
    flags = [p for p in pairs if p.flagged]
    by_tier: dict[str, list] = defaultdict(list)
    by_verdict: dict[str, list] = defaultdict(list)
    by_tag: dict[str, list] = defaultdict(list)
    for p in flags:
        if p.verdict != "supported":
            by_tier[p.tier].append(p)
            by_verdict[p.verdict].append(p)
        for t in p.tags:
            by_tag[t].append(p)
    return {
        "flags": _cell(flags),
        "by_tier": {k: _cell(v) for k, v in sorted(by_tier.items())},
        "by_verdict": {k: _cell(v) for k, v in sorted(by_verdict.items())},
        "by_tag": {k: _cell(v) for k, v in sorted(by_tag.items())},
        "misses": sum(1 for p in pairs if p.verdict == "supported" and not p.tags and p.label == "genuine"),
    }


def format_feedback_markdown(res: dict[str, Any]) -> str:
    """``{"counts": load_feedback's counts, "pairs": n, "metrics": feedback_metrics(...)}`` as Markdown tables (one per grouping)."""
    def row(name: str, c: dict) -> str:
        prec = "n/a" if c["precision"] is None else f"{c['precision']:.2f} [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}]"
        return f"| {name} | {c['reviewed']} | {c['genuine']} | {c['false_alarm']} | {c['accepted']} | {prec} |"

    c = res["counts"]
    lines = [f"Reviewer feedback: {c['decisions']} decisions in {c['sidecars']} review files; {res['pairs']} "
             f"labelled pairs ({c['from_report']} joined to a JSON report, {c['from_record']} from the review file alone), {c['unmatched']} unmatched.",
             "", "Precision = genuine / (genuine + false alarm), Wilson 95% interval; accepted counts for neither.", ""]
    head = "| {} | reviewed | genuine | false alarm | accepted | precision [95% CI] |\n|---|---:|---:|---:|---:|---|"
    m = res["metrics"]
    lines += [head.format("flags"), row("all flags", m["flags"]), ""]
    for title, key in (("tier", "by_tier"), ("verdict", "by_verdict"), ("tag", "by_tag")):
        if m[key]:
            lines += [head.format(title)] + [row(k, v) for k, v in m[key].items()] + [""]
    lines.append(f"Misses (supported, untagged, marked genuine): {m['misses']}")
    return "\n".join(lines)
