"""Extend a ``training/ci_cache.py`` cache: score BM25's first ``--top`` sentences of every claim that it lacks.

Issue 16, part 6: does judging more candidate sentences of a full text (10-20, not 8) help the decision layer?
The cache holds the network's probabilities for BM25's first 8 (and the fusion's); this adds the missing ones
up to ``--top`` so that ``training/ci_fit.py --ks 3 5 8 10 15`` can compare, with no claim scored twice.
Sentences come from the cache's ``ci_sentences.json`` (the cut the cache was made with).

``nice -n 10 python training/ci_extend.py --cache build/ci_cache.jsonl --top 15 --out build/ci_cache15.jsonl``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.judges.entailment import EntailmentModel
from citeproof.retrieval.sentence_bm25 import order


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    docs = json.loads(a.cache.with_name("ci_sentences.json").read_text())
    recs = [json.loads(line) for line in a.cache.read_text().splitlines() if line.strip()]
    done = {json.loads(line)["id"] for line in a.out.read_text().splitlines()} if a.out.exists() else set()
    model = EntailmentModel()
    t0, n = time.time(), 0
    with open(a.out, "a", encoding="utf-8") as out:
        for k, r in enumerate(recs):
            if r["id"] in done:
                continue
            sents = docs[r["ref_pmcid"]]
            want = [i for i in order(r["bm25"])[: a.top] if i not in set(r["scored"])]
            if want:
                probs = model.predict_pairs([(sents[i], r["text"]) for i in want])
                r["scored"] = list(r["scored"]) + want
                r["probs"] = list(r["probs"]) + [[round(float(x), 4) for x in p] for p in probs]
                n += len(want)
            out.write(json.dumps(r) + "\n")
            if k % 100 == 0:
                print(f"{k}/{len(recs)} claims, {n} pairs, {n / max(time.time() - t0, 1e-9):.1f} pairs/s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
