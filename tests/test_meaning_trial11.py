"""Issue 28: what an eleventh new user's trial found (2026-12-06, session 19; three SciFact corpus abstracts no training
claim cites, held out from the detectors: on the code after the tenth trial's rules 6 of 20 false claims were
supported and 13 caught, two faithful paraphrases contradicted). No model but in the last test: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): HOXA10 hypermethylation in glioblastoma
(doc 11578459), oestrogen receptor alpha in macrophages and wound repair (doc 20460020), and the STAR RNA-seq aligner
(doc 11244195).
"""

from __future__ import annotations

from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from citeproof.judges.base import Judgement
from citeproof.judges.policy import POLICY, decide
from citeproof.model import Tier, Verdict
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

GLIOMA = ("Hypermethylation is associated with a gain of chromosome 7, a hallmark of glioblastoma, and may compensate for "
          "tumor-driven enhanced gene dosage as a rescue mechanism by preventing undue gene expression. We identify the "
          "CpG island of the HOXA10 alternative promoter that appears to escape hypermethylation in the HOX-high "
          "glioblastoma.")
ER = ("Estrogen acts as a potent anti-inflammatory regulator of cutaneous healing. Collectively, our data reveal that "
      "inflammatory cell-expressed ERα promotes alternative macrophage polarization, which is beneficial for timely healing.")
STAR = ("STAR outperforms other aligners by a factor of >50 in mapping speed, aligning to the human genome 550 million "
        "2 × 76 bp paired-end reads per hour on a modest 12-core server, while at the same time improving alignment "
        "sensitivity and precision. In addition to unbiased de novo detection of canonical junctions, STAR can discover "
        "non-canonical splices and chimeric (fusion) transcripts, and is also capable of mapping full-length RNA sequences.")


def test_numbered_names_and_names_with_digits_or_greek_letters_are_proven_swaps():
    """G05 (chromosome 10 / 7: a number the quantity parser reads as a name), G06 (HOXA9 / HOXA10: one word's first
    letter had counted as an acronym of the other) and E05 ("progesterone receptor" / ERα: the tokens dropped the α,
    and "er" stood inside "progesterone receptor")."""
    assert _spans(*_proven(detect_term_swap, "Hypermethylation is associated with a gain of chromosome 10, a hallmark of "
                           "glioblastoma", GLIOMA)) == ("chromosome 10", "chromosome 7")
    assert _spans(*_proven(detect_term_swap, "We identify the CpG island of the HOXA9 alternative promoter that appears "
                           "to escape hypermethylation in the HOX-high glioblastoma", GLIOMA)) == ("HOXA9", "HOXA10")
    claim = ("Collectively, inflammatory cell-expressed progesterone receptor promotes alternative macrophage polarization, "
             "which is beneficial for timely healing")
    assert _spans(*_proven(detect_term_swap, claim, ER)) == ("progesterone receptor", "ERα")
    assert _spans(*_proven(detect_term_swap, claim.replace("progesterone receptor", "ERβ"), ER)) == ("ERβ", "ERα")
    for faithful in ("Hypermethylation is associated with a gain of chromosome 7, a hallmark of glioblastoma",
                     claim.replace("progesterone receptor", "ERα"), "Estrogen is a strong anti-inflammatory regulator of "
                     "cutaneous healing"):
        assert detect_term_swap(faithful, GLIOMA + " " + ER, source_text=GLIOMA + " " + ER) == []


def test_a_ranking_verb_orders_the_two_it_compares():
    """S10: "Other aligners outperform STAR" (the judge said supported at 0.87); the passive is the same claim."""
    assert _spans(*_proven(detect_polarity_flip, "Other aligners outperform STAR by a factor of >50 in mapping speed",
                           STAR)) == ("Other", "STAR")
    for faithful in ("Other aligners are outperformed by STAR by a factor of >50 in mapping speed",
                     "STAR outperforms other aligners by a factor of >50 in mapping speed"):
        assert _proven(detect_polarity_flip, faithful, STAR) == []
    # S02: a reporting verb for the source's ("finds" / "can discover") is no swap
    assert detect_term_swap("Besides detecting canonical junctions, STAR finds non-canonical splices and chimeric fusion "
                            "transcripts and can map full-length RNA sequences", STAR, source_text=STAR) == []


def _judged(sentence: str, verdict: Verdict, confidence: float) -> Judgement:
    from types import SimpleNamespace

    ev = SimpleNamespace(sentence=sentence, scores={}, passage=SimpleNamespace(page=None, text=sentence))
    return Judgement(verdict, confidence, confidence, ev, Tier.ENTAILMENT)


def test_a_contradiction_read_on_a_sentence_about_something_else_is_partial():
    """G03 and a ninth trial's C02: P(contradicts) 0.94-0.97 on a sentence holding a fifth of the claim's words made a
    faithful paraphrase *contradicted*; on the sentence that restates the claim the same judgement stands."""
    claim = ("NMB-1 does not inhibit voltage-gated sodium or calcium channels, nor ligand-gated channels such as "
             "acid-sensing ion channels and TRPA1")
    restating = ("The selectivity of NMB-1 was confirmed by the fact that it has no inhibitory effects on voltage-gated "
                 "sodium and calcium channels, or ligand-gated channels such as acid-sensing ion channels or TRPA1 channels.")
    other = ("In behavioral assays, NMB-1 inhibits responses only to high intensity, painful mechanical stimulation and "
             "has no effects on low intensity mechanical stimulation or thermosensation.")
    lexical = _judged(restating, Verdict.SUPPORTED, 0.9)
    lexical.tier = Tier.LEXICAL
    out = decide(_judged(other, Verdict.CONTRADICTED, 0.9), lexical, POLICY, claim=claim)
    assert (out.verdict, "needs_review" in out.flags) == (Verdict.PARTIAL, True)
    assert "contradicted something else" in out.reasons[0]
    assert decide(_judged(restating.replace("no inhibitory effects", "strong inhibitory effects"), Verdict.CONTRADICTED,
                          0.9), lexical, POLICY, claim=claim).verdict == Verdict.CONTRADICTED


def test_a_word_inside_a_closed_compound_is_no_swap():
    """Found by CI after the edge-only containment of this session: "zebrafish" for the source's "fish" had become a
    proven swap (a Zotero test's claim, *unsupported*); four letters or more still count inside a word."""
    source = ("Sleep-deprived fish made 42% more errors than rested controls in a plus-maze spatial task, while swimming "
              "speed was unchanged.")
    assert detect_term_swap("Sleep-deprived zebrafish made 42% more errors in a spatial task while swimming speed was "
                            "unchanged", source, source_text=source) == []
