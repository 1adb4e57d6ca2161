"""A Manubot manuscript's own bibliography, picked up beside it (issue 14, part 5).

Manubot (manubot.org; the ``manubot/rootstock`` template) writes the manuscript in ``content/*.md`` with citekeys
that are persistent identifiers (``[@doi:10.7554/eLife.32822]``, ``[@pmid:29424689]``, ``[@arxiv:1407.3561]``,
``[@url:https://...]``) or tags (``[@tag:deep-review]`` with a ``[@tag:deep-review]: doi:10.1098/rsif.2017.0387``
line). Its build writes, beside the assembled ``output/manuscript.md``:

- ``references.json``: CSL-JSON, one item per cited work, ``id`` the short id (``1DiVJ3t6P``) and a
  ``standard_id: doi:10.7554/elife.32822`` line in ``note``;
- ``citations.tsv``: ``input_id``, ``dealiased_id``, ``standard_id``, ``short_id`` per citekey as written
  (``manuscript_id``/``detagged_id``/``standard_id``/``short_id`` in Manubot before 0.3);

and the author keeps ``content/manual-references.json`` (CSL-JSON whose ``id`` is the citekey as written, for works
Manubot cannot look up; these win over looked-up ones, as in Manubot).

citeproof reads them when a Markdown document names no bibliography itself and none is given: from the
document's folder and, in the rootstock layout, from the sibling ``content/`` and ``output/`` folders. Every
citekey form a work is known by (as written, standard id, short id) finds it. Items are read by the one CSL item
reader, leniently: the files are generated.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path

from citeproof.bibliography import Bibliography
from citeproof.bibliography.csl import read_csl_document, csl_reference
from citeproof.errors import BibliographyError
from citeproof.model import Diagnostic, Reference

__all__ = ["manubot_bibliography", "manubot_files"]

_STANDARD = re.compile(r"^\s*standard_id:\s*(\S+)\s*$", re.M)
_TAG_LINE = re.compile(r"^\s*\[@(tag:[^\]\s]+)\]:\s*(\S+)\s*$", re.M)
_PREFIX_ALIASES = {"pmcid": "pmc", "pubmed": "pmid"}  # Manubot's own prefix aliases (manubot.cite.citekey)


def _folders(document: Path) -> list[Path]:
    """Where the Manubot files may lie: beside the document, then rootstock's ``output/`` and ``content/``."""
    here = document.resolve().parent
    return list(dict.fromkeys([here, here.parent / "output", here.parent / "content"]))


def manubot_files(document: Path) -> dict[str, Path]:
    """The Manubot files found for ``document``: ``{"references.json": path, "citations.tsv": path, "manual-references.json": path}`` (those present).

    ``references.json`` counts only with ``citations.tsv`` beside it or a ``manual-references.json``: the name
    is too common to claim it otherwise; ``citations.tsv`` alone is no bibliography ({}).
    """
    found: dict[str, Path] = {}
    for folder in _folders(Path(document)):
        for name in ("references.json", "citations.tsv", "manual-references.json"):
            if name not in found and (folder / name).is_file():
                found[name] = folder / name
    if "references.json" in found and not ("citations.tsv" in found or "manual-references.json" in found):
        del found["references.json"]
    return found if any(name.endswith(".json") for name in found) else {}


def _standard(key: str) -> str:
    """A citekey in Manubot's standard form, for matching: prefix aliases folded, the whole lower-cased."""
    prefix, sep, rest = key.partition(":")
    return (_PREFIX_ALIASES.get(prefix.lower(), prefix.lower()) + sep + rest).lower()


