"""Failure-mode detectors on real sentences from ``../shared/data``.

Each detector gets a hit (a real pair that shows the failure: mostly SciFact
CONTRADICT pairs, or citing sentences from the Fast R-CNN paper) and a near
miss (a real supported pair that looks alike and must not fire). Where no
real pair shows a failure (hedging), the hit is a real claim with one
documented edit. Parser tests use small literal strings.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from citeproof.detectors import (
    DOWNGRADING_TAGS,
    INFORMATIONAL_TAGS,
    detect_causal_overclaim,
    detect_comparison_claim,
    detect_hedge_removed,
    detect_joint_citation,
    detect_number_drift,
    detect_off_topic,
    detect_polarity_flip,
    detect_scope_inflation,
    detect_secondary_citation,
    detect_significance_inflation,
    run_detectors,
    run_detectors_text,
    should_downgrade,
)
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import overlap_score
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.model import Citation, Claim, Evidence, Passage, Source, Tag

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
needs_scifact = pytest.mark.skipif(not (DATA / "scifact" / "corpus.jsonl").exists(),
                                   reason="../shared/data/scifact is absent")
needs_cv = pytest.mark.skipif(not (DATA / "cv-papers" / "fast_rcnn_ICCV2015.pdf").exists(),
                              reason="../shared/data/cv-papers is absent")


@lru_cache(maxsize=1)
def _scifact():
    claims = {}
    with open(DATA / "scifact" / "claims_train.jsonl", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            claims[c["id"]] = c
    corpus = {}
    with open(DATA / "scifact" / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            corpus[d["doc_id"]] = d
    return claims, corpus


def pair(claim_id: int, doc_id: int, sentences: list[int], label: str) -> tuple[str, str, str]:
    """(claim, evidence sentences, whole abstract) of a SciFact pair, checking its label."""
    claims, corpus = _scifact()
    c = claims[claim_id]
    assert label in [e["label"] for e in c["evidence"][str(doc_id)] if e["sentences"] == sentences]
    abstract = corpus[doc_id]["abstract"]
    return c["claim"], " ".join(abstract[i] for i in sentences), " ".join(abstract)


@lru_cache(maxsize=1)
def _fast_rcnn_text() -> str:
    import pymupdf

    text = " ".join(page.get_text() for page in pymupdf.open(DATA / "cv-papers" / "fast_rcnn_ICCV2015.pdf"))
    text = text.replace("ﬁ", "fi").replace("ﬂ", "fl")
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"(\w)- (\w)", r"\1\2", text)


def fast_rcnn(sentence: str) -> str:
    """A sentence of the Fast R-CNN PDF, asserted to be there."""
    assert sentence in _fast_rcnn_text()
    return sentence


def names(tags: list[Tag], floor: float = 0.6) -> set[str]:
    return {t.name for t in tags if t.confidence >= floor}


# --------------------------------------------------------------------------- numbers

class TestQuantities:
    def test_range_is_one_quantity(self):
        """``1800-2000 K`` is one range with a unit, not two numbers."""
        [q] = extract_quantities("heated to 1800-2000 K in vacuum")
        assert (1800.0, 2000.0, "K", "range") == (q.lo, q.hi, q.unit, q.kind)

    def test_pdf_exponent(self):
        """``1.5 × 10-7 s`` as a PDF extracts it is 1.5e-7 s."""
        [q] = extract_quantities("a lifetime of 1.5 × 10-7 s")
        assert pytest.approx(1.5e-7) == q.lo
        assert "s" == q.unit

    def test_multipliers_and_fractions(self):
        """``3x``, ``two-fold``, ``twice``, ``1/2000`` and ``1 in 5 million``."""
        got = [(round(q.lo, 9), q.unit) for t in ("3x faster", "a two-fold rise", "twice as many", "1/2000 births",
                                                  "1 in 5 million people") for q in extract_quantities(t)]
        assert [(3.0, "x"), (2.0, "x"), (2.0, "x"), (0.0005, ""), (2e-07, "")] == got

    def test_identifiers_are_not_quantities(self):
        """Gene and protein names, disease types and figure numbers are skipped."""
        assert [] == extract_quantities("p53 and IL-6 regulate miR-211 in type 2 diabetes (Fig. 3)")

    def test_unit_conversion_and_rounding(self):
        """``2 g`` meets ``2000 mg``; ``69%`` meets ``68.9%``; ``75%`` does not."""
        g, = extract_quantities("2 g")
        mg, = extract_quantities("2000 mg")
        a, = extract_quantities("69%")
        b, = extract_quantities("68.9%")
        c, = extract_quantities("75%")
        assert (True, True, False) == (quantities_match(g, mg), quantities_match(a, b), quantities_match(c, b))

    def test_lancet_decimal_point(self):
        """``13·5%`` (middle dot) is 13.5 percent."""
        [q] = extract_quantities("reported by 13·5% of individuals")
        assert (13.5, "%") == (q.lo, q.unit)


@needs_scifact
class TestNumberDrift:
    def test_hit_genome_size(self):
        """SciFact 278 (CONTRADICT): the claim's 2140 base pairs against the abstract's 7489 bp."""
        claim, ev, abstract = pair(278, 14376683, [4], "CONTRADICT")
        [tag] = detect_number_drift(claim, ev, source_text=abstract)
        assert ("number_drift", "2140") == (tag.name, tag.evidence[0].claim_span)
        assert tag.confidence >= 0.9

    def test_near_miss_same_percentage(self):
        """SciFact 9 (SUPPORT): 32% in the claim and 32% in the evidence."""
        claim, ev, abstract = pair(9, 44265107, [15], "SUPPORT")
        assert set() == names(detect_number_drift(claim, ev, source_text=abstract))

    def test_near_miss_range_within_rounding(self):
        """SciFact 22 (SUPPORT): 76-85% summarises 76.3% to 85.4%."""
        claim, ev, abstract = pair(22, 6490571, [7], "SUPPORT")
        assert claim.startswith("76-85%")
        assert [] == detect_number_drift(claim, ev, source_text=abstract)

    def test_whole_source_read_for_quantities_only_when_the_evidence_lacks_one(self):
        """Issue 27: a claim whose quantities the evidence holds never extracts the whole source's quantities
        (that was 12% of a lexical run's main process on the scale job); one the evidence lacks still does."""
        from citeproof.detectors import numbers

        source = "Sci-Hub's coverage was measured in 2017 for 81.6 million articles. " + SCIHUB_EVIDENCE
        numbers._source_quantities.cache_clear()
        claim = "Sci-Hub's repository contained 69% of all scholarly articles with DOIs."
        assert set() == names(detect_number_drift(claim, SCIHUB_EVIDENCE, source_text=source))
        assert 0 == numbers._source_quantities.cache_info().misses
        claim = "Sci-Hub's coverage was measured for 81.6 million articles."
        assert set() == names(detect_number_drift(claim, SCIHUB_EVIDENCE, source_text=source))
        assert 1 == numbers._source_quantities.cache_info().misses



# The Sci-Hub paper (examples/manubot/cited/himmelstein2018-scihub.pdf, page 16), as the best passage's two
# sentences closest to the claim: the first restates the claim with 69%, the second holds 96.2% about citations.
SCIHUB_EVIDENCE = ("Sci-Hub\u2019s repository contained 69% of all scholarly articles with DOIs. We find that 91.0% of "
                   "citations since 2015 were present in Sci-Hub\u2019s repository, which increased to 96.2% when "
                   "excluding citations to articles in open access journals.")


class TestNumberDriftInTheRestatingSentence:
    """A new user's test (2026-12-01): "contained 96%" was supported because 96.2% stood in the next sentence."""

    def test_hit_swapped_digits_against_the_sentence_that_restates_the_claim(self):
        [tag] = detect_number_drift("Sci-Hub's repository contained 96% of all scholarly articles with DOIs.",
                                    SCIHUB_EVIDENCE)
        assert (tag.confidence, tag.message) == (0.9, "The claim says '96%' where the evidence says '69%'.")

    def test_near_miss_the_number_in_its_own_sentence(self):
        # The claim restates the second sentence: 96% rounds 96.2%, and 69% belongs to another statement.
        assert [] == detect_number_drift("Excluding open access journals, 96% of citations since 2015 were present "
                                         "in Sci-Hub's repository.", SCIHUB_EVIDENCE)

    def test_a_second_claim_quantity_is_not_drift(self):
        # "from 69% to 96%": each of the claim's quantities is in the evidence; neither displaces the other.
        assert [] == detect_number_drift("Sci-Hub's repository contained 69% of all scholarly articles with DOIs, "
                                         "and 96% of recent citations.", SCIHUB_EVIDENCE)

    def test_a_small_integer_found_only_far_away_is_said_so(self):
        source = ("The first version was released in 2017. Many authors joined. " * 3
                  + "We trained regression models on 14 hand-curated features of protein structure.")
        [tag] = detect_number_drift("After the first version, 14 new contributors updated the manuscript.",
                                    "After the first version, new contributors updated the manuscript on GitHub.",
                                    source_text=source)
        assert tag.message == ("The claim's quantity '14' appears nowhere in the evidence or in the source's "
                               "sentences about the claim.")


# --------------------------------------------------------------------------- scope

@needs_scifact
class TestScopeInflation:
    def test_hit_mice_to_humans(self):
        """SciFact 523 (CONTRADICT): the claim is about humans, the evidence about mice."""
        claim, ev, _ = pair(523, 14803797, [5], "CONTRADICT")
        [tag] = detect_scope_inflation(claim, ev)
        assert ("in humans", "mice") == (tag.evidence[0].claim_span, tag.evidence[0].evidence_span)

    def test_near_miss_all_three_layers(self):
        """SciFact 529 (SUPPORT): "all three germ layers" is in the evidence too."""
        claim, ev, _ = pair(529, 25413327, [0], "SUPPORT")
        assert [] == detect_scope_inflation(claim, ev)


# --------------------------------------------------------------------------- hedging

@needs_scifact
class TestHedgeRemoved:
    def test_hit_certainty_added_to_hedged_finding(self):
        """SciFact 579's evidence hedges ("preliminary results suggest"); a claim saying it is established fires.

        The claim is the real SciFact 579 claim with "It is well established that" put in front (one edit).
        """
        claim, ev, _ = pair(579, 34139429, [13], "CONTRADICT")
        edited = "It is well established that " + claim[0].lower() + claim[1:]
        [tag] = detect_hedge_removed(edited, ev)
        assert tag.confidence >= 0.85
        assert "well established" == tag.evidence[0].claim_span

    def test_near_miss_plain_paraphrase(self):
        """SciFact 52 (SUPPORT): an unhedged paraphrase of an unhedged finding does not fire."""
        claim, ev, abstract = pair(52, 45638119, [4], "SUPPORT")
        assert set() == names(detect_hedge_removed(claim, ev, source_text=abstract))


# --------------------------------------------------------------------------- causal

@needs_scifact
class TestCausalOverclaim:
    def test_hit_leads_to_vs_association(self):
        """SciFact 166 (CONTRADICT): "leads to" against "an association between"."""
        claim, ev, abstract = pair(166, 18872233, [12], "CONTRADICT")
        [tag] = detect_causal_overclaim(claim, ev, source_text=abstract)
        assert ("leads to", "association") == (tag.evidence[0].claim_span, tag.evidence[0].evidence_span)
        assert tag.confidence >= 0.6

    def test_near_miss_association_claim(self):
        """SciFact 52 (SUPPORT): "associated with" against "correlated with" is no overclaim."""
        claim, ev, abstract = pair(52, 45638119, [4], "SUPPORT")
        assert [] == detect_causal_overclaim(claim, ev, source_text=abstract)


# --------------------------------------------------------------------------- significance

@needs_scifact
class TestSignificanceInflation:
    def test_hit_not_significant(self):
        """SciFact 579 (CONTRADICT): "significantly improve" against "does not significantly improve"."""
        claim, ev, abstract = pair(579, 34139429, [13], "CONTRADICT")
        [tag] = detect_significance_inflation(claim, ev, source_text=abstract)
        assert ("significantly", 0.9) == (tag.evidence[0].claim_span, tag.confidence)

    def test_near_miss_reported_test(self):
        """SciFact 1340 (SUPPORT): "significantly reduces"; the rationale sentence reports no test, the abstract does.

        This once passed only because the conjunction *or* counted as an odds ratio (issue 16); now the tag is a
        0.5 hint naming the statistics elsewhere, below the 0.6 downgrade line, so the citation is not downgraded."""
        from citeproof.detectors import should_downgrade

        claim, ev, abstract = pair(1340, 15482274, [10], "SUPPORT")
        assert "significantly" in claim
        tags = detect_significance_inflation(claim, ev, source_text=abstract)
        assert [0.5] == [t.confidence for t in tags] and not should_downgrade(tags)
        assert "the source reports statistics elsewhere" in tags[0].message


# --------------------------------------------------------------------------- polarity

@needs_scifact
class TestPolarityFlip:
    def test_hit_not_indicative_vs_associated(self):
        """SciFact 32 (CONTRADICT): the claim says eligibility is *not* indicative of accelerated adoption."""
        claim, ev, abstract = pair(32, 12428497, [8], "CONTRADICT")
        assert "polarity_flip" in names(detect_polarity_flip(claim, ev, source_text=abstract))

    def test_hit_no_effect(self):
        """SciFact 60 (CONTRADICT): "ART has no effect" against models showing ART's impact."""
        claim, ev, abstract = pair(60, 13899137, [11], "CONTRADICT")
        [tag] = detect_polarity_flip(claim, ev, source_text=abstract)
        assert 0.75 == tag.confidence

    def test_near_miss_same_direction(self):
        """SciFact 34 (SUPPORT): "increases blood levels of homocysteine" with its evidence."""
        claim, ev, abstract = pair(34, 11705328, [4], "SUPPORT")
        assert [] == detect_polarity_flip(claim, ev, source_text=abstract)


    def test_near_miss_both_negate(self):
        """SciFact 1139 (SUPPORT): "does not prevent prostate cancer" against the same negated sentence."""
        claim, ev, _abstract = pair(1139, 12009265, [14], "SUPPORT")
        assert [] == detect_polarity_flip(claim, ev)

    def test_hit_claim_negates_plain_finding(self):
        """SciFact 181 (SUPPORT) with "prevents" negated (one edit): the evidence states the finding plainly."""
        claim, ev, abstract = pair(181, 16966326, [5], "SUPPORT")
        assert set() == names(detect_polarity_flip(claim, ev, source_text=abstract))
        negated = claim.replace("ND6 prevents", "ND6 does not prevent")
        assert negated != claim
        [tag] = detect_polarity_flip(negated, ev, source_text=abstract)
        # "ND6" is one word since the one tokenizer (issue 29; the ASCII one cut it to "nd" and dropped it), so the
        # direction cue "does not prevent" finds its target in the evidence: the stronger, directional reading
        assert (0.85, "does not prevent") == (tag.confidence, tag.evidence[0].claim_span)

    def test_loss_and_gain_are_opposite_directions(self):
        """Regression: "loss" was no direction cue, so "neuronal gain" against "neuronal loss" passed."""
        from citeproof.detectors.polarity import _cues

        assert [("down", "loss")] == [(c[0], c[1]) for c in _cues("neuronal loss")]
        assert [("up", "gain")] == [(c[0], c[1]) for c in _cues("neuronal gain")]


@needs_scifact
def test_booster_from_hylands_list():
    """SciFact 740 (SUPPORT) with Hyland's booster "decidedly" added (one edit) fires; the real claim does not."""
    claims, corpus = _scifact()
    claim = claims[740]["claim"]
    abstract = " ".join(corpus[23078022]["abstract"])
    assert set() == names(detect_hedge_removed(claim, abstract, source_text=abstract))
    boosted = claim.replace("MUC1-C activates", "MUC1-C decidedly activates")
    [tag] = detect_hedge_removed(boosted, abstract, source_text=abstract)
    assert "decidedly" == tag.evidence[0].claim_span


@needs_scifact
def test_detectors_see_the_sentences_closest_to_the_claim():
    """A whole abstract as the passage: the detectors compare the claim with its two closest sentences.

    SciFact 1003's claim with "(p < 0.05)" appended: the abstract of 4899981 holds no test statistic near
    the claim's sentences, so significance_inflation fires (before the focus, any p value anywhere in the
    passage silenced it).
    """
    from citeproof.text.stems import focus_evidence

    claims, corpus = _scifact()
    abstract = " ".join(corpus[4899981]["abstract"])
    claim = claims[1003]["claim"]
    focused = focus_evidence(claim, abstract)
    assert focused == " ".join(corpus[4899981]["abstract"][i].strip() for i in (1, 5)) or len(split_sentences(focused)) == 2
    tags = run_detectors_text(claim.rstrip(".") + " (p < 0.05).", abstract, source_text=abstract)
    assert "significance_inflation" in names(tags)
    assert "significance_inflation" not in names(run_detectors_text(claim, abstract, source_text=abstract))


# --------------------------------------------------------------------------- attribution

@needs_cv
class TestSecondaryCitation:
    SENTENCE = ("Zhu et al. [24] found that DPM [8] mAP saturates after only a few hundred to thousand "
                "training examples.")

    def test_hit_dpm_cited_second_hand(self):
        """Fast R-CNN: checking [8] (DPM) in a finding that belongs to Zhu et al. [24]."""
        raw = fast_rcnn(self.SENTENCE)
        [tag] = detect_secondary_citation("", None, raw_claim=raw, citekey="8")
        assert "[24] found" == tag.evidence[0].claim_span

    def test_near_miss_primary_citation(self):
        """The same sentence checked for [24], the work that found it, is a primary citation."""
        raw = fast_rcnn(self.SENTENCE)
        assert [] == detect_secondary_citation("", None, raw_claim=raw, citekey="24")

    def test_author_year_and_pandoc(self):
        """Narrative author-year attribution with a pandoc key checked."""
        raw = "Smith et al. (2019) showed that gene X regulates Y [@b]."
        [tag] = detect_secondary_citation("", None, raw_claim=raw, citekey="b")
        assert "Smith et al. (2019) showed" == tag.evidence[0].claim_span


@needs_cv
class TestComparisonClaim:
    def test_hit_three_times_faster_than_sppnet(self):
        """Fast R-CNN: "3× faster than SPPnet [11]" is the citing paper's own result."""
        raw = fast_rcnn("The resulting method can train a very deep detection network (VGG16 [20]) 9× faster "
                        "than R-CNN [9] and 3× faster than SPPnet [11].")
        [tag] = detect_comparison_claim("", None, raw_claim=raw, citekey="11")
        assert "3× faster than SPPnet [11]" == tag.evidence[0].claim_span

    def test_an_age_in_words_and_a_comparison_the_source_draws_are_not_comparison_claims(self):
        """A new user's sentences: "over sixty years of age" is an age; "ten times faster than a linear scan"
        repeats the source's own comparison, which the source can confirm."""
        raw = "Statin therapy reduced the risk of heart attack by 25 percent in adults over sixty years of age [@smith2020]."
        assert detect_comparison_claim("", None, raw_claim=raw, citekey="smith2020") == []
        raw = "The index is ten times faster than a linear scan [@kim2022]."
        source = "On large tables the index is ten times faster than a linear scan."
        assert detect_comparison_claim("", source, raw_claim=raw, citekey="kim2022") == []
        [tag] = detect_comparison_claim("", "The index is fast.", raw_claim="Our index is ten times faster than [@kim2022].", citekey="kim2022")
        assert tag.confidence == 0.9

    def test_near_miss_description_of_cited_work(self):
        """Fast R-CNN: "SPPnet [11] also train classifiers..." describes SPPnet; no comparison before the marker."""
        raw = fast_rcnn("OverFeat [19], R-CNN [9], and SPPnet [11] also train classifiers and bounding-box "
                        "localizers, however these methods use stage-wise training")
        assert [] == detect_comparison_claim("", None, raw_claim=raw, citekey="11")


# --------------------------------------------------------------------------- joint

@needs_scifact
class TestJointCitation:
    def test_hit_two_works_two_parts(self):
        """Two real SciFact claims joined into one sentence citing both works: each part is credited to its work."""
        c1, e1, _ = pair(52, 45638119, [4], "SUPPORT")
        c2, e2, _ = pair(34, 11705328, [4], "SUPPORT")
        claim = c1.rstrip(".") + ", and " + c2[0].lower() + c2[1:]
        [tag] = detect_joint_citation(claim, {"aldh1": e1, "folate": e2})
        credited = [te.evidence_span.split(":")[0] for te in tag.evidence]
        assert ["aldh1", "folate"] == credited

    def test_near_miss_one_work_covers_all(self):
        """When one cited work covers the whole claim, nothing is said."""
        c1, e1, _ = pair(52, 45638119, [4], "SUPPORT")
        _c2, e2, _ = pair(34, 11705328, [4], "SUPPORT")
        assert [] == detect_joint_citation(c1, {"aldh1": e1, "folate": e2})


# --------------------------------------------------------------------------- off topic

@needs_scifact
class TestOffTopic:
    def test_hit_wrong_abstract(self):
        """SciFact 52's claim against SciFact 34's abstract (a swapped citation)."""
        claim, _, _ = pair(52, 45638119, [4], "SUPPORT")
        _, _, wrong = pair(34, 11705328, [4], "SUPPORT")
        scores = [overlap_score(claim, s) for s in split_sentences(wrong)]
        [tag] = detect_off_topic(claim, None, scores=scores, source_text=wrong)
        assert tag.confidence >= 0.8

    def test_near_miss_right_abstract(self):
        """The same claim against its own abstract."""
        claim, ev, right = pair(52, 45638119, [4], "SUPPORT")
        scores = [overlap_score(claim, s) for s in split_sentences(right)]
        assert [] == detect_off_topic(claim, ev, scores=scores, source_text=right)


# --------------------------------------------------------------------------- wiring

class TestRunDetectors:
    def test_downgrade_rule(self):
        """Only downgrading tags at confidence >= 0.6 downgrade; informational tags never do."""
        assert should_downgrade([Tag("number_drift", confidence=0.9)])
        assert not should_downgrade([Tag("number_drift", confidence=0.5)])
        assert not should_downgrade([Tag("comparison_claim", confidence=1.0)])
        assert set() == DOWNGRADING_TAGS & INFORMATIONAL_TAGS

    @needs_scifact
    def test_run_detectors_on_model_objects(self):
        """``run_detectors`` takes the pipeline's Claim/Evidence/Source and finds the number drift."""
        claim_text, ev, abstract = pair(278, 14376683, [4], "CONTRADICT")
        _, corpus = _scifact()
        passages = [Passage(id=f"p{i + 1:04d}", text=s) for i, s in enumerate(corpus[14376683]["abstract"])]
        source = Source(citekey="comymv", text=abstract, passages=passages)
        claim = Claim(id="c1", text=claim_text, raw=claim_text + " [@comymv]", citations=(Citation("comymv"),),
                      document="d.md", line=1)
        evidence = Evidence(passage=passages[4], source=source, scores={"lexical": 0.5})
        tags = run_detectors(claim, evidence, source)
        assert "number_drift" in names(tags)
        assert should_downgrade(tags)

    @needs_scifact
    def test_text_entry_point_clean_on_support(self):
        """A supported pair raises no downgrading tag through ``run_detectors_text``."""
        claim, ev, abstract = pair(52, 45638119, [4], "SUPPORT")
        assert not should_downgrade(run_detectors_text(claim, ev, source_text=abstract))


def test_exported_members():
    """``__all__`` names exist, and every ``detect_*`` function is exported and documented."""
    import citeproof.detectors as d

    assert all(hasattr(d, n) for n in d.__all__)
    detectors = {n for n in vars(d) if n.startswith("detect_")}
    assert detectors <= set(d.__all__)
    assert 14 == len(detectors)  # issue 28 added detect_term_swap and detect_share_drift
    for n in detectors:
        doc = getattr(d, n).__doc__
        assert "Args:" in doc and "Returns:" in doc, n


def test_numbers_inside_dois_and_dates_are_not_quantities():
    """Bugs seen on the demo: '14 contributors' vs a DOI's '10.1098', and vs the day in '04 April 2018'."""
    from citeproof.detectors.numbers import detect_number_drift
    from citeproof.detectors.quantities import extract_quantities

    ev = "A published version of this manuscript from 04 April 2018 is available at https://doi.org/10.1098/rsif.2017.0387."
    assert [] == [q.text for q in extract_quantities(ev)]
    assert ["5 days"] == [q.text for q in extract_quantities("patients may die 5 days after")]
    tags = detect_number_drift("After the first version, 14 new contributors updated the manuscript.", ev)
    assert all("10.1098" not in e.evidence_span and e.evidence_span != "04" for t in tags for e in t.evidence)


# --------------------------------------------------------------------------- issue 16: hits and near misses

CI_MENIN = ("In contrary to our results, Menin et al. in a large prospective observational study in the UK found that "
            "systemic side effects after receiving Pfizer-BioNTech vaccine increased in the second dose<|cit|>")
"""A real Citation-Integrity citing sentence (training split): the authors named are the cited work's own."""


class TestIssue16Attribution:
    def test_suppress_author_is_primary(self):
        raw = ("Menin and Doe found that systemic side effects after receiving the Pfizer-BioNTech vaccine increased "
               "in the second dose [-@menin2021].")
        assert detect_secondary_citation(raw, None, raw_claim=raw, citekey="menin2021") == []

    def test_named_authors_of_a_single_marker_are_primary(self):
        assert detect_secondary_citation(CI_MENIN, None, raw_claim=CI_MENIN) == []

    def test_other_work_reporting_is_still_secondary(self):
        """Near miss: the reporting authors are another work's, cited by their own marker."""
        raw = ("Menin et al. [@menin2021] found that systemic side effects increased in the second dose, as in "
               "earlier trials [@polack2020].")
        tags = detect_secondary_citation(raw, None, raw_claim=raw, citekey="polack2020")
        assert [t.name for t in tags] == ["secondary_citation"]

    def test_comparison_not_fired_by_an_age_bound(self):
        raw = "Statin therapy reduced major vascular events in adults over 65 [@ctt2019]."
        assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="ctt2019") == []
        raw = "Cardiovascular mortality fell over the past decade [@ctt2019]."
        assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="ctt2019") == []

    def test_comparison_with_a_trials_own_arm_is_no_comparison_claim(self):
        """A new user's faithful sentence (issue 28, fourth trial) was tagged: the comparison is the trial's placebo
        arm, not the cited work."""
        raw = ("Among men, digoxin had no significant effect on mortality relative to placebo (adjusted hazard ratio "
               "0.93) [@digoxinsex].")
        assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="digoxinsex") == []
        raw = "Treated mice gained less weight compared with controls [@k]."
        assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="k") == []
        raw = "Our detector runs three times faster compared with Fast R-CNN [@k]."
        assert [t.name for t in detect_comparison_claim(raw, None, raw_claim=raw, citekey="k")] == ["comparison_claim"]

    def test_comparison_fired_by_far_more_than(self):
        raw = "Clopidogrel reduced recurrent ischaemic events far more than previously reported [@caprie1996]."
        tags = detect_comparison_claim(raw, None, raw_claim=raw, citekey="caprie1996")
        assert [(t.name, t.confidence) for t in tags] == [("comparison_claim", 0.7)]
        assert "'far more than'" in tags[0].message
        # two things the sentence names compared (two drugs of one trial; an eighth trial's faithful "Women ...
        # reported cycling and walking more often than men did"): the source can report that, no tag
        for raw in ("Clopidogrel reduced recurrent ischaemic events far more than aspirin [@caprie1996].",
                    "Women, on the other hand, reported cycling and walking more often than men did [@caprie1996]."):
            assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="caprie1996") == []
        raw = "Clopidogrel helped more than half of the patients [@caprie1996]."
        assert detect_comparison_claim(raw, None, raw_claim=raw, citekey="caprie1996") == []


