"""``causal_overclaim``: the evidence reports an association, the claim a cause.

Causal and associational cue lists follow the categories of Yu, Li and
Wang, "Detecting Causal Language Use in Science Findings" (EMNLP 2019):
direct causal (*causes*, *leads to*, *results in*), conditional causal,
correlational (*associated with*, *linked to*, *correlated*), no relation.
"""

from __future__ import annotations

import re

from citeproof.detectors.swaps import restating_sentence
from citeproof.text.normalise import WORD_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import find_terms, relevant_sentences
from citeproof.model import Tag, TagEvidence

STRONG_CAUSAL = [
    r"caus(?:e|es|ed|ing)", r"causal(?:ly)?", r"lead(?:s|ing)? to|led to", r"result(?:s|ed|ing)? in", r"give[s]? rise to|gave rise to",
    r"bring(?:s)? about|brought about", r"driv(?:e|es|en|ing)|drove", r"trigger(?:s|ed|ing)?", r"responsible for",
    r"induc(?:e|es|ed|ing)", r"provok(?:e|es|ed|ing)", r"elicit(?:s|ed|ing)?", r"due to", r"because(?: of)?", r"owing to",
    r"attributable to", r"mediat(?:e|es|ed|ing)", r"required for|necessary for|essential for|sufficient (?:for|to)|needed for",
    r"depend(?:s|ed|ent)? (?:on|upon)", r"knock(?:ed)?[- ]?(?:down|out)s?|deletion|deleted|deficien(?:t|cy)|ablation|ablated|silenc\w+",
    r"overexpress\w*|transfect\w*|treat(?:ment|ed|ing)? with|administ\w+|randomi[sz]\w+|intervention|injection|exposure to|supplementation",
    r"effects? of|effects? on|affect(?:s|ed|ing)?|impact(?:s|ed)? on|contribut(?:e|es|ed|ing) to|determin(?:e|es|ed|ing)",
    r"prevent(?:s|ed|ing)?|protect(?:s|ed|ing)? against|block(?:s|ed|ing)?|abolish(?:es|ed)?|rescu(?:e|es|ed)|restor(?:e|es|ed)",
    r"regulat(?:e|es|ed|ing)|control(?:s|led|ling)?|promot(?:e|es|ed|ing)|inhibit(?:s|ed|ing)?|suppress(?:es|ed|ing)?|activat(?:e|es|ed|ing)",
    r"underl(?:ie|ies|ying|ay)|produc(?:e|es|ed|ing)|generat(?:e|es|ed|ing)",
]
"""Language that states or implies an effect (including experimental manipulation)."""

CLAIM_CAUSAL = [
    r"caus(?:e|es|ed|ing)", r"(?:is|are|was|were) (?:the )?(?:main |primary |direct |underlying |root |principal |leading )?causes? of",
    r"causal(?:ly)?", r"lead(?:s|ing)? (?:directly )?to|led to", r"result(?:s|ed|ing)? in", r"give[s]? rise to|gave rise to",
    r"bring(?:s)? about|brought about", r"driv(?:e|es|ing)|drove", r"trigger(?:s|ed|ing)?", r"(?:is|are|was|were) responsible for",
    r"underl(?:ie|ies|ying|ay)", r"determin(?:e|es|ed|ing)(?! that| whether| if)", r"(?:is|are) due to", r"induc(?:e|es|ed|ing)", r"provok(?:e|es|ed|ing)",
    r"produc(?:e|es|ed|ing)", r"generat(?:e|es|ed|ing)", r"because of", r"(?:is|are) attributable to", r"effect of",
    r"prompt(?:s|ed)?", r"push(?:es|ed)\s+(?:[\w-]+\s+){1,3}into", r"spark(?:s|ed)?", r"precipitat(?:e|es|ed)", r"engender(?:s|ed)?", r"instigat(?:e|es|ed)",
    r"directly(?!\s+(?:measured|compared|observed|assessed|determined|quantified|estimated|tested|examined|recorded))",
    r"in turn", r"because", r"as a (?:direct )?(?:result|consequence) of",  # "directly measured" is no cause (24th, 52nd)
    r"(?:is|are|was|were) what (?:makes?|made|gives?|gave|drives?|drove|produces?|causes?|allows?|enables?)",  # trials
    # 135-136: "ANKTM1 expression is what makes ... neurons sensitive to noxious cold" for "Consistent with the
    # expression of ANKTM1, ... neurons"; "the rapid rise in p53 levels is what gives p53 its increased ability"
]
"""Claim-side causal cues whose appearance, against an associational source, is an overclaim."""

