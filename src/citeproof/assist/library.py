"""The user's own library, searched for the work that supports a claim (issue 25, parts 1 and 2).

"Every other source the user has": each bibliography entry (BibTeX, CSL-JSON, the Zotero library) whose source
can be had (its ``file`` field, or a ``--sources`` file found by citekey, DOI, arXiv id or title), and each file in
the ``--sources`` folders that no entry claimed. Sources are resolved and parsed lazily, once per run, through the
run's own :class:`~citeproof.sources.SourceResolver` (so through the parse cache).

A search is the run's own retrieval and judge (:class:`citeproof.tiers.Tiers`): each library source is scored by
the lexical retriever's coverage of the claim's terms (the share of claim terms its best passage holds, 0..1,
comparable across sources, unlike BM25); the :data:`JUDGE_TOP` best above :data:`MIN_COVERAGE` are judged with
:meth:`Tiers.candidates` and :meth:`Tiers.offline_judge` (the LLM tier is not asked), best coverage first, until as
many are *supported* as the search wants (``top``): a work judged *supported* stops the search. A source is suggested when
that judge says *supported*, or *partial* when only the lexical tier runs (it can say no more than *partial*,
``DESIGN.md``, wave 3).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

from citeproof.assist.memo import Memo
from citeproof.model import Claim, Evidence, Reference, Source, Verdict
from citeproof.tiers import Tiers, identifier_terms

__all__ = ["Library", "suggestion", "MIN_COVERAGE", "JUDGE_TOP", "MAX_SOURCES"]

MIN_COVERAGE = 0.5
"""Least lexical coverage (share of the claim's terms in the best passage, 0..1) for a source to be judged."""

JUDGE_TOP = 3
"""How many library sources, best coverage first, are judged for one claim."""

MAX_SOURCES = 400
"""At most this many library entries are resolved in one run (a Zotero library can hold thousands); the rest are
named in a note."""

_SOURCE_SUFFIXES = {".pdf", ".md", ".markdown", ".txt", ".html", ".htm", ".docx", ".odt", ".pptx", ".xlsx"}


def suggestion(kind: str, citekey: str | None, ev: Evidence, verdict: Verdict, tier: str, locator: str = "",
               note: str = "") -> dict[str, Any]:
    """One suggestion as plain data (the shape of :attr:`citeproof.model.Finding.suggestions`).

    Args:
        kind: ``source`` (cite another work) or ``locator`` (the same work, another page).
        citekey: the work's citekey, or None for a ``--sources`` file no entry names.
        ev: the passage that supports the claim.
        verdict: the judge's verdict on it (``supported`` or ``partial``).
        tier: the tier that decided.
        locator: the proposed locator (``p. 4``), '' when the source has no pages.
        note: a sentence to add to the message, or ''.

    Returns:
        ``{"kind", "citekey", "path", "locator", "verdict", "tier", "score", "page", "page_label", "where",
        "evidence", "message"}``; ``evidence`` is the passage text, or None when its reading order is not trusted.
    """
    p = ev.passage
    who = f"[@{citekey}" + (f", {locator}" if locator else "") + "]" if citekey else f"the file {ev.source.path}" + (f", {locator}" if locator else "")
    where = p.where() or (f"line {p.line}" if p.line else "")
    if kind == "locator":
        message = f"the words stand on {where}: did you mean {who}?"
    else:
        message = f"did you mean {who}? {verdict.value} there ({tier} tier)" + (f", {where}" if where else "")
    return {
        "kind": kind,
        "citekey": citekey,
        "path": ev.source.path,
        "locator": locator,
        "verdict": verdict.value,
        "tier": tier,
        "score": round(max(ev.scores.get("entailment", 0.0), ev.scores.get("lexical", 0.0)), 4),
        "page": p.page,
        "page_label": p.page_label or None,
        "where": where,
        "evidence": (ev.sentence or p.text) if p.quotable else None,
        "message": message + (f" ({note})" if note else ""),
    }


def page_locator(ev: Evidence) -> str:
    """``p. N`` for the evidence's page, N the printed label when the PDF has one (a locator names printed pages);
    ``pp. N–M`` for a passage that runs on to the next page; '' for a source without pages."""
    p = ev.passage
    if not p.page:
        return ""
    first = p.page_label or str(p.page)
    if p.page_end and p.page_end != p.page:  # the passage runs on past a page break: name both pages
        last = str(int(first) + p.page_end - p.page) if first.isdigit() else str(p.page_end)
        return f"pp. {first}\u2013{last}"
    return f"p. {first}"


class Library:
    """Every source the user has, for one run.

    Args:
        entries: the bibliography's entries by citekey (cited or not).
        resolve: citekey, entry -> :class:`Source` (the run's resolver; memoised there).
        known: sources already resolved this run, by citekey (reused, not parsed again).
        source_dirs: the ``--sources`` folders (their files no entry claims are library sources too).
        load_file: path -> :class:`Source` for such a file (the run's parse cache).
        tiers: the run's tiers.
        memo: where searches are kept between runs (:class:`~citeproof.assist.memo.Memo`; None: nowhere).
    """

    def __init__(self, entries: dict[str, Reference], resolve: Callable[[str, Reference], Source], known: dict[str, Source],
                 source_dirs: list[Path], load_file: Callable[[Path], Source], tiers: Tiers, memo: Memo | None = None) -> None:
        self.entries = entries
        self._resolve = resolve
        self._known = dict(known)
        self.source_dirs = [Path(d) for d in source_dirs]
        self._load_file = load_file
        self.tiers = tiers
        self._all: dict[str, tuple[str | None, Source]] | None = None
        self.notes: list[str] = []
        self.memo = memo or Memo(None, tiers.used)

    def sources(self) -> dict[str, tuple[str | None, Source]]:
        """Usable library sources: name -> (citekey or None, source); resolved on first call.

        The name is the citekey, or ``file:<path>`` for a ``--sources`` file no entry names.
        """
        if self._all is not None:
            return self._all
        out: dict[str, tuple[str | None, Source]] = {}
        keys = [k for k, r in self.entries.items() if k in self._known or r.files or r.attachments or r.text or self.source_dirs]
        if len(keys) > MAX_SOURCES:
            self.notes.append(f"library search: read the first {MAX_SOURCES} of {len(keys)} bibliography entries")
            keys = keys[:MAX_SOURCES]
        for key in keys:
            src = self._known.get(key)
            if src is None:
                try:
                    src = self._resolve(key, self.entries[key])
                except Exception:  # noqa: BLE001 - one bad entry is no suggestion, never a failed run
                    logging.getLogger(__name__).warning("library: could not resolve %s", key, exc_info=True)
                    continue
            if src.usable:
                out[key] = (key, src)
        claimed = {Path(s.path).resolve() for _k, s in out.values() if s.path}
        for d in self.source_dirs:
            for f in sorted(d.iterdir()) if d.is_dir() else []:
                if f.is_file() and f.suffix.lower() in _SOURCE_SUFFIXES and f.resolve() not in claimed:
                    try:
                        src = self._load_file(f)
                    except Exception:  # noqa: BLE001
                        logging.getLogger(__name__).warning("library: could not read %s", f, exc_info=True)
                        continue
                    if src.usable:
                        out[f"file:{f}"] = (None, src)
                        claimed.add(f.resolve())
        self._all = out
        return out

    def search(self, claim: Claim, text: str, exclude: set[str], top: int = 1, exclude_sha: set[str] | None = None) -> list[dict[str, Any]]:
        """The library works that support ``text``, best first, as suggestions (:func:`suggestion`).

        Args:
            claim: the claim unit (for its citations' identifier terms and the judge).
            text: the text to support (the claim's, or an uncited sentence's).
            exclude: names (citekeys) not to suggest: the works the sentence already cites.
            top: how many suggestions at most.
            exclude_sha: SHA-256 of files not to suggest (the cited works' own files: two keys can name one PDF).

        Returns:
            Suggestions of kind ``source``; empty when no library work supports the text.
        """
        lib = sorted((name, self.memo.source(src)) for name, (_k, src) in self.sources().items())
        parts = ["search", text, sorted(identifier_terms(claim)), sorted(exclude), sorted(exclude_sha or ()), top, lib]
        return self.memo.get_or(parts, lambda: self._search(claim, text, exclude, top, exclude_sha))

    def _search(self, claim: Claim, text: str, exclude: set[str], top: int, exclude_sha: set[str] | None) -> list[dict[str, Any]]:
        import dataclasses

        ids = identifier_terms(claim)
        scored: list[tuple[float, str, str | None, Source]] = []
        for name, (key, src) in self.sources().items():
            if name in exclude or (exclude_sha and src.sha256 in exclude_sha):
                continue
            best = self.tiers.retriever.retrieve(text, src, top=1, exclude_terms=ids)
            if best and best[0].scores.get("lexical", 0.0) >= MIN_COVERAGE:
                scored.append((best[0].scores["lexical"], name, key, src))
        scored.sort(key=lambda t: (-t[0], t[1]))
        judged = dataclasses.replace(claim, text=text)
        lexical_only = "entailment" not in self.tiers.used
        out: list[tuple[int, float, dict[str, Any]]] = []
        for _cov, _name, key, src in scored[:JUDGE_TOP]:
            cands = self.tiers.candidates(text, src, None, ids)
            j = self.tiers.offline_judge(judged, cands, None)
            ok = j.verdict == Verdict.SUPPORTED or (lexical_only and j.verdict == Verdict.PARTIAL)
            if ok and j.evidence is not None:
                rank = 0 if j.verdict == Verdict.SUPPORTED else 1
                out.append((rank, -j.score, suggestion("source", key, j.evidence, j.verdict, j.tier.value, page_locator(j.evidence))))
            if sum(1 for r, _s, _x in out if r == 0) >= top:
                break  # enough works judged *supported*, best coverage first: the rest are not judged (issue 27)
        out.sort(key=lambda t: (t[0], t[1]))
        return [s for _r, _s, s in out[:top]]