@needs_scifact
class TestIssue16Hedging:
    """SciFact doc 33370 hedges its conclusion: "our data suggest A20 may function as a tumor enhancer"."""

    def _abstract(self):
        return " ".join(_scifact()[1][33370]["abstract"])

    def test_flat_claim_of_a_hedged_statement(self):
        ab = self._abstract()
        claim = "A20 functions as a tumor enhancer in glioma through promotion of GSC survival."
        tags = detect_hedge_removed(claim, ab, source_text=ab)
        assert [(t.name, t.confidence) for t in tags] == [("hedge_removed", 0.7)]
        assert tags[0].evidence[0].evidence_span == "suggest"
        assert should_downgrade(tags)

    def test_claim_keeping_the_hedge(self):
        ab = self._abstract()
        claim = "A20 may function as a tumor enhancer in glioma through promotion of GSC survival."
        assert detect_hedge_removed(claim, ab, source_text=ab) == []

    def test_hedge_on_another_clause_does_not_count(self):
        """Near miss: "... distinct from the bulk tumor that may be useful therapeutic targets": the claim stops before the hedge."""
        ab = self._abstract()
        claim = "GSCs are regulated by molecular pathways distinct from the bulk tumor."
        assert not should_downgrade(detect_hedge_removed(claim, ab, source_text=ab))


