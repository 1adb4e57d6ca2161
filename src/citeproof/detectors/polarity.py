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

from citeproof.detectors.across import comparison_mirrored
from citeproof.detectors.cues import (ASIDE, AUX, AXES, CLAIM_NEG, CUE_RES, NEG_ANY, NEG_ANY_SIDE, NEG_LEXICAL, NEG_WORDS,
                                      NULL_FINDING, OPPOSITE, WINDOW, neg_scopes)
from citeproof.detectors.reversals import restated_flip
from citeproof.detectors.swaps import RESTATE_AT, compared_sentence, detect_term_swap
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.sentences import enumerated_items, split_sentences
from citeproof.text.stems import STOPWORDS, overlap_score, relevant_sentences, sentence_stems, stem_opcodes


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
        cls = next((c for c, rx in CUE_RES.items() if rx.match(t)), None)
        if cls is None or _is_agent_noun(t):
            continue
        if t.lower() in ("more", "less", "fewer", "greater") and "than" not in [w.lower() for w in toks[i + 1 : i + 4]]:
            continue  # "more advanced", "less studied": quantity words, not a direction, unless comparing
        neg_at = next((j for j in range(max(0, i - 3), i) if toks[j].lower() in NEG_WORDS), None)
        shown = t
        if neg_at is not None:
            cls = OPPOSITE[cls]
            if neg_at > 0 and toks[neg_at - 1].lower() in AUX:
                neg_at -= 1
            shown = " ".join(toks[neg_at : i + 1])  # "did not rescue", not "rescue"
        around = [w for w in toks[max(0, i - WINDOW) : i] + toks[i + 1 : i + 1 + WINDOW]
                  if w.lower() not in STOPWORDS and len(w) >= 3 and not any(rx.match(w) for rx in CUE_RES.values())
                  and w.lower() not in NEG_WORDS]
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
    c_scopes = neg_scopes(claim_text)
    for neg, sc in c_scopes:
        need = min(3, len(sc))
        holding = [s for s in pool if sum(w in _prefixes(s) for w in sc) >= need]
        if holding and not any(NEG_ANY_SIDE.search(s) or NEG_LEXICAL.search(s) or NULL_FINDING.search(s) for s in holding):
            # the claim's words, not their stems' first letters ("'not' decre endog SIP1 expre..." in a 20th trial)
            said = {stem(w)[:5]: w for w in reversed(_TOKEN_RE.findall(claim_text))}
            return Tag("polarity_flip", f"The claim negates ({neg!r} {' '.join(said.get(x, x) for x in sc)}...) what the "
                       "evidence states without negation.",
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
    for neg, sc in neg_scopes(claim_text):
        if neg.lower() not in ("no", "none"):
            continue
        need = min(3, len(sc))
        for sent in pool:
            if sum(w in _prefixes(sent) for w in sc) < need or NEG_ANY_SIDE.search(sent) or NULL_FINDING.search(sent):
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


_AND_OR = frozenset({"and", "or"})


def _coordinated(words: list[str], k: int, step: int) -> bool:
    """``words[k]`` goes on a coordinated term: *and* / *or* between content words ("the sedentary and recreationally
    active men", a 31st trial), or the content word past it."""
    if words[k] in _AND_OR:
        return 0 <= k + step < len(words) and words[k + step] not in STOPWORDS and words[k - step] not in STOPWORDS
    return words[k] not in STOPWORDS and 0 <= k - step < len(words) and words[k - step] in _AND_OR


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
        joined = False  # a coordinated term runs to five words
        while j >= 0 and len(left) < 5 and (words[j] not in STOPWORDS and (len(left) < 3 or joined)
                                            or _coordinated(words, j, -1)):
            joined = joined or words[j] in _AND_OR
            if words[j] not in _AND_OR:
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
        joined = False
        while i < len(words) and len(right) < 5 and (words[i] not in STOPWORDS and (len(right) < 3 or joined)
                                                     or _coordinated(words, i, 1)):
            joined = joined or words[i] in _AND_OR
            if words[i] not in _AND_OR:
                right.append(words[i])
            i += 1
        if left and right:
            return [stem(x) for x in left], [stem(x) for x in right], comparative, degree
    return None


def _compared_phrase(text: str, comp: tuple) -> str:
    """The words of ``text`` from its comparison's left term (``comp``: :func:`_comparison`) to its right one, as
    written ("higher in apoE-/-/TNF-alpha-/- than apoE-/- mice")."""
    toks = list(re.finditer(r"\S+", text))
    lows = [re.sub(r"^\W+|\W+$", "", t.group(0)).lower() for t in toks]
    k = next((i for i, w in enumerate(lows) if w in _THAN), None)
    if k is None:
        return text[:80]
    a = next((i for i in range(k - 1, max(-1, k - 10), -1) if stem(lows[i]) == comp[2]), max(0, k - 3))
    right, b = set(comp[1]), k + 1
    while b < len(toks) and b - k <= 9 and not (right <= {stem(x) for w in lows[k + 1:b] for x in _TOKEN_RE.findall(w)}):
        b += 1
    return text[toks[a].start():toks[min(b, len(toks)) - 1].end()].rstrip(".,;:")


def _reversed_comparison(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence that makes the claim's comparison the other way round, with the same comparative.

    "The decline in lung function was steeper among never-smokers than among smokers" against "The decline was
    steeper among smokers than among never-smokers": the two compared terms (:func:`_comparison`) exchange places
    across *than* (or *versus*, *vs*, *compared*), the word before them (*steeper*) and its degree words (*less*,
    *not*...) agree, and the sentence restates the claim (:data:`~citeproof.detectors.terms.RESTATE_AT`); a head
    noun both right-hand terms end with is set aside ("higher in apoE-/-/TNF-alpha-/- than apoE-/- mice" against
    "higher in apoE-/- than apoE-/-/TNF-alpha-/- mice", a 25th trial). "Less
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
            if sc is None:
                continue
            (cl, cr), (sl, sr) = cc[:2], sc[:2]
            while len(cr) > 1 and len(sr) > 1 and cr[-1] == sr[-1] and cl[-1] != cr[-1]:
                cr, sr = cr[:-1], sr[:-1]  # the head both right terms end with ("than apoE-/- mice"), not the left's
            if cl != cr and cl == sr and cr == sl and cc[2] == sc[2] and cc[3] == sc[3]:
                first, second = _compared_phrase(claim_text, cc), _compared_phrase(sent, sc)
                return Tag("polarity_flip", f"The claim says {first!r} where the source says {second!r}, the compared "
                           f"terms the other way round: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(first, second),),
                           proven=True)
    return _one_sided_reversal(claim_text, pool)


_GROUP_PREP = frozenset({"among", "in", "for", "with", "at"})
"""Words that put a group after a comparative (*higher among men*)."""

def _favoured(words: list[str], comparative: str, degree: frozenset, alone: bool) -> list[str] | None:
    """The stems of the group a comparative favours in lower-cased ``words``: up to three content words after
    "``comparative`` among/in/for/with/at" (*higher among men*), its degree words (:data:`_DEGREE`) equal to
    ``degree``; with ``alone``, only where no *than* (:data:`_THAN`) follows within eight words. None when none."""
    for j, w in enumerate(words):
        if stem(w) != comparative or j + 2 >= len(words) or words[j + 1] not in _GROUP_PREP:
            continue
        if alone and _THAN.intersection(words[j + 1:j + 9]):
            continue
        if frozenset(x for x in words[max(0, j - 2):j + 1] if x in _DEGREE) != degree:
            continue
        i = j + 2
        while i < len(words) and words[i] in STOPWORDS and i - j <= 4:
            i += 1
        group: list[str] = []
        while i < len(words) and words[i] not in STOPWORDS and len(group) < 3:
            group.append(stem(words[i]))
            i += 1
        if group:
            return group
    return None


def _one_sided_reversal(claim_text: str, pool: list[str]) -> Tag | None:
    """A sentence restating the claim that favours the group the claim puts second, without a *than*.

    "The incidence of heart failure was higher among women (378/100 000 persons) than among men (289/100 000
    persons)" against "The incidence of heart failure was higher among men (378/100 000 persons; ...) and did not
    change over time" (a new user's trial, issue 28): the claim's comparative (:func:`_comparison`) with its group
    after it (*higher among women*) and the sentence's same comparative, with the same degree words, naming the
    claim's other group (*higher among men*). Asides in brackets are left out of both. Code shows it: confidence
    0.9, ``proven``.
    """
    bare = ASIDE.sub("", claim_text)
    cw = [w.lower() for w in _TOKEN_RE.findall(bare)]
    cc = _comparison(cw) if _THAN.intersection(cw) else None
    if cc is None or cc[0] == cc[1] or _favoured(cw, cc[2], cc[3], alone=False) != cc[0]:
        return None
    for passage in pool:
        for sent in split_sentences(passage):
            sbare = ASIDE.sub("", sent)
            sw = [w.lower() for w in _TOKEN_RE.findall(sbare)]
            if _favoured(sw, cc[2], cc[3], alone=True) != cc[1] or overlap_score(bare, sbare) < RESTATE_AT:
                continue
            first, second = (" ".join(w for w in cw if stem(w) in t) for t in (cc[0], cc[1]))
            return Tag("polarity_flip", f"The claim says {first!r} ahead of {second!r}; the source puts {second!r} "
                       f"ahead: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(first, second),), proven=True)
    return None



_NULL_SENTENCE = re.compile(r"^\W*(?:the\s+|overall\s+)?(?P<subject>(?:[\w-]+\s+){1,3}?[\w-]+)\s+"
                            r"(?:did|does|do|was|were|is|are)\s+not\s+(?:differ|change|alter)\w*\b(?P<rest>[^;]*)$", re.I)
"""A short source sentence denying a difference in its subject: "Hospital mortality did not differ."."""


def _denied_effect(claim_text: str, source_text: str) -> Tag | None:
    """A short source sentence that denies any difference in the very quantity the claim says moved.

    "The use of NIV was associated with a significant reduction in hospital mortality (20% vs 50%; P = .05)"
    against "Hospital mortality did not differ." (a new user's trial, issue 28: the source reported the reduction
    for intensive care unit mortality). The sentence: at most twelve words, its subject two to four words
    ("hospital mortality") and *did not differ / change / alter*, nothing about *baseline*; the claim: a direction
    cue (:data:`~citeproof.detectors.cues.AXES`) within three words of that subject, word for word, and no negation
    or null finding of its own. Code shows it: confidence 0.9, ``proven``.
    """
    if CLAIM_NEG.search(claim_text) or NULL_FINDING.search(claim_text):
        return None
    cw = [w.lower() for w in _TOKEN_RE.findall(claim_text)]
    cues = [(c[0], c[2]) for c in _cues(claim_text)]
    if not cues:
        return None
    cs = [stem(w) for w in cw]
    for sent, *_ in sentence_stems(source_text):  # cached: the source is split once, not per claim
        m = _NULL_SENTENCE.match(sent.strip())
        if not m or len(_TOKEN_RE.findall(sent)) > 12 or "baseline" in sent.lower():
            continue
        subject = [stem(w.lower()) for w in _TOKEN_RE.findall(m.group("subject")) if w.lower() not in STOPWORDS]
        if len(subject) < 2:
            continue
        for k in range(len(cs) - len(subject) + 1):
            if cs[k:k + len(subject)] != subject:
                continue
            near = [c for c in cues if k - 3 <= c[1] < k or k + len(subject) <= c[1] <= k + len(subject) + 2]
            if near:
                ci = near[0][1]
                said, span = " ".join(cw[k:k + len(subject)]), " ".join(cw[min(ci, k):max(ci + 1, k + len(subject))])
                return Tag("polarity_flip", f"The claim says {said!r} moved ({cw[ci]!r}) where the source says it "
                           f"did not: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(span, sent[:120]),), proven=True)
    return None


@lru_cache(maxsize=32)
def _source_cues(source_text: str) -> tuple:
    return tuple(_cues(source_text))


def _source_agrees(cls: str, axis: str, tgt: set[str], source_text: str, need: int = 2) -> bool:
    """True when some sentence of the source has a cue of class ``cls`` on the same target (at least ``need``, and
    2, shared words: an agreeing cue on a target the opposing one names more of is about something else, "express
    their own miRNAs to control both viral and cellular transcripts" against "virus production is selectively
    reduced in salivary glands" for "... miRNAs shows selectively increased virus production in salivary glands", a
    twenty-first trial)."""
    if not source_text:
        return False
    for e in _source_cues(source_text):
        if e[0] == cls and len(e[3] & tgt) >= max(2, need) and e[2] >= 0:
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


def _swap_shown(claim_text: str, pool: list[str], claim_word: str, source_word: str, source_text: str) -> str | None:
    """The restating sentence on which ``term_swap`` proves ``claim_word`` the only change, in the place of
    ``source_word`` (:func:`citeproof.detectors.swaps.detect_term_swap`: it also sets aside what the claim leaves out,
    "undetectable or markedly reduced" read against "markedly elevated"); None otherwise. A direction word turned is a
    reversal, so the finding is *contradicted*, not only *unsupported* (issue 28, a fourth trial)."""
    evidence = " ".join(pool)
    tags = detect_term_swap(claim_text, evidence, source_text=source_text)
    if not tags or not tags[0].proven or len(tags[0].evidence) != 1:
        return None
    ev = tags[0].evidence[0]
    if (stem(ev.claim_span.lower()), stem(ev.evidence_span.lower())) != (stem(claim_word.lower()), stem(source_word.lower())):
        return None
    return compared_sentence(claim_text, evidence, source_text)[0]


def detect_polarity_flip(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``polarity_flip`` when the claim's direction of effect opposes the evidence's.

    Signals, strongest first:

    Evidence here means the best passage plus up to three source sentences
    that share at least 35 % of the claim's content words.

    0. a sentence makes the claim's comparison the other way round with the same comparative
       (:func:`_reversed_comparison`: "steeper among never-smokers than among smokers" against "steeper among
       smokers than among never-smokers"), or restates the claim but for one word turned into its opposite or two
       terms exchanged, or a negation on one side only, or groups exchanged across parallel clauses
       (:func:`citeproof.detectors.reversals.restated_flip`), confidence 0.9 and ``proven``;
    1. a claim cue and an evidence cue on the same axis and the same target
       (content words, compared on their first five letters, within five
       words of each) point opposite ways, the opposing cue shares more
       target words than any agreeing cue, and no sentence of ``source_text``
       has an agreeing cue sharing two target words (confidence 0.85 with two
       shared words and no agreeing cue on the target at all; 0.65 with two shared words beside an agreeing cue that
       shares fewer, downgrading; else 0.55, reported, not downgrading; these two only when no rule below fires);
       when a source sentence is the claim word
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
    pool += [i for s in pool for i in enumerated_items(s) if overlap_score(claim_text, i) >= 0.5]  # (166th trial)
    reversed_ = (_reversed_comparison(claim_text, pool) or restated_flip(claim_text, pool, wide, source_text)
                 or _denied_effect(claim_text, source_text or evidence_text))
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
        oppose = [e for e in same_target if e[0] == OPPOSITE[cls]]
        if oppose:
            e = max(oppose, key=lambda x: len(x[3] & tgt))
            shared = sorted(e[3] & tgt)
            if len(shared) <= agree or _source_agrees(cls, axis, tgt, source_text, need=len(shared) - 1):
                continue
            # two target words shared, more than any agreeing cue has: 0.65, it downgrades ("raised the proportion of
            # double-positive CD4+CD8+ thymocytes" against "a slight decrease in the double-positive cell (CD4(+)CD8(+))
            # ratio" beside "a three- to fourfold increase in the proportion of mature ...", two nineteenth trials:
            # *supported*); 8 of the 1,736 faithful training citations carry one
            conf = 0.85 if len(shared) >= 2 and agree == 0 else 0.65 if len(shared) >= 2 else 0.55
            restated = _one_word_flip(claim_text, pool, word, e[1]) if conf >= 0.85 else None
            alike = "every other word alike"
            if restated is None and conf >= 0.85:
                restated, alike = (_swap_shown(claim_text, pool, word, e[1], source_text),
                                   "the only change to the sentence that restates the claim")
            if restated is not None:  # the source's own sentence, with the direction word turned: shown by code
                return [Tag("polarity_flip", f"The claim says {word!r} where the source says {e[1]!r}, {alike}: "
                            f"\u201c{restated[:200]}\u201d", 0.9, (TagEvidence(word, e[1]),), proven=True)]
            if comparison_mirrored(claim_text, pool):
                continue  # the same comparison made from its other end ("B lower than A" for "A higher than B")
            tag = Tag("polarity_flip", f"The claim says {word!r} about {_surface(shared, surface)!r} where the evidence says {e[1]!r}.",
                      conf, (TagEvidence(word, e[1]),))
            if conf >= 0.85:
                return [tag]
            weak = weak if weak and weak[0].confidence >= conf else [tag]  # reported only if no stronger rule below fires
    counted = _counted_negation(claim_text, pool)
    if counted is not None:
        return [counted]
    # a negated claim against evidence that negates nothing
    cneg_m = CLAIM_NEG.search(claim_text)
    if cneg_m and not any(NEG_ANY.search(sent) for sent in wide) and not NULL_FINDING.search(" ".join(wide)):
        return [Tag("polarity_flip", f"The claim negates ({cneg_m.group(0)!r}) what the evidence states without negation.",
                    0.75, (TagEvidence(cneg_m.group(0), ""),))]
    c_null, e_null = NULL_FINDING.search(claim_text), NULL_FINDING.search(evidence_text)
    if c_null and not e_null and not NULL_FINDING.search(source_text):
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
            word = next((w for w in _TOKEN_RE.findall(evidence_text) if stem(w) == s), s)  # as written, not its stem
            return [Tag("polarity_flip", f"The claim negates what the evidence states ({span!r}).", 0.75,
                        (TagEvidence(span, word),))]
    return weak
