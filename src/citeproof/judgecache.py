"""Judgements cached by everything that decides them: incremental re-runs (issue 15 part 3, issue 12 part 7).

A citation's finding is a function of its claim (text, raw sentence,
kind, the preceding sentence where the unit has no words of its own, and every citation of the sentence, which the policy reads for
narrative citations and excluded identifiers), the citation itself (citekey,
signal, locator, mode, marker), its bibliography entry, the source's content
(SHA-256 of the bytes plus a digest of the parsed text, so a parser change is
noticed), the tiers and their models, the verdict policy and settings, and the
code that judges. :func:`run_fingerprint` digests the run-wide part once;
:meth:`JudgementCache.key` adds the citation's own part. The key holds no
position: a claim that moves because an earlier paragraph was edited keeps its
judgement, with its new line and column.

A citation group (``[@a; @b]``) is judged as a set after its members
(:func:`citeproof.judges.joint.judge_joint_citations`), so each member's key
also holds the other members' keys, and a group is reused only whole: when one
member must be judged again, all are, and the joint pass runs on them.

Only citations that reach the tiers are cached (a known citekey with a readable
source), and every member of a group the joint pass judges (two readable
members or more); an unknown key or a missing source costs nothing to report again. The
LLM tier is never cached (its answers carry tokens and cost spent in this run,
and its budget decides which citations it sees). Rows live in the
``judgements`` table of ``citeproof.sqlite`` (:class:`citeproof.sources.cache.Cache`);
``--no-cache`` bypasses them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from citeproof import __version__
from citeproof.model import (
    Citation,
    Claim,
    Evidence,
    Finding,
    Passage,
    Reference,
    Source,
    Tag,
    TagEvidence,
    Tier,
    Verdict,
)
from citeproof.sources.cache import Cache

__all__ = ["CACHED_FIELDS", "FORMAT", "JudgementCache", "code_fingerprint", "run_fingerprint"]

FORMAT = 3
"""Version of the stored payload; change it whenever :func:`encode`'s layout changes (3: a tag's ``proven``, which a
warm run had lost, so a proven difference no longer read "decided by ... (proven by code)"; found re-running a
new user's trial, session 26)."""

CACHED_FIELDS = ("verdict", "score", "confidence", "tier", "evidence", "reasons", "tags", "flags", "llm", "alternatives")
"""The :class:`~citeproof.model.Finding` fields a cached judgement restores; the other four
(``claim``, ``citation``, ``reference``, ``source``) are this run's own objects."""

_CONTEXT_FIELDS = ("claim", "citation", "reference", "source")

_PACKAGE = Path(__file__).parent
_memo: dict[Any, str] = {}


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")).hexdigest()


def code_fingerprint() -> str:
    """SHA-256 over citeproof's own ``.py`` and ``.json`` files (paths and bytes), once per process.

    citeproof's version alone would keep a judgement made by yesterday's code of
    the same version (a development checkout, a patched install); hashing about
    1.5 MB of source costs a few milliseconds.
    """
    if "code" not in _memo:
        h = hashlib.sha256(__version__.encode())
        for p in sorted(_PACKAGE.rglob("*")):
            if p.suffix in (".py", ".json") and p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(_PACKAGE)).encode() + b"\0" + p.read_bytes() + b"\0")
        _memo["code"] = h.hexdigest()
    return _memo["code"]


