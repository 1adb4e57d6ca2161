"""Plain-text citations in Word documents: ``(Smith et al., 2020)`` or ``[3]`` typed as text, and a typed reference list.

A Word document written without a reference manager's plugin carries no citation field; its citations are text,
as in a PDF. They are read the way the citing-PDF reader reads them, with its own pieces:

1. **Reference list**: the paragraphs after the last ``References``/``Bibliography``/``Works cited``/``Literature
   cited`` paragraph, up to the next heading; one paragraph is one entry (Word keeps entries apart), parsed by
   :func:`citeproof.bibliography.pdf_refs.parse_reference`. Numbered when most entries start with ``[n]`` or
   ``n.``, or, for a list numbered by Word itself (the number is not text), when the body cites with at least
   three bracketed numbers: entries are then numbered in order. Otherwise author-year, each entry labelled as a
   reader sees it (:func:`~citeproof.bibliography.pdf_refs.author_year_label`: ``Smith et al. 2020``).
2. **Markers**: the PDF reader's marker finders (numeric ``[1]``, ``[1-3, 7]``; author-year ``(see Smith 2020,
   p. 4; Lee 2018)``, ``Smith and Jones (2019a, b)``) over each paragraph, table cell and footnote outside the
   list, and its linker from printed label to entry. Unlike in a PDF, a bracketed number past the list's end
   (up to 20 past it) is kept as a marker that links to nothing, so the missing entry is reported.
3. **Claims**: each marker becomes a pandoc citation group in the Markdown rendering the Word reader builds, so
   claims are cut as for citation fields. Citekeys are the labels as printed (``3``, ``Smith et al. 2020``);
   a marker that links to no entry keeps its printed label and becomes an ``unknown_citekey`` finding whose
   reason says why.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field

from citeproof.bibliography.pdf_refs import RefEntry, author_year_label, parse_reference
from citeproof.model import CitationMode, Diagnostic, Reference
from citeproof.readers.pdf_markers import BRACKET, Linker, Marker, author_year_markers, link_marker, numeric_markers

__all__ = ["PlainCitations", "cite_plain_text"]

Block = tuple[int, str, "list[str] | None", bool]
_LIST_HEADING = re.compile(r"^\s*(?:\d+\.?\s+)?(?:references?(?: list| and notes| cited)?|bibliography|works cited|literature cited|sources)\s*:?\s*$", re.I)
_NUMBERED = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.)\s+(.*)$", re.S)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|@~^$])")


def _unescape(text: str) -> str:
    """The text of a paragraph the Word reader escaped for Markdown (every special character is backslashed)."""
    return re.sub(r"\\(.)", r"\1", text)


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


@dataclass
class PlainCitations:
    """What :func:`cite_plain_text` found.

    Attributes:
        blocks: the document's blocks with each marker replaced by a pandoc citation group (keys are tokens,
            ``keys`` maps them back) and the reference list left out.
        keys: token -> citekey (the printed label).
        references: printed label -> the entry's Reference.
        unknown_reasons: printed label -> why it links to no entry.
        diagnostics: unlinked markers (paragraph named), the list found.
        style: ``numbered``, ``author-year`` or '' (no reference list).
        markers: markers found (one per label).
    """

    blocks: list[Block]
    keys: dict[str, str] = field(default_factory=dict)
    references: dict[str, Reference] = field(default_factory=dict)
    unknown_reasons: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    style: str = ""
    markers: int = 0


def _entries(texts: list[tuple[int, str]], cites_by_number: bool, path: str) -> tuple[list[RefEntry], str]:
    """Reference-list paragraphs ``(paragraph number, text)`` -> entries and the list's style."""
    numbered = [(n, _NUMBERED.match(t)) for n, t in texts]
    if texts and sum(1 for _, m in numbered if m) * 2 > len(texts):
        style = "numbered"
        entries = []
        for (n, m), (_, t) in zip(numbered, texts):
            label = (m.group(1) or m.group(2)) if m else str(len(entries) + 1)
            body = m.group(3) if m else t
            entries.append(RefEntry(label, int(label), body))
    elif cites_by_number:
        style = "numbered"
        entries = [RefEntry(str(k), k, t) for k, (_, t) in enumerate(texts, start=1)]
    else:
        style = "author-year"
        entries = [RefEntry("", None, t) for _, t in texts]
    seen: Counter[str] = Counter()
    for e, (n, _) in zip(entries, texts):
        ref = parse_reference(e.text, e.label, first_line=e.text, style=style)
        if style == "author-year":
            lab = author_year_label(ref) or e.text[:40]
            seen[lab] += 1
            e.label = lab if seen[lab] == 1 else f"{lab} [{seen[lab]}]"
        e.reference = dataclasses.replace(ref, citekey=e.label, origin=f"{path}: reference list, paragraph {n}")
    return entries, style


