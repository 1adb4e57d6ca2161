"""Real-shaped cases for calibrating the title-search match line (:data:`.record.MATCH_MIN`).

From real bibliography entries (the demo's BibTeX and, where present, the real
libraries of ``../shared/data/bib-file-fields``) this builds what a search can
hand back for an entry:

* **the same work, as a service renders it** (positives): the title as it is;
  lower-cased with markup and punctuation changed; with the subtitle dropped
  (or only the main title cited); with a one-letter typo; the year one off
  (preprint vs. journal); the first author's accents folded and given names
  reduced to initials; subtitle dropped *and* year off together;
* **another work** (negatives): the entry in the same library whose title is
  closest (its own authors and year, or the entry's own first author and
  year: a series by one group); a correction notice of the same work
  (``Correction: <title>``); another work by the same first author.

:func:`calibrate` scores every case with :func:`.record.match_score` and
reports the lowest positive, the highest negative and the errors at a line.
``bench/online_calibration.py`` prints it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from citeproof.model import Reference
from citeproof.sources.online.record import MATCH_MIN, WorkRecord, match_score, norm_title

__all__ = ["positives", "negatives", "calibrate"]


def _display(author: str) -> str:
    if "," in author:
        fam, given = author.split(",", 1)
        return f"{given.strip()} {fam.strip()}".strip()
    return author


def _record(title: str, authors: list[str], year: str, venue: str = "") -> WorkRecord:
    return WorkRecord(service="case", title=title, authors=authors, year=year, venue=venue)


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def positives(ref: Reference) -> list[tuple[str, WorkRecord]]:
    """The same work as a service may render it: ``[(label, record)]``."""
    t, authors, year = ref.title, [_display(a) for a in ref.authors], ref.year[:4]
    y1 = str(int(year) + 1) if year.isdigit() else year
    main = re.split(r"\s*[:?.]\s+|\s+[-–—]\s+", t, maxsplit=1)[0]
    short = main if len(main) < len(t) and len(main.split()) >= 4 else t  # a two-word "Plan S" is no title a service shows
    mid = len(t) // 2
    typo = t[:mid] + t[mid + 1:mid + 2] + t[mid:mid + 1] + t[mid + 2:] if len(t) > 12 else t
    initials = [re.sub(r"\b(\w)\w*\.?\s+(?=\S)", r"\1. ", _fold(a), count=max(0, len(a.split()) - 1)) for a in authors]
    return [
        ("as is", _record(t, authors, year, ref.container)),
        ("case, markup, punctuation", _record("<i>" + re.sub(r"[,:;!?'\"‘’“”]", "", t.lower()) + "</i>", authors, year)),
        ("subtitle dropped", _record(short, authors, year)),
        ("only the main title cited", _record(t + ": a study" if short == t else t, authors, year)),
        ("one-letter typo", _record(typo, authors, year)),
        ("year one off", _record(t, authors, y1)),
        ("initials, accents folded", _record(t, initials, year)),
        ("subtitle dropped, year one off", _record(short, authors, y1)),
    ]


def negatives(ref: Reference, library: list[Reference]) -> list[tuple[str, WorkRecord]]:
    """Other works a search may hand back for ``ref``, drawn from its own library: ``[(label, record)]``."""
    from rapidfuzz import fuzz

    me = norm_title(ref.title)
    squeeze = me.replace(" ", "")
    # Another entry with the same title (spaces aside: "CO2" / "CO 2") is a duplicate entry, not another work.
    # So is one whose title's words all lie in the other's, with the same year ("A case study..." / "Case study...").
    mine = set(me.split())

    def duplicate(r: Reference) -> bool:
        theirs = set(norm_title(r.title).split())
        return norm_title(r.title).replace(" ", "") == squeeze or (r.year[:4] == ref.year[:4] and (mine <= theirs or theirs <= mine))

    others = [r for r in library if r.title and r.citekey != ref.citekey and not duplicate(r)]
    out: list[tuple[str, WorkRecord]] = []
    if others:
        near = max(others, key=lambda r: fuzz.token_sort_ratio(me, norm_title(r.title)))
        out.append(("closest other title", _record(near.title, [_display(a) for a in near.authors], near.year[:4])))
        out.append(("closest other title, same first author and year", _record(near.title, [_display(a) for a in ref.authors], ref.year[:4])))
    year = ref.year[:4]
    out.append(("correction notice", _record(f"Correction: {ref.title}", [_display(a) for a in ref.authors], str(int(year) + 1) if year.isdigit() else year)))
    first = ref.authors[0].split(",")[0].strip().lower() if ref.authors else ""
    same = [r for r in others if first and r.authors and r.authors[0].split(",")[0].strip().lower() == first]
    if same:
        out.append(("another work by the first author", _record(same[0].title, [_display(a) for a in same[0].authors], same[0].year[:4])))
    return out


def calibrate(libraries: list[list[Reference]], line: float = MATCH_MIN) -> dict:
    """Score every case built from ``libraries`` (lists of entries).

    Returns:
        ``{"entries", "positives", "negatives", "min_positive", "max_negative",
        "false_refusals", "false_accepts", "by_label": {label: (n, min, max)},
        "worst_positive", "worst_negative"}`` at ``line``. Entries without a
        title of 3+ words or without authors are skipped.
    """
    pos: list[tuple[float, str, str]] = []
    neg: list[tuple[float, str, str]] = []
    n = 0
    for lib in libraries:
        for ref in lib:
            if len(ref.title.split()) < 3 or not ref.authors:
                continue
            n += 1
            ref = replace(ref, doi="")
            for label, rec in positives(ref):
                pos.append((match_score(ref, rec), label, ref.title))
            for label, rec in negatives(ref, lib):
                neg.append((match_score(ref, rec), label, f"{ref.title} vs {rec.title}"))
    by: dict[str, list[float]] = {}
    for sc, label, _ in pos + neg:
        by.setdefault(label, []).append(sc)
    return {
        "entries": n, "positives": len(pos), "negatives": len(neg), "line": line,
        "min_positive": min(pos)[0] if pos else None, "max_negative": max(neg)[0] if neg else None,
        "false_refusals": sum(1 for sc, *_ in pos if sc < line), "false_accepts": sum(1 for sc, *_ in neg if sc >= line),
        "by_label": {k: (len(v), min(v), max(v)) for k, v in by.items()},
        "worst_positive": sorted(pos)[:5], "worst_negative": sorted(neg, reverse=True)[:5],
    }
