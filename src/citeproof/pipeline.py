"""The one place that knows the order of the stages.

``read document -> claims``; ``read bibliographies -> references``;
``resolve -> sources -> passages``; ``retrieve -> judge -> detectors ->
findings``; sort worst first into a :class:`~citeproof.model.Report`.
Writers live in :mod:`citeproof.reports`; the CLI and the web page call
:func:`check` and hold no logic of their own.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from citeproof import __version__
from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.errors import CiteproofError, InputError, UnknownFormatError
from citeproof.judgecache import JudgementCache
from citeproof.judges.base import Judgement
from citeproof.judges.joint import judge_joint_citations
from citeproof.judges.language import mark_cross_language
from citeproof.judges.lexical import LexicalJudge
from citeproof.judges.policy import (
    POLICY,
    apply_contrary_signal,
    apply_detectors,
    decide,
    explanatory_parenthetical,
    is_contrary,
    mark_naming,
)
from citeproof.model import Citation, Claim, Diagnostic, Evidence, Finding, Reference, Report, Source, UnitKind, Verdict
from citeproof.readers.attributions import AttributionReader
from citeproof.readers.docx import DocxReader
from citeproof.readers.latex import LatexReader
from citeproof.readers.markdown import MarkdownReader
from citeproof.readers.pdf import PdfReader
from citeproof.retrieval.lexical import NON_EVIDENCE_SECTIONS, LexicalRetriever
from citeproof.text.normalise import terms
from citeproof.sources import SourceResolver
from citeproof.sources.metadata import compare as compare_metadata
from citeproof.sources.ocr import check_mode
from citeproof.sources.cache import Cache, default_cache_dir
from citeproof.sources.pdf import sheets_for_pages
from citeproof.sources.text import parse_text

__all__ = [
    "CheckOptions",
    "check",
    "read_claims",
    "read_document",
    "read_input",
    "reader_for",
    "READERS",
    "merge_printed_references",
    "attention_rank",
    "judge_text",
    "summarise",
    "Progress",
]

KNOWN_TIERS = ("lexical", "dense", "entailment", "llm")
"""Tier names ``--tier`` accepts (``DESIGN.md``, tiers)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as work advances (stage: ``sources``, ``citations``)."""

READERS: dict[str, Callable[[], object]] = {
    ".md": MarkdownReader,
    ".markdown": MarkdownReader,
    ".pandoc": MarkdownReader,
    ".rmd": MarkdownReader,
    ".qmd": MarkdownReader,
    ".txt": MarkdownReader,
    ".tex": LatexReader,
    ".ltx": LatexReader,
    ".tar.gz": LatexReader,
    ".tgz": LatexReader,
    ".pdf": PdfReader,
    ".docx": DocxReader,
    ".json": AttributionReader,
    ".odt": DocxReader,
}
"""Citing-document readers by file suffix (a plain dict registry, ``STYLE.md``).

Readers with a ``read_document(path)`` method also hand back the document's
own bibliography (a LaTeX file's .bib or .bbl, a PDF's printed reference
list); :func:`check` uses it when no ``--bib`` is given."""


def reader_for(path: Path) -> object:
    """A reader instance for ``path``'s suffix (``.tar.gz`` counts as one suffix).

    Raises:
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    name = path.name.lower()
    for suffix in sorted(READERS, key=len, reverse=True):
        if name.endswith(suffix):
            return READERS[suffix]()
    raise UnknownFormatError(f"{path}: no reader for '{path.suffix}' files; citeproof reads {', '.join(sorted(READERS))}")


def read_document(path: Path) -> tuple[list[Claim], Bibliography | None]:
    """Read a citing document: its claims and, when it carries one, its own bibliography.

    Returns:
        ``(claims, bibliography or None)``. Markdown gives None; LaTeX the
        .bib/.bbl it names; a PDF its printed reference list keyed by the
        labels as printed.

    Raises:
        InputError: the file does not exist or cannot be read.
        UnknownFormatError: no reader for the suffix.
    """
    claims, bib, _diagnostics = read_input(path)
    return claims, bib


