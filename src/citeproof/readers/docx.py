"""Word (.docx) and OpenDocument (.odt) citing documents with reference-manager citation fields (issue 14).

Zotero, Mendeley and EndNote put each citation in a *field* whose instruction holds the cited items:

- Zotero: ``ADDIN ZOTERO_ITEM CSL_CITATION {json}``; Mendeley: ``ADDIN CSL_CITATION {json}`` (both a CSL
  citation object: ``citationItems[*].itemData`` is the item as CSL-JSON, with ``locator``, ``label``,
  ``prefix``, ``suffix``, ``suppress-author``);
- EndNote: ``ADDIN EN.CITE <EndNote><Cite><Author>..</Author><Year>..</Year><record>..</record></Cite></EndNote>``;
- in .odt, Zotero writes reference marks named ``ZOTERO_ITEM CSL_CITATION {json} RND...``;
- where the code is not in the instruction (:mod:`citeproof.readers.docx_fields`): Zotero's "store citations as
  bookmarks" mode (``ZOTERO_BREF_*`` bookmarks, codes in ``docProps/custom.xml``), EndNote's long form (the record
  base64 in ``<w:fldData>`` of a nested ``EN.CITE.DATA`` field), Mendeley Cite v3 content controls
  (``MENDELEY_CITATION_v3_<base64>``); legacy Mendeley's ``ADDIN Mendeley Citation{uuid} CSL_CITATION {json}``.

A .docx pandoc made from a Markdown draft has no field: its ``[@key]`` citations are text, read as pandoc reads
them when no field holds a citation (the bibliography then comes from ``--bib``).

The items carried in the fields *are* the bibliography, so ``citeproof check paper.docx`` needs no ``--bib``.
Bibliography fields (``ZOTERO_BIBL``, ``CSL_BIBLIOGRAPHY``, ``EN.REFLIST``) are the printed reference list and
are not read as claims.

How: the paragraphs (body, then table rows, in document order; footnotes, then endnotes, after the body) are read from the
package's XML with the standard library, each citation field becomes a pandoc citation (``[see @{key}, p. 33]``)
in a Markdown rendering of the document, and the Markdown reader cuts claims from it, so Word claims are cut
exactly as Markdown ones are. A claim's ``line`` is the paragraph number (from 1, counting every paragraph of
the body, table cells included); footnote claims count on after the body.
Citekeys are made from the first author's family name and the year (``smith2020``, ``smith2020a``...), one per
distinct item (Zotero URI, else CSL id, else title).
"""

from __future__ import annotations

import dataclasses
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

from citeproof.bibliography import Bibliography, normalise_doi
from citeproof.bibliography.csl import csl_reference
from citeproof.bibliography.keys import CitekeyMaker
from citeproof.errors import InputError
from citeproof.model import Claim, Diagnostic, Reference, UnitKind
from citeproof.office_xml import OFFICE_NS, TEXT_NS, W, PartError, read_part
from citeproof.readers.docx_fields import (MENDELEY_BIBLIOGRAPHY, MENDELEY_V3, ZOTERO_BOOKMARK, bookmark_code, bookmark_codes, field_data_text,
                                          mendeley_v3_code)
from citeproof.readers.docx_text import cite_plain_text

__all__ = ["DocxReader", "WordDocument", "read_word"]

_LABELS = {"page": "p.", "chapter": "chap.", "section": "sec.", "figure": "fig.", "table": "tab.", "paragraph": "para.",
           "line": "l.", "volume": "vol.", "note": "n.", "verse": "v.", "column": "col.", "book": "bk."}
