"""``citeproof fix --locators`` (a check's corrected locators as a patch) and ``citeproof watch`` (retractions since the last check): issue 25, parts 3 and 6.

The draft is never changed: the command writes a unified diff (to stdout, or ``--patch FILE``) that the author
applies with ``patch -p0 < fix.patch`` or ``git apply fix.patch``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from citeproof.cli._common import BibOpt, CacheOpt, DocArg, EmailOpt, NoCacheOpt, OfflineOpt, QuietOpt, SourcesOpt, ZoteroOpt, _fail, _progress_runner, _with_zotero, app, err
from citeproof.errors import EXIT_FINDINGS, EXIT_OK, CiteproofError, InputError


@app.command()
def fix(
    document: DocArg,
    locators: Annotated[bool, typer.Option("--locators", help="Propose the corrected page locator wherever the words stand on another page than the citation says.")] = False,
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    zotero: ZoteroOpt = None,
    patch: Annotated[Optional[Path], typer.Option("--patch", metavar="FILE", help="Write the patch to FILE instead of stdout.")] = None,
    tier: Annotated[Optional[list[str]], typer.Option("--tier", metavar="TIER", help="Tiers to judge with (default: the offline ones available).")] = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Check the document and write its fixes as a unified diff; the document itself is never changed.

    Exit 0 with no fix to propose, 1 when the patch holds at least one fix, 2 on bad input.

    \b
      citeproof fix --locators draft.md --bib refs.bib > fix.patch && patch -p0 < fix.patch
    """
    from citeproof.assist.locators import locator_patch
    from citeproof.pipeline import CheckOptions, check

    try:
        if not locators:
            raise CiteproofError("say what to fix: --locators (the only kind of fix so far)")
        if document.suffix.lower() not in (".md", ".markdown", ".txt", ".tex", ".qmd", ".rmd"):
            raise InputError(f"{document}: fix --locators patches a text document (Markdown or LaTeX); this is not one")
        cb, ctx = _progress_runner(quiet)
        opts = CheckOptions(source_dirs=list(sources or []), cache_dir=cache_dir, use_cache=not no_cache, tiers=tier, progress=cb)
        with ctx:
            report = check(document, _with_zotero(bib, zotero, None), opts)
        text, n = locator_patch(document, report.findings)
    except CiteproofError as exc:
        _fail(exc)
        return
    if patch is not None:
        patch.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)
    if not quiet:
        err.print(f"{n} locator fix{'es' if n != 1 else ''} proposed" + (f" in {patch}" if patch is not None and n else "") + ("; the document was not changed" if n else ""), highlight=False)
    raise typer.Exit(EXIT_FINDINGS if n else EXIT_OK)


@app.command()
def watch(
    online: Annotated[bool, typer.Option("--online", help="Ask Crossref and OpenAlex for the status now (required: a watch is an online check).")] = False,
    offline: OfflineOpt = False,
    email: EmailOpt = "",
    cache_dir: CacheOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Re-check whether the works cited in earlier runs were retracted or corrected since.

    Reads the run history of the cache folder (every check that used the cache recorded its cited works), asks only
    the retraction and correction status of each DOI, and says which documents cite a newly retracted work.
    Exit 1 when any does, 0 otherwise, 2 on bad invocation.

    \b
      citeproof watch --online --email me@uni.edu
    """
    import json
    import sqlite3

    from citeproof.sources.cache import default_cache_dir
    from citeproof.watch import watch as run_watch

    if not (online or offline):
        _fail(CiteproofError("watch asks Crossref and OpenAlex about retractions: give --online (or --offline to answer from the cache)"))
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cb, ctx = _progress_runner(quiet or as_json)
    try:
        with ctx:
            res = run_watch(folder, email=email, offline=offline, progress=cb)
    except sqlite3.DatabaseError as exc:
        _fail(CiteproofError(f"{folder / 'history.sqlite'}: the run history cannot be read ({exc}); move it away to start a new one"))
        return
    if as_json:
        typer.echo(json.dumps(res.to_dict(), ensure_ascii=False, indent=1))
    else:
        for document, items in sorted(res.newly_retracted.items()):
            for key, w in items:
                typer.echo(f"{document}: cites '{key}' (doi:{w.doi}), RETRACTED since the document was last checked"
                           + (f" (notice doi:{w.notice})" if w.notice else ""))
        for document, items in sorted(res.newly_corrected.items()):
            for key, w in items:
                typer.echo(f"{document}: cites '{key}' (doi:{w.doi}), which has a new {', '.join(w.corrections).replace('_', ' ')}")
        if not quiet:
            failed = [w for w in res.works if w.error]
            for w in failed:
                err.print(f"warning: doi:{w.doi}: status not known ({w.error})", highlight=False, markup=False)
            n_new = sum(len(v) for v in res.newly_retracted.values())
            err.print(f"watched {len(res.works)} cited works of {res.documents} documents: "
                      + (f"{len(res.newly_retracted)} documents cite a newly retracted work ({n_new} citations)" if n_new else "no newly retracted work"),
                      highlight=False, markup=False)
    raise typer.Exit(EXIT_FINDINGS if res.newly_retracted else EXIT_OK)
