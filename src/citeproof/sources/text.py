"""Text, Markdown and HTML sources -> passages (paragraphs with line numbers, no page).

A passage is a paragraph: a run of non-blank lines. Markdown markup is
reduced to plain text (links keep their text), fenced code and YAML front
matter are skipped. HTML is reduced to its text with the standard library's
``html.parser`` (scripts and styles dropped), paragraphs at block elements.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from citeproof.model import Passage
from citeproof.readers.claims import clean_inline_markdown

__all__ = ["parse_text", "parse_markdown_source", "parse_html", "TEXT_PARSER_VERSION"]

TEXT_PARSER_VERSION = "text-2"
"""Bumped whenever passages would come out differently; part of the cache key."""


def _paragraphs(lines: list[str]) -> list[tuple[int, list[str]]]:
    """``(first line from 1, lines)`` for each run of non-blank lines."""
    out: list[tuple[int, list[str]]] = []
    cur: list[str] = []
    start = 0
    for i, ln in enumerate(lines, start=1):
        if ln.strip():
            if not cur:
                start = i
            cur.append(ln)
        elif cur:
            out.append((start, cur))
            cur = []
    if cur:
        out.append((start, cur))
    return out


def _build(paras: list[tuple[int, str]]) -> tuple[list[Passage], str]:
    passages: list[Passage] = []
    parts: list[str] = []
    offset = 0
    section = ""
    for line, text in paras:
        text = re.sub(r"\s+", " ", text).strip()
        if not text:
            continue
        parts.append(text)
        passages.append(
            Passage(
                id=f"p{len(passages) + 1:05d}",
                text=text,
                line=line,
                char_start=offset,
                char_end=offset + len(text),
                section=section,
            )
        )
        offset += len(text) + 2
    return passages, "\n\n".join(parts)


def parse_text(text: str) -> tuple[list[Passage], str]:
    """Plain text -> ``(passages, full text)``; a passage per paragraph."""
    return _build([(ln, " ".join(ls)) for ln, ls in _paragraphs(text.splitlines())])


def parse_markdown_source(text: str) -> tuple[list[Passage], str]:
    """Markdown -> ``(passages, full text)``.

    Front matter and fenced code are skipped (blanked, so line numbers hold);
    headings become their own passages and set ``section`` for what follows.
    """
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                lines[: i + 1] = [""] * (i + 1)
                break
    fence = None
    for i, ln in enumerate(lines):
        m = re.match(r"^\s*(`{3,}|~{3,})", ln)
        if fence:
            if m and m.group(1)[0] == fence[0]:
                fence = None
            lines[i] = ""
        elif m:
            fence = m.group(1)
            lines[i] = ""
    paras = []
    for start, block in _paragraphs(lines):
        # Headings stand alone even without blank lines around them.
        buf: list[str] = []
        buf_start = start
        for k, ln in enumerate(block):
            if re.match(r"^#{1,6}\s", ln):
                if buf:
                    paras.append((buf_start, " ".join(buf)))
                    buf = []
                paras.append((start + k, ln.lstrip("#").strip()))
                buf_start = start + k + 1
            else:
                if not buf:
                    buf_start = start + k
                buf.append(ln)
        if buf:
            paras.append((buf_start, " ".join(buf)))
    passages, full = _build([(ln, clean_inline_markdown(t)) for ln, t in paras])
    section = ""
    out = []
    for p in passages:
        src_line = lines[p.line - 1] if p.line and p.line - 1 < len(lines) else ""
        if re.match(r"^#{1,6}\s", src_line):
            section = p.text.strip().lower()
        out.append(Passage(**{**p.__dict__, "section": section}))
    return out, full


class _HTMLText(HTMLParser):
    _BLOCK = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "article", "blockquote", "br", "table", "figcaption", "dd", "dt"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paras: list[tuple[int, str]] = []
        self.buf: list[str] = []
        self.start = 1
        self.skip = 0

    def _flush(self) -> None:
        text = "".join(self.buf).strip()
        if text:
            self.paras.append((self.start, text))
        self.buf = []
        self.start = self.getpos()[0]

    def handle_starttag(self, tag, attrs):  # noqa: D102
        if tag in ("script", "style", "noscript"):
            self.skip += 1
        elif tag in self._BLOCK:
            self._flush()

    def handle_endtag(self, tag):  # noqa: D102
        if tag in ("script", "style", "noscript"):
            self.skip = max(0, self.skip - 1)
        elif tag in self._BLOCK:
            self._flush()

    def handle_data(self, data):  # noqa: D102
        if not self.skip:
            if not self.buf:
                self.start = self.getpos()[0]
            self.buf.append(data)


def parse_html(text: str) -> tuple[list[Passage], str]:
    """HTML -> ``(passages, full text)``; a passage per block element's text."""
    p = _HTMLText()
    p.feed(text)
    p.close()
    p._flush()
    return _build(p.paras)
