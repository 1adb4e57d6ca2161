"""Reversals shown on the source sentence that restates the claim (issue 28): code compares the claim with that
sentence word by word, so each finding here is ``proven`` (it can make a verdict *contradicted*).

:func:`citeproof.detectors.reversals.restated_flip` tries, in order: one word turned into its opposite or two terms exchanged across a relation
word (:func:`_restated_reversal`), a negation on one side only (:func:`citeproof.detectors.denials.negation_dropped`), a reversal inside a run of
shared words (:func:`citeproof.detectors.reversals.reversal_in_run`), two groups exchanged across parallel clauses (:func:`_exchanged_roles`,
:func:`_exchanged_blocks`) or inside one phrase (:func:`_exchanged_in_phrase`). A conjunct or aside of the sentence
that the claim leaves out (:func:`_conjunct`) is read past.
:func:`states_same_negation` is the policy's check that a restating sentence negates what the claim negates. Each rule
was found by new users' trials on SciFact abstracts (docs/meaning.md) and measured on the faithful training citations.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.detectors.cues import (ANTONYMS, ASIDE, AXES, CUE_RES, NEGATOR, NUMBER, OPPOSITE, RELATION, content_stems,
                                      light_token, neg_scopes)
from citeproof.detectors.lexicon import KINDS as _KINDS, NAMING_FRAME
from citeproof.detectors.terms import RESTATE_AT
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import WORD_RE as _TOKEN_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, overlap_score, stem_opcodes


def _readings(sent: str) -> list[str]:
    """``sent`` and, when it holds asides in brackets, ``sent`` without them: a claim that restates a sentence often
    leaves out its "(relative risk, 1.33; 95% CI, 1.24-1.43)" or "mean [SD] age", or an excepted thing set off by
    commas ("timely progression of cells through replication, but not mitosis, is required", a 57th trial's claim
    negated the rest)."""
    bare = _EXCEPTED.sub(" ", ASIDE.sub("", sent))
    out = [sent, bare] if bare != sent and bare.strip() else [sent]
    verbal = _SIGNED_REGULATOR.sub(lambda m: ("activator" if m.group(1).lower() == "positive" else "repressor")
                                   + (m.group(2) or ""), _EFFECT_NOUN.sub(lambda m: _EFFECT_VERB[m.group("kind").lower()], out[-1]))
    return out + [verbal] if verbal != out[-1] else out


_SIGNED_REGULATOR = re.compile(r"\b(positive|negative)\s+regulator(s?)\b", re.I)
"""*a positive regulator* read as *an activator*, *a negative* as *a repressor* (a 175th trial's *supported*)."""
_EFFECT_NOUN = re.compile(r"\b(?:exhibit|exert|show|display|ha(?:ve|s|d)|produc)\w*\s+(?:\w+ly\s+)?(?:an?\s+)?(?:\w+ly\s+)?"
                          r"(?P<kind>inhibitory|stimulatory|suppressive|activating)\s+(?:effects?|actions?|activity)\s+"
                          r"(?:on|upon|against)\b", re.I)
_EFFECT_VERB = {"inhibitory": "inhibited", "stimulatory": "stimulated", "suppressive": "suppressed",
                "activating": "activated"}
"""*exhibited effectively inhibitory effects on X* read as *inhibited X* (a 168th trial: "antibodies, which enhanced
the enzymatic activity of H. pylori urease" for "... which exhibited effectively inhibitory effects on ...")."""


_EXCEPTED = re.compile(r"\s*,\s*but not\s+(?:[^,;()]{1,40},\s*){0,4}?(?:(?:and|or)\s+)?[^,;()]{1,40},\s*"
                       r"(?=(?:\w+ly\s+|also\s+|not\s+)?(?:was|were|is|are|has|have|had|did|does|do|can|could|may|might)\b)"
                       r"|\s*,\s*but not\s+[^,;()]{1,40},\s*", re.I)
"""*, but not X,* and *, but not X, Y, or Z,* before a verb ("The circadian amplitude of energy expenditure, but not
respiratory exchange ratio, food intake, or motor activity, also was blunted", a 90th trial)."""


_DESIRABLE = frozenset(stem(w) for w in (
    "sensitivity specificity precision accuracy survival quality performance efficiency efficacy yield recovery "
    "fitness resolution stability reliability throughput").split())
"""Things only ever wanted more of: before one of them, *improving* says *increasing* and *reducing* its opposite
("while at the same time reducing alignment sensitivity and precision" for "improving ...", an eleventh trial)."""


@lru_cache(maxsize=65536)
def _opposed(a: str, b: str) -> bool:
    """:func:`_opposite` without the words after (read once per pair: a rule compares every pair of two sentences)."""
    if frozenset((a, b)) in ANTONYMS:
        return True
    short, long = sorted((a, b), key=len)
    if (len(short) >= 5 and long not in _NOT_NEGATED and (m := _NEGATED.match(long)) and long[m.end():] == short):
        return True  # "inactivated" / "activated", "indispensable" / "dispensable" (trials 65 and 66)
    ha, hb = a.rsplit("-", 1), b.rsplit("-", 1)
    if len(ha) == len(hb) == 2 and ha[0] == hb[0]:  # one compound, its last part turned: autosomal-dominant / -recessive
        return _opposed(ha[1], hb[1])
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), 0)  # radioresistance / radiosensitivity (179th)
    if k >= 4 and frozenset((a[k:], b[k:])) in ANTONYMS:
        return True
    return any(CUE_RES[c].match(a) and CUE_RES[OPPOSITE[c]].match(b) and not CUE_RES[c].match(b)
               and not CUE_RES[OPPOSITE[c]].match(a) for c in AXES)


