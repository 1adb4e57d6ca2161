"""The ``citeproof`` command.

Exit codes (:mod:`citeproof.errors`): 0 ok, 1 a gate failed (unknown
citekeys for ``gate``, missing sources for ``audit``, verdicts named by
``--fail-on`` for ``check``), 2 bad invocation or unreadable required input.
Reports go to files, the summary to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from citeproof import __version__
from citeproof.config import apply_settings, settings_for
from citeproof.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, CiteproofError
from citeproof.model import Report, Verdict
from citeproof.reports import report_stem as _stem
from citeproof.reports import write_reports as _write_reports

app = typer.Typer(
    name="citeproof",
    help=(
        "Does the cited source actually say this?\n\n"
        "citeproof walks every citation of a draft (pandoc Markdown, LaTeX or a PDF paper), finds the passage of the cited "
        "source that best supports the claim, says on which page it sits, scores it and gives a verdict "
        "(supported, partial, contradicted, unsupported, unverifiable, error). The report opens on the "
        "citations most worth a human's attention.\n\n"
        "Start with:  citeproof check draft.md --bib refs.bib\n\n"
        "Exit codes: 0 ok, 1 a gate failed, 2 bad invocation or unreadable required input."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

# soft_wrap: a message is one line however narrow the terminal or pipe, so grep works.
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

DocArg = Annotated[Path, typer.Argument(help="The citing document: pandoc Markdown (.md), LaTeX (.tex) or an arXiv source bundle (.tar.gz), or a PDF.", show_default=False)]
DocsArg = Annotated[list[Path], typer.Argument(metavar="DOCUMENT", help="The citing documents (one or more): pandoc Markdown (.md), LaTeX (.tex), arXiv source bundles (.tar.gz) or PDFs.", show_default=False)]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", metavar="FILE", help="Settings file (.citeproof.toml, or a pyproject.toml with [tool.citeproof]). Default: the nearest one above the document.")]
BibOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--bib", "-b", metavar="FILE", help="Bibliography (.bib BibTeX/BibLaTeX or .json CSL-JSON). Repeat for several; the first defining a key wins."),
]
SourcesOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--sources", "-s", metavar="DIR", help="Folder of source files (PDF, Markdown, text, HTML) named <citekey>.pdf or matched by DOI. Repeatable."),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only what fails (and errors, on stderr): no progress bar, no summary.")]
CacheOpt = Annotated[Optional[Path], typer.Option("--cache-dir", metavar="DIR", help="Where parsed sources are cached (SQLite). Default: $CITEPROOF_CACHE_DIR or ~/.cache/citeproof.")]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Parse every source afresh and store nothing.")]
OnlineOpt = Annotated[bool, typer.Option("--online", help="Look each reference up online (Crossref, OpenAlex, Unpaywall, arXiv, Europe PMC): existence, retractions, open full text. Sends identifiers and titles only, never your text.")]
EmailOpt = Annotated[str, typer.Option("--email", metavar="ADDRESS", envvar="CITEPROOF_EMAIL", help="Contact e-mail for the services' polite pools (Unpaywall needs one). Default: $CITEPROOF_EMAIL.")]
OfflineOpt = Annotated[bool, typer.Option("--offline", help="Online lookups from the cache alone: no request is sent.")]
LlmUrlOpt = Annotated[Optional[str], typer.Option("--llm-url", metavar="URL", help="OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1 (Ollama). Default: $CITEPROOF_LLM_URL. Key: $CITEPROOF_LLM_API_KEY.")]
LlmModelOpt = Annotated[Optional[str], typer.Option("--llm-model", metavar="NAME", help="Model name as the server knows it. Default: $CITEPROOF_LLM_MODEL.")]
LlmSecondOpt = Annotated[Optional[str], typer.Option("--llm-second-model", metavar="NAME", help="Model for second opinions (default: the same model, over the whole source).")]
LlmMaxCostOpt = Annotated[Optional[float], typer.Option("--llm-max-cost", metavar="AMOUNT", help="Stop calling the LLM before this much is spent (needs --llm-price).")]
LlmPriceOpt = Annotated[Optional[str], typer.Option("--llm-price", metavar="IN,OUT", help="Price per million prompt and completion tokens, e.g. 0.15,0.60; default $CITEPROOF_LLM_PRICE. Enables cost figures.")]
LimitOpt = Annotated[Optional[int], typer.Option("--limit", metavar="N", help="Quick check: judge only the first N citations.")]


def _llm_config(url: Optional[str], model: Optional[str], second: Optional[str], max_cost: Optional[float], price: Optional[str], cache_dir: Optional[Path], no_cache: bool = False):
    """The LLM tier's :class:`~citeproof.judges.llm.LLMConfig` from options and environment.

    Raises:
        CiteproofError: no URL or model, or a malformed ``--llm-price``.
    """
    import os

    from citeproof.judges.llm import LLMConfig
    from citeproof.sources.cache import default_cache_dir

    url = url or os.environ.get("CITEPROOF_LLM_URL")
    model = model or os.environ.get("CITEPROOF_LLM_MODEL")
    if not url or not model:
        raise CiteproofError("the llm tier needs an endpoint: give --llm-url http://127.0.0.1:11434/v1 and --llm-model NAME (or set CITEPROOF_LLM_URL and CITEPROOF_LLM_MODEL)")
    price = price or os.environ.get("CITEPROOF_LLM_PRICE")
    p_in = p_out = None
    if price:
        try:
            p_in, p_out = (float(x) for x in price.split(","))
        except ValueError:
            raise CiteproofError(f"--llm-price: give two numbers, prompt and completion price per million tokens, e.g. 0.15,0.60; got {price!r}") from None
    if max_cost is not None and p_in is None:
        raise CiteproofError("--llm-max-cost needs prices to count cost: give --llm-price IN,OUT (per million tokens)")
    return LLMConfig(url=url, model=model, second_model=second, max_cost=max_cost, price_prompt=p_in, price_completion=p_out,
                     cache_dir=None if no_cache else (cache_dir or default_cache_dir()))


def _stem(document: Path) -> str:
    """The report's base name: the file name without its suffix (``.tar.gz`` counts as one)."""
    name = document.name
    for suf in (".tar.gz", ".tgz"):
        if name.lower().endswith(suf):
            return name[: -len(suf)]
    return document.stem


