"""HTML report: one self-contained file a reviewer opens in a browser.

The page is built from ``templates/report.html.j2`` with Jinja2 (autoescaped)
and carries its CSS and JavaScript inline: no CDN, no font, nothing fetched,
so it works offline and from a ``file://`` URL. Without JavaScript it is a
plain, complete reading list; with it, filters (verdict, tag, citekey,
source), a search box and ``j``/``k`` keyboard navigation appear.

Each finding shows the claim and its location beside the best passage (side by
side on wide screens), the words that matched highlighted in both as the words
stand (not their stems), the sentence the judge scored inside the passage, a
link opening the source at that page (``file.pdf#page=N``, relative to the
report's folder), a cropped image of that region of the PDF page
(:mod:`citeproof.reports.crops`), the next two candidate passages one click
away, the verdict, confidence, tier, tags with the spans that triggered them,
and the reasons.

Unverifiable citations are grouped per cited work and reason, collapsed, the
reason said once; table rows that hold no claim (``not_a_claim``) are one
collapsed group at the end. A CSV of the findings is a ``data:`` link (no
JavaScript needed) and a print stylesheet prints the findings without the
controls, groups opened.
"""

from __future__ import annotations

import base64
import csv
import io
import json

import os
import re
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from citeproof.model import Finding, Report, Verdict
from citeproof.triage import difference_named, summarise
from citeproof.reports.clip import clip_claim
from citeproof.reports.summary import no_source_box, verdict_rows
from citeproof.text.normalise import surface_words, terms

__all__ = ["HtmlWriter", "render_html", "highlight_segments", "relative_href", "sentence_span", "findings_csv", "CSV_COLUMNS", "script_hashes"]

_WORD = re.compile(r"\d+(?:[.,]\d+)*%?|[^\W\d_](?:[^\W_]|['’-](?=[^\W_]))*", re.U)

_VERDICT_LABEL = {
    Verdict.CONTRADICTED: "contradicted",
    Verdict.UNSUPPORTED: "unsupported",
    Verdict.PARTIAL: "partial",
    Verdict.ERROR: "error",
    Verdict.UNVERIFIABLE: "unverifiable",
    Verdict.SUPPORTED: "supported",
}


def highlight_segments(text: str, matched_terms: tuple[str, ...] | list[str]) -> list[tuple[str, bool]]:
    """Split ``text`` into ``(piece, matched)`` segments for highlighting.

    A word is marked when one of the terms :func:`citeproof.text.normalise.terms`
    gives for it (folded, stemmed, hyphen parts) is in ``matched_terms``, the
    same terms the lexical tier matched. Everything else, punctuation and
    spaces included, is kept as it stands, so joining the pieces gives back
    ``text`` exactly.

    Args:
        text: the passage text as shown.
        matched_terms: the evidence's ``matched_terms``.

    Returns:
        Consecutive segments covering ``text``; adjacent unmatched pieces are
        merged.
    """
    wanted = set(matched_terms)
    out: list[tuple[str, bool]] = []

    def push(piece: str, hit: bool) -> None:
        if not piece:
            return
        if out and out[-1][1] == hit and not hit:
            out[-1] = (out[-1][0] + piece, False)
        else:
            out.append((piece, hit))

    pos = 0
    if wanted:
        for m in _WORD.finditer(text):
            hit = any(t in wanted for t in terms(m.group(0)))
            if hit:
                push(text[pos : m.start()], False)
                push(m.group(0), True)
                pos = m.end()
    push(text[pos:], False)
    return out


def relative_href(path: str | None, out_dir: Path | str | None, page: int | None = None) -> str | None:
    """A URL for ``path`` relative to the report's folder, ``#page=N`` appended.

    Args:
        path: the source file as the report holds it (relative to the current
            folder, or absolute).
        out_dir: the folder the report is written to; None leaves ``path``
            relative to the current folder.
        page: PDF page from 1, or None.

    Returns:
        A percent-encoded relative URL (``../cited/a%20b.pdf#page=3``), or None
        when ``path`` is empty.
    """
    if not path:
        return None
    p = Path(path)
    if out_dir is not None:
        try:
            rel = os.path.relpath(os.path.abspath(p), os.path.abspath(out_dir))
        except ValueError:  # another drive on Windows
            rel = str(p.resolve())
    else:
        rel = str(p)
    href = quote(Path(rel).as_posix())
    if page:
        href += f"#page={page}"
    return href


