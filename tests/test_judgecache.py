"""Incremental re-runs (issue 15 part 3): judgements cached by everything that decides them, and nothing else."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from citeproof.judgecache import CACHED_FIELDS, JudgementCache, run_fingerprint
from citeproof.model import Evidence, Finding, Verdict
from citeproof.pipeline import CheckOptions, check
from citeproof.reports.json import report_to_dict
from citeproof.sources.cache import Cache

SMITH = """# Diet and weight in mice

Mice fed the high-fat diet for twelve weeks gained 20 percent more weight than mice fed the control diet.

Food intake did not differ between the two groups, so the gain came from the diet's composition.
"""

JONES = """Zinc inhibits the enzyme.

The enzyme was inhibited by zinc at low micromolar concentrations in every assay we ran.

Copper had no effect on the enzyme at any concentration tested.
"""

LEE = """Root nodules of legumes host soil bacteria that fix atmospheric nitrogen for the plant.

Nitrogen fixation fell when the soil was flooded.
"""

BIB = """@article{smith, title = {Diet and weight in mice}, author = {Smith, Ann}, year = {2020}, file = {smith.md}}
@article{jones, title = {Zinc and the enzyme}, author = {Jones, Bob}, year = {2021}, file = {jones.txt}}
@article{lee, title = {Nodules}, author = {Lee, Cy}, year = {2019}, file = {lee.md}}
"""

DRAFT = """# Draft

Mice fed the high-fat diet gained 20 percent more weight than controls [@smith].

The enzyme was inhibited by zinc at low concentrations [@jones].

Mice gained weight on the high-fat diet, and the enzyme was inhibited by zinc [@smith; @jones].

Soil bacteria in root nodules fix nitrogen for the plant [@lee].

An unlisted work is cited here [@nobody].
"""

READABLE = 5
"""Citations that reach the tiers: smith, jones, the group's two, lee (``nobody`` is unknown)."""


@pytest.fixture()
def world(tmp_path):
    (tmp_path / "smith.md").write_text(SMITH)
    (tmp_path / "jones.txt").write_text(JONES)
    (tmp_path / "lee.md").write_text(LEE)
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "draft.md").write_text(DRAFT)
    return tmp_path


def run(folder, **kw):
    kw.setdefault("tiers", ["lexical"])
    return check(folder / "draft.md", [folder / "refs.bib"], CheckOptions(cache_dir=folder / "cache", **kw))


def comparable(report) -> dict:
    d = report_to_dict(report)
    for k in ("timings_s", "created", "judgement_cache"):
        d["metadata"].pop(k)
    return d


def shown(f) -> list:
    """What the HTML report shows beyond the JSON: the evidence and next candidates, the sentence the judge used."""
    return [(e.passage.id, e.passage.text, e.scores, e.sentence, e.source is f.source) for e in ([f.evidence] if f.evidence else []) + f.alternatives]


def by_line(report) -> dict:
    return {(f.claim.line, f.citation.citekey): f for f in report.findings}


def test_a_rerun_reuses_every_judgement_and_reports_the_same(world):
    cold = run(world)
    assert {"enabled": True, "reused": 0, "judged": READABLE} == cold.metadata["judgement_cache"]
    warm = run(world)
    assert {"enabled": True, "reused": READABLE, "judged": 0} == warm.metadata["judgement_cache"]
    assert comparable(cold) == comparable(warm)
    assert [shown(f) for f in cold.findings] == [shown(f) for f in warm.findings]
    assert any(f.alternatives for f in warm.findings)
    group = [f for f in warm.findings if f.citation.group_size == 2]
    assert 2 == len(group) and all(any(t.name == "joint_citation" for t in f.tags) for f in group)  # the joint pass's outcome came back too


def test_editing_one_claim_rejudges_that_claim_only(world):
    cold = run(world)
    (world / "draft.md").write_text(DRAFT.replace("Soil bacteria in root nodules fix nitrogen for the plant", "Flooding the soil lowered nitrogen fixation"))
    edited = run(world)
    assert {"enabled": True, "reused": READABLE - 1, "judged": 1} == edited.metadata["judgement_cache"]
    was, now = by_line(cold), by_line(edited)
    assert "Flooding" in now[9, "lee"].claim.text and "flooded" in now[9, "lee"].evidence.passage.text
    assert now[9, "lee"].evidence.passage.text != was[9, "lee"].evidence.passage.text
    for key in ((3, "smith"), (5, "jones"), (7, "smith"), (7, "jones")):
        assert (was[key].verdict, was[key].reasons) == (now[key].verdict, now[key].reasons)


