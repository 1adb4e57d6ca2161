"""Issue 28: what the fifty-fifth to fifty-eighth new users' trials found (2026-12-07, session 23; held out on
`5e3957a`: 15, 14, 14 and 12 of 20 false claims caught, 0, 1, 2 and 1 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): gut commensals in EAE (doc 32454714),
sweet, bitter and umami taste coding (718601), repeated radiosurgery (20649735), NFAT isoforms (30303335),
clonality of protozoan pathogens (20419913), a CRISPR death screen for OXPHOS genes (19957813), gene positioning
factors (16398049), IAP regulation of metastasis (21179714), IL-23-responsive innate lymphoid cells in IBD (1022115),
leaderless genes in bacteria (2479538).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

GKS = ("OBJECTIVE We investigated the outcome of repeated gamma knife radiosurgery (GKS) for local or remote recurrence "
       "after initial radiosurgery. MATERIAL AND METHODS We retrospectively reviewed 204 patients who were treated "
       "with GKS.")
EAE = "Protection was associated with a reduction of proinflammatory cytokines and increases in IL-10 and IL-13."
DEBATE = "The debate around the frequency and importance of genetic exchange in parasitic protozoa is now several decades old."
SEX = ("On the assumption that much apparent clonality may be an artefact of inadequate sampling and study design, we "
       "review current research to define why sex might be so difficult to detect in protozoan parasite populations.")
OXPHOS = ("Here we introduce a genome-wide CRISPR \"death screen\" that actively selects dying cells to reveal human genes "
          "required for OXPHOS, inspired by the classic observation that human cells deficient in OXPHOS survive in "
          "glucose but die in galactose.")
IAP = "This pathway is independent of IAP inhibition of cell death."
POSITIONING = ("Components of the replication and post-replication chromatin re-assembly machinery are prominently "
               "represented among positioning factors, and timely progression of cells through replication, but not "
               "mitosis, is required for correct gene positioning.")
ILC = ("Furthermore, we observed a significant and selective increase in CD127⁺CD56⁻ ILCs in the inflamed intestine in "
       "Crohn's disease (CD) patients but not in ulcerative colitis patients.")
LEADERLESS = ("Recently, leaderless genes, which lack 5'-untranslated regions (5'-UTR) on their mRNAs, have been shown "
              "abundant in archaea.")
GENOMES = ("RESULTS Here, we study signals in translation initiation regions of all genes over 953 bacterial and 72 "
           "archaeal genomes, then make an effort to construct an evolutionary scenario in view of leaderless genes in "
           "bacteria.")
WIDESPREAD = ("CONCLUSIONS Our analysis reveals that leaderless genes are totally widespread, although not dominant, in a "
              "variety of bacteria.")
AKT = "FOXO3 is phosphorylated by AKT in these cells, which leads to its nuclear exclusion."


def test_the_same_bound_on_another_number_is_no_rounding():
    """58 S23 (*supported*): "over 853 bacterial ... genomes" for "over 953": a floor below the source's had read as
    implied by it; a rounder number under the same bound still is ("more than 650,000" for "more than 654,918")."""
    (tag,) = proven(detect_number_drift, "Signals in translation initiation regions were studied for all genes over "
                    "853 bacterial and 72 archaeal genomes", GENOMES)
    assert spans(tag) == ("over 853", "over 953") and escalates(tag)
    assert quantities_match(extract_quantities("more than 650,000")[0], extract_quantities("more than 654,918")[0])
    assert not proven(detect_number_drift, "Signals in translation initiation regions were studied for all genes over "
                      "950 bacterial and 72 archaeal genomes", GENOMES.replace("953", "953.4"))


def test_a_vague_count_of_years_is_a_quantity_of_its_unit():
    """56 S21 (*supported*): "more than two centuries old" for "several decades old"; "about thirty years" says it."""
    (tag,) = proven(detect_number_drift, DEBATE.replace("several decades", "more than two centuries"), DEBATE)
    assert spans(tag) == ("more than two centuries", "several decades")
    assert not [t for t in detect_number_drift(DEBATE.replace("is now several decades old", "has gone on for about "
                                                              "thirty years"), DEBATE, source_text=DEBATE)
                if t.confidence >= 0.5]
    assert quantities_match(extract_quantities("three decades")[0], extract_quantities("30 years")[0])


def test_two_things_each_turned_are_two_reversals():
    """55 S23 (*partial*): "an increase of proinflammatory cytokines and decreases in IL-10" for "a reduction of ...
    and increases in IL-10"; the faithful claim is untouched."""
    (tag,) = proven(detect_polarity_flip, "Protection was associated with an increase of proinflammatory cytokines and "
                    "decreases in IL-10 and IL-13", EAE)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "Protection went with fewer proinflammatory cytokines and more IL-10 and "
                      "IL-13", EAE)


