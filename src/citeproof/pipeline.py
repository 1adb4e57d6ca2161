"""The one place that knows the order of the stages.

``read document -> claims``; ``read bibliographies -> references``;
``resolve -> sources -> passages``; ``retrieve -> judge -> detectors ->
findings``; sort worst first into a :class:`~citeproof.model.Report`.
Writers live in :mod:`citeproof.reports`; the CLI and the web page call
:func:`check` and hold no logic of their own.
"""

from __future__ import annotations

import logging
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from citeproof import __version__
from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.documents import (  # noqa: F401 - re-exported: moved out of this module
    READERS,
    given_bibliography,
    merge_printed_references,
    read_claims,
    read_document,
    read_input,
    reader_for,
)
from citeproof.errors import CiteproofError, InputError
from citeproof.judgecache import JudgementCache
from citeproof.judges.joint import judge_in_parts
from citeproof.judging import _compared_with_cited, _earlier_narrative, _judge_citation  # noqa: F401 - re-exported
from citeproof.model import (
    Citation,
    Claim,
    Diagnostic,
    Finding,
    Reference,
    Report,
    Source,
    UnitKind,
    Verdict,
)
from citeproof.sources import SourceResolver
from citeproof.sources.cache import Cache, default_cache_dir
from citeproof.sources.ocr import check_mode
from citeproof.sources.text import parse_text
from citeproof.triage import BANDS, attention_rank, summarise  # noqa: F401 - re-exported: the reading order's own module
from citeproof.tiers import (  # noqa: F401 - re-exported
    _MODELS,
    DENSE_POOL,
    ENTAILMENT_CONTRADICT_AT,
    ENTAILMENT_DECIDE_AT,
    ENTAILMENT_SUPPORT_AT,
    FALLBACK_PARTIAL_AT,
    FALLBACK_SUPPORTED_AT,
    OfflineLock,
    Tiers,
    _shared_model,
)

_log = logging.getLogger(__name__)

__all__ = [
    "CheckOptions",
    "check",
    "read_claims",
    "read_document",
    "read_input",
    "reader_for",
    "READERS",
    "merge_printed_references",
    "attention_rank",
    "judge_text",
    "summarise",
    "Progress",
]

