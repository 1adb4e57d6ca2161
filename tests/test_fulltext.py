"""The full-text decision layer (judges/fulltext.py): which sources it judges, and one code path for pipeline and eval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citeproof.judges import fulltext
from citeproof.judges.fulltext import FULL_TEXT_MIN_SENTENCES, source_sentences
from citeproof.model import (
    Citation,
    Claim,
    Evidence,
    Locator,
    Passage,
    Source,
    UnitKind,
)
from citeproof.sources.text import parse_text

CI = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "citation-integrity"
ARTICLE = "PMC3120182"  # Wing et al. 2011, Look AHEAD: modest weight loss and cardiovascular risk factors (116 sentences)

# An abstract-length source, written for this test: ten sentences, the last a reference-list entry.
ABSTRACT = """Statins are prescribed to lower LDL cholesterol in adults at cardiovascular risk.

We randomised 412 adults to atorvastatin or placebo for twelve weeks. Atorvastatin lowered LDL cholesterol by 38%.
Adverse events were rare and mostly mild muscle pain. Liver enzymes rose in four participants.
The reduction persisted at the one-year follow-up visit. Adherence was above 90% in both arms.

Funding: national research council. Ok.

## References

Smith J, Doe A. Statins and muscle pain in older adults. Lancet 2019;393:1-10."""


def _source(text: str, key: str = "src") -> Source:
    passages, full = parse_text(text)
    return Source(citekey=key, path=None, sha256=str(hash(text)), media_type="text/plain", origin="text",
                  passages=passages, text=full)


def _claim(text: str, locator: Locator | None = None) -> Claim:
    cite = Citation(citekey="src", line=1, locator=locator)
    return Claim(id="c0001", text=text, raw=text, citations=(cite,), document="<text>", line=1, kind=UnitKind.SENTENCE)


def test_source_sentences_cut_passages_and_skip_the_reference_list():
    """Sentences under 20 characters and reference-list passages are left out; each keeps its passage's index."""
    from citeproof.sources.text import parse_markdown_source

    passages, _ = parse_markdown_source(ABSTRACT)
    sents, owner = source_sentences(passages)
    assert "Atorvastatin lowered LDL cholesterol by 38%." in sents
    assert "Ok." not in sents  # 3 characters
    assert not any("Lancet" in s for s in sents)  # the reference list is not evidence
    assert len(sents) == len(owner) == 8
    assert all(s in passages[i].text for s, i in zip(sents, owner, strict=True))


class _Judge:
    """Only the attribute :func:`fulltext.applies` reads: the judge's calibration config."""

    def __init__(self, config: dict) -> None:
        self.config = config


def test_an_abstract_keeps_the_default_decision_layer():
    """Ten sentences are far below the full-text line: the default (SciFact) layer judges, whatever the profile."""
    from citeproof.judges.entailment import load_config

    src = _source(ABSTRACT)
    cands = [Evidence(passage=p, source=src) for p in src.passages]
    assert len(source_sentences(src.passages)[0]) < FULL_TEXT_MIN_SENTENCES
    assert not fulltext.applies(_Judge(load_config()), _claim("Atorvastatin lowered LDL cholesterol."), cands)


@pytest.mark.skipif(not (CI / "reference_fulltext" / f"{ARTICLE}.txt").exists(), reason="Citation-Integrity data absent")
def test_a_full_text_takes_the_full_text_layer_unless_a_page_is_pinned():
    from citeproof.judges.entailment import load_config

    src = _source((CI / "reference_fulltext" / f"{ARTICLE}.txt").read_text(encoding="utf-8"), ARTICLE)
    cands = [Evidence(passage=p, source=src) for p in src.passages[:5]]
    cfg = load_config()
    claim = "This level of weight loss has been shown to be associated with improved cardiovascular disease risk factors."
    assert 116 == len(source_sentences(src.passages)[0])
    assert fulltext.applies(_Judge(cfg), _claim(claim), cands)
    assert not fulltext.applies(_Judge(cfg), _claim(claim, Locator(label="page", value="3", raw="p. 3")), cands)
    no_profile = {k: v for k, v in cfg.items() if k != "profiles"}
    assert not fulltext.applies(_Judge(no_profile), _claim(claim), cands)
    assert not fulltext.applies(_Judge(cfg), _claim(claim), [])