def test_opposites_of_ease_dependence_and_representation():
    """56 S25 (*partial*, an unproven swap): "so easy to detect" for "so difficult"; 57 S15: "dependent on" for
    "independent of"."""
    (tag,) = proven(detect_polarity_flip, "The authors review current research to define why sex might be so easy to "
                    "detect in protozoan parasite populations", SEX)
    assert spans(tag) == ("easy", "difficult")
    (tag,) = proven(detect_polarity_flip, "This pathway is dependent on IAP inhibition of cell death.", IAP)
    assert spans(tag) == ("dependent", "independent")
    assert not proven(detect_polarity_flip, "The authors review current research to explain why sex might be so hard "
                      "to detect in protozoan parasite populations", SEX)


def test_two_words_exchanged_at_the_end_of_both():
    """57 S07 (*supported* at 0.94): "survive in galactose but die in glucose" for "... in glucose but die in
    galactose", the exchanged word the last of the claim and of the sentence."""
    (tag,) = proven(detect_polarity_flip, "The screen was inspired by the classic observation that human cells "
                    "deficient in OXPHOS survive in galactose but die in glucose.", OXPHOS)
    assert escalates(tag)


def test_the_two_sides_of_but_not_exchanged():
    """58 S17 (*partial*): "of ulcerative colitis patients but not of Crohn's disease patients" for "in Crohn's
    disease (CD) patients but not in ulcerative colitis patients"; the claim's way round is no flip."""
    claim = ("There is a significant and selective increase in CD127⁺CD56⁻ ILCs in the inflamed intestine of {} "
             "patients but not of {} patients")
    (tag,) = proven(detect_polarity_flip, claim.format("ulcerative colitis", "Crohn's disease"), ILC)
    assert "but not" in tag.message and escalates(tag)
    assert not proven(detect_polarity_flip, claim.format("Crohn's disease", "ulcerative colitis"), ILC)


def test_a_negation_added_beside_an_excepted_thing():
    """57 S29 (*partial*): "Timely progression of cells through replication is not required" for "..., but not
    mitosis, is required"; "unlike mitosis" for "but not mitosis" had been a proven flip (a false alarm)."""
    (tag,) = proven(detect_polarity_flip, "Timely progression of cells through replication is not required for "
                    "correct gene positioning.", POSITIONING)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "Timely progression of cells through replication, unlike mitosis, is "
                      "required for correct gene positioning.", POSITIONING)


def test_an_adverb_moved_is_no_exchange():
    """58 S22 (faithful, *contradicted*): "were recently found to be common" for "Recently, ... have been shown
    abundant" read as 'untranslated region' and 'recently' exchanged."""
    assert not proven(detect_polarity_flip, "Genes whose transcripts have no 5' untranslated region, known as "
                      "leaderless genes, were recently found to be common in archaea", LEADERLESS)


