"""Swaps the restating sentence hides by rewording: a claim word that stands, somewhere in the source, between the
claim's own two neighbours in another word's place (issue 28; moved out of :mod:`citeproof.detectors.swaps`, which
reads them only when the restating sentence shows no swap of its own)."""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.detectors.lexicon import DIRECTION
from citeproof.detectors.terms import _content, _is_verb, _related, _words
from citeproof.model import TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences

__all__ = ["SOURCE_COVER_AT", "SOURCE_SWAPS_MAX", "source_swaps"]


_ADVERB = re.compile(r"(?:al|ent|ant|ous|ive|e|ed|ing|ic|ar|t|ful|less|ible|able)ly$", re.I)
"""Adverbs (``subsequently``, ``markedly``): one for the source's word in its place is rewording, not a term."""

SOURCE_COVER_AT = 0.7
"""Least share of the claim's content words (by stem) the whole source must hold for :func:`source_swaps` to look."""


SOURCE_SWAPS_MAX = 5000
"""Longest source (characters, about an abstract) :func:`source_swaps` reads: in a full text some sentence holds the
claim's two neighbours around another word by chance. Measured with the whole source as evidence on the 1,736
faithful citations of the training splits (SciFact SUPPORT, Citation-Integrity ACCURATE): with no limit 21 more of
them were tagged (19 of them full texts), with this one 1, and the one generated swap it caught in ``eval meaning``
is kept."""


@lru_cache(maxsize=8)
def _trigram_index(source_text: str) -> tuple[frozenset, dict]:
    """The source's word stems as (pairs of neighbouring stems, {(left stem, right stem): {middle content word's
    stem: its first sentence}}), within sentences. Cached: one source serves many claims."""
    pairs: set[tuple[str, str]] = set()
    middles: dict[tuple[str, str], dict[str, str]] = {}
    for sent in split_sentences(source_text):
        ws = _words(sent)
        st = [stem(w) for w in ws]
        for k in range(len(ws) - 1):
            pairs.add((st[k], st[k + 1]))
            if k and _content(ws[k]):
                middles.setdefault((st[k - 1], st[k + 1]), {}).setdefault(st[k], sent)
    return frozenset(pairs), middles


def source_swaps(claim_text: str, source_text: str) -> list[tuple[TagEvidence, str]]:
    """Claim words that stand, somewhere in the source, between the claim's own two neighbours in another
    word's place: a swap the restating sentence hides by rewording ("Notch understanding occurs between" against
    the source's "Notch signaling occurs between").

    The claim word ``w`` (a content word, not a common verb, adverb or direction word) has content words ``u``
    and ``x`` on each side; the source never has ``u w`` nor ``w x`` (by stem) but has ``u v x`` where ``v`` is
    a content word absent from the claim and not related to ``w`` (:func:`_related`). Looked for only when the
    source holds at least :data:`SOURCE_COVER_AT` of the claim's content words (3 or more). Measured on the
    training splits (``docs/meaning.md``, 2026-12-05): one-word-swapped claims called *supported* 16.5% -> 15.5%
    of 200, no faithful citation's verdict changed, 2 of 100 untouched planted-benchmark citations hit (with one
    content neighbour enough: 14.5% of swaps but 14 of 100 untouched hit; not used). Sources longer than
    :data:`SOURCE_SWAPS_MAX` are not read.

    Args:
        claim_text: the claim.
        source_text: the whole source text.

    Returns:
        (:class:`TagEvidence` (claim word, the source's word in its place), the source sentence), in claim order.
    """
    cw = _words(claim_text)
    cs = [stem(w) for w in cw]
    content = [i for i, w in enumerate(cw) if _content(w)]
    if len(content) < 3 or not source_text or len(source_text) > SOURCE_SWAPS_MAX:
        return []
    pairs, middles = _trigram_index(source_text)
    known = {a for a, _ in pairs} | {b for _, b in pairs}
    if sum(cs[i] in known for i in content) < SOURCE_COVER_AT * len(content):
        return []
    claim_set = set(cs)
    out: list[tuple[TagEvidence, str]] = []
    for i in content:
        w = cw[i]
        if not 0 < i < len(cw) - 1 or cs[i] in DIRECTION or _is_verb(w) or _ADVERB.search(w):
            continue
        if not (_content(cw[i - 1]) and _content(cw[i + 1])):
            continue
        if (cs[i - 1], cs[i]) in pairs or (cs[i], cs[i + 1]) in pairs:
            continue
        for v, sent in middles.get((cs[i - 1], cs[i + 1]), {}).items():
            if v in claim_set or v in DIRECTION:
                continue
            shown = next((x for x in _words(sent) if stem(x) == v), v)
            if not _related([w], [shown], source_text):
                out.append((TagEvidence(w, shown), sent))
                break
    return out
