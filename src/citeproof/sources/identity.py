"""What identifies a source file, and how well it fits a bibliography entry.

:func:`source_identity` reads a file's own title, DOI, arXiv id and first
page (for matching ``--sources`` files to entries by identity);
:func:`title_score` and :func:`authors_agree` compare them with an entry.
"""

from __future__ import annotations

import re
from pathlib import Path

from citeproof.model import Reference
from citeproof.sources.office import OFFICE_TYPES, parse_office
from citeproof.sources.kinds import kind_identity
from citeproof.sources.pdf import pdf_metadata

__all__ = ["source_identity", "title_score", "authors_agree", "short_title_match", "is_short_title"]

_ARXIV_ID = re.compile(r"(?:arXiv:\s*|arxiv\.org/(?:abs|pdf)/)((?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7})|(?:\d{4}\.\d{4,5}))(?:v\d+)?", re.I)
_ARXIV_NAME = re.compile(r"^(\d{4}\.\d{4,5})(?:v\d+)?$")


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


def source_identity(path: Path, data: bytes) -> dict:
    """What identifies a source file: ``{"title", "doi", "arxiv", "head"}``.

    ``title`` is the PDF metadata title, else the largest text in the top half
    of page 1 (for Markdown/text, the first non-empty line without ``#``; for
    an Office file its metadata title, else its first heading or paragraph);
    ``head`` is the first 3,000 characters of page 1 (of the text); ``arxiv``
    the first arXiv id on page 1 or in the file name. Unreadable files give
    empty strings. Run PDFs and Office files in the parse worker
    (:func:`~citeproof.sources.sandbox.run_limited`): they are parsed here.
    """
    out = {"title": "", "doi": "", "arxiv": "", "head": ""}
    m = _ARXIV_NAME.match(path.stem)
    if m:
        out["arxiv"] = m.group(1)
    own = kind_identity(path, data)  # JATS XML, DjVu, subtitles and transcripts
    if own is not None:
        return {**own, "arxiv": own["arxiv"] or out["arxiv"]}
    if path.suffix.lower() in OFFICE_TYPES and not data.startswith(b"%PDF"):
        doc = parse_office(data, path.suffix.lower())
        out["title"], out["head"] = doc.title[:300], doc.text[:3000]
        md = re.search(r"\b(10\.\d{4,9}/[^\s\"<>)\]]+)", doc.text[:3000])
        if md:
            out["doi"] = md.group(1).rstrip(".,;").lower()
    elif data.startswith(b"%PDF"):
        title, doi, err = pdf_metadata(data)
        if err:
            return out
        out["doi"] = doi
        try:
            from citeproof.pdf_layout import load_pymupdf

            pymupdf = load_pymupdf()

            doc = pymupdf.open(stream=data, filetype="pdf")
            page = doc[0]
            head = page.get_text()[:3000]
            spans = [s for b in page.get_text("dict")["blocks"] if b.get("type", 0) == 0 for ln in b["lines"] for s in ln["spans"] if s["text"].strip() and s["bbox"][1] < page.rect.height / 2]
            if spans and (not title or len(title) < 8 or re.search(r"(?i)microsoft word|untitled|\.docx?$|\.tex$", title)):
                big = max(s["size"] for s in spans)
                title = " ".join(s["text"].strip() for s in spans if s["size"] >= big - 0.5)
            m = _ARXIV_ID.search(head) or _ARXIV_ID.search(" ".join(str(v) for v in (doc.metadata or {}).values()))
            if m and not out["arxiv"]:
                out["arxiv"] = m.group(1)
            out["head"] = head
        except Exception:  # a PDF PyMuPDF half-reads: keep what we have
            pass
        out["title"] = re.sub(r"\s+", " ", title).strip()[:300]
    else:
        text = data[:4000].decode("utf-8", errors="replace")
        for line in text.splitlines():
            t = line.strip().lstrip("#").strip()
            if t and not t.startswith(("---", "title:")):
                out["title"] = t[:300]
                break
        m = re.search(r"^title:\s*['\"]?(.+?)['\"]?\s*$", text, re.M)
        if m:
            out["title"] = m.group(1)[:300]
        out["head"] = text[:3000]
        m = _ARXIV_ID.search(text)
        if m and not out["arxiv"]:
            out["arxiv"] = m.group(1)
        md = re.search(r"\b(10\.\d{4,9}/[^\s\"<>)\]]+)", text)
        if md:
            out["doi"] = md.group(1).rstrip(".,;").lower()
    return out
