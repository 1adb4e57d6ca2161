"""Issue 28: what the forty-third to fiftieth new users' trials found (2026-12-07, session 22; held out, 43-46 on
`448dee8`: 18, 15, 15 and 15 of 20 false claims caught, 1, 1, 2 and 2 supported; 47-50 on `ea261a5`: 12, 15, 15 and
15 caught, 1, 2, 2 and 0 supported). No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): circulating microRNAs in hepatocellular
carcinoma (doc 23471400), insecticide-impregnated curtains against leishmaniasis (9110810), tuberculosis in Malawi
(21186109), SWR1 and H2A.Z (9451052), the IL-4/IL-13/IL-5 cluster in Th2 clones (36242796), smoking and bladder
cancer (17124832), n-3 fatty acids in osteoarthritic cartilage (33912748), KLF1-null neonates (6315132), lipid
mediators of aspirin and omega-3 (3866315), DNA methylation in the ageing cortex (4679264).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities, quantities_match
from citeproof.detectors.scope import detect_scope_inflation
from citeproof.detectors.swaps import detect_term_swap
from tests.meaning_cases import escalates, proven, spans

CURTAINS = ("After follow up the 12 month incidence of cutaneous leishmaniasis was 0% in the intervention group and 8% in "
            "the six pairs in the control group that received unimpregnated curtains (mean difference 8, 95% confidence "
            "interval 4.22 to 11.78; P=0.001). There were significantly fewer sandflies in the intervention group (2 v "
            "15, mean difference 13 sandflies per trap; 9 to 17; P<0.001).")
HCC = ("As a second-line HCC marker, miR-16 yielded positive HCC predictions in 18 of the 26 (69.2%) HCC patients with "
       "negative results on all 3 conventional markers, most of whom had tumors size smaller than 3 cm; miR-16 was "
       "falsely positive in only 12 of 96 (12.5%) CLD patients.")
MALAWI = ("Patients recorded in these registers were not formally reported to the Malawi National TB Programme (NTP), the "
          "neighbouring country's NTP, nor to WHO.")
SWR1 = ("Histone variant H2A.Z-containing nucleosomes are incorporated at most eukaryotic promoters. SWR1-catalyzed H2A.Z "
        "replacement in vitro occurs in a stepwise and unidirectional fashion, one H2A.Z-H2B dimer at a time, producing "
        "heterotypic nucleosomes as intermediates and homotypic H2A.Z nucleosomes as end products.")


def test_a_percentage_is_never_another_percentage_as_a_fraction():
    """44 C15 (*partial*, no tag): "18% in the six pairs" for "8%": the claim's 18% had been "stated" by "0%" (18% as
    0.18, within the rounding of 0)."""
    assert not quantities_match(extract_quantities("18%")[0], extract_quantities("0%")[0])
    (tag,) = proven(detect_number_drift, CURTAINS.split(" (mean")[0].replace("8% in", "18% in") + ".", CURTAINS)
    assert spans(tag) == ("18%", "8%") and escalates(tag)


def test_a_reversal_in_a_sentence_opening_alike():
    """44 C19 (*partial*, no tag): "There were significantly more sandflies in the intervention group than in the
    control group" for "... fewer sandflies in the intervention group (2 v 15 ...)": one content word before the
    turned one, but both sentences open with the same words up to it."""
    (tag,) = proven(detect_polarity_flip, "There were significantly more sandflies in the intervention group than in the "
                    "control group.", CURTAINS)
    assert spans(tag) == ("more", "fewer") and escalates(tag)
    assert not proven(detect_polarity_flip, "There were significantly fewer sandflies in the intervention group than in "
                      "the control group.", CURTAINS)


def test_all_of_whom_beside_an_all_the_source_also_says():
    """43 C8 (*partial*, no tag): "all 3 conventional markers, all of whom" for "all 3 ..., most of whom": the claim
    says *all* twice, the source once."""
    claim = HCC.split(";")[0].replace("most of whom", "all of whom") + "."
    (tag,) = proven(detect_scope_inflation, claim, HCC)
    assert spans(tag) == ("all", "most") and escalates(tag)


def test_a_denial_with_nor_dropped():
    """45 C24 (*partial*): "were formally reported to ..., the neighbouring country's NTP, and to WHO" for "were not
    formally reported ..., nor to WHO": *not* and *nor* are one denial."""
    (tag,) = proven(detect_polarity_flip, "Patients recorded in these registers were formally reported to the Malawi "
                    "National TB Programme (NTP), the neighbouring country's NTP, and to WHO.", MALAWI)
    assert spans(tag)[1].startswith("not") and escalates(tag)


