"""The one place that knows the order of the stages.

``read document -> claims``; ``read bibliographies -> references``;
``resolve -> sources -> passages``; ``retrieve -> judge -> detectors ->
findings``; sort worst first into a :class:`~citeproof.model.Report`.
Writers live in :mod:`citeproof.reports`; the CLI and the web page call
:func:`check` and hold no logic of their own.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from citeproof import __version__
from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.errors import InputError, UnknownFormatError
from citeproof.judges.base import Judgement
from citeproof.judges.lexical import LexicalJudge
from citeproof.model import Citation, Claim, Diagnostic, Finding, Reference, Report, Source, UnitKind, Verdict
from citeproof.readers.markdown import MarkdownReader
from citeproof.retrieval.lexical import LexicalRetriever
from citeproof.retrieval.text import terms
from citeproof.sources import SourceResolver
from citeproof.sources.cache import Cache, default_cache_dir
from citeproof.sources.text import parse_text

__all__ = [
    "CheckOptions",
    "check",
    "read_claims",
    "READERS",
    "attention_rank",
    "judge_text",
    "summarise",
    "Progress",
]

KNOWN_TIERS = ("lexical", "dense", "entailment", "llm")
"""Tier names ``--tier`` accepts (``DESIGN.md``, tiers)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as work advances (stage: ``sources``, ``citations``)."""

READERS: dict[str, Callable[[], object]] = {".md": MarkdownReader, ".markdown": MarkdownReader, ".pandoc": MarkdownReader, ".rmd": MarkdownReader, ".qmd": MarkdownReader, ".txt": MarkdownReader}
"""Citing-document readers by file suffix (a plain dict registry, ``STYLE.md``)."""


def read_claims(path: Path) -> list[Claim]:
    """Read a citing document with the reader registered for its suffix.

    Raises:
        InputError: the file does not exist.
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file; check the path of the citing document")
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give the citing document itself (e.g. {path}/draft.md)")
    reader_cls = READERS.get(path.suffix.lower())
    if reader_cls is None:
        raise UnknownFormatError(f"{path}: no reader for '{path.suffix}' files; citeproof reads {', '.join(sorted(READERS))}")
    return reader_cls().read(path)  # type: ignore[attr-defined]


@dataclass
class CheckOptions:
    """How to run :func:`check`.

    Attributes:
        source_dirs: ``--sources`` folders.
        cache_dir: where the SQLite cache lives (None: the default folder).
        use_cache: False for ``--no-cache``.
        tiers: tiers to run (None: all available). Only ``lexical`` exists
            in this version; naming another gives a reason in the report.
        progress: optional progress callback.
    """

    source_dirs: list[Path] = field(default_factory=list)
    cache_dir: Path | None = None
    use_cache: bool = True
    tiers: list[str] | None = None
    progress: Progress | None = None


BANDS: dict[Verdict, int] = {
    Verdict.CONTRADICTED: 0,
    Verdict.UNSUPPORTED: 1,
    Verdict.PARTIAL: 2,
    Verdict.ERROR: 3,
    Verdict.UNVERIFIABLE: 4,
    Verdict.SUPPORTED: 5,
}
"""Reading order of verdicts: what most deserves a human's eyes comes first."""


def attention_rank(f: Finding) -> tuple:
    """Sort key putting the findings most worth a human's attention first.

    Unknown citekeys lead (a broken reference is certain to need a fix),
    then contradicted, unsupported, partial, error, unverifiable, supported;
    tagged findings before untagged ones in the same band; within a band, the
    more confident verdict first, then document order.
    """
    band = -1 if "unknown_citekey" in f.flags else BANDS[f.verdict]
    return (band, 0 if f.tags else 1, -f.confidence if f.verdict != Verdict.SUPPORTED else f.score, f.claim.line, f.citation.column)


