"""LaTeX fragments as plain Unicode text (pylatexenc), and the entries of a ``.bbl`` or ``thebibliography``.

:mod:`citeproof.readers.latex` cuts a document into units and hands each
unit's LaTeX here; a document without a readable ``.bib`` gets its
references from :func:`read_bbl`.
"""

from __future__ import annotations

import dataclasses
import re

from citeproof.bibliography import normalise_doi
from citeproof.bibliography.pdf_refs import parse_reference
from citeproof.model import Reference

__all__ = ["FILL", "latex_to_text", "read_bbl"]

FILL = "\x07"
"""Filler for blanked regions of a document (math, dropped environments); :func:`latex_to_text` removes it."""


def latex_to_text(latex: str) -> str:
    """Plain Unicode text of a LaTeX fragment (pylatexenc; math removed).

    ``\\ref``-like commands, ``\\label`` and the filler used for blanked
    regions vanish; ``~`` becomes a space. Never raises: markup pylatexenc
    cannot read is stripped by a regular expression instead.
    """
    latex = latex.replace(FILL, "")
    latex = re.sub(r"\\(?:label|ref|eqref|cref|Cref|autoref|pageref|vref|index|hspace|vspace)\*?\s*\{[^{}]*\}", "", latex)
    latex = re.sub(r"\\(?:toprule|midrule|bottomrule|hline|centering|noindent|par|newline|smallskip|medskip|bigskip)\b", " ", latex)
    latex = re.sub(r"\\(?:cline|cmidrule)(?:\([^)]*\))?\{[^{}]*\}", " ", latex)
    latex = latex.replace("\\\\", " ")
    latex = re.sub(r"\\href\s*\{[^{}]*\}\s*\{", "{", latex)  # pylatexenc 2 fails on \href; keep the link text
    try:
        text = _converter().latex_to_text(latex)
    except Exception:  # markup pylatexenc cannot parse
        text = latex
        for a, b in (("\\%", "%"), ("\\&", "&"), ("\\_", "_"), ("\\#", "#"), ("\\$", "$"), ("---", "—"), ("--", "–"), ("~", " ")):
            text = text.replace(a, b)
        text = re.sub(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?", "", text).replace("{", "").replace("}", "")
    return text.replace("\xa0", " ")


_L2T = None


def _converter():
    """One shared pylatexenc converter (building one is costly)."""
    global _L2T
    if _L2T is None:
        from pylatexenc.latex2text import LatexNodes2Text

        _L2T = LatexNodes2Text(math_mode="remove", strict_latex_spaces=False)
    return _L2T


def _bbl_text(raw: str) -> str:
    raw = re.sub(r"\\(?:newblock|BibitemOpen|BibitemShut\{[^{}]*\}|natexlab\{([^{}]*)\})", r" \1", raw)
    raw = re.sub(r"\\bibinfo\{[^{}]*\}\{", "{", raw)
    raw = re.sub(r"\\bibfield\{[^{}]*\}\{", "{", raw)
    raw = re.sub(r"\\href\s*\{([^{}]*)\}\s*\{", r" \1 {", raw)
    raw = re.sub(r"\\(?:url|doi)\s*\{([^{}]*)\}", r" \1 ", raw)
    raw = re.sub(r"\\(?:eprint)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}", r" arXiv:\1 ", raw)
    return re.sub(r"\s+", " ", latex_to_text(raw)).strip()


def read_bbl(text: str, origin: str) -> list[Reference]:
    """Entries of a ``.bbl`` (or ``thebibliography``): natbib/plain ``\\bibitem`` or biblatex ``\\entry``.

    Args:
        text: the .bbl text.
        origin: the file name, for each entry's ``origin`` (``file:line``).

    Returns:
        References keyed by the ``\\bibitem``/``\\entry`` key, fields parsed
        from the typeset text (or biblatex's ``\\field``/``\\verb`` data).
    """
    refs: list[Reference] = []
    for m in re.finditer(r"\\entry\{([^{}]+)\}\{([^{}]*)\}(.*?)\\endentry", text, re.S):
        body = m.group(3)

        def fld(name: str, body: str = body) -> str:
            f = re.search(r"\\field\{" + name + r"\}\{((?:[^{}]|\{[^{}]*\})*)\}", body)
            return latex_to_text(f.group(1)).strip() if f else ""

        def verb(name: str, body: str = body) -> str:
            f = re.search(r"\\verb\{" + name + r"\}\s*\\verb\s*(.*?)\s*\\endverb", body, re.S)
            return f.group(1).strip() if f else ""

        fams = re.findall(r"family=\{((?:[^{}]|\{[^{}]*\})*)\}", body)
        line = text.count("\n", 0, m.start()) + 1
        eprint = fld("eprint") or verb("eprint")
        refs.append(Reference(
            citekey=m.group(1).strip(), entry_type=m.group(2), title=fld("title"), authors=tuple(latex_to_text(f) for f in fams),
            year=fld("year") or fld("date")[:4], container=fld("journaltitle") or fld("booktitle"), doi=normalise_doi(verb("doi") or fld("doi")),
            arxiv=eprint if (fld("eprinttype") or "arxiv").lower() == "arxiv" else "", url=verb("url"), origin=f"{origin}:{line}",
        ))
    if refs:
        return refs
    items = list(re.finditer(r"\\bibitem\s*(?:\[(?P<label>(?:[^\[\]]|\{[^{}]*\}|\[[^\]]*\])*)\])?\s*\{(?P<key>[^{}]+)\}", text))
    for k, m in enumerate(items):
        end = items[k + 1].start() if k + 1 < len(items) else len(text)
        body = text[m.end(): end]
        body = re.split(r"\\end\{thebibliography\}", body)[0]
        plain = _bbl_text(body)
        label = m.group("label") or ""
        style = "author-year" if re.search(r"\d{4}", label) else "numbered"
        ref = parse_reference(plain, m.group("key").strip(), style=style)
        line = text.count("\n", 0, m.start()) + 1
        refs.append(dataclasses.replace(ref, origin=f"{origin}:{line}"))
    return refs