def test_the_ends_of_a_relation_in_either_voice():
    """"AKT phosphorylated FOXO3" restates "FOXO3 is phosphorylated by AKT" (it had been a proven exchange); the
    other way round is one, and a verb of a chemical mark (*SUMOylates*) is such a relation."""
    assert not proven(detect_polarity_flip, "We found that AKT phosphorylated FOXO3 in these cells.", AKT)
    assert proven(detect_polarity_flip, "FOXO3 phosphorylated AKT in these cells.", AKT)
    sumo = "MDM2 SUMOylates PIAS1 in these cells, which leads to its nuclear exclusion."
    (tag,) = proven(detect_polarity_flip, "PIAS1 SUMOylates MDM2 in these cells.", sumo)
    assert escalates(tag)
    assert not proven(detect_polarity_flip, "PIAS1 is SUMOylated by MDM2 in these cells.", sumo)


def test_every_kind_for_a_variety():
    """58 S26 (*partial*): "in every bacterial species" for "in a variety of bacteria"; "many kinds of bacteria"
    says it (it had been a proven swap, 'many kinds' / 'variety')."""
    (tag,) = proven(detect_scope_inflation, "Leaderless genes are widespread, although not dominant, in every "
                    "bacterial species", WIDESPREAD)
    assert spans(tag) == ("every bacterial species", "a variety of bacteria") and escalates(tag)
    faithful = "Leaderless genes are widespread, although not dominant, in many kinds of bacteria"
    assert not proven(detect_term_swap, faithful, WIDESPREAD) and not proven(detect_scope_inflation, faithful, WIDESPREAD)


def test_a_study_named_for_the_writers_beside_a_section_label():
    """55 S09 (*partial*): "One retrospective study investigated ... proton beam radiosurgery" for "OBJECTIVE We
    investigated ... gamma knife radiosurgery (GKS)": the swap stayed unproven beside the study named for *we*."""
    (tag,) = proven(detect_term_swap, "One retrospective study investigated the outcome of repeated proton beam "
                    "radiosurgery for local or remote recurrence after initial radiosurgery", GKS)
    assert spans(tag) == ("proton beam", "gamma knife") and escalates(tag)
    assert not proven(detect_term_swap, "One retrospective study investigated the outcome of repeated gamma knife "
                      "radiosurgery for local or remote recurrence after initial radiosurgery", GKS)


def test_a_comparison_turned_against_the_numbers_it_replaces():
    """55 S12: "... 36 weeks in all patients and was shorter in the 43 patients with repeated GKS" for "... 36
    (7-190) weeks in all patients and 68 (16-156) weeks in 43 patients": caught, but as a proven swap of 'shorter'
    for 'weeks' (no term). Now the comparison against the two numbers; "longer" says it."""
    gks = ("RESULTS The median survival from the first GKS was 36 (7-190) weeks in all patients and 68 (16-156) weeks "
           "in 43 patients with repeated GKS.")
    claim = "The median survival from the first GKS was 36 weeks in all patients and was {} in the 43 patients with repeated GKS"
    (tag,) = proven(detect_polarity_flip, claim.format("shorter"), gks)
    assert spans(tag) == ("shorter", "68 weeks") and escalates(tag)
    assert not proven(detect_polarity_flip, claim.format("longer"), gks)
    assert not proven(detect_term_swap, claim.format("shorter"), gks)


def test_a_long_form_against_the_claims_short_one_is_no_swap():
    """56 S01 (faithful, *partial*): "Various stimuli convert dendritic cells (DCs) ..." for "In response to a variety
    of stimuli, dendritic cells (DCs) transform ...": the claim read as the source writes it ("convert DCs", the source
    writing *DCs* after its definition) was aligned with the unfolded sentence, 'convert' / 'dendritic'."""
    from citeproof.detectors import run_detectors_text

    dcs = ("In response to a variety of stimuli, dendritic cells (DCs) transform from immature cells specialized for "
           "antigen capture into mature cells specialized for T cell stimulation. During maturation, the DCs acquire "
           "an enhanced capacity to form and accumulate peptide-MHC (major histocompatibility complex) class II "
           "complexes.")
    tags = run_detectors_text("Various stimuli convert dendritic cells (DCs) from immature cells geared toward "
                              "capturing antigen into mature cells geared toward activating T cells", dcs, source_text=dcs)
    assert not any(t.name == "term_swap" and "'convert'" in t.message for t in tags)
