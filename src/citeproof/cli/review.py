"""The reviewer's commands: ``diff``, ``history`` and ``locate``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from citeproof.errors import EXIT_FINDINGS, EXIT_OK, CiteproofError

from citeproof.cli._common import (
    SourceArg,
    app,
    out,
    BibOpt,
    CacheOpt,
    NoCacheOpt,
    SourcesOpt,
    _fail,
    _n,
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


@app.command()
def locate(
    source: SourceArg,
    phrase: Annotated[str, typer.Argument(help="The phrase to find, in quotes.", show_default=False)],
    bib: BibOpt = None,
    sources: SourcesOpt = None,
    cache_dir: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="At most this many places.")] = 5,
    min_score: Annotated[float, typer.Option("--min-score", min=0, max=100, help="Least fuzzy score (0-100) of a place when the phrase is not there exactly.")] = 80.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print the page(s) and passage(s) of a source holding a phrase: exact matches first, else fuzzy ones.

    Case, curly quotes, dashes, ligatures and line-end hyphens do not count. Exit 1 when the phrase is not found.

        citeproof locate smith2020 "expense ratios fell" --bib refs.bib
        citeproof locate sources/smith2020.pdf "expense ratios fell"
    """
    import json as _json

    from rich.text import Text

    from citeproof.locate import locate_phrase
    from citeproof.single_source import open_source

    try:
        src = open_source(source, list(bib or []), list(sources or []), cache_dir, not no_cache, "locate")
        hits = locate_phrase(src, phrase, limit=limit, min_score=min_score)
    except CiteproofError as exc:
        _fail(exc)
        return
    except ValueError as exc:
        _fail(CiteproofError(f"locate: {exc}"))
        return
    kind = hits[0].kind if hits else "none"
    if as_json:
        out.print(_json.dumps({"source": src.path, "citekey": src.citekey, "phrase": phrase, "match": kind,
                               "hits": [h.to_dict(src) for h in hits]}, indent=2, ensure_ascii=False), markup=False, highlight=False)
        raise typer.Exit(EXIT_OK if hits else EXIT_FINDINGS)
    if not hits:
        out.print(f"{src.path}: \"{phrase}\" not found (not exactly, nor fuzzily at score {min_score:g} or more)", markup=False, highlight=False)
        raise typer.Exit(EXIT_FINDINGS)
    how = "exactly" if kind == "exact" else f"fuzzily (score {min_score:g} or more; no exact match)"
    out.print(f"{src.path}: \"{phrase}\" found {how} in {_n(len(hits), 'place')}", markup=False, highlight=False)
    for h in hits:
        first, last = h.passages[0], h.passages[-1]
        lo, hi = max(first.char_start, h.start - 120), min(last.char_end, h.end + 120)
        raw_before, raw_after = src.text[lo:h.start], src.text[h.end:hi]
        before = " ".join(raw_before.split())
        match = " ".join(src.text[h.start:h.end].split())
        after = " ".join(raw_after.split())
        ids = ", ".join(p.id for p in h.passages)
        head = f"{h.where()} ({ids}{'' if h.kind == 'exact' else f', score {h.score:.0f}'}): "
        line = Text(head)
        # a space between the pieces only where the source has one ("covers popular, paywalled", not "popular ,")
        line.append(("…" if lo > first.char_start else "") + before + (" " if before and raw_before[-1:].isspace() else ""))
        line.append(match, style="bold")
        line.append((" " if after and raw_after[:1].isspace() else "") + after + ("…" if hi < last.char_end else ""))
        out.print(line, highlight=False)
    raise typer.Exit(EXIT_OK)
