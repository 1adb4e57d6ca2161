"""Issue 28: what the hundred-and-sixty-seventh to hundred-and-seventieth new users' trials found (2026-12-07,
session 29; held out on `8eb1d61`), and two roles claims of trials 158 and 161 missed since. Each rule beside its
faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): sepsis and the compensatory anti-inflammatory
response (doc 11156883), yeast TATA box-containing genes (3367829), the CTB-UA vaccine against H. pylori (13965483),
visceral arterioles in obesity (79447), haematopoietic stem cells and BrdU (4381486), homeless youth in Baltimore
(20334484), influenza's global circulation (11026600), PACAP and VIP in astroglia (21866916) and Golli-mbp (35467590).
"""

from __future__ import annotations

from types import SimpleNamespace

from citeproof.detectors import run_detectors_text
from citeproof.judges.base import Judgement
from citeproof.judges.doubts import contradicts_a_proposal
from citeproof.model import Verdict

SEPSIS = ("Furthermore, within tissues, leukocytes are rather primed or activated than immunosuppressed. However, this "
          "is rather a reprogramming of circulating leukocytes, since there is not a global defect of the immune cells "
          "functions.")
TATA = ("Strikingly, TATA box-containing genes are associated with responses to stress, are highly regulated, and "
        "preferentially utilize SAGA rather than TFIID when compared to TATA-less promoters.")
VACCINE = ("In our previous study, the epitope vaccine CTB-UA, which was composed of the mucosal adjuvant cholera toxin "
           "B subunit (CTB) and an epitope (UreA183\u2013203) from the H. pylori urease A subunit (UreA) was constructed. "
           "This particular vaccine was shown to have good immunogenicity and immunoreactivity and could induce "
           "specific neutralizing antibodies, which exhibited effectively inhibitory effects on the enzymatic activity "
           "of H. pylori urease.")
ARTERIOLES = ("Arteriolar function in visceral adipose tissue is impaired in human obesity. We compared arterioles from "
              "visceral and subcutaneous fat. Nonendothelium dependent responses to papaverine and nitroprusside were "
              "similar.")
BRDU = ("Stem cells are proposed to segregate chromosomes asymmetrically during self-renewing divisions so that older "
        "DNA strands are retained in daughter stem cells. We administered BrdU to newborn mice and normal adult mice for "
        "4 to 10 days, followed by 70 days without BrdU.")
YOUTH = ("The youth spoke of environmental safety threats of violence and victimization by adults, as well as racism "
         "and sexism in their lives.")
FLU = ("Our analyses further confirm a central role for mainland China and Southeast Asia in maintaining a source "
       "population for global influenza diversity.")
PACAP = ("There is now clear evidence that PACAP and VIP modulate a number of astrocyte activities such as "
         "proliferation, plasticity, glycogen production, and biosynthesis of neurotrophic factors and gliotransmitters.")
GOLLI = ("We have identified a novel transcription unit of 105 kilobases (called the Golli-mbp gene) that encompasses "
         "the mouse myelin basic protein (MBP) gene.")


def _tags(claim: str, source: str) -> dict[str, tuple[float, bool]]:
    """Each tag's name -> (confidence, proven), every detector on the whole source."""
    return {t.name: (t.confidence, t.proven) for t in run_detectors_text(claim, source, source_text=source)}


def _proven(claim: str, source: str) -> set[str]:
    return {name for name, (_c, proven) in _tags(claim, source).items() if proven}


def test_tend_to_for_rather_is_no_swap():
    """Trial 167's 16, faithful (*unsupported* on a proven swap of 'tend' for 'rather')."""
    assert "term_swap" not in _tags("In tissues, leukocytes tend to be primed or activated rather than "
                                    "immunosuppressed.", SEPSIS)


def test_a_negation_dropped_from_a_clause_after_since():
    """Trial 167's 22 (*partial*): "reflect a global defect of the immune cells functions" for "..., since there is
    not a global defect of the immune cells functions"."""
    claim = "The altered functions of circulating leukocytes reflect {} global defect of the immune cells functions."
    assert "polarity_flip" in _proven(claim.format("a"), SEPSIS)
    assert "polarity_flip" not in _proven(claim.format("no"), SEPSIS)


def test_what_a_comparison_is_measured_against_exchanged():
    """Trial 167's 24 (*supported* at 0.95): "When compared with TATA box-containing genes, TATA-less promoters
    preferentially utilize SAGA" for "TATA box-containing genes ... preferentially utilize SAGA ... when compared to
    TATA-less promoters"."""
    assert "polarity_flip" in _proven("When compared with TATA box-containing genes, TATA-less promoters "
                                      "preferentially utilize SAGA rather than TFIID.", TATA)
    assert "polarity_flip" not in _proven("When compared with TATA-less promoters, TATA box-containing genes "
                                          "preferentially utilize SAGA rather than TFIID.", TATA)


def test_inhibitory_effects_on_read_as_inhibited():
    """Trial 168's 6 (*partial*, no tag): antibodies "which enhanced the enzymatic activity" for "which exhibited
    effectively inhibitory effects on the enzymatic activity"."""
    claim = ("The CTB-UA vaccine could induce specific neutralizing antibodies, which {} the enzymatic activity of H. "
             "pylori urease.")
    assert "polarity_flip" in _proven(claim.format("enhanced"), VACCINE)
    assert "polarity_flip" not in _tags(claim.format("inhibited"), VACCINE)


