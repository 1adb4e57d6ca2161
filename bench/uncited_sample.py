"""Sample ``uncited_claim`` flags on real papers' text, for judging by reading (issue 25, part 1).

Corpora (``../shared/data``, read in place): the manubot meta-review (pandoc Markdown), the Citation Integrity
reference full texts that kept their numeric markers (PMC articles, plain text), and the cv-papers and arxiv-pdfs
PDFs (text blocks from PyMuPDF, one block a paragraph). Prints one tab-separated line per flag: corpus, file,
line, cue, matched words, sentence. A fixed seed draws the sample, so a re-run gives the same rows.

    python bench/uncited_sample.py [--per-corpus N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

from citeproof.assist.paragraphs import NUMERIC_MARKER, markdown_paragraphs, text_paragraphs
from citeproof.assist.uncited import uncited_claims

DATA = Path(__file__).resolve().parent.parent / ".." / "shared" / "data"


def pdf_text(path: Path) -> str:
    """The PDF's text blocks joined by blank lines (one block one paragraph), up to its reference list."""
    import pymupdf

    blocks = []
    with pymupdf.open(path) as doc:
        for page in doc:
            for b in page.get_text("blocks"):
                t = " ".join(b[4].split())
                if t.lower() in ("references", "bibliography") or t.lower().startswith(("references ", "bibliography ")) and len(t) < 30:
                    return "\n\n".join(blocks)
                blocks.append(t)
    return "\n\n".join(blocks)


def corpora(data: Path, pdfs: bool = True) -> dict[str, list[tuple[str, list]]]:
    """``{corpus: [(file relative to data, paragraphs)]}`` for the three corpora; ``pdfs=False`` leaves the PDFs
    out (empty list: they are slow to read, and ``uncited_claim`` does not run on PDF text)."""
    out: dict[str, list[tuple[str, list]]] = {"manubot": [], "citation-integrity": [], "pdfs": []}
    md = data / "manubot-meta-review" / "citing" / "meta-review.md"
    if md.is_file():
        out["manubot"].append((str(md.relative_to(data)), markdown_paragraphs(md.read_text(encoding="utf-8"))))
    for f in sorted((data / "citation-integrity" / "reference_fulltext").glob("*.txt")):
        text = f.read_text(encoding="utf-8")
        text = re.split(r"\n\s*(?:References|REFERENCES|Bibliography)\s*\n", text)[0]  # the reference list is no prose
        if len(NUMERIC_MARKER.findall(text)) >= 20:  # the texts whose markers survived extraction
            out["citation-integrity"].append((str(f.relative_to(data)), text_paragraphs(text)))
    for folder in ("cv-papers", "arxiv-pdfs") if pdfs else ():
        for f in sorted((data / folder).glob("*.pdf")):
            out["pdfs"].append((str(f.relative_to(data)), text_paragraphs(pdf_text(f))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-corpus", type=int, default=20)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    for name, docs in corpora(args.data).items():
        flags = [(doc, u) for doc, paras in docs for u in uncited_claims(paras)]
        sents = sum(len(p.sentences) for _d, paras in docs for p in paras)
        print(f"# {name}: {len(docs)} documents, {sents} sentences, {len(flags)} flags", file=sys.stderr)
        for doc, u in sorted(rng.sample(flags, min(args.per_corpus, len(flags))), key=lambda x: (x[0], x[1].sentence.line)):
            print("\t".join([name, doc, str(u.sentence.line), u.cue, u.words, u.sentence.text]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
