"""``inconsistent_citations`` (issue 25, part 5): one work cited for incompatible facts.

Two sentences citing the same work are compared, whether or not its source could be read:

* **numbers**: each holds a percentage (or a multiplier) about the same thing, and the values differ beyond what
  their writing allows (25% and 40%). "The same thing" is at least :data:`SHARED_TERMS` content-word stems in
  common within :data:`WINDOW` words of the two numbers (``40% of researchers use Git`` and ``25% of researchers
  use Git``); only percentages and multipliers are read (a regular expression: the unit-aware number parser of
  :mod:`citeproof.detectors.numbers` loads pint, seconds on a warm run that judges nothing);
* **direction**: one says the work found a rise, the other a fall (or better/worse) of the same target, direction
  cues and their targets as :mod:`citeproof.detectors.polarity` finds them (a cue preceded by a negation counts
  for the opposite direction), and the two sentences share at least :data:`SHARED_TERMS` target stems.

For numbers, the work's own topic is not "the same thing": where at least :data:`TOPIC_MIN` sentences cite a
work, the content stems that more than half of them (and three at least) hold (*frequent headache* in every sentence citing a headache
survey) count half toward :data:`SHARED_TERMS` around two numbers (a new user's trial: 3 of 8 warnings paired
numbers such as "33% more common in Caucasians" and "25% of male frequent headache sufferers", alike only in the
work's topic). Directions keep the full count: there the clashing statement is often about the topic itself
("Transient upregulation of Nanog" / "a transient fall in Nanog", citing a Nanog paper), and the same discount lost
four true clashes in six trial drafts for the five it removed.

Each pair becomes one diagnostic with both lines, and each finding of the two sentences carries the other in
``inconsistencies``. No verdict changes: the source may be missing, and one of the two sentences is wrong or
they speak of different things; the author decides.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from typing import Any

from citeproof.detectors.quantities import _tol
from citeproof.detectors.polarity import _cues
from citeproof.model import Claim, Diagnostic, Finding
from citeproof.text.normalise import WORD_RE
from citeproof.text.stems import STOPWORDS, stem, stem_frequency

__all__ = ["inconsistent_pairs", "mark_inconsistencies", "topic_stems", "SHARED_TERMS", "TOPIC_MIN", "WINDOW"]

SHARED_TERMS = 2
"""Least content stems two statements share to be about the same thing."""

WINDOW = 6
"""Words either side of a number that say what it counts."""

TOPIC_MIN = 3
"""Least sentences citing one work for its topic words to be read off them (:func:`topic_stems`)."""

_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")


def _context(text: str, start: int, end: int) -> set[str]:
    before = _WORD.findall(text[:start])[-WINDOW:]
    after = _WORD.findall(text[end:])[:WINDOW]
    return {stem(w.lower())[:6] for w in before + after if w.lower() not in STOPWORDS and len(w) >= 3}


def topic_stems(texts: list[str]) -> frozenset[str]:
    """The content stems that more than half of ``texts`` and at least :data:`TOPIC_MIN` of them hold.

    Args:
        texts: the sentences citing one work.

    Returns:
        Stems as :func:`citeproof.text.stems.content_stems` writes them (lower case, full length); empty for fewer than
        :data:`TOPIC_MIN` sentences (two sentences cannot tell a topic from a shared subject: "68.9%" and "45% of
        all scholarly articles with DOIs", two of three sentences citing the Sci-Hub study, are one subject).
    """
    if len(texts) < TOPIC_MIN:
        return frozenset()
    return frozenset(s for s, n in stem_frequency(texts).items() if n * 2 > len(texts) and n >= TOPIC_MIN)


def _shared(x: set[str], y: set[str], topic: frozenset[str], cut: int) -> float:
    """How many stems (cut to ``cut`` letters) ``x`` and ``y`` share, one of the work's ``topic`` stems counting half."""
    off = {t[:cut] for t in topic}
    both = x & y
    return len(both - off) + 0.5 * len(both & off)


_SHARE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b|-?fold\b|×|x\b)")


@lru_cache(maxsize=4096)
def _shares(text: str) -> list[tuple[float, float, str, int, int]]:
    """Percentages and multipliers: ``(value, tolerance, unit, start, end)``; the tolerance is half the last
    written digit (``68.9%`` +- 0.05), as :func:`citeproof.detectors.quantities._tol` reads a number."""
    out = []
    for m in _SHARE.finditer(text):
        unit = "%" if m.group(2).startswith(("%", "per")) else "x"
        out.append((float(m.group(1)), _tol(m.group(1)), unit, m.start(), m.end()))
    return out


