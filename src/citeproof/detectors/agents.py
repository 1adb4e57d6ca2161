"""Who acts on whom when the source says it with an agent noun (issue 28): "Prrx1 is an EMT inducer" is *Prrx1
induces EMT*, "4EBP1, an mTORC1 effector" is *4EBP1 acts for mTORC1*. A claim in the source's words that gives the
relation the other way round ("The epithelial-mesenchymal transition induces the homeobox factor Prrx1", a 152nd
trial: *supported* at P(entails) 0.95; "mTORC1, an effector of 4EBP1", a 153rd: *supported* at 0.92) turns the
finding round, and neither the word diff nor the judge sees it, since every word is the source's.

:func:`agent_roles_exchanged` reads each side as (agent, relation, other) triples of named things (a name holding a
digit or two capitals, or a short form the source defines, long forms read as it) and fires where the claim has
(X, r, Y), a source sentence (Y, r, X), and no source sentence (X, r, Y). The module's other rules read who does what
to whom without a relation word: :func:`named_contexts_exchanged` (two names each where the other stands),
:func:`than_sides_exchanged` (what a comparison is measured against) and :func:`pair_turned_around` (two words round
the same words between them). Each is tried by :func:`citeproof.detectors.reversals.restated_flip`; code shows each:
``polarity_flip`` at 0.9, ``proven``. Found by the 151st to 158th new users' trials (session 28, docs/meaning.md).
"""

from __future__ import annotations

import re
from collections import Counter

from citeproof.detectors.lexicon import DIRECTION
from citeproof.model import Tag, TagEvidence
from citeproof.text.abbreviations import as_the_source_writes, defined_abbreviations, short_forms
from citeproof.text.normalise import ascii_hyphens
from citeproof.text.sentences import split_sentences
from citeproof.text.normalise import stem
from citeproof.text.stems import STOPWORDS, content_stems

__all__ = ["agent_made_patient", "agent_roles_exchanged", "compared_sides_exchanged", "names_exchanged_round_words", "named_contexts_exchanged", "pair_turned_around", "relations", "sides_turned_round_verb",
           "than_sides_exchanged"]

_PIECE = re.compile(r"[\w][\w'+/.-]*[\w]|[\w]|[,;:]")
_NOUNS = {"inducer": "induce", "activator": "activate", "inhibitor": "inhibit", "repressor": "repress",
          "suppressor": "suppress", "regulator": "regulate", "mediator": "mediate", "antagonist": "antagonize",
          "effector": "effector", "target": "target", "substrate": "target"}
"""Agent nouns and the relation each names; "X is a Y inducer" and "X induces Y" both say (X, induce, Y)."""
_PATIENT = frozenset({"target"})
"""Relations whose noun names the thing acted on: "X is a target of Y", "X, a Y substrate" say (Y, target, X)."""
_VERBS = re.compile(r"(induc|activat|inhibit|repress|suppress|regulat|mediat|antagoni[sz]|target)(?:es|e|s|ed|ing)?")
_VERB_BASE = {"induc": "induce", "activat": "activate", "inhibit": "inhibit", "repress": "repress",
              "suppress": "suppress", "regulat": "regulate", "mediat": "mediate", "antagonis": "antagonize",
              "antagoniz": "antagonize", "target": "target"}
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_LINK = frozenset({"is", "are", "was", "were", ",", "as"})
_DETERMINER = frozenset({"a", "an", "the", "its", "their", "this", "one", "key", "major", "main", "novel", "known",
                         "classical", "potent", "direct", "critical", "important", "central", "master", "negative",
                         "positive", "specific", "selective", "downstream", "upstream", "putative"})
_REACH = 4
"""Most words between a verb and the named thing it acts from or on ("induces the homeobox factor Prrx1")."""


def _noun(word: str) -> str | None:
    return _NOUNS.get(word) or (_NOUNS.get(word[:-1]) if word.endswith("s") else None)


