"""Hypothesis strategies over citeproof's readers' inputs (issue 18, section 5), shared by
``tests/test_fuzz.py`` (the short run in ``make test``) and ``tests/fuzz_campaign.py`` (``make fuzz``).

Each strategy mixes well-formed pieces of the format (so the readers get past
their first line) with the characters that break parsers: unbalanced
brackets and braces, stray ``@``, backslashes, fences, deep nesting, NULs and
bytes that are not UTF-8.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

KEYS = st.sampled_from(["a", "doe2020", "Smith_2001a", "doi:10.1000/xyz", "pmid:123", "k-1", "x.y", "fig:one"])
WORDS = st.sampled_from(["the", "trial", "reduced", "mortality", "by", "12%", "in", "adults", "p.", "e.g.", "(n = 40)", "Fig. 2", "[note]"])
NOISE = st.sampled_from(["[", "]", "@", "{", "}", "\\", "*", "_", "`", "$", "<", ">", "|", "#", "~", ";", ",", "\n", "\n\n", "\t", "\x00", "\u00a0", "é", "\u202e"])


@st.composite
def cite_group(draw) -> str:
    """A pandoc citation: ``[@a]``, ``[see @a, p. 3; @b]``, ``[-@a]`` or narrative ``@a``."""
    keys = draw(st.lists(KEYS, min_size=1, max_size=3))
    kind = draw(st.sampled_from(["group", "narrative", "suppress", "braced"]))
    if kind == "narrative":
        return "@" + keys[0]
    if kind == "suppress":
        return "[-@" + keys[0] + "]"
    if kind == "braced":
        return "[@{" + keys[0] + "}]"
    items = []
    for k in keys:
        prefix = draw(st.sampled_from(["", "see ", "cf. ", "e.g., "]))
        suffix = draw(st.sampled_from(["", ", p. 3", ", pp. 10-12", ", chap. 2", " and elsewhere"]))
        items.append(f"{prefix}@{k}{suffix}")
    return "[" + "; ".join(items) + "]"


@st.composite
def inline(draw) -> str:
    """A line of prose with citations, markup and noise."""
    parts = draw(
        st.lists(
            st.one_of(
                WORDS,
                cite_group(),
                NOISE,
                WORDS.map(lambda w: f"*{w}*"),
                WORDS.map(lambda w: f"`{w}`"),
                cite_group().map(lambda c: f"[link {c}](http://x.org)"),
                st.text(max_size=8),
            ),
            max_size=14,
        )
    )
    return " ".join(parts)


BLOCK_KINDS = ("para", "para", "heading", "list", "olist", "quote", "table", "fence", "open_fence", "comment", "math", "footnote")


@st.composite
def markdown_block(draw, depth: int = 0, kinds: tuple[str, ...] = BLOCK_KINDS) -> str:
    """A Markdown block: paragraph, heading, list, quote, table, fence (closed or not), HTML comment, math."""
    kind = draw(st.sampled_from(kinds))
    text = draw(inline())
    if kind == "heading":
        return "#" * draw(st.integers(1, 6)) + " " + text
    if kind in ("list", "olist", "quote") and depth < 4:
        inner = draw(st.lists(markdown_block(depth + 1, kinds), min_size=1, max_size=3))
        marker = {"list": "- ", "olist": "1. ", "quote": "> "}[kind]
        pad = " " * len(marker) if kind != "quote" else "> "
        return "\n".join(marker + b.replace("\n", "\n" + pad) for b in inner)
    if kind == "table":
        cells = draw(st.lists(inline(), min_size=1, max_size=3))
        return "| " + " | ".join(["h"] * len(cells)) + " |\n|" + "---|" * len(cells) + "\n| " + " | ".join(c.replace("\n", " ").replace("|", "\\|") for c in cells) + " |"
    if kind == "fence":
        return "```\n" + text + "\n```"
    if kind == "open_fence":
        return "```\n" + text
    if kind == "comment":
        return "<!-- " + text + " -->"
    if kind == "math":
        return "$$\n" + text + "\n$$"
    if kind == "footnote":  # a label of its own: pandoc inlines a note at each reference, so a shared label counts twice
        label = draw(st.uuids()).hex[:8]
        return f"Text[^{label}].\n\n[^{label}]: " + text
    return text


def markdown_documents(unclosed_fences: bool = True) -> st.SearchStrategy[str]:
    """Whole Markdown drafts: structured blocks, sometimes with YAML front matter, or plain random text.

    Args:
        unclosed_fences: also generate code fences that never close.
    """
    kinds = BLOCK_KINDS if unclosed_fences else tuple(k for k in BLOCK_KINDS if k != "open_fence")
    structured = st.lists(markdown_block(0, kinds), min_size=1, max_size=8).map("\n\n".join)
    front = st.sampled_from(["", "---\ntitle: x\nbibliography: refs.bib\n---\n\n"])
    return st.one_of(st.tuples(front, structured).map("".join), st.text(max_size=300), inline())


@st.composite
def latex_documents(draw) -> str:
    """LaTeX drafts: \\cite variants with optional arguments, environments, math, comments, braces."""
    cmds = ["\\cite", "\\citep", "\\citet", "\\parencite", "\\textcite", "\\autocite", "\\citealp", "\\footcite", "\\nocite"]
    pieces = []
    for _ in range(draw(st.integers(1, 12))):
        k = draw(st.sampled_from(["cite", "cite", "words", "noise", "env", "math", "comment", "footnote", "section", "text"]))
        if k == "cite":
            keys = ",".join(draw(st.lists(KEYS.filter(lambda x: ":" not in x), min_size=1, max_size=3)))
            opt = draw(st.sampled_from(["", "[p.~3]", "[see][12]", "[", "[]"]))
            pieces.append(f"{draw(st.sampled_from(cmds))}{opt}{{{keys}}}")
        elif k == "words":
            pieces.append(" ".join(draw(st.lists(WORDS, max_size=8))) + ".")
        elif k == "noise":
            pieces.append(draw(st.sampled_from(["{", "}", "$", "\\", "%", "&", "\\\\", "~", "\\begin{itemize}", "\\end{itemize}", "\\item", "\\verb|x", "\n\n"])))
        elif k == "env":
            env = draw(st.sampled_from(["itemize", "figure", "table", "equation", "quote", "tabular", "verbatim", "comment"]))
            pieces.append(f"\\begin{{{env}}}{draw(inline()).replace('@', '')}\\end{{{env}}}")
        elif k == "math":
            pieces.append("$x_{1} = \\cite{a}$")
        elif k == "comment":
            pieces.append("% \\cite{hidden}\n")
        elif k == "footnote":
            pieces.append("\\footnote{See \\cite{a}.}")
        elif k == "section":
            pieces.append("\\section{Results}\n")
        else:
            pieces.append(draw(st.text(max_size=20)))
    body = " ".join(pieces)
    if draw(st.booleans()):
        body = "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n"
    return body


@st.composite
def bibtex_documents(draw) -> str:
    """BibTeX files: entries with odd fields, unbalanced braces, strings, comments, or random text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=300))
    entries = []
    for _ in range(draw(st.integers(0, 5))):
        typ = draw(st.sampled_from(["article", "book", "misc", "string", "comment", "preamble", "ARTICLE", ""]))
        key = draw(st.one_of(KEYS, st.text(max_size=6)))
        fields = []
        for _ in range(draw(st.integers(0, 5))):
            name = draw(st.sampled_from(["title", "author", "year", "doi", "file", "journal", "date", "eprint", "archiveprefix", "x"]))
            value = draw(
                st.one_of(
                    st.text(max_size=30).map(lambda t: "{" + t + "}"),
                    st.text(max_size=30).map(lambda t: '"' + t + '"'),
                    st.integers(-5, 3000).map(str),
                    st.sampled_from(["{Bill and Melinda Gates Foundation} and Smith, John", "{{{", "}", "a # b", ":x.pdf:PDF", "{\\\"u}"]),
                )
            )
            fields.append(f"{name} = {value}")
        close = draw(st.sampled_from(["}", "}", ")", ""]))
        entries.append(f"@{typ}{{{key}, " + ",\n ".join(fields) + close)
    return "\n\n".join(entries)


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=False), st.text(max_size=12))
JSON_ANY = st.recursive(JSON_LEAF, lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=6), kids, max_size=4)), max_leaves=12)
CSL_FIELDS = ["id", "type", "title", "author", "editor", "issued", "container-title", "DOI", "URL", "PMID", "PMCID", "file", "files"]


