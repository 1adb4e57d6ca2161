"""Office sources (.docx, .odt, .pptx) -> passages, with paragraph numbers in place of pages (issue 19, part 3).

The package's XML is read with the standard library
(:mod:`citeproof.office_xml`), in the parse worker like a PDF
(:mod:`citeproof.sources.sandbox`): an Office file from the web is as
untrusted as a PDF.

* **.docx** (WordprocessingML): a passage per paragraph of the body, in
  document order, a table row as one passage (cells joined by `` | ``),
  then the footnotes and endnotes (``section`` ``notes``). ``line`` is the
  paragraph number from 1, counting every paragraph of the body, table
  cells included, as :mod:`citeproof.readers.docx` numbers a citing
  document's; deleted text (tracked changes) and field instructions are
  not text, a field's shown result is. A paragraph styled ``Heading``/
  ``Title`` sets ``section`` for what follows.
* **.odt** (OpenDocument text): a passage per ``text:p``/``text:h`` of the
  body (headings set ``section``), a table row as one passage, footnotes
  after the body; ``line`` as for .docx.
* **.pptx** (PresentationML): slides in the deck's order; ``page`` is the
  slide number (from 1), ``line`` the paragraph number within the deck; a
  passage per text paragraph of the slide's shapes and tables; the slide's
  title sets ``section``; speaker notes follow their slide's text
  (``section`` ``notes``).
* **.rtf**: converted by pandoc (``pypandoc-binary``, the ``render``
  extra) to .docx and read as one; without pandoc the source's error says
  what to install.

Titles come from the package's own metadata (``docProps/core.xml``
``dc:title``, ``meta.xml``), else the first heading or title placeholder.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from citeproof.model import Passage
from citeproof.office_xml import A, DC, OFFICE_NS, P, R, REL, TABLE_NS, TEXT_NS, W, PartError, read_part

__all__ = ["OFFICE_TYPES", "OFFICE_PARSER_VERSION", "ParsedOffice", "parse_office", "office_title"]

OFFICE_PARSER_VERSION = "office-1"
"""Bumped whenever passages would come out differently; part of the cache key."""

OFFICE_TYPES = {
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".odt": "application/vnd.oasis.opendocument.text",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".rtf": "application/rtf",
}
"""Suffix -> media type of the Office files read as sources."""

_WHAT = {".docx": "a Word document", ".odt": "an OpenDocument text", ".pptx": "a PowerPoint file", ".rtf": "an RTF document"}

RTF_TIMEOUT_S = 60.0
"""Seconds pandoc may take to read one .rtf file."""
_MAIN = {".docx": "word/document.xml", ".odt": "content.xml", ".pptx": "ppt/presentation.xml"}


@dataclass
class ParsedOffice:
    """What :func:`parse_office` found.

    Attributes:
        passages: in reading order (ids ``p00001``...).
        text: the full text; passages' char offsets index into it.
        pages: slides of a .pptx, else 0.
        title: the file's own title, or ''.
        error: why the file gave no passages (None on success).
    """

    passages: list[Passage] = field(default_factory=list)
    text: str = ""
    pages: int = 0
    title: str = ""
    error: str | None = None


# (paragraph or slide number, text, is a heading/title, section override or None, page)
_Block = tuple[int, str, bool, str | None, int | None]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _w_text(el: ET.Element) -> str:
    """Visible text of a WordprocessingML element: ``w:t`` runs, tabs and breaks as spaces; no deleted text, no field codes."""
    out: list[str] = []

    def walk(e: ET.Element) -> None:
        tag = e.tag
        if tag == W + "t":
            out.append(e.text or "")
        elif tag in (W + "tab", W + "br", W + "cr"):
            out.append(" ")
        elif tag in (W + "delText", W + "instrText", W + "del", W + "footnoteReference", W + "endnoteReference"):
            return
        else:
            for ch in e:
                walk(ch)

    walk(el)
    return _squash("".join(out))


def _docx_blocks(zf: zipfile.ZipFile) -> list[_Block]:
    root = read_part(zf, "word/document.xml")
    body = root.find(W + "body")
    blocks: list[_Block] = []
    n = 0

    def container(el: ET.Element) -> None:
        nonlocal n
        for ch in el:
            if ch.tag == W + "p":
                n += 1
                style = ch.find(f"{W}pPr/{W}pStyle")
                val = (style.get(W + "val") or "").lower() if style is not None else ""
                blocks.append((n, _w_text(ch), val.startswith(("heading", "title")), None, None))
            elif ch.tag == W + "tbl":
                for tr in ch.iter(W + "tr"):
                    first, cells = n + 1, []
                    for tc in tr.findall(W + "tc"):
                        paras = list(tc.iter(W + "p"))
                        n += len(paras)
                        cells.append(" ".join(t for t in (_w_text(p) for p in paras) if t))
                    blocks.append((first, " | ".join(c for c in cells if c), False, None, None))
            elif ch.tag in (W + "sdt", W + "sdtContent", W + "customXml", W + "smartTag"):
                container(ch)
    container(body if body is not None else root)
    for part, tag in (("word/footnotes.xml", "footnote"), ("word/endnotes.xml", "endnote")):
        if part not in zf.namelist():
            continue
        for note in read_part(zf, part).findall(W + tag):
            if note.get(W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            for p in note.iter(W + "p"):
                n += 1
                blocks.append((n, _w_text(p), False, "notes", None))
    return blocks


def _odt_text(el: ET.Element) -> str:
    """Text of an OpenDocument paragraph: spans and links, ``text:s`` as its count of spaces; notes left out."""
    out: list[str] = []

    def walk(e: ET.Element) -> None:
        tag = e.tag
        if tag == TEXT_NS + "note":
            return
        if tag == TEXT_NS + "s":
            out.append(" " * int(e.get(TEXT_NS + "c", "1") or 1) if (e.get(TEXT_NS + "c", "1") or "1").isdigit() else " ")
        elif tag in (TEXT_NS + "tab", TEXT_NS + "line-break"):
            out.append(" ")
        elif e.text:
            out.append(e.text)
        for ch in e:
            walk(ch)
            if ch.tail:
                out.append(ch.tail)

    walk(el)
    return _squash("".join(out))


def _odt_blocks(zf: zipfile.ZipFile) -> list[_Block]:
    root = read_part(zf, "content.xml")
    text_root = root.find(f"{OFFICE_NS}body/{OFFICE_NS}text")
    if text_root is None:
        raise PartError("content.xml has no office:text body (a spreadsheet or drawing saved as .odt?)")
    paragraph = (TEXT_NS + "p", TEXT_NS + "h")
    in_notes = {id(p) for note in text_root.iter(TEXT_NS + "note") for p in note.iter() if p.tag in paragraph}
    in_rows: set[int] = set()
    body: list[_Block] = []
    notes: list[ET.Element] = []
    n = 0
    for el in text_root.iter():  # document order: a table row comes before its cells' paragraphs
        if el.tag == TABLE_NS + "table-row":
            cells = []
            first = n + 1
            for cell in el.findall(TABLE_NS + "table-cell"):
                paras = [p for p in cell.iter() if p.tag in paragraph and id(p) not in in_notes]
                in_rows.update(id(p) for p in paras)
                n += len(paras)
                cells.append(" ".join(t for t in (_odt_text(p) for p in paras) if t))
            body.append((first, " | ".join(c for c in cells if c), False, None, None))
            continue
        if el.tag not in paragraph or id(el) in in_rows:
            continue
        if id(el) in in_notes:
            notes.append(el)
            continue
        n += 1
        body.append((n, _odt_text(el), el.tag == TEXT_NS + "h", None, None))
    for el in notes:
        n += 1
        body.append((n, _odt_text(el), False, "notes", None))
    return body


def _rels(zf: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship id -> target part (resolved against ``part``'s folder) of ``part``'s ``_rels`` file."""
    folder, name = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", name + ".rels")
    if rels_name not in zf.namelist():
        return {}
    out = {}
    for rel in read_part(zf, rels_name).findall(REL + "Relationship"):
        target = rel.get("Target") or ""
        if rel.get("TargetMode") == "External" or not target:
            continue
        out[rel.get("Id") or ""] = posixpath.normpath(posixpath.join(folder, target)) if not target.startswith("/") else target.lstrip("/")
    return out


