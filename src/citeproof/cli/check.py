"""The ``check``, ``gate`` and ``audit`` commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from citeproof.config import apply_settings, check_bibliographies, settings_for
from citeproof.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, CiteproofError
from citeproof.model import Verdict
from citeproof.reports import report_stem as _stem
from citeproof.reports import write_reports as _write_reports

from citeproof.cli._common import (
    app,
    out,
    err,
    DocArg,
    DocsArg,
    ConfigOpt,
    BibOpt,
    SourcesOpt,
    QuietOpt,
    CacheOpt,
    NoCacheOpt,
    OnlineOpt,
    EmailOpt,
    OfflineOpt,
    OcrOpt,
    LlmUrlOpt,
    LlmModelOpt,
    LlmSecondOpt,
    LlmMaxCostOpt,
    LlmConcurrencyOpt,
    LlmDeadlineOpt,
    LlmPriceOpt,
    LlmTimeoutOpt,
    LimitOpt,
    _llm_config,
    _has_own_bibliography,
    _with_zotero,
    CollectionOpt,
    ZoteroOpt,
    _latex_confinement,
    _n,
    _fail,
    _bib_errors_code,
    _online_offline,
    _no_bibliography,
    _progress_runner,
    _summary_table,
    _first_screen,
    RUN,
)


@app.command()
def check(
    documents: DocsArg,
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    zotero: ZoteroOpt = None,
    collection: CollectionOpt = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", "-o", metavar="DIR", help="Folder for the reports (default: beside the document); '-' writes the JSON report to stdout (one line per document when several).")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", metavar="FORMATS", help="Report formats, comma-separated: md, json, html, sarif, tex, pdf (tex and pdf need pandoc; pdf also LuaLaTeX). Default: md,json.")] = None,
    fail_on: Annotated[Optional[str], typer.Option("--fail-on", metavar="VERDICTS", help="Exit 1 when any finding has one of these verdicts (comma-separated, e.g. unsupported,contradicted); 'unknown' for unknown citekeys.")] = None,
    tier: Annotated[Optional[list[str]], typer.Option("--tier", metavar="TIER", help="Tiers to run, repeatable: lexical, dense, entailment, llm (default: the offline ones available). The lexical tier always runs.")] = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    online: OnlineOpt = False,
    email: EmailOpt = "",
    offline: OfflineOpt = False,
    ocr: OcrOpt = None,
    quiet: QuietOpt = False,
    baseline: Annotated[Optional[Path], typer.Option("--baseline", metavar="REPORT.json", help="A previous JSON report: --fail-on then counts only findings that are new or changed since it.")] = None,
    review: Annotated[Optional[Path], typer.Option("--review", metavar="FILE", help="Review decisions to carry over (default: <stem>.citeproof.review.json in the report folder, when it exists); --fail-on skips findings marked false alarm or accepted.")] = None,
    config: ConfigOpt = None,
    allow_outside: Annotated[bool, typer.Option("--allow-outside", help="Let a LaTeX document (\\input, \\bibliography, its .bib's file fields) read files outside its own folder, or outside the bundle for an arXiv .tar.gz.")] = False,
    llm_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_second_model: LlmSecondOpt = None,
    llm_max_cost: LlmMaxCostOpt = None,
    llm_price: LlmPriceOpt = None,
    llm_concurrency: LlmConcurrencyOpt = None,
    llm_timeout: LlmTimeoutOpt = None,
    llm_deadline: LlmDeadlineOpt = None,
    limit: LimitOpt = None,
    show: Annotated[int, typer.Option("--show", metavar="N", min=0, help="List the first N findings worth a look (worst first) on the terminal, one line each; 0: none.")] = 10,
    annotate: Annotated[Optional[Path], typer.Option("--annotate", metavar="DIR", help="Also write into DIR copies of the cited PDFs with a highlight and a note on each evidence box, and of a .docx document with a Word comment at each flagged citation; the originals are not changed.")] = None,
) -> None:
    """Check every citation against its source and write the report.

    Writes <stem>.citeproof.md and <stem>.citeproof.json beside the document
    (or in --out); --format html,sarif adds a self-contained HTML page and a
    SARIF 2.1.0 log for code scanning. A LaTeX file or arXiv bundle brings its
    own .bib/.bbl and a PDF its printed reference list, so --bib is optional
    for them. Several documents are checked one after the other; the exit
    code is the worst of theirs. Settings missing from the command line come
    from .citeproof.toml or [tool.citeproof] in pyproject.toml.

    Reading the report: supported needs the entailment judge to confirm the
    meaning on a named sentence; partial means read the passage. A tag marked
    "proven by code" quotes the words that differ between the claim and the
    source sentence that restates it, and makes the verdict unsupported or
    contradicted; other tags at confidence 0.6 or more lower supported to
    partial, and weaker ones are there to read, changing nothing. The flag
    needs_review marks a finding whose tiers disagree or whose judge leaned
    hard the other way (a verdict a proven tag decided is not marked: its
    quoted words are the check). Exit codes: 0 ok, 1 a --fail-on gate failed, 2 bad
    invocation or unreadable required input.

    Examples (one a line):

    \b
      citeproof check draft.md --bib refs.bib --sources pdfs/ --format md,html,sarif --fail-on unsupported,contradicted
      citeproof check paper.pdf --sources pdfs/
      citeproof check draft.md --bib refs.bib --out - | jq .summary
      citeproof check thesis.docx --sources pdfs/
      citeproof check answer.json
    """
    try:
        _online_offline(online, offline)
        settings = settings_for(documents[0], config)
        given = _with_zotero(bib, zotero, collection)
        if not given:
            check_bibliographies(settings)
    except CiteproofError as exc:
        _fail(exc)
        return
    run = dict(
        bib=given or list(settings.bibliographies),
        collection=collection,
        sources=list(sources or settings.sources),
        out_dir=out_dir or settings.out,
        fmt=fmt or settings.format or "md,json",
        fail_on=fail_on if fail_on is not None else settings.fail_on,
        tier=tier or settings.tiers,
        cache_dir=cache_dir or settings.cache_dir,
        no_cache=no_cache,
        quiet=quiet,
        baseline=baseline,
        review=review,
        allow_outside=allow_outside,
        online=online,
        email=email,
        offline=offline,
        ocr=ocr,
        llm_url=llm_url,
        llm_model=llm_model,
        llm_second_model=llm_second_model,
        llm_max_cost=llm_max_cost,
        llm_price=llm_price,
        llm_concurrency=llm_concurrency,
        llm_timeout=llm_timeout,
        llm_deadline=llm_deadline,
        limit=limit,
        settings=settings,
        show=show,
        annotate=annotate,
    )
    codes = []
    for doc in documents:
        RUN["file"] = str(doc)  # named by an unexpected error's one line
        codes.append(_check_one(doc, **run))
    raise typer.Exit(max(codes))


def _check_one(document: Path, *, bib: list[Path], collection: str | None, sources: list[Path], out_dir: Path | None, fmt: str, fail_on: str, tier: list[str] | None,
               cache_dir: Path | None, no_cache: bool, quiet: bool, baseline: Path | None, review: Path | None,
               allow_outside: bool, online: bool, email: str, offline: bool, llm_url: str | None, llm_model: str | None,
               llm_second_model: str | None, llm_max_cost: float | None, llm_price: str | None, limit: int | None, settings, llm_concurrency: int | None = None,
               ocr: str | None = None, llm_timeout: float | None = None, llm_deadline: float | None = None, show: int = 10, annotate: Path | None = None) -> int:
    """``check`` for one document; returns its exit code (diagnostics and summary printed)."""
    from citeproof.pipeline import CheckOptions
    from citeproof.pipeline import check as run_check
    from citeproof.reports import get_writer

    to_stdout = out_dir is not None and str(out_dir) == "-"
    say = err if to_stdout else out  # with --out -, stdout carries the JSON alone
    try:
        writers = [get_writer(f) for f in fmt.split(",") if f.strip()]
        wanted_fail = {x.strip().lower() for x in fail_on.split(",") if x.strip()}
        bad = wanted_fail - {v.value for v in Verdict} - {"unknown"}
        if bad:
            raise CiteproofError(f"--fail-on: unknown verdict(s) {', '.join(sorted(bad))}; choose from {', '.join(v.value for v in Verdict)}, unknown")
        if not bib and not sources and not _has_own_bibliography(document):
            raise _no_bibliography(document, "give a bibliography with --bib refs.bib, or a folder of sources with --sources DIR (or name them in .citeproof.toml)")
        from citeproof.pipeline import KNOWN_TIERS

        unknown_tiers = [t for t in tier or [] if t not in KNOWN_TIERS]
        if unknown_tiers:
            raise CiteproofError(f"--tier: unknown tier(s) {', '.join(unknown_tiers)}; choose from {', '.join(KNOWN_TIERS)}")
        llm = _llm_config(llm_url, llm_model, llm_second_model, llm_max_cost, llm_price, cache_dir, no_cache, llm_concurrency,
                          llm_timeout, llm_deadline) if "llm" in (tier or []) else None
        if limit is not None and limit < 1:
            raise CiteproofError(f"--limit must be at least 1, got {limit}")
        target = document.parent if out_dir is None or to_stdout else out_dir
        if not to_stdout and target.exists() and not target.is_dir():
            raise CiteproofError(f"{target}: --out must be a folder, and this is a file")
        base = None
        if baseline is not None:
            from citeproof.reports.diff import load_report

            base = load_report(baseline)
        cb, ctx = _progress_runner(quiet)
        opts = CheckOptions(source_dirs=list(sources), cache_dir=cache_dir, use_cache=not no_cache, tiers=tier, progress=cb, llm=llm, limit=limit)
        apply_settings(opts, settings)
        opts.collection = collection
        confine, reads = _latex_confinement(document, bool(bib), allow_outside)
        opts.confine_to = confine
        if online or offline or email:  # the command line wins over the config file
            opts.online, opts.offline, opts.email = online or opts.online, offline or opts.offline, email or opts.email
        if ocr:
            opts.ocr = ocr
        with ctx, reads:
            report = run_check(document, list(bib), opts)
        from citeproof.reports import make_utf8_safe

        make_utf8_safe(report)  # a file name that is not UTF-8 is shown escaped in reports, on the console and in the history
        from citeproof.reports.review import attach_review, load_review, review_path

        sidecar = review or review_path(target, _stem(document))
        if review is not None or sidecar.is_file():
            counts = attach_review(report, load_review(sidecar))
            if not quiet and any(counts.values()):
                err.print(f"review {sidecar}: {_n(counts['carried'], 'decision')} carried over, {counts['stale']} stale (claim or source changed), "
                          f"{counts['orphaned']} without a matching citation", markup=False, highlight=False)
        if to_stdout:
            from citeproof.reports.json import report_to_dict

            sys.stdout.write(json.dumps(report_to_dict(report), ensure_ascii=False, separators=(",", ":")) + "\n")
            sys.stdout.flush()
            written, skipped = [], []
        else:
            try:
                target.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CiteproofError(f"{exc.filename or target}: cannot write the report there ({exc.strerror}); choose another --out folder") from None
            written, skipped = _write_reports(report, writers, target, _stem(document))
        if annotate is not None:  # issue 25: findings written back into copies of the PDFs and the Word document
            from citeproof.assist.annotate import annotate as write_annotations

            marked = write_annotations(report, annotate)
            written += marked.written
            skipped += [("annotate", why) for why in marked.notes]
    except CiteproofError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return getattr(exc, "exit_code", EXIT_USAGE)
    if report.metadata.get("cache"):
        from citeproof.history import record_run
        from citeproof.triage import summarise

        why = record_run(report, Path(report.metadata["cache"]), summarise(report.findings))
        if why:
            err.print(f"warning: {why}", highlight=False)
    for d in report.diagnostics:
        err.print(f"{d.severity}: {d.message}", highlight=False)
    for name, why in skipped:
        err.print(f"warning: {name} report not written: {why}", highlight=False)
    for note in report.metadata.get("tier_notes", []):
        if note.startswith(("llm", "--limit")):
            err.print(f"note: {note}", highlight=False)
    if not quiet:
        _first_screen(say, report, show)
        if "llm" in report.metadata:
            m = report.metadata["llm"]
            cost = f", cost {m['cost']:.4f}" if llm and llm.price_prompt is not None else ""
            say.print(f"llm {m['model']}: {_n(m['calls'], 'call')} ({m['cached_calls']} from the cache), {m['prompt_tokens']} prompt + {_n(m['completion_tokens'], 'completion token')}{cost}", highlight=False)
        reuse = report.metadata.get("judgement_cache") or {}
        if reuse.get("reused"):
            say.print(f"judgements: {reuse['reused']} reused from the cache, {reuse['judged']} judged (--no-cache judges all)", highlight=False)
        from citeproof.reports import utf8_safe

        for p in written:
            say.print(f"report: {utf8_safe(str(p))}", highlight=False, markup=False)
    from citeproof.reports.review import dismissed

    # a unit that holds no claim (a table row of names, a Manubot alias line) is kept in the report but fails no gate;
    # an unknown citekey there still does
    failing = [f for f in report.findings
               if ((f.verdict.value in wanted_fail and "not_a_claim" not in f.flags) or ("unknown" in wanted_fail and "unknown_citekey" in f.flags))
               and not dismissed(report, f)]
    if failing and base is not None:
        from citeproof.reports.diff import new_or_changed_ids
        from citeproof.reports.json import finding_to_dict, report_to_dict

        fresh = new_or_changed_ids(base, report_to_dict(report))
        before = len(failing)
        failing = [f for f in failing if finding_to_dict(f)["id"] in fresh]
        if not quiet and before > len(failing):
            err.print(f"--baseline {baseline}: {before - len(failing)} of {before} failing findings were already in the baseline", highlight=False)
    if failing:
        from collections import Counter

        counts = Counter("unknown citekey" if "unknown_citekey" in f.flags and "unknown" in wanted_fail else f.verdict.value for f in failing)
        # the same counts as the summary: a verdict's rows that hold no claim are named, never counted as failing
        nac = Counter(f.verdict.value for f in report.findings if "not_a_claim" in f.flags and f.verdict.value in wanted_fail)
        err.print(f"failing (--fail-on {fail_on}): " + ", ".join(f"{n} {v}" + (f" (of {n + nac[v]}; {nac[v]} not a claim)" if nac.get(v) else "")
                                                               for v, n in counts.items()), highlight=False)
        if quiet:  # -q shows no report on screen: name each failing citation, so a CI log says where to look
            from citeproof.reports.summary import finding_line

            for f in failing[:20]:
                err.print(finding_line(f), highlight=False, markup=False)
            if len(failing) > 20:
                err.print(f"... and {len(failing) - 20} more (the report lists them all)", highlight=False)
    return max(EXIT_FINDINGS if failing else EXIT_OK, _bib_errors_code(report.diagnostics, err))


@app.command()
def gate(
    documents: DocsArg,
    bib: BibOpt = None,
    zotero: ZoteroOpt = None,
    collection: CollectionOpt = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
) -> None:
    """Exit 1 when a citekey of a document is not in the bibliography.

    Reads no source; fast enough for a pre-commit hook (several documents at
    once; the bibliography may come from .citeproof.toml):

    \b
      citeproof gate draft.md --bib refs.bib
    """
    from citeproof.bibliography import load_bibliographies
    from citeproof.documents import given_bibliography, read_document

    codes = []
    for document in documents:
        RUN["file"] = str(document)
        try:
            given = _with_zotero(bib, zotero, collection)
            if not given:
                check_bibliographies(settings_for(document, config))
            bibs = given or list(settings_for(document, config).bibliographies)
            if not bibs and not _has_own_bibliography(document):
                claims, _ = read_document(document)
                if not any(cl.citations for cl in claims):  # a README with no citation and no bibliography is no error
                    if not quiet:
                        out.print(f"{document}: no citation, nothing to check", highlight=False)
                    codes.append(EXIT_OK)
                    continue
                raise _no_bibliography(document, "give the bibliography with --bib refs.bib (or bibliography = \"refs.bib\" in .citeproof.toml)")
            claims, own = read_document(document)
            lib = given_bibliography(document, own, load_bibliographies(bibs, collection)) if bibs else own  # PDF, Word: own keys, enriched
        except CiteproofError as exc:
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            codes.append(getattr(exc, "exit_code", EXIT_USAGE))
            continue
        missing = [(c.line, c.citekey) for cl in claims for c in cl.citations if lib.get(c.citekey) is None]
        total = sum(len(cl.citations) for cl in claims)
        for d in lib.diagnostics:
            err.print(f"{d.severity}: {d.message}", highlight=False)
        bad_bib = _bib_errors_code(lib.diagnostics, err)
        for line, key in missing:
            why = getattr(lib, "unknown_reasons", {}).get(key)
            out.print(f"{document}:{line}: unknown citekey '{key}'" + (f" ({why})" if why else ""), highlight=False)
        if not quiet:
            keys = {k for _, k in missing}
            where = f"{document}: " if len(documents) > 1 else ""
            out.print(where + (f"{_n(total, 'citation')}, {len(missing)} with {'an unknown citekey' if len(missing) == 1 else 'unknown citekeys'} ({len(keys)} distinct)" if missing else f"{_n(total, 'citation')}, every citekey is in the bibliography"), highlight=False)
        codes.append(max(EXIT_FINDINGS if missing else EXIT_OK, bad_bib))
    raise typer.Exit(max(codes))


@app.command()
def audit(
    document: DocArg,
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    zotero: ZoteroOpt = None,
    collection: CollectionOpt = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    online: OnlineOpt = False,
    email: EmailOpt = "",
    offline: OfflineOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """List which cited works have no readable source; exit 1 if any.

    With --online, also which works exist, are open access or retracted, and
    a to-fetch list of the works still without full text.

    \b
      citeproof audit draft.md --bib refs.bib --sources pdfs/ [--online --email me@uni.edu]
    """
    from citeproof.bibliography import Bibliography, load_bibliographies
    from citeproof.documents import given_bibliography, read_document
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache, default_cache_dir

    try:
        _online_offline(online, offline)
        bib = _with_zotero(bib, zotero, collection)
        if not bib and not sources and not _has_own_bibliography(document):
            raise _no_bibliography(document, "give a bibliography with --bib refs.bib, or a folder of sources with --sources DIR")
        claims, own = read_document(document)
        lib = given_bibliography(document, own, load_bibliographies(bib, collection)) if bib else (own or Bibliography())
        for d in sources or []:
            if not d.exists():
                raise CiteproofError(f"{d}: --sources folder not found; check the path")
            if not d.is_dir():
                raise CiteproofError(f"{d}: --sources must be a folder, and this is a file")
        cache = Cache(None if no_cache else (cache_dir or default_cache_dir()))
    except CiteproofError as exc:
        _fail(exc)
        return
    resolver = SourceResolver([p.parent for p in lib.files], list(sources or []), cache)
    counts: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for cl in claims:
        for c in cl.citations:
            counts[c.citekey] = counts.get(c.citekey, 0) + 1
            first_line.setdefault(c.citekey, c.line)
    table = Table(title=f"sources for {document}")
    for col in ("citekey", "citations", "status", "file / reason"):
        table.add_column(col, overflow="fold")
    missing = 0
    from citeproof.model import Reference

    session, online_sources = None, {}
    if online or offline:
        from citeproof.sources.online import OnlineSession, OnlineSettings

        session = OnlineSession(OnlineSettings(email=email, offline=offline), cache.folder, cache)
        refs = {k: r for k in counts if (r := lib.get(k)) is not None}
        online_sources = session.complete(refs, {k: resolver.resolve(k, r) for k, r in refs.items()})
        session.close()
    for key in counts:
        ref = lib.get(key) if (bib or own is not None) else Reference(citekey=key)  # --sources alone: each key stands for itself
        if ref is None and (not sources or own is not None):
            status, detail = "unknown", lib.unknown_reasons.get(key, "citekey not in the bibliography")
        else:
            src = online_sources.get(key) or resolver.resolve(key, ref or Reference(citekey=key))
            if src.usable and src.origin.startswith("online: abstract only"):
                status, detail = "abstract only", src.origin
            elif src.usable:
                status, detail = "ok", f"{src.path} ({src.origin}; {_n(len(src.passages), 'passage')}{', ' + _n(src.pages, 'page') if src.pages else ''})"
                passed = [c for c in src.considered if not c.chosen]
                if passed:
                    detail += "; passed over: " + "; ".join(f"{c.path} ({c.reason})" for c in passed)
            else:
                status, detail = ("unknown" if ref is None else "missing" if src.path is None else "unreadable"), src.error or ""
        if status != "ok":
            missing += 1
        table.add_row(key, str(counts[key]), status, detail)
        if quiet and status != "ok":
            out.print(f"{document}:{first_line[key]}: {key}: {status}: {detail}", highlight=False)
    if cache.warning:
        err.print(f"warning: {cache.warning}", highlight=False)
    for d in lib.diagnostics:
        err.print(f"{d.severity}: {d.message}", highlight=False)
    bad_bib = _bib_errors_code(lib.diagnostics, err)
    if not quiet:
        out.print(table)
        if session is not None:
            out.print(session.audit_table())
            for t in session.to_fetch():
                out.print(f"to fetch: {t['citekey']} | {t['doi'] or '-'} | {t['url'] or '-'} | {t['oa_status']} | {t['state']}", highlight=False, markup=False)
        out.print(f"{len(counts) - missing} of {_n(len(counts), 'cited work')} {'has' if len(counts) == 1 else 'have'} a readable source", highlight=False)
    raise typer.Exit(max(EXIT_FINDINGS if missing else EXIT_OK, bad_bib))
