"""``uncited_claim``: a sentence that states a specific finding and cites nothing (issue 25, part 1).

A diagnostic with file and line, never a verdict. A sentence is flagged when all of these hold:

* it stands outside a section that reports the author's own work (:data:`OWN_SECTIONS`: *Results*, *Methods*...),
  in a prose paragraph that cites elsewhere, in at least :data:`CITED_SHARE` of its other sentences (a
  background paragraph: an uncited finding beside the cited ones is more likely a forgotten citation than the
  author's own result);
* it states a specific finding (:func:`finding_cue`): a measured number (a percentage, a fold change, a p-value,
  a count of studies or subjects), a comparison (``more ... than``, ``outperforms``), a causal or associative
  verb (``causes``, ``leads to``, ``is associated with``), or a report of others' work (``studies have shown``,
  ``it has been reported``);
* it is not the author's own (:func:`own_or_exempt`): no ``we``/``our``/``this paper``, no pointer to the
  document's own figures, tables or sections, no definition (``is defined as``, ``refers to``), no question, and
  no opening that refers back to the sentence before (``They``, ``These results``, ``In that study``), which the
  previous sentence's citation covers; right after a cited sentence, no demonstrative noun phrase (``this
  balance``, ``such changes``) that points back into it; and not right after a sentence in the author's own voice
  (``We show that ...``), which it goes on with.

The cues are word lists, chosen on the manubot meta-review and checked on the texts listed in
``docs/beyond.md`` (precision measured there, judged by reading each flag).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeproof.assist.paragraphs import Paragraph, Sentence
from citeproof.text.stems import content_stems

__all__ = ["UncitedClaim", "finding_cue", "own_or_exempt", "uncited_claims", "MIN_WORDS"]

MIN_WORDS = 8
"""Sentences shorter than this (in words) are transitions or headings run into prose; never flagged."""

CITED_SHARE = 0.5
"""Least share of the paragraph's other sentences that cite for a sentence in it to be flagged. A background
paragraph cites most of its sentences; a results or methods paragraph that cites one earlier method among the
author's own measurements does not (on the cv-papers PDFs, flags in paragraphs below this share were mostly the
paper's own results: ``docs/beyond.md``)."""

_NUM = (r"\b\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b|-?fold\b|times\b)"
        r"|\b[pP]\s?[<=>≤]\s?0?\.\d+|\b(?:OR|HR|RR|CI|AUC|r|R2|R\^2)\s?[=:]\s?\d"
        r"|\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\s?(?:million|billion|thousand)\b"
        r"|\b(?:n|N)\s?=\s?\d+|\b\d+\s+(?:of\s+(?:the\s+)?)?\d*\s*(?:studies|patients|participants|subjects|cases|papers|articles|"
        r"journals|trials|samples|genes|users|projects|repositories|species|countries|respondents|individuals|people|"
        r"researchers|scientists|authors|contributors|citations|downloads|children|women|men|adults|mice|cells)\b")
_COMPARE = (r"\b(?:more|less|fewer|greater|higher|lower|faster|slower|better|worse|larger|smaller|stronger|weaker|"
            r"cheaper|longer|shorter)\b(?:\s+\w+){0,4}\s+than\b|\boutperform\w*|\bsuperior to\b|\binferior to\b|"
            r"\bcompared (?:to|with)\b|\bmajority of\b|\bmost (?:\w+ ){0,2}(?:are|were|have|had|use|used)\b")
_CAUSAL = (r"\b(?:caus(?:e|es|ed|ing)|lead(?:s|ing)? to|led to|result(?:s|ed)? in|contribut(?:e|es|ed) to|"
           r"(?:is|are|was|were|been) (?:strongly |positively |negatively |significantly )?(?:associated|correlated|linked) with|"
           r"correlat(?:e|es|ed) with|increas(?:e|es|ed)|decreas(?:e|es|ed)|reduc(?:e|es|ed)|improv(?:e|es|ed)|"
           r"enhanc(?:e|es|ed)|inhibit(?:s|ed)?|promot(?:e|es|ed)|induc(?:e|es|ed)|prevent(?:s|ed)?|predict(?:s|ed)|"
           r"accelerat(?:e|es|ed)|doubl(?:es|ed)|tripl(?:es|ed)|(?:is|are|was|were) responsible for)\b")
