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

__all__ = ["FrontMatter", "names_bibliography", "parse_front_matter"]


@dataclass
class FrontMatter:
    """What the front matter says about the bibliography.

    Attributes:
        bib_files: files named by ``bibliography:`` that exist, in order.
        references: the CSL items of ``references:`` (dicts, as written).
        diagnostics: unreadable YAML, files named that do not exist.
        named: True when the front matter has a ``bibliography:`` or
            ``references:`` key at all (even one naming no usable file).
    """

    named: bool = False
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
            bib = Bibliography(diagnostics=[Diagnostic("bib-parse", "error", str(exc), str(self.bib_files[0]))])
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
    out = FrontMatter()
    try:
        meta = yaml.safe_load(yaml_text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = line + 1 + mark.line if mark is not None else line
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{at}: the YAML front matter cannot be read ({getattr(exc, 'problem', exc)}); its bibliography is not used", str(document), at))
        return out
    if not isinstance(meta, dict):
        return out
    out.named = "bibliography" in meta or "references" in meta
    names = meta.get("bibliography")
    if isinstance(names, str):
        names = [names]
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{line}: 'bibliography:' must be a file name or a list of file names; it is not used", str(document), line))
        names = []
    for name in names or []:
        p = Path(name).expanduser()
        p = p if p.is_absolute() else document.parent / p
        if p.is_file() and not read_allowed(p):
            out.diagnostics.append(Diagnostic("md-bib-outside", "warning", f"{document}:{line}: bibliography file {name} is outside the uploaded files; it is not read", str(document), line))
        elif p.is_file():
            out.bib_files.append(p)
        else:
            out.diagnostics.append(Diagnostic("md-missing-bib", "warning", f"{document}:{line}: bibliography file {name} named in the front matter not found (looked at {p})", str(document), line))
    refs = meta.get("references")
    if isinstance(refs, list):
        out.references = [r for r in refs if isinstance(r, dict)]
        if len(out.references) < len(refs):
            out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{line}: {len(refs) - len(out.references)} item(s) of 'references:' are not CSL items (key: value maps); they are not used", str(document), line))
    elif refs is not None:
        out.diagnostics.append(Diagnostic("md-front-matter", "warning", f"{document}:{line}: 'references:' must be a list of CSL items; it is not used", str(document), line))
    return out


_KEY = re.compile(r"^(?:bibliography|references)\s*:", re.M)


def names_bibliography(path: Path) -> bool:
    """True when ``path`` (Markdown) opens with a YAML front matter whose ``bibliography:`` names a file that exists or whose ``references:`` holds items.

    A cheap look at the text (no YAML parsing), for the command line to
    decide whether ``--bib`` is needed. Unreadable files give False.
    """
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as f:
            head = f.read(1_000_000)
    except OSError:
        return False
    if not head.startswith("---"):
        return False
    end = re.search(r"^(?:---|\.\.\.)[ \t]*$", head[3:], re.M)
    if not end or not _KEY.search(head[3: 3 + end.start()]):
        return False
    fm = parse_front_matter(head[3: 3 + end.start()], Path(path))
    return bool(fm.bib_files or fm.references)  # named files that all are missing need --bib
