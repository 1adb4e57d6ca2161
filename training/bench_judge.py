"""Throughput of the shipped entailment model: SciFact claim x abstract-sentence pairs per second.

Usage: ``python training/bench_judge.py [MODEL.onnx] [N_PAIRS]``. Prints pairs/s (wall) with 2
onnxruntime threads, batch 32, inputs sorted by length (as ``EntailmentModel.predict_pairs`` does), and
pairs per CPU-second, which is what two free cores would give at best on a shared machine.
"""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from citeproof.judges.entailment import MODEL_PATH, EntailmentModel  # noqa: E402

DATA = ROOT / ".." / "shared" / "data" / "scifact"
model = Path(sys.argv[1]) if len(sys.argv) > 1 else MODEL_PATH
n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
corpus = {}
for line in open(DATA / "corpus.jsonl"):
    r = json.loads(line)
    corpus[r["doc_id"]] = r["abstract"]
pairs = []
for line in open(DATA / "claims_train.jsonl"):
    r = json.loads(line)
    for d in r["cited_doc_ids"]:
        pairs += [(s, r["claim"]) for s in corpus.get(int(d), [])]
    if len(pairs) >= n:
        break
pairs = pairs[:n]
m = EntailmentModel(model)
m.predict_pairs(pairs[:32])
t, c = time.perf_counter(), time.process_time()
m.predict_pairs(pairs)
dt, cpu = time.perf_counter() - t, time.process_time() - c
# On a shared machine wall time understates the speed; pairs per CPU-second x 2 estimates 2 free cores.
print(json.dumps({"pairs": len(pairs), "seconds": round(dt, 2), "pairs_per_second": round(len(pairs) / dt, 1),
                  "cpu_seconds": round(cpu, 2), "pairs_per_cpu_second": round(len(pairs) / cpu, 1)}))