EXPLICIT_CAUSAL = [
    r"caus(?:e|es|ed|ing)", r"causal(?:ly)?", r"causation", r"lead(?:s|ing)? (?:directly )?to|led to", r"result(?:s|ed|ing)? in",
    r"give[s]? rise to|gave rise to", r"bring(?:s)? about|brought about", r"responsible for", r"due to", r"because(?: of)?",
    r"owing to", r"attributable to", r"consequence of", r"trigger(?:s|ed|ing)?", r"driv(?:e|es|en|ing)|drove",
    r"as a (?:direct )?result of",  # a twenty-second trial: "stress tolerance as a result of their high levels of ..."
    r"push(?:es|ed)\s+(?:[\w-]+\s+){1,3}into",  # a 163rd trial: "Many mutations pushed MDS patients into higher risk groups" for "were
    # associated with higher risk groups"
    r"(?:is|are|was|were) what (?:makes?|made|gives?|gave|drives?|drove|produces?|causes?)",
    r"it is (?:[\w'-]+\s+){1,10}?that (?:gives?|makes?|drives?|causes?|leads? to|produces?)",  # a 188th trial: "it is
    # the SASP's activation of immune surveillance that gives it pro-tumorigenic properties" (*supported* at 0.98)
]
"""Words that name causation outright (a subset of the claim cues)."""
_CAUSE_WORDS = [r"caus(?:e|es|ed|ing)", r"causal(?:ly)?", r"causation", r"responsible for"]
"""The words of cause alone, without *give rise to* (cells give rise to progeny: a faithful SciFact claim), *due to*
or *results in* (often a sequence, not a claim of cause)."""

EFFECT_VERBS = [r"reduc(?:e|es|ed|ing)", r"increas(?:e|es|ed|ing)", r"lower(?:s|ed|ing)?", r"rais(?:e|es|ed|ing)",
                r"decreas(?:e|es|ed|ing)", r"improv(?:e|es|ed|ing)", r"worsen(?:s|ed|ing)?", r"protect(?:s|ed|ing)?", r"extend(?:s|ed)?"]
"""Verbs of effect that state a cause only against a source that disclaims one (they also report associations)."""
_CAUSAL_NOUN = r"(?:causal(?:ity)?|causation|(?:a |the )?causal (?:relationship|link|role|effect|association|inference)s?)"
DISCLAIMER = re.compile(
    r"\b" + _CAUSAL_NOUN + r"\s+(?:(?:has|have|had|was|were|is|are|could|can|may|might)\s+)?"
    r"(?:not|never|yet\s+to|cannot|can\s+not|could\s+not)\s+(?:be(?:en)?\s+)?"
    r"(?:established|determined|inferred|proven|proved|shown|demonstrated|confirmed|assessed|addressed)"
    r"|\b" + _CAUSAL_NOUN + r"\s+(?:is|was|are|were|remains?|remained)\s+(?:unclear|unknown|uncertain|unproven|to be (?:established|determined))"
    r"|\b(?:cannot|could not|can't|did not|does not|do not|unable to|not possible to)\s+(?:establish|infer|determine|prove|"
    r"demonstrate|show|conclude|assess|address)\w*\s+(?:a\s+|any\s+|the\s+)?(?:causa\w+|cause)"
    r"|\bno\s+causal\s+(?:conclusions?|inferences?|claims?|relationship)"
    r"|\bwhether\b[^.;]{0,60}?\bcausal\b[^.;]{0,40}?\b(?:is|remains?|was|are)\s+(?:not\s+(?:clear|known|established)|unclear|unknown|uncertain)"
    r"|\b(?:does|do) not (?:imply|prove|establish) caus\w+|\bnot necessarily causal",
    re.I)
