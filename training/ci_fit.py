"""Fit and cross-validate the decision layer on cached model outputs (no model is run).

Reads the cache of ``training/ci_cache.py`` (Citation-Integrity training
claims) and, for each setting of the decision layer
(which sentences the judge sees: BM25's first k, or the first k of BM25 + dense
fusion; which features: the 12 of :data:`citeproof.judges.entailment.FEATURE_NAMES`,
plus the retrieval-strength ones of :mod:`citeproof.judges.strength`), scores
the multinomial LR (balanced class weights, C = 1, as ``training/crossval.py``):

* ``plain``: grouped k-fold CV of each setting (the LR for fold f fitted on the
  other folds). Informational: choosing the best row of this table would tune
  on the reported folds.
* ``nested``: the headline. For each outer fold f the setting is chosen by the
  same CV run on the other folds only, the LR refitted on them, and fold f
  predicted; figures are pooled over the outer folds.

``python training/ci_fit.py ci --cache build/ci_cache.jsonl [--ks 3 5 8] [--out FILE]``; ``--write-config``
writes the setting chosen on all folds into ``entailment.json``'s profile; ``--fold-profiles FILE`` writes the
shipped profile's setting fitted once per fold without it (held-out profiles for ``citeproof.eval.policy_fit``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))

from crossval import CONFIG, fit_lr

from citeproof.eval.metrics import classification_report
from citeproof.retrieval.sentence_bm25 import order
from citeproof.judges.entailment import FEATURE_NAMES, SentenceScores, features
from citeproof.judges.strength import STRENGTH_FEATURE_NAMES, strength_features
from citeproof.retrieval.dense import reciprocal_rank_fusion

FEATURE_SETS = {
    "judge12": list(range(12)),
    "judge12+bm25": list(range(12)) + [12, 13, 16, 17, 18],  # no cosine: BM25-only retrieval
    "judge12+strength": list(range(12 + len(STRENGTH_FEATURE_NAMES))),
}




def build(rec: dict, sents: list[str], retrieval: str, k: int, claim_key: str) -> np.ndarray | None:
    """The full feature row (12 judge + 7 strength) of one cached claim for one setting; None if not cached."""
    bm, cos = rec["bm25"], rec.get("cos")
    if retrieval == "bm25":
        top = order(bm)[:k]
    else:
        top = [i for i, _ in reciprocal_rank_fusion([order(bm), order(cos)])][:k]
    if "scored" in rec:
        pos = {i: j for j, i in enumerate(rec["scored"])}
    else:
        pos = {i: i for i in range(len(sents))}
    if any(i not in pos for i in top):
        return None
    probs = np.array([rec["probs"][pos[i]] for i in top], dtype=np.float32).reshape(-1, 3)
    text = rec[claim_key]
    sc = SentenceScores([sents[i] for i in top], list(range(len(top))), probs)
    return np.concatenate([features(text, sc), strength_features(text, sents, bm, cos, top, probs)])


def _predict(cfg: dict, X: np.ndarray) -> list[str]:
    """The LR's class per row: :func:`citeproof.judges.entailment.decide` without a signal, vectorised."""
    assert not cfg.get("partial_below"), "the vectorised prediction assumes partial_below = 0"
    z = ((X - np.asarray(cfg["mean"])) / np.asarray(cfg["scale"])) @ np.asarray(cfg["coef"]).T + np.asarray(cfg["intercept"])
    return [cfg["classes"][k] for k in z.argmax(1)]


def cv(X: np.ndarray, y: list[str], folds: np.ndarray, classes, mapping, labels, gold, *, exclude: frozenset = frozenset(),
       memo: dict | None = None, key: object = None) -> tuple[dict, list[str]]:
    """Grouped CV on the rows whose fold is not in ``exclude``: each fold predicted by the LR fitted on the others.

    ``memo`` (with ``key`` naming ``X``'s setting and columns) keeps each fit by the set of folds left out of
    its training rows, so nested CV refits nothing twice. Returns the report and the predictions of those rows.
    """
    keep = ~np.isin(folds, list(exclude))
    idx = np.flatnonzero(keep)
    pred: dict[int, str] = {}
    for f in sorted(set(folds[keep].tolist())):
        out = frozenset(exclude | {f})
        mk = (key, out)
        if memo is None or mk not in memo:
            tr = ~np.isin(folds, list(out))
            cfg = fit_lr(X[tr], [c for c, t in zip(y, tr) if t], classes)
            if memo is not None:
                memo[mk] = cfg
        cfg = memo[mk] if memo is not None else cfg
        te = np.flatnonzero(folds == f)
        for i, c in zip(te, _predict(cfg, X[te])):
            pred[int(i)] = mapping[c]
    preds = [pred[int(i)] for i in idx]
    return classification_report([gold[int(i)] for i in idx], preds, labels), preds


