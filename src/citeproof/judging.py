"""One citation judged: the checks around the tiers (unknown key, unreadable source, narrative and
comparative citations, locators) and the finding they give.

Moved out of :mod:`citeproof.pipeline` (which re-exports :func:`_judge_citation` for the evaluation code).
"""

from __future__ import annotations

import dataclasses
import logging
import re

from citeproof.bibliography import Bibliography
from citeproof.judges.base import Judgement
from citeproof.judges.language import mark_cross_language
from citeproof.judges.policy import (
    apply_detectors,
    explanatory_parenthetical,
    is_contrary,
    mark_naming,
)
from citeproof.model import (
    Citation,
    Claim,
    Finding,
    Reference,
    Source,
    Tier,
    Verdict,
    clock,
)
from citeproof.sources.metadata import compare as compare_metadata
from citeproof.sources.pdf import sheets_for_pages
from citeproof.sources.transcript import passages_at
from citeproof.text.glyphs import Vocabulary, repair_copied_ligatures
from citeproof.text.grounding import without_copied_line_numbers
from citeproof.text.normalise import terms
from citeproof.tiers import Tiers, identifier_terms

_COMPARED = re.compile(
    r"(?:\bthan|\bvs\.?|\bversus|\bcompared (?:to|with)|\boutperform(?:s|ing|ed)?|\bover)\s+(?:the\s+)?(?P<name>[A-Z][\w\-]*(?:\s[A-Z0-9][\w\-]*)?)\s*$"
)


def _copied_line_numbers(text: str, cands: list) -> tuple[str, tuple[int, ...], str] | None:
    """``(claim text without them, the numbers, where)`` when the claim carries the margin line numbers of one of
    its three best candidates' passages (:func:`citeproof.text.grounding.without_copied_line_numbers`), else None."""
    for ev in cands[:3]:
        if ev.passage.margin_numbers:
            cleaned, gone = without_copied_line_numbers(text, ev.passage.text, ev.passage.margin_numbers)
            if gone:
                return cleaned, gone, ev.passage.where() or "its text"
    return None


def _repaired_ligatures(f: Finding, text: str, source: Source) -> str:
    """``text`` with the ligature words a copy from the source's PDF mis-spelt ("diÞcult") spelt as the source spells
    them (:func:`citeproof.text.glyphs.repair_copied_ligatures`), flag ``broken_ligatures`` and a reason naming
    each; ``text`` unchanged when it holds none."""
    if "\u00de" not in text and "\ufffd" not in text:
        return text
    fixed, changed = repair_copied_ligatures(text, Vocabulary([source.text]))
    if changed:
        f.flags.append("broken_ligatures")
        said = ", ".join(f"'{a}' is '{b}'" for a, b in changed)
        f.reasons.append(f"{said} in the source: a ligature the PDF's font maps to the wrong character, copied with the text; judged as the source spells it, correct it in the draft")
    return fixed


