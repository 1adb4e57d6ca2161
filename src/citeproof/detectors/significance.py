"""``significance_inflation``: the claim says *significant* where the evidence gives no test.

Statistical-reporting cues follow the APA reporting conventions (p values,
confidence intervals, test statistics); non-significance phrases follow the
common forms listed by Hankins' catalogue of "trends toward significance".
"""

from __future__ import annotations

import re

from citeproof.text.stems import find_terms
from citeproof.model import Tag, TagEvidence

CLAIM_SIGNIFICANCE = [
    r"significant(?:ly)?", r"statistically", r"p\s*[<≤=]\s*0?\.\d+", r"p-?value", r"reached significance",
]
EVIDENCE_STATS = [
    r"significan\w*", r"p\s*[<>≤≥=]\s*0?\.\d+", r"p\s*=\s*\.\d+", r"p-?values?", r"95\s*%\s*(?:CI|confidence)", r"confidence intervals?",
    r"(?-i:CI)", r"odds ratio|hazard ratio|relative risk", r"(?-i:OR|HR|RR)", r"t-?test|chi-?square|ANOVA|Mann-Whitney|Wilcoxon|log-?rank",
    r"statistic\w*", r"standard (?:deviation|error)|(?-i:SD|SEM)", r"\bn\s*=\s*\d+", r"\bF\s*\(", r"\bz\s*=",
]
"""Statistical reporting in the evidence. The abbreviations (CI, OR, HR, RR, SD, SEM) match in capitals only:
matched case-insensitively, the conjunction *or* counted as an odds ratio and silenced the detector."""
P_VALUE = r"p\s*[<>≤≥=]\s*0?\.\d+"
"""An explicit p value (``p < 0.05``, ``P = .003``)."""
NON_SIGNIFICANT = [
    r"not (?:statistically )?significant(?:ly)?", r"non-?significant(?:ly)?", r"insignificant(?:ly)?", r"no significant",
    r"did not reach (?:statistical )?significance", r"failed to reach (?:statistical )?significance",
    r"trend(?:ed)? (?:toward|towards)", r"marginal(?:ly)?(?: significant)?", r"p\s*[>≥]\s*0?\.0[5-9]", r"p\s*=\s*0?\.(?:0[5-9]|[1-9])",
    r"n\.?s\.", r"no (?:statistically )?significant",
]


_DENYING = r"not|no|never|neither|nor|none|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|fail(?:s|ed)? to|unable to"
_DENIAL = re.compile(rf"\b(?:{_DENYING})\b(?:\s+(?!(?:since|because|as|which|that|when|where|while|whereas|but)\b)[\w-]+,?){{0,6}}?"
                     rf"\s+(?:statistically\s+)?significan", re.I)
"""A negation at most six words before *significant(ly)*, no clause opening between (*since*, *which*...):
"Neither AO nor AM differed significantly from placebo", "did not differ significantly" deny significance, as *no
significant* does (a new user's trial, 2026-12-06: the first was read as a claim of significance)."""


def detect_significance_inflation(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``significance_inflation`` when the claim calls a result significant without support.

    Fires when the claim says *significant(ly)*/*statistically*/gives a p
    value and either the evidence reports non-significance (confidence 0.9)
    or the evidence carries no statistical reporting at all (0.8; 0.5, a
    hint below the downgrade line, when the rest of the source does report
    statistics), or the claim gives an explicit p value and the whole source
    reports none (0.8).
    A claim that *denies* significance ("no significant", "neither ... differed significantly": :data:`_DENIAL`) is
    not inflation.

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), optional: the whole source.

    Returns:
        ``[]`` or one tag.
    """
    if not evidence_text:
        return []
    cues = find_terms(claim_text, CLAIM_SIGNIFICANCE)
    if not cues or find_terms(claim_text, NON_SIGNIFICANT) or _DENIAL.search(claim_text):
        return []
    cue = cues[0][0]
    source_text = context.get("source_text") or evidence_text
    stated_p = find_terms(claim_text, [P_VALUE])
    if stated_p and not find_terms(source_text, [P_VALUE]) and not find_terms(evidence_text, [P_VALUE]):
        return [Tag("significance_inflation",
                    f"The claim gives a p value ({stated_p[0][0]!r}) that the source never reports.", 0.8,
                    (TagEvidence(stated_p[0][0], ""),))]
    nonsig = find_terms(evidence_text, NON_SIGNIFICANT)
    if nonsig and not re.search(r"(?<!not )(?<!non-)(?<!no )\bsignificant", re.sub(r"not (?:statistically )?significant|no significant|non-?significant", "", evidence_text, flags=re.I), re.I):
        return [Tag("significance_inflation",
                    f"The claim says {cue!r} where the evidence reports a non-significant result ({nonsig[0][0]!r}).",
                    0.9, (TagEvidence(cue, nonsig[0][0]),))]
    if find_terms(evidence_text, EVIDENCE_STATS):
        return []
    if source_text is not evidence_text and find_terms(source_text, EVIDENCE_STATS):
        # a full text reports its tests in results and tables the best passage need not hold: a hint, not a downgrade
        return [Tag("significance_inflation",
                    f"The claim says {cue!r}; the evidence passage reports no statistical test, though the source "
                    "reports statistics elsewhere: check that one backs this result.", 0.5, (TagEvidence(cue, ""),))]
    return [Tag("significance_inflation",
                f"The claim says {cue!r} but the evidence reports no statistical test.", 0.8, (TagEvidence(cue, ""),))]
