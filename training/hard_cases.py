"""Generated hard cases for the entailment judge: changed numbers, flipped direction, negation.

Kept apart from every evaluation set (ISSUE 3): the generator only ever reads
*training* pairs handed to it (general NLI pairs, Check-COVID training pairs,
and the SciFact training folds of the fold being trained) and never an
evaluation fold.

Each generator takes an *entailed* (premise, hypothesis) pair and, where a rule
applies, returns a new hypothesis that the same premise contradicts. Rules are
deliberately simple string edits; a rule that does not apply returns None.
"""

from __future__ import annotations

import random
import re

# Word pairs whose swap flips the direction of a finding.
_DIRECTION = [
    ("increase", "decrease"), ("increases", "decreases"), ("increased", "decreased"),
    ("increasing", "decreasing"), ("higher", "lower"), ("more", "less"),
    ("greater", "smaller"), ("larger", "smaller"), ("raises", "lowers"), ("raise", "lower"),
    ("raised", "lowered"), ("improves", "worsens"), ("improved", "worsened"),
    ("improve", "worsen"), ("promotes", "inhibits"), ("promote", "inhibit"),
    ("promoted", "inhibited"), ("enhances", "suppresses"), ("enhanced", "suppressed"),
    ("activates", "inhibits"), ("upregulates", "downregulates"),
    ("up-regulates", "down-regulates"), ("upregulated", "downregulated"),
    ("positive", "negative"), ("positively", "negatively"), ("benefit", "harm"),
    ("beneficial", "harmful"), ("reduces", "increases"), ("reduced", "elevated"),
    ("reduce", "increase"), ("lowers", "raises"), ("gain", "loss"), ("gains", "losses"),
    ("risk factor", "protective factor"), ("efficient", "inefficient"),
    ("effective", "ineffective"), ("safe", "unsafe"),
    ("before", "after"), ("above", "below"), ("longer", "shorter"), ("faster", "slower"),
    ("stronger", "weaker"), ("most", "least"), ("maximum", "minimum"), ("sensitive", "resistant"),
]
_DIR_MAP: dict[str, str] = {}
for _a, _b in _DIRECTION:
    _DIR_MAP.setdefault(_a, _b)
    _DIR_MAP.setdefault(_b, _a)
_DIR_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _DIR_MAP), key=len, reverse=True)) + r")\b", re.I)

_AUX_RE = re.compile(r"\b(is|are|was|were|can|could|may|might|will|would|should|has been|have been|does|do|did)\b(?!\s+not\b)", re.I)
_NEG_RE = re.compile(r"\b(is|are|was|were|can|could|may|will|would|should|does|do|did|has|have)\s+not\b|\b(isn't|aren't|wasn't|weren't|doesn't|don't|didn't|cannot)\b", re.I)
_NUM_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]*\d)")
_VERB3_RE = re.compile(r"\b(increases|decreases|reduces|improves|causes|inhibits|promotes|prevents|affects|leads|results|induces|enhances|correlates|predicts|protects|requires|contains|shows|has)\b")
_BASE = {"has": "have", "does": "do"}


def _case(src: str, dst: str) -> str:
    return dst.capitalize() if src[:1].isupper() else dst


def flip_direction(h: str, rng: random.Random) -> str | None:
    """Swap one direction word (increase -> decrease...); None if none is present."""
    ms = list(_DIR_RE.finditer(h))
    if not ms:
        return None
    m = rng.choice(ms)
    w = m.group(0)
    return h[: m.start()] + _case(w, _DIR_MAP[w.lower()]) + h[m.end():]


def negate(h: str, rng: random.Random) -> str | None:
    """Add a negation (``is`` -> ``is not``, ``increases`` -> ``does not increase``) or drop one."""
    m = _NEG_RE.search(h)
    if m:  # remove the negation
        s = m.group(0)
        repl = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "doesn't": "does",
                "don't": "do", "didn't": "did", "cannot": "can"}.get(s.lower())
        if repl is None:
            repl = s.rsplit(None, 1)[0]
        return h[: m.start()] + _case(s, repl) + h[m.end():]
    m = _AUX_RE.search(h)
    if m:
        return h[: m.end()] + " not" + h[m.end():]
    m = _VERB3_RE.search(h)
    if m:
        v = m.group(0)
        base = _BASE.get(v, v[:-2] if v.endswith(("ches", "shes", "xes")) else v[:-1])
        return h[: m.start()] + "does not " + base + h[m.end():]
    return None


