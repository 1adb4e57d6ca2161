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

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from citeproof.bibliography import Bibliography
from citeproof.errors import InputError
from citeproof.model import Citation, CitationMode, Claim, Diagnostic, UnitKind
from citeproof.readers.claims import ELIDED, clean_inline_markdown, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.front_matter import FrontMatter, parse_front_matter
from citeproof.readers.pandoc_cite import CiteGroup, bracket_pairs, crossref_word, example_labels, is_crossref, mask_non_prose, normalise_signal, scan_citations, without_examples

__all__ = ["MarkdownReader", "MarkdownDocument", "read_markdown", "read_blocks", "decode_text", "TextBlock", "MAX_NESTING"]


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


MAX_NESTING = 100
"""Containers (list, list item, block quote) markdown-it nests before it stops
reading (its CommonMark preset stops at 20: a list 10 deep or a block quote 20
deep lost its text). Text deeper still is read as plain text (see :func:`iter_blocks`)."""


def _parser() -> MarkdownIt:
    # Link reference definitions are off: pandoc reads ``[@key]: text`` (manubot's
    # citekey aliases) as a paragraph holding a citation, and so do we.
    # Inline notes ^[...] are cut out by the reader itself (see _inline_notes),
    # so that each is one footnote unit with its true line and column.
    md = MarkdownIt("commonmark").enable("table").disable("reference").use(footnote_plugin).use(front_matter_plugin)
    md.disable("footnote_inline")
    # Only the block structure is used (each inline token's raw content is
    # scanned by pandoc_cite); markdown-it's inline pass is skipped, which
    # also keeps link-label matching on "[[[[..." from dominating the run.
    # Without it no footnote reference is known, so the rule that drops
    # unreferenced definitions is off too: a note's definition is read in place.
    md.disable(["inline", "footnote_tail"])
    md.options["maxNesting"] = MAX_NESTING
    return md


_FENCE_LINE = re.compile(r"^(?P<lead>(?:[ \t]*>)*[ \t]*(?:(?:[-+*]|\d+[.)])[ \t]+)*[ \t]*)(?P<fence>`{3,}|~{3,})")
MAX_FENCE_REPAIRS = 50


def _parse(source: str) -> tuple[list, list[Diagnostic]]:
    """markdown-it tokens, with unclosed code fences read as text, as pandoc reads them.

    CommonMark runs an unclosed fence to the end of the document, hiding
    every later citation; pandoc reads the fence line as text. Each
    unclosed fence's marker is escaped (``\\`\\`\\```) and the text parsed
    again, at most :data:`MAX_FENCE_REPAIRS` times.
    """
    md = _parser()
    diags: list[Diagnostic] = []
    lines = source.split("\n")
    last = max((k for k, ln in enumerate(lines) if ln.strip()), default=0)
    for _ in range(MAX_FENCE_REPAIRS):
        tokens = md.parse(source)
        open_fence = next((t for t in tokens if t.type == "fence" and t.map and _unclosed(t, lines, last)), None)
        if open_fence is None:
            return tokens, diags
        k = open_fence.map[0]
        m = _FENCE_LINE.match(lines[k])
        if m is None:
            return tokens, diags
        fence = m.group("fence")
        lines[k] = lines[k][: m.start("fence")] + "".join("\\" + c for c in fence) + lines[k][m.end("fence"):]
        source = "\n".join(lines)
        diags.append(Diagnostic("md-unclosed-fence", "warning", f"the code fence {fence} is never closed; as pandoc does, it is read as text and the rest of the document is read", "", k + 1))
    return md.parse(source), diags


_CLOSING_FENCE = re.compile(r"^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})[ \t]*$")


def _unclosed(tok, lines: list[str], last: int) -> bool:
    """True when a fence token runs to the end of the text (line ``last``, from 0) without its closing line."""
    start, end = tok.map
    if end - 1 < last:
        return False  # text follows it: closed, or ended by its container
    closing = _CLOSING_FENCE.match(lines[end - 1]) if end - start > 1 else None
    return not (closing and closing.group(1)[0] == tok.markup[0] and len(closing.group(1)) >= len(tok.markup))


_NEWLINES = re.compile(r"\r\n?")
"""Line breaks markdown-it reads as one (CRLF, a lone CR); folded to LF before anything counts lines."""

_ALIAS_LINE = re.compile(r"^\s*\[@[^\]]+\]:\s")


def iter_blocks(source: str) -> list[TextBlock]:
    """The text blocks of a Markdown document, in document order (see :func:`read_blocks`)."""
    return read_blocks(source)[0]


