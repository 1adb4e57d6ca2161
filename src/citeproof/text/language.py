"""Which language a claim and its source are written in, so a claim in one language against a source in
another is said to be cross-language instead of scoring 0% (issue 19, part 4).

How:

1. **Script**: the script most of the letters belong to (Unicode character
   names: Han, Hiragana/Katakana, Hangul, Cyrillic, Greek, Arabic, Hebrew,
   Devanagari, Thai, Latin). Han with kana is Japanese, Han alone Chinese,
   Hangul Korean; two different scripts are two languages.
2. **Latin-script text by its function words**: the language among
   English, German, French, Spanish, Italian, Portuguese and Dutch whose
   commonest function words (:data:`FUNCTION_WORDS`, 20-odd each) make up
   most of the text's tokens, when they are at least :data:`MIN_SHARE` of
   its words, at least :data:`MIN_HITS` tokens, and twice the runner-up's
   count (the stopword method of language identification; in running prose
   a third or more of the tokens are function words of its language, and
   few of another's). Anything else (a telegraphic claim, a Latin-script
   language not listed) has no language here, and is never called
   cross-language. No model is loaded: this runs for every finding.

Text of fewer than :data:`MIN_WORDS` words (CJK: characters / 2) has no
language: too short to say.

Which tiers are English-only: the lexical tier's stopwords and suffix
stemmer are English (CJK runs match by character bigrams), the dense tier's
model (all-MiniLM-L6-v2) and the entailment tier's NLI model were trained
on English; the LLM tier reads what its model reads.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["script_of", "language_of", "cross_language", "language_name", "FUNCTION_WORDS", "MIN_SHARE", "MIN_HITS", "MIN_WORDS",
           "ENGLISH_ONLY_TIERS"]

MIN_SHARE = 0.12
"""Share of a Latin text's word tokens that must be function words of one language for it to be named."""

MIN_HITS = 3
"""Fewest function-word tokens of the named language (2 named "Each 1-MET increase in exercise capacity conferred
a 20% survival benefit" Dutch by *met* and *in*)."""

MIN_WORDS = 6
"""Fewest words (CJK: characters / 2) a text needs to be given a language."""

ENGLISH_ONLY_TIERS = ("lexical", "dense", "entailment")
"""Tiers whose words or models are English (module docstring)."""

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the of and to in is that for with as was were are by on this be from an or which we it not at these their has have been".split()),
    "de": frozenset("der die das und in ist nicht von zu den mit sich des auf für im dem ein eine einer wurde werden sind wir bei auch oder".split()),
    "fr": frozenset("de le la les et des est une du dans pour que qui pas sur au aux par ce sont nous avec été ont cette entre".split()),
    "es": frozenset("el la los las y de del que en por una con para es se al fue su sus como más entre este esta son".split()),
    "it": frozenset("il la le gli di che è e per una con del della dei delle nel nella sono non questo questa anche stato".split()),
    "pt": frozenset("o os as e de do da dos das que em no na uma um com para por não são foi pelo pela este esta".split()),
    "nl": frozenset("de het een en van is dat die in niet op te zijn met voor door aan ook werd worden bij deze naar".split()),
}
"""The commonest function words of each Latin-script language told apart (articles, prepositions, conjunctions,
forms of 'to be'; from the top of each language's word-frequency lists)."""

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
          "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "el": "Greek", "hi": "Hindi", "th": "Thai",
          "cyrillic": "a Cyrillic-script language"}
_SCRIPT_LANG = {"Han": "zh", "Japanese": "ja", "Hangul": "ko", "Greek": "el", "Hebrew": "he", "Arabic": "ar", "Devanagari": "hi", "Thai": "th",
                "Cyrillic": "cyrillic"}


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    if name.startswith("CJK"):
        return "Han"
    for prefix, script in (("HIRAGANA", "Kana"), ("KATAKANA", "Kana"), ("HANGUL", "Hangul"), ("LATIN", "Latin"), ("CYRILLIC", "Cyrillic"),
                           ("GREEK", "Greek"), ("ARABIC", "Arabic"), ("HEBREW", "Hebrew"), ("DEVANAGARI", "Devanagari"), ("THAI", "Thai")):
        if name.startswith(prefix):
            return script
    return "Other"


def _sample(text: str, size: int = 6000) -> str:
    """Up to ``size`` characters from the start, middle and end of ``text`` (a long source is not read whole)."""
    if len(text) <= size:
        return text
    third = size // 3
    mid = len(text) // 2
    return text[:third] + " " + text[mid:mid + third] + " " + text[-third:]


def script_of(text: str) -> str:
    """The script most letters of ``text`` are in: ``Latin``, ``Han``, ``Japanese`` (Han with kana), ``Hangul``,
    ``Cyrillic``, ``Greek``, ``Arabic``, ``Hebrew``, ``Devanagari``, ``Thai``, ``Other``; '' without letters."""
    counts: dict[str, int] = {}
    for ch in _sample(text):
        if ch.isalpha():
            s = _script(ch)
            counts[s] = counts.get(s, 0) + 1
    if not counts:
        return ""
    if counts.get("Kana", 0) and counts.get("Kana", 0) + counts.get("Han", 0) >= max(counts.values()):
        return "Japanese"
    return max(counts, key=lambda s: counts[s])


@functools.lru_cache(maxsize=4096)
def language_of(text: str) -> str:
    """A code for the language of ``text`` (module docstring): ISO 639-1 (``en``, ``de``, ``zh``...), or
    ``cyrillic`` for Cyrillic script; '' when it cannot be said.

    Args:
        text: a claim or a source's text (long texts are sampled: start, middle, end).
    """
    sample = _sample(text or "")
    script = script_of(sample)
    if not script or script == "Other":
        return ""
    if script != "Latin":
        cjk = sum(1 for ch in sample if ch.isalpha() and _script(ch) in ("Han", "Kana", "Hangul"))
        if cjk // 2 + len(_WORD.findall(sample)) < MIN_WORDS:
            return ""
        return _SCRIPT_LANG.get(script, "")
    tokens = _WORD.findall(sample)
    shouting = sum(t.isupper() for t in tokens) * 2 > len(tokens)
    # a word in capitals (MET, DIE, DE) is an acronym, not a function word, unless the text is written in capitals
    words = [w.lower() if shouting or not (w.isupper() and len(w) > 1) else "" for w in tokens]
    if len(tokens) < MIN_WORDS:
        return ""
    hits = sorted(((sum(w in fw for w in words), code) for code, fw in FUNCTION_WORDS.items()), reverse=True)
    (best, code), (second, _) = hits[0], hits[1]
    if best >= MIN_HITS and best / len(words) >= MIN_SHARE and best >= 2 * second:
        return code
    return ""


def language_name(code: str) -> str:
    """``English`` for ``en``...; the code itself when unnamed here."""
    return _NAMES.get(code, code)


def cross_language(claim: str, source_text: str) -> tuple[str, str] | None:
    """``(claim language, source language)`` when both can be said and differ, else None."""
    a = language_of(claim)
    if not a:
        return None
    b = language_of(_sample(source_text))
    if not b or a == b:
        return None
    return a, b