@needs_scifact
class TestIssue16Causal:
    """SciFact doc 17973161: "... is correlated with a lean, metabolically healthy phenotype, but whether a causal
    relationship exists is not clear"."""

    def _abstract(self):
        return " ".join(_scifact()[1][17973161]["abstract"])

    def test_claim_of_effect_against_a_disclaimer(self):
        ab = self._abstract()
        sent = next(s for s in _scifact()[1][17973161]["abstract"] if "causal relationship" in s)
        tags = detect_causal_overclaim("In humans, brite/beige adipocytes promote a lean, metabolically healthy phenotype.",
                                       sent, source_text=ab)
        assert [(t.name, t.confidence) for t in tags] == [("causal_overclaim", 0.9)]
        assert tags[0].evidence[0].evidence_span == "whether a causal relationship exists is not clear"

    def test_associational_claim_is_fine(self):
        ab = self._abstract()
        sent = next(s for s in _scifact()[1][17973161]["abstract"] if "causal relationship" in s)
        claim = "In humans, brite/beige adipocytes are correlated with a lean, metabolically healthy phenotype."
        assert detect_causal_overclaim(claim, sent, source_text=ab) == []


class TestIssue16Direction:
    def test_increased_vs_reduced_names_the_words(self):
        ev = "Inhibiting A20 expression decreased GSC growth and survival."
        tags = detect_polarity_flip("Inhibiting A20 expression in vitro markedly increased growth and survival of the "
                                    "GSC population.", ev, source_text=ev)  # words more than the sentence, the
        # named item moved: no proof (session 22)
        assert tags[0].confidence == 0.85 and not tags[0].proven
        # "A20" is a word (the gene) since the one tokenizer (issue 29); the ASCII tokenizer kept only "A"
        assert tags[0].message == ("The claim says 'increased' about 'A20, expression, growth, survival' "
                                   "where the evidence says 'decreased'.")

    def test_the_verb_over_a_named_item_turned_is_proven_past_added_words(self):
        """Session 30 (issue 28): the verb nearest before a named item is read at the item, so two words the claim
        adds (*in vitro markedly*) no longer hide *increased GSC growth* against the sentence's *decreased GSC
        growth* (detectors/governed.py, the 182nd trial's Esrrb)."""
        ev = "Inhibiting A20 expression decreased GSC growth and survival."
        (tag,) = detect_polarity_flip("Inhibiting A20 expression in vitro markedly increased GSC growth and survival.",
                                      ev, source_text=ev)
        assert (tag.confidence, tag.proven) == (0.9, True)
        assert tag.evidence[0].claim_span == "increased" and tag.evidence[0].evidence_span == "decreased"

    def test_the_source_sentence_with_its_direction_word_turned_is_proven(self):
        """A new user's claim: "improves" where the source's own sentence says "impairs", every other word alike."""
        ev = ("Students who slept fewer than six hours scored lower on examinations. "
              "Sleep deprivation impairs the consolidation of newly learned facts.")
        (tag,) = detect_polarity_flip("Sleep deprivation improves the consolidation of newly learned facts.", ev, source_text=ev)
        assert (tag.confidence, tag.proven) == (0.9, True)
        assert tag.message.startswith("The claim says 'improves' where the source says 'impairs', every other word alike")

    def test_rescued_vs_did_not_rescue(self):
        ev = "Expression of wild-type Gpr124 did not rescue the vascular defects of mutant embryos."
        tags = detect_polarity_flip("Expression of wild-type Gpr124 rescued the vascular defects of mutant embryos.", ev,
                                    source_text=ev)
        assert (tags[0].evidence[0].claim_span, tags[0].evidence[0].evidence_span) == ("rescued", "did not rescue")
        # the source's sentence word for word but for its "not" (issue 28's negation rule): proven, so contradicted
        assert tags[0].message.startswith("The claim says 'rescued' where the source says 'did not rescue' (it leaves out 'not')")
        assert (tags[0].confidence, tags[0].proven) == (0.9, True)

    def test_same_direction_is_quiet(self):
        ev = "Expression of wild-type Gpr124 rescued the vascular defects of mutant embryos."
        assert detect_polarity_flip("Wild-type Gpr124 expression rescued the vascular defects in mutant embryos.", ev,
                                    source_text=ev) == []


