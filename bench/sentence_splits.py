"""How the one sentence splitter cuts SciFact training abstracts (``python bench/sentence_splits.py``).

Prints, over the abstracts cited by SciFact's training claims and over the
whole corpus (``../shared/data/scifact``, training release only):

* the share of abstracts cut exactly as the entailment judge's former
  regular-expression splitter cut them (fragments under 12 characters glued,
  as the judge calls it), which is what the judge was calibrated on;
* the share cut exactly into the dataset's own sentences (the annotators' cut).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeproof.judges.entailment import split_sentences  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "scifact"

# The judge's splitter before citeproof.text.sentences (commit 853e5dd), kept here only to measure against.
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|fig|figs|eq|eqs|ref|refs|no|vol|approx|ca|resp|dr|mr|mrs|ms|prof|st|sec|tab|suppl|min|max)\.|\b[A-Z]\.)$",
    re.I,
)
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def former_split(text: str, min_chars: int = 12) -> list[str]:
    text = " ".join(text.split())
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.start()
        while end > start and text[end - 1] in "\"')]":
            end -= 1
        if _ABBREV.search(text[max(start, end - 12): end]):
            continue
        head = text[start: m.end()].strip()
        if head:
            out.append(head)
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    merged: list[str] = []
    for s in out:
        if merged and len(s) < min_chars:
            merged[-1] += " " + s
        else:
            merged.append(s)
    return merged


def main() -> None:
    if not DATA.is_dir():
        sys.exit(f"{DATA} is absent")
    corpus = {}
    for line in (DATA / "corpus.jsonl").open(encoding="utf-8"):
        d = json.loads(line)
        corpus[d["doc_id"]] = [" ".join(s.split()) for s in d["abstract"] if s.strip()]
    train = set()
    for line in (DATA / "claims_train.jsonl").open(encoding="utf-8"):
        train |= {int(x) for x in json.loads(line).get("cited_doc_ids", [])}
    for name, ids in (("train-cited abstracts", sorted(train)), ("whole corpus", sorted(corpus))):
        same_former = same_gold = same_gold_former = 0
        for i in ids:
            text = " ".join(corpus[i])
            new = split_sentences(text)
            same_former += new == former_split(text)
            same_gold += split_sentences(text, 0) == corpus[i]
            same_gold_former += former_split(text, 0) == corpus[i]
        n = len(ids)
        print(f"{name:22s} n={n:5d}  same as former judge splitter: {same_former / n:.3f}   "
              f"annotators' cut: now {same_gold / n:.3f}, former {same_gold_former / n:.3f}")


if __name__ == "__main__":
    main()
