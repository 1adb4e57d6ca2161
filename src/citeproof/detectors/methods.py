"""Methods of measurement and organisms named by the claim and by the source (issue 28): the claim's method, which
the source never names, where the sentence restating the claim names another ("X-ray crystallography showed that these
sequence motifs bind to the DNA-binding site of p53c" for "We found from NMR spectroscopy that ...", a 76th trial's
claim *supported* at P(entails) 0.96); the same for an organism ("monitored in Saccharomyces cerevisiae" for "We
monitored, in Escherichia coli, ...", a 90th trial's claim *supported* at P(entails) 0.97). Read by
:func:`citeproof.detectors.swaps.detect_term_swap`; code shows it: ``term_swap`` at 0.9, ``proven``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeproof.model import TagEvidence

__all__ = ["METHODS", "ORGANISMS", "methods_in", "method_swapped"]

METHODS: dict[str, str] = {
    "nmr": r"NMR|nuclear magnetic resonance(?! imaging)",
    "crystallography": r"(?:X-ray )?crystallograph\w*|crystal structures?|X-ray diffraction",
    "cryo-em": r"cryo-?EM|cryo-?electron microscopy",
    "electron microscopy": r"electron microscop\w*",
    "mass spectrometry": r"mass[- ]spectromet\w*|LC-MS(?:/MS)?|MS/MS|MALDI-TOF",
    "western blot": r"western[- ]blot\w*|immunoblot\w*",
    "elisa": r"ELISAs?|enzyme-linked immunosorbent assays?",
    "pcr": r"(?:q|RT-q?|real-time )?PCR|polymerase chain reaction",
    "flow cytometry": r"flow cytometr\w*|FACS",
    "immunohistochemistry": r"immunohistochemi\w*|IHC",
    "mri": r"f?MRI|(?:functional )?magnetic resonance imaging",
    "ct": r"\bCT\b|computed tomography",
    "ultrasound": r"ultrasound|ultrasonograph\w*|sonograph\w*|echocardiograph\w*",
    "microarray": r"microarrays?",
    "rna-seq": r"RNA-?seq|RNA sequencing",
    "eeg": r"EEG|electroencephalograph\w*",
}
"""Methods of measurement and imaging, each with the ways its name is written (an abbreviation and its long form are
one method; *fMRI* is read as MRI, *immunoblot* as western blot)."""

ORGANISMS: dict[str, str] = {
    "e. coli": r"Escherichia coli|E\. ?coli",
    "s. cerevisiae": r"Saccharomyces(?: cerevisiae)?|S\. ?cerevisiae|budding yeast",
    "s. pombe": r"Schizosaccharomyces pombe|S\. ?pombe|fission yeast",
    "b. subtilis": r"Bacillus subtilis|B\. ?subtilis",
    "drosophila": r"Drosophila(?: melanogaster)?|D\. ?melanogaster|fruit ?fl(?:y|ies)",
    "c. elegans": r"Caenorhabditis elegans|C\. ?elegans",
    "arabidopsis": r"Arabidopsis(?: thaliana)?|A\. ?thaliana",
    "zebrafish": r"zebrafish|Danio rerio",
    "xenopus": r"Xenopus(?: laevis| tropicalis)?",
    "m. tuberculosis": r"Mycobacterium tuberculosis|M\. ?tuberculosis",
    "s. aureus": r"Staphylococcus aureus|S\. ?aureus|MRSA",
    "p. aeruginosa": r"Pseudomonas aeruginosa|P\. ?aeruginosa",
    "p. falciparum": r"Plasmodium falciparum|P\. ?falciparum",
    "salmonella": r"Salmonella",
    "listeria": r"Listeria(?: monocytogenes)?|L\. ?monocytogenes",
    "s. pneumoniae": r"Streptococcus pneumoniae|S\. ?pneumoniae|pneumococc\w*",
    "h. pylori": r"Helicobacter pylori|H\. ?pylori",
    "c. albicans": r"Candida albicans|C\. ?albicans",
    "t. gondii": r"Toxoplasma(?: gondii)?|T\. ?gondii",
    "chlamydomonas": r"Chlamydomonas(?: reinhardtii)?",
    "yeast": r"yeasts?",  # a 109th trial: "Arno, a yeast guanine nucleotide exchange factor" for "a human GEF"
    "mouse": r"mice|mouse|murine", "rat": r"rats?",  # a 182nd trial: "mice were fed a 20% or an isocaloric 6% protein
    # diet" for "rats were fed ...", *partial* on an unproven swap of 'whether' for 'hypothesis'
}
"""Model organisms and common pathogens, each with the ways its name is written (genus and species, the genus
abbreviated, a common name). Humans are not here: humans for mice is a widening (``scope_inflation``); mice for rats a
swap."""

_TABLES = tuple({k: re.compile(rf"(?<![\w-])(?:{v})(?![\w-])", re.I) for k, v in table.items()}
                for table in (METHODS, ORGANISMS))


@lru_cache(maxsize=256)
def methods_in(text: str, table: int = 0) -> dict[str, str]:
    """The methods (``table`` 0) or organisms (1) ``text`` names: key -> the words as written (first occurrence)."""
    out = {}
    for k, pat in _TABLES[table].items():
        if m := pat.search(text):
            out[k] = m.group(0)
    return out


def method_swapped(claim_text: str, sentence: str, source_text: str) -> TagEvidence | None:
    """The claim's method (or organism), named nowhere in the source, where ``sentence`` (restating the claim) names
    another method (organism) the claim does not: ``TagEvidence(claim's words, sentence's words)``, or None."""
    for table in range(len(_TABLES)):
        mine = methods_in(claim_text, table)
        if not mine:
            continue
        anywhere = methods_in(source_text or sentence, table)
        theirs = methods_in(sentence, table)
        for k, said in mine.items():
            if k in anywhere:
                continue
            other = next((v for j, v in theirs.items() if j not in mine), None)
            if other is None and table == 1 and (h := _HUMAN.search(sentence)) and not _HUMAN.search(claim_text):
                other = h.group(0)  # an organism for the sentence's *human* (the other way, a widening, is scope's)
            if other is not None:
                return TagEvidence(said, other)
    return _symbol_swapped(claim_text, sentence, source_text)


_HUMAN = re.compile(r"(?<![\w-])human(?= [a-z])", re.I)
"""*human* before a noun (*a human GEF*), as the organism a model organism may be said for."""


_SYMBOL = re.compile(r"(?<![\w-])(?=[A-Za-z0-9]*\d)[A-Z][A-Z0-9]{2,}[A-Za-z0-9]*(?![\w-])")
"""A gene or protein symbol: a capital, then capitals and digits, a digit among them (*PIK3R1*, *TP53*, *ERBB2*)."""


def _symbol_swapped(claim_text: str, sentence: str, source_text: str) -> TagEvidence | None:
    """The claim's gene symbol, written nowhere in the source, where ``sentence`` (restating the claim) has another of
    the same family (the first three characters alike) that the claim does not: "mutations of PIK3CA, the
    phosphatidylinositol-3-OH kinase regulatory subunit gene" for "... regulatory subunit gene PIK3R1" (a 97th trial:
    *supported*, P(entails) 0.93)."""
    mine = set(_SYMBOL.findall(claim_text))
    for said in mine:
        if re.search(rf"(?<![\w-]){re.escape(said)}(?![\w-])", source_text or sentence):
            continue
        other = next((s for s in _SYMBOL.findall(sentence) if s not in mine and s[:3] == said[:3]
                      and not (s.startswith(said) or said.startswith(s))), None)  # FOXO3 is FOXO3A (SciFact)
        if other is not None:
            return TagEvidence(said, other)
    return None