_LEAVES = {"paragraph_open", "heading_open", "html_block", "fence", "code_block", "front_matter", "hr", "table_open"}
_CONTAINER_MARKS = re.compile(r"^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*")


def read_blocks(source: str) -> tuple[list[TextBlock], list[Diagnostic], tuple[str, int] | None]:
    """The text blocks of a Markdown document, what could not be read as written, and the front matter.

    Args:
        source: the whole Markdown text.

    Returns:
        ``(blocks, diagnostics, front matter)``. Blocks for headings,
        paragraphs (plain, in list items, in footnotes, in block quotes),
        table rows and inline notes ``^[...]`` (one footnote block each, cut
        out of the paragraph that holds it), in document order. Code, raw
        HTML and front matter produce none. An unclosed code fence is read
        as text (as pandoc does); lines markdown-it did not read (containers
        nested deeper than :data:`MAX_NESTING`) holding a citation are read
        as plain text, each run of them with a warning diagnostic. The front
        matter is ``(YAML text, line from 1 of its opening ---)`` or None.
    """
    # markdown-it counts lines after folding CRLF and a lone CR into LF (its NEWLINES_RE); our line
    # lists must count the same way, or a token's line map points past them (IndexError on a stray CR).
    source = _NEWLINES.sub("\n", source)
    tokens, diags = _parse(source)
    blocks: list[TextBlock] = []
    context: list[str] = []
    front: tuple[str, int] | None = None
    lines = source.split("\n")
    seen = bytearray(len(lines) + 1)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        t = tok.type
        if t in _LEAVES and tok.map:
            seen[tok.map[0]: tok.map[1]] = b"\x01" * (tok.map[1] - tok.map[0])
        if t in ("bullet_list_open", "ordered_list_open", "list_item_open", "footnote_open", "blockquote_open"):
            context.append(t)
        elif t == "footnote_reference_open":
            context.append("footnote_open")
        elif t in ("bullet_list_close", "ordered_list_close", "list_item_close", "footnote_close", "blockquote_close", "footnote_reference_close"):
            if context:
                context.pop()
        elif t == "front_matter" and tok.map:
            front = (tok.content, tok.map[0] + 1)
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
            lines_ = text.split("\n")
            if len(lines_) > 1 and all(_ALIAS_LINE.match(ln) for ln in lines_):
                # manubot citekey aliases, one "[@tag:x]: id" per line: each line is a unit
                blocks.extend(TextBlock(ln, line + k, kind, split=False) for k, ln in enumerate(lines_))
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
    blocks += _unread_lines(lines, seen, diags)
    blocks.sort(key=lambda b: b.line)
    out: list[TextBlock] = []
    for b in blocks:
        out.append(b)
        if "^[" in b.text:
            out += _inline_notes(b)
    return out, diags, front


def _unread_lines(lines: list[str], seen: bytearray, diags: list[Diagnostic]) -> list[TextBlock]:
    """Blocks for runs of lines no block token covers that hold a citation (deep nesting)."""
    out: list[TextBlock] = []
    k = 0
    while k < len(lines):
        if seen[k] or not lines[k].strip():
            k += 1
            continue
        start = k
        while k < len(lines) and not seen[k] and lines[k].strip():
            k += 1
        text = "\n".join(_CONTAINER_MARKS.sub("", ln) for ln in lines[start:k])
        if "@" in text and any(not is_crossref(it.key) for g in scan_citations(mask_non_prose(text)) for it in g.items):
            out.append(TextBlock(text, start + 1, UnitKind.SENTENCE))
            diags.append(Diagnostic("md-unplaced", "warning", f"lines {start + 1}-{k} are nested deeper than {MAX_NESTING} lists or block quotes; read as plain text", "", start + 1))
    return out


def _inline_notes(block: TextBlock) -> list[TextBlock]:
    """Cut the inline notes ``^[...]`` out of ``block`` (blanked in place); one footnote block each.

    Each note block's text is the note, preceded by as many spaces as
    its column, so lines and columns of its citations stay true.
    """
    pairs = bracket_pairs(block.text)
    notes: list[TextBlock] = []
    chars: list[str] | None = None
    pos = 0
    while True:
        k = block.text.find("^[", pos)
        if k < 0:
            break
        close = pairs.get(k + 1, -1)
        if close < 0 or (k > 0 and block.text[k - 1] == "\\"):
            pos = k + 2
            continue
        if chars is None:
            chars = list(block.text)
        before = block.text.count("\n", 0, k)
        col = k + 2 - (block.text.rfind("\n", 0, k) + 1)
        notes.append(TextBlock(" " * col + block.text[k + 2: close], block.line + before, UnitKind.FOOTNOTE))
        for j in range(k, close + 1):
            if chars[j] != "\n":
                chars[j] = " "
        pos = close + 1
    if chars is not None:
        block.text = "".join(chars)
        block.cells = [_blank_notes(c) for c in block.cells]
    return notes


