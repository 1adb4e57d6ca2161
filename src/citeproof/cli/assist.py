"""``citeproof fix --locators``: the corrected locators of a check as a patch (issue 25, part 3).

The draft is never changed: the command writes a unified diff (to stdout, or ``--patch FILE``) that the author
applies with ``patch -p0 < fix.patch`` or ``git apply fix.patch``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from citeproof.cli._common import BibOpt, CacheOpt, DocArg, NoCacheOpt, QuietOpt, SourcesOpt, ZoteroOpt, _fail, _progress_runner, _with_zotero, app, err
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