def test_moved_claims_are_reused_at_their_new_lines(world):
    run(world)
    (world / "draft.md").write_text(DRAFT.replace("# Draft\n", "# Draft\n\nA new opening paragraph with no citation at all.\n"))
    moved = run(world)
    assert {"enabled": True, "reused": READABLE, "judged": 0} == moved.metadata["judgement_cache"]
    assert {5, 7, 9, 11, 13} == {f.claim.line for f in moved.findings}


def test_a_changed_source_rejudges_only_its_citations(world):
    run(world)
    (world / "jones.txt").write_text(JONES.replace("Copper had no effect", "Copper had a small effect"))
    again = run(world)
    # jones alone, and the group [@smith; @jones] whole (its joint verdict reads both): 3; smith alone and lee reused
    assert {"enabled": True, "reused": 2, "judged": 3} == again.metadata["judgement_cache"]


def test_a_changed_bibliography_entry_rejudges_its_citations(world):
    run(world)
    (world / "refs.bib").write_text(BIB.replace("{Nodules}", "{Root nodules}"))
    assert {"enabled": True, "reused": READABLE - 1, "judged": 1} == run(world).metadata["judgement_cache"]


def test_other_tiers_or_settings_rejudge_everything(world):
    run(world)
    assert {"enabled": True, "reused": 0, "judged": READABLE} == run(world, settings={"detectors": {"off": ["hedging"]}}).metadata["judgement_cache"]
    assert {"enabled": True, "reused": READABLE, "judged": 0} == run(world).metadata["judgement_cache"]


def test_the_key_holds_tiers_and_model_versions(monkeypatch, tmp_path):
    from citeproof.judges import entailment
    from citeproof.retrieval import dense

    lexical = run_fingerprint(["lexical"])
    both = run_fingerprint(["lexical", "dense", "entailment"])
    assert lexical != both and both == run_fingerprint(["lexical", "dense", "entailment"])
    monkeypatch.setattr(dense, "MODEL_VERSION", dense.MODEL_VERSION + "-retrained")
    assert both != run_fingerprint(["lexical", "dense", "entailment"])
    monkeypatch.undo()
    other = tmp_path / "other.onnx"
    other.write_bytes(b"another model's bytes")
    monkeypatch.setattr(entailment, "MODEL_PATH", other)
    assert both != run_fingerprint(["lexical", "dense", "entailment"])
    assert lexical == run_fingerprint(["lexical"])  # a model the run does not use is no part of its key


def test_no_cache_judges_everything_and_stores_nothing(world):
    for _ in range(2):
        r = run(world, use_cache=False)
        assert {"enabled": False, "reused": 0, "judged": READABLE} == r.metadata["judgement_cache"]
    assert not (world / "cache").exists()


def test_the_llm_tier_is_never_cached(tmp_path):
    assert JudgementCache(Cache(tmp_path), ["lexical", "llm"]).enabled is False
    assert JudgementCache(Cache(tmp_path), ["lexical"]).enabled is True


def test_a_row_of_another_layout_is_a_miss(world):
    run(world)
    import sqlite3

    conn = sqlite3.connect(world / "cache" / "citeproof.sqlite")
    with conn:
        conn.execute("UPDATE judgements SET payload=?", (b"not zlib",))
    conn.close()
    again = run(world)
    assert {"enabled": True, "reused": 0, "judged": READABLE} == again.metadata["judgement_cache"]
    assert all(f.verdict != Verdict.ERROR for f in again.findings)


def test_every_finding_field_is_cached_or_taken_from_the_run():
    """A new Finding or Evidence field must be added to the cache's payload (encode/decode) or to the run's own objects."""
    # suggestions and inconsistencies come from the assist stage, which reads every finding of each run afresh
    run_fields = {"claim", "citation", "reference", "source", "suggestions", "inconsistencies"}
    assert {f.name for f in dataclasses.fields(Finding)} == set(CACHED_FIELDS) | run_fields
    assert {f.name for f in dataclasses.fields(Evidence)} == {"passage", "source", "scores", "matched_terms", "sentence"}


