"""The meaning stage's decision layer and candidate, after ``training/meaning_data.py`` and the ``pairs`` stage.

``python training/meaning_fit.py calibrate --model build/judge/meaning/meaning.onnx --split build/judge/meaning/split.json --out build/judge/meaning/cand``

Scores the calibration SciFact claims of ``split.json`` (the meaning stage never trains on them; the shipped judge
it starts from did, in its SciFact stage) with the model
(the judge's 12 features, :func:`citeproof.eval.scifact.score_pairs`, as ``training/crossval.py`` does), reports
the decision layer's grouped cross-validated macro-F1 on them (``crossval.nested_cv``: the LR of each fold fitted
on the other folds) beside the same figure for ``--baseline`` (default: the shipped model with its layer re-fitted
the same way), and writes ``OUT/src/citeproof``: a copy of the package with the model and the layer fitted on all
calibration claims, so ``PYTHONPATH=OUT/src citeproof eval meaning`` measures the candidate with the pipeline's own
code. Nothing under ``src/`` changes: ship with ``cp`` once the candidate wins.

``python training/meaning_fit.py twins --rows build/meaning-rows.jsonl --models A.onnx B.onnx``: the network's
own sensitivity to one changed word (:func:`twin_drop`), with no decision layer or policy in between.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))

import crossval  # noqa: E402
from citeproof.eval import folds as foldlib  # noqa: E402

SHIPPED = ROOT / "src" / "citeproof" / "judges" / "models" / "entailment-minilm-l6-int8.onnx"
CLASSES = ["supported", "contradicted", "unsupported"]


def scored(model: Path, claim_ids: set[int], work: Path) -> list[dict]:
    """SciFact training pairs of ``claim_ids`` with ``model``'s features, each with its grouped fold (5)."""
    from citeproof.eval.scifact import load_pairs, score_pairs

    pairs = [p for p in load_pairs(crossval.SF_CLAIMS, crossval.SF_CORPUS) if p["claim_id"] in claim_ids]
    # the calibration claims are two of meaning_data's five folds: re-split them in five by cited document
    groups = foldlib.grouped_folds([(p["claim_id"], [p["doc_id"]]) for p in pairs], 5)
    for p in pairs:
        p["fold"] = groups[p["claim_id"]]
    score_pairs(pairs, crossval.judge_for(model), crossval.retriever(work))
    return pairs


def cv_figure(pairs: list[dict], C: float) -> dict:
    from citeproof.eval.scifact import LABELS, MAPPING

    res, _ = crossval.nested_cv(pairs, "gold", CLASSES, MAPPING, LABELS, C=C)
    return {"macro_f1": res["macro_f1"], "per_class": {k: v["f1"] for k, v in res["per_class"].items()}, "n": len(pairs)}


def write_candidate(model: Path, pairs: list[dict], out: Path, C: float) -> Path:
    """A copy of ``src/citeproof`` under ``out/src`` with ``model`` and a layer fitted on all ``pairs``."""
    from citeproof.eval.scifact import MAPPING
    from citeproof.judges.entailment import FEATURE_NAMES

    pkg = out / "src" / "citeproof"
    if pkg.exists():
        shutil.rmtree(pkg)
    shutil.copytree(ROOT / "src" / "citeproof", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    models = pkg / "judges" / "models"
    shutil.copyfile(model, models / SHIPPED.name)
    cfg_path = models / "entailment.json"
    cfg = json.loads(cfg_path.read_text())
    profiles = cfg.get("profiles", {})
    X = np.stack([p["features"] for p in pairs])
    cfg.update(crossval.fit_lr(X, [crossval._to_class(p["gold"], MAPPING, CLASSES) for p in pairs], CLASSES, C))
    cfg["profiles"], cfg["features"] = profiles, list(FEATURE_NAMES)
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n", encoding="utf-8")
    return pkg


def twin_drop(rows_path: Path, models: list[Path]) -> list[dict]:
    """Does one changed word move P(entails)? For each generated term swap of ``eval meaning``'s rows whose
    faithful original is a row too: the sentence the judge read for the original, scored with the original claim
    and with the swapped one, by each model (int8 ONNX, 256 word pieces).

    Returns:
        one dict per model: ``n`` twins, mean P(entails) faithful / swapped, ``drop`` (mean difference) and
        ``lower`` (share with the swapped claim at least 0.05 lower).
    """
    from citeproof.judges.entailment import EntailmentModel

    rows = {r["id"]: r for r in (json.loads(line) for line in open(rows_path, encoding="utf-8"))}
    twins = []
    for i, r in rows.items():
        o = rows.get(i[: -len(":swap")]) if i.endswith(":swap") else None
        if r["dataset"] == "swap" and o is not None and o.get("e") and o["e"].get("sentence"):
            twins.append((o["e"]["sentence"], o["claim"], r["claim"]))
    out = []
    for m in models:
        em = EntailmentModel(m, max_tokens=256)
        a = em.predict_pairs([(s, c) for s, c, _ in twins])[:, 0]
        b = em.predict_pairs([(s, w) for s, _, w in twins])[:, 0]
        out.append({"model": str(m), "n": len(twins), "faithful": round(float(a.mean()), 3), "swapped": round(float(b.mean()), 3),
                    "drop": round(float((a - b).mean()), 3), "lower": round(float((b < a - 0.05).mean()), 3)})
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=["calibrate", "twins"])
    ap.add_argument("--rows", type=Path, help="twins: recorded rows of eval meaning (any model's: the sentences)")
    ap.add_argument("--models", type=Path, nargs="+", help="twins: int8 ONNX judges to compare")
    ap.add_argument("--model", type=Path, help="the candidate int8 ONNX judge")
    ap.add_argument("--baseline", type=Path, default=SHIPPED)
    ap.add_argument("--split", type=Path, help="split.json of training/meaning_data.py")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--C", type=float, default=1.0, help="the layer's inverse L2 strength (crossval.fit_lr)")
    a = ap.parse_args(argv)
    if a.stage == "twins":
        if a.rows is None or not a.models:
            ap.error("twins needs --rows and --models")
        for r in twin_drop(a.rows, a.models):
            print(json.dumps(r))
        return
    if a.model is None or a.split is None or a.out is None:
        ap.error("calibrate needs --model, --split and --out")
    ids = set(json.loads(a.split.read_text())["calibrate_claims"])
    a.out.mkdir(parents=True, exist_ok=True)
    report = {}
    for name, m in (("baseline", a.baseline), ("candidate", a.model)):
        pairs = scored(m, ids, a.out)
        report[name] = cv_figure(pairs, a.C)
        print(name, json.dumps(report[name]), flush=True)
    pkg = write_candidate(a.model, pairs, a.out, a.C)
    (a.out / "calibration.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {pkg} (run: PYTHONPATH={a.out / 'src'} citeproof eval meaning)")


if __name__ == "__main__":
    main()
