"""The reviewer's commands: ``diff`` and ``history``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from citeproof.errors import EXIT_FINDINGS, EXIT_OK, CiteproofError

from citeproof.cli._common import (
    app,
    out,
    CacheOpt,
    _fail,
)


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
