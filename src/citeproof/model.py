"""The one data model every citeproof stage reads and writes.

Readers turn a citing document into :class:`Claim` records (each holding its
:class:`Citation` records); bibliography readers give :class:`Reference`
records; the resolver turns those into :class:`Source` records holding
:class:`Passage` records; judges pair claims with passages as
:class:`Evidence`; the pipeline emits one :class:`Finding` per citation
occurrence, collected in a :class:`Report`.

Units, everywhere in this module:

* ``line`` counts lines of the citing document from 1;
* ``page`` counts PDF pages from 1 as the PDF itself orders them (never a
  printed page label);
* ``bbox`` is ``(x0, y0, x1, y1)`` in PDF points, origin at the top-left of
  the page (PyMuPDF's convention);
* ``char_start``/``char_end`` are Python string offsets (characters, end
  exclusive) into the source's full text, :attr:`Source.text`.

Nothing in here does I/O; the only citeproof module imported is :mod:`citeproof.locator` (the pinpoint).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from citeproof.locator import Locator, clock, parse_clock  # noqa: F401 - re-exported: the pinpoint's own module

SCHEMA_VERSION = 2
"""Version of the JSON report layout (``schema_version`` in every JSON report). 2 (issue 30): each cited work's
record (bibliography entry, source file, provenance, files considered) is written once, under ``works``, and
findings point at it by ``work``; 1 repeated it in every finding."""


class Verdict(str, Enum):
    """What the source says about the claim, as decided by one tier.

    ``unverifiable`` means the tool could not look (no source, unreadable
    source, unknown citekey); ``error`` means the tool itself failed on this
    citation. Both always come with a reason.
    """

    SUPPORTED = "supported"
    PARTIAL = "partial"
    CONTRADICTED = "contradicted"
    UNSUPPORTED = "unsupported"
    UNVERIFIABLE = "unverifiable"
    ERROR = "error"


class CitationMode(str, Enum):
    """Pandoc's three citation modes (pandoc-types ``CitationMode``)."""

    PARENTHETICAL = "parenthetical"  # [@a]       pandoc NormalCitation
    NARRATIVE = "narrative"  # @a says      pandoc AuthorInText
    SUPPRESS_AUTHOR = "suppress-author"  # [-@a]      pandoc SuppressAuthor


class UnitKind(str, Enum):
    """Which kind of text a claim unit was cut from."""

    SENTENCE = "sentence"
    TABLE_ROW = "table_row"
    LIST_ITEM = "list_item"
    HEADING = "heading"
    CAPTION = "caption"
    FOOTNOTE = "footnote"


class Tier(str, Enum):
    """The judging tier that decided a finding (``DESIGN.md``: tiers never mix)."""

    NONE = "none"  # nothing was judged (no source, unknown key)
    LEXICAL = "lexical"
    DENSE = "dense"
    ENTAILMENT = "entailment"
    LLM = "llm"


@dataclass(frozen=True)
class Citation:
    """One citation occurrence of one citekey.

    Attributes:
        citekey: the key as the bibliography spells it (braces of
            ``@{key}`` removed).
        mode: parenthetical, narrative (``@a says``) or suppress-author.
        prefix: text before the key inside the brackets (``see``).
        suffix: text after the key and locator (``, and passim``).
        locator: the parsed locator, or None.
        signal: the introductory signal normalised (``see``, ``cf.``,
            ``e.g.``, ``but see``, ``see also``), or None.
        raw: the citation group exactly as written (``[see @a, p. 33; @b]``).
        line: line (from 1) of the citing document where the key stands.
        column: column (from 1) of the ``@`` on that line, or 0 if unknown.
        group_index: position of this key inside its compound citation (from 0).
        group_size: how many keys the compound citation holds.
    """

    citekey: str
    mode: CitationMode = CitationMode.PARENTHETICAL
    prefix: str = ""
    suffix: str = ""
    locator: Locator | None = None
    signal: str | None = None
    raw: str = ""
    line: int = 0
    column: int = 0
    group_index: int = 0
    group_size: int = 1