def relations(text: str, defined: dict[str, tuple[str, ...]], named: set[str]) -> set[tuple[str, str, str]]:
    """The (agent, relation, other) triples ``text`` states of named things.

    Args:
        text: one sentence or claim.
        defined: :func:`~citeproof.text.abbreviations.defined_abbreviations` of the source (long forms read short).
        named: lower-case words that name a thing (:func:`_named_words`).

    Returns:
        Triples of lower-case names and a relation of :data:`_NOUNS` (its value); empty when none is stated.
    """
    toks = short_forms(_PIECE.findall(ascii_hyphens(text).lower()), defined)

    def is_named(w: str) -> bool:
        return w in named or w in defined

    def before_np(k: int) -> str | None:  # the named thing an agent noun phrase opening at k is said of
        while k > 0 and toks[k - 1] in _DETERMINER:
            k -= 1
        if k >= 2 and toks[k - 1] in _LINK and is_named(toks[k - 2]):
            return toks[k - 2]
        return None

    out: set[tuple[str, str, str]] = set()
    for k, w in enumerate(toks):
        rel = _noun(w)
        if rel:
            if k + 2 < len(toks) and toks[k + 1] == "of":  # "an effector of 4EBP1", "a target of the SIP1"
                other = next((t for t in toks[k + 2:k + 4] if is_named(t)), None)
                agent = before_np(k)
            elif k >= 1 and is_named(toks[k - 1]):  # "an EMT inducer", "the EMT inducer Prrx1"
                other = toks[k - 1]
                agent = toks[k + 1] if k + 1 < len(toks) and is_named(toks[k + 1]) else before_np(k - 1)
            else:
                continue
            if agent and other and agent != other:
                out.add((other, rel, agent) if rel in _PATIENT else (agent, rel, other))
            continue
        m = _VERBS.fullmatch(w)
        if not m or (k + 1 < len(toks) and _noun(toks[k + 1])):
            continue
        base = _VERB_BASE.get(m.group(1), m.group(1))
        if k >= 1 and toks[k - 1] in _BE:  # passive: "X is induced by Y"
            if not (w.endswith("ed") and k + 1 < len(toks) and toks[k + 1] == "by"):
                continue
            agent = next((t for t in toks[k + 2:k + 2 + _REACH] if is_named(t)), None)
            other = next((t for t in reversed(toks[max(0, k - 1 - _REACH):k - 1]) if is_named(t)), None)
        else:
            before = toks[max(0, k - _REACH):k]
            if "," in before:
                before = before[len(before) - before[::-1].index(","):]
            after = toks[k + 1:k + 1 + _REACH]
            if "," in after:
                after = after[:after.index(",")]
            agent = next((t for t in reversed(before) if is_named(t)), None)
            other = next((t for t in after if is_named(t)), None)
        if agent and other and agent != other:
            out.add((agent, base, other))
    return out


def _named_words(*texts: str) -> set[str]:
    """Lower-case words of ``texts`` that name a thing: letters with a digit (*Prrx1*, *4EBP1*) or two capitals
    (*EMT*, *mTORC1*)."""
    out = set()
    for text in texts:
        for w in re.findall(r"[\w][\w'+/.-]*[\w]|\w", ascii_hyphens(text)):
            if (any(c.isdigit() for c in w) and any(c.isalpha() for c in w)) or sum(c.isupper() for c in w) >= 2:
                out.add(w.lower())
    return out


def _say(x: str, r: str, y: str) -> str:
    if r == "effector":
        return f"{x!r} is an effector of {y!r}"
    return f"{x!r} {r}{'es' if r.endswith('s') else 's'} {y!r}"


