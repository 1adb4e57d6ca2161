"""The sentence a finding names as judged, and the network's P(entails) / P(contradicts) of it (issue 28: "each finding
names the sentence that was judged"), kept with the evidence shown. Read by :mod:`citeproof.judges.policy`."""

from __future__ import annotations

from citeproof.judges.base import Judgement
from citeproof.model import Evidence

__all__ = ["judged_sentence", "judged_in", "restating_read"]


def _said(sentence: str, pe: float, pc: float, page: int | None) -> str:
    quote = sentence if len(sentence) <= 240 else sentence[:237] + "..."
    where = f" (page {page})" if page else ""
    return f"judged sentence{where}: \u201c{quote}\u201d network P(entails) {pe:.2f}, P(contradicts) {pc:.2f}"


def judged_sentence(j: Judgement) -> str:
    """The sentence the entailment judge read, with the network's P(entails) / P(contradicts) of it, for a finding's reasons.

    (The verdict's own confidence is the calibrated judge's, over every sentence read: the reasons say "calibrated
    confidence" for it, so the two figures are not taken for one.)

    ``""`` when ``j`` carries no scored sentence (the lexical tier, or nothing retrieved).
    """
    ev = j.evidence
    if ev is None or not ev.sentence or "entails" not in ev.scores:
        return ""
    return _said(ev.sentence, ev.scores["entails"], ev.scores.get("contradicts", 0.0), ev.passage.page)


def judged_in(ev: Evidence | None, j: Judgement) -> str:
    """:func:`judged_sentence` for a finding whose evidence shown is ``ev``: the judge's reading of the sentence of
    ``ev`` that restates the claim (:attr:`~citeproof.judges.base.Judgement.restating`) when the sentence the judge
    scored highest lies in another passage, so the sentence named is in the passage shown.

    A verdict the words decided (*partial*: "the claim's words were found, but the meaning was not confirmed") keeps
    the lexical passage; the judge's highest sentence was then often about something else ("These modifications are
    required for ..." named for a claim restating "To date, however, the information available about these
    modifications has been incomplete", a 77th trial), and users of every trial found the sentence named was not the
    one shown. Where ``ev`` holds neither, :func:`judged_sentence` says that the sentence stands elsewhere, and
    where.
    """
    named = judged_sentence(j)
    if ev is None or j.evidence is None or not named:
        return named
    text = " ".join(ev.passage.text.split())
    if j.evidence.sentence and " ".join(j.evidence.sentence.split()) in text:
        return named
    if j.restating is not None and " ".join(j.restating[0].split()) in text:
        return _said(j.restating[0], j.restating[1], j.restating[2], ev.passage.page)
    p = j.evidence.passage
    where = p.where() or (f"line {p.line}" if p.line else "")
    return named + f" (a sentence {'on ' + where + ', ' if where.startswith('page') else ('at ' + where + ', ' if where else '')}" \
        "not in the passage shown, which holds the claim's words)"


def restating_read(ev: Evidence | None, j: Judgement) -> str:
    """:func:`judged_sentence` for a finding whose judge's *contradicted* the policy did not let stand (the source turns
    what the claim turns the same way, the contradiction fell on a sentence about something else, or the sentence
    restating the claim reads far less contradicted): the network's reading of the sentence that restates the claim
    (:attr:`~citeproof.judges.base.Judgement.restating`), the one the finding's *partial* rests on. The sentence the
    network had scored highest was often one the claim barely touches ("... except for less aspirin (P<0.01) ..."
    named for a claim on the primary factor of physicians' recommendations, P(contradicts) 0.24: a 103rd trial's user
    read it as "an unrelated sentence"). :func:`judged_in` when the judge holds no restating sentence."""
    if j.restating is None or not j.restating[0]:
        return judged_in(ev, j)
    page = getattr(getattr(ev, "passage", None), "page", None)
    return _said(j.restating[0], j.restating[1], j.restating[2], page)