def sentence_span(text: str, sentence: str) -> tuple[int, int] | None:
    """Where the judge's ``sentence`` stands in the passage ``text``: ``(start, end)`` characters, or None.

    Typesetting differences (case, whitespace, dashes, ligatures) do not count
    (:func:`citeproof.text.grounding.normalise`); a sentence the judge saw
    slightly differently (split hyphens) aligns at a score of 90 or more.
    """
    from citeproof.text.grounding import align, normalise

    if not sentence.strip() or not text:
        return None
    folded, idx = normalise(text)
    want = normalise(sentence)[0].strip()
    at = folded.find(want) if want else -1
    if at >= 0:
        return idx[at], idx[at + len(want) - 1] + 1
    a = align(sentence, text)
    return (a.start, a.end) if a.score >= 90 and a.end > a.start else None


def _display_path(path: str | None, root: Path | None) -> str:
    """``path`` relative to ``root`` (or, without one, to the current folder) when it lies under it, else as given."""
    if not path:
        return ""
    try:
        base = root if root is not None else Path.cwd()
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(base)).as_posix()
    except (ValueError, OSError):  # not under it; or the current folder was removed
        return str(path)


def _evidence_view(ev, out_dir: Path | None, root: Path | None, crops: dict[tuple, str] | None = None) -> dict[str, Any]:
    """What the template shows of one :class:`~citeproof.model.Evidence`."""
    p = ev.passage
    segs = highlight_segments(p.text, ev.matched_terms) if p.quotable else []
    span = sentence_span(p.text, ev.sentence) if p.quotable and ev.sentence else None
    before, judged, after = segs, [], []
    if span is not None:
        before = highlight_segments(p.text[: span[0]], ev.matched_terms)
        judged = highlight_segments(p.text[span[0]: span[1]], ev.matched_terms)
        after = highlight_segments(p.text[span[1]:], ev.matched_terms)
    crop = (crops or {}).get((ev.source.path, p.page, tuple(p.bbox))) if p.page and p.bbox else None
    return {
        "source": _display_path(ev.source.path, root),
        "href": relative_href(ev.source.path, out_dir, p.page),
        "page": p.page,
        # "page 3 (printed 103)", "pages 3–4": the word, then the rest after the sheet number
        "page_word": p.where().split(" ", 1)[0] if p.page else "",
        "where_rest": p.where().split(f" {p.page}", 1)[1] if p.page else "",
        "line": p.line,
        "at": p.where() if not p.page and p.time_start is not None else "",  # "at 12:34-12:51" in a recording's transcript
        "section": p.section,
        "quotable": p.quotable,
        "ocr": p.ocr,
        "segments": segs,
        "before": before,
        "judged": judged,
        "after": after,
        "matched_terms": list(ev.matched_terms),
        "matched_words": surface_words(p.text, ev.matched_terms) if p.quotable else [],
        "scores": {k: round(v, 3) for k, v in ev.scores.items()},
        "crop": crop,
    }


def _finding_view(f: Finding, rank: int, out_dir: Path | None, root: Path | None, review: dict[str, dict] | None = None,
                  crops: dict[tuple, str] | None = None) -> dict[str, Any]:
    review = review or {}
    c = f.citation
    ev = f.evidence
    evidence = _evidence_view(ev, out_dir, root, crops) if ev is not None else None
    src = f.source
    source_path = src.path if src is not None and src.path else (ev.source.path if ev is not None else None)
    ref = f.reference
    from citeproof.reports.review import finding_key

    fid = finding_key(f)
    return {
        "id": f"f{rank}",
        "fid": fid,
        "review": review.get(fid),
        "rank": rank,
        "verdict": f.verdict.value,
        "unknown": "unknown_citekey" in f.flags,
        "citekey": c.citekey,
        "document": _display_path(f.claim.document, root),
        "line": c.line or f.claim.line,
        "page": f.claim.page,  # citing PDFs: line is the page
        "column": c.column,
        "unit": f.claim.kind.value.replace("_", " "),
        "claim": clip_claim(f.claim.text or f.claim.raw),
        "claim_segments": highlight_segments(clip_claim(f.claim.text or f.claim.raw), ev.matched_terms if ev is not None else ()),
        "alternatives": [_evidence_view(a, out_dir, root) for a in f.alternatives[:2]],
        "not_a_claim": "not_a_claim" in f.flags,
        "named": difference_named(f),
        "claim_raw": clip_claim(f.claim.raw),
        "locator": c.locator.raw if c.locator else "",
        "signal": c.signal or "",
        "score": f.score,
        "confidence": f.confidence,
        "tier": f.tier.value,
        "evidence": evidence,
        "reasons": list(f.reasons),
        "tags": [
            {"name": t.name, "message": t.message, "confidence": t.confidence, "proven": t.proven,
             "evidence": [(e.claim_span, e.evidence_span) for e in t.evidence]}
            for t in f.tags
        ],
        "flags": list(f.flags),
        "source": _display_path(source_path, root),
        "source_error": src.error if src is not None else None,
        "passed_over": [(_display_path(c.path, root), c.reason) for c in src.considered if not c.chosen] if src is not None else [],
        "reference": {"title": ref.title, "authors": list(ref.authors), "year": ref.year} if ref is not None else None,
        "suggestions": [_suggestion_view(x, out_dir, root) for x in f.suggestions],
        "inconsistencies": list(f.inconsistencies),
    }


