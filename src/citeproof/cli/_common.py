"""What the ``citeproof`` commands share: the app, consoles, option types and helpers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from citeproof.errors import EXIT_USAGE, CiteproofError
from citeproof.model import Report, Verdict

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

_DOC_KINDS = ("pandoc Markdown (.md, .qmd, .rmd, .txt), LaTeX (.tex), an arXiv source bundle (.tar.gz), a PDF, Word or OpenDocument "
              "(.docx, .odt), or a JSON of generated text with attributions (.json)")
DocArg = Annotated[Path, typer.Argument(help=f"The citing document: {_DOC_KINDS}.", show_default=False)]
DocsArg = Annotated[list[Path], typer.Argument(metavar="DOCUMENT", help=f"The citing documents (one or more), each {_DOC_KINDS}.", show_default=False)]
SourceArg = Annotated[str, typer.Argument(help="The source: a file (PDF, Markdown, text, HTML) or a citekey (with --bib or --sources).", show_default=False)]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", metavar="FILE", help="Settings file (.citeproof.toml, or a pyproject.toml with [tool.citeproof]). Default: the nearest one above the document.")]
BibOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--bib", "-b", metavar="FILE", help="Bibliography (.bib BibTeX/BibLaTeX or .json CSL-JSON). Repeat for several; the first defining a key wins."),
]
ZoteroOpt = Annotated[
    Optional[Path],
    typer.Option("--zotero", metavar="DIR", help="Zotero's data folder (~/Zotero): its zotero.sqlite is the bibliography (read from a copy, safe while Zotero runs) and storage/ the attachments."),
]
CollectionOpt = Annotated[Optional[str], typer.Option("--collection", metavar="NAME", help="With --zotero: only this collection (and its sub-collections).")]
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
OcrOpt = Annotated[Optional[str], typer.Option("--ocr", metavar="MODE", help="Scanned PDF sources: auto (read pages without a text layer by OCR; the default), force (OCR every page, e.g. a garbled text layer), never. Needs Tesseract (apt-get install tesseract-ocr tesseract-ocr-eng).")]
LlmUrlOpt = Annotated[Optional[str], typer.Option("--llm-url", metavar="URL", help="OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1 (Ollama). Default: $CITEPROOF_LLM_URL. Key: $CITEPROOF_LLM_API_KEY.")]
LlmModelOpt = Annotated[Optional[str], typer.Option("--llm-model", metavar="NAME", help="Model name as the server knows it. Default: $CITEPROOF_LLM_MODEL.")]
LlmSecondOpt = Annotated[Optional[str], typer.Option("--llm-second-model", metavar="NAME", help="Model for second opinions (default: the same model, over the whole source).")]
LlmMaxCostOpt = Annotated[Optional[float], typer.Option("--llm-max-cost", metavar="AMOUNT", min=0.0, help="Stop calling the LLM before this much is spent (0 or more; needs --llm-price).")]
LlmPriceOpt = Annotated[Optional[str], typer.Option("--llm-price", metavar="IN,OUT", help="Price per million prompt and completion tokens, e.g. 0.15,0.60; default $CITEPROOF_LLM_PRICE. Enables cost figures.")]
LlmConcurrencyOpt = Annotated[Optional[int], typer.Option("--llm-concurrency", metavar="N", help="LLM requests in flight at once (default 4, or $CITEPROOF_LLM_CONCURRENCY); citations are judged in N threads while they wait.")]
LlmTimeoutOpt = Annotated[Optional[float], typer.Option("--llm-timeout", metavar="SECONDS", help="Seconds one LLM request may take from when it is sent (default 120, or $CITEPROOF_LLM_TIMEOUT). A server with fewer parallel slots than --llm-concurrency queues the rest: lower the concurrency to its slots rather than raising this.")]
LlmDeadlineOpt = Annotated[Optional[float], typer.Option("--llm-deadline", metavar="SECONDS", help="Seconds the LLM tier may run in all (default 3600, or $CITEPROOF_LLM_DEADLINE); past it no request is sent and the offline verdicts stand (flag llm_deadline).")]
LimitOpt = Annotated[Optional[int], typer.Option("--limit", metavar="N", help="Quick check: judge only the first N citations.")]


def _llm_config(url: Optional[str], model: Optional[str], second: Optional[str], max_cost: Optional[float], price: Optional[str], cache_dir: Optional[Path], no_cache: bool = False,
                concurrency: Optional[int] = None, timeout: Optional[float] = None, deadline: Optional[float] = None):
    """The LLM tier's :class:`~citeproof.judges.llm.LLMConfig` from options and environment.

    Args:
        timeout: ``--llm-timeout`` seconds per request from sending (None: ``$CITEPROOF_LLM_TIMEOUT``, else 120).
        deadline: ``--llm-deadline`` seconds for the whole tier (None: ``$CITEPROOF_LLM_DEADLINE``, else 3600).

    Raises:
        CiteproofError: no URL or model, a malformed ``--llm-price``, a
            concurrency (``--llm-concurrency``/``$CITEPROOF_LLM_CONCURRENCY``) that is not a whole number from 1,
            or a timeout or deadline that is not a number of seconds above 0.
    """
    import os

    from citeproof.judges.llm import LLMConfig
    from citeproof.sources.cache import default_cache_dir

    url = url or os.environ.get("CITEPROOF_LLM_URL")
    model = model or os.environ.get("CITEPROOF_LLM_MODEL")
    if not url or not model:
        raise CiteproofError("the llm tier needs an endpoint: give --llm-url http://127.0.0.1:11434/v1 and --llm-model NAME (or set CITEPROOF_LLM_URL and CITEPROOF_LLM_MODEL)")
    if not url.lower().startswith(("http://", "https://")):
        raise CiteproofError(f"--llm-url: {url!r} is not an http(s) URL; give the API base, e.g. http://127.0.0.1:11434/v1")
    price = price or os.environ.get("CITEPROOF_LLM_PRICE")
    p_in = p_out = None
    if price:
        try:
            p_in, p_out = (float(x) for x in price.split(","))
        except ValueError:
            raise CiteproofError(f"--llm-price: give two numbers, prompt and completion price per million tokens, e.g. 0.15,0.60; got {price!r}") from None
    if max_cost is not None and p_in is None:
        raise CiteproofError("--llm-max-cost needs prices to count cost: give --llm-price IN,OUT (per million tokens)")
    if concurrency is None and os.environ.get("CITEPROOF_LLM_CONCURRENCY"):
        raw = os.environ["CITEPROOF_LLM_CONCURRENCY"]
        if not raw.strip().isdigit():
            raise CiteproofError(f"CITEPROOF_LLM_CONCURRENCY: give a whole number of requests in flight (1 or more), got {raw!r}")
        concurrency = int(raw)
    if concurrency is not None and concurrency < 1:
        raise CiteproofError(f"--llm-concurrency must be at least 1, got {concurrency}")
    extra: dict = {"concurrency": concurrency} if concurrency is not None else {}
    for key, value, flag, env in (("timeout_s", timeout, "--llm-timeout", "CITEPROOF_LLM_TIMEOUT"), ("deadline_s", deadline, "--llm-deadline", "CITEPROOF_LLM_DEADLINE")):
        where = flag
        if value is None and os.environ.get(env, "").strip():
            where, raw = env, os.environ[env]
            try:
                value = float(raw)
            except ValueError:
                raise CiteproofError(f"{env}: give a number of seconds above 0, got {raw!r}") from None
        if value is not None:
            if not value > 0 or value == float("inf"):
                raise CiteproofError(f"{where}: give a number of seconds above 0, got {value:g}")
            extra[key] = value
    return LLMConfig(url=url, model=model, second_model=second, max_cost=max_cost, price_prompt=p_in, price_completion=p_out,
                     cache_dir=None if no_cache else (cache_dir or default_cache_dir()), **extra)


def _with_zotero(bib: list[Path] | None, zotero: Path | None, collection: str | None) -> list[Path]:
    """The bibliographies with the ``--zotero`` library last (``--bib`` files win a key); ``--collection`` needs ``--zotero``.

    Raises:
        CiteproofError: ``--collection`` without ``--zotero``; BibliographyError: no ``zotero.sqlite`` in ``--zotero``.
    """
    if collection is not None and zotero is None:
        raise CiteproofError("--collection names a Zotero collection; give the Zotero data folder with --zotero DIR too")
    if zotero is not None:
        from citeproof.bibliography.zotero import zotero_database

        zotero = zotero_database(zotero).parent  # a folder without zotero.sqlite: say where Zotero keeps it
    return list(bib or []) + ([zotero] if zotero is not None else [])


def _has_own_bibliography(document: Path) -> bool:
    """True when the document's reader supplies a bibliography (LaTeX, arXiv bundles, PDFs, Word fields, Markdown front matter, Manubot files)."""
    from citeproof.bibliography.manubot import manubot_files
    from citeproof.documents import reader_for
    from citeproof.errors import UnknownFormatError
    from citeproof.readers.front_matter import names_bibliography

    try:
        own = reader_for(document).own_bibliography
    except UnknownFormatError:
        return False
    return own == "always" or (own == "front matter" and (names_bibliography(document) or bool(manubot_files(document))))


