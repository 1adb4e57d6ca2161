#!/usr/bin/env bash
# The judge's meaning stage on the lent accelerator (issue 28; training/device_meaning.py says the three steps).
# Run there by the `run` tool with carry [".device-pack"]: `bash scripts/device-meaning.sh`. Reads the pack, writes the
# float16 weights in parts, their manifest and the training log under $OUT. Nothing is fetched: the machine's own
# python3 holds torch, transformers, tokenizers and onnx.
#   MINUTES  training wall-time budget (default 6; the run tool allows 10 minutes a command, start-up included)
#   EPOCHS   passes over the pairs (default 3: the issue's "at least 3 epochs"), cut short by MINUTES
#   DEVICE   torch device (default cuda; cpu for a smoke test here, with STEPS)
#   STEPS    a fixed number of steps instead of EPOCHS (smoke tests)
set -euo pipefail
cd "$(dirname "$0")/.."
PACK="${PACK:-.device-pack}"
PY="${PYTHON:-python3}"
if [ -z "${OUT:-}" ]; then
  echo "OUT is not set: the folder the weights and the log go to (the device machine sets it; a smoke test here:" >&2
  echo "  OUT=/tmp/dm PYTHON=.venv/bin/python DEVICE=cpu STEPS=3 BS=4 TWINS=2 bash scripts/device-meaning.sh)" >&2
  exit 2
fi
[ -f "$PACK/pairs.jsonl.gz" ] || { echo "$PACK/pairs.jsonl.gz missing: run make device-meaning-pack here and carry .device-pack" >&2; exit 2; }
mkdir -p "$OUT"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
command -v nvidia-smi >/dev/null && nvidia-smi -L
"$PY" -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__, 'cuda', torch.cuda.is_available())"
"$PY" training/dequantize.py --out "$W/shipped.pt" --config "$PACK" --check 0
if [ -n "${STEPS:-}" ]; then size=(--steps "$STEPS"); else size=(--epochs "${EPOCHS:-3}"); fi
"$PY" training/contrast.py --pairs "$PACK/pairs.jsonl.gz" --twins "$PACK/twins.jsonl.gz" --init "$W/shipped.pt" \
  --config "$PACK" --out "$W/meaning.pt" "${size[@]}" --bs "${BS:-64}" --twin-batch "${TWINS:-32}" --lr "${LR:-3e-5}" \
  --distill "${DISTILL:-1.0}" --max-minutes "${MINUTES:-6}" --device "${DEVICE:-cuda}" --half 2>&1 | tee "$OUT/train.log"
"$PY" training/device_meaning.py split "$W/meaning.pt" --out "$OUT"
