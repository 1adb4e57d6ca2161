"""Locator repair (issue 25, part 3): the words stand on another page than the locator says.

For a citation with a page locator (``[@a, p. 3]``) whose finding is not *supported* on the pages the locator
names, or whose page does not exist, the whole source is searched with the run's tiers (the same retrieval and
offline judge as the finding, :class:`citeproof.tiers.Tiers`). When a passage on another page judges better than
the finding did, the corrected locator is proposed as a suggestion of kind ``locator`` (``p. 3`` -> ``p. 2``; the
printed page label when the PDF has one, since a locator names printed pages). :func:`locator_patch` turns the
suggestions into a unified diff of the citing document (``citeproof fix --locators``); nothing is written to the
document itself.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from citeproof.assist.library import page_locator, suggestion
from citeproof.model import Finding, Verdict
from citeproof.tiers import Tiers, identifier_terms

__all__ = ["locator_suggestion", "corrected_locator", "locator_patch"]

_RANK = {Verdict.SUPPORTED: 3, Verdict.PARTIAL: 2, Verdict.UNSUPPORTED: 1, Verdict.CONTRADICTED: 0}


def corrected_locator(raw: str, page: str) -> str:
    """``raw`` with its page number(s) replaced by ``page``: ``p. 3`` -> ``p. 2``, ``pp. 3-4`` -> ``p. 2``,
    ``page 3`` -> ``page 2``."""
    label = re.match(r"\s*([^\d\s]*\.?)\s*", raw)
    word = label.group(1) if label else "p."
    if word.lower() in ("pp.", "pp", "pages"):
        word = {"pages": "page"}.get(word.lower(), "p.")
    return f"{word} {page}" if word else page


def locator_suggestion(f: Finding, tiers: Tiers) -> dict[str, Any] | None:
    """The corrected-locator suggestion for one finding, or None.

    Args:
        f: a finding whose citation has a page locator and whose source is a readable PDF.
        tiers: the run's tiers.

    Returns:
        A suggestion of kind ``locator`` (:func:`citeproof.assist.library.suggestion`) naming the page where the
        words stand, when the whole source judges better there than the locator's pages did (or the locator's
        page does not exist); else None.
    """
    cite, src = f.citation, f.source
    if cite.locator is None or not cite.locator.pages() or src is None or not src.usable or not src.pages:
        return None
    missing = "locator_page_missing" in f.flags
    if f.verdict == Verdict.SUPPORTED and not missing:
        return None
    if f.verdict not in _RANK:
        return None
    if missing and f.evidence is not None:  # the judge already searched every page
        ev, verdict, tier = f.evidence, f.verdict, f.tier.value
        if verdict not in (Verdict.SUPPORTED, Verdict.PARTIAL):
            return None
    else:
        cands = tiers.candidates(f.claim.text, src, None, identifier_terms(f.claim))
        j = tiers.offline_judge(f.claim, cands, cite.signal)
        if j.evidence is None or _RANK.get(j.verdict, -1) <= _RANK[f.verdict] or j.verdict not in (Verdict.SUPPORTED, Verdict.PARTIAL):
            return None
        ev, verdict, tier = j.evidence, j.verdict, j.tier.value
    page = ev.passage.page_label or str(ev.passage.page)
    named = {str(n) for n in cite.locator.pages()}
    if page in named or str(ev.passage.page) in named and not ev.passage.page_label:
        return None
    new = page_locator(ev)
    if not new.startswith("pp."):
        new = corrected_locator(cite.locator.raw, page)
    s = suggestion("locator", cite.citekey, ev, verdict, tier, new)
    s["old_locator"] = cite.locator.raw
    s["message"] = f"the words stand on {ev.passage.where()}, not {cite.locator.raw}: did you mean [@{cite.citekey}, {new}]? ({verdict.value} there, {tier} tier)"
    return s


def locator_patch(document: Path, findings: list[Finding], label: str | None = None) -> tuple[str, int]:
    """A unified diff of ``document`` that applies every locator suggestion of ``findings``.

    Each fix replaces the old locator text after the citation's key, on the citation's line. A locator that
    cannot be found where the citation stands (the document changed since the check) is left alone.

    Args:
        document: the citing document (UTF-8 text: Markdown or LaTeX).
        findings: the run's findings.
        label: the file name the patch names (default: ``document`` as given).

    Returns:
        ``(patch text, number of fixes)``; the patch is '' when there is nothing to fix. ``patch -p0 < file`` or
        ``git apply`` applies it.
    """
    text = Path(document).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    fixes: dict[int, list[tuple[int, str, str]]] = {}
    for f in findings:
        for s in f.suggestions:
            if s.get("kind") == "locator" and f.citation.line and s.get("old_locator"):
                fixes.setdefault(f.citation.line, []).append((max(f.citation.column - 1, 0), s["old_locator"], s["locator"]))
    new_lines = list(lines)
    done = 0
    for line_no, items in fixes.items():
        if not 0 < line_no <= len(new_lines):
            continue
        line = new_lines[line_no - 1]
        for col, old, new in sorted(set(items), reverse=True):
            at = line.find(old, col)
            if at < 0:
                continue
            line = line[:at] + new + line[at + len(old):]
            done += 1
        new_lines[line_no - 1] = line
    if not done:
        return "", 0
    name = label or str(document)
    patch = "".join(difflib.unified_diff(lines, new_lines, fromfile=name, tofile=name))
    return patch, done
