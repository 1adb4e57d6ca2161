"""The vocabulary of direction and negation that ``polarity_flip`` and the restating-sentence rules read.

Direction cues are grouped on two axes, *up/down* (increase/decrease, promote/inhibit, higher/lower) and *good/bad*
(improve/worsen), in the spirit of the direction-of-effect features used for contradiction in SciFact-style
verification (Wadden et al. 2020) and Check-COVID's minimal pairs; negations and their scopes; word pairs of opposite
direction or degree.
"""

from __future__ import annotations

import re

from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.stems import NEGATION, STOPWORDS

UP = [
    r"increas\w*", r"rais(?:e|es|ed|ing)", r"elevat\w*", r"higher", r"greater", r"more", r"enhanc\w*", r"promot\w*",
    r"stimulat\w*", r"activat(?:e|es|ed|ing)", r"upregulat\w*|up-regulat\w*", r"induc(?:e|es|ed|ing)", r"boost\w*",
    r"augment\w*", r"amplif\w*", r"accelerat\w*", r"ris(?:e|es|en|ing)|rose", r"facilitat\w*", r"potentiat\w*",
    r"prolong\w*", r"extend(?:s|ed)?", r"faster", r"larger", r"longer", r"stronger", r"overexpress\w*", r"gain(?:s|ed)?",
    r"up", r"excess\w*", r"exceed\w*",
]
DOWN = [
    r"decreas\w*", r"reduc\w*", r"lower(?:s|ed|ing)?", r"diminish\w*", r"declin\w*", r"attenuat\w*", r"inhibit\w*",
    r"suppress\w*", r"repress\w*", r"block(?:s|ed|ing)?", r"downregulat\w*|down-regulat\w*", r"less", r"fewer",
    r"weaken\w*", r"dampen\w*", r"abolish\w*", r"abrogat\w*", r"prevent\w*", r"slow(?:s|ed|er|ing)?",
    r"drop(?:s|ped|ping)?", r"fall(?:s|ing)?|fell", r"shrink\w*|shrank", r"smaller", r"shorter", r"weaker", r"deplet\w*",
    r"shorten\w*", r"down", r"cut(?:s)?", r"curb\w*", r"limit(?:s|ed|ing)?", r"loss(?:es)?", r"los(?:e|es|ing|t)",
    r"blunt(?:s|ed|ing)?",  # a 101st trial: miR-93 "enhanced" Cyclin D1 for "a blunting effect ... in Cyclin D1"
]
GOOD = [r"improv\w*", r"better", r"benefi\w+", r"ameliorat\w*", r"alleviat\w*", r"protect\w*", r"favou?rabl\w*", r"rescu\w*"]
BAD = [r"worsen\w*", r"worse", r"impair\w*", r"exacerbat\w*", r"aggravat\w*", r"harm\w*", r"detriment\w*", r"unfavou?rabl\w*",
       r"damag(?:e|es|ed|ing)", r"disrupt(?:s|ed|ing)?", r"perturb(?:s|ed|ing)?"]  # disrupted: an eighth trial's "impaired"
AXES = {"up": ("up", UP), "down": ("up", DOWN), "good": ("good", GOOD), "bad": ("good", BAD)}
OPPOSITE = {"up": "down", "down": "up", "good": "bad", "bad": "good"}
CUE_RES = {cls: re.compile(r"^(?:" + "|".join(words) + r")$", re.I) for cls, (_axis, words) in AXES.items()}
NEG_RE = re.compile(r"^(?:" + NEGATION + r")$", re.I)
NEG_WORDS = {"not", "no", "never", "cannot", "can't", "doesn't", "don't", "didn't", "isn't", "aren't", "wasn't",
              "weren't", "without", "fail", "fails", "failed", "lack", "lacks", "lacked", "neither", "nor", "none", "unable"}
NULL_FINDING = re.compile(r"\b(?:no|not any|without)\s+(?:significant\s+|detectable\s+|measurable\s+|appreciable\s+)?"
                           r"(?:effect|impact|influence|role|association|difference|change|relationship|correlation|link)s?\b"
                           r"|\b(?:did|does|do|was|were|is|are)\s+not\s+(?:affect|alter|change|influence|differ|modify|impact)\w*\b"
                           r"|\bunaffected\b|\bunchanged\b|\bunrelated\b|\bindependent of\b", re.I)
