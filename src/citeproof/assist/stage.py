"""The assist stage (issue 25): the one function :func:`citeproof.pipeline.check` calls after judging.

Order: inconsistencies between citations of one work (no source needed); corrected locators; suggestions from
the user's library for *unsupported* and *off_topic* citations; ``uncited_claim`` diagnostics for a Markdown
citing document, each with the best library candidate. Nothing here changes a verdict.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from citeproof.assist.consistency import mark_inconsistencies
from citeproof.assist.library import Library
from citeproof.assist.locators import locator_suggestion
from citeproof.assist.memo import Memo
from citeproof.assist.paragraphs import markdown_paragraphs
from citeproof.assist.uncited import uncited_claims
from citeproof.model import Claim, Diagnostic, Finding, Reference, Source, Verdict
from citeproof.tiers import Tiers

__all__ = ["AssistResult", "run_assist", "wants_suggestion", "MARKDOWN_SUFFIXES"]

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd", ".rmd", ".qmd", ".txt"}
"""Citing documents read for ``uncited_claim`` (pandoc Markdown; PDFs are not: on PDF text the rule's precision
was 2 of 20, ``docs/beyond.md``)."""


@dataclass
class AssistResult:
    """What the stage adds to a report: diagnostics, uncited claims (``Report.uncited``), notes, and how many of its
    searches came from the cache (``reused``)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    uncited: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reused: int = 0


def wants_suggestion(f: Finding) -> bool:
    """True for a finding the library is searched for: verdict *unsupported*, or an ``off_topic`` tag."""
    return f.verdict == Verdict.UNSUPPORTED or any(t.name == "off_topic" for t in f.tags)


def run_assist(document: Path, claims: list[Claim], findings: list[Finding], entries: dict[str, Reference],
               resolve: Callable[[str, Reference], Source], sources: dict[str, Source], source_dirs: list[Path],
               load_file: Callable[[Path], Source], tiers: Tiers, memo: Memo | None = None) -> AssistResult:
    """Add suggestions and inconsistencies to ``findings`` (in place) and return the report's additions.

    Args:
        document: the citing document.
        claims: its claims.
        findings: the run's findings (``suggestions`` and ``inconsistencies`` are filled in).
        entries: every bibliography entry by citekey (the library).
        resolve: the run's resolver (citekey, entry -> Source).
        sources: the sources already resolved, by citekey.
        source_dirs: the ``--sources`` folders.
        load_file: path -> Source for a ``--sources`` file no entry names.
        tiers: the run's tiers.
        memo: the answers of earlier runs (:class:`~citeproof.assist.memo.Memo`): a warm re-run searches nothing again.

    Returns:
        An :class:`AssistResult`. A failure of one part is a note and a warning diagnostic, never a failed run.
    """
    out = AssistResult()
    memo = memo or Memo(None, tiers.used)
    library = Library(entries, resolve, sources, source_dirs, load_file, tiers, memo)

    def guarded(name: str, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - help for the author, never a reason to lose the report
            logging.getLogger(__name__).warning("assist: %s failed", name, exc_info=True)
            out.diagnostics.append(Diagnostic("assist-error", "warning", f"{name} not run: {type(exc).__name__}: {exc}", str(document)))

    guarded("inconsistent_citations", lambda: out.diagnostics.extend(mark_inconsistencies(claims, findings)))

    def locators() -> None:
        for f in findings:
            c, src = f.citation, f.source
            if c.locator is None or not c.locator.pages() or src is None or not src.usable or not src.pages:
                continue
            parts = ["locator", f.claim.text, c.citekey, c.locator.raw, c.signal, f.verdict.value, sorted(f.flags),
                     f.evidence.passage.id if f.evidence is not None else None, memo.source(src)]
            s = memo.get_or(parts, lambda f=f: locator_suggestion(f, tiers))
            if s is not None:
                f.suggestions.append(s)

    guarded("locator repair", locators)

    def suggest() -> None:
        done: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for f in findings:
            if not wants_suggestion(f):
                continue
            cited = {c.citekey for c in f.claim.citations}
            k = (f.claim.id, f.claim.text)
            if k not in done:
                shas = {sources[c].sha256 for c in cited if c in sources and sources[c].sha256}
                done[k] = library.search(f.claim, f.claim.text, cited, exclude_sha=shas)
            f.suggestions.extend(s for s in done[k] if s not in f.suggestions)

    guarded("library suggestions", suggest)

    def uncited() -> None:
        if Path(document).suffix.lower() not in MARKDOWN_SUFFIXES:
            return
        paras = markdown_paragraphs(Path(document).read_text(encoding="utf-8", errors="replace"))
        for u in uncited_claims(paras):
            s = u.sentence
            probe = Claim(id=f"u{s.line}", text=s.text, raw=s.raw, citations=(), document=str(document), line=s.line)
            found = library.search(probe, s.text, set(), top=1)
            cand = found[0] if found else None
            msg = f"{document}:{s.line}: states a specific finding ({u.cue}: \u201c{u.words}\u201d) and cites nothing"
            if cand is not None:  # no brackets: a terminal printing rich markup would eat "[@key]"
                who = f"@{cand['citekey']}" if cand["citekey"] else str(cand["path"])
                msg += f"; your library has a candidate: {who}" + (f", {cand['locator']}" if cand["locator"] else "") + f" ({cand['verdict']} there, {cand['tier']} tier)"
            out.diagnostics.append(Diagnostic("uncited_claim", "info", msg, str(document), s.line))
            out.uncited.append({"document": str(document), "line": s.line, "sentence": s.text, "cue": u.cue, "words": u.words, "candidate": cand})

    guarded("uncited_claim", uncited)
    out.notes.extend(library.notes)
    out.reused = memo.reused
    return out