def nested_cv(mats: dict, feature_sets: dict[str, list[int]], y: list[str], gold: list[str], folds: np.ndarray,
              classes: list[str], mapping: dict[str, str], labels, memo: dict | None = None) -> tuple[dict, dict[int, dict]]:
    """Nested grouped CV: for each outer fold, choose (setting, feature set) by CV on the other folds, refit, predict.

    Args:
        mats: setting -> ``(n, 19)`` feature rows (one per claim, same order as ``y``).
        feature_sets: name -> column indices.
        y: the LR's class per claim (``classes``); gold: the data set's label per claim.
        folds: ``(n,)`` fold per claim (grouped by cited document).
        classes, mapping, labels: LR classes, class -> data-set label, data-set labels in report order.
        memo: fits already made (see :func:`cv`), shared with the plain CV.

    Returns:
        ``(classification report pooled over the outer folds, {fold: {"setting", "inner_macro_f1"}})``;
        no claim of an outer fold is used to choose or fit what predicts it.
    """
    memo = {} if memo is None else memo
    pred: list[str] = [""] * len(y)
    chosen = {}
    for f in sorted(set(folds.tolist())):
        best, best_f1 = None, -1.0
        for s, X in mats.items():
            for fs, cols in feature_sets.items():
                res, _ = cv(X[:, cols], y, folds, classes, mapping, labels, gold, exclude=frozenset({f}), memo=memo, key=(s, fs))
                if res["macro_f1"] > best_f1 + 1e-9:
                    best, best_f1 = (s, fs), res["macro_f1"]
        s, fs = best
        cols = feature_sets[fs]
        mk = ((s, fs), frozenset({f}))
        if mk not in memo:
            tr = folds != f
            memo[mk] = fit_lr(mats[s][tr][:, cols], [c for c, t in zip(y, tr) if t], classes)
        te = np.flatnonzero(folds == f)
        for i, c in zip(te, _predict(memo[mk], mats[s][te][:, cols])):
            pred[int(i)] = mapping[c]
        chosen[int(f)] = {"setting": f"{s[0]}@{s[1]} {fs}", "inner_macro_f1": round(best_f1, 4)}
        print(f"outer fold {f}: chose {chosen[int(f)]}", file=sys.stderr, flush=True)
    return classification_report(gold, pred, labels), chosen


def run(kind: str, cache: Path, ks: list[int], write: bool) -> dict:
    """Plain and nested CV of every setting on the cached claims; with ``write``, the profile into ``entailment.json``.

    Returns:
        ``{"dataset", "n", "folds", "fold_sizes", "before" (12 features, BM25 top 3), "nested", "plain"[, "written"]}``.
    """
    recs = [json.loads(line) for line in cache.read_text().splitlines() if line.strip()]
    if kind == "ci":
        from citeproof.eval.citation_integrity import LABELS, load_fulltext

        text_dir = Path("/work/shared/data/citation-integrity/reference_fulltext")
        if not text_dir.is_dir():
            text_dir = ROOT / ".." / "shared" / "data" / "citation-integrity" / "reference_fulltext"
        # the full texts cut into sentences once, kept beside the cache (syntok over 3.3 MB is minutes on a busy machine)
        sent_file = cache.with_name("ci_sentences.json")
        docs: dict[str, list[str]] = json.loads(sent_file.read_text()) if sent_file.exists() else {}
        for pmc in sorted({r["ref_pmcid"] for r in recs} - set(docs)):
            docs[pmc] = load_fulltext(text_dir / f"{pmc}.txt")
        sent_file.write_text(json.dumps(docs))
        sents_of = lambda r: docs[r["ref_pmcid"]]
        classes = ["supported", "partial", "unsupported"]
        mapping = {"supported": "ACCURATE", "partial": "NOT_ACCURATE", "unsupported": "IRRELEVANT_OR_NEI", "contradicted": "NOT_ACCURATE"}
        gold = [r["label"] for r in recs]
        claim_key = "text"
        settings = [("bm25", 3)] + [("bm25", k) for k in ks if k != 3]
        if all(r.get("cos") is not None for r in recs):
            settings += [("fused", k) for k in ks]
    inv = {v: k for k, v in mapping.items() if k != "contradicted"}
    y = [inv[g] for g in gold]
    folds = np.array([r["fold"] for r in recs])
    feature_sets = dict(FEATURE_SETS)
    if any(r.get("cos") is None for r in recs):
        del feature_sets["judge12+strength"]  # no cosines cached
    mats = {}
    for s in settings:
        rows = [build(r, sents_of(r), s[0], s[1], claim_key) for r in recs]
        if any(x is None for x in rows):
            print(f"setting {s}: not all sentences cached, skipped", file=sys.stderr)
            continue
        mats[s] = np.stack(rows)
    plain: dict[str, float] = {}
    memo: dict = {}
    for s, X in mats.items():
        for fs, cols in feature_sets.items():
            res, _ = cv(X[:, cols], y, folds, classes, mapping, LABELS, gold, memo=memo, key=(s, fs))
            plain[f"{s[0]}@{s[1]} {fs}"] = res["macro_f1"]
            print(f"plain CV {s[0]}@{s[1]:<3} {fs:<18} macro-F1 {res['macro_f1']:.4f}", file=sys.stderr, flush=True)
    base_key = (settings[0], "judge12")
    base, _ = cv(mats[settings[0]][:, FEATURE_SETS["judge12"]], y, folds, classes, mapping, LABELS, gold, memo=memo,
                 key=(settings[0], "judge12"))
    nested, chosen = nested_cv(mats, feature_sets, y, gold, folds, classes, mapping, LABELS, memo=memo)
    out = {"dataset": kind, "n": len(recs), "folds": len(set(folds.tolist())),
           "fold_sizes": {int(f): int((folds == f).sum()) for f in sorted(set(folds.tolist()))},
           "before": base | {"setting": f"{base_key[0][0]}@{base_key[0][1]} judge12"},
           "nested": nested | {"chosen": chosen}, "plain": plain}
    if write:
        # the setting chosen on all folds (by the same CV), fitted on all of them
        best = max(((s, fs) for s in mats for fs in feature_sets), key=lambda sf: plain[f"{sf[0][0]}@{sf[0][1]} {sf[1]}"])
        (s, fs) = best
        cols = feature_sets[fs]
        prof = fit_lr(mats[s][:, cols], y, classes)
        names = list(FEATURE_NAMES) + list(STRENGTH_FEATURE_NAMES)
        prof["features"] = [names[c] for c in cols]
        prof["retrieval"] = {"method": "bm25" if s[0] == "bm25" else "bm25+dense", "top_k": s[1]}
        cfg = json.loads(CONFIG.read_text())
        key = "citation_integrity" if kind == "ci" else None
        if key:
            cfg.setdefault("profiles", {})[key] = prof
            CONFIG.write_text(json.dumps(cfg, indent=1))
            print(f"wrote profile {key} ({s[0]}@{s[1]} {fs}) to {CONFIG}", file=sys.stderr)
        out["written"] = f"{s[0]}@{s[1]} {fs}"
    return out


