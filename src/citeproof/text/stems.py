"""Content stems, term lookup and sentence overlap, used by the detectors and the planted harness.

Nothing here knows about tags; every function is pure and works on plain
strings. Words are the text layer's one tokenizer
(:func:`citeproof.text.normalise.word_tokens`: Unicode letters, so "Müller"
is one word), stems its one stemmer (:func:`citeproof.text.normalise.stem`,
Snowball English), sentences its one splitter
(:func:`citeproof.text.sentences.split_sentences`: no cut after *et al.* or
*Fig.*), so ``increased``/``increases``/``increasing`` meet on ``increas``
here as in retrieval.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from citeproof.text.normalise import CJK_RUN_RE, cjk_terms, stem, word_tokens
from citeproof.text.sentences import sentence_runs, split_sentences

__all__ = ["STOPWORDS", "NEGATION", "stem_opcodes", "tokens", "cjk_bigrams", "content_stems", "find_terms", "has_term",
           "overlap_score", "window", "sentence_stems", "stem_hits", "relevant_sentences", "sentences_about",
           "focus_evidence",
           "entity_tokens"]

STOPWORDS = frozenset(
    """a an the of in on at to for from by with without and or but nor as is are was were be been being
    this that these those it its their there here which who whom whose what when where while than then
    into onto over under between among within via per not no also both either neither each such can could
    may might will would shall should must do does did has have had having we our us they them he she his
    her i you your one two all any some more most less least very so if because thus hence however
    although though et al""".split()
)

def tokens(text: str) -> list[str]:
    """The folded word tokens of ``text`` (:func:`citeproof.text.normalise.word_tokens`), CJK runs left out
    (they are matched by :func:`cjk_bigrams`)."""
    return [t for t in word_tokens(text or "") if not CJK_RUN_RE.match(t)]




def cjk_bigrams(text: str) -> set[str]:
    """Overlapping character bigrams of the CJK runs of ``text`` (a one-character run stands alone).

    CJK writing puts no spaces between words, so a run is one long token;
    overlapping bigrams are the standard dictionary-free segmentation for
    matching such text (Lucene's ``CJKBigramFilter``; Kwok, "Comparing
    representations in Chinese information retrieval", SIGIR 1997).
    """
    out: set[str] = set()
    for m in CJK_RUN_RE.finditer(text or ""):
        out.update(cjk_terms(m.group(0)))
    return out


@lru_cache(maxsize=65536)
def content_stems(text: str) -> frozenset[str]:
    """Stems of the non-stopword tokens of ``text`` (length >= 3), plus the bigrams of its CJK runs (:func:`cjk_bigrams`).

    Cached (a frozenset, so callers cannot change the cached value): the
    detectors score the same source sentences against each claim of a
    document, and stemming them again was a fifth of a warm ``check``.
    """
    return frozenset({stem(t) for t in tokens(text) if t not in STOPWORDS and len(t) >= 3} | cjk_bigrams(text))


def stem_frequency(texts: Iterable[str]) -> dict[str, int]:
    """Stem -> how many of ``texts`` hold it among their :func:`content_stems` (a document frequency: the topic words
    of the sentences citing one work, or of one source's sentences)."""
    counts: dict[str, int] = {}
    for t in texts:
        for s in content_stems(t):
            counts[s] = counts.get(s, 0) + 1
    return counts


def find_terms(text: str, terms: Iterable[str]) -> list[tuple[str, int, int]]:
    """Find whole-word occurrences of phrases in ``text``.

    Args:
        text: where to look.
        terms: phrases, matched case-insensitively on word boundaries (a
            letter or digit of any script, or a hyphen before it, is no
            boundary: "ller" is not found in "Müller"); a phrase may be a
            regular expression fragment.

    Returns:
        ``(matched text, start, end)`` for every hit, in text order.
    """
    out: list[tuple[str, int, int]] = []
    for term in terms:
        for m in re.finditer(r"(?<![^\W_]|-)(?:" + term + r")(?![^\W_])", text or "", re.IGNORECASE):
            out.append((m.group(0), m.start(), m.end()))
    out.sort(key=lambda x: x[1])
    return out


def has_term(text: str, terms: Iterable[str]) -> bool:
    """True when any phrase of ``terms`` occurs in ``text`` (see :func:`find_terms`)."""
    return bool(find_terms(text, terms))


def overlap_score(claim: str, passage: str) -> float:
    """Share of the claim's content stems found in the passage, in [0, 1].

    Args:
        claim: claim text.
        passage: candidate evidence text.

    Returns:
        The share of the claim's content stems found in the passage, a stem
        counting as found when equal to a passage stem or sharing its first
        five letters with one (``anemia``/``anaemia`` do not, ``thalassemia``/
        ``thalassaemia`` do); 0.0 for an empty claim.
    """
    c = content_stems(claim)
    if not c:
        return 0.0
    p = content_stems(passage)
    prefixes = {w[:5] for w in p if len(w) >= 5}
    hit = sum(1 for w in c if w in p or (len(w) >= 5 and w[:5] in prefixes))
    return hit / len(c)


def stem_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """The word-level edit script from words ``a`` to words ``b``, words compared by their stems.

    Method: :class:`difflib.SequenceMatcher` (Ratcliff/Obershelp, no junk heuristic) over :func:`stem` of each
    word, so inflections agree (*cells* / *cell*); a word of ``b`` with a reference number glued on (*trait4*) is
    read as the bare word that ``a`` has (:data:`_NOTE_MARKED`). Shared by the detectors that show a one-word difference
    (``term_swap``, ``polarity_flip``).

    Args:
        a, b: word tokens (the caller's tokenizer), e.g. a claim's and a source sentence's.

    Returns:
        ``(tag, i1, i2, j1, j2)`` tuples as :meth:`difflib.SequenceMatcher.get_opcodes` gives them: ``tag`` is
        ``equal``, ``replace``, ``delete`` or ``insert``; ``a[i1:i2]`` becomes ``b[j1:j2]`` (indices into the
        word lists).
    """
    sa = [stem(w) for w in a]
    have = set(sa)
    sb = []
    for w in b:
        st = stem(w)
        if st not in have and (m := _NOTE_MARKED.fullmatch(w)) and stem(m.group(1)) in have:
            st = stem(m.group(1))  # "trait4", "involved1": the word with a reference number glued on
        sb.append(st)
    return difflib.SequenceMatcher(None, sa, sb, autojunk=False).get_opcodes()


_NOTE_MARKED = re.compile(r"([a-z]{4,})\d{1,3}")
"""A lower-case word with a reference number glued to it, as Nature-style abstracts print superscripts ("...
transmitted as an autosomal-dominant monogenic trait4."): read as the word where the other text has the bare word
(a sixth new user's trial; 70 of SciFact's 5,183 abstracts hold such a token)."""


NEGATION = r"not|no|never|none|neither|nor|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|without|fails? to|failed to|lack(?:s|ed)?|absence of|unable to"
"""Negation cues (regex alternation) used by the polarity and hedge detectors."""


def window(text: str, start: int, end: int, chars: int = 60) -> str:
    """The text around ``[start, end)``, at most ``chars`` characters each side."""
    return (text or "")[max(0, start - chars) : end + chars]


@lru_cache(maxsize=8192)
def sentence_stems(text: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """``(sentence, its content stems, their 5-letter prefixes)`` for each sentence of ``text`` (cached).

    A text of several runs (:func:`citeproof.text.sentences.sentence_runs`: a whole source) is the entries of
    its runs in order, each run's kept on its own, so a run :func:`relevant_sentences` already split is not split
    again.
    """
    runs = sentence_runs(text)
    if len(runs) > 1:
        return tuple(e for run in runs for e in sentence_stems(run))
    out = []
    for sent in split_sentences(text):
        st = content_stems(sent)
        out.append((sent, frozenset(st), frozenset(w[:5] for w in st if len(w) >= 5)))
    return tuple(out)


def stem_hits(claim_stems: set[str], sentence: tuple[str, frozenset[str], frozenset[str]]) -> int:
    """How many of ``claim_stems`` a :func:`sentence_stems` entry holds (equal stem, or the same first five letters)."""
    _s, st, pre = sentence
    short, prefixes = _claim_parts(frozenset(claim_stems))
    # a stem of five letters or more that is in the sentence has its prefix in ``pre`` too,
    # so long stems are counted by prefix alone and short ones by equality (set operations, no loop)
    hits = len(short & st)
    if prefixes:
        hits += sum(prefixes[p] for p in prefixes.keys() & pre)
    return hits


@lru_cache(maxsize=4096)
def _claim_parts(claim_stems: frozenset[str]) -> tuple[frozenset[str], dict[str, int]]:
    """Short stems (under five letters) and the count of long stems per 5-letter prefix, for :func:`stem_hits`."""
    prefixes: dict[str, int] = {}
    for w in claim_stems:
        if len(w) >= 5:
            prefixes[w[:5]] = prefixes.get(w[:5], 0) + 1
    return frozenset(w for w in claim_stems if len(w) < 5), prefixes


@lru_cache(maxsize=64)
def _run_index(source_text: str) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]:
    """For :func:`sentences_about`: the source's runs, and stem -> run indices, 5-letter prefix -> run indices.

    Stems are taken from a run's whole text (no sentence split: about a sixth of syntok's cost), so a run's
    hits bound each of its sentences' from above: only runs that reach the floor are split.
    """
    runs = tuple(sentence_runs(source_text))
    by_stem: dict[str, list[int]] = {}
    by_prefix: dict[str, list[int]] = {}
    for i, run in enumerate(runs):
        st = content_stems(run)
        for w in st:
            by_stem.setdefault(w, []).append(i)
        for p in {w[:5] for w in st if len(w) >= 5}:
            by_prefix.setdefault(p, []).append(i)
    return runs, {w: tuple(v) for w, v in by_stem.items()}, {p: tuple(v) for p, v in by_prefix.items()}


def sentences_about(claim: str, source_text: str, floor: float = 0.3) -> list[tuple[float, str]]:
    """Every sentence of ``source_text`` holding at least ``floor`` of the claim's content stems, in text order.

    Args:
        claim: claim text.
        source_text: the whole source; its sentences are :func:`citeproof.text.sentences.split_sentences`'s,
            but only the runs (:func:`~citeproof.text.sentences.sentence_runs`) whose words could reach the
            floor are split (issue 27: splitting whole sources for every claim was 15 of 47 profiled seconds of
            a lexical run on the scale job).
        floor: least share in [0, 1] (:func:`overlap_score`'s); 0 returns every sentence.

    Returns:
        ``(share, sentence)`` pairs in the order the sentences stand in the source; ``[]`` for an empty
        source or a claim without content words.
    """
    if not source_text:
        return []
    c = content_stems(claim)
    if not c:
        return []
    if floor <= 0:
        return [(stem_hits(c, e) / len(c), e[0]) for e in sentence_stems(source_text)]
    runs, by_stem, by_prefix = _run_index(source_text)
    short, prefixes = _claim_parts(frozenset(c))
    hits: dict[int, int] = {}
    for w in short:
        for i in by_stem.get(w, ()):
            hits[i] = hits.get(i, 0) + 1
    for pre, n in prefixes.items():
        for i in by_prefix.get(pre, ()):
            hits[i] = hits.get(i, 0) + n
    need = floor * len(c)
    out: list[tuple[float, str]] = []
    for i in sorted(i for i, h in hits.items() if h >= need):
        for e in sentence_stems(runs[i]):
            share = stem_hits(c, e) / len(c)
            if share >= floor:
                out.append((share, e[0]))
    return out


def relevant_sentences(claim: str, source_text: str, k: int = 3, floor: float = 0.3) -> list[str]:
    """The ``k`` sentences of ``source_text`` that overlap the claim most, if at least ``floor``.

    Args:
        claim: claim text.
        source_text: the whole source (its sentences as :func:`sentences_about` finds them).
        k: at most this many sentences.
        floor: least :func:`overlap_score` for a sentence to count.

    Returns:
        Sentences, best first; ties in text order.
    """
    scored = sentences_about(claim, source_text, floor)
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i][1] for i in order[:k]]


