"""``causal_overclaim``: the evidence reports an association, the claim a cause.

Causal and associational cue lists follow the categories of Yu, Li and
Wang, "Detecting Causal Language Use in Science Findings" (EMNLP 2019):
direct causal (*causes*, *leads to*, *results in*), conditional causal,
correlational (*associated with*, *linked to*, *correlated*), no relation.
"""

from __future__ import annotations

from citeproof.detectors._text import find_terms
from citeproof.model import Tag, TagEvidence

STRONG_CAUSAL = [
    r"caus(?:e|es|ed|ing)", r"(?:is|are|was|were) (?:the )?(?:main |primary |direct |underlying )?causes?(?: of)?", r"causal(?:ly)?",
    r"lead(?:s|ing)? to|led to", r"result(?:s|ed|ing)? in", r"give[s]? rise to|gave rise to", r"bring(?:s)? about|brought about",
    r"driv(?:e|es|en|ing)|drove", r"trigger(?:s|ed|ing)?", r"(?:is|are|was|were) responsible for", r"responsible for",
    r"produc(?:e|es|ed|ing)", r"generat(?:e|es|ed|ing)", r"underl(?:ie|ies|ying|ay)", r"determin(?:e|es|ed|ing)",
    r"(?:directly|causally) (?:\w+)", r"induc(?:e|es|ed|ing)", r"provok(?:e|es|ed|ing)", r"elicit(?:s|ed|ing)?",
    r"is due to|are due to|due to", r"because of", r"owing to", r"attributable to", r"(?:is|are) the reason",
    r"mak(?:e|es|ing)", r"forc(?:e|es|ed|ing)", r"creat(?:e|es|ed|ing)", r"prevent(?:s|ed|ing)?", r"protect(?:s|ed|ing)?",
    r"block(?:s|ed|ing)?", r"abolish(?:es|ed)?", r"rescue[sd]?", r"restor(?:e|es|ed)", r"mediat(?:e|es|ed|ing)",
    r"regulat(?:e|es|ed|ing)", r"control(?:s|led|ling)?", r"activat(?:e|es|ed|ing)", r"inhibit(?:s|ed|ing)?",
    r"suppress(?:es|ed|ing)?", r"promot(?:e|es|ed|ing)", r"enhanc(?:e|es|ed|ing)", r"impair(?:s|ed|ing)?",
    r"reduc(?:e|es|ed|ing)", r"increas(?:e|es|ed|ing)", r"decreas(?:e|es|ed|ing)", r"lower(?:s|ed|ing)?",
    r"rais(?:e|es|ed|ing)", r"improv(?:e|es|ed|ing)", r"worsen(?:s|ed|ing)?", r"aggravat(?:e|es|ed)", r"attenuat(?:e|es|ed)",
    r"required for|necessary for|essential for|sufficient (?:for|to)|needed for|depend(?:s|ent)? on",
    r"knock(?:ed)?[- ]?(?:down|out)|deletion|deficien(?:t|cy)|loss of|ablation|overexpress\w*|treat(?:ment|ed)? with|administ\w+|randomi[sz]ed|intervention|exposure to",
    r"effect(?:s)? (?:of|on)|affect(?:s|ed|ing)?|impact(?:s|ed)? (?:on)?", r"contribut(?:e|es|ed|ing) to",
]
"""Language that states or implies an effect (including experimental manipulation)."""

CLAIM_CAUSAL = [
    r"caus(?:e|es|ed|ing)", r"(?:is|are|was|were) (?:the )?(?:main |primary |direct |underlying |root |principal |leading )?causes? of",
    r"causal(?:ly)?", r"lead(?:s|ing)? (?:directly )?to|led to", r"result(?:s|ed|ing)? in", r"give[s]? rise to|gave rise to",
    r"bring(?:s)? about|brought about", r"driv(?:e|es|ing)|drove", r"trigger(?:s|ed|ing)?", r"(?:is|are|was|were) responsible for",
    r"underl(?:ie|ies|ying|ay)", r"determin(?:e|es|ed|ing)", r"(?:is|are) due to", r"induc(?:e|es|ed|ing)", r"provok(?:e|es|ed|ing)",
    r"produc(?:e|es|ed|ing)", r"generat(?:e|es|ed|ing)", r"because of", r"(?:is|are) attributable to", r"effect of",
    r"prompt(?:s|ed)?", r"spark(?:s|ed)?", r"precipitat(?:e|es|ed)", r"engender(?:s|ed)?", r"instigat(?:e|es|ed)",
    r"directly", r"in turn",
]
"""Claim-side causal cues whose appearance, against an associational source, is an overclaim."""

ASSOCIATION = [
    r"associat(?:e|es|ed|ion|ions)", r"correlat(?:e|es|ed|ion|ions)", r"link(?:s|ed)?(?: to| with)?", r"relat(?:ed|ion|ionship)",
    r"co-?occur\w*", r"connected", r"predict(?:s|ed|ive|or)?", r"risk factor", r"accompan\w+", r"coincid\w+",
    r"higher (?:in|among)|lower (?:in|among)", r"odds ratio|hazard ratio|OR|HR|RR|relative risk",
    r"observ(?:ed|ational)", r"cohort|cross-sectional|case-control", r"concomitant", r"parallel(?:ed|s)?",
]


def detect_causal_overclaim(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``causal_overclaim`` when the claim says *causes* and the evidence only associates.

    Fires when the claim carries a causal cue (:data:`CLAIM_CAUSAL`) and the
    evidence carries no causal or manipulation language at all
    (:data:`STRONG_CAUSAL`). Confidence is 0.85 when the evidence uses
    associational language (:data:`ASSOCIATION`), else 0.5 (reported, not
    downgrading: the evidence may simply be phrased without a verb of effect).

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: unused.

    Returns:
        ``[]`` or one tag with the claim's causal cue and the evidence's associational cue.
    """
    if not evidence_text:
        return []
    cues = find_terms(claim_text, CLAIM_CAUSAL)
    if not cues:
        return []
    if find_terms(evidence_text, STRONG_CAUSAL):
        return []
    assoc = find_terms(evidence_text, ASSOCIATION)
    cue = cues[0][0]
    if assoc:
        return [Tag("causal_overclaim",
                    f"The claim states a cause ({cue!r}) where the evidence reports an association ({assoc[0][0]!r}).",
                    0.85, (TagEvidence(cue, assoc[0][0]),))]
    return [Tag("causal_overclaim", f"The claim states a cause ({cue!r}) that the evidence does not state.",
                0.5, (TagEvidence(cue, ""),))]