_REPORTED = (r"\b(?:stud(?:y|ies)|research|evidence|analys[ie]s|surveys?|experiments?|trials?|reports?|literature|work|"
             r"investigations?|data|findings|authors|researchers|scientists)\s+(?:\w+\s+){0,3}?(?:ha(?:ve|s|d)\s+)?"
             r"(?:shown|showed|show|shows|demonstrated|demonstrates?|found|finds?|reported|reports|revealed|reveals?|suggests?|"
             r"suggested|indicated?|indicates|confirmed|established|documented|estimated|observed)\b"
             r"|\bit (?:has been|was|is) (?:shown|reported|demonstrated|found|estimated|observed|well[- ]known|known)\b"
             r"|\b(?:is|are) (?:well[- ])?known to\b|\baccording to (?:a |the |one |recent )?(?:\w+ )?(?:stud(?:y|ies)|surveys?|reports?|estimates?|"
             r"data|analys[ie]s|census|statistics)\b|\bha(?:s|ve) been shown\b|\bpreviously (?:shown|reported|found|described|"
             r"demonstrated|observed)\b")
_NUMBER = re.compile(_NUM)
_CUES = [("number", _NUMBER), ("comparison", re.compile(_COMPARE, re.I)), ("causal", re.compile(_CAUSAL, re.I)),
         ("reported", re.compile(_REPORTED, re.I))]

_OWN = re.compile(r"\b(?:[Ww]e|[Oo]urs?|us|[Oo]urselves|[Mm]y)\b|\bI\b|\b(?:[Tt]his|[Tt]he present|[Tt]he current) (?:study|paper|work|article|review|"
                  r"manuscript|report|thesis|chapter|section|survey|analysis|approach|method|tool|system)\b|\bherein\b|\bhere,? we\b"
                  r"|\b(?i:Table|Tables|Figure|Figures|Fig|Figs|Section|Sections|Eq|Equation|Appendix|Supplementary)\.?\s*[A-Z]?\d"
                  r"|\b(?i:personal communication|unpublished|data not shown)\b"
                  r"|\b(?:see|in) (?:Table|Figure|Fig|Section)\b|\b(?:above|below)\b")
_INTERPRETS = re.compile(r"\b(?:the|these|present|current) (?:results|data|findings|analys[ie]s|observations)\b(?: \w+){0,3} "
                         r"(?:indicate|suggest|show|demonstrate|reveal|confirm|support)|\bindicates? that\b|\blikely (?:derive|reflect|explain|"
                         r"due|because|result)|\bit is (?:likely|possible|plausible|conceivable|tempting to speculate|reasonable to (?:assume|suggest)) that\b|"
                         r"\bpresumably\b|\b(?:is|are) (?:predicted|hypothesi[sz]ed|speculated|proposed) to\b", re.I)
_INFERENCE = re.compile(r"^(?:Again|Therefore|Thus|Hence|Taken together|Together|In summary|In conclusion|Overall|Collectively|"
                        r"To summari[sz]e|To sum up|In sum|In short|Altogether),? ")
_LEGEND = re.compile(r"\b(?:whiskers?|error bars?|box plots?|scatter ?plots?|heat ?maps?|histograms?|dashed lines?|dotted lines?|"
                     r"(?:higher|lower) scores correspond|shown in (?:red|blue|green|grey|gray|black))\b|\bwww\.|https?://"
                     r"|\([A-H]\)[;,.].*\([A-H]\)[;,.]", re.I)
_DEFINITION = re.compile(r"\b(?:is|are) (?:defined|called|termed|known as|referred to|characteri[sz]ed as)\b|\brefers? to\b|\bdenotes?\b|\bstands for\b"
                         r"|\b(?:generally |commonly |also |often )?(?:referred to|known) as\b|\bwe (?:define|call|denote)\b|\bi\.e\.|\bmeans that\b|\bis a (?:type|kind|form|class|set|measure) of\b", re.I)
_BACK = re.compile(r"^(?:They|Their|Them|These|This|Those|That|Such|It|Its|He|She|His|Her|The (?:authors?|study|studies|same|"
                   r"latter|former|results?|findings?|analysis|survey|trial|paper|work|team|researchers|effects?|outcomes?|"
                   r"(?:primary|secondary|main)(?: \w+)? (?:outcome|end ?point)s?)|(?:Prespecified|Pre-specified|Post[- ]hoc|Subgroup|"
                   r"Secondary|Sensitivity|Exploratory|Follow-up)(?: \w+)? analys[ie]s\b|In (?:that|this|their|"
                   r"his|her|the same|a follow-up|both|each|these) |Both|Each of|Of these|Among them|Similarly|Likewise|"
                   r"Additionally|Furthermore|Moreover|Also|In addition|In contrast|Conversely|However, (?:they|their|these|this|it))\b")
_DEMONSTRATIVE = re.compile(r"\b(?:this|these|such) (?!(?:as|is|was|are|were|has|have|had|can|could|may|might|will|would|should|must|"
                            r"does|did|do|in|of|to|and|or|the|a|an|it|they|we|if|when|which|who|whose)\b)[a-z][a-z-]+\b", re.I)
