"""``batch``, ``verify``, ``ask``, ``serve``, ``version``, ``demo``, ``cache prune`` and the root options."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from citeproof import __version__
from citeproof.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, CiteproofError
from citeproof.reports import write_reports as _write_reports

from citeproof.cli._common import (
    SourceArg,
    app,
    out,
    err,
    BibOpt,
    SourcesOpt,
    QuietOpt,
    CacheOpt,
    NoCacheOpt,
    LlmUrlOpt,
    LlmModelOpt,
    LlmMaxCostOpt,
    LlmPriceOpt,
    LlmTimeoutOpt,
    _llm_config,
    _n,
    _fail,
    _progress_runner,
    _summary_table,
)


@app.command()
def batch(
    target: Annotated[Path, typer.Argument(metavar="MANIFEST.json|DIR", help="A manifest {\"documents\": [{\"path\", \"bib\": [...], \"sources\": [...]}]} or a folder of citing documents.", show_default=False)],
    out_dir: Annotated[Path, typer.Option("--out", "-o", metavar="DIR", help="Output folder: batch.jsonl, index.html, reports/.")] = Path("citeproof-batch"),
    address: Annotated[Optional[str], typer.Option("--address", metavar="ray://HOST:PORT|auto", help="Join this Ray cluster (inputs and cache on a shared file system) instead of starting a local Ray.")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", min=1, help="CPUs of the local Ray (default: all).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMATS", help="Report formats per document besides JSON: md, html, sarif.")] = "md,json",
    fail_on: Annotated[str, typer.Option("--fail-on", metavar="VERDICTS", help="Exit 1 when any document has a finding with one of these verdicts.")] = "",
    tier: Annotated[Optional[list[str]], typer.Option("--tier", metavar="TIER", help="Tiers to run, as for check.")] = None,
    cache_dir: CacheOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Check many citing documents as Ray tasks; each source is parsed once for the whole batch.

    A folder: every .md/.tex/.tar.gz in it, each with the .bib of its name
    (or the folder's only .bib) and the 'sources' folder beside it. Writes
    one JSONL record per document, its reports, and index.html (worst
    citations across the corpus, most-cited works without a source). A re-run
    skips documents whose inputs are unchanged; a failing document is a record
    with its error. Exit 1 when a document failed or --fail-on matched.

        citeproof batch papers/ --out audit/ --workers 2
        citeproof batch manifest.json --address ray://head:10001 --tier lexical
    """
    from citeproof.batch import load_batch, run_batch
    from citeproof.reports import get_writer
    from citeproof.sources.cache import default_cache_dir

    try:
        formats = [f.strip() for f in fmt.split(",") if f.strip()]
        for f in formats:
            get_writer(f)
        docs = load_batch(target)
        cb, ctx = _progress_runner(quiet)
        with ctx:
            records = run_batch(docs, out_dir, cache_dir=cache_dir or default_cache_dir(), tiers=tier, formats=formats,
                                address=address, workers=workers, progress=cb)
    except CiteproofError as exc:
        _fail(exc)
        return
    wanted = {x.strip().lower() for x in fail_on.split(",") if x.strip()}
    failed = [r for r in records if r.get("error")]
    flagged = [r for r in records if not r.get("error") and any((r.get("summary") or {}).get("verdicts", {}).get(v) for v in wanted)]
    for r in failed:
        err.print(f"{r['document']}: failed: {r['error']}", markup=False, highlight=False)
    if not quiet:
        resumed = sum(1 for r in records if r.get("resumed"))
        out.print(f"{_n(len(records), 'document')} ({len(failed)} failed, {resumed} unchanged since the last run); see {out_dir / 'index.html'}", markup=False, highlight=False)
    raise typer.Exit(EXIT_FINDINGS if failed or flagged else EXIT_OK)


@app.command()
def verify(
    report: Annotated[Path, typer.Argument(metavar="REPORT.json", help="A JSON report written by check.", show_default=False)],
    quiet: QuietOpt = False,
) -> None:
    """Show that the report's quotes and sources are still what was read.

    Each quoted passage must hash, along the audit path the report keeps,
    to the Merkle root recorded for its source, and each source file on
    disk must still give that root. Exit 1 when a quote or a source fails.

        citeproof verify out/draft.citeproof.json
    """
    from citeproof.reports.diff import load_report
    from citeproof.verify import verify_report

    try:
        res = verify_report(load_report(report))
    except CiteproofError as exc:
        _fail(exc)
        return
    for s in res.sources:
        if not quiet or s.status not in ("unchanged", "same text"):
            out.print(f"{s.status:10} {s.path}{': ' + s.detail if s.detail else ''}", markup=False, highlight=False)
    for f in res.bad_quotes:
        out.print(f"bad quote  {f.get('document')}:{f.get('line')} [{f.get('citekey')}]: the quoted passage does not hash to its source's root",
                  markup=False, highlight=False)
    if not quiet:
        out.print(f"{res.quotes_checked - len(res.bad_quotes)} of {_n(res.quotes_checked, 'quote')} verified; "
                  f"{sum(s.status in ('unchanged', 'same text') for s in res.sources)} of {_n(len(res.sources), 'source')} as read", highlight=False)
    raise typer.Exit(EXIT_OK if res.ok else EXIT_FINDINGS)


