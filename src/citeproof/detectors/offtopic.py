"""``off_topic``: the best passage is no closer to the claim than the source's typical passage.

Tests: names (a claim naming genes, proteins, models or datasets such as
``Gpr124``, ``NF-κB``, ``SPPnet`` that the source never mentions is about
something else), an absolute floor on the best score, and a robust z-score of the best passage's score against all passage
scores of the same source (median and median absolute deviation, MAD x
1.4826 as a consistent estimate of the standard deviation; Rousseeuw &
Croux 1993); the floor is needed because a source in which nothing is close
has a small spread too.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from citeproof.text.stems import entity_tokens, overlap_score
from citeproof.model import Tag, TagEvidence

COMMON_ENTITIES = frozenset({"dna", "rna", "mrna", "hiv", "covid-19", "sars-cov-2", "ci", "or", "hr", "rr", "ii", "iii", "iv",
                             "us", "uk", "usa", "who", "ct", "mri", "pcr", "bmi", "icu", "il-6", "tnf"})

ABS_FLOOR = 0.2
"""Below this best score (share of claim content words found) the source is off topic whatever the spread."""
MIN_Z = 1.0
"""Least robust z-score for the best passage to stand out from the source's typical passage."""
CLEAR_SCORE = 0.3
"""At or above this best score the evidence is close enough whatever the spread."""


SHORT_SOURCE = 5000
"""Sources up to this many characters (abstracts, short notes) get the coverage test."""
MIN_COVERAGE = 0.4
"""Least share of the claim's content words that a short source must contain somewhere."""

_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "κ": "kappa", "λ": "lambda",
          "μ": "mu", "σ": "sigma", "τ": "tau", "ω": "omega", "ß": "beta"}


def _norm(text: str) -> str:
    """Lower case, Greek letters spelled out, everything but letters and digits removed."""
    t = text.lower()
    for g, name in _GREEK.items():
        t = t.replace(g, name)
    return re.sub(r"[^0-9a-z]", "", t)


def spelled_out(name: str, source_text: str) -> bool:
    """Whether ``source_text`` spells out the abbreviation ``name`` word by word (``T2D``: *type 2 diabetes*).

    Each letter of the name starts one word, in order, and each digit is a word
    of its own (the first-letter rule of Schwartz and Hearst, "A simple
    algorithm for identifying abbreviation definitions in biomedical text",
    PSB 2003, without the parenthesis). Only names of 2 to 6 letters and digits.
    """
    key = re.sub(r"[^0-9a-z]", "", name.lower())
    if not 2 <= len(key) <= 6 or not any(c.isalpha() for c in key):
        return False
    parts = [(c if c.isdigit() else c + r"[a-z]*") for c in key]
    return re.search(r"\b" + r"[\s-]+".join(parts) + r"\b", source_text.lower()) is not None


def detect_off_topic(claim_text: str, evidence_text: str | None, *, best_score: float | None = None,
                     scores: Sequence[float] = (), **context) -> list[Tag]:
    """Tag ``off_topic`` when the source is not about what the claim is about.

    Three tests, strongest first:

    1. names: the claim names entities (tokens with a digit or an inner
       capital: ``Gpr124``, ``MUC1-C``, ``NF-κB``) that the source never
       mentions, compared after lower-casing, spelling out Greek letters and
       dropping punctuation and a plural *s* (an abbreviation the claim
       defines itself, ``matrix metalloproteases (MMPs)``, does not count, nor
       one the source spells out, :func:`spelled_out`):
       more than half of two or more names missing, or
       the only one missing while no passage scores :data:`CLEAR_SCORE` or
       more (confidence 0.8);
    2. coverage: a short source (at most :data:`SHORT_SOURCE` characters,
       e.g. an abstract) contains, anywhere, less than :data:`MIN_COVERAGE`
       of the claim's content words (0.8; on SciFact training pairs 5 % of
       right abstracts and about 80 % of plausible wrong ones fall below);
    3. floor: the best passage shares less than :data:`ABS_FLOOR` of the
       claim's content words, or there is no evidence (0.9);
    4. spread: the best passage scores under :data:`CLEAR_SCORE` and its
       robust z-score against all passages is under :data:`MIN_Z` (0.5,
       reported but not downgrading: on SciFact abstracts this alone does
       not separate right from wrong sources).

    Args:
        claim_text: the claim.
        evidence_text: the best passage, or None.
        best_score: the best passage's score in [0, 1] (same scale as ``scores``);
            defaults to ``max(scores)``.
        scores: the scores of every passage of the source against the claim,
            same tier (lexical overlap in :func:`citeproof.detectors.run_detectors`).
        **context: ``source_text`` (str), optional: needed for test 1.

    Returns:
        ``[]`` or one tag.
    """
    scores = list(scores)
    source_text = context.get("source_text") or ""
    defined = {m.group(1).lower() for m in re.finditer(r"\w[\w\s-]{6,}\(([\w-]+)\)", claim_text)}
    ents = sorted({e.lower() for e in entity_tokens(claim_text) if not e[0].isdigit()} - COMMON_ENTITIES - defined)
    best = (max(scores) if scores else 0.0) if best_score is None else best_score
    if source_text and ents:
        low = _norm(source_text)
        missing = [e for e in ents if not all(_norm(part).removesuffix("s") in low
                                              for part in re.split(r"[-/]", e) if len(_norm(part)) >= 2)
                   and not spelled_out(e, source_text)]
        if (len(ents) >= 2 and len(missing) / len(ents) > 0.5) or (len(ents) == 1 and missing and best < CLEAR_SCORE):
            return [Tag("off_topic", f"The source never mentions {', '.join(missing[:3])}, which the claim names.", 0.8,
                        (TagEvidence(", ".join(missing), ""),))]
    if source_text and len(source_text) <= SHORT_SOURCE:
        cov = overlap_score(claim_text, source_text)
        if cov < MIN_COVERAGE:
            return [Tag("off_topic", f"The whole source contains only {cov:.0%} of the claim's content words.", 0.8,
                        (TagEvidence("", ""),))]
    if not scores:
        return []
    ev = (evidence_text or "")[:200]
    if evidence_text is None or best < ABS_FLOOR:
        return [Tag("off_topic", f"No passage of the source is close to the claim (best score {best:.2f}).", 0.9,
                    (TagEvidence("", ev),))]
    med = statistics.median(scores)
    mad = statistics.median(abs(x - med) for x in scores) * 1.4826
    z = (best - med) / max(mad, 0.05)
    if best < CLEAR_SCORE and z < MIN_Z and len(scores) >= 5:
        return [Tag("off_topic",
                    f"The best passage (score {best:.2f}) is no closer than the source's typical passage (median {med:.2f}).",
                    0.5, (TagEvidence("", ev),))]
    return []