def _has_own_bibliography(document: Path) -> bool:
    """True when the document's reader supplies a bibliography (LaTeX, arXiv bundles, PDFs, Markdown front matter)."""
    from citeproof.readers.front_matter import names_bibliography

    name = document.name.lower()
    return name.endswith((".tex", ".ltx", ".tar.gz", ".tgz", ".pdf", ".docx", ".odt", ".json")) or (
        name.endswith((".md", ".markdown", ".pandoc", ".txt", ".rmd", ".qmd")) and names_bibliography(document)
    )


def _latex_confinement(document: Path, has_bib: bool, allow_outside: bool):
    """``(confine_to, context)`` for reading ``document``: a LaTeX file or bundle reads only inside its own folder tree.

    An arXiv bundle or a downloaded .tex is untrusted: ``\\input{/proc/self/environ}``
    or a .bib ``file = {/home/me/.ssh/id_rsa}`` must not land in a report.
    ``--allow-outside`` lifts it; bibliographies given with ``--bib`` are the
    user's own, so their file fields are not confined.
    """
    from contextlib import nullcontext

    from citeproof.readers.latex import allow_outside_reads, confine_reads

    if not document.name.lower().endswith((".tex", ".ltx", ".tar.gz", ".tgz", ".tar")):
        return None, nullcontext()
    if allow_outside:
        return None, allow_outside_reads()
    folder = document.resolve().parent
    if document.name.lower().endswith((".tar.gz", ".tgz", ".tar")):
        # a bundle: nothing beside it; the pipeline adds the unpacked bundle's own .bib folders
        return (None if has_bib else document.resolve()), confine_reads(folder)
    return (None if has_bib else folder), confine_reads(folder)