def _judge_citation(
    claim: Claim,
    cite: Citation,
    ref: Reference | None,
    source: Source | None,
    tiers: "Tiers",
    bib: Bibliography | None,
    duplicate_keys: set[str],
) -> Finding:
    f = Finding(claim=claim, citation=cite, verdict=Verdict.UNVERIFIABLE, reference=ref, source=source)
    if cite.citekey in duplicate_keys:
        f.flags.append("duplicate_citekey")
        f.reasons.append(f"citekey '{cite.citekey}' is defined more than once in the bibliography; the first definition was used")
    if ref is None:
        f.flags.append("unknown_citekey")
        if bib is not None and cite.citekey in bib.unknown_reasons:
            f.reasons.insert(0, bib.unknown_reasons[cite.citekey] + "; this marker cannot be checked")
            return f
        files = bib.description if bib and bib.description else ", ".join(str(p) for p in bib.files) if bib and bib.files else "no bibliography given"
        f.reasons.insert(0, f"citekey '{cite.citekey}' is not in the bibliography ({files}); add the entry or fix the key")
        return f
    compared = _compared_with_cited(claim, cite)
    if compared:
        f.flags.append("compared_with_cited")
        f.reasons.append(f"the sentence compares the citing work's own result with {compared}; the cited work can say what {compared} is, not how it compares")
    mark_naming(f, claim, cite)
    other = _earlier_narrative(claim, cite)
    if other:
        f.flags.append("claim_of_other_citation")
        f.reasons.append(f"the sentence reports what '{other}' found (cited narratively before this marker); '{cite.citekey}' may only name what is discussed")
    if source is None or not source.usable:
        f.flags.append("no_source" if source is None or source.path is None else "unreadable_source")
        f.reasons.insert(0, (source.error if source and source.error else "no local source"))
        return f
    text = claim.text
    held = explanatory_parenthetical(claim.raw, cite.raw)
    if held is not None:
        text = held[0]
        f.flags.append("claim_from_parenthetical")
        f.reasons.append(f"the citation's parenthetical ({held[1]} ...) states what the source is cited for; that was judged")
    if not terms(text) and claim.context:
        text = claim.context
        f.flags.append("claim_from_context")
        f.reasons.append("the claim unit holds no words of its own; the preceding sentence was judged")
    text = _repaired_ligatures(f, text, source)
    judged = dataclasses.replace(claim, text=text) if text != claim.text else claim
    printed = cite.locator.pages() if cite.locator else []
    pages = sheets_for_pages(source.passages, printed) if printed and source.pages else printed  # p. 103 = the page labelled 103
    page_missing = bool(printed) and source.pages > 0 and not pages
    if page_missing:
        f.flags.append("locator_page_missing")
        labels = [p.page_label for p in source.passages if p.page_label]
        has = f"its pages are labelled {labels[0]} to {labels[-1]}" if labels else f"it has {source.pages}"
        f.reasons.append(f"the locator {cite.locator.raw!r} names page(s) the source does not have ({has}); searched all pages")
        pages = []
    elif pages and not source.pages:
        pages = []  # a text source has no pages to restrict to
    searched, time_missing = _at_times(f, source, cite)  # [@talk, 12:34]: the transcript's passages at that time
    exclude = identifier_terms(claim)
    try:
        cands = tiers.candidates(text, searched, pages or None, exclude)
        copied = _copied_line_numbers(text, cands)
        if copied is not None:
            text, gone, where = copied
            judged = dataclasses.replace(claim, text=text)
            f.flags.append("margin_line_numbers")
            f.reasons.append(f"the claim holds {', '.join(map(str, gone))}: the line number{'s' if len(gone) > 1 else ''} the source prints in its "
                             f"margin beside this text ({where}), copied with it; judged without, delete {'them' if len(gone) > 1 else 'it'} from the draft")
            cands = tiers.candidates(text, searched, pages or None, exclude)
        j: Judgement = tiers.judge(judged, cands, cite.signal, ask_llm="not_a_claim" not in f.flags,
                                   after_detectors=lambda off: _after_detectors(off, judged, cite, source))
    except Exception as exc:  # one citation's failure is one finding, never the run
        logging.getLogger(__name__).error("judging %s at %s:%s failed", cite.citekey, claim.document, claim.line, exc_info=True)
        f.verdict = Verdict.ERROR
        f.flags.append("internal_error")
        f.reasons.insert(0, f"internal error while judging: {type(exc).__name__}: {exc}; please report it")
        return f
    f.verdict, f.score, f.confidence, f.tier, f.evidence = j.verdict, j.score, j.confidence, j.tier, j.evidence
    f.alternatives = [c for c in cands if j.evidence is None or c.passage.id != j.evidence.passage.id][:2]
    f.reasons = j.reasons + f.reasons
    f.flags.extend(x for x in j.flags if x not in f.flags)
    if j.llm is not None:
        f.llm = j.llm
        f.flags.extend(x for x in j.llm.get("flags", []) if x not in f.flags)
    if time_missing and f.verdict == Verdict.SUPPORTED:
        f.verdict = Verdict.PARTIAL
        f.flags.append("needs_review")
        f.reasons.insert(0, "supported elsewhere in the recording, but not at the time the citation names: fix the locator")
    if page_missing and f.verdict == Verdict.SUPPORTED:
        # The words are there, but not where the citation points: a wrong pinpoint is a citation problem.
        f.verdict = Verdict.PARTIAL
        f.flags.append("needs_review")
        f.reasons.insert(0, "supported elsewhere in the source, but the page the citation names does not exist: fix the locator")
    if pages:
        labelled = any(p.page_label for p in source.passages)
        sheets = f" (PDF sheet {', '.join(map(str, pages))})" if labelled and pages != sorted(set(printed)) else ""
        f.reasons.append(f"searched page(s) {', '.join(map(str, sorted(set(printed))))}{sheets} only, as the locator {cite.locator.raw!r} says")
    if f.evidence is not None and not f.evidence.passage.quotable:
        f.flags.append("not_quotable")
    if f.evidence is not None and f.evidence.passage.ocr:
        f.flags.append("ocr_evidence")
        f.reasons.append(f"the evidence was read by OCR from a scanned page ({f.evidence.passage.where() or 'no page'}): lower trust, check the quote against the page image")
    f.reasons.extend(source.notes)
    differ = compare_metadata(ref, source.metadata) if source.metadata else []
    if differ:  # the file itself says it is another work, year or version than the entry
        f.flags.extend(x for x in ("metadata_mismatch",) if x not in f.flags)
        f.reasons.append("the source's own metadata differ from the bibliography entry: " + "; ".join(differ))
    if cite.signal and not is_contrary(cite.signal):
        f.reasons.append(f"signal '{cite.signal}': the citation vouches for a related point; thresholds relaxed")
    apply_detectors(f, judged, cite, source)
    show_deciding_passage(f, cands, source)
    mark_cross_language(f, text, source)
    return f