def _aliases(tsv: Path, diags: list[Diagnostic]) -> dict[str, list[str]]:
    """``short id -> [citekeys as written]`` from ``citations.tsv`` (a diagnostic when it cannot be read)."""
    out: dict[str, list[str]] = {}
    try:
        with tsv.open(encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f, delimiter="\t"))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        diags.append(Diagnostic("manubot-citations", "warning", f"{tsv}: cannot be read ({exc}); citekeys are matched by standard id only", str(tsv)))
        return out
    if not rows or len(rows[0]) < 2:
        return out
    head = [h.strip().lower() for h in rows[0]]
    short = next((i for i, h in enumerate(head) if "short" in h), len(head) - 1)
    for row in rows[1:]:
        if len(row) > short and row[0].strip():
            out.setdefault(row[short].strip(), []).extend(k.strip() for k in row[:short] if k.strip())
    return out


def _items(path: Path, diags: list[Diagnostic]) -> list[tuple[dict, Reference]]:
    """``(item, reference)`` for each CSL item of a Manubot JSON file (a diagnostic, and none, when it is not CSL-JSON)."""
    try:
        items, where = read_csl_document(path)
    except BibliographyError as exc:
        diags.append(Diagnostic("manubot-references", "warning", f"{exc}; it is not used (rebuild the manuscript with manubot)", str(path)))
        return []
    out = []
    for n, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") not in (None, ""):
            out.append((item, csl_reference(item, citekey=str(item["id"]), where=f"{where}[{n}]", origin=f"{path}:item {n + 1}", source=path, lenient=True)))
        else:
            diags.append(Diagnostic("bib-no-key", "warning", f"{path}: item {n + 1} ({where}[{n}]) has no 'id' and cannot be cited", str(path)))
    return out


def manubot_bibliography(document: Path, text: str = "") -> Bibliography | None:
    """The Manubot bibliography for ``document``, or None when no Manubot file lies beside it.

    Args:
        document: the Markdown manuscript.
        text: its text, for ``[@tag:x]: id`` alias lines (optional).

    Returns:
        A :class:`Bibliography` whose keys are every form a work is cited by: the short id, the standard id
        (``doi:10.7554/elife.32822``), each citekey as written in ``citations.tsv`` and each tag; manual
        references first. Files that cannot be read are diagnostics, never errors: they were found, not given.
    """
    files = manubot_files(document)
    if not files:
        return None
    diags: list[Diagnostic] = []
    bib = Bibliography(description=f"the Manubot references beside {document}")
    by_standard: dict[str, Reference] = {}

    def add(key: str, ref: Reference) -> None:
        prefix, sep, rest = key.partition(":")
        for k in [key] + [a + sep + rest for a, std in _PREFIX_ALIASES.items() if sep and std == prefix.lower()]:
            if k and bib.get(k) is None:
                bib.entries[k] = dataclasses.replace(ref, citekey=k)

    for _, ref in _items(files["manual-references.json"], diags) if "manual-references.json" in files else []:
        add(ref.citekey, ref)
        by_standard.setdefault(_standard(ref.citekey), ref)
    aliases = _aliases(files["citations.tsv"], diags) if "citations.tsv" in files else {}
    for item, ref in _items(files["references.json"], diags) if "references.json" in files else []:
        m = _STANDARD.search(item["note"]) if isinstance(item.get("note"), str) else None
        standard = m.group(1) if m else ""
        chosen = by_standard.get(_standard(standard), ref) if standard else ref  # a manual reference wins
        for key in [ref.citekey, standard, *aliases.get(ref.citekey, [])]:
            add(key, chosen)
        if standard:
            by_standard.setdefault(_standard(standard), chosen)
    for tag, target in _TAG_LINE.findall(text):
        hit = bib.get(target) or by_standard.get(_standard(target))
        if hit is not None:
            add(tag, hit)
    bib.files = [p for name, p in files.items() if name.endswith(".json")]
    bib.diagnostics = diags
    if not bib.entries:
        diags.append(Diagnostic("bib-empty", "warning", f"{document}: the Manubot files beside it ({', '.join(str(p) for p in files.values())}) hold no reference", str(document)))
    return bib
