"""Resolve a reference online and climb the full-text ladder.

Resolution (issue 12, part 1), first that applies: DOI (Crossref and
OpenAlex), arXiv id (arXiv API; old-style ids and versions), PMID/PMCID
(Europe PMC), else title + first author + year (OpenAlex search, then
Crossref's bibliographic query) scored by
:func:`~citeproof.sources.online.record.match_score` and refused below
:data:`~citeproof.sources.online.record.MATCH_MIN`. A DOI no service knows
falls back to the title, so a real work with a wrong DOI is a
``metadata_mismatch``, not a fabrication. ``reference_not_found`` is said
only when the services answered and none matched; a failed lookup says it failed.

Full-text ladder (part 2), each state kept in :attr:`Lookup.ladder` and
named in the source's ``origin``: local file -> open-access PDF (Unpaywall,
OpenAlex ``best_oa_location``) -> Europe PMC full text (JATS) -> arXiv PDF ->
abstract only -> none; a reference with its own web address whose work
gave no usable text this way is read from that page
(:mod:`~citeproof.sources.online.webpage`, ``web page``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citeproof.bibliography import normalise_doi
from citeproof.model import Passage, Reference, Source
from citeproof.sources.online import arxiv, crossref, europepmc, openalex, unpaywall
from citeproof.sources.online.http import PoliteHTTP
from citeproof.sources.jats import parse_jats
from citeproof.sources.online.record import MATCH_MIN, Update, WorkRecord, match_score, mismatches

__all__ = ["Lookup", "lookup", "fetch_fulltext", "FULLTEXT_STATES"]

FULLTEXT_STATES = ("local file", "open-access PDF", "Europe PMC full text (JATS)", "arXiv PDF", "abstract only", "web page", "none")
"""The rungs of the ladder, as :attr:`Lookup.fulltext` names them."""

OTHER_WORK_BELOW = 50.0
"""A DOI's record scoring below this against the entry (:func:`match_score`) is another work:
the entry is then looked up by title. In the calibration (``bench/online_calibration.py``) no
rendering of the same work scores under 57.6, while 769 of the 3,873 other works do (422 of
1,123 closest other titles, 283 of 504 other works by the same first author); a DOI that points
at a different work is usually that different."""

MAX_PDF_TRIES = 3
"""Open-access PDF locations tried per work before moving down the ladder."""


@dataclass
class Lookup:
    """What the online services said about one reference.

    Attributes:
        citekey: the reference.
        found: a record matched.
        not_found: the services answered and none matched (possibly fabricated).
        failed: why the lookup could not be completed ('' when it was).
        how: how it was resolved (``DOI via Crossref, OpenAlex``...).
        score: the title match score, for a title search (else None).
        record: the merged record (Crossref's metadata first).
        mismatches: fields where the entry differs from the record.
        updates: retractions, corrections, expressions of concern.
        retracted: a service marks the work retracted.
        fulltext: the ladder's outcome, one of :data:`FULLTEXT_STATES`.
        fulltext_url: where the full text came from ('' if none).
        ladder: each rung tried and what happened there.
        notes: other findings of the lookup (refused matches, skipped services).
        services: the services whose records were merged.
    """

    citekey: str
    found: bool = False
    not_found: bool = False
    failed: str = ""
    how: str = ""
    score: float | None = None
    record: WorkRecord | None = None
    mismatches: list[str] = field(default_factory=list)
    updates: list[Update] = field(default_factory=list)
    retracted: bool = False
    fulltext: str = "none"
    fulltext_url: str = ""
    ladder: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain-JSON form for the report's ``metadata.online.works``."""
        r = self.record
        return {
            "found": self.found, "not_found": self.not_found, "failed": self.failed or None, "how": self.how, "score": self.score,
            "doi": r.doi if r else "", "arxiv": r.arxiv if r else "", "pmid": r.pmid if r else "", "pmcid": r.pmcid if r else "",
            "title": r.title if r else "", "year": r.year if r else "", "is_oa": r.is_oa if r else None, "oa_status": r.oa_status if r else "",
            "retracted": self.retracted, "updates": [u.__dict__ for u in self.updates], "metadata_mismatch": list(self.mismatches),
            "fulltext": self.fulltext, "fulltext_url": self.fulltext_url, "ladder": list(self.ladder), "notes": list(self.notes),
        }


def _merge(records: list[WorkRecord]) -> WorkRecord:
    """One record from several services' views: the first (Crossref's) metadata, the union of the rest."""
    base = WorkRecord(**{**records[0].__dict__, "pdf_urls": list(records[0].pdf_urls), "updates": list(records[0].updates)})
    for r in records[1:]:
        for name in ("title", "year", "venue", "doi", "arxiv", "pmid", "pmcid", "abstract", "oa_status", "url", "work_type"):
            if not getattr(base, name) and getattr(r, name):
                setattr(base, name, getattr(r, name))
        if not base.authors:
            base.authors = list(r.authors)
        if base.is_oa is None:
            base.is_oa = r.is_oa
        base.pdf_urls += [p for p in r.pdf_urls if p not in base.pdf_urls]
        base.updates += [u for u in r.updates if (u.kind, u.doi) not in {(x.kind, x.doi) for x in base.updates}]
        base.retracted = base.retracted or r.retracted
    return base


def _by_title(http: PoliteHTTP, ref: Reference, lk: Lookup) -> list[WorkRecord]:
    first = next((a for a in ref.authors if a and a != "et al."), "")
    fam = first.split(",")[0] if "," in first else (first.split()[-1] if first.split() else "")
    best: tuple[float, WorkRecord | None, str] = (0.0, None, "")
    for service in ("openalex", "crossref"):
        recs, why = openalex.search(http, ref.title, ref.year) if service == "openalex" else crossref.search(http, ref.title, fam, ref.year[:4])
        if why:
            lk.notes.append(why)
            continue
        for rec in recs:
            sc = match_score(ref, rec)
            if sc > best[0]:
                best = (sc, rec, "OpenAlex search" if service == "openalex" else "Crossref bibliographic query")
        if best[0] >= MATCH_MIN:
            break
    sc, rec, via = best
    if rec is not None and sc >= MATCH_MIN:
        lk.how, lk.score = f"title, first author and year via {via} (match score {sc:.1f}, line {MATCH_MIN:.0f})", sc
        return [rec]
    if rec is not None:
        lk.score = sc
        lk.notes.append(f"closest record found by title: {rec.title!r} ({rec.year}, {', '.join(rec.authors[:2])}) scored {sc:.1f}, below the {MATCH_MIN:.0f} line; not taken")
    return []


def lookup(http: PoliteHTTP, ref: Reference) -> Lookup:
    """Resolve ``ref`` online (see module docstring). Never raises for a service failure."""
    lk = Lookup(ref.citekey)
    records: list[WorkRecord] = []
    failures: list[str] = []
    definitive = False  # a service answered the question (found or a clean "no such work")
    doi = normalise_doi(ref.doi) if ref.doi else ""
    if doi:
        got = []
        for name, fn in (("Crossref", crossref.work_by_doi), ("OpenAlex", openalex.work_by_doi)):
            rec, why = fn(http, doi)
            if why:
                failures.append(why)
            else:
                definitive = True
            if rec is not None:
                records.append(rec)
                got.append(name)
        if got:
            lk.how = f"DOI via {', '.join(got)}"
        elif definitive:
            lk.notes.append(f"the DOI {doi} is not registered with Crossref or OpenAlex")
    if records and ref.title and match_score(ref, _merge(records)) < OTHER_WORK_BELOW:
        # A real DOI of another work (a pattern of generated references): never judge against that work.
        other = _merge(records)
        lk.notes.append(f"the DOI {doi} is registered to another work: {other.title!r} ({other.year}, {', '.join(other.authors[:2])})")
        records, lk.how = [], ""
    if not records and ref.arxiv:
        rec, why = arxiv.by_id(http, ref.arxiv)
        failures += [why] if why else []
        definitive = definitive or not why
        if rec is not None:
            records.append(rec)
            lk.how = f"arXiv id {arxiv.normalise_arxiv(ref.arxiv)} via the arXiv API"
        elif not why:
            lk.notes.append(f"arXiv has no paper {ref.arxiv}")
    if not records and (ref.pmid or ref.pmcid):
        rec, why = europepmc.search(http, pmid=ref.pmid, pmcid=ref.pmcid)
        failures += [why] if why else []
        definitive = definitive or not why
        if rec is not None:
            records.append(rec)
            lk.how = f"{'PMID ' + ref.pmid if ref.pmid else 'PMCID ' + ref.pmcid} via Europe PMC"
    if not records and ref.title:
        before = len(lk.notes)
        records = _by_title(http, ref, lk)
        searched_ok = not any(n.startswith(("OpenAlex:", "Crossref:")) for n in lk.notes[before:])
        definitive = definitive or searched_ok or bool(records)
        failures += [n for n in lk.notes[before:] if n.startswith(("OpenAlex:", "Crossref:"))]
    if not records:
        if not (doi or ref.arxiv or ref.pmid or ref.pmcid or ref.title):
            lk.failed = "the entry has no DOI, arXiv id, PMID or title to look up"
        elif definitive and not failures:
            lk.not_found = True
        elif definitive:
            lk.not_found = True
            lk.notes += failures
        else:
            lk.failed = "; ".join(failures) or "no service answered"
        return lk
    lk.found = True
    lk.services = [r.service for r in records]
    lk.record = _merge(records)
    lk.updates = lk.record.updates
    lk.retracted = lk.record.retracted or lk.record.work_type == "retracted"
    lk.mismatches = mismatches(ref, lk.record)
    lk.notes += failures
    return lk


def _pdf_source(http: PoliteHTTP, citekey: str, url: str, via: str, cache, rung: str, lk: Lookup) -> Source | None:
    from citeproof.sources import load_source

    f = http.get(url, service="download", accept="application/pdf")
    if not f.ok:
        lk.ladder.append(f"{rung} ({via}): {f.error}")
        return None
    if not f.body.startswith(b"%PDF"):
        head = f.body.lstrip()[:15].lower()
        what = "an HTML page (a login or paywall page?)" if head.startswith((b"<!doctype", b"<html", b"<head")) or f.content_type == "text/html" else f"'{f.content_type or 'unknown'}' content"
        lk.ladder.append(f"{rung} ({via}): {url} gave {what}, not a PDF")
        return None
    path = http.blob_path(f.body, ".pdf")
    src = load_source(citekey, path, f"online: {rung} via {via}, {url}", cache)
    if not src.usable:
        lk.ladder.append(f"{rung} ({via}): {url}: {src.error or 'no text'}")
        return None
    lk.ladder.append(f"{rung} ({via}): {url}: read, {len(src.passages)} passages")
    lk.fulltext, lk.fulltext_url = rung, url
    return src


def fetch_fulltext(http: PoliteHTTP, ref: Reference, lk: Lookup, local: Source, cache) -> Source:
    """Climb the full-text ladder for a resolved reference whose local source is unusable.

    Args:
        http: the polite HTTP layer.
        ref: the bibliography entry.
        lk: its :class:`Lookup` (``fulltext``, ``ladder`` are filled in).
        local: the local resolution's source (its error starts the ladder).
        cache: the parsed-source cache (downloaded PDFs are parsed through it).

    Returns:
        A usable source from the first rung that works, else ``local``
        with its error extended by every rung's outcome.
    """
    lk.ladder.append(f"local file: {local.error or 'none'}")
    rec = lk.record
    if rec is None:
        return local
    pdfs: list[tuple[str, str]] = []
    if rec.doi:
        found, status, why = unpaywall.oa_pdfs(http, rec.doi)
        pdfs += found
        if status and not rec.oa_status:
            rec.oa_status = status
        if why:
            lk.ladder.append(why)
    pdfs += [p for p in rec.pdf_urls if p[1] != "arXiv PDF" and p[1] != "Crossref link" and all(p[0] != u for u, _ in pdfs)]
    if not pdfs:
        lk.ladder.append("open-access PDF: no location known")
    for url, via in pdfs[:MAX_PDF_TRIES]:
        src = _pdf_source(http, ref.citekey, url, via, cache, "open-access PDF", lk)
        if src is not None:
            return src
    pmcid = rec.pmcid
    # OpenAlex carries the PMCID of the works it knows; ask Europe PMC by DOI only when OpenAlex had no record.
    if not pmcid and rec.doi and "openalex" not in lk.services and rec.service != "arxiv":
        epmc, why = europepmc.search(http, doi=rec.doi)
        if why and "HTTP 404" not in why:
            lk.ladder.append(f"Europe PMC full text (JATS): {why}")
        elif epmc is not None:
            pmcid = epmc.pmcid
            rec.pmid = rec.pmid or epmc.pmid
            rec.abstract = rec.abstract or epmc.abstract
    if pmcid:
        f = europepmc.fulltext_xml(http, pmcid)
        if f.ok:
            passages, text, title, err = parse_jats(f.body)
            if err is None:
                path = http.blob_path(f.body, ".xml")
                lk.fulltext, lk.fulltext_url = "Europe PMC full text (JATS)", f.url
                lk.ladder.append(f"Europe PMC full text (JATS): {pmcid}: read, {len(passages)} passages")
                import hashlib

                return Source(citekey=ref.citekey, path=str(path), sha256=hashlib.sha256(f.body).hexdigest(), media_type="application/jats+xml",
                              origin=f"online: Europe PMC full text (JATS) {pmcid}", passages=passages, text=text, title=title)
            lk.ladder.append(f"Europe PMC full text (JATS): {pmcid}: {err}")
        else:
            lk.ladder.append(f"Europe PMC full text (JATS): {pmcid}: {'no full text held' if f.status == 404 else f.error}")
    else:
        lk.ladder.append("Europe PMC full text (JATS): no PMCID")
    arxiv_pdfs = [p for p in rec.pdf_urls if p[1] == "arXiv PDF"]
    if not arxiv_pdfs and (rec.arxiv or ref.arxiv) and rec.service != "arxiv":
        ax, why = arxiv.by_id(http, rec.arxiv or ref.arxiv)
        arxiv_pdfs = ax.pdf_urls if ax else []
        if why:
            lk.ladder.append(f"arXiv PDF: {why}")
    if arxiv_pdfs:
        src = _pdf_source(http, ref.citekey, arxiv_pdfs[0][0], "arXiv", cache, "arXiv PDF", lk)
        if src is not None:
            return src
    else:
        lk.ladder.append("arXiv PDF: no arXiv id")
    if rec.abstract:
        lk.fulltext = "abstract only"
        lk.ladder.append(f"abstract only: from {rec.service}")
        text = rec.abstract
        return Source(citekey=ref.citekey, path=None, media_type="text/plain", origin=f"online: abstract only ({rec.service}); full text not available",
                      passages=[Passage(id="a1", text=text, line=1, char_start=0, char_end=len(text), section="abstract")], text=text, title=rec.title)
    lk.fulltext = "none"
    return Source(citekey=ref.citekey, path=None, origin="online: no full text or abstract",
                  error="found online, but no open full text or abstract: " + "; ".join(lk.ladder))
