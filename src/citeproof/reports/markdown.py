"""Markdown report: a reading order with evidence, never a silent empty.

Opens with what the bands mean, the summary counts and the diagnostics, then
every finding in :func:`citeproof.triage.attention_rank` order: location,
citekey, the claim as a block quote, the best passage (or only its page when
the passage is not quotable), page, score, verdict, tier, tags and reasons.
Unverifiable findings, which share their reason per cited work, are one
table row per citekey listing every line that cites it.
"""

from __future__ import annotations

from typing import TextIO

from citeproof.model import Finding, Report, Verdict
from citeproof.triage import difference_named, summarise
from citeproof.sources.office import OFFICE_TYPES
from citeproof.reports.clip import clip_claim
from citeproof.reports.summary import count_text, named_note, no_source_box, verdict_rows

__all__ = ["MarkdownWriter", "render_markdown"]

_BAND_TITLES = [
    ("unknown", "Unknown citekeys: fix the reference first"),
    (Verdict.CONTRADICTED, "Contradicted: the source says otherwise"),
    (Verdict.UNSUPPORTED, "Unsupported: no passage of the source backs the claim"),
    ("partial_named", "Partial, a difference named: a detector found words that differ from the source's and could not "
                      "prove the change; check the words it quotes"),
    (Verdict.PARTIAL, "Partial, the meaning not confirmed: the claim's words are in the source and the judge was not sure "
                      "they say the same; read the passage"),
    (Verdict.ERROR, "Errors: the tool failed on these citations"),
    (Verdict.UNVERIFIABLE, "Unverifiable: no readable source"),
    (Verdict.SUPPORTED, "Supported"),
    ("not_a_claim", "Not a claim: table rows of names and identifiers, never ranked among problems"),
]



_TIER_NOTE = {
    False: ("Verdicts come from the tier named on each finding; the lexical tier compares words, so *supported* "
            "means the words are there, not that the meaning is."),
    True: ("Verdicts come from the tier named on each finding: *entailment*, a model read the passage; *lexical*, "
           "the words decided: *supported* only where the claim stands word for word in the source, *partial* where "
           "its words were found and the model did not confirm the meaning (its lean is in the reasons)."),
}
"""The report's note on tiers, by whether the entailment tier ran (issue 28: a lexical verdict says what it is)."""

def _band(f: Finding):
    if "unknown_citekey" in f.flags:
        return "unknown"
    if "not_a_claim" in f.flags:
        return "not_a_claim"
    return "partial_named" if difference_named(f) else f.verdict


def _quote(text: str) -> str:
    return "\n".join("> " + ln if ln else ">" for ln in text.splitlines() or [""])


FLAG_NOTES = {
    "needs_review": "the tiers disagree, or the judge leaned hard against this verdict: read the passage yourself",
    "llm_disagrees": "the LLM tier's grounded answer differs from the verdict",
    "abstract_only": "only the abstract was read",
}
"""What a flag asks of the reader, written beside it (two new users' trials asked what ``needs_review`` meant)."""


def _decided_by(f: Finding) -> str:
    """" · decided by `tag` (proven by code)" when a proven tag made the verdict, else ""."""
    proven = [t.name for t in f.tags if t.proven]
    if proven and f.reasons and f.reasons[0].startswith(f"{f.verdict.value}: "):
        return " · decided by " + ", ".join(f"`{n}`" for n in proven) + " (proven by code)"
    return ""


def _evidence_block(f: Finding) -> list[str]:
    ev = f.evidence
    if ev is None:
        return []
    p = ev.passage
    where = []
    if ev.source.path:
        where.append(f"`{ev.source.path}`")
    if p.page or p.time_start is not None:
        where.append(p.where())  # "page 3", or "at 12:34-12:51" in a recording's transcript
    if p.line:
        where.append(f"{'paragraph' if ev.source.media_type in OFFICE_TYPES.values() else 'line'} {p.line}")
    ocr = "; **read by OCR from a scanned page: lower trust, check the quote against the page**" if p.ocr else ""
    # the passage the entailment judge read (its sentence named in the reasons), or the one holding most of the
    # claim's words when another tier's evidence was kept (new users read "best passage" as the judged one)
    head = "Passage the judge read, its sentence in bold" if ev.sentence else "Passage holding most of the claim's words"
    out = [f"{head} ({', '.join(where)}; lexical coverage {ev.scores.get('lexical', 0):.2f}{ocr}):", ""]
    if p.quotable:
        out.append(_quote(_around(p.text, ev.sentence)))
    else:
        out.append(f"_Not quoted: the reading order of this passage is not trusted. See {p.where()}._")
    return out + [""]


AROUND = 200
"""Characters of the passage kept on each side of the sentence the judge read (Markdown)."""


