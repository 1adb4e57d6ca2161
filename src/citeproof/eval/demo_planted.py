"""``citeproof demo --planted``: the demo sample with a few planted errors.

A user's first look at what the tool finds: every citation of the demo
sample that could be judged (it has a readable source) is judged twice by
the full pipeline (retrieval, judge, detectors): once as written, and once
with one error planted into its claim (a changed number, a widened scope, a
removed hedge, a flipped direction, a causal overclaim, an inflated
significance, or a swapped source), using the planted-error benchmark's own
templates (:mod:`citeproof.eval.planting`). A plant is *caught* when the
planted version gets a worse verdict than the untouched one, or a
downgrading tag the untouched one does not have.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from citeproof.bibliography import Bibliography
from citeproof.detectors import DOWNGRADING_TAGS
from citeproof.eval.planting import KINDS, plant
from citeproof.model import Finding, Report
from citeproof.pipeline import Tiers, _judge_citation
from citeproof.triage import BANDS

__all__ = ["PlantedRow", "plant_demo", "format_demo_planted"]


@dataclass
class PlantedRow:
    """One citation of the demo, untouched and planted.

    Attributes:
        citekey, line: where the citation is.
        kind: the planted kind (``number``... or ``swap``).
        original, planted: the claim text before and after planting.
        before, after: the findings for each version.
        caught: whether the planted version was flagged (see module docstring).
    """

    citekey: str
    line: int
    kind: str
    original: str
    planted: str
    before: Finding
    after: Finding
    caught: bool


def _flagged(before: Finding, after: Finding) -> bool:
    worse = BANDS[after.verdict] < BANDS[before.verdict]
    new_tags = {t.name for t in after.tags if t.name in DOWNGRADING_TAGS} - {t.name for t in before.tags}
    return worse or bool(new_tags)


def plant_demo(report: Report, seed: int = 7) -> list[PlantedRow]:
    """Plant one error into each judged citation of ``report`` and judge again.

    Args:
        report: the untouched run on the demo sample.
        seed: seeds the choice of kind and template (reproducible).

    Returns:
        One row per citation whose claim took a plant, in report order; units
        that hold no claim (``not_a_claim``: a table row of names, an alias
        line) get none.
    """
    rng = random.Random(seed)
    usable = [f for f in report.findings if f.evidence is not None and f.source is not None and f.source.usable]
    others = {f.source.path: f.source for f in usable}
    judged = [f for f in usable if "not_a_claim" not in f.flags]  # a table row of names holds no statement to falsify
    tiers = Tiers(report.metadata.get("tiers"))
    rows: list[PlantedRow] = []
    kinds = [k for k in KINDS if k != "swap"]
    for n, f in enumerate(judged):
        order = kinds[n % len(kinds):] + kinds[: n % len(kinds)] + ["swap"]
        for kind in order:
            if kind == "swap":
                wrong = [s for p, s in others.items() if p != f.source.path]
                if not wrong:
                    continue
                src, text = wrong[n % len(wrong)], f.claim.text
            else:
                p = plant(kind, f.claim.text, rng, evidence=f.evidence.passage.text, source_text=f.source.text)
                if p is None:
                    continue
                src, text = f.source, p.text
            claim = dataclasses.replace(f.claim, text=text)
            after = _judge_citation(claim, f.citation, f.reference, src, tiers, Bibliography(), set())
            rows.append(PlantedRow(f.citation.citekey, f.citation.line, kind, f.claim.text, text, f, after, _flagged(f, after)))
            break
    return rows


def format_demo_planted(rows: list[PlantedRow]) -> str:
    """The rows as a Markdown report: a table, then each plant with its evidence."""
    caught = sum(r.caught for r in rows)
    out = [
        "# citeproof demo with planted errors",
        "",
        f"Each judged citation of the demo sample was judged as written and again with one planted error. "
        f"Caught: **{caught} of {len(rows)}** (a worse verdict, or a new failure-mode tag).",
        "",
        "| # | citekey | line | planted | untouched | planted version | caught |",
        "| ---: | --- | ---: | --- | --- | --- | --- |",
    ]
    for i, r in enumerate(rows, 1):
        b = r.before.verdict.value + ("; " + ", ".join(t.name for t in r.before.tags) if r.before.tags else "")
        a = r.after.verdict.value + ("; " + ", ".join(t.name for t in r.after.tags) if r.after.tags else "")
        out.append(f"| {i} | `{r.citekey}` | {r.line} | {r.kind} | {b} | {a} | {'yes' if r.caught else '**missed**'} |")
    out.append("")
    for i, r in enumerate(rows, 1):
        out += [f"## {i}. {r.kind} at line {r.line} (`{r.citekey}`): {'caught' if r.caught else 'missed'}", "", "Untouched:", "", "> " + r.original, "", "Planted:", "", "> " + r.planted, ""]
        if r.kind == "swap":
            out += [f"Judged against the wrong source: `{r.after.source.path if r.after.source else '?'}`.", ""]
        for t in r.after.tags:
            out.append(f"- `{t.name}` ({t.confidence:.2f}): {t.message}")
        out += [f"- verdict {r.after.verdict.value} (was {r.before.verdict.value}); {r.after.reasons[0] if r.after.reasons else ''}", ""]
    return "\n".join(out)