def read_input(path: Path) -> tuple[list[Claim], Bibliography | None, list[Diagnostic]]:
    """:func:`read_document` plus the reader's own diagnostics (encoding fall-back, text read as plain text...).

    Raises:
        InputError: the file does not exist or cannot be read.
        UnknownFormatError: no reader for the suffix.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file; check the path of the citing document")
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give the citing document itself (e.g. {path}/draft.md)")
    reader = reader_for(path)
    if isinstance(reader, PdfReader):
        # an untrusted PDF: parsed in a worker with a time and memory limit (citeproof.sources.sandbox)
        from citeproof.sources.sandbox import ParseLimitError, run_limited

        try:
            kind, *rest = run_limited(_read_pdf_document, path)
        except ParseLimitError as exc:
            raise InputError(f"{path}: {exc}") from None
        if kind == "error":
            raise InputError(rest[0])
        return rest[0], rest[1], []  # the PDF's own diagnostics travel in its bibliography's
    if hasattr(reader, "read_document"):
        doc = reader.read_document(path)
        return doc.claims, doc.bibliography(), list(getattr(doc, "diagnostics", []))
    return reader.read(path), None, []  # type: ignore[attr-defined]


def _read_pdf_document(path: Path) -> tuple:
    """``("ok", claims, bibliography)`` of a citing PDF, or ``("error", message)`` (run in a parse worker)."""
    try:
        doc = PdfReader().read_document(path)
    except CiteproofError as exc:
        return ("error", str(exc))
    return ("ok", doc.claims, doc.bibliography())


def read_claims(path: Path) -> list[Claim]:
    """Read a citing document with the reader registered for its suffix.

    Raises:
        InputError: the file does not exist.
        UnknownFormatError: no reader for the suffix.
    """
    return read_document(path)[0]


def merge_printed_references(printed: Bibliography, given: Bibliography) -> Bibliography:
    """Enrich a PDF's printed reference list with matching ``--bib`` entries.

    Each printed entry keeps its printed label as citekey; when a ``--bib``
    entry has the same DOI, the same arXiv id, or a title scoring at least
    :data:`citeproof.sources.TITLE_MATCH_MIN` (rapidfuzz), the printed entry
    takes that entry's ``file`` paths and origin (``file:line`` of the .bib
    entry, so relative paths resolve against the .bib's folder) and any
    identifier it lacked. One ``info`` diagnostic counts the matches by kind.
    """

    from citeproof.bibliography import normalise_doi
    from citeproof.model import Diagnostic
    from citeproof.sources import TITLE_MATCH_MIN, authors_agree, title_score

    hows: dict[str, int] = {}
    by_doi = {normalise_doi(r.doi): r for r in given.entries.values() if r.doi}
    by_arxiv = {r.arxiv.lower(): r for r in given.entries.values() if r.arxiv}
    out = Bibliography(files=list(printed.files) + list(given.files), diagnostics=list(printed.diagnostics) + list(given.diagnostics),
                       unknown_reasons=dict(printed.unknown_reasons), description=printed.description)
    for key, ref in printed.entries.items():
        match, how = None, ""
        if ref.doi and normalise_doi(ref.doi) in by_doi:
            match, how = by_doi[normalise_doi(ref.doi)], f"DOI {ref.doi}"
        elif ref.arxiv and ref.arxiv.lower() in by_arxiv:
            match, how = by_arxiv[ref.arxiv.lower()], f"arXiv {ref.arxiv}"
        elif ref.title:
            good = [(title_score(ref.title, r.title), r) for r in given.entries.values() if r.title]
            good = [(sc, r) for sc, r in good if sc >= TITLE_MATCH_MIN and authors_agree(ref, " ".join(r.authors)) is not False]
            good.sort(key=lambda t: -t[0])
            if len(good) == 1 or (len(good) > 1 and good[0][0] - good[1][0] > 3):
                match, how = good[0][1], f"title score {good[0][0]:.1f}"
            elif len(good) > 1:
                out.diagnostics.append(Diagnostic("pdf-ref-bib-ambiguous", "warning", f"printed reference [{key}] matches several --bib entries by title: {', '.join(r.citekey for _, r in good[:4])}; none used", "", 0))
        if match is None:
            out.entries[key] = ref
            continue
        out.entries[key] = dataclasses.replace(
            ref, files=match.files, attachments=match.attachments, origin=match.origin, doi=ref.doi or match.doi, arxiv=ref.arxiv or match.arxiv, title=ref.title or match.title,
            entry_type=ref.entry_type or match.entry_type,
        )
        hows[how.split()[0]] = hows.get(how.split()[0], 0) + 1
    if printed.entries:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(hows.items())) or "none"
        out.diagnostics.append(Diagnostic("pdf-ref-bib-match", "info", f"{sum(hows.values())} of {len(printed.entries)} printed references matched a --bib entry (by {detail}); the rest are checked as printed"))
    return out


@dataclass
class CheckOptions:
    """How to run :func:`check`.

    Attributes:
        source_dirs: ``--sources`` folders.
        cache_dir: where the SQLite cache lives (None: the default folder).
        use_cache: False for ``--no-cache``.
        tiers: tiers to run (None: all available). Only ``lexical`` exists
            in this version; naming another gives a reason in the report.
        progress: optional progress callback.
        confine_to: read bibliography-named source files only inside this
            folder (None: anywhere). The web page confines each job.
        online: look references up online (``--online``; issue 12).
        email: contact e-mail for the services' polite pools (``--email``).
        offline: online lookups from the cache alone (``--offline``; implies ``online``).
        settings: config-file settings this version has no field for
            (``llm``...), passed through unchanged (:mod:`citeproof.config`).
        llm: the LLM tier's endpoint and budget
            (:class:`citeproof.judges.llm.LLMConfig`); needed for ``llm`` in ``tiers``.
        limit: judge only the first ``limit`` citations in document order (None: all).
        collection: only this collection of a Zotero library among ``bib_paths`` (``--collection``).
        ocr: ``--ocr`` mode for scanned PDF sources, ``auto``, ``force`` or
            ``never`` ('' is ``auto``; :mod:`citeproof.sources.ocr`).
    """

    source_dirs: list[Path] = field(default_factory=list)
    cache_dir: Path | None = None
    use_cache: bool = True
    tiers: list[str] | None = None
    progress: Progress | None = None
    confine_to: Path | None = None
    online: bool = False
    email: str = ""
    offline: bool = False
    settings: dict = field(default_factory=dict)
    llm: object | None = None
    limit: int | None = None
    collection: str | None = None
    ocr: str = ""


BANDS: dict[Verdict, int] = {
    Verdict.CONTRADICTED: 0,
    Verdict.UNSUPPORTED: 1,
    Verdict.PARTIAL: 2,
    Verdict.ERROR: 3,
    Verdict.UNVERIFIABLE: 4,
    Verdict.SUPPORTED: 5,
}
"""Reading order of verdicts: what most deserves a human's eyes comes first."""


