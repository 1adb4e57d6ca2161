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


def _restated_denial(claim_text: str, source_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The source sentence restating the claim (:func:`~citeproof.detectors.swaps.restating_sentence`) and its words
    denying significance, where it denies it (:data:`_DENIAL`, :data:`NON_SIGNIFICANT`) and claims none: "Changes in
    bone density ... differed significantly between patients with ulcerative colitis and those with Crohn's disease"
    for "Changes in bone density for patients with ulcerative colitis and Crohn's disease were not significantly
    different" (a twenty-first trial: *partial* at 0.9, unproven)."""
    from citeproof.detectors.swaps import restating_sentence

    sent = restating_sentence(claim_text, source_text) or restating_sentence(claim_text, evidence_text)
    if sent is None:
        return None
    denial = _DENIAL.search(sent) or next((m for m in (re.search(rf"\b(?:{p})", sent, re.I) for p in NON_SIGNIFICANT[:6])
                                           if m), None)
    if denial is None:
        return None
    rest = re.sub(r"not (?:statistically )?significant\w*|no (?:statistically )?significant|non-?significant\w*|"
                  r"insignificant\w*", " ", _DENIAL.sub(" ", sent), flags=re.I)
    if re.search(r"\bsignifican", rest, re.I):
        return None  # the sentence claims significance too, for something else
    end = re.match(r"\w*", sent[denial.end():]).end() + denial.end()
    return sent, sent[denial.start():end]


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
    restated = _restated_denial(claim_text, source_text, evidence_text)
    if restated is not None:
        sent, denial = restated
        return [Tag("significance_inflation", f"The claim says {cue!r} where the sentence that restates it says "
                    f"{denial!r}: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(cue, denial),), proven=True)]
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
