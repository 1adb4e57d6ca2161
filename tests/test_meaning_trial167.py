"""Issue 28: what the hundred-and-sixty-seventh to hundred-and-seventieth new users' trials found (2026-12-07,
session 29; held out on `8eb1d61`), and two roles claims of trials 158 and 161 missed since. Each rule beside its
faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): sepsis and the compensatory anti-inflammatory
response (doc 11156883), yeast TATA box-containing genes (3367829), the CTB-UA vaccine against H. pylori (13965483),
visceral arterioles in obesity (79447), haematopoietic stem cells and BrdU (4381486), homeless youth in Baltimore
(20334484), influenza's global circulation (11026600), PACAP and VIP in astroglia (21866916) and Golli-mbp (35467590).
"""

from __future__ import annotations

from tests.meaning_cases import judged, proven_names as _proven, tag_map as _tags
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


def _contradicted_on(sentence: str):
    """The judge's *contradicted* read on ``sentence``."""
    return judged(sentence, Verdict.CONTRADICTED, 0.95)


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


EXERCISE = ("The reorganized and newly revised \"Children's Exercise Physiology, Second Edition, \" presents the most "
            "up-to-date research, methodology, and approaches related to children's physiologic responses to exercise. "
            "The book examines not only the current major issues that separate children from adults, but also the "
            "underlying mechanisms of these differences. Also included is in-depth discussion of the determinants of "
            "aerobic fitness and VO2 kinetics and the significance of maximal aerobic power in children.")
FLAVONOIDS = ("The six major subclasses of flavonoids include the flavones (e.g., apigenin, luteolin), flavonols (e.g., "
              "quercetin, myricetin), flavanones (e.g., naringenin, hesperidin), catechins or flavanols (e.g., "
              "epicatechin, gallocatechin), anthocyanidins (e.g., cyanidin, pelargonidin), and isoflavones (e.g., "
              "genistein, daidzein).")
TH2 = ("T helper 2 cytokines inhibit autophagic control of intracellular Mycobacterium tuberculosis. The T helper 1 "
       "(Th1) cell cytokine IFN-gamma induces autophagy in macrophages to eliminate Mycobacterium tuberculosis.")
SWR1 = ("We have found that Swr1, a Swi2/Snf2-related adenosine triphosphatase, is the catalytic core of a multisubunit, "
        "histone-variant exchanger that efficiently replaces conventional histone H2A with histone H2AZ in nucleosome "
        "arrays.")
JHDM = ("Here we show that the histone demethylases Jhdm1a/1b are key effectors of somatic cell reprogramming downstream "
        "of vitamin C. We first observed that vitamin C induces H3K36me2/3 demethylation in mouse embryonic "
        "fibroblasts.")


def test_round_39_reversals():
    """Trial 174's 26, 15 and 17, 172's 20, 173's 25 (*supported*): *anaerobic* for *aerobic*; *but not the
    underlying mechanisms* for *not only ..., but also the underlying mechanisms*; the title's two sides round
    *inhibit(s)*; *replaces histone H2AZ with conventional histone H2A* for the other order; *Vitamin C ...
    downstream of the histone demethylases Jhdm1a/1b* for the other order (and *vitamin C. We* ends a sentence)."""
    assert "polarity_flip" in _proven("The book includes an in-depth discussion of the determinants of anaerobic "
                                      "fitness and VO2 kinetics in children.", EXERCISE)
    assert "polarity_flip" in _proven("The book examines the major issues that separate children from adults, but "
                                      "not the underlying mechanisms of these differences.", EXERCISE)
    assert "polarity_flip" not in _tags("The book examines the major issues that separate children from adults and "
                                        "also the underlying mechanisms of these differences.", EXERCISE)
    assert "polarity_flip" in _proven("Autophagic control of intracellular Mycobacterium tuberculosis inhibits the "
                                      "production of T helper 2 cytokines.", TH2)
    assert "polarity_flip" not in _tags("T helper 2 cytokines inhibit the autophagic control of intracellular "
                                        "Mycobacterium tuberculosis.", TH2)
    assert "polarity_flip" in _proven("The SWR1 complex efficiently replaces histone H2AZ with conventional histone H2A "
                                      "in nucleosome arrays.", SWR1)
    assert "polarity_flip" not in _tags("The SWR1 complex efficiently replaces conventional histone H2A with histone "
                                        "H2AZ in nucleosome arrays.", SWR1)
    assert "polarity_flip" in _proven("Vitamin C is a key effector of somatic cell reprogramming downstream of the "
                                      "histone demethylases Jhdm1a/1b.", JHDM)
    assert "polarity_flip" not in _tags("The histone demethylases Jhdm1a/1b are key effectors of somatic cell "
                                        "reprogramming downstream of vitamin C.", JHDM)