def _blank_notes(text: str) -> str:
    pairs = bracket_pairs(text)
    chars = list(text)
    for k in range(len(text) - 1):
        if text[k] == "^" and text[k + 1] == "[" and pairs.get(k + 1, -1) >= 0:
            for j in range(k, pairs[k + 1] + 1):
                chars[j] = " "
    return "".join(chars)


_KIND_WORDS = {"figure", "fig", "table", "tab", "tbl", "equation", "eq", "section", "sec", "listing", "theorem", "lemma", "appendix", "chapter"}


def _claim_text(raw: str, offset: int, groups: list[CiteGroup]) -> str:
    """``raw`` (starting at ``offset`` of the block) with citations removed.

    ``groups`` are those that overlap the span (the caller selects them, so
    that a paragraph of many sentences stays linear). Parenthetical groups
    vanish; narrative cites become ``[...]``; crossrefs become the word for
    their kind (``As @fig:x shows`` reads ``As Figure shows``; nothing when
    the text already names it: ``Table @tbl:x``), never their label.
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
            words = " and ".join(dict.fromkeys(crossref_word(it.key) for it in g.items))
            before = re.findall(r"[A-Za-z]+\.?$", out[-1].rstrip())
            named = bool(before) and before[0].rstrip(".").lower().rstrip("s") in _KIND_WORDS
            out.append(" " if named else f" {words} ")
        elif not g.bracketed and g.items[0].mode != CitationMode.SUPPRESS_AUTHOR:  # Smith -@smith2020 says: the year only, no subject
            out.append(ELIDED)
        pos = e
    out.append(raw[pos - offset:])
    return tidy_claim_text(clean_inline_markdown("".join(out)))


def _citations(block: TextBlock, groups: list[CiteGroup], newlines: list[int]) -> list[Citation]:
    """Citation records for the groups, crossrefs dropped; ``newlines`` are the offsets of the block's line breaks."""
    cites: list[Citation] = []
    for g in groups:
        keys = [it for it in g.items if not is_crossref(it.key)]
        for idx, it in enumerate(keys):
            k = bisect.bisect_left(newlines, it.at)
            line = block.line + k
            col = it.at - (newlines[k - 1] + 1 if k else 0) + 1
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