def cite_plain_text(blocks: list[Block], path: str, footnotes: frozenset[int] | set[int] = frozenset()) -> PlainCitations:
    """Read the plain-text citations of a Word document's blocks (module docstring).

    Args:
        blocks: ``(paragraph number, Markdown-escaped text, table cells or None, is heading)`` in document
            order, as the Word reader builds them (body, table rows, then footnotes).
        path: the document, for messages and origins.
        footnotes: the paragraph numbers of footnote blocks (the reference list never runs into them).

    Returns:
        :class:`PlainCitations`; with no reference-list heading, the blocks unchanged and ``style`` ''. Never raises.
    """
    heads = [i for i, (_, text, cells, _) in enumerate(blocks) if cells is None and _LIST_HEADING.match(_unescape(text))]
    if not heads:
        return PlainCitations(blocks=list(blocks))
    start = heads[-1]
    end = next((j for j in range(start + 1, len(blocks)) if blocks[j][3] or blocks[j][2] is not None or blocks[j][0] in footnotes), len(blocks))
    texts = [(n, _unescape(t)) for n, t, _, _ in blocks[start + 1:end] if t.strip()]
    body = blocks[:start] + blocks[end:]
    body_text = " ".join(_unescape(t) for _, t, cells, _ in body for t in ([t] if cells is None else cells))
    entries, style = _entries(texts, len(BRACKET.findall(body_text)) >= 3, path)
    out = PlainCitations(blocks=[], style=style, references={e.label: e.reference for e in entries if e.reference is not None})
    linker = Linker(entries, style)
    tokens: dict[str, str] = {}

    def token(key: str) -> str:
        if key not in tokens:
            tokens[key] = f"cpref{len(tokens) + 1}"
            out.keys[tokens[key]] = key
        return tokens[key]

    def cite(text: str, para: int) -> str:
        raw = _unescape(text)
        if style == "author-year":
            found: list[Marker] = author_year_markers(raw)
        else:  # a number past the list's end is a citation error to report, unless far past it (a year, a dose)
            found = [mk for mk in numeric_markers(raw, 0, False) if any(int(x) <= len(entries) + 20 for x in mk.labels)]
        pieces, pos = [], 0
        for mk in found:
            parts = []
            for lab in link_marker(mk, linker, out.unknown_reasons, out.diagnostics, "docx-unlinked-marker", f"{path}: paragraph {para}", path, para):
                out.markers += 1
                parts.append((_escape(lab.prefix) + " " if lab.prefix else "") + "@" + token(lab.citekey) + (", " + _escape(lab.post) if lab.post else ""))
            if mk.mode == CitationMode.NARRATIVE and len(parts) == 1:  # Smith and Jones (2019, p. 4): the authors are the subject
                key_part, _, loc = parts[0].partition(", ")
                group = "@" + key_part.split("@", 1)[1] + (f" [{loc}]" if loc else "")
            else:
                group = "[" + "; ".join(parts) + "]"
            pieces += [_escape(raw[pos:mk.start]), (" " if mk.mode != CitationMode.NARRATIVE else "") + group]
            pos = mk.end
        pieces.append(_escape(raw[pos:]))
        return "".join(pieces)

    for n, text, cells, heading in body:
        if cells is not None:
            out.blocks.append((n, text, [cite(c, n) for c in cells], heading))
        else:
            out.blocks.append((n, text if heading else cite(text, n), None, heading))
    if entries:
        out.diagnostics.append(Diagnostic("docx-plain-citations", "info", f"{path}: no citation fields; read {out.markers} plain-text citation(s) "
                                          f"against the typed reference list of {len(entries)} {style} entries (paragraph {blocks[start][0]} on)", path))
    return out