def change_number(h: str, premise: str, rng: random.Random) -> str | None:
    """Replace a number that the premise also states with a clearly different one."""
    ms = [m for m in _NUM_RE.finditer(h) if m.group(1) in premise]
    if not ms:
        return None
    m = rng.choice(ms)
    s = m.group(1)
    v = float(s)
    factor = rng.choice([0.25, 0.5, 2.0, 3.0, 10.0])
    nv = v * factor if v != 0 else rng.choice([5, 10, 50])
    if "." in s:
        out = f"{nv:.{len(s.split('.')[1])}f}"
    else:
        out = str(int(round(nv)))
    if out == s:
        out = str(int(v) + rng.choice([7, 13, 21]))
    return h[: m.start()] + out + h[m.end():]


def contradictions(premise: str, hypothesis: str, rng: random.Random) -> list[tuple[str, str]]:
    """All rules that apply to one entailed pair, as (new hypothesis, rule name)."""
    out = []
    for name, fn in (("number", lambda: change_number(hypothesis, premise, rng)),
                     ("direction", lambda: flip_direction(hypothesis, rng)),
                     ("negation", lambda: negate(hypothesis, rng))):
        new = fn()
        if new and new != hypothesis:
            out.append((new, name))
    return out


def generate(pairs: list[tuple[str, str]], seed: int = 0, per_pair: int = 1) -> list[tuple[str, str, str]]:
    """Contradictions made from entailed ``(premise, hypothesis)`` pairs.

    Args:
        pairs: entailed pairs from *training* data only.
        seed: RNG seed (the output is deterministic for a seed).
        per_pair: at most this many generated hypotheses per input pair.

    Returns:
        ``(premise, new_hypothesis, rule)`` triples; every one is labelled
        ``contradiction`` by the caller.
    """
    rng = random.Random(seed)
    out = []
    for p, h in pairs:
        cands = contradictions(p, h, rng)
        rng.shuffle(cands)
        for new, rule in cands[:per_pair]:
            out.append((p, new, rule))
    return out


# ---------------------------------------------------------------- not entailed: one term changed (issue 28)
# A claim of another population or scope than its source's: the source's word -> the claim's.
_SCOPE = [
    ("mice", "humans"), ("mouse", "human"), ("rats", "humans"), ("rat", "human"), ("animals", "humans"),
    ("animal", "human"), ("murine", "human"), ("in vitro", "in vivo"), ("cell lines", "patients"),
    ("cells", "patients"), ("children", "adults"), ("adults", "children"), ("women", "men"), ("men", "women"),
    ("some", "all"), ("several", "all"), ("many", "all"), ("often", "always"),
    ("a subset of", "all"), ("partially", "fully"),
]  # hedges (may -> does) and causation (associated -> caused) are not here: those claims stay *partial*
_SCOPE_RE = re.compile(r"\b(" + "|".join(sorted((re.escape(a) for a, _ in _SCOPE), key=len, reverse=True)) + r")\b", re.I)
_SCOPE_MAP = dict(_SCOPE)


def widen_scope(premise: str, hypothesis: str, rng: random.Random) -> str | None:
    """The hypothesis with one population or scope word that the premise also holds widened (mice -> humans,
    some -> all, in vitro -> in vivo); None if no such word. The premise then does not entail it."""
    ms = [m for m in _SCOPE_RE.finditer(hypothesis) if re.search(rf"\b{re.escape(m.group(0))}\b", premise, re.I)]
    if not ms:
        return None
    m = rng.choice(ms)
    w = m.group(0)
    return hypothesis[: m.start()] + _case(w, _SCOPE_MAP[w.lower()]) + hypothesis[m.end():]


def swap_term(premise: str, hypothesis: str, rng: random.Random, document: str | None = None) -> str | None:
    """The hypothesis with one content word it shares with the premise replaced by another word of its kind
    (same shape, preferably the same ending) from ``document`` (default: the premise): a claim in the source's
    own words that the source does not make. :func:`citeproof.eval.meaning.term_swap_claim` is the generator
    (the one ``citeproof eval meaning`` measures with, on other sources); None when it finds no swap."""
    from citeproof.eval.meaning import term_swap_claim

    doc = premise if not document else premise + "\n" + document
    got = term_swap_claim(hypothesis, doc, rng)
    return got[0] if got else None


def not_entailed(triples: list[tuple[str, str, str | None]], seed: int = 0) -> list[tuple[str, str, str]]:
    """Hypotheses the premise does not entail, made from entailed ``(premise, hypothesis, document or None)``
    triples of *training* data: one term swap (:func:`swap_term`) and, where it applies, one widened scope
    (:func:`widen_scope`) per pair.

    Returns:
        ``(premise, new hypothesis, rule)`` with rule ``term`` or ``scope``; the caller labels them
        "not entailed" (trained through ``-log(1 - P(entails))``: a swapped term need not contradict).
    """
    rng = random.Random(seed)
    out = []
    for p, h, doc in triples:
        for rule, new in (("term", swap_term(p, h, rng, doc)), ("scope", widen_scope(p, h, rng))):
            if new and new != h:
                out.append((p, new, rule))
    return out
