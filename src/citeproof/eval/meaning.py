"""``citeproof eval meaning``: do the default tiers' verdicts read meaning? (issue 28)

Items, all from *training* splits in ``../shared/data`` (nothing here reads another split):

* ``scifact``: SciFact train claim x cited abstract, gold supported / contradicted / other (NEI);
* ``citation-integrity``: Citation-Integrity train citing sentence x cited full text, gold
  ACCURATE / NOT_ACCURATE / IRRELEVANT_OR_NEI;
* ``wice``: WiCE dev claim x cited page sentences, gold supported / partial / not;
* ``swap``: a faithful item (SciFact SUPPORT, Citation-Integrity ACCURATE, WiCE supported) with one
  content word of the claim that its restating source sentence holds replaced by another word of its
  kind from the same source (:func:`term_swap_claim`): the claim is then false, in the source's own words.

Step 1, :func:`record`: every item is judged once by the pipeline's own components (retrieval, the
entailment judge, the lexical fallback judge, the detectors on each judge's evidence) and the raw
judgements are kept. Step 2, :func:`final_verdict`: a verdict policy is applied to a row with the
production functions (:func:`citeproof.judges.policy.decide`, :func:`citeproof.judges.policy.escalate`),
so the figures of a policy are the pipeline's without running a model again. Step 3,
:func:`cross_validate`: the policy's calibrated lines are chosen on four folds (grouped by source) and
scored on the fifth; the pooled held-out figures are reported beside the shipped policy's.

Figures (:func:`metrics`): SciFact and Citation-Integrity 3-way macro-F1 (the mappings of
:mod:`citeproof.eval.scifact` and :mod:`citeproof.eval.citation_integrity`), WiCE 3-way macro-F1
(``partial`` -> partial, ``unsupported``/``contradicted`` -> not), the share of generated term-swap claims
called *supported* (target <= 10%) and the share of faithful citations called *unsupported* or
*contradicted* (target <= 10%). Compound claims are judged whole here (``judge_in_parts`` is not simulated).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citeproof.eval.metrics import classification_report

__all__ = ["cross_validate", "final_verdict", "load_items", "metrics", "planted_summary", "record", "term_swap_claim"]

_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")
_STOP = frozenset(
    "a an the of in on at to for from by with and or but not no is are was were be been being this that these those "
    "it its as which who whom whose than then there their they we our us can may might will would should could has have "
    "had do does did into over under between among about also such more most less least very both each other all any "
    "some only well however while when where whether through during after before within without using used use based "
    "study studies show shows shown showed found find results result suggest suggests suggested data associated "
    "including include includes high higher low lower increase increased decrease decreased patients".split())


def _content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if len(w) >= 4 and w.lower() not in _STOP]


def _stem(w: str) -> str:
    w = w.lower()
    for suf in ("ations", "ation", "ities", "ity", "ments", "ment", "ness", "ings", "ing", "ies", "ied", "es", "ed", "s", "ly"):
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: -len(suf)]
    return w


def _shape(w: str) -> str:
    if w.isupper():
        return "ACR"
    if w[0].isupper():
        return "Cap"
    return "low"


def term_swap_claim(claim: str, source_text: str, rng: random.Random) -> tuple[str, str, str] | None:
    """A false claim in the source's own words: one content word swapped for another of its kind.

    The sentence of ``source_text`` that shares most of the claim's content words (at least half) is the
    restating sentence; a content word of the claim found in it (4+ letters, not a stop word) is replaced
    by a word of the source of the same shape (acronym, capitalised or lower case), not in the claim and
    not of the same stem (so not an inflection), preferring words of the same last three letters (a
    crude "same kind": -tion, -ase, -ine...).

    Args:
        claim: a faithful claim.
        source_text: the source it cites.
        rng: the random source (seeded by the caller).

    Returns:
        ``(swapped claim, original word, replacement)``, or None when no restating sentence or no
        replacement is found.
    """
    from citeproof.text.sentences import split_sentences

    cw = _content(claim)
    if len(cw) < 3:
        return None
    cstems = {_stem(w) for w in cw}
    best, best_share = None, 0.0
    for s in split_sentences(source_text):
        st = {_stem(w) for w in _content(s)}
        share = len(cstems & st) / len(cstems)
        if share > best_share:
            best, best_share = s, share
    if best is None or best_share < 0.5:
        return None
    sent_stems = {_stem(w) for w in _content(best)}
    targets = [w for w in dict.fromkeys(cw) if _stem(w) in sent_stems]
    mid_caps = set(re.findall(r"(?<=[a-z,;] )([A-Z][A-Za-z\-]+)", source_text))  # capitalised inside a sentence: a name
    pool = [w for w in dict.fromkeys(_content(source_text)) if _stem(w) not in cstems and not w.lower().endswith("ly")
            and (_shape(w) != "Cap" or w in mid_caps)]
    rng.shuffle(targets)
    for w in targets:
        if w.lower().endswith("ly") or (_shape(w) == "Cap" and re.match(rf"\s*{re.escape(w)}\b", claim)):
            continue
        same = [r for r in pool if _shape(r) == _shape(w) and _stem(r) != _stem(w)
                and r.lower() not in w.lower() and w.lower() not in r.lower()]
        if not same:
            continue
        kin = [r for r in same if r[-3:].lower() == w[-3:].lower()]
        r = rng.choice(kin or same)
        if _shape(w) == "low":
            r = r.lower()
        out = re.sub(rf"\b{re.escape(w)}\b", r, claim, count=1)
        if out != claim:
            return out, w, r
    return None


_NUM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(\s*%)?")


def number_change_claim(sentence: str, rng: random.Random) -> tuple[str, str, str] | None:
    """A false claim in the source's own words: one number of ``sentence`` changed (doubled, or plus 7 if small).

    Years (1900-2100 without %) and numbers inside identifiers are left alone.

    Returns:
        ``(changed sentence, old number, new number)``, or None when the sentence has no number to change.
    """
    nums = [m for m in _NUM.finditer(sentence)
            if not (not m.group(2) and 1900 <= float(m.group(1)) <= 2100 and "." not in m.group(1))]
    if not nums:
        return None
    m = rng.choice(nums)
    old = m.group(1)
    val = float(old)
    new = val * 2 if val >= 5 else val + 7
    txt = f"{new:.{len(old.split('.')[1])}f}" if "." in old else str(int(new))
    return sentence[: m.start(1)] + txt + sentence[m.end(1):], old, txt


def verbatim_items(data_dir: Path, n: int = 120, seed: int = 13) -> list[dict[str, Any]]:
    """Claims written in the source's own words: a SciFact abstract sentence as it stands (faithful), and the
    same sentence with one term swapped or one number changed (false).

    The issue's hardest case: a false claim in the source's own words must not pass as supported; the
    faithful copy must stay supported or partial.

    Args:
        data_dir: the shared data folder (``scifact/corpus.jsonl``).
        n: abstracts sampled (each gives one faithful sentence and up to two false variants).
        seed: the sampling seed.

    Returns:
        items as :func:`load_items` returns, ``dataset`` ``verbatim`` (gold ``faithful``, ``faithful`` True) or
        ``verbatim_false`` (gold ``swap`` or ``number``).
    """
    from citeproof.text.sentences import split_sentences

    path = Path(data_dir) / "scifact" / "corpus.jsonl"
    if not path.is_file():
        return []
    rng = random.Random(seed + 1)
    docs = _read_jsonl(path)
    rng.shuffle(docs)
    out: list[dict[str, Any]] = []
    for d in docs:
        if len(out) >= 3 * n:
            break
        text = " ".join(s.strip() for s in d["abstract"])
        sents = [s for s in split_sentences(text) if 60 <= len(s) <= 260 and len(_content(s)) >= 6
                 and not s.isupper() and not re.match(r"^[A-Z ]{4,}\b", s)]
        if not sents:
            continue
        s = rng.choice(sents)
        g = f"sfv{d['doc_id']}"
        out.append({"id": f"verbatim:{d['doc_id']}", "dataset": "verbatim", "group": g, "claim": s, "source_text": text,
                    "gold": "faithful", "faithful": True})
        sw = term_swap_claim(s, text, rng)
        if sw is not None:
            out.append({"id": f"verbatim:{d['doc_id']}:swap", "dataset": "verbatim_false", "group": g, "claim": sw[0],
                        "source_text": text, "gold": "swap", "faithful": False, "swapped": [sw[1], sw[2]]})
        nc = number_change_claim(s, rng)
        if nc is not None:
            out.append({"id": f"verbatim:{d['doc_id']}:number", "dataset": "verbatim_false", "group": g, "claim": nc[0],
                        "source_text": text, "gold": "number", "faithful": False, "swapped": [nc[1], nc[2]]})
    return out


def _read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_items(data_dir: Path, *, per_set: int = 300, swaps: int = 300, seed: int = 13) -> list[dict[str, Any]]:
    """The items of the meaning evaluation (training splits only), a seeded sample of each set.

    Args:
        data_dir: the shared data folder (``scifact/``, ``citation-integrity/``, ``wice-dev/``); a missing
            set is skipped.
        per_set: most items of each real set (sampled with ``seed``).
        swaps: most generated term-swap items (from the faithful items of the sample, then from SciFact's other
            SUPPORT pairs).
        seed: the sampling seed.

    Returns:
        dicts ``{id, dataset, group, claim, source_text, gold, faithful}``; ``group`` is the source (folds are
        grouped by it); ``faithful`` marks a citation its data set labels supported / accurate.
    """
    from citeproof.eval.citation_integrity import clean_claim

    rng = random.Random(seed)
    data_dir = Path(data_dir)
    out: list[dict[str, Any]] = []
    spare: list[dict[str, Any]] = []
    sf = data_dir / "scifact"
    if (sf / "claims_train.jsonl").is_file():
        corpus = {d["doc_id"]: d for d in _read_jsonl(sf / "corpus.jsonl")}
        rows = []
        for c in _read_jsonl(sf / "claims_train.jsonl"):
            for did in c.get("cited_doc_ids", []):
                doc = corpus.get(int(did))
                if doc is None:
                    continue
                labels = {e["label"] for e in c["evidence"].get(str(did), [])}
                gold = "supported" if "SUPPORT" in labels else "contradicted" if "CONTRADICT" in labels else "other"
                rows.append({"id": f"scifact:{c['id']}:{did}", "dataset": "scifact", "group": f"sf{did}", "claim": c["claim"],
                             "source_text": " ".join(s.strip() for s in doc["abstract"]), "gold": gold,
                             "faithful": gold == "supported"})
        rng.shuffle(rows)
        out += rows[:per_set]
        spare = [r for r in rows[per_set:] if r["faithful"]]  # more faithful abstracts to make term swaps from
    ci = data_dir / "citation-integrity"
    if (ci / "claims_train.jsonl").is_file():
        rows = []
        for c in _read_jsonl(ci / "claims_train.jsonl"):
            p = ci / "reference_fulltext" / f"{c['ref_pmcid']}.txt"
            if p.is_file():
                rows.append({"id": f"ci:{c['id']}", "dataset": "citation-integrity", "group": c["ref_pmcid"],
                             "claim": clean_claim(c["claim"]), "source_path": str(p), "gold": c["label"],
                             "faithful": c["label"] == "ACCURATE"})
        rng.shuffle(rows)
        for r in rows[:per_set]:
            r["source_text"] = Path(r.pop("source_path")).read_text(encoding="utf-8", errors="replace")
            out.append(r)
    wi = data_dir / "wice-dev" / "claim_dev.jsonl"
    if wi.is_file():
        rows = []
        for i, c in enumerate(_read_jsonl(wi)):
            gold = {"supported": "supported", "partially_supported": "partial", "not_supported": "not"}[c["label"]]
            rows.append({"id": f"wice:{i}", "dataset": "wice", "group": f"wice{i}", "claim": c["claim"],
                         "source_text": "\n\n".join(s for s in c["evidence"]), "gold": gold, "faithful": gold == "supported"})
        rng.shuffle(rows)
        out += rows[:per_set]
    out += verbatim_items(data_dir, n=max(1, per_set // 2), seed=seed)
    made = 0
    for it in [i for i in out if i["dataset"] not in ("verbatim", "verbatim_false")] + spare:
        if made >= swaps:
            break
        if not it["faithful"]:
            continue
        sw = term_swap_claim(it["claim"], it["source_text"], rng)
        if sw is None:
            continue
        out.append({"id": it["id"] + ":swap", "dataset": "swap", "group": it["group"], "claim": sw[0],
                    "source_text": it["source_text"], "gold": "swap", "faithful": False, "swapped": [sw[1], sw[2]]})
        made += 1
    return out


def _tags(tags) -> list[list]:
    return [[t.name, round(t.confidence, 3), t.message, t.proven] for t in tags]


def record(items: Iterable[dict[str, Any]], stream: Path | None = None, progress: bool = True) -> list[dict[str, Any]]:
    """Judge each item once with the pipeline's components and keep the raw judgements.

    Args:
        items: from :func:`load_items`.
        stream: a JSON-lines file each row is appended to as it is judged (None: none).
        progress: a count on stderr every 25 items.

    Returns:
        One row per item: the item's ``id``, ``dataset``, ``group``, ``gold``, ``faithful``, ``claim`` and
        ``e`` (the entailment judgement: ``verdict``, ``confidence``, ``score``, ``entails``, ``contradicts``,
        ``sentence``), ``l`` (the lexical fallback judgement: ``verdict``, ``confidence``, ``score``),
        ``tags_e`` / ``tags_l`` (every detector tag on each judge's evidence: name, confidence, message, proven).

    Raises:
        RuntimeError: the entailment tier cannot run here.
    """
    from citeproof.detectors import run_detectors
    from citeproof.model import Citation, Claim, Source, UnitKind
    from citeproof.sources.text import parse_text
    from citeproof.tiers import Tiers

    tiers = Tiers(None)
    if tiers.entailment is None:
        raise RuntimeError("eval meaning needs the entailment tier: " + "; ".join(tiers.notes))
    rows = []
    for n, it in enumerate(items, 1):
        passages, full = parse_text(it["source_text"])
        src = Source(citekey="src", path=None, sha256=hashlib.sha256(it["source_text"].encode()).hexdigest(),
                     media_type="text/plain", origin="text", passages=passages, text=full)
        cite = Citation(citekey="src", line=1)
        claim = Claim(id="c0001", text=it["claim"], raw=it["claim"], citations=(cite,), document="<text>", line=1,
                      kind=UnitKind.SENTENCE)
        cands = tiers.candidates(claim.text, src, None, set()) if passages else []
        by_cov = sorted(cands, key=lambda e: -e.scores.get("lexical", 0.0))
        lj = tiers.fallback_judge.judge(claim, by_cov, None)
        ej = tiers.entailment.judge(claim, cands, None) if cands else None
        row = {k: it[k] for k in ("id", "dataset", "group", "gold", "faithful", "claim")}
        if ej is not None:
            ev = ej.evidence
            row["e"] = {"verdict": ej.verdict.value, "confidence": round(ej.confidence, 4), "score": round(ej.score, 4),
                        "entails": ev.scores.get("entails") if ev else None, "contradicts": ev.scores.get("contradicts") if ev else None,
                        "sentence": ev.sentence if ev else None, "passage": ev.passage.text if ev else None,
                        "restating": list(ej.restating) if ej.restating else None}
            row["tags_e"] = _tags(run_detectors(claim, ev, src)) if ev is not None else []
        else:
            row["e"], row["tags_e"] = None, []
        row["l"] = {"verdict": lj.verdict.value, "confidence": round(lj.confidence, 4), "score": round(lj.score, 4),
                    "passage": lj.evidence.passage.text if lj.evidence is not None else None}
        row["tags_l"] = _tags(run_detectors(claim, lj.evidence, src)) if lj.evidence is not None else []
        rows.append(row)
        if stream is not None:
            with open(stream, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
        if progress and n % 25 == 0:
            print(f"eval meaning: {n} items judged", file=sys.stderr, flush=True)
    return rows


_SCIFACT = {"supported": "supported", "contradicted": "contradicted", "partial": "other", "unsupported": "other"}
_CI = {"supported": "ACCURATE", "partial": "NOT_ACCURATE", "contradicted": "NOT_ACCURATE", "unsupported": "IRRELEVANT_OR_NEI"}
_WICE = {"supported": "supported", "partial": "partial", "unsupported": "not", "contradicted": "not"}
LABELS = {"scifact": ("supported", "contradicted", "other"),
          "citation-integrity": ("ACCURATE", "NOT_ACCURATE", "IRRELEVANT_OR_NEI"),
          "wice": ("supported", "partial", "not")}
MAPS = {"scifact": _SCIFACT, "citation-integrity": _CI, "wice": _WICE}


def final_verdict(row: dict[str, Any], policy=None) -> str:
    """The pipeline's verdict for a recorded row under ``policy``, with the production functions.

    :func:`citeproof.judges.policy.decide` on the recorded judgements, then the detectors' rules of
    :func:`citeproof.judges.policy.apply_detectors` (:func:`~citeproof.judges.policy.escalation`, then the
    downgrade of *supported*) on the tags of the evidence the decision kept.

    Args:
        row: from :func:`record`.
        policy: a :class:`citeproof.judges.policy.Policy` (None: the shipped one).

    Returns:
        ``supported``, ``partial``, ``unsupported`` or ``contradicted``.
    """
    from types import SimpleNamespace

    from citeproof.detectors import should_downgrade
    from citeproof.judges.base import Judgement
    from citeproof.judges.policy import POLICY, TAG_REPORT_FLOOR, decide, escalation
    from citeproof.model import Tag, Tier, Verdict

    policy = policy or POLICY
    e_rec = row.get("e") or {}
    ev_e = SimpleNamespace(sentence=e_rec.get("sentence"), scores={}, passage=SimpleNamespace(page=None, text=e_rec.get("passage")))
    ev_l = SimpleNamespace(sentence=None, scores={}, passage=SimpleNamespace(page=None, text=row["l"].get("passage")))
    lj = Judgement(Verdict(row["l"]["verdict"]), row["l"]["score"], row["l"]["confidence"], ev_l if row["l"].get("passage") else None, Tier.LEXICAL)
    ej = None
    if row.get("e"):
        e = row["e"]
        ej = Judgement(Verdict(e["verdict"]), e["score"], e["confidence"], ev_e if e.get("passage") else None, Tier.ENTAILMENT,
                       restating=tuple(e["restating"]) if e.get("restating") else None)
    j = decide(ej, lj, policy, claim=row.get("claim"))
    raw = row["tags_e"] if j.evidence is ev_e else row["tags_l"] if j.evidence is ev_l else []
    tags = [Tag(t[0], t[2], t[1], proven=bool(t[3]) if len(t) > 3 else False) for t in raw if t[1] >= TAG_REPORT_FLOOR]
    to, _ = escalation(j.verdict, tags, policy)
    if to is not None:
        return to.value
    if j.verdict == Verdict.SUPPORTED and should_downgrade(tags):
        return "partial"
    return j.verdict.value


def metrics(rows: list[dict[str, Any]], policy=None, verdicts: list[str] | None = None) -> dict[str, Any]:
    """The meaning figures of ``policy`` on ``rows`` (see the module docstring).

    Args:
        rows: from :func:`record`.
        policy: the policy to simulate (None: the shipped one); ignored when ``verdicts`` is given.
        verdicts: the verdicts of ``rows``, in order, when already known.

    Returns:
        ``{"scifact": report, "citation-integrity": report, "wice": report}`` (each
        :func:`~citeproof.eval.metrics.classification_report`, for the sets present) plus ``swap_supported``
        (share of term-swap claims called supported), ``faithful_against`` (share of faithful citations called
        unsupported or contradicted), ``faithful_supported``, ``n_swap``, ``n_faithful`` and ``mean_macro_f1``.
    """
    vs = verdicts if verdicts is not None else [final_verdict(r, policy) for r in rows]
    out: dict[str, Any] = {}
    f1s = []
    for ds, labels in LABELS.items():
        pairs = [(r["gold"], MAPS[ds][v]) for r, v in zip(rows, vs) if r["dataset"] == ds]
        if pairs:
            rep = classification_report([g for g, _ in pairs], [p for _, p in pairs], labels)
            out[ds] = rep
            f1s.append(rep["macro_f1"])
    sw = [v for r, v in zip(rows, vs) if r["dataset"] == "swap"]
    fa = [v for r, v in zip(rows, vs) if r["faithful"] and r["dataset"] != "swap"]
    out["n_swap"], out["n_faithful"] = len(sw), len(fa)
    out["swap_supported"] = round(sum(v == "supported" for v in sw) / len(sw), 4) if sw else None
    out["faithful_against"] = round(sum(v in ("unsupported", "contradicted") for v in fa) / len(fa), 4) if fa else None
    out["faithful_supported"] = round(sum(v == "supported" for v in fa) / len(fa), 4) if fa else None
    out["mean_macro_f1"] = round(sum(f1s) / len(f1s), 4) if f1s else None
    vf = [v for r, v in zip(rows, vs) if r["dataset"] == "verbatim_false"]
    vt = [v for r, v in zip(rows, vs) if r["dataset"] == "verbatim"]
    out["n_verbatim_false"], out["n_verbatim"] = len(vf), len(vt)
    out["verbatim_false_supported"] = round(sum(v == "supported" for v in vf) / len(vf), 4) if vf else None
    out["verbatim_false_caught"] = round(sum(v in ("unsupported", "contradicted") for v in vf) / len(vf), 4) if vf else None
    out["verbatim_kept"] = round(sum(v in ("supported", "partial") for v in vt) / len(vt), 4) if vt else None
    return out


SWAP_WEIGHT = 0.25
"""What a term swap called *supported* costs in the fit, in mean macro-F1 per unit share (0.01 F1 buys 4 points
of swaps caught). With the shipped network the two pull apart (on 363 rows of the training splits: mean
macro-F1 0.437 with 60% of swaps supported, 0.377 with 22%, 0.322 with 12%); a hard cap of 10% would be met only
by calling almost nothing supported (faithful citations supported 10%), so the fit trades at this rate instead."""


def objective(m: dict[str, Any]) -> float:
    """What the fit maximises: mean macro-F1, less :data:`SWAP_WEIGHT` x the share of term swaps called
    *supported*, plus :data:`SWAP_WEIGHT` x (share of false claims in the source's own words called unsupported or
    contradicted, less the share called supported), less 2 x the excess of faithful citations called unsupported or contradicted over 10% (the
    issue's cap on false alarms)."""
    return ((m["mean_macro_f1"] or 0.0) - SWAP_WEIGHT * (m["swap_supported"] or 0.0)
            + SWAP_WEIGHT * ((m.get("verbatim_false_caught") or 0.0) - (m.get("verbatim_false_supported") or 0.0))
            - 2.0 * max(0.0, (m["faithful_against"] or 0.0) - 0.10))


GRID: dict[str, tuple[float | None, ...]] = {
    "support_at": (0.6, 0.7, 0.8),
    "confirm_at": (0.34, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8),
    "lean_against_at": (0.45, 0.5, 0.55, 0.6, 0.7, 1.01),
    "lean_contradicted_at": (None, 0.5, 0.6, 0.7, 1.01),
    "escalate_at": (0.85, 1.01),
}
"""The lines tried by :func:`cross_validate` (1.01: never; ``confirm_at`` above ``support_at`` is skipped:
a lean is below ``support_at`` by definition)."""


def cross_validate(rows: list[dict[str, Any]], folds: int = 5, seed: int = 0) -> dict[str, Any]:
    """Choose the policy's lines on ``folds - 1`` folds (grouped by source), score them on the last; pooled.

    Args:
        rows: from :func:`record`.
        folds: number of folds (groups: the row's ``group``, so a source's claims and its term swaps stay together).
        seed: fold assignment seed.

    Returns:
        ``{"held_out": metrics pooled over the held-out folds, "chosen": [the lines chosen per fold],
        "shipped": metrics of the shipped policy on all rows, "all_rows_best": the lines best on all rows}``.
    """
    import itertools

    from citeproof.judges.policy import POLICY

    groups = sorted({r["group"] for r in rows})
    random.Random(seed).shuffle(groups)
    fold_of = {g: i % folds for i, g in enumerate(groups)}
    names = list(GRID)
    cands = [dataclasses.replace(POLICY, **dict(zip(names, vals))) for vals in itertools.product(*GRID.values())]
    cands = [p for p in cands if p.confirm_at <= p.support_at]
    table = [[final_verdict(r, p) for r in rows] for p in cands]

    def best(idx: list[int]) -> int:
        sub = [rows[i] for i in idx]
        return max(range(len(cands)), key=lambda k: objective(metrics(sub, verdicts=[table[k][i] for i in idx])))

    held = [""] * len(rows)
    chosen = []
    for f in range(folds):
        train = [i for i, r in enumerate(rows) if fold_of[r["group"]] != f]
        test = [i for i, r in enumerate(rows) if fold_of[r["group"]] == f]
        k = best(train)
        chosen.append({n: getattr(cands[k], n) for n in names})
        for i in test:
            held[i] = table[k][i]
    k_all = best(list(range(len(rows))))
    return {"held_out": metrics(rows, verdicts=held), "chosen": chosen, "shipped": metrics(rows, POLICY),
            "all_rows_best": {n: getattr(cands[k_all], n) for n in names}}


def run_meaning(data_dir: Path, *, per_set: int = 150, swaps: int = 200, seed: int = 13, rows_path: Path | None = None,
                folds: int = 5) -> dict[str, Any]:
    """The whole evaluation: items, recorded rows (or those of ``rows_path`` when it exists), figures, CV.

    Args:
        data_dir: the shared data folder.
        per_set, swaps, seed: as :func:`load_items`.
        rows_path: a JSON-lines file of recorded rows: read when it exists (no model runs), else written.
        folds: cross-validation folds.

    Returns:
        ``{"n_rows", "by_set": {dataset: count}, "shipped": metrics, "cross_validated": cross_validate's dict}``.
    """
    if rows_path is not None and Path(rows_path).is_file():
        rows = _read_jsonl(Path(rows_path))
    else:
        items = load_items(data_dir, per_set=per_set, swaps=swaps, seed=seed)
        if rows_path is not None:
            Path(rows_path).unlink(missing_ok=True)
        rows = record(items, stream=rows_path)
    from collections import Counter

    cv = cross_validate(rows, folds=folds)
    return {"n_rows": len(rows), "by_set": dict(Counter(r["dataset"] for r in rows)), "shipped": cv.pop("shipped"),
            "cross_validated": cv}


def planted_summary(data_dir: Path, n: int, seed: int = 13, cache: Path | None = None) -> dict[str, Any]:
    """The planted-error benchmark (:func:`citeproof.eval.planted.run_planted`) with the full pipeline, in brief.

    Args:
        data_dir: the shared data folder.
        n: training citations planted into, each with its untouched twin: a seeded draw of ``n`` from every SciFact
            SUPPORT pair and ``n // 2`` Citation-Integrity ACCURATE claims (``run_planted``'s ``limit``).
        seed: the benchmark's seed.
        cache: a JSON file holding an earlier summary: read when its ``n`` and ``seed`` match (no model run), else
            written (None: none).

    Returns:
        ``{"n", "seed", "recall", "precision", "clean_rate", "n_planted", "n_untouched", "in_sample_note"}``:
        recall over every planted version, precision of a set with one planted and one untouched version of each
        item, and the share of untouched citations left unflagged (``docs/detectors.md``).
    """
    if cache is not None and Path(cache).is_file():
        got = json.loads(Path(cache).read_text(encoding="utf-8"))
        if got.get("n") == n and got.get("seed") == seed:
            return got
    from citeproof.eval.planted import in_sample_note, run_planted, with_detectors
    from citeproof.pipeline import judge_text

    res = run_planted(data_dir, seed=seed, limit=n, ci_max=n // 2, judge=with_detectors(judge_text))
    out = {"n": n, "seed": seed, "recall": res["overall"]["recall"], "precision": res["overall"]["precision"],
           "clean_rate": res["untouched"]["clean_rate"], "n_planted": res["overall"]["n"],
           "n_untouched": res["untouched"]["n"], "in_sample_note": in_sample_note("pipeline")}
    if cache is not None:
        Path(cache).write_text(json.dumps(out), encoding="utf-8")
    return out


def format_meaning(res: dict[str, Any]) -> str:
    """Markdown table of :func:`run_meaning`'s figures: the shipped policy and the cross-validated fit."""
    def row(name: str, m: dict[str, Any]) -> str:
        f = lambda ds: f"{m[ds]['macro_f1']:.3f}" if ds in m else "-"  # noqa: E731
        pct = lambda x: "-" if x is None else f"{100 * x:.1f}%"  # noqa: E731
        return (f"| {name} | {f('scifact')} | {f('citation-integrity')} | {f('wice')} | {pct(m['swap_supported'])} "
                f"| {pct(m['faithful_against'])} | {pct(m['faithful_supported'])} | {pct(m.get('verbatim_false_supported'))} "
                f"| {pct(m.get('verbatim_false_caught'))} | {pct(m.get('verbatim_kept'))} |")

    cv = res["cross_validated"]
    lines = [f"Meaning evaluation on training splits: {res['n_rows']} rows {res['by_set']}", "",
             "| policy | SciFact macro-F1 | Citation-Integrity macro-F1 | WiCE 3-way macro-F1 | term swaps supported "
             "(target <= 10%) | faithful called unsupported/contradicted (target <= 10%) | faithful supported "
             "| false claims in the source's words: supported | ... unsupported/contradicted | verbatim faithful: supported or partial |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
             row("shipped", res["shipped"]), row("lines fitted on 4 folds, held-out fold (pooled)", cv["held_out"]), "",
             "Lines chosen per fold: " + "; ".join(", ".join(f"{k} {v}" for k, v in c.items()) for c in cv["chosen"]),
             "Best on all rows: " + ", ".join(f"{k} {v}" for k, v in cv["all_rows_best"].items())]
    pl = res.get("planted")
    if pl:
        lines += ["", f"Planted errors, the full pipeline with its shipped lines ({pl['n_planted']} planted versions of "
                      f"{pl['n_untouched']} training citations, seed {pl['seed']}): recall {pl['recall']:.3f}, precision "
                      f"{pl['precision']:.3f}, untouched left unflagged {pl['clean_rate']:.3f} (*partial* counts as "
                      f"flagged). {pl['in_sample_note'] or ''}".rstrip()]
    else:
        lines += ["", "Planted-error recall and precision: `citeproof eval planted` (or `--planted N` here)."]
    return "\n".join(lines)
