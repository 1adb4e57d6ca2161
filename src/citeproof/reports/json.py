"""JSON report, ``schema_version`` 2.

Layout (names are a contract; issue 2; ``works`` since schema 2, issue 30)::

    {"$schema": "urn:citeproof:schema:report:2", "schema_version": 2, "document": str, "metadata": {...},
     "summary": {...},                       # citeproof.triage.summarise
     "works": {citekey: {"reference": {...} | null, "source": str | null,
                         "sources_considered": [{"path", "chosen", "reason"}],
                         "provenance": {...} | null}},
     "findings": [{"id", "document", "line", "column", "citekey", "work",
                   "claim", "claim_raw", "unit", "locator", "signal", "mode",
                   "verdict", "score", "confidence", "tier",
                   "evidence": {"source", "page", "line", "text", "bbox",
                                "page_label", "page_end", "bbox_end",
                                "char_start", "char_end", "quotable", "ocr",
                                "scores", "matched_terms", "matched_words",
                                "time_start", "time_end"} | null,  # the last two for a transcript only
                   "reasons": [str], "tags": [{"name", "message",
                   "confidence", "evidence"}], "flags": [str],
                   "source": str | null,
                   "review": {"decision", "note", "at", "stale"},  # only when a reviewer decided
                   "rank": int,
                   "location": {"page", "bbox"},   # citing PDFs only
                   "suggestions": [{"kind", "citekey", "path", "locator", "verdict", "tier", "score", "page",
                                    "page_label", "where", "evidence", "message"}],   # issue 25
                   "inconsistencies": [{"kind", "citekey", "line", "column", "other_line", "other_column", "other_claim", "this", "other",
                                        "message"}]}],
     "diagnostics": [{"code", "severity", "message", "file", "line"}],
     "uncited_claims": [{"document", "line", "sentence", "cue", "words", "candidate": suggestion | null}]}

``suggestions`` (issue 25, :mod:`citeproof.assist`): for an *unsupported* or *off_topic* citation, the works of the
user's library whose passage supports the claim (kind ``source``); for a page locator the words do not stand on,
the corrected locator (kind ``locator``, with ``old_locator``). ``inconsistencies``: the other sentences citing the
same work for an incompatible number or direction. ``uncited_claims``: sentences stating a specific finding with
no citation (each also an ``uncited_claim`` diagnostic).

Each cited work is written once, under ``works`` (keyed by citekey); a finding's ``work`` names its entry there
(the finding's citekey). Schema 1 repeated ``reference``, ``provenance`` and ``sources_considered`` in every
finding (500 KB for the demo's 125 findings); :func:`citeproof.reports.diff.inline_works` puts them back into
each finding in memory, for either schema, and :func:`citeproof.reports.diff.load_report` does so on reading.

``evidence.text`` is null when the passage is not quotable (reading order
not trusted): the page still says where to look. ``line`` is from 1;
``page`` from 1; ``provenance.merkle_root`` is the RFC 6962 Merkle root over the source's
``provenance.passages`` passages and ``evidence.leaf_index``/``evidence.proof`` the quoted passage's audit
path (:mod:`citeproof.integrity`; ``citeproof verify``); ``id`` is :func:`citeproof.reports.diff.finding_id` (stable across runs while
the claim text and the source bytes are unchanged); for a citing PDF ``line`` is the page of the citing PDF
(from 1) and ``location`` gives that page and the claim's box; ``bbox`` in PDF points, top-left origin; ``char_start``/
``char_end`` index the source's extracted text. ``source`` is the file read;
``sources_considered`` lists every file the entry names (and the ``--sources``
file used when none of them could be), ``chosen`` true for the one read, each
with the reason it was read or passed over; empty when no file was named.
``char_end`` index the source's extracted text. The JSON Schema is
``reports/schema.json`` (:data:`REPORT_SCHEMA_PATH`).
``page`` is the PDF sheet;
``page_label`` the number printed on it (PDF page labels, else the number in
the margin) or null; a passage whose sentence runs on past a page or column
break starts at ``page``/``bbox`` and ends at ``page_end`` (null on the same
page) / ``bbox_end`` (null when it does not run on). A passage of a recording's
transcript or subtitles has ``time_start``/``time_end``: seconds from the start of
the recording (absent for every other source).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, TextIO

from citeproof.integrity import passage_proof, source_tree
from citeproof.model import SCHEMA_VERSION, Finding, Report
from citeproof.triage import summarise
from citeproof.reports.diff import finding_id
from citeproof.reports.clip import clip_claim
from citeproof.text.normalise import surface_words

__all__ = ["report_to_dict", "finding_to_dict", "WORK_FIELDS", "JsonWriter", "REPORT_SCHEMA_ID", "REPORT_SCHEMA_PATH"]

REPORT_SCHEMA_PATH = Path(__file__).with_name("schema.json")
"""The report's JSON Schema (draft 2020-12), shipped in the package."""