"""A demonstrative noun phrase (``this balance``, ``these mechanisms``, ``such changes``; not ``those``, mostly a pronoun: ``those found in``): it names what the text
set up before; right after a cited sentence, that sentence's citation covers it (issue 25: in the PMC sample,
"will upset this balance" and "Part of this process" continued the cited sentence before them)."""

_AUTHOR_VOICE = re.compile(r"\b(?:[Ww]e|[Oo]urs?|[Oo]urselves)\b|\b(?:[Tt]his|[Tt]he present|[Tt]he current) (?:study|paper|work|article|"
                           r"manuscript|report|thesis|analysis)\b")
"""The author speaking of their own work (not an interpretation such as *Together, these results*, which in a review
sums up the cited work)."""

_NEW_STUDY = re.compile(r"\b(?:[Aa]|[Aa]nother|[Oo]ne|[Aa] recent|[Aa] later|[Aa] second|[Aa] further|[Aa] large|[Aa] single[- ]\w+) (?:\w+[- ])?"
                        r"(?:study|trial|survey|analysis|meta-analysis|report|review|cohort)\b|\b(?:[Oo]ther|[Rr]ecent|[Ss]everal|[Mm]any) "
                        r"(?:studies|trials|surveys|reports)\b")
"""A sentence that brings in a study of its own (``A recent study from China reported 40% ...``): not a continuation."""

NEIGHBOUR_SHARE = 0.25
"""A sentence right after a cited one is flagged in a paragraph where at least this share of the other sentences
cite (manubot's paragraphs cite one sentence in three or four)."""

_STATS = re.compile(r"\b(?:[pPnNr]|OR|HR|RR|CI|R2)\s?[=<>≤≥]")
_MATH = re.compile(r"[=≤≥±∑∫√∂∇→⇒]|\b[a-zA-Z]_?\{?[ijk]\}?\b\s|\b(?:eq|equation)s?\b|\b[A-Z][a-z]? ?[ij]{1,2} ?=", re.I)

OWN_SECTIONS = re.compile(r"\b(?:results?|methods?|methodology|materials|experiments?|experimental|evaluation|implementation|"
                          r"findings|data collection|analysis|study design|research design|statistical|procedure|ablation)\b", re.I)
"""Sections that report the author's own work: no sentence in them, or in the sub-headings after them up to one of
:data:`OTHER_SECTIONS`, is flagged (in the PMC articles, specific numbers under *Results* and *Methods* were the
paper's own measurements)."""

OTHER_SECTIONS = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:[IVX]+\.?\s+)?(?:introduction|background|discussion|conclusions?|"
                            r"related work|literature review|review of|overview|summary|outlook|limitations|future|perspectives?|"
                            r"abstract|references|acknowledge?ments?|concluding)\b", re.I)
"""Headings that end a part about the author's own work. A heading that is neither this nor one of
:data:`OWN_SECTIONS` is taken for a sub-heading and stays in its part (plain text has no heading levels)."""

_REFERENCE_ENTRY = re.compile(r"^(?:[*†‡§]|[A-Z][A-Za-z'\-]+ [A-Z]{1,3}(?:,| et al\.| and)|Click here|\([A-Z]\) )")
_BACK_INNER = re.compile(r"^(?:[A-Z][a-z]+(?:ly)?, )(?:it|they|this|these|their|its|such)\b|\b(?:these|those|such) (?:data|results|findings|"
                         r"studies|observations|reports|experiments|analyses)\b", re.I)
_HEDGE_OPINION = re.compile(r"\b(?:should|must|ought|need to|needs to|will require|will need|(?:is|are) needed|(?:is|are) essential|could|might|would|may|can|hope|believe|argue|propose|envision|"
                            r"imagine|recommend|encourage|let us|let's|(?:has|have|had) the potential to)\b", re.I)


_TO_BEFORE = re.compile(r"\b(\w+) to\s+$")
_FINDING_TO = frozenset("shown known found reported thought believed likely appears appear appeared seems seem seemed proven "
                        "demonstrated due leads lead led contribute contributes contributed able expected predicted suggested been "
                        "observed noted said tend tends tended".split())
"""Words before ``to`` that make a following verb a reported effect (``shown to reduce``, ``due to increased``); before
any other ``to`` the verb is a purpose or a plan (``cancel the meeting to promote social distancing``), no finding."""


def _purpose(text: str, start: int) -> bool:
    m = _TO_BEFORE.search(text[:start])
    return m is not None and m.group(1).lower() not in _FINDING_TO


