"""Hostile inputs for the readers (issue 18): drafts and bibliographies that once ended in a traceback or lost citations.

Each generator builds its file from scratch and returns bytes (PDF and zip
generators for the web page and the PDF limits are beside this, in
``tests/hostile.py``). ``python tests/hostile_inputs.py DIR`` writes them all
into ``DIR``; :func:`write_all` does the same for the tests and the fuzz
campaign. Sizes are chosen to show a crash, not to time anything: the
super-linear cases are kept small enough to finish in seconds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CITE = "Statins reduced mortality by a third [@doe2001].\n"


# --- CSL-JSON ------------------------------------------------------------------------------


def csl_non_utf8() -> bytes:
    """A CSL-JSON file with a Latin-1 byte in a title (JSON must be UTF-8)."""
    return b'[{"id": "doe2001", "title": "Caf\xe9 society"}]'


def csl_random_bytes() -> bytes:
    """Bytes that are no text at all."""
    return bytes((i * 131 + 7) % 256 for i in range(2048))


def csl_nested_brackets(depth: int = 100_000) -> bytes:
    """``[[[[...`` deeper than Python's JSON parser recurses."""
    return b"[" * depth


def csl_author_number() -> bytes:
    """``author: 5`` (names must be an array of objects)."""
    return json.dumps([{"id": "doe2001", "author": 5}]).encode()


def csl_file_number() -> bytes:
    """``file: 5`` (a path or a list of paths)."""
    return json.dumps([{"id": "doe2001", "file": 5}]).encode()


def csl_empty_date_parts() -> bytes:
    """``date-parts: [[]]``."""
    return json.dumps([{"id": "doe2001", "issued": {"date-parts": [[]]}}]).encode()


def csl_flat_date_parts() -> bytes:
    """``date-parts: [5]`` (an array of arrays is required)."""
    return json.dumps([{"id": "doe2001", "issued": {"date-parts": [5]}}]).encode()


# --- BibTeX --------------------------------------------------------------------------------


def bib_deep_braces(depth: int = 20_000) -> bytes:
    """A title whose braces nest ``depth`` deep and never close, then a good entry."""
    return b"@article{a, title = " + b"{" * depth + b"}\n@article{doe2001, title = {Fine}, year = {2001}}\n"


def bib_random_bytes() -> bytes:
    """Random bytes with an ``@`` (so it looks like it might be BibTeX)."""
    return bytes((i * 97 + 3) % 256 for i in range(2048)) + b"@"


def bib_nul_and_latin1() -> bytes:
    """A NUL in a key and a Latin-1 author, beside a corporate author in braces."""
    return b"@article{doe\x002001, author = {M\xfcller, K. and {Bill and Melinda Gates Foundation}}, title = {T}}\n"


# --- Markdown ------------------------------------------------------------------------------


def md_brackets_before_citation(n: int = 2_000) -> bytes:
    """``[`` repeated before a citation (was O(n^2) in the bracket matcher)."""
    return ("[" * n + " " + CITE).encode()


def md_unclosed_fence() -> bytes:
    """A code fence never closed, then citations pandoc still reads."""
    return ("Intro [@a].\n\n```\ncode\n\n" + CITE * 5).encode()


def md_deep_list(depth: int = 12) -> bytes:
    """A list nested ``depth`` deep with a citation at the bottom."""
    return "".join("  " * i + "- level\n" for i in range(depth)).encode() + ("  " * depth + "- " + CITE).encode()


def md_deep_quote(depth: int = 25) -> bytes:
    """A blockquote nested ``depth`` deep around a citation."""
    return ("> " * depth + CITE).encode()


def md_many_citations(n: int = 2_000) -> bytes:
    """One paragraph holding ``n`` citations."""
    return (" ".join(f"Claim {i} [@k{i}]." for i in range(n)) + "\n").encode()


def md_latin1() -> bytes:
    """A draft in Latin-1 (pandoc reads it with a warning)."""
    return "Caf\xe9 prices rose by 5% [@doe2001].\n".encode("latin-1")


def md_citation_only_items() -> bytes:
    """A list item and a table cell holding only a citation (was a silent 'error' verdict)."""
    return ("Statins reduced mortality.\n\n- [@doe2001]\n\n| study | ref |\n|---|---|\n| A | [@doe2001] |\n").encode()


# --- LaTeX ---------------------------------------------------------------------------------


def tex_many_cites(n: int = 1_000) -> bytes:
    """``n`` ``\\cite`` in one sentence."""
    return ("Results " + " ".join(f"\\cite{{k{i}}}" for i in range(n)) + " agree.\n").encode()


def tex_unclosed_math() -> bytes:
    """An unclosed ``$`` before a paragraph with a ``\\cite``."""
    return b"The cost is $5 per unit.\n\nStatins reduced mortality \\cite{doe2001}.\n"


def tex_unbalanced() -> bytes:
    """Braces and environments that never close."""
    return b"\\begin{document}\\begin{itemize}\\item Mortality fell \\cite{doe2001 {{{ \\footnote{see \\citep[p.~3]{roe}\n"


# --- PDF -----------------------------------------------------------------------------------


def pdf_zero_pages() -> bytes:
    """A PDF whose page tree is empty."""
    return b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def pdf_truncated() -> bytes:
    """A citing PDF cut at 85% (no xref, no trailer): MuPDF repairs it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from strategies import base_pdf

    data = base_pdf()
    return data[: int(len(data) * 0.85)]


GENERATORS = {
    "csl_non_utf8.json": csl_non_utf8,
    "csl_random_bytes.json": csl_random_bytes,
    "csl_nested_brackets.json": csl_nested_brackets,
    "csl_author_number.json": csl_author_number,
    "csl_file_number.json": csl_file_number,
    "csl_empty_date_parts.json": csl_empty_date_parts,
    "csl_flat_date_parts.json": csl_flat_date_parts,
    "bib_deep_braces.bib": bib_deep_braces,
    "bib_random_bytes.bib": bib_random_bytes,
    "bib_nul_and_latin1.bib": bib_nul_and_latin1,
    "md_brackets_before_citation.md": md_brackets_before_citation,
    "md_unclosed_fence.md": md_unclosed_fence,
    "md_deep_list.md": md_deep_list,
    "md_deep_quote.md": md_deep_quote,
    "md_many_citations.md": md_many_citations,
    "md_latin1.md": md_latin1,
    "md_citation_only_items.md": md_citation_only_items,
    "tex_many_cites.tex": tex_many_cites,
    "tex_unclosed_math.tex": tex_unclosed_math,
    "tex_unbalanced.tex": tex_unbalanced,
    "pdf_zero_pages.pdf": pdf_zero_pages,
    "pdf_truncated.pdf": pdf_truncated,
}
"""File name -> generator; the suffix says which reader gets it."""


def write_all(folder: Path) -> list[Path]:
    """Write every hostile input into ``folder`` (created); returns the paths, in :data:`GENERATORS` order."""
    from hostile import write_corpus

    return write_corpus(folder, GENERATORS)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/hostile_inputs.py DIR")
    for p in write_all(Path(sys.argv[1])):
        print(p)
