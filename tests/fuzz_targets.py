"""The readers under fuzz and what each may raise (issue 18, section 5).

Each target takes one generated input and returns the number of citations
(or references) read; an exception of the kinds in ``ALLOWED`` is a clear
refusal (CLI exit 2), any other is a crash. :func:`pandoc_citations` is the
oracle for lost citations: pandoc's own count of Cite items (crossrefs aside,
a figure's alt text counted once), or None when pandoc is absent or refuses
the input.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from citeproof.errors import CiteproofError

ALLOWED: tuple[type[BaseException], ...] = (CiteproofError,)
"""What a reader may raise on bad input: citeproof's own errors, which name the file and what to do."""

PANDOC_TIMEOUT_S = 10.0
"""How long the oracle may take on one input (pandoc is exponential on runs of ``[``)."""

_TMP = Path(tempfile.mkdtemp(prefix="citeproof-fuzz-"))


def _file(name: str, data: bytes | str) -> Path:
    p = _TMP / name
    p.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    return p


def markdown(text: str) -> int:
    """Citations the Markdown reader finds in ``text``."""
    from citeproof.readers.markdown import MarkdownReader

    return sum(len(c.citations) for c in MarkdownReader().read_string(text, "fuzz.md"))


def markdown_file(data: bytes) -> int:
    """Citations read from a Markdown file holding ``data`` (any bytes)."""
    from citeproof.readers.markdown import MarkdownReader

    return sum(len(c.citations) for c in MarkdownReader().read(_file("fuzz.md", data)))


def latex(text: str) -> int:
    """Citations the LaTeX reader finds in a ``.tex`` file holding ``text``."""
    from citeproof.readers.latex import LatexReader

    return sum(len(c.citations) for c in LatexReader().read_document(_file("fuzz.tex", text)).claims)


def bibtex(text: str) -> int:
    """Entries read from a ``.bib`` file holding ``text``."""
    from citeproof.bibliography import read_bibtex

    return len(read_bibtex(_file("fuzz.bib", text))[0])


def csl_json(data: bytes) -> int:
    """Items read from a CSL-JSON file holding ``data``."""
    from citeproof.bibliography import read_csl_json

    return len(read_csl_json(_file("fuzz.json", data))[0])


def citing_pdf(data: bytes) -> int:
    """Citations read from a citing PDF holding ``data``."""
    from citeproof.readers.pdf import read_pdf

    return sum(len(c.citations) for c in read_pdf(_file("fuzz.pdf", data)).claims)


def source_pdf(data: bytes) -> int:
    """Passages parsed from ``data`` as a cited source (never raises: a bad file is an error string)."""
    from citeproof.sources.pdf import parse_pdf

    return len(parse_pdf(data).passages)


def pandoc_citations(text: str) -> int | None:
    """pandoc's count of citations in Markdown ``text`` (crossrefs aside), or None when pandoc cannot say."""
    try:
        import pypandoc
    except ImportError:
        return None
    from citeproof.readers.pandoc_cite import is_crossref

    try:
        run = subprocess.run([pypandoc.get_pandoc_path(), "-f", "markdown", "-t", "json", "--quiet"], input=text.encode("utf-8", "replace"),
                             capture_output=True, timeout=PANDOC_TIMEOUT_S)
        doc = json.loads(run.stdout) if run.returncode == 0 else None
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return None  # pandoc's own parser is exponential on runs of '[': then it has no say
    if doc is None:
        return None
    return len(pandoc_cite_keys(doc))


def pandoc_cite_keys(doc: dict) -> list[str]:
    """Citekeys of the Cite elements of a pandoc JSON AST, a figure's alt text (which repeats its caption) counted
    once, crossrefs (``@fig:x``...) left out: the oracle both the fuzz targets and the reader tests count against."""
    from citeproof.readers.pandoc_cite import is_crossref

    keys: list[str] = []

    def walk(x, in_fig: bool = False) -> None:
        if isinstance(x, dict):
            t = x.get("t")
            if t == "Cite":
                keys.extend(c["citationId"] for c in x["c"][0])
            if t == "Figure":
                walk(x["c"][1], True)
                walk(x["c"][2], True)
                return
            if t == "Image" and in_fig:
                return
            for v in x.values():
                walk(v, in_fig)
        elif isinstance(x, list):
            for v in x:
                walk(v, in_fig)

    walk(doc.get("blocks", []))
    return [k for k in keys if not is_crossref(k)]