"""A source sentence disclaiming causality ("associated ..., but causality was not established")."""

ASSOCIATION = [
    # "reports associating X with Y" (a 13th trial); "concordance between X and Y" (an 11th)
    r"associat(?:e|es|ed|ing|ion|ions)", r"correlat(?:e|es|ed|ing|ion|ions)", r"concordan(?:ce|t)",
    r"link(?:s|ed)? (?:to|with)", r"(?:an? )?links? between",  # "a link between" (a 97th trial)
    r"related to|relationship", r"in parallel (?:with|to)|parallel(?:ed|s|ing)",
    r"co-?occur\w*", r"risk factors?", r"(?:an? )?(?:increased|higher|greater|elevated) (?:prevalence|incidence|risk|odds) of", r"odds ratios?|hazard ratios?|relative risks?", r"predictors?|predictive of",
    r"implicated in",  # "has been implicated in" (a 43rd trial's "causes")
    r"consistent with|in line with|in keeping with",  # a 133rd trial: "caused" for "Consistent with our microarray data"
    r"observational", r"cross-sectional|case-control", r"more (?:common|likely|frequent) (?:in|among)",
]


def detect_causal_overclaim(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``causal_overclaim`` when the claim says *causes* and the evidence only associates.

    Fires when the claim carries a causal cue (:data:`CLAIM_CAUSAL`) and the
    evidence (the best passage plus up to three source sentences sharing at
    least 35 % of the claim's content words) carries no causal or
    experimental-manipulation language (:data:`STRONG_CAUSAL`) and not the
    claim's own cue. Confidence is 0.85 when the evidence uses associational
    language (:data:`ASSOCIATION`), else 0.5 (reported, not downgrading: the
    evidence may simply be phrased without a verb of effect). When the
    evidence associates *and* uses verbs of effect, the tag still fires (0.7)
    if the claim names causation outright (:data:`EXPLICIT_CAUSAL`: *causes*,
    *leads to*, *is responsible for*) and the evidence never does.

    When the claim names causation outright and the source sentence restating it (:func:`~citeproof.detectors.swaps.
    restating_sentence`) holds no causal, effect or manipulation wording at all, the tag fires at 0.7 (it downgrades:
    the claim adds a cause the restated finding does not carry; a sixth new user's trial, whose claim was *supported*).
    So it does, at 0.7, when such a claim's source states no cause or effect anywhere (a 90th trial).

    Before all that: when the evidence disclaims causality (:data:`DISCLAIMER`:
    *causality was not established*, *cannot infer causation*) and the claim
    states an effect with any verb of effect (:data:`CLAIM_CAUSAL`,
    :data:`STRONG_CAUSAL`, :data:`EFFECT_VERBS`: *reduces*, *prevents*) and no associational
    wording, the tag fires at 0.9.

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), optional: the whole source.

    Returns:
        ``[]`` or one tag with the claim's causal cue and the evidence's associational cue.
    """
    if not evidence_text:
        return []
    pool = [evidence_text] + relevant_sentences(claim_text, context.get("source_text") or "", k=3, floor=0.35)
    pooled = " ".join(pool)
    disclaimer = DISCLAIMER.search(pooled)
    if disclaimer:
        stated = find_terms(claim_text, CLAIM_CAUSAL + STRONG_CAUSAL + EFFECT_VERBS)
        if stated and not find_terms(claim_text, ASSOCIATION):
            return [Tag("causal_overclaim",
                        f"The claim states an effect ({stated[0][0]!r}) where the source says causality was not shown "
                        f"(\u201c{disclaimer.group(0)}\u201d).", 0.9, (TagEvidence(stated[0][0], disclaimer.group(0)),))]
    turned = (_correlation_as_effect(claim_text, context.get("source_text") or evidence_text)
              or _association_in_place(claim_text, context.get("source_text") or evidence_text)
              or _listed_as_cause(claim_text, context.get("source_text") or evidence_text))
    if turned is not None:
        return [turned]
    cues = find_terms(claim_text, CLAIM_CAUSAL)
    if not cues:
        return []
    cue = cues[0][0]
    if find_terms(pooled, [re.escape(cue).replace(r"\ ", r"\s+")]):
        added = _cause_added(claim_text, cues, context.get("source_text") or evidence_text)
        return [added] if added is not None else []  # else the source itself uses the claim's causal wording
    assoc = find_terms(pooled, ASSOCIATION)
    effect = find_terms(pooled, STRONG_CAUSAL)
    explicit_claim = find_terms(claim_text, EXPLICIT_CAUSAL)
    if assoc and not effect:
        return [Tag("causal_overclaim",
                    f"The claim states a cause ({cue!r}) where the evidence reports an association ({assoc[0][0]!r}).",
                    0.85, (TagEvidence(cue, assoc[0][0]),))]
    said = restating_sentence(claim_text, context.get("source_text") or evidence_text) if assoc and explicit_claim else None
    if assoc and explicit_claim and not find_terms(pooled, EXPLICIT_CAUSAL) and not (
            said and find_terms(said, STRONG_CAUSAL) and not find_terms(said, ASSOCIATION)):
        # (not where the sentence restating the claim states an effect and associates nothing: "three alleles ... on
        # chromosome 19 give rise to six apoE genotypes" for "coded by three alleles ..., determining six apoE
        # genotypes", a 166th trial's faithful claim, against a "risk factor" of another sentence)
        c = explicit_claim[0][0]
        return [Tag("causal_overclaim",
                    f"The claim says {c!r} where the evidence reports an association ({assoc[0][0]!r}) and states no cause.",
                    0.7, (TagEvidence(c, assoc[0][0]),))]
    # (any verb of cause the claim uses, not only an outright one: "the erosion zone of the growth plates induced
    # intense ALPase-positive osteoblasts" for "osteoblasts were observed ... in close proximity to the erosion zone",
    # a 62nd trial's claim *supported*)
    restating = restating_sentence(claim_text, context.get("source_text") or evidence_text) if (
        explicit_claim or not effect) else None  # (the wider read only where the evidence states no effect at all)
    own = {stem(w) for w in WORD_RE.findall(claim_text)}
    if restating is not None and (explicit_claim or stem(cue.split()[0]) not in {stem(w) for w in WORD_RE.findall(restating)}) \
            and not [t for t in find_terms(restating, CLAIM_CAUSAL + STRONG_CAUSAL + EFFECT_VERBS)
                                      if not {stem(w) for w in WORD_RE.findall(t[0])} <= own
                                      or find_terms(t[0], EXPLICIT_CAUSAL)]:
        # wording of effect the claim itself repeats ("Myoblasts transfected with ..." in both) links nothing new; a
        # cause the sentence names ("could be attributable to", a faithful SciFact claim's "are attributable to") does
        # the claim names a cause outright and the sentence restating it states none: the claim adds the cause
        # ("a severe initial presentation causes subsequent flares to be of lesser severity" for "characterized by
        # the initial presentation being the most severe, with subsequent flares being of lesser severity")
        said = explicit_claim[0][0] if explicit_claim else cue
        return [Tag("causal_overclaim", f"The claim says {said!r} where the sentence that restates it "
                    f"states no cause: \u201c{restating[:200]}\u201d", 0.7, (TagEvidence(said, ""),))]
    if effect and restating is None and (said := restating_sentence(claim_text, context.get("source_text") or evidence_text)) \
            and (linked := find_terms(said, ASSOCIATION)) and not find_terms(said, CLAIM_CAUSAL + STRONG_CAUSAL + EFFECT_VERBS):
        # the sentence restating the claim associates, whatever the rest of the source says of effects ("Nucleosome
        # remodeling determines the promoter activation timescale" for "... the promoter activation timescale is
        # related to nucleosome remodeling", a 138th trial: *supported*, the source's "lead to" elsewhere had hidden it)
        return [Tag("causal_overclaim", f"The claim states a cause ({cue!r}) where the sentence that restates it reports "
                    f"an association ({linked[0][0]!r}): \u201c{said[:200]}\u201d", 0.85, (TagEvidence(cue, linked[0][0]),))]
    if effect:
        return []
    whole = context.get("source_text") or pooled
    if (outright := find_terms(claim_text, _CAUSE_WORDS)) and not find_terms(whole, EXPLICIT_CAUSAL + STRONG_CAUSAL):
        # the claim names a cause outright and the source states none anywhere: "strong social networks and support
        # directly cause better health" for "evidence substantiates the importance of social networks and support to
        # health" (a 90th trial: *supported*, the tag at 0.5 had downgraded nothing)
        said = outright[0][0]
        return [Tag("causal_overclaim", f"The claim says {said!r}; the source states no cause anywhere.", 0.7,
                    (TagEvidence(said, ""),))]
    return [Tag("causal_overclaim", f"The claim states a cause ({cue!r}) that the evidence does not state.",
                0.5, (TagEvidence(cue, ""),))]


def _association_in_place(claim_text: str, source_text: str) -> Tag | None:
    """The claim's outright cause (:data:`EXPLICIT_CAUSAL`) where the sentence restating it associates the same thing:
    the claim's first naming word after its cause stands within four words after the sentence's association word
    (:data:`ASSOCIATION`): "... c-Myc after Apc deletion in the adult mouse liver causes the induction of
    proliferation" for "... a rapid increase in nuclear beta-catenin and c-Myc, which is associated with an induction
    of proliferation that led to hepatomegaly" (a 119th trial: *supported*; the sentence's own *led to* and the
    study's manipulation had hidden it). Confidence 0.85, as for an association stated as a cause."""
    said = find_terms(claim_text, EXPLICIT_CAUSAL)
    conf = 0.85
    if not said:  # a verb of effect, where the restating sentence states none: "The e4 allele ... raises low density
        # lipoprotein cholesterol" for "The e4 allele ... that is associated with higher low density lipoprotein
        # cholesterol" (a 166th trial: *supported*); *partial*, never more
        said, conf = find_terms(claim_text, EFFECT_VERBS), 0.7
    if not said or find_terms(claim_text, ASSOCIATION):
        return None
    after = [w for w in WORD_RE.findall(claim_text[said[0][2]:])[:4] if len(w) > 3 and w.lower() not in _LIGHT][:1]
    sent = restating_sentence(claim_text, source_text) if after else None
    if sent is None or (conf < 0.85 and (find_terms(sent, STRONG_CAUSAL) or stem(after[0].lower()) in _MEASURES_OF_RISK)):
        return None  # ("increases risk of postoperative bleeding" for "associated with an increased risk": how an
        # association is reported, a faithful SciFact claim)
    for word, _start, end in find_terms(sent, ASSOCIATION):
        near = {stem(w) for w in WORD_RE.findall(sent[end:])[:5]}
        if stem(after[0]) in near:
            return Tag("causal_overclaim", f"The claim says {said[0][0]!r} where the sentence that restates it says "
                       f"{word!r}: \u201c{sent[:200]}\u201d", conf, (TagEvidence(said[0][0], word),))
    return None


_LIGHT = frozenset("that this these those with from into their there which".split())


def _cause_added(claim_text: str, cues: list[tuple[str, int, int]], source_text: str) -> Tag | None:
    """A cause the claim states once more than the sentence restating it, which reports an association: "Low birth
    weight caused by maternal protein restriction followed by catch-up growth causes a shortened lifespan" for "Low
    birth weight caused by maternal protein restriction followed by catch-up growth (recuperated animals) was
    associated with shortened lifespan" (a 78th trial: *supported*; the source's own *caused* had hidden the claim's
    second one). Confidence 0.85, as for an association stated as a cause."""
    sent = restating_sentence(claim_text, source_text)
    if sent is None or find_terms(claim_text, ASSOCIATION):
        return None
    if len(cues) <= len(find_terms(sent, CLAIM_CAUSAL)):
        return None
    assoc = find_terms(sent, ASSOCIATION)
    said = cues[-1][0]
    if not assoc:
        # no association either, but the claim's extra cue names cause outright and the sentence names none: "Mutations
        # in CTNNB1 that result in constitutive activation of beta-catenin cause hepatocellular adenomas" for "Many
        # hepatic tumors such as hepatocellular adenomas ... have mutations in CTNNB1 that result in constitutive
        # activation" (a 148th trial: *supported*; the sentence's own *result in* had matched the claim's first cue)
        if find_terms(said, _CAUSE_WORDS) and not find_terms(sent, _CAUSE_WORDS):
            return Tag("causal_overclaim", f"The claim says {said!r} where the sentence that restates it names no cause: "
                       f"\u201c{sent[:200]}\u201d", 0.7, (TagEvidence(said, ""),))
        return None
    return Tag("causal_overclaim", f"The claim states a cause ({said!r}) where the sentence that restates it reports "
               f"an association ({assoc[0][0]!r}): \u201c{sent[:200]}\u201d", 0.85, (TagEvidence(said, assoc[0][0]),))


_EFFECT_ON = re.compile(r"(?P<x>[\w+()/-]+)\s+(?:significantly\s+|markedly\s+|strongly\s+)?(?P<v>(?:increas|decreas|reduc|"
                        r"lower|rais|elevat|improv|worsen|suppress|enhanc)\w*)\s+(?:the\s+)?(?P<y>[\w+()/-]+)", re.I)
_CORRELATES = re.compile(r"\b(?:correlat\w*|associat\w*|relationship|link\w*)\s+(?:between|of|with)\b(?P<rest>(?:\W+\w+){1,8})",
                         re.I)


_MEASURES_OF_RISK = frozenset(stem(w) for w in "risk risks odds likelihood chance probability incidence prevalence".split())


def _correlation_as_effect(claim_text: str, source_text: str) -> Tag | None:
    """The claim's *X increased (reduced, raised...) Y* where the sentence restating it correlates X and Y ("HMGB1
    significantly increased the fibrinogen levels" for "significant correlations between the plasma HMGB1 and
    fibrinogen levels", a 31st trial: *supported*). A ``causal_overclaim`` at 0.7: *partial*, never more."""
    m = _EFFECT_ON.search(claim_text)
    if m is None or not source_text or _CORRELATES.search(claim_text):
        return None  # (the claim reports the correlation too: "was correlated with an increase in the
        # phosphorylation of 4EBP1", a 153rd trial's 0.7 tag)
    x, y = stem(m.group("x").lower()), stem(m.group("y").lower())
    sent = restating_sentence(claim_text, source_text)
    if sent is None or x == y or y in _MEASURES_OF_RISK:  # "X increases risk of Y" is how an association is reported
        return None
    for c in _CORRELATES.finditer(sent):
        near = {stem(w.lower()) for w in WORD_RE.findall(c.group("rest"))}
        if {x, y} <= near:
            return Tag("causal_overclaim", f"The claim says {m.group(0)!r} where the sentence that restates it reports "
                       f"a correlation: \u201c{sent[:200]}\u201d", 0.7, (TagEvidence(m.group("v"), c.group(0)),))
    return None


_LIST = re.compile(r"(?:[\w-]+(?:\s+[\w-]+){0,2}\s*,\s*){1,8}[\w-]+(?:\s+[\w-]+){0,2},?\s+(?:and|or)\s+[\w-]+"
                   r"(?:\s+[\w-]+){0,2}")
"""Three items or more of a list: up to three words each, commas between, *and* or *or* before the last (a last item
read to the clause's end took in *... functional recovery is reviewed* and *nematode cells subjected to knockout*,
faithful claims of trials 145 and 177)."""


_BOTH = re.compile(r"\bboth\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,5}?\s+and\s+[\w-]+(?:\s+[\w-]+){0,4}?(?=\s*[.,;:)]|$)", re.I)
"""*both A and B*, two results of one cause (a 185th trial: "global DNA demethylation drives the rapid onset of the
ground-state gene expression program" for "Switch to 2i triggers rapid onset of both the ground-state gene expression
program and global DNA demethylation", *supported* at 0.96)."""


def _heads(m: re.Match) -> list[str]:
    return [stem(item.split()[-1].lower()) for item in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", m.group(0))
            if item.strip() and item.split()[-1].lower() != "both"]


def _listed_as_cause(claim_text: str, source_text: str) -> Tag | None:
    """The claim's outright cause (:data:`EXPLICIT_CAUSAL`) between two things the source names only as items of one
    list (the last word of an item on each side of the cue), no sentence of the source naming a cause between
    them: "The immune dysfunction seen in ataxia telangiectasia drives the neurodegeneration" and "radiosensitivity
    causes the characteristic cancer predisposition" for "defects ... characteristic of the disease, including
    neurodegeneration, immune dysfunction, radiosensitivity and cancer predisposition" (a 179th trial: both
    *supported*; the sentence's own *owing to* had read as a cause). Confidence 0.7: *partial*, as for any cause the
    source does not state."""
    said = find_terms(claim_text, EXPLICIT_CAUSAL)
    if not said or not source_text:
        return None
    cue, start, end = said[0]
    if cue.lower().startswith("it is "):  # a cleft: the cause stands inside the cue (*it is X that gives*)
        start = end - len(cue.split()[-1])
    before = {stem(w.lower()) for w in WORD_RE.findall(claim_text[:start])}
    after = {stem(w.lower()) for w in WORD_RE.findall(claim_text[end:])}
    for sent in split_sentences(source_text):
        for m in [*_LIST.finditer(sent), *_BOTH.finditer(sent)]:
            heads = _heads(m)
            x = next((h for h in heads if h in before and h not in after), None)
            y = next((h for h in heads if h in after and h not in before), None)
            if x is None or y is None or len(x) < 4 or len(y) < 4:
                continue
            if any(_cause_between(s, x, y) for s in split_sentences(source_text)):
                return None
            return Tag("causal_overclaim", f"The claim says {cue!r} between two things the source only lists side by "
                       f"side: \u201c{m.group(0)[:200]}\u201d", 0.7, (TagEvidence(cue, m.group(0)[:120]),))
    return None


def _cause_between(sent: str, x: str, y: str) -> bool:
    """A word of cause or effect (:data:`CLAIM_CAUSAL`, :data:`STRONG_CAUSAL`) stands between stems ``x`` and ``y``
    in ``sent``, whichever comes first."""
    words = [(stem(m.group(0).lower()), m.start()) for m in WORD_RE.finditer(sent)]
    at = {w: k for w, k in words}
    if x not in at or y not in at:
        return False
    lo, hi = sorted((at[x], at[y]))
    return bool(find_terms(sent[lo:hi], CLAIM_CAUSAL + STRONG_CAUSAL))
