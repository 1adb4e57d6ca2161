"""LaTeX citing documents (and arXiv source bundles) -> claims.

Citation commands (issue 4):

* natbib: ``\\cite``, ``\\citep``, ``\\citet``, ``\\citealp``, ``\\citealt``,
  ``\\citeauthor``, ``\\citeyear``, ``\\citeyearpar``, capitalised and starred
  forms;
* biblatex: ``\\parencite``, ``\\textcite``, ``\\autocite``, ``\\footcite``,
  ``\\smartcite``, ``\\supercite`` and the multicite forms ``\\cites(pre)(post)
  [pre][post]{a}[pre][post]{b}`` (``\\parencites``, ``\\textcites``...);
* one optional argument is the postnote (locator), two are prenote (signal)
  and postnote, as in natbib and biblatex. The prenote goes to the first key
  of the command, the postnote to the last;
* ``\\citet``/``\\textcite``/``\\citeauthor`` are narrative (elided as
  ``[...]``), ``\\citeyear`` suppresses the author, ``\\nocite`` is no
  citation.

Structure: comments dropped; ``\\input``/``\\include``/``\\subfile`` expanded
(claims keep the included file and its line); only the ``document``
environment is read; math (inline and display) removed; ``tabular`` rows
split at ``\\\\`` with cells at ``&`` (rules such as ``\\toprule``,
``\\midrule``, ``\\hline`` dropped) are table-row units; ``\\item`` gives list
items; sectioning commands give headings; ``\\caption`` and ``\\footnote``
give their own units. Text is converted to Unicode by pylatexenc.

The bibliography: ``\\bibliography{a,b}`` / ``\\addbibresource{x.bib}``;
when no named .bib exists, the ``.bbl`` beside the main file (natbib
``\\bibitem`` lists and biblatex ``\\entry`` lists), or an inline
``thebibliography``. A claim's ``line`` is the line of its first citation.

Reading uploads (the web page): reads can be confined to a folder, and an
arXiv bundle is read only from inside itself (:mod:`citeproof.readers.latex_files`,
whose ``confine_reads``, ``allow_outside_reads`` and ``read_allowed`` are
re-exported here).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.errors import BibliographyError, InputError
from citeproof.model import Citation, CitationMode, Claim, Diagnostic, Reference, UnitKind
from citeproof.readers.claims import ELIDED, split_sentences, tidy_claim_text, tile_spans
from citeproof.readers.latex_files import allow_outside_reads, confine_bundle, confine_reads, expand_includes, extract_bundle, find_main_tex, read_allowed
from citeproof.readers.latex_cite import (FOOT_COMMANDS, CITE_COMMANDS, NARRATIVE_COMMANDS, SUPPRESS_COMMANDS, balanced, CiteCommand, CITE_RE,
                                         parse_cite, skip_ws, unknown_commands)
from citeproof.readers.latex_text import FILL, latex_to_text, read_bbl
from citeproof.readers.pandoc_cite import normalise_signal, parse_locator

__all__ = ["LatexReader", "LatexDocument", "read_latex", "find_main_tex", "latex_to_text", "read_bbl", "confine_reads", "allow_outside_reads", "read_allowed", "CITE_COMMANDS"]

@dataclass
class LatexDocument:
    """What :func:`read_latex` found.

    Attributes:
        path: the file given (``.tex`` or ``.tar.gz``).
        main: the main .tex file read.
        claims: claims with citations, in document order.
        bib_files: the .bib files the document names that exist.
        bbl_references: entries read from a .bbl or ``thebibliography`` when
            no .bib exists.
        diagnostics: missing includes, missing .bib files.
    """

    path: str
    main: str
    claims: list[Claim]
    bib_files: list[Path] = field(default_factory=list)
    bbl_references: list[Reference] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def bibliography(self) -> Bibliography:
        """The document's own bibliography: its .bib files, else its .bbl entries."""
        if self.bib_files:
            try:
                bib = load_bibliographies(self.bib_files)
            except BibliographyError as exc:
                bib = Bibliography(diagnostics=[Diagnostic("bib-parse", "error", str(exc))])
            bib.diagnostics = self.diagnostics + bib.diagnostics
            return bib
        bib = Bibliography(diagnostics=list(self.diagnostics), description=f"the .bbl of {self.path}" if self.bbl_references else "")
        for r in self.bbl_references:
            bib.entries.setdefault(r.citekey, r)
        return bib