REPORT_SCHEMA_ID = "urn:citeproof:schema:report:2"
"""The schema's ``$id``; every report names it in ``$schema``."""


WORK_FIELDS = ("reference", "sources_considered", "provenance")
"""The fields of a cited work's record: in ``works[citekey]`` of the report (with ``source``), not in each finding."""


def finding_to_dict(f: Finding, rank: int = 0) -> dict[str, Any]:
    """One finding as plain JSON data, its work's record inlined (``reference``, ``provenance``,
    ``sources_considered``: schema 1's finding; :func:`report_to_dict` moves them to ``works``)."""
    ev = None
    if f.evidence is not None:
        p = f.evidence.passage
        ev = {
            "source": f.evidence.source.path,
            "page": p.page,
            "line": p.line,
            "text": p.text if p.quotable else None,
            "bbox": list(p.bbox) if p.bbox else None,
            "page_label": p.page_label or None,
            "page_end": p.page_end,
            "bbox_end": list(p.bbox_end) if p.bbox_end else None,
            "char_start": p.char_start,
            "char_end": p.char_end,
            "quotable": p.quotable,
            "ocr": p.ocr,
            "scores": dict(f.evidence.scores),
            "matched_terms": list(f.evidence.matched_terms),
            # the same terms as the passage writes them (the stems fold "fi" to "ƒ": "signiƒc" is "significant")
            "matched_words": surface_words(p.text, f.evidence.matched_terms) if p.quotable else [],
        }
        if p.time_start is not None:  # a recording's transcript: where the passage is spoken, seconds from the start
            ev["time_start"], ev["time_end"] = p.time_start, p.time_end
        proof = passage_proof(f.evidence.source, p) if f.evidence.source.passages else None
        if proof is not None:
            ev["passage_id"] = p.id
            ev["leaf_index"], ev["proof"] = proof
    c = f.citation
    src = f.source
    d = {
        "id": "",
        "document": f.claim.document,
        "line": c.line or f.claim.line,
        "column": c.column,
        "citekey": c.citekey,
        "claim": clip_claim(f.claim.text),
        "claim_raw": clip_claim(f.claim.raw),
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
        "sources_considered": [c.to_dict() for c in src.considered] if src is not None else [],
        "provenance": (
            {"origin": src.origin, "sha256": src.sha256, "media_type": src.media_type, "pages": src.pages, "title": src.title, "error": src.error,
             **({"merkle_root": source_tree(src)[0], "passages": len(src.passages)} if src.passages else {}),
             **({"ocr": src.ocr} if src.ocr else {}), **({"notes": list(src.notes)} if src.notes else {}),
             **({"metadata": src.metadata} if src.metadata else {})}
            if src is not None
            else None
        ),
        "rank": rank,
        **({"location": {"page": f.claim.page, "bbox": list(f.claim.bbox) if f.claim.bbox else None}} if f.claim.page is not None else {}),
        **({"llm": f.llm} if f.llm is not None else {}),
    }
    d["id"] = finding_id(d)
    d["suggestions"] = [dict(x) for x in f.suggestions]  # after the id: a suggestion is help, not part of what was found
    d["inconsistencies"] = [dict(x) for x in f.inconsistencies]
    return d


def _with_review(d: dict[str, Any], review: dict[str, dict]) -> dict[str, Any]:
    if d["id"] in review:
        r = review[d["id"]]
        d["review"] = {"decision": r.get("decision"), "note": r.get("note", ""), "at": r.get("at", ""), "stale": bool(r.get("stale"))}
    return d


def report_to_dict(report: Report) -> dict[str, Any]:
    """The whole report as plain JSON data (see module docstring): each cited work once under ``works``."""
    review = report.metadata.get("review") or {}
    works: dict[str, dict[str, Any]] = {}
    findings = []
    for i, f in enumerate(report.findings):
        d = _with_review(finding_to_dict(f, i + 1), review)  # the id is taken over the whole record, as in schema 1
        works.setdefault(d["citekey"], {"reference": d["reference"], "source": d["source"], "sources_considered": d["sources_considered"],
                                        "provenance": d["provenance"]})
        for k in WORK_FIELDS:
            d.pop(k)
        d["work"] = d["citekey"]
        findings.append(d)
    return {
        "$schema": REPORT_SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "document": report.document,
        "metadata": {k: v for k, v in report.metadata.items() if k != "review"},
        "summary": summarise(report.findings),
        "works": works,
        "findings": findings,
        "diagnostics": [dataclasses.asdict(d) for d in report.diagnostics],
        "uncited_claims": [dict(u) for u in report.uncited],
    }


class JsonWriter:
    """Writes :func:`report_to_dict` as indented UTF-8 JSON."""

    name = "json"
    suffix = ".json"

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream``."""
        json.dump(report_to_dict(report), stream, indent=2, ensure_ascii=False)
        stream.write("\n")
