"""Cross-validated figures and calibration for the entailment judge.

Subcommands (all write under ``--work``, default ``/tmp/judge``):

* ``score-scifact --model M.onnx --name NAME [--fold K]``: score SciFact training
  pairs (only fold K's claims when given, i.e. the fold model M never saw) and
  save features/rankings to ``oof_NAME.pkl``.
* ``folds``: for each fold K: ``train_judge.py scifact --fold K`` from
  ``--init``, export int8 ONNX, score fold K. Writes ``oof_sf_foldK.pkl``.
* ``stack --names N1 N2 ...``: nested grouped CV of the stacking LR on the
  out-of-fold features (LR for fold K fitted on the other folds only); prints
  macro-F1, per class, recall@k; ``--write-config`` writes the LR fitted on all
  folds into ``entailment.json``.
* ``ci --model M.onnx``: Citation-Integrity features with model M (never trained
  on it); grouped-by-article CV of the 12-feature ``citation_integrity`` profile;
  ``--write-config`` adds the profile fitted on all of it. The shipped profile,
  with retrieval-strength features, comes from ``training/ci_fit.py``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.eval import folds as foldlib  # noqa: E402
from citeproof.eval.metrics import classification_report, format_eval_text  # noqa: E402

DATA = ROOT / ".." / "shared" / "data"
SF_CLAIMS = DATA / "scifact" / "claims_train.jsonl"
SF_CORPUS = DATA / "scifact" / "corpus.jsonl"
CI_CLAIMS = DATA / "citation-integrity" / "claims_train.jsonl"
CI_TEXT = DATA / "citation-integrity" / "reference_fulltext"
CONFIG = ROOT / "src" / "citeproof" / "judges" / "models" / "entailment.json"
PY = sys.executable


def judge_for(model: Path):
    from citeproof.judges.entailment import EntailmentJudge, EntailmentModel

    return EntailmentJudge(model=EntailmentModel(model), config={})


def retriever(work: Path):
    from citeproof.retrieval import dense

    return dense.DenseRetriever(work / "cache") if dense.available() else None


def score_scifact(model: Path, name: str, work: Path, fold: int | None, n_folds: int, limit: int | None = None) -> None:
    from citeproof.eval.scifact import load_pairs, score_pairs

    pairs = load_pairs(SF_CLAIMS, SF_CORPUS, limit)
    fold_of = foldlib.scifact_claim_folds(SF_CLAIMS, n_folds)
    for p in pairs:
        p["fold"] = fold_of[p["claim_id"]]
    if fold is not None:
        pairs = [p for p in pairs if p["fold"] == fold]
    score_pairs(pairs, judge_for(model), retriever(work))
    with open(work / f"oof_{name}.pkl", "wb") as f:
        pickle.dump(pairs, f)
    print(f"scored {len(pairs)} pairs -> oof_{name}.pkl", flush=True)


def fit_lr(X: np.ndarray, y: list[str], classes: list[str], C: float = 1.0, balanced: bool = True) -> dict:
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(0), X.std(0) + 1e-6
    lr = LogisticRegression(C=C, max_iter=2000, class_weight="balanced" if balanced else None)
    lr.fit((X - mean) / scale, y)
    have = list(lr.classes_)
    coef = np.zeros((len(classes), X.shape[1]))
    icpt = np.full(len(classes), -10.0)  # a class absent from the training rows is never predicted
    if len(have) == 2:  # sklearn gives one row for two classes
        rows = {have[1]: (lr.coef_[0] / 2, lr.intercept_[0] / 2), have[0]: (-lr.coef_[0] / 2, -lr.intercept_[0] / 2)}
    else:
        rows = {c: (lr.coef_[i], lr.intercept_[i]) for i, c in enumerate(have)}
    for i, c in enumerate(classes):
        if c in rows:
            coef[i], icpt[i] = rows[c]
    return {"classes": classes, "mean": mean.tolist(), "scale": scale.tolist(),
            "coef": coef.tolist(), "intercept": icpt.tolist(), "partial_below": 0.0}


def nested_cv(recs: list[dict], gold_key: str, classes: list[str], mapping: dict, labels, C=1.0, balanced=True):
    from citeproof.judges.entailment import decide

    pred = [None] * len(recs)
    for k in sorted({r["fold"] for r in recs}):
        tr = [r for r in recs if r["fold"] != k]
        cfg = fit_lr(np.stack([r["features"] for r in tr]), [_to_class(r[gold_key], mapping, classes) for r in tr], classes, C, balanced)
        for i, r in enumerate(recs):
            if r["fold"] == k:
                pred[i] = mapping[decide(r["features"], cfg)[0]]
    return classification_report([r[gold_key] for r in recs], pred, labels), pred


def _to_class(gold: str, mapping: dict, classes: list[str]) -> str:
    for c in classes:
        if mapping[c] == gold:
            return c
    raise KeyError(gold)


def stack(names: list[str], work: Path, write: bool, C: float) -> None:
    from citeproof.eval.scifact import LABELS, MAPPING, recall_at, sentence_recall_at

    recs = []
    for n in names:
        with open(work / f"oof_{n}.pkl", "rb") as f:
            recs += pickle.load(f)
    classes = ["supported", "contradicted", "unsupported"]
    res, _ = nested_cv(recs, "gold", classes, MAPPING, LABELS, C=C)
    res["dataset"] = f"scifact (nested grouped {len({r['fold'] for r in recs})}-fold CV, {'+'.join(names)})"
    for k in (1, 3, 5):
        res[f"recall_at_{k}"] = recall_at(recs, k)
        res[f"sentence_recall_at_{k}"] = sentence_recall_at(recs, k)
    print(format_eval_text(res))
    # single-feature baselines, to see what stacking adds
    from citeproof.judges.entailment import FEATURE_NAMES

    gold = [r["gold"] for r in recs]
    X = np.stack([r["features"] for r in recs])
    argmax = ["supported" if e >= max(c, 0.5) else "contradicted" if c >= 0.5 else "other" for e, c in X[:, :2]]
    print("argmax-0.5 rule macro-F1", classification_report(gold, argmax, LABELS)["macro_f1"])
    # ablations: the stacking LR on lexical features only, and on the network's features only
    from citeproof.eval.scifact import recall_at as _r

    lex = [6, 9, 10, 11]
    for name, cols in (("lexical features only", lex), ("network features only", [0, 1, 2, 3, 4, 5, 7, 8])):
        sub = [dict(r, features=r["features"][cols]) for r in recs]
        rr, _ = nested_cv(sub, "gold", classes, MAPPING, LABELS, C=C)
        print(f"ablation, {name}: macro-F1 {rr['macro_f1']}")
    for j, name in enumerate(["entailment", "bm25", "dense"]):
        if all(len(r["rankings"]) > j for r in recs):
            alt = [dict(r, ranking=r["rankings"][j]) for r in recs]
            print(f"recall@1/3/5 by {name} alone: {_r(alt, 1)} / {_r(alt, 3)} / {_r(alt, 5)}")
    print(json.dumps({"macro_f1": res["macro_f1"], "recall_at_3": res["recall_at_3"]}))
    with open(work / f"stack_{'+'.join(names)}.json", "w") as f:
        json.dump(res, f, indent=1)
    if write:
        cfg = json.loads(CONFIG.read_text()) if CONFIG.exists() else {}
        new = fit_lr(X, [_to_class(g, MAPPING, classes) for g in gold], classes, C)
        profiles = cfg.get("profiles", {})
        cfg.update(new)
        cfg["profiles"] = profiles
        cfg["features"] = list(FEATURE_NAMES)
        cfg["labels"] = ["entails", "neutral", "contradicts"]
        CONFIG.write_text(json.dumps(cfg, indent=1))
        print(f"wrote {CONFIG}")


def folds(init: Path, work: Path, n_folds: int, epochs: float, lr: float, only: list[int] | None,
          max_minutes: float = 0.0) -> None:
    for k in range(n_folds):
        if only and k not in only:
            continue
        pt, onnx = work / f"sf_fold{k}.pt", work / f"sf_fold{k}.onnx"
        if not pt.exists():
            subprocess.run([PY, str(ROOT / "training" / "train_judge.py"), "scifact", "--init", str(init), "--out", str(pt),
                            "--fold", str(k), "--folds", str(n_folds), "--epochs", str(epochs), "--lr", str(lr),
                            "--max-len", "160", "--max-minutes", str(max_minutes)], check=True)
        if not onnx.exists():
            subprocess.run([PY, str(ROOT / "training" / "train_judge.py"), "export", "--init", str(pt), "--out", str(onnx)], check=True)
        score_scifact(onnx, f"sf_fold{k}", work, k, n_folds)


def ci(model: Path, work: Path, write: bool, C: float, limit: int | None) -> None:
    from citeproof.eval.citation_integrity import LABELS, MAPPING, score_claims

    cache = work / f"ci_{model.stem}.pkl"
    if cache.exists():
        recs = pickle.load(open(cache, "rb"))
    else:
        rows = [json.loads(line) for line in open(CI_CLAIMS, encoding="utf-8") if line.strip()]
        if limit:
            rows = rows[:limit]
        fold_of = foldlib.citation_integrity_folds(CI_CLAIMS, 5)
        for r in rows:
            r["fold"] = fold_of[r["id"]]
        recs = score_claims(rows, CI_TEXT, judge_for(model), None)  # BM25 top 3, the profile before retrieval-strength features
        for r in recs:
            r["features"] = r["features"][:12]  # the judge's 12; training/ci_fit.py fits the profile with retrieval strength
        pickle.dump(recs, open(cache, "wb"))
    # NOT_ACCURATE is mostly oversimplified / not substantiated citing: the profile calls that class ``partial``.
    classes = ["supported", "partial", "unsupported"]
    mapping = {"supported": "ACCURATE", "partial": "NOT_ACCURATE", "unsupported": "IRRELEVANT_OR_NEI", "contradicted": "NOT_ACCURATE"}
    res, _ = nested_cv(recs, "label", classes, mapping, LABELS, C=C)
    res["dataset"] = "citation-integrity (nested grouped-by-article 5-fold CV)"
    print(format_eval_text(res))
    with open(work / "ci_cv.json", "w") as f:
        json.dump(res, f, indent=1)
    if write:
        from citeproof.judges.entailment import FEATURE_NAMES

        cfg = json.loads(CONFIG.read_text())
        X = np.stack([r["features"] for r in recs])
        prof = fit_lr(X, [_to_class(r["label"], mapping, classes) for r in recs], classes, C)
        prof["features"] = list(FEATURE_NAMES)
        cfg.setdefault("profiles", {})["citation_integrity"] = prof
        CONFIG.write_text(json.dumps(cfg, indent=1))
        print(f"wrote profile citation_integrity to {CONFIG}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["score-scifact", "folds", "stack", "ci"])
    ap.add_argument("--work", type=Path, default=Path("/tmp/judge"))
    ap.add_argument("--model", type=Path)
    ap.add_argument("--init", type=Path)
    ap.add_argument("--name")
    ap.add_argument("--names", nargs="*")
    ap.add_argument("--fold", type=int)
    ap.add_argument("--only", type=int, nargs="*")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--max-minutes", type=float, default=0.0, help="per-fold training time budget")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--write-config", action="store_true")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    if a.cmd == "score-scifact":
        score_scifact(a.model, a.name, a.work, a.fold, a.folds, a.limit)
    elif a.cmd == "folds":
        folds(a.init, a.work, a.folds, a.epochs, a.lr, a.only, a.max_minutes)
    elif a.cmd == "stack":
        stack(a.names, a.work, a.write_config, a.C)
    else:
        ci(a.model, a.work, a.write_config, a.C, a.limit)


if __name__ == "__main__":
    main()
