"""``hedge_removed``: the source hedges and the claim states a finding.

Hedge cues follow the BioScope/CoNLL-2010 notion of speculation cues (modal
verbs, epistemic verbs such as *suggest*, *is thought to*); certainty
boosters follow Hyland's *Metadiscourse* (2005) list of boosters
(*clearly*, *demonstrate*, *establish*, *conclusively*). The detector fires
when the claim is unhedged and either (a) adds a booster the evidence lacks
while the evidence hedges or reports a single study, or (b) the evidence
hedges the very statement the claim makes.
"""

from __future__ import annotations

import re

from citeproof.text.stems import find_terms, relevant_sentences
from citeproof.model import Tag, TagEvidence

POSSIBLE_EFFECT = (r"can (?:result in|lead to|cause|contribute to|reduce|increase|improve|prevent|lower|decrease|promote|"
                   r"induce|act as|serve as|function as|precede|trigger|drive|enhance|inhibit|suppress|block|accelerate|"
                   r"delay|worsen|protect against|alter|affect|modulate|predispose)")  # "Polyploidization precedes the
# development of aneuploidy" for "can precede" (a 154th trial: *supported*)
"""A possible effect, a hedge: "use of awake craniotomy can result in a considerable reduction" (a twelfth trial's
claim dropped the *can*; a 61st trial's "CD169+ macrophages act as" for "can act as"); the *can* of ability ("can be
isolated", "can discover") stays out."""

COULD = r"could(?!\s+(?:not\s+)?(?:be\s+)?(?:detected|observed|found|seen|identified|measured|recovered|isolated|visuali[sz]ed|detect|observe|find|see|identify|measure|recover|isolate|knocked down|silenced|depleted|deleted|generated|obtained|reproduced|achieved))"
"""*could* of speculation; *could be detected* reports what a method found ("only one fourth of labeled cells could be
detected", a nineteenth trial's faithful claim was read as dropping a hedge)."""
PROMISE = r"(?:a |an )?(?:promising|potential) (?:strategy|approach|avenue|target|option|therapy|treatment|candidate)"
"""A promise, a hedge: "represents a promising strategy to potentiate cancer chemotherapy" (a twentieth trial's claim
said "has been shown to potentiate", *supported*)."""

PREDICTED = r"(?<=\d )predicted(?= [a-z])|(?<=the )predicted(?= [a-z])"
"""*predicted* before what it counts ("each of the parasite's 190 predicted protein kinases"): a hedge a claim drops
when it says "190 experimentally confirmed protein kinases" (a 110th trial: *supported*, P(entails) 0.91)."""

MAY = r"(?<!\b\d\s)(?<!\b\d\d\s)may(?!\s+\d)"
"""*may*, not the month of a date ("during May 2006" had been read as a hedge, a 33rd trial)."""

