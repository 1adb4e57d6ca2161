"""Error planting for the planted-error benchmark: templates and word lists.

Each kind of error has several templates, and each template draws from its
own word list. Templates and word lists are split into two halves, ``dev``
and ``test``: the detectors were developed looking only at ``dev`` plants,
and the benchmark reports both halves so a reader can see whether the
detectors merely learned the dev wording. These lists are kept apart from
the detectors' own cue lists on purpose (a benchmark that plants exactly
what a detector looks for measures nothing); where a planted word also
appears in a detector list, it is because both were written from ordinary
scientific English, not copied.

Kinds (``KINDS``): ``number`` (a quantity changed), ``scope`` (the claim
widened), ``hedge`` (a hedge removed or certainty added), ``polarity`` (the
direction reversed or negated), ``causal`` (an association restated as a
cause), ``significance`` (*significant* added where the source reports no
test), and ``swap`` (the claim judged against the wrong source, done by the
harness, not here).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

KINDS = ("number", "scope", "hedge", "polarity", "causal", "significance", "swap")
"""Kinds of planted error, in report order."""


@dataclass(frozen=True)
class Plant:
    """One planted error.

    Attributes:
        kind: one of :data:`KINDS`.
        text: the claim with the error planted.
        original: the claim as it was.
        template: the template's id (``number.scale``...).
        half: ``dev`` or ``test``: which half of the templates/word lists it came from.
    """

    kind: str
    text: str
    original: str
    template: str
    half: str


@dataclass(frozen=True)
class Template:
    """A way to plant one kind of error.

    Attributes:
        id: ``kind.name``.
        half: ``dev`` or ``test``.
        apply: ``(claim, rng, evidence, source_text) -> planted claim``, or
            None when the template does not apply to this claim.
    """

    id: str
    half: str
    apply: Callable[..., str | None]


# --------------------------------------------------------------------------- helpers

def _lower_first(s: str) -> str:
    if len(s) > 1 and s[0].isupper() and not s[1].isupper() and not s[1].isdigit():
        return s[0].lower() + s[1:]
    return s


def _strip_end(s: str) -> tuple[str, str]:
    s = s.rstrip()
    if s.endswith((".", "!", "?")):
        return s[:-1], s[-1]
    return s, "."


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _base_form(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("es") and verb[:-2].endswith(("ss", "sh", "ch", "x", "z", "o")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


# Verbs the planting code knows how to conjugate/negate (third person present tense).
_VERBS = (
    "increases reduces decreases promotes inhibits induces activates suppresses enhances impairs improves "
    "prevents blocks causes regulates mediates affects alters raises lowers drives triggers requires "
    "contributes protects predicts correlates associates binds phosphorylates stimulates attenuates limits "
    "restricts accelerates slows elevates diminishes modulates controls leads results produces generates "
    "confers shows exhibits has is are does can plays participates interacts depends targets upregulates "
    "downregulates expresses forms undergoes kills delays shortens prolongs worsens exacerbates reverses "
    "ameliorates alleviates facilitates enables disrupts abolishes boosts augments lessens stabilizes "
    "destabilizes sensitizes increase reduce decrease promote inhibit induce activate suppress enhance impair "
    "improve prevent block cause regulate mediate affect alter raise lower drive trigger require contribute protect "
    "predict"
).split()
_VERB_RE = re.compile(r"\b(" + "|".join(sorted(set(_VERBS), key=len, reverse=True)) + r")\b")


def _main_verb(claim: str) -> re.Match | None:
    m = _VERB_RE.search(claim, 3)
    return m


# --------------------------------------------------------------------------- number

_NUM_RE = re.compile(r"(?<![A-Za-z\-\d.])(\d+(?:\.\d+)?)(?![\d]|-[A-Za-z])")
_WORDNUM_P = {"two": "three", "three": "five", "four": "six", "five": "eight", "six": "nine", "ten": "fifteen",
              "twice": "three times", "half": "a quarter", "doubled": "tripled",
              "one third": "one fifth", "a third": "a fifth", "threefold": "sevenfold", "two-fold": "five-fold"}


def _numbers(claim: str, evidence_text: str | None = None) -> list[re.Match]:
    """Numbers in ``claim`` that can be changed; with ``evidence_text``, only those it states."""
    out = []
    for m in _NUM_RE.finditer(claim):
        before = claim[max(0, m.start() - 1) : m.start()]
        after = claim[m.end() : m.end() + 1]
        if before.isalpha() or after.isalpha() and after not in "x" and not re.match(r"[a-zµ%]", after):
            continue
        if re.search(r"(?:type|phase|stage|grade|[A-Z]{2,}|[A-Z][a-z]*-)\s*$", claim[max(0, m.start() - 8) : m.start()], re.I):
            continue
        if re.search(r"[.,;]\d*$", claim[max(0, m.start() - 2) : m.start()]) and not claim[m.start() - 2 : m.start() - 1].isdigit():
            continue  # a superscript reference number left after punctuation (",4")
        if claim[m.start() - 1 : m.start()] == "(" and claim[m.end() : m.end() + 1] == ")":
            continue  # "(39)": a reference number
        if evidence_text is not None and m.group(1) not in evidence_text:
            continue  # the source never states this number: changing it plants nothing checkable
        out.append(m)
    return out


def _fmt_like(orig: str, val: float) -> str:
    if "." in orig:
        d = len(orig.split(".")[1])
        return f"{val:.{d}f}"
    return str(int(round(val)))


def _num_scale(factors):
    def apply(claim: str, rng: random.Random, ev: str, src: str = "") -> str | None:
        ms = _numbers(claim, src or ev)
        if not ms:
            return None
        m = rng.choice(ms)
        v = float(m.group(1))
        if v == 0:
            return None
        f = rng.choice(factors)
        nv = v * f
        is_pct = claim[m.end() : m.end() + 2].strip().startswith("%")
        if is_pct and nv > 100:
            nv = v / f
        new = _fmt_like(m.group(1), nv)
        if new == m.group(1):
            new = _fmt_like(m.group(1), v + 7)
        return claim[: m.start()] + new + claim[m.end() :]
    return apply


def _num_offset(offsets):
    def apply(claim: str, rng: random.Random, ev: str, src: str = "") -> str | None:
        ms = _numbers(claim, src or ev)
        if not ms:
            return None
        m = rng.choice(ms)
        v = float(m.group(1))
        off = rng.choice(offsets)
        step = max(1.0, abs(v) * off)
        nv = v + step if rng.random() < 0.5 or v - step <= 0 else v - step
        new = _fmt_like(m.group(1), nv)
        if new == m.group(1):
            new = _fmt_like(m.group(1), v + 3)
        return claim[: m.start()] + new + claim[m.end() :]
    return apply


def _num_words(claim, rng, ev, src="") -> str | None:
    hits = [(k, v) for k, v in _WORDNUM_P.items() if re.search(r"\b" + re.escape(k) + r"\b(?!-)", claim, re.I)
            and re.search(r"\b" + re.escape(k) + r"\b", src or ev or "", re.I)]
    if not hits:
        return None
    k, v = rng.choice(hits)
    return re.sub(r"\b" + re.escape(k) + r"\b", v, claim, count=1, flags=re.I)


# --------------------------------------------------------------------------- scope

SCOPE_PREFIX = {"dev": ["In all patients, ", "Across every population, ", "Universally, "],
                "test": ["Without exception, ", "Regardless of age, sex or ancestry, ", "In every group ever studied, "]}
SCOPE_SUFFIX = {"dev": [" in all populations", " across all ages"],
                "test": [" in each and every patient", " irrespective of the population studied", " in humans and animals alike"]}
SCOPE_SWAP = {"dev": [("mice", "humans"), ("mouse", "human"), ("some", "all"), ("in vitro", "in vivo")],
              "test": [("rats", "people"), ("murine", "human"), ("cell lines", "patients"), ("many", "all"),
                       ("most", "all"), ("a subset of", "all"), ("several", "all")]}
SCOPE_ADVERB = {"dev": ["always"], "test": ["invariably", "universally", "in every case"]}


def _scope_prefix(half):
    def apply(claim, rng, ev, src=""):
        return rng.choice(SCOPE_PREFIX[half]) + _lower_first(claim)
    return apply


def _scope_suffix(half):
    def apply(claim, rng, ev, src=""):
        body, end = _strip_end(claim)
        return body + rng.choice(SCOPE_SUFFIX[half]) + end
    return apply


def _scope_swap(half):
    def apply(claim, rng, ev, src=""):
        hits = [(a, b) for a, b in SCOPE_SWAP[half] if re.search(r"\b" + re.escape(a) + r"\b", claim, re.I)]
        if not hits:
            return None
        a, b = rng.choice(hits)
        return re.sub(r"\b" + re.escape(a) + r"\b", b, claim, count=1, flags=re.I)
    return apply


def _scope_adverb(half):
    def apply(claim, rng, ev, src=""):
        m = _main_verb(claim)
        if not m:
            return None
        return claim[: m.start()] + rng.choice(SCOPE_ADVERB[half]) + " " + claim[m.start() :]
    return apply


# --------------------------------------------------------------------------- hedge

PLANT_HEDGES = r"may|might|could|possibly|likely|suggests? that|indicates? that|is thought to|are thought to|appears? to|seems? to|potentially|putative|probably"
HEDGE_PREFIX = {"dev": ["It is now established that ", "It has been proven that "],
                "test": ["There is no doubt that ", "It is beyond dispute that ", "Research has settled that "]}
HEDGE_ADVERB = {"dev": ["clearly", "definitely"], "test": ["unquestionably", "undeniably", "decidedly"]}


def _hedge_drop(claim, rng, ev, src=""):
    m = re.search(r"\b(may|might|could|is likely to|are likely to|is thought to|are thought to|appears to|appear to|seems to|seem to)"
                  r"\s+((?:also|still|further|not|\w+ly)\s+)?(\w+)", claim)
    if not m:
        return None
    modal, adv, verb = m.group(1), m.group(2) or "", m.group(3)
    before = claim[: m.start()].split()
    subj = before[-1] if before else ""
    plural = bool(re.search(r"\bare\b|appear to|seem to", modal)) or (
        modal in ("may", "might", "could") and subj.endswith("s") and not subj.endswith(("ss", "us", "is")))
    if verb == "be":
        conj = "are" if plural else "is"
    elif verb == "have":
        conj = "have" if plural else "has"
    else:
        conj = verb if plural else _third_person(verb)
    return claim[: m.start()] + adv + conj + claim[m.end() :]


def _hedge_reword(claim, rng, ev, src=""):
    repl = {"suggests that": "shows that", "suggest that": "show that", "indicates that": "proves that",
            "indicate that": "prove that", "possibly ": "", "potentially ": "", "putative ": "", "probably ": "",
            "likely ": "", "may be": "is"}
    hits = [k for k in repl if k in claim]
    if not hits:
        return None
    k = rng.choice(hits)
    return claim.replace(k, repl[k], 1)


def _hedge_prefix(half):
    def apply(claim, rng, ev, src=""):
        if not (re.search(r"\b(?:" + PLANT_HEDGES + r")\b", ev or "", re.I) or re.search(r"\b(?:" + PLANT_HEDGES + r")\b", claim)):
            return None
        c = _hedge_drop(claim, rng, ev) or claim
        return rng.choice(HEDGE_PREFIX[half]) + _lower_first(c)
    return apply


def _hedge_adverb(half):
    def apply(claim, rng, ev, src=""):
        if not (re.search(r"\b(?:" + PLANT_HEDGES + r")\b", ev or "", re.I) or re.search(r"\b(?:" + PLANT_HEDGES + r")\b", claim)):
            return None
        c = _hedge_drop(claim, rng, ev) or claim
        m = _main_verb(c)
        if not m:
            return None
        return c[: m.start()] + rng.choice(HEDGE_ADVERB[half]) + " " + c[m.start() :]
    return apply


# --------------------------------------------------------------------------- polarity

POLARITY_PAIRS = {
    "dev": [("increases", "decreases"), ("increased", "decreased"), ("promotes", "inhibits"), ("higher", "lower"),
            ("enhances", "reduces"), ("increase", "decrease")],
    "test": [("activates", "suppresses"), ("raises", "lowers"), ("upregulates", "downregulates"), ("improves", "worsens"),
             ("accelerates", "slows"), ("more", "less"), ("greater", "smaller"), ("induces", "blocks"),
             ("stimulates", "attenuates"), ("elevated", "reduced"), ("positively", "negatively"), ("gain", "loss")],
}


def _polarity_swap(half):
    def apply(claim, rng, ev, src=""):
        hits = []
        for a, b in POLARITY_PAIRS[half]:
            for x, y in ((a, b), (b, a)):
                if re.search(r"\b" + x + r"\b", claim, re.I):
                    hits.append((x, y))
        if not hits:
            return None
        x, y = rng.choice(hits)

        def rep(m):
            return y.capitalize() if m.group(0)[0].isupper() else y
        return re.sub(r"\b" + x + r"\b", rep, claim, count=1, flags=re.I)
    return apply


NEGATORS = {"dev": ["does not {base}"], "test": ["fails to {base}", "never {third}", "does not in fact {base}"]}


def _polarity_negate(half):
    def apply(claim, rng, ev, src=""):
        m = _main_verb(claim)
        if not m:
            return None
        v = m.group(1)
        if v in ("is", "are", "can", "has", "does"):
            if v == "has":
                return claim[: m.start()] + "does not have" + claim[m.end() :]
            return claim[: m.end()] + " not" + claim[m.end() :]
        if not v.endswith("s"):
            return None  # plural subject: keep grammar simple
        base = _base_form(v)
        neg = rng.choice(NEGATORS[half]).format(base=base, third=v)
        return claim[: m.start()] + neg + claim[m.end() :]
    return apply


def _polarity_unnegate(claim, rng, ev, src=""):
    m = re.search(r"\b(does not|do not|did not|is not|are not|cannot|does n't)\s+(\w+)", claim)
    if not m:
        return None
    aux, verb = m.group(1), m.group(2)
    if aux in ("is not", "are not"):
        return claim[: m.start()] + aux.split()[0] + " " + verb + claim[m.end() :]
    if aux == "cannot":
        return claim[: m.start()] + "can " + verb + claim[m.end() :]
    new = _third_person(verb) if aux == "does not" else verb
    return claim[: m.start()] + new + claim[m.end() :]


# --------------------------------------------------------------------------- causal

PLANT_ASSOC = r"(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:associated|correlated|linked|related)\s+(?:with|to)|(?:correlates|associates)\s+with|is a (?:risk factor|predictor|marker) (?:for|of)|predicts"
CAUSAL_VERBS = {"dev": ["causes", "leads to"], "test": ["is responsible for", "results in", "gives rise to", "brings about"]}
CAUSAL_SUFFIX = {"dev": [", and this effect is causal"], "test": [", a relationship that is causal rather than correlational",
                                                                   ", which is the root cause of the outcome"]}


SOURCE_ASSOC = r"associat|correlat|\blinked (?:to|with)|relationship|risk factor|odds ratio|hazard ratio|relative risk"
"""A causal plant is an error only where the source reports an association: its evidence must say so."""


def _causal_replace(half):
    def apply(claim, rng, ev, src=""):
        if not re.search(SOURCE_ASSOC, ev or "", re.I):
            return None
        m = re.search(PLANT_ASSOC, claim, re.I)
        if not m:
            return None
        return claim[: m.start()] + rng.choice(CAUSAL_VERBS[half]) + claim[m.end() :]
    return apply


def _causal_suffix(half):
    def apply(claim, rng, ev, src=""):
        if not re.search(SOURCE_ASSOC, ev or "", re.I):
            return None
        body, end = _strip_end(claim)
        return body + rng.choice(CAUSAL_SUFFIX[half]) + end
    return apply


# --------------------------------------------------------------------------- significance

PLANT_STATS = r"signific|p\s*[<=>]|95%|\bCI\b|confidence interval|odds ratio|hazard ratio|statistic"
SIG_ADVERB = {"dev": ["significantly"], "test": ["statistically significantly", "to a statistically significant degree"]}


def _sig_insert(half):
    def apply(claim, rng, ev, src=""):
        if re.search(PLANT_STATS, (src or ev or ""), re.I):
            return None
        m = _main_verb(claim)
        if not m or m.group(1) in ("is", "are", "can", "has", "does", "have"):
            return None
        word = rng.choice(SIG_ADVERB[half])
        if word.startswith("to a"):
            body, end = _strip_end(claim)
            return body + " " + word + end
        return claim[: m.start()] + word + " " + claim[m.start() :]
    return apply


def _sig_pvalue(claim, rng, ev, src=""):
    if re.search(PLANT_STATS, (src or ev or ""), re.I):
        return None
    body, end = _strip_end(claim)
    return body + rng.choice([" (p < 0.05)", " (P<0.01)", ", a significant difference"]) + end


TEMPLATES: dict[str, list[Template]] = {
    "number": [
        Template("number.scale", "dev", _num_scale([2.0, 0.5, 1.5])),
        Template("number.offset", "test", _num_offset([0.2, 0.35, 0.6])),
        Template("number.words", "dev", _num_words),
        Template("number.magnitude", "test", _num_scale([10.0, 0.1])),
    ],
    "scope": [
        Template("scope.prefix", "dev", _scope_prefix("dev")),
        Template("scope.prefix", "test", _scope_prefix("test")),
        Template("scope.suffix", "dev", _scope_suffix("dev")),
        Template("scope.suffix", "test", _scope_suffix("test")),
        Template("scope.swap", "dev", _scope_swap("dev")),
        Template("scope.swap", "test", _scope_swap("test")),
        Template("scope.adverb", "dev", _scope_adverb("dev")),
        Template("scope.adverb", "test", _scope_adverb("test")),
    ],
    "hedge": [
        Template("hedge.drop", "dev", _hedge_drop),
        Template("hedge.reword", "test", _hedge_reword),
        Template("hedge.prefix", "dev", _hedge_prefix("dev")),
        Template("hedge.prefix", "test", _hedge_prefix("test")),
        Template("hedge.adverb", "dev", _hedge_adverb("dev")),
        Template("hedge.adverb", "test", _hedge_adverb("test")),
    ],
    "polarity": [
        Template("polarity.swap", "dev", _polarity_swap("dev")),
        Template("polarity.swap", "test", _polarity_swap("test")),
        Template("polarity.negate", "dev", _polarity_negate("dev")),
        Template("polarity.negate", "test", _polarity_negate("test")),
        Template("polarity.unnegate", "test", _polarity_unnegate),
    ],
    "causal": [
        Template("causal.replace", "dev", _causal_replace("dev")),
        Template("causal.replace", "test", _causal_replace("test")),
        Template("causal.suffix", "dev", _causal_suffix("dev")),
        Template("causal.suffix", "test", _causal_suffix("test")),
    ],
    "significance": [
        Template("significance.adverb", "dev", _sig_insert("dev")),
        Template("significance.adverb", "test", _sig_insert("test")),
        Template("significance.pvalue", "test", _sig_pvalue),
    ],
}
"""Templates per kind (``swap`` is done by the harness: it changes the source, not the claim)."""


def plant(kind: str, claim: str, rng: random.Random, evidence: str = "", half: str | None = None,
          source_text: str = "") -> Plant | None:
    """Plant one error of ``kind`` into ``claim``.

    Templates are tried in a seeded random order; the first that applies wins.

    Args:
        kind: one of :data:`KINDS` except ``swap``.
        claim: the supported claim, citation markup removed.
        rng: the random source (seeded by the caller, for reproducibility).
        evidence: the gold or best evidence text; some templates apply only
            when it hedges, associates, or reports no statistics (so the
            planted claim is really wrong).
        half: restrict to ``dev`` or ``test`` templates; None for both.
        source_text: the whole source: a number is changed only if the source
            states it, and *significant* is added only if the source reports no test.

    Returns:
        The :class:`Plant`, or None when no template applies to this claim.

    Raises:
        KeyError: for an unknown kind (or ``swap``).
    """
    templates = [t for t in TEMPLATES[kind] if half is None or t.half == half]
    order = list(templates)
    rng.shuffle(order)
    for t in order:
        out = t.apply(claim, rng, evidence, source_text)
        if out and out.strip() != claim.strip():
            return Plant(kind, out, claim, t.id, t.half)
    return None
