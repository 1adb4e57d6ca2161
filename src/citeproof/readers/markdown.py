"""Pandoc Markdown citing documents -> claims.

Block structure comes from markdown-it-py (CommonMark + pipe tables +
footnotes + YAML front matter), so code blocks, raw HTML blocks and front
matter are never read for citations. Inside each text block the pandoc
citation syntax is scanned by :mod:`citeproof.readers.pandoc_cite`.

Claim units (``DESIGN.md``): a sentence of a paragraph, a table row (cells
joined as prose), a list item (or one sentence of a long item), a heading, a
footnote sentence. Each citation occurrence belongs to exactly one unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from citeproof.errors import InputError
from citeproof.model import Citation, CitationMode, Claim, UnitKind
from citeproof.readers.claims import ELIDED, clean_inline_markdown, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.pandoc_cite import CiteGroup, is_crossref, mask_non_prose, normalise_signal, scan_citations

__all__ = ["MarkdownReader", "read_markdown", "TextBlock"]


@dataclass
class TextBlock:
    """A block of inline text with where it sits.

    Attributes:
        text: the block's raw inline Markdown (lines joined by ``\\n``).
        line: line (from 1) of the block's first line.
        kind: the unit kind for claims cut from it.
        cells: for a table row, the raw text of each cell.
        split: whether the block is cut into sentences.
    """

    text: str
    line: int
    kind: UnitKind
    cells: list[str] = field(default_factory=list)
    split: bool = True


def _parser() -> MarkdownIt:
    # Link reference definitions are off: pandoc reads ``[@key]: text`` (manubot's
    # citekey aliases) as a paragraph holding a citation, and so do we.
    return MarkdownIt("commonmark").enable("table").disable("reference").use(footnote_plugin).use(front_matter_plugin)


_ALIAS_LINE = re.compile(r"^\s*\[@[^\]]+\]:\s")


def iter_blocks(source: str) -> list[TextBlock]:
    """The text blocks of a Markdown document, in document order.

    Args:
        source: the whole Markdown text.

    Returns:
        Blocks for headings, paragraphs (plain, in list items, in footnotes,
        in block quotes) and table rows. Code, raw HTML and front matter
        produce none.
    """
    tokens = _parser().parse(source)
    blocks: list[TextBlock] = []
    context: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        t = tok.type
        if t in ("bullet_list_open", "ordered_list_open", "list_item_open", "footnote_open", "blockquote_open"):
            context.append(t)
        elif t in ("bullet_list_close", "ordered_list_close", "list_item_close", "footnote_close", "blockquote_close"):
            if context:
                context.pop()
        elif t == "heading_open":
            inline = tokens[i + 1]
            blocks.append(TextBlock(inline.content, (tok.map or [0])[0] + 1, UnitKind.HEADING, split=False))
            i += 3
            continue
        elif t == "paragraph_open":
            inline = tokens[i + 1]
            line = (tok.map or inline.map or [0])[0] + 1
            if "footnote_open" in context:
                kind = UnitKind.FOOTNOTE
            elif "list_item_open" in context:
                kind = UnitKind.LIST_ITEM
            else:
                kind = UnitKind.SENTENCE
            text = inline.content
            if kind == UnitKind.SENTENCE and text.lstrip().startswith(("Table:", ": ")):
                kind = UnitKind.CAPTION
            lines = text.split("\n")
            if len(lines) > 1 and all(_ALIAS_LINE.match(ln) for ln in lines):
                # manubot citekey aliases, one "[@tag:x]: id" per line: each line is a unit
                blocks.extend(TextBlock(ln, line + k, kind, split=False) for k, ln in enumerate(lines))
            else:
                blocks.append(TextBlock(text, line, kind))
            i += 3
            continue
        elif t == "html_block":
            # pandoc's markdown_in_html_blocks: text between tags is Markdown.
            if "@" in tok.content:
                blocks.append(TextBlock(tok.content, (tok.map or [0])[0] + 1, UnitKind.SENTENCE))
        elif t == "tr_open":
            line = (tok.map or [0])[0] + 1
            cells: list[str] = []
            j = i + 1
            while j < len(tokens) and tokens[j].type != "tr_close":
                if tokens[j].type == "inline":
                    cells.append(tokens[j].content)
                j += 1
            blocks.append(TextBlock(" ; ".join(cells), line, UnitKind.TABLE_ROW, cells=cells, split=False))
            i = j + 1
            continue
        i += 1
    return blocks


def _claim_text(raw: str, offset: int, groups: list[CiteGroup]) -> str:
    """``raw`` (starting at ``offset`` of the block) with citations removed.

    Parenthetical groups vanish; narrative cites become ``[...]``;
    crossrefs stay as their label text (``Table tbl:x`` reads as prose).
    """
    out: list[str] = []
    pos = offset
    end = offset + len(raw)
    for g in groups:
        if g.end <= offset or g.start >= end:
            continue
        s, e = max(g.start, offset), min(g.end, end)
        out.append(raw[pos - offset: s - offset])
        if all(is_crossref(it.key) for it in g.items):
            out.append(raw[s - offset: e - offset].replace("@", ""))
        elif not g.bracketed:
            out.append(ELIDED)
        pos = e
    out.append(raw[pos - offset:])
    return tidy_claim_text(clean_inline_markdown("".join(out)))


def _citations(block: TextBlock, groups: list[CiteGroup], masked: str) -> list[Citation]:
    """Citation records for the groups, crossrefs dropped."""
    cites: list[Citation] = []
    for g in groups:
        keys = [it for it in g.items if not is_crossref(it.key)]
        for idx, it in enumerate(keys):
            before = masked[: it.at]
            line = block.line + before.count("\n")
            col = it.at - (before.rfind("\n") + 1) + 1
            cites.append(
                Citation(
                    citekey=it.key,
                    mode=it.mode,
                    prefix=it.prefix,
                    suffix=it.suffix,
                    locator=it.locator,
                    signal=normalise_signal(it.prefix) if it.prefix else None,
                    raw=block.text[g.start: g.end],
                    line=line,
                    column=col,
                    group_index=idx,
                    group_size=len(keys),
                )
            )
    return cites


class MarkdownReader:
    """Reads pandoc Markdown into claims.

    ``read(path)`` returns the claims that carry at least one citation, in
    document order, with ids ``c0001``....
    """

    suffixes = (".md", ".markdown", ".pandoc", ".txt", ".rmd", ".qmd")

    def read(self, path: str | Path) -> list[Claim]:
        """Read a Markdown file.

        Args:
            path: the citing document.

        Returns:
            Claims with citations, in order.

        Raises:
            InputError: the file does not exist or is not UTF-8 text.
        """
        p = Path(path)
        try:
            source = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(f"{p}: no such file; check the path of the citing document") from None
        except UnicodeDecodeError as exc:
            raise InputError(f"{p}: not UTF-8 text (byte {exc.start}); convert it to UTF-8 first") from None
        return self.read_string(source, str(path))

    def read_string(self, source: str, document: str = "<string>") -> list[Claim]:
        """Read Markdown text; ``document`` names it in the claims."""
        claims: list[Claim] = []
        prev_text = ""
        for block in iter_blocks(source):
            if "@" not in block.text:
                prev_text = block.text[-300:]
                continue
            masked = mask_non_prose(block.text)
            groups = scan_citations(masked)
            real = [g for g in groups if any(not is_crossref(it.key) for it in g.items)]
            if not real:
                continue
            units: list[tuple[int, int]]
            if block.split:
                split_text = masked_for_split(masked, groups)
                units = tile_spans(split_sentences(split_text), len(block.text), split_text)
            else:
                units = [(0, len(block.text))]
            owner = _owners(units, real, block.text)
            for u, (s, e) in enumerate(units):
                in_unit = [g for g, o in zip(real, owner) if o == u]
                if not in_unit:
                    continue
                raw = block.text[s:e]
                if block.kind == UnitKind.TABLE_ROW:
                    text = "; ".join(
                        t for t in (_claim_text(c, 0, scan_citations(mask_non_prose(c))) for c in block.cells) if t
                    )
                else:
                    text = _claim_text(raw, s, groups)
                cites = _citations(block, in_unit, masked)
                if not cites:
                    continue
                line = block.line + block.text[:s].count("\n")
                claims.append(
                    Claim(
                        id=f"c{len(claims) + 1:04d}",
                        text=text,
                        raw=raw.strip(),
                        citations=tuple(cites),
                        document=document,
                        line=line,
                        kind=block.kind,
                        context=tidy_claim_text(clean_inline_markdown(prev_text))[-300:],
                    )
                )
                prev_text = raw
        return claims


def _owners(units: list[tuple[int, int]], groups: list[CiteGroup], text: str) -> list[int]:
    """Index of the unit each citation group belongs to.

    A group standing at the very start of a unit, right after a unit that
    ends a sentence (``claim. [@a] Next...``), belongs to that previous
    sentence.
    """
    out = []
    for g in groups:
        u = next((i for i, (s, e) in enumerate(units) if s <= g.start < e), len(units) - 1)
        if u > 0 and not text[units[u][0]: g.start].strip() and text[units[u - 1][0]: units[u - 1][1]].rstrip()[-1:] in ".!?":
            u -= 1
        out.append(u)
    return out


def masked_for_split(masked: str, groups: list[CiteGroup]) -> str:
    """Text for the sentence splitter: citation groups replaced by ``X`` runs.

    Keys such as ``doi:10.1098/rsif.2017.0387`` contain periods that would
    otherwise end sentences; replacing the group keeps offsets intact. Link
    syntax (``[text](...)``, target already masked) is blanked too: syntok
    would end a sentence at ``](``.
    """
    chars = list(masked)
    for m in _MASKED_LINK.finditer(masked):
        for j in list(range(m.start(), m.start("text"))) + list(range(m.end("text"), m.end())):
            if chars[j] != "\n":
                chars[j] = " "
    for g in groups:
        for j in range(g.start, g.end):
            if chars[j] != "\n":
                chars[j] = "X"
    return "".join(chars)


_MASKED_LINK = re.compile(r"!?\[(?P<text>[^\[\]]*)\]\([ \n]*\)(?:\{[^{}]*\})?")






def read_markdown(path: str | Path) -> list[Claim]:
    """Shorthand for ``MarkdownReader().read(path)``."""
    return MarkdownReader().read(path)
