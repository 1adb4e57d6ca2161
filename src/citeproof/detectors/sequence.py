"""Which comes first: a claim in the source's words that makes the effect the cause or the condition the thing acted
on (issue 28).

Found by the hundred-and-eightieth and hundred-and-eighty-first new users' trials (session 30, held out on `57def2e`),
both *supported* at P(entails) 0.94 and 0.98, every word the source's:

- "the chronic adipose tissue inflammatory response is sufficient to trigger HIF-1α induction" for "These events are
  sufficient to trigger HIF-1α induction, setting off the chronic adipose tissue inflammatory response":
  :func:`effect_made_agent`;
- "they degrade ferrous iron, Fe(II)-heme and biological reductants" for "they degrade in the presence of ferrous
  iron, Fe(II)-heme, or biological reductants": :func:`condition_made_object`.

Each is tried by :func:`citeproof.detectors.reversals.restated_flip`; code shows each: ``polarity_flip`` at 0.9,
``proven``.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from citeproof.detectors.governed import said_where
from citeproof.detectors.terms import restating
from citeproof.model import Tag, TagEvidence
from citeproof.text.normalise import stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS

__all__ = ["condition_made_object", "effect_made_agent"]

_WORD = re.compile(r"[^\W_][\w'+/-]*|[,;:()]")
_RESULTING = re.compile(r"^\W*(?:thereby\s+|thus\s+|and\s+thus\s+|which\s+in\s+turn\s+|in\s+turn\s+)?(?:setting\s+off|"
                        r"leading\s+to|resulting\s+in|causing|triggering|inducing|giving\s+rise\s+to|which\s+(?:leads?|"
                        r"led|results?|resulted|causes?|caused|triggers?|triggered|sets?)(?:\s+(?:off|to|in))?)\b", re.I)
"""A result clause after a finding: what it names comes after the finding's cause."""


def _content(words: list[str]) -> list[str]:
    return [stem(w.lower()) for w in words if w[0].isalnum() and w.lower() not in STOPWORDS and len(w) > 2]


def effect_made_agent(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim's subject is what a sentence restating it names as the result of the same predicate: the claim's
    longest run of words shared with the sentence (four words or more, three of them content words) stands in the
    sentence before a result clause (:data:`_RESULTING`: *setting off*, *leading to*, *which causes*) that holds two content
    words or more of the claim's subject and the sentence's subject holds none of them.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    cw = _WORD.findall(claim_text)
    cl = [w.lower() for w in cw]
    for _passage, sent in restating(claim_text, pool):
        sw = _WORD.findall(sent)
        sl = [w.lower() for w in sw]
        sm = SequenceMatcher(None, cl, sl, autojunk=False)
        first = sm.find_longest_match(0, len(cl), 0, len(sl))
        # the longest run may be the subject itself, moved to the sentence's end: then the run after it in the claim
        # and before it in the sentence
        for m in (first, sm.find_longest_match(first.a + first.size, len(cl), 0, first.b)):
            if tag := _made_agent(cw, sw, m, sent, source_text):
                return tag
    return None


def _made_agent(cw: list[str], sw: list[str], m, sent: str, source_text: str) -> Tag | None:
    """:func:`effect_made_agent` for one shared run ``m`` (a difflib match of claim words ``cw`` and sentence words
    ``sw``)."""
    cl = [w.lower() for w in cw]
    if m.size < 4 or m.a < 2 or len(_content(cw[m.a:m.a + m.size])) < 3:
        return None
    subject = set(_content(cw[:m.a])) - set(_content(cw[m.a:m.a + m.size]))
    after = " ".join(sw[m.b + m.size:])
    if len(subject) < 2 or not _RESULTING.match(after):
        return None
    took = subject & set(_content(sw[m.b + m.size:]))
    if len(took) < 2 or took & set(_content(sw[:m.b])):
        return None
    if any(_says_so(s, cw[:m.a], cl[m.a:m.a + m.size]) for s in split_sentences(source_text or sent)):
        return None
    said = " ".join(w for w in cw[:m.a] if w[0].isalnum())
    return Tag("polarity_flip", f"The claim makes {said!r} the cause where the source names it as the result: "
               f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, after[:120]),), proven=True)


def _says_so(sent: str, subject: list[str], run: list[str]) -> bool:
    """``sent`` has the claim's subject words (content, by stem) before the claim's shared run."""
    low = sent.lower()
    at = low.find(" ".join(run[:3]))
    return at > 0 and set(_content(subject)) <= set(_content(_WORD.findall(sent[:at])))


_CONDITION = re.compile(r"\b(?P<verb>[a-z]{4,})\s+(?:only\s+)?(?:in\s+the\s+presence\s+of|in\s+response\s+to|upon\s+exposure"
                        r"\s+to|on\s+exposure\s+to|when\s+exposed\s+to)\s+(?P<what>[\w()+/-]+(?:\s+[\w()+/-]+)?)", re.I)
"""A verb, then the condition it happens under (*they degrade in the presence of ferrous iron*)."""


def condition_made_object(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """The claim has a verb act on what a sentence restating it names as the condition the verb happens under: "they
    degrade ferrous iron" for "they degrade in the presence of ferrous iron" (:data:`_CONDITION`), and no sentence
    of the source has the verb take that thing as its object.

    Returns:
        A proven ``polarity_flip`` tag at 0.9, or None.
    """
    for _passage, sent in restating(claim_text, pool):
        for m in _CONDITION.finditer(sent):
            verb, what = m.group("verb"), m.group("what")
            made = re.search(rf"\b{re.escape(verb)}\s+(?:the\s+)?{re.escape(what)}", claim_text, re.I)
            if made is None:
                continue
            if any(re.search(rf"\b{re.escape(verb)}\s+(?:the\s+)?{re.escape(what)}", s, re.I)
                   for s in split_sentences(source_text or sent)):
                continue
            return said_where(made.group(0), m.group(0), sent)
    return None