_QUOTED = re.compile("\u201c([^\u201c\u201d]{24,})\u201d")
_TAGGED = ("unsupported: ", "contradicted: ", "downgraded from supported: ")
"""How the first reason of a finding whose verdict a detector's tag made begins (:func:`~citeproof.judges.policy.
apply_detectors`)."""


def deciding_sentence(f: Finding) -> str:
    """The source sentence the finding's verdict rests on, as its reasons quote it: the sentence a detector's tag
    read when the tag decided (the first reason, ``contradicted: polarity_flip ...``), else the sentence the
    entailment judge read (``judged sentence: ...``); ``""`` when the reasons quote none (the lexical tier)."""
    first = f.reasons[0] if f.reasons else ""
    if first.startswith(_TAGGED):
        quoted = _QUOTED.findall(first)
        return quoted[-1] if quoted else ""
    for r in f.reasons:
        if r.startswith("judged sentence"):
            quoted = _QUOTED.findall(r)
            return quoted[0] if quoted else ""
    return ""


def show_deciding_passage(f: Finding, cands: list, source: Source) -> None:
    """Make the evidence shown the passage that holds the sentence the verdict rests on (:func:`deciding_sentence`).

    Retrieval's best passage and the sentence the judge or a detector read can differ: the judge reads every
    candidate's sentences, and a passage may be two passages joined. Users of every trial of issue 28 found the
    evidence shown was not the sentence judged (session 24: 10 of 120 findings in four trials, and "Sirt1 on line
    10 reported as line 9" in a joined pair). Runs after the detectors, so only what is shown changes, never the
    verdict: the evidence becomes the one source passage that holds the whole sentence (a joined pair is narrowed
    to it), with the scores of the candidate it came from; the passage retrieved first moves to the alternatives.
    Nothing changes when no single passage or candidate holds the sentence, nor where the words decided (the tier is
    lexical and no tag made the verdict: "the claim's words were found ... read the passage" shows the passage that
    holds them, and the judged sentence's reason says where that sentence stands, :func:`~citeproof.judges.judged.
    judged_in`).
    """
    ev = f.evidence
    decided = f.tier != Tier.LEXICAL or (f.reasons and f.reasons[0].startswith(_TAGGED))
    want = " ".join(deciding_sentence(f).removesuffix("...").split()) if decided else ""
    if ev is None or not want or not source.passages:
        return
    home = next((p for p in source.passages if want in " ".join(p.text.split())), None)
    if home is None or home.id == ev.passage.id:
        return
    if home.id in ev.passage.id.split("+"):  # a joined pair: the sentence's own passage, the pair's scores
        f.evidence = dataclasses.replace(ev, passage=home)
        return
    holder = next((c for c in cands if home.id in c.passage.id.split("+")), None)
    if holder is None:
        return
    f.evidence = dataclasses.replace(holder, passage=home, scores=dict(holder.scores),
                                     sentence=holder.sentence if want in " ".join(holder.sentence.split()) else want)
    f.alternatives = [ev] + [a for a in f.alternatives if a.passage.id != holder.passage.id][:1]


