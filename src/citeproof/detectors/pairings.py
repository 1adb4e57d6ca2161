"""Which goes with which: a claim in the source's own words that pairs its items the other way round (issue 28).

Found by the hundred-and-thirty-first to hundred-and-thirty-fourth new users' trials (session 27, held out on
`1339987`: three of the eight false claims called *supported* paired the source's items otherwise):

- "aspartokinase I and III, which are encoded by lysC and thrA, respectively" for "aspartokinase I and III (encoded by
  thrA and lysC, respectively)": :func:`respective_order_turned`;
- "Binding of the receptor Angiopoietin-1 to its ligand Tie2" for "The interaction of Tie2 with its ligand
  Angiopoietin-1": :func:`role_names_exchanged`;
- "to induce cobblestone formation of HSCs in vivo" for "induced cobblestone formation of HSCs in vitro and maintained
  in vivo long-term repopulating activity": :func:`setting_moved`.

Each reads only sentences restating the claim (:func:`~citeproof.detectors.terms.restating`) and none fires where a
sentence of the source pairs the items the claim's way. Code shows each: confidence 0.9, ``proven``.
"""

from __future__ import annotations

import re

from citeproof.detectors.cues import SETS_IN_DOUBT
from citeproof.detectors.terms import restating
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS

__all__ = ["SETTING", "WHOLE", "also_denied", "aside_of_another", "degree_widened", "excluded_joined", "frequency_widened", "lone_negation", "respective_order_turned", "role_names_exchanged",
           "setting_moved"]

_TOKEN = re.compile(r"\w[\w'+/-]*\w|\w|[,;:()]")
_RESPECTIVE_LIST = re.compile(r"(?P<items>[\w+/'-]+(?:\s*,\s*[\w+/'-]+)*,?\s+(?:and|or)\s+[\w+/'-]+)\s*\)?,?\s+"
                              r"respectively\b", re.I)
"""The list just before *respectively*: one-word items (*thrA and lysC*, *A, B, and C*)."""


def _items(m: re.Match) -> list[str]:
    return [stem(w.lower()) for w in re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group("items")) if w and w.lower()
            not in ("and", "or")]


def _said_so(pattern: str, source_text: str) -> bool:
    return any(re.search(pattern, s, re.I) for s in split_sentences(source_text))