def agent_roles_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim gives a relation of two named things the other way round from a sentence of ``pool``, where the
    source nowhere states it the claim's way (module docstring).

    Args:
        claim_text: the claim, citation markup removed.
        pool: passages to read the turned relation in (sentences restating the claim first).
        source_text: the whole source (its defined short forms; where the claim's way would be said).

    Returns:
        A ``polarity_flip`` tag at 0.9, ``proven``, with the two names as evidence; or None.
    """
    whole = source_text or " ".join(pool)
    defined = defined_abbreviations(whole)
    said = relations(claim_text, defined, _named_words(claim_text))
    if not said:
        return None
    named = _named_words(claim_text, whole)
    everywhere = [(s, relations(s, defined, named)) for s in split_sentences(whole)]
    if any(said & rel for _s, rel in everywhere):
        return None
    for passage in pool:
        for sent in split_sentences(passage):
            rel = relations(sent, defined, named)
            for x, r, y in said:
                if (y, r, x) in rel and not any((x, r, y) in there for _s, there in everywhere):
                    return Tag("polarity_flip", f"The claim says {_say(x, r, y)}; the source says it the other way "
                               f"round, {_say(y, r, x)}: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(x, y),),
                               proven=True)
    return None


def _content_words(words: list[str], named: set[str]) -> list[str]:
    """``words`` without clause marks, stop words and words under three letters, names kept."""
    return [w for w in words if w not in ",;:" and (len(w) >= 3 and w not in STOPWORDS or w in named)]


def _neighbours(words: list[str], named: set[str]) -> dict[str, list[tuple[str | None, str | None]]]:
    """For each named word of ``words``, the content words (stems) just before and just after each time it stands."""
    content = _content_words(words, named)
    out: dict[str, list[tuple[str | None, str | None]]] = {}
    for i, w in enumerate(content):
        if w in named:
            prev = stem(content[i - 1]) if i > 0 and content[i - 1] not in named else None
            nxt = stem(content[i + 1]) if i + 1 < len(content) and content[i + 1] not in named else None
            out.setdefault(w, []).append((prev, nxt))
    return out


def _window(words: list[str], named: set[str], n: int = 2) -> dict[str, set[str]]:
    """For each named word of ``words``, the stems of the content words within ``n`` content words of it, either side,
    wherever it stands."""
    content = _content_words(words, named)
    out: dict[str, set[str]] = {}
    for i, w in enumerate(content):
        if w in named:
            out.setdefault(w, set()).update(stem(x) for x in content[max(0, i - n):i] + content[i + 1:i + 1 + n]
                                            if x not in named)
    return out


def named_contexts_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """Two named things of a sentence restating the claim, each put where the other stands: "Polyploidization is
    prevented in megakaryocytes lacking GEF-H1 through elevated expression of Mkl1" for "polyploidization is prevented
    in Mks lacking Mkl1, ... is via elevated GEF-H1 expression" (a 154th trial: *supported*, P(entails) 0.92).

    One name, A, has in the claim the word just before it (or just after) that the other, B, has in the sentence and
    A has nowhere in the source within two content words; B has in the claim a word beside it that A has beside it in
    the sentence and B has nowhere within two (a noun phrase reordered keeps its words near: "the mTORC1 effector
    4EBP1" for "4EBP1, an mTORC1 effector", "an ImmTAC uses its anti-CD3 end" for "the anti-CD3 effector end of the
    ImmTAC", faithful claims of trials 153 and 104). Names are words with a digit or two capitals, each once in the
    claim. Code shows it: ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.detectors.terms import restating

    named = _named_words(claim_text)
    cw = _PIECE.findall(ascii_hyphens(claim_text).lower())
    mine = {w: c for w, c in _neighbours(cw, named).items() if len(c) == 1}
    if len(mine) < 2:
        return None
    everywhere: dict[str, set[str]] | None = None  # the whole source read so only once a candidate is found
    from citeproof.detectors.restated import _turned_too

    for _passage, sent in restating(claim_text, pool):
        if _turned_too(claim_text, sent):
            continue  # a direction word turned as well undoes the exchange ("Lef1 is expressed at lower levels than
            # Tcf1" for "Tcf1 is higher expressed than Lef1", trial 137)
        theirs = _neighbours(_PIECE.findall(ascii_hyphens(sent).lower()), named)
        for a, [(ap, an)] in mine.items():
            for b, [(bp, bn)] in mine.items():
                if a == b or a not in theirs or b not in theirs:
                    continue
                b_here = {bp, bn} - {None}
                if not ((ap and ap in {p for p, _n in theirs[b]}) or (an and an in {n for _p, n in theirs[b]})) or not (
                        b_here & {x for pair in theirs[a] for x in pair}):
                    continue
                if everywhere is None:
                    everywhere = _window(_PIECE.findall(ascii_hyphens(source_text or " ".join(pool)).lower()), named)
                moved = (ap and ap in {p for p, _n in theirs[b]} and ap not in everywhere.get(a, set())) or (
                    an and an in {n for _p, n in theirs[b]} and an not in everywhere.get(a, set()))
                if moved and not b_here & everywhere.get(b, set()):
                    return Tag("polarity_flip", f"The claim puts {a!r} where the source has {b!r} and {b!r} where it "
                               f"has {a!r}: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(a, b),), proven=True)
    return None


_THAN = re.compile(r"\b(?P<cmp>more|less|fewer|greater|higher|lower|larger|smaller|better|worse|stronger|weaker|"
                   r"faster|slower|longer|shorter|earlier|later)\b(?P<mid>(?:\W+\w[\w-]*){0,6}?)\W+than\s+"
                   r"(?:(?:did|do|does|was|were|is|are|in|those|that|of|the|for|with)\s+)*(?P<head>[\w-]+)", re.I)
"""A comparison and the first word of what it is made against: "more pronounced obesity ... than did wild-type
mice"."""


def than_sides_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim compares the two things of a sentence restating it the other way round, its comparative the same:
    "When fed a high-fat diet, wild-type mice developed more pronounced obesity and hepatic steatosis than did the
    transgenic mice" for "When Tg mice were fed a high-fat diet, they developed more pronounced obesity and hepatic
    steatosis than did wild-type mice" (a 151st trial: *partial*, no tag). What each side compares against (the first
    word after *than*, short forms as the source defines them) stands before *than* on the other side; no sentence of
    the source makes the claim's comparison against the claim's word. Code shows it: ``polarity_flip`` at 0.9,
    ``proven``."""
    from citeproof.detectors.terms import restating

    folded = as_the_source_writes(claim_text, source_text) if source_text else claim_text
    mine = _THAN.search(folded)
    if mine is None:
        return None
    cmp_, head = mine.group("cmp").lower(), stem(mine.group("head").lower())
    before = {stem(w) for w in re.findall(r"[\w-]+", folded[:mine.start("head")].lower())}
    for _passage, sent in restating(claim_text, pool):
        for m in _THAN.finditer(sent):
            other = stem(m.group("head").lower())
            if m.group("cmp").lower() != cmp_ or other == head or other in STOPWORDS or head in STOPWORDS:
                continue
            there = {stem(w) for w in re.findall(r"[\w-]+", sent[:m.start("head")].lower())}
            if other in before and head in there and not any(
                    n.group("cmp").lower() == cmp_ and stem(n.group("head").lower()) == head
                    for s in split_sentences(source_text or sent) for n in _THAN.finditer(s)):
                return Tag("polarity_flip", f"The claim measures its side against {mine.group('head')!r} where the "
                           f"source measures against {m.group('head')!r}, the two sides exchanged: \u201c{sent[:200]}\u201d", 0.9,
                           (TagEvidence(mine.group("head"), m.group("head")),), proven=True)
    return None


_COMPARED = re.compile(r"\bcompared\s+(?:with|to)\s+(?:the\s+|those\s+(?:of|in|with)\s+)?(?P<std>[\w-]+(?:\s+[\w-]+){0,4}?)"
                       r"\s*(?=[,.;)]|$)", re.I)
"""*compared with X*, X up to the next comma or stop: what a comparison is measured against."""


def _turns(text: str) -> set[str]:
    """The stems of ``text``'s words of direction (:data:`~citeproof.detectors.lexicon.DIRECTION`)."""
    return {stem(w) for w in re.findall(r"[\w-]+", text.lower())} & DIRECTION


def compared_sides_exchanged(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """What a comparison is measured against (*compared with X*) exchanged with what it is said of: "When compared with
    TATA box-containing genes, TATA-less promoters preferentially utilize SAGA rather than TFIID" for "TATA
    box-containing genes ... preferentially utilize SAGA rather than TFIID when compared to TATA-less promoters" (a
    167th trial: *supported* at 0.95). Each side's standard shares no word with the other's, and each stands among
    the other side's words outside its standard; no source sentence measures against the claim's standard. Code
    shows it: ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.detectors.terms import restating

    mine = _COMPARED.search(claim_text)
    if mine is None or not (std := content_stems(mine.group("std"))):
        return None
    rest = content_stems(claim_text[:mine.start()] + " " + claim_text[mine.end():])
    for _passage, sent in restating(claim_text, pool):
        for m in _COMPARED.finditer(sent):
            theirs = content_stems(m.group("std"))
            if _turns(claim_text) != _turns(sent):
                continue  # turned twice, sides and direction ("decreased ... in the healthy endometrium compared with
                # superficial lesions" for "increased ... in superficial lesions compared with the healthy endometrium")
            if not theirs or theirs & std or not theirs <= rest or not std <= content_stems(sent[:m.start()] + " " + sent[m.end():]):
                continue
            if any(content_stems(n.group("std")) >= std for o in split_sentences(source_text or sent) for n in _COMPARED.finditer(o)):
                continue
            return Tag("polarity_flip", f"The claim measures against {mine.group('std')!r} where the source measures "
                       f"against {m.group('std')!r}, the two sides exchanged: \u201c{sent[:200]}\u201d", 0.9,
                       (TagEvidence(mine.group("std"), m.group("std")),), proven=True)
    return None


_ACT_OF = re.compile(r"\b(?P<act>[a-z]{4,}(?:tion|ment|sion|ance|ence|ing|al|ure))\s+of\s+(?:the\s+)?(?P<x>[a-z][\w-]{2,})\b",
                     re.I)


def agent_made_patient(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's *act of X* where the sentence restating it has *act by X*, and the source never *act of X*: the one
    who acts made the one acted on ("threats of violence and victimization of adults by youth" for "... victimization
    by adults", a 170th trial: *supported* at 0.96). Code shows it: ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.detectors.terms import restating

    for m in _ACT_OF.finditer(claim_text):
        act, x = re.escape(m.group("act")), re.escape(m.group("x"))
        if re.search(rf"\b{act}\s+by\s+(?:the\s+)?{x}\b", claim_text, re.I) or re.search(
                rf"\b{act}\s+of\s+(?:the\s+)?{x}\b", source_text or " ".join(pool), re.I):
            continue
        for _passage, sent in restating(claim_text, pool):
            if (by := re.search(rf"\b{act}\s+by\s+(?:the\s+)?{x}\b", sent, re.I)) is not None:
                return Tag("polarity_flip", f"The claim says {m.group(0)!r} where the source says {by.group(0)!r}: "
                           f"the one who acts made the one acted on, \u201c{sent[:200]}\u201d", 0.9,
                           (TagEvidence(m.group(0), by.group(0)),), proven=True)
    return None


_WORD = re.compile(r"[A-Za-z][\w'-]*")
_LINKING = frozenset({"also", "further", "thus", "therefore", "indeed", "likewise", "similarly", "moreover", "then",
                      "in", "turn"})
_BOTH_WAYS = re.compile(r"(?:and|or|nor|versus|vs|with|between|than|similar|compar\w*|resembl\w*|differ\w*|correlat\w*|"
                        r"associat\w*|interact\w*|bind\w*|bound|equal\w*|overlap\w*|match\w*|contact\w*|fus\w*|pair\w*|"
                        r"coupl\w*|link\w*|connect\w*|like|unlike|same)", re.I)
"""Words of a relation that holds both ways, or that join two things as a pair: turned round, nothing changes."""


def pair_turned_around(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """Two content words of a sentence restating the claim exchanged around the same words between them: "Neurons
    influence astrocyte physiology" for "Astrocytes also influence neuronal physiology" (a 158th trial: *supported*
    at 0.99; the word diff pairs *Neurons* with *neuronal* by stem and sees no exchange). One to three words between,
    one a content word, none of a relation that holds both ways (:data:`_BOTH_WAYS`); adverbs of linking (*also*)
    passed over; no sentence of the source says it the claim's way. Code shows it: ``polarity_flip`` at 0.9,
    ``proven``."""
    from citeproof.detectors.terms import restating

    def content(w: str) -> bool:
        return len(w) >= 3 and w.lower() not in STOPWORDS and not w.lower().endswith("ly")

    cw = [w for w in _WORD.findall(ascii_hyphens(claim_text)) if w.lower() not in _LINKING]
    cs = [stem(w.lower()) for w in cw]
    said_at = None
    for _passage, sent in restating(claim_text, pool):
        ss = [stem(w.lower()) for w in _WORD.findall(ascii_hyphens(sent)) if w.lower() not in _LINKING]
        for i in range(len(cs)):
            for n in (1, 2, 3):
                k = i + n + 1
                if k >= len(cs):
                    break
                a, mid, b = cs[i], cs[i + 1:k], cs[k]
                if a == b or not (content(cw[i]) and content(cw[k])) or not any(content(w) for w in cw[i + 1:k]) or any(
                        _BOTH_WAYS.fullmatch(w) for w in cw[i + 1:k]):
                    continue
                turned = [b] + mid + [a]
                if not any(ss[x:x + len(turned)] == turned for x in range(len(ss))):
                    continue
                said_at = said_at or [[stem(w.lower()) for w in _WORD.findall(ascii_hyphens(s))
                                       if w.lower() not in _LINKING] for s in split_sentences(source_text or sent)]
                way = [a] + mid + [b]
                if any(o[x:x + len(way)] == way for o in said_at for x in range(len(o))):
                    continue
                return Tag("polarity_flip", f"The claim says {' '.join(cw[i:k + 1])!r} where the source has the two "
                           f"the other way round: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(cw[i], cw[k]),),
                           proven=True)
    return None


_VERBISH = re.compile(r"[a-z]{3,}(?:es|[^suai]s|ed|ate|ates|ize|izes|ise|ises|ify|ifies)")
_CLAUSE_END = frozenset({";", ":"})
_PASSIVE_NEAR = frozenset({"is", "are", "was", "were", "be", "been", "being", "by"})
_OBJECT_OPENS = frozenset({"the", "a", "an", "its", "their", "this", "these", "those", "both", "all", "each", "many",
                           "most", "several", "some"})
"""Words a verb's object opens with: *encompasses the*, *modulate a number of*, *affect all stages*. A plural noun
is followed by other words (*domains in which*, *genes in common*, *cells from dormancy*)."""
_NOUN_AFTER = frozenset({"the", "a", "an", "of", "these", "those", "their", "its", "his", "her", "our", "your"})


def _sides(words: list[str], at: int, reach: int = 20) -> tuple[set[str], set[str]]:
    """The content stems within ``reach`` words (commas not counted) before and after ``words[at]``, cut at a
    semicolon or colon."""
    def side(seq: list[str]) -> set[str]:
        out: set[str] = set()
        for w in [w for w in seq if w != ","][:reach]:
            if w in _CLAUSE_END:
                break
            if len(w) >= 3 and w.lower() not in STOPWORDS and not w.lower().endswith("ly"):
                out.add(stem(w.lower()))
        return out
    return side(list(reversed(words[:at]))), side(words[at + 1:])


def _verb_here(words: list[str], at: int, strict: bool = True) -> bool:
    """``words[at]`` stands as a verb: no article or possessive right before it (lower-case words) and its object
    opening right after it (:data:`_OBJECT_OPENS`); not ``strict`` (the other side, once the claim's reads as a verb),
    any word after it but a preposition or a stop."""
    if not (0 < at < len(words) - 1) or words[at - 1] in _NOUN_AFTER:
        return False
    return words[at + 1] in _OBJECT_OPENS if strict else words[at + 1] not in _AFTER_NOUN


_AFTER_NOUN = frozenset({"of", "in", "from", "to", "for", "with", "on", "at", ",", ";", ":", "."})


def sides_turned_round_verb(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """What stands before and after a verb the claim shares with a sentence restating it, each on the other side:
    "The mouse myelin basic protein gene encompasses a novel 105-kilobase transcription unit called the Golli-mbp
    gene" for "a novel transcription unit of 105 kilobases (called the Golli-mbp gene) that encompasses the mouse
    myelin basic protein (MBP) gene" (a 161st trial); "Astrocyte-derived neurotrophic factors and gliotransmitters
    modulate the biosynthesis of PACAP and VIP" for "PACAP and VIP modulate ... biosynthesis of neurotrophic factors
    and gliotransmitters" (a 158th): both *supported*.

    The verb is one word, of one stem on both sides and once in each, shaped as a verb (*-s*, *-es*, *-ed*,
    *-ate*, *-ize*...) and standing as one (its object opening right after it, :func:`_verb_here`), not of a relation that holds both ways (:data:`_BOTH_WAYS`), with no *be* or *by* beside it on
    either side (a passive turns its sides faithfully). The content stems before and after it (20 words each way,
    commas not counted; words on both sides of one text set aside): at least one claim word of each side stands on
    the sentence's other side, four in all, and at most one on its own side. No source sentence has them the claim's way. Code shows it:
    ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.detectors.terms import restating

    cw = _PIECE.findall(ascii_hyphens(claim_text))
    low = [w.lower() for w in cw]
    for v, verb in enumerate(low):
        if not _VERBISH.fullmatch(verb) or low.count(verb) != 1 or _BOTH_WAYS.fullmatch(verb) or verb in STOPWORDS:
            continue
        if ({low[v - 1] if v else "", low[v + 1] if v + 1 < len(low) else ""} & _PASSIVE_NEAR or v < 2
                or not _verb_here(low, v)):
            continue
        cl, cr = _sides(cw, v)
        cl, cr = cl - cr, cr - cl
        for _passage, sent in restating(claim_text, pool):
            sw = _PIECE.findall(ascii_hyphens(sent))
            sl = [w.lower() for w in sw]
            same = [i for i, w in enumerate(sl) if stem(w) == stem(verb)]  # ("inhibit" for "inhibits", a 174th)
            if len(same) != 1:
                continue
            at = same[0]
            if {sl[at - 1] if at else "", sl[at + 1] if at + 1 < len(sl) else ""} & _PASSIVE_NEAR or not _verb_here(
                    sl, at, strict=False):
                continue
            if _turns(claim_text) != _turns(sent):
                continue  # a direction turned too: the two turns cancel
            sleft, sright = _sides(sw, at)
            sleft, sright = sleft - sright, sright - sleft
            crossed_l, crossed_r = cl & sright, cr & sleft
            straight = len(cl & sleft) + len(cr & sright)
            if not (crossed_l and crossed_r and len(crossed_l) + len(crossed_r) >= 4 and straight <= 1):
                continue
            for other in split_sentences(source_text or sent):
                ow = _PIECE.findall(ascii_hyphens(other))
                if (k := next((i for i, w in enumerate(ow) if stem(w.lower()) == stem(verb)), None)) is not None:
                    oleft, oright = _sides(ow, k)
                    if len(cl & oleft) + len(cr & oright) >= 4:
                        break  # a sentence says it the claim's way
            else:
                return Tag("polarity_flip", f"The claim puts {', '.join(sorted(crossed_l))} before {cw[v]!r} and "
                           f"{', '.join(sorted(crossed_r))} after it; the source has them the other way round: "
                           f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(cw[v], sw[at]),), proven=True)
    return None


_EXCHANGE_VERB = re.compile(r"(?:replac|substitut|exchang|swap|convert|transform|switch)\w*")


def _name_like(word: str, first: bool) -> bool:
    """A token that names a thing: a digit in it, or a capital past its first letter, or a capital not at the
    sentence's start (*H2AZ*, *Jhdm1a/1b*, the *C* of *vitamin C*)."""
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:]) or (word[:1].isupper() and not first)