def _a_paragraphs(el: ET.Element) -> list[str]:
    """The DrawingML paragraphs (``a:p``) under ``el``: runs, fields and breaks."""
    out = []
    for p in el.iter(A + "p"):
        parts = []
        for ch in p.iter():
            if ch.tag == A + "t":
                parts.append(ch.text or "")
            elif ch.tag == A + "br":
                parts.append(" ")
        out.append(_squash("".join(parts)))
    return out


def _pptx_blocks(zf: zipfile.ZipFile) -> tuple[list[_Block], int]:
    pres = read_part(zf, "ppt/presentation.xml")
    rels = _rels(zf, "ppt/presentation.xml")
    slides = [rels.get(s.get(R + "id") or "", "") for s in pres.iter(P + "sldId")]
    slides = [s for s in slides if s in zf.namelist()]
    blocks: list[_Block] = []
    n = 0
    for number, part in enumerate(slides, start=1):
        root = read_part(zf, part)
        title = ""
        for sp in root.iter(P + "sp"):
            ph = sp.find(f"{P}nvSpPr/{P}nvPr/{P}ph")
            is_title = ph is not None and ph.get("type") in ("title", "ctrTitle")
            for text in _a_paragraphs(sp):
                n += 1
                if is_title and text and not title:
                    title = text
                blocks.append((n, text, is_title, None, number))
        for frame in root.iter(P + "graphicFrame"):  # tables: a row is one passage
            for tr in frame.iter(A + "tr"):
                n += 1
                cells = [" ".join(t for t in _a_paragraphs(tc) if t) for tc in tr.findall(A + "tc")]
                blocks.append((n, " | ".join(c for c in cells if c), False, None, number))
        for rid, target in _rels(zf, part).items():
            if "notesSlide" in target and target in zf.namelist():
                notes = read_part(zf, target)
                for sp in notes.iter(P + "sp"):
                    ph = sp.find(f"{P}nvSpPr/{P}nvPr/{P}ph")
                    if ph is not None and ph.get("type") not in ("body", None):
                        continue  # the slide image and the slide number of the notes page
                    for text in _a_paragraphs(sp):
                        n += 1
                        blocks.append((n, text, False, "notes", number))
    return blocks, len(slides)