KNOWN_TIERS = ("lexical", "dense", "entailment", "llm")
"""Tier names ``--tier`` accepts (``DESIGN.md``, tiers)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as work advances (stage: ``sources``, ``citations``)."""


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
        confine_to: read bibliography-named source files only inside this
            folder (None: anywhere). The web page confines each job.
        online: look references up online (``--online``; issue 12).
        email: contact e-mail for the services' polite pools (``--email``).
        offline: online lookups from the cache alone (``--offline``; implies ``online``).
        settings: config-file settings this version has no field for
            (``llm``...), passed through unchanged (:mod:`citeproof.config`).
        llm: the LLM tier's endpoint and budget
            (:class:`citeproof.judges.llm.LLMConfig`); needed for ``llm`` in ``tiers``.
        limit: judge only the first ``limit`` citations in document order (None: all).
        collection: only this collection of a Zotero library among ``bib_paths`` (``--collection``).
        ocr: ``--ocr`` mode for scanned PDF sources, ``auto``, ``force`` or
            ``never`` ('' is ``auto``; :mod:`citeproof.sources.ocr`).
        assist: run the assist stage (:func:`assist_stage`): suggestions, corrected locators, inconsistencies,
            uncited claims (issue 25).
    """

    source_dirs: list[Path] = field(default_factory=list)
    cache_dir: Path | None = None
    use_cache: bool = True
    tiers: list[str] | None = None
    progress: Progress | None = None
    confine_to: Path | None = None
    online: bool = False
    email: str = ""
    offline: bool = False
    settings: dict = field(default_factory=dict)
    llm: object | None = None
    limit: int | None = None
    collection: str | None = None
    ocr: str = ""
    assist: bool = True


class _Serial:
    """A stand-in for a thread pool that runs in the calling thread (``map`` is the built-in one)."""

    def __enter__(self) -> "_Serial":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    map = staticmethod(map)

    @staticmethod
    def submit(fn: Callable, *args: object) -> "Future":
        done: Future = Future()
        done.set_result(fn(*args))  # an exception raises here, in the caller, as a plain loop would
        return done


def parse_workers() -> int:
    """How many sources are parsed at once: ``CITEPROOF_PARSE_WORKERS``, else the CPUs, at most 4 (issue 17).

    Each parse runs in its own limited worker process (:mod:`citeproof.sources.sandbox`),
    so N parses use N cores. 1 parses one source after another.

    Raises:
        CiteproofError: ``CITEPROOF_PARSE_WORKERS`` is not a whole number >= 1.
    """
    raw = os.environ.get("CITEPROOF_PARSE_WORKERS", "").strip()
    if not raw:
        return max(1, min(4, os.cpu_count() or 1))
    if not raw.isdigit() or int(raw) < 1:
        raise CiteproofError(f"CITEPROOF_PARSE_WORKERS={raw!r}: give a whole number of parallel parses, 1 or more")
    return int(raw)


def resolve_sources(cited: list[str], reference: Callable[[str], Reference | None], resolver: SourceResolver,
                    progress: Callable[[str, int, int], None] | None = None) -> dict[str, Source]:
    """Each cited key's source, parsed :func:`parse_workers` at a time.

    Args:
        cited: citekeys in first-cited order.
        reference: citekey -> bibliography entry (None: unknown key, no source).
        resolver: finds and parses the files (thread-safe; a file two keys
            name is parsed once).
        progress: called as ``progress("sources", done, total)``.

    Returns:
        citekey -> :class:`Source`, in ``cited`` order (unknown keys absent).
    """
    def one(key: str) -> Source | None:
        ref = reference(key)
        return resolver.resolve(key, ref) if ref is not None else None

    found: dict[str, Source | None] = {}
    workers = min(parse_workers(), max(1, len(cited)))
    with ThreadPoolExecutor(max_workers=workers) if workers > 1 else _Serial() as pool:
        futures = {key: pool.submit(one, key) for key in cited}
        for n, key in enumerate(cited, start=1):
            found[key] = futures[key].result()
            if progress:
                progress("sources", n, len(cited))
    return {k: s for k, s in found.items() if s is not None}


def check(document: Path, bib_paths: list[Path], options: CheckOptions | None = None) -> Report:
    """Check every citation of ``document`` against its sources.

    The stages, in order: :func:`_read_citing` (claims and bibliographies),
    :func:`_open_sources` (each cited work's source, online when asked),
    :func:`_judge_citations` (retrieval, judges, detectors), then
    :func:`_close_online` and :func:`_report` (notes, diagnostics, metadata).

    Args:
        document: the citing document (Markdown, LaTeX ``.tex`` or arXiv
            ``.tar.gz``, PDF).
        bib_paths: bibliography files (BibTeX or CSL-JSON), priority order.
            Empty: the document's own bibliography (LaTeX's .bib/.bbl, a
            PDF's printed list). For a PDF, given files enrich the printed
            entries (see :func:`merge_printed_references`); for LaTeX they
            replace the document's own.
        options: see :class:`CheckOptions`.

    Returns:
        The :class:`Report`, findings sorted by :func:`attention_rank`.

    Raises:
        InputError, UnknownFormatError: the document cannot be read.
        BibliographyError: a bibliography file cannot be read at all.
    """
    opts = options or CheckOptions()
    run = _Run(Path(document), [Path(p) for p in bib_paths], opts, {"start": time.perf_counter()})
    _start_parse_worker()
    c = run.clock
    if opts.progress:
        opts.progress("reading", 0, 1)
    _read_citing(run)
    c["read"] = time.perf_counter()
    if opts.progress:
        opts.progress("reading", 1, 1)
    _log.info("read %s: %d claim units, %d citations (%.2f s)", run.document, len(run.claims), run.total_citations, c["read"] - c["start"])
    _log.info("bibliography: %d entries (%s); %d cited works", len(run.bib.entries),
              ", ".join(str(p) for p in run.bib.files) or "the document's own", len(run.cited))
    _open_sources(run)
    c["sources"] = time.perf_counter()
    _log.info("sources: %d of %d cited works readable (%.2f s)", sum(1 for src in run.sources.values() if src.usable),
              len(run.cited), c["sources"] - c["read"])
    _judge_citations(run)
    _close_online(run)
    t_assist = time.perf_counter()
    run.helped = assist_stage(run.document, run.claims, run.findings, run.bib, run.resolver, run.sources, opts, run.tiers)
    c["assist"] = time.perf_counter() - t_assist
    run.findings.sort(key=attention_rank)
    c["end"] = time.perf_counter()
    _log.info("tiers: %s; judged %d citations (%.2f s); judgement cache: %s", ", ".join(run.tiers.used), len(run.findings),
              c["end"] - c["sources"], run.judgements.metadata())
    _log.info("timings: read %.2f s, sources %.2f s, judge %.2f s, total %.2f s", c["read"] - c["start"],
              c["sources"] - c["read"], c["end"] - c["sources"], c["end"] - c["start"])
    return _report(run)


@dataclass
class _Run:
    """What one :func:`check` carries from stage to stage (each stage fills its part)."""

    document: Path
    bib_paths: list[Path]
    opts: CheckOptions
    clock: dict[str, float]
    claims: list[Claim] = field(default_factory=list)
    total_citations: int = 0
    own_bib: Bibliography | None = None
    bib: Bibliography = field(default_factory=Bibliography)
    read_diagnostics: list[Diagnostic] = field(default_factory=list)
    duplicate_keys: set[str] = field(default_factory=set)
    cited: list[str] = field(default_factory=list)
    cache: Cache | None = None
    sources: dict[str, Source] = field(default_factory=dict)
    online: object | None = None
    tiers: Tiers | None = None
    judgements: JudgementCache | None = None
    findings: list[Finding] = field(default_factory=list)
    resolver: SourceResolver | None = None
    helped: object | None = None

    def reference(self, key: str) -> Reference | None:
        """The bibliography entry of ``key`` (None: unknown key).

        With ``--sources`` and no bibliography at all (none given, none in the
        document), every key stands for itself and is looked up as
        ``<citekey>.pdf`` in the source folders.
        """
        if not self.bib_paths and self.own_bib is None and self.opts.source_dirs:
            return Reference(citekey=key, origin="")
        return self.bib.get(key)


def _start_parse_worker() -> None:
    """Start the PDF parse worker (it imports PyMuPDF) while the document and bibliography are read."""
    from citeproof.sources.sandbox import ParseLimitError, prestart

    try:
        prestart(warm="citeproof.sources.pdf")
    except (ParseLimitError, OSError, ValueError):  # a bad CITEPROOF_PARSE_* is reported where a parse needs it
        pass


def _read_citing(run: _Run) -> None:
    """Stage 1: the document's claims (the first ``--limit`` citations), its own bibliography and the given ones.

    Raises:
        InputError, UnknownFormatError: the document cannot be read, or a ``--sources`` folder is not a folder.
        BibliographyError: a bibliography file cannot be read at all.
    """
    opts = run.opts
    claims, run.own_bib, run.read_diagnostics = read_input(run.document)
    run.claims, run.total_citations = _first_citations(claims, opts.limit)
    if run.bib_paths:
        run.bib = given_bibliography(run.document, run.own_bib, load_bibliographies(run.bib_paths, opts.collection))
    else:
        run.bib = run.own_bib if run.own_bib is not None else Bibliography()
    for d in opts.source_dirs:
        if not Path(d).exists():
            raise InputError(f"{d}: --sources folder not found; check the path (it is read relative to where citeproof runs)")
        if not Path(d).is_dir():
            raise InputError(f"{d}: --sources must be a folder of PDF/Markdown/text/HTML files, and this is a file")
    run.duplicate_keys = {d.message.split("'")[1] for d in run.bib.diagnostics if d.code == "bib-duplicate-key" and "'" in d.message}
    run.cited = list(dict.fromkeys(c.citekey for cl in run.claims for c in cl.citations))


def _open_sources(run: _Run) -> None:
    """Stage 2: each cited work's source, found and parsed (:func:`resolve_sources`), then completed online when asked."""
    opts = run.opts
    run.cache = cache = Cache((opts.cache_dir or default_cache_dir()) if opts.use_cache else None)
    confine = None
    if opts.confine_to is not None:
        # the document's own .bib (in an unpacked bundle, say) was read from inside the allowed folders: its own folder counts
        own = [p.parent for p in run.own_bib.files] if run.own_bib is not None and not run.bib_paths else []
        confine = [Path(opts.confine_to)] + own
    run.resolver = resolver = SourceResolver([p.parent for p in run.bib.files], list(opts.source_dirs), cache, confine=confine, ocr=check_mode(opts.ocr or "auto"))
    run.sources = resolve_sources(run.cited, run.reference, resolver, opts.progress)
    if opts.online or opts.offline:  # the only door to the network (issue 12)
        from citeproof.sources.online import OnlineSession, OnlineSettings

        run.online = OnlineSession(OnlineSettings(email=opts.email, offline=opts.offline), cache.folder, cache)
        run.online.complete({k: r for k in run.cited if (r := run.reference(k)) is not None}, run.sources, opts.progress)


def _judge_citations(run: _Run) -> None:
    """Stage 3: every citation judged (retrieval, the tiers, the detectors; a compound claim in parts), reusing cached judgements."""
    opts, sources, reference = run.opts, run.sources, run.reference
    run.tiers = tiers = Tiers(opts.tiers, run.cache.folder, opts.llm)
    run.judgements = JudgementCache(run.cache, tiers.used, opts.settings)  # reuses what nothing changed (issue 15 part 3)

    def judge_one(pair: tuple[Claim, Citation]) -> Finding:
        claim, cite = pair
        with tiers.lock:
            return _judge_citation(claim, cite, reference(cite.citekey), sources.get(cite.citekey), tiers, run.bib, run.duplicate_keys)

    workers = max(1, getattr(opts.llm, "concurrency", 1)) if tiers.llm is not None else 1
    with ThreadPoolExecutor(max_workers=workers) if workers > 1 else _Serial() as pool:
        def judge_in_order(fn: Callable, pairs: list[tuple[Claim, Citation]]):  # in order; LLM requests overlap when workers > 1
            pairs = list(pairs)
            try:
                tiers.prefetch([(claim, sources.get(cite.citekey)) for claim, cite in pairs if reference(cite.citekey) is not None], opts.progress)
            except Exception:  # noqa: BLE001 - only a head start: each citation embeds what it needs, and reports its own failure
                logging.getLogger(__name__).warning("dense prefetch failed; citations embed their own pools", exc_info=True)
            return pool.map(fn, pairs)

        run.findings = run.judgements.judge_all(run.claims, reference, sources, run.duplicate_keys, judge_one,
                                                lambda fresh: judge_in_parts(fresh, tiers), opts.progress, judge_in_order)


def _close_online(run: _Run) -> None:
    """Stage 4: the online lookups' marks on the findings (retracted, open access...), and the session closed."""
    if run.online is not None:
        run.online.annotate(run.findings)
        run.online.close()


def _llm_notes(tiers: Tiers, notes: list[str], diagnostics: list[Diagnostic]) -> dict:
    """The LLM tier's metadata (``{"llm": ...}``, ``{}`` when it did not run); its budget stop and an unreachable endpoint are added to ``notes`` and ``diagnostics``."""
    if tiers.llm is None:
        return {}
    cfg = tiers.llm.client.config
    meta = {"llm": {"url": cfg.url, "model": cfg.model, "second_model": cfg.second_model, "max_cost": cfg.max_cost, **tiers.llm.client.account.to_dict()}}
    if tiers.llm.client.account.budget_stopped:
        notes.append(f"llm tier stopped: --llm-max-cost {cfg.max_cost:g} reached; later citations kept the offline tiers' verdict (flag llm_budget)")
    if tiers.llm.client.account.deadline_stopped:
        notes.append(f"llm tier stopped: its deadline --llm-deadline {cfg.deadline_s:g} s passed; later citations kept the offline tiers' verdict (flag llm_deadline)")
    if tiers.llm.client.account.usage_estimated:
        notes.append(f"llm: {tiers.llm.client.account.usage_estimated} replies gave no valid token usage; each was counted as its worst case "
                     "(estimated prompt tokens plus the completion tokens asked for) against the budget")
    unreachable = tiers.llm.client.unreachable
    tiers.llm.client.close()
    if unreachable:  # said once, where the user looks, not only in each finding's reasons
        notes.append("llm tier not run: the endpoint could not be reached; every finding kept the offline tiers' verdict")
        diagnostics.append(Diagnostic("llm-unreachable", "error", unreachable + "; every finding kept the offline tiers' verdict", str(cfg.url)))
    return meta


def _report(run: _Run) -> Report:
    """Stage 5: the :class:`Report`: notes, diagnostics (bibliography, reader, online, LLM, cache, errors) and metadata."""
    opts, tiers, cache, clock = run.opts, run.tiers, run.cache, run.clock
    notes = list(tiers.notes)
    if opts.limit is not None and run.total_citations > opts.limit:
        notes.append(f"--limit {opts.limit}: judged the first {opts.limit} of {run.total_citations} citations")
    diagnostics = list(run.bib.diagnostics) + [d for d in run.read_diagnostics if d not in run.bib.diagnostics]
    diagnostics += run.online.diagnostics() if run.online is not None else []
    llm_meta = _llm_notes(tiers, notes, diagnostics)
    if cache.warning:
        diagnostics.append(Diagnostic("cache-reset", "warning", cache.warning, str(cache.folder)))
    vectors = getattr(tiers.loaded("dense"), "cache", None)
    for w in getattr(vectors, "warnings", []):
        diagnostics.append(Diagnostic("cache-reset", "warning", w, str(cache.folder)))
    diagnostics.extend(error_diagnostics(run.findings))
    cited = set(run.cited)
    diagnostics.extend(run.helped.diagnostics if run.helped is not None else [])
    notes += run.helped.notes if run.helped is not None else []
    return Report(
        document=str(run.document),
        findings=run.findings,
        diagnostics=diagnostics,
        metadata={
            "citeproof_version": __version__,
            "tiers": tiers.used,
            "tier_notes": notes,
            "bibliographies": [str(p) for p in run.bib.files],
            "source_dirs": [str(d) for d in opts.source_dirs],
            "cache": str(cache.folder) if cache.folder else None,
            "judgement_cache": run.judgements.metadata(),
            "assist": {"reused": run.helped.reused if run.helped is not None else 0},
            "timings_s": {
                "read": round(clock["read"] - clock["start"], 3),
                "sources": round(clock["sources"] - clock["read"], 3),
                "judge": round(clock["end"] - clock["sources"], 3),
                "total": round(clock["end"] - clock["start"], 3),
                "assist": round(clock.get("assist", 0.0), 3),
            },
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **({"online": run.online.metadata()} if run.online is not None else {}),
            **llm_meta,
        },
        references={k: v for k, v in run.bib.entries.items() if k in cited},
        sources=run.sources,
        uncited=run.helped.uncited if run.helped is not None else [],
    )


def assist_stage(document: Path, claims: list[Claim], findings: list[Finding], bib: Bibliography, resolver: SourceResolver,
                 sources: dict[str, Source], opts: CheckOptions, tiers: Tiers):
    """The assist stage (issue 25, :func:`citeproof.assist.stage.run_assist`): suggestions from the user's library,
    corrected locators, inconsistent citations of one work and uncited claims; fills ``findings`` in place.

    Returns:
        A :class:`citeproof.assist.stage.AssistResult` (empty when ``opts.assist`` is False).
    """
    from citeproof.assist.stage import AssistResult, run_assist

    if not opts.assist:
        return AssistResult()
    from citeproof.assist.memo import Memo

    return run_assist(document, claims, findings, bib.entries, resolver.resolve, sources, list(opts.source_dirs),
                      lambda p: resolver.load(p.stem, p, "a --sources file (library search)"), tiers,
                      Memo(resolver.cache, tiers.used, opts.settings))


def error_diagnostics(findings: list[Finding]) -> list[Diagnostic]:
    """One ``internal-error`` diagnostic per finding whose verdict is ``error``, so none passes silently.

    Args:
        findings: the run's findings.

    Returns:
        Diagnostics (severity ``error``) naming the document, line, citekey
        and the exception text the finding's first reason carries.
    """
    out = []
    for f in findings:
        if f.verdict == Verdict.ERROR:
            why = f.reasons[0] if f.reasons else "internal error"
            out.append(Diagnostic("llm-reply-refused" if "llm_reply_refused" in f.flags else "internal-error", "error", f"{f.claim.document}:{f.claim.line}: citation '{f.citation.citekey}': {why}", f.claim.document, f.claim.line))
    return out


def _first_citations(claims: list[Claim], limit: int | None) -> tuple[list[Claim], int]:
    """The claims holding the first ``limit`` citations in document order (the last one cut), and the total count."""
    from dataclasses import replace

    total = sum(len(cl.citations) for cl in claims)
    if limit is None or total <= limit:
        return claims, total
    out: list[Claim] = []
    left = max(0, limit)
    for cl in claims:
        if left <= 0:
            break
        out.append(cl if len(cl.citations) <= left else replace(cl, citations=cl.citations[:left]))
        left -= len(cl.citations)
    return out, total


_TIERS_CACHE: dict[tuple[str, ...], Tiers] = {}


def judge_text(claim_text: str, source_text: str, *, citekey: str = "src", signal: str | None = None, tiers: list[str] | None = None) -> Finding:
    """Judge one claim against one plain-text source, in memory, with the full pipeline.

    Retrieval, the deciding judge, the detectors and the judging of a compound claim in parts run as in :func:`check`
    (every available tier unless ``tiers`` names some; models are loaded
    once per process).

    For evaluation harnesses and library users with text in hand.

    Args:
        claim_text: the claim, citation markup already removed.
        source_text: the source's text; paragraphs separated by blank lines.
        citekey: the name to give the source in the finding.
        signal: the citation's signal, if any.
        tiers: tier names to run (None: every available tier).

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
    key = tuple(sorted(tiers)) if tiers else ()
    if key not in _TIERS_CACHE:
        _TIERS_CACHE[key] = Tiers(list(key) or None)
    finding = _judge_citation(claim, cite, ref, src, _TIERS_CACHE[key], None, set())
    judge_in_parts([finding], _TIERS_CACHE[key])  # a compound claim is judged in parts, as check does
    return finding
