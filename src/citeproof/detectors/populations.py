"""Who or what the source studied, against the claim's population or setting (``scope_inflation``, issue 28).

A claim about people, *in vivo*, a class of organisms or a setting the source never names at all, citing a source that
studies cells, animals or one model organism: each found by a new user's trial, each read on the whole source (the
evidence passage that restates the claim seldom names the study's organism). Code shows each: confidence 0.9,
``proven``. Called by :func:`citeproof.detectors.scope.detect_scope_inflation`.
"""

from __future__ import annotations

import re

from citeproof.detectors.terms import restating
from citeproof.model import Tag, TagEvidence
from citeproof.text.stems import find_terms

__all__ = ["SPECIES", "patients_for_everyone", "qualifier_dropped", "unstudied"]

SPECIES = [r"mice", r"mouse", r"murine", r"rats?", r"zebrafish", r"drosophila", r"flies", r"yeast", r"worms?",
           r"monkeys?|macaques?", r"pigs?|porcine", r"dogs?|canine", r"bovine|cows?|cattle", r"e\. coli", r"chick(?:en)?s?"]
"""One species (or its adjective), narrower than each of :data:`BROADER`."""


_PEOPLE = re.compile(r"\b(?:patients?|participants?|volunteers?|people|persons?|individuals|humans|adults|children|"
                     r"men|women|subjects|cohorts?|infants|outpatients|inpatients)\b", re.I)
_LAB = re.compile(r"\b(?:cells?|cell lines?|cultures?|cultured|in vitro|mice|mouse|murine|rats?|rodents?|xenografts?|"
                  r"organoids?|zebrafish|drosophila|yeast|animals?)\b", re.I)


_HUMAN_TISSUE = re.compile(r"\bhuman\s+(?:[\w-]+\s+){0,2}(?:cartilage|tissues?|biops(?:y|ies)|samples?|specimens?|blood|"
                           r"serum|plasma|tumou?rs?|brains?|skin|bone|muscle|explants?|organs?|polymorphisms?|variants?|"
                           r"alleles?|genotypes?|populations?|cohorts?)\b", re.I)
"""Human material or human genetics named in the source (*a common human polymorphism (N372H)*: a 128th trial's
faithful claim on the polymorphism's carriers had been *unsupported*, "the source studies mice")."""


_HUMAN_NAMED = re.compile(r"\b(?:to|and|or|in|from) humans?\b(?!\s+(?:[\w-]+\s+)?(?:cells?|cell lines?|tissues?|PBMCs?|"
                          r"lymphocytes|monocytes|macrophages|fibroblasts|neutrophils|keratinocytes|hepatocytes|"
                          r"neurons|astrocytes|platelets|erythrocytes)\b)"
                          r"|\bhuman\s*,\s*(?:other\s+)?[a-z]+(?:\s*,)", re.I)
"""People named as a kind (*conserved from bacteria to human*) or as one item of a list of kinds (*human, other
mammalian, avian, amphibian, plant, and prokaryote cells*: a 126th trial's faithful claim "... from prokaryotes and
plants to humans" had been *unsupported*); not human cells (*in rhesus and human PBMCs*: a 154th trial's "non-pathogenic
in both macaques and humans" was *supported*)."""


_HUMAN_SETTING = re.compile(r"\b(?:in|of|during)\s+humans?\s+(?:[\w-]+\s+)?(?:tumou?rs?|cancers?|pregnanc(?:y|ies)|"
                            r"disease|skin|brains?|tissues?|populations?|subjects|bodies|body)\b", re.I)
"""A human setting named by its adjective (*In human tumors*, *in human pregnancy*): a source that never writes
*human* and studies cells or rats studied none (trials 181 and 182: *supported*, *partial*)."""


def _people_unstudied(claim_text: str, source_text: str) -> Tag | None:
    """A claim about people (*in patients with oral carcinoma*) citing a source that studies cells or animals and
    names no people at all (no *patients*, *participants*, *subjects*, *men*, *women*... anywhere in it): "In patients
    with oral carcinoma, high concentrations of EGCG induced oxidative stress only in tumor cells" for a study of
    cell cultures (a thirteenth new user's trial). Code shows it: confidence 0.9, ``proven``."""
    m = _PEOPLE.search(claim_text) or _HUMAN_SETTING.search(claim_text)
    if m is None or not source_text or _PEOPLE.search(source_text) or not _LAB.search(source_text):
        return None
    if m.re is _HUMAN_SETTING and re.search(r"\bhumans?\b", source_text, re.I):
        return None
    if _HUMAN_TISSUE.search(source_text) or _HUMAN_NAMED.search(source_text):
        return None  # tissue taken from people ("human osteoarthritic cartilage": a 48th trial's faithful claim), or
        # people named as a kind ("a helicase superfamily conserved from bacteria to human", a 92nd trial's faithful)
    return Tag("scope_inflation", f"The claim is about {m.group(0)!r}; the source studies "
               f"{_LAB.search(source_text).group(0)!r} and names no people anywhere in it.", 0.9,
               (TagEvidence(m.group(0), _LAB.search(source_text).group(0)),), proven=True)