def _no_bibliography(document: Path, message: str) -> CiteproofError:
    """The error for a run without a bibliography: ``message``, after what is wrong with the front matter's own one.

    A Markdown document whose YAML front matter has ``bibliography:`` or
    ``references:`` that gives nothing usable (a missing file, a number, YAML
    that does not parse) gets those problems named, with the line, first.
    """
    from citeproof.readers.front_matter import front_matter_problems

    problems = front_matter_problems(document) if document.name.lower().endswith((".md", ".markdown", ".pandoc", ".txt", ".rmd", ".qmd")) else []
    return CiteproofError("; ".join(problems + [message]) if problems else message)


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


def _online_offline(online: bool, offline: bool) -> None:
    """Refuse ``--online`` with ``--offline``: one sends requests, the other forbids them.

    Raises:
        CiteproofError: both given (exit 2), saying which to drop for which behaviour.
    """
    if online and offline:
        raise CiteproofError("--online and --offline contradict each other: drop --offline to send requests, "
                             "or drop --online to look works up from the cache alone (no request sent)")


def _bib_errors_code(diagnostics, say: Console | None = None) -> int:
    """``EXIT_USAGE`` (2) when a bibliography holds entries that could not be read as written, else ``EXIT_OK`` (0).

    Such entries are ``bib-*`` diagnostics of severity ``error`` (an
    unparseable entry, a missing comma between fields, an entry without a
    citekey): the report is still written, with the citations of an
    unparseable entry ``unverifiable`` and the reason given, but the exit code
    says the required input is not as it should be (docs/usage.md, exit codes).
    ``say``, when given, gets one line saying so.
    """
    from citeproof.errors import EXIT_OK

    bad = [d for d in diagnostics if d.severity == "error" and d.code.startswith("bib-")]
    if bad and say is not None:
        say.print(f"error: the bibliography has {_n(len(bad), 'problem')} (listed above); fix {'it' if len(bad) == 1 else 'them'} (exit {EXIT_USAGE})", highlight=False)
    return EXIT_USAGE if bad else EXIT_OK


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
    t.caption = f"{s['sources_available']} of {_n(s['citekeys'], 'cited work')} {'has' if s['citekeys'] == 1 else 'have'} a readable source; {_n(len(s['unknown_citekeys']), 'unknown citekey')}"
    return t
