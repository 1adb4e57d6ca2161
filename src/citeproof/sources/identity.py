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
from citeproof.sources.titles import authors_agree, is_short_title, short_title_match, title_score

__all__ = ["source_identity", "title_score", "authors_agree", "short_title_match", "is_short_title", "identity_agreement"]

_ARXIV_ID = re.compile(r"(?:arXiv:\s*|arxiv\.org/(?:abs|pdf)/)((?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7})|(?:\d{4}\.\d{4,5}))(?:v\d+)?", re.I)
_ARXIV_NAME = re.compile(r"^(\d{4}\.\d{4,5})(?:v\d+)?$")


WEB_ENTRY_TYPES = frozenset({"online", "webpage", "www", "electronic", "post", "post-weblog", "blog", "blogpost", "software"})
"""Entry types (BibTeX/BibLaTeX and CSL) that name a web page: a saved HTML page fits them."""

DOCUMENT_ENTRY_TYPES = frozenset({
    "article", "article-journal", "article-magazine", "inproceedings", "conference", "paper-conference", "proceedings", "book",
    "inbook", "incollection", "chapter", "phdthesis", "mastersthesis", "thesis", "techreport", "report", "manual", "unpublished",
    "preprint", "dataset", "standard", "patent"})
"""Entry types that name a paper, book or report: a PDF or an Office file fits them, a web page does not."""


def identity_agreement(ref: Reference, ident: dict) -> tuple[list[str], list[str]]:
    """Which of the entry's type, year and DOI agree with a file, and which disagree (issue 30).

    A title alone is not an identity: a co-author's blog post titled like the paper matches it at
    score 100. Compared:

    * ``type``: a web page (``ident["kind"]``) fits a web entry type (:data:`WEB_ENTRY_TYPES`), a document
      fits a paper/book/report type (:data:`DOCUMENT_ENTRY_TYPES`); other types (``misc``) say nothing; an entry
      without a type that names a container (a printed reference's journal or proceedings) counts as a paper.
    * ``year``: the file's stated year (``ident["year"]``: a page's date meta tag) equals the entry's;
      without one, the entry's year stands as a word in the file's first page (``ident["head"]``).
    * ``DOI``: the file's DOI (metadata or first page) equals the entry's, case folded.

    Returns:
        ``(agreeing fields, disagreeing fields)``, each among ``type``, ``year``, ``DOI``; a field the
        entry or the file lacks is in neither.
    """
    agree: list[str] = []
    differ: list[str] = []
    etype = (ref.entry_type or "").lower()
    if not etype and ref.container:  # a printed reference naming a journal or proceedings names a paper
        etype = "article"
    web = ident.get("kind") == "web page"
    if etype in WEB_ENTRY_TYPES or etype in DOCUMENT_ENTRY_TYPES:
        (agree if (etype in WEB_ENTRY_TYPES) == web else differ).append("type")
    year = (ref.year or "")[:4]
    if year.isdigit():
        own = (ident.get("year") or "")[:4]
        if own:
            (agree if own == year else differ).append("year")
        elif re.search(rf"(?<!\d){year}(?!\d)", ident.get("head", "")):
            agree.append("year")
    doi, own_doi = (ref.doi or "").lower(), (ident.get("doi") or "").lower()
    if doi and own_doi:
        (agree if doi == own_doi else differ).append("DOI")
    return agree, differ


def source_identity(path: Path, data: bytes) -> dict:
    """What identifies a source file: ``{"title", "doi", "arxiv", "head", "year", "kind"}``.

    ``title`` is the PDF metadata title, else the largest text in the top half
    of page 1 (for Markdown/text, the first non-empty line without ``#``; for
    an Office file its metadata title, else its first heading or paragraph);
    ``head`` is the first 3,000 characters of page 1 (of the text); ``arxiv``
    the first arXiv id on page 1 or in the file name. An HTML page's title,
    DOI and year come from its ``<meta>`` tags and ``<title>``, entity-decoded
    (:func:`~citeproof.sources.metadata.html_metadata`), its ``head`` from its
    main text (trafilatura); ``kind`` is ``web page`` for it, else ``document``.
    ``year`` is '' when the file states none. Unreadable files give
    empty strings. Run PDFs and Office files in the parse worker
    (:func:`~citeproof.sources.sandbox.run_limited`): they are parsed here.
    """
    out = {"title": "", "doi": "", "arxiv": "", "head": "", "year": "", "kind": "document"}
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
    elif path.suffix.lower() in (".html", ".htm", ".xhtml") or data.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html")):
        from citeproof.sources.metadata import html_metadata
        from citeproof.sources.text import decode_html, parse_html

        page = decode_html(data)
        meta = html_metadata(page)
        _, text = parse_html(page)
        out["title"] = (meta.get("title") or {}).get("value", "")[:300] or text.strip().split("\n", 1)[0][:300]
        out["doi"] = (meta.get("DOI") or {}).get("value", "")
        out["year"] = (meta.get("issued") or {}).get("value", "")
        out["head"] = text[:3000]
        out["kind"] = "web page"
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