@app.command()
def ask(
    source: SourceArg,
    question: Annotated[str, typer.Argument(help="The question, in quotes.", show_default=False)],
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    llm_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_max_cost: LlmMaxCostOpt = None,
    llm_price: LlmPriceOpt = None,
    llm_timeout: LlmTimeoutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ask one source one question: the LLM's answer with its quotes, each checked against the source, and their pages.

        citeproof ask smith2020 "does it say expense ratios fall after 2010?" --bib refs.bib --llm-url http://127.0.0.1:11434/v1 --llm-model qwen3:8b
    """
    import json as _json

    from citeproof.judges.llm import LLMError
    from citeproof.single_source import ask_source

    try:
        cfg = _llm_config(llm_url, llm_model, None, llm_max_cost, llm_price, cache_dir, no_cache, timeout=llm_timeout)
        res = ask_source(source, question, cfg, list(bib or []), list(sources or []), cache_dir, not no_cache)
    except CiteproofError as exc:
        _fail(exc)
        return
    except LLMError as exc:
        _fail(CiteproofError(str(exc)))
        return
    if as_json:
        out.print(_json.dumps(res, indent=2), highlight=False, markup=False)
    else:
        out.print(f"source: {res['source']}", highlight=False, markup=False)
        out.print(f"answer ({res['model']}): {res['answer'] if res['answer'] else 'no valid answer: ' + str(res['error'])}", highlight=False, markup=False)
        for q in res["quotes"]:
            if q["grounded"]:
                where = f"p. {q['page']}" if q["page"] else f"chars {q['char_start']}-{q['char_end']}"
                out.print(f"  [{where}] \"{q['source_text']}\"", highlight=False, markup=False)
            else:
                out.print(f"  [ungrounded: not found in the source] \"{q['text']}\"", highlight=False, markup=False)
        out.print(f"tokens: {res['prompt_tokens']} prompt + {res['completion_tokens']} completion", highlight=False, markup=False)
        if cfg.price_prompt is not None:
            out.print(f"cost: {res['cost']:.6f} (at --llm-price {cfg.price_prompt:g},{cfg.price_completion:g} per million tokens)", highlight=False, markup=False)
        else:
            out.print("cost: not counted (give --llm-price IN,OUT, per million prompt and completion tokens)", highlight=False, markup=False)
    raise typer.Exit(EXIT_OK if res["answer"] else EXIT_FINDINGS)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on. Keep 127.0.0.1 unless you mean to share the page.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    jobs_dir: Annotated[Optional[Path], typer.Option("--jobs-dir", help="Folder holding one sub-folder per job. Default: $CITEPROOF_JOBS_DIR or ~/.cache/citeproof/jobs.")] = None,
    cache_dir: CacheOpt = None,
    single_user: Annotated[bool, typer.Option("--single-user", help="List recent jobs on the start page (only when you alone use this server: otherwise a job is reachable only by its own link).")] = False,
    allowed_host: Annotated[Optional[list[str]], typer.Option("--allowed-host", metavar="NAME", help="Host name the page may be opened by, repeatable (default: localhost, 127.0.0.1, ::1 and --host). Requests naming another Host are refused (DNS rebinding).")] = None,
) -> None:
    """Serve the web page: upload a draft and its sources, read the report.

        citeproof serve --port 8000      then open http://127.0.0.1:8000/
    """
    try:
        import uvicorn

        from citeproof.web.app import create_app
    except ImportError as exc:
        err.print(f"error: the web page needs FastAPI and uvicorn ({exc.name} is missing): pip install 'citeproof[web]'", highlight=False)
        raise typer.Exit(EXIT_USAGE)
    from citeproof.web.security import LOOPBACK_HOSTS

    hosts = list(LOOPBACK_HOSTS) + ([host] if host not in ("0.0.0.0", "::", "") else []) + list(allowed_host or [])
    application = create_app(jobs_dir=jobs_dir, cache_dir=cache_dir, single_user=single_user, allowed_hosts=hosts)
    out.print(f"citeproof web page on http://{host}:{port}/ (jobs in {application.state.jobs.root}); Ctrl+C stops it", highlight=False)
    uvicorn.run(application, host=host, port=port, log_level="warning")


@app.command()
def version() -> None:
    """Print citeproof's version (also: citeproof --version)."""
    out.print(f"citeproof {__version__}", highlight=False)


def _version_flag(value: bool) -> None:
    if value:
        out.print(f"citeproof {__version__}", highlight=False)
        raise typer.Exit(EXIT_OK)


LOG_LEVELS = ("debug", "info", "warning", "error")


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option("--version", callback=_version_flag, is_eager=True, help="Print the version and exit.")] = False,
    verbose: Annotated[int, typer.Option("--verbose", "-v", count=True, help="Log more on stderr: -v info, -vv debug (before the command: citeproof -v check ...).")] = 0,
    log_level: Annotated[Optional[str], typer.Option("--log-level", metavar="LEVEL", help="Log level on stderr: debug, info, warning (default) or error.")] = None,
) -> None:
    """Does the cited source actually say this?"""
    if log_level is not None and log_level.lower() not in LOG_LEVELS:
        _fail(CiteproofError(f"--log-level: choose from {', '.join(LOG_LEVELS)}, not {log_level!r}"))
    level = log_level.upper() if log_level else "DEBUG" if verbose >= 2 else "INFO" if verbose == 1 else "WARNING"
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(getattr(logging, level))  # also holds back libraries that set their own loggers to DEBUG (bm25s)
    logging.basicConfig(level=getattr(logging, level), format="%(levelname)s %(name)s: %(message)s", handlers=[handler], force=True)


