"""A Markdown document's own bibliography, from its YAML front matter.

pandoc and Quarto take the bibliography from the metadata when no
``--bibliography`` is given (pandoc manual, "Specifying bibliographic data"):

* ``bibliography:`` one file or a list of files (BibTeX, CSL-JSON),
  relative to the document's folder as Quarto resolves them;
* ``references:`` a list of CSL items written in YAML, used as they are.

citeproof does the same when no ``--bib`` is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.bibliography.csl import read_csl_items
from citeproof.errors import BibliographyError
from citeproof.model import Diagnostic
from citeproof.readers.latex import read_allowed

__all__ = ["FrontMatter", "front_matter_problems", "names_bibliography", "parse_front_matter"]


@dataclass
class FrontMatter:
    """What the front matter says about the bibliography.

    Attributes:
        bib_files: files named by ``bibliography:`` that exist, in order.
        references: the CSL items of ``references:`` (dicts, as written).
        diagnostics: unreadable YAML, files named that do not exist.
        named: True when the front matter has a ``bibliography:`` or
            ``references:`` key at all (even one naming no usable file).
        line: line (from 1) of the ``bibliography:`` key (else of the opening ``---``), for messages.
    """

    named: bool = False
    line: int = 1
    bib_files: list[Path] = field(default_factory=list)
    references: list[dict] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def bibliography(self, document: str) -> Bibliography | None:
        """The bibliography the front matter names, or None when it has no such key.

        A key naming nothing usable (a missing file) gives an empty
        bibliography carrying the diagnostics. ``bibliography:`` files come first, then the inline ``references:``
        (the first definition of a key wins, as with several ``--bib``).
        ``document`` names the file in messages and in each inline entry's
        origin (``draft.md:references item 3``).
        """
        if not self.named:
            return None
        try:
            bib = load_bibliographies(self.bib_files)
        except BibliographyError as exc:
            why = f"{document}:{self.line}: the bibliography its front matter names cannot be read: {exc}; fix that file or the 'bibliography:' line, or give --bib"
            bib = Bibliography(diagnostics=[Diagnostic("bib-parse", "error", why, str(self.bib_files[0]))])
        if self.references:
            refs, diags = read_csl_items(self.references, f"{document} (front matter references)", "references")
            bib.diagnostics.extend(diags)
            for ref in refs:
                bib.entries.setdefault(ref.citekey, ref)
        if not bib.files:
            bib.description = f"the front matter of {document}"
        bib.diagnostics = self.diagnostics + bib.diagnostics
        return bib


def parse_front_matter(yaml_text: str, document: Path, line: int = 1) -> FrontMatter:
    """Read the bibliography keys of a YAML front matter block.

    Args:
        yaml_text: the block between the ``---`` lines.
        document: the Markdown file (``bibliography:`` paths are relative to
            its folder).
        line: line (from 1) of the opening ``---``, for messages.

    Returns:
        A :class:`FrontMatter`; never raises: unreadable YAML, a
        ``bibliography:`` that is neither text nor a list of text, and
        missing files are diagnostics.
    """
    out = FrontMatter(line=line)
    try:
        meta = yaml.safe_load(yaml_text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = line + 1 + mark.line if mark is not None else line
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{at}: the YAML front matter cannot be read ({getattr(exc, 'problem', exc)}); its bibliography is not used: fix the YAML (an unclosed quote or bracket?)", str(document), at))
        return out
    if not isinstance(meta, dict):
        return out
    out.named = "bibliography" in meta or "references" in meta
    bib_line, refs_line = _key_line(yaml_text, "bibliography", line), _key_line(yaml_text, "references", line)
    out.line = bib_line
    names = meta.get("bibliography")
    if isinstance(names, str):
        names = [names]
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{bib_line}: 'bibliography:' must be a file name or a list of file names, not {_yaml_kind(names)}; write e.g. 'bibliography: refs.bib'", str(document), bib_line))
        names = []
    for name in names or []:
        p = Path(name).expanduser()
        p = p if p.is_absolute() else document.parent / p
        if p.is_file() and not read_allowed(p):
            out.diagnostics.append(Diagnostic("md-bib-outside", "warning", f"{document}:{bib_line}: bibliography file {name} is outside the uploaded files; it is not read", str(document), bib_line))
        elif p.is_file():
            out.bib_files.append(p)
        else:
            out.diagnostics.append(Diagnostic("md-missing-bib", "warning", f"{document}:{bib_line}: bibliography file {name} named in the front matter not found (looked at {p}); fix the path (relative to the document's folder) or give --bib", str(document), bib_line))
    refs = meta.get("references")
    if isinstance(refs, list):
        out.references = [r for r in refs if isinstance(r, dict)]
        if len(out.references) < len(refs):
            out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{refs_line}: {_count(len(refs) - len(out.references), 'item')} of 'references:' {'is not a CSL item' if len(refs) - len(out.references) == 1 else 'are not CSL items'} (key: value maps such as 'id: smith2020'); not used", str(document), refs_line))
    elif refs is not None:
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{refs_line}: 'references:' must be a list of CSL items ('- id: smith2020' and their fields), not {_yaml_kind(refs)}; it is not used", str(document), refs_line))
    return out


def _key_line(yaml_text: str, key: str, line: int) -> int:
    """Line (from 1) of a top-level ``key:`` in the front matter opening at ``line``; ``line`` when absent."""
    m = re.search(rf"^{key}\s*:", yaml_text, re.M)
    return line + 1 + yaml_text.count("\n", 0, m.start()) if m else line


def _yaml_kind(value: object) -> str:
    """What a YAML value is, for messages: ``a number``, ``a list holding a number``..."""
    kinds = {bool: "true/false", int: "a number", float: "a number", dict: "a key: value map", type(None): "empty"}
    if isinstance(value, list):
        odd = next((v for v in value if not isinstance(v, str)), None)
        return f"a list holding {kinds.get(type(odd), type(odd).__name__)}" if odd is not None or not value else "a list"
    return kinds.get(type(value), type(value).__name__)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


_KEY = re.compile(r"^(?:bibliography|references)\s*:", re.M)


def _front_matter_of(path: Path) -> FrontMatter | None:
    """The front matter of a Markdown file when it has a ``bibliography:`` or ``references:`` key (a cheap look first); else None."""
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as f:
            head = f.read(1_000_000)
    except OSError:
        return None
    if not head.startswith("---"):
        return None
    end = re.search(r"^(?:---|\.\.\.)[ \t]*$", head[3:], re.M)
    if not end or not _KEY.search(head[3: 3 + end.start()]):
        return None
    body = head[3: 3 + end.start()]
    return parse_front_matter(body[body.find("\n") + 1:], Path(path))  # the YAML starts on line 2


def names_bibliography(path: Path) -> bool:
    """True when ``path`` (Markdown) opens with a YAML front matter whose ``bibliography:`` names a file that exists or whose ``references:`` holds items.

    For the command line to decide whether ``--bib`` is needed. Unreadable files give False.
    """
    fm = _front_matter_of(path)
    return fm is not None and bool(fm.bib_files or fm.references)  # named files that all are missing need --bib


def front_matter_problems(path: Path) -> list[str]:
    """Why a Markdown file's front matter gives no bibliography although it has a ``bibliography:``/``references:`` key.

    Returns:
        The messages (each naming the file, the line and what to do) of the
        front matter's diagnostics, when it names a bibliography and none of
        it is usable; [] otherwise (no such key, or something usable).
    """
    fm = _front_matter_of(path)
    if fm is None or fm.bib_files or fm.references:
        return []
    return [d.message for d in fm.diagnostics] or [f"{path}:{fm.line}: the front matter names no usable bibliography; give --bib"]
