"""The LLM tier: any OpenAI-compatible chat-completions endpoint, never trusted on its say-so.

Parts (issue 13):

* :class:`~citeproof.judges.llm_client.LLMClient` (in ``llm_client.py``)
  posts ``/chat/completions`` over httpx: JSON output via ``response_format``
  where the server accepts it, else a strict parse with one repair retry
  (:meth:`~citeproof.judges.llm_client.LLMClient.ask_json`); bounded
  concurrency, timeouts, retries on 429/5xx; responses cached in SQLite by
  (model, request hash); token and cost accounting with a budget checked
  *before* each call.
* :mod:`citeproof.judges.llm_contract` holds the prompts, the JSON Schemas and
  the strict reading of a reply (names re-exported here).
* :class:`LLMJudge` asks for one JSON object (``verdict``, ``quote``,
  ``confidence``, ``explanation``, ``tag``) about a claim over the top
  passages, aligns every quote to the source by code
  (:func:`citeproof.text.grounding.align`, the one aligner the quotation detectors use too), halves the confidence of an
  ungrounded quote and never lets it count as support, and sends low
  confidence, accusations and ungrounded answers to a second opinion over
  as much of the source as fits.

Source text is data, never instructions (issue 31, "a source cannot vote"):
it is fenced in ``<passage>`` elements with its angle brackets neutralised,
the system prompt says so, instruction-like text in what is sent is flagged
``prompt_injection_suspected`` (:mod:`citeproof.judges.injection`), and a
quote that is itself such text never counts. An answer may *lift* the
offline verdict (towards *supported*) only when its grounded quote, judged
alone by the offline judge (the entailment tier; the lexical tier where that
is not installed), does not go against the claim; otherwise the offline
verdict stands, flagged ``llm_disagrees`` and ``needs_review`` with both
positions in the note. Quotes lose any ``<passage>`` markup the model copied
before they are grounded and are capped at :data:`QUOTE_MAX_CHARS`; an
explanation about the request or its format rather than the claim is no
answer, and a repaired answer must restate the claim.

Environment: ``CITEPROOF_LLM_API_KEY`` (bearer key; optional for local
servers), ``CITEPROOF_LLM_URL`` and ``CITEPROOF_LLM_MODEL`` (defaults for
``--llm-url`` / ``--llm-model``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from citeproof.judges.base import Judgement
from citeproof.text.grounding import Alignment, align, grounded
from citeproof.judges.injection import instruction_like
from citeproof.judges.llm_contract import (
    ASK_SCHEMA,
    ASK_SYSTEM,
    QUOTE_MAX_CHARS,
    REPAIR_SCHEMA,
    SYSTEM_PROMPT,
    VERDICT_SCHEMA,
    VERDICTS,
    build_messages,
    is_lift,
    parse_answer,
    parse_ask,
    strip_markup,
)
from citeproof.judges.llm_client import (
    Accounting,
    BudgetExceeded,
    ChatResult,
    DeadlineExceeded,
    LLMClient,
    LLMConfig,
    LLMError,
    ReplyRefused,
)
from citeproof.model import Claim, Evidence, Passage, Source, Tier, Verdict

__all__ = [
    "LLMConfig", "LLMClient", "LLMError", "BudgetExceeded", "DeadlineExceeded", "ReplyRefused", "ChatResult", "Accounting", "Opinion", "LLMJudge",
    "parse_answer", "parse_ask", "VERDICT_SCHEMA", "REPAIR_SCHEMA", "ASK_SCHEMA", "ask", "build_messages", "ASK_SYSTEM", "SYSTEM_PROMPT", "LOW_CONFIDENCE",
    "QUOTE_MAX_CHARS", "strip_markup", "is_lift", "VERDICTS",
]

LOW_CONFIDENCE = 0.6
"""An opinion less confident than this goes to the second opinion.

