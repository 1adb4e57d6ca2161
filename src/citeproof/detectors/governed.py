"""What a word does to a named thing, read at the thing: the claim's verb over an item against the source's (issue 28).

Found by the hundred-and-seventy-ninth to hundred-and-eighty-second new users' trials (session 30, held out on
`57def2e`), each a false claim in the source's own words that the word diff did not read as one word for one:

- "protein restriction decreased expressions of ... Esrrb, Id1 and Id2" and "... altered expressions of ... Gjb3 and
  Pcdh12" for one sentence that "increased expressions of Esrrb, Id1 and Id2 ..., decreased expressions of Ascl2 ...,
  but did not alter expressions of Gjb3 and Pcdh12": :func:`item_under_turned_verb` (the verb nearest before each
  item decides; one sentence holds three);
- "leads to activation of eEF2" for "leads to eEF2 inhibition": the same rule, a noun of direction just after an
  item (*eEF2 inhibition*) read before the verb before it;
- "in a HIF-dependent manner" for "independent of HIF", "depended on ECM composition" for "did not depend on ECM
  composition": :func:`dependence_turned`;
- "and to an even greater extent in erythrocyte lysate" for "and to a lesser extent in erythrocyte lysate":
  :func:`extent_turned`.

Each fires only where no sentence of the source says it the claim's way. Code shows each: ``polarity_flip`` at 0.9,
``proven``; tried by :func:`citeproof.detectors.reversals.restated_flip`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.detectors.cues import ANTONYMS, CUE_RES
from citeproof.detectors.restated import _NEGATED, _NOT_NEGATED, _opposite
from citeproof.detectors.terms import restating
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, overlap_score

__all__ = ["PARAPHRASE_AT", "said_where", "but_not_turned", "dependence_turned", "direction_of_contact_turned", "emphatic_for_denied", "extent_turned", "item_under_turned_verb", "opposite_in_paraphrase",
           "null_for_significant", "passive_agent_turned", "passive_relative_turned",
           "protection_for_promotion", "protection_inserted"]

_TOKEN = re.compile(r"[^\W_][\w'+/-]*|[,;:()]")
_BREAK = frozenset({";", ":", "but", "whereas", "while", "whilst", "which", "that", "who", "although", "though",
                    "because", "since", "than", "by", "via", "through"})
"""Tokens a verb's reach over the items after it stops at."""
_CHANGE = re.compile(r"^(?:alter(?:s|ed|ing)?|chang(?:e|es|ed|ing)|affect(?:s|ed|ing)?|modif(?:y|ies|ied|ying)|"
                     r"modulat(?:e|es|ed|ing))$", re.I)
"""Verbs of change without a direction: *did not alter* is the no-change an *altered* or a *decreased* denies."""
_NEGATORS = frozenset({"not", "no", "never", "without", "neither", "nor", "cannot", "failed", "fails", "fail",
                       "unable"})  # ("failed to up-regulate" is "did not up-regulate", a 63rd trial's claim)
_WEAK = frozenset({"rarely", "seldom", "hardly", "barely", "scarcely", "only", "partially", "slightly", "marginally"})
"""Words that weaken a verb before its item (*induced only rarely in the IL-10 mice*): no direction read through."""
_NOMINAL = re.compile(r"\w+(?:ion|ment|ance|ence)$|increase|decrease|loss|gain|rise|fall|drop|knockdown", re.I)
"""A direction noun that may stand just after its item (*eEF2 inhibition*, *Myc loss*)."""
_GOVERNS_BETWEEN = re.compile(r"[\w-]+-(?:induced|activated|mediated|dependent|stimulated|treated|driven|derived)|"
                              r"(?!\w*(?:increas|decreas|reduc|elevat|inhibit|suppress|repress|activat|induc|enhanc|"
                              r"alter|chang|affect|modulat|modifi|stimulat|promot|lower|rais|diminish|attenuat|abolish|"
                              r"prevent|block|deplet|impair)\w*)[a-z]{3,}ed")
