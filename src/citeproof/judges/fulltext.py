"""Full-text sources: the entailment tier's decision with retrieval-strength features, one code path.

For an abstract, the entailment tier scores the sentences of the candidate
passages and its default decision layer (fitted on SciFact) decides. For a
full article, retrieval is the bottleneck (issue 16, part 6): whether the
claim is in a 500-sentence article at all is better told by how strongly the
article answers to it (best BM25 score and its margin, claim-word coverage by
the retrieved sentences and by the whole text, share of entailing sentences;
:mod:`citeproof.judges.strength`) than by the network's view of the closest
sentence. This module is the one place that judges a claim that way:

* :func:`score_full_text` ranks every sentence of the source by BM25, has the
  network score the profile's first ``top_k``, builds the judge's 12 features
  plus the strength features and decides with the ``citation_integrity``
  profile of ``entailment.json`` (a multinomial LR over supported / partial /
  unsupported fitted on Citation-Integrity's training split by
  ``training/ci_fit.py``; nested cross-validated figures in ``MODEL_CARD.md``);
* ``citeproof eval citation-integrity`` (:func:`citeproof.eval.citation_integrity.score_claims`)
  and :func:`entailment_judgement` (a finding from it, used by ``eval planted``'s
  policy fit) both call it, on the same sentences (:func:`source_sentences`).

The pipeline does not use this layer yet (:meth:`citeproof.tiers.Tiers.offline_judge`):
on the generated scale job (``bench/make_job.py``, 100 citations of 50 real PDFs) it
agreed with 76 of 100 expected verdicts against the default layer's 90 (verbatim
source sentences supported 26/34 against 29/34; sentences from another PDF
rejected 21/33 against 28/33). Its profile was fitted on biomedical citing
sentences only; a profile fitted on more kinds of full text is the next step.

A source is a *full text* when it has at least :data:`FULL_TEXT_MIN_SENTENCES`
sentences outside its reference list; shorter sources (abstracts, web
snippets) keep the default decision layer, as do table rows and headings (the
layer was fitted on citing sentences) and a citation with a pinpoint page (its
candidates are confined to those pages, the whole-text features are not).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from citeproof.judges.base import Judgement
from citeproof.model import Claim, Evidence, Passage, Source, Tier, UnitKind, Verdict
from citeproof.retrieval.sentence_bm25 import BM25Index, order

__all__ = [
    "FULL_TEXT_MIN_SENTENCES",
    "PROFILE",
    "FullTextScore",
    "applies",
    "entailment_judgement",
    "full_text_profile",
    "profile_columns",
    "score_full_text",
    "source_sentences",
]

FULL_TEXT_MIN_SENTENCES = 80
"""Least sentences (of at least :data:`MIN_SENTENCE_CHARS` characters, outside the reference list) for a source
to be judged as a full text. SciFact's 5,183 abstracts have 2-69 such sentences (median 8); the 70
Citation-Integrity training full texts 102-1,089 (median 247): a line in the gap, not fitted."""

MIN_SENTENCE_CHARS = 20
"""Shorter sentences (headings, figure labels) are not ranked: as ``eval citation-integrity`` always cut them."""

PROFILE = "citation_integrity"
"""The profile of ``entailment.json`` used for full texts."""

DEFAULT_TOP_K = 8
"""Sentences judged per claim when the profile has no ``retrieval`` block."""


@dataclass
class FullTextScore:
    """One claim against one full text.

    Attributes:
        verdict: ``supported``, ``partial`` or ``unsupported`` (the profile's classes).
        probs: the profile's class probabilities, in ``classes`` order.
        classes: the profile's classes.
        top: indices (into the sentences) the network scored, best retrieved first.
        scores: the network's :class:`~citeproof.judges.entailment.SentenceScores` for ``top``.
        features: the ``(19,)`` row: 12 judge features, then the 7 strength features.
        bm25: each sentence's BM25 score for the claim.
    """

    verdict: str
    probs: np.ndarray
    classes: list[str]
    top: list[int]
    scores: object
    features: np.ndarray
    bm25: list[float]


def source_sentences(passages: Sequence[Passage], skip_sections: frozenset[str] | None = None) -> tuple[list[str], list[int]]:
    """The sentences of a source the full-text judge ranks, with the passage each comes from.

    Args:
        passages: the source's passages, in order.
        skip_sections: sections whose passages are not evidence (default: the
            reference list's, :data:`citeproof.retrieval.lexical.NON_EVIDENCE_SECTIONS`).

    Returns:
        ``(sentences, passage index of each)``: every passage cut by
        :func:`citeproof.judges.entailment.split_sentences`, sentences shorter
        than :data:`MIN_SENTENCE_CHARS` characters left out. For a plain text
        read by :func:`citeproof.sources.text.parse_text` these are exactly the
        sentences ``eval citation-integrity`` judged before this module.
    """
    from citeproof.judges.entailment import split_sentences
    from citeproof.retrieval.lexical import NON_EVIDENCE_SECTIONS

    skip = NON_EVIDENCE_SECTIONS if skip_sections is None else skip_sections
    sents: list[str] = []
    owner: list[int] = []
    for i, p in enumerate(passages):
        if p.section in skip:
            continue
        for s in _close_quotes(split_sentences(p.text)):
            if len(s) >= MIN_SENTENCE_CHARS:
                sents.append(s)
                owner.append(i)
    return sents, owner


def _open_quote(s: str) -> bool:
    return s.count("\u201c") > s.count("\u201d") or s.count('"') % 2 == 1


def _close_quotes(pieces: list[str]) -> list[str]:
    """Rejoin a sentence cut inside a quotation (``titled “Who’s downloading pirated papers?`` + ``Everyone” analyzed...``).

    A piece with an opening quotation mark left open is joined to the next piece of the same passage, until the
    quotation closes or the passage ends. (2 of the 19,848 Citation-Integrity training sentences are joined.)
    """
    out: list[str] = []
    buf = ""
    for piece in pieces:
        buf = f"{buf} {piece}" if buf else piece
        if not _open_quote(buf):
            out.append(buf)
            buf = ""
    if buf:
        out.append(buf)
    return out


def full_text_profile(config: dict) -> dict | None:
    """The ``citation_integrity`` profile of an ``entailment.json`` config, or None when it has none."""
    return (config.get("profiles") or {}).get(PROFILE)


def profile_columns(profile: dict) -> list[int]:
    """Indices into :attr:`FullTextScore.features` of the features ``profile`` was fitted on, in its order.

    Raises:
        ValueError: if the profile names a feature this module does not compute.
    """
    from citeproof.judges.entailment import FEATURE_NAMES
    from citeproof.judges.strength import STRENGTH_FEATURE_NAMES

    names = list(FEATURE_NAMES) + list(STRENGTH_FEATURE_NAMES)
    wanted = profile.get("features") or list(FEATURE_NAMES)
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise ValueError(f"the {PROFILE} profile names unknown features {unknown}; known: {names}")
    return [names.index(n) for n in wanted]


def score_full_text(claim_text: str, sentences: Sequence[str], index: BM25Index, judge, profile: dict | None,
                    signal: str | None = None, cosine: Sequence[float] | None = None,
                    dense_order: Sequence[int] | None = None, top_k: int | None = None) -> FullTextScore:
    """Rank, score and decide one claim against the sentences of one full text.

    Args:
        claim_text: the claim, citation markers removed.
        sentences: the source's sentences (:func:`source_sentences`).
        index: BM25 over ``sentences``.
        judge: an :class:`~citeproof.judges.entailment.EntailmentJudge` (its network scores the sentences).
        profile: the decision layer (:func:`full_text_profile`); its ``retrieval`` block's ``top_k``
            (default :data:`DEFAULT_TOP_K`) is how many sentences are scored. None: features only
            (``verdict`` is ``""``, ``probs`` empty), for fitting a decision layer.
        signal: the citation's signal (a relaxing one adds to the supported log-odds).
        cosine: each sentence's dense cosine to the claim, or None (BM25 alone).
        dense_order: sentence indices by cosine, best first; fused with BM25's order by
            reciprocal rank fusion (Cormack et al. 2009) when given.
        top_k: sentences to score, overriding the profile's.

    Returns:
        A :class:`FullTextScore`.
    """
    from citeproof.judges.entailment import decide, features
    from citeproof.judges.strength import strength_features
    from citeproof.retrieval.dense import reciprocal_rank_fusion

    k = top_k or int(((profile or {}).get("retrieval") or {}).get("top_k", DEFAULT_TOP_K))
    bm = index.scores(claim_text)
    rankings = [order(bm)] + ([list(dense_order)] if dense_order is not None else [])
    top = [i for i, _ in reciprocal_rank_fusion(rankings)][:k]
    sc = judge.score_sentences(claim_text, [[sentences[i]] for i in top])
    feats = np.concatenate([features(claim_text, sc), strength_features(claim_text, sentences, bm, cosine, top, sc.probs)])
    if profile is None:
        return FullTextScore("", np.zeros(0), [], top, sc, feats, bm)
    verdict, p = decide(feats[profile_columns(profile)], profile, signal)
    return FullTextScore(verdict, p, list(profile["classes"]), top, sc, feats, bm)


_INDEXES: OrderedDict[tuple, tuple[list[str], list[int], BM25Index]] = OrderedDict()


def _indexed(source: Source) -> tuple[list[str], list[int], BM25Index]:
    # a source without a digest is known by its passages' texts, not by id(): a freed source's id is reused, and a
    # later one had been given its sentences (an order-dependent test failure, 116 sentences read as 114)
    key = (source.sha256, len(source.passages), hash(tuple(p.text for p in source.passages)) if not source.sha256 else 0)
    if key not in _INDEXES:
        sents, owner = source_sentences(source.passages)
        _INDEXES[key] = (sents, owner, BM25Index(sents))
        while len(_INDEXES) > 32:
            _INDEXES.popitem(last=False)
    _INDEXES.move_to_end(key)
    return _INDEXES[key]


def applies(judge, claim: Claim, cands: Sequence[Evidence]) -> bool:
    """Whether :func:`entailment_judgement` judges this claim by the full-text decision layer.

    True when ``judge``'s config has a ``citation_integrity`` profile, the
    candidates' source has at least :data:`FULL_TEXT_MIN_SENTENCES` sentences
    (:func:`source_sentences`), the claim is prose (not a table row or a heading: the layer was fitted on
    citing sentences) and no citation of the claim names a page.
    """
    if full_text_profile(getattr(judge, "config", None) or {}) is None or not cands:
        return False
    if claim.kind in (UnitKind.TABLE_ROW, UnitKind.HEADING):  # the layer was fitted on citing sentences
        return False
    if any(c.locator is not None and c.locator.pages() for c in claim.citations):
        return False
    return len(_indexed(cands[0].source)[0]) >= FULL_TEXT_MIN_SENTENCES


def entailment_judgement(judge, claim: Claim, cands: Sequence[Evidence], signal: str | None) -> Judgement:
    """The entailment tier's judgement: by the full-text decision layer for a full text, else ``judge.judge``.

    Args:
        judge: the :class:`~citeproof.judges.entailment.EntailmentJudge`.
        claim: the claim (``claim.text`` is judged).
        cands: retrieval's candidates, best first, all from one source (may be empty).
        signal: the citation's signal, or None.

    Returns:
        A :class:`Judgement` with ``tier=Tier.ENTAILMENT``. For a full text
        (at least :data:`FULL_TEXT_MIN_SENTENCES` sentences, no pinpoint page,
        a ``citation_integrity`` profile in the judge's config): the verdict of
        :func:`score_full_text`, its confidence the profile's probability of
        that verdict, its evidence the passage of the sentence with the highest
        P(entails) (``unsupported``: the highest of P(entails), P(contradicts)),
        and a reason naming the retrieval strength. Otherwise exactly
        ``judge.judge(claim, cands, signal)``.
    """
    if not applies(judge, claim, cands):
        return judge.judge(claim, cands, signal)
    profile = full_text_profile(judge.config)
    source = cands[0].source
    sents, owner, index = _indexed(source)
    r = score_full_text(claim.text, sents, index, judge, profile, signal)
    probs = r.scores.probs
    if len(probs) == 0:
        return judge.judge(claim, cands, signal)
    col = np.maximum(probs[:, 0], probs[:, 2]) if r.verdict == "unsupported" else probs[:, 0]
    best = int(np.argmax(col))
    sent_i = r.top[best]
    passage = source.passages[owner[sent_i]]
    ev = next((e for e in cands if e.passage.id == passage.id), None)
    ev = dataclasses.replace(ev, scores=dict(ev.scores)) if ev is not None else Evidence(passage=passage, source=source)
    pe, pn, pc = (float(v) for v in probs[best])
    ev.scores.update({"entails": round(pe, 4), "neutral": round(pn, 4), "contradicts": round(pc, 4),
                      "bm25": round(float(r.bm25[sent_i]), 4)})
    ev.sentence = sents[sent_i]
    conf = float(r.probs[r.classes.index(r.verdict)])
    quote = sents[sent_i] if len(sents[sent_i]) <= 300 else sents[sent_i][:297] + "..."
    cov_retrieved, cov_source = float(r.features[16]), float(r.features[17])
    strength = (f"the {len(r.top)} sentences BM25 ranks first of {len(sents)} hold {cov_retrieved:.0%} of the claim's "
                f"content words, the whole text {cov_source:.0%}")
    reason = {
        "supported": f"The full text supports the claim (P(entails) {pe:.2f}; {strength}): \u201c{quote}\u201d",
        "partial": f"The full text bears on the claim but does not state it as cited (P(entails) {pe:.2f}; {strength}): \u201c{quote}\u201d",
        "unsupported": f"The full text does not answer to the claim ({strength}; best P(entails) {float(r.features[0]):.2f}).",
    }[r.verdict]
    return Judgement(Verdict(r.verdict), pe, min(max(conf, 0.0), 1.0), ev, Tier.ENTAILMENT, [reason])