def respective_order_turned(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's list before *respectively* holds the items of the restating sentence's list before *respectively*
    in another order: each pairing with the other list turned ("lysC and thrA, respectively" for "thrA and lysC,
    respectively"). Two to five items, each one word, the same set on both sides.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (a sentence with the claim's order clears it).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    m = _RESPECTIVE_LIST.search(claim_text)
    if m is None:
        return None
    mine = _items(m)
    if not 2 <= len(mine) <= 5 or len(set(mine)) != len(mine):
        return None
    for _passage, sent in restating(claim_text, pool):
        n = _RESPECTIVE_LIST.search(sent)
        if n is None or _items(n) == mine or sorted(_items(n)) != sorted(mine):
            continue
        if _said_so(re.escape(m.group("items")).replace(r"\ ", r"\s+"), source_text or sent):
            continue
        return Tag("polarity_flip", f"The claim pairs {m.group('items')!r} 'respectively', where the source has "
                   f"{n.group('items')!r}: \u201c{sent[:200]}\u201d", 0.9,
                   (TagEvidence(m.group("items"), n.group("items")),), proven=True)
    return None


_ROLES = frozenset("""ligand ligands receptor receptors substrate substrates target targets inhibitor inhibitors
activator activators agonist agonists antagonist antagonists precursor precursors product products partner donor
acceptor host hosts vector vectors parent progenitor effector effectors regulator regulators cofactor subunit enzyme
kinase phosphatase""".split())
"""Nouns that name a role one named thing plays for another (*its ligand Angiopoietin-1*)."""


def _name(w: str) -> bool:
    """A named thing: a capital or a digit in the word (*Tie2*, *Angiopoietin*, *p53*)."""
    return len(w) >= 2 and w.lower() not in STOPWORDS and any(c.isupper() or c.isdigit() for c in w)


def _role_names(toks: list[str]) -> dict[str, str]:
    """Role noun -> the name right after it (*ligand* -> *Angiopoietin-1*)."""
    return {t.lower(): toks[k + 1] for k, t in enumerate(toks[:-1]) if t.lower() in _ROLES and _name(toks[k + 1])}


def _short_form(toks: list[str], name: str) -> str:
    """The short form the tokens define for ``name`` in brackets right after it (*Angiopoietin-1 (Ang-1)*), or ''."""
    at = next((k for k, t in enumerate(toks[:-3]) if t == name and toks[k + 1] == "(" and toks[k + 3] == ")"), None)
    return toks[at + 2].lower() if at is not None else ""


def role_names_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A role noun the claim puts before one name where the restating sentence puts it before another name the claim
    also holds, the sentence holding the claim's name too (elsewhere): "its ligand Tie2" for "Tie2 with its ligand
    Angiopoietin-1". The roles are :data:`_ROLES`.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source (a sentence with the claim's pairing clears it).

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    ctoks = _TOKEN.findall(claim_text)
    mine = _role_names(ctoks)
    if not mine:
        return None
    ckeys = {w.lower() for w in ctoks}
    for _passage, sent in restating(claim_text, pool):
        stoks = _TOKEN.findall(sent)
        skeys = {w.lower() for w in stoks}
        for role, theirs in _role_names(stoks).items():
            said = mine.get(role)
            if said is None or said.lower() == theirs.lower() or said.lower() not in skeys or not (
                    {theirs.lower(), _short_form(stoks, theirs)} & ckeys):
                continue  # (the claim may name it by the short form the sentence defines: the pipeline writes the
                # claim's long forms short, as the source does)
            if _said_so(rf"\b{re.escape(role)}\s+{re.escape(said)}\b", source_text or sent):
                continue
            return Tag("polarity_flip", f"The claim names {said!r} the {role}, where the source names {theirs!r} the "
                       f"{role}: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(f"{role} {said}", f"{role} {theirs}"),),
                       proven=True)
    return None


SETTING = re.compile(r"\b(?:in\s+vitro|in\s+vivo|ex\s+vivo)\b", re.I)


def _before(text: str, at: int, n: int = 2) -> tuple[str, ...]:
    """The stems of the ``n`` content words before character ``at`` (a setting's thing: *formation of HSCs*)."""
    words = [w for w in re.findall(r"[\w-]+", text[:at]) if len(w) >= 2 and w.lower() not in STOPWORDS]
    return tuple(stem(w.lower()) for w in words[-n:])


def setting_moved(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *in vivo* (*in vitro*, *ex vivo*) after words the restating sentence follows with another setting,
    no sentence of the source putting the claim's setting after them: "induce cobblestone formation of HSCs in vivo"
    for "induced cobblestone formation of HSCs in vitro and maintained in vivo ..." (a 134th trial: *supported*, the
    sentence holding both settings). The two content words before the setting are compared, by stem.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source.

    Returns:
        A proven ``scope_inflation`` tag at 0.9 (the claim's *in vivo* for the source's *in vitro*) or ``term_swap``
        (any other pair), or None.
    """
    for m in SETTING.finditer(claim_text):
        said = " ".join(m.group(0).lower().split())
        what = _before(claim_text, m.start())
        if len(what) < 2:
            continue
        for _passage, sent in restating(claim_text, pool):
            there = next((" ".join(n.group(0).lower().split()) for n in SETTING.finditer(sent)
                          if _before(sent, n.start()) == what), None)
            if there is None or there == said:
                continue
            if any(_before(s, n.start()) == what and " ".join(n.group(0).lower().split()) == said
                   for s in split_sentences(source_text or sent) for n in SETTING.finditer(s)):
                continue
            name = "scope_inflation" if said == "in vivo" else "term_swap"
            return Tag(name, f"The claim says {said!r} where the source says {there!r} of the same thing: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, there),), proven=True)
    return None


_PREP = r"(?:(?:to|in|with|by|for|on|at|from|of)\s+)?(?:the\s+)?"
_BUT_NOT = re.compile(rf"\b(?P<x>[\w+-]+)\)?,?\s+but\s+not\s+{_PREP}(?P<y>[\w+-]+)", re.I)
"""*X but not (to) Y*: the source says it of X and denies it of Y."""


def excluded_joined(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim joins by *and* what the restating sentence sets apart by *but not*: "neurons that respond to both
    capsaicin and menthol" for "neurons that also respond to capsaicin but not to menthol" (a 135th trial:
    *supported*, P(entails) 0.95). The two words are compared by stem; the claim has no negation before its second;
    no sentence of the source joins them.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.
        source_text: the whole source.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    if not re.search(r"\b(?:and|as well as)\b", claim_text, re.I):
        return None
    for _passage, sent in restating(claim_text, pool):
        for m in _BUT_NOT.finditer(sent):
            x, y = m.group("x"), m.group("y")
            joined = (rf"\b{re.escape(x)}\w{{0,2}}\)?(?:\s+[\w-]+){{0,2}}?,?\s+(?:and|as\s+well\s+as)\s+{_PREP}"
                      rf"{re.escape(y)}")  # (a word or two after X: "H290 cells as well as in MeT-5A", a 138th trial)
            said = re.search(joined, claim_text, re.I)
            if said is None or len(x) < 3 or len(y) < 3 or x.lower() in STOPWORDS or y.lower() in STOPWORDS:
                continue
            if _said_so(joined, source_text or sent):
                continue
            return Tag("polarity_flip", f"The claim says {said.group(0)!r} where the source says {m.group(0)!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said.group(0), m.group(0)),), proven=True)
    return None



WHOLE = re.compile(r"\b(?:complete(?:ly)?|total(?:ly)?|full(?:y)?|entire(?:ly)?)\b", re.I)
"""Words of a whole degree (*complete*, *totally*)."""
_PART = re.compile(r"partial(?:ly)?|incomplete(?:ly)?", re.I)


def _stems_before(words: list[str], k: int, n: int = 3) -> set[str]:
    """Stems of the ``n`` content words before ``words[k]``."""
    return {stem(w) for w in [w for w in words[:k] if len(w) >= 3 and w.lower() not in STOPWORDS][-n:]}


def degree_widened(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim says *complete* (*total*, *full*, *entire*) where a sentence restating it says *partial* (or
    *incomplete*) after the same words: "Tet1 loss leading to a complete loss of 5hmC does not affect pluripotency"
    for "Tet1 loss leading to a partial reduction in 5hmC levels does not affect pluripotency" (a 152nd trial:
    *partial*, only the dropped hedge seen). Two of the three content words before each alike; no sentence of the
    source says the claim's word after them. Code shows it: ``scope_inflation`` at 0.9, ``proven``."""
    cw = [w for w in _TOKEN.findall(claim_text) if w not in ",;:()"]
    for k, w in enumerate(cw):
        if not WHOLE.fullmatch(w) or len(left := _stems_before(cw, k)) < 2:
            continue
        if any(WHOLE.fullmatch(v) and len(left & _stems_before(ow, x)) >= 2 for other in split_sentences(source_text)
               for ow in [[t for t in _TOKEN.findall(other) if t not in ",;:()"]] for x, v in enumerate(ow)):
            continue
        for _passage, sent in restating(claim_text, pool):
            sw = [t for t in _TOKEN.findall(sent) if t not in ",;:()"]
            for j, v in enumerate(sw):
                if _PART.fullmatch(v) and len(left & _stems_before(sw, j)) >= 2:
                    return Tag("scope_inflation", f"The claim says {w!r} where the source says {v!r}: "
                               f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(w, v),), proven=True)
    return None


_LONE_NEGATOR = frozenset({"not", "no", "never"})
_NEGATIVE = re.compile(r"\b(?:not|no|never|cannot|fail\w*|lack\w*|absen\w*|without|neither|nor|unable|none|non-?\w+|"
                       r"un\w+able|undetect\w*|lost|loss|abolish\w*|prevent\w*|block\w*|den(?:y|ies|ied)|exclud\w*)\b",
                       re.I)
"""Words that deny or negate in their own right: a side holding one has said its negation its own way."""
_LONE_SHARE = 0.85


def lone_negation(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """One side negates a word the other states plainly, every other content word the same: "MS analyses detected the
    C-terminal fragment of CRMP-2 in periCRMP-2" for "The C-terminal fragment of CRMP-2 was not detected in
    periCRMP-2 by MS analyses" (a 158th trial: *partial*, no tag; the voice turned, so no run of words lines up), "data
    that were not publicly accessible" for "using publicly accessible data" (a 156th: an unproven flip).

    Each side holds :data:`_LONE_SHARE` of the other's content stems; the negating side has one *not* / *no* / *never*
    with the word it negates next after it (past a *be*), a content word the other side has; the other side has no
    word that denies in its own right (:data:`_NEGATIVE`), and no other sentence of the source says the claim
    otherwise. Code shows it: ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.text.stems import content_stems

    cst = content_stems(claim_text)
    if len(cst) < 4:
        return None
    for _passage, sent in restating(claim_text, pool):
        sst = content_stems(sent)
        shared = len(cst & sst)
        if shared < _LONE_SHARE * len(cst) or shared < _LONE_SHARE * len(sst):
            continue
        for negating, plain, side in ((sent, claim_text, "source"), (claim_text, sent, "claim")):
            words = [w.lower() for w in re.findall(r"[\w'-]+", negating)]
            at = [j for j, w in enumerate(words) if w in _LONE_NEGATOR]
            if len(at) != 1 or _NEGATIVE.search(plain) or {w.lower() for w in re.findall(r"[\w'-]+", sent)} & SETS_IN_DOUBT:
                continue  # (a sentence of a question or a view: "We tested whether iNKT cells recognize ...")
            after = [w for w in words[at[0] + 1:at[0] + 3] if w not in ("be", "been", "being")][:1]
            if not after or len(after[0]) < 3 or after[0] in STOPWORDS or stem(after[0]) not in content_stems(plain):
                continue  # the negated word itself, next but for *be*: "not all cell types" restricts (a 4th trial)
            if any(s != sent and len(content_stems(s) & cst) >= _LONE_SHARE * len(cst)
                   for s in split_sentences(source_text or sent)):
                continue  # another sentence says it too: which one the claim restates is not shown
            word = words[at[0]]
            return Tag("polarity_flip", f"The claim {'leaves out' if side == 'source' else 'adds'} {word!r} before "
                       f"{after[0]!r}, every other word the source's: \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(after[0], f"{word} {after[0]}"),), proven=True)
    return None


_ALWAYS = frozenset({"always", "invariably", "universally", "consistently", "uniformly", "unfailingly"})
_AT_TIMES = frozenset({"frequently", "often", "usually", "commonly", "sometimes", "generally", "mostly", "typically",
                       "occasionally", "largely", "predominantly", "mainly", "primarily", "regularly", "rarely"})


def frequency_widened(claim_text: str, pool: list[str]) -> Tag | None:
    """The claim's *always* (*invariably*, *consistently*) where a sentence restating it says *frequently* (*often*,
    *usually*), the word before and the word after alike: "JCV-infected glial cells are invariably located at the
    gray-white matter junction" for "... are frequently located ..." (a 159th trial: *partial*, an unproven
    widening). Code shows it: ``scope_inflation`` at 0.9, ``proven``."""
    cw = [w for w in _TOKEN.findall(claim_text) if w not in ",;:()"]
    for k, w in enumerate(cw):
        if w.lower() not in _ALWAYS or not 0 < k < len(cw) - 1:
            continue
        for _passage, sent in restating(claim_text, pool):
            sw = [t for t in _TOKEN.findall(sent) if t not in ",;:()"]
            for j, v in enumerate(sw):
                if (v.lower() in _AT_TIMES and 0 < j < len(sw) - 1 and stem(sw[j - 1].lower()) == stem(cw[k - 1].lower())
                        and stem(sw[j + 1].lower()) == stem(cw[k + 1].lower())):
                    return Tag("scope_inflation", f"The claim says {w!r} where the source says {v!r}: "
                               f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(w, v),), proven=True)
    return None


_BUT_NOT_X = re.compile(r"\bbut\s+not\s+(?:the\s+|its\s+|their\s+)?(?P<x>[\w-]+(?:\s+[\w-]+)?)", re.I)


def also_denied(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *but not X* where a sentence restating it has *not only ..., but also X*: "The book examines the
    major issues that separate children from adults, but not the underlying mechanisms" for "... examines not only the
    current major issues ..., but also the underlying mechanisms" (a 174th trial: *supported* at 0.93; *not only*
    is no denial, so the word diff saw none). The source never says *but not X*. Code shows it: ``polarity_flip`` at
    0.9, ``proven``."""
    m = _BUT_NOT_X.search(claim_text)
    if m is None:
        return None
    x = r"\s+".join(map(re.escape, m.group("x").split()))
    if re.search(rf"\bbut\s+not\s+(?:the\s+|its\s+|their\s+)?{x}\b", source_text or "", re.I):
        return None
    for sent in pool:
        also = re.search(rf"\bbut\s+also\s+(?:the\s+|its\s+|their\s+)?{x}\b", sent, re.I)
        if also is not None:
            return Tag("polarity_flip", f"The claim says {m.group(0)!r} where the source says {also.group(0)!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(m.group(0), also.group(0)),), proven=True)
    return None


_ASIDED = re.compile(r"(?P<term>[\w-]+(?:\s+[\w-]+){0,2})\s*\((?P<aside>[^()]{3,80})\)")
"""A term with an aside in brackets just after it (*speech-in-noise masking (involving energetic masking)*)."""


def aside_of_another(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim gives one of a sentence's bracketed items (:data:`_ASIDED`) a word of another item's aside in the
    place of its own: "Speech-in-noise masking, which involves informational masking" for "speech-in-speech masking
    (involving both informational and energetic masking), speech-in-noise masking (involving energetic masking), and
    filtered speech-in-filtered speech masking (involving informational masking)" (a 182nd trial: *supported* at
    P(entails) 0.98). The item's term stands whole in the claim and no other item's does; the claim holds none of its
    aside's words that some other aside lacks, and a word of another item's aside that its own lacks.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    claim_low = claim_text.lower()
    mine = {stem(w) for w in re.findall(r"[\w-]+", claim_low)}
    for _passage, sent in restating(claim_text, pool):
        items = [(m.group("term").split(), m.group("aside")) for m in _ASIDED.finditer(sent)]
        if len(items) < 2 or len({a.split()[0].lower() for _t, a in items}) != 1 or any(
                re.search(r"\d", a) or len(a.split()) < 2 for _t, a in items):
            continue  # parallel asides only, each opening with the same word (*involving ...*): no short forms,
            # definitions or statistics ("(PGCs)", "(OR 2.19 [95% CI ...])": faithful training citations)
        asides = [{stem(w) for w in re.findall(r"[\w-]+", a.lower()) if w not in STOPWORDS} for _t, a in items]
        named = [k for k, (term, _a) in enumerate(items)
                 if re.search(r"(?<![\w-])" + r"\s+".join(map(re.escape, term[-2:])).lower() + r"(?![\w-])", claim_low)]
        if len(named) != 1:
            continue
        k = named[0]
        others = set().union(*(a for j, a in enumerate(asides) if j != k))
        own = asides[k] - set.intersection(*asides)  # (*involving ... masking* stands in every aside)
        taken = (mine & others) - asides[k] - {stem(w.lower()) for w in items[k][0]}
        if not own or own & mine or not taken:
            continue
        said = sorted(taken)[0]
        term = r"\s+".join(map(re.escape, items[k][0][-2:]))
        if any(re.search(rf"(?<![\w-]){term}\W+(?:\w+\W+){{0,4}}{re.escape(said)}", s, re.I)
               for s in split_sentences(source_text or sent)):
            continue
        said = next((w for w in re.findall(r"[\w-]+", claim_text) if stem(w.lower()) == said), said)
        return Tag("polarity_flip", f"The claim gives {' '.join(items[k][0][-2:])!r} {said!r} where the source gives it "
                   f"({items[k][1]}): \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, items[k][1]),), proven=True)
    return None
