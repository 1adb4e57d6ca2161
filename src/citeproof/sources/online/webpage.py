"""Web pages as sources, fetched under ``--online`` (issue 19, part 2).

A reference whose work no scholarly service holds (a blog post, a report's
web page, documentation) or holds without any open text often names only a
URL: the ``url`` field, or a web address in its ``file`` field (Zotero's
"Snapshot" link). When neither the local files nor the full-text ladder
(:func:`~citeproof.sources.online.resolve.fetch_fulltext`) gave a usable
source, that page is fetched once, through the polite HTTP layer
(:class:`~citeproof.sources.online.http.PoliteHTTP`: the ``download`` rate
per host, the size cap, the cache; no document text is sent, only a GET of
the reference's own URL), saved under the cache folder by its SHA-256 and
read like a saved page in ``--sources``: an HTML page's main text by
trafilatura, a PDF as a PDF, plain text as text.

DOI links (``doi.org``) are not fetched here: a DOI is resolved by the
services, and the publisher page it redirects to is a landing page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from citeproof.model import Reference, Source
from citeproof.sources.attachments import attachments_of

if TYPE_CHECKING:  # pragma: no cover
    from citeproof.sources.online.http import PoliteHTTP
    from citeproof.sources.online.resolve import Lookup

__all__ = ["page_url", "fetch_page", "WEB_PAGE"]

WEB_PAGE = "web page"
"""The ``Lookup.fulltext`` value of a source read from the reference's own URL."""

_DOI_HOST = re.compile(r"^https?://(?:dx\.)?doi\.org/", re.I)
_SUFFIX = {"text/html": ".html", "application/xhtml+xml": ".html", "application/pdf": ".pdf", "text/plain": ".txt", "text/markdown": ".md"}


def page_url(ref: Reference) -> str:
    """The web address the reference names for its work: ``url``, else the first web address in ``file``; '' if none
    (or only a DOI link)."""
    for url in [ref.url] + [a.path for a in attachments_of(ref) if a.is_url]:
        url = (url or "").strip()
        if re.match(r"^https?://", url, re.I) and not _DOI_HOST.match(url):
            return url
    return ""


def fetch_page(http: "PoliteHTTP", ref: Reference, lk: "Lookup", cache) -> Source | None:
    """Fetch the reference's web page and read it as a source (module docstring).

    Args:
        http: the polite HTTP layer.
        ref: the bibliography entry (:func:`page_url` names the page).
        lk: its lookup; the outcome goes on ``lk.ladder``, and a page read
            sets ``fulltext`` to :data:`WEB_PAGE` and ``fulltext_url``.
        cache: the parsed-source cache.

    Returns:
        A usable :class:`Source` (``origin`` ``online: web page <url>``), or
        None when there is no page, it could not be fetched, or it holds no
        main text (each said on ``lk.ladder``).
    """
    from citeproof.sources import load_source

    url = page_url(ref)
    if not url:
        return None
    f = http.get(url, service="download", accept="text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8")
    if not f.ok:
        lk.ladder.append(f"web page: {f.error or f'HTTP {f.status}'}")
        return None
    kind = "application/pdf" if f.body.startswith(b"%PDF") else f.content_type
    suffix = _SUFFIX.get(kind)
    if suffix is None:
        lk.ladder.append(f"web page: {url} gave '{kind or 'unknown'}' content, not a page citeproof reads")
        return None
    src = load_source(ref.citekey, http.blob_path(f.body, suffix), f"online: web page {url}", cache)
    if not src.usable:
        lk.ladder.append(f"web page: {url}: {src.error or 'no text'}")
        return None
    lk.ladder.append(f"web page: {url}: read, {len(src.passages)} passages")
    lk.fulltext, lk.fulltext_url = WEB_PAGE, url
    return src