_IN_VIVO = re.compile(r"\bin vivo\b|\bin (?:the )?(?:intact|living) (?:human |mouse |murine |rat |animal )?(?:brains?|"
                      r"animals?|organisms?|tissues?|hearts?|livers?|retinas?|skin|lungs?|kidneys?|mice|rats)\b", re.I)
"""*In vivo* or its words (a 165th trial's "In the intact brain, raising astrocytic calcium ...": *supported*; a
180th's "epidermal stem cells in intact human skin" for a study on micropatterned surfaces)."""
_DISH = re.compile(r"\b(?:in vitro|in culture|cultured|cell cultures?|cell lines?|grown on (?:micro-?islands|coverslips|"
                   r"feeder layers?|monolayers?)|microisland cultures?|micropatterned (?:surfaces?|substrates?|islands))\b",
                   re.I)
_ORGANISM_STUDIED = re.compile(r"\b(?:in vivo|mice|mouse|murine|rats?|rodents?|animals?|zebrafish|drosophila|"
                               r"xenografts?|patients?|participants?|subjects|volunteers?|humans|people|tumou?rs in)\b",
                               re.I)


_FROM_ORGANISM = re.compile(r"\b(?:rat|mouse|murine|human|animal)\s+(?:[\w-]+\s+){0,2}(?:cells?|astrocytes|neurons|"
                            r"fibroblasts|hepatocytes|myocytes|cardiomyocytes|macrophages|lines?|cultures?)\b", re.I)


_CLASS = re.compile(r"\b(?:across|in|among|throughout|for)\s+(?:all\s+)?(?P<kind>eukaryotes|mammals|vertebrates|"
                    r"metazoans|animals|organisms)\b|\bincluding (?P<human>human) cells\b", re.I)
"""A class of organisms as a plural noun after a preposition of scope (not *of mammalian caspases*, a faithful
Citation-Integrity claim), or *including human cells*."""


def _kinds_unstudied(claim_text: str, source_text: str) -> Tag | None:
    """A claim about a class of organisms (*across eukaryotes*, *in mammals*) or *including human cells*, citing a
    source that studies one model organism or pathogen (:data:`~citeproof.detectors.methods.ORGANISMS`, *mice*, *rats*
    ...) and names neither that class nor people anywhere: "Across eukaryotes, including human cells, noise in protein
    expression is dominated by ..." for a single-cell study of *S. cerevisiae* (a 112th trial: *supported*,
    P(entails) 0.96). Code shows it: confidence 0.9, ``proven``."""
    from citeproof.detectors.methods import methods_in

    m = _CLASS.search(claim_text)
    if m is None or not source_text:
        return None
    said = m.group("kind") or m.group("human")
    if re.search(rf"\b{re.escape(said[:6])}", source_text, re.I) or (m.group("human") and _PEOPLE.search(source_text)):
        return None
    studied = next(iter(methods_in(source_text, 1).values()), None) or next(
        (t[0] for t in find_terms(source_text, SPECIES)), None)
    if studied is None:
        return None
    return Tag("scope_inflation", f"The claim is about {m.group(0).strip()!r}; the source studies {studied!r} and names "
               f"no {said.lower()} anywhere in it.", 0.9, (TagEvidence(m.group(0).strip(), studied),), proven=True)


def _in_vivo_unstudied(claim_text: str, source_text: str) -> Tag | None:
    """A claim *in vivo* citing a source whose work is in culture (*in vitro*, *cells in culture*, *cell lines*) and
    that names no living organism studied (no *in vivo*, animals or people anywhere in it): "In vivo, cell viability
    during nutrient deprivation is sustained by ..." for a study of "complete nutrient deprivation of cells in culture"
    (an 87th trial: *supported*, P(entails) 0.89 on the title). Code shows it: confidence 0.9, ``proven``."""
    m = _IN_VIVO.search(claim_text)
    if m is None or not source_text:
        return None
    cells = _FROM_ORGANISM.sub(" ", source_text)  # "rat primary astrocytes" are cells in a dish, no rat studied
    if _ORGANISM_STUDIED.search(cells) or not (dish := _DISH.search(source_text)):
        return None
    return Tag("scope_inflation", f"The claim says {m.group(0)!r}; the source's work is {dish.group(0)!r} and it names "
               f"no living organism studied.", 0.9, (TagEvidence(m.group(0), dish.group(0)),), proven=True)


