"""The planted-error benchmark: how many planted errors does citeproof catch?

Take citations known to be supported (SciFact SUPPORT pairs from the training
split; Citation-Integrity ACCURATE claims with the cited article's full text),
plant one error of each kind (:mod:`citeproof.eval.planting`), judge the
planted and the untouched versions, and count:

* **recall per kind**: share of planted claims *flagged*, i.e. judged not
  ``supported`` or carrying a tag that downgrades (:func:`citeproof.detectors.should_downgrade`);
  ``tag_recall`` is the share where the expected tag itself fired;
* **false alarms**: untouched claims flagged the same way. ``clean_rate`` is
  the share of untouched claims passed clean (what the issue calls precision
  on untouched citations); ``precision`` per kind is the precision of a set
  holding one planted and one untouched version of each item,
  ``recall / (recall + false_alarm_rate)``.

A ``swap`` plant judges the claim against another source of the same data set:
the one, among 20 drawn at random, whose best sentence overlaps the claim most
(a plausible wrong reference rather than a random one).

Seeded: the same seed, data and judge give the same figures.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citeproof.detectors import DOWNGRADE_THRESHOLD, DOWNGRADING_TAGS, run_detectors_text, should_downgrade
from citeproof.text.stems import content_stems, sentence_stems, stem_hits
from citeproof.eval.planting import KINDS, plant
from citeproof.model import (
    Citation,
    Claim,
    Evidence,
    Finding,
    Passage,
    Source,
    Tier,
    Verdict,
)

EXPECTED_TAG = {
    "number": "number_drift",
    "scope": "scope_inflation",
    "hedge": "hedge_removed",
    "polarity": "polarity_flip",
    "causal": "causal_overclaim",
    "significance": "significance_inflation",
    "swap": "off_topic",
}
"""The tag that names each planted kind."""

SUPPORT_FLOOR = 0.2
"""Default judge: least content-word overlap of the best sentence for ``supported``."""

Judge = Callable[..., Finding]


# --------------------------------------------------------------------------- default judge

def _score(cstems: set[str], sent: tuple[str, frozenset[str], frozenset[str]]) -> float:
    if not cstems:
        return 0.0
    return stem_hits(cstems, sent) / len(cstems)


def lexical_judge(claim_text: str, source_text: str, *, citekey: str = "src", raw_claim: str | None = None) -> Finding:
    """The harness's default judge: best sentence by content-word overlap, then the detectors.

    Stands in for ``citeproof.pipeline.judge_text`` (same call shape) so the
    benchmark runs without the pipeline. Sentences come from
    :func:`citeproof.text.sentences.split_sentences`; the score is the share
    of the claim's content stems found in the sentence (see
    :func:`citeproof.text.stems.overlap_score`).

    Args:
        claim_text: the claim, citation markup removed.
        source_text: the full text of the cited source.
        citekey: the key recorded on the finding's citation.
        raw_claim: the claim with markers, passed to the attribution detectors.

    Returns:
        A :class:`~citeproof.model.Finding`: ``supported`` when the best
        sentence scores at least :data:`SUPPORT_FLOOR`, else ``unsupported``;
        ``partial`` when the detectors' tags downgrade a ``supported``.
    """
    sents = sentence_stems(source_text)
    cst = content_stems(claim_text)
    scores = [_score(cst, s) for s in sents]
    claim = Claim(id="c0001", text=claim_text, raw=raw_claim or claim_text, citations=(Citation(citekey),),
                  document="<planted>", line=0)
    source = Source(citekey=citekey, text=source_text, media_type="text/plain", origin="benchmark")
    if not sents:
        return Finding(claim, claim.citations[0], Verdict.UNVERIFIABLE, reasons=["The source has no text."], source=source)
    i = max(range(len(sents)), key=lambda j: scores[j])
    best = scores[i]
    passage = Passage(id=f"p{i + 1:04d}", text=sents[i][0])
    evidence = Evidence(passage=passage, source=source, scores={"lexical": best})
    tags = run_detectors_text(claim_text, passage.text, source_text=source_text, raw_claim=raw_claim,
                              citekey=citekey, passage_scores=scores, best_score=best)
    verdict = Verdict.SUPPORTED if best >= SUPPORT_FLOOR else Verdict.UNSUPPORTED
    reasons = [f"Best sentence shares {best:.0%} of the claim's content words."]
    if verdict is Verdict.SUPPORTED and should_downgrade(tags):
        verdict = Verdict.PARTIAL
        reasons.append("Downgraded by: " + ", ".join(sorted({t.name for t in tags if t.confidence >= DOWNGRADE_THRESHOLD})) + ".")
    return Finding(claim, claim.citations[0], verdict, score=best, confidence=best, tier=Tier.LEXICAL,
                   evidence=evidence, reasons=reasons, tags=tags, source=source)


def with_detectors(judge: Judge) -> Judge:
    """Wrap a judge that does not run the detectors yet (e.g. ``citeproof.pipeline.judge_text``).

    The wrapped judge calls ``judge``; when its finding carries no tags but
    has evidence, it runs :func:`citeproof.detectors.run_detectors` on the
    finding's claim, evidence and source and downgrades ``supported`` to
    ``partial`` by :func:`citeproof.detectors.should_downgrade`.

    Args:
        judge: ``judge(claim_text, source_text, *, citekey) -> Finding``.

    Returns:
        A judge with the same call shape, named ``<name>+detectors``.
    """
    from citeproof.detectors import run_detectors

    def judged(claim_text: str, source_text: str, *, citekey: str = "src") -> Finding:
        f = judge(claim_text, source_text, citekey=citekey)
        if not f.tags and f.evidence is not None:
            f.tags = run_detectors(f.claim, f.evidence, f.source)
            if f.verdict == Verdict.SUPPORTED and should_downgrade(f.tags):
                f.verdict = Verdict.PARTIAL
                f.reasons.append("Downgraded by: " + ", ".join(
                    sorted({t.name for t in f.tags if t.name in DOWNGRADING_TAGS and t.confidence >= DOWNGRADE_THRESHOLD})) + ".")
        return f

    judged.__qualname__ = getattr(judge, "__qualname__", "judge") + "+detectors"
    return judged


def is_flagged(finding: Finding) -> bool:
    """Whether a finding would draw a reviewer's attention.

    Args:
        finding: a judged citation.

    Returns:
        True when the verdict is not ``supported`` or a tag downgrades it.
    """
    v = finding.verdict.value if hasattr(finding.verdict, "value") else str(finding.verdict)
    return v != Verdict.SUPPORTED.value or should_downgrade(finding.tags)


# --------------------------------------------------------------------------- data

_CI_MARK = re.compile(r"\s*[\[(][^\[\]()]*<\|[a-z_]+\|>[^\[\]()]*[\])]|<\|[a-z_]+\|>|\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")


def clean_ci_claim(raw: str) -> str:
    """Remove Citation-Integrity's markers and numeric citations from a citing sentence.

    Args:
        raw: the ``claim`` field of ``citation-integrity/claims_train.jsonl``.

    Returns:
        The sentence without ``[<|cit|>]``, ``(<|other_cit|>)``, ``[<|multi_cit|>,7]``
        or ``[12]``, spaces before punctuation closed up.
    """
    s = _CI_MARK.sub("", raw)
    s = re.sub(r"\s+([.,;:])", r"\1", s)
    return re.sub(r"\s{2,}", " ", s).strip()


def load_scifact(data_dir: Path) -> list[dict[str, Any]]:
    """SciFact training SUPPORT pairs as benchmark items.

    Args:
        data_dir: the shared data folder holding ``scifact/``.

    Returns:
        Items ``{id, dataset, claim, raw_claim, source_id, source_text, gold}``
        where ``gold`` joins the rationale sentences.

    Raises:
        FileNotFoundError: when the SciFact files are missing.
    """
    base = Path(data_dir) / "scifact"
    corpus = {}
    with open(base / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            corpus[d["doc_id"]] = d
    items = []
    with open(base / "claims_train.jsonl", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            for did, evs in c["evidence"].items():
                sup = [e for e in evs if e["label"] == "SUPPORT"]
                if not sup:
                    continue
                doc = corpus[int(did)]
                gold = " ".join(doc["abstract"][i] for e in sup for i in e["sentences"])
                items.append({"id": f"scifact:{c['id']}:{did}", "dataset": "scifact", "claim": c["claim"],
                              "raw_claim": c["claim"], "source_id": str(did),
                              "source_text": " ".join(s.strip() for s in doc["abstract"]), "gold": gold})
    return items


def load_citation_integrity(data_dir: Path) -> list[dict[str, Any]]:
    """Citation-Integrity ACCURATE claims whose cited full text is present.

    Args:
        data_dir: the shared data folder holding ``citation-integrity/``.

    Returns:
        Items like :func:`load_scifact`'s; ``gold`` joins the data set's
        five candidate sentences (retrieval picks, used only to decide
        whether a template applies).

    Raises:
        FileNotFoundError: when the claims file is missing.
    """
    base = Path(data_dir) / "citation-integrity"
    texts: dict[str, str] = {}
    items = []
    with open(base / "claims_train.jsonl", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            if c["label"] != "ACCURATE":
                continue
            pmcid = c["ref_pmcid"]
            if pmcid not in texts:
                p = base / "reference_fulltext" / f"{pmcid}.txt"
                texts[pmcid] = p.read_text(encoding="utf-8", errors="replace") if p.exists() else ""
            if not texts[pmcid]:
                continue
            items.append({"id": f"ci:{c['id']}", "dataset": "citation-integrity", "claim": clean_ci_claim(c["claim"]),
                          "raw_claim": c["claim"], "source_id": pmcid, "source_text": texts[pmcid],
                          "gold": " ".join(c.get("candidate_sentences") or [])})
    return items


def _best_overlap(claim: str, source_text: str) -> float:
    cst = content_stems(claim)
    return max((_score(cst, s) for s in sentence_stems(source_text)), default=0.0)


# --------------------------------------------------------------------------- harness

def run_planted(data_dir: Path, seed: int = 13, limit: int | None = None, judge: Judge | None = None,
                *, ci_max: int = 150, kinds: tuple[str, ...] = KINDS, sf_max: int | None = None,
                shard: tuple[int, int] | None = None, on_record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the planted-error benchmark.

    Args:
        data_dir: the shared data folder (holding ``scifact/`` and
            ``citation-integrity/``; either may be missing, not both).
        seed: seeds item sampling, template choice and swap sources.
        limit: at most this many items in all (after a seeded shuffle);
            None for every SciFact SUPPORT pair plus ``ci_max`` Citation-Integrity claims.
        judge: ``judge(claim_text, source_text, *, citekey) -> Finding``, e.g.
            ``citeproof.pipeline.judge_text``; default :func:`lexical_judge`.
        ci_max: at most this many Citation-Integrity items (their sources are
            full articles, so they cost more).
        sf_max: at most this many SciFact items (a seeded sample; None: all 370).
        shard: ``(i, n)``: judge only items ``i, i+n, i+2n...`` of the seeded order (to split a run over processes).
        on_record: called with each version's record as soon as it is judged.
        kinds: the kinds to plant (default all of :data:`~citeproof.eval.planting.KINDS`).

    Returns:
        A JSON-ready dict: ``seed``, ``judge`` (its name), ``n_items``,
        ``untouched`` (``n``, ``false_alarms``, ``clean_rate``, ``false_alarm_tags``),
        ``kinds`` (per kind: ``n``, ``caught``, ``recall``, ``tag_recall``,
        ``precision``, ``by_half``, ``by_dataset``, ``by_template``),
        ``overall`` (pooled over kinds) and ``records`` (one per judged
        version: item id, kind, template, half, text, verdict, tags, flagged).

    Raises:
        FileNotFoundError: when neither data set is found under ``data_dir``.
    """
    judge = judge or lexical_judge
    data_dir = Path(data_dir)
    rng = random.Random(seed)
    pools: list[list[dict[str, Any]]] = []
    if (data_dir / "scifact" / "claims_train.jsonl").exists():
        sf = load_scifact(data_dir)
        if sf_max is not None:
            random.Random(seed).shuffle(sf)
            sf = sf[:sf_max]
        pools.append(sf)
    if (data_dir / "citation-integrity" / "claims_train.jsonl").exists():
        ci = load_citation_integrity(data_dir)
        random.Random(seed).shuffle(ci)
        pools.append(ci[:ci_max])
    if not pools:
        raise FileNotFoundError(f"no SciFact or Citation-Integrity data under {data_dir}")
    items = [it for pool in pools for it in pool]
    rng.shuffle(items)
    if limit is not None:
        items = items[:limit]
    if shard is not None:
        items = items[shard[0]::shard[1]]
    sources_by_ds: dict[str, dict[str, str]] = defaultdict(dict)
    for pool in pools:
        for it in pool:
            sources_by_ds[it["dataset"]][it["source_id"]] = it["source_text"]

    records: list[dict[str, Any]] = []

    def record(it, kind, template, half, text, source_id, finding):
        tags = [t for t in finding.tags if t.confidence >= DOWNGRADE_THRESHOLD]
        records.append({
            "item": it["id"], "dataset": it["dataset"], "kind": kind, "template": template, "half": half,
            "text": text, "source": source_id,
            "verdict": finding.verdict.value if hasattr(finding.verdict, "value") else str(finding.verdict),
            "tags": sorted({t.name for t in tags}), "flagged": is_flagged(finding),
        })
        if on_record is not None:
            on_record(records[-1])

    for it in items:
        irng = random.Random(f"{seed}:{it['id']}")
        f = judge(it["claim"], it["source_text"], citekey=it["source_id"])
        record(it, "untouched", "", "", it["claim"], it["source_id"], f)
        for kind in kinds:
            if kind == "swap":
                others = [k for k in sources_by_ds[it["dataset"]] if k != it["source_id"]]
                if not others:
                    continue
                cands = irng.sample(sorted(others), min(20, len(others)))
                other = max(cands, key=lambda k: (_best_overlap(it["claim"], sources_by_ds[it["dataset"]][k]), k))
                f = judge(it["claim"], sources_by_ds[it["dataset"]][other], citekey=other)
                record(it, "swap", "swap.nearest_of_20", "test", it["claim"], other, f)
                continue
            p = plant(kind, it["claim"], irng, evidence=it["gold"], source_text=it["source_text"])
            if p is None:
                continue
            f = judge(p.text, it["source_text"], citekey=it["source_id"])
            record(it, kind, p.template, p.half, p.text, it["source_id"], f)
    return summarize(records, seed=seed, judge_name=getattr(judge, "__qualname__", repr(judge)), n_items=len(items))


