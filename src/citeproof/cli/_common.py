"""What the ``citeproof`` commands share: the app, consoles, option types and helpers."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated, Optional

import re

import typer
from typer._click import ClickException  # typer carries its own click
from typer.core import TyperGroup
from rich.console import Console
from rich.table import Table

from citeproof.errors import EXIT_USAGE, CiteproofError
from citeproof.model import Report, Verdict

RUN: dict = {"verbose": 0, "log_level": None, "file": None}
"""What the running command knows about itself: ``-v`` count, ``--log-level``, and the file it is working on
(named in the one-line message of an unexpected error)."""

_THIRD_PARTY_AT = 3
"""``-vvv``: the third-party loggers (markdown_it, httpx, bm25s...) speak too; below it only warnings of theirs."""


class _LogFilter(logging.Filter):
    """Lets through ``citeproof.*`` records at its level and other loggers' at WARNING (DEBUG from ``-vvv``)."""

    def __init__(self, own: int, others: int) -> None:
        super().__init__()
        self.own, self.others = own, others

    def filter(self, record: logging.LogRecord) -> bool:
        mine = record.name == "citeproof" or record.name.startswith("citeproof.")
        return record.levelno >= (self.own if mine else self.others)


def configure_logging(verbose: int = 0, log_level: str | None = None) -> None:
    """Log on stderr: the ``citeproof`` loggers at INFO with ``-v``, DEBUG with ``-vv``; others only from ``-vvv``.

    ``log_level`` (``--log-level``: debug, info, warning, error) sets the
    ``citeproof`` loggers' level instead of the count. Third-party loggers
    (markdown_it at debug writes thousands of lines for one document) stay at
    WARNING unless ``verbose`` is 3 or more.
    """
    own = getattr(logging, log_level.upper()) if log_level else logging.DEBUG if verbose >= 2 else logging.INFO if verbose == 1 else logging.WARNING
    others = logging.DEBUG if verbose >= _THIRD_PARTY_AT else logging.WARNING
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_LogFilter(own, others))  # also holds back libraries that set their own loggers to DEBUG (bm25s)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=min(own, others), handlers=[handler], force=True)
    logging.getLogger("citeproof").setLevel(own)


_VERBOSE = re.compile(r"^-v+$")


def _lift_verbose(args: list[str]) -> list[str]:
    """``args`` with each ``-v``/``-vv``/``--verbose`` after the subcommand moved before it (up to a ``--``).

    ``citeproof check draft.md -v`` then means ``citeproof -v check draft.md``.
    """
    at = 0
    while at < len(args) and args[at].startswith("-"):  # the root's own options
        at += 2 if args[at] == "--log-level" else 1
    if at >= len(args):
        return args
    head, tail, lifted = args[: at + 1], [], []
    rest = args[at + 1:]
    for i, a in enumerate(rest):
        if a == "--":
            tail += rest[i:]
            break
        (lifted if _VERBOSE.match(a) or a == "--verbose" else tail).append(a)
    return lifted + head + tail


_TYPE_WORDS = {"int": "N", "integer": "N", "float": "NUMBER", "str": "TEXT", "text": "TEXT", "path": "PATH", "file": "FILE", "directory": "DIR"}


def _polish(cmd) -> None:
    """Keeps Python type names (``<list[Path]>``, ``<int range>``) out of a subcommand's help."""
    from typer.core import TyperArgument, TyperOption

    if getattr(cmd, "_citeproof_polished", False):
        return
    cmd._citeproof_polished = True
    if hasattr(cmd, "commands"):  # a group: cache, eval
        for sub in cmd.commands.values():
            _polish(sub)
        return
    for p in cmd.params:
        if isinstance(p, TyperArgument):
            p.display_type_rich = lambda ctx: None  # its NAME says it
        elif isinstance(p, TyperOption) and p.metavar is None and not (p.is_flag or p.count):
            raw = p.display_type(None).strip("<>").lower() if hasattr(p, "display_type") else "text"
            word = "N" if raw.startswith("int") else "NUMBER" if raw.startswith("float") else _TYPE_WORDS.get(raw, raw.upper())
            p.display_type_rich = (lambda w: lambda ctx: w)(word)