def _opposite(a: str, b: str, after: list[str] = ()) -> bool:
    """``a`` and ``b`` (lower-case words) say opposite things: a pair of :data:`ANTONYMS`, or direction cues of one
    axis pointing opposite ways (*increased* / *reduced*, *improves* / *impairs*: :data:`AXES`), also as the last
    part of one hyphenated compound (*autosomal-dominant* / *autosomal-recessive*). When one of the first three of
    ``after`` (the words both stand before) is a thing only ever wanted more of (:data:`_DESIRABLE`), the two axes
    meet: *improving* and *reducing* (alignment) sensitivity are opposite; *improving* and *reducing* mortality are
    not compared."""
    if _opposed(a, b):
        return True
    if not any(stem(w) in _DESIRABLE for w in after[:3]):
        return False
    more = {"up", "good"}
    ca = {c for c in AXES if CUE_RES[c].match(a)}
    cb = {c for c in AXES if CUE_RES[c].match(b)}
    return bool(ca and cb) and ((ca <= more and not cb & more) or (cb <= more and not ca & more))


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


def _term(w: str) -> bool:
    """``w`` (lower-case) can be a term two clauses exchange: a word of three letters or more (*men* / *women*) that
    is no stop word, number or negation."""
    return len(w) >= 3 and w not in STOPWORDS and NUMBER.fullmatch(w) is None and not NEGATOR.fullmatch(w)


_NEGATED = re.compile(r"(?:un|in|im|il|ir|non-?|dis)")
_NOT_NEGATED = frozenset({"discover", "discovered", "discharge", "discharged", "dissolve", "dissolved", "insight",
                          "display", "displayed", "dispatch", "dissect", "dissected", "invest", "insert", "inserted",
                          "intend", "inform", "informed", "involve", "involved", "include", "included", "impart",
                          "imported", "impose", "imposed", "invent", "invented", "disease", "distract", "indent"})
"""Words that open as a negated word would and negate nothing (*discover* is no *not cover*)."""
def _turned_too(claim_text: str, sent: str) -> bool:
    """A word of the claim is the opposite (:func:`_opposite`) of a word of the sentence that the claim lacks."""
    cw = {w.lower() for w in _TOKEN_RE.findall(claim_text)}
    sw = {w.lower() for w in _TOKEN_RE.findall(sent)}
    return any(_opposite(a, b) for a in cw - sw for b in sw - cw)


_ARTICLE = {"an": "a"}
_SAYING = frozenset({"stated", "states", "admitted", "admits", "said", "says", "claimed", "claims", "noted", "notes",
                     "declared", "reported", "reports", "indicated", "indicates", "acknowledged"})
"""Verbs of saying: one for another in a report of what people said is no second change."""