_BIBLIOGRAPHY_FIELD = re.compile(r"^\s*(?:ADDIN\s+)?(ZOTERO_BIBL|Mendeley\s+Bibliography|CSL_BIBLIOGRAPHY|EN\.REFLIST)", re.I)
_CSL_FIELD = re.compile(r"^\s*(?:ADDIN\s+)?(?:ZOTERO_ITEM\s+|Mendeley\s+Citation\s*\{[^}]*\}\s*)?CSL_CITATION\s*(\{.*\})", re.S)
_ENDNOTE_FIELD = re.compile(r"^\s*ADDIN\s+EN\.CITE\s*(<EndNote>.*</EndNote>)", re.S)
_ENDNOTE_BARE = re.compile(r"^\s*ADDIN\s+EN\.CITE\s*$")
_ENDNOTE_DATA = re.compile(r"^\s*ADDIN\s+EN\.CITE\.DATA\b")
_PANDOC_GROUP = re.compile(r"\[[^\[\]]*-?@(?:\{[^{}]+\}|[A-Za-z0-9_][\w:.#$%&+?<>~/-]*)[^\[\]]*\]")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|@~^$])")


@dataclass
class WordDocument:
    """What a Word/ODT document gives: its claims and the bibliography its citation fields carry.

    Attributes:
        claims: claims with citations, in document order.
        references: citekey -> Reference made from the fields' items.
        diagnostics: problems met (unreadable fields, no citation at all).
    """

    claims: list[Claim] = field(default_factory=list)
    references: dict[str, Reference] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    path: str = ""
    unknown_reasons: dict[str, str] = field(default_factory=dict)
    plain_text: bool = False

    def bibliography(self) -> Bibliography:
        """The items of the citation fields (or the typed reference list) as a :class:`Bibliography`."""
        what = "the typed reference list" if self.plain_text else "the citation fields"
        return Bibliography(entries=dict(self.references), diagnostics=list(self.diagnostics), unknown_reasons=dict(self.unknown_reasons),
                            description=f"{what} of {self.path}")


def _endnote_items(xml: str, origin: str) -> list[tuple[str, Reference, dict]]:
    """``(identity, reference, citation options)`` for each ``<Cite>`` of an EndNote field."""
    root = ET.fromstring(xml)
    out = []
    for cite in root.iter("Cite"):
        rec = cite.find("record")

        def first(path: str, _rec=rec) -> str:
            if _rec is None:
                return ""
            el = _rec.find(path)
            return "".join(el.itertext()).strip() if el is not None else ""

        authors = tuple("".join(a.itertext()).strip() for a in rec.iter("author")) if rec is not None else ()
        ref = Reference(citekey="", title=first("titles/title"), authors=authors or (cite.findtext("Author") or "",),
                        year=(cite.findtext("Year") or first("dates/year")), container=first("titles/secondary-title"),
                        doi=normalise_doi(first("electronic-resource-num")), url=first("urls/related-urls/url"), origin=origin)
        ident = "endnote:" + (first("rec-number") or cite.findtext("RecNum") or ref.title)
        pages = (cite.findtext("Pages") or "").strip()
        opts = {"locator": pages.strip("@ "), "label": "page"} if pages else {}
        out.append((ident, ref, opts))
    return out


def _group(items: list[tuple[Reference, dict]]) -> str:
    """A pandoc citation group for the items of one field: ``[see @{a}, p. 3; @{b}]``."""
    parts = []
    for it, opt in items:
        s = ""
        prefix = str(opt.get("prefix") or "").strip()
        if prefix:
            s += _MD_SPECIAL.sub(r"\\\1", prefix) + " "
        s += ("-" if opt.get("suppress-author") else "") + "@{" + it.citekey + "}"
        loc = str(opt.get("locator") or "").strip()
        if loc:
            s += f", {_LABELS.get(str(opt.get('label') or 'page'), str(opt.get('label')))} {loc}"
        suffix = str(opt.get("suffix") or "").strip()
        if suffix:
            s += " " + _MD_SPECIAL.sub(r"\\\1", suffix)
        parts.append(s)
    return "[" + "; ".join(parts) + "]"