class _Group(TyperGroup):
    """The ``citeproof`` group: ``-v`` anywhere, help without type names, an unexpected error as one line with exit 2.

    An exception that is no :class:`~citeproof.errors.CiteproofError` is a
    bug: it is printed as one line naming the file being worked on and the
    exception (the trace with ``-v``), exit 2 (1 means "a gate failed").
    """

    def get_command(self, ctx, cmd_name: str):  # noqa: D102
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None:
            _polish(cmd)
        return cmd

    def parse_args(self, ctx, args: list[str]):  # noqa: D102
        return super().parse_args(ctx, _lift_verbose(list(args)))

    def invoke(self, ctx):  # noqa: D102
        RUN["file"] = next((a for a in [*getattr(ctx, "protected_args", []), *ctx.args] if not a.startswith("-") and Path(a).exists()), None)
        try:
            return super().invoke(ctx)
        except (ClickException, typer.Exit, typer.Abort, SystemExit, KeyboardInterrupt):
            raise
        except CiteproofError as exc:
            err.print(f"error: {exc}", highlight=False, markup=False)
            raise typer.Exit(exc.exit_code) from None
        except Exception as exc:  # noqa: BLE001 - the point: one line, not a traceback
            where = f"{RUN['file']}: " if RUN.get("file") else ""
            text = " ".join(str(exc).split())[:300]
            err.print(f"error: {where}unexpected {type(exc).__name__}{': ' + text if text else ''} (a bug in citeproof; "
                      f"{'the trace is above' if RUN['verbose'] else 'run with -v for the trace'})", highlight=False, markup=False)
            if RUN["verbose"]:
                import traceback

                traceback.print_exception(exc, file=sys.stderr)
            raise typer.Exit(EXIT_USAGE) from None


app = typer.Typer(
    cls=_Group,
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
    typer.Option("--sources", "-s", metavar="DIR", help="Folder of source files (PDF, Markdown, plain text, HTML, Word...) named <citekey>.<ext> (smith2020.pdf, smith2020.txt) or matched by DOI. Repeatable."),
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
    """The verdict counts worst first, each with "of which N not a claim" (:func:`citeproof.reports.summary.verdict_rows`)."""
    from citeproof.triage import summarise
    from citeproof.reports.summary import count_text, named_note, verdict_rows

    s = summarise(report.findings)
    t = Table(title=f"citeproof: {report.document}", show_header=True, min_width=min(100, 14 + len(report.document)))
    t.add_column("verdict")
    t.add_column("citations", justify="right")
    styles = {"contradicted": "red", "unsupported": "red", "partial": "yellow", "error": "magenta", "unverifiable": "cyan", "supported": "green"}
    for v, n, nac in verdict_rows(s):
        t.add_row(f"[{styles[v]}]{v}[/]", count_text(n, nac) + named_note(v, s))
    t.add_row("[bold]total[/]", str(s["citations"]))
    has_bib = bool(report.metadata.get("bibliographies") or s["unknown_citekeys"]
                   or any(f.reference is not None and (f.reference.title or f.reference.doi) for f in report.findings))
    keys = _n(len(s['unknown_citekeys']), 'unknown citekey') if has_bib else "no bibliography given, so citekeys were not checked"
    t.caption = f"{s['sources_available']} of {_n(s['citekeys'], 'cited work')} {'has' if s['citekeys'] == 1 else 'have'} a readable source; {keys}"
    return t


def _first_screen(say: Console, report: Report, show: int = 10) -> None:
    """The summary table, the no-source box when most works have no source, then the first ``show`` findings worth a look.

    Each finding is one line, ``draft.md:447: unsupported [@key] off_topic - <first words>``, worst first
    (:func:`citeproof.reports.summary.finding_line`); ``show`` 0 prints none.
    """
    from citeproof.reports.summary import finding_line, no_source_box, worth_a_look

    say.print(_summary_table(report))
    box = no_source_box(report)
    if box:
        say.rule("most cited works have no source", align="left", style="cyan")
        say.print(f"{box['missing']} of {box['works']} cited works have no readable source, so {_n(box['citations'], 'citation')} cannot be checked:", highlight=False, markup=False)
        for why, n in box["reasons"][:4]:
            say.print(f"  {n:>4}  {why}", highlight=False, markup=False)
        say.print("ways to give them sources:", highlight=False)
        for i, (cmd, what) in enumerate(box["ways"], start=1):
            say.print(f"  {i}. {cmd}: {what}", highlight=False, markup=False)
        say.rule(style="cyan")
    worth = worth_a_look(report)
    if worth and show > 0:
        more = f", the first {show}; --show N for more" if len(worth) > show else ""
        say.print(f"worth a look ({len(worth)}, worst first{more}):", highlight=False)
        for f in worth[:show]:
            say.print(finding_line(f), highlight=False, markup=False)