def _after_detectors(offline: Judgement, claim: Claim, cite: Citation, source: Source) -> tuple[Verdict, list[str]]:
    """The offline judgement's verdict once the failure-mode detectors ran, and the tags that changed it.

    What the finding would say without the LLM tier: the "offline tiers said" line shows it, and an LLM
    answer must bear it out to lift it (issue 31).
    """
    from citeproof.detectors import DOWNGRADE_THRESHOLD, DOWNGRADING_TAGS

    scratch = Finding(claim=claim, citation=cite, verdict=offline.verdict, source=source, evidence=offline.evidence,
                      confidence=offline.confidence, score=offline.score, tier=offline.tier)
    apply_detectors(scratch, claim, cite, source)
    if scratch.verdict == offline.verdict:
        return offline.verdict, []
    return scratch.verdict, sorted({t.name for t in scratch.tags if t.name in DOWNGRADING_TAGS and t.confidence >= DOWNGRADE_THRESHOLD})


def _at_times(f: Finding, source: Source, cite: Citation) -> tuple[Source, bool]:
    """The source to search for a citation with a time locator (``[@talk, 12:34]``), as ``p. N`` restricts to pages.

    Returns:
        ``(source, time_missing)``: a view of ``source`` holding only the
        passages at the locator's time (:func:`~citeproof.sources.transcript.passages_at`;
        its own ``sha256`` so indexes are not shared with the whole source),
        with a reason added to ``f``; the source itself when the citation
        has no time or the source is not timed; ``time_missing`` True (flag
        ``locator_time_missing``) when no passage lies at that time.
    """
    spans = cite.locator.times() if cite.locator else []
    if not spans:
        return source, False
    if not any(p.time_start is not None for p in source.passages):
        f.reasons.append(f"the locator {cite.locator.raw!r} names a time in a recording, but the source is not a transcript or subtitles; searched all of it")
        return source, False
    near = passages_at(source.passages, spans)
    if not near:
        last = max((p.time_end or p.time_start or 0.0) for p in source.passages)
        f.flags.append("locator_time_missing")
        f.reasons.append(f"the locator {cite.locator.raw!r} names a time the transcript does not reach (it ends at {clock(last)}); searched the whole recording")
        return source, True
    lo = min(p.time_start or 0.0 for p in near)
    hi = max((p.time_end if p.time_end is not None else p.time_start) or 0.0 for p in near)
    f.reasons.append(f"searched {clock(lo)}-{clock(hi)} of the recording only, as the locator {cite.locator.raw!r} says")
    return dataclasses.replace(source, passages=near, sha256=f"{source.sha256}@{cite.locator.value}"), False


def _compared_with_cited(claim: Claim, cite: Citation) -> str:
    """The name the citation is attached to when the sentence compares against it ('' if not).

    "3× faster than SPPnet [11]": the claim is the citing paper's own
    measurement; [11] only says what SPPnet is.
    """
    raw = cite.raw.strip()
    if not raw:
        return ""
    at = claim.raw.find(raw)
    if at < 0:
        return ""
    m = _COMPARED.search(claim.raw[:at].rstrip())
    return m.group("name") if m else ""


def _earlier_narrative(claim: Claim, cite: Citation) -> str:
    """Citekey of a narrative citation of another work before ``cite`` in its claim ('' if none).

    "[24] found that DPM [8] mAP saturates": the claim is [24]'s; [8] names DPM.
    """
    from citeproof.model import CitationMode

    if cite.mode == CitationMode.NARRATIVE:
        return ""
    for c in claim.citations:
        if c is cite:
            break
        if c.mode == CitationMode.NARRATIVE and c.citekey != cite.citekey:
            return c.citekey
    return ""
