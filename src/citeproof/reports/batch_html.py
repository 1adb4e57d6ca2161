"""The aggregate page of a batch (``<out>/index.html``): one self-contained HTML file, no script, no CDN.

It reads the batch records and each document's JSON report and shows, in reading order: the totals, the
worst citations across the corpus (contradicted, then unsupported, partial, error; the more confident first),
the most-cited works still without a readable source, and the per-document counts with links to each report.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape

from citeproof.reports.diff import inline_works

__all__ = ["write_index", "corpus_view"]

WORST_SHOWN = 50
MISSING_SHOWN = 30
_ORDER = {"contradicted": 0, "unsupported": 1, "partial": 2, "error": 3}

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>citeproof batch: {{ v.documents|length }} document{{ '' if v.documents|length == 1 else 's' }}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f}
table{border-collapse:collapse;width:100%;margin:.5rem 0 2rem}th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}.err{color:#a00}
.v-contradicted,.v-unsupported{color:#a00;font-weight:600}.v-partial{color:#8a5a00;font-weight:600}.v-error{color:#808}
blockquote{margin:.2rem 0;color:#333}
</style></head><body>
<h1>citeproof batch</h1>
<p>{{ v.documents|length }} document{{ '' if v.documents|length == 1 else 's' }} ({{ v.failed }} failed, {{ v.resumed }} unchanged since the last run), {{ v.totals.citations }} citation{{ '' if v.totals.citations == 1 else 's' }}:
{% for name, n in v.totals.verdicts.items() %}{{ name }} {{ n }}{% if not loop.last %}, {% endif %}{% endfor %}.</p>
<h2 id="worst">Worst citations across the corpus</h2>
{% if v.worst %}<table><thead><tr><th>verdict</th><th>where</th><th>citekey</th><th>claim</th><th>score</th></tr></thead><tbody>
{% for f in v.worst %}<tr><td class="v-{{ f.verdict }}">{{ f.verdict }}</td><td><a href="{{ f.report_md or f.report }}">{{ f.document }}:{{ f.line }}</a></td>
<td>{{ f.citekey }}</td><td><blockquote>{{ f.claim }}</blockquote>{% if f.page %}<small>best passage: page {{ f.page }}</small>{% endif %}</td><td class="n">{{ "%.2f"|format(f.score) }}</td></tr>
{% endfor %}</tbody></table>{% else %}<p>No citation was judged contradicted, unsupported or partial.</p>{% endif %}
<h2 id="missing">Most-cited works without a readable source</h2>
{% if v.missing %}<table><thead><tr><th>citekey</th><th>title</th><th class="n">citations</th><th class="n">documents</th><th>why</th></tr></thead><tbody>
{% for m in v.missing %}<tr><td>{{ m.citekey }}</td><td>{{ m.title }}</td><td class="n">{{ m.citations }}</td><td class="n">{{ m.documents }}</td><td>{{ m.reason }}</td></tr>
{% endfor %}</tbody></table>{% else %}<p>Every cited work had a readable source.</p>{% endif %}
<h2 id="documents">Documents</h2>
<table><thead><tr><th>document</th><th class="n">citations</th>{% for name in v.verdict_names %}<th class="n">{{ name }}</th>{% endfor %}<th>report</th></tr></thead><tbody>
{% for d in v.documents %}<tr><td>{{ d.document }}</td>
{% if d.error %}<td colspan="{{ v.verdict_names|length + 2 }}" class="err">failed: {{ d.error }}</td>
{% else %}<td class="n">{{ d.summary.citations }}</td>{% for name in v.verdict_names %}<td class="n">{{ d.summary.verdicts[name] }}</td>{% endfor %}
<td><a href="{{ d.report }}">JSON</a>{% if d.report_md %} · <a href="{{ d.report_md }}">Markdown</a>{% endif %}{% if d.report_html %} · <a href="{{ d.report_html }}">HTML</a>{% endif %}</td>{% endif %}</tr>
{% endfor %}</tbody></table>
</body></html>
"""


def _sibling(out_dir: Path, report: str, suffix: str) -> str | None:
    alt = report[: -len(".json")] + suffix
    return alt if (out_dir / alt).is_file() else None


def corpus_view(records: list[dict[str, Any]], out_dir: Path) -> dict[str, Any]:
    """What the page shows, as plain data (also handy for tests).

    Returns:
        ``{"documents": [record + report_md/report_html], "failed", "resumed", "totals": {"citations",
        "verdicts"}, "verdict_names", "worst": [finding view], "missing": [{"citekey", "title", "citations",
        "documents", "reason"}]}``; ``worst`` holds at most 50 rows, ``missing`` at most 30.
    """
    out_dir = Path(out_dir)
    names = ["contradicted", "unsupported", "partial", "error", "unverifiable", "supported"]
    totals: Counter[str] = Counter()
    worst: list[dict[str, Any]] = []
    missing_cites: Counter[str] = Counter()
    missing_docs: dict[str, set[str]] = defaultdict(set)
    missing_info: dict[str, tuple[str, str]] = {}
    docs = []
    for r in records:
        d = dict(r)
        if r.get("report"):
            d["report_md"] = _sibling(out_dir, r["report"], ".md")
            d["report_html"] = _sibling(out_dir, r["report"], ".html")
        docs.append(d)
        if r.get("error") or not r.get("report"):
            continue
        for k, n in (r.get("summary") or {}).get("verdicts", {}).items():
            totals[k] += n
        try:
            report = inline_works(json.loads((out_dir / r["report"]).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            d["error"] = f"its report {r['report']} cannot be read"
            continue
        for f in report.get("findings", []):
            v = f.get("verdict")
            if v in _ORDER:
                ev = f.get("evidence") or {}
                worst.append({"verdict": v, "document": f.get("document"), "line": f.get("line"), "citekey": f.get("citekey"),
                              "claim": (f.get("claim") or "")[:400], "score": f.get("score") or 0.0, "confidence": f.get("confidence") or 0.0,
                              "page": ev.get("page"), "report": r["report"], "report_md": d.get("report_md")})
            elif v == "unverifiable":
                key = f.get("citekey") or ""
                missing_cites[key] += 1
                missing_docs[key].add(str(r["document"]))
                if key not in missing_info:
                    ref = f.get("reference") or {}
                    missing_info[key] = (ref.get("title") or "", (f.get("reasons") or [""])[0])
    worst.sort(key=lambda f: (_ORDER[f["verdict"]], -f["confidence"]))
    missing = [{"citekey": k, "title": missing_info[k][0], "citations": n, "documents": len(missing_docs[k]), "reason": missing_info[k][1]}
               for k, n in sorted(missing_cites.items(), key=lambda kv: (-len(missing_docs[kv[0]]), -kv[1], kv[0]))]
    return {"documents": docs, "failed": sum(1 for d in docs if d.get("error")), "resumed": sum(1 for d in docs if d.get("resumed")),
            "totals": {"citations": sum(totals.values()), "verdicts": {k: totals[k] for k in names}}, "verdict_names": names,
            "worst": worst[:WORST_SHOWN], "missing": missing[:MISSING_SHOWN]}


def write_index(records: list[dict[str, Any]], out_dir: Path) -> Path:
    """Write ``out_dir/index.html`` for ``records`` (see :func:`corpus_view`); returns its path."""
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    html = env.from_string(_TEMPLATE).render(v=corpus_view(records, out_dir))
    path = Path(out_dir) / "index.html"
    path.write_text(html, encoding="utf-8")
    return path
