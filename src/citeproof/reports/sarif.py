"""SARIF 2.1.0 report, for code-scanning annotations in CI.

One ``result`` per finding, located at the citing document's file, line and
column of the citation. One rule per verdict (``citeproof/contradicted``...)
plus ``citeproof/unknown-citekey``; the level follows the verdict:

=============== =========
verdict          level
=============== =========
contradicted     error
unsupported      error
unknown citekey  error
partial          warning
error            warning
unverifiable     note
supported        none
=============== =========

Supported findings have ``kind: "pass"`` (level ``none``, as SARIF requires
of results that are not failures), units that hold no claim (``not_a_claim``:
a table row of names, a Manubot alias line) ``kind: "notApplicable"`` with
level ``none``; the others ``kind: "fail"``.

The best passage, when there is one, is a ``relatedLocation`` pointing at the
source file, its page in the message (SARIF regions have no page). Paths
relative to the current folder (or to ``root``) get ``uriBaseId``
``%SRCROOT%``, which GitHub resolves against the repository root; others
are ``file://`` URIs.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from citeproof import __version__
from citeproof.model import Finding, Report, Verdict
from citeproof.reports.clip import clip_claim

__all__ = ["SarifWriter", "report_to_sarif", "LEVELS", "SARIF_SCHEMA_URI"]

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
"""The ``$schema`` written into every SARIF file."""

LEVELS: dict[str, str] = {
    Verdict.CONTRADICTED.value: "error",
    Verdict.UNSUPPORTED.value: "error",
    "unknown-citekey": "error",
    Verdict.PARTIAL.value: "warning",
    Verdict.ERROR.value: "warning",
    Verdict.UNVERIFIABLE.value: "note",
    Verdict.SUPPORTED.value: "none",
}
"""Rule name (a verdict, or ``unknown-citekey``) -> SARIF result level."""

_RULE_TEXT: dict[str, tuple[str, str]] = {
    "unknown-citekey": ("Citekey not in the bibliography", "The citation names a key no bibliography file defines; fix the reference first."),
    Verdict.CONTRADICTED.value: ("Source contradicts the claim", "A passage of the cited source says otherwise than the claim."),
    Verdict.UNSUPPORTED.value: ("Source does not back the claim", "No passage of the cited source supports the claim."),
    Verdict.PARTIAL.value: ("Source backs the claim only partly", "The best passage matches the claim weakly; read it."),
    Verdict.ERROR.value: ("citeproof failed on this citation", "The tool itself failed; the reason says how."),
    Verdict.UNVERIFIABLE.value: ("No readable source", "The cited work could not be read (missing, unreadable or unknown), so the claim was not checked."),
    Verdict.SUPPORTED.value: ("Source supports the claim", "A passage of the cited source supports the claim."),
}

_RULE_ORDER = ["unknown-citekey", "contradicted", "unsupported", "partial", "error", "unverifiable", "supported"]


def _rule_name(f: Finding) -> str:
    return "unknown-citekey" if "unknown_citekey" in f.flags else f.verdict.value


def _artifact(path: str, root: Path | None) -> dict[str, Any]:
    p = Path(path)
    base = Path(os.path.abspath(root)) if root is not None else Path.cwd()
    if p.is_absolute():
        try:
            p = Path(os.path.abspath(p)).relative_to(base)
        except ValueError:
            return {"uri": Path(os.path.abspath(p)).as_uri()}
    else:
        rel = os.path.relpath(os.path.abspath(p), base)
        if rel.startswith(".."):
            return {"uri": Path(os.path.abspath(p)).as_uri()}
        p = Path(rel)
    return {"uri": quote(p.as_posix()), "uriBaseId": "%SRCROOT%"}


def _result(f: Finding, rule_index: int, root: Path | None) -> dict[str, Any]:
    c = f.citation
    name = _rule_name(f)
    line = c.line or f.claim.line
    reason = f.reasons[0] if f.reasons else ""
    text = f"[{c.citekey}] {f.verdict.value}"
    if name == "unknown-citekey":
        text = f"[{c.citekey}] unknown citekey"
    text += f" (tier {f.tier.value}, confidence {f.confidence:.2f})"
    if reason:
        text += f": {reason}"
    claim = clip_claim(f.claim.text or f.claim.raw)
    text += f"\nClaim: {claim}"
    for t in f.tags:
        spans = "; ".join(d for d in (e.describe() for e in t.evidence) if d)
        text += f"\nTag {t.name} ({t.confidence:.2f}): {t.message}" + (f" [{spans}]" if spans else "")
    for x in f.suggestions:  # issue 25
        text += f"\n{'Corrected locator' if x['kind'] == 'locator' else 'Suggestion'}: {x['message']}"
    for x in f.inconsistencies:
        text += f"\nInconsistent with line {x['other_line']}: {x['message']}"
    ev = f.evidence
    not_claim = "not_a_claim" in f.flags and name != "unknown-citekey"
    phys: dict[str, Any] = {"artifactLocation": _artifact(f.claim.document, root)}
    if line >= 1:
        region: dict[str, Any] = {"startLine": line}
        if c.column >= 1:
            region["startColumn"] = c.column
        phys["region"] = region
    result: dict[str, Any] = {
        "ruleId": f"citeproof/{name}",
        "ruleIndex": rule_index,
        # SARIF 3.27.9: a result that is not a failure has kind "pass" (or "notApplicable": a unit with no claim
        # to check, flagged not_a_claim) and level "none"
        "kind": "pass" if name == Verdict.SUPPORTED.value else "notApplicable" if not_claim else "fail",
        "level": "none" if not_claim else LEVELS[name],
        "message": {"text": text},
        "locations": [{"physicalLocation": phys}],
        "partialFingerprints": {
            "citeproofFinding/v1": hashlib.sha256(f"{c.citekey}\x1f{claim}\x1f{c.group_index}".encode()).hexdigest()[:32],
        },
        "properties": {
            "verdict": f.verdict.value,
            "citekey": c.citekey,
            "tier": f.tier.value,
            "score": round(f.score, 4),
            "confidence": round(f.confidence, 4),
            "reasons": list(f.reasons),
            "flags": list(f.flags),
            "tags": [t.name for t in f.tags],
            "tag_details": [t.to_dict() for t in f.tags],
            **({"suggestions": [dict(x) for x in f.suggestions]} if f.suggestions else {}),
            **({"inconsistencies": [dict(x) for x in f.inconsistencies]} if f.inconsistencies else {}),
        },
    }
    if ev is not None and ev.source.path:
        page = ev.passage.page
        rel: dict[str, Any] = {"id": 0, "physicalLocation": {"artifactLocation": _artifact(ev.source.path, root)}}
        if ev.passage.line:
            rel["physicalLocation"]["region"] = {"startLine": ev.passage.line}
        rel["message"] = {"text": f"best passage{f', page {page}' if page else ''}"}
        result["relatedLocations"] = [rel]
        if page:
            result["properties"]["page"] = page
    return result


def report_to_sarif(report: Report, root: Path | str | None = None) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log (plain JSON data).

    Args:
        report: the report.
        root: folder that artifact URIs are made relative to (``%SRCROOT%``);
            None: the current folder.

    Returns:
        A dict with ``$schema``, ``version`` and one run holding one result
        per finding, in the report's (worst first) order.
    """
    base = Path(root) if root is not None else None
    rules = []
    for name in _RULE_ORDER:
        short, full = _RULE_TEXT[name]
        rules.append(
            {
                "id": f"citeproof/{name}",
                "name": "".join(w.capitalize() for w in name.split("-")),
                "shortDescription": {"text": short},
                "fullDescription": {"text": full},
                "defaultConfiguration": {"level": LEVELS[name]},
                "properties": {"tags": ["citation"]},
            }
        )
    index = {name: i for i, name in enumerate(_RULE_ORDER)}
    results = [_result(f, index[_rule_name(f)], base) for f in report.findings]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "citeproof",
                "version": str(report.metadata.get("citeproof_version", __version__)),
                "semanticVersion": __version__,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {"tiers": list(report.metadata.get("tiers", [])), "document": report.document},
    }
    if report.diagnostics:
        run["invocations"] = [
            {
                "executionSuccessful": True,
                "toolConfigurationNotifications": [
                    {
                        "level": d.severity if d.severity in ("error", "warning", "note") else "note",
                        "message": {"text": d.message},
                        "descriptor": {"id": d.code},
                        **(
                            {"locations": [{"physicalLocation": {"artifactLocation": _artifact(d.file, base), **({"region": {"startLine": d.line}} if d.line >= 1 else {})}}]}
                            if d.file
                            else {}
                        ),
                    }
                    for d in report.diagnostics
                ],
            }
        ]
    return {"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [run]}


class SarifWriter:
    """Writes :func:`report_to_sarif` as indented UTF-8 JSON.

    Attributes:
        root: folder artifact URIs are relative to (None: current folder).
        out_dir: accepted for symmetry with the HTML writer; unused.
    """

    name = "sarif"
    suffix = ".sarif"

    def __init__(self, root: Path | str | None = None, out_dir: Path | str | None = None) -> None:
        self.root = root
        self.out_dir = out_dir

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream`` as SARIF 2.1.0 JSON."""
        json.dump(report_to_sarif(report, self.root), stream, indent=2, ensure_ascii=False)
        stream.write("\n")
