"""JSON report, ``schema_version`` 1.

Layout (names are a contract; issue 2)::

    {"schema_version": 1, "document": str, "metadata": {...},
     "summary": {...},                       # citeproof.pipeline.summarise
     "findings": [{"document", "line", "column", "citekey", "claim",
                   "claim_raw", "unit", "locator", "signal", "mode",
                   "verdict", "score", "confidence", "tier",
                   "evidence": {"source", "page", "line", "text", "bbox",
                                "char_start", "char_end", "quotable",
                                "scores", "matched_terms"} | null,
                   "reasons": [str], "tags": [{"name", "message",
                   "confidence", "evidence"}], "flags": [str],
                   "reference": {...} | null, "source": str | null,
                   "provenance": {...} | null, "rank": int,
                   "location": {"page", "bbox"}}],   # citing PDFs only
     "diagnostics": [{"code", "severity", "message", "file", "line"}]}

``evidence.text`` is null when the passage is not quotable (reading order
not trusted): the page still says where to look. ``line`` is from 1;
``page`` from 1; for a citing PDF ``line`` is the page of the citing PDF
(from 1) and ``location`` gives that page and the claim's box; ``bbox`` in PDF points, top-left origin; ``char_start``/
``char_end`` index the source's extracted text.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TextIO

from citeproof.model import SCHEMA_VERSION, Finding, Report
from citeproof.pipeline import summarise

__all__ = ["report_to_dict", "finding_to_dict", "JsonWriter"]


def finding_to_dict(f: Finding, rank: int = 0) -> dict[str, Any]:
    """One finding as plain JSON data (see module docstring)."""
    ev = None
    if f.evidence is not None:
        p = f.evidence.passage
        ev = {
            "source": f.evidence.source.path,
            "page": p.page,
            "line": p.line,
            "text": p.text if p.quotable else None,
            "bbox": list(p.bbox) if p.bbox else None,
            "char_start": p.char_start,
            "char_end": p.char_end,
            "quotable": p.quotable,
            "scores": dict(f.evidence.scores),
            "matched_terms": list(f.evidence.matched_terms),
        }
    c = f.citation
    src = f.source
    return {
        "document": f.claim.document,
        "line": c.line or f.claim.line,
        "column": c.column,
        "citekey": c.citekey,
        "claim": f.claim.text,
        "claim_raw": f.claim.raw,
        "unit": f.claim.kind.value,
        "locator": ({"label": c.locator.label, "value": c.locator.value, "raw": c.locator.raw} if c.locator else None),
        "signal": c.signal,
        "mode": c.mode.value,
        "verdict": f.verdict.value,
        "score": round(f.score, 4),
        "confidence": round(f.confidence, 4),
        "tier": f.tier.value,
        "evidence": ev,
        "reasons": list(f.reasons),
        "tags": [t.to_dict() for t in f.tags],
        "flags": list(f.flags),
        "reference": f.reference.to_dict() if f.reference else None,
        "source": src.path if src is not None else None,
        "provenance": (
            {"origin": src.origin, "sha256": src.sha256, "media_type": src.media_type, "pages": src.pages, "title": src.title, "error": src.error}
            if src is not None
            else None
        ),
        "rank": rank,
        **({"location": {"page": f.claim.page, "bbox": list(f.claim.bbox) if f.claim.bbox else None}} if f.claim.page is not None else {}),
        **({"llm": f.llm} if f.llm is not None else {}),
    }


def report_to_dict(report: Report) -> dict[str, Any]:
    """The whole report as plain JSON data (see module docstring)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "document": report.document,
        "metadata": report.metadata,
        "summary": summarise(report.findings),
        "findings": [finding_to_dict(f, i + 1) for i, f in enumerate(report.findings)],
        "diagnostics": [dataclasses.asdict(d) for d in report.diagnostics],
    }


class JsonWriter:
    """Writes :func:`report_to_dict` as indented UTF-8 JSON."""

    name = "json"
    suffix = ".json"

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream``."""
        json.dump(report_to_dict(report), stream, indent=2, ensure_ascii=False)
        stream.write("\n")