class _Collector:
    """Turns a field instruction into a citation group (or marks it as a bibliography / other field)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keys = CitekeyMaker()
        self.diagnostics: list[Diagnostic] = []
        self.fields = 0
        self.bookmark_codes: dict[str, str] = {}

    def citation(self, instr: str, para: int, data: str = "") -> str | None:
        """The Markdown citation group for ``instr``, '' for a bibliography field, None for any other field.

        ``data`` is the field's ``<w:fldData>`` (EndNote's base64 payload, :mod:`citeproof.readers.docx_fields`).
        """
        instr = instr.strip()
        if _ENDNOTE_BARE.match(instr):
            payload = field_data_text(data)
            if not payload.startswith("<EndNote"):
                self.fields += 1
                self.diagnostics.append(Diagnostic("docx-field", "warning", f"{self.path}: citation field in paragraph {para}: an EndNote field "
                                                   "without its record (no readable EN.CITE.DATA); that citation is skipped: "
                                                   "in Word, EndNote > Update Citations and Bibliography, then save", str(self.path), para))
                return ""
            instr = "ADDIN EN.CITE " + payload
        if _BIBLIOGRAPHY_FIELD.match(instr):
            return ""
        origin = f"{self.path}: citation field in paragraph {para}"
        m = _CSL_FIELD.match(instr)
        if m:
            self.fields += 1
            try:
                data = json.loads(m.group(1))
                cis = data["citationItems"]
                if not isinstance(cis, list):
                    raise TypeError("citationItems is not a list")
            except (json.JSONDecodeError, KeyError, TypeError, RecursionError) as exc:  # RecursionError: JSON nested past Python's limit
                self.diagnostics.append(Diagnostic("docx-field", "warning", f"{origin}: unreadable CSL citation field ({exc}); that citation is skipped",
                                                   str(self.path), para))
                return ""
            items = []
            for ci in cis:
                if not isinstance(ci, dict):
                    continue
                data_item = ci.get("itemData") if isinstance(ci.get("itemData"), dict) else {}
                uris = ci.get("uris") or ci.get("uri") or []
                ident = (uris[0] if isinstance(uris, list) and uris else str(uris) if uris else "") or f"id:{ci.get('id') or data_item.get('id')}" or data_item.get("title", "")
                ref = csl_reference(data_item, citekey="", where=f"citationItems[{len(items)}].itemData", origin=origin, source=origin, lenient=True)
                items.append((self.keys.make(str(ident), ref), ci))
            return _group(items) if items else ""
        m = _ENDNOTE_FIELD.match(instr)
        if m:
            self.fields += 1
            try:
                found = _endnote_items(m.group(1), origin)
            except (ET.ParseError, RecursionError) as exc:
                self.diagnostics.append(Diagnostic("docx-field", "warning", f"{origin}: unreadable EndNote field ({exc}); that citation is skipped",
                                                   str(self.path), para))
                return ""
            return _group([(self.keys.make(i, r), o) for i, r, o in found]) if found else ""
        return None


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _docx_paragraph(p: ET.Element, col: _Collector, para: int) -> str:
    """The paragraph as Markdown text, each citation field replaced by its citation group."""
    out: list[str] = []
    stack: list[dict] = []  # complex fields: {"instr", "result", "in_result"}

    def emit(s: str) -> None:
        if stack and stack[-1]["in_result"]:
            stack[-1]["result"].append(s)
        elif not stack:
            out.append(s)

    def close(instr: str, result: str, data: str = "") -> None:
        cite = col.citation(instr, para, data)
        emit(result if cite is None else (" " + cite if cite else ""))

    def walk(el: ET.Element) -> None:
        tag = el.tag
        if tag == W + "fldSimple":
            inner: list[str] = []
            stack.append({"instr": "", "result": inner, "in_result": True, "data": ""})
            for ch in el:
                walk(ch)
            stack.pop()
            close(el.get(W + "instr") or "", "".join(inner))
            return
        if tag == W + "fldChar":
            kind = el.get(W + "fldCharType")
            if kind == "begin":
                stack.append({"instr": "", "result": [], "in_result": False, "data": el.findtext(W + "fldData") or ""})
            elif kind == "separate" and stack:
                stack[-1]["in_result"] = True
            elif kind == "end" and stack:
                f = stack.pop()
                if _ENDNOTE_DATA.match(f["instr"]):  # EndNote's payload field, nested in the instruction of its EN.CITE
                    if stack and not stack[-1]["data"]:
                        stack[-1]["data"] = f["data"]
                    return
                close(f["instr"], "".join(f["result"]), f["data"])
            return
        if tag == W + "bookmarkStart" and (el.get(W + "name") or "").startswith(ZOTERO_BOOKMARK):
            code = bookmark_code(col.bookmark_codes, el.get(W + "name") or "")
            if not code:
                col.diagnostics.append(Diagnostic("docx-field", "warning", f"{col.path}: paragraph {para}: Zotero bookmark {el.get(W + 'name')} has no "
                                                  "code in docProps/custom.xml; that citation is read as text (in Word: Zotero > Refresh)",
                                                  str(col.path), para))
            else:
                stack.append({"instr": code, "result": [], "in_result": True, "data": "", "bookmark": el.get(W + "id")})
            return
        if tag == W + "bookmarkEnd":
            if stack and stack[-1].get("bookmark") is not None and stack[-1]["bookmark"] == el.get(W + "id"):
                f = stack.pop()
                close(f["instr"], "".join(f["result"]))
            return
        if tag == W + "sdt":
            tag_val = el.find(f"{W}sdtPr/{W}tag")
            val = (tag_val.get(W + "val") or "") if tag_val is not None else ""
            if val.startswith(MENDELEY_V3) or val == MENDELEY_BIBLIOGRAPHY:
                inner = []
                stack.append({"instr": "", "result": inner, "in_result": True, "data": ""})
                for ch in el.iterfind(W + "sdtContent"):
                    walk(ch)
                stack.pop()
                if val == MENDELEY_BIBLIOGRAPHY:
                    return
                try:
                    code = mendeley_v3_code(val)
                except ValueError as exc:
                    col.fields += 1
                    col.diagnostics.append(Diagnostic("docx-field", "warning", f"{col.path}: paragraph {para}: unreadable Mendeley Cite content control "
                                                      f"({exc}); that citation is skipped", str(col.path), para))
                    emit("".join(inner))
                    return
                close(code, "".join(inner))
                return
        if tag == W + "instrText":
            if stack and not stack[-1]["in_result"]:
                stack[-1]["instr"] += el.text or ""
            return
        if tag == W + "t":
            emit(_escape(el.text or ""))
            return
        if tag == W + "tab":
            emit(" ")
            return
        if tag in (W + "br", W + "cr"):
            emit(" ")
            return
        if tag in (W + "footnoteReference", W + "endnoteReference", W + "delText"):
            return
        for ch in el:
            walk(ch)

    walk(p)
    while stack:  # a field never closed: keep what it showed
        f = stack.pop()
        out.append("".join(f["result"]))
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _docx_blocks(root: ET.Element, col: _Collector, start: int) -> list[tuple[int, str, list[str] | None, bool]]:
    """``(paragraph number, text, table cells or None, is heading)`` for the body's blocks in order."""
    body = root.find(W + "body")
    blocks: list[tuple[int, str, list[str] | None, bool]] = []
    n = start

    def container(parent: ET.Element) -> None:
        nonlocal n
        for el in parent:
            if el.tag == W + "p":
                n += 1
                style = el.find(f"{W}pPr/{W}pStyle")
                heading = style is not None and (style.get(W + "val") or "").lower().startswith(("heading", "title"))
                blocks.append((n, _docx_paragraph(el, col, n), None, heading))
            elif el.tag == W + "tbl":
                for tr in el.iter(W + "tr"):
                    cells = []
                    first = n + 1
                    for tc in tr.findall(W + "tc"):
                        texts = []
                        for p in tc.iter(W + "p"):
                            n += 1
                            texts.append(_docx_paragraph(p, col, n))
                        cells.append(" ".join(t for t in texts if t))
                    blocks.append((first, "", cells, False))
            elif el.tag == W + "sdt":  # a block-level content control: its paragraphs, unless it is Mendeley's bibliography
                tag = el.find(f"{W}sdtPr/{W}tag")
                if tag is not None and tag.get(W + "val") == MENDELEY_BIBLIOGRAPHY:
                    n += sum(1 for _ in el.iter(W + "p"))
                    continue
                for content in el.iterfind(W + "sdtContent"):
                    container(content)
            elif el.tag in (W + "customXml", W + "smartTag"):
                container(el)

    container(body if body is not None else root)
    return blocks