class TestIssue16Cjk:
    SRC = "二甲双胍可以降低小鼠的肿瘤生长。本研究还测量了小鼠的体重变化，未见显著差异。"

    def test_quoted_cjk_claim_is_on_topic(self):
        claim = "二甲双胍可以降低小鼠的肿瘤生长"
        assert overlap_score(claim, self.SRC) == 1.0
        assert [t.name for t in run_detectors_text(claim, self.SRC, source_text=self.SRC)] == []

    def test_unrelated_cjk_claim_is_off_topic(self):
        tags = run_detectors_text("阿司匹林能够预防心脏病发作", self.SRC, source_text=self.SRC)
        assert [t.name for t in tags] == ["off_topic"]
        assert "0%" in tags[0].message


def test_stem_hits_counts_each_claim_stem_by_equality_or_five_letter_prefix():
    """stem_hits (set operations) counts as the per-word rule does: equal stem, or the same first five letters."""
    from citeproof.text.stems import content_stems, sentence_stems, stem_hits

    sent = sentence_stems("Thalassaemia carriers showed mild anaemia in the gene study.")[0]
    # thalassemia/thalassaemia share "thala"; anemia/anaemia do not share five letters; "gene" is short and equal
    claim = content_stems("Thalassemia and thalassemic carriers have anemia gene")
    expected = sum(1 for w in claim if w in sent[1] or (len(w) >= 5 and w[:5] in sent[2]))
    assert stem_hits(claim, sent) == expected == 4  # thalassemia, thalassemic, carrier, gene
    assert stem_hits(set(), sent) == 0
    assert isinstance(content_stems("genes"), frozenset)  # cached values cannot be changed by a caller


