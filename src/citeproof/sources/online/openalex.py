"""OpenAlex works API client (``/works/doi:{doi}``, ``/works?search=``).

Response shape (docs.openalex.org, Work object): ``{"id", "doi":
"https://doi.org/..", "title", "display_name", "publication_year",
"authorships": [{"author": {"display_name"}}], "primary_location":
{"source": {"display_name"}}, "best_oa_location": {"pdf_url",
"landing_page_url", "is_oa"}, "open_access": {"is_oa", "oa_status",
"oa_url"}, "abstract_inverted_index": {word: [positions]}, "is_retracted",
"ids": {"pmid", "pmcid", "doi"}, "type"}``; a search gives ``{"meta",
"results": [...]}``.
"""

from __future__ import annotations

import re

from citeproof.bibliography import normalise_doi
from citeproof.sources.online.http import PoliteHTTP
from citeproof.sources.online.identifiers import doi_problem, segment
from citeproof.sources.online.record import WorkRecord

__all__ = ["work_by_doi", "search", "abstract_from_index"]


def _params(http: PoliteHTTP, extra: dict[str, str] | None = None) -> dict[str, str]:
    p = dict(extra or {})
    if http.settings.email:
        p["mailto"] = http.settings.email
    return p


def abstract_from_index(index: dict | None) -> str:
    """The abstract's text from OpenAlex's ``abstract_inverted_index`` (word -> positions)."""
    if not isinstance(index, dict) or not index:
        return ""
    slots: dict[int, str] = {}
    for word, positions in index.items():
        for p in positions or []:
            if isinstance(p, int):
                slots[p] = word
    return " ".join(slots[i] for i in sorted(slots))


def _tail(url: str | None, pattern: str) -> str:
    m = re.search(pattern, url or "", re.I)
    return m.group(1) if m else ""


def to_record(w: dict) -> WorkRecord:
    """A :class:`WorkRecord` from one OpenAlex Work object."""
    ids = w.get("ids") or {}
    best = w.get("best_oa_location") or {}
    oa = w.get("open_access") or {}
    pdfs = []
    if best.get("pdf_url"):
        pdfs.append((best["pdf_url"], "OpenAlex best_oa_location"))
    for loc in w.get("locations") or []:
        if isinstance(loc, dict) and loc.get("pdf_url") and loc.get("is_oa") and (loc["pdf_url"], "OpenAlex best_oa_location") not in pdfs:
            pdfs.append((loc["pdf_url"], "OpenAlex location"))
    src = ((w.get("primary_location") or {}).get("source") or {})
    year = w.get("publication_year")
    return WorkRecord(
        service="openalex", title=w.get("title") or w.get("display_name") or "",
        authors=[(a.get("author") or {}).get("display_name", "") for a in w.get("authorships") or [] if isinstance(a, dict)],
        year=str(year) if year else "", venue=src.get("display_name") or "", doi=normalise_doi(w.get("doi") or ""),
        pmid=_tail(ids.get("pmid"), r"(\d+)/?$"), pmcid=_tail(ids.get("pmcid"), r"(PMC\d+)"),
        abstract=abstract_from_index(w.get("abstract_inverted_index")), pdf_urls=pdfs,
        is_oa=oa.get("is_oa"), oa_status=oa.get("oa_status") or "", retracted=bool(w.get("is_retracted")),
        work_type=w.get("type") or "", url=w.get("id") or "",
    )


def work_by_doi(http: PoliteHTTP, doi: str) -> tuple[WorkRecord | None, str | None]:
    """The OpenAlex work with ``doi``: ``(record, None)``, ``(None, None)`` if unknown, ``(None, reason)`` on failure."""
    why = doi_problem(doi)
    if why:
        return None, f"OpenAlex: {doi[:80]!r} is {why}; not looked up"
    f = http.get(f"{http.base('openalex')}/works/doi:{segment(doi)}", _params(http), service="openalex", accept="application/json")
    if f.status == 404:
        return None, None
    if not f.ok:
        return None, f"OpenAlex: {f.error}"
    data = f.json()
    if not isinstance(data, dict) or not (data.get("id") or data.get("title")):
        return None, f"OpenAlex: {f.error or 'unexpected response (no work)'}"
    return to_record(data), None


def search(http: PoliteHTTP, title: str, year: str = "", rows: int = 5) -> tuple[list[WorkRecord], str | None]:
    """OpenAlex full-text search on the title (``search=``), best first."""
    params = {"search": re.sub(r"[,:|]", " ", title), "per-page": str(rows)}
    f = http.get(f"{http.base('openalex')}/works", _params(http, params), service="openalex", accept="application/json")
    if not f.ok:
        return [], f"OpenAlex: {f.error}"
    data = f.json()
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        return [], f"OpenAlex: {f.error or 'unexpected search response (no results)'}"
    return [to_record(w) for w in results if isinstance(w, dict)], None