def _odt_blocks(root: ET.Element, col: _Collector) -> list[tuple[int, str, list[str] | None, bool]]:
    """Blocks of an .odt ``content.xml`` (Zotero reference marks, and Zotero bookmarks with their codes in ``meta.xml``,
    as citation fields)."""
    blocks = []
    n = 0

    def para_text(p: ET.Element, num: int) -> str:
        out: list[str] = []
        skip_until: list[str | None] = [None]

        def walk(el: ET.Element) -> None:
            tag = el.tag
            if tag == TEXT_NS + "reference-mark-start":
                name = el.get(TEXT_NS + "name") or ""
                cite = col.citation(re.sub(r"\s+RND\w+\s*$", "", name), num)
                if cite is not None:
                    out.append(" " + cite if cite else "")
                    skip_until[0] = name
            elif tag == TEXT_NS + "bookmark-start" and (el.get(TEXT_NS + "name") or "").startswith(ZOTERO_BOOKMARK):
                name = el.get(TEXT_NS + "name") or ""
                code = bookmark_code(col.bookmark_codes, name)
                if not code:
                    col.diagnostics.append(Diagnostic("docx-field", "warning", f"{col.path}: paragraph {num}: Zotero bookmark {name} has no "
                                                      "code in the document's properties; its text is read as prose", str(col.path), num))
                else:
                    cite = col.citation(code, num)
                    if cite is not None:
                        out.append(" " + cite if cite else "")
                        skip_until[0] = name
            elif tag in (TEXT_NS + "reference-mark-end", TEXT_NS + "bookmark-end"):
                if skip_until[0] == el.get(TEXT_NS + "name"):
                    skip_until[0] = None
            elif tag in (TEXT_NS + "s", TEXT_NS + "tab", TEXT_NS + "line-break"):
                if skip_until[0] is None:
                    out.append(" ")
            elif tag == TEXT_NS + "note":
                return
            elif skip_until[0] is None and el.text:
                out.append(_escape(el.text))
            for ch in el:
                walk(ch)
                if skip_until[0] is None and ch.tail:
                    out.append(_escape(ch.tail))

        walk(p)
        return re.sub(r"\s+", " ", "".join(out)).strip()

    text_root = root.find(f"{OFFICE_NS}body/{OFFICE_NS}text")
    for el in text_root.iter() if text_root is not None else []:
        if el.tag in (TEXT_NS + "p", TEXT_NS + "h"):
            n += 1
            blocks.append((n, para_text(el, n), None, el.tag == TEXT_NS + "h"))
    return blocks