"""A token between a cue and an item that governs the item instead: a compound of a verb (*AGE-induced*) or another
verb in the past (*required*)."""
_AGENT_NOUN = re.compile(r"\w*(?:enhancer|inhibitor|activator|promoter|suppressor|repressor|inducer|regulator|"
                         r"stimulator|effector|modulator|blocker|reducer)s?")
"""An agent noun (*enhancer*, *inhibitor*): it names a thing, it does nothing to the item after it."""
_REACH = 8
"""Most tokens between a verb and an item it governs (*decreased expressions of the trophoblast stem cell markers
Esrrb*: seven)."""


def _item(tok: str, first: bool) -> bool:
    """``tok`` names a thing: letters with a digit (*Gjb3*, *eEF2*), capitals inside (*mTOR*), or a capitalised word
    not opening the sentence (*Esrrb*); no cue word."""
    if len(tok) < 2 or not tok[0].isalnum():
        return False
    if any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok):
        return True
    if any(c.isupper() for c in tok[1:]):
        return True
    return tok[0].isupper() and not first and tok.lower() not in STOPWORDS and len(tok) >= 3


_UP_NOUN = re.compile(r"^(?:activation|induction|stimulation|potentiation)$", re.I)
_DOWN_NOUN = re.compile(r"^(?:inactivation|deactivation)$", re.I)
"""Nouns of direction the cue words (:data:`~citeproof.detectors.cues.UP`) leave out."""


def _state(tok: str) -> str | None:
    """``'up'``, ``'down'`` or ``'change'`` for a cue word, else None."""
    if _UP_NOUN.match(tok) or (CUE_RES["up"].match(tok) and not CUE_RES["down"].match(tok)):
        return "up"
    if _DOWN_NOUN.match(tok) or (CUE_RES["down"].match(tok) and not CUE_RES["up"].match(tok)):
        return "down"
    return "change" if _CHANGE.match(tok) else None


_SKIP = frozenset({"more", "less", "higher", "lower", "greater", "up", "down", "larger", "smaller", "longer",
                   "shorter", "faster", "slower", "stronger", "weaker", "fewer"})
"""Comparatives read by other rules: here they would govern every name after them."""


@lru_cache(maxsize=4096)
def _governed(text: str) -> dict[str, tuple[str, bool, str, str]]:
    """For each item of ``text`` (lower case), the state of the cue governing it, whether a negator stands in the
    three tokens before that cue, the cue, and the content word just after the item ('' where none or the cue): a
    direction noun just after the item, else the nearest cue before it within :data:`_REACH` tokens and no
    :data:`_BREAK` between. An item governed twice, two ways, is left out. Cached: callers never change the dict."""
    toks = _TOKEN.findall(text)
    low = [t.lower() for t in toks]
    out: dict[str, tuple[str, bool, str, str]] = {}
    mixed: set[str] = set()
    for k, tok in enumerate(toks):
        if not _item(tok, k == 0):
            continue
        got = None
        if k + 1 < len(toks) and _NOMINAL.fullmatch(low[k + 1]) and (s := _state(low[k + 1])):
            got = (s, k + 1)
        else:
            for j in range(k - 1, max(-1, k - _REACH - 1), -1):
                if low[j] in _BREAK or low[j] in _WEAK or _GOVERNS_BETWEEN.fullmatch(low[j]):
                    break  # another verb, or a compound of one, governs the item ("blocked AGE-induced IkBa
                    # degradation" is no "blocked IkBa", a 141st trial's faithful claim; "... required its E3")
                if low[j] not in _SKIP and not _AGENT_NOUN.fullmatch(low[j]) and (s := _state(low[j])):
                    got = (s, j)
                    break
        if got is None:
            continue
        s, j = got
        before = low[max(0, j - (1 if _NOMINAL.fullmatch(low[j]) else 2)):j]
        negated = any(w in _NEGATORS or w.endswith("n't") for w in before)
        # (a noun is negated by the word just before it only: "may not work through inhibition of PI 3-kinase"
        # denies the route, not the inhibition, a 107th trial's faithful claim)
        key = tok.lower()
        if key in out and out[key][:2] != (s, negated):
            mixed.add(key)
        nxt = low[k + 1] if k + 1 < len(low) and k + 1 != j and low[k + 1][0].isalnum() else ""
        out[key] = (s, negated, low[j], "" if nxt in STOPWORDS else nxt)
    return {k: v for k, v in out.items() if k not in mixed}


