"""Cache the entailment tier's and the retrievers' outputs on Citation-Integrity training claims, once.

For every claim of ``claims_train.jsonl`` (markers removed by
:func:`citeproof.eval.citation_integrity.clean_claim`), against the cited full
text cut by :func:`~citeproof.eval.citation_integrity.load_fulltext`:

* BM25 score of every sentence (:class:`citeproof.retrieval.sentence_bm25.BM25Index`) and dense
  cosine of every sentence (all-MiniLM-L6-v2, :class:`citeproof.retrieval.dense.DenseRetriever`);
* the entailment network's probabilities for the union of the first ``--top``
  sentences of BM25 + dense reciprocal rank fusion and the first 3 of BM25 alone.

One JSON line per claim is appended to ``--out`` (resumable: claims already
there are skipped): ``id``, ``label``, ``ref_pmcid``, ``fold`` (grouped by
article, :func:`citeproof.eval.folds.citation_integrity_folds`), ``text``,
``bm25`` / ``cos`` (every sentence's score, rounded to 4 places; ``cos`` None without ``--dense``), ``scored``
(sentence indices) and ``probs`` (one ``[entails, neutral, contradicts]`` per
scored index). The features and the decision layer are then fitted on this file
(``training/ci_fit.py``) without running a model again.

``nice -n 10 python training/ci_cache.py --out build/ci_cache.jsonl [--top 8] [--dense] [--limit N]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.eval import folds as foldlib
from citeproof.eval.citation_integrity import clean_claim, load_fulltext
from citeproof.retrieval.sentence_bm25 import BM25Index, order

DATA = Path("/work/shared/data") if Path("/work/shared/data").is_dir() else ROOT / ".." / "shared" / "data"
CI_CLAIMS = DATA / "citation-integrity" / "claims_train.jsonl"
CI_TEXT = DATA / "citation-integrity" / "reference_fulltext"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--dense", action="store_true")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--cache-dir", type=Path, default=ROOT / "build" / "dense-cache")
    a = ap.parse_args()
    from citeproof.judges.entailment import EntailmentModel
    from citeproof.model import Passage
    from citeproof.retrieval.dense import DenseRetriever, reciprocal_rank_fusion

    rows = [json.loads(line) for line in CI_CLAIMS.read_text(encoding="utf-8").splitlines() if line.strip()]
    if a.limit:
        rows = rows[: a.limit]
    fold_of = foldlib.citation_integrity_folds(CI_CLAIMS, 5)
    done = set()
    if a.out.exists():
        done = {json.loads(line)["id"] for line in a.out.read_text().splitlines() if line.strip()}
    dense = None
    if a.dense:
        a.cache_dir.mkdir(parents=True, exist_ok=True)
        dense = DenseRetriever(a.cache_dir)
    model = EntailmentModel()
    todo = [r for r in rows if r["id"] not in done and (CI_TEXT / f"{r['ref_pmcid']}.txt").is_file()]
    random.Random(a.seed).shuffle(todo)
    docs: dict[str, tuple] = {}
    t0, n = time.time(), 0
    for r in todo:
        pmc = r["ref_pmcid"]
        if pmc not in docs:
            p = CI_TEXT / f"{pmc}.txt"
            sents = load_fulltext(p)
            sha = hashlib.sha256(p.read_bytes()).hexdigest()
            vecs = dense.passage_vectors([Passage(id=f"s{i}", text=s) for i, s in enumerate(sents)], sha) if dense else None
            docs[pmc] = (sents, BM25Index(sents), vecs)
        sents, index, vecs = docs[pmc]
        text = clean_claim(r["claim"])
        bm = index.scores(text)
        bm_order = order(bm)
        cos = None
        if dense is not None:
            cos = (vecs @ dense.embedder.embed([text])[0]).tolist()
            fused = [i for i, _ in reciprocal_rank_fusion([bm_order, order(cos)])][: a.top]
            scored = list(dict.fromkeys(fused + bm_order[:3]))
        else:
            scored = bm_order[: a.top]
        probs = model.predict_pairs([(sents[i], text) for i in scored])
        rec = {"id": r["id"], "label": r["label"], "ref_pmcid": pmc, "fold": fold_of[r["id"]], "text": text,
               "bm25": [round(x, 4) for x in bm], "cos": None if cos is None else [round(x, 4) for x in cos],
               "scored": scored, "probs": [[round(float(x), 5) for x in row] for row in probs]}
        with open(a.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        n += 1
        if n % 50 == 0:
            print(f"{n} claims, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    print(f"done: {n} claims in {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
