"""Cross-language citations: said, never silently scored (issue 19, part 4).

A claim in one language against a source in another
(:func:`citeproof.text.language.cross_language`) gets the flag
``cross_language`` and a reason naming both languages. The offline tiers
compare words (lexical) or use English models (dense, entailment), so
their *unsupported* across languages means only that the words differ: such
a verdict becomes *unverifiable*. A verdict the LLM tier gave stands (its
model reads both), as does *supported* or *contradicted* (words the two
share, such as numbers and names, were found), each with the flag.
"""

from __future__ import annotations

from citeproof.model import Finding, Source, Tier, Verdict
from citeproof.text.language import ENGLISH_ONLY_TIERS, cross_language, language_name

__all__ = ["mark_cross_language"]


def mark_cross_language(f: Finding, claim_text: str, source: Source) -> None:
    """Flag ``f`` (in place) when ``claim_text`` and ``source``'s text are in different languages (module docstring)."""
    pair = cross_language(claim_text, source.text)
    if pair is None:
        return
    a, b = (language_name(x) for x in pair)
    f.flags.append("cross_language")
    f.reasons.append(f"cross-language: the claim is in {a}, the source in {b}; the {', '.join(ENGLISH_ONLY_TIERS)} tiers "
                     "compare words or English meanings and cannot see support across languages")
    if f.verdict == Verdict.UNSUPPORTED and f.tier != Tier.LLM:
        f.verdict = Verdict.UNVERIFIABLE
        f.reasons.insert(0, f"not judged: the claim is in {a} and the source in {b}; read the source, or run the LLM tier (--tier llm)")
