"""A single citation for a claim with parts: each part judged on its own passage (judges/joint.py).

The hit is the demo's line 620 (meta-review.md, Manubot): the Sci-Hub study's aside "performed openly on GitHub
from its inception" rests on the Methods (page 19), its main clause on page 11, and no one passage holds both.
The lexical tier decides here (no model near a boundary): 70% and 55% of each part's words against a whole-claim
best of 35%.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.judges.joint import claim_parts
from citeproof.model import Verdict
from citeproof.pipeline import CheckOptions, check

from conftest import SAMPLE

SCIHUB = SAMPLE / "cited" / "himmelstein2018-scihub.pdf"


class TestClaimParts:
    def test_an_aside_between_dashes_keeps_the_subject(self):
        assert claim_parts("The Sci-Hub Coverage Study \u2014 performed openly on GitHub from its inception \u2014 "
                           "investigated Sci-Hub's repository of pirated articles.") == [
            "The Sci-Hub Coverage Study investigated Sci-Hub's repository of pirated articles",
            "The Sci-Hub Coverage Study performed openly on GitHub from its inception"]

    def test_pandoc_dashes_and_clauses(self):
        assert claim_parts("Manubot --- a tool for open writing --- builds manuscripts") == [
            "Manubot builds manuscripts", "Manubot a tool for open writing"]
        assert claim_parts("Aspirin lowered mortality in adults; statins raised HDL in children.") == [
            "Aspirin lowered mortality in adults", "statins raised HDL in children"]

    def test_nothing_to_cut(self):
        assert claim_parts("Sci-Hub's database contains 68.9% of scholarly articles.") == [
            "Sci-Hub's database contains 68.9% of scholarly articles"]
        # A hyphenated word or a number range is no aside.
        assert len(claim_parts("The follow-up lasted 3-5 years in the cohort.")) == 1


def _check(tmp_path: Path, sentence: str):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{scihub, title={Sci-Hub provides access to nearly all scholarly literature}, file={"
                   + str(SCIHUB) + "}}\n")
    doc = tmp_path / "draft.md"
    doc.write_text(sentence + "\n", encoding="utf-8")
    return check(doc, [bib], CheckOptions(tiers=["lexical"], use_cache=False)).findings[0]


@pytest.mark.skipif(not SCIHUB.exists(), reason="the bundled Sci-Hub PDF is absent")
class TestOnTheSciHubPaper:
    def test_parts_on_two_pages_make_the_claim_supported(self, tmp_path):
        f = _check(tmp_path, "The Sci-Hub Coverage Study \u2014 performed openly on GitHub from its inception \u2014 "
                             "investigated Sci-Hub's repository of pirated articles [@scihub].")
        assert f.verdict == Verdict.SUPPORTED
        assert f.reasons[0].startswith("judged in parts, each supported by its own passage:")
        assert "page 11" in f.reasons[0] and "page 19" in f.reasons[0]
        assert "(was partial as a whole)" in f.reasons[0]
        assert f.evidence.passage.page == 11 and [a.passage.page for a in f.alternatives] == [19]
        assert "performed entirely in the open" in f.alternatives[0].passage.text
        assert all(r.startswith(("judged in parts", "part 1:", "part 2:", "as a whole:")) for r in f.reasons)

    def test_an_aside_the_paper_never_states_stays_partial(self, tmp_path):
        f = _check(tmp_path, "The Sci-Hub Coverage Study \u2014 funded by a pharmaceutical company in Switzerland "
                             "\u2014 investigated Sci-Hub's repository of pirated articles [@scihub].")
        assert f.verdict == Verdict.PARTIAL
        assert not any(r.startswith("judged in parts") for r in f.reasons)


def test_a_downgraded_finding_tells_one_story():
    """New-user defect (2026-12-01): a misquotation made the finding partial, yet a later reason still said it was
    kept supported. Since issue 28 the policy never keeps a lexical *supported* against a lean (the reason is gone);
    the downgrade still leads the reasons. The quote has "free" where the Sci-Hub paper (abstract, page 2) has
    "gratis"."""
    from citeproof.judges.policy import apply_detectors
    from citeproof.model import Citation, Claim, Evidence, Finding, Passage, Source, UnitKind

    text = ("For the first time, nearly all scholarly literature is available gratis to anyone with an Internet "
            "connection, suggesting the toll access business model may become unsustainable.")
    src = Source(citekey="scihub", path=None, sha256="0", media_type="text/plain", origin="text",
                 passages=[Passage(id="p0001", text=text, page=2)], text=text)
    claim_text = ('As the authors put it, "for the first time, nearly all scholarly literature is available free to '
                  'anyone with an Internet connection"')
    cite = Citation(citekey="scihub", line=1)
    claim = Claim(id="c0001", text=claim_text, raw=claim_text + " [@scihub].", citations=(cite,), document="d.md",
                  line=1, kind=UnitKind.SENTENCE)
    f = Finding(claim=claim, citation=cite, verdict=Verdict.SUPPORTED, score=0.7, confidence=0.6,
                evidence=Evidence(passage=src.passages[0], source=src), reasons=["72% of the claim's words"],
                source=src)
    apply_detectors(f, claim, cite, src)
    assert f.verdict == Verdict.PARTIAL
    assert f.reasons[0].startswith("downgraded from supported: misquotation")
    assert f.reasons[1:] == ["before the detectors: 72% of the claim's words"]  # what the judge alone said, marked so