def test_relevant_sentences_index_equals_the_full_scan():
    """relevant_sentences counts stem hits through a per-source inverted index (issue 17): the same sentences,
    in the same order, as scoring every sentence of the source."""
    import random

    from citeproof.text import stems

    source = (Path(__file__).parents[1] / "examples" / "manubot" / "citing" / "meta-review.md").read_text(encoding="utf-8")
    sents = [s for s in split_sentences(source) if len(s.split()) > 8]
    assert len(sents) > 50
    rng = random.Random(0)
    claims = [" ".join(rng.sample(sents[rng.randrange(len(sents))].split(), 6)) for _ in range(40)] + ["the of and", "Hemoglobin"]

    def full_scan(claim, k, floor):
        c = stems.content_stems(claim)
        if not c:
            return []
        scored = [(stems.stem_hits(c, e) / len(c), i, e[0]) for i, e in enumerate(stems.sentence_stems(source))]
        scored = sorted((x for x in scored if x[0] >= floor), key=lambda x: (-x[0], x[1]))
        return [s for _sc, _i, s in scored[:k]]

    found = 0
    for claim in claims:
        for k, floor in ((3, 0.3), (5, 0.1), (2, 0.6), (3, 0.0)):
            got = stems.relevant_sentences(claim, source, k, floor)
            assert got == full_scan(claim, k, floor), (claim, k, floor)
            found += len(got)
    assert found > 100


