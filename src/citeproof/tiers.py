"""The tiers of one run: retrieval (lexical, dense) and the deciding judge (entailment, LLM), and the lock they share.

Moved out of :mod:`citeproof.pipeline` (which re-exports every name): the tiers are what judges a
citation; the pipeline walks the document and its sources and calls them.
"""

from __future__ import annotations

import dataclasses
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from citeproof.judges.base import Judgement
from citeproof.judges.lexical import LexicalJudge
from citeproof.judges.policy import (
    POLICY,
    apply_contrary_signal,
    decide,
    is_contrary,
)
from citeproof.model import (
    Claim,
    Evidence,
    Source,
    Verdict,
)
from citeproof.retrieval.lexical import NON_EVIDENCE_SECTIONS, LexicalRetriever
from citeproof.text.normalise import terms

DENSE_POOL = 8
"""Passages per claim the dense tier re-ranks (the BM25 best, plus the abstract). 12, not 24 (issue 27, 2026-12-03):
on the scale job (``bench/scale.py``, cold, all tiers) 109.1 -> 91.1 CPU-s and expected verdicts 87 -> 88 of 100;
on ``citeproof eval meaning``'s 875 training rows, shipped lines, SciFact 0.418 / 0.418, Citation-Integrity
0.252 / 0.255, WiCE 0.429 / 0.424, term swaps supported 19.0% / 18.5% (``docs/meaning.md``). 8, not 12 (session 6,
another machine, one input a model call): 112.2 -> 104.0 CPU-s, expected verdicts 88 -> 88; the 875 rows, shipped
lines: SciFact 0.418 / 0.418, Citation-Integrity 0.258 / 0.264, WiCE 0.408 / 0.408, term swaps supported 17.5% /
17.5%, faithful called unsupported or contradicted 8.9% / 7.9%."""


ENTAILMENT_SUPPORT_AT = POLICY.support_at


ENTAILMENT_DECIDE_AT = POLICY.decide_at


ENTAILMENT_CONTRADICT_AT = POLICY.contradict_at


FALLBACK_SUPPORTED_AT = POLICY.fallback_supported_at


FALLBACK_PARTIAL_AT = POLICY.fallback_partial_at
"""The verdict policy's thresholds, kept under their old names: :mod:`citeproof.judges.policy` is their home."""


def identifier_terms(claim: Claim) -> set[str]:
    """Terms of the cited works' own identifiers (a DOI citekey's words), left out of retrieval queries.

    A table cell showing the DOI is no claim about the work's content. A citing PDF's numeric labels ("10")
    are no identifiers: excluding them would drop numbers from the claim.
    """
    return {t for c in claim.citations if not c.citekey.isdigit() for t in terms(c.citekey.replace(":", " ").replace("/", " "))}