def office_title(zf: zipfile.ZipFile, suffix: str) -> str:
    """The title the package's metadata gives (``docProps/core.xml`` or ``meta.xml`` ``dc:title``), '' if none."""
    part = "meta.xml" if suffix == ".odt" else "docProps/core.xml"
    if part not in zf.namelist():
        return ""
    try:
        el = read_part(zf, part).find(f".//{DC}title")
    except PartError:
        return ""
    return _squash(el.text or "") if el is not None else ""


def parse_office(data: bytes, suffix: str) -> ParsedOffice:
    """Parse an Office file's bytes into passages (module docstring).

    Args:
        data: the file's bytes.
        suffix: ``.docx``, ``.odt`` or ``.pptx`` (lower case).

    Returns:
        A :class:`ParsedOffice`; on failure ``passages`` is empty and
        ``error`` says why (not a zip package, a part missing, too large or
        not XML, no text), in words a user can act on.
    """
    what = _WHAT.get(suffix, "an Office file")
    if suffix == ".rtf":
        return _parse_rtf(data)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        return ParsedOffice(error=f"not {what}: the file is not a zip package ({exc}); save it again from the office program")
    pages = 0
    try:
        with zf:
            if _MAIN[suffix] not in zf.namelist():
                return ParsedOffice(error=f"not {what}: it has no {_MAIN[suffix]} (a renamed file of another kind?); save it again as {suffix}")
            if suffix == ".pptx":
                blocks, pages = _pptx_blocks(zf)
            else:
                blocks = _docx_blocks(zf) if suffix == ".docx" else _odt_blocks(zf)
            title = office_title(zf, suffix)
    except PartError as exc:
        return ParsedOffice(error=f"{what} that cannot be read: {exc}; save it again from the office program")
    passages: list[Passage] = []
    parts: list[str] = []
    offset = 0
    section = ""
    for number, text, heading, override, page in blocks:
        if not text:
            continue
        if heading:
            section = text.lower()
            title = title or text
        passages.append(Passage(id=f"p{len(passages) + 1:05d}", text=text, page=page, line=number, char_start=offset,
                                char_end=offset + len(text), section=override or section))
        parts.append(text)
        offset += len(text) + 2
    if not passages:
        return ParsedOffice(pages=pages, title=title, error=f"{what} with no text" + (" (slides of images only?)" if suffix == ".pptx" else ""))
    return ParsedOffice(passages, "\n\n".join(parts), pages, title or passages[0].text[:200])


def _parse_rtf(data: bytes) -> ParsedOffice:
    """An .rtf file through pandoc (``-f rtf -t docx``), then read as the .docx pandoc wrote."""
    import subprocess

    if not data.lstrip().startswith(b"{\\rtf"):
        return ParsedOffice(error="not an RTF document: it does not start with {\\rtf; save it again from the word processor")
    try:
        import pypandoc

        pandoc = pypandoc.get_pandoc_path()
    except (ImportError, OSError) as exc:
        return ParsedOffice(error=f"reading .rtf needs pandoc ({type(exc).__name__}); install it with pip install 'citeproof[render]', or save the file as .docx")
    try:
        run = subprocess.run([pandoc, "-f", "rtf", "-t", "docx", "-o", "-"], input=data, capture_output=True, timeout=RTF_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return ParsedOffice(error=f"pandoc could not read the RTF document ({exc}); save it as .docx")
    if run.returncode != 0:
        return ParsedOffice(error=f"pandoc could not read the RTF document ({run.stderr.decode('utf-8', 'replace').strip()[:200]}); save it as .docx")
    doc = parse_office(run.stdout, ".docx")
    if doc.error:
        doc.error = "an RTF document with no text" if doc.error.endswith("with no text") else doc.error.replace("a Word document", "an RTF document (as pandoc converts it)")
    return doc