def _judge_citation(
    claim: Claim,
    cite: Citation,
    ref: Reference | None,
    source: Source | None,
    retriever: LexicalRetriever,
    judge: LexicalJudge,
    bib: Bibliography | None,
    duplicate_keys: set[str],
) -> Finding:
    f = Finding(claim=claim, citation=cite, verdict=Verdict.UNVERIFIABLE, reference=ref, source=source)
    if cite.citekey in duplicate_keys:
        f.flags.append("duplicate_citekey")
        f.reasons.append(f"citekey '{cite.citekey}' is defined more than once in the bibliography; the first definition was used")
    if ref is None:
        f.flags.append("unknown_citekey")
        files = ", ".join(str(p) for p in bib.files) if bib and bib.files else "no bibliography given"
        f.reasons.insert(0, f"citekey '{cite.citekey}' is not in the bibliography ({files}); add the entry or fix the key")
        return f
    if source is None or not source.usable:
        f.flags.append("no_source" if source is None or source.path is None else "unreadable_source")
        f.reasons.insert(0, (source.error if source and source.error else "no local source"))
        return f
    text = claim.text
    if not terms(text) and claim.context:
        text = claim.context
        f.flags.append("claim_from_context")
        f.reasons.append("the claim unit holds no words of its own; the preceding sentence was judged")
    pages = cite.locator.pages() if cite.locator else []
    page_missing = bool(pages) and source.pages > 0 and not any(p.page in pages for p in source.passages)
    if page_missing:
        f.flags.append("locator_page_missing")
        f.reasons.append(f"the locator {cite.locator.raw!r} names page(s) the source does not have (it has {source.pages}); searched all pages")
        pages = []
    elif pages and not source.pages:
        pages = []  # a text source has no pages to restrict to
    # The cited work's own identifiers (a table cell showing the DOI) are not claims about its content.
    exclude = {t for c in claim.citations for t in terms(c.citekey.replace(":", " ").replace("/", " "))}
    try:
        cands = retriever.retrieve(text, source, pages=pages or None, exclude_terms=exclude)
        j: Judgement = judge.judge(claim, cands, cite.signal)
    except Exception as exc:  # one citation's failure is one finding, never the run
        f.verdict = Verdict.ERROR
        f.reasons.insert(0, f"internal error while judging: {type(exc).__name__}: {exc}; please report it")
        return f
    f.verdict, f.score, f.confidence, f.tier, f.evidence = j.verdict, j.score, j.confidence, j.tier, j.evidence
    f.reasons = j.reasons + f.reasons
    if page_missing and f.verdict == Verdict.SUPPORTED:
        # The words are there, but not where the citation points: a wrong pinpoint is a citation problem.
        f.verdict = Verdict.PARTIAL
        f.flags.append("needs_review")
        f.reasons.insert(0, "supported elsewhere in the source, but the page the citation names does not exist: fix the locator")
    if pages:
        f.reasons.append(f"searched page(s) {', '.join(map(str, pages))} only, as the locator {cite.locator.raw!r} says")
    if f.evidence is not None and not f.evidence.passage.quotable:
        f.flags.append("not_quotable")
    if cite.signal:
        f.reasons.append(f"signal '{cite.signal}': the citation vouches for a related point; thresholds relaxed")
    return f


def summarise(findings: list[Finding]) -> dict:
    """Summary counts for a report.

    Returns:
        ``{"citations", "claims", "citekeys", "verdicts": {verdict: n},
        "unknown_citekeys": [...], "sources_available", "sources_missing",
        "coverage"}`` where ``coverage`` is the share of citation occurrences
        whose source was readable.
    """
    verdicts = Counter(f.verdict.value for f in findings)
    keys = {f.citation.citekey for f in findings}
    unknown = sorted({f.citation.citekey for f in findings if "unknown_citekey" in f.flags})
    avail = sorted({f.citation.citekey for f in findings if f.source is not None and f.source.usable})
    readable = sum(1 for f in findings if f.source is not None and f.source.usable)
    return {
        "citations": len(findings),
        "claims": len({f.claim.id for f in findings}),
        "citekeys": len(keys),
        "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        "unknown_citekeys": unknown,
        "sources_available": len(avail),
        "sources_missing": len(keys) - len(avail) - len(unknown),
        "coverage": round(readable / len(findings), 4) if findings else 0.0,
    }