class OfflineLock:
    """One thread at a time in the offline tiers; an LLM request waits outside it.

    The offline tiers share a SQLite cache and ONNX sessions and are
    CPU-bound, so several threads gain nothing there; an LLM request is
    network-bound, so :func:`check` judges citations in
    ``LLMConfig.concurrency`` threads and each lets the others in while it
    waits for its answer (:meth:`released`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None

    def __enter__(self) -> "OfflineLock":
        self._lock.acquire()
        self._owner = threading.get_ident()
        return self

    def __exit__(self, *exc: object) -> None:
        self._owner = None
        self._lock.release()

    @contextmanager
    def released(self):
        """Let other threads in for the body, when this thread holds the lock (else a no-op)."""
        if self._owner != threading.get_ident():
            yield
            return
        self.__exit__()
        try:
            yield
        finally:
            self.__enter__()


_MODELS: dict[tuple[str, object], object] = {}
"""Loaded ONNX models by (tier, class), shared by every :class:`Tiers` of the process (the web page and batch run many checks)."""


_MODELS_LOCK = threading.Lock()


def _shared_model(tier: str, make: Callable[[], object]) -> object:
    """The process's one ``make()`` for ``tier`` (an ``Embedder`` or ``EntailmentModel``; each guards its session with a lock).

    Loaded under a lock: an LLM thread checking a quote and the offline thread may ask at once."""
    with _MODELS_LOCK:
        if (tier, make) not in _MODELS:
            _MODELS[(tier, make)] = make()
        return _MODELS[(tier, make)]


class Tiers:
    """The tiers of one run: retrieval (lexical, optionally fused with dense) and the deciding judge.

    Args:
        wanted: tier names to run (None: every available tier).
        cache_dir: folder for the embedding cache (None: in memory only).

    Attributes:
        used: the tiers that run, in order (``lexical`` always).
        notes: why a wanted tier does not run (missing package or model file).

    Retrieval: the lexical retriever (BM25 + coverage) proposes candidates; with
    the dense tier, its ranking and the dense ranking (all-MiniLM-L6-v2 cosine
    over the :data:`DENSE_POOL` best BM25 passages and the abstract) are fused
    by reciprocal rank fusion (Cormack et al., SIGIR 2009, k = 60).
    Judging: the entailment judge decides when it runs, else the lexical judge.
    Tiers never mix silently: each finding's ``tier`` names the judge, and the
    evidence keeps each tier's own scores.
    The models load on first use and are shared by the process's runs (issue 17):
    a run whose judgements all come from the cache loads none.
    """

    def __init__(self, wanted: list[str] | None = None, cache_dir: Path | None = None, llm: object | None = None) -> None:
        self.used: list[str] = ["lexical"]
        self.notes: list[str] = []
        self.retriever = LexicalRetriever()
        self.lexical_judge = LexicalJudge()
        self.fallback_judge = LexicalJudge(FALLBACK_SUPPORTED_AT, FALLBACK_PARTIAL_AT)
        self._dense = None
        self._entailment = None
        self._loaders: dict[str, Callable[[], object]] = {}
        self.llm = None
        self.lock = OfflineLock()
        want = set(wanted) if wanted else {"lexical", "dense", "entailment"}
        if want & {"dense", "entailment", "llm"}:
            from citeproof.onnx_session import default_threads

            default_threads()  # a bad CITEPROOF_THREADS fails here, before any work, not at the first model load
        if want == {"llm"}:
            want |= {"dense", "entailment"}  # the LLM's findings show what the offline tiers said
        if "dense" in want:
            from citeproof.retrieval import dense

            why = dense.unavailable_reason()
            if why is None:
                self._loaders["dense"] = lambda: dense.DenseRetriever(cache_dir, embedder=_shared_model("dense", dense.Embedder))
                self.used.append("dense")
            else:
                self.notes.append(f"dense tier not run: {why}")
        if "entailment" in want:
            from citeproof.judges import entailment

            why = entailment.unavailable_reason()
            if why is None:
                self._loaders["entailment"] = lambda: entailment.EntailmentJudge(_shared_model("entailment", entailment.EntailmentModel))
                self.used.append("entailment")
            else:
                self.notes.append(f"entailment tier not run: {why}")
        if "llm" in want:
            if llm is None:
                self.notes.append("llm tier not run: give the endpoint with --llm-url and --llm-model (or CITEPROOF_LLM_URL, CITEPROOF_LLM_MODEL)")
            else:
                from citeproof.judges.llm import LLMClient, LLMJudge

                # a lifting answer's quote is read by the entailment judge the process shares (the lexical one without it)
                self.llm = LLMJudge(LLMClient(llm), quote_judge=self._quote_judge)  # type: ignore[arg-type]
                self.used.append("llm")

    def _quote_judge(self):
        """The judge of an LLM answer's quote: the run's entailment judge, or one on the shared model when the run does not use that tier."""
        if self._entailment is not None:  # not the loading property: the offline thread may be loading it right now
            return self._entailment
        from citeproof.judges import entailment

        if entailment.unavailable_reason() is None:
            return entailment.EntailmentJudge(_shared_model("entailment", entailment.EntailmentModel))
        return self.lexical_judge

    @property
    def dense(self):
        """The dense retriever, loaded on first use (a run whose citations all come from the judgement cache loads no model)."""
        if self._dense is None and "dense" in self._loaders:
            self._dense = self._loaders["dense"]()  # a failure raises here, for this citation, and is tried again for the next
            del self._loaders["dense"]
        return self._dense

    @property
    def entailment(self):
        """The entailment judge, loaded on first use (see :attr:`dense`)."""
        if self._entailment is None and "entailment" in self._loaders:
            self._entailment = self._loaders["entailment"]()
            del self._loaders["entailment"]
        return self._entailment

    def loaded(self, tier: str) -> object | None:
        """The ``dense`` or ``entailment`` component if it was loaded in this run, without loading it."""
        return {"dense": self._dense, "entailment": self._entailment}.get(tier)

    def dense_pool(self, text: str, source: Source, pages: list[int] | None, exclude: set[str]) -> list[int]:
        """Indices of the passages the dense tier ranks for one claim: the :data:`DENSE_POOL` best by BM25, plus the abstract.

        Dense re-ranks the BM25 pool rather than embedding a 1,000-passage book per run.
        """
        allowed = [i for i, p in enumerate(source.passages) if (not pages or p.page in pages) and p.section not in NON_EVIDENCE_SECTIONS]
        if len(allowed) > DENSE_POOL:
            q = [t for t in terms(text) if t not in exclude]
            bm = self.retriever.index_for(source).bm25_scores(q)
            pool = sorted(allowed, key=lambda i: -bm[i])[:DENSE_POOL]
            pool += [i for i in allowed if source.passages[i].section == "abstract" and i not in pool]
            allowed = sorted(pool)
        return allowed

    def prefetch(self, items: list[tuple[Claim, Source | None]], progress: Callable[[str, int, int], None] | None = None) -> None:
        """Embed, in one batch per source, the dense pools of the claims about to be judged (issue 17).

        Each passage is embedded once per source and run anyway; batching the
        claims' pools of one source together (and every claim text in one call)
        lets the token-budget batches (:func:`citeproof.onnx_session.token_batches`)
        group passages of like length. The pools are those of the claim text
        with no page restriction: a claim judged on its parenthetical, its
        context or a locator's pages embeds what it lacks when judged. No-op
        without the dense tier. ``progress("embedding", done, total)`` counts the sources embedded (the claims
        first, as one; loading the model is part of that first step).
        """
        if "dense" not in self._loaders and self._dense is None:
            return
        by_source: dict[str, tuple[Source, set[int]]] = {}
        texts: list[str] = []
        for claim, source in items:
            if source is None or not source.usable or not source.sha256:
                continue
            exclude = identifier_terms(claim)
            by_source.setdefault(source.sha256, (source, set()))[1].update(self.dense_pool(claim.text, source, None, exclude))
            texts.append(claim.text)
        if not texts:
            return
        total = len(by_source) + 1
        if progress:
            progress("embedding", 0, total)
        if self.dense is None:
            if progress:
                progress("embedding", total, total)
            return
        self.dense.embed_queries(texts)
        if progress:
            progress("embedding", 1, total)
        for n, (sha, (source, pool)) in enumerate(by_source.items(), start=2):
            self.dense.passage_vectors([source.passages[i] for i in sorted(pool)], sha)
            if progress:
                progress("embedding", n, total)

    def candidates(self, text: str, source: Source, pages: list[int] | None, exclude: set[str]) -> list[Evidence]:
        """Candidate evidence, best first (lexical, or lexical and dense fused)."""
        lex = self.retriever.retrieve(text, source, pages=pages, exclude_terms=exclude, top=20)
        if self.dense is None or not lex:
            return lex[:8]
        from citeproof.retrieval.dense import reciprocal_rank_fusion

        allowed = self.dense_pool(text, source, pages, exclude)
        ranked = self.dense.rank(text, [source.passages[i] for i in allowed], source.sha256)
        dense_order = [allowed[i] for i, _ in ranked[:20]]
        cos = {allowed[i]: c for i, c in ranked[:20]}
        index_of = {p.id: i for i, p in enumerate(source.passages)}
        lex_order = [index_of.get(e.passage.id.split("+")[0], -1) for e in lex]
        by_index = {index_of.get(e.passage.id.split("+")[0], -1): e for e in lex}
        fused = reciprocal_rank_fusion([lex_order, dense_order])
        out: list[Evidence] = []
        for i, _score in fused:
            if i < 0:
                continue
            ev = by_index.get(i) or self.retriever.evidence_for(text, source, i, exclude)
            if i in cos:
                ev.scores["dense"] = round(cos[i], 4)
            out.append(ev)
            if len(out) >= 8:
                break
        return out

    def judge(self, claim: Claim, cands: list[Evidence], signal: str | None, ask_llm: bool = True,
              after_detectors: Callable[[Judgement], tuple[Verdict, list[str]]] | None = None) -> Judgement:
        """The deciding judge's verdict: the LLM tier's when it runs and gives a grounded answer, else the offline tiers'.

        Args:
            claim, cands, signal: the claim, its candidates (best first), the citation's signal.
            ask_llm: False keeps the LLM out (a unit that is no claim, e.g. a table row of identifiers).
            after_detectors: maps the offline judgement to ``(verdict, downgrading tag names)`` once the
                failure-mode detectors ran (:func:`citeproof.judges.policy.apply_detectors`); that is the
                offline verdict the finding would have had, shown beside the LLM's and the one an LLM
                answer must bear out to lift. None: the judge's verdict as it is.

        The offline verdict is always computed first and recorded in the
        judgement's ``llm`` block, so a finding shows what each tier said.
        """
        offline = self.offline_judge(claim, cands, signal)
        if self.llm is None:
            return offline
        if not ask_llm:
            offline.reasons.append("LLM tier: not asked (the unit names works and identifiers; there is no claim to check)")
            return offline
        shown, tags = (after_detectors(offline) if after_detectors is not None else (offline.verdict, []))
        seen = dataclasses.replace(offline, verdict=shown) if shown != offline.verdict else offline
        with self.lock.released():  # other citations' offline work goes on while this one waits for the LLM
            decided, record = self.llm.judge(claim, cands, signal, offline=seen)
        if shown != offline.verdict and record.get("offline"):
            record["offline"]["judge_verdict"] = offline.verdict.value
            record["offline"]["detectors"] = tags
        after = f"; '{shown.value}' after the detectors ({', '.join(tags)})" if shown != offline.verdict else ""
        said = f"the offline tiers said '{offline.verdict.value}' ({offline.tier.value}, confidence {offline.confidence:.2f}){after}"
        if record.get("injection"):
            hit = record["injection"][0]
            where = f"passage {hit['passage']}" + (f", page {hit['page']}" if hit.get("page") else "")
            injected = (f"the source holds instruction-like text (\u201c{hit['text']}\u201d, {where}): it was sent as data, never as an "
                        "instruction; read this finding against the source yourself (flag prompt_injection_suspected)")
        else:
            injected = ""
        if decided is None:
            offline.llm = record
            offline.reasons.append(f"LLM tier ({record['model']}): {record['note']}")
            if injected:
                offline.reasons.append(injected)
            return offline
        decided.llm = record
        if decided.verdict == Verdict.ERROR:
            decided.reasons.append(said + "; the LLM tier failed on this citation, so it is reported as an error")
        else:
            decided.reasons.append(said)
        if injected:
            decided.reasons.append(injected)
        return decided

    def offline_judge(self, claim: Claim, cands: list[Evidence], signal: str | None) -> Judgement:
        """The offline tiers' verdict, by the verdict policy (:func:`citeproof.judges.policy.decide`).

        A contrary signal (*but see*, *contra*, *but cf.*) is not a relaxed
        *see*: the claim is judged as written and the judgement then mapped by
        :func:`citeproof.judges.policy.apply_contrary_signal`.
        """
        contrary = is_contrary(signal)
        sig = None if contrary else signal
        by_coverage = sorted(cands, key=lambda e: -e.scores.get("lexical", 0.0))
        if self.entailment is None or not cands:
            j = decide(None, self.lexical_judge.judge(claim, by_coverage, sig))
        else:
            # The full-text layer (judges/fulltext.py, eval citation-integrity: nested CV 0.377 vs 0.337) is not
            # used here: on the scale job it agreed with 76 of 100 expected verdicts against 90 (verbatim sentences
            # 26/34 supported, foreign ones 21/33 rejected) and cost the demo a top-five finding (issue 16 note).
            j = decide(self.entailment.judge(claim, cands, sig), self.fallback_judge.judge(claim, by_coverage, sig), claim=claim.text)
        return apply_contrary_signal(j, signal) if contrary else j
