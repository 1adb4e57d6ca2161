"""``--annotate DIR``: findings written back where people read them (issue 25, part 4).

* Each cited PDF that holds evidence is copied into DIR with a highlight annotation (PyMuPDF) over the words of
  every evidence box
  (and the box where a passage that runs on past a break ends), its note saying the verdict, the tier and
  confidence, and the citing line with its claim. One copy per source file, named ``<stem>.citeproof.pdf``.
* A Word citing document (.docx) is copied into DIR as ``<stem>.citeproof.docx`` with a Word comment on the
  paragraph of each flagged citation (any verdict but *supported*, or a finding with tags, suggestions or
  inconsistencies): the verdict, the page and the evidence. Comments are plain WordprocessingML (ECMA-376 Part 1,
  17.13.4: ``comments.xml``, ``commentRangeStart``/``commentRangeEnd``/``commentReference``), written with lxml so
  the document's own namespace prefixes survive.

The originals are only read: every write goes to DIR, and a target that is the original file itself is refused.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from citeproof.errors import InputError
from citeproof.model import Finding, Report, UnitKind, Verdict

__all__ = ["AnnotateResult", "annotate", "annotate_pdfs", "comment_docx", "flagged", "VERDICT_COLOURS"]

VERDICT_COLOURS = {
    Verdict.SUPPORTED: (0.55, 0.85, 0.45),
    Verdict.PARTIAL: (1.0, 0.85, 0.2),
    Verdict.UNSUPPORTED: (1.0, 0.55, 0.3),
    Verdict.CONTRADICTED: (1.0, 0.35, 0.35),
}
"""Highlight colour (RGB, 0..1) by verdict; other verdicts use the partial colour."""

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "http://schemas.openxmlformats.org/package/2006/content-types"
_COMMENTS_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
_COMMENTS_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"


@dataclass
class AnnotateResult:
    """What :func:`annotate` wrote: the files, and why something was not annotated."""

    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def flagged(f: Finding) -> bool:
    """True for a finding a reviewer should see in the document: not *supported*, or tagged, or with suggestions
    or inconsistencies."""
    return f.verdict != Verdict.SUPPORTED or bool(f.tags or f.suggestions or f.inconsistencies)


def _note(f: Finding) -> str:
    c = f.citation
    lines = [f"citeproof: {f.verdict.value} (tier {f.tier.value}, confidence {f.confidence:.2f})",
             f"{f.location()}: [@{c.citekey}{', ' + c.locator.raw if c.locator else ''}] {f.claim.text}"]
    if f.reasons:
        lines.append(f.reasons[0])
    lines += [t.message for t in f.tags if t.message]
    lines += [s["message"] for s in f.suggestions]
    lines += [x["message"] for x in f.inconsistencies]
    return "\n".join(lines)


def _safe_target(out_dir: Path, name: str, original: Path) -> Path:
    target = out_dir / name
    if target.resolve() == original.resolve():
        raise InputError(f"{target}: --annotate would overwrite the original; choose another folder")
    return target


def annotate_pdfs(findings: list[Finding], out_dir: Path) -> AnnotateResult:
    """Copies of the cited PDFs with a highlight and a note on each evidence box (see the module docstring).

    Args:
        findings: the report's findings (those whose evidence is a PDF passage with a box are annotated).
        out_dir: the folder for the copies (created).

    Returns:
        The copies written, and a note per source that could not be annotated.
    """
    import pymupdf

    out = AnnotateResult()
    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        ev = f.evidence
        if ev is not None and ev.source.path and ev.source.media_type == "application/pdf" and ev.passage.page and ev.passage.bbox:
            by_path.setdefault(ev.source.path, []).append(f)
    out_dir.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    for path, group in by_path.items():
        src = Path(path)
        name = f"{src.stem}.citeproof.pdf"
        if name in used:
            name = f"{src.stem}-{hashlib.sha256(str(src).encode()).hexdigest()[:8]}.citeproof.pdf"
        used.add(name)
        try:
            target = _safe_target(out_dir, name, src)
            with pymupdf.open(src) as doc:
                for f in group:
                    p = f.evidence.passage
                    boxes = [(p.page, p.bbox)]
                    if p.bbox_end is not None:
                        boxes.append((p.page_end or p.page, p.bbox_end))
                    for page_no, box in boxes:
                        if not 0 < page_no <= doc.page_count:
                            continue
                        page = doc[page_no - 1]
                        rect = pymupdf.Rect(box)
                        words = [pymupdf.Rect(wd[:4]).quad for wd in page.get_text("words", clip=rect)]
                        annot = page.add_highlight_annot(words or rect)  # the words of the box; the box itself when it holds none
                        annot.set_colors(stroke=VERDICT_COLOURS.get(f.verdict, VERDICT_COLOURS[Verdict.PARTIAL]))
                        annot.set_info(title="citeproof", subject=f.verdict.value, content=_note(f))
                        annot.update()
                doc.save(target, garbage=1, deflate=True)
            out.written.append(target)
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - one source that cannot be annotated is a note, never a lost report
            out.notes.append(f"{src}: not annotated ({type(exc).__name__}: {exc})")
    return out


def _body_paragraphs(body) -> list:
    """The body's paragraphs numbered as the Word reader numbers them (:mod:`citeproof.readers.docx`): top-level
    paragraphs and, in tables, every paragraph of each cell, in document order; index 0 is paragraph 1."""
    out = []
    for el in body:
        if el.tag == f"{{{_W}}}p":
            out.append(el)
        elif el.tag == f"{{{_W}}}tbl":
            for tr in el.iter(f"{{{_W}}}tr"):
                for tc in tr.findall(f"{{{_W}}}tc"):
                    out.extend(tc.iter(f"{{{_W}}}p"))
    return out


def _comment_text(f: Finding) -> list[str]:
    ev = f.evidence
    lines = [f"citeproof: [@{f.citation.citekey}] {f.verdict.value} (tier {f.tier.value}, confidence {f.confidence:.2f})"]
    if ev is not None:
        lines.append(f"Evidence: {Path(ev.source.path or '').name}{', ' + ev.passage.where() if ev.passage.where() else ''}")
        if ev.passage.quotable:
            text = ev.sentence or ev.passage.text
            lines.append(f"\u201c{text[:600]}{'...' if len(text) > 600 else ''}\u201d")
    elif f.reasons:
        lines.append(f.reasons[0])
    lines += [s["message"] for s in f.suggestions] + [x["message"] for x in f.inconsistencies]
    return lines


def comment_docx(document: Path, findings: list[Finding], out_dir: Path) -> tuple[Path | None, list[str]]:
    """A copy of a .docx citing document with a Word comment at each flagged citation's paragraph.

    Args:
        document: the .docx the report checked.
        findings: the report's findings (:func:`flagged` ones are commented; a footnote's citation is not, and says
            so in the notes: Word keeps footnotes in a part of their own).
        out_dir: the folder for the copy (created).

    Returns:
        ``(the copy, notes)``; the copy is None when no finding is flagged.

    Raises:
        InputError: the copy would overwrite the original.
    """
    from lxml import etree

    todo = [f for f in findings if flagged(f)]
    if not todo:
        return None, []
    out_dir.mkdir(parents=True, exist_ok=True)
    target = _safe_target(out_dir, f"{document.stem}.citeproof.docx", document)
    notes: list[str] = []
    with zipfile.ZipFile(document) as zin:
        parts = {i.filename: zin.read(i.filename) for i in zin.infolist()}
    doc = etree.fromstring(parts["word/document.xml"])
    body = doc.find(f"{{{_W}}}body")
    paras = _body_paragraphs(body if body is not None else doc)
    w = lambda tag: f"{{{_W}}}{tag}"  # noqa: E731
    if "word/comments.xml" in parts:
        comments = etree.fromstring(parts["word/comments.xml"])
        ids = [int(c.get(w("id"))) for c in comments.findall(w("comment")) if (c.get(w("id")) or "").isdigit()]
        next_id = max(ids, default=-1) + 1
    else:
        comments = etree.Element(w("comments"), nsmap={"w": _W})
        next_id = 0
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    done = 0
    for f in sorted(todo, key=lambda f: (f.claim.line, f.citation.column)):
        n = f.claim.line
        if f.claim.kind == UnitKind.FOOTNOTE or not 0 < n <= len(paras):
            notes.append(f"{document}: the citation of '{f.citation.citekey}' in paragraph {n} is in a footnote; not commented")
            continue
        p = paras[n - 1]
        cid = str(next_id)
        next_id += 1
        c = etree.SubElement(comments, w("comment"), {w("id"): cid, w("author"): "citeproof", w("initials"): "cp", w("date"): when})
        for line in _comment_text(f):
            cp = etree.SubElement(c, w("p"))
            t = etree.SubElement(etree.SubElement(cp, w("r")), w("t"))
            t.text = line
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        start = etree.Element(w("commentRangeStart"), {w("id"): cid})
        ppr = p.find(w("pPr"))
        p.insert(p.index(ppr) + 1 if ppr is not None else 0, start)
        etree.SubElement(p, w("commentRangeEnd"), {w("id"): cid})
        ref_run = etree.SubElement(p, w("r"))
        etree.SubElement(ref_run, w("commentReference"), {w("id"): cid})
        done += 1
    parts["word/document.xml"] = etree.tostring(doc, xml_declaration=True, encoding="UTF-8", standalone=True)
    parts["word/comments.xml"] = etree.tostring(comments, xml_declaration=True, encoding="UTF-8", standalone=True)
    rels_name = "word/_rels/document.xml.rels"
    rels = etree.fromstring(parts[rels_name]) if rels_name in parts else etree.Element(f"{{{_REL}}}Relationships", nsmap={None: _REL})
    if not any(r.get("Type") == _COMMENTS_TYPE for r in rels):
        taken = {r.get("Id") for r in rels}
        rid = next(f"rIdCiteproof{k}" for k in range(1, 10_000) if f"rIdCiteproof{k}" not in taken)
        etree.SubElement(rels, f"{{{_REL}}}Relationship", {"Id": rid, "Type": _COMMENTS_TYPE, "Target": "comments.xml"})
    parts[rels_name] = etree.tostring(rels, xml_declaration=True, encoding="UTF-8", standalone=True)
    ct = etree.fromstring(parts["[Content_Types].xml"])
    if not any(o.get("PartName") == "/word/comments.xml" for o in ct.findall(f"{{{_CT}}}Override")):
        etree.SubElement(ct, f"{{{_CT}}}Override", {"PartName": "/word/comments.xml", "ContentType": _COMMENTS_CT})
    parts["[Content_Types].xml"] = etree.tostring(ct, xml_declaration=True, encoding="UTF-8", standalone=True)
    tmp = target.with_suffix(".docx.part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        order = ["[Content_Types].xml"] + [k for k in parts if k != "[Content_Types].xml"]
        for name in order:
            zout.writestr(name, parts[name])
    shutil.move(tmp, target)
    if done == 0:
        notes.append(f"{document}: no flagged citation stands in the body; the copy holds no comment")
    return target, notes


def annotate(report: Report, out_dir: Path) -> AnnotateResult:
    """``--annotate DIR``: the annotated PDF copies, and for a .docx citing document its commented copy.

    Raises:
        InputError: a copy would overwrite an original.
    """
    out_dir = Path(out_dir)
    res = annotate_pdfs(report.findings, out_dir)
    doc = Path(report.document)
    if doc.suffix.lower() == ".docx" and doc.is_file():
        copy, notes = comment_docx(doc, report.findings, out_dir)
        if copy is not None:
            res.written.append(copy)
        res.notes += notes
    elif re.search(r"\.(odt|doc)$", doc.name, re.I):
        res.notes.append(f"{doc}: comments are written into .docx documents only")
    return res