HEDGES = [
    MAY, r"might", COULD, r"possibl[ey]", r"perhaps", r"potential(?:ly)?", r"likely", r"unlikely",
    r"should (?:have|be|provide|allow|enable|help|prove|facilitate|improve|lead)",
    r"(?:has|have) been (?:proposed|suggested|hypothesi[sz]ed|thought|claimed|speculated) to",
    r"suggest(?:s|ed|ing)?", r"suggestive", r"indicat(?:e|es|ed|ing)", r"imply|implies|implied",
    r"(?:is|are|was|were) thought", r"(?:is|are|was|were) believed",
    r"it is (?:also |widely |generally |often )?(?:considered|thought|believed|assumed|presumed) that",
    r"(?:is|are) (?:also |widely |generally |often )?considered",  # present tense: a view, not "were considered eligible"
    r"(?:is|are|was|were) (?:widely |generally |often )?considered to",
    r"(?:is|are|was|were) (?:estimated|projected|expected|predicted) to", r"(?:is|are|was|were) (?:assumed|presumed|hypothesi[sz]ed|proposed|speculated)",
    r"appear(?:s|ed)? to", r"seem(?:s|ed)? to", r"it (?:appears|appeared|seems|seemed) that", r"hypothes[ie]s|hypothesi[sz]e[ds]?", r"propose[ds]?", r"speculat\w+",
    r"putative(?:ly)?", PREDICTED, r"presumabl[ey]", r"probabl[ey]", r"preliminary", r"tentative(?:ly)?", r"consistent with",
    r"in part", r"partially", r"to some extent", r"not clear|unclear|remains? to be", r"raises? the possibility",
    r"we speculate", r"it is conceivable", r"warrant(?:s|ed)? further", r"pilot", POSSIBLE_EFFECT, r"surmis(?:e|es|ed)",
    PROMISE, r"apparently", r"tend(?:s|ed)? to be", r"hopefully", r"an?\s+(?:[\w-]+\s+)?attempts?\s+to",
]
BOOSTERS = [
    r"clearly", r"clear(?:ly)? (?:show|demonstrate)s?", r"definitive(?:ly)?", r"conclusive(?:ly)?", r"unequivocal(?:ly)?",
    r"undoubtedly", r"indisputabl[ey]", r"unambiguous(?:ly)?", r"certainly", r"beyond (?:any |all )?doubt", r"no doubt",
    r"(?:has|have|is|are|was|were|been) (?:now )?(?:proven|proved)", r"proof that",
    r"prov(?:ed|es|e) that", r"(?:firmly |well[- ])established",  # "proved that" (a 49th trial)
    r"(?:has|have|had) been (?:firmly |well[- ]|clearly )?established (?:as|that)",  # "have been established as" (152nd)
    r"prov(?:ed|es|e) (?:the|a|an|this|these|its|their)",  # "these results prove the unifying mechanism" (87th)
    r"it (?:is|has been) (?:now )?(?:known|certain|settled|accepted|clear|established|proven|shown)", r"established that",
    r"always", r"invariabl[ey]", r"without exception", r"firmly", r"decisive(?:ly)?", r"settled", r"definite(?:ly)?",
    r"irrefutabl[ey]", r"categorical(?:ly)?", r"undeniabl[ey]", r"incontrovertibl[ey]", r"surely", r"beyond (?:dispute|question)",
    # more of Hyland's (2005, appendix) boosters, adverbs only (his verbs *show*, *find*, *demonstrate* are too common)
    r"decidedly", r"doubtless(?:ly)?", r"evidently", r"obvious(?:ly)?", r"incontestabl[ey]", r"undisputed(?:ly)?",
    r"unquestionabl[ey]", r"without (?:a |any )?doubt", r"of course", r"unmistakabl[ey]", r"manifestly", r"patently",
    r"convincingly", r"assuredly", r"emphatically",
    r"by direct measurements?", r"(?:directly|empirically) measured|measured (?:directly|empirically)",  # a 165th
    # trial: "By direct measurement, the paper establishes the energy expenditure" for "provides revised estimates"
]