def _n(count: int, noun: str) -> str:
    """``1 page``, ``2 pages``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _fail(exc: Exception) -> None:
    err.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(getattr(exc, "exit_code", EXIT_USAGE))


def _progress_runner(quiet: bool):
    """A (callback, context manager) pair drawing a rich progress bar."""
    from contextlib import nullcontext

    if quiet or not err.is_terminal and not sys.stderr.isatty():
        # Not a terminal: a few plain lines instead of a redrawn bar.
        last: dict[str, int] = {}

        def plain(stage: str, done: int, total: int) -> None:
            if quiet:
                return
            if done == total and last.get(stage) != total:
                err.print(f"{stage}: {done}/{total}", highlight=False)
                last[stage] = total

        return plain, nullcontext()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    prog = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=False)
    tasks: dict[str, int] = {}

    def cb(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = prog.add_task(stage, total=total)
        prog.update(tasks[stage], completed=done, total=total)

    return cb, prog


def _summary_table(report: Report) -> Table:
    from citeproof.pipeline import summarise

    s = summarise(report.findings)
    t = Table(title=f"citeproof: {report.document}", show_header=True, min_width=min(100, 14 + len(report.document)))
    t.add_column("verdict")
    t.add_column("citations", justify="right")
    styles = {"contradicted": "red", "unsupported": "red", "partial": "yellow", "error": "magenta", "unverifiable": "cyan", "supported": "green"}
    for v in Verdict:
        t.add_row(f"[{styles[v.value]}]{v.value}[/]", str(s["verdicts"][v.value]))
    t.add_row("[bold]total[/]", str(s["citations"]))
    t.caption = f"{s['sources_available']} of {_n(s['citekeys'], 'cited work')} have a readable source; {_n(len(s['unknown_citekeys']), 'unknown citekey')}"
    return t


@app.command()
def check(
    documents: DocsArg,
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", "-o", metavar="DIR", help="Folder for the reports (default: beside the document); '-' writes the JSON report to stdout (one line per document when several).")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", metavar="FORMATS", help="Report formats, comma-separated: md, json, html, sarif, tex, pdf (tex and pdf need pandoc; pdf also LuaLaTeX). Default: md,json.")] = None,
    fail_on: Annotated[Optional[str], typer.Option("--fail-on", metavar="VERDICTS", help="Exit 1 when any finding has one of these verdicts (comma-separated, e.g. unsupported,contradicted); 'unknown' for unknown citekeys.")] = None,
    tier: Annotated[Optional[list[str]], typer.Option("--tier", metavar="TIER", help="Tiers to run, repeatable: lexical, dense, entailment, llm (default: the offline ones available). The lexical tier always runs.")] = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    online: OnlineOpt = False,
    email: EmailOpt = "",
    offline: OfflineOpt = False,
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
    limit: LimitOpt = None,
) -> None:
    """Check every citation against its source and write the report.

    Writes <stem>.citeproof.md and <stem>.citeproof.json beside the document
    (or in --out); --format html,sarif adds a self-contained HTML page and a
    SARIF 2.1.0 log for code scanning. A LaTeX file or arXiv bundle brings its
    own .bib/.bbl and a PDF its printed reference list, so --bib is optional
    for them. Several documents are checked one after the other; the exit
    code is the worst of theirs. Settings missing from the command line come
    from .citeproof.toml or [tool.citeproof] in pyproject.toml. Examples:

        citeproof check draft.md --bib refs.bib --sources pdfs/ --format md,html,sarif --fail-on unsupported,contradicted
        citeproof check paper.pdf --sources pdfs/
        citeproof check draft.md --bib refs.bib --out - | jq .summary
    """
    try:
        settings = settings_for(documents[0], config)
    except CiteproofError as exc:
        _fail(exc)
        return
    run = dict(
        bib=list(bib or settings.bibliographies),
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
        llm_url=llm_url,
        llm_model=llm_model,
        llm_second_model=llm_second_model,
        llm_max_cost=llm_max_cost,
        llm_price=llm_price,
        limit=limit,
        settings=settings,
    )
    codes = [_check_one(doc, **run) for doc in documents]
    raise typer.Exit(max(codes))


def _check_one(document: Path, *, bib: list[Path], sources: list[Path], out_dir: Path | None, fmt: str, fail_on: str, tier: list[str] | None,
               cache_dir: Path | None, no_cache: bool, quiet: bool, baseline: Path | None, review: Path | None,
               allow_outside: bool, online: bool, email: str, offline: bool, llm_url: str | None, llm_model: str | None,
               llm_second_model: str | None, llm_max_cost: float | None, llm_price: str | None, limit: int | None, settings) -> int:
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
            raise CiteproofError("give a bibliography with --bib refs.bib, or a folder of sources with --sources DIR (or name them in .citeproof.toml)")
        from citeproof.pipeline import KNOWN_TIERS

        unknown_tiers = [t for t in tier or [] if t not in KNOWN_TIERS]
        if unknown_tiers:
            raise CiteproofError(f"--tier: unknown tier(s) {', '.join(unknown_tiers)}; choose from {', '.join(KNOWN_TIERS)}")
        llm = _llm_config(llm_url, llm_model, llm_second_model, llm_max_cost, llm_price, cache_dir, no_cache) if "llm" in (tier or []) else None
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
        confine, reads = _latex_confinement(document, bool(bib), allow_outside)
        opts.confine_to = confine
        if online or offline or email:  # the command line wins over the config file
            opts.online, opts.offline, opts.email = online or opts.online, offline or opts.offline, email or opts.email
        with ctx, reads:
            report = run_check(document, list(bib), opts)
        from citeproof.reports.review import attach_review, load_review, review_path

        sidecar = review or review_path(target, _stem(document))
        if review is not None or sidecar.is_file():
            counts = attach_review(report, load_review(sidecar))
            if not quiet and any(counts.values()):
                err.print(f"review {sidecar}: {counts['carried']} decisions carried over, {counts['stale']} stale (claim or source changed), "
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
    except CiteproofError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return getattr(exc, "exit_code", EXIT_USAGE)
    if report.metadata.get("cache"):
        from citeproof.history import record_run
        from citeproof.pipeline import summarise

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
        say.print(_summary_table(report))
        if "llm" in report.metadata:
            m = report.metadata["llm"]
            cost = f", cost {m['cost']:.4f}" if llm and llm.price_prompt is not None else ""
            say.print(f"llm {m['model']}: {m['calls']} calls ({m['cached_calls']} from the cache), {m['prompt_tokens']} prompt + {m['completion_tokens']} completion tokens{cost}", highlight=False)
        for p in written:
            say.print(f"report: {p}", highlight=False)
    from citeproof.reports.review import dismissed

    failing = [f for f in report.findings if (f.verdict.value in wanted_fail or ("unknown" in wanted_fail and "unknown_citekey" in f.flags))
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
        err.print(f"failing (--fail-on {fail_on}): " + ", ".join(f"{n} {v}" for v, n in counts.items()), highlight=False)
    return EXIT_FINDINGS if failing else EXIT_OK


@app.command()
def gate(
    documents: DocsArg,
    bib: BibOpt = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
) -> None:
    """Exit 1 when a citekey of a document is not in the bibliography.

    Reads no source; fast enough for a pre-commit hook (several documents at
    once; the bibliography may come from .citeproof.toml):

        citeproof gate draft.md --bib refs.bib
    """
    from citeproof.bibliography import load_bibliographies
    from citeproof.pipeline import read_document

    codes = []
    for document in documents:
        try:
            bibs = list(bib or settings_for(document, config).bibliographies)
            if not bibs and not _has_own_bibliography(document):
                raise CiteproofError("give the bibliography with --bib refs.bib (or bibliography = \"refs.bib\" in .citeproof.toml)")
            claims, own = read_document(document)
            lib = load_bibliographies(bibs) if bibs else own
        except CiteproofError as exc:
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            codes.append(getattr(exc, "exit_code", EXIT_USAGE))
            continue
        missing = [(c.line, c.citekey) for cl in claims for c in cl.citations if lib.get(c.citekey) is None]
        total = sum(len(cl.citations) for cl in claims)
        for d in lib.diagnostics:
            err.print(f"{d.severity}: {d.message}", highlight=False)
        for line, key in missing:
            out.print(f"{document}:{line}: unknown citekey '{key}'", highlight=False)
        if not quiet:
            keys = {k for _, k in missing}
            where = f"{document}: " if len(documents) > 1 else ""
            out.print(where + (f"{total} citations, {len(missing)} with unknown citekeys ({len(keys)} distinct)" if missing else f"{total} citations, every citekey is in the bibliography"), highlight=False)
        codes.append(EXIT_FINDINGS if missing else EXIT_OK)
    raise typer.Exit(max(codes))


@app.command()
def audit(
    document: DocArg,
    bib: BibOpt = None,
    sources: SourcesOpt = None,
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

        citeproof audit draft.md --bib refs.bib --sources pdfs/ [--online --email me@uni.edu]
    """
    from citeproof.bibliography import Bibliography, load_bibliographies
    from citeproof.pipeline import PdfReader, merge_printed_references, read_document, reader_for
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache, default_cache_dir

    try:
        if not bib and not sources and not _has_own_bibliography(document):
            raise CiteproofError("give a bibliography with --bib refs.bib, or a folder of sources with --sources DIR")
        claims, own = read_document(document)
        lib = load_bibliographies(list(bib or [])) if bib else (own or Bibliography())
        if bib and own is not None and isinstance(reader_for(document), PdfReader):
            lib = merge_printed_references(own, lib)
        for d in sources or []:
            if not d.is_dir():
                raise CiteproofError(f"{d}: --sources must be a folder")
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
            status, detail = "unknown", "citekey not in the bibliography"
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
    if not quiet:
        out.print(table)
        if session is not None:
            out.print(session.audit_table())
            for t in session.to_fetch():
                out.print(f"to fetch: {t['citekey']} | {t['doi'] or '-'} | {t['url'] or '-'} | {t['oa_status']} | {t['state']}", highlight=False, markup=False)
        out.print(f"{len(counts) - missing} of {len(counts)} cited works have a readable source", highlight=False)
    raise typer.Exit(EXIT_FINDINGS if missing else EXIT_OK)