def check(document: Path, bib_paths: list[Path], options: CheckOptions | None = None) -> Report:
    """Check every citation of ``document`` against its sources.

    Args:
        document: the citing document (Markdown).
        bib_paths: bibliography files (BibTeX or CSL-JSON), priority order.
        options: see :class:`CheckOptions`.

    Returns:
        The :class:`Report`, findings sorted by :func:`attention_rank`.

    Raises:
        InputError, UnknownFormatError: the document cannot be read.
        BibliographyError: a bibliography file cannot be read at all.
    """
    opts = options or CheckOptions()
    t0 = time.perf_counter()
    document = Path(document)
    claims = read_claims(document)
    t_read = time.perf_counter()
    bib = load_bibliographies([Path(p) for p in bib_paths])
    for d in opts.source_dirs:
        if not Path(d).is_dir():
            raise InputError(f"{d}: --sources must be a folder of PDF/Markdown/text/HTML files")
    cache = Cache((opts.cache_dir or default_cache_dir()) if opts.use_cache else None)
    resolver = SourceResolver([p.parent for p in bib.files], list(opts.source_dirs), cache)
    duplicate_keys = {d.message.split("'")[1] for d in bib.diagnostics if d.code == "bib-duplicate-key" and "'" in d.message}

    cited = list(dict.fromkeys(c.citekey for cl in claims for c in cl.citations))

    def reference(key: str) -> Reference | None:
        # With --sources and no bibliography, every key stands for itself and
        # is looked up as <citekey>.pdf in the source folders.
        if not bib.files and opts.source_dirs:
            return Reference(citekey=key, origin="")
        return bib.get(key)

    sources: dict[str, Source] = {}
    for n, key in enumerate(cited, start=1):
        ref = reference(key)
        if ref is not None:
            sources[key] = resolver.resolve(key, ref)
        if opts.progress:
            opts.progress("sources", n, len(cited))
    t_sources = time.perf_counter()

    tiers_used = ["lexical"]
    retriever, judge = LexicalRetriever(), LexicalJudge()
    findings: list[Finding] = []
    total = sum(len(cl.citations) for cl in claims)
    done = 0
    for claim in claims:
        for cite in claim.citations:
            ref = reference(cite.citekey)
            findings.append(_judge_citation(claim, cite, ref, sources.get(cite.citekey), retriever, judge, bib, duplicate_keys))
            done += 1
            if opts.progress:
                opts.progress("citations", done, total)
    findings.sort(key=attention_rank)
    t_end = time.perf_counter()
    notes = []
    if opts.tiers:
        for t in opts.tiers:
            if t not in tiers_used:
                notes.append(f"tier '{t}' is not available in this version; only the lexical tier ran")
    diagnostics = list(bib.diagnostics)
    if cache.warning:
        diagnostics.append(Diagnostic("cache-reset", "warning", cache.warning, str(cache.folder)))
    return Report(
        document=str(document),
        findings=findings,
        diagnostics=diagnostics,
        metadata={
            "citeproof_version": __version__,
            "tiers": tiers_used,
            "tier_notes": notes,
            "bibliographies": [str(p) for p in bib.files],
            "source_dirs": [str(d) for d in opts.source_dirs],
            "cache": str(cache.folder) if cache.folder else None,
            "timings_s": {
                "read": round(t_read - t0, 3),
                "sources": round(t_sources - t_read, 3),
                "judge": round(t_end - t_sources, 3),
                "total": round(t_end - t0, 3),
            },
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        references={k: v for k, v in bib.entries.items() if k in set(cited)},
        sources=sources,
    )


def judge_text(claim_text: str, source_text: str, *, citekey: str = "src", signal: str | None = None) -> Finding:
    """Judge one claim against one plain-text source, in memory (lexical tier).

    For evaluation harnesses and library users with text in hand.

    Args:
        claim_text: the claim, citation markup already removed.
        source_text: the source's text; paragraphs separated by blank lines.
        citekey: the name to give the source in the finding.
        signal: the citation's signal, if any.

    Returns:
        A :class:`Finding` (document ``<text>``, line 1).
    """
    passages, full = parse_text(source_text)
    import hashlib

    src = Source(citekey=citekey, path=None, sha256=hashlib.sha256(source_text.encode()).hexdigest(), media_type="text/plain", origin="text", passages=passages, text=full)
    if not passages:
        src.error = "the source text is empty"
    cite = Citation(citekey=citekey, signal=signal, line=1)
    claim = Claim(id="c0001", text=claim_text, raw=claim_text, citations=(cite,), document="<text>", line=1, kind=UnitKind.SENTENCE)
    ref = Reference(citekey=citekey)
    return _judge_citation(claim, cite, ref, src, LexicalRetriever(), LexicalJudge(), None, set())