cache_app = typer.Typer(help="The cache of parsed sources and passage vectors.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(cache_app, name="cache")


@cache_app.command("prune")
def cache_prune(
    cache_dir: CacheOpt = None,
    older_than: Annotated[Optional[float], typer.Option("--older-than", metavar="DAYS", help="Delete only entries not used for this many days (default: every entry).")] = None,
) -> None:
    """Delete cached entries (all, or those unused for --older-than DAYS) and damaged databases moved aside (.broken).

        citeproof cache prune --older-than 30
    """
    from citeproof.sources.cache import default_cache_dir, prune

    folder = cache_dir or default_cache_dir()
    try:
        res = prune(folder, older_than)
    except CiteproofError as exc:
        _fail(exc)
        return
    out.print(
        f"{folder}: deleted {_n(res['parsed'], 'parsed source')}, {_n(res['vectors'], 'passage vector')}, {_n(res['broken_files'], 'damaged file')}, {_n(res.get('judgements', 0), 'cached judgement')}; "
        f"{res['bytes_before'] / 1e6:.1f} MB -> {res['bytes_after'] / 1e6:.1f} MB",
        highlight=False,
    )




@app.command()
def demo(
    planted: Annotated[bool, typer.Option("--planted", help="Also plant errors into the judged citations and show which were caught.")] = False,
    out_dir: Annotated[Path, typer.Option("--out", "-o", metavar="DIR", help="Folder for the reports.")] = Path("out/demo"),
    seed: Annotated[int, typer.Option("--seed", help="Seed for --planted.")] = 7,
    quiet: QuietOpt = False,
) -> None:
    """Check the bundled real sample (a Manubot manuscript and five works it cites).

        citeproof demo --planted
    """
    from citeproof.pipeline import CheckOptions
    from citeproof.pipeline import check as run_check
    from citeproof.reports import get_writer

    from citeproof.cli.evals import _sample_dir

    sample = _sample_dir()
    doc, bib = sample / "citing" / "meta-review.md", sample / "meta-review.bib"
    if not doc.exists():
        _fail(CiteproofError(f"{doc}: the demo sample is not here; run citeproof demo from a clone of the repository"))
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(CiteproofError(f"{out_dir}: cannot create the report folder ({exc.strerror})"))
    cb, ctx = _progress_runner(quiet)
    with ctx:
        report = run_check(doc, [bib], CheckOptions(progress=cb))
    try:
        written, _ = _write_reports(report, [get_writer(f) for f in ("md", "json", "html")], out_dir, doc.stem)
    except CiteproofError as exc:
        _fail(exc)
        return
    if not quiet:
        out.print(_summary_table(report))
        for p in written:
            out.print(f"report: {p}", highlight=False)
    if planted:
        from citeproof.eval.demo_planted import format_demo_planted, plant_demo

        rows = plant_demo(report, seed=seed)
        path = out_dir / f"{doc.stem}.planted.md"
        path.write_text(format_demo_planted(rows), encoding="utf-8")
        t = Table(title="planted errors in the demo")
        for col in ("line", "citekey", "planted", "untouched", "planted version", "caught"):
            t.add_column(col, overflow="fold")
        for r in rows:
            t.add_row(str(r.line), r.citekey, r.kind, r.before.verdict.value, r.after.verdict.value + ("; " + ", ".join(x.name for x in r.after.tags) if r.after.tags else ""), "yes" if r.caught else "missed")
        out.print(t)
        out.print(f"caught {sum(r.caught for r in rows)} of {len(rows)} planted errors; details: {path}", highlight=False)