@app.command()
def diff(
    old: Annotated[Path, typer.Argument(help="The earlier JSON report.", show_default=False)],
    new: Annotated[Path, typer.Argument(help="The later JSON report.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the difference as JSON.")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", metavar="VERDICTS", help="Exit 1 when a new or changed finding has one of these verdicts.")] = "",
) -> None:
    """List the findings that are new, resolved or changed between two JSON reports.

    A finding is the same in both when its document, citekey, claim text and
    source bytes are; a citation whose claim or source changed is 'changed'.

        citeproof diff old/draft.citeproof.json draft.citeproof.json --fail-on unsupported,contradicted
    """
    import json as _json

    from citeproof.reports.diff import diff_reports, load_report

    try:
        d = diff_reports(load_report(old), load_report(new))
    except CiteproofError as exc:
        _fail(exc)
        return
    wanted = {x.strip().lower() for x in fail_on.split(",") if x.strip()}
    failing = [f for f in d.new if f.get("verdict") in wanted] + [c.new for c in d.changed if c.new.get("verdict") in wanted]
    if as_json:
        out.print_json(_json.dumps(d.to_dict(), ensure_ascii=False))
    else:
        def where(f: dict) -> str:
            return f"{f.get('document')}:{f.get('line')}: [{f.get('citekey')}] {f.get('verdict')}"

        for f in d.new:
            out.print(f"new       {where(f)}", markup=False, highlight=False)
        for f in d.resolved:
            out.print(f"resolved  {where(f)}", markup=False, highlight=False)
        for c in d.changed:
            out.print(f"changed   {where(c.new)} ({'; '.join(c.what)})", markup=False, highlight=False)
        out.print(f"{len(d.new)} new, {len(d.resolved)} resolved, {len(d.changed)} changed, {d.unchanged} unchanged", highlight=False)
    raise typer.Exit(EXIT_FINDINGS if failing else EXIT_OK)


@app.command()
def history(
    document: Annotated[Optional[Path], typer.Argument(help="Only runs of this document (default: all).", show_default=False)] = None,
    cache_dir: CacheOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="At most this many runs.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as JSON.")] = False,
) -> None:
    """List earlier runs of `check`, newest first: when, which version, the inputs' hashes and the counts.

    Runs are recorded in <cache dir>/history.sqlite (not with --no-cache).

        citeproof history draft.md
    """
    import dataclasses
    import json as _json
    import sqlite3

    from citeproof.history import HISTORY_FILE, list_runs
    from citeproof.sources.cache import default_cache_dir

    folder = cache_dir or default_cache_dir()
    try:
        runs = list_runs(folder, document, limit)
    except sqlite3.DatabaseError as exc:
        _fail(CiteproofError(f"{folder / HISTORY_FILE}: cannot read the history ({exc}); delete the file to start a new one"))
        return
    if as_json:
        out.print_json(_json.dumps([dataclasses.asdict(r) for r in runs], ensure_ascii=False))
        raise typer.Exit(EXIT_OK)
    if not runs:
        out.print(f"no runs recorded{' for ' + str(document) if document else ''} in {folder / HISTORY_FILE}", highlight=False)
        raise typer.Exit(EXIT_OK)
    for r in runs:
        counts = r.record.get("summary", {}).get("verdicts", {})
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        secs = r.record.get("seconds")
        out.print(f"#{r.id} {r.created} citeproof {r.version} {r.document} (sha256 {r.document_sha256[:12]}) "
                  f"tiers {','.join(r.record.get('tiers', []))}: {shown or 'no citations'}{f' ({secs} s)' if secs is not None else ''}",
                  markup=False, highlight=False)
    raise typer.Exit(EXIT_OK)


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
        out.print(f"{len(records)} documents ({len(failed)} failed, {resumed} unchanged since the last run); see {out_dir / 'index.html'}", markup=False, highlight=False)
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
        out.print(f"{res.quotes_checked - len(res.bad_quotes)} of {res.quotes_checked} quotes verified; "
                  f"{sum(s.status in ('unchanged', 'same text') for s in res.sources)} of {len(res.sources)} sources as read", highlight=False)
    raise typer.Exit(EXIT_OK if res.ok else EXIT_FINDINGS)


