"""Extraction damage repaired before a word is stored or quoted.

PDF text layers carry three kinds of damage this module undoes:

* **Ligature glyphs mapped to no or the wrong code point.** A font whose
  *fi*/*ff*/*fl*/*ffi*/*ffl* glyph has no usable ToUnicode entry comes out of
  PyMuPDF (without ``TEXT_PRESERVE_LIGATURES``) as U+FFFD: "classi\ufffdcation",
  "\ufffdexibility", "shu\ufffding" in the demo's Deep Review and Sci-Hub PDFs.
  :func:`repair_words` rebuilds each damaged word from a :class:`Vocabulary`:
  every way of filling the gaps with a ligature (or with nothing, for a
  stray glyph) is tried, and the spelling the document itself uses most, else
  the most frequent word of the shipped tokenizer vocabulary, wins. A gap no
  vocabulary word explains gets ``ff`` at a word's end ("tradeo\ufffd" ->
  "tradeoff") and in hexadecimal codes, else the document's most common
  repair (``fi`` when none); a gap that stands alone is dropped.
* **Private-use glyphs** (U+E000-U+F8FF and planes 15-16: icon fonts such
  as Font Awesome's U+F05A) have no meaning outside their font and are
  dropped (:func:`drop_private_use`).
* **Line-end hyphens.** :func:`join_hyphen` decides whether ``classi-`` +
  ``fication`` is one word (joined) or ``interferon-`` + ``dependent`` is a
  hyphenated compound (kept).

The vocabulary is the BERT uncased WordPiece vocabulary that citeproof
already ships with its embedding model (``retrieval/models/tokenizer.json``,
30,522 tokens of which 21,745 are whole lower-case words), widened to
inflections by Snowball stems (PyStemmer: "compartmental" counts because
"compartment" is a word), plus the words of the document being read.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

__all__ = ["Vocabulary", "repair_words", "repair_copied_ligatures", "drop_private_use", "join_hyphen", "clean_glyphs", "LIGATURES", "REPLACEMENT", "is_private_use", "join_spacing_accents"]

LIGATURES = ("fi", "ff", "fl", "ffi", "ffl")
"""The Latin ligatures PDFs set as one glyph, most frequent first (English text)."""

REPLACEMENT = "\ufffd"
"""What PyMuPDF puts where a glyph has no Unicode mapping."""

_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
_DAMAGED = re.compile(r"[^\W_]*\ufffd[\w\ufffd]*|\ufffd")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_MAX_GAPS = 3  # 6**3 candidates at most per word


# TeX's accents as PDF text extraction gives them: a spacing accent beside its letter (``Schw¨ammle``,
# ``ˇSumbera``, ``Spurn´y``) -> the combining mark it stands for
_SPACING = {"¨": "\u0308", "´": "\u0301", "ˇ": "\u030c", "˜": "\u0303", "¸": "\u0327", "˚": "\u030a", "˘": "\u0306", "˝": "\u030b", "˙": "\u0307"}
_SPACING_RE = re.compile("([" + "".join(_SPACING) + "])([A-Za-z\u0131])")


def join_spacing_accents(text: str) -> str:
    """``text`` with each TeX-style spacing accent set before a letter joined to it (``Schw¨ammle`` ->
    ``Schwämmle``, ``ˇSumbera`` -> ``Šumbera``, ``Dmitraˇsinovi´c`` -> ``Dmitrašinović``), NFC-composed.

    The accent goes on the letter after it, as pdfTeX's extracted text prints it; a spacing accent before a
    non-letter is left alone, and so are ``^`` and a backtick (math and TeX quotes). Pure; never raises."""
    if not any(ch in text for ch in _SPACING):
        return text
    return unicodedata.normalize("NFC", _SPACING_RE.sub(lambda m: m.group(2) + _SPACING[m.group(1)], text))


def is_private_use(ch: str) -> bool:
    """True for a code point of a Unicode private-use area (icon-font glyphs)."""
    return bool(_PUA.match(ch))


_PUA_RUN = re.compile(" ?[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]+ ?")


def drop_private_use(text: str) -> str:
    """``text`` without private-use characters (U+E000-U+F8FF, planes 15 and 16).

    An icon between two spaces leaves one space ("See \uf05a Code" -> "See Code");
    one that opens the text takes its following space with it.
    """
    if not _PUA.search(text):
        return text

    def gap(m: re.Match[str]) -> str:
        g = m.group(0)
        return " " if g.startswith(" ") and g.endswith(" ") and m.start() > 0 else ("" if m.start() == 0 else g[0] if g[0] == " " else g[-1] if g[-1] == " " else "")

    return _PUA_RUN.sub(gap, text)


@lru_cache(maxsize=1)
def _shipped_vocabulary() -> dict[str, int]:
    """Whole lower-case words of the shipped WordPiece vocabulary -> rank (its token id).

    BERT's vocabulary lists whole words roughly by corpus frequency, so a
    lower id is a more common word.
    """
    ref = resources.files("citeproof") / "retrieval" / "models" / "tokenizer.json"
    vocab = json.loads(ref.read_text(encoding="utf-8"))["model"]["vocab"]
    return {w: i for w, i in vocab.items() if w.isalpha() and w.islower() and len(w) > 1}


@lru_cache(maxsize=1)
def _shipped_stems() -> frozenset[str]:
    from citeproof.text.normalise import stem_words

    words = [w for w in _shipped_vocabulary() if len(w) >= 4]
    return frozenset(stem_words(words))


class Vocabulary:
    """Which letter strings are words: the document's own, then the shipped vocabulary.

    Args:
        texts: the document's text (any pieces); its words, lower-cased,
            are counted, damaged ones (holding U+FFFD) left out.
    """

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.document: Counter[str] = Counter()
        self._known: dict[tuple[str, bool], bool] = {}
        self.repaired: dict[str, str] = {}
        """Damaged word as printed -> its repair, filled by :func:`repair_words`."""
        self.add("\n".join(texts))

    def add(self, text: str) -> None:
        """Count the clean words of ``text`` (hyphenated compounds count whole and by parts)."""
        if REPLACEMENT in text:
            text = _DAMAGED.sub(" ", text)  # "tradeo\ufffd" is no evidence that "tradeo" is a word
        words = _WORD.findall(text.lower())
        self.document.update(words)
        self.document.update(part for w in words if "-" in w for part in w.split("-"))

    def known(self, word: str, shipped_only: bool = False) -> bool:
        """True when ``word`` (any case) is a word of the document or of the shipped vocabulary.

        A shipped word counts with its inflections: ``shuffling``,
        ``compartmental`` are words because their Snowball stems are stems
        of vocabulary words (or vocabulary words themselves). ``shipped_only`` ignores the document (whose
        line-start fragments such as "fication" are no words).
        """
        w = word.lower()
        if not shipped_only and self.document.get(w):
            return True
        key = (w, shipped_only)
        hit = self._known.get(key)
        if hit is None:
            hit = self._known[key] = _in_shipped(w)
        return hit

    def preference(self, word: str) -> tuple[int, int]:
        """Sort key, lower is better: the document's own count first, then vocabulary rank."""
        w = word.lower()
        return (-self.document.get(w, 0), _shipped_vocabulary().get(w, 10**6))


