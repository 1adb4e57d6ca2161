"""The prose paragraphs of a citing document, each sentence marked cited or not (issue 25, part 1).

The readers keep only the units that carry a citation; finding a sentence that *should* cite needs the others
too. Markdown is read with the Markdown reader's own blocks, citation scanner and sentence tiling
(:mod:`citeproof.readers.markdown`), so a sentence here is the unit a claim would be. Plain text with numeric or
author-year markers (``[12]``, ``[3, 5-7]``, ``(Smith et al., 2019)``), as a PDF's or PMC article's text reads,
is cut into paragraphs at blank lines (:func:`text_paragraphs`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from citeproof.model import UnitKind
from citeproof.readers.claims import clean_inline_markdown, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.markdown import _owners, masked_for_split, read_blocks
from citeproof.readers.pandoc_cite import is_crossref, mask_non_prose, scan_citations

__all__ = ["Sentence", "Paragraph", "markdown_paragraphs", "text_paragraphs", "NUMERIC_MARKER", "AUTHOR_YEAR_MARKER"]


@dataclass(frozen=True)
class Sentence:
    """One sentence of a paragraph.

    Attributes:
        text: the sentence with citation markup removed and inline Markdown cleaned.
        raw: the sentence as written.
        line: line (from 1) of the citing document where it starts.
        citekeys: the keys it cites (crossrefs left out), in order, then the web addresses it links to (a link is a
            citation of a web page); empty when it cites nothing.
    """

    text: str
    raw: str
    line: int
    citekeys: tuple[str, ...] = ()


@dataclass
class Paragraph:
    """A prose paragraph: its first line (from 1), its sentences in order, and the heading above it ('' if none)."""

    line: int
    sentences: list[Sentence] = field(default_factory=list)
    section: str = ""

    @property
    def cites(self) -> bool:
        """True when some sentence of the paragraph cites a work."""
        return any(s.citekeys for s in self.sentences)


def markdown_paragraphs(source: str) -> list[Paragraph]:
    """The prose paragraphs (unit kind ``sentence``) of a pandoc Markdown text.

    Headings, list items, table rows, captions, footnotes, code and front matter are left out: a sentence that
    should cite is looked for in running prose only.

    Args:
        source: the whole Markdown text.

    Returns:
        Paragraphs in document order; lines from 1.
    """
    out: list[Paragraph] = []
    section = ""
    for block in read_blocks(source)[0]:
        if block.kind == UnitKind.HEADING:
            section = tidy_claim_text(clean_inline_markdown(block.text))
            continue
        if block.kind != UnitKind.SENTENCE or not block.split:
            continue
        masked = mask_non_prose(block.text)
        groups = scan_citations(masked)
        split_text = masked_for_split(masked, groups)
        units = tile_spans(split_sentences(split_text), len(block.text), split_text)
        owner = _owners(units, groups, block.text) if groups else []
        newlines = [m.start() for m in re.finditer("\n", block.text)]
        para = Paragraph(block.line, section=section)
        for u, (s, e) in enumerate(units):
            keys = tuple(it.key for g, o in zip(groups, owner) if o == u for it in g.items if not is_crossref(it.key))
            keys += tuple(m.group(1) for m in _WEB_LINK.finditer(block.text[s:e]))  # a link to a web page is a citation too
            chars = list(block.text[s:e])
            for g in groups:  # citation markup removed (narrative cites too: the sentence is judged for its words)
                for j in range(max(g.start, s), min(g.end, e)):
                    chars[j - s] = " "
            text = tidy_claim_text(clean_inline_markdown("".join(chars)))
            if text:
                para.sentences.append(Sentence(text, block.text[s:e].strip(), block.line + bisect.bisect_left(newlines, s), keys))
        if para.sentences:
            out.append(para)
    return out


_WEB_LINK = re.compile(r"\]\((https?://[^)\s]{1,1000})\)|<(https?://[^>\s]{1,1000})>")

NUMERIC_MARKER = re.compile(r"\[\s*\d{1,4}[a-z]?[•*]{0,2}(?:\s*[-\u2013,;]\s*\d{1,4}[a-z]?[•*]{0,2})*\s*\]|\((?!\s*(?:1[89]|20)\d\d\s*[-\u2013]\s*(?:1[89]|20)?\d\d\s*\))\s*\d{1,4}(?:\s*[-\u2013,;]\s*\d{1,4})*\s*\)(?=[\s.,;:]|$)")
"""A numeric citation marker: ``[12]``, ``[3, 5-7]``, ``[189a]`` (a reference added between two others), ``[69•]`` (a review's "of special interest" mark), ``(6–13)``, but not a span of years ``(1980–2008)`` (a parenthesised number list before a space or
punctuation)."""

AUTHOR_YEAR_MARKER = re.compile(r"\((?:[^()]{0,80}?\b(?:et al\.?|and|&)\s*)?[A-Z][A-Za-z'\-]+(?: et al\.?)?,? (?:19|20)\d\d[a-z]?(?:[;,][^()]{0,120})?\)")
"""An author-year marker: ``(Smith et al., 2019)``, ``(Lee and Park 2020; Kim 2018)``."""


_HEADING = re.compile(r"(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][A-Za-z ,&:/\-]{2,80}")
"""A heading in plain text: one short line of words with no final period (``Results``, ``2.1 Related work``)."""


def text_paragraphs(text: str) -> list[Paragraph]:
    """The paragraphs of plain text (blank-line separated), markers recognised by :data:`NUMERIC_MARKER` and
    :data:`AUTHOR_YEAR_MARKER`.

    A marker's "citekey" is the marker itself (``[12]``): plain text has no bibliography keys. A paragraph of one
    short line without a final period is a heading: it names the section of the paragraphs after it; two headings
    in a row (``Materials and methods`` then ``DNA extractions``) name it together (``Materials and methods / DNA
    extractions``).

    Args:
        text: the text; paragraphs separated by blank lines.

    Returns:
        Paragraphs in order, lines from 1.
    """
    out: list[Paragraph] = []
    line = 1
    section = ""
    heading_last = False  # the chunk before (blank lines aside) was a heading too
    for chunk in re.split(r"(\n[ \t]*\n)", text):
        if _HEADING.fullmatch(chunk.strip()):
            section = f"{section} / {chunk.strip()}" if heading_last and section else chunk.strip()
            heading_last = True
        elif chunk.strip() and not re.fullmatch(r"\n[ \t]*\n", chunk):
            heading_last = False
            para = Paragraph(line + chunk.count("\n", 0, len(chunk) - len(chunk.lstrip())), section=section)
            marks = [m for rx in (NUMERIC_MARKER, AUTHOR_YEAR_MARKER) for m in rx.finditer(chunk)]
            masked, blanked = list(chunk), list(chunk)
            for m in marks:
                for j in range(m.start(), m.end()):
                    if chunk[j] != "\n":
                        masked[j], blanked[j] = "X", " "
            split_text = "".join(masked)
            plain = "".join(blanked)
            units = tile_spans(split_sentences(split_text), len(chunk), split_text)
            owner: dict[int, list[str]] = {}
            starts = [a for a, _b in units]
            for m in sorted(marks, key=lambda m: m.start()):
                u = max(bisect.bisect_right(starts, m.start()) - 1, 0)
                if u > 0 and not chunk[units[u][0]: m.start()].strip() and chunk[units[u - 1][0]: units[u - 1][1]].rstrip()[-1:] in ".!?":
                    u -= 1  # "claim. [12] Next": the marker closes the sentence before it
                owner.setdefault(u, []).append(m.group(0))
            for u, (s, e) in enumerate(units):
                keys = tuple(owner.get(u, ()))
                body = re.sub(r"(?<=\d)\s+([.,;:])|\s+([.,;:])(?!\d)", lambda m: m.group(1) or m.group(2),
                              re.sub(r"\s+", " ", plain[s:e])).strip()
                if body:
                    first = s + len(chunk[s:e]) - len(chunk[s:e].lstrip())
                    para.sentences.append(Sentence(body, chunk[s:e].strip(), line + chunk.count("\n", 0, first), keys))
            if para.sentences:
                out.append(para)
        line += chunk.count("\n")
    return out
