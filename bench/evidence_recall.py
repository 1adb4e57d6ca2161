"""Evidence recall of the candidate stage, with and without the dense tier (issue 27: does each tier earn its cost?).

    python bench/evidence_recall.py [DATA_DIR] [--ci N] [--pool N] [--max-tokens N] [--dense-only]

``--pool`` and ``--max-tokens`` try another ``tiers.DENSE_POOL`` or ``retrieval.dense.MAX_TOKENS``.

On the training splits that name their evidence: WiCE dev (claims supported or partially supported, each with
its supporting sentences of the cited page) and Citation-Integrity train (citing sentences with the annotated
``candidate_sentences`` of the cited full text; a seeded sample of ``--ci`` claims). For each claim the candidates
are found as ``citeproof eval meaning`` finds them (``Tiers.candidates``: BM25 alone, or BM25 and the dense tier
fused), and counted: whether a gold evidence sentence is in the first 1, 3 and 8 candidate passages, and whether
it is among the sentences the entailment judge reads (``judges.entailment.bound_sentences`` over the judge's
``top_k`` candidates, at most ``SENTENCE_BUDGET`` sentences; ``judged_k8``: over 8 candidates; ``judged_b10``:
at most 10 sentences). A gold sentence counts as found in a text when its whitespace-folded, lower-case
form is inside it (or, for a judged sentence, when the judged sentence is at least half of it and inside it).
Prints one JSON line per set and arm, and the CPU-seconds each arm took.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from citeproof.judges.entailment import SENTENCE_BUDGET, EntailmentJudge  # noqa: E402


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().lower()


def load(data: Path, ci_n: int, seed: int = 7) -> list[dict]:
    out = []
    wi = data / "wice-dev" / "claim_dev.jsonl"
    for i, line in enumerate(wi.read_text(encoding="utf-8").splitlines() if wi.is_file() else []):
        c = json.loads(line)
        if c["label"] == "not_supported" or not c.get("supporting_sentences"):
            continue
        gold = sorted({k for group in c["supporting_sentences"] for k in group})
        out.append({"set": "wice", "claim": c["claim"], "text": "\n\n".join(c["evidence"]),
                    "gold": [c["evidence"][k] for k in gold if k < len(c["evidence"])]})
    ci = data / "citation-integrity"
    rows = []
    if (ci / "claims_train.jsonl").is_file():
        from citeproof.eval.citation_integrity import clean_claim

        for line in (ci / "claims_train.jsonl").read_text(encoding="utf-8").splitlines():
            c = json.loads(line)
            p = ci / "reference_fulltext" / f"{c['ref_pmcid']}.txt"
            if c["label"] in ("ACCURATE", "NOT_ACCURATE") and c.get("candidate_sentences") and p.is_file():
                rows.append({"set": "citation-integrity", "claim": clean_claim(c["claim"]), "path": p,
                             "gold": c["candidate_sentences"]})
    random.Random(seed).shuffle(rows)
    texts: dict[Path, str] = {}
    for r in rows[:ci_n]:
        p = r.pop("path")
        r["text"] = texts.setdefault(p, p.read_text(encoding="utf-8", errors="replace"))
        out.append(r)
    return out


def _found(gold: list[str], texts: list[str], judged: bool = False) -> bool:
    gs = [_norm(g) for g in gold if len(g.strip()) >= 20]
    for t in texts:
        nt = _norm(t)
        for g in gs:
            if g in nt or (judged and len(nt) >= len(g) / 2 and nt in g):
                return True
    return False


JUDGE_K = inspect.signature(EntailmentJudge).parameters["top_k"].default
"""How many candidates the entailment judge reads (its ``top_k``); ``judged_k8`` counts what 8 would give."""


def measure(items: list[dict], dense: bool) -> dict:
    from citeproof.judges.entailment import bound_sentences
    from citeproof.model import Source
    from citeproof.sources.text import parse_text
    from citeproof.text.sentences import split_sentences
    from citeproof.tiers import Tiers

    tiers = Tiers(["lexical", "dense"] if dense else ["lexical"])
    if dense and tiers.dense is None:
        raise SystemExit("the dense tier cannot run here: " + "; ".join(tiers.notes))
    per: dict[str, dict[str, int]] = {}
    sources: dict[str, Source] = {}
    t = time.process_time()
    for it in items:
        sha = hashlib.sha256(it["text"].encode()).hexdigest()
        src = sources.get(sha)
        if src is None:
            passages, full = parse_text(it["text"])
            src = sources[sha] = Source(citekey="src", path=None, sha256=sha, media_type="text/plain", origin="text",
                                        passages=passages, text=full)
        cands = tiers.candidates(it["claim"], src, None, set()) if src.passages else []
        texts = [c.passage.text for c in cands]
        m = per.setdefault(it["set"], {"claims": 0, "at1": 0, "at3": 0, "at8": 0, "judged": 0, "judged_k8": 0,
                                       "judged_b10": 0})
        for key, k, budget in (("judged", JUDGE_K, SENTENCE_BUDGET), ("judged_k8", 8, SENTENCE_BUDGET),
                               ("judged_b10", JUDGE_K, 10)):
            read = [s for g in bound_sentences(it["claim"], [split_sentences(x) or [x] for x in texts[:k]], budget)
                    for s in g]
            m[key] += _found(it["gold"], read, judged=True)
        m["claims"] += 1
        m["at1"] += _found(it["gold"], texts[:1])
        m["at3"] += _found(it["gold"], texts[:3])
        m["at8"] += _found(it["gold"], texts[:8])
    return {"cpu_s": round(time.process_time() - t, 1), "sets": per}


def main() -> None:
    args = sys.argv[1:]
    data = Path(args[0]) if args and not args[0].startswith("--") else ROOT.parent / "shared" / "data"
    ci_n = int(args[args.index("--ci") + 1]) if "--ci" in args else 300
    if "--pool" in args:
        from citeproof import tiers as tiers_mod

        tiers_mod.DENSE_POOL = int(args[args.index("--pool") + 1])
    if "--max-tokens" in args:
        from citeproof.retrieval import dense as dense_mod

        dense_mod.MAX_TOKENS = int(args[args.index("--max-tokens") + 1])
    items = load(data, ci_n)
    for dense in ((True,) if "--dense-only" in args else (False, True)):
        res = measure(items, dense)
        for name, m in res["sets"].items():
            n = m["claims"]
            print(json.dumps({"arm": "bm25+dense" if dense else "bm25", "set": name, "claims": n,
                              **{k: round(v / n, 3) for k, v in m.items() if k != "claims"}}))
        print(json.dumps({"arm": "bm25+dense" if dense else "bm25", "cpu_s": res["cpu_s"]}), flush=True)


if __name__ == "__main__":
    main()
