"""Whether a reference's title and first author name a file: the matching both a source's identity
(:mod:`citeproof.sources.identity`) and its online metadata (:mod:`citeproof.sources.metadata`) use.

Scores are rapidfuzz ratios, 0-100, over titles folded for case, punctuation and ligatures (NFKC).
"""

from __future__ import annotations

import re

from citeproof.model import Reference

__all__ = ["TITLE_MISFIT", "title_score", "authors_agree", "short_title_match", "is_short_title"]

TITLE_MISFIT = 75.0
"""A file whose title score (rapidfuzz, 0-100, :func:`title_score`)
against the entry's title is below this does not fit the entry. On the demo
sample (5 cited files against the 101 entries of ``meta-review.bib``) each
file scores 100 against its own entry and at most 72 against the 497 others
(median 46), bar a second entry for the same work (100)."""


def _norm_title(text: str) -> str:
    import unicodedata

    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"[^\w\s]", " ", text.lower())
    return re.sub(r"\s+", " ", text).strip()


def title_score(ref_title: str, own_title: str, head: str = "") -> float:
    """How well a reference's title matches a file (rapidfuzz, 0-100).

    The best of the plain ratio against the file's own title and, for
    titles of 20 characters or more, the partial ratio against the start of
    its first page (so a title split over two lines, or a subtitle, still
    matches). Case, punctuation and ligatures are folded first.
    """
    from rapidfuzz import fuzz

    a = _norm_title(ref_title)
    if len(a) < 8:
        return 0.0
    best = fuzz.ratio(a, _norm_title(own_title)) if own_title else 0.0
    if len(a) >= 20 and head:
        best = max(best, fuzz.partial_ratio(a, _norm_title(head[:800])))
    return float(best)


def short_title_match(ref: Reference, ident: dict) -> tuple[bool, str]:
    """Whether a short title (under 20 characters folded, or three words or fewer: ``Fast R-CNN``,
    ``YOLO9000``, ``Deep learning``) names this file: ``(matched, why not)``.

    It matches only when the file's own title (``ident["title"]``: metadata or
    the largest text on page 1) equals it, or starts with it and a colon, case
    and punctuation folded, AND the first author or the year agrees with the
    file's first page (``ident["head"]``); a fuzzy score alone could pair a
    generic short title with any file.
    """
    want, own = _norm_title(ref.title), _norm_title(ident.get("title", ""))
    raw_own = ident.get("title", "")
    if not want or not (own == want or (raw_own.split(":")[0].strip() and _norm_title(raw_own.split(":")[0]) == want)):
        return False, ""
    head = ident.get("head", "")
    if authors_agree(ref, head) or (ref.year[:4] and re.search(rf"\b{re.escape(ref.year[:4])}\b", head)):
        return True, ""
    return False, f"its title equals the short title '{ref.title}' but neither the first author nor the year agrees"


def is_short_title(title: str) -> bool:
    """A title too short to match a file on its own: under 20 characters folded, or three words or fewer."""
    t = _norm_title(title)
    return len(t) < 20 or len(t.split()) <= 3


def authors_agree(ref: Reference, text: str) -> bool | None:
    """Whether ``text`` (a file's first page, another entry's author list)
    names the reference's first author: None when ``ref`` has no author to
    check, else True when that family name appears as a word of ``text``
    (accents and case folded)."""
    from citeproof.bibliography.pdf_refs import fold_name

    names = [a for a in ref.authors if a and a != "et al."]
    if not names:
        return None
    first = names[0].split(",")[0].split()[-1] if "," not in names[0] else names[0].split(",")[0]
    want = fold_name(first)
    if len(want) < 2:
        return None
    words = {fold_name(w) for w in re.split(r"[\s,;.()\d*†‡]+", text) if w}
    return want in words