STRONG_HEDGES = [
    MAY, r"might", COULD, r"possibl[ey]", r"perhaps", r"potentially", r"likely", r"suggest(?:s|ed|ing)?",
    r"appear(?:s|ed)? to", r"seem(?:s|ed)? to", r"it (?:appears|appeared|seems|seemed) that",  # a 22nd trial
    r"should (?:have|be|provide|allow|enable|help|prove|facilitate|improve|lead)",  # "should have broad utility" (28th)
    r"(?:has|have) been (?:proposed|suggested|hypothesi[sz]ed|thought|claimed|speculated) to",  # 33rd: "have been proposed to improve"
    r"(?:is|are|was|were) thought to", r"presumabl[ey]", r"probabl[ey]",
    r"apparently", r"tend(?:s|ed)? to be",  # trials 177-178: "Apparently, the addition of IL-2 by inhalation improved
    # survival" cited as "was shown to improve survival"; "tended to be associated" as "was significantly associated"
    r"(?:is|are|was|were) (?:proposed|hypothesi[sz]ed|postulated|speculated) to",  # a 170th trial: "Stem cells are
    # proposed to segregate chromosomes asymmetrically" cited as "Stem cells segregate ..." (*supported*)
    r"putative(?:ly)?", PREDICTED, r"we speculate", r"(?:is|are|was|were) hypothesi[sz]ed", r"(?:we|i) surmise",
    r"(?:is|are|was|were) (?:widely |generally |often )?considered to",  # "TatA is considered to be" (a 16th trial)
    r"it is (?:also |widely |generally |often )?(?:considered|thought|believed|assumed|presumed) that",  # "It is also
    # considered that vitamin D-related genes are critical susceptible genes" (a 152nd trial: "have been established
    # as", *supported*)
    r"impl(?:y|ies|ied) that",  # "and implies that the anti-association activity of IF3 is due to" for "demonstrates
    # that" (a 151st trial: *supported*)
    r"(?:is|are|was|were) (?:estimated|projected|expected|predicted) to",  # "costs ... are estimated to increase" (18th)
    POSSIBLE_EFFECT, PROMISE,
    # a proposal and a potential, hedging the statement that follows (a 103rd trial: "The authors demonstrate that the
    # dysregulation ..." for "We propose that the dysregulation ...", *supported* at 0.99; a 104th: "data have
    # demonstrated that ImmTACs deliver durable responses" for "indicates their potential therapeutic benefit")
    r"(?:we |i )?(?:therefore |thus |further |also )?(?:propose[ds]?|postulate[ds]?) that",
    r"indicat(?:e|es|ed|ing) (?:its|their|the|a) potential",
    # a 185th trial: "will hopefully inspire future national and local guidelines" cited as "will inspire"; "an
    # evidence-based attempt to relieve symptoms" cited as "has been shown to relieve symptoms" (both *supported*)
    r"hopefully", r"an?\s+(?:[\w-]+\s+)?attempts?\s+to",
]
"""Speculation cues that, on the sentence stating the claim, hedge the statement itself (a subset of :data:`HEDGES`:
*indicate*, *consistent with*, *in part*, *pilot* qualify evidence rather than the claim)."""
_CONTRAST_CUT = re.compile(r",\s+(?:whereas|while|but)\s|;\s+", re.I)
_NEGATED_BEFORE = re.compile(r"\b(?:not|never|no|nor|hardly|yet to)\b(?:\s+(?:been|be|yet|fully|so|as|very))*\s*$", re.I)
"""A negation right before a booster (*not been*, *never*): the claim denies the certainty."""
_QUALIFIER = re.compile(r"in part|partially|to some extent", re.I)
"""Hedges that qualify how much of a finding holds, not whether it does."""
_TIE = 20
"""Of the sentences holding the most of the claim's words, those whose wording (:func:`rapidfuzz.fuzz.ratio`, 0-100) is
within this of the closest one's count as stating the claim."""
STATEMENT_OVERLAP = 0.6
"""Least share of the claim's content words a source sentence must hold to count as stating the claim."""


def _hedged_statement(claim_text: str, sentences: list[str], source_text: str = "") -> tuple[str, str] | None:
    """The source sentence that states the claim under a speculation cue, and that cue, or None.

    A sentence states the claim when it holds at least :data:`STATEMENT_OVERLAP`
    of the claim's content words (:func:`~citeproof.text.stems.overlap_score`);
    it hedges it when one of :data:`STRONG_HEDGES` stands in the sentence before
    its last claim word (a hedge in a trailing clause about something else does not count).
    Only the sentences holding the most of the claim's words count; when one of them states the claim without any
    hedge, nothing is returned.
    """
    from rapidfuzz import fuzz

    from citeproof.text.abbreviations import as_the_source_writes
    from citeproof.text.normalise import WORD_RE, stem
    from citeproof.text.sentences import split_sentences
    from citeproof.text.stems import content_stems, overlap_score

    cst = content_stems(claim_text)
    stating = []  # (share of the claim's words, likeness of wording, sentence)
    for block in sentences:
        for sent in split_sentences(block):
            # (the sentence too with the short forms the source defines, as the claim comes: "190 experimentally
            # confirmed PKs" against "190 predicted protein kinases", a 110th trial)
            folded = as_the_source_writes(sent, source_text) if source_text else sent
            share, sent = max((overlap_score(claim_text, sent), sent), (overlap_score(claim_text, folded), folded))
            head = _CONTRAST_CUT.split(sent, maxsplit=1)[0]
            if head != sent and overlap_score(claim_text, head) >= max(share - 0.05, STATEMENT_OVERLAP):
                share, sent = overlap_score(claim_text, head), head  # the claim is the clause before *whereas*: a
                # hedge after it hedges the other side ("... is considered proatherogenic, whereas the presence of the
                # e2 allele ... (although it may be associated with ...)", a 166th trial's faithful claim)
            if share >= STATEMENT_OVERLAP:
                stating.append((share, fuzz.ratio(claim_text, sent), sent))
    if not stating:
        return None
    top = max(share for share, _alike, _ in stating)
    near = max(alike for share, alike, _ in stating if share == top)
    best: tuple[str, str] | None = None
    for share, alike, sent in stating:
        if share < top or alike < near - _TIE:
            continue  # a sentence holding fewer of the claim's words states something else ("a trial ... that was
            # interrupted" against "this trial ... may be useful", a tenth trial): only the closest ones count; of
            # two holding as many, one far less alike in its wording too ("we showed that residues 53 and 54 are
            # critical for the apoptotic ... activities of both p53(Delta1-42) and p53(Gln22-Ser23)" beside "We
            # therefore postulate that the apoptotic activity in p53(Gln22-Ser23) and ... is still
            # transcription-dependent", a 109th trial: the plain one had excused the dropped hedge)
        cues = find_terms(sent, STRONG_HEDGES)
        last = max((m.start() for m in WORD_RE.finditer(sent) if len(m.group(0)) > 1 and stem(m.group(0)) in cst), default=-1)
        cues = [c for c in cues if c[1] < last]
        if not cues:
            return None  # the source also states it plainly
        best = best or (sent, cues[0][0])
    return best