def read_word(path: str | Path) -> WordDocument:
    """Read a .docx or .odt citing document.

    Returns:
        A :class:`WordDocument`. Without any citation field, plain-text citations (``(Smith 2020)``, ``[3]``) are read
        against the typed reference list (:mod:`citeproof.readers.docx_text`); when there are none either, a
        diagnostic says so.

    Raises:
        InputError: the file is missing, not a zip package, lacks its main XML part, or that part inflates past
            :data:`citeproof.office_xml.MAX_PART_BYTES`, cannot be unpacked (a zip header that understates it, a
            bad CRC), nests deeper than :data:`citeproof.office_xml.MAX_DEPTH` or is not XML: one line naming the file.
    """
    from citeproof.readers.markdown import MarkdownReader

    path = Path(path)
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path of the citing document") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise InputError(f"{path}: not a Word/OpenDocument file ({exc}); save it again as .docx or .odt") from None
    col = _Collector(path)
    footnotes: set[int] = set()
    odt = path.suffix.lower() == ".odt"
    part = "content.xml" if odt else "word/document.xml"
    with zf:
        try:
            root = read_part(zf, part)
        except PartError as exc:
            if f"has no {part}" == str(exc):
                raise InputError(f"{path}: has no {part}; is it really a {'.odt' if odt else '.docx'} file? Save it again from the word processor") from None
            raise InputError(f"{path}: {exc}; save the document again from the word processor (or split it)") from None
        col.bookmark_codes = bookmark_codes(zf, path, col.diagnostics)  # Zotero's bookmark mode: codes in the document properties
        if odt:
            blocks = _odt_blocks(root, col)
        else:
            blocks = _docx_blocks(root, col, 0)
            n = blocks[-1][0] if blocks else 0
            for part_name, tag, what in (("word/footnotes.xml", "footnote", "footnotes"), ("word/endnotes.xml", "endnote", "endnotes")):
                if part_name not in zf.namelist():
                    continue
                try:
                    notes = read_part(zf, part_name)
                except PartError as exc:
                    col.diagnostics.append(Diagnostic("docx-footnotes", "warning", f"{path}: {exc}; {what} not read", str(path)))
                    continue
                for fn in notes.findall(W + tag):
                    for p in fn.iter(W + "p"):
                        n += 1
                        t = _docx_paragraph(p, col, n)
                        if t:
                            blocks.append((n, t, None, False))
                            footnotes.add(n)
    plain = cite_plain_text(blocks, str(path), footnotes) if not col.fields else None
    if plain is not None and plain.style:
        blocks = plain.blocks
    pandoc_text = not col.fields and not (plain is not None and plain.markers) and any(
        _PANDOC_GROUP.search(_unescape(t)) for _, text, cells, _ in blocks for t in ([text] if cells is None else cells))
    if pandoc_text:  # a .docx pandoc made from a Markdown draft: the citations are pandoc's own syntax, read as Markdown
        plain = None
        blocks = [(n, _unescape(text), None if cells is None else [_unescape(c) for c in cells], h) for n, text, cells, h in blocks]
    # One Markdown block per paragraph (line 2k+1 holds paragraph k's text), tables as pipe tables.
    lines: list[str] = []
    line_to_para: dict[int, int] = {}
    for num, text, cells, heading in blocks:
        if cells is not None:
            row = "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
            lines += [row, "|" + "---|" * len(cells), ""]
            line_to_para[len(lines) - 2] = num  # the row line (1-based) of this one-row table
            continue
        if not text:
            continue
        lines.append(("# " if heading else "") + text)
        line_to_para[len(lines)] = num
        lines.append("")
    doc = WordDocument(path=str(path))
    md = MarkdownReader().read_string("\n".join(lines), str(path))
    for c in md:
        para = line_to_para.get(c.line, 0)
        keys = plain.keys if plain is not None else {}
        cites = tuple(dataclasses.replace(ct, line=para, column=0, citekey=keys.get(ct.citekey, ct.citekey)) for ct in c.citations)
        kind = UnitKind.FOOTNOTE if para in footnotes else c.kind
        doc.claims.append(dataclasses.replace(c, line=para, citations=cites, kind=kind))
    doc.references = {r.citekey: r for r in col.keys.made.values()}
    doc.diagnostics = col.diagnostics
    if plain is not None and plain.style:
        doc.references, doc.unknown_reasons, doc.plain_text = plain.references, plain.unknown_reasons, True
        doc.diagnostics += plain.diagnostics
    if pandoc_text:
        doc.diagnostics.append(Diagnostic("docx-pandoc-citations", "info", f"{path}: no citation fields; read {sum(len(c.citations) for c in doc.claims)} "
                                          "pandoc citation(s) such as @key typed in the text; give their bibliography with --bib", str(path)))
    elif not col.fields and not (plain is not None and plain.markers):
        doc.diagnostics.append(Diagnostic("docx-no-citations", "warning",
                                          f"{path}: no Zotero, Mendeley or EndNote citation field and no plain-text citation "
                                          "((Smith, 2020) or [3]) with a typed reference list under a 'References' heading found; "
                                          "insert citations with the reference manager's Word plugin, or add the reference list", str(path)))
    return doc


class DocxReader:
    """Reads .docx and .odt citing documents (module docstring); ``read_document`` gives claims and bibliography."""

    suffixes = (".docx", ".odt")

    def read_document(self, path: str | Path) -> WordDocument:
        """See :func:`read_word`."""
        return read_word(path)

    def read(self, path: str | Path) -> list[Claim]:
        """The claims only."""
        return read_word(path).claims