def _file_sha(path: Path) -> str:
    """SHA-256 of a model file, memoised by (path, size, mtime) for the process."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _memo:
        _memo[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _memo[key]


def model_versions(tiers: Sequence[str]) -> dict[str, str]:
    """Model identity per model tier of ``tiers``: the dense tier's ``MODEL_VERSION``, the entailment model file's SHA-256."""
    out: dict[str, str] = {}
    if "dense" in tiers:
        from citeproof.retrieval.dense import MODEL_VERSION

        out["dense"] = MODEL_VERSION
    if "entailment" in tiers:
        from citeproof.judges import entailment

        out["entailment"] = _file_sha(entailment.MODEL_PATH)
    return out


def run_fingerprint(tiers: Sequence[str], settings: dict | None = None) -> str:
    """Digest of what decides every judgement of a run alike.

    Args:
        tiers: the tiers that run (``Tiers.used``).
        settings: config-file settings passed through to the run (``CheckOptions.settings``).

    Returns:
        A hex SHA-256 over the payload format, citeproof's version and code
        (:func:`code_fingerprint`), the tiers, their models
        (:func:`model_versions`), the verdict policy and the settings.
    """
    from citeproof.judges.policy import POLICY

    # a set as its sorted items: str() of a frozenset (Policy.accusing) follows the process's string hashing, which made
    # every key differ from one run to the next (a warm re-run judged everything again)
    policy = {k: sorted(v) if isinstance(v, (set, frozenset)) else v for k, v in dataclasses.asdict(POLICY).items()}
    return _digest({"format": FORMAT, "version": __version__, "code": code_fingerprint(), "tiers": list(tiers),
                    "models": model_versions(tiers), "policy": policy, "settings": settings or {}})


def source_fingerprint(source: Source) -> str:
    """The source's content hash plus a digest of what was parsed from it (text, passage count, pages, origin, error)."""
    return _digest([source.sha256, source.media_type, source.origin, source.error, source.pages, len(source.passages),
                    hashlib.sha256(source.text.encode("utf-8", "surrogatepass")).hexdigest()])


_REF_FIELDS = tuple(f.name for f in dataclasses.fields(Reference) if f.name != "origin")


def _ref_part(ref: Reference | None) -> list | None:
    """The entry's fields, without ``origin`` (its ``file:line``: an entry added above it must not re-judge it)."""
    if ref is None:
        return None
    return [getattr(ref, name) for name in _REF_FIELDS]  # tuples and attachments are written by json's default=str


def _cite_part(c: Citation) -> list:
    return [c.citekey, c.mode.value, c.prefix, c.suffix, c.locator.raw if c.locator else None,
            c.locator.label if c.locator else None, c.locator.value if c.locator else None, c.signal, c.raw, c.group_size]


