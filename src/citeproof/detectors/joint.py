"""``joint_citation``: a group ``[4, 7]`` whose parts are supported by different works.

The claim is cut into parts at clause boundaries (``;``, ``, and``,
``, while``, ``, whereas``, ``and`` between clauses, list commas); each part
is scored against each cited work's best evidence by content-word overlap
(:func:`citeproof.text.stems.overlap_score`), and the part is credited
to the work that covers it best.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citeproof.text.stems import content_stems, overlap_score
from citeproof.model import Evidence, Tag, TagEvidence

_SPLIT = re.compile(r"\s*;\s*|,\s*(?:and|while|whereas|but|as well as)\s+|\s+(?:whereas|while)\s+|,\s+(?=[a-z])|\s+and\s+(?=(?:\w+\s+){0,3}(?:is|are|was|were|has|have|can|may|\w+s|\w+ed)\b)")


def split_parts(claim_text: str) -> list[str]:
    """Cut a claim into parts worth crediting separately.

    Args:
        claim_text: the claim, citation markup removed.

    Returns:
        The parts in order, cut at ``;``, ``, and``/``, while``/``, whereas``,
        list commas and clause-joining *and*; a part with fewer than two
        content words is merged into the previous one, an opening part with
        fewer than three into the next.
    """
    parts = [p.strip(" ,.") for p in _SPLIT.split(claim_text or "") if p and p.strip(" ,.")]
    merged: list[str] = []
    for p in parts:
        if merged and len(content_stems(p)) < 2:
            merged[-1] = merged[-1] + ", " + p
        else:
            merged.append(p)
    if len(merged) > 1 and len(content_stems(merged[0])) < 3:
        # a short opening ("Interestingly", "Following training") frames the next part: no part of its own (a
        # twentieth trial's report credited "Following training" as the part the source carries)
        merged[:2] = [merged[0] + ", " + merged[1]]
    return merged


def _text(ev: str | Evidence | None) -> str:
    if ev is None:
        return ""
    if isinstance(ev, Evidence):
        return ev.passage.text
    return str(ev)


def detect_joint_citation(claim_text: str, evidence_by_key: Mapping[str, str | Evidence | None],
                          *, floor: float = 0.35) -> list[Tag]:
    """Say which work of a citation group supports which part of the claim.

    Args:
        claim_text: the claim, citation markup removed.
        evidence_by_key: citekey -> that work's best evidence (an
            :class:`~citeproof.model.Evidence`, its passage text, or None
            when the work could not be read), in citation order.
        floor: least overlap (share of the part's content words found in the
            evidence, 0..1) for a part to count as covered.

    Returns:
        ``[]`` when the group has one key, the claim has one part, one work
        covers every part, or no work covers any part (the verdict's business);
        otherwise one ``joint_citation`` tag. Its message names each part's
        supporting work, or says no cited work covers a part; each
        :class:`TagEvidence` pairs a part (``claim_span``) with the crediting
        key and its evidence (``evidence_span`` = ``"key: text"``).
        Confidence 0.7 when every part is covered by some work, 0.6 when a part
        is covered by none.
    """
    keys = [k for k in evidence_by_key]
    if len(keys) < 2:
        return []
    parts = split_parts(claim_text)
    if len(parts) < 2:
        return []  # one part: whether any work supports it is the verdict's business
    texts = {k: _text(evidence_by_key[k]) for k in keys}
    # one work covering the whole claim: nothing to say
    for k in keys:
        if texts[k] and all(overlap_score(p, texts[k]) >= floor for p in parts):
            return []
    credit: list[tuple[str, str | None, float]] = []
    for p in parts:
        scored = sorted(((overlap_score(p, texts[k]), k) for k in keys if texts[k]), reverse=True)
        if scored and scored[0][0] >= floor:
            credit.append((p, scored[0][1], scored[0][0]))
        else:
            credit.append((p, None, scored[0][0] if scored else 0.0))
    if all(k is None for _p, k, _s in credit):
        return []  # nothing covered at all: the verdict says so
    bits = []
    spans = []
    for p, k, _s in credit:
        short = p if len(p) <= 60 else p[:57] + "..."
        bits.append(f"{short!r} by {k}" if k else f"{short!r} by none of the cited works")
        spans.append(TagEvidence(p, f"{k}: {texts[k][:200]}" if k else ""))
    uncovered = any(k is None for _p, k, _s in credit)
    distinct = {k for _p, k, _s in credit if k}
    if not uncovered and len(distinct) < 2:
        return []
    msg = "Parts of the claim are supported separately: " + "; ".join(bits) + "."
    return [Tag("joint_citation", msg, 0.6 if uncovered else 0.7, tuple(spans))]