def unstudied(claim_text: str, source_text: str) -> Tag | None:
    """The first of this module's rules that finds the claim's population or setting unstudied by the source, or
    None."""
    return (_people_unstudied(claim_text, source_text) or _in_vivo_unstudied(claim_text, source_text)
            or _kinds_unstudied(claim_text, source_text) or patients_for_everyone(claim_text, source_text))


_PLAIN_GROUP = re.compile(r"\bin\s+(?:(?:human|mouse|murine|mammalian|cultured|these|the)\s+)?(?P<n>cells|mice|rats|"
                          r"patients|animals|tumou?rs)\b(?!\s+(?:that|which|who|with|without|from|of|expressing|lacking|"
                          r"over\w+|deficient|depleted|treated|carrying|bearing|harbou?ring|infected|transfected))", re.I)
_QUALIFIED = (r"\bin\s+(?:[\w-]+\s+)?{n}\s+(?P<q>(?:over|under)?(?:produc|express)ing|lacking|deficient\s+in|depleted\s+"
              r"of|treated\s+with|carrying|bearing|harbou?ring|infected\s+with|transfected\s+with)\s+(?P<what>(?:the\s+)?"
              r"(?:[\w()+/-]+,?\s+){{0,3}}[\w()+/-]+)")


def qualifier_dropped(claim_text: str, pool: list[str]) -> Tag | None:
    """The claim says a finding holds *in cells* (*in human cells*, *in mice*) where the sentence restating it holds
    it in cells of a kind (*in cells overproducing the replication factor, Cdt1*) whose naming words the claim never
    writes: "Substantial re-replication occurs within 1 h of S phase entry in human cells" (a 179th trial: *supported*
    at P(entails) 0.95), a subgroup widened to everyone.

    Args:
        claim_text: the claim.
        pool: the evidence passage and the source sentences nearest the claim.

    Returns:
        A proven ``scope_inflation`` tag at 0.9, or None.
    """
    m = _PLAIN_GROUP.search(claim_text)
    if m is None:
        return None
    mine = {w.lower() for w in re.findall(r"[\w-]+", claim_text)}
    for _passage, sent in restating(claim_text, pool):
        q = re.search(_QUALIFIED.format(n=re.escape(m.group("n"))), sent, re.I)
        if q is None:
            continue
        naming = {w.lower() for w in re.findall(r"[\w-]+", q.group("what")) if len(w) > 2 and w.lower() != "the"}
        if naming and not naming & mine:
            return Tag("scope_inflation", f"The claim says {m.group(0)!r} where the source says {q.group(0)!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(m.group(0), q.group(0)),), proven=True)
    return None


_GENERAL = re.compile(r"\b(?:the\s+)?general\s+(?:adult\s+)?population\b|\bhealthy\s+(?:adults|people|individuals|"
                      r"volunteers)\b", re.I)
_CLINICAL = re.compile(r"\b(?:out|in)?patients\b|\bclinical\s+(?:sample|population|cohort)\b", re.I)


def patients_for_everyone(claim_text: str, source_text: str) -> Tag | None:
    """A claim about the general population (or healthy adults) citing a source that studies patients and never names
    the general population or healthy people: "Among adults in the general population, the mean BDI-II total score is
    approximately 2 points higher" for a study of psychiatric outpatients (a 184th trial: *partial*, an unproven
    *generalises*). Code shows it: confidence 0.9, ``proven``."""
    m = _GENERAL.search(claim_text)
    if m is None or not source_text or _GENERAL.search(source_text) or not (sick := _CLINICAL.search(source_text)):
        return None
    if re.search(r"\b(?:healthy|control|general|community|population-based)\b", source_text, re.I):
        return None  # the source compares with people from outside the clinic
    return Tag("scope_inflation", f"The claim is about {m.group(0)!r}; the source studies {sick.group(0)!r} and names "
               "no general population or healthy people.", 0.9, (TagEvidence(m.group(0), sick.group(0)),), proven=True)