def focus_evidence(claim: str, passage: str, k: int = 2) -> str:
    """The ``k`` sentences of ``passage`` that overlap the claim most, in passage order.

    A retrieved passage is a paragraph (a whole abstract, for a SciFact
    source); the detectors compare the claim with the sentences that carry
    it, not with everything the paragraph also says (an abstract almost
    always has *some* p value or verb of effect). Ties go to the earlier
    sentence. A passage of at most ``k`` sentences comes back unchanged.

    Args:
        claim: claim text.
        passage: the best evidence passage.
        k: how many sentences to keep.

    Returns:
        The kept sentences joined by single spaces.
    """
    sents = sentence_stems(passage)
    if len(sents) <= k:
        return passage
    c = content_stems(claim)
    if not c:
        return passage
    scored = sorted(range(len(sents)), key=lambda i: (-stem_hits(c, sents[i]), i))
    return " ".join(sents[i][0] for i in sorted(scored[:k]))


ENTITY_RE = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*(?:[0-9]|[A-Z][\w-]*[A-Z]|[a-z][\w-]*[A-Z]))[\w-]{2,}")


def entity_tokens(text: str) -> list[str]:
    """Name-like tokens: with a digit or an inner capital (``MUC1-C``, ``Gpr124``, ``NF-κB``, ``mTECs``, ``BBB``)."""
    return [m.group(0) for m in ENTITY_RE.finditer(text or "")]