@dataclass(frozen=True)
class Claim:
    """A claim unit: the text a citation vouches for.

    Attributes:
        id: stable id within the document (``c0001``...).
        text: the claim with citation markup removed and narrative
            citations elided as ``[...]``: what judges score.
        raw: the unit as written in the citing document.
        citations: the citations attached to this unit, in reading order.
        document: path of the citing document as given by the user.
        line: line (from 1) where the unit starts.
        kind: sentence, table row, list item, heading, caption or footnote.
        context: the neighbouring text (previous sentence), for judges that
            want it; may be empty.
        page: page (from 1) of a citing PDF, else None.
        bbox: bounding box on that page, else None.
    """

    id: str
    text: str
    raw: str
    citations: tuple[Citation, ...]
    document: str
    line: int
    kind: UnitKind = UnitKind.SENTENCE
    context: str = ""
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class Attachment:
    """One file named by a bibliography entry's ``file`` field.

    Attributes:
        path: the path (or URL) as the reference manager meant it, escapes
            and LaTeX accents decoded, Unicode NFC.
        description: the label (``Full Text PDF``, ``Snapshot``,
            ``Supplement``) or ''.
        mime: the declared type (``application/pdf``, ``PDF``) or ''.
        mendeley_relative: True for Mendeley's ``:home/x/a.pdf:pdf`` form,
            where an absolute Unix path lost its leading ``/``.
    """

    path: str
    description: str = ""
    mime: str = ""
    mendeley_relative: bool = False

    @property
    def is_url(self) -> bool:
        """True when the attachment is a web address, not a local file."""
        return re.match(r"^[a-z][a-z0-9+.-]*://", self.path, re.I) is not None