def _rate(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def summarize(records: list[dict[str, Any]], *, seed: int, judge_name: str, n_items: int) -> dict[str, Any]:
    """Turn per-version records into the figures :func:`run_planted` returns.

    Args:
        records: as built by :func:`run_planted`.
        seed: recorded in the result.
        judge_name: recorded in the result.
        n_items: how many supported items were used.

    Returns:
        The result dict described in :func:`run_planted`.
    """
    un = [r for r in records if r["kind"] == "untouched"]
    fa = sum(r["flagged"] for r in un)
    fa_rate = fa / len(un) if un else 0.0
    fa_tags: dict[str, int] = defaultdict(int)
    for r in un:
        if not r["flagged"]:
            continue
        causes = [t for t in r["tags"] if t in DOWNGRADING_TAGS]
        for t in causes:
            fa_tags[t] += 1
        if not causes or r["verdict"] not in ("supported", "partial"):
            fa_tags["verdict:" + r["verdict"]] += 1
    kinds: dict[str, Any] = {}
    for kind in KINDS:
        rs = [r for r in records if r["kind"] == kind]
        if not rs:
            continue
        caught = sum(r["flagged"] for r in rs)
        tagged = sum(EXPECTED_TAG[kind] in r["tags"] or (kind == "swap" and r["verdict"] == "unsupported") for r in rs)
        rec = caught / len(rs)

        def split(key, rs=rs, kind=kind):
            out = {}
            for v in sorted({r[key] for r in rs}):
                sub = [r for r in rs if r[key] == v]
                out[v] = {"n": len(sub), "recall": _rate(sum(r["flagged"] for r in sub), len(sub)),
                          "tag_recall": _rate(sum(EXPECTED_TAG[kind] in r["tags"] for r in sub), len(sub))}
            return out

        kinds[kind] = {
            "n": len(rs), "caught": caught, "recall": round(rec, 4), "tag_recall": _rate(tagged, len(rs)),
            "precision": round(rec / (rec + fa_rate), 4) if rec + fa_rate else None,
            "by_half": split("half"), "by_dataset": split("dataset"), "by_template": split("template"),
        }
    planted = [r for r in records if r["kind"] != "untouched"]
    caught_all = sum(r["flagged"] for r in planted)
    rec_all = caught_all / len(planted) if planted else 0.0
    return {
        "seed": seed, "judge": judge_name, "n_items": n_items,
        "untouched": {"n": len(un), "false_alarms": fa, "clean_rate": _rate(len(un) - fa, len(un)),
                      "false_alarm_tags": dict(sorted(fa_tags.items()))},
        "kinds": kinds,
        "overall": {"n": len(planted), "caught": caught_all, "recall": round(rec_all, 4),
                    "precision": round(rec_all / (rec_all + fa_rate), 4) if rec_all + fa_rate else None},
        "records": records,
    }


def in_sample_note(judge: str) -> str | None:
    """The warning for a planted run whose judge was fitted on the items' own split, or None.

    The harness always plants into the *training* splits. The pipeline's entailment tier was fine-tuned on
    SciFact's (network and default decision layer), and its full-text decision layer
    (:mod:`citeproof.judges.fulltext`) fitted on Citation-Integrity's, so with ``judge="pipeline"`` both halves
    are in-sample. Held-out figures: ``python -m citeproof.eval.policy_fit --fulltext-profiles FILE``
    (Citation-Integrity articles judged by a profile fitted without their fold) and ``docs/detectors.md``.

    Args:
        judge: ``pipeline`` or ``sentence`` (word overlap, no fitted model).
    """
    if judge != "pipeline":
        return None
    from citeproof.eval.metrics import TRAINED_ON

    return (f"in-sample: {TRAINED_ON['scifact']}, and {TRAINED_ON['citation-integrity']}; these planted items come "
            "from those training splits, so the figures are optimistic. Held-out figures: docs/detectors.md")


def format_planted_markdown(result: dict[str, Any]) -> str:
    """Render :func:`run_planted`'s result as a Markdown report.

    Args:
        result: the dict :func:`run_planted` returned.

    Returns:
        Markdown: a per-kind table (n, recall, expected-tag recall, recall on
        dev and test wording, balanced precision) and the untouched false alarms.
    """
    u = result["untouched"]
    lines = [
        f"# Planted-error benchmark (seed {result['seed']}, judge `{result['judge']}`)",
        "",
        *([f"**WARNING: {result['in_sample_note']}**", ""] if result.get("in_sample_note") else []),
        f"{result['n_items']} supported citations; {u['n']} judged untouched, "
        f"{u['false_alarms']} flagged (false alarms); clean rate {u['clean_rate']}.",
        "",
        "| kind | n | recall | tag recall | recall (dev wording) | recall (test wording) | precision |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    def f3(x):
        return "" if x is None else f"{x:.3f}"

    for kind, k in result["kinds"].items():
        dev = k["by_half"].get("dev", {}).get("recall")
        test = k["by_half"].get("test", {}).get("recall")
        lines.append(f"| {kind} | {k['n']} | {f3(k['recall'])} | {f3(k['tag_recall'])} | {f3(dev)} | {f3(test)} | "
                     f"{f3(k['precision'])} |")
    o = result["overall"]
    lines.append(f"| **all** | {o['n']} | {f3(o['recall'])} |  |  |  | {f3(o['precision'])} |")
    lines += ["", "Recall: share of planted versions flagged (verdict not supported, or a downgrading tag). "
              "Precision: recall / (recall + false-alarm rate), i.e. on a set with one planted and one untouched "
              "version of each citation.", ""]
    if u["false_alarm_tags"]:
        lines.append("False alarms on untouched citations by cause: "
                     + ", ".join(f"{k} {v}" for k, v in u["false_alarm_tags"].items()) + ".")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m citeproof.eval.planted [--data DIR] [--seed N] [--limit N] [--ci-max N] [--pipeline] [--json]``.

    Args:
        argv: command-line arguments (default ``sys.argv[1:]``).

    Returns:
        0; the report (Markdown, or JSON with ``--json``) goes to stdout.
    """
    ap = argparse.ArgumentParser(prog="citeproof eval planted")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--ci-max", type=int, default=150)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--records", action="store_true", help="keep per-version records in the JSON")
    ap.add_argument("--pipeline", action="store_true",
                    help="judge with citeproof.pipeline.judge_text (plus the detectors if it does not run them)")
    a = ap.parse_args(argv)
    judge = None
    if a.pipeline:
        from citeproof.pipeline import judge_text  # the lead's lexical pipeline; absent on old branches

        judge = with_detectors(judge_text)
    res = run_planted(Path(a.data), seed=a.seed, limit=a.limit, ci_max=a.ci_max, judge=judge)
    if a.json:
        if not a.records:
            res = {k: v for k, v in res.items() if k != "records"}
        json.dump(res, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_planted_markdown(res))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