def detect_hedge_removed(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``hedge_removed`` when the claim states as a finding what the evidence hedges.

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), optional: the whole source.

    Returns:
        ``[]`` or one tag: 0.7 when the source sentence that states the claim
        (:data:`STATEMENT_OVERLAP` of its content words) hedges it with a
        speculation cue (:data:`STRONG_HEDGES`: *may*, *suggests*, *appears
        to*...) and no source sentence states it plainly; confidence 0.85 when the claim adds a certainty
        booster absent from the evidence (the best passage plus up to three
        source sentences sharing 35 % of the claim's content words) and that
        evidence hedges, 0.65 when it does not hedge (a hedge the claim keeps
        beside the booster does not excuse it); 0.4 when only the evidence hedges
        (informational: many faithful paraphrases drop a hedge).
    """
    if not evidence_text:
        return []
    claim_hedges = find_terms(claim_text, HEDGES)
    ev_hedges = find_terms(evidence_text, HEDGES)
    pool = " ".join([evidence_text] + relevant_sentences(claim_text, context.get("source_text") or "", k=3, floor=0.35))
    boosters = [b for b in find_terms(claim_text, BOOSTERS) if not find_terms(pool, [re.escape(b[0]).replace(r"\ ", r"\s+")])
                and not _NEGATED_BEFORE.search(claim_text[max(0, b[1] - 30):b[1]])]  # "had not been well established"
    # states a doubt, no certainty (a 165th trial's faithful claim for "is not well defined")
    if boosters:
        pool_hedges = find_terms(pool, HEDGES)
        ev = pool_hedges[0][0] if pool_hedges else ""
        msg = (f"The claim asserts certainty ({boosters[0][0]!r}) that the evidence does not express"
               + (f"; the evidence hedges with {ev!r}." if ev else "."))
        conf = 0.85 if ev else 0.65
        return [Tag("hedge_removed", msg, conf, (TagEvidence(boosters[0][0], ev),))]
    own = [h for h in claim_hedges if not _QUALIFIER.fullmatch(h[0])]
    stated = _hedged_statement(claim_text, [evidence_text] + relevant_sentences(
        claim_text, context.get("source_text") or "", k=3, floor=STATEMENT_OVERLAP), context.get("source_text") or "")
    if own and (stated is None or find_terms(claim_text, STRONG_HEDGES)
                or not all(re.search(rf"\b{re.escape(h[0])}\b", stated[0], re.I) for h in own)):
        return []  # the claim keeps a hedge of its own; *in part* or *partially* qualify the finding, they excuse
        # no dropped *suggest* ("These results demonstrate that ... is, at least in part, due to" for "suggest that
        # ..., at least in part, could be due to", two nineteenth trials: *supported*); a weak hedge the sentence has
        # beside the strong one the claim drops excuses nothing ("indicate" kept from "appear to indicate", a 27th
        # trial), a strong one does ("may function" kept from "suggest that A20 may function")
    if stated is not None:
        sent, cue = stated
        return [Tag("hedge_removed", f"The source hedges this statement ({cue!r}: \u201c{sent[:160]}\u201d); "
                    "the claim states it as a finding.", 0.7, (TagEvidence("", cue),))]
    if ev_hedges and not claim_hedges:
        h = ev_hedges[0][0]
        return [Tag("hedge_removed", f"The evidence hedges ({h!r}) while the claim states the finding without a hedge.",
                    0.4, (TagEvidence("", h),))]
    return []
