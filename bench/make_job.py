"""Generate the scale benchmark job (issue 17): ~50 source PDFs of ~1,000 pages, a 100-citation draft, its .bib.

The PDFs are built from real PDFs only: the demo sample's cited and citing PDFs (always present) and, where
``../shared/data`` is there, the cv-papers and arXiv PDFs. Each output PDF is a re-saved copy with new
metadata (so every file hashes differently, as fifty different papers would) or, every fifth, a concatenation with a
shorter original (longer documents). The draft cites each PDF one to three times with three kinds of sentence,
in a fixed proportion:

- *verbatim*: a sentence taken from the cited PDF's own text (should be supported);
- *reworded*: such a sentence with its words reordered around a clause and a few dropped (should mostly be
  supported or partial);
- *foreign*: a sentence from another PDF of the job (should not be supported).

Deterministic for a given ``--seed``. ``--pdfs`` and ``--citations`` scale the job (the scaling table of
``make bench --scaling`` uses this). Usage::

    python bench/make_job.py OUT_DIR [--pdfs 50] [--citations 100] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def originals() -> list[Path]:
    """The real PDFs the job is built from (demo sample always; shared data where present)."""
    found = sorted((ROOT / "examples" / "manubot").glob("*/*.pdf"))
    for sub in ("cv-papers", "arxiv-pdfs"):
        found += sorted((SHARED / sub).glob("*.pdf"))
    return found


def _sentences(doc: pymupdf.Document, rng: random.Random, n: int) -> list[str]:
    """Up to ``n`` prose sentences (60-220 characters, mostly letters) from random pages of ``doc``."""
    out: list[str] = []
    pages = list(range(doc.page_count))
    rng.shuffle(pages)
    for pno in pages:
        text = re.sub(r"-\n(?=[a-z])", "", doc[pno].get_text())
        text = re.sub(r"\s+", " ", text)
        for s in re.split(r"(?<=[a-z0-9%)][.!?]) (?=[A-Z])", text):
            s = s.strip()
            letters = sum(ch.isalpha() for ch in s)
            if 60 <= len(s) <= 220 and letters > 0.75 * len(s) and not re.search(r"\[\d|@|http|\bet al\b|\d{4}\)", s):
                out.append(s)
        if len(out) >= 4 * n:
            break
    rng.shuffle(out)
    return out[:n]


def _reword(s: str, rng: random.Random) -> str:
    words = s.rstrip(".!?").split()
    if len(words) > 10:
        cut = rng.randrange(4, len(words) - 4)
        words = words[cut:] + ["-"] + words[:cut]
        for _ in range(2):
            del words[rng.randrange(len(words))]
    return " ".join(w for w in words if w != "-").capitalize() + "."


def build(out: Path, n_pdfs: int = 50, n_citations: int = 100, seed: int = 7) -> dict:
    """Write the job into ``out`` (``pdfs/``, ``draft.md``, ``refs.bib``, ``job.json``); returns ``job.json``'s data.

    ``job.json`` says how many pages the PDFs have in all and which kind each citation is.
    """
    rng = random.Random(seed)
    srcs = originals()
    if not srcs:
        raise SystemExit("no real PDFs found (examples/manubot is missing?)")
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    short = [p for p in srcs if pymupdf.open(p).page_count <= 40] or srcs
    made: list[tuple[str, Path]] = []
    pages = 0
    for i in range(n_pdfs):
        key = f"work{i + 1:02d}"
        parts = [srcs[i % len(srcs)]] + ([rng.choice(short)] if i % 5 == 4 else [])
        doc = pymupdf.open()
        for p in parts:
            with pymupdf.open(p) as part:
                doc.insert_pdf(part)
        doc.set_metadata({"title": f"Benchmark work {i + 1}: {parts[0].stem}", "author": "citeproof bench", "subject": f"seed {seed} #{i}"})
        path = out / "pdfs" / f"{key}.pdf"
        doc.save(path, garbage=1, deflate=True)
        pages += doc.page_count
        doc.close()
        made.append((key, path))
    kinds = ["verbatim", "reworded", "foreign"]
    lines, cites = ["---", "title: citeproof benchmark draft", "---", ""], []
    pool = {key: _sentences(pymupdf.open(path), rng, 4) for key, path in made}
    for c in range(n_citations):
        key, _ = made[c % len(made)]
        kind = kinds[c % 3]
        if kind == "foreign":
            other = made[(c * 7 + 3) % len(made)][0]
            sent = (pool[other] or ["Unrelated text about something else entirely happened here."])[c % max(1, len(pool[other]))]
        else:
            own = pool[key] or ["This work reports results."]
            sent = own[c % len(own)]
            if kind == "reworded":
                sent = _reword(sent, rng)
        sent = sent.rstrip(".!?").replace("[", "(").replace("]", ")").replace("@", "at")
        lines += [f"{sent} [@{key}].", ""]
        cites.append({"citekey": key, "kind": kind})
    (out / "draft.md").write_text("\n".join(lines), encoding="utf-8")
    bib = "".join(f"@article{{{key},\n  title = {{Benchmark work {key}}},\n  year = {{2024}},\n  file = {{pdfs/{key}.pdf}}\n}}\n\n" for key, _ in made)
    (out / "refs.bib").write_text(bib, encoding="utf-8")
    job = {"pdfs": len(made), "pages": pages, "citations": len(cites), "seed": seed, "kinds": {k: sum(1 for c in cites if c["kind"] == k) for k in kinds},
           "originals": [str(p.relative_to(ROOT.parent)) if p.is_relative_to(ROOT.parent) else str(p) for p in srcs]}
    (out / "job.json").write_text(json.dumps(job, indent=2) + "\n", encoding="utf-8")
    return job


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--pdfs", type=int, default=50)
    ap.add_argument("--citations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    job = build(a.out, a.pdfs, a.citations, a.seed)
    print(json.dumps(job))


if __name__ == "__main__":
    main()