@st.composite
def csl_json_documents(draw) -> bytes:
    """CSL-JSON files: items whose known fields hold any JSON value, wrappers, bad bytes, deep nesting."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=200))
    if kind == 1:
        return b"[" * draw(st.integers(1, 3000)) + b"]" * draw(st.integers(0, 2))
    items = []
    for _ in range(draw(st.integers(0, 4))):
        item = {"id": draw(st.one_of(KEYS, JSON_LEAF))}
        for name in draw(st.lists(st.sampled_from(CSL_FIELDS), max_size=5, unique=True)):
            item[name] = draw(
                st.one_of(
                    JSON_ANY,
                    st.just([{"family": "Doe", "given": "J"}]),
                    st.just({"date-parts": [[2020, 1]]}),
                    st.lists(st.lists(JSON_LEAF, max_size=3), max_size=2).map(lambda dp: {"date-parts": dp}),
                )
            )
        items.append(item)
    data = {"items": items} if draw(st.booleans()) else items
    raw = json.dumps(data, ensure_ascii=draw(st.booleans())).encode("utf-8")
    if kind == 2:
        cut = draw(st.integers(0, len(raw)))
        raw = raw[:cut] + draw(st.binary(max_size=4)) + raw[cut:]
    return raw


def _base_pdf() -> bytes:
    """A small citing PDF with body text, numbered markers and a reference list (two pages)."""
    import pymupdf

    doc = pymupdf.open()
    lines = [
        ["Introduction", "Mortality fell by a third in the treated group [1].", "The effect held in older adults [2, 3]."],
        ["References", "[1] Doe J. A trial of statins. Lancet. 2001;357:1-9.", "[2] Roe K. Statins. BMJ. 2003;326:2-8.", "[3] Poe L. Aging. JAMA. 2005;1:1-2."],
    ]
    for page_lines in lines:
        page = doc.new_page()
        for i, line in enumerate(page_lines):
            page.insert_text((72, 100 + 18 * i), line, fontsize=11)
    return doc.tobytes()


_BASE_PDF: list[bytes] = []


def base_pdf() -> bytes:
    """:func:`_base_pdf`, built once."""
    if not _BASE_PDF:
        _BASE_PDF.append(_base_pdf())
    return _BASE_PDF[0]


@st.composite
def pdf_documents(draw) -> bytes:
    """PDF bytes: a valid citing PDF truncated, with bytes flipped, spliced or overwritten, or random bytes."""
    data = bytearray(base_pdf())
    kind = draw(st.sampled_from(["truncate", "flip", "splice", "zero", "random", "header_only"]))
    if kind == "truncate":
        return bytes(data[: draw(st.integers(0, len(data)))])
    if kind == "flip":
        for _ in range(draw(st.integers(1, 20))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] = draw(st.integers(0, 255))
        return bytes(data)
    if kind == "splice":
        i = draw(st.integers(0, len(data)))
        return bytes(data[:i]) + draw(st.binary(max_size=64)) + bytes(data[i:])
    if kind == "zero":
        i = draw(st.integers(0, len(data) - 1))
        n = draw(st.integers(1, 400))
        data[i : i + n] = bytes(len(data[i : i + n]))
        return bytes(data)
    if kind == "header_only":
        return b"%PDF-1.7\n" + draw(st.binary(max_size=200))
    return draw(st.binary(max_size=400))