class LatexReader:
    """Reads LaTeX (``.tex``) or an arXiv source bundle (``.tar.gz``/``.tgz``) into claims."""

    suffixes = (".tex", ".ltx", ".tar.gz", ".tgz")

    def read(self, path: str | Path) -> list[Claim]:
        """Claims with citations, in document order."""
        return read_latex(path).claims

    def read_document(self, path: str | Path) -> LatexDocument:
        """Claims plus the document's own bibliography (see :func:`read_latex`)."""
        return read_latex(path)


# ---------------------------------------------------------------- files

_DROP_ENVS = r"(?:equation|align|alignat|gather|multline|eqnarray|displaymath|math|flalign|verbatim|Verbatim|lstlisting|minted|comment|tikzpicture|thebibliography|filecontents)\*?"
_ENV_RE = re.compile(r"\\begin\{(" + _DROP_ENVS + r")\}.*?\\end\{\1\}", re.S)
_DISPLAY = re.compile(r"\\\[.*?\\\]|\$\$.*?\$\$", re.S)
# Inline math never runs over a blank line (TeX ends it there with an error): an
# unclosed "$" must not swallow the next paragraph's \\cite.
_INLINE = re.compile(r"(?<!\\)\$(?:\\.|[^$\\\n]|\n(?![ \t]*\n))+?(?<!\\)\$|\\\((?:[^\n]|\n(?![ \t]*\n))*?\\\)")
_BIB_COMMANDS = re.compile(r"\\(?:bibliographystyle|bibliography|nobibliography|addbibresource|addglobalbib|printbibliography|nocite)\*?\s*(?:\[[^\]]*\]\s*)?(?:\{[^{}]*\})?")
_CONDITIONAL = re.compile(r"\\(?:newif\s*\\if[A-Za-z@]*|iff(?![A-Za-z@])|ifthenelse(?![A-Za-z@])|(?P<false>iffalse(?![A-Za-z@]))|if[A-Za-z@]*|fi(?![A-Za-z@]))")


def _false_branches(text: str) -> list[tuple[int, int]]:
    """Spans of ``\\iffalse ... \\fi`` (nested conditionals counted), in one pass.

    ``\\newif\\ifx``, ``\\iff`` (a math symbol) and ``\\ifthenelse`` (a macro
    with arguments) open nothing. An ``\\iffalse`` never closed runs to the end.
    """
    spans: list[tuple[int, int]] = []
    start, depth = -1, 0
    for m in _CONDITIONAL.finditer(text):
        tok = m.group(0)
        if tok.startswith(("\\newif", "\\iff", "\\ifthenelse")) and m.group("false") is None:
            continue
        if start < 0:
            if m.group("false") is not None:
                start, depth = m.start(), 1
            continue
        if tok == "\\fi":
            depth -= 1
            if depth == 0:
                spans.append((start, m.end()))
                start = -1
        else:
            depth += 1
    if start >= 0:
        spans.append((start, len(text)))
    return spans


def _blank(chars: list[str], s: int, e: int, fill: str = FILL) -> None:
    for j in range(s, e):
        if chars[j] != "\n":
            chars[j] = fill


# ---------------------------------------------------------------- reading