@pytest.mark.slow
@pytest.mark.skipif(not (CI / "reference_fulltext" / f"{ARTICLE}.txt").exists(), reason="Citation-Integrity data absent")
def test_pipeline_and_eval_judge_a_full_text_the_same_way():
    """Every training claim citing one article: ``eval citation-integrity``'s verdict and class probabilities are the
    pipeline entailment tier's (same sentences, same BM25 ranking, same network, same profile)."""
    from citeproof.eval.citation_integrity import score_claims
    from citeproof.judges import entailment
    from citeproof.pipeline import Tiers

    if entailment.unavailable_reason():
        pytest.skip(entailment.unavailable_reason())
    rows = [json.loads(line) for line in (CI / "claims_train.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["ref_pmcid"] == ARTICLE]
    assert 24 == len(rows)
    tiers = Tiers(["lexical", "entailment"])
    judge = tiers.entailment
    profile = judge.config["profiles"]["citation_integrity"]
    scored = score_claims(rows, CI / "reference_fulltext", judge, None, top_k=profile["retrieval"]["top_k"], profile=profile)
    src = _source((CI / "reference_fulltext" / f"{ARTICLE}.txt").read_text(encoding="utf-8"), ARTICLE)
    verdicts = []
    for r in scored:
        claim = _claim(r["text"])
        cands = tiers.candidates(r["text"], src, None, set())
        j = fulltext.entailment_judgement(judge, claim, cands, None)
        assert j.verdict.value == r["verdict"], r["id"]
        verdicts.append(j.verdict.value)
        assert j.evidence is not None and j.evidence.sentence in j.evidence.passage.text
    # the article's 24 citing sentences are not all judged alike (16 ACCURATE, 5 NOT_ACCURATE, 3 IRRELEVANT)
    assert len(set(verdicts)) == 3


@pytest.mark.slow
@pytest.mark.skipif(not (CI / "reference_fulltext" / f"{ARTICLE}.txt").exists(), reason="Citation-Integrity data absent")
def test_full_text_layer_judges_a_faithful_citation_of_a_full_text():
    """A real ACCURATE citing sentence (claim 872) against its article: the full-text layer decides on the article's
    own sentence, and its reason names the retrieval strength. (The layer serves ``eval citation-integrity``; the
    pipeline keeps the default layer: see ``Tiers.offline_judge``.)"""
    from citeproof.judges import entailment
    from citeproof.pipeline import Tiers

    if entailment.unavailable_reason():
        pytest.skip(entailment.unavailable_reason())
    text = (CI / "reference_fulltext" / f"{ARTICLE}.txt").read_text(encoding="utf-8")
    claim_text = "This level of weight loss has been shown to be associated with improved cardiovascular disease risk factors."
    tiers = Tiers(["lexical", "entailment"])
    src = _source(text, ARTICLE)
    j = fulltext.entailment_judgement(tiers.entailment, _claim(claim_text), tiers.candidates(claim_text, src, None, set()), None)
    assert "supported" == j.verdict.value and "entailment" == j.tier.value
    assert j.reasons[0].startswith("The full text supports the claim")
    assert "sentences BM25 ranks first of 116" in j.reasons[0]
    assert "weight loss" in j.evidence.sentence.lower() and j.evidence.scores["entails"] > 0.8


def test_passage_of_sentence_is_kept_for_evidence():
    """The owner index maps back to the passage a quoted sentence comes from (used for the finding's evidence)."""
    text = "\n\n".join(f"Paragraph {i} reports that measurement number {i} of the cohort was stable over time." for i in range(5))
    passages, _ = parse_text(text)
    sents, owner = source_sentences(passages)
    assert [0, 1, 2, 3, 4] == owner
    assert isinstance(passages[owner[3]], Passage) and "measurement number 3" in passages[owner[3]].text


def test_a_sentence_cut_inside_a_quotation_is_rejoined():
    """The Sci-Hub paper's ‘The 2016 study titled “Who’s downloading pirated papers? Everyone” analyzed...’ is one
    sentence, not a fragment the network can score on its own."""
    text = ("The 2016 study titled \u201cWho\u2019s downloading pirated papers? Everyone\u201d analyzed a dataset of "
            "Sci-Hub access logs. Elbakyan worked with a journalist to produce the dataset.")
    passages, _ = parse_text(text)
    sents, _ = source_sentences(passages)
    assert sents == ["The 2016 study titled \u201cWho\u2019s downloading pirated papers? Everyone\u201d analyzed a "
                     "dataset of Sci-Hub access logs.", "Elbakyan worked with a journalist to produce the dataset."]
