"""arXiv API client (``/api/query?id_list=``), Atom 1.0 responses.

Response shape (info.arxiv.org/help/api/user-manual): ``<feed
xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/ID</id>
<title/><summary/><published/><author><name/></author>
<link title="pdf" href=".../pdf/ID" type="application/pdf"/><arxiv:doi/>
<arxiv:journal_ref/></entry></feed>``; an unknown id gives a feed with no
entry, or one entry whose ``<title>`` is ``Error``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from citeproof.sources.online.http import PoliteHTTP
from citeproof.sources.online.identifiers import arxiv_problem
from citeproof.sources.online.record import WorkRecord

__all__ = ["normalise_arxiv", "by_id"]

_NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
_ID = re.compile(r"(?:arxiv:\s*|arxiv\.org/(?:abs|pdf)/)?((?:[a-z\-]+(?:\.[a-z]{2})?/\d{7})|(?:\d{4}\.\d{4,5}))(v\d+)?(?:\.pdf)?$", re.I)


def normalise_arxiv(value: str) -> str:
    """An arXiv identifier as the API takes it, or '' when ``value`` is none.

    New-style ``2101.00001`` and old-style ``hep-th/9901001`` (also
    ``math.GT/0309136``), with ``arXiv:`` prefixes or abs/pdf URLs removed;
    a version suffix (``v2``) is kept, since it names the version cited.
    """
    m = _ID.search((value or "").strip())
    return (m.group(1) + (m.group(2) or "")) if m else ""


def by_id(http: PoliteHTTP, arxiv_id: str) -> tuple[WorkRecord | None, str | None]:
    """The arXiv record of ``arxiv_id``: ``(record, None)``, ``(None, None)`` if none, ``(None, reason)`` on failure."""
    ident = normalise_arxiv(arxiv_id) if not arxiv_problem(arxiv_id) else ""
    if not ident:
        return None, f"arXiv: {arxiv_id!r} is not an arXiv identifier"
    f = http.get(f"{http.base('arxiv')}/api/query", {"id_list": ident, "max_results": "1"}, service="arxiv", accept="application/atom+xml")
    if not f.ok:
        return None, f"arXiv: {f.error}"
    try:
        root = ET.fromstring(f.body)
    except ET.ParseError as exc:
        return None, f"arXiv: malformed Atom XML ({exc})"
    entry = root.find("a:entry", _NS)
    if entry is None:
        return None, None
    title = " ".join((entry.findtext("a:title", "", _NS) or "").split())
    eid = entry.findtext("a:id", "", _NS) or ""
    if title.lower() == "error" or "api/errors" in eid:
        return None, None
    pdf = next((ln.get("href", "") for ln in entry.findall("a:link", _NS) if ln.get("title") == "pdf" or ln.get("type") == "application/pdf"), "")
    return WorkRecord(
        service="arxiv", title=title, authors=[" ".join((a.findtext("a:name", "", _NS) or "").split()) for a in entry.findall("a:author", _NS)],
        year=(entry.findtext("a:published", "", _NS) or "")[:4], venue=" ".join((entry.findtext("arxiv:journal_ref", "", _NS) or "").split()),
        doi=(entry.findtext("arxiv:doi", "", _NS) or "").strip().lower(), arxiv=normalise_arxiv(eid) or ident,
        abstract=" ".join((entry.findtext("a:summary", "", _NS) or "").split()), pdf_urls=[(pdf, "arXiv PDF")] if pdf else [],
        is_oa=True, oa_status="green", url=eid,
    ), None
