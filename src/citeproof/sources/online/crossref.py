"""Crossref REST API client (``/works/{doi}``, ``/works?query.bibliographic=``).

Response shape (api.crossref.org/swagger-ui): ``{"status": "ok",
"message-type": "work", "message": {"DOI", "title": [..], "author":
[{"given", "family"}], "issued": {"date-parts": [[y, m, d]]},
"container-title": [..], "abstract": "<jats:p>..", "type", "link": [{"URL",
"content-type"}], "updated-by": [{"type": "retraction", "DOI", "source":
"retraction-watch"|"publisher", "updated": {"date-parts"}}]}}``; a search
gives ``message.items``. Retraction Watch's records are served in
``updated-by`` since Crossref acquired the database (2023).
"""

from __future__ import annotations

import re
from citeproof.sources.online.http import PoliteHTTP
from citeproof.sources.online.identifiers import doi_problem, segment
from citeproof.sources.online.record import Update, WorkRecord

__all__ = ["work_by_doi", "search"]


def _params(http: PoliteHTTP, extra: dict[str, str] | None = None) -> dict[str, str]:
    p = dict(extra or {})
    if http.settings.email:
        p["mailto"] = http.settings.email
    return p


def _date(parts: dict | None) -> str:
    try:
        dp = (parts or {}).get("date-parts") or [[]]
        return "-".join(f"{int(x):02d}" if i else str(int(x)) for i, x in enumerate(dp[0] if dp[0] and dp[0][0] is not None else []))
    except (TypeError, ValueError):
        return ""


def strip_jats(text: str) -> str:
    """Plain text of a JATS-tagged abstract (``<jats:p>...``)."""
    text = re.sub(r"<jats:title>[^<]*</jats:title>", " ", text or "")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip()


def to_record(m: dict) -> WorkRecord:
    """A :class:`WorkRecord` from one Crossref ``message`` (or search item)."""
    authors = []
    for a in m.get("author") or []:
        name = " ".join(x for x in (a.get("given", ""), a.get("family", "")) if x) or a.get("name", "")
        if name:
            authors.append(name if not a.get("family") else f"{a['family']}, {a.get('given', '')}".strip(", "))
    issued = _date(m.get("issued") or m.get("published-print") or m.get("published-online"))
    pdfs = [(ln["URL"], "Crossref link") for ln in m.get("link") or [] if ln.get("content-type") == "application/pdf" and ln.get("URL")]
    updates = []
    for u in m.get("updated-by") or []:
        kind = str(u.get("type", "")).replace("-", "_").lower()
        if kind:
            updates.append(Update(kind=kind, doi=str(u.get("DOI", "")).lower(), source=str(u.get("source", "")), date=_date(u.get("updated"))))
    titles = m.get("title") or [""]
    venues = m.get("container-title") or [""]
    return WorkRecord(
        service="crossref", title=titles[0] if titles else "", authors=authors, year=issued[:4], venue=venues[0] if venues else "",
        doi=str(m.get("DOI", "")).lower(), abstract=strip_jats(m.get("abstract", "")), pdf_urls=pdfs, updates=updates,
        retracted=any(u.kind in ("retraction", "withdrawal", "removal") for u in updates), work_type=m.get("type", ""), url=m.get("URL", ""),
    )


def work_by_doi(http: PoliteHTTP, doi: str) -> tuple[WorkRecord | None, str | None]:
    """The Crossref record of ``doi``.

    Returns:
        ``(record, None)``; ``(None, None)`` when Crossref has no such DOI
        (404); ``(None, reason)`` when the lookup failed.
    """
    why = doi_problem(doi)
    if why:
        return None, f"Crossref: {doi[:80]!r} is {why}; not looked up"
    f = http.get(f"{http.base('crossref')}/works/{segment(doi)}", _params(http), service="crossref", accept="application/json")
    if f.status == 404:
        return None, None
    if not f.ok:
        return None, f"Crossref: {f.error}"
    data = f.json()
    if not isinstance(data, dict) or not isinstance(data.get("message"), dict):
        return None, f"Crossref: {f.error or 'unexpected response (no message)'}"
    return to_record(data["message"]), None


def search(http: PoliteHTTP, title: str, author: str = "", year: str = "", rows: int = 5) -> tuple[list[WorkRecord], str | None]:
    """Crossref bibliographic search on title, first author's family name and year.

    Returns:
        ``(records best first by Crossref's relevance, reason or None)``.
    """
    query = " ".join(x for x in (title, author, year) if x)
    f = http.get(f"{http.base('crossref')}/works", _params(http, {"query.bibliographic": query, "rows": str(rows)}), service="crossref", accept="application/json")
    if not f.ok:
        return [], f"Crossref: {f.error}"
    data = f.json()
    items = (data or {}).get("message", {}).get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return [], f"Crossref: {f.error or 'unexpected search response (no message.items)'}"
    return [to_record(m) for m in items if isinstance(m, dict)], None
