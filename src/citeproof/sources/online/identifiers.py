"""Identifiers stay identifiers (issue 31, part 2): checked before any request, sent as one path segment.

A DOI, arXiv id, PMID or PMCID comes from an untrusted bibliography or a
service's answer. Each client checks its identifier here first; a malformed
one is never sent (the lookup reports it as a ``bad_identifier`` finding),
and a well-formed DOI is sent percent-encoded as a single path segment
(``/`` as ``%2F``), so no identifier can move the request's path
(``10.1/../../admin`` is refused, ``10.1234/a/../b`` would be one segment).

Forms accepted (sources: the DOI Handbook, section 2.2, a ``10.`` directory
indicator, a registrant code of digits with optional ``.`` subdivisions, ``/``
and a suffix of printable characters; Crossref's advice that modern DOIs
match ``10.\\d{4,9}/[-._;()/:A-Z0-9]+``, so 4-9 digits are required here;
arXiv's identifier scheme, ``YYMM.NNNN[N]`` since 2007 and
``archive[.SC]/YYMMNNN`` before; PubMed's PMIDs are 1-8 digit integers
today, 9 allowed; PMCIDs are ``PMC`` and digits).
"""

from __future__ import annotations

import re
from urllib.parse import quote

__all__ = ["doi_problem", "arxiv_problem", "pmid_problem", "pmcid_problem", "segment", "MAX_DOI_CHARS"]

MAX_DOI_CHARS = 300
"""Longest DOI looked up (characters); Crossref's longest registered DOIs are about 200."""

_DOI = re.compile(r"10\.\d{4,9}(?:\.\d+)*/\S+")
_ARXIV = re.compile(
    r"(?:arxiv:\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)?"
    r"(?:[a-z\-]+(?:\.[a-z]{2})?/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?(?:\s*\[[\w.\-]+\])?", re.I)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\s]")


def doi_problem(doi: str) -> str | None:
    """Why ``doi`` (normalised: no resolver prefix) is not a DOI citeproof looks up, or None.

    Returns:
        A short reason (``'not a DOI (10.<registrant>/<suffix>)'``, ``'a DOI
        with a dot segment (/../)'``, ...), or None for a well-formed DOI.
    """
    if len(doi) > MAX_DOI_CHARS:
        return f"a DOI longer than {MAX_DOI_CHARS} characters"
    if _CONTROL.search(doi):
        return "a DOI holding spaces or control characters"
    if not _DOI.fullmatch(doi):
        return "not a DOI (10.<registrant code of 4-9 digits>/<suffix>)"
    if any(part in (".", "..") for part in doi.split("/")[1:]):
        return "a DOI with a dot segment (/./ or /../)"
    if re.search(r"%(?:2e|2f|5c)|\\", doi, re.I):  # a server that decodes twice would read a dot segment or a slash
        return "a DOI holding a backslash or a percent-encoded dot or slash"
    return None


def arxiv_problem(value: str) -> str | None:
    """Why ``value`` is not an arXiv identifier (``2101.00001v2``, ``hep-th/9901001``, ``arXiv:...``, an abs/pdf URL), or None."""
    if not _ARXIV.fullmatch((value or "").strip()):
        return "not an arXiv identifier (YYMM.NNNNN or archive/YYMMNNN)"
    return None


def pmid_problem(value: str) -> str | None:
    """Why ``value`` is not a PMID (digits, an optional ``PMID:`` prefix), or None."""
    if not re.fullmatch(r"(?:pmid:\s*)?\d{1,9}", (value or "").strip(), re.I):
        return "not a PMID (1-9 digits)"
    return None


def pmcid_problem(value: str) -> str | None:
    """Why ``value`` is not a PMCID (``PMC`` and digits, or digits), or None."""
    if not re.fullmatch(r"(?:pmc)?\d{1,9}", (value or "").strip(), re.I):
        return "not a PMCID (PMC and 1-9 digits)"
    return None


def segment(value: str) -> str:
    """``value`` percent-encoded as one URL path segment (every reserved character, ``/`` included)."""
    return quote(value, safe="")