def _around(text: str, sentence: str | None) -> str:
    """The passage as the Markdown report quotes it: the sentence the judge read in bold with :data:`AROUND`
    characters of its passage on each side, cut at a word ("[…]" where cut); without such a sentence in it, the
    first 900 characters. New users of trials 111-114 read "a cut-off copy of the whole abstract" that did not reach
    the sentence the verdict rested on, in a report of 67 KB for 30 sentences."""
    flat = " ".join(text.split())
    judged = " ".join((sentence or "").split())
    at = flat.find(judged) if judged else -1
    if at < 0:  # the passage as written (its line breaks kept)
        return text if len(text) <= 900 else text[:900] + " […]"
    before, after = flat[:at], flat[at + len(judged):]
    if len(before) > AROUND:
        before = "[…] " + before[-AROUND:].split(" ", 1)[-1]
    if len(after) > AROUND:
        after = after[:AROUND].rsplit(" ", 1)[0] + " […]"
    return f"{before}**{judged}**{after}"


def _assist_block(f: Finding) -> list[str]:
    """Suggestions and inconsistencies (issue 25) under a finding; [] when it has none."""
    out: list[str] = []
    for x in f.suggestions:
        head = "Corrected locator" if x["kind"] == "locator" else "Suggestion"
        out.append(f"{head}: {x['message']}" + (f" ({x['path']})" if x.get("path") else ""))
        out.append("")
        if x.get("evidence"):
            out += [_quote(x["evidence"]), ""]
    for x in f.inconsistencies:
        out += [f"Inconsistent with line {x['other_line']}: {x['message']}.", "", _quote(x["other_claim"]), ""]
    return out


def _considered_block(f: Finding) -> list[str]:
    """One line naming the file read and each one passed over, with why
    (``Source.considered``); nothing when a single file was read and fits."""
    src = f.source
    if src is None or not (any(not c.chosen for c in src.considered) or any("check that this is the right file" in c.reason for c in src.considered)):
        return []
    short = lambda r: r if len(r) <= 160 else r[:157] + "..."  # noqa: E731
    read = [f"`{c.path}` ({short(c.reason)})" for c in src.considered if c.chosen]
    passed = [f"`{c.path}` ({short(c.reason)})" for c in src.considered if not c.chosen]
    return [f"Source file: {'; '.join(read) or 'none read'}." + (f" Passed over: {'; '.join(passed)}." if passed else ""), ""]


