"""Citation markers in a citing PDF's text, and their links to the printed reference list.

Three marker kinds (issue 4, refined in issue 11):

* **Bracketed numbers** ``[1]``, ``[1,3]``, ``[1-4]``, ``[1–4, 7]``; adjacent
  groups ``[11][23][10]`` are one compound citation; ranges expand to each
  number. A bracketed number is *notation*, not a citation, when the text
  around it says so (:func:`bracket_role`).
* **Superscript numbers** (a span set smaller than the line and raised above
  its baseline, see :mod:`citeproof.readers.pdf`): a citation only when
  :func:`superscript_role` says ``cite`` (not an isotope, an exponent, an
  ordinal or a footnote/affiliation label), every number it names is in the
  reference list, and no footnote with that number stands on the same page
  (:func:`is_footnote_mark`).
* **Author-year** ``(Smith et al., 2020)``, ``Smith and Jones (2019a, b)``,
  ``(see Smith 2020, p. 4; Lee 2018)``, and an author-year named inside a
  longer parenthesis, ``(as Werner et al. 2002 did)``, when the reference
  list has that entry (:func:`author_year_markers`).

:class:`Linker` links a printed label to an entry: numbers by label, author-year
labels by first author and year (letter suffix and author count break ties).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from citeproof.bibliography.pdf_refs import RefEntry, fold_name
from citeproof.model import CitationMode, Diagnostic
from citeproof.readers.pdf_lines import SUP_CLOSE, SUP_OPEN

__all__ = [
    "LinkedLabel",
    "link_marker",
    "Marker", "BRACKET", "SUP", "VERBS", "expand", "numeric_markers", "bracket_role", "superscript_role", "SUPERSCRIPT_DIGITS",
    "author_year_markers", "is_footnote_mark", "Linker",
]


@dataclass
class Marker:
    """A citation marker found in body text.

    Attributes:
        start, end: span in the paragraph text (end exclusive).
        labels: the labels it cites, in order (``["11"]``, ``["Smith et al. 2020"]``).
        mode: parenthetical or narrative.
        prefixes, posts: per label, the prefix (``see``) and the text after
            the year (``p. 4``), read as locator and suffix.
        raw: the marker as printed.
    """

    start: int
    end: int
    labels: list[str]
    mode: CitationMode = CitationMode.PARENTHETICAL
    prefixes: list[str] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)
    raw: str = ""


BRACKET = re.compile(r"\[(\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?)*\s*)\]")
"""A bracketed number group: ``[1]``, ``[1, 3]``, ``[1–4; 7]``."""
SUP = re.compile(SUP_OPEN + r"([^" + SUP_CLOSE + r"]*)" + SUP_CLOSE)
"""A wrapped superscript number (see :class:`~citeproof.readers.pdf_lines.PdfLine`)."""
VERBS = r"(?:found|find|finds|showed|shows|show|reported|reports|report|proposed|proposes|propose|demonstrated|demonstrates|observed|observes|used|uses|use|introduced|introduces|described|describes|argued|argues|suggested|suggests|noted|notes|presented|presents|developed|develops|studied|studies|applied|extended|extends|trained|trains|achieved|achieves)\b"
"""Reporting verbs: a marker followed by one is the subject of its sentence (``[24] found that``)."""

SUPERSCRIPT_DIGITS = str.maketrans("0123456789,-–", "⁰¹²³⁴⁵⁶⁷⁸⁹˒⁻⁻")
"""Digits as superscript characters: an exponent or isotope number keeps its printed form (``224²``, not ``2242``)."""

# ---------------------------------------------------------------- superscripts

_ELEMENTS = (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo "
    "Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb "
    "Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og"
).split()
_ISOTOPE_NEXT = re.compile(r"^(?:" + "|".join(sorted(_ELEMENTS, key=len, reverse=True)) + r")(?![a-z])")
_UNITS = {
    "cm", "mm", "km", "nm", "µm", "μm", "pm", "fm", "pc", "kpc", "Mpc", "Gpc", "au", "AU", "ly", "kg", "mg", "µg", "μg",
    "ms", "µs", "μs", "ns", "Hz", "kHz", "MHz", "GHz", "eV", "keV", "MeV", "GeV", "TeV", "px", "ft", "yr", "sec",
    "Å", "deg", "arcsec", "arcmin", "mol", "cd", "Pa", "kPa", "MPa", "GPa", "Wb", "lm", "lx", "Gy", "Sv", "dB", "bp", "kb", "Mb",
}
_RAISED = set("⁰¹²³⁴⁵⁶⁷⁸⁹˒⁻")
_EXPONENT_BEFORE = set("−-+×·=/^*)]}|′'⁄")
_ORDINAL_NEXT = re.compile(r"^(?:st|nd|rd|th|er|e|o|a)\b")


def superscript_role(prev: str, core: str, nxt: str) -> str:
    """What a raised number in a printed line is, from the characters around it.

    The rules, in order (``prev`` is the line's text before the raised span,
    ``nxt`` the text right after it, both as printed):

    1. ``label``: nothing before it on the line: a footnote or affiliation
       label (``¹ Department of Physics``, ``² This footnote ...``).
    2. ``isotope``: a single number after a space or an opening bracket/hyphen
       and directly followed by an element symbol (``¹⁰B``, ``¹⁴C``,
       ``¹⁸F-FDG``, ``²³⁵U``, ``(¹²C)``).
    3. ``ordinal``: after a space and directly followed by an ordinal ending
       (``the ¹st``, ``²nd``, ``¹er``).
    4. ``cite``: right after punctuation that follows a word, a closing
       quote or bracket, or a bare number (``... holes.¹``, ``results,²``,
       ``in 2019.³``): Nature, ACS and AIP styles set the marker after the
       period or comma (``31.1+2.²``, an error bar, is not this case).
    5. ``exponent``: right after a raised digit already read as an exponent
       (``10⁶·⁹`` set as two spans), a digit (``10⁵``, ``224²``), a math
       character or bracket (``(2π)³``, ``2GM/c²``, ``10−⁴``), a token holding
       a digit or operator, a one-letter variable (``x²``, ``r³``, ``m²``, ``≫ω⁰``) or
       a unit (``cm²``, ``Mpc³``).
    6. ``notation``: a space before it and a letter or digit right after it
       (detached from the preceding word and glued to the next: not a
       marker, which always follows its word).
    7. ``cite`` otherwise (``black holes¹``, ``Censorship”⁴``).

    Args:
        prev: printed text before the raised span on its line.
        core: the raised text stripped of trailing ``,.;`` (``"1"``, ``"1,3"``, ``"1-3"``).
        nxt: printed text right after the raised span on its line.

    Returns:
        One of ``label``, ``isotope``, ``ordinal``, ``exponent``, ``notation``, ``cite``.
    """
    before = prev.rstrip()
    if not before:
        return "label"
    single = core.isdigit()
    glued_after = nxt[:1] not in ("", " ", "\t")
    detached = prev[-1:].isspace() or prev[-1:] in "([{-–/"
    if single and detached and glued_after and _ISOTOPE_NEXT.match(nxt):
        return "isotope"
    if detached and glued_after and _ORDINAL_NEXT.match(nxt):
        return "ordinal"
    last_tok = before.split()[-1]
    if before.rstrip(".,")[-1:] in _RAISED:
        return "exponent"  # the rest of an exponent set in two spans: 10⁶ + .9
    if not prev[-1:].isspace() and before[-1] in ".,;:" and (re.fullmatch(r"\(?\d{1,4}\)?[.,;:]", last_tok) or re.search(r"[^\W\d_”’\"')\]][.,;:]$|[”’\"')\]][.,;:]$", last_tok)):
        return "cite"
    word = last_tok.strip("“”\"'‘’")
    if before[-1].isdigit() or before[-1] in _EXPONENT_BEFORE or re.search(r"[\d/=^+*()\[\]{}|]", last_tok):
        return "exponent"
    if not prev[-1:].isspace() and (re.search(r"(?:^|[^A-Za-zα-ωΑ-Ω])[A-Za-zα-ωΑ-Ω][′']*$", word) or word in _UNITS):
        return "exponent"
    if detached and glued_after and (nxt[:1].isalnum()):
        return "notation"
    return "cite"


# ---------------------------------------------------------------- bracketed numbers

_MATH_OPS = set("=+×⊗⊕·*<>≤≥∈∼≈^")
_NOTATION_NEXT = re.compile(r"^\s*-?\s*(?:dimensional|plets?|multiplets?|representations?|reps?|irreps?|irreducible)\b", re.I)
_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:the|a|an|The|A|An)\s*$")
_IDENT_BEFORE = re.compile(r"(?:^|[^\w])([A-Za-zα-ωΑ-Ω]|[A-Za-z]+_?\d+|[A-Za-z]+_\w+)$")


def bracket_role(text: str, start: int, end: int) -> str:
    """Whether the bracketed number ``text[start:end]`` is a citation or notation, from its context.

    The rule: a bracketed number is notation, not a citation, when

    * ``math``: a math operator stands right before or after it
      (``[3] ⊗ [8] = [1] ⊕ [8]``, ``[15] + [6]``);
    * ``index``: it is glued (no space) to a one-letter or digit-bearing
      identifier (``x[3]``, ``A[15]``, ``W1[2]``: an array or matrix index); a
      word glued to its marker (``network[11]``, ``CNN[11]``) still cites;
    * ``article``: an article precedes it (``the [6] and the [15]``: a
      representation named as a noun; a citation is never preceded by "the");
    * ``notation-noun``: a representation noun follows it (``[15]
      multiplet``, ``[6]-plet``, ``[15] representation``, ``[10]-dimensional``).

    A representation noun *before* the number (``studied in representations
    [7]``) does not count: there the number cites.

    Args:
        text: the paragraph text.
        start, end: the span of ``[...]`` in ``text`` (end exclusive).

    Returns:
        ``cite`` or the name of the rule that makes it notation.
    """
    before = text[: start].rstrip()[-1:]
    after = text[end:].lstrip()[:1]
    if before in _MATH_OPS or after in _MATH_OPS:
        return "math"
    if start and not text[start - 1].isspace() and _IDENT_BEFORE.search(text[max(0, start - 12): start]):
        return "index"
    if _ARTICLE_BEFORE.search(text[max(0, start - 6): start]):
        return "article"
    if _NOTATION_NEXT.match(text[end: end + 30]):
        return "notation-noun"
    return "cite"


def expand(spec: str) -> list[int]:
    """The numbers a marker names: ``"1–4, 7"`` -> ``[1, 2, 3, 4, 7]``.

    A reversed range or one spanning more than 60 numbers counts as its first number only.
    """
    out: list[int] = []
    for part in re.split(r"\s*[,;]\s*", spec.strip()):
        m = re.fullmatch(r"(\d+)\s*(?:[-–—]\s*(\d+))?", part.strip())
        if not m:
            continue
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if b < a or b - a > 60:
            b = a
        out.extend(range(a, b + 1))
    return out


def numeric_markers(text: str, n_entries: int, superscript: bool) -> list[Marker]:
    """Numeric markers in a paragraph's text.

    Args:
        text: the paragraph text (superscripts wrapped as :data:`SUP`).
        n_entries: entries in a numbered reference list (0 when unknown). A
            bracket group none of whose numbers is in ``1..n_entries`` is no
            marker; a superscript group must have all its numbers in range.
        superscript: look for wrapped superscripts instead of brackets.

    Returns:
        Markers in text order, adjacent groups merged into one compound
        marker; bracket groups that :func:`bracket_role` calls notation are left out.
    """
    found: list[Marker] = []
    pat = SUP if superscript else BRACKET
    for m in pat.finditer(text):
        if not superscript and bracket_role(text, m.start(), m.end()) != "cite":
            continue
        nums = expand(m.group(1))
        if not nums or any(x == 0 for x in nums):
            continue
        if n_entries and not (all if superscript else any)(1 <= x <= n_entries for x in nums):
            continue
        found.append(Marker(m.start(), m.end(), [str(x) for x in nums], raw=m.group(0)))
    merged: list[Marker] = []
    for mk in found:
        if merged and re.fullmatch(r"[\s,]*", text[merged[-1].end: mk.start]):
            prev = merged[-1]
            merged[-1] = Marker(prev.start, mk.end, prev.labels + mk.labels, raw=text[prev.start: mk.end])
        else:
            merged.append(mk)
    for mk in merged:
        mk.prefixes = [""] * len(mk.labels)
        mk.posts = [""] * len(mk.labels)
    return merged


def is_footnote_mark(mk: Marker, page: int, marks: set[tuple[int, str]]) -> bool:
    """A lone superscript number on ``page`` whose page has a footnote or label line starting with that number.

    Args:
        mk: a superscript marker.
        page: the page it stands on (from 1).
        marks: ``(page, number)`` of every footnote or raised line label in the body.
    """
    return len(mk.labels) == 1 and (page, mk.labels[0]) in marks


# ---------------------------------------------------------------- author-year

_NAME = r"(?:(?:van|von|de|der|den|del|da|di|du|le|la|Van|Von|De|Du|Le|La)\s+)*[A-Z][A-Za-z\u00c0-\u024f´`'’\-]*[a-z\u00c0-\u024f][A-Za-z\u00c0-\u024f´`'’\-]*"
_AUTH = rf"{_NAME}(?:\s+et\s+al\.?|\s*(?:,\s*{_NAME}\s*,?)*\s+(?:and|&)\s+{_NAME})?"
_YEARS = r"(?:1[89]|20)\d\d[a-z]?(?:\s*,\s*(?:(?:1[89]|20)\d\d[a-z]?|[a-z])\b)*"
_NARRATIVE = re.compile(rf"(?P<auth>{_AUTH})(?:'s|’s)?\s+\((?P<years>{_YEARS})(?P<post>,\s*[^()]*?)?\)")
_PAREN = re.compile(r"\(([^()]{4,400})\)")
_PART = re.compile(rf"^\s*(?P<pre>(?:[a-z][a-z.,]*\s+){{0,3}})?(?P<auth>{_AUTH}),?\s+(?P<years>{_YEARS})(?P<post>\s*,\s*.*)?\s*$", re.S)
_EMBEDDED = re.compile(rf"(?<![\w’'])(?P<auth>{_AUTH}),?\s+(?P<years>(?:1[89]|20)\d\d[a-z]?)(?![\w-])")
_NOT_AUTHOR = {
    "In", "The", "See", "Table", "Figure", "Fig", "Section", "Eq", "Equation", "Appendix", "Since", "Until", "From", "After", "Before",
    "During", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Spring", "Summer",
    "Autumn", "Fall", "Winter", "Version", "Release", "Run", "Season", "Year", "Cycle", "Phase", "Data", "Note",
}


def _years(spec: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*,\s*", spec.strip()):
        if re.fullmatch(r"[a-z]", part) and out:
            out.append(out[-1][:4] + part)
        elif part:
            out.append(part)
    return out


def _auth_label(auth: str) -> str:
    auth = re.sub(r"\s+", " ", auth.replace("&", "and")).strip()
    return re.sub(r"\bet al\b\.?", "et al.", auth)


def author_year_markers(text: str, accept: Callable[[str], bool] | None = None) -> list[Marker]:
    """Author-year markers in a paragraph's text.

    Narrative ``Smith and Jones (2019a, b)``; parenthetical groups whose
    every ``;``-part is ``[prefix] Authors[,] Year[, post]`` (``(see Smith
    2020, p. 4; Lee 2018)``); and, in a parenthesis that is not such a group,
    an author-year named inside longer text (``(as Werner et al. 2002 did)``,
    ``(compared to Harris & D'Abramo 2015 for H>24)``), read as narrative
    (the author is part of the sentence) and kept only when ``accept`` says
    its label is in the reference list (no ``accept``: kept unless the
    "author" is a month, season or sentence word: ``(in March 2015)``).

    Args:
        text: the paragraph text.
        accept: label -> whether the reference list has it (e.g. ``Linker.link``'s result is not None).

    Returns:
        Markers in text order; labels ``"<Authors> <year><letter>"`` (``&`` as ``and``, ``et al.`` normalised).
    """
    out: list[Marker] = []
    taken: list[tuple[int, int]] = []
    for m in _NARRATIVE.finditer(text):
        if m.group("auth").split()[0] in _NOT_AUTHOR:
            continue
        ys = _years(m.group("years"))
        lab = _auth_label(m.group("auth"))
        post = (m.group("post") or "").strip(", ")
        out.append(Marker(m.start(), m.end(), [f"{lab} {y}" for y in ys], CitationMode.NARRATIVE, [""] * len(ys), [post] * len(ys), m.group(0)))
        taken.append((m.start(), m.end()))
    for m in _PAREN.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        labels, pres, posts = [], [], []
        for part in m.group(1).split(";"):
            pm = _PART.match(part)
            if not pm or pm.group("auth").split()[0] in _NOT_AUTHOR:
                continue
            for y in _years(pm.group("years")):
                labels.append(f"{_auth_label(pm.group('auth'))} {y}")
                pres.append((pm.group("pre") or "").strip())
                posts.append((pm.group("post") or "").strip(", "))
        if labels:
            out.append(Marker(m.start(), m.end(), labels, CitationMode.PARENTHETICAL, pres, posts, m.group(0)))
            continue
        for em in _EMBEDDED.finditer(m.group(1)):
            auth = em.group("auth")
            if auth.split()[0] in _NOT_AUTHOR:
                continue
            label = f"{_auth_label(auth)} {em.group('years')}"
            if accept is not None and not accept(label):
                continue
            s, e = m.start(1) + em.start(), m.start(1) + em.end()
            out.append(Marker(s, e, [label], CitationMode.NARRATIVE, [""], [""], em.group(0)))
    out.sort(key=lambda mk: mk.start)
    return out


# ---------------------------------------------------------------- linking


class Linker:
    """Links printed marker labels to reference-list entries.

    Args:
        entries: the parsed reference list.
        style: ``numbered`` (labels are entry numbers) or ``author-year``.
    """

    def __init__(self, entries: list[RefEntry], style: str) -> None:
        self.style = style
        self.by_label = {e.label: e for e in entries}
        self.by_name_year: dict[tuple[str, str], list[RefEntry]] = {}
        for e in entries:
            ref = e.reference
            if ref is None or not ref.year:
                continue
            names = [a for a in ref.authors if a != "et al."]
            if names:
                self.by_name_year.setdefault((fold_name(names[0]), ref.year[:4]), []).append(e)

    def link(self, label: str) -> tuple[str | None, str]:
        """``(entry label or None, reason when None)``."""
        if self.style != "author-year":
            if label in self.by_label:
                return label, ""
            return None, f"marker [{label}] has no entry {label} in the reference list ({len(self.by_label)} entries found)"
        if label in self.by_label:
            return label, ""
        m = re.match(r"^(?P<auth>.+?)\s+(?P<year>\d{4})(?P<letter>[a-z]?)$", label)
        if not m:
            return None, f"marker '{label}' is not an author-year citation"
        first = m.group("auth").split(" et al.")[0].split(" and ")[0].split(",")[0].strip()
        cands = self.by_name_year.get((fold_name(first), m.group("year")), [])
        if m.group("letter"):
            cands = [e for e in cands if e.reference is not None and e.reference.year.endswith(m.group("letter"))] or cands
        if len(cands) > 1:
            etal = "et al." in m.group("auth")
            two = " and " in m.group("auth")
            narrowed = [e for e in cands if e.reference is not None and (
                (etal and (len(e.reference.authors) >= 3 or "et al." in e.reference.authors))
                or (two and len([a for a in e.reference.authors if a != 'et al.']) == 2)
                or (not etal and not two and len(e.reference.authors) == 1))]
            cands = narrowed or cands
        if len(cands) == 1:
            return cands[0].label, ""
        if not cands:
            return None, f"marker '{label}' matches no entry of the reference list (no first author '{first}' with year {m.group('year')})"
        return None, f"marker '{label}' is ambiguous: it matches {', '.join(repr(e.label) for e in cands)}"


@dataclass(frozen=True)
class LinkedLabel:
    """One label of a marker, linked (:func:`link_marker`).

    Attributes:
        citekey: the entry's label, or the printed label when it links to no entry.
        linked: whether it links to an entry.
        prefix, post: the label's prefix (``see``) and the text after it (``p. 4``), '' when none.
    """

    citekey: str
    linked: bool
    prefix: str
    post: str


def link_marker(mk: Marker, linker: Linker, unlinked: dict[str, str], diagnostics: list[Diagnostic], code: str, where: str, file: str,
                line: int) -> list[LinkedLabel]:
    """Link each label of a marker to its reference-list entry, as the citing-PDF and plain-text Word readers both do.

    Args:
        mk: the marker.
        linker: the document's :class:`Linker`.
        unlinked: printed label -> why it links to no entry; the first reason per label is added here.
        diagnostics: one ``code`` warning per unlinkable label occurrence is appended, its message
            ``"{where}: {reason}"``.
        code: the diagnostic code (``pdf-unlinked-marker``, ``docx-unlinked-marker``).
        where: the place for the message (``paper.pdf: page 3``, ``draft.docx: paragraph 12``).
        file, line: the diagnostic's file and line (a page or paragraph number, from 1).

    Returns:
        One :class:`LinkedLabel` per label, in order; an unlinkable one keeps its printed label as its
        citekey (an ``unknown_citekey`` finding later, with the reason).
    """
    out = []
    for k, label in enumerate(mk.labels):
        key, reason = linker.link(label)
        if key is None:
            unlinked.setdefault(label, reason)
            diagnostics.append(Diagnostic(code, "warning", f"{where}: {reason}", file, line))
        out.append(LinkedLabel(key if key is not None else label, key is not None,
                               mk.prefixes[k] if k < len(mk.prefixes) else "", mk.posts[k] if k < len(mk.posts) else ""))
    return out