CLAIM_NEG = re.compile(r"\b(?:(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|may|might|should)\s+not"
                        r"|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|cannot|can't|fails?\s+to|failed\s+to|never|no longer"
                        r"|neither|nor|not\s+(?:\w+\s+)?(?:associated|involved|required|necessary|linked|related))\b|\b(?-i:[Nn]o)\b", re.I)
"""A negated claim (*does not*, *fails to*, *no*; not *NO*, nitric oxide: a 59th trial's faithful "induced NO
production", the claim as the source writes it, was read as negated)."""
NEG_ANY = re.compile(r"\b(?:" + NEGATION + r"|unaffected|unchanged|independent|absent|lack\w*|failed|fails|neither|nor"
                      r"|dispensable|irrespective|regardless|similar|comparable)\b|n't\b", re.I)
AUX = {"do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would", "may", "might",
        "should"}
BE_FORMS = frozenset({"is", "are", "was", "were", "be", "been", "being"})
HAVE_FORMS = frozenset({"has", "have", "had"})
MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must", "do", "does", "did"})
"""The forms of *be* and *have* and the modals (with *do*), read where a verb's voice or place matters
(:mod:`citeproof.detectors.voices`, :func:`citeproof.detectors.swaps._verb_slot`, the passive of
:func:`citeproof.detectors.reversals.named_ends_exchanged`)."""
WINDOW = 5


_SCOPE_SKIP = {"in", "fact", "a", "an", "the", "be", "been", "being", "only", "always", "necessarily", "to", "any", "at",
               "all", "by", "itself", "themselves", "directly", "really", "actually", "yet", "so", "as", "much"}
_CLAUSE_END = re.compile(r"[,;:()]|\b(?:but|whereas|while|although|though|which|that|and)\b", re.I)
_NEG_TOKEN = re.compile(r"\b(?:not|no|never|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|neither|nor"
                        r"|fails?\s+to|failed\s+to|unable\s+to)\b", re.I)
NEG_ANY_SIDE = re.compile(_NEG_TOKEN.pattern + r"|\b(?:lacks?|lacked|lacking|absence\s+of|absent)\b", re.I)
NEG_LEXICAL = re.compile(r"\b(?:ineffective|unaffected|unchanged|unrelated|independent|irrespective|regardless|absent"
                          r"|dispensable|insufficient|unnecessary|none|rather than|instead|nor)\b|n't\b", re.I)


def neg_scopes(text: str, words: int = 4) -> list[tuple[str, list[str]]]:
    """``(negation, content stems after it)`` for each negation: up to ``words`` content words, stopping at a clause end."""
    out = []
    for m in _NEG_TOKEN.finditer(text):
        rest = text[m.end():]
        end = _CLAUSE_END.search(rest)
        rest = rest[: end.start()] if end else rest
        stems = [stem(w)[:5] for w in _TOKEN_RE.findall(rest)
                 if w.lower() not in STOPWORDS and w.lower() not in _SCOPE_SKIP and len(w) >= 3][:words]
        if stems:
            out.append((m.group(0), stems))
    return out



NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