@dataclass
class MarkdownDocument:
    """What :meth:`MarkdownReader.read_document` found.

    Attributes:
        path: the file read.
        claims: claims with citations, in document order.
        front_matter: the bibliography its YAML front matter names.
        diagnostics: encoding fall-backs, unclosed fences, text read as
            plain text (front-matter problems are in :meth:`bibliography`'s).
    """

    path: str
    claims: list[Claim]
    front_matter: FrontMatter = field(default_factory=FrontMatter)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def bibliography(self) -> Bibliography | None:
        """The front matter's ``bibliography:`` files and ``references:``; else a Manubot manuscript's
        ``references.json``/``manual-references.json`` beside it (:mod:`citeproof.bibliography.manubot`); else None."""
        own = self.front_matter.bibliography(self.path)
        if own is not None:
            return own
        from citeproof.bibliography.manubot import manubot_bibliography, manubot_files

        if not manubot_files(Path(self.path)):
            return None
        try:
            text = Path(self.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        return manubot_bibliography(Path(self.path), text)


def decode_text(data: bytes, path: str | Path) -> tuple[str, list[Diagnostic]]:
    """Text of a citing document's bytes: UTF-8, else Latin-1 with a warning, as pandoc reads them.

    Args:
        data: the file's bytes (a UTF-8 byte-order mark is dropped).
        path: the file, for the message.

    Returns:
        ``(text, diagnostics)``: no diagnostic for UTF-8; one
        ``input-not-utf8`` warning naming the line of the first byte that is
        not UTF-8 when the whole file is read as Latin-1 (pandoc: "falling
        back to latin1"), which never fails.
    """
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return data.decode("latin-1"), [Diagnostic(
            "input-not-utf8", "warning",
            f"{path}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); read as Latin-1, as pandoc does. "
            "Convert the file to UTF-8 if accented letters look wrong in the report", str(path), line)]


class MarkdownReader:
    """Reads pandoc Markdown into claims.

    ``read(path)`` returns the claims that carry at least one citation, in
    document order, with ids ``c0001``...; ``read_document(path)`` also the
    front matter's bibliography and the diagnostics.
    """

    suffixes = (".md", ".markdown", ".pandoc", ".txt", ".rmd", ".qmd")

    def read(self, path: str | Path) -> list[Claim]:
        """Read a Markdown file (see :meth:`read_document`); the claims only."""
        return self.read_document(path).claims

    def read_document(self, path: str | Path) -> MarkdownDocument:
        """Read a Markdown file.

        Args:
            path: the citing document.

        Returns:
            A :class:`MarkdownDocument`. A file that is not UTF-8 is read as
            Latin-1 with a warning (:func:`decode_text`).

        Raises:
            InputError: the file does not exist or cannot be read.
        """
        p = Path(path)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            raise InputError(f"{p}: no such file; check the path of the citing document") from None
        except OSError as exc:
            raise InputError(f"{p}: cannot be read ({exc.strerror or exc})") from None
        source, diags = decode_text(data, p)
        claims, more, front = self._read(source, str(path))
        for d in more:  # read_blocks knows lines, not the file
            d.file = str(path)
            d.message = f"{path}:{d.line}: {d.message}"
        fm = parse_front_matter(front[0], p, front[1]) if front else FrontMatter()
        # front-matter problems travel with its bibliography: moot when --bib is given
        return MarkdownDocument(str(path), claims, fm, diags + more)

    def read_string(self, source: str, document: str = "<string>") -> list[Claim]:
        """Read Markdown text; ``document`` names it in the claims."""
        return self._read(source, document)[0]

    def _read(self, source: str, document: str) -> tuple[list[Claim], list[Diagnostic], tuple[str, int] | None]:
        claims: list[Claim] = []
        prev_text = ""
        blocks, diags, front = read_blocks(source)
        examples = example_labels(source) if "@" in source else set()
        for block in blocks:
            if "@" not in block.text:
                prev_text = block.text[-300:]
                continue
            masked = mask_non_prose(block.text)
            groups = without_examples(scan_citations(masked), examples)
            real = [g for g in groups if any(not is_crossref(it.key) for it in g.items)]
            if not real:
                continue
            units: list[tuple[int, int]]
            if block.split:
                split_text = masked_for_split(masked, groups)
                units = tile_spans(split_sentences(split_text), len(block.text), split_text)
            else:
                units = [(0, len(block.text))]
            by_unit: dict[int, list[CiteGroup]] = {}
            for g, o in zip(real, _owners(units, real, block.text)):
                by_unit.setdefault(o, []).append(g)
            starts = [g.start for g in groups]
            newlines = [m.start() for m in re.finditer("\n", masked)]
            for u, (s, e) in enumerate(units):
                in_unit = by_unit.get(u)
                if not in_unit:
                    continue
                raw = block.text[s:e]
                if block.kind == UnitKind.TABLE_ROW:
                    text = "; ".join(
                        t for t in (_claim_text(c, 0, scan_citations(mask_non_prose(c))) for c in block.cells) if t
                    )
                else:
                    lo = bisect.bisect_left(starts, min(s, in_unit[0].start)) - 1
                    near = groups[max(lo, 0): bisect.bisect_left(starts, e)]
                    text = _claim_text(raw, s, near)
                cites = _citations(block, in_unit, newlines)
                if not cites:
                    continue
                line = block.line + bisect.bisect_left(newlines, s)
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
        return claims, diags, front


def _owners(units: list[tuple[int, int]], groups: list[CiteGroup], text: str) -> list[int]:
    """Index of the unit each citation group belongs to.

    A bracketed group standing at the very start of a unit, right after a
    unit that ends a sentence (``claim. [@a] Next...``, ``主张。[@a]下一句``), belongs to that
    previous sentence; a narrative citation opening a sentence (``First.
    @lee showed...``) belongs to its own. ``units`` tile the text in order,
    so each group is placed by bisection.
    """
    out = []
    starts = [s for s, _e in units]
    for g in groups:
        u = max(bisect.bisect_right(starts, g.start) - 1, 0)
        if (
            g.bracketed
            and u > 0
            and not text[units[u][0]: g.start].strip()
            and text[units[u - 1][0]: units[u - 1][1]].rstrip()[-1:] in ".!?。！？"
        ):
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
