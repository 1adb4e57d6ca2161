"""Re-fit the verdict policy (:mod:`citeproof.judges.policy`) on planted-error items, cross-validated.

Step 1, :func:`record_versions`: run the planted-error harness
(:func:`citeproof.eval.planted.run_planted`, SciFact and Citation-Integrity
*training* splits) with a judge that keeps, for every judged version, both
tiers' raw judgements: the entailment tier's verdict and calibrated
confidence, the lexical coverage of the best-covered passage, and the
downgrading tags the detectors give on each tier's evidence.

Step 2, :func:`cross_validate`: simulate every policy of a grid on those rows
(no model is run again), choose on four folds (grouped by item, so an item's
untouched and planted versions stay together) the policy with the best F1 of
recall and balanced precision, and score it on the fifth. The figures
returned are pooled over the five held-out folds, for the shipped policy and
the fitted one, by data set.

Caveat printed with the figures: the shipped network was fine-tuned on
SciFact train, so on SciFact items the entailment tier is in-sample (its
confidences optimistic). Citation-Integrity full texts go through the full-text
decision layer (:mod:`citeproof.judges.fulltext`, the pipeline's own call),
fitted on Citation-Integrity train: give ``--fulltext-profiles`` (one profile per
fold, ``training/ci_fit.py --fold-profiles``) to judge each article with a
profile that never saw it. Each row also keeps both tiers' evidence text, so the
detectors can be re-run on the rows without the network.

``python -m citeproof.eval.policy_fit [--data DIR] [--seed N] [--limit N] [--ci-max N] [--sf-max N] [--shard I/N]
[--fulltext-profiles FILE] --rows FILE``
then ``python -m citeproof.eval.policy_fit --fit-only --rows FILE`` (the rows of several shards concatenated).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import json
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citeproof.detectors import DOWNGRADE_THRESHOLD, DOWNGRADING_TAGS, run_detectors
from citeproof.judges.policy import POLICY, Policy, decide
from citeproof.model import (
    Citation,
    Claim,
    Finding,
    Reference,
    Source,
    Tier,
    UnitKind,
    Verdict,
)

__all__ = ["GRID", "cross_validate", "record_versions", "score", "simulate"]

GRID: dict[str, tuple[float | None, ...]] = {
    "support_at": (0.5, 0.6, 0.7),
    "decide_at": (0.6, 0.7, 0.8),
    "contradict_at": (0.7, 0.8, 0.9),
    "fallback_supported_at": (0.30, 0.35, 0.45, 0.55),
    "fallback_partial_at": (0.20, 0.30),
    "lean_against_at": (0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 1.01),
    "lean_contradicted_at": (None, 0.6, 0.7, 1.01),
}
"""The settings tried (every combination with ``fallback_partial_at < fallback_supported_at``)."""


def _downgrading(tags) -> list[str]:
    return sorted({t.name for t in tags if t.name in DOWNGRADING_TAGS and t.confidence >= DOWNGRADE_THRESHOLD})


def record_versions(data_dir: Path, *, seed: int = 13, limit: int | None = None, ci_max: int = 150,
                    sf_max: int | None = None, shard: tuple[int, int] | None = None,
                    stream: Path | None = None, fulltext_profiles: Path | None = None) -> list[dict[str, Any]]:
    """Judge every planted-harness version once and keep both tiers' raw judgements.

    Args:
        data_dir: the shared data folder (``scifact/``, ``citation-integrity/``).
        seed, limit, ci_max, sf_max, shard: as :func:`citeproof.eval.planted.run_planted`.
        stream: a JSON-lines file each row is appended to as soon as it is judged (None: none).
        fulltext_profiles: held-out full-text decision layers (``training/ci_fit.py --fold-profiles``): a
            Citation-Integrity article is judged by the profile fitted without its fold (None: the shipped
            profile, which was fitted on every Citation-Integrity training claim, so in-sample here).

    Returns:
        One dict per judged version: the harness record (``item``, ``dataset``,
        ``kind``, ``template``...) plus ``e_verdict``, ``e_conf`` (entailment
        tier), ``coverage`` (lexical coverage of the best-covered candidate, 0..1),
        ``tags_e`` / ``tags_l`` (downgrading tags on each tier's evidence).

    Raises:
        RuntimeError: the entailment tier cannot run here.
    """
    from citeproof.eval.planted import run_planted
    from citeproof.judges import fulltext
    from citeproof.judges.fulltext import PROFILE
    from citeproof.pipeline import Tiers
    from citeproof.sources.text import parse_text

    tiers = Tiers(None)
    if tiers.entailment is None:
        raise RuntimeError("policy_fit needs the entailment tier: " + "; ".join(tiers.notes))
    side: list[dict[str, Any]] = []
    held = json.loads(Path(fulltext_profiles).read_text()) if fulltext_profiles else None
    shipped_config = tiers.entailment.config

    def judge(claim_text: str, source_text: str, *, citekey: str = "src") -> Finding:
        passages, full = parse_text(source_text)
        src = Source(citekey=citekey, path=None, sha256=hashlib.sha256(source_text.encode()).hexdigest(),
                     media_type="text/plain", origin="text", passages=passages, text=full)
        cite = Citation(citekey=citekey, line=1)
        claim = Claim(id="c0001", text=claim_text, raw=claim_text, citations=(cite,), document="<text>", line=1,
                      kind=UnitKind.SENTENCE)
        cands = tiers.candidates(claim_text, src, None, set()) if passages else []
        by_cov = sorted(cands, key=lambda e: -e.scores.get("lexical", 0.0))
        lj = tiers.fallback_judge.judge(claim, by_cov, None)
        ej = None
        full = False
        if cands:
            if held is not None and citekey in held["fold_of_pmcid"]:
                prof = held["profiles"][str(held["fold_of_pmcid"][citekey])]
                tiers.entailment.config = shipped_config | {"profiles": shipped_config.get("profiles", {}) | {PROFILE: prof}}
            else:
                tiers.entailment.config = shipped_config
            full = fulltext.applies(tiers.entailment, claim, cands)
            ej = fulltext.entailment_judgement(tiers.entailment, claim, cands, None)  # the full-text layer, as eval citation-integrity uses it
        tags_l = run_detectors(claim, lj.evidence, src) if lj.evidence is not None else []
        tags_e = run_detectors(claim, ej.evidence, src) if ej is not None and ej.evidence is not None else []
        side.append({"e_fulltext": full, "e_verdict": ej.verdict.value if ej else None, "e_conf": round(ej.confidence, 4) if ej else 0.0,
                     "coverage": round(by_cov[0].scores.get("lexical", 0.0), 4) if by_cov else 0.0,
                     "tags_e": _downgrading(tags_e), "tags_l": _downgrading(tags_l),
                     "ev_l": lj.evidence.passage.text if lj.evidence is not None else None,
                     "ev_e": ej.evidence.passage.text if ej is not None and ej.evidence is not None else None})
        if len(side) % 20 == 0:
            print(f"policy_fit: {len(side)} versions judged", file=sys.stderr, flush=True)
        j = decide(ej, lj, claim=claim.text)
        used = tags_e if ej is not None and j.tier == Tier.ENTAILMENT else tags_l
        return Finding(claim, cite, j.verdict, score=j.score, confidence=j.confidence, tier=j.tier, evidence=j.evidence,
                       reasons=j.reasons, tags=used, source=src, reference=Reference(citekey=citekey))

    judge.__qualname__ = "policy_fit.recorder"
    rows: list[dict[str, Any]] = []

    def on_record(rec: dict[str, Any]) -> None:
        rows.append({k: rec[k] for k in ("item", "dataset", "kind", "template", "half", "text", "source")} | side[len(rows)])
        if stream is not None:
            with open(stream, "a", encoding="utf-8") as f:
                f.write(json.dumps(rows[-1]) + "\n")

    run_planted(Path(data_dir), seed=seed, limit=limit, judge=judge, ci_max=ci_max, sf_max=sf_max, shard=shard,
                on_record=on_record)
    return rows


def simulate(row: dict[str, Any], policy: Policy) -> bool:
    """Whether ``policy`` flags this version (verdict not *supported*, or a downgrading tag).

    The production :func:`citeproof.judges.policy.decide` runs on the recorded judgements (one decision
    logic, as :func:`citeproof.eval.meaning.final_verdict`): the lexical verdict is the best-covered
    candidate's coverage against the policy's fallback lines, and the tags are those of the evidence the
    decision kept.
    """
    from types import SimpleNamespace

    from citeproof.judges.base import Judgement

    cov = row["coverage"]
    lex = "supported" if cov >= policy.fallback_supported_at else "partial" if cov >= policy.fallback_partial_at else "unsupported"
    ev_e = SimpleNamespace(sentence=None, scores={}, passage=SimpleNamespace(page=None, text=row.get("ev_e")))
    ev_l = SimpleNamespace(sentence=None, scores={}, passage=SimpleNamespace(page=None, text=row.get("ev_l")))
    lj = Judgement(Verdict(lex), cov, cov, ev_l, Tier.LEXICAL)
    ev = row["e_verdict"]
    ej = Judgement(Verdict(ev), row["e_conf"], row["e_conf"], ev_e, Tier.ENTAILMENT) if ev is not None else None
    j = decide(ej, lj, policy, claim=row.get("text"))
    tags = row["tags_e"] if j.evidence is ev_e else row["tags_l"]
    return j.verdict != Verdict.SUPPORTED or bool(tags)


def score(rows: Iterable[dict[str, Any]], policy: Policy) -> dict[str, Any]:
    """Recall, clean rate, balanced precision and their F1 for ``policy`` on ``rows``.

    Returns:
        ``{"n_untouched", "n_planted", "clean_rate", "recall", "precision", "f1"}``;
        precision = recall / (recall + false-alarm rate) as in :mod:`citeproof.eval.planted`.
    """
    un = pl = fa = caught = 0
    for r in rows:
        flagged = simulate(r, policy)
        if r["kind"] == "untouched":
            un += 1
            fa += flagged
        else:
            pl += 1
            caught += flagged
    rec = caught / pl if pl else 0.0
    far = fa / un if un else 0.0
    prec = rec / (rec + far) if rec + far else 0.0
    f1 = 2 * rec * prec / (rec + prec) if rec + prec else 0.0
    return {"n_untouched": un, "n_planted": pl, "clean_rate": round(1 - far, 4), "recall": round(rec, 4),
            "precision": round(prec, 4), "f1": round(f1, 4)}


def _grid(grid: dict[str, tuple[float | None, ...]] | None = None) -> list[Policy]:
    grid = GRID if grid is None else grid
    keys = list(grid)
    out = []
    for vals in itertools.product(*(grid[k] for k in keys)):
        p = dataclasses.replace(POLICY, **dict(zip(keys, vals, strict=True)))
        if p.fallback_partial_at < p.fallback_supported_at:
            out.append(p)
    return out


def cross_validate(rows: list[dict[str, Any]], folds: int = 5, seed: int = 0,
                   grid: dict[str, tuple[float | None, ...]] | None = None) -> dict[str, Any]:
    """Choose a policy on ``folds - 1`` folds (grouped by item), score it on the held-out fold; pool.

    ``grid`` names the thresholds to vary (default :data:`GRID`, all seven); the
    others keep :data:`~citeproof.judges.policy.POLICY`'s values.

    Returns:
        ``{"shipped": figures, "fitted": figures, "by_dataset": {ds: {"shipped", "fitted"}},
        "chosen": [policy per fold], "all_rows": best policy on all rows}``; figures as :func:`score`.
    """
    items = sorted({r["item"] for r in rows}, key=str)
    random.Random(seed).shuffle(items)
    fold_of = {it: i % folds for i, it in enumerate(items)}
    grid = _grid(grid)
    held: list[tuple[dict[str, Any], bool]] = []
    chosen = []
    for k in range(folds):
        train = [r for r in rows if fold_of[r["item"]] != k]
        test = [r for r in rows if fold_of[r["item"]] == k]
        best = max(grid, key=lambda p: (score(train, p)["f1"], p == POLICY))
        chosen.append(dataclasses.asdict(best))
        held.extend((r, simulate(r, best)) for r in test)

    def pooled(pairs):
        un = [f for r, f in pairs if r["kind"] == "untouched"]
        pl = [f for r, f in pairs if r["kind"] != "untouched"]
        rec = sum(pl) / len(pl) if pl else 0.0
        far = sum(un) / len(un) if un else 0.0
        prec = rec / (rec + far) if rec + far else 0.0
        return {"n_untouched": len(un), "n_planted": len(pl), "clean_rate": round(1 - far, 4), "recall": round(rec, 4),
                "precision": round(prec, 4), "f1": round(2 * rec * prec / (rec + prec), 4) if rec + prec else 0.0}

    by_ds = {}
    for ds in sorted({r["dataset"] for r in rows}):
        sub = [r for r in rows if r["dataset"] == ds]
        by_ds[ds] = {"shipped": score(sub, POLICY), "fitted": pooled([(r, f) for r, f in held if r["dataset"] == ds])}
    best_all = max(grid, key=lambda p: (score(rows, p)["f1"], p == POLICY))
    return {"shipped": score(rows, POLICY), "fitted": pooled(held), "by_dataset": by_ds, "chosen": chosen,
            "all_rows": dataclasses.asdict(best_all), "all_rows_figures": score(rows, best_all),
            "previous": score(rows, dataclasses.replace(POLICY, lean_against_at=1.01))}


def main(argv: list[str] | None = None) -> int:
    """Record (or reload with ``--rows``) the versions, cross-validate, print JSON. Returns 0."""
    ap = argparse.ArgumentParser(prog="python -m citeproof.eval.policy_fit")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--ci-max", type=int, default=150)
    ap.add_argument("--sf-max", type=int, default=None)
    ap.add_argument("--shard", default=None, help="I/N: judge every N-th item from the I-th (split a run over processes)")
    ap.add_argument("--rows", type=Path, default=None,
                    help="JSON-lines file of recorded rows: read (with --fit-only), else appended to as versions are judged")
    ap.add_argument("--fit-only", action="store_true", help="fit on the rows already in --rows (any number of files joined)")
    ap.add_argument("--fulltext-profiles", type=Path, default=None,
                    help="held-out full-text profiles (training/ci_fit.py --fold-profiles); default: the shipped one (in-sample on CI)")
    a = ap.parse_args(argv)
    if a.fit_only:
        if a.rows is None:
            ap.error("--fit-only needs --rows")
        rows = [json.loads(line) for line in a.rows.read_text().splitlines() if line.strip()]
    else:
        shard = tuple(int(x) for x in a.shard.split("/")) if a.shard else None
        rows = record_versions(Path(a.data), seed=a.seed, limit=a.limit, ci_max=a.ci_max, sf_max=a.sf_max, shard=shard,
                               stream=a.rows, fulltext_profiles=a.fulltext_profiles)
    res = cross_validate(rows)
    res["lean_only"] = cross_validate(rows, grid={"lean_against_at": GRID["lean_against_at"]})
    res["lean_pair"] = cross_validate(rows, grid={k: GRID[k] for k in ("lean_against_at", "lean_contradicted_at")})
    res["lean_table"] = {str(v): {"all": score(rows, dataclasses.replace(POLICY, lean_against_at=v))}
                         | {ds: score([r for r in rows if r["dataset"] == ds], dataclasses.replace(POLICY, lean_against_at=v))
                            for ds in sorted({r["dataset"] for r in rows})}
                         for v in GRID["lean_against_at"]}
    res["caveat"] = ("SciFact items are in-sample for the shipped entailment network (fine-tuned on SciFact train); "
                     "Citation-Integrity items are out-of-sample for it. Policy figures are 5-fold cross-validated by item.")
    json.dump(res, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
