"""Joint citations judged as a set: ``[@a; @b]`` or ``[4, 7]`` behind a claim with several parts.

A claim such as "X reduces A [4], and Y raises B [7]" written as "X reduces
A, and Y raises B [4, 7]" cites each work for a part. :func:`judge_group`
cuts the claim into parts (:func:`citeproof.detectors.joint.split_parts`:
``;``, ``, and``, ``, while``, ``whereas``, list commas, clause-joining
*and*), judges every part against every work with the run's own tiers, and
credits each part to the works that support it. The group is supported when
every part is supported by some work of the group; a work is then vouched
for the parts it supports. :func:`apply_group` writes the outcome onto the
group's findings.

One work cited for a claim with parts is the same question inside one source:
"The study — performed openly on GitHub — examined X [@k]" may rest on the
Methods for its aside and on the abstract for its main clause, and no one
passage carries both. :func:`judge_compound_claims` judges such a claim's
parts (:func:`claim_parts`) against its one source when the whole claim fell
short, and calls it supported, with each part's passage, only when every part
is supported and no single passage held them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from citeproof.detectors import DOWNGRADING_TAGS, should_downgrade
from citeproof.detectors.joint import split_parts
from citeproof.judges.base import Judgement
from citeproof.model import Finding, Tag, TagEvidence, Verdict

__all__ = ["GroupJudgement", "apply_group", "claim_parts", "judge_compound_claims", "judge_group", "judge_in_parts",
           "judge_joint_citations"]


@dataclass
class GroupJudgement:
    """The outcome for one citation group.

    Attributes:
        parts: the claim's parts, in order.
        verdicts: ``verdicts[key][i]`` is the judgement of part ``i`` against work ``key``
            (a :class:`~citeproof.model.Finding` with the detectors' tags, or a bare :class:`Judgement`).
        credit: ``credit[i]`` lists the works supporting part ``i`` (citation order).
        supported: True when every part is supported by some work.
    """

    parts: list[str]
    verdicts: dict[str, list[Finding | Judgement]] = field(default_factory=dict)
    credit: list[list[str]] = field(default_factory=list)

    @property
    def supported(self) -> bool:
        """Every part is supported by at least one work of the group."""
        return bool(self.parts) and all(self.credit)

    def parts_of(self, key: str) -> list[str]:
        """The parts work ``key`` supports."""
        return [p for p, ks in zip(self.parts, self.credit, strict=True) if key in ks]


def judge_group(claim_text: str, judges: Mapping[str, Callable[[str], Finding | Judgement]]) -> GroupJudgement | None:
    """Judge each part of ``claim_text`` against each work.

    Args:
        claim_text: the claim, citation markup removed.
        judges: citekey -> ``judge(part_text)`` against that work's source (the
            run's tiers, verdict policy and detectors; a Finding or a Judgement),
            in citation order; only works whose source could be read.

    Returns:
        None when fewer than two works or fewer than two parts (then each work
        is judged on the whole claim as usual); else a :class:`GroupJudgement`.
    """
    if len(judges) < 2:
        return None
    parts = split_parts(claim_text)
    if len(parts) < 2:
        return None
    out = GroupJudgement(parts=parts)
    for key, judge in judges.items():
        out.verdicts[key] = [judge(p) for p in parts]
    out.credit = [[k for k in judges if out.verdicts[k][i].verdict == Verdict.SUPPORTED] for i in range(len(parts))]
    return out


def _short(p: str, n: int = 60) -> str:
    return p if len(p) <= n else p[: n - 3] + "..."


def apply_group(group: GroupJudgement, findings: Sequence[Finding]) -> None:
    """Write a group's outcome onto its findings (in place).

    Each finding gets a ``joint_citation`` tag saying which work supports which
    part, and a reason. When the group is supported, a finding whose work
    supports at least one part becomes ``supported`` (unless a detector
    downgraded it); a work supporting no part keeps its own verdict and is
    marked ``needs_review``. When some part is supported by no work, findings
    judged ``supported`` on the whole claim become ``partial`` and
    ``needs_review``: the group does not carry the claim.
    """
    bits = []
    spans = []
    for p, ks in zip(group.parts, group.credit, strict=True):
        bits.append(f"\u201c{_short(p)}\u201d by {', '.join(ks)}" if ks else f"\u201c{_short(p)}\u201d by none of the cited works")
        spans.append(TagEvidence(p, ", ".join(ks)))
    uncovered = [p for p, ks in zip(group.parts, group.credit, strict=True) if not ks]
    msg = ("The group supports every part: " if not uncovered else "The group leaves a part unsupported: ") + "; ".join(bits) + "."
    tag = Tag("joint_citation", msg, 0.7 if not uncovered else 0.6, tuple(spans))
    for f in findings:
        key = f.citation.citekey
        f.tags.append(tag)
        mine = group.parts_of(key)
        if group.supported and mine:
            # the whole-claim detectors saw the other works' parts too: the parts' own tags replace them
            part_tags = [t for i, j in enumerate(group.verdicts[key]) if key in group.credit[i] for t in getattr(j, "tags", [])]
            f.tags[:] = [t for t in f.tags if t.name not in DOWNGRADING_TAGS] + [t for t in part_tags if t.name != "joint_citation"]
            if f.reasons and f.reasons[0].startswith("downgraded from supported:"):
                f.reasons.pop(0)
                f.verdict = Verdict.SUPPORTED if not should_downgrade(f.tags) else Verdict.PARTIAL
            if f.verdict != Verdict.SUPPORTED and not should_downgrade(f.tags):
                f.reasons.insert(0, f"judged as part of its citation group: supported for {', '.join(chr(8220) + _short(p) + chr(8221) for p in mine)}; "
                                    f"the group supports every part of the claim (was {f.verdict.value} on the whole claim)")
                f.verdict = Verdict.SUPPORTED
                best = max((j for j in group.verdicts[key] if j.verdict == Verdict.SUPPORTED), key=lambda j: j.confidence)
                f.confidence, f.score = best.confidence, best.score
                if best.evidence is not None:
                    f.evidence = best.evidence
            else:
                f.reasons.append(f"in its citation group this work supports {len(mine)} of {len(group.parts)} parts")
            continue
        if not mine:
            f.reasons.append("in its citation group this work supports none of the claim's parts on its own")
        elif f.verdict == Verdict.SUPPORTED:
            f.verdict = Verdict.PARTIAL
            f.reasons.insert(0, "the citation group leaves a part of the claim unsupported: "
                                + "; ".join(chr(8220) + _short(p) + chr(8221) for p in uncovered))
        if "needs_review" not in f.flags:
            f.flags.append("needs_review")


def _part_judge(f: Finding, tiers) -> Callable[[str], Finding]:
    """``judge(part_text)`` against ``f``'s source with the run's tiers, verdict policy and detectors."""
    import dataclasses

    from citeproof.judges.policy import apply_detectors

    def judge(part: str) -> Finding:
        claim = dataclasses.replace(f.claim, text=part)
        j = tiers.judge(claim, tiers.candidates(part, f.source, None, set()), f.citation.signal)
        out = Finding(claim=claim, citation=f.citation, verdict=j.verdict, score=j.score, confidence=j.confidence,
                      tier=j.tier, evidence=j.evidence, reasons=list(j.reasons), source=f.source)
        apply_detectors(out, claim, f.citation, f.source)
        return out
    return judge


def judge_joint_citations(findings: list[Finding], tiers) -> None:
    """Judge each citation group such as ``[@a; @b]`` as a set (:mod:`citeproof.judges.joint`).

    For a claim with several parts, every part is judged against every work of
    the group whose source was read, with the same tiers and verdict policy;
    the findings then say which work supports which part, and the group is
    supported when all its parts are. A group with one part or one readable
    work keeps its per-work verdicts.

    Args:
        findings: every finding of the run (changed in place).
        tiers: the run's :class:`citeproof.pipeline.Tiers` (``candidates`` and ``judge``).
    """
    groups: dict[tuple[str, str, int], list[Finding]] = {}
    for f in findings:
        if f.citation.group_size > 1:
            groups.setdefault((f.claim.id, f.citation.raw, f.citation.line), []).append(f)
    for group in groups.values():
        judged = [f for f in group if f.source is not None and f.source.usable and f.verdict != Verdict.ERROR]
        try:
            outcome = judge_group(group[0].claim.text, {f.citation.citekey: _part_judge(f, tiers) for f in judged})
        except Exception as exc:  # noqa: BLE001 - the per-work findings stand on their own
            for f in judged:
                f.reasons.append(f"judging the citation group as a set failed: {type(exc).__name__}: {exc}; please report it")
            continue
        if outcome is not None:
            apply_group(outcome, group)


# An aside set off by dashes: "X — aside — Y" (em dash, spaced en dash, or pandoc's "---" / " -- ").
_DASH = re.compile(r"\s*\u2014\s*|\s+\u2013\s+|\s*---\s*|\s+--\s+")


def claim_parts(claim_text: str) -> list[str]:
    """The parts of one claim that may rest on different passages of one source.

    An aside between dashes becomes its own part, with the sentence's subject: "X — aside — Y" gives
    "X Y" and "X aside" (a trailing "X — aside" gives "X" and "aside"); then each is cut at clause
    boundaries by :func:`citeproof.detectors.joint.split_parts`. Returns one part (the claim) when there is
    nothing to cut; never an empty part.
    """
    text = (claim_text or "").strip()
    segs = [s.strip(" ,") for s in _DASH.split(text)]
    segs = [s for s in segs if s]
    if len(segs) == 3:
        pieces = [f"{segs[0]} {segs[2]}", f"{segs[0]} {segs[1]}"]
    elif len(segs) == 2:
        pieces = segs
    else:
        pieces = [text]
    out: list[str] = []
    for piece in pieces:
        out += split_parts(piece) or [piece]
    return [p for p in out if p] or [text]


def judge_compound_claims(findings: list[Finding], tiers) -> None:
    """Judge, in parts, single citations whose claim fell short as a whole (in place).

    A finding qualifies when its citation is alone (a group is :func:`judge_joint_citations`' business), its
    verdict is ``partial`` or ``unsupported`` with no downgrading detector tag, its source was read, and
    :func:`claim_parts` cuts its claim into two or more parts. Each part is judged against the source with the
    run's tiers and detectors. The finding becomes ``supported`` only when every part is supported, no part
    carries a downgrading tag, and the parts rest on at least two different passages (one passage holding every
    part would have carried the whole claim). Its evidence is the first part's passage, the other parts'
    passages become its alternatives, its confidence and score are the parts' least, and a reason names each
    part's page. Otherwise it is left as it was.

    Args:
        findings: the findings judged in this run (changed in place).
        tiers: the run's :class:`citeproof.tiers.Tiers` (``candidates`` and ``judge``).
    """
    for f in findings:
        if (f.citation.group_size > 1 or f.verdict not in (Verdict.PARTIAL, Verdict.UNSUPPORTED) or f.source is None
                or not f.source.usable or "not_a_claim" in f.flags or should_downgrade(f.tags)):
            continue
        parts = claim_parts(f.claim.text)
        if len(parts) < 2:
            continue
        judge = _part_judge(f, tiers)
        try:
            judged = [judge(p) for p in parts]
        except Exception as exc:  # noqa: BLE001 - the whole-claim finding stands on its own
            f.reasons.append(f"judging the claim in parts failed: {type(exc).__name__}: {exc}; please report it")
            continue
        held = [j.verdict == Verdict.SUPPORTED and j.evidence is not None and not should_downgrade(j.tags) for j in judged]
        if not all(held):
            _name_the_missing_part(f, parts, judged, held)
            continue
        if len({j.evidence.passage.id for j in judged}) < 2:
            continue
        where = "; ".join(f"\u201c{_short(p)}\u201d {j.evidence.passage.where() or 'in the source'}" for p, j in zip(parts, judged, strict=True))
        # One story: the parts' reasons lead; what the tiers said of the whole claim is kept, marked as such.
        f.reasons[:] = ([f"judged in parts, each supported by its own passage: {where}; no one passage carries the "
                         f"whole claim (was {f.verdict.value} as a whole)"]
                        + [f"part {i}: {j.reasons[0]}" for i, j in enumerate(judged, 1) if j.reasons]
                        + [f"as a whole: {r}" for r in f.reasons])
        f.verdict = Verdict.SUPPORTED
        f.confidence = min(j.confidence for j in judged)
        f.score = min(j.score for j in judged)
        f.tier = judged[0].tier
        f.evidence = judged[0].evidence
        f.alternatives = [j.evidence for j in judged[1:]]
        names = {t.name for t in f.tags}
        f.tags += [t for j in judged for t in j.tags if t.name not in names]
        if any("needs_review" in j.flags for j in judged) and "needs_review" not in f.flags:
            f.flags.append("needs_review")


def _name_the_missing_part(f: Finding, parts: list[str], judged: list, held: list[bool]) -> None:
    """Some parts are supported, some not: the claim is *partial* and the finding says which part lacks support.

    Most real citing sentences are supported in part (WiCE: about 60% of its claims); the reviewer needs the
    part to fix. An *unsupported* whole becomes *partial*; a *partial* one keeps its verdict and gains the reason.
    """
    if not any(held) or f.verdict not in (Verdict.PARTIAL, Verdict.UNSUPPORTED):
        return
    ok = "; ".join(f"\u201c{_short(p)}\u201d" + (f" {where}" if (where := j.evidence.passage.where()) else "")
                   for p, j, h in zip(parts, judged, held, strict=True) if h)
    missing = "; ".join(f"\u201c{_short(p)}\u201d ({j.verdict.value})" for p, j, h in zip(parts, judged, held, strict=True) if not h)
    f.reasons.insert(0, f"supported in part: the source carries {ok}, but not {missing} — that part lacks support "
                        f"(was {f.verdict.value} as a whole)")
    f.verdict = Verdict.PARTIAL
    f.alternatives = f.alternatives or [j.evidence for j, h in zip(judged, held, strict=True) if h and j.evidence is not None]


def judge_in_parts(findings: list[Finding], tiers) -> None:
    """The run's pass over claims with parts: citation groups as sets (:func:`judge_joint_citations`), then
    single citations of compound claims (:func:`judge_compound_claims`)."""
    judge_joint_citations(findings, tiers)
    judge_compound_claims(findings, tiers)