def attention_rank(f: Finding) -> tuple:
    """Sort key putting the findings most worth a human's attention first.

    Unknown citekeys lead (a broken reference is certain to need a fix),
    then contradicted, unsupported, partial, error, unverifiable, supported;
    an unsupported or partial ``naming_citation`` comes after the partial
    band and a ``not_a_claim`` unit (a table row of names and identifiers: kept, not ranked among problems) after all others;
    tagged (or ``needs_review``) findings before the others in the same band; within a band, the
    more confident verdict first, then document order.
    """
    band = -1 if "unknown_citekey" in f.flags or any(t.name == "retracted_source" for t in f.tags) else BANDS[f.verdict]
    if band >= 0 and "not_a_claim" in f.flags:
        band = BANDS[Verdict.SUPPORTED] + 0.5  # names and identifiers only: nothing was claimed
    elif band >= 0 and "naming_citation" in f.flags and f.verdict in (Verdict.UNSUPPORTED, Verdict.PARTIAL):
        band = BANDS[Verdict.ERROR] - 0.5  # the marker may name a work, not vouch for the whole sentence
    return (band, 0 if f.tags or "needs_review" in f.flags else 1, -f.confidence if f.verdict != Verdict.SUPPORTED else f.score, f.claim.line, f.citation.column)


