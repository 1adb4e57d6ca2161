"""Classification metrics for the eval harnesses (no scikit-learn needed at run time)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def classification_report(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> dict:
    """Macro-F1, per-class precision/recall/F1 and the confusion matrix.

    Args:
        gold: gold labels.
        pred: predicted labels, same length; a label outside ``labels`` counts as wrong.
        labels: the classes, in report order.

    Returns:
        ``{"n", "accuracy", "macro_f1", "per_class": {label: {"precision", "recall",
        "f1", "support"}}, "labels", "confusion": [[...]]}``; ``confusion[i][j]`` counts
        gold ``labels[i]`` predicted ``labels[j]``. A class never predicted has precision 0.

    Raises:
        ValueError: if the lengths differ.
    """
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    idx = {lab: i for i, lab in enumerate(labels)}
    conf = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, pred):
        if g in idx and p in idx:
            conf[idx[g]][idx[p]] += 1
    per = {}
    f1s = []
    for i, lab in enumerate(labels):
        tp = conf[i][i]
        npred = sum(conf[r][i] for r in range(len(labels)))
        ngold = sum(1 for g in gold if g == lab)
        prec = tp / npred if npred else 0.0
        rec = tp / ngold if ngold else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        per[lab] = {"precision": round(prec, 4), "recall": round(rec, 4), "f1": round(f1, 4), "support": ngold}
        f1s.append(f1)
    n = len(gold)
    return {
        "n": n,
        "accuracy": round(sum(1 for g, p in zip(gold, pred) if g == p) / n, 4) if n else 0.0,
        "macro_f1": round(sum(f1s) / len(f1s), 4) if f1s else 0.0,
        "per_class": per,
        "labels": list(labels),
        "confusion": conf,
    }


TRAINED_ON = {
    "scifact": "the shipped entailment network and its default decision layer were fine-tuned on SciFact's training split",
    "citation-integrity": "the shipped decision layer's citation_integrity profile was fitted on Citation-Integrity's training split",
}
"""What the shipped judge saw in training, per data set (``judges/models/MODEL_CARD.md``)."""


def in_sample_note(dataset: str, claims_path: str | Path) -> str | None:
    """A warning when the evaluated claims are (by name) the split the shipped judge was fitted on.

    Args:
        dataset: ``scifact`` or ``citation-integrity``.
        claims_path: the claims file evaluated; a file name containing ``train``
            (``claims_train.jsonl``) is taken as the training split.

    Returns:
        The warning (naming what was fitted on it and where honest figures are), or None.
    """
    name = Path(claims_path).name.lower()
    if dataset not in TRAINED_ON or "train" not in name:
        return None
    return (f"in-sample: {TRAINED_ON[dataset]}, so this figure on {Path(claims_path).name} is optimistic; "
            "the cross-validated figures are in src/citeproof/judges/models/MODEL_CARD.md")


def format_eval_text(result: dict) -> str:
    """Render a harness result (from ``run_scifact`` or ``run_citation_integrity``) for a terminal.

    Args:
        result: a dict with at least ``macro_f1``, ``per_class``, ``labels`` and
            ``confusion``; ``dataset``, ``n``, ``recall_at_3``, ``pairs_per_second``
            and ``mapping`` are shown when present; ``in_sample`` true puts a
            ``WARNING: in-sample ...`` line (``in_sample_note``) first.

    Returns:
        plain text, lines separated by ``\\n``, no trailing newline.
    """
    labs = result["labels"]
    w = max(12, *(len(x) for x in labs)) + 2
    lines = [f"WARNING: {result['in_sample_note']}"] if result.get("in_sample") else []
    lines.append(f"{result.get('dataset', 'eval')}: {result.get('n', '?')} pairs")
    lines.append(f"macro-F1 {result['macro_f1']:.3f}   accuracy {result.get('accuracy', 0):.3f}")
    if "recall_at_3" in result and result["recall_at_3"] is not None:
        lines.append(f"evidence recall@1/3/5 {result.get('recall_at_1', 0):.3f} / {result['recall_at_3']:.3f} / "
                     f"{result.get('recall_at_5', 0):.3f}  (pairs with a complete rationale set in the top k, as FEVER)")
    if result.get("sentence_recall_at_3") is not None:
        lines.append(f"sentence recall@1/3/5 {result.get('sentence_recall_at_1', 0):.3f} / {result['sentence_recall_at_3']:.3f} / "
                     f"{result.get('sentence_recall_at_5', 0):.3f}  (share of all rationale sentences in the top k)")
    lines.append("")
    lines.append(f"{'class':<{w}}{'precision':>10}{'recall':>10}{'F1':>10}{'support':>10}")
    for lab in labs:
        c = result["per_class"][lab]
        lines.append(f"{lab:<{w}}{c['precision']:>10.3f}{c['recall']:>10.3f}{c['f1']:>10.3f}{c['support']:>10d}")
    lines.append("")
    lines.append("confusion (rows gold, columns predicted)")
    lines.append(" " * w + "".join(f"{lab[:14]:>16}" for lab in labs))
    for lab, row in zip(labs, result["confusion"]):
        lines.append(f"{lab:<{w}}" + "".join(f"{v:>16d}" for v in row))
    if "mapping" in result:
        lines.append("")
        lines.append("verdict mapping: " + ", ".join(f"{k} -> {v}" for k, v in result["mapping"].items()))
    if result.get("pairs_per_second"):
        lines.append(f"speed: {result['pairs_per_second']:.1f} judged claim x sentence pairs/s end to end "
                     f"(retrieval included), {result.get('seconds', 0):.1f} s")
    return "\n".join(lines)