class JudgementCache:
    """The judgements of one run: looked up before judging, stored after.

    Args:
        cache: the run's :class:`~citeproof.sources.cache.Cache` (a cache without a
            folder, ``--no-cache``, stores and finds nothing).
        tiers: the tiers that run (``Tiers.used``); with ``llm`` among them nothing is cached.
        settings: the run's pass-through settings (part of the key).

    Attributes:
        reused: citations reaching the tiers whose judgement came from the cache in this run.
        judged: citations reaching the tiers that were judged in this run (reused + judged = all such citations).
    """

    def __init__(self, cache: Cache, tiers: Sequence[str], settings: dict | None = None) -> None:
        self.cache = cache
        self.enabled = cache.folder is not None and "llm" not in tiers
        self.run = run_fingerprint(tiers, settings) if self.enabled else ""
        self.reused = 0
        self.judged = 0
        self._sources: dict[int, str] = {}  # id(source) -> fingerprint, for this run (the sources live as long as the run)

    def _source_part(self, source: Source | None) -> str | None:
        if source is None:
            return None
        if id(source) not in self._sources:
            self._sources[id(source)] = source_fingerprint(source)
        return self._sources[id(source)]

    def key(self, claim: Claim, index: int, ref: Reference | None, source: Source | None, duplicate: bool) -> str:
        """Key of ``claim.citations[index]``'s judgement (hex SHA-256), positions left out.

        Args:
            claim: the claim unit.
            index: which of its citations.
            ref: the citation's bibliography entry (None: unknown citekey).
            source: its resolved source, or None.
            duplicate: the citekey is defined twice in the bibliography.
        """
        from citeproof.judges.policy import explanatory_parenthetical
        from citeproof.text.normalise import terms

        # the preceding sentence is judged only when the claim unit has no words of its own (pipeline._judge_citation)
        context = claim.context if not terms(claim.text) or explanatory_parenthetical(claim.raw, claim.citations[index].raw) is not None else ""
        return _digest([self.run, claim.text, claim.raw, context, claim.kind.value, [_cite_part(c) for c in claim.citations], index,
                        _ref_part(ref), self._source_part(source), duplicate])

    def judge_all(self, claims: Sequence[Claim], reference: Callable[[str], Reference | None], sources: dict[str, Source],
                  duplicate_keys: set[str], judge_one: Callable[[tuple[Claim, Citation]], Finding],
                  judge_joint: Callable[[list[Finding]], None], progress: Callable[[str, int, int], None] | None = None,
                  mapper: Callable[..., Iterable[Finding]] = map) -> list[Finding]:
        """Every citation's finding in document order: reused where the key matches, else judged and stored.

        Args:
            claims: the claim units, in document order.
            reference: citekey -> bibliography entry (None: unknown).
            sources: citekey -> resolved source.
            duplicate_keys: citekeys defined twice.
            judge_one: judges one ``(claim, citation)`` (``pipeline._judge_citation`` with the run's tiers).
            judge_joint: the joint pass over findings judged in this run
                (:func:`citeproof.judges.joint.judge_in_parts`: citation groups, then compound claims).
            progress: ``progress("citations", done, total)``.
            mapper: applies ``judge_one`` to the citations to judge, results in order
                (``map``, or a thread pool's ``map`` when LLM requests overlap).

        Returns:
            The findings, one per citation, in document order (not yet ranked).
        """
        slots = [(claim, i) for claim in claims for i in range(len(claim.citations))]

        def readable(n: int) -> bool:  # the citation reaches the tiers
            cite = slots[n][0].citations[slots[n][1]]
            src = sources.get(cite.citekey)
            return reference(cite.citekey) is not None and src is not None and src.usable

        keys: list[str | None] = [None] * len(slots)
        groups = _groups(slots)
        for members in {tuple(m) for m in groups.values()}:
            if sum(1 for m in members if readable(m)) < 2:  # the joint pass leaves such a group's findings alone
                for m in members:
                    groups.pop(m)
        if self.enabled:
            base = [self.key(cl, i, reference(cl.citations[i].citekey), sources.get(cl.citations[i].citekey), cl.citations[i].citekey in duplicate_keys)
                    if n in groups or readable(n) else "" for n, (cl, i) in enumerate(slots)]
            for n in range(len(slots)):
                members = groups.get(n)
                if members is not None:  # every member, readable or not: the joint pass writes on all of them
                    keys[n] = _digest([base[n], [base[m] for m in members]])
                elif readable(n):
                    keys[n] = base[n]
        hits: dict[int, Finding] = {}
        for n, key in enumerate(keys):
            if key is not None:
                cl, i = slots[n]
                cite = cl.citations[i]
                f = self._get(key, cl, cite, reference(cite.citekey), sources.get(cite.citekey))
                if f is not None:
                    hits[n] = f
        for members in {tuple(m) for m in groups.values()}:  # a group is reused whole or judged whole
            if not all(m in hits for m in members):
                for m in members:
                    hits.pop(m, None)
        findings: list[Finding | None] = [hits.get(n) for n in range(len(slots))]
        pending = [n for n in range(len(slots)) if n not in hits]
        fresh: list[tuple[int, Finding]] = []
        if progress and hits:
            progress("citations", len(hits), len(slots))
        for n, f in zip(pending, mapper(judge_one, [(slots[n][0], slots[n][0].citations[slots[n][1]]) for n in pending]), strict=True):
            findings[n] = f
            fresh.append((n, f))
            if progress:
                progress("citations", len(hits) + len(fresh), len(slots))
        judge_joint([f for _n, f in fresh])
        self.reused = sum(1 for n in hits if readable(n))
        self.judged = sum(1 for n, _f in fresh if readable(n))
        for n, f in fresh:
            if keys[n] is not None and f.verdict != Verdict.ERROR:  # an internal error is never kept
                self.cache.put_judgement(keys[n], encode(f))
        return findings  # type: ignore[return-value]  # every slot is filled

    def _get(self, key: str, claim: Claim, cite: Citation, ref: Reference | None, source: Source | None) -> Finding | None:
        payload = self.cache.get_judgement(key)
        if payload is None or payload.get("format") != FORMAT:
            return None
        try:
            return decode(payload, claim, cite, ref, source)
        except (KeyError, TypeError, ValueError):
            return None  # a row of another layout is a miss; it is overwritten

    def metadata(self) -> dict[str, Any]:
        """``{"enabled", "reused", "judged"}`` for the report's metadata (``judgement_cache``)."""
        return {"enabled": self.enabled, "reused": self.reused, "judged": self.judged}


