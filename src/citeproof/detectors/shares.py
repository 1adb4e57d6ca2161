"""Shares named in a respective list: "bleaching caused most of the loss" against "cyclones, starfish and
bleaching accounted for 48%, 42% and 10% of the losses".

A claim that gives one factor *most* (the majority, more than half) of something, or calls it the *main*
(leading, primary, largest) cause, is checked against a sentence of the source that lists factors and their
shares in the same order ("A, B and C accounted for 48%, 42% and 10%", the *respectively* construction).
When the claim's factor is in that list, code proves the difference: a share under 50% is not *most*, and a
share below another factor's is not the *main* one. The tag is ``number_drift`` (a quantity of the claim,
here a word, differs from the source's), confidence 0.9.
"""

from __future__ import annotations

import re

from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import tokens

__all__ = ["detect_share_drift", "respective_shares"]

_VERB = r"(?:caused|cause|causes|accounted\s+for|account\s+for|accounts\s+for|explained|explains|contributed|contribute|" \
        r"were\s+responsible\s+for|was\s+responsible\s+for|made\s+up|represented|drove|drive)"
_MOST_RE = re.compile(
    rf"(?P<item>[A-Za-z][\w\- ]{{2,60}}?)\s+{_VERB}\s+(?P<q>most|the\s+majority|the\s+bulk|more\s+than\s+half|over\s+half|"
    r"the\s+greatest\s+share|the\s+largest\s+share)\b", re.I)
_MAIN_RE = re.compile(
    r"(?P<item>[A-Za-z][\w\- ]{2,60}?)\s+(?:is|was|are|were|remains?)\s+the\s+(?P<q>main|leading|primary|principal|"
    r"largest|biggest|major|dominant)\s+(?:cause|driver|contributor|source|factor|reason)\b", re.I)
_PCT = r"\d+(?:\.\d+)?\s*%"
_LIST_RE = re.compile(
    rf"(?P<items>[^.;:]{{3,300}}?)\s+{_VERB}\s+(?:about\s+|approximately\s+|roughly\s+)?(?P<nums>{_PCT}(?:\s*,\s*{_PCT})*,?\s+(?:and|&)\s+{_PCT})",
    re.I)


def respective_shares(sentence: str) -> list[tuple[str, float]]:
    """Factors and their shares from a respective list in ``sentence``.

    ``"Tropical cyclones, coral predation by crown-of-thorns starfish (COTS), and coral bleaching accounted for
    48%, 42%, and 10% of the respective estimated losses"`` -> ``[("Tropical cyclones", 48.0), ("coral predation by
    crown-of-thorns starfish (COTS)", 42.0), ("coral bleaching", 10.0)]``.

    Args:
        sentence: one sentence.

    Returns:
        ``(factor, percent)`` pairs in order; ``[]`` when no list with as many factors as shares is found.
    """
    m = _LIST_RE.search(sentence)
    if not m:
        return []
    nums = [float(x.replace("%", "").strip()) for x in re.findall(_PCT, m.group("nums"))]
    items = [i.strip(" ,") for i in re.split(r",\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", m.group("items")) if i.strip(" ,")]
    if len(items) < len(nums):
        return []
    items = items[-len(nums):]
    # the first factor may carry the sentence's opening words ("Of the losses, cyclones ..."): keep its last 8 words
    items[0] = " ".join(items[0].split()[-8:])
    return list(zip(items, nums))


def _overlap(claim_item: str, factor: str) -> int:
    c = {stem(t) for t in tokens(claim_item) if len(t) >= 4}
    f = {stem(t) for t in tokens(factor) if len(t) >= 4}
    return len(c & f)


def detect_share_drift(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``number_drift`` when the claim gives a factor *most* or the *main* share and the source's list does not.

    Args:
        claim_text: the claim.
        evidence_text: the best evidence passage, or None.
        **context: ``source_text`` (str): its sentences are searched too (the list need not be in the evidence).

    Returns:
        At most one ``number_drift`` tag (0.9) whose span pairs the claim's word (``most``) with the factor's
        share in the source (``bleaching 10%``).
    """
    m = _MOST_RE.search(claim_text) or _MAIN_RE.search(claim_text)
    if not m:
        return []
    words = m.group("item").split()
    item = " ".join(words[-4:])
    majority = m.re is _MOST_RE
    text = " ".join(t for t in (evidence_text or "", context.get("source_text") or "") if t)
    for sent in split_sentences(text):
        shares = respective_shares(sent)
        scored = sorted(((_overlap(item, f), f, p) for f, p in shares), reverse=True)
        if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            continue  # the claim's factor is not in this list, or not told apart from another
        _, factor, pct = scored[0]
        top = max(p for _, p in shares)
        wrong = pct < 50.0 if majority else pct < top
        if not wrong:
            return []
        listing = ", ".join(f"{f} {p:g}%" for f, p in shares)
        what = "more than half" if majority else "the largest share"
        msg = (f"The claim says {m.group('q')!r} ({what}) for {item!r}, where the source gives it {pct:g}% "
               f"({listing}).")
        return [Tag("number_drift", msg, 0.9, (TagEvidence(m.group("q"), f"{factor} {pct:g}%"),), proven=True)]
    return []
