"""Sources online (issue 12): find each cited work, its open full text, whether it
exists as cited, and whether it was retracted. Opt-in (``--online``); without it
nothing in this package is imported and citeproof opens no network connection.

One small client per service (:mod:`.crossref`, :mod:`.openalex`,
:mod:`.unpaywall`, :mod:`.arxiv`, :mod:`.europepmc` with :mod:`citeproof.sources.jats`) over
one polite HTTP layer and its cache (:mod:`.http`); :mod:`.resolve` resolves a
reference and climbs the full-text ladder; :class:`OnlineSession` is what the
pipeline and the CLI call. Only identifiers and reference metadata (title,
first author's family name, year) are sent; never claim text or document content.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from citeproof.model import Diagnostic, Finding, Reference, Source, Tag, Verdict
from citeproof.sources.online.http import OnlineSettings, PoliteHTTP
from citeproof.sources.online.resolve import Lookup, fetch_fulltext, lookup
from citeproof.sources.online.webpage import WEB_PAGE, fetch_page, page_url

__all__ = ["OnlineSettings", "OnlineSession", "Lookup", "ABSTRACT_ONLY_REASON"]

ABSTRACT_ONLY_REASON = "not in the abstract; full text not available"
"""Why an *unsupported* verdict from an abstract alone is reported as *unverifiable*."""

_CORRECTION_KINDS = {"correction", "erratum", "corrigendum", "expression_of_concern", "addendum", "clarification", "partial_retraction"}


def _short_state(state: str) -> str:
    """A to-fetch state in a few words: URLs dropped, one cause per state (at most 80 characters)."""
    if "--offline forbids the request" in state:
        return "not in the cache and --offline sends no request"
    host = re.search(r"cannot resolve '([^']+)'", state)
    if host:  # every request fails alike without a network: say so once, not as a cut exception text
        return f"no network: cannot resolve {host.group(1)}"
    short = re.sub(r"(?:[A-Za-z ]+: )?https?://\S+?: ", "", state).split("; ")[0].strip()
    failed = re.match(r"request failed \((\w+)", short)
    if failed:
        return f"the request failed ({failed.group(1)})"
    if len(short) <= 80:
        return short
    cut = short[:80].rsplit(" ", 1)[0].rstrip(" ,;:([{")  # at a word, never inside an open bracket
    return cut + (")" * (cut.count("(") - cut.count(")"))) + " …"

class OnlineSession:
    """Online lookups for one run.

    Args:
        settings: :class:`OnlineSettings` (e-mail, offline mode, limits).
        cache_folder: the cache folder (None: a temporary one, ``--no-cache``).
        parse_cache: the parsed-source :class:`~citeproof.sources.cache.Cache`
            downloaded PDFs are parsed through.

    Attributes:
        lookups: citekey -> :class:`Lookup`, filled by :meth:`complete`.
        http: the :class:`PoliteHTTP` layer (``requests_made``, ``sent``).
    """

    def __init__(self, settings: OnlineSettings, cache_folder: Path | None, parse_cache) -> None:
        self.settings = settings
        self.http = PoliteHTTP(settings, cache_folder)
        self.parse_cache = parse_cache
        self.lookups: dict[str, Lookup] = {}

    def close(self) -> None:
        """Release the connection pool."""
        self.http.close()

    def complete(self, refs: dict[str, Reference], sources: dict[str, Source], progress: Callable[[str, int, int], None] | None = None) -> dict[str, Source]:
        """Look every reference up; give each one without a usable local source its best online source.

        Args:
            refs: citekey -> reference (every cited work with an entry).
            sources: citekey -> the local resolution's source.
            progress: ``progress("online", done, total)``.

        Returns:
            ``sources`` with unusable local sources replaced by the ladder's
            result (a usable source, or the local one with every rung's outcome).
            Up to ``max_in_flight`` works are looked up at once.
        """
        keys = list(refs)
        done = [0]

        def one(key: str) -> tuple[str, Lookup, Source | None]:
            ref = refs[key]
            try:
                lk = lookup(self.http, ref)
                local = sources.get(key) or Source(citekey=key, error="no local source", origin="not found")
                src = None
                if local.usable:
                    lk.fulltext, lk.ladder = "local file", [f"local file: {local.path}"]
                elif lk.found:
                    src = fetch_fulltext(self.http, ref, lk, local, self.parse_cache)
                if not local.usable and (src is None or not src.usable or lk.fulltext == "abstract only") and page_url(ref):
                    if not lk.ladder:
                        lk.ladder.append(f"local file: {local.error or 'none'}")
                    page = fetch_page(self.http, ref, lk, self.parse_cache)  # the reference's own URL (a blog post, a report)
                    if page is not None:
                        src, lk.not_found = page, False
            except Exception as exc:  # one work's failure is that work's state, never the run
                lk, src = Lookup(key, failed=f"online lookup failed: {type(exc).__name__}: {exc}"), None
            # every request refused on the way (a non-public address, a redirect off http/https), once each
            lk.refused = list(dict.fromkeys(s for s in [lk.failed, *lk.ladder, *lk.notes] if s and "refused: " in s))
            done[0] += 1
            if progress:
                progress("online", done[0], len(keys))
            return key, lk, src

        for key, lk, src in self.http.map(one, keys):
            self.lookups[key] = lk
            local = sources.get(key)
            if src is not None:
                sources[key] = src
            elif local is not None and not local.usable:
                why = lk.failed or ("no record matches the reference online" if lk.not_found else "")
                if why:
                    sources[key] = Source(citekey=key, path=local.path, origin=local.origin, error=f"{local.error}; online: {why}")
        return sources

    def annotate(self, findings: list[Finding]) -> None:
        """Add what the lookups found to every finding of each looked-up work.

        Tags ``retracted_source`` / ``corrected_source`` and ``bad_identifier``
        (a malformed DOI, arXiv id, PMID or PMCID, never sent; each with
        ``needs_review``); flags ``fetch_refused`` with the reason (``refused:
        a private address ...``) when a request was not sent (issue 31);
        flags ``reference_not_found``, ``metadata_mismatch``, ``abstract_only``;
        a verdict of *unsupported* from an abstract alone becomes
        *unverifiable* with :data:`ABSTRACT_ONLY_REASON`; each finding's
        reasons say how the work was resolved and where its text came from.
        """
        for f in findings:
            lk = self.lookups.get(f.citation.citekey)
            if lk is None:
                continue
            if lk.bad_identifiers:
                f.tags.append(Tag("bad_identifier", "the entry's identifier is malformed and was not looked up: " + "; ".join(lk.bad_identifiers), 1.0))
                if "needs_review" not in f.flags:
                    f.flags.append("needs_review")
            if lk.refused:
                f.flags.append("fetch_refused")
                f.reasons.append("online fetch not sent: " + "; ".join(lk.refused))
            rec = lk.record
            if lk.found:
                f.reasons.append(f"found online: {lk.how}; full text: {lk.fulltext}" + (f" ({lk.fulltext_url})" if lk.fulltext_url else ""))
            elif lk.fulltext == WEB_PAGE:
                f.reasons.append(f"read from the reference's web page ({lk.fulltext_url}); no scholarly record holds the work")
            elif lk.failed:
                f.reasons.append(f"online lookup not completed: {lk.failed}")
            if lk.not_found:
                f.flags.append("reference_not_found")
                f.reasons.insert(0, "no record matches this reference in the online services (possibly fabricated, or cited with wrong metadata): " + "; ".join(lk.notes or ["searched by identifier and title"]))
            if lk.mismatches:
                f.flags.append("metadata_mismatch")
                f.reasons.insert(0, "the cited metadata differ from the record: " + "; ".join(lk.mismatches))
            kinds = {u.kind for u in lk.updates}
            if lk.retracted or "retraction" in kinds:
                notice = next((u for u in lk.updates if u.kind == "retraction"), None)
                detail = f" (notice {notice.doi}{', recorded by ' + notice.source if notice.source else ''}{', ' + notice.date if notice.date else ''})" if notice else ""
                f.tags.insert(0, Tag("retracted_source", f"the cited work {rec.doi if rec else ''} has been retracted{detail}", 1.0))
            corr = [u for u in lk.updates if u.kind in _CORRECTION_KINDS]
            if corr:
                f.tags.insert(0 if not f.tags or f.tags[0].name != "retracted_source" else 1, Tag(
                    "corrected_source", "the cited work has " + ", ".join(f"a {u.kind.replace('_', ' ')} ({u.doi})" for u in corr), 1.0))
            if (lk.retracted or corr) and "needs_review" not in f.flags:
                f.flags.append("needs_review")
            if lk.fulltext == "abstract only" and f.source is not None and f.source.usable:
                f.flags.append("abstract_only")
                if f.verdict == Verdict.UNSUPPORTED:
                    f.verdict = Verdict.UNVERIFIABLE
                    f.reasons.insert(0, ABSTRACT_ONLY_REASON)
                elif f.verdict in (Verdict.SUPPORTED, Verdict.PARTIAL, Verdict.CONTRADICTED):
                    f.reasons.insert(0, f"judged from the abstract alone (full text not available): {f.verdict.value}")

    def to_fetch(self) -> list[dict]:
        """Works still without full text, for the user to supply: ``[{"citekey", "doi", "url", "oa_status", "state"}]``."""
        out = []
        for key, lk in self.lookups.items():
            if lk.fulltext in ("local file", "open-access PDF", "Europe PMC full text (JATS)", "arXiv PDF", WEB_PAGE):
                continue
            r = lk.record
            url = (r.pdf_urls[0][0] if r and r.pdf_urls else "") or (f"https://doi.org/{r.doi}" if r and r.doi else (r.url if r else ""))
            out.append({"citekey": key, "doi": r.doi if r else "", "url": url, "oa_status": (r.oa_status if r else "") or "unknown",
                        "state": "not found online" if lk.not_found else lk.failed or lk.fulltext})
        return out

    def metadata(self) -> dict:
        """``{"requests", "offline", "email_given", "works": {citekey: Lookup.to_dict()}, "to_fetch": [...]}`` for the report."""
        return {"requests": self.http.requests_made, "offline": self.settings.offline, "email_given": bool(self.settings.email),
                "works": {k: lk.to_dict() for k, lk in self.lookups.items()}, "to_fetch": self.to_fetch()}

    def diagnostics(self) -> list[Diagnostic]:
        """One ``info`` diagnostic listing the works still to fetch (none when every work has a full text)."""
        todo = self.to_fetch()
        if not todo:
            return []
        # one readable line: the keys and a count per short state; each work's DOI, link and full state are in
        # the report's metadata.online.to_fetch (a list of 50 full states was ~29 KB on one line under --offline)
        from collections import Counter

        why = Counter(_short_state(t["state"]) for t in todo)
        keys = ", ".join(t["citekey"] for t in todo[:10]) + (f" and {len(todo) - 10} more" if len(todo) > 10 else "")
        states = "; ".join(f"{state}: {n}" for state, n in why.most_common())
        works = "cited work still has" if len(todo) == 1 else "cited works still have"
        level = "warning" if any(st.startswith("no network") for st in why) else "info"
        return [Diagnostic("online-to-fetch", level, f"{len(todo)} {works} no full text ({states}); add their PDFs to --sources: {keys} "
                           "(DOIs and links: metadata.online.to_fetch in the JSON report, or citeproof audit --online)")]

    def audit_table(self):
        """A rich table for ``citeproof audit --online``: per work, whether it exists
        (how it was resolved), open access, retracted or corrected, and its full text."""
        from rich.table import Table

        table = Table(title="cited works online")
        for col in ("citekey", "exists", "open access", "retracted / corrected", "full text"):
            table.add_column(col, overflow="fold")
        for key, lk in self.lookups.items():
            r = lk.record
            exists = (f"yes: {lk.how}" + (f"; mismatch: {'; '.join(lk.mismatches)}" if lk.mismatches else "")) if lk.found else \
                "NOT FOUND (possibly fabricated)" if lk.not_found else f"unknown: {lk.failed}"
            oa = "-" if r is None else (f"{'yes' if r.is_oa else 'no' if r.is_oa is False else '?'}" + (f" ({r.oa_status})" if r.oa_status else ""))
            upd = "RETRACTED" if lk.retracted else ", ".join(sorted({u.kind.replace("_", " ") for u in lk.updates})) or "no"
            table.add_row(key, exists, oa, upd, lk.fulltext + (f" ({lk.fulltext_url})" if lk.fulltext_url else ""))
        return table
