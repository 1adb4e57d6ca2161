"""``term_swap``: the sentence that restates the claim holds another content term where the claim has one.

"Loss of X causes lung damage" against "Loss of X causes memory damage": every other word agrees, one
content term differs. Code proves it: the claim and the evidence sentence that restates it (the one sharing
most of the claim's content words, at least :data:`RESTATE_AT`) are aligned word by word
(:func:`citeproof.text.stems.stem_opcodes`: difflib's Ratcliff/Obershelp over stems), and a replaced run of one
or two content words on each side, with agreeing words around it, is a swap. The message is a word diff:
"the claim says 'heart' where the source says 'lung'".

Not swaps (each is checked): inflections (same stem, :func:`citeproof.text.stems.stem`), one word inside the
other (``receptor`` / ``co-receptor``), an abbreviation the source spells out (``COTS`` for
``crown-of-thorns starfish``, by initials or a parenthesis in the source), the paraphrase vocabulary of
:data:`SYNONYMS` (reporting verbs, common medical synonyms), common verbs (``holds`` for ``contains``), numbers
(``number_drift``) and direction or negation words (``polarity_flip``): :mod:`citeproof.detectors.terms` says
what one term is.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from citeproof.detectors.cues import BE_FORMS, HAVE_FORMS, MODALS
from citeproof.detectors.frames import initials, member_of_another_kind, name_in_frame, run_swapped
from citeproof.detectors.farswaps import _ADVERB, SOURCE_SWAPS_MAX, source_swaps
from citeproof.detectors.lexicon import (DIRECTION, KINDS, REPORTING, SYNONYMS, labelled_swap, names_writers, negated_alike,
                                         numbered_name_swap, proper_name, siblings, spelled_otherwise)
from citeproof.detectors.methods import method_swapped, methods_in
from citeproof.detectors.quantities import TIME_UNITS
from citeproof.detectors.terms import (RESTATE_AT, _content, _is_name, _is_verb, _related, _spells, _words, names_referent,
                                       kind_of_defined, same_term, stated_in)
from citeproof.model import Tag, TagEvidence
from citeproof.text.abbreviations import as_the_source_writes
from citeproof.text.normalise import STOPWORDS, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import overlap_score, sentence_stems, stem_frequency, stem_opcodes

__all__ = ["ANCHOR_AT", "RESTATE_AT", "SOURCE_SWAPS_MAX", "SYNONYMS", "anchored_swaps", "compared_sentence",
           "detect_term_swap", "restating_sentence", "source_swaps"]



def restating_sentence(claim_text: str, evidence_text: str | None, at: float = RESTATE_AT) -> str | None:
    """The evidence sentence that restates the claim: the one sharing most of its content words, if at least ``at``.

    Args:
        claim_text: the claim.
        evidence_text: the evidence passage (or its focused sentences).
        at: least :func:`~citeproof.text.stems.overlap_score`, in [0, 1].

    Returns:
        The sentence, or None when no sentence comes that close.
    """
    best, best_score = _closest_sentence(claim_text, evidence_text)
    return best if best is not None and best_score >= at else None


def _closest_sentence(claim_text: str, evidence_text: str | None) -> tuple[str | None, float]:
    """The evidence sentence sharing most of the claim's content words and that share (the first of equals)."""
    best, best_score = None, 0.0
    for sent, *_ in sentence_stems(evidence_text or ""):  # cached: a whole source is split once, not per claim
        sc = overlap_score(claim_text, sent)
        if sc > best_score:
            best, best_score = sent, sc
    return best, best_score



_DESIGNATION = re.compile(r"[A-Z]|I{1,3}|IV|VI{0,3}|[GM][012]")
"""A one-letter or roman designation (*influenza A*, *hepatitis B*, *class II*, *phase III*, *T lymphocytes*), or a
phase of the cell cycle (*G2 phase* for *S phase*, a 64th trial)."""


def _designated(cw: list[str], sw: list[str], op: str, i1: int, i2: int, j1: int, j2: int) -> tuple[list[str], list[str]] | None:
    """For a replace of one designation by another after the same content word (*influenza B* / *influenza A*) or,
    inside the sentence, before it (*blood B lymphocytes* / *blood T lymphocytes*, two nineteenth trials), the two
    designations and the word they designate (``(["B"], ["A"], "influenza", True)``, the last True when the word
    stands before them); else None."""
    if (op == "replace" and i2 - i1 == 1 and j2 - j1 == 1 and i1 > 0 and j1 > 0 and cw[i1] != sw[j1]
            and _DESIGNATION.fullmatch(cw[i1]) and _DESIGNATION.fullmatch(sw[j1])):
        if cw[i1 - 1].lower() == sw[j1 - 1].lower() and _content(cw[i1 - 1]):
            return [cw[i1]], [sw[j1]], cw[i1 - 1], True
        if i2 < len(cw) and j2 < len(sw) and cw[i2].lower() == sw[j2].lower() and _content(cw[i2]):
            return [cw[i1]], [sw[j1]], cw[i2], False
    return None



