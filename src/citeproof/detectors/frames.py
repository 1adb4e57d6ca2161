"""A name the source never writes, standing in the same words' company as a name it does (issue 28).

The word-by-word alignment of :mod:`citeproof.detectors.swaps` compares the claim with the one sentence that restates
it best; a claim drawn from two sentences, or whose swapped name stands in a clause another sentence holds, escapes
it. Here the frame is the words around the name: "households in Chiang Mai, Thailand" for "households in Bangkok,
Thailand"; "correlated .80 with a longer criterion measure, the Locke-Wallace Marital Adjustment Test" for "... a
longer criterion measure, the Dyadic Adjustment Scale" (a 164th trial: both *partial* on the judge alone). Code shows
it: confidence 0.9, ``proven``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from citeproof.detectors.lexicon import VOCABULARY
from citeproof.detectors.terms import same_term
from citeproof.model import TagEvidence
from citeproof.text.normalise import STOPWORDS, WORD_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import overlap_score, stem_opcodes

__all__ = ["initials", "member_of_another_kind", "name_in_frame", "run_swapped"]

_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,4}"
_CLAIM_NAME = re.compile(r"(?<![\w'-])" + _NAME)
_FRAME_WORD = re.compile(r"[A-Za-z][\w-]*")


def _telling(words: list[str]) -> bool:
    """At least one word of four letters or more that is no stop word: a frame that says something."""
    return any(len(w) >= 4 and w.lower() not in STOPWORDS for w in words)


def name_in_frame(claim_text: str, source_text: str) -> TagEvidence | None:
    """A capitalised name of the claim (one to five words, not the claim's first word) that the source writes nowhere,
    where the source has another capitalised name, which the claim writes nowhere, in the same frame: right after the
    same three words (one of them telling: four letters or more, no stop word), or right before the same comma and
    telling word (*, Thailand*). Not a name and its abbreviation (:func:`~citeproof.detectors.terms.same_term`).

    Args:
        claim_text: the claim.
        source_text: the whole source.

    Returns:
        ``TagEvidence(claim's name, source's name)``, or None.
    """
    if not source_text:
        return None
    low_claim = claim_text.lower()
    squashed = _squash(source_text)
    for m in _CLAIM_NAME.finditer(claim_text):
        name = m.group(0)
        parts = [p for p in re.split(r"[-/]", name.split()[0]) if p]
        first_word = name.split()[0]
        if (m.start() == 0 or re.search(rf"(?<![\w-]){re.escape(first_word)}(?![\w-])", source_text, re.I)
                or _squash(name) in squashed or len(name) < 3 or _CITED.match(claim_text, m.end())
                or all(re.search(rf"\b{re.escape(p)}\b", source_text, re.I) for p in parts)  # "DSS-colitis" / "DSS"
                or _OPENS.search(claim_text[:m.start()])):
            continue  # (not an author cited, "Baldridge et al. showed", nor a sentence's or clause's first word)
        lead = _FRAME_WORD.findall(claim_text[:m.start()])[-3:]
        after = re.match(r"\s*,\s*([A-Za-z][\w-]+)", claim_text[m.end():])
        frames = []
        if len(lead) == 3 and sum(len(w) >= 4 and w.lower() not in STOPWORDS for w in lead) >= 2:
            frames.append(r"(?i:\b" + r"\W+".join(map(re.escape, lead)) + r")\W+(?P<n>" + _NAME + ")")
        if after and _telling([after.group(1)]):
            frames.append(r"(?<=[a-z,] )(?P<n>" + _NAME + r")\s*,\s*" + re.escape(after.group(1)) + r"\b")
        first = re.split(r"[\s-]+", name)[0].lower()
        for frame in frames:
            for hit in re.finditer(frame, source_text):
                theirs = hit.group("n")
                if (not theirs[:1].isupper() or theirs.split()[0].lower() in low_claim
                        or re.split(r"[\s-]+", theirs)[0].lower() == first):
                    continue  # (the first part shared is one name written otherwise: "HIV-infected" / "HIV-positive")
                if (same_term(name.split(), theirs.split(), source_text) or not WORD_RE.search(theirs)
                        or initials(name, theirs) or initials(theirs, name) or fuzz.ratio(name, theirs) >= 75):
                    continue  # (a short form, "RTT" / "Rett"; one name spelt otherwise, "Nx16" / "N16")
                said = " ".join(hit.group(0).split())
                sentence = next((x for x in split_sentences(source_text) if said in x), said)
                if overlap_score(claim_text, sentence) < FRAME_AT:
                    continue  # the frame's words by chance in a sentence about something else
                return TagEvidence(name, theirs)
    return None


FRAME_AT = 0.3
"""Least share of the claim's content words (:func:`~citeproof.text.stems.overlap_score`) the sentence holding the
source's name must hold."""
_CITED = re.compile(r"\s+(?:et al\b|and [A-Z]\w+ \(|\(\d{4}|,? \d{4}\b)")
_OPENS = re.compile(r"(?:^|[.;:!?]\s*|\(\s*)$")


@lru_cache(maxsize=16)
def _squash(text: str) -> str:
    """``text`` in lower case with everything but letters and digits left out ("DSS-colitis" / "DSS colitis")."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def initials(short: str, long: str) -> bool:
    """``short`` is written in capitals (two to six letters) whose letters stand in ``long`` in order, the first
    first: "RTT" / "Rett", "IFN" / "Interferon". Case is ignored in ``long``. Returns False for anything else."""
    if not (short.isupper() and short.isalpha() and 2 <= len(short) <= 6) or short[0].lower() != long[:1].lower():
        return False
    rest = iter(long.lower())
    return all(c in rest for c in short.lower())


_EXAMPLES = re.compile(r"(?P<kind>[A-Za-z][\w-]{3,})\s*(?:\(\s*)?(?:such as|including|e\.g\.,?)\s+(?P<items>[^.;:()]{2,200})",
                       re.I)
"""A kind and the members it is given (*flavanones (e.g., naringenin, hesperidin)*, *flavanones such as naringenin*)."""


_EXAMPLE_WORDS = re.compile(r"such as|including|e\.g\.", re.I)


@lru_cache(maxsize=16)
def _kinds_in(source_text: str) -> dict[str, frozenset[str]]:
    """Each kind the source gives members (lower case) -> those members; read once per source (a regex over the whole
    source per claim had cost the demo 1 s)."""
    kinds: dict[str, set[str]] = {}
    for m in _EXAMPLES.finditer(source_text):
        kinds.setdefault(m.group("kind").lower(), set()).update(_members(m.group("items")))
    return {k: frozenset(v) for k, v in kinds.items()}


def _members(items: str) -> list[str]:
    return [w.strip().lower() for w in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", items) if w.strip()]


def member_of_another_kind(claim_text: str, source_text: str) -> TagEvidence | None:
    """A member the claim gives a kind (*Flavanones such as naringenin and genistein*) that the source gives another
    kind (*isoflavones (e.g., genistein, daidzein)*), the source naming the claim's kind with other members
    (*flavanones (e.g., naringenin, hesperidin)*): a 174th trial's *supported* at 0.94. ``TagEvidence(member, the
    source's kind)``, or None."""
    if not source_text or not _EXAMPLE_WORDS.search(claim_text):
        return None
    kinds = _kinds_in(source_text)
    for m in _EXAMPLES.finditer(claim_text):
        kind = m.group("kind").lower()
        own = kinds.get(kind)
        if not own:
            continue
        for member in (w if len(w.split()) <= 2 else w.split()[0] for w in _members(m.group("items"))):
            # (a claim's last member runs on into its verb: "naringenin and genistein form one of ...")
            if member in own:
                continue
            other = next((k for k, got in kinds.items() if k != kind and member in got), None)
            if other is not None:
                return TagEvidence(f"{m.group('kind')} ... {member}", f"{other} ... {member}")
    return None


def run_swapped(claim_text: str, sent: str, source_text: str) -> TagEvidence | None:
    """A run of one to three claim words in the place of one to four words of the sentence restating it, with the
    same two words or more on each side, where no content word of the claim's run stands anywhere in the source and
    no content word of the sentence's run in the claim: "for high-throughput microarray and mass spectrometry
    proteomics data sets" for "... microarray and next-generation sequence functional genomic data sets" (a 179th
    trial: *supported* at P(entails) 0.89; the word diff reads swaps of one or two words only).

    Returns:
        The claim's run and the sentence's, or None.
    """
    cw, sw = WORD_RE.findall(claim_text), WORD_RE.findall(sent)
    written = {stem(w.lower()) for w in WORD_RE.findall(source_text or sent)}
    own = {stem(w.lower()) for w in cw}
    ops = stem_opcodes(cw, sw)
    for k, (t, i1, i2, j1, j2) in enumerate(ops):
        if t != "replace" or not (1 <= i2 - i1 <= 3 and 1 <= j2 - j1 <= 4) or not 0 < k < len(ops) - 1:
            continue
        if ops[k - 1][0] != "equal" or ops[k + 1][0] != "equal":
            continue
        if ops[k - 1][2] - ops[k - 1][1] < 2 or ops[k + 1][2] - ops[k + 1][1] < 2:
            continue
        mine = [w for w in cw[i1:i2] if len(w) >= 3 and w.lower() not in STOPWORDS]
        theirs = [w for w in sw[j1:j2] if len(w) >= 3 and w.lower() not in STOPWORDS]
        if any(a.lower()[:5] == b.lower()[:5] for a in mine for b in theirs) or any(
                w.lower() in VOCABULARY for w in cw[i1:i2] + sw[j1:j2]):
            continue  # one word in another form ("frequently diagnosed in" for "a common diagnosis among", a 108th
            # trial's faithful claim), or the paraphrase vocabulary (*data indicate* / *studies showing*, *causes* /
            # *leads to*: the term beside it is the swap, read by the word diff)
        if (len(mine) >= 2 and theirs and not any(stem(w.lower()) in written for w in mine)
                and not any(stem(w.lower()) in own for w in theirs)):
            return TagEvidence(" ".join(cw[i1:i2]), " ".join(sw[j1:j2]))
    return None
