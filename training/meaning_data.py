"""Training pairs for the judge's meaning stage (issue 28): real citing sentences and one-word changes.

``python training/meaning_data.py --out build/judge/meaning`` writes ``pairs.jsonl`` (premise, hypothesis,
label 0 entails / 1 neutral / 2 contradicts / 3 not entailed), ``twins.jsonl`` (premise, entailed hypothesis,
the same hypothesis with one word changed) and ``split.json`` (which SciFact claims
train the network, which calibrate its decision layer, which sources were held out).

Held out of every pair here: each source that ``citeproof eval meaning`` samples (its default items:
SciFact abstracts, Citation-Integrity full texts, WiCE claims, the verbatim abstracts), so that evaluation's
figures stay held out for this stage (the shipped judge it starts from was fine-tuned on every SciFact training
claim: its SciFact rows are not clean, docs/meaning.md). The SciFact claims left are split by cited document
(:func:`citeproof.eval.folds.scifact_claim_folds`, 5 folds): folds 0-1 calibrate the decision layer
(never trained on), folds 2-4 train. Citation-Integrity trains nothing (its licence is not stated: evaluation
and calibration only, the model card).

Pairs (all from training splits or dev sets the data READMEs allow training on):

* SciFact training claims at sentence level (``train_judge.scifact_pairs``) and the numbers / direction /
  negation contradictions of ``hard_cases.generate``;
* WiCE dev claims (Kamoi et al. 2023): *supported* -> entails, with each supporting sentence set as premise;
  *partially supported* -> not entailed, with the supporting sets together; *not supported* -> not entailed,
  with the two sentences sharing most of the claim's words;
* Check-COVID training claims (``train_judge.checkcovid_pairs``) with their generated contradictions;
* a replay of the general NLI pairs (``train_judge.nli_pairs``), so the stage does not forget them;
* from every entailed pair above: ``swaps_per_pair`` term swaps and widened scopes (``hard_cases.not_entailed``,
  one seed each, duplicates dropped) -> not entailed; a pair without a document of its own draws its
  replacement words from 30 other premises.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))

import hard_cases  # noqa: E402
import train_judge as tj  # noqa: E402
from citeproof.eval import folds as foldlib  # noqa: E402

CAL_FOLDS = (0, 1)
_W = re.compile(r"[A-Za-z]{4,}")


def held_out_sources(data: Path) -> dict[str, set]:
    """The sources ``citeproof eval meaning`` samples with its defaults: ``{"scifact_docs", "ci", "wice"}``."""
    from citeproof.eval.meaning import load_items

    items = load_items(data, per_set=150, swaps=200, seed=13)
    out: dict[str, set] = {"scifact_docs": set(), "ci": set(), "wice": set()}
    for it in items:
        g = it["group"]
        if it["id"].startswith(("scifact:", "verbatim:")):
            out["scifact_docs"].add(int(g.lstrip("sfv")))
        elif it["id"].startswith("ci:"):
            out["ci"].add(g)
        elif it["id"].startswith("wice:"):
            out["wice"].add(int(it["id"].split(":")[1]))
    return out


def scifact_split(data: Path, held: set[int]) -> dict[str, list[int]]:
    """SciFact training claim ids: ``held`` (cite a held-out abstract), ``calibrate``, ``train``."""
    claims = tj.read_jsonl(data / "scifact" / "claims_train.jsonl")
    fold_of = foldlib.scifact_claim_folds(data / "scifact" / "claims_train.jsonl", 5)
    out: dict[str, list[int]] = {"held": [], "calibrate": [], "train": []}
    for c in claims:
        if any(int(d) in held for d in c.get("cited_doc_ids", [])):
            out["held"].append(c["id"])
        else:
            out["calibrate" if fold_of[c["id"]] in CAL_FOLDS else "train"].append(c["id"])
    return out


def wice_pairs(data: Path, skip: set[int]) -> list[tuple[str, str, int, str]]:
    """WiCE dev claims but ``skip`` as (premise, claim, label, document) (see the module docstring)."""
    out = []
    for i, c in enumerate(tj.read_jsonl(data / "wice-dev" / "claim_dev.jsonl")):
        if i in skip:
            continue
        ev = c["evidence"]
        doc = " ".join(ev)
        sets = [[j for j in s if 0 <= j < len(ev)] for s in c.get("supporting_sentences") or []]
        sets = [s for s in sets if s]
        if c["label"] == "supported" and sets:
            for s in sets[:3]:
                out.append((" ".join(ev[j] for j in s), c["claim"], tj.E, doc))
        elif c["label"] == "partially_supported" and sets:
            idx = sorted({j for s in sets for j in s})[:6]
            out.append((" ".join(ev[j] for j in idx), c["claim"], tj.NOT_E, doc))
        elif c["label"] == "not_supported":
            cw = {w.lower() for w in _W.findall(c["claim"])}
            best = sorted(range(len(ev)), key=lambda j: -len(cw & {w.lower() for w in _W.findall(ev[j])}))[:2]
            if best:
                out.append((" ".join(ev[j] for j in sorted(best)), c["claim"], tj.NOT_E, doc))
    return out


def build(data: Path, seed: int = 13, nli_replay: int = 6000, wice_repeat: int = 2, swaps_per_pair: int = 2) -> tuple[list[tuple[str, str, int]], dict, list[tuple[str, str, str]]]:
    """All the stage's pairs (shuffled), the split record and the twins (:func:`_twins`). See the module docstring."""
    rng = random.Random(seed)
    held = held_out_sources(data)
    split = scifact_split(data, held["scifact_docs"])
    corpus = {r["doc_id"]: " ".join(r["abstract"]) for r in tj.read_jsonl(data / "scifact" / "corpus.jsonl")}
    claim_doc = {c["id"]: [int(d) for d in c["cited_doc_ids"]] for c in tj.read_jsonl(data / "scifact" / "claims_train.jsonl")}
    sf = tj.scifact_pairs(set(split["train"]), rng)
    sf_doc = {}  # the abstract each SciFact pair's premise comes from, for the term swaps' vocabulary
    abstracts = [corpus[d] for cid in split["train"] for d in claim_doc[cid] if d in corpus]
    for p, _h, _l in sf:
        for a in abstracts:
            if p[:60] in a:
                sf_doc[p] = a
                break
    wi = wice_pairs(data, held["wice"])
    cc = tj.checkcovid_pairs(rng)
    nli = tj.nli_pairs(random.Random(seed))
    rng.shuffle(nli)
    nli = nli[:nli_replay]
    pairs: list[tuple[str, str, int]] = []
    src: Counter = Counter()

    def add(rows, name):
        pairs.extend(rows)
        src[name] += len(rows)

    add(sf, "scifact")
    add(tj.with_hard_cases(sf, seed), "scifact contradictions")
    add([(p, h, lab) for _ in range(wice_repeat) for p, h, lab, _d in wi], f"wice x{wice_repeat}")
    add(cc, "check-covid")
    add(tj.with_hard_cases(cc, seed + 1, frac=0.5), "check-covid contradictions")
    add(nli, "nli replay")
    # A pair without a document of its own (NLI, Check-COVID) draws its replacement words from 30 other premises:
    # the premise's own words alone are mostly of another kind ("formed couples and began dancing" ->
    # "Everyone dancing couples"), which teaches grammar, not meaning.
    premises = sorted({p for p, _h, _l in nli + cc})
    vocab_rng = random.Random(seed + 3)

    def vocab() -> str:
        return " ".join(vocab_rng.sample(premises, min(30, len(premises))))

    ent = ([(p, h, sf_doc.get(p)) for p, h, lab in sf if lab == tj.E] + [(p, h, d) for p, h, lab, d in wi if lab == tj.E]
           + [(p, h, vocab()) for p, h, lab in cc if lab == tj.E] + [(p, h, vocab()) for p, h, lab in nli if lab == tj.E])
    made = []
    for k in range(swaps_per_pair):
        made += hard_cases.not_entailed(ent, seed=seed + 2 + k)
    made = list({(p, h): (p, h, r) for p, h, r in made}.values())
    for rule in ("term", "scope"):
        add([(p, h, tj.NOT_E) for p, h, r in made if r == rule], f"{rule} swaps")
    twins = _twins(ent, made)
    rng.shuffle(pairs)
    record = {"scifact_claims": {k: len(v) for k, v in split.items()}, "calibrate_claims": split["calibrate"],
              "held_out": {k: len(v) for k, v in held.items()}, "pairs": dict(src), "total": len(pairs),
              "labels": dict(Counter(lab for _p, _h, lab in pairs))}
    record["twins"] = len(twins)
    return pairs, record, twins