def test_scope_inflation_on_the_two_scihub_sentences():
    """'68.9% of all scholarly articles' widens the abstract's '68.9% of the 81.6 million ... registered with Crossref'
    (hit) but not page 7's 'equating to 68.9% of all articles' (near miss): the real sentences of the Sci-Hub PDF."""
    from citeproof.detectors.scope import detect_scope_inflation

    claim = "Sci-Hub's database contains 68.9% of all scholarly articles"
    abstract = ("Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref and "
                "85.1% of articles published in toll access journals.")
    page7 = "Sci-Hub\u2019s offerings included 56,246,220 articles from the corpus of scholarly literature, equating to 68.9% of all articles."
    hit = detect_scope_inflation(claim, abstract)
    assert [("scope_inflation", "all")] == [(t.name, t.evidence[0].claim_span) for t in hit] and hit[0].confidence >= 0.6
    assert [] == detect_scope_inflation(claim, page7)


def test_stem_opcodes_align_words_by_their_stems():
    """The one word-level aligner of term_swap and polarity_flip (citeproof.text.stems.stem_opcodes)."""
    from citeproof.text.stems import stem_opcodes

    claim = "Loss of X causes lung damage in treated cells".split()
    source = "Loss of X caused memory damage in the treated cell".split()
    ops = [op for op in stem_opcodes(claim, source) if op[0] != "equal"]
    # causes/caused and cells/cell agree by stem; lung -> memory is the one replacement; "the" is inserted
    assert [(t, claim[i1:i2], source[j1:j2]) for t, i1, i2, j1, j2 in ops] == [("replace", ["lung"], ["memory"]), ("insert", [], ["the"])]
    assert stem_opcodes([], []) == []