DENSE_POOL = 60
"""Passages per claim the dense tier re-ranks (the BM25 best, plus the abstract)."""
ENTAILMENT_SUPPORT_AT = POLICY.support_at
ENTAILMENT_DECIDE_AT = POLICY.decide_at
ENTAILMENT_CONTRADICT_AT = POLICY.contradict_at
FALLBACK_SUPPORTED_AT = POLICY.fallback_supported_at
FALLBACK_PARTIAL_AT = POLICY.fallback_partial_at
"""The verdict policy's thresholds, kept under their old names: :mod:`citeproof.judges.policy` is their home."""


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


def _shared_model(tier: str, make: Callable[[], object]) -> object:
    """The process's one ``make()`` for ``tier`` (an ``Embedder`` or ``EntailmentModel``; each guards its session with a lock)."""
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

                self.llm = LLMJudge(LLMClient(llm))  # type: ignore[arg-type]
                self.used.append("llm")

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

    def candidates(self, text: str, source: Source, pages: list[int] | None, exclude: set[str]) -> list[Evidence]:
        """Candidate evidence, best first (lexical, or lexical and dense fused)."""
        lex = self.retriever.retrieve(text, source, pages=pages, exclude_terms=exclude, top=20)
        if self.dense is None or not lex:
            return lex[:8]
        from citeproof.retrieval.dense import reciprocal_rank_fusion

        allowed = [i for i, p in enumerate(source.passages) if (not pages or p.page in pages) and p.section not in NON_EVIDENCE_SECTIONS]
        if len(allowed) > DENSE_POOL:
            # Dense re-ranks the BM25 pool (plus the abstract) rather than embedding a 1,000-passage book per run.
            q = [t for t in terms(text) if t not in exclude]
            bm = self.retriever.index_for(source).bm25_scores(q)
            pool = sorted(allowed, key=lambda i: -bm[i])[:DENSE_POOL]
            pool += [i for i in allowed if source.passages[i].section == "abstract" and i not in pool]
            allowed = sorted(pool)
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

    def judge(self, claim: Claim, cands: list[Evidence], signal: str | None) -> Judgement:
        """The deciding judge's verdict: the LLM tier's when it runs and gives a grounded answer, else the offline tiers'.

        The offline verdict is always computed first and recorded in the
        judgement's ``llm`` block, so a finding shows what each tier said.
        """
        offline = self.offline_judge(claim, cands, signal)
        if self.llm is None:
            return offline
        with self.lock.released():  # other citations' offline work goes on while this one waits for the LLM
            decided, record = self.llm.judge(claim, cands, signal, offline=offline)
        if decided is None:
            offline.llm = record
            offline.reasons.append(f"LLM tier ({record['model']}): {record['note']}")
            return offline
        decided.llm = record
        decided.reasons.append(f"the offline tiers said '{offline.verdict.value}' ({offline.tier.value}, confidence {offline.confidence:.2f})")
        return decided

    def offline_judge(self, claim: Claim, cands: list[Evidence], signal: str | None) -> Judgement:
        """The offline tiers' verdict, by the verdict policy (:func:`citeproof.judges.policy.decide`).

        A contrary signal (*but see*, *contra*, *but cf.*) is not a relaxed
        *see*: the claim is judged as written and the judgement then mapped by
        :func:`citeproof.judges.policy.apply_contrary_signal`.
        """
        from citeproof.judges.fulltext import entailment_judgement  # full texts: retrieval-strength decision layer

        contrary = is_contrary(signal)
        sig = None if contrary else signal
        by_coverage = sorted(cands, key=lambda e: -e.scores.get("lexical", 0.0))
        if self.entailment is None or not cands:
            j = decide(None, self.lexical_judge.judge(claim, by_coverage, sig))
        else:
            j = decide(entailment_judgement(self.entailment, claim, cands, sig), self.fallback_judge.judge(claim, by_coverage, sig))
        return apply_contrary_signal(j, signal) if contrary else j


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
    # The cited work's own identifiers (a table cell showing the DOI) are not claims about its content.
    # A citing PDF's numeric labels ("10") are no identifiers: excluding them would drop numbers from the claim.
    exclude = {t for c in claim.citations if not c.citekey.isdigit() for t in terms(c.citekey.replace(":", " ").replace("/", " "))}
    try:
        cands = tiers.candidates(text, source, pages or None, exclude)
        j: Judgement = tiers.judge(judged, cands, cite.signal)
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
    mark_cross_language(f, text, source)
    return f


