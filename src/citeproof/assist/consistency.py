"""``inconsistent_citations`` (issue 25, part 5): one work cited for incompatible facts.

Two sentences citing the same work are compared, whether or not its source could be read:

* **numbers**: each holds a percentage (or a multiplier) about the same thing, and the values differ beyond what
  their writing allows (25% and 40%). "The same thing" is at least :data:`SHARED_TERMS` content-word stems in
  common within :data:`WINDOW` words of the two numbers (``40% of researchers use Git`` and ``25% of researchers
  use Git``), numbers parsed by :func:`citeproof.detectors.numbers.extract_quantities`;
* **direction**: one says the work found a rise, the other a fall (or better/worse) of the same target, direction
  cues and their targets as :mod:`citeproof.detectors.polarity` finds them (a cue preceded by a negation counts
  for the opposite direction), and the two sentences share at least :data:`SHARED_TERMS` target stems.

Each pair becomes one diagnostic with both lines, and each finding of the two sentences carries the other in
``inconsistencies``. No verdict changes: the source may be missing, and one of the two sentences is wrong or
they speak of different things; the author decides.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from citeproof.detectors.numbers import extract_quantities, quantities_match
from citeproof.detectors.polarity import _cues
from citeproof.model import Claim, Diagnostic, Finding
from citeproof.text.stems import STOPWORDS, stem

__all__ = ["inconsistent_pairs", "mark_inconsistencies", "SHARED_TERMS", "WINDOW"]

SHARED_TERMS = 2
"""Least content stems two statements share to be about the same thing."""

WINDOW = 6
"""Words either side of a number that say what it counts."""

_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")


def _context(text: str, start: int, end: int) -> set[str]:
    before = _WORD.findall(text[:start])[-WINDOW:]
    after = _WORD.findall(text[end:])[:WINDOW]
    return {stem(w.lower())[:6] for w in before + after if w.lower() not in STOPWORDS and len(w) >= 3}


def _number_clash(a: str, b: str) -> tuple[str, str] | None:
    for qa in extract_quantities(a):
        if qa.unit not in ("%", "x"):
            continue
        ca = _context(a, qa.start, qa.end)
        for qb in extract_quantities(b):
            if qb.unit != qa.unit:
                continue
            if len(ca & _context(b, qb.start, qb.end)) < SHARED_TERMS:
                continue
            if not quantities_match(qa, qb) and not quantities_match(qb, qa):
                return qa.text, qb.text
    return None


def _direction_clash(a: str, b: str) -> tuple[str, str] | None:
    opposite = {"up": "down", "down": "up", "good": "bad", "bad": "good"}
    cues_b = _cues(b)
    for cls, shown, _i, tgt, *_ in _cues(a):
        for cls_b, shown_b, _j, tgt_b, *_ in cues_b:
            if cls_b == opposite[cls] and len(tgt & tgt_b) >= SHARED_TERMS:
                return shown, shown_b
    return None


def inconsistent_pairs(claims: list[Claim]) -> list[dict[str, Any]]:
    """Pairs of sentences that cite one work for incompatible facts.

    Args:
        claims: the document's claims (one sentence each, with its citations).

    Returns:
        ``[{"kind": "number" | "direction", "citekey", "a": Claim, "b": Claim, "this", "other"}]`` in document
        order, ``this``/``other`` the clashing words of ``a`` and ``b``. A sentence is never compared with itself;
        two sentences with the same text are not compared.
    """
    by_key: dict[str, list[Claim]] = defaultdict(list)
    for cl in claims:
        for key in dict.fromkeys(c.citekey for c in cl.citations):
            by_key[key].append(cl)
    out: list[dict[str, Any]] = []
    for key, group in by_key.items():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if a.id == b.id or a.text == b.text:
                    continue
                for kind, fn in (("number", _number_clash), ("direction", _direction_clash)):
                    hit = fn(a.text, b.text)
                    if hit:
                        out.append({"kind": kind, "citekey": key, "a": a, "b": b, "this": hit[0], "other": hit[1]})
                        break
    return out


def mark_inconsistencies(claims: list[Claim], findings: list[Finding]) -> list[Diagnostic]:
    """Find the pairs (:func:`inconsistent_pairs`), record each on the findings of both sentences, and return one
    ``inconsistent_citations`` diagnostic (severity ``warning``) per pair naming both lines."""
    diags: list[Diagnostic] = []
    by_claim: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in findings:
        by_claim[(f.claim.id, f.citation.citekey)].append(f)
    for p in inconsistent_pairs(claims):
        a, b, key = p["a"], p["b"], p["citekey"]
        what = "numbers" if p["kind"] == "number" else "directions"
        msg = (f"{a.document}:{a.line} and line {b.line} cite '{key}' for incompatible {what}: "
               f"\u201c{p['this']}\u201d vs \u201c{p['other']}\u201d; one of them misreports the work, or they speak of different things")
        diags.append(Diagnostic("inconsistent_citations", "warning", msg, a.document, a.line))
        for this, other, mine, theirs in ((a, b, p["this"], p["other"]), (b, a, p["other"], p["this"])):
            for f in by_claim.get((this.id, key), []):
                f.inconsistencies.append({"kind": p["kind"], "citekey": key, "line": this.line, "other_line": other.line,
                                          "other_claim": other.text, "this": mine, "other": theirs,
                                          "message": f"line {other.line} cites the same work for \u201c{theirs}\u201d where this sentence says \u201c{mine}\u201d"})
    return diags