def test_two_for_one_and_an_element_for_another():
    """46 C9 and C29 (*supported*): "two H2A.Z-H2B dimers at a time" for "one H2A.Z-H2B dimer at a time" ("one" is
    no quantity to the parser); "at most eukaryotic enhancers" for "promoters" (the nouns had read as the verbs
    *enhance* / *promote* of one synonym group). "one dose ... then a second one" counts two."""
    (tag,) = proven(detect_number_drift, SWR1.split(". ")[1].replace("one H2A.Z-H2B dimer", "two H2A.Z-H2B dimers"),
                    SWR1)
    assert spans(tag) == ("two", "one") and escalates(tag)
    twice = "Patients received one dose of the vaccine and then a second one."
    assert not proven(detect_number_drift, "Patients received two doses of the vaccine.", twice)
    (tag,) = proven(detect_term_swap, "Histone variant H2A.Z-containing nucleosomes are incorporated at most eukaryotic "
                    "enhancers.", SWR1)
    assert spans(tag) == ("enhancers", "promoters") and escalates(tag)


def test_a_hyphenated_name_before_in_is_no_ratio():
    """46 C21: a proven drift's message quoted the source's "5 in 81%", the ratio read in "IL-5 in 81% of instances"."""
    assert [(q.text, q.kind) for q in extract_quantities("IL-4 was expressed with IL-13 or IL-5 in 81% of instances")] == [
        ("81%", "percent")]
    assert [(q.text, q.kind) for q in extract_quantities("1 in 5 patients")] == [("1 in 5", "fraction")]


IL = ("When coexpressed in T cell clones, IL-4 was expressed from the same allele as IL-13 or IL-5 in 81% of instances. "
      "In contrast, there was only 52% concordance of these three cytokines at the allelic level among clones that "
      "expressed IL-3.")


def test_two_numbers_given_each_others_sentence():
    """46 C21 (*partial* once the ratio above was gone): a claim stitched from two sentences with their numbers
    exchanged; the faithful stitch keeps each number in its sentence."""
    from citeproof.detectors.exchanges import numbers_exchanged_apart

    said = ("When coexpressed in T cell clones, IL-4 was expressed from the same allele as IL-13 or IL-5 in {} of "
            "instances, whereas there was {} concordance among clones that expressed IL-3.")
    tag = numbers_exchanged_apart(said.format("52%", "81%"), IL)
    assert tag is not None and tag.proven and spans(tag) == ("52%", "81%") and escalates(tag)
    assert numbers_exchanged_apart(said.format("81%", "52%"), IL) is None


def test_a_round_number_and_human_tissue_are_no_false_alarms():
    """48 C7 and C27, faithful, were *unsupported* by proven tags: "roughly 281,000 men and 186,000 women" for "Men (n =
    281,394) and women (n = 186,134)" (the second number had no "roughly" of its own); a claim about "osteoarthritic
    patients" citing a study of "human osteoarthritic cartilage" explants (said to name no people)."""
    cohort = ("DESIGN, SETTING, AND PARTICIPANTS Men (n = 281,394) and women (n = 186,134) of the National Institutes of "
              "Health-AARP (NIH-AARP) Diet and Health Study cohort completed a lifestyle questionnaire.")
    assert not proven(detect_number_drift, "In the NIH-AARP Diet and Health Study, roughly 281,000 men and 186,000 "
                      "women completed a lifestyle questionnaire.", cohort)
    assert quantities_match(extract_quantities("186,000")[0], extract_quantities("186,134")[0])
    assert not quantities_match(extract_quantities("1,000")[0], extract_quantities("1,400")[0])
    assert not quantities_match(extract_quantities("186,134")[0], extract_quantities("186,000")[0])  # not the other way
    cartilage = ("Pathologic indicators of degradation and inflammation in human osteoarthritic cartilage are abrogated "
                 "by exposure to n-3 fatty acids. RESULTS Supplementation with n-3 PUFA reduced the release of "
                 "proteoglycan metabolites from articular cartilage explants in culture.")
    assert not proven(detect_scope_inflation, "In cartilage explants from osteoarthritic patients, n-3 polyunsaturated "
                      "fatty acids lowered proteoglycan loss.", cartilage)


def test_a_same_way_bound_with_another_number_a_greek_name_and_proved_that():
    """47 C16, C29 and 49 C15 (*partial*, *supported*, *supported*): "(>40%)" for "(>70%)"; "ω-7" for "ω-9";
    "studies ... proved that" for "provided evidence for"."""
    hbf = "There was a very high level of HbF expression into childhood (>70%), consistent with a key role for KLF1."
    (tag,) = proven(detect_number_drift, hbf.replace(">70%", ">40%"), hbf)
    assert spans(tag) == (">40%", ">70%")
    omega = ("Acetaminophen and indomethacin also permitted 18R-HEPE and 15R-HEPE generation with recombinant COX-2 as "
             "well as ω-5 and ω-9 oxygenations of other fatty acids that act on hematologic cells.")
    (tag,) = proven(detect_term_swap, omega.replace("ω-9", "ω-7"), omega)
    assert spans(tag) == ("ω-7", "ω-9")
    from citeproof.detectors.hedging import detect_hedge_removed

    nuclei = ("Additionally, methylation studies on sorted nuclei provided evidence for bidirectional methylation "
              "events in cortical neurons during the transition from childhood to advanced age.")
    (tag,) = detect_hedge_removed("Methylation studies on sorted nuclei proved that bidirectional methylation events "
                                  "occur in cortical neurons during the transition from childhood to advanced age.",
                                  nuclei, source_text=nuclei)
    assert tag.evidence[0].claim_span == "proved that" and tag.confidence >= 0.6