ANTONYMS = frozenset(frozenset(p) for p in (
    ("more", "less"), ("more", "fewer"), ("larger", "smaller"), ("bigger", "smaller"), ("higher", "lower"),
    ("greater", "smaller"), ("greater", "lower"), ("greater", "less"), ("faster", "slower"), ("longer", "shorter"),
    ("stronger", "weaker"), ("better", "worse"), ("earlier", "later"), ("older", "younger"), ("wider", "narrower"),
    ("most", "least"), ("highest", "lowest"), ("largest", "smallest"), ("maximum", "minimum"),
    ("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"), ("increasing", "decreasing"),
    ("upregulated", "downregulated"), ("upregulation", "downregulation"), ("gain", "loss"), ("gains", "losses"),
    ("before", "after"), ("above", "below"), ("inside", "outside"), ("positive", "negative"),
    # an association's sign: a 26th trial's "significant positive linear association" for "inverse" had no tag
    ("positive", "inverse"), ("positively", "inversely"), ("positively", "negatively"), ("direct", "inverse"),
    ("directly", "inversely"),  # "correlates inversely with" for "correlates directly with" (a 160th trial: *partial*)
    ("aerobic", "anaerobic"),  # "the determinants of anaerobic fitness" for "aerobic fitness" (a 174th: *supported*)
    ("rapidly", "slowly"), ("rapid", "slow"), ("quickly", "slowly"),  # "Promoter closure occurs very
    # slowly" for "very rapidly" (a 176th trial: *partial*, a hedge tag only)
    ("activator", "repressor"), ("activators", "repressors"),  # "act as a repressor" for "a positive regulator" (175th)
    ("greater", "lesser"), ("larger", "lesser"), ("more", "lesser"),  # a 27th trial: "to a greater degree" for "lesser"
    ("activates", "inhibits"), ("activated", "inhibited"), ("promotes", "suppresses"), ("promoted", "suppressed"),
    ("rise", "fall"), ("rises", "falls"), ("rose", "fell"), ("enhanced", "reduced"), ("enhances", "reduces"),
    # improved / declined: a new user's trial (survival "overall improved over time"); on two axes, so named here
    ("improved", "declined"), ("improves", "declines"), ("improve", "decline"), ("improving", "declining"),
    ("dominant", "recessive"),  # a sixth trial: an "autosomal-recessive" trait for the source's "autosomal-dominant"
    # the plain degrees: "Low level expression of L-selectin" for "High level expression" (a nineteenth trial)
    ("high", "low"), ("large", "small"), ("early", "late"), ("fast", "slow"), ("strong", "weak"),
    # trials 56-57: "so easy to detect" for "so difficult", "dependent on" for "independent of"
    ("easy", "difficult"), ("easier", "harder"), ("easier", "more difficult"), ("dependent", "independent"),
    ("underrepresented", "overrepresented"), ("underrepresented", "enriched"), ("common", "rare"),
    ("frequent", "rare"), ("frequent", "infrequent"), ("abundant", "scarce"), ("abundant", "rare"),
    # a 59th trial: "preventing the gradual development of multidrug-resistant TB" for "allowing"
    ("allowing", "preventing"), ("allows", "prevents"), ("allowed", "prevented"), ("allow", "prevent"),
    ("enabling", "preventing"), ("enables", "prevents"), ("enabled", "prevented"), ("permits", "prevents"),
    # trials 87 and 90: cell death "delayed" for "accelerated", polymerases "preventing mutations" for "generating"
    ("accelerated", "delayed"), ("accelerates", "delays"), ("accelerate", "delay"), ("hastened", "delayed"),
    ("generating", "preventing"), ("generates", "prevents"), ("generated", "prevented"), ("generate", "prevent"),
    ("causing", "preventing"), ("causes", "prevents"), ("caused", "prevented"),
    ("rise", "collapse"), ("rises", "collapses"), ("rose", "collapsed"), ("increase", "collapse"),  # 93rd: Myc mRNA
    # levels "rise sharply" for "collapse"
    ("little", "large"), ("little", "great"), ("little", "substantial"), ("little", "considerable"),  # 88th: "have
    # little effect on estimates" for "can have large effects on the estimates"
    # a 133rd trial: changes "observed even in the absence of functional Nef" for "only ... in the presence of"; a
    # 132nd: agents that "could exacerbate the deleterious proteolytic effects" for "could counter"
    ("presence", "absence"), ("present", "absent"), ("counter", "exacerbate"), ("counteract", "exacerbate"),
    ("counters", "exacerbates"), ("counteracts", "exacerbates"), ("countered", "exacerbated"),
    ("maximizes", "minimizes"), ("maximize", "minimize"), ("maximized", "minimized"), ("maximizing", "minimizing"),
    ("maximal", "minimal"), ("maximises", "minimises"), ("maximise", "minimise"),  # a 136th trial's registration
    ("on", "off"),
    # a 179th trial: patients who "show radioresistance" for the source's "radiosensitivity" (*supported*)
    ("resistance", "sensitivity"), ("resistant", "sensitive"), ("resistance", "susceptibility"),
    ("resistant", "susceptible"),
    # trials 183 and 185: the epidermis "shortens" for "elongates", subclones "that shrank over time" for "expanded"
    ("elongates", "shortens"), ("elongated", "shortened"), ("elongate", "shorten"), ("elongation", "shortening"),
    ("expanded", "shrank"), ("expands", "shrinks"), ("expand", "shrink"), ("expansion", "shrinkage"),
    ("expanded", "contracted"), ("expands", "contracts"),
    # a 148th trial: mutations that "result in constitutive inactivation of beta-catenin" for "activation"
    ("activation", "inactivation"), ("activated", "inactivated"), ("active", "inactive"), ("activating", "inactivating"),  # a 135th trial: dormancy "switched 'off' by engagement with bone-lining cells" for "'on'"
))
"""Word pairs of opposite direction or degree: one in the claim where the restating sentence has the other, every
other word alike, is a reversal code can show (:func:`_restated_reversal`)."""

