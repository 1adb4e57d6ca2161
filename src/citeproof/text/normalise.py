"""The one tokenizer and the one stemmer: text normalisation, word tokens, stems and terms.

Every stage that compares words (retrieval, judges, detectors, claims, the
planted harness) tokenises with :data:`WORD_RE` / :func:`tokenize` and stems
with :func:`stem` (Snowball English, Porter2), so "Müller" is one token
everywhere and ``increased``/``increases`` meet on one stem.

:func:`fold` makes extraction damage harmless before comparing words:

* NFKC expands real ligature characters (``ﬁ`` -> ``fi``);
* every ``ffi``, ``ffl``, ``ff``, ``fi``, ``fl`` and every glyph PDFs are
  seen to put in their place (``í`` and ``ì`` in the Sci-Hub and Deep Review
  PDFs of the demo sample, U+FFFD elsewhere) becomes one placeholder ``ƒ``, so
  "find" and "índ", "difficult" and "diìcult", "define" and "de�ne" fold to
  the same word;
* accents are dropped, case folded; the Unicode hyphens U+2010 and U+2011 become ``-`` (a SciFact abstract's
  "event‐free survival" against a claim's "event-free survival", a fifteenth new user's trial).

:func:`terms` gives the distinctive terms of a text: folded words, English
stopwords dropped, Snowball-stemmed (PyStemmer) when available. Chinese,
Japanese and Korean put no spaces between words, so a run of their
characters is one "word" to a tokenizer and a claim differing from the
source sentence by one character would share no term with it: such runs
give their overlapping character bigrams instead (:func:`cjk_terms`), the
standard dictionary-free segmentation for matching CJK text (Lucene's
``CJKBigramFilter``; Kwok, "Comparing representations in Chinese
information retrieval", SIGIR 1997).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["fold", "terms", "STOPWORDS", "tokenize", "word_tokens", "WORD_RE", "stem", "surface_words", "stem_words",
           "CJK_RUN_RE", "cjk_terms", "utf8_safe", "ascii_hyphens"]

CJK_RUN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
"""Runs of Chinese, Japanese (kana, kanji) and Korean (hangul) characters: text with no spaces between words."""

_JAMO = re.compile(r"[\u1100-\u11ff]")

_LIG = re.compile(r"ffi|ffl|ff|fi|fl|[íì\ufffd]")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren as at be because been before being below
    between both but by can cannot could did do does doing down during each either et al etc few for from further
    had has have having he her here hers herself him himself his how however i if in into is it its itself just
    let me more most my myself no nor not of off on once only or other ought our ours ourselves out over own same
    she should so some such than that the their theirs them themselves then there these they this those through
    thus to too under until up upon us very via was we were what when where which while who whom why will with
    within without would you your yours yourself yourselves e g ie eg cf i.e e.g. one two also may might must
    shall using used use based well many much often within whether whose""".split()
)
"""English function words, plus citation debris (``et al``, ``e.g.``)."""


@lru_cache(maxsize=1)
def _combining_marks() -> dict[int, None]:
    """``str.translate`` table deleting every character of a nonzero canonical combining class.

    All 912 such characters (Unicode 15, Python 3.11's ``unicodedata``) lie below U+20000, so the scan stops
    there (5 ms, once). One ``translate`` replaces a per-character Python loop that was 0.7 of the 14.6
    profiled seconds of a lexical run on the scale job (issue 27).
    """
    return {c: None for c in range(0x20000) if unicodedata.combining(chr(c))}


def fold(text: str) -> str:
    """Normalise text for matching (see module docstring).

    Args:
        text: any text.

    Returns:
        Lower-case text of about the same length (ligatures shrink).
    """
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'").replace("\u2010", "-")
    if text.isascii():  # nothing to decompose and no combining marks: skip the per-character pass
        return _LIG.sub("ƒ", text)
    text = _LIG.sub("ƒ", text)
    text = unicodedata.normalize("NFKD", text)
    if not text.isascii():
        text = text.translate(_combining_marks())
    return unicodedata.normalize("NFC", text) if _JAMO.search(text) else text  # NFKD split each hangul syllable into jamo


_HYPHENS = {0x2010: "-", 0x2011: "-"}


def ascii_hyphens(text: str) -> str:
    """``text`` with the Unicode hyphens U+2010 and U+2011 as ``-`` (same length, so offsets hold): publishers set
    them ("event‐free", "19‐28z") where claims have ASCII's. For detectors that read raw text with their own patterns;
    :data:`WORD_RE` and :func:`fold` already treat them so."""
    return text.translate(_HYPHENS)


WORD_RE = re.compile(r"[^\W\d_](?:[^\W_]|['’\u2010\u2011-](?=[^\W_]))*")
"""A word as written: a letter (any script), then letters, digits and inner hyphens or apostrophes
(``Müller``, ``Sci-Hub's``, ``MUC1-C``, ``NF-κB`` are one word each; the Unicode hyphens U+2010 and U+2011 that
publishers set, "event‐free", join as ``-`` does and :func:`fold` to it). Match it on raw text for word
positions; :func:`word_tokens` gives the folded words."""

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*%?|" + WORD_RE.pattern, re.U)


