"""Europe PMC REST client: search by PMID/PMCID/DOI, and full text as JATS XML.

Search response shape (europepmc.org/RestfulWebService, ``/search?query=&format=json&resultType=core``):
``{"hitCount", "resultList": {"result": [{"id", "source": "MED", "pmid",
"pmcid", "doi", "title", "authorString", "authorList": {"author":
[{"fullName", "lastName"}]}, "pubYear", "journalInfo": {"journal":
{"title"}}, "abstractText", "isOpenAccess": "Y"|"N", "inEPMC": "Y"|"N"}]}}``.
Full text: ``/{PMCID}/fullTextXML`` gives the JATS ``<article>`` (read by
:mod:`citeproof.sources.jats`, the one JATS reader).
"""

from __future__ import annotations

import re

from citeproof.sources.online.crossref import strip_jats
from citeproof.sources.online.http import Fetched, PoliteHTTP
from citeproof.sources.online.record import WorkRecord

__all__ = ["search", "fulltext_xml"]


def _to_record(r: dict) -> WorkRecord:
    authors = [a.get("fullName") or a.get("lastName") or "" for a in ((r.get("authorList") or {}).get("author") or []) if isinstance(a, dict)]
    if not authors and r.get("authorString"):
        authors = [a.strip() for a in str(r["authorString"]).rstrip(".").split(",") if a.strip()]
    journal = (((r.get("journalInfo") or {}).get("journal") or {}).get("title")) or r.get("journalTitle") or ""
    return WorkRecord(
        service="europepmc", title=str(r.get("title") or "").rstrip("."), authors=authors, year=str(r.get("pubYear") or ""), venue=journal,
        doi=str(r.get("doi") or "").lower(), pmid=str(r.get("pmid") or ""), pmcid=str(r.get("pmcid") or ""),
        abstract=strip_jats(str(r.get("abstractText") or "")), is_oa=(r.get("isOpenAccess") == "Y") if r.get("isOpenAccess") else None,
        url=f"https://europepmc.org/article/{r.get('source', 'MED')}/{r.get('id', '')}",
    )


def search(http: PoliteHTTP, *, pmid: str = "", pmcid: str = "", doi: str = "") -> tuple[WorkRecord | None, str | None]:
    """The Europe PMC record for one identifier (PMID, PMCID or DOI; the first given).

    Returns:
        ``(record, None)``, ``(None, None)`` when nothing matches, ``(None, reason)`` on failure.
    """
    if pmid:
        query = f"EXT_ID:{re.sub(r'[^0-9]', '', pmid)} AND SRC:MED"
    elif pmcid:
        query = f"PMCID:PMC{re.sub(r'[^0-9]', '', pmcid)}"
    elif doi:
        query = f'DOI:"{doi}"'
    else:
        return None, "Europe PMC: no identifier to look up"
    f = http.get(f"{http.base('europepmc')}/search", {"query": query, "format": "json", "resultType": "core", "pageSize": "1"}, service="europepmc", accept="application/json")
    if not f.ok:
        return None, f"Europe PMC: {f.error}"
    data = f.json()
    results = ((data or {}).get("resultList") or {}).get("result") if isinstance(data, dict) else None
    if not isinstance(results, list):
        return None, f"Europe PMC: {f.error or 'unexpected search response (no resultList)'}"
    return (_to_record(results[0]), None) if results and isinstance(results[0], dict) else (None, None)


def fulltext_xml(http: PoliteHTTP, pmcid: str) -> Fetched:
    """The JATS XML full text of ``pmcid`` (a :class:`Fetched`; 404 when Europe PMC holds none)."""
    ident = "PMC" + re.sub(r"[^0-9]", "", pmcid)
    return http.get(f"{http.base('europepmc')}/{ident}/fullTextXML", service="europepmc", accept="application/xml")