DEGREE = frozenset({"most", "least", "more", "less", "fewer", "fewest"})
"""Degree words: a reversed word too ("ZAR 29.2 less on traditional healers" for "more", a 36th trial)."""
PREPOSITIONS = frozenset("in on at by through after via with from during upon following for into within".split())
"""Prepositions one of which may stand for another around a turned word ("through" / "after", an 87th trial)."""
WHEN = frozenset({"still", "now", "also", "already", "yet", "further", "currently"})
"""Adverbs of time read past before a turned word at a claim's end ("are now declining" / "are still increasing")."""

RELATION = frozenset({"to", "into", "onto", "than", "whereas", "while", "whilst", "but", "versus", "vs", "compared",
                       "over", "unlike", "rather", "toward", "towards", "against", "instead"})
"""Words that set two terms against each other (*from the nucleus to the cytoplasm*, *severe ... whereas
uncomplicated*): two terms exchanged across one of them is a reversal; across *and* / *or* it is a reordering."""


NEGATOR = re.compile(rf"(?:{NEGATION})", re.I)
OPENERS = frozenset({"however", "furthermore", "moreover", "thus", "notably", "importantly", "additionally",
                     "conversely", "similarly", "interestingly", "finally", "yet", "still", "also", "in", "addition",
                     "contrast"})
"""Words a sentence opens with before what it says (*However, most studies*, *In addition, IL-17*), lower case: what
follows them stands where a claim's first word stands."""


def light_token(w: str) -> bool:
    """A token a restatement may add or drop without changing what it says: a stop word, a number, or up to three
    characters (``(ref. 4)``, ``et al``), but never a negation (*not*, *no*, *never*...: "not smaller" is no
    reversal of "larger")."""
    return (w in STOPWORDS or len(w) <= 3 or NUMBER.fullmatch(w) is not None) and not NEGATOR.fullmatch(w)



def content_stems(words: list[str]) -> list[str]:
    """The stems of the content words among ``words`` (3+ characters, not stop words), whole (not cut to five
    letters as :func:`neg_scopes` cuts them)."""
    return [stem(w) for w in words if len(w) >= 3 and w.lower() not in STOPWORDS]


ASIDE = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])")
"""An aside in brackets with the space before it ("(relative risk, 1.33; 95% CI, 1.24-1.43)", "[SD]"): a claim that
restates a sentence often leaves it out, so rules compare the sentence without it too."""


SETS_IN_DOUBT = frozenset({
    "whether", "if", "unless", "hypothesis", "hypothesized", "hypothesised", "hypothesize", "hypothesise", "claim",
    "claims", "claimed", "suggested", "speculated", "proposed", "believed", "thought", "assumed", "expected",
    "predicted", "postulated", "myth", "debated", "controversial", "unclear", "unknown", "may", "might", "could",
})
"""Words that make a sentence report a view or a question rather than a finding: a claim that negates such a
sentence's words may report the finding that answered it."""
