"""``polarity_flip``: the claim reverses the direction the evidence reports.

Direction cues are grouped on two axes, *up/down* (increase/decrease,
promote/inhibit, higher/lower) and *good/bad* (improve/worsen), in the spirit
of the direction-of-effect features used for contradiction in SciFact-style
verification (Wadden et al. 2020) and Check-COVID's minimal pairs. A cue
preceded by a negation (``does not increase``) counts for the opposite
class. A cue is compared only with cues of the other text that share a
content word within five words of it (same target), so ``increases
mortality`` is not opposed to ``reduced blood pressure`` in the same passage.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import NEGATION, STOPWORDS, overlap_score, relevant_sentences, stem_opcodes
from citeproof.detectors.swaps import RESTATE_AT, same_term
from citeproof.model import Tag, TagEvidence

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
    r"weaken\w*", r"dampen\w*", r"abolish\w*", r"abrogat\w*", r"prevent\w*", r"slow(?:s|ed|er|ing)?", r"drop\w*",
    r"fall(?:s|ing)?|fell", r"shrink\w*|shrank", r"smaller", r"shorter", r"weaker", r"deplet\w*", r"shorten\w*",
    r"down", r"cut(?:s)?", r"curb\w*", r"limit(?:s|ed|ing)?", r"loss(?:es)?", r"los(?:e|es|ing)",
]
GOOD = [r"improv\w*", r"better", r"benefi\w+", r"ameliorat\w*", r"alleviat\w*", r"protect\w*", r"favou?rabl\w*", r"rescu\w*"]
BAD = [r"worsen\w*", r"worse", r"impair\w*", r"exacerbat\w*", r"aggravat\w*", r"harm\w*", r"detriment\w*", r"unfavou?rabl\w*",
       r"damag(?:e|es|ed|ing)"]
AXES = {"up": ("up", UP), "down": ("up", DOWN), "good": ("good", GOOD), "bad": ("good", BAD)}
_OPPOSITE = {"up": "down", "down": "up", "good": "bad", "bad": "good"}
_CUE_RES = {cls: re.compile(r"^(?:" + "|".join(words) + r")$", re.I) for cls, (_axis, words) in AXES.items()}
_NEG_RE = re.compile(r"^(?:" + NEGATION + r")$", re.I)
_NEG_WORDS = {"not", "no", "never", "cannot", "can't", "doesn't", "don't", "didn't", "isn't", "aren't", "wasn't",
              "weren't", "without", "fail", "fails", "failed", "lack", "lacks", "lacked", "neither", "nor", "none", "unable"}
_NULL_FINDING = re.compile(r"\b(?:no|not any|without)\s+(?:significant\s+|detectable\s+|measurable\s+|appreciable\s+)?"
                           r"(?:effect|impact|influence|role|association|difference|change|relationship|correlation|link)s?\b"
                           r"|\b(?:did|does|do|was|were|is|are)\s+not\s+(?:affect|alter|change|influence|differ|modify|impact)\w*\b"
                           r"|\bunaffected\b|\bunchanged\b|\bunrelated\b|\bindependent of\b", re.I)
_CLAIM_NEG = re.compile(r"\b(?:(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|may|might|should)\s+not"
                        r"|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|cannot|can't|fails?\s+to|failed\s+to|never|no longer"
                        r"|neither|nor|not\s+(?:\w+\s+)?(?:associated|involved|required|necessary|linked|related))\b|\bno\b", re.I)
_NEG_ANY = re.compile(r"\b(?:" + NEGATION + r"|unaffected|unchanged|independent|absent|lack\w*|failed|fails|neither|nor"
                      r"|dispensable|irrespective|regardless|similar|comparable)\b|n't\b", re.I)
_AUX = {"do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would", "may", "might",
        "should"}
WINDOW = 5


_COMPARATIVES = {"higher", "lower", "greater", "faster", "larger", "longer", "stronger", "smaller", "shorter", "weaker",
                 "better", "slower", "fewer"}


def _is_agent_noun(word: str) -> bool:
    """``suppressor``, ``inhibitors``, ``promoter``, ``enhancers``: names, not directions."""
    w = word.lower()
    return w not in _COMPARATIVES and (w.endswith(("or", "ors", "ers")) or (w.endswith("er") and len(w) > 6))


def _cues(text: str) -> list[tuple[str, str, int, set[str]]]:
    """Direction cues as ``(class, word, token index, target stems within WINDOW words)``."""
    toks = [m.group(0) for m in _TOKEN_RE.finditer(text)]
    out = []
    for i, t in enumerate(toks):
        cls = next((c for c, rx in _CUE_RES.items() if rx.match(t)), None)
        if cls is None or _is_agent_noun(t):
            continue
        if t.lower() in ("more", "less", "fewer", "greater") and "than" not in [w.lower() for w in toks[i + 1 : i + 4]]:
            continue  # "more advanced", "less studied": quantity words, not a direction, unless comparing
        neg_at = next((j for j in range(max(0, i - 3), i) if toks[j].lower() in _NEG_WORDS), None)
        shown = t
        if neg_at is not None:
            cls = _OPPOSITE[cls]
            if neg_at > 0 and toks[neg_at - 1].lower() in _AUX:
                neg_at -= 1
            shown = " ".join(toks[neg_at : i + 1])  # "did not rescue", not "rescue"
        around = [w for w in toks[max(0, i - WINDOW) : i] + toks[i + 1 : i + 1 + WINDOW]
                  if w.lower() not in STOPWORDS and len(w) >= 3 and not any(rx.match(w) for rx in _CUE_RES.values())
                  and w.lower() not in _NEG_WORDS]
        tgt = {stem(w)[:5] for w in around}
        out.append((cls, shown, i, tgt, {stem(w)[:5]: w for w in reversed(around)} | {"": " ".join(around)}))
    return out


def _surface(stems: list[str], words: dict[str, str]) -> str:
    """The claim's own words for target stems (``tumou`` -> ``tumour``), in the claim's order."""
    order = {stem(w)[:5]: n for n, w in enumerate(words.get("", "").split())}
    return ", ".join(words.get(x, x) for x in sorted(stems, key=lambda x: order.get(x, 99)))


def _window_stems(text: str, m: re.Match, words: int = 6) -> set[str]:
    """Content stems within ``words`` words either side of the match ``m``."""
    before = _TOKEN_RE.findall(text[: m.start()])[-words:]
    after = _TOKEN_RE.findall(text[m.end() :])[:words]
    return {stem(w) for w in before + after if w.lower() not in STOPWORDS and len(w) >= 3}


def _negated_verbs(text: str) -> dict[str, str]:
    """Stem -> span for verbs negated with an auxiliary (``does not reduce`` -> ``reduc``)."""
    out = {}
    for m in re.finditer(r"\b(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|may|might|should)\s+not\s+"
                         r"(?:\w+ly\s+)?(?:be\s+)?((?:[^\W\d_]|-){4,})|\b(?:doesn't|don't|didn't|isn't|aren't|wasn't|weren't|cannot|"
                         r"fails?\s+to|failed\s+to|never)\s+(?:\w+ly\s+)?((?:[^\W\d_]|-){4,})", text, re.I):
        w = m.group(1) or m.group(2)
        out[stem(w)] = m.group(0)
    return out


_SCOPE_SKIP = {"in", "fact", "a", "an", "the", "be", "been", "being", "only", "always", "necessarily", "to", "any", "at",
               "all", "by", "itself", "themselves", "directly", "really", "actually", "yet", "so", "as", "much"}
_CLAUSE_END = re.compile(r"[,;:()]|\b(?:but|whereas|while|although|though|which|that|and)\b", re.I)
_NEG_TOKEN = re.compile(r"\b(?:not|no|never|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|neither|nor"
                        r"|fails?\s+to|failed\s+to|unable\s+to)\b", re.I)
_NEG_ANY_SIDE = re.compile(_NEG_TOKEN.pattern + r"|\b(?:lacks?|lacked|lacking|absence\s+of|absent)\b", re.I)
_NEG_LEXICAL = re.compile(r"\b(?:ineffective|unaffected|unchanged|unrelated|independent|irrespective|regardless|absent"
                          r"|dispensable|insufficient|unnecessary|none|rather than|instead|nor)\b|n't\b", re.I)


def _neg_scopes(text: str, words: int = 4) -> list[tuple[str, list[str]]]:
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


def _prefixes(text: str) -> set[str]:
    return {stem(w)[:5] for w in _TOKEN_RE.findall(text) if len(w) >= 3}


def _negation_mismatch(claim_text: str, pool: list[str]) -> Tag | None:
    """A negation in the claim whose scope the evidence states plainly.

    The claim negates (*is not involved in*, *does not activate*) and every
    evidence sentence holding three of the negated words (up to four content
    words after the negation, within the clause) states them with no negation
    anywhere in it: confidence 0.75. The mirror rule (the evidence negates
    what the claim states plainly) was tried and dropped: on 200 SciFact and
    Citation-Integrity pairs it caught 2 planted errors and raised 6 false
    alarms (abstracts report several findings, some negative).
    """
    c_scopes = _neg_scopes(claim_text)
    for neg, sc in c_scopes:
        need = min(3, len(sc))
        holding = [s for s in pool if sum(w in _prefixes(s) for w in sc) >= need]
        if holding and not any(_NEG_ANY_SIDE.search(s) or _NEG_LEXICAL.search(s) or _NULL_FINDING.search(s) for s in holding):
            return Tag("polarity_flip", f"The claim negates ({neg!r} {' '.join(sc)}...) what the evidence states without negation.",
                       0.75, (TagEvidence(neg, holding[0][:120]),))
    return None


_COUNT_BEFORE = (r"(?:\d[\d,]*(?:\.\d+)?\s*%?|many|most|some|several|numerous|half|thousands|millions|hundreds|dozens|"
                 r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|a\s+few)\s+(?:of\s+)?(?:the\s+|all\s+|these\s+)?")


def _counted_negation(claim_text: str, pool: list[str]) -> Tag | None:
    """A sentence that counts what the claim's quantifier negation (*no*, *none*) says does not exist.

    "holds no articles published after 1850" against "95% of articles in Sci-Hub were published after 1950":
    a sentence holding the negated words (three of them, or all when fewer), negating nothing, gives a
    positive amount (a number, a percentage, *many*, *most*...) of the very noun the claim says there is none
    of. Code shows it: confidence 0.9, a contradiction rather than a missing word.
    """
    for neg, sc in _neg_scopes(claim_text):
        if neg.lower() not in ("no", "none"):
            continue
        need = min(3, len(sc))
        for sent in pool:
            if sum(w in _prefixes(sent) for w in sc) < need or _NEG_ANY_SIDE.search(sent) or _NULL_FINDING.search(sent):
                continue
            if re.search(_COUNT_BEFORE + re.escape(sc[0]) + r"\w*", sent, re.I):
                m = re.search(rf"\b{re.escape(neg)}\s+((?:\S+\s*){{1,4}})", claim_text, re.I)
                what = f"{neg} {m.group(1).strip()}" if m else neg
                return Tag("polarity_flip", f"The claim says {what!r}, where the source counts them: \u201c{sent[:160]}\u201d",
                           0.9, (TagEvidence(what, sent[:120]),), proven=True)
    return None


_THAN = frozenset({"than", "versus", "vs", "compared"})
"""Words that join the two sides of a comparison (*steeper among smokers than among never-smokers*)."""


_DEGREE = frozenset({"less", "more", "least", "most", "not", "no", "never"})
"""Words that turn or grade a comparative (*less steep*, *not higher*): they must agree for a reversal."""


def _comparison(words: list[str]) -> tuple[list[str], list[str], str, frozenset] | None:
    """The first comparison of lower-cased ``words``: (left term's stems, right term's stems, the comparative's
    stem, the degree words before it), each term the run of up to three content words on its side of *than*
    (function words between skipped: *among smokers than among never-smokers*); None when there is none."""
    for k, w in enumerate(words):
        if w not in _THAN:
            continue
        j = k - 1
        while j >= 0 and words[j] in STOPWORDS and k - j <= 3:
            j -= 1
        left: list[str] = []
        while j >= 0 and words[j] not in STOPWORDS and len(left) < 3:
            left.insert(0, words[j])
            j -= 1
        while j >= 0 and words[j] in STOPWORDS and words[j] not in _DEGREE:
            j -= 1
        comparative = stem(words[j]) if j >= 0 else ""
        degree = frozenset(x for x in words[max(0, j - 2):j + 1] if x in _DEGREE)
        i = k + 1
        while i < len(words) and words[i] in STOPWORDS and i - k <= 3:
            i += 1
        right: list[str] = []
        while i < len(words) and words[i] not in STOPWORDS and len(right) < 3:
            right.append(words[i])
            i += 1
        if left and right:
            return [stem(x) for x in left], [stem(x) for x in right], comparative, degree
    return None


def _reversed_comparison(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence that makes the claim's comparison the other way round, with the same comparative.

    "The decline in lung function was steeper among never-smokers than among smokers" against "The decline was
    steeper among smokers than among never-smokers": the two compared terms (:func:`_comparison`) exchange places
    across *than* (or *versus*, *vs*, *compared*), the word before them (*steeper*) and its degree words (*less*,
    *not*...) agree, and the sentence restates the claim (:data:`~citeproof.detectors.swaps.RESTATE_AT`). "Less
    steep among never-smokers than among smokers" says the same as the source and is no reversal. Code shows it:
    confidence 0.9, ``proven``.
    """
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    cc = _comparison(cw) if _THAN.intersection(cw) else None
    if cc is None:
        return None
    for passage in pool:
        for sent in split_sentences(passage):
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            if not _THAN.intersection(sw) or overlap_score(claim_text, sent) < RESTATE_AT:
                continue
            sc = _comparison(sw)
            if (sc is not None and cc[0] != cc[1] and cc[0] == sc[1] and cc[1] == sc[0] and cc[2] == sc[2]
                    and cc[3] == sc[3]):
                first, second = (" ".join(w for w in cw if stem(w) in t) for t in (cc[0], cc[1]))
                return Tag("polarity_flip", f"The claim compares {first!r} with {second!r} the other way round from "
                           f"the source: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(first, second),), proven=True)
    return None


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


_ANTONYMS = frozenset(frozenset(p) for p in (
    ("more", "less"), ("more", "fewer"), ("larger", "smaller"), ("bigger", "smaller"), ("higher", "lower"),
    ("greater", "smaller"), ("greater", "lower"), ("greater", "less"), ("faster", "slower"), ("longer", "shorter"),
    ("stronger", "weaker"), ("better", "worse"), ("earlier", "later"), ("older", "younger"), ("wider", "narrower"),
    ("most", "least"), ("highest", "lowest"), ("largest", "smallest"), ("maximum", "minimum"),
    ("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"), ("increasing", "decreasing"),
    ("upregulated", "downregulated"), ("upregulation", "downregulation"), ("gain", "loss"), ("gains", "losses"),
    ("before", "after"), ("above", "below"), ("inside", "outside"), ("positive", "negative"),
    ("activates", "inhibits"), ("activated", "inhibited"), ("promotes", "suppresses"), ("promoted", "suppressed"),
    ("rise", "fall"), ("rises", "falls"), ("rose", "fell"), ("enhanced", "reduced"), ("enhances", "reduces"),
))
"""Word pairs of opposite direction or degree: one in the claim where the restating sentence has the other, every
other word alike, is a reversal code can show (:func:`_restated_reversal`)."""

_RELATION = frozenset({"to", "into", "onto", "than", "whereas", "while", "whilst", "but", "versus", "vs", "compared",
                       "over", "unlike", "rather", "toward", "towards", "against", "instead"})
"""Words that set two terms against each other (*from the nucleus to the cytoplasm*, *severe ... whereas
uncomplicated*): two terms exchanged across one of them is a reversal; across *and* / *or* it is a reordering."""


_NEGATOR = re.compile(rf"(?:{NEGATION})", re.I)


def _light(w: str) -> bool:
    """A token a restatement may add or drop without changing what it says: a stop word, a number, or up to three
    characters (``(ref. 4)``, ``et al``), but never a negation (*not*, *no*, *never*...: "not smaller" is no
    reversal of "larger")."""
    return (w in STOPWORDS or len(w) <= 3 or _NUMBER.fullmatch(w) is not None) and not _NEGATOR.fullmatch(w)


_ASIDE = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])")