_COMPARED = re.compile(
    r"(?:\bthan|\bvs\.?|\bversus|\bcompared (?:to|with)|\boutperform(?:s|ing|ed)?|\bover)\s+(?:the\s+)?(?P<name>[A-Z][\w\-]*(?:\s[A-Z0-9][\w\-]*)?)\s*$"
)


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


def summarise(findings: list[Finding]) -> dict:
    """Summary counts for a report.

    Returns:
        ``{"citations", "claims", "citekeys", "verdicts": {verdict: n},
        "unknown_citekeys": [...], "sources_available", "sources_missing",
        "coverage", "overall_confidence"}`` where ``coverage`` is the share of
        citation occurrences whose source was readable and
        ``overall_confidence`` the mean of the findings' confidence (0 to 1).
    """
    verdicts = Counter(f.verdict.value for f in findings)
    keys = {f.citation.citekey for f in findings}
    unknown = sorted({f.citation.citekey for f in findings if "unknown_citekey" in f.flags})
    avail = sorted({f.citation.citekey for f in findings if f.source is not None and f.source.usable})
    readable = sum(1 for f in findings if f.source is not None and f.source.usable)
    return {
        "citations": len(findings),
        "claims": len({f.claim.id for f in findings}),
        "citekeys": len(keys),
        "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        "unknown_citekeys": unknown,
        "sources_available": len(avail),
        "sources_missing": len(keys) - len(avail) - len(unknown),
        "coverage": round(readable / len(findings), 4) if findings else 0.0,
        "overall_confidence": round(sum(f.confidence for f in findings) / len(findings), 4) if findings else 0.0,
        **_llm_summary(findings),
    }


def _llm_summary(findings: list[Finding]) -> dict:
    """``{"llm": {"prompt_tokens", "completion_tokens", "cost", "decided"}}`` when the LLM tier ran, else ``{}``."""
    recs = [f.llm for f in findings if f.llm]
    if not recs:
        return {}
    return {"llm": {
        "prompt_tokens": sum(r.get("prompt_tokens", 0) for r in recs),
        "completion_tokens": sum(r.get("completion_tokens", 0) for r in recs),
        "cost": round(sum(r.get("cost", 0.0) for r in recs), 6),
        "decided": sum(1 for f in findings if f.llm and f.tier.value == "llm"),
    }}



class _Serial:
    """A stand-in for a thread pool that runs in the calling thread (``map`` is the built-in one)."""

    def __enter__(self) -> "_Serial":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    map = staticmethod(map)

