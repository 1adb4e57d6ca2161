"""LaTeX citation commands: which are read, how their arguments are parsed, and which are said to be unread.

natbib and biblatex commands (the list is :data:`CITE_COMMANDS`; :mod:`citeproof.readers.latex` says how each
becomes a citation). Parsing follows the packages' own argument forms: ``\\cmd[pre][post]{keys}``, the multicite
forms ``\\cites(pre)(post)[pre][post]{a}[pre][post]{b}``, and biblatex's ``\\volcite[pre]{volume}[pages]{key}``
family (biblatex manual, 3.9.5 and 3.9.9). Any other command named like a citation command (``\\mycite{k}``,
csquotes' ``\\textcquote{k}{...}``) that takes a key is a ``tex-unknown-cite`` diagnostic; ``\\volcites`` is read
(its groups are ``[pre]{volume}[pages]{key}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeproof.model import Diagnostic

__all__ = ["CITE_COMMANDS", "NARRATIVE_COMMANDS", "SUPPRESS_COMMANDS", "VOLCITE_COMMANDS", "FOOT_COMMANDS", "CITE_RE", "CiteCommand", "parse_cite",
           "unknown_commands", "balanced", "skip_ws"]

NARRATIVE_COMMANDS = {"citet", "citet*", "textcite", "citeauthor", "citeauthor*", "textcites", "citealt", "citealt*", "citetitle", "citetitle*",
                      "citetalias", "tvolcite", "citea", "citen", "shortcitea", "fullcitea", "citeasnoun", "possessivecite"}
SUPPRESS_COMMANDS = {"citeyear", "citeyearpar", "citeyear*", "citedate", "citedate*"}
CITE_COMMANDS = (
    "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar", "citenum", "citetext",
    "parencite", "textcite", "autocite", "footcite", "footcitetext", "smartcite", "supercite", "fullcite", "footfullcite", "nocite",
    "citetitle", "citedate", "citeurl", "citepalias", "citetalias", "notecite", "pnotecite", "fnotecite",
    "volcite", "pvolcite", "fvolcite", "ftvolcite", "svolcite", "tvolcite", "avolcite",
    "citeA", "citeNP", "citeN", "shortcite", "shortciteA", "shortciteNP", "fullciteA", "fullciteNP", "citeasnoun", "possessivecite",
)
"""Single-group citation commands read (each also capitalised and starred; ``citeA``... are apacite's, ``citeasnoun`` and
``possessivecite`` the harvard package's); the ``*volcite`` commands take
``[prenote]{volume}[pages]{key}``, and the volume goes into the locator (``vol. 2, p. 45``)."""

VOLCITE_COMMANDS = {"volcite", "pvolcite", "fvolcite", "ftvolcite", "svolcite", "tvolcite", "avolcite"}
FOOT_COMMANDS = {"footcite", "footcitetext", "footfullcite", "fnotecite", "fvolcite", "ftvolcite", "supercite", "autocite", "smartcite"}
"""Commands whose mark stands after the sentence's full stop (a footnote or superscript): ``aspirin.\\footcite{k}``
belongs to the sentence before it."""

CITE_RE = re.compile(
    r"\\(?P<cmd>(?:[Cc]ite(?:title|talias|palias|date|url|yearpar|year|author|text|num|alp|alt|p|t)?|[Pp]arencite|[Tt]extcite|[Aa]utocite"
    r"|[Ff]ootcite(?:text)?|[Ff]ootfullcite|[Ss]martcite|[Ss]upercite|[Ff]ullcite|nocite|[PpFf]?[Nn]otecite"
    r"|(?:[PpFfSsTtAa]|[Ff]t)?[Vv]olcite|cite(?:ANP|NP|A|N)|shortcite(?:A|NP)?|fullcite(?:A|NP)|citeasnoun|possessivecite)(?P<multi>s?))(?P<star>\*?)(?![A-Za-z])"
)
_ANY_CITE = re.compile(r"\\(?P<name>[A-Za-z]*(?:[Cc]ite|cquote)[A-Za-z]*)\*?(?![A-Za-z])")
"""Any command named like a citation command (``\\mycite``, ``\\textcquote``): one citeproof does not read is a
diagnostic, never silence."""
_NOT_CITES = {"citestyle", "citeindextrue", "citeindexfalse", "citetrackertrue", "citetrackerfalse", "citereset", "citesetup", "citebrackets",
              "citeauthorformat", "citenumfont", "citeform", "cites", "citesort", "citeleft", "citeright", "citemid", "citepunct"}


@dataclass
class CiteCommand:
    """One citation command as written: its span ``[start, end)`` in the text, the command (lower case, ``*``
    kept), its ``(prenote, postnote, keys)`` groups and its raw text."""

    start: int
    end: int
    cmd: str
    groups: list[tuple[str, str, list[str]]]  # (pre, post, keys)
    raw: str


def skip_ws(s: str, i: int) -> int:
    """The first index at or after ``i`` that is not a space, tab or newline."""
    while i < len(s) and s[i] in " \t\n":
        i += 1
    return i


def balanced(s: str, i: int, open_: str, close: str) -> int:
    """Index just past the group opening at ``s[i] == open_``; -1 if unbalanced."""
    depth = 0
    j = i
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def parse_cite(s: str, m: re.Match[str]) -> CiteCommand | None:
    """The command :data:`CITE_RE` matched at ``m``, with its arguments; None when they are malformed (unbalanced
    brackets, no key group)."""
    i = m.end()
    multi = m.group("multi") == "s"
    cmd = m.group("cmd").lower() + m.group("star")
    if multi and cmd.rstrip("*")[:-1] in VOLCITE_COMMANDS:  # \volcites(pre)(post)[pre]{vol}[pages]{key}[pre]{vol}[pages]{key}...
        return _multicite(s, m, cmd, lambda s, j: _vol_group(s, j) or _END, append=True)  # a volume group's post holds its volume
    if multi:  # global (pre)(post), then [pre][post]{keys} repeated
        return _multicite(s, m, cmd, _cite_group, append=False)
    j = skip_ws(s, i)
    if cmd.rstrip("*") in VOLCITE_COMMANDS:  # \volcite[prenote]{volume}[pages]{key}
        got = _vol_group(s, j)
        if got is None:
            return None
        group, e = got
        return CiteCommand(m.start(), e, cmd, [group], s[m.start(): e])
    got = _cite_group(s, j)  # [pre][post]{keys}
    if got is None or got is _END:
        return None
    group, e = got
    return CiteCommand(m.start(), e, cmd, [group], s[m.start(): e])


def _vol_group(s: str, j: int) -> tuple[tuple[str, str, list[str]], int] | None:
    """One ``[prenote]{volume}[pages]{key}`` group of the ``*volcite`` family at ``s[j]``: ``((pre, post, keys), end)``,
    the volume in the locator after the pages (``45, vol. 2``); None when malformed."""
    pre = ""
    if j < len(s) and s[j] == "[":
        e = balanced(s, j, "[", "]")
        if e < 0:
            return None
        pre, j = s[j + 1: e - 1], skip_ws(s, e)
    if j >= len(s) or s[j] != "{":
        return None
    e = balanced(s, j, "{", "}")
    if e < 0:
        return None
    volume, j = s[j + 1: e - 1].strip(), skip_ws(s, e)
    pages = ""
    if j < len(s) and s[j] == "[":
        e = balanced(s, j, "[", "]")
        if e < 0:
            return None
        pages, j = s[j + 1: e - 1].strip(), skip_ws(s, e)
    if j >= len(s) or s[j] != "{":
        return None
    e = balanced(s, j, "{", "}")
    if e < 0:
        return None
    post = f"{pages}, vol. {volume}" if pages else f"vol. {volume}"  # the pages are the locator (they narrow the search), the volume stays
    return (pre, post, [x.strip() for x in s[j + 1: e - 1].split(",") if x.strip()]), e


_END = object()
"""What a group reader of :func:`_multicite` returns where no further group starts."""


def _cite_group(s: str, j: int):
    """One ``[pre][post]{keys}`` group of a multicite at ``s[j]``: ``((pre, post, keys), index after)``, :data:`_END`
    where no key group follows, None when a bracket is unbalanced."""
    got = _optional_args(s, j)
    if got is None:
        return None
    opts, k = got
    if k >= len(s) or s[k] != "{":
        return _END
    e = balanced(s, k, "{", "}")
    if e < 0:
        return None
    pre, post = (opts[0], opts[1]) if len(opts) == 2 else ("", opts[0] if opts else "")
    return (pre, post, [x.strip() for x in s[k + 1: e - 1].split(",") if x.strip()]), e


def _multicite(s: str, m: re.Match[str], cmd: str, read_group, append: bool) -> CiteCommand | None:
    """A multicite (``\\cites``, ``\\volcites``...; biblatex manual 3.9.3, 3.9.9): its ``(multipre)(multipost)``, then
    groups read by ``read_group(s, j)`` (a group and the index after it, :data:`_END`, or None when malformed) until
    none follows; None when there is no group or one is malformed."""
    notes = _optional_args(s, skip_ws(s, m.end()), "(", ")")
    if notes is None:
        return None
    glob, end = notes
    groups: list[tuple[str, str, list[str]]] = []
    while True:
        got = read_group(s, skip_ws(s, end))
        if got is None:
            return None
        if got is _END:
            break
        group, end = got
        groups.append(group)
    if not groups:
        return None
    _apply_multi_notes(groups, glob, append=append)
    return CiteCommand(m.start(), end, cmd, groups, s[m.start(): end])


def _optional_args(s: str, j: int, open_: str = "[", close: str = "]", most: int = 2) -> tuple[list[str], int] | None:
    """Up to ``most`` optional arguments (``[pre][post]``, or a multicite's ``(multipre)(multipost)``) at ``s[j]``:
    ``(their texts, index after)``; None when a bracket is unbalanced."""
    args: list[str] = []
    while j < len(s) and s[j] == open_ and len(args) < most:
        k = balanced(s, j, open_, close)
        if k < 0:
            return None
        args.append(s[j + 1: k - 1])
        j = skip_ws(s, k)
    return args, j


def _apply_multi_notes(groups: list[tuple[str, str, list[str]]], glob: list[str], append: bool) -> None:
    """The global prenote goes to the first group without one, the postnote to the last (after its own when
    ``append``, else only where it has none); one note alone is the postnote (biblatex)."""
    gpre, gpost = (glob[0], glob[1]) if len(glob) == 2 else ("", glob[0] if glob else "")
    if gpre and not groups[0][0]:
        groups[0] = (gpre, groups[0][1], groups[0][2])
    if gpost and (append or not groups[-1][1]):
        groups[-1] = (groups[-1][0], f"{groups[-1][1]}; {gpost}" if groups[-1][1] else gpost, groups[-1][2])


def unknown_commands(w: str, known: set[int], origin, diags: list[Diagnostic]) -> None:
    """A diagnostic for each command named like a citation command that is not read (``\\volcites``, ``\\mycite``)."""
    for m in _ANY_CITE.finditer(w):
        name = m.group("name")
        if m.start() in known or name.lower() in _NOT_CITES:
            continue
        j = skip_ws(w, m.end())
        while j < len(w) and w[j] in "[(":
            k = balanced(w, j, w[j], "]" if w[j] == "[" else ")")
            if k < 0:
                break
            j = skip_ws(w, k)
        if j >= len(w) or w[j] != "{":
            continue
        k = balanced(w, j, "{", "}")
        arg = w[j + 1: k - 1].strip() if k > 0 else ""
        if not arg or not re.fullmatch(r"[^\s{}\\]+(?:\s*,\s*[^\s{}\\]+)*", arg):
            continue
        f, line, _col = origin(m.start())
        diags.append(Diagnostic("tex-unknown-cite", "warning", f"{f}:{line}: \\{name}{{{arg}}} looks like a citation command citeproof does not read, "
                                f"so this citation of {arg} is not checked; write it with \\cite, \\parencite or \\textcite, or report the command",
                                f, line))