def _in_shipped(w: str) -> bool:
    if w in _shipped_vocabulary():
        return True
    if len(w) < 4 or not w.isalpha():
        return False
    from citeproof.text.normalise import stem_words

    st = stem_words([w])[0]
    return st in _shipped_stems() or (len(st) >= 4 and st in _shipped_vocabulary())


def _recase(template: str, word: str) -> str:
    letters = [c for c in template if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _fill(word: str, gaps: int) -> list[tuple[str, tuple[str, ...]]]:
    """Every way of filling ``word``'s gaps: a ligature, or nothing for a gap that opens the word (a stray bullet)."""
    parts = word.split(REPLACEMENT)
    out: list[tuple[str, tuple[str, ...]]] = [("", ())]
    for i, part in enumerate(parts):
        out = [(s + part, used) for s, used in out]
        if i < gaps:
            options = LIGATURES + ("",) if i == 0 and not part else LIGATURES
            out = [(s + o, used + (o,)) for s, used in out for o in options]
    return out


def repair_words(text: str, vocabulary: Vocabulary, counts: Counter[str] | None = None) -> str:
    """``text`` with every U+FFFD rebuilt or removed (see the module docstring).

    Args:
        text: text that may hold U+FFFD.
        vocabulary: the document's :class:`Vocabulary`.
        counts: ligature -> how often it repaired a word so far in this
            document (updated in place); the most common one fills a gap
            inside a word that no vocabulary word explains.

    Returns:
        Text without U+FFFD; words keep their case pattern ("Classi\ufffdcation"
        -> "Classification", "\ufffdRST" -> "FIRST"). Only the damaged words change.
    """
    if REPLACEMENT not in text:
        return text
    counts = counts if counts is not None else Counter()

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        done = vocabulary.repaired.get(word)
        if done is None:
            done = vocabulary.repaired[word] = rebuild(word)
        return done

    def rebuild(word: str) -> str:
        gaps = word.count(REPLACEMENT)
        letters = word.replace(REPLACEMENT, "")
        if not letters or gaps > _MAX_GAPS:
            return letters
        cands = [(w, used) for w, used in _fill(word.lower(), gaps) if vocabulary.known(w)]
        if cands:
            best, used = min(cands, key=lambda c: (c[1].count(""), vocabulary.preference(c[0]), [LIGATURES.index(u) if u else 9 for u in c[1]]))
            counts.update(u for u in used if u)
            return _recase(word, best)
        common = counts.most_common(1)[0][0] if counts else LIGATURES[0]
        hexlike = bool(re.fullmatch(r"[0-9a-f]*\d[0-9a-f]*", letters))  # a commit hash or DOI code: ff is the only hex ligature
        out = []
        parts = word.split(REPLACEMENT)
        for i, part in enumerate(parts):
            out.append(part)
            if i < gaps:
                after = parts[i + 1]
                if hexlike:
                    out.append("ff")
                elif part and not after:
                    out.append("ff")  # word-final: tradeoff, dropoff, Teschendorff
                else:
                    out.append(common)
        return _recase(word, "".join(out).lower()) if word.lower() != word else "".join(out)

    fixed = _DAMAGED.sub(fix, text)
    return re.sub(r"  +", " ", fixed)


_MISCOPIED = re.compile(r"[^\W\d_]*[\u00de\ufffd][^\W\d_\u00de\ufffd]*(?:[\u00de\ufffd][^\W\d_\u00de\ufffd]*)*")
"""A word holding U+00DE (Þ) or U+FFFD: where a text copied out of a PDF viewer carries a ligature glyph its font
maps to the wrong code point ("diÞcult", "signiÞcant", "Þrst": TeX fonts that put *ffi* / *fi* at 0xDE)."""


def repair_copied_ligatures(text: str, vocabulary: Vocabulary) -> tuple[str, list[tuple[str, str]]]:
    """``text`` (a claim copied from a PDF) with each mis-copied ligature word spelt as the cited source spells it.

    A word holding Þ (U+00DE) or U+FFFD is rebuilt the way :func:`repair_words` rebuilds a source's words (each
    gap filled with one of :data:`LIGATURES`), but the repair is taken only when the rebuilt word is a word **of
    the document** ``vocabulary`` was made from (the cited source): an Icelandic "Þing" stays, a "diÞcult" beside
    a source that says "difficult" becomes "difficult". Found on the scale job (issue 27): a verbatim sentence
    copied from a PDF whose OpenSans font maps *ffi* to Þ was judged unlike its own source sentence.

    Args:
        text: the claim's text.
        vocabulary: the cited source's :class:`Vocabulary`.

    Returns:
        ``(the text repaired, [(word as written, word as repaired), ...] in text order)``; ``(text, [])`` when
        nothing is proven.
    """
    if "\u00de" not in text and REPLACEMENT not in text:
        return text, []
    changed: list[tuple[str, str]] = []

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        probe = word.replace("\u00de", REPLACEMENT).lower()
        gaps = probe.count(REPLACEMENT)
        if gaps > _MAX_GAPS or not probe.replace(REPLACEMENT, ""):
            return word
        cands = [(w, used) for w, used in _fill(probe, gaps) if "" not in used and vocabulary.document.get(w)]
        if not cands:
            return word
        best = min(cands, key=lambda c: vocabulary.preference(c[0]))[0]
        rest = re.sub("[\u00de\ufffd]", "", word)
        out = _recase(re.sub("[\u00de\ufffd]", "X" if rest.isupper() and len(rest) >= 2 else "x", word), best)  # the glyph says nothing of the case
        changed.append((word, out))
        return out

    return _MISCOPIED.sub(fix, text), changed


def clean_glyphs(text: str, vocabulary: Vocabulary, counts: Counter[str] | None = None) -> str:
    """:func:`drop_private_use` then :func:`repair_words`: text a reader can read."""
    return repair_words(drop_private_use(text), vocabulary, counts)


_TAIL = re.compile(r"([^\W\d_]+)-$")
_HEAD = re.compile(r"^([^\W\d_]+)")


def join_hyphen(left: str, right: str, vocabulary: Vocabulary) -> bool | None:
    """Whether a line ending ``left`` (with ``-``) and the next line ``right`` make one word.

    Args:
        left: the end of the first line, ending in ``-`` (``"the classi-"``).
        right: the start of the next line (``"fication of"``).
        vocabulary: the document's :class:`Vocabulary`.

    Returns:
        ``True``: drop the hyphen and join (``classi-`` + ``fication``);
        ``False``: keep the hyphen and join without a space, a hyphenated
        compound (``interferon-dependent``, ``n-tridecanal``, ``long-term``,
        ``non-compartmental``, ``SARS-CoV``); ``None``: no hyphenation here
        (``left`` does not end in letter + ``-``).

    Decided in this order: a fragment of one letter keeps the hyphen; a
    next line that does not start lower-case keeps it; the document's own
    spelling elsewhere (joined or hyphenated) decides; a joined form that is
    a word joins; a right part that is a word of three letters or more keeps
    the hyphen (a compound); anything else is a word split by the typesetter
    and joins.
    """
    m = _TAIL.search(left)
    if not m:
        return None
    lf = m.group(1)
    h = _HEAD.match(right)
    if not h or not right[:1].islower():
        return False
    rf = h.group(1)
    if len(lf) <= 1:
        return False
    joined, hyphenated = (lf + rf).lower(), f"{lf}-{rf}".lower()
    doc_joined, doc_hyph = vocabulary.document.get(joined, 0), vocabulary.document.get(hyphenated, 0)
    if doc_joined or doc_hyph:
        return doc_joined >= doc_hyph
    if vocabulary.known(joined):
        return True
    if len(rf) >= 3 and vocabulary.known(rf, shipped_only=True):
        return False
    return True