def check(document: Path, bib_paths: list[Path], options: CheckOptions | None = None) -> Report:
    """Check every citation of ``document`` against its sources.

    Args:
        document: the citing document (Markdown, LaTeX ``.tex`` or arXiv
            ``.tar.gz``, PDF).
        bib_paths: bibliography files (BibTeX or CSL-JSON), priority order.
            Empty: the document's own bibliography (LaTeX's .bib/.bbl, a
            PDF's printed list). For a PDF, given files enrich the printed
            entries (see :func:`merge_printed_references`); for LaTeX they
            replace the document's own.
        options: see :class:`CheckOptions`.

    Returns:
        The :class:`Report`, findings sorted by :func:`attention_rank`.

    Raises:
        InputError, UnknownFormatError: the document cannot be read.
        BibliographyError: a bibliography file cannot be read at all.
    """
    opts = options or CheckOptions()
    t0 = time.perf_counter()
    document = Path(document)
    from citeproof.sources.sandbox import ParseLimitError, prestart

    try:
        prestart()  # the PDF worker starts while the document and bibliography are read
    except (ParseLimitError, OSError, ValueError):  # a bad CITEPROOF_PARSE_* is reported where a parse needs it
        pass
    claims, own_bib, read_diagnostics = read_input(document)
    claims, total_citations = _first_citations(claims, opts.limit)
    t_read = time.perf_counter()
    if bib_paths:
        bib = load_bibliographies([Path(p) for p in bib_paths], opts.collection)
        if own_bib is not None and isinstance(reader_for(document), (PdfReader, DocxReader)):
            bib = merge_printed_references(own_bib, bib)
    else:
        bib = own_bib if own_bib is not None else Bibliography()
    for d in opts.source_dirs:
        if not Path(d).is_dir():
            raise InputError(f"{d}: --sources must be a folder of PDF/Markdown/text/HTML files")
    cache = Cache((opts.cache_dir or default_cache_dir()) if opts.use_cache else None)
    confine = None
    if opts.confine_to is not None:
        # the document's own .bib (in an unpacked bundle, say) was read from inside the allowed folders: its own folder counts
        confine = [Path(opts.confine_to)] + ([p.parent for p in own_bib.files] if own_bib is not None and not bib_paths else [])
    resolver = SourceResolver([p.parent for p in bib.files], list(opts.source_dirs), cache, confine=confine, ocr=check_mode(opts.ocr or "auto"))
    duplicate_keys = {d.message.split("'")[1] for d in bib.diagnostics if d.code == "bib-duplicate-key" and "'" in d.message}

    cited = list(dict.fromkeys(c.citekey for cl in claims for c in cl.citations))

    def reference(key: str) -> Reference | None:
        # With --sources and no bibliography at all (none given, none in the
        # document), every key stands for itself and is looked up as
        # <citekey>.pdf in the source folders.
        if not bib_paths and own_bib is None and opts.source_dirs:
            return Reference(citekey=key, origin="")
        return bib.get(key)

    sources: dict[str, Source] = {}
    for n, key in enumerate(cited, start=1):
        ref = reference(key)
        if ref is not None:
            sources[key] = resolver.resolve(key, ref)
        if opts.progress:
            opts.progress("sources", n, len(cited))
    online = None
    if opts.online or opts.offline:  # the only door to the network (issue 12)
        from citeproof.sources.online import OnlineSession, OnlineSettings

        online = OnlineSession(OnlineSettings(email=opts.email, offline=opts.offline), cache.folder, cache)
        online.complete({k: r for k in cited if (r := reference(k)) is not None}, sources, opts.progress)
    t_sources = time.perf_counter()

    tiers = Tiers(opts.tiers, cache.folder, opts.llm)
    judgements = JudgementCache(cache, tiers.used, opts.settings)  # reuses what nothing changed (issue 15 part 3)

    def judge_one(pair: tuple[Claim, Citation]) -> Finding:
        claim, cite = pair
        with tiers.lock:
            return _judge_citation(claim, cite, reference(cite.citekey), sources.get(cite.citekey), tiers, bib, duplicate_keys)

    workers = max(1, getattr(opts.llm, "concurrency", 1)) if tiers.llm is not None else 1
    with ThreadPoolExecutor(max_workers=workers) if workers > 1 else _Serial() as pool:
        # in order; LLM requests overlap when workers > 1
        findings = judgements.judge_all(claims, reference, sources, duplicate_keys, judge_one,
                                        lambda fresh: judge_joint_citations(fresh, tiers), opts.progress, pool.map)
    if online is not None:
        online.annotate(findings)
        online.close()
    findings.sort(key=attention_rank)
    t_end = time.perf_counter()
    notes = list(tiers.notes)
    if opts.limit is not None and total_citations > opts.limit:
        notes.append(f"--limit {opts.limit}: judged the first {opts.limit} of {total_citations} citations")
    llm_meta = {}
    if tiers.llm is not None:
        cfg = tiers.llm.client.config
        llm_meta = {"llm": {"url": cfg.url, "model": cfg.model, "second_model": cfg.second_model, "max_cost": cfg.max_cost, **tiers.llm.client.account.to_dict()}}
        if tiers.llm.client.account.budget_stopped:
            notes.append(f"llm tier stopped: --llm-max-cost {cfg.max_cost:g} reached; later citations kept the offline tiers' verdict (flag llm_budget)")
        unreachable = tiers.llm.client.unreachable
        tiers.llm.client.close()
    else:
        unreachable = None
    diagnostics = list(bib.diagnostics) + [d for d in read_diagnostics if d not in bib.diagnostics] + (online.diagnostics() if online is not None else [])
    if unreachable:  # said once, where the user looks, not only in each finding's reasons
        notes.append("llm tier not run: the endpoint could not be reached; every finding kept the offline tiers' verdict")
        diagnostics.append(Diagnostic("llm-unreachable", "error", unreachable + "; every finding kept the offline tiers' verdict", str(cfg.url)))
    if cache.warning:
        diagnostics.append(Diagnostic("cache-reset", "warning", cache.warning, str(cache.folder)))
    vectors = getattr(tiers.loaded("dense"), "cache", None)
    for w in getattr(vectors, "warnings", []):
        diagnostics.append(Diagnostic("cache-reset", "warning", w, str(cache.folder)))
    diagnostics.extend(error_diagnostics(findings))
    return Report(
        document=str(document),
        findings=findings,
        diagnostics=diagnostics,
        metadata={
            "citeproof_version": __version__,
            "tiers": tiers.used,
            "tier_notes": notes,
            "bibliographies": [str(p) for p in bib.files],
            "source_dirs": [str(d) for d in opts.source_dirs],
            "cache": str(cache.folder) if cache.folder else None,
            "judgement_cache": judgements.metadata(),
            "timings_s": {
                "read": round(t_read - t0, 3),
                "sources": round(t_sources - t_read, 3),
                "judge": round(t_end - t_sources, 3),
                "total": round(t_end - t0, 3),
            },
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **({"online": online.metadata()} if online is not None else {}),
            **llm_meta,
        },
        references={k: v for k, v in bib.entries.items() if k in set(cited)},
        sources=sources,
    )


