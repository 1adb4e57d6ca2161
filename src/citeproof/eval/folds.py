"""Cross-validation folds grouped by cited document.

A claim and every document it cites land in the same fold, and so do all claims
that cite a same document (connected components of the claim–document graph),
so no held-out document or claim is ever seen in training. Folds are assigned
by a deterministic greedy balance of component sizes (largest first).
"""

from __future__ import annotations

import json
from pathlib import Path


def grouped_folds(items: list[tuple[object, list[object]]], n_folds: int = 5) -> dict[object, int]:
    """Assign each item to a fold so that items sharing any group key share a fold.

    Args:
        items: ``(item_id, group_keys)`` pairs, e.g. (claim id, cited doc ids).
        n_folds: number of folds (>= 2).

    Returns:
        item id -> fold index in ``range(n_folds)``.

    Raises:
        ValueError: if ``n_folds < 2``.
    """
    if n_folds < 2:
        raise ValueError("n_folds must be >= 2")
    parent: dict[object, object] = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for item, keys in items:
        a = find(("item", item))
        for k in keys:
            b = find(("key", k))
            if a != b:
                parent[b] = a
    comps: dict[object, list[object]] = {}
    for item, _ in items:
        comps.setdefault(find(("item", item)), []).append(item)
    order = sorted(comps.values(), key=lambda c: (-len(c), str(c[0])))
    load = [0] * n_folds
    out: dict[object, int] = {}
    for comp in order:
        f = min(range(n_folds), key=lambda i: (load[i], i))
        load[f] += len(comp)
        for it in comp:
            out[it] = f
    return out


def _folds_of_jsonl(claims_path: Path, n_folds: int, groups) -> dict[int, int]:
    """Claim id -> fold for a JSONL claims file; ``groups(row)`` gives the documents a claim is grouped by."""
    with open(claims_path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return grouped_folds([(r["id"], groups(r)) for r in rows], n_folds)


def scifact_claim_folds(claims_path: Path, n_folds: int = 5) -> dict[int, int]:
    """SciFact claim id -> fold, grouped by ``cited_doc_ids``."""
    return _folds_of_jsonl(claims_path, n_folds, lambda r: [int(d) for d in r["cited_doc_ids"]])


def citation_integrity_folds(claims_path: Path, n_folds: int = 5) -> dict[int, int]:
    """Citation-Integrity claim id -> fold, grouped by ``ref_pmcid``."""
    return _folds_of_jsonl(claims_path, n_folds, lambda r: [r["ref_pmcid"]])