def render_markdown(report: Report) -> str:
    """The report as Markdown text."""
    from citeproof.reports.review import finding_key

    review = report.metadata.get("review") or {}
    s = summarise(report.findings)
    lines = [
        f"# citeproof report: `{report.document}`",
        "",
        "Findings are listed as a **reading order**, not a grade: the citations most worth a human's",
        "attention come first (unknown citekeys, then contradicted, unsupported, partial, errors,",
        "unverifiable, supported). " + _TIER_NOTE[("entailment" in report.metadata.get("tiers", []))],
        "",
        "## Summary",
        "",
        "| what | count |",
        "| --- | ---: |",
        f"| citation occurrences | {s['citations']} |",
        f"| claim units | {s['claims']} |",
        f"| distinct citekeys | {s['citekeys']} |",
    ]
    for v, n, nac in verdict_rows(s):
        lines.append(f"| {v} | {count_text(n, nac)}{named_note(v, s)} |")
    lines += [
        f"| citekeys with a readable source | {s['sources_available']} |",
        f"| citekeys without one | {s['sources_missing']} |",
        f"| unknown citekeys | {len(s['unknown_citekeys'])} |",
        f"| citations with a readable source | {s['coverage']:.0%} |",
        "",
        f"Tiers run: {', '.join(report.metadata.get('tiers', []))}. "
        f"citeproof {report.metadata.get('citeproof_version', '?')}, {report.metadata.get('created', '')}.",
        "",
    ]
    for note in report.metadata.get("tier_notes", []):
        lines.append(f"- Note: {note}")
    box = no_source_box(report)
    if box:
        lines += [f"## {box['missing']} of {box['works']} cited works have no readable source", "",
                  f"So {box['citations']} citation{'' if box['citations'] == 1 else 's'} cannot be checked. Why:", ""]
        lines += [f"- **{n}** {why}" for why, n in box["reasons"][:4]]
        lines += ["", "Ways to give them sources:", ""]
        lines += [f"{i}. `{cmd}`: {what}" for i, (cmd, what) in enumerate(box["ways"], start=1)]
        lines += ["", "The works are listed, folded, under *Unverifiable* below.", ""]
    if report.diagnostics:
        lines += ["## Problems in the inputs", ""]
        for d in report.diagnostics:
            lines.append(f"- **{d.severity}** `{d.code}`: {d.message}")
        lines.append("")
    if report.uncited:
        lines += ["## Sentences that state a finding and cite nothing", ""]
        for u in report.uncited:
            lines.append(f"- {u['document']}:{u['line']} ({u['cue']}: \u201c{u['words']}\u201d): {u['sentence']}")
            cand = u.get("candidate")
            if cand:
                lines.append(f"  - candidate from your library: {cand['message']}" + (f": {_quote(cand['evidence'])[2:]}" if cand.get("evidence") else ""))
        lines.append("")
    if not report.findings:
        lines += ["## Findings", "", "_No citation was found in the document._ citeproof looks for pandoc citations such as `[@key]`, `[see @key, p. 3]` and `@key`, LaTeX `\\cite`-family commands, and a PDF's markers (`[12]`, superscripts, `(Smith et al., 2020)`).", ""]
        return "\n".join(lines)
    flagged = {f.citation.citekey: f for f in report.findings if any(t.name in ("retracted_source", "corrected_source") for t in f.tags)}
    if flagged:  # retractions open the report, whatever the verdicts (issue 12)
        lines += ["## Retracted or corrected sources", ""]
        lines += [f"- `{k}`: " + "; ".join(f"**{t.name}**: {t.message}" for t in f.tags if t.name in ("retracted_source", "corrected_source")) for k, f in flagged.items()]
        lines.append("")
    rank = 0
    for band, title in _BAND_TITLES:
        group = [f for f in report.findings if _band(f) == band]
        if not group:
            continue
        lines += [f"## {title} ({len(group)})", ""]
        if band == Verdict.UNVERIFIABLE:
            # One row per citekey: the occurrences share the reason; every line is listed.
            lines += ["Each row is one cited work with every line citing it; the reason says what to do.", ""]
            if box:  # folded: the box above said what they share
                lines += [f"<details><summary>{len({f.citation.citekey for f in group})} works without a readable source</summary>", ""]
            lines += ["| # | citekey | lines | why |", "| ---: | --- | --- | --- |"]
            by_key: dict[str, list[Finding]] = {}
            for f in group:
                by_key.setdefault(f.citation.citekey, []).append(f)
            for key, fs in by_key.items():
                first = rank + 1
                rank += len(fs)
                nums = ", ".join(str(f.citation.line or f.claim.line) for f in fs)
                span = f"{first}" if len(fs) == 1 else f"{first}–{rank}"
                marks = "".join(f"`{t.name}` " for t in fs[0].tags)
                clash = "".join(f"; inconsistent: line {x['line']} \u201c{x['this']}\u201d vs line {x['other_line']} \u201c{x['other']}\u201d"
                                for f in fs for x in f.inconsistencies if x["line"] < x["other_line"])
                lines.append(f"| {span} | `{key}` | {nums} | {marks}{fs[0].reasons[0].replace('|', '/') if fs[0].reasons else ''}{clash.replace('|', '/')} |")
            lines.append("")
            if box:
                lines += ["</details>", ""]
            continue
        for f in group:
            rank += 1
            c = f.citation
            loc = f" {c.locator.raw}" if c.locator else ""
            sig = f" ({c.signal})" if c.signal else ""
            where = f"page {f.claim.page}" if f.claim.page is not None else f"line {c.line or f.claim.line}" + (f", column {c.column}" if c.column and c.line else "")
            lines.append(f"### {rank}. `{c.citekey}`{loc}{sig}: {f.verdict.value}, {where}")
            lines.append("")
            lines.append(f"{f.location()} · {f.claim.kind.value.replace('_', ' ')} · tier {f.tier.value}{_decided_by(f)} · score {f.score:.2f} · confidence {f.confidence:.2f}")
            lines.append("")
            lines.append(_quote(clip_claim(f.claim.text or f.claim.raw)))
            lines.append("")
            lines += _evidence_block(f)
            lines += _assist_block(f)
            lines += _considered_block(f)
            if f.tags:
                lines.append("Tags:")
                for t in f.tags:
                    spans = "; ".join(d for d in (e.describe() for e in t.evidence) if d)
                    shown = ", proven by code" if t.proven else ""  # shown on the restating sentence: it decides
                    lines.append(f"- `{t.name}` ({t.confidence:.2f}{shown}): {t.message}" + (f" [{spans}]" if spans else ""))
                lines.append("")
            if f.reasons:
                lines.append("Why:")
                lines += [f"- {r}" for r in f.reasons]
                lines.append("")
            if f.flags:
                lines.append("Flags: " + ", ".join(f"`{x}`" + (f" ({FLAG_NOTES[x]})" if x in FLAG_NOTES else "")
                                                   for x in f.flags))
                lines.append("")
            d = review.get(finding_key(f)) if review else None
            if d:
                stale = " (stale: the claim or the source changed since)" if d.get("stale") else ""
                lines.append(f"Reviewer's decision: **{str(d.get('decision', '')).replace('_', ' ')}**{stale}" + (f": {d['note']}" if d.get("note") else ""))
                lines.append("")
    return "\n".join(lines)


class MarkdownWriter:
    """Writes :func:`render_markdown`."""

    name = "md"
    suffix = ".md"

    def write(self, report: Report, stream: TextIO) -> None:
        """Write ``report`` to ``stream``."""
        stream.write(render_markdown(report))
        stream.write("\n")