def error_diagnostics(findings: list[Finding]) -> list[Diagnostic]:
    """One ``internal-error`` diagnostic per finding whose verdict is ``error``, so none passes silently.

    Args:
        findings: the run's findings.

    Returns:
        Diagnostics (severity ``error``) naming the document, line, citekey
        and the exception text the finding's first reason carries.
    """
    out = []
    for f in findings:
        if f.verdict == Verdict.ERROR:
            why = f.reasons[0] if f.reasons else "internal error"
            out.append(Diagnostic("internal-error", "error", f"{f.claim.document}:{f.claim.line}: citation '{f.citation.citekey}': {why}", f.claim.document, f.claim.line))
    return out


def _first_citations(claims: list[Claim], limit: int | None) -> tuple[list[Claim], int]:
    """The claims holding the first ``limit`` citations in document order (the last one cut), and the total count."""
    from dataclasses import replace

    total = sum(len(cl.citations) for cl in claims)
    if limit is None or total <= limit:
        return claims, total
    out: list[Claim] = []
    left = max(0, limit)
    for cl in claims:
        if left <= 0:
            break
        out.append(cl if len(cl.citations) <= left else replace(cl, citations=cl.citations[:left]))
        left -= len(cl.citations)
    return out, total


_TIERS_CACHE: dict[tuple[str, ...], Tiers] = {}