def tokenize(text: str) -> list[str]:
    """Folded word and number tokens of ``text`` (``68.9%`` stays one token; words as :data:`WORD_RE`)."""
    return _TOKEN.findall(fold(text))


def word_tokens(text: str) -> list[str]:
    """The folded words of ``text`` (:data:`WORD_RE` over :func:`fold`; numbers left out), in order."""
    return WORD_RE.findall(fold(text))


try:  # PyStemmer: Snowball English (Porter2)
    import Stemmer as _Stemmer

    _STEMMER = _Stemmer.Stemmer("english")

    @lru_cache(maxsize=200_000)
    def _stem(word: str) -> str:
        return _STEMMER.stemWord(word)

except ImportError:  # pragma: no cover - PyStemmer is a dependency; keep working without it
    _STEMMER = None

    def _stem(word: str) -> str:
        for suf in ("ations", "ation", "ings", "ing", "ies", "es", "s", "ed", "ly"):
            if word.endswith(suf) and len(word) - len(suf) >= 3:
                return word[: -len(suf)]
        return word


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball English (Porter2) stem of one word, folded first (:func:`fold`).

    Args:
        word: one word as written or already folded (``Increased``, ``increas``).

    Returns:
        The stem, lower case (``increas``); the word itself when it has no suffix to strip.
    """
    folded = fold(word)
    if not folded.isascii():
        folded = folded.translate(_GREEK)
    return _stem(folded)


_GREEK = str.maketrans({"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta",
                        "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi",
                        "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi", "χ": "chi", "ψ": "psi",
                        "ω": "omega"})
"""Greek letters spelled out in a stem: *β-catenin* and *beta-catenin* are one word to the detectors (a 148th
trial: nine faithful paraphrases *partial* on the spelling, and a turned *activation* unread beside it)."""


def stem_words(words: list[str]) -> list[str]:
    """Snowball English (Porter2) stems of lower-case ``words``, in order (PyStemmer; a suffix stripper without it)."""
    if _STEMMER is not None:
        return _STEMMER.stemWords(words)
    return [_stem(w) for w in words]


def cjk_terms(run: str) -> list[str]:
    """Overlapping character bigrams of a CJK run (``珊瑚礁`` -> ``珊瑚``, ``瑚礁``); a one-character run is its own term."""
    return [run] if len(run) == 1 else [run[i: i + 2] for i in range(len(run) - 1)]


def terms(text: str) -> list[str]:
    """Distinctive terms of ``text``: folded, stopwords dropped, stemmed.

    Hyphenated words give their parts (``open-source`` -> ``open``,
    ``sourc``), so "Sci-Hub" and "Sci Hub" match and a compound counts once
    per part. Numbers are kept as written (``68.9%``). A run of Chinese,
    Japanese or Korean characters gives its character bigrams
    (:func:`cjk_terms`); Latin letters or digits inside the same token
    (``2016年``, ``RNA聚合酶``) are terms of their own.

    Returns:
        Terms in order of appearance, duplicates kept.
    """
    toks = tokenize(text)
    cjk = CJK_RUN_RE.search(text) is not None  # most text has none: no token needs the per-token look
    out: list[str] = []
    for tok in toks:
        if cjk and CJK_RUN_RE.search(tok):
            last = 0
            for m in CJK_RUN_RE.finditer(tok):
                out.extend(terms(tok[last: m.start()]) if m.start() > last else [])
                out.extend(cjk_terms(m.group(0)))
                last = m.end()
            out.extend(terms(tok[last:]) if last < len(tok) else [])
            continue
        out.extend(_token_terms(tok))
    return out


def _token_terms(tok: str) -> tuple[str, ...]:
    """The terms of one folded token without CJK characters (:func:`terms`' rules), memoised."""
    got = _TERM_MEMO.get(tok)
    if got is None:
        t = tok[:-2] if tok.endswith("'s") else tok
        if t in STOPWORDS or (len(t) < 2 and not t.isdigit()):
            got = ()
        elif t[0].isdigit():
            got = (t,)
        elif "-" in t:
            got = tuple(_stem(p) for p in t.split("-") if p and p not in STOPWORDS and len(p) > 1)
        else:
            got = (_stem(t),)
        if len(_TERM_MEMO) < 500_000:
            _TERM_MEMO[tok] = got
    return got


_TERM_MEMO: dict[str, tuple[str, ...]] = {}
"""Token -> its terms, for :func:`_token_terms` (bounded at 500,000 tokens, some 60 MiB at the worst)."""


def surface_words(text: str, matched: tuple[str, ...] | list[str]) -> list[str]:
    """The words of ``text`` as written whose terms are in ``matched``.

    Turns stemmed, folded terms (``eƒcienc``) back into readable words
    (``efficiency``) for reports.

    Returns:
        Distinct words in order of appearance.
    """
    want = set(matched)
    out: list[str] = []
    for w in _TOKEN.findall(text):
        if w not in out and any(t in want for t in terms(w)):
            out.append(w)
    return out


def utf8_safe(text: str) -> str:
    """``text`` with every lone surrogate written as its ``\\udcXX`` escape, so it encodes as UTF-8.

    A file name that is not UTF-8 reaches Python as lone surrogates (PEP 383, ``surrogateescape``); a
    report names it escaped (``draft\\udcff.md``) rather than failing to be written.
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