@app.command()
def ask(
    source: Annotated[str, typer.Argument(help="The source: a file (PDF, Markdown, text, HTML) or a citekey (with --bib).", show_default=False)],
    question: Annotated[str, typer.Argument(help="The question, in quotes.", show_default=False)],
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    llm_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_max_cost: LlmMaxCostOpt = None,
    llm_price: LlmPriceOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ask one source one question: the LLM's answer with its quotes, each checked against the source, and their pages.

        citeproof ask smith2020 "does it say expense ratios fall after 2010?" --bib refs.bib --llm-url http://127.0.0.1:11434/v1 --llm-model qwen3:8b
    """
    import json as _json

    from citeproof.judges.llm import LLMError
    from citeproof.pipeline import ask_source

    try:
        cfg = _llm_config(llm_url, llm_model, None, llm_max_cost, llm_price, cache_dir, no_cache)
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
        f"{folder}: deleted {_n(res['parsed'], 'parsed source')}, {_n(res['vectors'], 'passage vector')}, {_n(res['broken_files'], 'damaged file')}; "
        f"{res['bytes_before'] / 1e6:.1f} MB -> {res['bytes_after'] / 1e6:.1f} MB",
        highlight=False,
    )


eval_app = typer.Typer(
    help="Benchmarks: how well citeproof does on data with known answers. Each prints a table, or one JSON object with --json.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(eval_app, name="eval")


def _default_data() -> Path:
    """``../shared/data`` beside the repository, where the project's data sets live."""
    return Path(__file__).resolve().parents[3] / "shared" / "data"


def _sample_dir() -> Path:
    """The bundled demo sample (``examples/manubot`` in the repository)."""
    return Path(__file__).resolve().parents[2] / "examples" / "manubot"


def _require_entailment() -> None:
    """Exit 2 with the reason when the entailment tier cannot run (the eval harnesses need it)."""
    from citeproof.judges import entailment

    why = entailment.unavailable_reason()
    if why:
        _fail(CiteproofError(f"the entailment tier cannot run: {why}"))


@eval_app.command("planted")
def eval_planted(
    data: Annotated[Path, typer.Option("--data", metavar="DIR", help="Folder holding scifact/ and citation-integrity/ (default: ../shared/data).")] = None,  # type: ignore[assignment]
    seed: Annotated[int, typer.Option("--seed", help="Seed for choosing and planting errors (reproducible).")] = 13,
    limit: Annotated[Optional[int], typer.Option("--limit", help="Use at most this many SciFact claims (default: all).")] = None,
    ci_max: Annotated[int, typer.Option("--ci-max", help="Use at most this many Citation-Integrity claims.")] = 150,
    judge: Annotated[str, typer.Option("--judge", help="pipeline: the full pipeline (retrieval, judge, detectors); sentence: best sentence by word overlap plus the detectors.")] = "pipeline",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the Markdown table.")] = False,
) -> None:
    """Planted-error benchmark: recall per kind of planted error, and the share of untouched citations left unflagged.

        citeproof eval planted --limit 100 --json
    """
    import json as _json

    from citeproof.eval.planted import format_planted_markdown, run_planted, with_detectors

    data = data or _default_data()
    if not (data / "scifact").is_dir():
        _fail(CiteproofError(f"{data / 'scifact'}: not found; give the data folder with --data DIR"))
    if judge not in ("pipeline", "sentence"):
        _fail(CiteproofError(f"--judge: choose pipeline or sentence, not {judge!r}"))
    fn = None
    if judge == "pipeline":
        from citeproof.pipeline import judge_text

        fn = with_detectors(judge_text)
    res = run_planted(data, seed=seed, limit=limit, ci_max=ci_max, judge=fn)
    res.pop("records", None)
    if as_json:
        out.print(_json.dumps(res, indent=2), highlight=False, markup=False)
    else:
        out.print(format_planted_markdown(res), highlight=False, markup=False)


def _print_eval(res: dict, as_json: bool) -> None:
    import json as _json

    from citeproof.eval.metrics import format_eval_text

    res = {k: v for k, v in res.items() if k != "records"}
    if as_json:
        out.print(_json.dumps(res, indent=2, default=str), highlight=False, markup=False)
    else:
        out.print(format_eval_text(res), highlight=False, markup=False)


@eval_app.command("scifact")
def eval_scifact(
    claims: Annotated[Path, typer.Option("--claims", metavar="FILE", help="SciFact claims (JSONL).")],
    corpus: Annotated[Path, typer.Option("--corpus", metavar="FILE", help="SciFact corpus of abstracts (JSONL).")],
    limit: Annotated[Optional[int], typer.Option("--limit", help="Use at most this many claims.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (with at least macro_f1).")] = False,
    tier: Annotated[str, typer.Option("--tier", help="entailment (the offline judge) or llm (needs --llm-url and --llm-model).")] = "entailment",
    llm_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_second_model: LlmSecondOpt = None,
    llm_max_cost: LlmMaxCostOpt = None,
    llm_price: LlmPriceOpt = None,
    cache_dir: CacheOpt = None,
) -> None:
    """SciFact: each claim x cited abstract, the abstract as the source; 3-way macro-F1, per-class precision and recall, confusion matrix, recall@3 of rationale sentences.

    Labels: SUPPORT -> supported, CONTRADICT -> contradicted, NEI -> other (partial, unsupported).

        citeproof eval scifact --claims claims_train.jsonl --corpus corpus.jsonl --json
    """
    for pth in (claims, corpus):
        if not pth.is_file():
            _fail(CiteproofError(f"{pth}: not found"))
    if tier == "llm":
        from citeproof.eval.scifact import run_scifact_llm

        try:
            cfg = _llm_config(llm_url, llm_model, llm_second_model, llm_max_cost, llm_price, cache_dir)
        except CiteproofError as exc:
            _fail(exc)
            return
        res = run_scifact_llm(claims, corpus, cfg, limit=limit)
        _print_eval(res, as_json)
        if not as_json:
            m = res["llm"]
            out.print(f"llm {res['model']}: {res['abstained']} of {res['n']} pairs without a grounded answer (counted as other), "
                      f"{res['second_opinions']} second opinions; {m['calls']} calls ({m['cached_calls']} cached), "
                      f"{m['prompt_tokens']} prompt + {m['completion_tokens']} completion tokens", highlight=False, markup=False)
        return
    if tier != "entailment":
        _fail(CiteproofError(f"--tier: choose entailment or llm, not {tier!r}"))
    _require_entailment()
    from citeproof.eval.scifact import run_scifact

    _print_eval(run_scifact(claims, corpus, limit=limit), as_json)


@eval_app.command("citation-integrity")
def eval_citation_integrity(
    claims: Annotated[Path, typer.Option("--claims", metavar="FILE", help="Citation-Integrity claims (JSONL).")],
    fulltext: Annotated[Path, typer.Option("--fulltext", metavar="DIR", help="Folder of cited full texts, <ref_pmcid>.txt.")],
    limit: Annotated[Optional[int], typer.Option("--limit", help="Use at most this many claims.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (with at least macro_f1).")] = False,
) -> None:
    """Citation-Integrity: each citing sentence (markers removed) against the cited full text; 3-way macro-F1.

    Mapping: supported -> ACCURATE; partial, contradicted -> NOT_ACCURATE; unsupported -> IRRELEVANT_OR_NEI.

        citeproof eval citation-integrity --claims claims_train.jsonl --fulltext reference_fulltext/ --json
    """
    if not claims.is_file():
        _fail(CiteproofError(f"{claims}: not found"))
    if not fulltext.is_dir():
        _fail(CiteproofError(f"{fulltext}: --fulltext must be a folder of <ref_pmcid>.txt files"))
    _require_entailment()
    from citeproof.eval.citation_integrity import run_citation_integrity

    _print_eval(run_citation_integrity(claims, fulltext, limit=limit), as_json)


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
    written, _ = _write_reports(report, [get_writer(f) for f in ("md", "json", "html")], out_dir, doc.stem)
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


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except CiteproofError as exc:  # pragma: no cover - commands catch their own
        err.print(f"error: {exc}", highlight=False)
        sys.exit(exc.exit_code)


if __name__ == "__main__":  # pragma: no cover
    main()