def _groups(slots: Sequence[tuple[Claim, int]]) -> dict[int, list[int]]:
    """Slot index -> the slot indexes of its citation group (the grouping :func:`~citeproof.judges.joint.judge_joint_citations` uses)."""
    by: dict[tuple, list[int]] = {}
    for n, (cl, i) in enumerate(slots):
        c = cl.citations[i]
        if c.group_size > 1:
            by.setdefault((id(cl), cl.id, c.raw, c.line), []).append(n)
    return {n: members for members in by.values() for n in members}


def _plain(x: Any) -> Any:
    """JSON-ready copy: numpy scalars as Python numbers, tuples as lists."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        return x.item()
    return x


def _evidence_out(e: Evidence) -> dict[str, Any]:
    return {"passage": _plain(dataclasses.asdict(e.passage)), "scores": _plain(e.scores), "matched_terms": list(e.matched_terms), "sentence": e.sentence}


def _evidence_in(d: dict[str, Any], source: Source | None) -> Evidence:
    return Evidence(passage=_passage(d["passage"], source), source=source, scores=dict(d["scores"]),  # type: ignore[arg-type]
                    matched_terms=tuple(d["matched_terms"]), sentence=d["sentence"])


def encode(f: Finding) -> dict[str, Any]:
    """A finding's judgement (:data:`CACHED_FIELDS`) as a JSON object."""
    return {
        "format": FORMAT, "verdict": f.verdict.value, "score": _plain(f.score), "confidence": _plain(f.confidence), "tier": f.tier.value,
        "evidence": _evidence_out(f.evidence) if f.evidence is not None else None, "reasons": list(f.reasons), "flags": list(f.flags), "llm": _plain(f.llm),
        "tags": [{"name": t.name, "message": t.message, "confidence": _plain(t.confidence), "evidence": [_plain(dataclasses.asdict(e)) for e in t.evidence],
                  "proven": t.proven} for t in f.tags],
        "alternatives": [_evidence_out(e) for e in f.alternatives],
    }


def _passage(d: dict[str, Any], source: Source | None) -> Passage:
    """The source's own passage object when it has that id and text, else one rebuilt from ``d``."""
    if source is not None:
        for p in source.passages:
            if p.id == d["id"] and p.text == d["text"]:
                return p
    d = dict(d)
    for k in ("bbox", "bbox_end", "margin_numbers"):
        if d.get(k) is not None:
            d[k] = tuple(d[k])
    return Passage(**d)


def decode(payload: dict[str, Any], claim: Claim, cite: Citation, ref: Reference | None, source: Source | None) -> Finding:
    """The finding :func:`encode` stored, attached to this run's claim, citation, entry and source.

    Raises:
        KeyError, TypeError, ValueError: the payload is not of this layout.
    """
    evidence = _evidence_in(payload["evidence"], source) if payload["evidence"] is not None else None
    tags = [Tag(t["name"], t["message"], t["confidence"], tuple(TagEvidence(**e) for e in t["evidence"]), proven=bool(t["proven"]))
            for t in payload["tags"]]
    return Finding(claim=claim, citation=cite, verdict=Verdict(payload["verdict"]), score=payload["score"], confidence=payload["confidence"],
                   tier=Tier(payload["tier"]), evidence=evidence, reasons=list(payload["reasons"]), tags=tags, flags=list(payload["flags"]),
                   reference=ref, source=source, llm=payload["llm"], alternatives=[_evidence_in(e, source) for e in payload["alternatives"]])