def _twins(ent, made) -> list[tuple[str, str, str]]:
    """``(premise, entailed hypothesis, the same with one term changed)``: each generated hypothesis beside the
    entailed one it was made from (same premise, one word apart), for ``training/contrast.py``'s margin."""
    by_premise: dict[str, list[str]] = {}
    for p, h, _d in ent:
        by_premise.setdefault(p, []).append(h)
    out = []
    for p, new, _rule in made:
        for h in by_premise.get(p, []):
            a, b = h.split(), new.split()
            if len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1:
                out.append((p, h, new))
                break
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=tj.DATA)
    ap.add_argument("--out", type=Path, required=True, help="folder for pairs.jsonl and split.json")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--nli-replay", type=int, default=6000)
    a = ap.parse_args(argv)
    pairs, record, twins = build(a.data, a.seed, a.nli_replay)
    write(a.out, pairs, record, twins)
    print(json.dumps({k: v for k, v in record.items() if k != "calibrate_claims"}))


def write(out: Path, pairs, record: dict, twins, gz: bool = False) -> list[Path]:
    """:func:`build`'s answer as ``out/pairs.jsonl``, ``out/twins.jsonl`` (``.gz`` with ``gz``) and ``out/split.json``.

    Returns:
        The three paths written (``train_judge.read_jsonl`` reads either form).
    """
    import gzip

    out.mkdir(parents=True, exist_ok=True)
    ext = ".jsonl.gz" if gz else ".jsonl"
    opener = gzip.open if gz else open
    paths = [out / f"pairs{ext}", out / f"twins{ext}", out / "split.json"]
    with opener(paths[0], "wt", encoding="utf-8") as f:
        for p, h, lab in pairs:
            f.write(json.dumps({"premise": p, "hypothesis": h, "label": lab}) + "\n")
    with opener(paths[1], "wt", encoding="utf-8") as f:
        for p, h, new in twins:
            f.write(json.dumps({"premise": p, "hypothesis": h, "changed": new}) + "\n")
    paths[2].write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return paths


if __name__ == "__main__":
    main()