def judge_text(claim_text: str, source_text: str, *, citekey: str = "src", signal: str | None = None, tiers: list[str] | None = None) -> Finding:
    """Judge one claim against one plain-text source, in memory, with the full pipeline.

    Retrieval, the deciding judge and the detectors run as in :func:`check`
    (every available tier unless ``tiers`` names some; models are loaded
    once per process).

    For evaluation harnesses and library users with text in hand.

    Args:
        claim_text: the claim, citation markup already removed.
        source_text: the source's text; paragraphs separated by blank lines.
        citekey: the name to give the source in the finding.
        signal: the citation's signal, if any.
        tiers: tier names to run (None: every available tier).

    Returns:
        A :class:`Finding` (document ``<text>``, line 1).
    """
    passages, full = parse_text(source_text)
    import hashlib

    src = Source(citekey=citekey, path=None, sha256=hashlib.sha256(source_text.encode()).hexdigest(), media_type="text/plain", origin="text", passages=passages, text=full)
    if not passages:
        src.error = "the source text is empty"
    cite = Citation(citekey=citekey, signal=signal, line=1)
    claim = Claim(id="c0001", text=claim_text, raw=claim_text, citations=(cite,), document="<text>", line=1, kind=UnitKind.SENTENCE)
    ref = Reference(citekey=citekey)
    key = tuple(sorted(tiers)) if tiers else ()
    if key not in _TIERS_CACHE:
        _TIERS_CACHE[key] = Tiers(list(key) or None)
    return _judge_citation(claim, cite, ref, src, _TIERS_CACHE[key], None, set())



def ask_source(spec: str, question: str, llm: object, bib_paths: list[Path] | None = None, source_dirs: list[Path] | None = None,
               cache_dir: Path | None = None, use_cache: bool = True, top: int = 6) -> dict:
    """``citeproof ask``: one question to one source, answered by the LLM tier with grounded quotes.

    Args:
        spec: a file (PDF, Markdown, text, HTML), or a citekey of ``bib_paths`` / ``source_dirs``.
        question: the question.
        llm: a :class:`citeproof.judges.llm.LLMConfig`.
        bib_paths, source_dirs, cache_dir, use_cache: as for :func:`check`.
        top: passages the retrieval sends with the question.

    Returns:
        :func:`citeproof.judges.llm.ask`'s dict plus ``source`` (the path) and ``citekey``.

    Raises:
        InputError: ``spec`` is neither a readable file nor a citekey with a readable source.
        BudgetExceeded: the budget stops the call.
    """
    from citeproof.judges.llm import LLMClient, ask

    source = open_source(spec, bib_paths, source_dirs, cache_dir, use_cache, "ask")
    passages = [e.passage for e in LexicalRetriever().retrieve(question, source, top=top)] or source.passages[:top]
    client = LLMClient(llm)  # type: ignore[arg-type]
    try:
        res = ask(client, question, source, passages)
    finally:
        client.close()
    res.update({"source": source.path, "citekey": source.citekey})
    return res


def open_source(spec: str, bib_paths: list[Path] | None = None, source_dirs: list[Path] | None = None,
                cache_dir: Path | None = None, use_cache: bool = True, origin: str = "ask") -> Source:
    """One source named on the command line (``citeproof ask``, ``citeproof locate``), read and parsed.

    Args:
        spec: a file (PDF, Markdown, text, HTML), or a citekey of ``bib_paths`` / ``source_dirs``.
        bib_paths, source_dirs, cache_dir, use_cache: as for :func:`check`.
        origin: how the source was named (kept as :attr:`Source.origin`).

    Returns:
        The :class:`Source`, with passages.

    Raises:
        InputError: ``spec`` is neither a readable file nor a citekey with a readable source.
    """
    cache = Cache((cache_dir or default_cache_dir()) if use_cache else None)
    path = Path(spec)
    if path.is_file():
        from citeproof.sources import load_source

        source = load_source(path.stem, path, origin, cache)
    else:
        bib = load_bibliographies([Path(p) for p in bib_paths]) if bib_paths else Bibliography()
        ref = bib.get(spec) or (Reference(citekey=spec) if source_dirs else None)
        if ref is None:
            where = "not a citekey of the bibliography" if bib_paths else "not a citekey either (no --bib was given)"
            raise InputError(f"{spec}: not a file, and {where}; give a source file, or a citekey with --bib refs.bib")
        source = SourceResolver([p.parent for p in bib.files], list(source_dirs or []), cache).resolve(spec, ref)
    if not source.usable:
        raise InputError(f"{spec}: the source cannot be read: {source.error or 'it holds no text'}")
    return source
