"""Which of a reference's files is the work itself, and paths as written.

A bibliography entry often names several files: Zotero exports list an HTML
snapshot or landing page before the PDF (``[HTML] from ieee.org:files/357/
landing.html:text/html;paper.pdf:files/3848/paper.pdf:application/pdf``),
JabRef lists supplements first (``Supplement:supp.pdf:PDF;Full text:main.pdf:
PDF``). Reading the first file that exists lets a landing page's
"Recommended articles" or a supplement stand in for the work. Here every
attachment is located and read (through the parse cache), and the one that
is the work itself wins, by these rules in order:

1. a file that can be read (with passages) over one that cannot;
2. a file that is not a supplement (its label, its file name, or the top of
   its first page say "Supplement", "Supporting Information", "Appendix",
   "ESM") over one that is;
3. a file that fits the entry over one that does not: the entry's title
   against the file's own title or first page (rapidfuzz, below
   :data:`TITLE_MISFIT` out of 100 is a misfit), and the entry's first
   author named on the first page;
4. the full text's form: PDF over Markdown/text over an HTML page (a
   snapshot or landing page);
5. a PDF whose page count fits the entry's ``pages`` field;
6. the order written.

Every file looked at becomes a :class:`~citeproof.model.SourceCandidate`
saying why it was read or passed over (the report's ``sources_considered``).

Paths are also matched as reference managers and file systems spell them:
a name stored NFC in the .bib and NFD on disk (macOS), or the reverse, is
found by :func:`find_on_disk`.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from citeproof.model import Attachment, Reference, Source, SourceCandidate
from citeproof.sources.identity import authors_agree, source_identity, title_score
from citeproof.sources.recordings import RECORDING_TYPES
from citeproof.sources.titles import TITLE_MISFIT

if TYPE_CHECKING:  # pragma: no cover
    from citeproof.sources import SourceResolver

__all__ = ["TITLE_MISFIT", "UNREAD_TYPES", "attachments_of", "choose_source", "find_on_disk", "unread_type"]

UNREAD_TYPES: dict[str, str] = {
    ".doc": "a Word document",
    ".epub": "an EPUB book",
    ".ps": "a PostScript file",
    ".ppt": "a PowerPoint file",
    ".xlsx": "an Excel sheet",
    ".png": "an image",
    ".jpg": "an image",
    ".jpeg": "an image",
    ".tif": "an image",
    ".tiff": "an image",
    ".zip": "a zip archive",
    **RECORDING_TYPES,
}
"""Suffix -> what the file is, for types citeproof recognises but does not read."""

_SUPP_NAME = re.compile(
    r"(?<![A-Za-z])(?:(?i:supp(?:l|lement(?:ary|al)?|orting)?|esm|moesm\d*|mmc\d+|appendix|appendices|additional[ _-]?file)|SI)(?![A-Za-z])"
)
_SUPP_TEXT = re.compile(
    r"(?i)\b(?:supplementary|supplemental|supporting)\s+(?:information|materials?|data|text|methods|notes?|figures?|tables?|appendix)\b"
    r"|^\s*(?:online\s+)?appendix\b|\belectronic\s+supplementary\s+material\b"
)


def unread_type(path: Path) -> str:
    """What kind of file citeproof cannot read ``path`` is (``a Word
    document``), or '' for a type it reads or does not know."""
    return UNREAD_TYPES.get(path.suffix.lower(), "")


def attachments_of(ref: Reference) -> tuple[Attachment, ...]:
    """The entry's attachments: ``ref.attachments``, else one per path in
    ``ref.files`` (references built by hand or from CSL-JSON)."""
    if ref.attachments:
        return ref.attachments
    return tuple(Attachment(unicodedata.normalize("NFC", f)) for f in ref.files)


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def find_on_disk(path: Path) -> Path | None:
    """``path`` as it exists on disk, allowing another Unicode normal form.

    A .bib written on one system may hold ``Martínez.pdf`` composed (NFC)
    while the file system stores it decomposed (NFD, as macOS does), or the
    reverse; Linux compares names byte for byte. Each component that does
    not exist as written is looked up among its folder's entries by NFC
    form.

    Returns:
        The existing file's path (spelled as on disk), or None when there is
        no such file (a folder is not a file).
    """
    if path.is_file():
        return path
    text = str(path)
    if text.isascii():
        return None
    for form in ("NFC", "NFD"):
        alt = Path(unicodedata.normalize(form, text))
        if alt.is_file():
            return alt
    cur = Path(path.anchor) if path.is_absolute() else Path(".")
    for comp in path.parts[1:] if path.is_absolute() else path.parts:
        nxt = cur / comp
        if nxt.exists():
            cur = nxt
            continue
        try:
            names = os.listdir(cur)
        except OSError:
            return None
        want = _nfc(comp)
        hit = next((n for n in sorted(names) if _nfc(n) == want), None)
        if hit is None:
            return None
        cur = cur / hit
    return cur if cur.is_file() else None


def _expected_pages(pages: str) -> int:
    """Page count from a ``pages`` field (``123--135`` -> 13); 0 if unknown."""
    m = re.fullmatch(r"\s*(\d+)\s*[-\u2013\u2014]+\s*(\d+)\s*", pages or "")
    if not m:
        return 0
    a, b = int(m.group(1)), int(m.group(2))
    if b < a and len(m.group(2)) < len(m.group(1)):  # 1234--45 written short
        b = int(m.group(1)[: len(m.group(1)) - len(m.group(2))] + m.group(2))
    return b - a + 1 if 0 < b - a + 1 < 500 else 0


def _supplement_sign(att: Attachment, path: Path, src: Source, title: str) -> str:
    """Why the file looks like a supplement ('' when it does not).

    A word the entry's own ``title`` holds ("Dietary supplement use ...")
    says nothing: Zotero names files ``Author - Year - Title.pdf``.
    """
    in_title = {m.group(0).lower() for m in _SUPP_NAME.finditer(title)} | {m.group(0).lower() for m in _SUPP_TEXT.finditer(title)}
    if att.description and any(m.group(0).lower() not in in_title for m in _SUPP_NAME.finditer(att.description)):
        return f"labelled '{att.description}'"
    if any(m.group(0).lower() not in in_title for m in _SUPP_NAME.finditer(path.stem)):
        return f"file name '{path.name}'"
    head = (src.title or "") + "\n" + src.text[:200]
    m = next((m for m in _SUPP_TEXT.finditer(head) if m.group(0).lower() not in in_title), None)
    if m:
        return f"its first page reads '{m.group(0).strip()}'"
    return ""


_KIND = {"application/pdf": (3, "the PDF"), "text/markdown": (2, "a Markdown file"), "text/plain": (2, "a text file"), "text/html": (1, "an HTML page"),
         "application/vnd.openxmlformats-officedocument.wordprocessingml.document": (2, "a Word document"),
         "application/vnd.oasis.opendocument.text": (2, "an OpenDocument text"),
         "application/vnd.openxmlformats-officedocument.presentationml.presentation": (1, "a slide deck"),
         "application/jats+xml": (3, "the JATS XML"), "image/vnd.djvu": (2, "the DjVu file"), "application/x-subrip": (2, "the subtitles"),
         "text/vtt": (2, "the subtitles"), "text/x-transcript": (2, "the transcript")}


class _Facts:
    """What is known about one found attachment, for ranking."""

    def __init__(self, index: int, att: Attachment, path: Path, src: Source, ref: Reference) -> None:
        self.index, self.att, self.path, self.src = index, att, path, src
        self.usable = src.usable
        self.supplement = _supplement_sign(att, path, src, ref.title) if self.usable else ""
        self.title_sc: float | None = title_score(ref.title, src.title, src.text[:800]) if ref.title and self.usable else None
        if self.title_sc is not None and self.title_sc < 90 and src.media_type == "application/pdf":
            # A PDF whose metadata title is empty opens on whatever its first passage is (a CVPR paper: the Open Access
            # watermark): its title is the largest text on page 1, or the metadata title, as read into src.metadata (issue 30).
            own = src.metadata.get("title") or {}
            for t in dict.fromkeys((own.get("value", ""), own.get("quote", ""))):
                if t:
                    self.title_sc = max(self.title_sc, title_score(ref.title, t))
        if self.title_sc is not None and self.title_sc < 90 and src.media_type != "application/pdf":
            # A Markdown file's title may sit in its YAML front matter, which passages skip.
            try:
                ident = source_identity(path, path.read_bytes())
                self.title_sc = max(self.title_sc, title_score(ref.title, ident["title"], ident["head"]))
            except OSError:
                pass
        self.author = authors_agree(ref, src.text[:3000]) if self.usable else None
        sc = self.title_sc
        self.misfit = ""
        if sc is not None and sc < TITLE_MISFIT:
            self.misfit = f"its title does not match the entry's (score {sc:.0f} of 100)"
        elif self.author is False and (sc is None or sc < 90):
            first = ref.authors[0].split(",")[0] if ref.authors else ""
            self.misfit = f"its first page does not name the entry's first author ({first})"
        self.kind_rank, self.kind = _KIND.get(src.media_type, (0, "a file"))
        want = _expected_pages(ref.pages)
        self.pages_off = abs(src.pages - want) if want and src.pages else 0
        self.want_pages = want

    def key(self) -> tuple:
        """Sort key: larger is better (rules 1-6 of the module docstring)."""
        return (self.usable, not self.supplement, not self.misfit, self.kind_rank, -self.pages_off, -self.index)

    def praise(self) -> str:
        """Why this file was read, in words."""
        if not self.usable:
            return f"cannot be used: {self.src.error or 'no text'}"
        bits = [self.kind]
        if self.title_sc is not None and not self.misfit:
            bits.append(f"title matches the entry (score {self.title_sc:.0f})")
        if self.author:
            bits.append("names the first author")
        if self.want_pages and self.src.pages:
            bits.append(f"{self.src.pages} pages for the entry's {self.want_pages}")
        if self.misfit:
            bits.append("but " + self.misfit + ": check that this is the right file")
        if self.supplement:
            bits.append(f"but it looks like a supplement ({self.supplement}): check that this is the right file")
        return "read: " + ", ".join(bits)

    def fault(self, winner: _Facts) -> str:
        """Why this file was passed over in favour of ``winner``."""
        if not self.usable:
            return f"cannot be used: {self.src.error or 'no text'}"
        if self.supplement and not winner.supplement:
            return f"a supplement ({self.supplement}), not the work itself"
        if self.misfit and not winner.misfit:
            return f"does not fit the entry: {self.misfit}"
        if self.kind_rank < winner.kind_rank:
            form = "a snapshot or landing page" if self.kind_rank == 1 else "not the PDF"
            return f"{self.kind} ({form}); {winner.kind} of the work was read instead"
        if self.pages_off > winner.pages_off:
            return f"its {self.src.pages} pages do not fit the entry's pages {self.want_pages}; {winner.path.name} ({winner.src.pages}) does"
        return f"as good a fit as {winner.path.name}, which is listed first and was read"


def choose_source(
    resolver: SourceResolver,
    citekey: str,
    ref: Reference,
    load: Callable[[str, Path, str], Source],
) -> tuple[Source | None, list[SourceCandidate], list[str]]:
    """Locate and read every attachment of ``ref``; keep the work itself.

    Args:
        resolver: locates each attachment (:meth:`SourceResolver.locate`).
        citekey: the reference's key (the Source's ``citekey``).
        ref: the bibliography entry; its title, first author and ``pages``
            judge the fit.
        load: ``(citekey, path, origin) -> Source``, memoised parse.

    Returns:
        ``(source or None, considered, places tried)``. The source is None
        when no attachment exists on disk (the caller then tries
        ``--sources``); otherwise it is the chosen file's Source, carrying
        ``considered`` (one entry per attachment, the chosen one first). When
        no found file can be used, the Source's ``error`` names each file and
        why.
    """
    noted: list[tuple[int, SourceCandidate]] = []  # (attachment index, entry)
    tried_all: list[str] = []
    facts: list[_Facts] = []
    seen: dict[str, _Facts] = {}
    for i, att in enumerate(attachments_of(ref)):
        if att.is_url:
            noted.append((i, SourceCandidate(att.path, False, "a web address; citeproof fetches it only with --online")))
            tried_all.append(f"{att.path} (a web address; not fetched)")
            continue
        path, how, tried = resolver.locate(att, ref)
        tried_all.extend(tried)
        if path is None:
            example = next((t for t in tried if "outside the allowed folder" in t), tried[0] if tried else "-")
            noted.append((i, SourceCandidate(att.path, False, f"not found (looked at {len(tried)} places, e.g. {example})")))
            continue
        key = str(path.resolve())
        if key in seen:
            noted.append((i, SourceCandidate(str(path), False, f"the same file as attachment {seen[key].index + 1}")))
            continue
        src = load(citekey, path, how)
        f = _Facts(i, att, path, src, ref)
        seen[key] = f
        facts.append(f)
    if not facts:
        return None, [c for _, c in noted], tried_all
    best = max(facts, key=_Facts.key)
    for f in facts:
        noted.append((f.index, SourceCandidate(str(f.path), True, f.praise()) if f is best else SourceCandidate(str(f.path), False, f.fault(best))))
    considered = [c for _, c in sorted(noted, key=lambda t: t[0])]
    src = best.src
    if not best.usable and len(considered) > 1:
        why = [f"{c.path} ({_short_error(c.reason, c.path)})" for c in considered]
        src = replace(src, error=f"none of the {len(considered)} files the bibliography entry names can be used: " + "; ".join(why))
    elif not best.usable and not src.error:
        src = replace(src, error=f"{best.path}: the file holds no text")
    return replace(src, considered=considered), considered, tried_all


def _short_error(reason: str, path: str) -> str:
    """A candidate's reason without the 'cannot be used: <path>: ' lead."""
    if reason.startswith("cannot be used: "):
        reason = reason[len("cannot be used: "):]
    return reason[len(path) + 2:] if reason.startswith(path + ": ") else reason