def test_round_39_names_and_numbers():
    """Trial 174's 3 and 28 (*supported*): *third edition* for *Second Edition*; *Flavanones such as naringenin and
    genistein* where the source gives genistein as an isoflavone. Trial 174's 21, faithful (*unsupported* on a
    proven swap): *Interferon-gamma* for *IFN-gamma*."""
    assert "number_drift" in _proven("The reorganized and newly revised third edition of Children's Exercise "
                                     "Physiology presents up-to-date research.", EXERCISE)
    assert "number_drift" not in _tags("The newly revised second edition of Children's Exercise Physiology presents "
                                       "up-to-date research.", EXERCISE)
    assert "term_swap" in _proven("Flavanones such as naringenin and genistein form one of the six major subclasses "
                                  "of flavonoids.", FLAVONOIDS)
    assert "term_swap" not in _tags("Flavanones such as naringenin and hesperidin form one of the six major "
                                    "subclasses of flavonoids.", FLAVONOIDS)
    assert "term_swap" not in _proven("Interferon-gamma, a Th1 cytokine, induces autophagy in macrophages to "
                                      "eliminate Mycobacterium tuberculosis.", TH2)
    assert "term_swap" in _proven("Interleukin-4, a Th1 cytokine, induces autophagy in macrophages to eliminate "
                                  "Mycobacterium tuberculosis.", TH2)


def test_a_letter_naming_a_thing_ends_a_sentence_before_its_usual_opening():
    """*vitamin C. We first observed* is two sentences (a 173rd trial's source had read them as one); an initial before
    a surname stays inside its sentence."""
    from citeproof.text.sentences import split_sentences

    assert len(split_sentences(JHDM)) == 2
    assert split_sentences("The book by J. Smith was read. It was short.") == ["The book by J. Smith was read.",
                                                                              "It was short."]


def test_the_first_phase_for_an_initial_phase():
    """Trial 140's 13, faithful (*unsupported* on the ordinal rule): "The first phase" for "an initial phase ... a
    second phase"."""
    source = ("T cells make brief serial contacts with dendritic cells in an initial phase, and stable contacts in a "
              "second phase.")
    assert "number_drift" not in _tags("The first phase, in which T cells make brief serial contacts with dendritic "
                                       "cells, gets shorter.", source)
    assert "number_drift" in _proven("The third phase, in which T cells make brief serial contacts with dendritic "
                                     "cells, gets shorter.", source)


YQHC = ("YqhC shares homology with transcriptional regulators belonging to the AraC/XylS family and was shown to act as "
        "a positive regulator of the adjacent operon encoding YqhD and DkgA.")
PHO5 = ("Promoter closure occurs very rapidly, and the histone chaperones Asf1 and Hir1 appear to be important for "
        "rapid reassembly of nucleosomes at the PHO5 promoter.")
KRAS = ("The median overall survivals for patients with KRAS mutations, EGFR mutations, or both wild types were 7.7, "
        "38.0, and 15.0 months, respectively (P<0.001). Response rates were 28% and 31%. KRAS mutation tended to be "
        "associated with inferior treatment outcomes after gemcitabine-based chemotherapy.")
IL2 = "Apparently, the addition of IL-2 by inhalation improved survival."


def test_round_40():
    """Trials 175-178 (held out on `45259f6`): *a repressor* for *a positive regulator* (175's 3, *supported*);
    *28.0* in a list for *38.0*, a *28%* elsewhere no excuse (177's 12, *supported*); *was significantly associated*
    for *tended to be associated* and *was shown to improve* for *Apparently, ... improved* (177's 22 and 178's 12,
    *supported*): hedges, *partial*. The faithful twins stay clear."""
    assert "polarity_flip" in _proven("YqhC shares homology with AraC/XylS-family transcriptional regulators and was "
                                      "shown to act as a repressor of the adjacent operon encoding YqhD and DkgA.", YQHC)
    assert "polarity_flip" not in _tags("YqhC was shown to act as an activator of the adjacent operon encoding YqhD "
                                        "and DkgA.", YQHC)
    claim = ("The median overall survivals for patients with KRAS mutations, EGFR mutations, or both wild types were "
             "7.7, {}, and 15.0 months, respectively.")
    assert "number_drift" in _proven(claim.format("28.0"), KRAS)
    assert "number_drift" not in _tags(claim.format("38.0"), KRAS)
    assert _tags("KRAS mutation was significantly associated with inferior treatment outcomes after "
                 "gemcitabine-based chemotherapy.", KRAS)["hedge_removed"][0] >= 0.6
    assert _tags("The addition of IL-2 by inhalation was shown to improve survival.", IL2)["hedge_removed"][0] >= 0.6
    assert "hedge_removed" not in _tags("The addition of IL-2 by inhalation apparently improved survival.", IL2)


def test_a_word_capitalised_on_one_side_only_is_no_name():
    """A faithful claim whose *Trophy* the source writes *trophy*: no two names turned round the same words."""
    source = "The cadets take the trophy at the parade while the corps marches in Atlanta."
    assert "polarity_flip" not in _tags("In Atlanta the corps marches while the cadets take the Trophy at the parade.",
                                        source)
    assert "polarity_flip" in _proven("In Atlanta the corps marches while the cadets take the Trophy at the parade.",
                                      source.replace("trophy", "Trophy"))