Not tuned: it matches the entailment tier's least deciding confidence
(:data:`citeproof.pipeline.ENTAILMENT_SUPPORT_AT`); no model able to judge
was available to tune it on (the test model, SmolLM2-135M, only proves the
plumbing). Measure with ``citeproof eval scifact --tier llm`` before changing it."""



@dataclass
class Opinion:
    """One model's answer, checked by code.

    Attributes:
        model: the model asked.
        scope: ``passages`` (top retrieved passages) or ``whole source``.
        verdict, quote, confidence, explanation, tag: the answer (confidence
            already halved when the quote is ungrounded).
        grounded: the quote passed the coverage/density gates (and, for
            *supported*, shares words with the claim).
        alignment: where the quote aligned, or None when there was no quote.
        prompt_tokens, completion_tokens, cached: accounting for this opinion.
        error: why there is no valid answer ('' when there is).
        refused: the reply broke a limit on untrusted input (size, JSON depth) and was not read.
    """

    model: str
    scope: str
    verdict: str = ""
    quote: str = ""
    confidence: float = 0.0
    explanation: str = ""
    tag: str | None = None
    grounded: bool = False
    alignment: Alignment | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    error: str = ""
    refused: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        al = self.alignment
        return {
            "model": self.model, "scope": self.scope, "verdict": self.verdict or None, "quote": self.quote,
            "confidence": round(self.confidence, 4), "explanation": self.explanation, "tag": self.tag, "grounded": self.grounded,
            "alignment": ({"char_start": al.start, "char_end": al.end, "coverage": al.coverage, "density": al.density} if al else None),
            "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens, "cached": self.cached, "error": self.error or None,
            **({"refused": True} if self.refused else {}),
        }


def _passage_at(source: Source, start: int) -> Passage | None:
    """The passage of ``source`` whose character span holds offset ``start``."""
    for p in source.passages:
        if p.char_start <= start < max(p.char_end, p.char_start + 1):
            return p
    return None


class LLMJudge:
    """Judge a claim with an LLM, then check its quote by code; ask a second opinion when in doubt.

    Args:
        client: the :class:`LLMClient`.
        top_passages: retrieved passages sent in the first prompt.
        quote_judge: the offline judge that reads a lifting answer's quote alone (a
            :class:`citeproof.judges.base.Judge`, or a callable giving one on first use); None: the
            entailment judge when it is installed, else the lexical judge.

    The first opinion sees the top retrieved passages. It stands when its
    quote is grounded, its confidence is at least :data:`LOW_CONFIDENCE` and
    it says *supported*. Otherwise (an accusation, low confidence, or an
    ungrounded quote) a second opinion is asked: ``config.second_model`` (or
    the same model) over the whole source, up to ``config.context_chars``;
    none when that would be the same request (the same model, and the first
    prompt already held the whole source). A grounded second opinion decides;
    else a grounded first opinion does, marked ``needs_review``; else the tier
    abstains and :meth:`judge` returns no judgement (the offline tiers'
    verdict stands, and the finding says so). An ungrounded quote never
    counts as support, and an answer that lifts the offline verdict needs
    the quote check (see the module's docstring).
    """

    tier = Tier.LLM

    def __init__(self, client: LLMClient, top_passages: int = 6, quote_judge: Any = None) -> None:
        self.client = client
        self.top_passages = top_passages
        self._quote_judge = quote_judge
        import threading

        self._quote_lock = threading.Lock()

    @property
    def model(self) -> str:
        """The first-opinion model's name."""
        return self.client.config.model

    def quote_judge(self) -> Any:
        """The offline judge of lifting quotes, made on first use."""
        with self._quote_lock:
            return self._make_quote_judge()

    def _make_quote_judge(self) -> Any:
        qj = self._quote_judge
        if qj is None:
            from citeproof.judges import entailment

            if entailment.unavailable_reason() is None:
                qj = entailment.EntailmentJudge()
            else:
                from citeproof.judges.lexical import LexicalJudge

                qj = LexicalJudge()
        elif callable(qj) and not hasattr(qj, "judge"):
            qj = qj()
        self._quote_judge = qj
        return qj

    def opinion(self, claim: Claim, passages: list[Passage], source: Source, signal: str | None, model: str, scope: str) -> Opinion:
        """Ask ``model`` once (plus one repair retry on a malformed reply) and ground its quote.

        Raises:
            BudgetExceeded: the budget (or the deadline) stops the call.
        """
        op = Opinion(model=model, scope=scope)
        try:
            ans, op.prompt_tokens, op.completion_tokens, op.cached, op.error = self.client.ask_json(
                build_messages(claim, passages, signal), model, lambda t: parse_answer(t, claim.text), VERDICT_SCHEMA,
                repair_note=f'Add the key "claim" holding the claim you judge, word for word: {claim.text}',
                repair_parse=lambda t: parse_answer(t, claim.text, restate=True), repair_schema=REPAIR_SCHEMA)
        except ReplyRefused as exc:
            op.error, op.refused = str(exc), True
            return op
        if ans is None:
            return op
        op.verdict, op.quote, op.confidence, op.explanation, op.tag = ans["verdict"], ans["quote"], ans["confidence"], ans["explanation"], ans["tag"]
        self._ground(op, claim, source, signal)
        return op

    @staticmethod
    def _ground(op: Opinion, claim: Claim, source: Source, signal: str | None) -> None:
        """Align the quote to the source text; halve the confidence of an ungrounded one."""
        from citeproof.text.normalise import terms

        if op.quote.strip():
            op.alignment = align(op.quote, source.text)
            op.grounded = grounded(op.alignment, signal)
        if op.grounded:
            span = source.text[op.alignment.start : op.alignment.end]  # type: ignore[union-attr]
            if instruction_like(span):
                # the quote is the source's instruction to the model: it is data, and it decides nothing
                op.grounded = False
                op.error = "the quote is instruction-like text of the source (prompt_injection_suspected)"
            elif op.verdict == "supported" and not set(terms(claim.text)) & set(terms(span)):
                # Support must quote words of the claim: a grounded line that says nothing of the claim vouches for nothing.
                op.grounded = False
                op.error = "the quote shares no word with the claim"
        if not op.grounded:
            op.confidence = op.confidence / 2

    def _needs_second(self, op: Opinion) -> bool:
        return bool(op.error) or not op.grounded or op.confidence < LOW_CONFIDENCE or op.verdict != "supported"

    def _whole_source(self, source: Source, first: list[Passage]) -> list[Passage]:
        """As much of the source as fits ``context_chars``: the first opinion's passages first, then reading order."""
        budget = self.client.config.context_chars
        first_ids = {pid for p in first for pid in p.id.split("+")}  # retrieval may merge neighbours: "p0002+p0003"
        ordered = [p for p in source.passages if p.id in first_ids] + [p for p in source.passages if p.id not in first_ids]
        out: list[Passage] = []
        used = 0
        for p in ordered:
            if used + len(p.text) > budget and out:
                continue
            out.append(p)
            used += len(p.text)
        return sorted(out, key=lambda p: p.char_start)

    @staticmethod
    def _injection(record: dict, sent: list[Passage]) -> None:
        """Flag ``prompt_injection_suspected`` when a passage sent to the model holds instruction-like text."""
        seen = {h["passage"] for h in record.get("injection", [])}
        for p in sent:
            if p.id in seen:
                continue
            for h in instruction_like(p.text)[:3]:
                record.setdefault("injection", []).append({"passage": p.id, "page": p.page, "kind": h.kind, "text": h.text})
        if record.get("injection") and "prompt_injection_suspected" not in record["flags"]:
            record["flags"].append("prompt_injection_suspected")

    def judge(self, claim: Claim, candidates: list[Evidence], signal: str | None = None, offline: Judgement | None = None) -> tuple[Judgement | None, dict]:
        """Decide ``claim`` over ``candidates`` (all from one source, best first).

        Args:
            claim: the claim unit.
            candidates: retrieved evidence, best first; empty gives no judgement.
            signal: the citation's signal (relaxes the grounding gates under see/cf.).
            offline: what the offline tiers decided (after the detectors), recorded in the result
                and the verdict a lifting answer is checked against.

        Returns:
            ``(judgement or None, record)``: None when the tier abstains (no
            grounded opinion, the budget or deadline ran out, the endpoint
            failed, or a lifting answer's quote did not bear it out); a
            judgement of verdict ``error`` when a reply was refused (size or
            JSON depth); ``record`` is the finding's ``llm`` block: ``model``,
            ``opinions`` (each :meth:`Opinion.to_dict`), ``decided_by``
            (``first opinion``, ``second opinion`` or ``offline tiers``),
            ``offline`` (tier, verdict, confidence), ``prompt_tokens``,
            ``completion_tokens``, ``cost``, ``flags``, ``note``, and when they apply
            ``injection`` (the instruction-like spans sent: passage, page, kind, text)
            and ``quote_check`` (the offline judge's reading of a lifting quote).
        """
        record: dict[str, Any] = {"model": self.model, "opinions": [], "decided_by": "offline tiers", "flags": [], "note": "",
                                  "offline": ({"tier": offline.tier.value, "verdict": offline.verdict.value, "confidence": round(offline.confidence, 4)} if offline else None)}
        if not candidates:
            record["note"] = "no passage to ask about"
            return None, record
        source = candidates[0].source
        passages = [e.passage for e in candidates[: self.top_passages]]
        self._injection(record, passages)
        ops: list[Opinion] = []
        decided: Opinion | None = None
        try:
            first = self.opinion(claim, passages, source, signal, self.model, "passages")
            ops.append(first)
            decided = first if not self._needs_second(first) else None
            if decided is None and not first.refused:
                second_model = self.client.config.second_model or self.model
                whole = self._whole_source(source, passages)
                first_ids = {pid for p in passages for pid in p.id.split("+")}
                if second_model == self.model and {p.id for p in whole} <= first_ids:
                    # the same model over the same text: the "second opinion" would be the first answer again (or its cached copy)
                    record["second_opinion"] = "not asked: the first prompt held the whole source, and the same model would give the same answer"
                    if first.grounded and not first.error:
                        decided = first
                        if first.confidence < LOW_CONFIDENCE:
                            record["flags"].append("needs_review")
                else:
                    self._injection(record, whole)
                    second = self.opinion(claim, whole, source, signal, second_model, "whole source")
                    ops.append(second)
                    if second.grounded and not second.error:
                        decided = second
                    elif first.grounded and not first.error and not second.refused:
                        decided = first
                        record["flags"].append("needs_review")
        except BudgetExceeded as exc:
            record["flags"].append("llm_deadline" if isinstance(exc, DeadlineExceeded) else "llm_budget")
            record["note"] = str(exc)
            decided = None
        self._account(record, ops)
        if any(o.quote and not o.grounded for o in ops):
            record["flags"].append("ungrounded")
        refused = [o for o in ops if o.refused]
        if refused:
            record["flags"].append("llm_reply_refused")
            record["note"] = f"the LLM's reply was refused unread: {refused[0].error}"
            return Judgement(verdict=Verdict.ERROR, score=0.0, confidence=0.0, evidence=None, tier=Tier.LLM,
                             reasons=[f"LLM {refused[0].model}: {refused[0].error}"], flags=["llm_reply_refused"]), record
        if decided is None:
            if not record["note"]:
                errs = [o.error for o in ops if o.error]
                record["note"] = ("the LLM gave no grounded answer" + (f" ({'; '.join(errs)})" if errs else "") + "; the offline tiers' verdict stands"
                                  + ("; no second opinion: the first prompt held the whole source" if "second_opinion" in record else ""))
            return None, record
        record["decided_by"] = "first opinion" if decided is ops[0] else "second opinion"
        judgement = self._judgement(decided, source, record)
        if is_lift(decided.verdict, offline.verdict.value if offline else None) and not self._quote_bears_out(claim, judgement, signal, record):
            record["decided_by"] = "offline tiers"
            record["flags"] += [x for x in ("llm_disagrees", "needs_review") if x not in record["flags"]]
            return None, record
        return judgement, record

    def _quote_bears_out(self, claim: Claim, judgement: Judgement, signal: str | None, record: dict) -> bool:
        """True when the offline judge, reading the decided quote alone, says *supported* or *partial* (the lexical judge: *supported*);
        the record says what it read.

        A grounded quote only proves the words are in the source, not that they bear on the claim (issue 31).
        """
        import hashlib

        from citeproof.retrieval.lexical import LexicalRetriever

        qj = self.quote_judge()
        quote = judgement.evidence.passage.text  # type: ignore[union-attr]
        alone = Passage(id="quote", text=quote, char_start=0, char_end=len(quote))
        qsrc = Source(citekey="quote", sha256=hashlib.sha256(quote.encode("utf-8", "replace")).hexdigest(), media_type="text/plain",
                      origin="llm quote", passages=[alone], text=quote)
        got = qj.judge(claim, [LexicalRetriever().evidence_for(claim.text, qsrc, 0)], signal)  # the quote alone, with its lexical coverage
        record["quote_check"] = {"tier": got.tier.value, "verdict": got.verdict.value, "confidence": round(got.confidence, 4)}
        # the lexical tier's "partial" is a weak word match, no reading: only its "supported" bears a quote out
        if got.verdict == Verdict.SUPPORTED or (got.verdict == Verdict.PARTIAL and got.tier != Tier.LEXICAL):
            return True
        shown = quote if len(quote) <= 200 else quote[:197] + "..."
        offline = record.get("offline") or {}
        record["note"] = (f"the LLM ({record['decided_by']}) said '{judgement.verdict.value}' quoting \u201c{shown}\u201d, but the {got.tier.value} "
                          f"judge reads that quote as '{got.verdict.value}' for this claim (confidence {got.confidence:.2f}): an answer lifts a verdict "
                          f"only with a quote that bears it out; the offline tiers' verdict"
                          + (f" '{offline['verdict']}'" if offline.get("verdict") else "") + " stands")
        return False

    def _account(self, record: dict, ops: list[Opinion]) -> None:
        record["opinions"] = [o.to_dict() for o in ops]
        record["prompt_tokens"] = sum(o.prompt_tokens for o in ops)
        record["completion_tokens"] = sum(o.completion_tokens for o in ops)
        record["cost"] = round(self.client.cost_of(record["prompt_tokens"], record["completion_tokens"]), 6)

    def _judgement(self, op: Opinion, source: Source, record: dict) -> Judgement:
        """The decided opinion as a Judgement whose evidence is the grounded quote, with its page and box."""
        al = op.alignment
        assert al is not None
        host = _passage_at(source, al.start)
        quote = Passage(
            id=(host.id if host else "q") + "+quote", text=source.text[al.start : al.end], page=host.page if host else None,
            bbox=host.bbox if host else None, line=host.line if host else None, char_start=al.start, char_end=al.end,
            section=host.section if host else "", quotable=host.quotable if host else True,
            time_start=host.time_start if host else None, time_end=host.time_end if host else None,
        )
        ev = Evidence(passage=quote, source=source, scores={"llm": round(op.confidence, 4), "grounding_coverage": al.coverage, "grounding_density": al.density})
        reasons = [f"LLM {op.model} ({record['decided_by']}, {op.scope}): {op.verdict}, confidence {op.confidence:.2f}" + (f"; {op.explanation}" if op.explanation else "")]
        reasons.append(f"its quote was found in the source (coverage {al.coverage:.2f}, density {al.density:.2f})")
        if len(record["opinions"]) > 1:
            reasons.append("opinions: " + "; ".join(
                f"{o['model']} over the {o['scope']}: {o['verdict'] or 'no valid answer'}"
                + (f" ({o['confidence']:.2f}, quote {'grounded' if o['grounded'] else 'ungrounded'})" if o["verdict"] else "")
                for o in record["opinions"]))
        return Judgement(verdict=Verdict(op.verdict), score=al.coverage, confidence=op.confidence, evidence=ev, tier=Tier.LLM, reasons=reasons)


def ask(client: LLMClient, question: str, source: Source, passages: list[Passage]) -> dict:
    """One question to one source: the model's answer, each quote grounded by code.

    Args:
        client: the client.
        question: the user's question.
        source: the source (its ``text`` is what quotes are aligned to).
        passages: the passages to send (the retrieval's best for the question).

    Returns:
        ``{"question", "answer", "model", "quotes": [{"text", "grounded", "page",
        "char_start", "char_end", "coverage", "density", "source_text"}],
        "prompt_tokens", "completion_tokens", "cost", "error"}``; ``answer`` is
        None and ``error`` says why when the model gave no valid reply.

    Raises:
        BudgetExceeded: the budget stops the call.
    """
    claim = Claim(id="q", text=question, raw=question, citations=(), document="<ask>", line=1)
    msgs = build_messages(claim, passages, None, system=ASK_SYSTEM)
    msgs[1]["content"] = msgs[1]["content"].replace("<claim>", "<question>", 1).replace("</claim>", "</question>", 1)
    ans, pt, ct, _cached, err = client.ask_json(msgs, None, parse_ask, ASK_SCHEMA)
    out: dict[str, Any] = {"question": question, "answer": ans["answer"] if ans else None, "model": client.config.model, "quotes": [],
                           "prompt_tokens": pt, "completion_tokens": ct, "cost": round(client.cost_of(pt, ct), 6), "error": err or None}
    for q in (ans or {}).get("quotes", []):
        al = align(q, source.text)
        ok = grounded(al)
        host = _passage_at(source, al.start) if ok else None
        out["quotes"].append({"text": q, "grounded": ok, "page": host.page if host else None, "char_start": al.start if ok else None,
                              "char_end": al.end if ok else None, "coverage": al.coverage, "density": al.density,
                              "source_text": source.text[al.start : al.end] if ok else None})
    return out
