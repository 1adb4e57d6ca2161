"""``citeproof watch --online``: has a work cited in an earlier run been retracted since (issue 25, part 6)?

What is watched: the works the latest recorded run of each document cited (the run history, ``history.sqlite``
in the cache folder, :func:`citeproof.history.cited_works`; a run recorded before that field existed gives its
``doi:`` citekeys). Only the retraction and correction status is asked, by DOI, of Crossref (``updated-by``
notices, Retraction Watch's included) and OpenAlex (``is_retracted``), through the online layer
(:mod:`citeproof.sources.online.http`: the configured ``CITEPROOF_*_URL`` bases, rate limits, the online cache). A
watch asks afresh (cached answers are not reused) unless ``--offline``, which answers from the online cache alone.
Nothing but the DOI is sent.

A work is *newly* retracted for a document when a service marks it retracted now and the document's latest run did
not (that run was offline, or the notice is new); it stays new until the document is checked again. The exit code
is 1 when any document cites a newly retracted work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from citeproof.history import list_runs

__all__ = ["WatchedWork", "WatchResult", "watch", "watched_works"]

_CORRECTION_KINDS = {"correction", "erratum", "corrigendum", "expression_of_concern", "addendum", "clarification", "partial_retraction"}


@dataclass
class WatchedWork:
    """One cited work's status now.

    Attributes:
        doi: the DOI asked about.
        retracted: a service marks it retracted (Crossref's notices or OpenAlex's flag).
        corrections: kinds of the other update notices (``correction``, ``expression_of_concern``...).
        notice: the DOI of the retraction notice, '' when unknown.
        error: why the status could not be had ('' when it could).
        cited_by: ``(document, citekey, retracted at its last run, corrected at its last run)`` for each document.
    """

    doi: str
    retracted: bool = False
    corrections: list[str] = field(default_factory=list)
    notice: str = ""
    error: str = ""
    cited_by: list[tuple[str, str, bool, bool]] = field(default_factory=list)


@dataclass
class WatchResult:
    """A watch: every work looked at, and per document the works newly retracted or corrected."""

    works: list[WatchedWork] = field(default_factory=list)
    documents: int = 0
    newly_retracted: dict[str, list[tuple[str, WatchedWork]]] = field(default_factory=dict)
    newly_corrected: dict[str, list[tuple[str, WatchedWork]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """``{"documents", "works": [{"doi", "retracted", "corrections", "notice", "error", "cited_by": [...]}],
        "newly_retracted": {document: [{"citekey", "doi", "notice"}]}, "newly_corrected": {...}}``."""
        return {
            "documents": self.documents,
            "works": [{"doi": w.doi, "retracted": w.retracted, "corrections": w.corrections, "notice": w.notice, "error": w.error,
                       "cited_by": [{"document": d, "citekey": k} for d, k, _r, _c in w.cited_by]} for w in self.works],
            "newly_retracted": {d: [{"citekey": k, "doi": w.doi, "notice": w.notice} for k, w in items] for d, items in self.newly_retracted.items()},
            "newly_corrected": {d: [{"citekey": k, "doi": w.doi, "kinds": w.corrections} for k, w in items] for d, items in self.newly_corrected.items()},
        }


def watched_works(cache_dir: Path) -> tuple[dict[str, WatchedWork], int]:
    """The DOIs cited by the latest run of each document in the history, with who cites them.

    Returns:
        ``({doi: WatchedWork with cited_by filled}, number of documents)``; empty when there is no history.

    Raises:
        sqlite3.DatabaseError: the history file is damaged.
    """
    latest: dict[str, dict] = {}
    for run in list_runs(cache_dir, limit=100_000):  # newest first
        latest.setdefault(run.document, run.record)
    works: dict[str, WatchedWork] = {}
    for document, rec in latest.items():
        cited = rec.get("works")
        if cited is None:  # a run recorded before issue 25: its doi: citekeys
            cited = {k: {"doi": k[4:].lower(), "retracted": False, "corrected": False} for k in rec.get("sources", {}) if k.lower().startswith("doi:10.")}
        for key, w in cited.items():
            doi = (w.get("doi") or "").strip().lower()
            if doi:
                works.setdefault(doi, WatchedWork(doi)).cited_by.append((document, key, bool(w.get("retracted")), bool(w.get("corrected"))))
    return works, len(latest)


def watch(cache_dir: Path, email: str = "", offline: bool = False, progress: Callable[[str, int, int], None] | None = None) -> WatchResult:
    """Re-check the retraction and correction status of every work the history's latest runs cite.

    Args:
        cache_dir: the cache folder holding ``history.sqlite`` (and the online cache).
        email: contact address for the services' polite pools.
        offline: answer from the online cache alone.
        progress: ``progress("watch", done, total)``.

    Returns:
        The :class:`WatchResult`.
    """
    from citeproof.sources.online import OnlineSettings
    from citeproof.sources.online import crossref, openalex
    from citeproof.sources.online.http import PoliteHTTP

    works, n_docs = watched_works(cache_dir)
    result = WatchResult(documents=n_docs)
    if not works:
        return result
    settings = OnlineSettings(email=email, offline=offline, ttl_days=30.0 if offline else 0.0)  # a watch asks afresh
    http = PoliteHTTP(settings, cache_dir)
    done = [0]

    def one(w: WatchedWork) -> WatchedWork:
        errors = []
        for name, fn in (("Crossref", crossref.work_by_doi), ("OpenAlex", openalex.work_by_doi)):
            try:
                rec, why = fn(http, w.doi)
            except Exception as exc:  # noqa: BLE001 - one work's failure is that work's state
                rec, why = None, f"{name}: {type(exc).__name__}: {exc}"
            if why:
                errors.append(why)
            if rec is None:
                continue
            w.retracted = w.retracted or rec.retracted or rec.work_type == "retracted"
            for u in rec.updates:
                if u.kind in ("retraction", "withdrawal", "removal") and not w.notice:
                    w.notice = u.doi
                elif u.kind in _CORRECTION_KINDS and u.kind not in w.corrections:
                    w.corrections.append(u.kind)
        if errors and not w.retracted and len(errors) == 2:
            w.error = "; ".join(errors)
        done[0] += 1
        if progress:
            progress("watch", done[0], len(works))
        return w

    try:
        result.works = http.map(one, list(works.values()))
    finally:
        http.close()
    for w in result.works:
        for document, key, was_retracted, was_corrected in w.cited_by:
            if w.retracted and not was_retracted:
                result.newly_retracted.setdefault(document, []).append((key, w))
            elif w.corrections and not was_corrected and not w.retracted:
                result.newly_corrected.setdefault(document, []).append((key, w))
    return result