def compared_sentence(claim_text: str, evidence_text: str | None, source_text: str = "") -> tuple[str | None, float]:
    """The sentence :func:`detect_term_swap` compares the claim with, and its share of the claim's content words: the
    evidence sentence closest to the claim, or the source's when the evidence holds none that restates it (the
    passage judged best may be another sentence of a source written a sentence per line)."""
    sent, share = _closest_sentence(claim_text, evidence_text)
    if source_text and share < RESTATE_AT:
        wider, wider_share = _closest_sentence(claim_text, source_text)
        if wider_share > share:
            sent, share = wider, wider_share
    return sent, share



TOPIC_SENTENCES = 3
"""Least source sentences holding a word for it to be the source's topic (:func:`_topic_word`)."""

TOPIC_SHARE = 0.25
"""Least share of the source's sentences holding a word for it to be the source's topic: in a full text "previously"
stands in a dozen sentences of three hundred (a faithful citation's added "previously" had proven a swap)."""


def _topic_word(word: str, source_text: str) -> bool:
    """``word`` (a content word, no adverb) stands, by stem, in at least :data:`TOPIC_SENTENCES` sentences and
    :data:`TOPIC_SHARE` of the source's: a word the claim adds that names the source's subject ("inositol bis- and
    tris-phosphate" for the sentence's "the bis- and tris-phosphate", in a source about inositol phosphates; an eighth
    trial) is context, not another finding."""
    if not source_text or _ADVERB.search(word):
        return False
    counts, n = _sentences_with(source_text)
    have = counts.get(stem(word.lower()), 0)
    return have >= TOPIC_SENTENCES and have >= TOPIC_SHARE * n


@lru_cache(maxsize=64)
def _sentences_with(source_text: str) -> tuple[dict[str, int], int]:
    """(stem -> how many sentences of ``source_text`` hold it, the sentences' count)
    (:func:`citeproof.text.stems.stem_frequency`; cached: one source, many claims)."""
    sents = split_sentences(source_text)
    return stem_frequency(sents), len(sents)