def test_a_named_range_written_with_a_hyphen_for_the_sources_dash():
    """Trial 168's 8 (*supported*): "UreA183-230" for "UreA183\u2013203"."""
    claim = "The epitope vaccine CTB-UA carries an epitope ({}) from the H. pylori urease A subunit."
    assert "number_drift" in _proven(claim.format("UreA183-230"), VACCINE)
    assert "number_drift" not in _tags(claim.format("UreA183-203"), VACCINE)


def test_a_negation_added_where_the_claim_names_the_sources_context():
    """Trial 169's 4 (*partial*, 0.75 unproven): "were not similar between visceral and subcutaneous arterioles" for
    "were similar.", the comparison the source's own."""
    claim = "Nonendothelium-dependent responses to papaverine and nitroprusside were {} between visceral and " \
            "subcutaneous arterioles."
    assert "polarity_flip" in _proven(claim.format("not similar"), ARTERIOLES)
    assert "polarity_flip" not in _tags(claim.format("similar"), ARTERIOLES)
    assert "polarity_flip" not in _proven("Nonendothelium-dependent responses were not similar in obese smokers.",
                                          ARTERIOLES)


def test_a_day_count_written_with_a_hyphen():
    """Trial 170's 9 (*partial*, 0.5 unproven): "followed by a 30-day chase" for "followed by 70 days"."""
    claim = "BrdU was given to mice for 4 to 10 days, followed by a {}-day chase without BrdU."
    assert "number_drift" in _proven(claim.format("30"), BRDU)
    assert "number_drift" not in _tags(claim.format("70"), BRDU)


def test_are_proposed_to_hedges():
    """Trial 170's 27 (*supported*): "Stem cells segregate chromosomes asymmetrically" for "Stem cells are proposed
    to segregate ..."."""
    assert _tags("Stem cells segregate chromosomes asymmetrically during self-renewing divisions.",
                 BRDU)["hedge_removed"][0] >= 0.6
    assert "hedge_removed" not in _tags("Stem cells are proposed to segregate chromosomes asymmetrically during "
                                        "self-renewing divisions.", BRDU)


def test_the_one_who_acts_made_the_one_acted_on():
    """Trial 170's 20 (*supported* at 0.96): "victimization of adults by youth" for "victimization by adults"."""
    claim = ("The youth spoke of environmental safety threats of violence and victimization {}, as well as racism and "
             "sexism in their lives.")
    assert "polarity_flip" in _proven(claim.format("of adults by youth"), YOUTH)
    assert "polarity_flip" not in _tags(claim.format("by adults"), YOUTH)


def test_a_place_in_the_same_words_company():
    """Trial 170's 13 (*partial*, 0.7 unproven): "mainland China and South America" for "mainland China and
    Southeast Asia" (the first word of *Southeast* had read as the source's *South*)."""
    claim = ("Phylogeographic analyses confirm a central role for mainland China and {} in maintaining a source "
             "population for global influenza diversity.")
    assert "term_swap" in _proven(claim.format("South America"), FLU)
    assert "term_swap" not in _tags(claim.format("Southeast Asia"), FLU)


def test_the_two_sides_of_a_verb_exchanged():
    """Trials 158's 11 and 161's 15 (*supported*): what stands before and after *modulate* and *encompasses*, each on
    the other side. The passive and a direction turned too turn nothing."""
    assert "polarity_flip" in _proven("Astrocyte-derived neurotrophic factors and gliotransmitters modulate the "
                                      "biosynthesis of PACAP and VIP.", PACAP)
    assert "polarity_flip" not in _tags("PACAP and VIP modulate the biosynthesis of neurotrophic factors and "
                                        "gliotransmitters in astrocytes.", PACAP)
    assert "polarity_flip" in _proven("The mouse myelin basic protein gene encompasses a novel 105-kilobase "
                                      "transcription unit called the Golli-mbp gene.", GOLLI)
    assert "polarity_flip" not in _proven("The mouse myelin basic protein gene is encompassed by a novel "
                                          "105-kilobase transcription unit called the Golli-mbp gene.", GOLLI)


def _contradicted_on(sentence: str) -> Judgement:
    """The judge's *contradicted* read on ``sentence`` (only the sentence of its evidence is read)."""
    return Judgement(verdict=Verdict.CONTRADICTED, score=0.9, confidence=0.95, evidence=SimpleNamespace(sentence=sentence),
                     reasons=[], tier="entailment")


def test_a_contradiction_read_on_a_proposal_is_no_finding():
    """Trial 170's 29, faithful (*contradicted* at 0.97 on the source's opening proposal): "keeping older DNA strands
    during division is not a general property of stem cells". A claim that reports the proposal itself keeps the
    judge's verdict."""
    proposal = BRDU.split(". ")[0] + "."
    assert contradicts_a_proposal("Keeping older DNA strands is not a general property of stem cells.",
                                  _contradicted_on(proposal)) == proposal
    assert contradicts_a_proposal("Stem cells were proposed to keep their older DNA strands.",
                                  _contradicted_on(proposal)) is None
    assert contradicts_a_proposal("Keeping older DNA strands is not a general property of stem cells.",
                                  _contradicted_on(BRDU.split(". ")[1])) is None