def _against(mine: tuple, theirs: tuple) -> bool:
    """The claim's governing cue says otherwise than the source's: up against down, or a change against no change."""
    (s1, n1, *_), (s2, n2, *_) = mine, theirs
    if not n1 and not n2:
        return {s1, s2} == {"up", "down"}
    if n1 != n2:
        # a negated cue denies a change: *did not alter* against *altered* or *decreased*; against a change of the
        # same word or of a directionless verb only (*did not increase* is no *decreased*)
        return s1 == s2 or "change" in (s1, s2)
    return False


def item_under_turned_verb(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A named item of the claim (:func:`_item`) that the claim's cue turns one way and the cue over the same item in
    a sentence restating the claim turns the other (:func:`_against`), and no sentence of the source governs it the
    claim's way: "protein restriction decreased expressions of ... Esrrb" for "PR increased expressions of Esrrb, ...,
    decreased expressions of Ascl2 ..." (a 182nd trial: *partial*), "leads to activation of eEF2" for "leads to eEF2
    inhibition" (a 181st: *supported*).

    Args:
        claim_text: the claim (its long forms read as the source's short ones).
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    mine = _governed(claim_text)
    if not mine:
        return None
    for _passage, sent in restating(claim_text, pool):
        theirs = _governed(sent)
        for item, cue in mine.items():
            other = theirs.get(item)
            if other is None or cue[3] != other[3] or not _against(cue, other):
                continue  # (the same word after the item on both sides: "suppresses BBB breakdown" is not said of
                # the BBB a faithful SciFact claim's source "did not affect BBB integrity" names)
            if any((g := _governed(s).get(item)) is not None and not _against(cue, g)
                   for s in split_sentences(source_text or sent) if item in s.lower()):
                continue
            said = ("not " if cue[1] else "") + cue[2]
            was = ("not " if other[1] else "") + other[2]
            return Tag("polarity_flip", f"The claim says {said!r} of {item!r} where the source says {was!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, was),), proven=True)
    return None


_DEPENDS = re.compile(r"(?P<x>[\w+/]+(?:-[\w+/]+)*?)-(?P<in>in)?dependent(?:ly)?\b|"
                      r"\b(?P<neg>(?:not|never)\s+(?:\w+\s+)?)?(?P<in2>in)?depend(?:s|ed|ent|ently|ing)?\s+"
                      r"(?:of|on|upon)\s+(?:the\s+|its\s+|their\s+)?(?P<y>[\w+/-]+)", re.I)


@lru_cache(maxsize=4096)
def _dependences(text: str) -> dict[str, bool]:
    """For each thing ``text`` says something depends or does not depend on, True where it depends (*HIF-dependent*,
    *depended on ECM*) and False where not (*independent of HIF*, *did not depend on ECM*); a thing said both ways is
    left out."""
    out: dict[str, bool] = {}
    both: set[str] = set()
    for m in _DEPENDS.finditer(text):
        if m.group("x"):
            x, yes = m.group("x").rsplit("-", 1)[-1], not m.group("in")
        else:
            x, yes = m.group("y"), not (m.group("in2") or m.group("neg"))
        key = stem(x.lower())
        if key in STOPWORDS or len(key) < 2:
            continue
        if key in out and out[key] != yes:
            both.add(key)
        out[key] = yes
    return {k: v for k, v in out.items() if k not in both}


def dependence_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim says a thing depends on X where a sentence restating it says it is independent of X, or the other
    way round, and no sentence of the source says it the claim's way ("in a HIF-dependent manner" for "independent
    of HIF", a 181st trial's *supported*; "depended on ECM composition" for "did not depend on ECM composition", a
    180th's *partial*).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    mine = _dependences(claim_text)
    if not mine:
        return None
    for _passage, sent in restating(claim_text, pool):
        for x, yes in _dependences(sent).items():
            if mine.get(x, yes) == yes:
                continue
            if _dependences(source_text or sent).get(x, yes) != yes:
                continue  # the source says it both ways
            said, was = ("dependent" if mine[x] else "independent"), ("dependent" if yes else "independent")
            return Tag("polarity_flip", f"The claim says {said!r} on {x!r} where the source says {was!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, was),), proven=True)
    return None


_EXTENT = re.compile(r"\bto\s+an?\s+(?:(?:even|much|far|still|somewhat|slightly|considerably)\s+)?(?P<d>\w+)\s+"
                     r"(?:extent|degree)\s+(?P<tail>(?:[\w-]+\s+){0,3}[\w-]+)", re.I)


def extent_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """"to a greater extent in X" where a sentence restating the claim says "to a lesser extent in X" (the same
    content words after the phrase), and no sentence of the source says the claim's degree of X: a 181st trial's
    "and to an even greater extent in erythrocyte lysate" for "and to a lesser extent" (*supported*).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    def content(tail: str) -> frozenset[str]:
        return frozenset(stem(w) for w in re.findall(r"[\w-]+", tail.lower()) if w not in STOPWORDS)

    for m in _EXTENT.finditer(claim_text):
        d, tail = m.group("d").lower(), content(m.group("tail"))
        if not tail:
            continue
        for _passage, sent in restating(claim_text, pool):
            for n in _EXTENT.finditer(sent):
                if not _opposite(d, n.group("d").lower()) or not tail <= content(n.group("tail")):
                    continue
                if any(o.group("d").lower() == d and tail <= content(o.group("tail"))
                       for o in _EXTENT.finditer(source_text or sent)):
                    continue
                return said_where(m.group(0), n.group(0), sent)
    return None


_WORDS = re.compile(r"[^\W\d_][\w-]*")


def _strictly_opposed(a: str, b: str) -> str | None:
    """``a`` and ``b`` (lower case, five letters or more) are a pair of :data:`~citeproof.detectors.cues.ANTONYMS`,
    one of them with a stem before it (*radioresistance* / *radiosensitivity*), or one is the other negated by a
    prefix (*unstable* / *stable*): ``'antonym'``, ``'negated'`` or None; comparatives and superlatives stay out (a
    claim may turn a comparison round)."""
    if any(w.endswith(("er", "est")) or w in ("more", "less", "fewer") for w in (a, b)):
        return None
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if frozenset((a, b)) in ANTONYMS or (k >= 4 and frozenset((a[k:], b[k:])) in ANTONYMS):
        return "antonym"
    short, long = sorted((a, b), key=len)
    m = _NEGATED.match(long)
    if long == "de" + short and short.endswith(("ation", "ization", "isation")):
        return "negated"  # dephosphorylation / phosphorylation (a 191st trial: *supported* at 0.98)
    return "negated" if m and long[m.end():] == short and long not in _NOT_NEGATED else None


_COMPARED = re.compile(r"\b(?:compared\s+(?:with|to)|than|relative\s+to|versus|vs\.?|in\s+comparison)\b", re.I)
PARAPHRASE_AT = 0.5
"""Least share of the claim's content words (:func:`~citeproof.text.stems.overlap_score`) a sentence holds for
:func:`opposite_in_paraphrase` to read it as the claim's source: below :data:`~citeproof.detectors.terms.RESTATE_AT`,
as a paraphrase adds words of its own (a 179th trial's "Patients with ataxia telangiectasia show radioresistance
alongside neurodegeneration and immune dysfunction" held 0.56 of the sentence's words)."""


def opposite_in_paraphrase(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A word of the claim that the source never writes, not negated, whose strict opposite (:func:`_strictly_opposed`)
    stands in a sentence holding :data:`PARAPHRASE_AT` of the claim's content words and the claim lacks:
    "show radioresistance" for "radiosensitivity" (a 179th trial's *supported*), "are stable and do not release
    quickly" for "are unstable and release quickly" (a 181st's *partial*).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    if _COMPARED.search(claim_text):
        return None  # a comparison may be turned round with its direction word ("decreased in A compared with B"
        # for "increased in B compared with A", a 67th trial's faithful claim)
    toks = [t.lower() for t in _WORDS.findall(claim_text)]
    written = _source_words(source_text or " ".join(pool))
    new = [(w, toks[k + 1] if k + 1 < len(toks) else "") for k, w in enumerate(toks)
           if len(w) >= 5 and w not in written and w.replace("-", "") not in written
           and not any(n in _NEGATORS or n.endswith("n't") or _state(n) == "down" or n in ("removal", "erasure")
                       for n in toks[max(0, k - 3):k])]  # ("loss of H3K36me2/3 methylation" is demethylation, a
    # 173rd trial's faithful claim)
    if not new:
        return None
    for passage in pool:
        for sent in split_sentences(passage):
            if overlap_score(claim_text, sent) < PARAPHRASE_AT:
                continue
            words = [t.lower() for t in _WORDS.findall(sent)]
            theirs = set(words) - set(toks)
            for a, after in new:
                if b := next((b for b in theirs if len(b) >= 5 and (kind := _strictly_opposed(a, b))
                              and (kind == "antonym" or _next_to(words, b, after))
                              and not _said_too(b, toks)), None):
                    return said_where(a, b, sent)
    return None


def _said_too(b: str, toks: list[str]) -> bool:
    """A word of the claim points the way of the source's direction word ``b``: the claim says the sentence's thing
    too, in other words, and its own opposite belongs elsewhere ("increased inhibitory phosphorylation of JAK1 and
    reduced STAT3 phosphorylation" for "enhanced ... and inhibited STAT3 phosphorylation", a 104th trial's faithful
    claim)."""
    way = _state(b)
    return way in ("up", "down") and any(_state(t) == way for t in toks)


def _next_to(words: list[str], b: str, after: str) -> bool:
    """``b`` stands before ``after`` somewhere in ``words``: a word negated by its prefix only counts where both go
    before the same word ("are stable and" / "are unstable and"; "nonspecific memory" for a source's
    "antigen-specific memory ... specific to", a faithful Citation-Integrity claim, does not)."""
    return any(w == b and k + 1 < len(words) and words[k + 1] == after for k, w in enumerate(words))


@lru_cache(maxsize=16)
def _source_words(source_text: str) -> frozenset[str]:
    """Each word of ``source_text`` in lower case, and each hyphenated one also without its hyphens (*non-coding* is
    written where the source writes *noncoding*)."""
    words = {t.lower() for t in _WORDS.findall(source_text)}
    return frozenset(words | {w.replace("-", "") for w in words})


_DENIED = re.compile(r"\b(?:did|does|do)\s+not\s+(?P<v>[a-z]{3,})\s+(?P<w>[\w-]{3,})", re.I)
_VERB_FORMS = "(?:d|ed|s|es)?"


def emphatic_for_denied(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim says a thing *did involve* (or *involved*) what a sentence restating it says it *did not involve*,
    the same word after the verb, the claim's verb not negated, and no sentence of the source says it the claim's
    way: "the proliferation arrest at high densities did involve E-cadherin" for "... did not involve E-cadherin, but
    rather resulted from ..." (a 183rd trial: *supported* at P(entails) 0.89, the sentence's other clauses restating
    the rest).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    for _passage, sent in restating(claim_text, pool):
        for m in _DENIED.finditer(sent):
            v, w = re.escape(m.group("v")), re.escape(m.group("w"))
            said = re.search(rf"(?<!not\s)\b(?:(?:did|does|do)\s+)?{v}{_VERB_FORMS}\s+{w}\b", claim_text, re.I)
            if said is None or re.search(rf"\bnot\s+{re.escape(said.group(0))}", claim_text, re.I):
                continue
            if any(re.search(rf"(?<!not\s){v}{_VERB_FORMS}\s+{w}\b", s, re.I)
                   for s in split_sentences(source_text or sent)):
                continue
            return said_where(said.group(0), m.group(0), sent)
    return None


_WHICH_BY = re.compile(r"(?P<x>[\w-]+(?:\s+[\w-]+)?)\s*,\s*which\s+(?:was|were|is|are|has\s+been|had\s+been)\s+"
                       r"(?P<v>[a-z]{3,}ed)\s+by\s+(?P<y>[\w-]+(?:\s+[\w-]+)?)", re.I)


def passive_relative_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim has X do to Y what a sentence restating it says Y did to X in a passive relative clause: "Rac1
    activity induced E-cadherin engagement" for "Rac1 activity, which was induced by E-cadherin engagement" (a 183rd
    trial: *supported* at P(entails) 0.88), and no sentence of the source has X do it to Y.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    for _passage, sent in restating(claim_text, pool):
        for m in _WHICH_BY.finditer(sent):
            x, v, y = (re.escape(m.group(g)) for g in ("x", "v", "y"))
            turned = rf"\b{x}\s+(?:\w+\s+)?{v}\s+(?:the\s+)?{y}\b"
            said = re.search(turned, claim_text, re.I)
            if said is None or any(re.search(turned, s, re.I) for s in split_sentences(source_text or sent)):
                continue
            return said_where(said.group(0), m.group(0), sent)
    return None


_BUT_NOT = re.compile(r"\bbut\s+not\s+(?:(?:in|among|for|with|to|at|on|by)\s+)?(?:the\s+)?(?P<y>(?:[\w-]+\s+){0,3}[\w-]+)",
                      re.I)
_DENYING = re.compile(r"\b(?:not|no|never|nor|neither|none|absent|absence|lack\w*|without|except|excluding|free\s+of)\b",
                      re.I)
"""A denial before a joined Y ("only in the peripheral fraction and was absent from the central fraction" for "only
in the peripheral fraction, but not in the central fraction", a 158th trial's faithful claim)."""
_JOINED_BEFORE = re.compile(r"\b(?:and|both|also|as\s+well\s+as)\b", re.I)


def _content_of(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[\w-]+", text) if len(w) >= 4 and w.lower() not in STOPWORDS
            and w.lower() not in _NEGATORS]


def but_not_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """*but not Y* on one side where the other joins Y by *and* (*also*, *both*, *as well as*), Y's content words
    alike: "and also among those without detectable parasitaemia" for "but not in those without detectable
    parasitaemia" (a 186th trial: *supported*), "requires an intact epidermal layer but not the substrate
    neuroblasts" for "requires both an intact epidermal layer and substrate neuroblasts" (a 183rd: *partial*). No
    negation stands beside the joined Y.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    for _passage, sent in restating(claim_text, pool):
        for denied, joined in ((sent, claim_text), (claim_text, sent)):
            for m in _BUT_NOT.finditer(denied):
                y = _content_of(m.group("y"))
                low = joined.lower()
                if not y or not all(re.search(rf"\b{re.escape(w)}\b", low) for w in y):
                    continue
                at = re.search(rf"\b{re.escape(y[0])}\b", low).start()
                before, after = low[max(0, at - 40):at], low[at:at + 60]
                own = m.group("y").lower().split(y[0])[0]  # Y's own words before its first content word (*those
                if own.strip() and before.endswith(own):  # without* detectable parasitaemia) deny nothing of Y
                    before = before[:-len(own)]
                if (not _JOINED_BEFORE.search(before) or _DENYING.search(before)
                        or re.search(r"\b(?:not|no|never|nor)\b", " ".join(after.split()[:6]))):
                    continue
                said = (f"says 'but not' of {' '.join(y)!r} where the source joins it" if denied is claim_text
                        else f"joins {' '.join(y)!r} where the source says 'but not'")
                return Tag("polarity_flip", f"The claim {said}: \u201c{sent[:200]}\u201d", 0.9,
                           (TagEvidence(m.group(0), " ".join(y)),), proven=True)
    return None


_PROTECTS = re.compile(r"\b(?:protect\w*|shield\w*|rescu\w*|spar\w*)\s+(?:\w+\s+){0,3}?(?:from|against)\s+(?P<x>[a-z]{5,})",
                       re.I)


def protection_for_promotion(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim has a thing protect from X where the sentence restating it calls it *pro-X* (*pro-apoptotic*), and
    the source never has it protect from X or call it *anti-X*: "a PI3K-dependent, non-canonical signaling pathway
    that protects the cells from apoptosis" for "... non-canonical, pro-apoptotic signaling pathway" (a 184th trial:
    *supported* at P(entails) 0.94).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    m = _PROTECTS.search(claim_text)
    if m is None:
        return None
    root = m.group("x").lower()[:5]
    for _passage, sent in restating(claim_text, pool):
        pro = re.search(rf"\bpro-?{root}\w*", sent, re.I)
        if pro is None:
            continue
        if re.search(rf"\banti-?{root}|\b(?:protect|shield|rescu)\w*\s+(?:\w+\s+){{0,3}}?(?:from|against)\s+{root}",
                     source_text or sent, re.I):
            return None
        return said_where(m.group(0), pro.group(0), sent)
    return None


_NULL = re.compile(r"\b(?:no|not\s+(?:a|any))\s+(?:statistically\s+)?significant\s+(?P<n>associations?|differences?|"
                   r"effects?|changes?|correlations?|relationships?|improvements?|reductions?|increases?)", re.I)


def null_for_significant(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim reports *no significant association* where a sentence restating it reports a *significant
    association* (the same noun, no denial in the three words before), and no sentence of the source reports none:
    "The cohort studies of thiazolidinediones showed no significant association with bladder cancer" for "... showed
    significant associations with bladder cancer" (a 190th trial: *partial*, no tag).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    m = _NULL.search(claim_text)
    if m is None:
        return None
    noun = m.group("n").lower().rstrip("s")
    found = re.compile(rf"(?<!\bno\s)(?<!\bnot\s)\b(?:statistically\s+)?significant(?:ly)?\s+{noun}", re.I)
    for _passage, sent in restating(claim_text, pool):
        f = found.search(sent)
        at = overlap_score(claim_text, sent)
        if any((n := _NULL.search(s)) and n.group("n").lower().startswith(noun) and overlap_score(claim_text, s) >= at
               for s in split_sentences(source_text or " ".join(pool))):
            return None  # a sentence as close to the claim reports none (the source's RCTs, not its cohort studies)
        if f and not re.search(r"\b(?:no|not|never|without)\b", sent[max(0, f.start() - 25):f.start()], re.I):
            return said_where(m.group(0), f.group(0), sent)
    return None


_FROM_TO = re.compile(r"\bfrom\s+(?:the\s+)?(?P<a>[\w-]+(?:\s+[\w-]+)?)\s+(?:to|onto|into)\s+(?:the\s+)?"
                      r"(?P<b>[\w-]+(?:\s+[\w-]+){0,3})", re.I)


def direction_of_contact_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim has B reach *onto* (*to*, *into*) A where a sentence restating it has something go *from A to B*:
    "the lt-NES cell-derived neurons formed extensive synaptic afferents onto host neurons" for "extensive synaptic
    afferents from host neurons to the lt-NES cell-derived neurons" (a 190th trial: *supported* at P(entails) 0.97).
    B's first word stands before the claim's *onto A*; the claim says *from A* nowhere.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    for _passage, sent in restating(claim_text, pool):
        for m in _FROM_TO.finditer(sent):
            a, b = m.group("a"), m.group("b").split()[0]
            onto = re.search(rf"\b(?:onto|to|into|toward|towards)\s+(?:the\s+)?{re.escape(a)}\b", claim_text, re.I)
            if onto is None or re.search(rf"\bfrom\s+(?:the\s+)?{re.escape(a)}\b", claim_text, re.I):
                continue
            if not re.search(rf"\b{re.escape(b)}\b", claim_text[:onto.start()], re.I):
                continue
            return said_where(onto.group(0), m.group(0), sent)
    return None


_PASSIVE_BY = re.compile(r"(?P<x>(?:[\w-]+\s+){0,4}?[\w-]+)\s+(?:is|are|was|were)\s+(?:\w+ly\s+|itself\s+|themselves\s+)?"
                         r"(?P<v>[a-z]{4,}ed)\s+by\s+(?P<y>(?:[\w-]+\s+){0,4}[\w-]+)", re.I)


def _words_of(text: str) -> set[str]:
    return {stem(w.lower()) for w in re.findall(r"[\w-]+", text) if len(w) >= 3 and w.lower() not in STOPWORDS}


def passive_agent_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *X is V-ed by Y* where a sentence restating it has Y V-ed by X in the passive, or X V Y in the
    active: "Notch signaling is itself modulated by numerous cellular functions" for "Numerous cellular functions ...
    are modulated by Notch signaling" (a 191st trial: *supported*), "Tregs ... were specifically suppressed by Teff
    cells" for "Transduced Tregs ... specifically suppressed Teff cells" (a 192nd: *supported*). The two sides are
    read by their content words (the claim's X holds a word of the sentence's agent and none of its patient, and Y
    the other way round).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    m = _PASSIVE_BY.search(claim_text)
    if m is None:
        return None
    x, y, v = _words_of(m.group("x")), _words_of(m.group("y")), stem(m.group("v").lower())
    if not x or not y:
        return None
    for _passage, sent in restating(claim_text, pool):
        for n in _PASSIVE_BY.finditer(sent):  # both passive: agent and patient exchanged
            if stem(n.group("v").lower()) == v and x & _words_of(n.group("y")) and y & _words_of(n.group("x")) \
                    and not x & _words_of(n.group("x")):
                return said_where(m.group(0), n.group(0), sent)
        for n in re.finditer(rf"\b{re.escape(m.group('v'))}\s+(?!(?:by|in|as|for|with|into|to|from|at|on|of|"
                             rf"via|through|under)\b)(?P<o>(?:[\w-]+\s+){{0,3}}[\w-]+)", sent, re.I):
            # (an object straight after the verb: "classified by presumed mechanism" is a passive's means, a faithful
            # Citation-Integrity claim's)
            if re.search(r"\b(?:is|are|was|were|been|be)\s+(?:\w+ly\s+)?$", sent[:n.start()], re.I):
                continue  # the sentence's verb is passive too
            agent = _words_of(sent[max(0, n.start() - 200):n.start()])
            if y & _words_of(n.group("o")) and x & agent and not x & _words_of(n.group("o")):
                return said_where(m.group(0), n.group(0), sent)
    return None


def said_where(said: str, was: str, sent: str) -> Tag:
    """The proven ``polarity_flip`` at 0.9 these rules give: "The claim says SAID where the source says WAS", the
    sentence quoted (its first 200 characters)."""
    return Tag("polarity_flip", f"The claim says {said!r} where the source says {was!r}: \u201c{sent[:200]}\u201d", 0.9,
               (TagEvidence(said, was),), proven=True)


_AGAINST = re.compile(r"\b(?P<pre>[a-z]+\s+[a-z]+)\s+(?:protecting|protection|guarding|preventing|prevention|defending)"
                      r"\s+(?:against|from|of)\s+(?P<w>[\w-]+)", re.I)


def protection_inserted(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim puts *protecting against* between two words and the thing a sentence restating it has straight
    after them: "proteins implicated in protecting against leukemic transformation" for "proteins implicated in
    leukemic transformation" (a 192nd trial: *supported*), and no sentence of the source protects against it.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    m = _AGAINST.search(claim_text)
    if m is None:
        return None
    pre = r"\s+".join(map(re.escape, m.group("pre").split()))
    for _passage, sent in restating(claim_text, pool):
        n = re.search(rf"\b{pre}\s+{re.escape(m.group('w'))}\b", sent, re.I)
        if n is None or re.search(rf"(?:protect|prevent|guard|defen)\w*\s+(?:against|from|of)\s+{re.escape(m.group('w'))}",
                                  source_text or sent, re.I):
            continue
        return said_where(m.group(0), n.group(0), sent)
    return None