def names_exchanged_round_words(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """Two names in the other order round the same words: "Vitamin C is a key effector of somatic cell reprogramming
    downstream of the histone demethylases Jhdm1a/1b" for "the histone demethylases Jhdm1a/1b are key effectors of
    somatic cell reprogramming downstream of vitamin C" (a 173rd trial); "replaces histone H2AZ with conventional
    histone H2A" for "replaces conventional histone H2A with histone H2AZ" (a 172nd): both *supported*. Each name once
    in the claim and once in a sentence restating it; the words between them alike (two at least, three fifths of the
    fewer); none of a relation that holds both ways (:data:`_BOTH_WAYS`) unless a verb of exchange comes first
    (*replaces X with Y*); no direction word turned too; no sentence of the source has them the claim's way. Code
    shows it: ``polarity_flip`` at 0.9, ``proven``."""
    from citeproof.detectors.terms import restating

    cw = [w for w in _PIECE.findall(ascii_hyphens(claim_text)) if w not in ",;:"]
    low = [w.lower() for w in cw]
    names = [i for i, w in enumerate(cw) if _name_like(w, i == 0) and low.count(low[i]) == 1 and len(w) >= 1]
    for _passage, sent in restating(claim_text, pool):
        raw = [w for w in _PIECE.findall(ascii_hyphens(sent)) if w not in ",;:"]
        sw = [w.lower() for w in raw]
        if _turns(claim_text) != _turns(sent):
            continue
        for x, a in enumerate(names):
            for b in names[x + 1:]:
                if sw.count(low[a]) != 1 or sw.count(low[b]) != 1:
                    continue
                sa, sb = sw.index(low[a]), sw.index(low[b])
                if not (_name_like(raw[sa], sa == 0) and _name_like(raw[sb], sb == 0)):
                    continue  # a name on both sides ("Trophy" is the source's "trophy": a faithful WiCE claim)
                if sb >= sa:
                    continue  # the sentence has them in the claim's order
                mine, theirs = low[a + 1:b], sw[sb + 1:sa]
                if not mine or not theirs:
                    continue
                shared = sum((Counter(mine) & Counter(theirs)).values())
                if shared < 2 or shared < 0.6 * min(len(mine), len(theirs)):
                    continue
                exchange = any(_EXCHANGE_VERB.fullmatch(w) for w in low[max(0, a - 3):a])
                if not exchange and any(_BOTH_WAYS.fullmatch(w) for w in mine + theirs):
                    continue
                said = " ".join(low[a:b + 1])
                if any(said in " ".join(w.lower() for w in _PIECE.findall(ascii_hyphens(o)) if w not in ",;:")
                       for o in split_sentences(source_text or sent)):
                    continue
                return Tag("polarity_flip", f"The claim has {cw[a]!r} before {cw[b]!r} round the same words; the "
                           f"source has them the other way round: \u201c{sent[:200]}\u201d", 0.9,
                           (TagEvidence(cw[a], cw[b]),), proven=True)
    return None