def _restated_reversal(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence that restates the claim word for word but for a reversal: one word turned into its opposite
    (:func:`_opposite`: "of larger size" against "of smaller size", "more selective" against "less selective",
    "when it increased fasting gene expression" against "when it reduced ..."), or
    two of its terms exchanged across a word that sets them against each other (:data:`RELATION`: "from the
    cytoplasm to the nucleus" against "from the nucleus to the cytoplasm"; "severe ... whereas ... uncomplicated"
    against "uncomplicated ... whereas ... severe").

    Words are compared by stem (:func:`citeproof.text.stems.stem_opcodes`); besides the reversal the sentence and
    the claim may differ only by light tokens (:func:`light_token`), by asides in brackets the claim leaves out
    (:func:`_readings`) and by what the sentence says before or after the claim's words, and the sentence restates
    the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content words). Found by new users' trials on
    SciFact abstracts (2026-12-06): both kinds came out *supported* or *partial*. Code shows it: confidence 0.9,
    ``proven``.
    """
    cw = [_ARTICLE.get(w.lower(), w.lower()) for w in _TOKEN_RE.findall(claim_text)]
    for passage in pool:
        for sent in (r for whole in split_sentences(passage) for r in _readings(whole)):
            if overlap_score(claim_text, sent) < RESTATE_AT:
                continue
            sw = [_ARTICLE.get(w.lower(), w.lower()) for w in _TOKEN_RE.findall(sent)]  # "an increase" / "a reduction"
            ops = _differences(cw, sw)
            # a replaced run of as many words on each side, read word by word ("had improved" / "was worsened")
            reps = [("replace", i1 + d, i1 + d + 1, j1 + d, j1 + d + 1) for t, i1, i2, j1, j2 in ops if t == "replace"
                    for d in range(i2 - i1) if i2 - i1 == j2 - j1 and cw[i1 + d] != sw[j1 + d]]
            reps += [op for op in ops if op[0] == "replace" and op[2] - op[1] != op[4] - op[3]]
            if not reps or not all(i2 - i1 == 1 and j2 - j1 == 1 for _t, i1, i2, j1, j2 in reps):
                continue
            turned = {(cw[i1], sw[j1]) for _t, i1, _i, j1, _j in reps if _opposite(cw[i1], sw[j1], cw[i1 + 1:])}
            rest = [(cw[i1], sw[j1]) for _t, i1, _i, j1, _j in reps if (cw[i1], sw[j1]) not in turned
                    and not (light_token(cw[i1]) and light_token(sw[j1])) and not {cw[i1], sw[j1]} <= _SAYING]
            if len(turned) == 1 and len(reps) >= 2 and not rest and len(reps) - sum(
                    (cw[i1], sw[j1]) in turned for _t, i1, _i, j1, _j in reps) >= 1:
                (a, b), = turned  # the turned word beside light words only ("is indispensable for" / "although
                # dispensable for", a 66th trial)
                if sum((cw[i1], sw[j1]) in turned for _t, i1, _i, j1, _j in reps) == 1:
                    return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, every other word "
                               f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
            if len(turned) == 1 and len(reps) - len(rest) >= 2 and not rest and len(
                    [1 for _t, i1, _i, j1, _j in reps if (cw[i1], sw[j1]) in turned]) >= 2:
                (a, b), = turned  # one word turned each time it stands ("their health had improved or greatly
                # improved" for "was worsened or greatly worsened", a 60th trial), the rest a verb of saying
                return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, each time, every other "
                           f"word alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
            # the sentence may say more before or after the claim's words (an insert at either end); inside them,
            # and of the claim's own words, only light tokens may differ
            if not all(light_token(w) for op in ops if op[0] != "replace"
                       and not (op[0] == "insert" and op[1] in (0, len(cw))) for w in cw[op[1]:op[2]] + sw[op[3]:op[4]]):
                continue
            if len(reps) == 1:
                a, b = cw[reps[0][1]], sw[reps[0][3]]
                if _opposite(a, b, cw[reps[0][2]:]):
                    return Tag("polarity_flip", f"The claim says {a!r} where the source says {b!r}, every other word "
                               f"alike: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
            elif len(reps) == 2:
                (_t, i1, _i, j1, _j), (_u, i2, _k, j2, _l) = reps
                a1, a2 = cw[i1], cw[i2]
                if (stem(a1) == stem(sw[j2]) and stem(a2) == stem(sw[j1]) and _term(a1) and _term(a2)
                        and RELATION.intersection(cw[i1 + 1:i2])):
                    return Tag("polarity_flip", f"The claim exchanges {a1!r} and {a2!r}: the source says it the other "
                               f"way round, \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a1, a2),), proven=True)
                between = cw[i1 + 1:i2]
                if (_opposite(a1, sw[j1], cw[i1 + 1:]) and _opposite(a2, sw[j2], cw[i2 + 1:])
                        and {"and", "but", "while", "whereas", "whilst"} & set(between)
                        and any(not light_token(w) for w in between)):
                    # each of two things turned ("an increase of proinflammatory cytokines and decreases in IL-10" for
                    # "a reduction of ... and increases in IL-10", a 55th trial): two reversals, not one undoing the other
                    return Tag("polarity_flip", f"The claim says {a1!r} and {a2!r} where the source says {sw[j1]!r} and "
                               f"{sw[j2]!r}, every other word alike: \u201c{sent[:200]}\u201d", 0.9,
                               (TagEvidence(a1, sw[j1]), TagEvidence(a2, sw[j2])), proven=True)
    return None


_CONJ_END = frozenset({"and", "or"})
_CONTRAST = frozenset({"but", "whereas", "while", "whilst"})
_CONJ_START = frozenset({"which", "who", "whose", "where"})


def _conjunct(words: list[str]) -> bool:
    """``words`` (lower case) the sentence inserts inside the claim's words are a whole conjunct or aside the claim
    leaves out: they end in *and* / *or* ("divide in synchrony with the migrating nuclei at nuclear cycles 8 and 9,
    and | just after ...") or open a relative clause ("The yolk nuclei, which remain in the core ..., | divide"),
    or open with *and* / *or* ("... or alter airway collapsibility", a 35th trial), with no negation or direction
    word of their own. The claim restating the sentence's other conjunct is then
    compared with it as if the aside were not there (two misses of a fifth new user's trial, 2026-12-06)."""
    if len(words) < 2 or not (words[-1] in _CONJ_END or words[0] in _CONJ_START or words[:3] == ["as", "well", "as"]
                              or words[0] in _CONJ_END and len(words) >= 3):
        return False  # "decreased endogenous SIP1 expression as well as reporter activity of ... in MMC" (a 20th trial)
    return not any(NEGATOR.fullmatch(w) or any(CUE_RES[c].match(w) for c in AXES) for w in words)



_TERM_RE = re.compile(r"[^\W_](?:[^\W_]|[.,'’/-](?=[^\W_]))*")
"""Words and numbers ("12", "60%" read as "60", "PaO2"), for :func:`_exchanged_roles`."""


def _spans(text: str) -> list[tuple[str, int, int]]:
    """``text``'s content words and numbers (stop words left out) as ``(stem, start, end)`` (characters), in order."""
    return [(stem(m.group(0).lower()), m.start(), m.end()) for m in _TERM_RE.finditer(text)
            if m.group(0).lower() not in STOPWORDS and (len(m.group(0)) >= 3 or any(c.isdigit() for c in m.group(0)))]


def _role_terms(text: str) -> tuple[list[str], list[str]]:
    """``text``'s content words and numbers, in order (:func:`_spans`): ``(stems, as written)``."""
    spans = _spans(text)
    return [t for t, _, _ in spans], [text[a:b] for _, a, b in spans]


def _swapped(c: list[str], s: list[str]) -> tuple[int, int] | None:
    """``(len X, len Y)`` when ``c`` is X M Y and ``s`` is Y M X, with X, Y of 1-4 terms and M holding a number (two
    parallel clauses, "in 12 patients (60%) X and in 5 patients (25%) Y"); else None. Without the number the same
    shape is mostly a paraphrase: "CCL19 is a ligand for CCR7" / "the CCR7 ligand, CCL19"; "Ca2+ cycling controls
    energy homeostasis in beige fat" / "beige fat controls energy homeostasis via Ca2+ cycling" (three faithful
    training citations)."""
    n = len(c)
    for lx in range(1, min(4, n - 2) + 1):
        for ly in range(1, min(4, n - lx - 1) + 1):
            x, y, m = c[:lx], c[n - ly:], c[lx:n - ly]
            if (x != y and s[:ly] == y and s[n - lx:] == x and s[ly:n - lx] == m
                    and any(ch.isdigit() for t in m for ch in t)):
                return lx, ly
    return None


def _exchanged_roles(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim with two of its terms exchanged across others: "a sustained improvement
    was noted in 12 patients (60%) randomized to standard treatment and in 5 patients (25%) in the NIV group" against
    "... in 12 patients (60%) in the NIV group, and in 5 patients (25%) randomized to standard treatment".

    Content words and numbers compared by stem, in order: the claim's run where it differs from the sentence is X M Y
    and the sentence's is Y M X (:func:`_swapped`), M holding a number (so "A and B" / "B and A" is a reordering),
    what the sentence says before or after the claim's words aside. Not when *by* stands in one text
    only (a change of voice: "insulin lowered glucose" / "glucose was lowered by insulin"). Found by a new user's
    trial on a SciFact abstract (2026-12-06): it ended *partial*. Code shows it: confidence 0.9, ``proven``.
    """
    c, written = _role_terms(claim_text)
    by_c = " by " in f" {claim_text.lower()} "
    for passage in pool:
        for sent in split_sentences(passage):
            if overlap_score(claim_text, sent) < RESTATE_AT or (" by " in f" {sent.lower()} ") != by_c:
                continue
            s = _role_terms(sent)[0]
            found = None
            for k in range(len(s) - len(c) + 1):  # the sentence may say more before or after the claim's words
                w = s[k:k + len(c)]
                p = next((i for i, (a, b) in enumerate(zip(c, w)) if a != b), len(c))
                q = next((i for i, (a, b) in enumerate(zip(reversed(c), reversed(w))) if a != b), len(c))
                if p + q < len(c) - 2 and (found := _swapped(c[p:len(c) - q], w[p:len(c) - q])):
                    break
            if found:
                x, y = " ".join(written[p:p + found[0]]), " ".join(written[len(c) - q - found[1]:len(c) - q])
                return Tag("polarity_flip", f"The claim exchanges {x!r} and {y!r}: the source says it the other way "
                           f"round, \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(x, y),), proven=True)
    return None



_JOINER = re.compile(r"[,;]|\b(?:and|while|whilst|whereas|but)\b", re.I)
"""What joins two parallel clauses or phrases: an exchange of terms across one is a reversal of roles."""


_DIRECTED = re.compile(r"\s*(?:controll?(?:ed|s)?|drives|drove|mediate[sd]|regulate[sd]|induce[sd])\s*", re.I)
_ORDERED = re.compile(r"\b(?:than|since|after|before|into|versus|vs|instead|rather|unlike|replac\w*|outperform\w*|"
                      r"surpass\w*|exceed\w*|precede[sd]?|depends?|depended|dependent|co-?cultivated|co-?cultured|compared)\b")
"""Words that order the two terms around them (*X since the introduction of Y*, *X rather than Y*, *X into Y*, *X
depends on ... Y*, a 65th trial):
the same word between them in both texts makes an exchange a reversal, with no clause joiner or term outside it
("Anti-HCV testing has become obsolete since the introduction of ALT surrogate testing" for the other way round: a
sixth trial, the judge's 0.93); so do verbs of rank (*X outperforms Y*: an eleventh trial's "Other aligners outperform
STAR", the judge's 0.87)."""

_PASSIVE = re.compile(r"\b\w+(?:ed|en)\s+by\b", re.I)
"""A passive verb with its agent (*outperformed by*, *preceded by*, *overtaken by*)."""

_JOINING = frozenset(stem(w) for w in ("whereas", "while", "whilst", "but"))

_COORDINATED = re.compile(r"\s*,?\s*(?:and|or)\s+(?:(?:the|a|an|its|their)\s+)?|\s*,\s*", re.I)
"""Only a coordinator between two terms: they are items of one list."""


def _block_exchange(pos: list[int]) -> tuple[int, int, int, int] | None:
    """``(lo, j, k, hi)`` when the sentence positions ``pos`` of the claim's terms (claim order) are in order but for
    two blocks exchanged: ``pos[lo:j]`` (X) and ``pos[k:hi]`` (Y), 1-5 terms each, around a non-empty middle
    ``pos[j:k]`` that keeps its place (the sentence reads Y M X); else None."""
    srt = sorted(pos)
    off = [i for i in range(len(pos)) if pos[i] != srt[i]]
    if not off:
        return None
    lo, hi = off[0], off[-1] + 1
    for j in range(lo + 1, hi):
        for k in range(j + 1, hi):
            if j - lo <= 5 and hi - k <= 5 and pos[k:hi] + pos[j:k] + pos[lo:j] == srt[lo:hi]:
                return lo, j, k, hi
    return None


def _same_slot(text: str, x: tuple[int, int], y: tuple[int, int]) -> bool:
    """The spans ``x`` and ``y`` of ``text`` fill one slot: the same word follows both (*interphase asters* / *mitotic
    centrosomal asters*) or precedes both."""
    def word(at: str) -> str:
        m = re.match(r"\W*(\w+)", at)
        return stem(m.group(1).lower()) if m else ""

    def before(end: int) -> str:
        m = re.search(r"(\w+)\W*$", text[:end])
        return stem(m.group(1).lower()) if m else ""

    after_x, after_y = word(text[x[1]:]), word(text[y[1]:])
    return bool(after_x and after_x == after_y) or bool(before(x[0]) and before(x[0]) == before(y[0]))


_TURNED_CAUSE = re.compile(r"\b(?:since|because|as a result of|given that)\b", re.I)
_CONSEQUENCE = re.compile(r"\b(?:so|therefore|thus|hence|consequently)\b", re.I)


_CONTEXT_AT = re.compile(r"^\W*(in|for|among|during|across|within)\s+[^,;]{0,40}$", re.I)


def _moved_context(claim_text: str, sent: str, a: int, b: int) -> bool:
    """The claim's span ``[a, b)`` is the end of an opening context phrase ("In C. elegans, the Nrf2 homologue SKN-1
    responds ..." for "SKN-1, a functional homolog of Nrf2 in C. elegans, is activated ...", a 41st trial's faithful
    claim: a proven exchange), which the sentence says after the same preposition: a context moved, no exchange."""
    m = _CONTEXT_AT.match(claim_text[:a])
    if m is None or not claim_text[b:b + 2].lstrip().startswith(","):
        return False
    return re.search(rf"\b{m.group(1)}\s+(?:[\w.-]+\s+){{0,3}}?{re.escape(claim_text[a:b])}", sent, re.I) is not None


_WHETHER = re.compile(r"\b(?:whether|purpose|aims?|aimed)\b", re.I)


_NAMING = re.compile(r"^\W*(?:\w+ly\s+)?(?:called|named|termed|designated|dubbed|(?:also\s+)?known\s+as|referred\s+to\s+as|"
                     r"the\s+(?:\w+\s+){0,2}?(?:name|term)\s+(?:for|of|given\s+to)|i\.e\.|that\s+is|or)\b", re.I)
"""A middle that names what stands before it (an apposition: *X, collectively called Y*; *Y, the collective name for
X*): the two are one thing, and their order says nothing."""


_PAIRED = re.compile(r"\b[\w-]*[A-Z0-9][\w-]*\s+and\s+[\w-]*[A-Z0-9][\w-]*")
"""Two names joined by *and* (*PI3K and mTOR*): two terms paired, no clause joined."""


def _exchanged_blocks(claim_text: str, pool: list[str]) -> Tag | None:
    """Two groups of terms exchanged across parallel clauses of a sentence restating the claim, the sentence saying
    more around them: "waves that originate in the midregion of the embryo and terminate at its opposite anterior and
    posterior poles" against "waves that originate nearly simultaneously from the opposite anterior and posterior
    poles of the embryo, and terminate in its midregion"; "the DWH oil plume being mostly anaerobic, while the SBC oil
    seep is aerobic" against the other way round (a fifth new user's trial, 2026-12-06: the judge said *supported*
    at 0.96 and 0.84).

    The claim's content words and numbers found once in each text keep their order in the sentence but for two
    blocks, X and Y, exchanged around a middle that keeps its place (:func:`_block_exchange`), a middle that is not
    only *whereas* / *while* / *but* (two whole clauses reordered). Between the two blocks, in both texts, stands a
    clause joiner (:data:`_JOINER`: a comma, *and*, *while*, *whereas*, *but*), or the same ordering word
    (:data:`_ORDERED`: *since*, *than*, *rather*...), or the two are single words of one kind (:data:`_KINDS`), or
    the middle holds three terms or more and the two fill one slot (:func:`_same_slot`);
    without any of these the same shape is mostly a paraphrase ("CCL19 is a ligand for CCR7" / "the CCR7 ligand,
    CCL19"). Without an ordering word some shared term stays outside the exchange. Neither block is only coordinated
    with the middle (:data:`_COORDINATED`: "reduction in size and number of goblet cells" / "Goblet cells are
    reduced in number and size", a faithful training citation); not a change of voice (*by* in one text only). Code
    shows it: confidence 0.9, ``proven``.
    """
    c = _spans(claim_text)
    by_c = " by " in f" {claim_text.lower()} "
    for passage in pool:
        for sent in split_sentences(passage):
            if overlap_score(claim_text, sent) < RESTATE_AT or (" by " in f" {sent.lower()} ") != by_c:
                continue
            if _TURNED_CAUSE.search(claim_text) and _CONSEQUENCE.search(sent) or (
                    _TURNED_CAUSE.search(sent) and _CONSEQUENCE.search(claim_text)):
                continue  # "A, since B" is "B, and so A" (a 21st trial's faithful claim: a proven exchange)
            s = _spans(sent)
            cs, ss = [t for t, _, _ in c], [t for t, _, _ in s]
            shared = [i for i, t in enumerate(cs) if cs.count(t) == 1 and ss.count(t) == 1]
            if len(shared) < 5:
                continue
            pos = [ss.index(cs[i]) for i in shared]
            found = _block_exchange(pos)
            if found is None and len(shared) >= 6:
                # one term moved besides ("binding domain of pericentrin" / "pericentrin mutant with ... binding", an
                # eighth trial): the exchange read past it
                for d in range(len(shared)):
                    found = _block_exchange(pos[:d] + pos[d + 1:])
                    if found is not None and not found[0] <= d < found[3]:
                        shared, pos = shared[:d] + shared[d + 1:], pos[:d] + pos[d + 1:]
                        break
                    found = None  # the moved term inside the exchange: no parallel clauses ("... during ..." moved)
            if found is None and len(shared) >= 9:
                # or two terms moved side by side ("was increased overall in the healthy endometrium compared with
                # superficial lesions" / "an overall increased ... in superficial lesions compared with the healthy
                # endometrium", a 70th trial)
                for d in range(len(shared) - 1):
                    rest = pos[:d] + pos[d + 2:]
                    found = _block_exchange(rest)
                    if found is not None and not found[0] < d < found[3]:  # (the pair taken out before or after it)
                        shared, pos = shared[:d] + shared[d + 2:], rest
                        break
                    found = None
            if found is None:
                continue
            lo, j, k, hi = found
            if abs((j - lo) - (hi - k)) > 3 or _WHETHER.search(sent):
                continue  # a long block moved past a word ("... observed in 25 consecutive hospitalized hypertensive
                # patients with CKD" against the claim's opening "a study of 25 hospitalized ... patients with CKD", a
                # 37th trial's faithful claim: a proven exchange), or a sentence of aims, which states no finding
            cx, cy = (c[shared[lo]][1], c[shared[j - 1]][2]), (c[shared[k]][1], c[shared[hi - 1]][2])
            sy, sx = (s[pos[k]][1], s[pos[hi - 1]][2]), (s[pos[lo]][1], s[pos[j - 1]][2])
            ordered = ({stem(w) for w in _ORDERED.findall(claim_text[cx[1]:cy[0]].lower())}
                       & {stem(w) for w in _ORDERED.findall(sent[sy[1]:sx[0]].lower())})  # outperform / outperforms
            # or one verb that runs from one to the other stands alone between them in both ("pulmonary vascular cell
            # crosstalk controlled ECM remodeling" for "ECM remodeling controlled ...", a 48th trial); "Ca2+ cycling
            # controls ... homeostasis in beige fat" for "beige fat controls ... via Ca2+ cycling" is no exchange
            directed = _DIRECTED.fullmatch(claim_text[cx[1]:cy[0]]) and _DIRECTED.fullmatch(sent[sy[1]:sx[0]])
            ordered = ordered or ({"directed"} if directed else set())
            if ordered and bool(_PASSIVE.search(claim_text[cx[1]:cy[0]])) != bool(_PASSIVE.search(sent[sy[1]:sx[0]])):
                continue  # "are outperformed by STAR" for "STAR outperforms": the voice turned, not the roles
            if not ordered and lo == 0 and hi == len(pos):
                continue  # the whole claim turned round with nothing outside it or between that orders the two
            if all(c[shared[i]][0] in _JOINING for i in range(j, k)) and not (0 < lo and hi < len(pos)):
                continue  # two whole clauses in the other order around "whereas": a reordering
            if any(p.search(t) for p in (_NAMING, NAMING_FRAME) for t in (claim_text[cx[1]:cy[0]], sent[sy[1]:sx[0]])):
                continue  # one is the other's name ("Retinoids, the collective name for vitamin A and its derivatives"
                # for "Vitamin A and its derivatives, collectively called retinoids", a 76th trial's faithful claim)
            kinds = (j - lo == 1 and hi - k == 1 and any({c[shared[lo]][0], c[shared[k]][0]} <= kind for kind in _KINDS))
            slots = k - j >= 3 and _same_slot(claim_text, cx, cy)
            if not (kinds or ordered or slots) and not (_JOINER.search(_PAIRED.sub(" ", claim_text[cx[1]:cy[0]]))
                                                         and _JOINER.search(_PAIRED.sub(" ", sent[sy[1]:sx[0]]))):
                continue  # (a middle of three terms or more needs no joiner when X and Y fill one slot: "specific for X
                # asters as we observed little effect on Y asters"; "PRDM14 gene ... primordial germ cell" is a paraphrase;
                # an *and* between two terms of the middle joins no clauses: "Therapeutic response to PI3K and mTOR
                # inhibition" for "Combined inhibition of PI3K and mTOR ..., and therapeutic response", a 153rd trial)
            m = (c[shared[j]][1], c[shared[k - 1]][2])
            if _COORDINATED.fullmatch(claim_text[cx[1]:m[0]]) or _COORDINATED.fullmatch(claim_text[m[1]:cy[0]]):
                continue  # X or Y coordinated with the middle ("size and number of goblet cells"): a reordered list
            x, y = claim_text[cx[0]:cx[1]], claim_text[cy[0]:cy[1]]
            if _turned_too(claim_text, sent):
                continue  # a direction word turned as well undoes the exchange ("decreased in the healthy endometrium
                # compared with superficial lesions" for "increased in superficial lesions compared with ...")
            if any(_moved_context(claim_text, sent, a, b) for a, b in (cx, cy)) or any(
                    re.fullmatch(r"[A-Za-z]+ly", w) for w in (x, y)):
                continue  # an adverb moved ("were recently found to be" / "Recently, ...", a 58th trial's faithful claim)
            return Tag("polarity_flip", f"The claim exchanges {x!r} and {y!r}: the source says it the other way round, "
                       f"\u201c{sent[:300]}\u201d", 0.9, (TagEvidence(x, y),), proven=True)
    return None


def states_same_negation(claim_text: str, text: str) -> str | None:
    """The sentence of ``text`` that restates the claim and negates what it negates, or None.

    Every content word and number of the claim is in ``text`` (whole stems); the sentence restates the claim (holds
    at least :data:`~citeproof.detectors.terms.RESTATE_AT` of its content words); the claim is the sentence with
    words added or left out (a word diff over stems in which no content word stands in another's place); and each
    negation of the claim has one in the sentence whose scope (:func:`neg_scopes`) agrees with its own (two stems,
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
    wanted = [sc for _, sc in neg_scopes(claim_text)]
    cw = _TOKEN_RE.findall(claim_text)
    if (not wanted or not text or not set(content_stems(cw)) <= set(content_stems(_TOKEN_RE.findall(text)))
            or not set(NUMBER.findall(claim_text)) <= set(NUMBER.findall(text))):
        return None  # a claim word or number the text lacks ("Arp2/10-dependent" for "Arp2/3-dependent") is a difference
    for sent in split_sentences(text):
        if overlap_score(claim_text, sent) < RESTATE_AT:
            continue
        have = [sc for _, sc in neg_scopes(sent)]
        if not have or not all(any(len(set(w) & set(h)) >= min(2, len(w)) for h in have) for w in wanted):
            continue
        sw = _TOKEN_RE.findall(sent)
        ops = stem_opcodes(cw, sw)
        if any(op == "replace" and content_stems(cw[i1:i2]) and content_stems(sw[j1:j2]) for op, i1, i2, j1, j2 in ops):
            continue
        # each negation of the claim stands where the sentence has one: "did not disrupt ... in mitosis" against
        # "disrupted ... in mitosis but had no effect on ... in interphase cells" negates another clause (an eighth trial)
        if all(op == "equal" or any(NEGATOR.fullmatch(w) for w in sw[j1:j2])
               for op, i1, i2, j1, j2 in ops for k in range(i1, i2) if NEGATOR.fullmatch(cw[k])):
            return sent
    return None



_DEFINED = re.compile(r"\(\s*([A-Za-z][\w-]{1,11})\s*\)")


def _folded(sent: str, cw: list[str]) -> str | None:
    """``sent`` with each long name the source defines in brackets replaced by its short form where the claim uses
    the short form: "phosphorylation of cAMP response element-binding protein (Creb)" read as "phosphorylation of
    Creb" for a claim that says "of Creb" (the long name runs back to the claim's word before the short form, at
    most eight words). None when nothing is folded."""
    out, changed = sent, False
    for m in reversed(list(_DEFINED.finditer(sent))):
        short = m.group(1).lower()
        if short not in cw or cw.index(short) == 0:
            continue
        before = cw[cw.index(short) - 1]
        head = [w for w in _TOKEN_RE.finditer(out[:m.start()])][-9:]
        at = next((k for k in range(len(head) - 2, -1, -1) if head[k].group(0).lower() == before), None)
        if at is None:
            continue
        out = out[:head[at].end()] + " " + m.group(1) + out[m.end():]
        changed = True
    return out if changed else None


def _role(cs: list[str], i: int, lo: int) -> str | None:
    """The stem of the nearest content word before position ``i`` of stems ``cs`` (not before ``lo``, at most three
    back): the role a term plays there (*phosphorylation* of Crtc2)."""
    return next((cs[k] for k in range(i - 1, max(lo, i - 4) - 1, -1) if not light_token(cs[k])), None)


def _exchanged_in_phrase(claim_text: str, pool: list[str]) -> Tag | None:
    """Two terms exchanged inside one phrase of a sentence restating the claim, each in another role: "the
    cAMP-mediated phosphorylation of Crtc2 and dephosphorylation of Creb" against "the cAMP-mediated phosphorylation
    of cAMP response element-binding protein (Creb) and dephosphorylation of the Creb-regulated transcription
    coactivator-2 (Crtc2)" (a new user's trial, issue 28: the judge said *supported* at 0.93). The long names the
    source defines are read as their short forms (:func:`_folded`); the claim's phrase from the first term's role
    word to the second term stands in the sentence with the two terms exchanged, and not as the claim has it; the
    two role words differ (*phosphorylation* / *dephosphorylation*; "in group A and in group B" is a reordering).
    Code shows it: confidence 0.9, ``proven``.
    """
    co = _TOKEN_RE.findall(claim_text)
    cw = [w.lower() for w in co]
    cs = [stem(w) for w in cw]
    for passage in pool:
        for whole in split_sentences(passage):
            folded = _folded(whole, cw)
            for sent in _readings(whole) + ([folded] if folded else []):
                if overlap_score(claim_text, sent) < RESTATE_AT:
                    continue
                ss = [stem(w.lower()) for w in _TOKEN_RE.findall(sent)]
                joined = " " + " ".join(ss) + " "
                for i, a in enumerate(cs):
                    if not _term(cw[i]) or a not in ss:
                        continue
                    for j in range(i + 2, min(len(cs), i + 7)):
                        b = cs[j]
                        if b == a or not _term(cw[j]) or b not in ss:
                            continue
                        # the second role word comes after a light word past the first term: "aspirin patients and
                        # ... warfarin" has the first term's own noun there, no role
                        r1, r2 = _role(cs, i, 0), _role(cs, j, i + 2)
                        if r1 is None or r2 is None or r1 == r2 or r1 == b or r2 == a:
                            continue
                        start = next(k for k in range(i - 1, -1, -1) if cs[k] == r1)
                        window = cs[start:j + 1]
                        swapped = [b if x == a and k == i - start else a if x == b and k == j - start else x
                                   for k, x in enumerate(window)]
                        if (" " + " ".join(swapped) + " ") in joined and (" " + " ".join(window) + " ") not in joined:
                            return Tag("polarity_flip", f"The claim exchanges {co[i]!r} and {co[j]!r}: the source says "
                                       f"{' '.join(co[start:i])} {co[j]} ... {co[i]}, \u201c{whole[:300]}\u201d", 0.9,
                                       (TagEvidence(co[i], co[j]),), proven=True)
    return None