def read_latex(path: str | Path) -> LatexDocument:
    """Read a LaTeX file or an arXiv ``.tar.gz``/``.tgz`` source bundle.

    Args:
        path: the main ``.tex`` file, or the bundle (its main file is the
            one holding ``\\documentclass`` and ``\\begin{document}``).

    Returns:
        A :class:`LatexDocument`: claims (``line`` from 1 in the file named by
        ``document``), the .bib files named or the .bbl entries, diagnostics.

    Raises:
        InputError: the file is missing, not readable, or a bundle has no main file.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file; check the path of the citing document")
    shown_root: tuple[Path, str] | None = None
    if p.name.lower().endswith((".tar.gz", ".tgz", ".tar")):
        folder = extract_bundle(p)
        main = find_main_tex(folder)
        if main is None:
            raise InputError(f"{p}: no .tex file with \\documentclass and \\begin{{document}} in the bundle")
        shown_root = (folder, str(p))
    else:
        main = p
    diags: list[Diagnostic] = []
    lines: list[tuple[str, str, int]] = []
    # a bundle unpacks to a temporary folder: confined reads stay inside that one
    try:
        with confine_bundle(shown_root[0] if shown_root is not None else None):
            expand_includes(main, main.parent, lines, diags)
    except OSError as exc:
        raise InputError(f"{main}: cannot be read ({exc})") from None

    def shown(f: str) -> str:
        if shown_root is None:
            return f
        try:
            return shown_root[1] + "/" + str(Path(f).relative_to(shown_root[0]))
        except ValueError:
            return f

    text = "\n".join(ln for ln, _f, _n in lines)
    false = _false_branches(text)
    if false:  # \iffalse ... \fi is never typeset: neither its claims nor its \bibliography count
        chars = list(text)
        for a, b in false:
            _blank(chars, a, b, " ")
        text = "".join(chars)
    starts = [0]
    for ln, _f, _n in lines[:-1]:
        starts.append(starts[-1] + len(ln) + 1)

    def origin(pos: int) -> tuple[str, int, int]:
        k = max(bisect.bisect_right(starts, pos) - 1, 0)
        _ln, f, n = lines[k] if lines else ("", str(main), 1)
        return shown(f), n, pos - starts[k] + 1

    with confine_bundle(shown_root[0] if shown_root is not None else None):
        bib_files, missing = _bib_files(text, main)
    for name in missing:
        diags.append(Diagnostic("tex-missing-bib", "warning", f"{main}: bibliography file {name} not found", str(main)))
    bbl: list[Reference] = []
    if not bib_files:
        tb = re.search(r"\\begin\{thebibliography\}.*?\\end\{thebibliography\}", text, re.S)
        if tb:
            bbl = read_bbl(tb.group(0), shown(str(main)))
        else:
            cands = [main.with_suffix(".bbl")] + sorted(main.parent.glob("*.bbl"))
            f = next((c for c in cands if c.is_file()), None)
            if f is not None:
                bbl = read_bbl(f.read_text(encoding="utf-8", errors="replace"), shown(str(f)))
    claims = _claims(text, origin, shown(str(main)), diags)
    if shown_root is not None:
        root = str(shown_root[0])
        for d in diags:
            d.message = d.message.replace(root, shown_root[1])
            d.file = d.file.replace(root, shown_root[1])
    return LatexDocument(path=str(p), main=shown(str(main)), claims=claims, bib_files=bib_files, bbl_references=bbl, diagnostics=diags)


def _bib_files(text: str, main: Path) -> tuple[list[Path], list[str]]:
    names: list[str] = []
    for m in re.finditer(r"\\(?:bibliography|addbibresource|addglobalbib)\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}", text):
        for n in m.group(1).split(","):
            n = n.strip()
            if n:
                names.append(n if n.endswith(".bib") else n + ".bib")
    found, missing = [], []
    for n in dict.fromkeys(names):
        c = main.parent / n
        if c.is_file() and read_allowed(c):
            found.append(c)
        else:
            missing.append(n)
    return found, missing


_HEADING = re.compile(r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?\s*(?:\[[^\]]*\])?\s*\{")
_INNER = re.compile(r"\\(caption|footnote)\s*(?:\[[^\]]*\])?\s*\{")
_TABULAR = re.compile(r"\\begin\{(tabular\*?|tabularx|longtable|tabulary)\}")
_LIST = re.compile(r"\\begin\{(itemize|enumerate|description)\}")


@dataclass
class _Unit:
    kind: UnitKind
    start: int
    end: int
    src: str  # the text the span indexes (with nested units blanked)
    split: bool = True
    cells: list[tuple[int, int]] = field(default_factory=list)


def _claims(text: str, origin, document: str, diags: list[Diagnostic]) -> list[Claim]:
    chars = list(text)
    b = text.find("\\begin{document}")
    e = text.find("\\end{document}")
    if b >= 0:
        _blank(chars, 0, b + len("\\begin{document}"), " ")
    if e >= 0:
        _blank(chars, e, len(chars), " ")
    for m in _BIB_COMMANDS.finditer(text):  # their arguments are file and style names, never prose
        _blank(chars, m.start(), m.end(), " ")
    w0 = "".join(chars)
    for rx in (_ENV_RE, _DISPLAY, _INLINE):
        for m in rx.finditer(w0):
            _blank(chars, m.start(), m.end())
        w0 = "".join(chars)
    cites: list[CiteCommand] = []
    for m in CITE_RE.finditer(w0):
        c = parse_cite(w0, m)
        if c is not None:
            cites.append(c)
    unknown_commands(w0, {c.start for c in cites}, origin, diags)
    # Placeholders keep the commands' text out of the way of other patterns.
    units: list[_Unit] = []
    chars1 = list(w0)
    for m in _INNER.finditer(w0):
        k = balanced(w0, m.end() - 1, "{", "}")
        if k < 0:
            continue
        kind = UnitKind.CAPTION if m.group(1) == "caption" else UnitKind.FOOTNOTE
        units.append(_Unit(kind, m.end(), k - 1, w0))
        _blank(chars1, m.start(), k)
    w1 = "".join(chars1)
    chars2 = list(w1)
    breaks: list[int] = []
    for m in _HEADING.finditer(w1):
        k = balanced(w1, m.end() - 1, "{", "}")
        if k < 0:
            continue
        units.append(_Unit(UnitKind.HEADING, m.end(), k - 1, w1, split=False))
        _blank(chars2, m.start(), k)
        breaks += [m.start(), k]
    for m in _TABULAR.finditer(w1):
        env = m.group(1)
        endm = re.compile(r"\\end\{" + re.escape(env) + r"\}").search(w1, m.end())
        if not endm:
            continue
        j = skip_ws(w1, m.end())
        if env in ("tabular*", "tabularx") and j < len(w1) and w1[j] == "{":
            j = skip_ws(w1, balanced(w1, j, "{", "}"))
        if j < len(w1) and w1[j] == "[":
            j = skip_ws(w1, balanced(w1, j, "[", "]"))
        if j < len(w1) and w1[j] == "{":
            j = balanced(w1, j, "{", "}")
        body_end = endm.start()
        row_start = j
        for rm in list(re.finditer(r"\\\\(?:\[[^\]]*\])?|\\tabularnewline", w1[j:body_end])) + [None]:
            row_end = j + rm.start() if rm else body_end
            cells, cs = [], row_start
            for cm in list(re.finditer(r"(?<!\\)&", w1[row_start:row_end])) + [None]:
                ce = row_start + cm.start() if cm else row_end
                cells.append((cs, ce))
                cs = ce + 1
            units.append(_Unit(UnitKind.TABLE_ROW, row_start, row_end, w1, split=False, cells=cells))
            row_start = j + rm.end() if rm else body_end
        _blank(chars2, m.start(), endm.end())
        breaks += [m.start(), endm.end()]
    for m in _LIST.finditer(w1):
        breaks.append(m.start())
    for m in re.finditer(r"\\end\{(?:itemize|enumerate|description)\}", w1):
        breaks.append(m.start())
        _blank(chars2, m.start(), m.end())
    for m in re.finditer(r"\\begin\{(?:itemize|enumerate|description)\}(?:\[[^\]]*\])?", w1):
        _blank(chars2, m.start(), m.end())
    items = list(re.finditer(r"\\item\b\s*(?:\[[^\]]*\])?", w1))
    for m in items:
        breaks.append(m.start())
        _blank(chars2, m.start(), m.end())
    for m in re.finditer(r"\\(?:begin|end)\{[^{}]*\}(?:\{[^{}]*\})?(?:\[[^\]]*\])?|\\(?:par|maketitle|newpage|clearpage)\b", w1):
        opt = _cited_option(w1, m, cites)
        if opt is not None:  # \begin{theorem}[Theorem 3.6 in \cite{k}]: the note and its citation lead the statement
            breaks.append(m.start())
            _blank(chars2, m.start(), opt[0] + 1)
            chars2[opt[1] - 1] = ":"
            continue
        breaks += [m.start(), m.end()]
        _blank(chars2, m.start(), m.end())
    w2 = "".join(chars2)
    item_starts = {m.start() for m in items}
    for m in re.finditer(r"\n[ \t]*\n", w2):
        breaks.append(m.start())
    breaks = sorted(set(breaks + [0, len(w2)]))
    for s, e in zip(breaks, breaks[1:]):
        seg = w2[s:e]
        if not seg.strip(" \t\n" + FILL):
            continue
        kind = UnitKind.LIST_ITEM if s in item_starts else UnitKind.SENTENCE
        units.append(_Unit(kind, s, e, w2))
    units.sort(key=lambda u: u.start)

    claims: list[Claim] = []
    prev = ""
    for u in units:
        in_unit = [c for c in cites if u.start <= c.start < u.end and u.src[c.start] == "\\"]
        if not in_unit:
            prev = latex_to_text(u.src[u.start:u.end])[-300:] if u.kind == UnitKind.SENTENCE else prev
            continue
        for claim in _unit_claims(u, in_unit, origin, document, len(claims), prev):
            claims.append(claim)
            prev = claim.text
    return claims


def _cited_option(w: str, m: re.Match[str], cites: list[CiteCommand]) -> tuple[int, int] | None:
    """``(start, end)`` of the optional argument of ``\\begin{env}[...]`` at ``m`` when it holds a citation, else None."""
    if not m.group(0).startswith("\\begin"):
        return None
    j = w.find("}", m.start()) + 1
    j = skip_ws(w, j)
    if j >= len(w) or w[j] != "[":
        return None
    k = balanced(w, j, "[", "]")
    if k < 0 or not any(j < c.start < k for c in cites):
        return None
    return j, k


_BACK = re.compile(r"[.!?;:]+[\"'\u201d\u2019)\]]*[ \t\n]*$")


def _with_placeholders(src: str, s: int, e: int, cites: list[CiteCommand]) -> tuple[str, dict[int, CiteCommand]]:
    """The span with each citation replaced by a placeholder; a footnote-style citation after the full stop
    (``aspirin.\\footcite{k}``, ``aspirin.\\cite{k}`` with no space) is moved before it, into its sentence."""
    out, pos, ph = [], s, {}
    for n, c in enumerate(sorted(cites, key=lambda c: c.start)):
        if c.start < s or c.start >= e:
            continue
        seg = src[pos: c.start]
        back = _BACK.search(seg) if seg else None
        if back and (c.cmd.rstrip("*") in FOOT_COMMANDS or back.group(0) == back.group(0).rstrip()):
            out += [seg[: back.start()], f" \ue010{n}\ue011", back.group(0)]
            ph[n] = c
            pos = min(c.end, e)
            continue
        out.append(seg)
        out.append(f" \ue010{n}\ue011 ")
        ph[n] = c
        pos = min(c.end, e)
    out.append(src[pos:e])
    return "".join(out), ph


_PH = re.compile("\ue010(\\d+)\ue011")


def _citations(c: CiteCommand, origin) -> tuple[list[Citation], bool]:
    if c.cmd.startswith("nocite"):
        return [], False
    base = c.cmd.rstrip("*")
    narrative = base in {x.rstrip("*") for x in NARRATIVE_COMMANDS}
    mode = CitationMode.NARRATIVE if narrative else CitationMode.SUPPRESS_AUTHOR if base in {x.rstrip("*") for x in SUPPRESS_COMMANDS} else CitationMode.PARENTHETICAL
    f, line, col = origin(c.start)
    keys_all = [(pre, post, k, gi, len(keys)) for pre, post, keys in c.groups for gi, k in enumerate(keys)]
    out = []
    raw_text = re.sub(r"\s+", " ", c.raw)
    for idx, (pre, post, key, gi, glen) in enumerate(keys_all):
        pre_t = re.sub(r"\s+", " ", latex_to_text(pre)).strip() if gi == 0 else ""
        post_t = re.sub(r"\s+", " ", latex_to_text(post)).strip() if gi == glen - 1 else ""
        loc, rest = parse_locator(", " + post_t) if post_t else (None, "")
        out.append(Citation(
            citekey=key, mode=mode, prefix=pre_t, suffix=rest, locator=loc, signal=normalise_signal(pre_t) if pre_t else None,
            raw=raw_text, line=line, column=col, group_index=idx, group_size=len(keys_all),
        ))
    return out, narrative


def _unit_claims(u: _Unit, cites: list[CiteCommand], origin, document: str, n0: int, prev: str) -> list[Claim]:
    claims: list[Claim] = []
    if u.kind == UnitKind.TABLE_ROW:
        texts, all_cites = [], []
        for cs, ce in u.cells:
            t, ph = _with_placeholders(u.src, cs, ce, cites)
            t = latex_to_text(t)
            for n in map(int, _PH.findall(t)):
                cl, narr = _citations(ph[n], origin)
                all_cites += cl
                t = t.replace(f"\ue010{n}\ue011", ELIDED if narr else "")
            t = tidy_claim_text(t)
            if t:
                texts.append(t)
        if all_cites:
            f, line, _col = origin(cites[0].start)
            claims.append(Claim(id=f"c{n0 + 1:04d}", text="; ".join(texts), raw=re.sub(r"\s+", " ", u.src[u.start:u.end].replace(FILL, "")).strip(),
                                citations=tuple(all_cites), document=f, line=line, kind=u.kind, context=prev[-300:]))
        return claims
    t, ph = _with_placeholders(u.src, u.start, u.end, cites)
    t = latex_to_text(t)
    split_src = _PH.sub(lambda m: "X" * len(m.group(0)), t)
    spans = [(0, len(t))] if not u.split else tile_spans(split_sentences(split_src), len(t), split_src)
    for s, e in spans:
        sent = t[s:e]
        nums = [int(x) for x in _PH.findall(sent)]
        if not nums:
            prev = sent
            continue
        cl: list[Citation] = []

        def repl(m: re.Match[str], cl: list[Citation] = cl) -> str:
            c, narr = _citations(ph[int(m.group(1))], origin)
            cl.extend(c)
            return f" {ELIDED} " if narr else " "

        text = tidy_claim_text(_PH.sub(repl, sent))
        if not cl:
            continue
        f, line, _col = origin(ph[nums[0]].start)
        claims.append(Claim(id=f"c{n0 + len(claims) + 1:04d}", text=text, raw=tidy_claim_text(_PH.sub(lambda m: ph[int(m.group(1))].raw, sent)),
                            citations=tuple(cl), document=f, line=line, kind=u.kind, context=tidy_claim_text(prev)[-300:]))
        prev = text
    return claims


