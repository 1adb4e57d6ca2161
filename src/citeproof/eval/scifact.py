"""SciFact harness: each claim x cited abstract, the abstract as the source.

Data (Wadden et al., "Fact or Fiction: Verifying Scientific Claims", EMNLP 2020):
``claims.jsonl`` rows ``{"id", "claim", "evidence": {doc_id: [{"sentences", "label"}]},
"cited_doc_ids"}``; ``corpus.jsonl`` rows ``{"doc_id", "title", "abstract": [sentences]}``.

Gold: a cited abstract with a SUPPORT evidence set -> ``supported``, CONTRADICT ->
``contradicted``, none -> ``other`` (NOT ENOUGH INFO).
Predicted: the entailment judge's verdict; ``supported`` -> supported,
``contradicted`` -> contradicted, ``partial`` and ``unsupported`` -> other.

The judge scores the :data:`TOP_K` sentences that BM25 + dense cosine rank first
(reciprocal rank fusion, k=60).

Evidence recall@k (``recall_at_k``), as FEVER defines evidence recall (Thorne
et al., NAACL 2018): the share of SUPPORT/CONTRADICT pairs for which at least
one complete gold rationale set (SciFact's evidence sets are minimal sufficient
sets of sentences) is among the top k sentences of the abstract. Sentences are
ranked by reciprocal rank fusion (k=60) of BM25, dense cosine (when the dense
tier is available) and the judge's ``max(P(entails), P(contradicts))`` over the
sentences it scored. ``sentence_recall_at_k`` is the stricter share of all gold
rationale sentences (micro-averaged) in the top k.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from citeproof.eval.metrics import classification_report, format_eval_text, in_sample_note
from citeproof.retrieval.sentence_bm25 import bm25_scores, order

LABELS = ("supported", "contradicted", "other")
MAPPING = {"supported": "supported", "contradicted": "contradicted", "partial": "other", "unsupported": "other"}

__all__ = ["LABELS", "MAPPING", "format_eval_text", "load_pairs", "run_scifact", "run_scifact_llm", "score_pairs"]


def _read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_pairs(claims_path: Path | str, corpus_path: Path | str, limit: int | None = None) -> list[dict]:
    """Claim x cited-abstract pairs.

    Args:
        claims_path: SciFact ``claims_*.jsonl``.
        corpus_path: SciFact ``corpus.jsonl``.
        limit: keep the first ``limit`` claims (None: all).

    Returns:
        dicts ``{"claim_id", "claim", "doc_id", "sentences", "gold", "rationale", "rationale_sets"}``;
        ``rationale`` is the sorted list of gold rationale sentence indices, ``rationale_sets``
        the gold evidence sets (lists of sentence indices); pairs whose
        abstract is missing from the corpus are skipped.

    Raises:
        FileNotFoundError: if either file is missing.
    """
    corpus = {int(r["doc_id"]): r["abstract"] for r in _read_jsonl(Path(corpus_path))}
    claims = _read_jsonl(Path(claims_path))
    if limit is not None:
        claims = claims[:limit]
    out = []
    for r in claims:
        for doc in r.get("cited_doc_ids", []):
            sents = corpus.get(int(doc))
            if not sents:
                continue
            evs = (r.get("evidence") or {}).get(str(doc), [])
            gold = "other"
            rat: set[int] = set()
            sets = []
            for ev in evs:
                gold = "supported" if ev["label"] == "SUPPORT" else "contradicted"
                rat.update(ev["sentences"])
                sets.append(sorted(ev["sentences"]))
            out.append({"claim_id": r["id"], "claim": r["claim"], "doc_id": int(doc), "sentences": sents,
                        "gold": gold, "rationale": sorted(rat), "rationale_sets": sets})
    return out


TOP_K = 6
"""Sentences of each abstract the judge scores: the top of BM25 + dense fusion."""


def score_pairs(pairs: list[dict], judge, retriever=None, top_k: int = TOP_K) -> list[dict]:
    """Add the judge's features and the fused sentence ranking to each pair (in place).

    Args:
        pairs: from :func:`load_pairs`.
        judge: an :class:`citeproof.judges.entailment.EntailmentJudge` (or anything with
            ``score_sentences``).
        retriever: a :class:`citeproof.retrieval.dense.DenseRetriever`, or None.
        top_k: sentences per abstract that the judge scores (the first ``top_k`` of
            BM25 + dense fusion).

    Returns:
        the same list; each pair gains ``features`` (``(12,)`` array), ``ranking``
        (all sentence indices, best first: fusion of the judge's
        ``max(P(entails), P(contradicts))`` over the scored sentences with BM25 and dense),
        ``top`` (the scored sentence indices) and ``probs`` (``(len(top), 3)``).
    """
    from citeproof.judges.entailment import features
    from citeproof.retrieval.dense import reciprocal_rank_fusion

    for p in pairs:
        sents = p["sentences"]
        rankings = [order(bm25_scores(p["claim"], sents))]
        if retriever is not None:
            from citeproof.model import Passage

            passages = [Passage(id=f"s{i}", text=s) for i, s in enumerate(sents)]
            rankings.append([i for i, _ in retriever.rank(p["claim"], passages, source_sha=f"scifact:{p['doc_id']}")])
        top = [i for i, _ in reciprocal_rank_fusion(rankings)][:top_k]
        sc = judge.score_sentences(p["claim"], [[sents[i] for i in top]])
        p["features"] = features(p["claim"], sc)
        p["top"], p["probs"] = top, sc.probs
        nli = np.maximum(sc.probs[:, 0], sc.probs[:, 2])
        rankings.insert(0, [top[j] for j in order(nli.tolist())])
        p["rankings"] = rankings  # entailment, BM25[, dense]: kept for analysis
        p["ranking"] = [i for i, _ in reciprocal_rank_fusion(rankings)]
    return pairs


def recall_at(pairs: list[dict], k: int) -> float | None:
    """Evidence recall@k (FEVER's definition, Thorne et al. 2018).

    Args:
        pairs: scored pairs with ``ranking`` and ``rationale_sets``.
        k: how many of the ranked sentences count as retrieved.

    Returns:
        The share of pairs with evidence for which some complete rationale set
        lies within the top ``k`` sentences; None when no pair has evidence.
    """
    hit = tot = 0
    for p in pairs:
        sets = p.get("rationale_sets") or ([p["rationale"]] if p.get("rationale") else [])
        if not sets:
            continue
        top = set(p["ranking"][:k])
        tot += 1
        hit += any(set(s) <= top for s in sets)
    return round(hit / tot, 4) if tot else None


def sentence_recall_at(pairs: list[dict], k: int) -> float | None:
    """Share of all gold rationale sentences ranked in the top ``k`` (None when there are none)."""
    hit = tot = 0
    for p in pairs:
        top = set(p["ranking"][:k])
        for i in p["rationale"]:
            tot += 1
            hit += i in top
    return round(hit / tot, 4) if tot else None


def run_scifact(claims_path: Path | str, corpus_path: Path | str, limit: int | None = None,
                judge=None, retriever=None, cache_dir: Path | str | None = None) -> dict:
    """Evaluate the entailment tier on SciFact-format data.

    Args:
        claims_path: ``claims.jsonl`` (SciFact format, see module docstring).
        corpus_path: ``corpus.jsonl``.
        limit: evaluate only the first ``limit`` claims.
        judge: an EntailmentJudge (default: the shipped model).
        retriever: a DenseRetriever (default: one if the dense tier is available).
        cache_dir: where the default retriever caches vectors (None: in memory).

    Returns:
        ``{"dataset": "scifact", "n", "accuracy", "macro_f1", "per_class", "labels",
        "confusion", "recall_at_1", "recall_at_3", "recall_at_5" (evidence recall, FEVER's
        definition), "sentence_recall_at_1", "sentence_recall_at_3", "sentence_recall_at_5", "mapping",
        "pairs_per_second", "seconds", "in_sample", "in_sample_note"}`` (labels: supported, contradicted, other).

    Raises:
        FileNotFoundError: if a file is missing.
        RuntimeError: if the entailment tier is not available.
    """
    from citeproof.judges.entailment import EntailmentJudge, decide
    from citeproof.retrieval import dense

    pairs = load_pairs(claims_path, corpus_path, limit)
    judge = judge or EntailmentJudge()
    if retriever is None and dense.available():
        retriever = dense.DenseRetriever(cache_dir)
    t0 = time.perf_counter()
    score_pairs(pairs, judge, retriever)
    dt = time.perf_counter() - t0
    n_windows = sum(len(p["top"]) for p in pairs)
    pred = [MAPPING[decide(p["features"], judge.config)[0]] for p in pairs]
    res = {"dataset": "scifact"}
    res.update(classification_report([p["gold"] for p in pairs], pred, LABELS))
    for k in (1, 3, 5):
        res[f"recall_at_{k}"] = recall_at(pairs, k)
    for k in (1, 3, 5):
        res[f"sentence_recall_at_{k}"] = sentence_recall_at(pairs, k)
    note = in_sample_note("scifact", claims_path)
    res["in_sample"], res["in_sample_note"] = note is not None, note
    res["mapping"] = dict(MAPPING)
    res["seconds"] = round(dt, 2)
    res["pairs_per_second"] = round(n_windows / dt, 1) if dt > 0 else None
    return res


def run_scifact_llm(claims_path: Path | str, corpus_path: Path | str, config, limit: int | None = None, top_k: int = TOP_K) -> dict:
    """Evaluate the LLM tier on SciFact-format data (``citeproof eval scifact --tier llm``).

    Each claim x cited abstract: the abstract's sentences are the source's
    passages; the lexical retriever's ``top_k`` best go to the LLM judge
    (:class:`citeproof.judges.llm.LLMJudge`, quotes grounded by code, second
    opinion over the whole abstract). When the tier abstains (no grounded
    answer) the prediction is ``other``. Calls run ``config.concurrency`` at a time.

    Args:
        claims_path, corpus_path: as for :func:`run_scifact`.
        config: a :class:`citeproof.judges.llm.LLMConfig`.
        limit: evaluate only the first ``limit`` claims.
        top_k: passages sent in the first prompt.

    Returns:
        :func:`run_scifact`'s classification keys plus ``"tier": "llm"``,
        ``"model"``, ``"abstained"`` (pairs with no grounded answer),
        ``"second_opinions"``, ``"ungrounded"`` (pairs with an ungrounded
        quote), ``"llm"`` (calls, cached calls, tokens, cost, budget_stopped), ``"seconds"``.

    Raises:
        FileNotFoundError: if a file is missing.
    """
    import hashlib
    from concurrent.futures import ThreadPoolExecutor

    from citeproof.judges.llm import LLMClient, LLMJudge
    from citeproof.model import Citation, Claim, Source
    from citeproof.retrieval.lexical import LexicalRetriever
    from citeproof.sources.text import parse_text

    pairs = load_pairs(claims_path, corpus_path, limit)
    retriever = LexicalRetriever()
    jobs = []
    for p in pairs:
        text = "\n\n".join(s.strip() for s in p["sentences"])
        passages, full = parse_text(text)
        src = Source(citekey=f"doc{p['doc_id']}", sha256=hashlib.sha256(text.encode()).hexdigest(), media_type="text/plain", origin="scifact", passages=passages, text=full)
        claim = Claim(id=str(p["claim_id"]), text=p["claim"], raw=p["claim"], citations=(Citation(citekey=src.citekey),), document="<scifact>", line=1)
        jobs.append((claim, retriever.retrieve(p["claim"], src, top=top_k)))
    client = LLMClient(config)
    judge = LLMJudge(client, top_passages=top_k)
    t0 = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=max(1, config.concurrency)) as pool:
            results = list(pool.map(lambda job: judge.judge(job[0], job[1]), jobs))
    finally:
        client.close()
    dt = time.perf_counter() - t0
    pred = [MAPPING.get(j.verdict.value, "other") if j is not None else "other" for j, _ in results]  # "error": a refused reply
    res: dict = {"dataset": "scifact", "tier": "llm", "model": config.model}
    res.update(classification_report([p["gold"] for p in pairs], pred, LABELS))
    res["abstained"] = sum(1 for j, _ in results if j is None)
    res["second_opinions"] = sum(1 for _, r in results if len(r["opinions"]) > 1)
    res["ungrounded"] = sum(1 for _, r in results if "ungrounded" in r["flags"])
    res["llm"] = client.account.to_dict()
    res["mapping"] = dict(MAPPING)
    res["seconds"] = round(dt, 2)
    return res