def _readings(sent: str) -> list[str]:
    """``sent`` and, when it holds asides in brackets, ``sent`` without them: a claim that restates a sentence often
    leaves out its "(relative risk, 1.33; 95% CI, 1.24-1.43)" or "mean [SD] age"."""
    bare = _ASIDE.sub("", sent)
    return [sent, bare] if bare != sent and bare.strip() else [sent]


def _opposite(a: str, b: str) -> bool:
    """``a`` and ``b`` (lower-case words) say opposite things: a pair of :data:`_ANTONYMS`, or direction cues of one
    axis pointing opposite ways (*increased* / *reduced*, *improves* / *impairs*: :data:`AXES`)."""
    if frozenset((a, b)) in _ANTONYMS:
        return True
    return any(_CUE_RES[c].match(a) and _CUE_RES[_OPPOSITE[c]].match(b) and not _CUE_RES[c].match(b)
               and not _CUE_RES[_OPPOSITE[c]].match(a) for c in AXES)


def _differences(cw: list[str], sw: list[str]) -> list[tuple[str, int, int, int, int]]:
    """The non-equal :func:`~citeproof.text.stems.stem_opcodes` of claim words ``cw`` against sentence words ``sw``,
    a claim's first or last word replaced by several sentence words read as one word replaced and the rest inserted
    beyond the claim's words (difflib joins "nucleus" / "cytoplasm, and for the concomitant ..." into one run)."""
    out: list[tuple[str, int, int, int, int]] = []
    for t, i1, i2, j1, j2 in stem_opcodes(cw, sw):
        if t == "replace" and i2 - i1 == 1 and j2 - j1 > 1 and i2 == len(cw):  # the claim's last word, then more
            out += [("replace", i1, i2, j1, j1 + 1), ("insert", i2, i2, j1 + 1, j2)]
        elif t == "replace" and i2 - i1 == 1 and j2 - j1 > 1 and i1 == 0:  # more, then the claim's first word
            out += [("insert", 0, 0, j1, j2 - 1), ("replace", i1, i2, j2 - 1, j2)]
        elif t != "equal":
            out.append((t, i1, i2, j1, j2))
    return out


