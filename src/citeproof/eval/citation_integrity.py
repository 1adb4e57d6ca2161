"""Citation-Integrity harness: real citing sentences against the cited article's full text.

Data (Sarol, Ming, Radhakrishna, Schneider, Kilicoglu, "Assessing citation integrity
in biomedical publications", Bioinformatics 40(7), 2024): ``claims.jsonl`` rows
``{"id", "claim", "label", "ref_pmcid", ...}`` where ``[<|cit|>]`` marks the
citation checked and ``<|multi_cit|>``/``<|other_cit|>`` other markers;
``DIR/<ref_pmcid>.txt`` is the cited article's plain full text.

Procedure: markers are removed from the claim; the full text is cut into
paragraphs (blank lines) and sentences; the profile's ``retrieval`` block says
which sentences the judge sees: the first ``top_k`` by BM25 (``method: bm25``)
or by reciprocal rank fusion of BM25 and dense cosine (``bm25+dense``; without
the block, BM25's first :data:`TOP_K`). The entailment tier scores them; the
judge's features, and the retrieval-strength features of
:mod:`citeproof.judges.strength` when the profile names them, go through the
``citation_integrity`` profile of ``entailment.json`` (a multinomial LR over
supported / partial / unsupported, fitted on this dataset's training split by
``training/ci_fit.py``; cross-validated figures with folds grouped by cited
article are in the model card; the network weights never saw it).

Verdict mapping (3 classes):

* ``supported`` -> ``ACCURATE``
* ``partial``, ``contradicted`` -> ``NOT_ACCURATE``
* ``unsupported`` -> ``IRRELEVANT_OR_NEI``
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path

from citeproof.eval.metrics import (
    classification_report,
    format_eval_text,
    in_sample_note,
)
from citeproof.retrieval.sentence_bm25 import BM25Index

LABELS = ("ACCURATE", "NOT_ACCURATE", "IRRELEVANT_OR_NEI")
MAPPING = {"supported": "ACCURATE", "partial": "NOT_ACCURATE", "contradicted": "NOT_ACCURATE",
           "unsupported": "IRRELEVANT_OR_NEI"}
TOP_K = 3
"""Sentences of the full text the judge sees per claim when the profile has no ``retrieval`` block."""

_MARKERS = re.compile(r"\s*\[?\s*<\|(?:cit|multi_cit|other_cit)\|>\s*\]?")

__all__ = ["LABELS", "MAPPING", "clean_claim", "format_eval_text", "load_fulltext", "profile_columns", "run_citation_integrity", "score_claims"]


_BRACKETED = re.compile(r"\s*\[[^\[\]]*<\|(?:cit|multi_cit|other_cit)\|>[^\[\]]*\]|\s*\[\s*\d+(?:\s*[-\u2013,]\s*\d+)*\s*\]")


def clean_claim(text: str) -> str:
    """Remove citation markers: ``[<|cit|>]``, ``[<|multi_cit|>, 7]``, ``<|other_cit|>``, ``[46]``, empty brackets."""
    t = _BRACKETED.sub(" ", text)
    t = _MARKERS.sub(" ", t)
    t = re.sub(r"\[\s*[,;]*\s*\]|\(\s*[,;]*\s*\)", "", t)
    t = re.sub(r"\s+([.,;:])", r"\1", t)
    return " ".join(t.split())


def load_fulltext(path: Path) -> list[str]:
    """Sentences of a plain full text, as the full-text judge ranks them.

    The text is read by :func:`citeproof.sources.text.parse_text` (a passage per
    paragraph) and cut by :func:`citeproof.judges.fulltext.source_sentences`,
    the pipeline's own path (sentences under 20 characters left out).
    """
    from citeproof.judges.fulltext import source_sentences
    from citeproof.sources.text import parse_text

    passages, _ = parse_text(Path(path).read_text(encoding="utf-8", errors="replace"))
    return source_sentences(passages, frozenset())[0]


def score_claims(rows: list[dict], fulltext_dir: Path, judge, retriever=None, top_k: int = TOP_K,
                 profile: dict | None = None) -> list[dict]:
    """Retrieve, judge and attach features to each claim row (copies; ``rows`` is not changed).

    Each claim goes through :func:`citeproof.judges.fulltext.score_full_text`, the
    function the pipeline's entailment tier calls for a full-text source.

    Args:
        rows: claim rows (see module docstring).
        fulltext_dir: folder of ``<ref_pmcid>.txt``.
        judge: an EntailmentJudge.
        retriever: a DenseRetriever to fuse with BM25, or None for BM25 only.
        top_k: sentences per claim the judge scores (the first of BM25, or of the fusion).
        profile: the decision layer; when given each row also gets ``verdict``.

    Returns:
        the rows that have a full text, each with ``text`` (cleaned claim), ``features``
        (``(19,)`` array: the 12 of :data:`~citeproof.judges.entailment.FEATURE_NAMES`, then the 7
        of :data:`~citeproof.judges.strength.STRENGTH_FEATURE_NAMES`; the cosine ones 0 without
        ``retriever``), ``top`` (sentence indices judged), ``verdict`` (with ``profile``).
    """
    from citeproof.judges.fulltext import score_full_text
    from citeproof.model import Passage

    cache: dict[str, tuple[list[str], list[Passage], str, BM25Index | None]] = {}
    out = []
    for r in rows:
        pmc = r["ref_pmcid"]
        if pmc not in cache:
            p = Path(fulltext_dir) / f"{pmc}.txt"
            if not p.is_file():
                cache[pmc] = ([], [], "", None)
            else:
                sents = load_fulltext(p)
                sha = hashlib.sha256(p.read_bytes()).hexdigest()
                cache[pmc] = (sents, [Passage(id=f"s{i}", text=s) for i, s in enumerate(sents)], sha, BM25Index(sents))
        sents, passages, sha, index = cache[pmc]
        if not sents or index is None:
            continue
        text = clean_claim(r["claim"])
        cos = dense_order = None
        if retriever is not None:
            ranked = retriever.rank(text, passages, source_sha=sha)
            dense_order = [i for i, _ in ranked]
            cos = [0.0] * len(sents)
            for i, c in ranked:
                cos[i] = c
        res = score_full_text(text, sents, index, judge, profile, cosine=cos, dense_order=dense_order, top_k=top_k)
        r = dict(r)
        r["text"], r["top"], r["features"] = text, res.top, res.features
        if profile is not None:
            r["verdict"] = res.verdict
        r["n_windows"] = len(res.scores.windows)
        out.append(r)
    return out


def profile_columns(profile: dict) -> list[int]:
    """Indices into :func:`score_claims`' ``features`` of a profile's features (:func:`citeproof.judges.fulltext.profile_columns`)."""
    from citeproof.judges.fulltext import profile_columns as columns

    return columns(profile)


def run_citation_integrity(claims_path: Path | str, fulltext_dir: Path | str, limit: int | None = None,
                           judge=None, retriever=None, cache_dir: Path | str | None = None,
                           dense: bool | None = None) -> dict:
    """Evaluate the entailment tier on Citation-Integrity-format data.

    Args:
        claims_path: ``claims.jsonl`` (see module docstring).
        fulltext_dir: folder holding ``<ref_pmcid>.txt`` for each cited article.
        limit: evaluate only the first ``limit`` claims.
        judge: an EntailmentJudge (default: the shipped model).
        retriever: a DenseRetriever to fuse with BM25 (default: one when the profile's
            ``retrieval.method`` is ``bm25+dense`` or ``dense`` is true, else BM25 alone).
        cache_dir: where a DenseRetriever made here caches vectors (None: in memory).
        dense: force (True) or forbid (False) BM25 + dense fusion; None: as the profile says.

    Returns:
        ``{"dataset": "citation-integrity", "n", "accuracy", "macro_f1", "per_class",
        "labels", "confusion", "mapping", "retrieval", "pairs_per_second", "seconds", "skipped", "in_sample",
        "in_sample_note"}`` (labels ACCURATE, NOT_ACCURATE, IRRELEVANT_OR_NEI; ``retrieval``
        ``{"method", "top_k"}``; ``skipped`` counts claims whose full text is missing).

    Raises:
        FileNotFoundError: if ``claims_path`` is missing.
        RuntimeError: if the entailment tier is not available, or the dense tier is wanted and is not.
        ValueError: if the profile names a feature this harness does not compute.
    """
    from citeproof.judges.entailment import EntailmentJudge
    from citeproof.retrieval import dense as dense_mod

    with open(claims_path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if limit is not None:
        rows = rows[:limit]
    judge = judge or EntailmentJudge()
    profile = judge.config.get("profiles", {}).get("citation_integrity", judge.config)
    profile_columns(profile)  # an unknown feature name fails here, before any claim is scored
    how = profile.get("retrieval") or {"method": "bm25", "top_k": TOP_K}
    want_dense = how.get("method") == "bm25+dense" if dense is None else dense
    if not want_dense:
        retriever = None
    elif retriever is None:
        why = dense_mod.unavailable_reason()
        if why:
            raise RuntimeError(f"the citation_integrity profile fuses BM25 with the dense tier, which cannot run: {why}")
        retriever = dense_mod.DenseRetriever(cache_dir)
    t0 = time.perf_counter()
    scored = score_claims(rows, Path(fulltext_dir), judge, retriever, top_k=int(how.get("top_k", TOP_K)), profile=profile)
    dt = time.perf_counter() - t0
    pred = [MAPPING[r["verdict"]] for r in scored]
    res = {"dataset": "citation-integrity"}
    res.update(classification_report([r["label"] for r in scored], pred, LABELS))
    note = in_sample_note("citation-integrity", claims_path)
    res["in_sample"], res["in_sample_note"] = note is not None, note
    res["mapping"] = dict(MAPPING)
    res["retrieval"] = {"method": "bm25+dense" if retriever is not None else "bm25", "top_k": int(how.get("top_k", TOP_K))}
    res["skipped"] = len(rows) - len(scored)
    res["seconds"] = round(dt, 2)
    nw = sum(r["n_windows"] for r in scored)
    res["pairs_per_second"] = round(nw / dt, 1) if dt > 0 else None
    return res