def fold_profiles(cache: Path, out: Path) -> dict:
    """Fit the shipped profile's setting once per fold, each without that fold: held-out profiles for other harnesses.

    The planted-error recorder (``citeproof.eval.policy_fit --fulltext-profiles``) judges a Citation-Integrity
    article with the profile fitted without that article's fold, so no claim citing it was used to fit what
    judges it. Writes ``{"setting", "features", "fold_of_pmcid": {pmcid: fold}, "profiles": {fold: profile}}``.
    """
    cfg = json.loads(CONFIG.read_text())
    shipped = cfg["profiles"]["citation_integrity"]
    names = list(FEATURE_NAMES) + list(STRENGTH_FEATURE_NAMES)
    cols = [names.index(n) for n in shipped["features"]]
    k = int(shipped["retrieval"]["top_k"])
    recs = [json.loads(line) for line in cache.read_text().splitlines() if line.strip()]
    docs = json.loads(cache.with_name("ci_sentences.json").read_text())
    X = np.stack([build(r, docs[r["ref_pmcid"]], "bm25", k, "text") for r in recs])[:, cols]
    inv = {"ACCURATE": "supported", "NOT_ACCURATE": "partial", "IRRELEVANT_OR_NEI": "unsupported"}
    y = [inv[r["label"]] for r in recs]
    folds = np.array([r["fold"] for r in recs])
    profiles = {}
    for f in sorted(set(folds.tolist())):
        tr = folds != f
        prof = fit_lr(X[tr], [c for c, t in zip(y, tr) if t], list(shipped["classes"]))
        profiles[str(f)] = prof | {"features": shipped["features"], "retrieval": shipped["retrieval"]}
    res = {"setting": f"bm25@{k}", "features": shipped["features"],
           "fold_of_pmcid": {r["ref_pmcid"]: int(r["fold"]) for r in recs}, "profiles": profiles}
    out.write_text(json.dumps(res))
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["ci"])
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--ks", type=int, nargs="*", default=[3, 5, 10, 15, 20])
    ap.add_argument("--write-config", action="store_true")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--fold-profiles", type=Path, help="write one held-out profile per fold to this file and stop")
    a = ap.parse_args()
    if a.fold_profiles:
        res = fold_profiles(a.cache, a.fold_profiles)
        print(json.dumps({"setting": res["setting"], "folds": sorted(res["profiles"]), "articles": len(res["fold_of_pmcid"])}))
        return
    res = run(a.kind, a.cache, a.ks, a.write_config)
    text = json.dumps(res, indent=1)
    if a.out:
        a.out.write_text(text + "\n")
    print(json.dumps({k: res[k] for k in ("dataset", "n", "folds", "fold_sizes")} |
                     {"before_macro_f1": res["before"]["macro_f1"], "nested_macro_f1": res["nested"]["macro_f1"]}))


if __name__ == "__main__":
    main()