def _restated_reversal(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence that restates the claim word for word but for a reversal: one word turned into its opposite
    (:func:`_opposite`: "of larger size" against "of smaller size", "more selective" against "less selective",
    "when it increased fasting gene expression" against "when it reduced ..."), or
    two of its terms exchanged across a word that sets them against each other (:data:`_RELATION`: "from the
    cytoplasm to the nucleus" against "from the nucleus to the cytoplasm"; "severe ... whereas ... uncomplicated"
    against "uncomplicated ... whereas ... severe").

    Words are compared by stem (:func:`citeproof.text.stems.stem_opcodes`); besides the reversal the sentence and
    the claim may differ only by light tokens (:func:`_light`), by asides in brackets the claim leaves out
    (:func:`_readings`) and by what the sentence says before or after the claim's words, and the sentence restates
    the claim (:data:`~citeproof.detectors.swaps.RESTATE_AT` of its content words). Found by new users' trials on
    SciFact abstracts (2026-12-06): both kinds came out *supported* or *partial*. Code shows it: confidence 0.9,
    ``proven``.
    """
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    for passage in pool:
        for sent in (r for whole in split_sentences(passage) for r in _readings(whole)):
            if overlap_score(claim_text, sent) < RESTATE_AT:
                continue
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            ops = _differences(cw, sw)
            reps = [op for op in ops if op[0] == "replace"]
            if not reps or not all(i2 - i1 == 1 and j2 - j1 == 1 for _t, i1, i2, j1, j2 in reps):
                continue
            # the sentence may say more before or after the claim's words (an insert at either end); inside them,
            # and of the claim's own words, only light tokens may differ
            if not all(_light(w) for op in ops if op[0] != "replace"
                       and not (op[0] == "insert" and op[1] in (0, len(cw))) for w in cw[op[1]:op[2]] + sw[op[3]:op[4]]):
                continue
            if len(reps) == 1:
                a, b = cw[reps[0][1]], sw[reps[0][3]]
                if _opposite(a, b):
                    return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, every other word "
                               f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
            elif len(reps) == 2:
                (_t, i1, _i, j1, _j), (_u, i2, _k, j2, _l) = reps
                a1, a2 = cw[i1], cw[i2]
                if (stem(a1) == stem(sw[j2]) and stem(a2) == stem(sw[j1]) and not _light(a1) and not _light(a2)
                        and _RELATION.intersection(cw[i1 + 1:i2])):
                    return Tag("polarity_flip", f"The claim exchanges {a1!r} and {a2!r}: the source says it the other "
                               f"way round, \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a1, a2),), proven=True)
    return None


_NOT_A_DENIAL = frozenset({"only", "just", "merely", "solely", "exclusively", "least", "surprisingly",
                           "unexpectedly", "doubt", "wonder", "longer"})
"""Words after a negation that make it no denial of what follows (*not only ... but also*, *no doubt*); *no
longer* says a state ended, which a claim without it may still report of its time."""

_SETS_IN_DOUBT = frozenset({
    "whether", "if", "unless", "hypothesis", "hypothesized", "hypothesised", "hypothesize", "hypothesise", "claim",
    "claims", "claimed", "suggested", "speculated", "proposed", "believed", "thought", "assumed", "expected",
    "predicted", "postulated", "myth", "debated", "controversial", "unclear", "unknown", "may", "might", "could",
})
"""Words that make a sentence report a view or a question rather than a finding: a claim that negates such a
sentence's words may report the finding that answered it."""


def _negation_dropped(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A pool sentence that restates the claim word for word but for one negation on one side only: the source
    negates what the claim states ("No significant difference emerged between AO, AM and PL" against "A
    significant difference emerged between amitriptylinoxide, amitriptyline and placebo"), or the claim negates
    what the sentence states as a finding.

    Words are compared by stem (:func:`_differences`); besides the negation the two may differ only by light tokens
    (:func:`_light`), by a term the source abbreviates (:func:`~citeproof.detectors.swaps.same_term`) and by what
    the sentence says before or after the claim's words; a negation just before the claim's first word counts. A
    short sentence (3+ content words) that the claim holds whole may stand for the restatement, the claim saying more
    before or after it, when the negation is the source's.
    Not a denial: *not only*, *no doubt*, *no longer* (:data:`_NOT_A_DENIAL`). A negation the claim adds counts only
    when the sentence reports no view or question (:data:`_SETS_IN_DOUBT`: "We tested whether X causes Y"), negates
    nothing itself ("associated in men but not in women") and no sentence of the source negates what the claim
    negates (:func:`states_same_negation`). Found by a new user's
    trial on SciFact abstracts (2026-12-06): the dropped "No" ended *partial*. Code shows it: confidence 0.9,
    ``proven``.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (abbreviations it defines; the claim's negation stated elsewhere).

    Returns:
        A ``polarity_flip`` tag, or None.
    """
    co = _TOKEN_RE.findall(claim_text)
    cw = [w.lower() for w in co]
    claim_stems = set(_content_stems(co))
    for passage in pool:
        for sent in split_sentences(passage):
            so = _TOKEN_RE.findall(sent)
            sw = [w.lower() for w in so]
            sent_stems = _content_stems([w for w in so if w.lower() not in _AUX and not _NEGATOR.fullmatch(w)])
            # a short sentence the claim holds whole, saying more around it ("Hospital mortality did not differ."
            # against "Hospital mortality differed between the NIV and standard treatment groups")
            held = len(sent_stems) >= 3 and set(sent_stems) <= claim_stems
            if not held and overlap_score(claim_text, sent) < RESTATE_AT:
                continue
            negs: list[tuple[str, str, tuple[str, str]]] = []  # (side, negation word, (claim span, source span))
            ok, negates_beyond, claim_beyond = True, False, False
            for t, i1, i2, j1, j2 in _differences(cw, sw):
                if t == "delete" and held and (i1 == 0 or i2 == len(cw)):
                    claim_beyond = True  # the claim goes on past the sentence's words
                    continue
                if t == "insert" and (i1 == len(cw) or (i1 == 0 and not _NEGATOR.fullmatch(sw[j2 - 1]))):
                    # the sentence says more before or after the claim's words ("... in men but not in women")
                    negates_beyond = negates_beyond or any(_NEGATOR.fullmatch(w) for w in sw[j1:j2])
                    continue
                if t == "insert" and i1 == 0:
                    j1 = j2 - 1  # a negation right before the claim's first word ("No significant ...")
                c_neg = [k for k in range(i1, i2) if _NEGATOR.fullmatch(cw[k])]
                s_neg = [k for k in range(j1, j2) if _NEGATOR.fullmatch(sw[k])]
                spans = (" ".join(co[i1:i2 + 1]), " ".join(so[j1:j2 + 1]))  # with the word the negation governs
                negs += [("claim", cw[k], spans) for k in c_neg] + [("source", sw[k], spans) for k in s_neg]
                if any(k + 1 < len(sw) and sw[k + 1] in _NOT_A_DENIAL for k in s_neg) or any(
                        k + 1 < len(cw) and cw[k + 1] in _NOT_A_DENIAL for k in c_neg):
                    ok = False
                    break
                c_rest = [co[k] for k in range(i1, i2) if k not in c_neg]
                s_rest = [so[k] for k in range(j1, j2) if k not in s_neg]
                if not all(_light(w.lower()) for w in c_rest + s_rest) and not (
                        c_rest and s_rest and same_term(c_rest, s_rest, source_text)):
                    ok = False
                    break
            if not ok or len(negs) != 1:
                continue
            side, word, (c_span, s_span) = negs[0]
            if side == "claim" and (set(sw) & _SETS_IN_DOUBT or negates_beyond or claim_beyond
                                    or states_same_negation(claim_text, source_text or passage)):
                continue
            what = "leaves out" if side == "source" else "adds"
            return Tag("polarity_flip", f"The claim says {c_span!r} where the source says {s_span!r} (it {what} "
                       f"{word!r}), every other word alike: \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(c_span, s_span),), proven=True)
    return None


def _run_content(ops: list[tuple[str, int, int, int, int]], cw: list[str], sw: list[str]) -> tuple[int, set[str]]:
    """Walking ``ops`` in the order given, the content words (3+ characters, not stop words) of the claim that the
    sentence states word for word, up to the first difference that is not light (:func:`_light`); and their stems."""
    n, stems = 0, set()
    for t, i1, i2, j1, j2 in ops:
        if t == "equal":
            words = [w for w in cw[i1:i2] if len(w) >= 3 and w not in STOPWORDS]
            n, stems = n + len(words), stems | {stem(w) for w in words}
        elif not all(_light(w) for w in cw[i1:i2] + sw[j1:j2]):
            break
    return n, stems


RUN_AROUND = (2, 5)
"""A reversal inside a run (:func:`_reversal_in_run`): at least 2 content words stated alike on each side of the
reversed word, and 5 in all."""


def _reversal_in_run(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A reversal inside a run of words the claim shares with a pool sentence, where claim and sentence go on
    differently before or after it (a false claim joining two sentences of the source): "The use of NIV was
    associated with a significant increase in the rate of endotracheal intubation in recipients of ..." against
    "... with a significant reduction in the rate of endotracheal intubation (20% vs 70%) ...".

    One word of the claim turned into its opposite (:func:`_opposite`) with, on each side, the claim's words stated
    alike up to the first difference that is not light: at least :data:`RUN_AROUND` content words. Not when some
    sentence of the source states the claim's own word with those content words (the source says both, of
    different things). Found by a new user's trial on a SciFact abstract (2026-12-06): a 0.85 ``polarity_flip`` that
    did not escalate. Code shows it: confidence 0.9, ``proven``.
    """
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    each, total = RUN_AROUND
    for passage in pool:
        for sent in (r for whole in split_sentences(passage) for r in _readings(whole)):
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            ops = stem_opcodes(cw, sw)
            for k, (t, i1, i2, j1, j2) in enumerate(ops):
                if t != "replace" or i2 - i1 != 1 or j2 - j1 != 1 or not _opposite(cw[i1], sw[j1]):
                    continue
                (left, ls), (right, rs) = _run_content(ops[:k][::-1], cw, sw), _run_content(ops[k + 1:], cw, sw)
                if left < each or right < each or left + right < total:
                    continue
                need = ls | rs | {stem(cw[i1])}
                if any(need <= {stem(w) for w in _TOKEN_RE.findall(other.lower())}
                       for other in split_sentences(source_text or passage)):
                    continue  # the source also says it the claim's way
                a, b = cw[i1], sw[j1]
                return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, the words around it "
                           f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
    return None


def _content_stems(words: list[str]) -> list[str]:
    """The stems of the content words among ``words`` (3+ characters, not stop words), whole (not cut to five
    letters as :func:`_neg_scopes` cuts them)."""
    return [stem(w) for w in words if len(w) >= 3 and w.lower() not in STOPWORDS]


def states_same_negation(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` that restates the claim and negates what it negates, or None.

    Every content word and number of the claim is in ``text`` (whole stems); the sentence restates the claim (holds
    at least :data:`~citeproof.detectors.swaps.RESTATE_AT` of its content words); the claim is the sentence with
    words added or left out (a word diff over stems in which no content word stands in another's place); and each
    negation of the claim has one in the sentence whose scope (:func:`_neg_scopes`) agrees with its own (two stems,
    or the one there is). "Exposure to PM2.5 was not associated with changes in memory" and "Exposure was not
    associated with changes in memory or cognitive test scores" negate the same thing; "not associated with memory"
    and "not associated with lung function" do not, nor does "WAVE2 activated ..., and does not bind" against
    "WAVE2 displays ..., and does not bind". The entailment network reads a negated claim as contradicted even
    against its own sentence (P(contradicts) 0.66 there), so a contradiction it finds is doubtful where this holds
    (:func:`citeproof.judges.policy.decide`). None when the claim negates nothing.

    Args:
        claim_text: the claim.
        text: the evidence (a sentence or a passage).

    Returns:
        The sentence, as written in ``text``, or None.
    """
    wanted = [sc for _, sc in _neg_scopes(claim_text)]
    cw = _TOKEN_RE.findall(claim_text)
    if (not wanted or not text or not set(_content_stems(cw)) <= set(_content_stems(_TOKEN_RE.findall(text)))
            or not set(_NUMBER.findall(claim_text)) <= set(_NUMBER.findall(text))):
        return None  # a claim word or number the text lacks ("Arp2/10-dependent" for "Arp2/3-dependent") is a difference
    for sent in split_sentences(text):
        if overlap_score(claim_text, sent) < RESTATE_AT:
            continue
        have = [sc for _, sc in _neg_scopes(sent)]
        if not have or not all(any(len(set(w) & set(h)) >= min(2, len(w)) for h in have) for w in wanted):
            continue
        sw = _TOKEN_RE.findall(sent)
        if not any(op == "replace" and _content_stems(cw[i1:i2]) and _content_stems(sw[j1:j2])
                   for op, i1, i2, j1, j2 in stem_opcodes(cw, sw)):
            return sent
    return None


@lru_cache(maxsize=32)
def _source_cues(source_text: str) -> tuple:
    return tuple(_cues(source_text))


def _source_agrees(cls: str, axis: str, tgt: set[str], source_text: str) -> bool:
    """True when some sentence of the source has a cue of class ``cls`` on the same target (>= 2 shared words)."""
    if not source_text:
        return False
    for e in _source_cues(source_text):
        if e[0] == cls and len(e[3] & tgt) >= 2 and e[2] >= 0:
            return True
    return False


def _one_word_flip(claim_text: str, pool: list[str], claim_word: str, source_word: str) -> str | None:
    """The pool sentence that is the claim word for word but for ``claim_word`` in place of ``source_word``
    (stems compared, :func:`citeproof.text.stems.stem_opcodes`); None when no sentence is."""
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    for passage in pool:
        for sent in split_sentences(passage):
            sw = [w.lower() for w in _TOKEN_RE.findall(sent)]
            ops = [op for op in stem_opcodes(cw, sw) if op[0] != "equal"]
            if (len(ops) == 1 and ops[0][0] == "replace" and ops[0][2] - ops[0][1] == 1 and ops[0][4] - ops[0][3] == 1
                    and cw[ops[0][1]] == claim_word.lower() and sw[ops[0][3]] == source_word.lower()):
                return sent
    return None


def detect_polarity_flip(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``polarity_flip`` when the claim's direction of effect opposes the evidence's.

    Signals, strongest first:

    Evidence here means the best passage plus up to three source sentences
    that share at least 35 % of the claim's content words.

    0. a sentence makes the claim's comparison the other way round with the same comparative
       (:func:`_reversed_comparison`: "steeper among never-smokers than among smokers" against "steeper among
       smokers than among never-smokers"), or restates the claim but for one word turned into its opposite or two
       terms exchanged (:func:`_restated_reversal`), confidence 0.9 and ``proven``;
    1. a claim cue and an evidence cue on the same axis and the same target
       (content words, compared on their first five letters, within five
       words of each) point opposite ways, the opposing cue shares more
       target words than any agreeing cue, and no sentence of ``source_text``
       has an agreeing cue sharing two target words (confidence 0.85 with two
       shared words and no agreeing cue on the target at all, else 0.55:
       reported, not downgrading, and only when no rule below fires); when a source sentence is the claim word
       for word but for the two cues (*impairs* turned *improves*), confidence 0.9 and ``proven``;
    2. the claim says there is *no* X where a sentence about it counts X ("95% of articles ...",
       :func:`_counted_negation`, 0.9); else
    2b. the claim is negated (*does not*, *fails to*, *no*, *never*) and no
       evidence sentence negates anything or reports a null finding (0.75);
    3. the claim states a null finding (*no effect*, *unchanged*) where the
       evidence gives a direction for a target within six words of it, or the
       reverse (0.75);
    4. the claim negates words that the evidence states plainly
       (:func:`_negation_mismatch`, 0.75);
    5. the claim negates, with an auxiliary, a verb the evidence states
       plainly (0.75).

    Rule 2 looks for a negation in every source
    sentence among the ten sharing 30 % of the claim's content words; *more*, *less*,
    *fewer*, *greater* count as directions only in a comparison (*than*).

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), optional: the whole source.

    Returns:
        ``[]`` or one tag with the opposing cues as spans.
    """
    if not evidence_text:
        return []
    source_text = context.get("source_text") or ""
    pool = [evidence_text] + [s for s in relevant_sentences(claim_text, source_text, k=3, floor=0.35) if s != evidence_text]
    wide = pool + relevant_sentences(claim_text, source_text, k=10, floor=0.3)
    reversed_ = (_reversed_comparison(claim_text, pool) or _restated_reversal(claim_text, pool)
                 or _negation_dropped(claim_text, wide, source_text) or _reversal_in_run(claim_text, pool, source_text))
    if reversed_ is not None:
        return [reversed_]
    cc, ec = _cues(claim_text), _cues(evidence_text)
    pool_cues = [c for sent in pool for c in _cues(sent)]
    weak: list[Tag] = []
    for cls, word, _i, tgt, surface in cc:
        axis = AXES[cls][0]
        same_target = [e for e in pool_cues if AXES[e[0]][0] == axis and (e[3] & tgt)]
        if not same_target:
            continue
        agree = max((len(e[3] & tgt) for e in same_target if e[0] == cls), default=0)
        oppose = [e for e in same_target if e[0] == _OPPOSITE[cls]]
        if oppose:
            e = max(oppose, key=lambda x: len(x[3] & tgt))
            shared = sorted(e[3] & tgt)
            if len(shared) <= agree or _source_agrees(cls, axis, tgt, source_text):
                continue
            conf = 0.85 if len(shared) >= 2 and agree == 0 else 0.55
            restated = _one_word_flip(claim_text, pool, word, e[1]) if conf >= 0.85 else None
            if restated is not None:  # the source's own sentence, with the direction word turned: shown by code
                return [Tag("polarity_flip", f"The claim says {word!r} where the source says {e[1]!r}, every other word alike: "
                            f"\u201c{restated[:200]}\u201d", 0.9, (TagEvidence(word, e[1]),), proven=True)]
            tag = Tag("polarity_flip", f"The claim says {word!r} about {_surface(shared, surface)!r} where the evidence says {e[1]!r}.",
                      conf, (TagEvidence(word, e[1]),))
            if conf >= 0.6:
                return [tag]
            weak = weak or [tag]  # reported only if no stronger rule below fires
    counted = _counted_negation(claim_text, pool)
    if counted is not None:
        return [counted]
    # a negated claim against evidence that negates nothing
    cneg_m = _CLAIM_NEG.search(claim_text)
    if cneg_m and not any(_NEG_ANY.search(sent) for sent in wide) and not _NULL_FINDING.search(" ".join(wide)):
        return [Tag("polarity_flip", f"The claim negates ({cneg_m.group(0)!r}) what the evidence states without negation.",
                    0.75, (TagEvidence(cneg_m.group(0), ""),))]
    c_null, e_null = _NULL_FINDING.search(claim_text), _NULL_FINDING.search(evidence_text)
    if c_null and not e_null and not _NULL_FINDING.search(source_text):
        near = _window_stems(claim_text, c_null)
        hit = [e for e in ec if e[3] & near]
        if hit:
            return [Tag("polarity_flip", f"The claim reports {c_null.group(0)!r} where the evidence reports {hit[0][1]!r}.",
                        0.75, (TagEvidence(c_null.group(0), hit[0][1]),))]
    if e_null and not c_null:
        near = _window_stems(evidence_text, e_null)
        hit = [c for c in cc if len(c[3] & near) >= 2]
        if hit:
            return [Tag("polarity_flip", f"The claim says {hit[0][1]!r} where the evidence reports {e_null.group(0)!r}.",
                        0.75, (TagEvidence(hit[0][1], e_null.group(0)),))]
    mismatch = _negation_mismatch(claim_text, pool)
    if mismatch is not None:
        return [mismatch]
    ev_stems = {stem(w) for w in _TOKEN_RE.findall(evidence_text)}
    cneg, eneg = _negated_verbs(claim_text), _negated_verbs(evidence_text)
    for s, span in cneg.items():
        if s in ev_stems and s not in eneg:
            return [Tag("polarity_flip", f"The claim negates what the evidence states ({span!r}).", 0.75,
                        (TagEvidence(span, s),))]
    return weak