def finding_cue(text: str) -> tuple[str, str] | None:
    """The first cue that makes ``text`` a specific finding: ``(kind, matched words)``, else None.

    ``kind`` is ``number``, ``comparison``, ``causal`` or ``reported`` (see the module docstring). Years
    (``in 2016``) and version numbers are no numbers here: only the forms in the ``number`` pattern count. A causal
    verb as a purpose (``to promote social distancing``) is no cue; after ``shown to``, ``known to``, ``due to``... it is.
    """
    for kind, rx in _CUES:
        for m in rx.finditer(text):
            if kind == "causal" and _purpose(text, m.start()):
                continue
            return kind, m.group(0)
    return None


def own_or_exempt(text: str) -> str:
    """Why ``text`` is not a claim that needs a citation ('' when it may need one).

    Returns ``own`` (the author's own work or document), ``definition``, ``question``, ``refers back`` (an opening
    that continues the previous sentence's cited report), ``opinion`` (a modal or recommendation with no number)
    ``short`` (fewer than :data:`MIN_WORDS` words), ``technical`` (an equation or symbols: the author's derivation) or ``not prose`` (a reference-list entry, a file listing, a figure legend, a sentence naming a web address).
    """
    stripped = text.strip()
    if len(stripped.split()) < MIN_WORDS:
        return "short"
    if stripped.endswith("?"):
        return "question"
    if _REFERENCE_ENTRY.match(stripped):
        return "not prose"
    if _MATH.search(_STATS.sub(" ", stripped)):
        return "technical"
    if _OWN.search(stripped):
        return "own"
    if _INTERPRETS.search(stripped) or _INFERENCE.match(stripped):
        return "own"
    if _LEGEND.search(stripped):
        return "not prose"
    if _DEFINITION.search(stripped):
        return "definition"
    if _BACK.match(stripped) or _BACK_INNER.search(stripped):
        return "refers back"
    cue = finding_cue(stripped)
    if _HEDGE_OPINION.search(stripped) and (cue is None or cue[0] != "number"):
        return "opinion"
    return ""


@dataclass(frozen=True)
class UncitedClaim:
    """One sentence that states a specific finding and cites nothing.

    Attributes:
        sentence: the sentence (text, raw, line from 1).
        cue: the cue kind (``number``, ``comparison``, ``causal``, ``reported``).
        words: the words that matched the cue.
        paragraph_line: line (from 1) where its paragraph starts.
    """

    sentence: Sentence
    cue: str
    words: str
    paragraph_line: int


def uncited_claims(paragraphs: list[Paragraph]) -> list[UncitedClaim]:
    """The sentences of citing paragraphs that state a specific finding and cite nothing, in document order.

    Args:
        paragraphs: from :func:`citeproof.assist.paragraphs.markdown_paragraphs` or
            :func:`~citeproof.assist.paragraphs.text_paragraphs`.

    Returns:
        One :class:`UncitedClaim` per flagged sentence (see the module docstring for the rule).
    """
    out: list[UncitedClaim] = []
    section, own_part = None, False
    for para in paragraphs:
        if para.section != section:
            section = para.section
            if OWN_SECTIONS.search(section):
                own_part = True
            elif OTHER_SECTIONS.search(section):
                own_part = False
            # any other heading is a sub-heading: it stays in the part it is in ("Materials and methods" >
            # "Processing sequencing samples")
        if not para.cites or own_part:
            continue
        cited = sum(1 for s in para.sentences if s.citekeys)
        others = len(para.sentences) - 1
        if others <= 0:
            continue
        for k, s in enumerate(para.sentences):
            after_cite = k > 0 and bool(para.sentences[k - 1].citekeys)
            share = cited / others
            if share < CITED_SHARE and not (after_cite and share >= NEIGHBOUR_SHARE):
                continue
            if s.citekeys or own_or_exempt(s.text):
                continue
            cue = finding_cue(s.text)
            if any(p.citekeys for p in para.sentences[:k]) and _DEMONSTRATIVE.search(s.text):
                continue  # continues what the cited sentence before it set up
            prev = para.sentences[k - 1].text if k > 0 else ""
            shared = content_stems(s.text) & content_stems(prev) if after_cite and cue is not None and cue[0] == "number" else set()
            if shared and not _NEW_STUDY.search(s.text) and (len(shared) >= 2 or _NUMBER.search(prev)):
                continue  # more figures of the study the sentence before cited ("The mid-point ... was 5%")
            if k > 0 and not para.sentences[k - 1].citekeys and _AUTHOR_VOICE.search(para.sentences[k - 1].text):
                continue  # right after the author's own report ("we show that ..."): it goes on with it
            if cue is not None:
                out.append(UncitedClaim(s, cue[0], cue[1], para.line))
    return out
