"""Unpaywall client (``/v2/{doi}?email=``).

Response shape (unpaywall.org/data-format): ``{"doi", "is_oa", "oa_status",
"best_oa_location": {"url_for_pdf", "url", "host_type", "license"},
"oa_locations": [...], "title", "year"}``. Unpaywall requires an e-mail; without
``--email`` it is skipped and the report says so.
"""

from __future__ import annotations

from citeproof.sources.online.http import PoliteHTTP
from citeproof.sources.online.identifiers import doi_problem, segment

__all__ = ["oa_pdfs"]


def oa_pdfs(http: PoliteHTTP, doi: str) -> tuple[list[tuple[str, str]], str, str | None]:
    """Open-access PDF URLs Unpaywall knows for ``doi``.

    Returns:
        ``([(url, via)], oa_status, reason or None)``: best location first;
        reason says why the lookup was skipped or failed.
    """
    if not http.settings.email:
        return [], "", "Unpaywall: skipped (it needs a contact e-mail: --email)"
    why = doi_problem(doi)
    if why:
        return [], "", f"Unpaywall: {doi[:80]!r} is {why}; not looked up"
    f = http.get(f"{http.base('unpaywall')}/v2/{segment(doi)}", {"email": http.settings.email}, service="unpaywall", accept="application/json")
    if f.status == 404:
        return [], "", None
    if not f.ok:
        return [], "", f"Unpaywall: {f.error}"
    data = f.json()
    if not isinstance(data, dict):
        return [], "", f"Unpaywall: {f.error or 'unexpected response'}"
    out: list[tuple[str, str]] = []
    for loc in [data.get("best_oa_location")] + list(data.get("oa_locations") or []):
        if isinstance(loc, dict) and loc.get("url_for_pdf") and all(loc["url_for_pdf"] != u for u, _ in out):
            out.append((loc["url_for_pdf"], f"Unpaywall ({loc.get('host_type') or 'unknown host'})"))
    return out, str(data.get("oa_status") or ""), None
