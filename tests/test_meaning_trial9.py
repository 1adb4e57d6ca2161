"""Issue 28: what a ninth new user's trial found (2026-12-06, session 19; three SciFact corpus abstracts no training
claim cites, held out from the detectors: on the code after the eighth trial's rules 1 of 20 false claims was
supported and 15 caught), each rule with the faithful twin that must stay untagged. No model: the detectors alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the conopeptide NMB-1 and pressure-evoked
pain (doc 1275505), NPHS1 mutations in congenital nephrotic syndrome (doc 41599676), and an influenza virus made to
express a microRNA (doc 6820680).
"""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.quantities import extract_quantities
from citeproof.detectors.swaps import detect_term_swap
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

NMB = ("One conopeptide analogue, termed NMB-1 for noxious mechanosensation blocker 1, selectively inhibits (IC50 1 µM) "
       "sustained mechanically activated currents in a subset of sensory neurons.")
NEPHRIN = ("Congenital nephrotic syndrome, Finnish type (CNF or NPHS1), is an autosomal recessive disease characterized by "
           "massive proteinuria and development of nephrotic syndrome shortly after birth. The disease is caused by "
           "mutations in the gene for nephrin which is a key component of the glomerual ultrafilter, the podocyte slit "
           "diaphragm.")
FLU = ("Here, we describe a modified influenza A virus that expresses cellular microRNA-124 (miR-124). We demonstrate "
       "that a viral RNA genome incorporating a hairpin does not result in segment instability or miRNA-mediated genomic "
       "targeting, thereby permitting the virus to produce a miRNA without having a negative impact on viral replication.")


def test_a_value_after_an_upper_case_label_is_read_with_its_unit():
    """C04: "IC50 10 µM" had been read as a name ("BRCA 1", "HER 2"), so the tenfold change was untagged."""
    assert [q.text for q in extract_quantities("selectively inhibits (IC50 10 µM) sustained")] == ["10 µM"]
    assert extract_quantities("BRCA 1 carriers and HER 2 positive tumours") == []
    assert extract_quantities("mitosis timing in NIH 3T3 cells") == []  # "T" is no unit there (a first version read tesla)
    [tag] = _proven(detect_number_drift, "One conopeptide analogue, termed NMB-1, selectively inhibits (IC50 10 µM) "
                    "sustained mechanically activated currents in a subset of sensory neurons", NMB)
    assert _spans(tag) == ("10 µM", "1 µM")
    assert _proven(detect_number_drift, "One conopeptide analogue, termed NMB-1, selectively inhibits (IC50 1 µM) "
                   "sustained mechanically activated currents in a subset of sensory neurons", NMB) == []


def test_a_designation_swapped_and_a_swap_beside_the_sources_typo_are_proven():
    """I05 ("influenza B" for "influenza A": one letter, no content word by length) and N06 ("podocin" for "nephrin",
    left unproven by the source's typo "glomerual" against the claim's "glomerular")."""
    [tag] = _proven(detect_term_swap, "Here, we describe a modified influenza B virus that expresses cellular "
                    "microRNA-124 (miR-124)", FLU)
    assert _spans(tag) == ("influenza B", "influenza A")
    [tag] = _proven(detect_term_swap, "The disease is caused by mutations in the gene for podocin, which is a key "
                    "component of the glomerular ultrafilter, the podocyte slit diaphragm", NEPHRIN)
    assert _spans(tag) == ("podocin", "nephrin")
    for faithful in ("Here, we describe a modified influenza A virus that expresses cellular microRNA-124 (miR-124)",
                     "The disease is caused by mutations in the gene for nephrin, which is a key component of the "
                     "glomerular ultrafilter, the podocyte slit diaphragm"):
        assert detect_term_swap(faithful, FLU + " " + NEPHRIN, source_text=FLU + " " + NEPHRIN) == []
    # names that differ in a digit are two names, not one spelled otherwise (a first version lost these proofs)
    icam = "However, truncation of the intracellular domain resulted in uniform cell surface distribution of ICAM-1."
    [tag] = _proven(detect_term_swap, icam.replace("ICAM-1", "ICAM-8"), icam)
    assert _spans(tag) == ("ICAM-8", "ICAM-1")
    # opposed prefixes are other terms however alike their spelling
    source = "Treatment with the drug was associated with hypertension in elderly patients with chronic kidney disease."
    [tag] = _proven(detect_term_swap, source.replace("hypertension", "hypotension"), source)
    assert _spans(tag) == ("hypotension", "hypertension")


def test_synonyms_and_negated_forms_are_no_swap():
    """N01 ("soon after birth" for "shortly after birth") and I03 ("unstable" for "instability") lost *supported* to
    unproven swaps."""
    assert detect_term_swap("Finnish-type congenital nephrotic syndrome is inherited in an autosomal recessive manner and "
                            "presents with heavy proteinuria and nephrotic syndrome soon after birth", NEPHRIN,
                            source_text=NEPHRIN) == []
    assert detect_term_swap("Carrying a hairpin in its RNA genome did not make the viral segments unstable or lead to "
                            "miRNA-mediated targeting of the genome, so miRNA production did not impair viral "
                            "replication", FLU, source_text=FLU) == []