def _suggestion_view(sug: dict[str, Any], out_dir: Path | None, root: Path | None) -> dict[str, Any]:
    """A suggestion (issue 25) for the page: its fields, the shown path and a link to the page it names."""
    return {**sug, "source": _display_path(sug.get("path"), root), "href": relative_href(sug.get("path"), out_dir, sug.get("page"))}


def _environment():
    from jinja2 import Environment, PackageLoader, select_autoescape

    return Environment(
        loader=PackageLoader("citeproof.reports", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _report_stem(document: str) -> str:
    from citeproof.reports.naming import report_stem

    return report_stem(Path(document))


CSV_COLUMNS = ("rank", "verdict", "document", "line", "citekey", "claim", "source", "page", "evidence", "score", "confidence",
               "tier", "tags", "flags", "reasons", "review", "review_note")
"""Columns of the report's CSV export (one row per finding, worst first; lists joined with ``; ``)."""


def findings_csv(views: list[dict[str, Any]]) -> str:
    """The findings as CSV (:data:`CSV_COLUMNS`, RFC 4180 quoting, a header row), from :func:`_finding_view` dicts."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for v in views:
        e = v["evidence"] or {}
        r = v["review"] or {}
        w.writerow([v["rank"], v["verdict"], v["document"], v["line"], v["citekey"], v["claim"], v["source"], e.get("page") or "",
                    "".join(t for t, _ in e.get("segments", [])), f"{v['score']:.4f}", f"{v['confidence']:.4f}", v["tier"],
                    "; ".join(t["name"] for t in v["tags"]), "; ".join(v["flags"]), "; ".join(v["reasons"]),
                    r.get("decision", ""), r.get("note", "")])
    return buf.getvalue()


def _blocks(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The page's reading order: full cards, with unverifiable findings grouped per cited work and first reason
    (a group stands where its first finding ranks) and every ``not_a_claim`` row in one group, where the first ranks.

    Unknown citekeys stay cards: a broken reference is certain to need a fix.
    """
    blocks: list[dict[str, Any]] = []
    groups: dict[tuple, dict[str, Any]] = {}
    for v in views:
        if v["not_a_claim"]:
            key: tuple = ("not_a_claim",)
            label, reason = "Table rows that hold no claim", "a row of names and identifiers: the citation identifies what is named; there is no statement to check"
        elif v["verdict"] == "unverifiable" and not v["unknown"]:
            reason = v["reasons"][0] if v["reasons"] else "no reason given"
            key, label = ("unverifiable", v["citekey"], reason), v["citekey"]
        else:
            blocks.append({"kind": "card", "f": v})
            continue
        if key not in groups:
            groups[key] = {"kind": key[0], "id": f"g{len(groups) + 1}", "label": label, "reason": reason, "findings": []}
            blocks.append(groups[key])
        groups[key]["findings"].append(v)
    return blocks


def _fold_unverifiable(blocks: list[dict[str, Any]], box: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-work unverifiable groups folded into one ``fold`` block, where the first of them stood (the no-source box
    says once what they share)."""
    out: list[dict[str, Any]] = []
    fold: dict[str, Any] | None = None
    for b in blocks:
        if b["kind"] == "unverifiable":
            if fold is None:
                fold = {"kind": "fold", "id": "works-without-source", "groups": [], "box": box}
                out.append(fold)
            fold["groups"].append(b)
            fold["citations"] = fold.get("citations", 0) + len(b["findings"])
        else:
            out.append(b)
    return out


def render_html(report: Report, out_dir: Path | str | None = None, root: Path | str | None = None, crops: bool = True,
                review_url: str | None = None) -> str:
    """The report as one self-contained HTML page.

    Args:
        report: the report.
        out_dir: the folder the page will be written to; links to sources
            are made relative to it (None: relative to the current folder).
        root: paths shown on the page are made relative to this folder when
            they lie under it (the web page passes the job's upload folder);
            None: relative to the current folder when under it, else as the report holds them.
        crops: render cropped images of the evidence regions of PDF sources (:mod:`citeproof.reports.crops`).
        review_url: the server's URL for triage decisions (``GET`` the sidecar, ``POST`` one decision:
            :mod:`citeproof.web.review`); used only when the page is opened over HTTP(S).

    Returns:
        The HTML text.
    """
    out = Path(out_dir) if out_dir is not None else None
    base = Path(root) if root is not None else None
    s = summarise(report.findings)
    review = report.metadata.get("review") or {}
    uris: dict[tuple, str] = {}
    if crops:
        from citeproof.reports.crops import crop_data_uris

        uris = crop_data_uris([(f.evidence.source.path, f.evidence.passage.page, f.evidence.passage.bbox) for f in report.findings
                               if f.evidence is not None and f.evidence.source.path and f.evidence.source.media_type == "application/pdf"
                               and f.evidence.passage.page and f.evidence.passage.bbox and "not_a_claim" not in f.flags])
    findings = [_finding_view(f, i + 1, out, base, review, uris) for i, f in enumerate(report.findings)]
    readable = sum(1 for f in report.findings if f.source is not None and f.source.usable)
    tags = sorted({t["name"] for v in findings for t in v["tags"]})
    citekeys = sorted({v["citekey"] for v in findings})
    sources = sorted({v["source"] for v in findings if v["source"]})
    # the summary bar reads worst first, like the findings; each count says how many of it are rows holding no claim
    verdicts = [(v, v, n, nac) for v, n, nac in verdict_rows(s)]
    box = no_source_box(report, _display_path(report.document, base))
    blocks = _blocks(findings)
    if box:
        blocks = _fold_unverifiable(blocks, box)
    return _environment().get_template("report.html.j2").render(
        document=_display_path(report.document, base),
        summary=s,
        readable=readable,
        verdicts=verdicts,
        findings=findings,
        blocks=blocks,
        no_source=box,
        csv_href="data:text/csv;charset=utf-8;base64," + base64.b64encode(("\ufeff" + findings_csv(findings)).encode("utf-8")).decode("ascii"),
        csv_file=f"{_report_stem(report.document)}.citeproof.csv",
        tags=tags,
        citekeys=citekeys,
        sources=sources,
        diagnostics=report.diagnostics,
        uncited=[{**u, "candidate": _suggestion_view(u["candidate"], out, base) if u.get("candidate") else None} for u in report.uncited],
        metadata=report.metadata,
        review_file=f"{_report_stem(report.document)}.citeproof.review.json",
        review_url=review_url,
        review_json=json.dumps({v["fid"]: v["review"] for v in findings if v["review"]}, ensure_ascii=False).replace("<", "\\u003c"),
        config_json=json.dumps({"document": _display_path(report.document, base), "review_file": f"{_report_stem(report.document)}.citeproof.review.json",
                                "review_url": review_url}, ensure_ascii=False).replace("<", "\\u003c"),
    )


def script_hashes() -> list[str]:
    """CSP sources (``'sha256-<base64>'``) of the HTML report's inline scripts, for a server that serves reports
    without ``'unsafe-inline'`` (``citeproof serve``, issue 31).

    The report's executable ``<script>`` elements hold no template values (those come in the
    ``application/json`` blocks, which never run), so each has the same text, and hash, in every report.

    Raises:
        RuntimeError: a script of the template holds a template expression (its hash would vary).
    """
    import hashlib

    env = _environment()
    source = env.loader.get_source(env, "report.html.j2")[0]
    out = []
    for body in re.findall(r"<script>(.*?)</script>", source, re.S):
        if "{{" in body or "{%" in body:
            raise RuntimeError("an inline script of report.html.j2 holds a template expression: move the value into report-config")
        out.append("'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii") + "'")
    return out


class HtmlWriter:
    """Writes :func:`render_html`.

    Attributes:
        out_dir: the folder the report goes to, for relative source links;
            the CLI sets it. None: links relative to the current folder.
        root: folder that shown paths are made relative to (None: as given).
        review_url: where the page saves triage decisions when served over HTTP (the web page sets it); None:
            decisions stay in the browser (localStorage) and are exported as a file.
    """

    name = "html"
    suffix = ".html"

    def __init__(self, out_dir: Path | str | None = None, root: Path | str | None = None, review_url: str | None = None) -> None:
        self.out_dir = out_dir
        self.root = root
        self.review_url = review_url

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream`` as HTML."""
        stream.write(render_html(report, self.out_dir, self.root, review_url=self.review_url))