@dataclass(frozen=True)
class Reference:
    """One bibliography entry, CSL-style.

    Attributes:
        citekey: the entry key.
        entry_type: BibTeX/CSL type (``article``, ``book``...).
        title, authors, year, container, doi, arxiv, url, pmid, pmcid:
            metadata; ``authors`` holds family names first as written.
        files: the paths the ``file`` field names, as written (decoded from
            the reference manager's convention, not yet resolved).
        origin: where the entry came from: ``path/to/refs.bib:LINE``.
        text: the source's full text when the citing input supplies it
            inline (a JSON attributions document), else ''.
        attachments: the ``file`` field's entries with their labels and
            types, in the order written (``files`` holds their paths).
        pages: the entry's ``pages`` field as written (``123--135``) or ''.
    """

    citekey: str
    entry_type: str = ""
    title: str = ""
    authors: tuple[str, ...] = ()
    year: str = ""
    container: str = ""
    doi: str = ""
    arxiv: str = ""
    url: str = ""
    pmid: str = ""
    pmcid: str = ""
    files: tuple[str, ...] = ()
    origin: str = ""
    text: str = ""
    attachments: tuple[Attachment, ...] = ()
    pages: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (lists instead of tuples; ``attachments`` left
        out: the finding's ``sources_considered`` says what became of each)."""
        d = dataclasses.asdict(self)
        d.pop("attachments", None)
        d["authors"] = list(self.authors)
        d["files"] = list(self.files)
        del d["text"]  # an inline source's text is the source, not metadata; provenance says where it came from
        return d


NON_EVIDENCE_SECTIONS = frozenset({"references", "bibliography", "works cited", "literature cited"})
"""Sections (:attr:`Passage.section`, lower case) whose passages are never offered as evidence: a cited work's own
reference list matches claims by title words, not by content."""


@dataclass(frozen=True)
class Passage:
    """A span of source text that can be shown as evidence.

    Attributes:
        id: stable id within its source (``p0001``...).
        text: the passage text, whitespace-normalised, hyphenation joined.
        page: PDF page from 1, or None for text/Markdown/HTML sources.
        bbox: box on the page in PDF points, or None.
        line: line (from 1) in a text source, or None.
        char_start, char_end: span of this passage in :attr:`Source.text`.
        section: the nearest heading above the passage, if known.
        quotable: False when the reading order of this text is not trusted
            (e.g. spliced columns); reports then show the page, not the text.
        page_label: the page number the PDF shows on ``page`` (its page
            labels, else the printed number), '' when unknown; a locator
            ``p. 103`` means the page labelled 103.
        page_end: the last page (from 1) of a passage whose sentence runs on
            past a page break, else None.
        bbox_end: the box where a passage that runs on past a column or page
            break ends (on ``page_end``, or on ``page`` for a column
            break); ``bbox`` is then where it starts. None otherwise.
        ocr: True when the text was read by OCR from a page image
            (:mod:`citeproof.sources.ocr`): lower trust, a finding quoting
            it says so.
        time_start, time_end: for a recording's transcript or subtitles
            (:mod:`citeproof.sources.transcript`), where the passage is
            spoken, in seconds from the start of the recording; None for
            every other source.
        margin_numbers: the line numbers a manuscript PDF prints in its
            outer margin beside this passage's lines (dropped from
            ``text``), in page order; () for a page without them.
    """

    id: str
    text: str
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    line: int | None = None
    char_start: int = 0
    char_end: int = 0
    section: str = ""
    quotable: bool = True
    page_label: str = ""
    page_end: int | None = None
    bbox_end: tuple[float, float, float, float] | None = None
    ocr: bool = False
    time_start: float | None = None
    time_end: float | None = None
    margin_numbers: tuple[int, ...] = ()

    def where(self) -> str:
        """The page(s) as a report names them: ``page 3``, ``pages 3-4``, ``page 3 (printed 103)``; '' without a page.

        The sheet (from 1) comes first, for ``file.pdf#page=N`` links; the
        printed label follows where it differs from the sheet number. A
        passage of a recording's transcript is named by its time instead:
        ``at 12:34-12:51`` (:func:`clock`).
        """
        if not self.page:
            if self.time_start is None:
                return ""
            end = self.time_end if self.time_end is not None and self.time_end > self.time_start else None
            return f"at {clock(self.time_start)}" + (f"-{clock(end)}" if end is not None else "")
        end = self.page_end if self.page_end and self.page_end != self.page else None
        out = f"pages {self.page}–{end}" if end else f"page {self.page}"
        if self.page_label and self.page_label != str(self.page):
            label = self.page_label
            if end and label.isdigit():
                label = f"{label}–{int(label) + end - self.page}"
            out += f" (printed {label})"
        return out


@dataclass(frozen=True)
class SourceCandidate:
    """One file considered as a reference's source.

    Attributes:
        path: the file (as found on disk), or the path as the bibliography
            wrote it when it was not found.
        chosen: True for the file that was read.
        reason: why it was read or passed over, in words for the report.
    """

    path: str
    chosen: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """``{"path", "chosen", "reason"}``."""
        return {"path": self.path, "chosen": self.chosen, "reason": self.reason}


@dataclass
class Source:
    """A reference resolved to something readable, or the reason it was not.

    Attributes:
        citekey: the reference this source stands for.
        path: local file path, or None when none was found.
        sha256: hex SHA-256 of the file's bytes ('' when unread).
        media_type: ``application/pdf``, ``text/markdown``, ``text/plain``,
            ``text/html``, the Office types, ``application/jats+xml``,
            ``image/vnd.djvu``, ``application/x-subrip``, ``text/vtt``,
            ``text/x-transcript`` (a ``.txt`` with timestamps).
        origin: how the file was found (``bib file field``, ``--sources
            <citekey>.pdf``, ``--sources DOI match``...).
        passages: the parsed passages, in reading order.
        text: the full text the passages' char offsets index into.
        error: why the source is unusable (None when it is usable).
        title: the source's own title if known (PDF metadata or first page).
        pages: page count of a PDF (or DjVu, or slides of a .pptx), else 0.
        considered: every file looked at for this reference when there was
            a choice (several attachments, or one that could not be used):
            which was read and why each other one was passed over; empty
            when a single file was simply read.
        notes: what the reader could not do without making the source
            unusable (scanned pages left unread, a garbled text layer),
            each a sentence saying what to do; findings on it repeat them.
        ocr: the ``--ocr`` mode (``auto``, ``force``) under which some
            pages were read by OCR, '' when none was.
        metadata: the citation metadata the file itself gives, CSL field ->
            ``{"value", "quote", "page", "line", "from"}``
            (:mod:`citeproof.sources.metadata`); empty when unknown.
    """

    citekey: str
    path: str | None = None
    sha256: str = ""
    media_type: str = ""
    origin: str = ""
    passages: list[Passage] = field(default_factory=list)
    text: str = ""
    error: str | None = None
    title: str = ""
    pages: int = 0
    considered: list[SourceCandidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ocr: str = ""
    metadata: dict[str, dict] = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        """True when the source has passages to judge against."""
        return self.error is None and bool(self.passages)


@dataclass(frozen=True)
class TagEvidence:
    """The spans that made a detector fire.

    Attributes:
        claim_span: the triggering text in the claim (e.g. ``75%``).
        evidence_span: the matching text in the evidence (e.g. ``68.9%``),
            or '' when the trigger is an absence.
    """

    claim_span: str = ""
    evidence_span: str = ""

    def describe(self) -> str:
        """``claim “…” vs source “…”`` for the reports, leaving out an empty side ('' when both are)."""
        parts = ([f"claim \u201c{self.claim_span}\u201d"] if self.claim_span else []) + ([f"source \u201c{self.evidence_span}\u201d"] if self.evidence_span else [])
        return " vs ".join(parts)


@dataclass(frozen=True)
class Tag:
    """A failure-mode tag from a detector (``number_drift``...).

    Attributes:
        name: the tag, snake_case.
        message: one sentence a reviewer can read.
        confidence: in [0, 1].
        evidence: the spans that triggered it.
        proven: the difference was shown by code on the source sentence that restates the claim (a number,
            a term, a count, a population in its place), not inferred from an absence: such a tag may make
            the verdict *unsupported* (:func:`citeproof.judges.policy.escalation`).
    """

    name: str
    message: str = ""
    confidence: float = 1.0
    evidence: tuple[TagEvidence, ...] = ()
    proven: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (``proven`` only when true)."""
        d = {
            "name": self.name,
            "message": self.message,
            "confidence": round(self.confidence, 4),
            "evidence": [dataclasses.asdict(e) for e in self.evidence],
        }
        if self.proven:
            d["proven"] = True
        return d


@dataclass
class Evidence:
    """One claim × passage pairing with the scores each tier gave it.

    Attributes:
        passage: the passage.
        source: the source it comes from.
        scores: tier name -> score in [0, 1] (``lexical``, ``bm25``...).
        matched_terms: claim terms found in the passage (for highlighting).
        sentence: the sentence (or two adjacent sentences) of the passage the judge scored highest, as it scored
            it; '' when the tier judged the passage whole (lexical).
    """

    passage: Passage
    source: Source
    scores: dict[str, float] = field(default_factory=dict)
    matched_terms: tuple[str, ...] = ()
    sentence: str = ""


@dataclass
class Finding:
    """The result for one citation occurrence.

    Attributes:
        claim: the claim unit the citation sits in.
        citation: the citation occurrence.
        verdict: the verdict.
        score: the deciding tier's score for the best evidence, in [0, 1].
        confidence: how sure the deciding tier is of the verdict, in [0, 1].
        tier: which tier decided.
        evidence: the best evidence, or None when nothing could be judged.
        reasons: sentences saying why (always at least one).
        tags: failure-mode tags.
        flags: machine-readable markers: ``unknown_citekey``,
            ``duplicate_citekey``, ``no_source``, ``not_quotable``,
            ``ungrounded``, ``needs_review``, ``locator_page_missing``...
        reference: the bibliography entry, or None for an unknown citekey.
        source: the resolved source (may carry an ``error``), or None.
        llm: with the LLM tier, its record: ``model``, ``opinions`` (each
            with verdict, quote, confidence, grounding and tokens),
            ``decided_by``, ``offline`` (what the offline tiers said),
            ``prompt_tokens``, ``completion_tokens``, ``cost``; else None.
        alternatives: the next candidate passages retrieval ranked after ``evidence`` (at most two), for a
            reviewer to compare; empty when nothing else was retrieved.
        suggestions: what the author could cite instead (issue 25, :mod:`citeproof.assist`), best first: each
            ``{"kind": "source" | "locator", "citekey", "path", "locator", "verdict", "tier", "score", "page",
            "page_label", "where", "evidence", "message"}``; empty when there is nothing to suggest.
        inconsistencies: other sentences citing the same work for an incompatible fact (issue 25): each
            ``{"kind": "number" | "direction", "citekey", "line", "column", "other_line", "other_column",
            "other_claim", "this", "other", "message"}``.
    """

    claim: Claim
    citation: Citation
    verdict: Verdict
    score: float = 0.0
    confidence: float = 0.0
    tier: Tier = Tier.NONE
    evidence: Evidence | None = None
    reasons: list[str] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    reference: Reference | None = None
    source: Source | None = None
    llm: dict[str, Any] | None = None
    alternatives: list[Evidence] = field(default_factory=list)
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    inconsistencies: list[dict[str, Any]] = field(default_factory=list)

    def location(self) -> str:
        """Where the citation stands, as editors and compilers write it: ``draft.md:12:48`` (line and column from 1,
        the column of the citation's ``@`` or its first character), ``draft.md:12`` where the reader knows no column
        (a Word paragraph), ``paper.pdf:p3`` in a citing PDF (page from 1). A paragraph written on one line holds
        many claims on one line; the column tells them apart (every new-user trial of issue 28 asked for it)."""
        if self.claim.page is not None:
            return f"{self.claim.document}:p{self.citation.line or self.claim.line}"
        line = self.citation.line or self.claim.line
        return f"{self.claim.document}:{line}" + (f":{self.citation.column}" if self.citation.column and self.citation.line else "")


@dataclass
class Diagnostic:
    """A recoverable problem met while reading inputs (problems as data).

    Attributes:
        code: short machine code (``bib-duplicate-key``, ``bib-parse``...).
        severity: ``error``, ``warning`` or ``info``.
        message: a sentence naming the file, line and what to do.
        file: the file concerned, or ''.
        line: line from 1, or 0 when unknown.
    """

    code: str
    severity: str
    message: str
    file: str = ""
    line: int = 0


@dataclass
class Report:
    """All findings of one run, plus what is needed to read them.

    Attributes:
        document: the citing document's path.
        findings: the findings, already sorted worst first.
        diagnostics: problems met on the way (bad entries, duplicate keys).
        metadata: run facts: citeproof version, tiers used, timings (s),
            bibliography and source folders.
        references: all bibliography entries by citekey (cited or not).
        sources: the resolved sources by citekey.
        uncited: sentences that state a specific finding and cite nothing (issue 25,
            :func:`citeproof.assist.uncited.uncited_claims`): each ``{"document", "line", "sentence", "cue",
            "words", "candidate"}``, ``candidate`` a suggestion (see :attr:`Finding.suggestions`) or None.
    """

    document: str
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    references: dict[str, Reference] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    uncited: list[dict[str, Any]] = field(default_factory=list)