def test_a_without_dropped_and_a_directed_verb_turned_round():
    """48 C21 and C8 (*supported*): "supplementation affected the expression of message for several other proteins"
    for "... abolished ... without affecting the expression of message for several other proteins"; "pulmonary
    vascular cell crosstalk controlled ECM remodeling" for "ECM remodeling controlled pulmonary vascular cell
    crosstalk"."""
    n3 = ("In addition, n-3 PUFA supplementation abolished the expression of mRNA for mediators of inflammation "
          "(cyclooxygenase 2, 5-lipoxygenase, tumor necrosis factor alpha, IL-1alpha, and IL-1beta) without affecting "
          "the expression of message for several other proteins involved in normal tissue homeostasis.")
    (tag,) = proven(detect_polarity_flip, "In addition, n-3 PUFA supplementation affected the expression of message for "
                    "several other proteins involved in normal tissue homeostasis.", n3)
    assert spans(tag) == ("affected", "without affecting") and escalates(tag)
    assert not proven(detect_polarity_flip, "In addition, n-3 PUFA supplementation did not affect the expression of "
                      "message for several other proteins involved in normal tissue homeostasis.", n3)
    ccat2 = "These findings suggest that CCAT2 augments TCF7L2 transcriptional activity without increasing the quantity."
    assert not proven(detect_polarity_flip, "CCAT2 upregulated MYC by promoting TCF7L2 transcriptional activity rather "
                      "than by increasing the quantity of TCF7L2.", ccat2)  # a faithful Citation-Integrity claim
    ecm = ("In turn, ECM remodeling controlled pulmonary vascular cell crosstalk via such mechanotransduction, modulation "
           "of secreted vasoactive effectors, and regulation of associated microRNA pathways.")
    (tag,) = proven(detect_polarity_flip, "In turn, pulmonary vascular cell crosstalk controlled ECM remodeling via "
                    "mechanotransduction, modulation of secreted vasoactive effectors, and regulation of associated "
                    "microRNA pathways.", ecm)
    assert spans(tag) == ("pulmonary vascular cell crosstalk", "ECM remodeling") and escalates(tag)


def test_directly_measured_is_no_cause_and_a_number_inside_a_name_is_stated():
    """Faithful claims of trials 24, 26 and 52 tagged: "directly measured" as a causal claim; "serines 166 and 186"
    as numbers the source never states (it writes "Ser166 and Ser186")."""
    from citeproof.detectors.causal import detect_causal_overclaim

    measured = "LDL cholesterol was measured in all patients and compared with the estimate."
    assert detect_causal_overclaim("LDL cholesterol was directly measured in all patients.", measured,
                                   source_text=measured) == []
    akt = "Akt phosphorylates MDM2 at Ser166 and Ser186, which promotes its nuclear entry."
    assert detect_number_drift("Akt phosphorylates MDM2 at serines 166 and 186, which promotes its nuclear entry.", akt,
                               source_text=akt) == []
    assert proven(detect_number_drift, "Akt phosphorylates MDM2 at serines 166 and 196, which promotes its nuclear "
                  "entry.", akt) == [] and detect_number_drift("Akt phosphorylates MDM2 at serines 166 and 196, which "
                                                               "promotes its nuclear entry.", akt, source_text=akt)


def test_quickly_for_rapidly_and_required_for_necessary_are_no_swap():
    """Faithful claims of trials 52 and 53 tagged ``term_swap`` ("quickly" for "rapidly" had been a proven swap)."""
    hmgb1 = "HMGB1 rapidly induced osteogenic changes, which were necessary for calcification of the smooth muscle cells."
    assert detect_term_swap("HMGB1 quickly induced osteogenic changes, which were required for calcification of the "
                            "smooth muscle cells.", hmgb1, source_text=hmgb1) == []
    (tag,) = proven(detect_term_swap, "HMGB1 rapidly induced osteogenic changes, which were necessary for calcification "
                    "of the endothelial cells.", hmgb1)  # another cell still is a swap
    assert spans(tag) == ("endothelial", "smooth muscle")