def detect_term_swap(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``term_swap`` when the restating evidence sentence has another content term in the claim's term's place.

    The claim and :func:`restating_sentence` are aligned on word stems; each replaced run of one or two words
    on each side whose words are content words (3+ letters, not stop words), flanked by agreeing words, and
    not related (:func:`_related`: inflection, containment, :data:`SYNONYMS`, direction word, abbreviation)
    is a swap. Confidence 0.9 when it is the only difference of content words between the two and the
    sentence holds at least 75% of the claim's content words, 0.7 otherwise (reported, not escalating).

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage (or its focused sentences), or None.
        **context: ``source_text`` (str), the whole source, used to find an abbreviation's definition, and its
            closest sentence when the evidence holds none that restates the claim.

    Returns:
        At most one ``term_swap`` tag with one :class:`TagEvidence` per swapped run (claim words, source words).
    """
    source_text = context.get("source_text") or ""
    sent, share = compared_sentence(claim_text, evidence_text, source_text)  # once, for both paths
    if sent is None or share < ANCHOR_AT:
        return _framed(claim_text, source_text)
    if share < RESTATE_AT:  # (an organism the source names nowhere, half the words restated: a 109th trial's "a
        # yeast guanine nucleotide exchange factor" for "a human GEF")
        method = method_swapped(claim_text, sent, source_text) if share >= 0.5 else None
        method = method if method and method.claim_span in methods_in(claim_text, 1).values() else None  # organisms only
        return (_anchored_tag(claim_text, sent, source_text) or _framed(claim_text, source_text)
                or _source_tag(claim_text, source_text)
                or ([Tag("term_swap", _message(method, sent), 0.9, (method,), proven=True)] if method else []))
    tags = _swap_tags(claim_text, sent, share, source_text)
    if not (tags and tags[0].proven) and share >= 0.75 and (label := labelled_swap(claim_text, sent)):
        return [Tag("term_swap", _message(label, sent), 0.9, (label,), proven=True)]
    if not (tags and tags[0].proven) and (named := numbered_name_swap(claim_text, sent)):
        return [Tag("term_swap", _message(named, sent), 0.9, (named,), proven=True)]
    if not (tags and tags[0].proven) and (method := method_swapped(claim_text, sent, source_text)):
        return [Tag("term_swap", _message(method, sent), 0.9, (method,), proven=True)]
    if not (tags and tags[0].proven) and (folded := as_the_source_writes(sent, source_text)) != sent:
        # the sentence defines a term the claim names short ("Low density lipoprotein (LDL) cholesterol" against
        # the claim's "HDL cholesterol", a 24th trial): compared as the source writes it after
        found = _swap_tags(claim_text, folded, overlap_score(claim_text, folded), source_text)
        if found and found[0].proven:
            return found
        gone = {w.lower() for w in _words(sent)} - {w.lower() for w in _words(folded)}
        if tags and not gone & {w.lower() for w in _words(claim_text)} and (
                not found or len(found[0].evidence) < len(tags[0].evidence)):
            tags = found  # the long form had stood against the claim's short one ("convert DCs" for "dendritic cells
            # (DCs) transform", a 56th trial's faithful claim: 'convert' / 'dendritic'): the folded reading is truer
    if not (tags and tags[0].proven) and (framed := _framed(claim_text, source_text)):
        return framed
    if not (tags and tags[0].proven) and share >= 0.75 and (run := run_swapped(claim_text, sent, source_text)):
        return [Tag("term_swap", _message(run, sent), 0.9, (run,), proven=True)]
    if not (tags and tags[0].proven) and _CLAUSES.search(sent):
        # a sentence of clauses ("...; radially directed tracks orient colchicine-sensitive saltatory transport
        # throughout the peripheral cytoplasm; and ...") compared clause by clause: the claim's last words would
        # otherwise be aligned with the next clause's (a fifth new user's trial, 2026-12-06)
        for clause in _clauses(sent):
            at = overlap_score(claim_text, clause)
            if at >= RESTATE_AT and (found := _swap_tags(claim_text, clause, at, source_text)) and found[0].proven:
                return found
    return tags


_CLAUSES = re.compile(r"\s*[;:]\s+|,\s+(?=(?:and|while|whereas|but)\s)")
"""Where a sentence's clauses part (semicolons, colons, a comma before *and*, *while*, *whereas*, *but*)."""


def _clauses(sent: str) -> list[str]:
    """``sent`` cut where :data:`_CLAUSES` parts it outside brackets: "(HR, 1.13; 95% CI, 1.02-1.26) and pancreatic
    cancer" is one clause (cut there, "increased risk of pancreatic cancer" became a proven swap for *prostate*)."""
    out, start, depth = [], 0, 0
    cuts = {m.start(): m.end() for m in _CLAUSES.finditer(sent)}
    for k, ch in enumerate(sent):
        depth += (ch in "([") - (ch in ")]")
        if k in cuts and depth <= 0:
            out.append(sent[start:k])
            start = cuts[k]
    out.append(sent[start:])
    return [c for c in out if c.strip()]


def _writers_apart(ops: list, cw: list[str], sw: list[str]) -> list:
    """``ops`` with a replaced run that ends in the writers named two ways (*the authors* / *we*) cut in two, the
    writers their own replacement: "Using fibroblasts, the authors show" / "Using embryonic stem cells, we show" (a
    67th trial) is a swap and the writers."""
    out = []
    for op in ops:
        t, i1, i2, j1, j2 = op
        cut = next(((m, n) for m in (2, 1) for n in (1, 2) if t == "replace" and i2 - i1 > m and j2 - j1 > n
                    and names_writers(cw[i2 - m:i2], sw[j2 - n:j2])), None)
        if cut is None:
            out.append(op)
        else:
            out += [("replace", i1, i2 - cut[0], j1, j2 - cut[1]), ("replace", i2 - cut[0], i2, j2 - cut[1], j2)]
    return out


def _swap_tags(claim_text: str, sent: str, share: float, source_text: str) -> list[Tag]:
    """:func:`detect_term_swap` on one restating sentence ``sent`` holding ``share`` of the claim's content words."""
    cw, sw = _words(claim_text), _words(sent)
    claim_stems, sent_stems = {stem(w) for w in cw}, {stem(w) for w in sw}
    ops = _writers_apart(stem_opcodes(cw, sw), cw, sw)
    unpaired = {stem(sw[j]) for t, _i1, _i2, j1, j2 in ops if t != "equal" for j in range(j1, j2)}
    # a word the claim says once more where the sentence has it only as the claim does: a second mention (108th trial)
    c_count, s_count = Counter(stem(x) for x in cw), Counter(stem(x) for x in sw)
    extra = lambda w: stem(w) not in unpaired and c_count[stem(w)] > s_count[stem(w)]  # noqa: E731
    swaps: list[TagEvidence] = []
    other_diffs = at_start = walled = 0
    explained: set[int] = set()  # claim words that differ from the sentence's and still say the same
    for k, (op, i1, i2, j1, j2) in enumerate(ops):
        if op == "equal":
            continue
        a = [w for w in cw[i1:i2] if _content(w)]
        b = [w for w in sw[j1:j2] if _content(w)]
        named = _designated(cw, sw, op, i1, i2, j1, j2)
        if named:
            a, b = named[:2]  # "influenza B" for "influenza A" (a ninth trial): a one-letter designation of a named kind
        # a long name with its acronym ("US Food and Drug Administration (FDA)") is one term: its acronym
        da, db = _defined_term(cw[i1:i2]), _defined_term(sw[j1:j2])
        if op == "replace" and not da and not db and proper_name(cw[i1:i2]) and proper_name(sw[j1:j2]):
            da, db = " ".join(cw[i1:i2]), " ".join(sw[j1:j2])  # two names of bodies, each one term (a 17th trial)
        na, nb = (1 if da else i2 - i1), (1 if db else j2 - j1)
        a, b = ([da] if da else a), ([db] if db else b)
        a, b = [w for w in a if w.lower() not in _MANNER], [w for w in b if w.lower() not in _MANNER]
        a = [w for w in a if not _short_form_in(w, sent)]  # ("Interferon-gamma" where it says "IFN-gamma", a 174th)
        if op == "replace" and names_writers(cw[i1:i2], sw[j1:j2]):
            explained.update(range(i1, i2))  # "The authors propose" / "Furthermore, we propose" (a 22nd trial)
            continue
        if (op == "replace" and i1 == 0 and a and b and all(w.lower() in REPORTING for w in b)
                and {stem(w) for w in a} <= sent_stems):
            # the sentence's frame ("We conclude that") where the claim opens with a word the sentence says later
            # ("Loss of ..." / "... and that loss of this anchoring mechanism ...", an eighth trial): a term moved
            explained.update(range(i1, i2))
            continue
        if op != "replace" or not a or not b:
            # words the claim adds that the source states elsewhere ("among cancer survivors", the study's
            # population) name the context, not another finding
            if op != "insert" and not b and ((2 <= len(a) <= 3 and stated_in(a, source_text))
                                   or names_writers(cw[i1:i2], sw[j1:j2])
                                   or (len(a) == 1 and _topic_word(a[0], source_text))
                                   or names_referent(cw[i1:i2], sw[j1:j2], source_text)):
                explained.update(range(i1, i2))
            elif op == "delete" and a and (all(w.lower() in REPORTING for w in a) and any(
                    w.lower() in REPORTING for w in sw) or "we" in (x.lower() for x in sw) and all(
                    _is_verb(w) and stem(w) in sent_stems for w in a)):  # or "an analysis was used" / "we use" (62nd)
                explained.update(range(i1, i2))  # the report's frame in the other voice ("were shown to penetrate" /
                # "we show that ... penetrate", a 59th trial: the swap of 'lymph node' for 'lung' stayed unproven)
            elif op == "delete" and a and {stem(w) for w in a} <= sent_stems and not any(
                    _ADVERB.search(w) or _is_verb(w) for w in a):
                # a term moved within the sentence ("the folding of X" / "X ... folding"; a seventh trial); an adverb
                # or common verb moved ("as previously described" / "as described previously") is rewording
                explained.update(range(i1, i2))
            else:
                other_diffs += len(a)
            continue
        before_ok = (k > 0 and ops[k - 1][0] == "equal") or (k == 0 and i1 == 0 and j1 == 0)  # or the sentences' start
        after_ok = (k + 1 < len(ops) and (ops[k + 1][0] == "equal" or names_writers(
            cw[ops[k + 1][1]:ops[k + 1][2]], sw[ops[k + 1][3]:ops[k + 1][4]]))) or (
            k + 1 == len(ops) and i2 == len(cw) and j2 == len(sw))  # (the writers after it: :func:`_writers_apart`)
        flanked = before_ok and after_ok  # agreeing words around the run (or the sentences' start or end)
        # words of the run that say the same as a word across (``causes`` / ``leads``) are paraphrase, not the swap
        a2 = [x for x in a if not any(_related([x], [y], source_text) for y in b)]
        b2 = [y for y in b if not any(_related([x], [y], source_text) for x in a)]
        if a2 != a and a2 and b2:
            a, b = a2, b2
        if negated_alike(cw[i1:i2], sw[j1:j2]) or negated_alike(sw[j1:j2], cw[i1:i2]):
            explained.update(range(i1, i2))  # "absent in the other" / "not observed in the other" (a 14th trial)
            continue
        if same_term(cw[i1:i2], sw[j1:j2], source_text) or kind_of_defined(cw[max(0, i1 - 2):i2], sent, source_text):
            explained.update(range(i1, i2))  # the same term as the source writes it ("second primary cancer" / "SPC"),
            continue  # or the kind its short form names there ("endothelial cells" / "HUVECs")
        if len(a) == len(b) == 1 and spelled_otherwise(a[0], b[0], source_text):
            explained.update(range(i1, i2))  # one word in another spelling, or the source's typo ("glomerual"; a ninth trial)
            continue
        # (three words for three: "high-performance liquid chromatography" for "enzyme-linked immunosorbent assay",
        # a 64th trial's method swap at the claim's end)
        if na > 3 or nb > 3 or len(a) + len(b) > 6 or not flanked or _related(a, b, source_text):
            other_diffs += len(a)
            continue
        wedged = 0 < i1 and i2 < len(cw) and _content(cw[i1 - 1]) and _content(cw[i2])
        if named:
            word, first = named[2], named[3]  # "influenza B" / "influenza A", "B lymphocytes" / "T lymphocytes"
            swaps.append(TagEvidence(f"{word} {a[0]}", f"{word} {b[0]}") if first
                         else TagEvidence(f"{a[0]} {word}", f"{b[0]} {word}"))
            continue
        if all(w.lower() in TIME_UNITS for w in b):
            # a unit of time in the claim word's place ("was shorter in the 43 patients" / "68 (16-156) weeks in 43
            # patients", a 55th trial): no term
            other_diffs += len(a)
            continue
        if any((_stands_elsewhere(w, sent) and not (extra(w) and any(stem(y) in claim_stems for y in b)))
               or stem(w) in unpaired for w in a) and all(
            # (by stem, a sentence word no claim word pairs with: "cancer in adults" for "primary adult brain cancer",
            # a 97th trial's faithful claim; not "in CHO resulted by" for "in CHO cells by ... results in", the
            # sentence's "results" the claim's own)
                _stands_elsewhere(w, sent) or stem(w) in sent_stems or w.lower() in STOPWORDS for w in a) and (
                any(stem(w) in claim_stems for w in b) or k + 1 == len(ops) or any(map(_is_name, a)) or not wedged):
            # the claim's word stands elsewhere in the sentence: a reordering ("factor combinations" / "combinations
            # of factors", "PD-1 triggering on" / "Triggering of PD-1 expressed on"), unless it is wedged between
            # agreeing content words, inside a term ("epidermal metastatic factor" / "epidermal growth factor"); every
            # word of the run moved ("CD169+ dendritic cells" / "CD169(+) macrophages" is no reordering for "iNKT cells")
            other_diffs += len(a)
            continue
        swaps.append(TagEvidence(" ".join(a), " ".join(b)))
        at_start += k == 0  # flanked at k == 0 only by the sentences' start
        if na == nb == 1 and k > 0 and k + 1 < len(ops):
            left, right = cw[ops[k - 1][1]:ops[k - 1][2]][-6:], cw[ops[k + 1][1]:ops[k + 1][2]][:6]
            ends = ops[k + 1][2] == len(cw)  # the claim ends in the wall after it: a long wall before it instead
            walled += ((min(len(left), len(right)) >= 4 and sum(map(_content, left)) >= 2
                        and sum(map(_content, right)) >= 2)
                       or (ends and len(left) >= 6 and sum(map(_content, left)) >= 3 and any(map(_content, right)))) and (
                any({stem(a[0]), stem(b[0])} <= kind for kind in KINDS) or siblings(a[0], b[0]))
            # ("little cell turnover in adult midgut tissue" / "... in adult hindgut tissue", a 131st trial)
            # (only two words of one closed kind, species, sexes, sides, roles: "precursors" for "progenitors", an
            # unknown synonym between the same walls, was proven on a 70th trial's faithful claim)
    if explained and len(swaps) != 1:
        other_diffs += len(explained)  # set aside only beside one swap: two swaps may undo each other
    elif explained and other_diffs == 0:  # the share of what is left once they are set aside
        share = max(share, overlap_score(" ".join(w for i, w in enumerate(cw) if i not in explained), sent))
    if other_diffs == 0 and len(swaps) == 1 and share < 0.75:  # the swap's own words weigh in a short claim: what is
        # left beside it ("... separated from each other by gel filtration" / "by ultracentrifugation", a 13th trial)
        kept = [w for w in cw if stem(w) not in {stem(x) for x in swaps[0].claim_span.split()}]
        share = max(share, 0.75 if sum(map(_content, kept)) >= 5 and overlap_score(" ".join(kept), sent) >= 0.9 else 0)
    if at_start and swaps and any(_ACTION.fullmatch(w) for w in (swaps[0].claim_span, swaps[0].evidence_span)):
        swaps, at_start = swaps[1:], 0  # an action named otherwise at the start, the sentence's frame reworded
        # ("Crossing a Nestin promoter-driven Cre strain into" / "Introduction of a Synapsin I promoter driven Cre
        # mouse strain into", a 154th trial: the frame was proven the swap, and the faithful twin's too)
    alone = sum(op[0] != "equal" for op in ops) == 1  # the sentence copied but for the swap
    conf = 0.9 if other_diffs == 0 and share >= 0.75 and not any(_no_term(x, cw, sw, alone) for x in swaps) else 0.7
    if conf < 0.9 and len(swaps) == 1 and walled and share >= RESTATE_AT and not at_start:
        # one word for one, four to six words alike on each side, two of them content words ("retrograde transport of
        # NGF in a rat model with BFCN degeneration" / "... in a mouse model with BFCN degeneration", a 65th trial):
        # shown by its own words, whatever the sentence rewords farther off
        conf = 0.9
    if conf < 0.9 and len(swaps) == 1 and share >= RESTATE_AT and not at_start and _unheard_kin(swaps[0], source_text):
        conf = 0.9  # one name or one word of a kind for another, the claim's nowhere in the source ("cooperating
        # activating mutations in Kras" for "... in Notch1", a 137th trial): shown whatever the sentence rewords around
    if at_start and (conf < 0.9 or len(swaps[0].claim_span.split()) + len(swaps[0].evidence_span.split()) > 2
                     or sum(map(_content, cw)) < 6 and not _acronyms_apart(swaps[0])):
        # a swap at the sentences' start has no agreeing word before it: only one word for one, the only difference
        # in a claim of six content words or more, proves it (a section label glued on, "BACKGROUND Taxing" /
        # "Taxation", or a heading before a fragment, "# SARS-CoV-2 infection of" / "isolates in", is none)
        swaps, conf = swaps[1:], 0.7  # what is left is not the only difference
    if not swaps:
        return _anchored_tag(claim_text, sent, source_text) or _source_tag(claim_text, source_text)
    return [Tag("term_swap", _message(swaps[0], sent), conf, tuple(swaps), proven=conf >= 0.9)]


_ACTION = re.compile(r"[A-Za-z]+(?:ing|tion|sion|ment)s?")
"""A word naming an action (*crossing*, *introduction*): at a sentence's start, a frame the claim may reword."""
_MODIFIERS = frozenset("""several multiple many numerous various varied diverse different distinct few little much some
certain considerable substantial significant marked notable major important key main primary principal crucial critical
essential central large small great broad wide range variety number particular special strong multitude""".split())
"""Words of how many or how much (*several* / *multiple*, *little* / *poorly*): one for another is rewording, never a
term (issue 28: "a different content term ... organ, organism, agency, drug, place, method")."""
_EVIDENCE = frozenset("data studies study evidence results findings observations work research experiments".split())
"""Words for what a finding rests on (*human, mouse and cell culture data* / *studies*): the writers' frame, no term."""
_PARTICLES = frozenset("out up down off over away back on in".split())
"""A verb's particle (*transfer out*, *set up*): no term of its own."""
_BE_HAVE = BE_FORMS | HAVE_FORMS


def _inflected(w: str) -> bool:
    """``w`` (lower case) is written as a verb inflects, *-s* or *-ed* (not *-ss*, *-us*, *-is*: *process*, *virus*)."""
    return w.endswith(("s", "ed")) and not w.endswith(("ss", "us", "is"))


def _verb_slot(words: list[str], k: int) -> bool:
    """``words[k]`` stands where a verb stands: a participle after a form of *be* or *have* (*is believed*, *were
    detected*), any word after a modal or *which* / *who* (*can retain*, *which inherit*), a word before a pronoun
    object (*retain it*), or, written as a verb inflects (*-s*, *-es*, *-ed*), right after a name or a content word
    that is its subject (*Cdk2 binds*); not an adjective after *be* (*were weak*), nor a word
    after an article or preposition (*the cells*, *in mice*)."""
    if k == 0 or k >= len(words):
        return False
    w, prev = words[k].lower(), words[k - 1]
    if prev.lower() in _BE_HAVE:
        return w.endswith(("ed", "en", "ing"))
    if prev.lower() in MODALS or prev.lower() in ("which", "who"):
        return not w.endswith("ly")
    if prev.lower() == "that" and _inflected(w):
        return True  # "receptors that sits distal to the membrane" / "that resides"
    if k + 1 < len(words) and words[k + 1].lower() in ("it", "them", "itself", "themselves"):
        return True  # "... and retain it"
    return _inflected(w) and (_is_name(prev) or (
        _content(prev) and prev.lower() not in STOPWORDS and not prev.lower().endswith(("ly", "ed", "al", "ic"))))


def _unheard_kin(swap: TagEvidence, source_text: str) -> bool:
    """One word for one of its kind (two names, :func:`~citeproof.detectors.terms._is_name` or capitalised, the swap
    never at the sentences' start; two words of one
    :data:`KINDS` group; or :func:`~citeproof.detectors.lexicon.siblings`), the claim's word written nowhere in the
    source (by stem)."""
    a, b = swap.claim_span.split(), swap.evidence_span.split()
    if len(a) != 1 or len(b) != 1 or not source_text:
        return False
    kin = all(_is_name(w) or w[:1].isupper() for w in (a[0], b[0])) or siblings(a[0], b[0]) or any(
        {stem(a[0].lower()), stem(b[0].lower())} <= kind for kind in KINDS)
    return kin and stem(a[0].lower()) not in _sentences_with(source_text)[0]  # (cached: one source, many claims)


def _no_term(swap: TagEvidence, cw: list[str], sw: list[str], alone: bool = False) -> bool:
    """A one-for-one swap that is no swap of terms: both words are of how many or how much (:data:`_MODIFIERS`) or
    adverbs, one side is a verb's particle alone (:data:`_PARTICLES`), or each stands in its text where a verb stands
    (:func:`_verb_slot`). Proven on session 24's held-out
    faithful paraphrases: *binds* / *associates (with)*, *is believed to* / *directs*, *several* / *multiple*,
    *little* / *poorly* (4 of the 8 faithful claims called *unsupported* or *contradicted* in trials 79-82). Such a swap
    still marks the finding (0.7, *partial*), unproven. A verb is a term where the claim copies the sentence but for it
    (``alone``): a paraphrase rewords more than its verb."""
    a, b = swap.claim_span.split(), swap.evidence_span.split()
    if not a or not b:
        return False
    if all(w.lower() in _MODIFIERS or w.lower().endswith("ly") for w in (a[0], b[0])) or all(
            w.lower() in _EVIDENCE for w in (a[-1], b[-1])):
        return True
    if any(len(x) == 1 and x[0].lower() in _PARTICLES for x in (a, b)):
        return True  # "transfer out" for "transfer to another district" (an 80th trial's faithful claim)
    if alone:
        return False  # a sentence copied but for its verb says something else ("were showing for 192 genomic clones"
        # for "were detected": eval meaning's own-words false claims, 11 of 125 had gone unproven)
    lc, ls = [w.lower() for w in cw], [w.lower() for w in sw]
    wa = next((w for w in a if not _is_name(w)), a[0])  # past a name the run opens with ("EBV turns")
    ka = next((k for k, w in enumerate(lc) if w == wa.lower()), None)
    kb = next((k for k, w in enumerate(ls) if w == b[0].lower()), None)
    return ka is not None and kb is not None and _verb_slot(cw, ka) and _verb_slot(sw, kb)


def _stands_elsewhere(word: str, sent: str) -> bool:
    """``word`` stands in ``sent`` as a word; a lower-case word not inside a name written in capitals ("cholesterol"
    is not in "National Cholesterol Education Program", a 26th trial), save at the sentence's start."""
    if word[:1].isupper():
        return re.search(rf"\b{re.escape(word)}\b", sent, re.I) is not None
    return re.search(rf"\b{re.escape(word)}\b", sent) is not None or sent.lower().startswith(word.lower())


def _acronyms_apart(swap: TagEvidence) -> bool:
    """The swap is of two acronyms of one length a letter apart (*HDL* / *LDL*): no section label glued on."""
    a, b = swap.claim_span, swap.evidence_span
    return 2 <= len(a) == len(b) <= 6 and a.isupper() and b.isupper() and sum(x != y for x, y in zip(a, b)) == 1


def _defined_term(run: list[str]) -> str | None:
    """The acronym of a word run that is a long name with its acronym, either way round ("US Food and Drug
    Administration (FDA)", "FDA (Food and Drug Administration)"): the acronym spells the name's initials
    (:func:`_spells`) and the name has at most one content word more than the acronym has letters; else None."""
    if len(run) < 3:
        return None
    for short, rest in ((run[-1], run[:-1]), (run[0], run[1:])):
        words = [w for w in rest if _content(w)]
        if short.isupper() and 2 <= len(short) <= 8 and len(words) <= len(short) + 1 and _spells(short, words):
            return short  # the name is the acronym's own words, not a clause before it ("patients receiving ... (HAART)")
    return None


def _message(first: TagEvidence, sent: str) -> str:
    """The word diff a ``term_swap`` tag says: "the claim says 'heart' where the source says 'lung': “...”"."""
    return f"the claim says {first.claim_span!r} where the source says {first.evidence_span!r}: \u201c{sent[:200]}\u201d"


ANCHOR_AT = 0.4
"""Least share of the claim's content words a sentence must hold for :func:`anchored_swaps` to look in it."""


def anchored_swaps(claim_text: str, sentence: str, source_text: str = "") -> list[TagEvidence]:
    """Claim words that stand, in the sentence, in the same words' company as another word: a swap.

    The word-by-word alignment of :func:`detect_term_swap` loses its way when the sentence orders its clauses
    otherwise ("Ca2+ cycling is a UCP1-enhanced mechanism" against "a UCP1-independent mechanism ... Ca2+ cycling").
    Here each content word of the claim that the sentence lacks (by stem) is looked for by its neighbours: a
    sentence word it lacks too, with the claim word's left and right neighbours around it (one word may sit
    between on one side), at least one of them a content word. A pair that may say the same (:func:`_related`) is
    no swap. (Company on one side only, two content words alike, raised 5 false alarms on 7 among the training
    splits' faithful citations, ``docs/meaning.md``: it is not used.)

    Args:
        claim_text: the claim.
        sentence: one evidence sentence.
        source_text: the whole source, for abbreviations it defines.

    Returns:
        One :class:`TagEvidence` (claim word, sentence word) per swapped word, in claim order.
    """
    # the sentence as the claim is compared: its long forms written short ("dendritic cells (DCs) transform" had
    # given 'convert' / 'dendritic' for a 56th trial's faithful "Various stimuli convert DCs")
    cw, sw = _words(claim_text), _words(sentence)
    if source_text and (folded := _words(as_the_source_writes(sentence, source_text))) != sw:
        # only where the claim holds none of the long form's words: "central conceptual system" keeps "central
        # nervous system (CNS)" spelled out, so 'conceptual' / 'nervous' stays a swap (eval meaning's generated swaps)
        sw = folded if not (set(sw) - set(folded)) & set(cw) else sw
    cs, ss = [stem(w) for w in cw], [stem(w) for w in sw]
    claim_set, sent_set = set(cs), set(ss)
    out: list[TagEvidence] = []
    for i, w in enumerate(cw):
        if not _content(w) or cs[i] in sent_set or cs[i] in DIRECTION:
            continue
        for j, v in enumerate(sw):
            if not _content(v) or ss[j] in claim_set or ss[j] in DIRECTION:
                continue
            left = i > 0 and j > 0 and cs[i - 1] == ss[j - 1]
            left2 = i > 0 and j > 1 and cs[i - 1] == ss[j - 2]
            right = i + 1 < len(cs) and j + 1 < len(ss) and cs[i + 1] == ss[j + 1]
            right2 = i + 1 < len(cs) and j + 2 < len(ss) and cs[i + 1] == ss[j + 2]
            content_flank = (left and _content(cw[i - 1])) or (right and _content(cw[i + 1]))
            if ((left and (right or right2)) or (right and left2)) and content_flank:
                if not _related([w], [v], source_text):
                    out.append(TagEvidence(w, v))
                break
    return out


def _anchored_tag(claim_text: str, sent: str, source_text: str) -> list[Tag]:
    """A ``term_swap`` at 0.7 (it makes *supported* *partial*, never *unsupported*) from :func:`anchored_swaps` in
    ``sent``, the evidence sentence sharing most of the claim's content words (at least :data:`ANCHOR_AT`)."""
    swaps = anchored_swaps(claim_text, sent, source_text)
    if not swaps:
        return []
    return [Tag("term_swap", _message(swaps[0], sent), 0.7, tuple(swaps), proven=False)]


_MANNER = frozenset({"rather", "tend", "tends", "tended", "quite", "somewhat", "fairly"})
"""Words of manner or degree, no terms: "leukocytes tend to be primed" for "leukocytes are rather primed" (a 167th
trial's faithful claim, *unsupported* on a proven swap of 'tend' for 'rather')."""


def _short_form_in(word: str, sentence: str) -> bool:
    """``word`` (*Interferon-gamma*) stands in ``sentence`` with its first part written short (*IFN-gamma*): the
    short part in capitals whose letters stand in the long part in order, the first first
    (:func:`~citeproof.detectors.frames.initials`), the rest alike."""
    head, sep, rest = word.partition("-")
    if not sep or len(head) < 5:
        return False
    return any(initials(m.group(1).upper(), head) for m in re.finditer(
        r"(?<![\w-])([A-Z]{2,6})-" + re.escape(rest) + r"(?![\w-])", sentence, re.I if rest.islower() else 0))


def _framed(claim_text: str, source_text: str) -> list[Tag]:
    """A proven ``term_swap`` at 0.9 from :func:`~citeproof.detectors.frames.name_in_frame` or
    :func:`~citeproof.detectors.frames.member_of_another_kind`, or ``[]``."""
    framed = name_in_frame(claim_text, source_text) or member_of_another_kind(claim_text, source_text)
    return [Tag("term_swap", f"the claim says {framed.claim_span!r} where the source, in the same company, says "
                f"{framed.evidence_span!r}", 0.9, (framed,), proven=True)] if framed else []


def _source_tag(claim_text: str, source_text: str) -> list[Tag]:
    """A ``term_swap`` at 0.7 (*supported* becomes *partial*, never *unsupported*) from :func:`source_swaps`."""
    found = source_swaps(claim_text, source_text)
    if not found:
        return []
    return [Tag("term_swap", _message(found[0][0], found[0][1]), 0.7, tuple(e for e, _ in found), proven=False)]