def _number_clash(a: str, b: str, topic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    for va, ta, ua, sa, ea in _shares(a):
        ca = _context(a, sa, ea)
        for vb, tb, ub, sb, eb in _shares(b):
            if ub != ua or _shared(ca, _context(b, sb, eb), topic, 6) < SHARED_TERMS:
                continue
            if abs(va - vb) > ta + tb:
                return a[sa:ea], b[sb:eb]
    return None


@lru_cache(maxsize=4096)
def _cues_of(text: str) -> list:
    return _cues(text)


def _direction_clash(a: str, b: str) -> tuple[str, str] | None:
    """Opposite direction cues on one target, each sentence's cue absent from the other on that target: "a faster
    decline in lung function" holds both an *up* and a *down* cue, so it clashes with neither "a faster decline in
    memory function" nor "speeds up the loss of lung function"."""
    opposite = {"up": "down", "down": "up", "good": "bad", "bad": "good"}
    cues_a, cues_b = _cues_of(a), _cues_of(b)

    def holds(cues: list, cls: str, tgt: set[str]) -> bool:
        return any(c[0] == cls and len(c[3] & tgt) >= SHARED_TERMS for c in cues)

    toks_a, toks_b = _tokens(a), _tokens(b)
    for cls, shown, i, tgt, *_ in cues_a:
        for cls_b, shown_b, j, tgt_b, *_ in cues_b:
            if (cls_b == opposite[cls] and len(tgt & tgt_b) >= SHARED_TERMS
                    and not holds(cues_b, cls, tgt) and not holds(cues_a, cls_b, tgt_b)
                    and _what(toks_a, i) & _what(toks_b, j)):
                return shown, shown_b
    return None


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(m.group(0) for m in WORD_RE.finditer(text))


_COMPARATIVE = re.compile(r"(?:high|low|larg|small|great|long|short|strong|weak|fast|slow)er$|more|less|fewer", re.I)


def _what(toks: tuple[str, ...], k: int) -> set[str]:
    """The stems of what the cue at ``toks[k]`` turns: the first two content words after it ("reduced *high-fat diet
    intake*", "the lower *energy expenditure*"), or before a comparative that follows its noun ("*arterial compliance*
    was higher", "*consumed* more"). Two cues clash only on a common one
    (trial drafts: "higher" lesion size against "smaller" plaque area, a training "gain" against attenuated
    "reductions", 18 warnings on one draft, most of them about different things)."""
    out: set[str] = set()
    attributive = k == 0 or toks[k - 1].lower() in ("the", "a", "an", "its", "their", "his", "her")
    for step in ((-1,) if _COMPARATIVE.fullmatch(toks[k]) and not attributive else (1,)):
        got, j = 0, k + step
        while 0 <= j < len(toks) and abs(j - k) <= 5 and got < 2:
            w = toks[j].lower()
            if w not in STOPWORDS and len(w) >= 3:
                out.add(stem(w)[:5])
                got += 1
            j += step
    return out


def inconsistent_pairs(claims: list[Claim]) -> list[dict[str, Any]]:
    """Pairs of sentences that cite one work for incompatible facts.

    Args:
        claims: the document's claims (one sentence each, with its citations).

    Returns:
        ``[{"kind": "number" | "direction", "citekey", "a": Claim, "b": Claim, "this", "other"}]`` in document
        order, ``this``/``other`` the clashing words of ``a`` and ``b``. A sentence is never compared with itself;
        two sentences with the same text are not compared; around two numbers the work's topic words
        (:func:`topic_stems` of the sentences citing it) count half.
    """
    by_key: dict[str, list[Claim]] = defaultdict(list)
    for cl in claims:
        for key in dict.fromkeys(c.citekey for c in cl.citations):
            by_key[key].append(cl)
    out: list[dict[str, Any]] = []
    for key, group in by_key.items():
        topic = topic_stems([cl.text for cl in group])
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if a.id == b.id or a.text == b.text:
                    continue
                for kind, fn in (("number", lambda x, y: _number_clash(x, y, topic)), ("direction", _direction_clash)):
                    hit = fn(a.text, b.text)
                    if hit:
                        out.append({"kind": kind, "citekey": key, "a": a, "b": b, "this": hit[0], "other": hit[1]})
                        break
    return out


def _checked(a: Claim, b: Claim, key: str, by_claim: dict) -> str:
    """"; checked against the source: line 7 supported, line 9 contradicted" when both sentences were judged against
    the work (a new user could not tell which of the two the source bears out); "" otherwise."""
    verdicts = []
    for cl in (a, b):
        found = by_claim.get((cl.id, key))
        if not found or found[0].verdict.value in ("unverifiable", "error"):
            return ""
        verdicts.append(f"line {_at(cl, key)} {found[0].verdict.value}")
    return "; checked against the source: " + ", ".join(verdicts)


def _cite(claim: Claim, key: str):
    """The claim's citation of ``key``, or None."""
    return next((c for c in claim.citations if c.citekey == key), None)


def _column(claim: Claim, key: str) -> int:
    """Column (from 1) of the claim's citation of ``key`` on the claim's first line, or 0 where the reader knows none
    or the citation stands on a later line."""
    return next((c.column for c in claim.citations if c.citekey == key and c.line == claim.line), 0)


def _at(claim: Claim, key: str) -> str:
    """``12:48``, the line and column of the claim's citation of ``key``, or the claim's line where no column is
    known: two claims of one paragraph written on one line are told apart (session 24: every new-user trial asked
    for it)."""
    c = _cite(claim, key)
    return f"{c.line}:{c.column}" if c is not None and c.line and c.column else str(claim.line)


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
        msg = (f"{a.document}:{_at(a, key)} and line {_at(b, key)} cite '{key}' for incompatible {what}: "
               f"\u201c{p['this']}\u201d vs \u201c{p['other']}\u201d; one of them misreports the work, or they speak of different things"
               + _checked(a, b, key, by_claim))
        diags.append(Diagnostic("inconsistent_citations", "warning", msg, a.document, a.line))
        for this, other, mine, theirs in ((a, b, p["this"], p["other"]), (b, a, p["other"], p["this"])):
            for f in by_claim.get((this.id, key), []):
                f.inconsistencies.append({"kind": p["kind"], "citekey": key, "line": this.line, "column": _column(this, key),
                                          "other_line": other.line, "other_column": _column(other, key),
                                          "other_claim": other.text, "this": mine, "other": theirs,
                                          "message": f"line {_at(other, key)} cites the same work for \u201c{theirs}\u201d where this sentence says \u201c{mine}\u201d"})
    return diags