def test_models_load_only_when_a_citation_needs_them():
    from citeproof.pipeline import Tiers

    t = Tiers(["lexical", "dense", "entailment"])
    if t.used != ["lexical", "dense", "entailment"]:
        pytest.skip("the model tiers are not installed here: " + "; ".join(t.notes))
    assert t.loaded("dense") is None and t.loaded("entailment") is None


@pytest.mark.slow
def test_a_warm_rerun_with_all_tiers_loads_no_model(world, monkeypatch):
    from citeproof import tiers

    cold = run(world, tiers=None)
    if cold.metadata["tiers"] != ["lexical", "dense", "entailment"]:
        pytest.skip("the model tiers are not installed here")

    def boom(tier, make):
        raise AssertionError(f"the {tier} model was loaded on a warm re-run")

    monkeypatch.setattr(tiers, "_shared_model", boom)
    warm = run(world, tiers=None)
    assert {"enabled": True, "reused": READABLE, "judged": 0} == warm.metadata["judgement_cache"]
    assert comparable(cold) == comparable(warm)
    assert [shown(f) for f in cold.findings] == [shown(f) for f in warm.findings]
    assert any(f.evidence is not None and f.evidence.sentence for f in warm.findings)  # the entailment judge's sentence came back


def test_pymupdf_is_imported_without_its_layout_models():
    code = ("import sys; from citeproof.pdf_layout import load_pymupdf; m = load_pymupdf(); "
            "print(m.__name__, 'pymupdf.layout' in sys.modules, 'pymupdf.layout' in sys.modules and sys.modules['pymupdf.layout'] is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert ["pymupdf", "False", "False"] == out


def test_an_entry_added_above_others_rejudges_nothing(world):
    run(world)
    (world / "refs.bib").write_text("@book{first, title = {A new first entry}, author = {Zed, Al}, year = {2001}}\n" + BIB)
    assert {"enabled": True, "reused": READABLE, "judged": 0} == run(world).metadata["judgement_cache"]


def test_the_run_fingerprint_is_the_same_in_every_process():
    """Bug: the policy's ``accusing`` frozenset went into the fingerprint as ``str()``, whose order follows each process's
    string hashing, so a warm re-run from a new process reused no judgement (0 of 12 on the demo)."""
    import os
    import subprocess
    import sys

    code = "from citeproof.judgecache import run_fingerprint; print(run_fingerprint(['lexical', 'entailment']))"
    prints = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip() for seed in ("1", "2", "3", "4")}
    assert 1 == len(prints) and len(next(iter(prints))) == 64


def test_a_cached_judgement_keeps_its_tags_proof():
    """Session 26, re-running a new user's trial: a warm run restored every tag with ``proven`` False, so the JSON lost
    ``"proven": true`` and the Markdown its "decided by `number_drift` (proven by code)", the verdict kept. The stored
    layout holds it now (payload format 3)."""
    from citeproof.judgecache import FORMAT, decode, encode
    from citeproof.model import Citation, Claim, Tag, TagEvidence, Tier, UnitKind

    cite = Citation(citekey="k", line=1, column=5, raw="[@k]")
    claim = Claim(id="c1", text="Mice gained 30% more weight.", raw="Mice gained 30% more weight [@k].", citations=(cite,),
                  document="d.md", line=1, kind=UnitKind.SENTENCE)
    f = Finding(claim, cite, Verdict.UNSUPPORTED, score=0.9, confidence=0.9, tier=Tier.ENTAILMENT,
                tags=[Tag("number_drift", "30% for 12%", 0.9, (TagEvidence("30%", "12%"),), proven=True),
                      Tag("hedge_removed", "a hedge dropped", 0.4, ())])
    payload = encode(f)
    assert payload["format"] == FORMAT == 3
    back = decode(payload, claim, cite, None, None)
    assert [(t.name, t.proven) for t in back.tags] == [("number_drift", True), ("hedge_removed", False)]
