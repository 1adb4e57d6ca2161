"""The paraphrase vocabulary of ``term_swap`` (:mod:`citeproof.detectors.swaps`): words that may stand for each other
without a swap, and the word-form tests it uses (one word spelled otherwise, opposed or negative prefixes, a word
inside another). Groups of synonyms (:data:`SYNONYMS`: reporting verbs, common medical synonyms, each found by a new
user's trial or the faithful training citations), the common verbs of scientific prose (:data:`VERBS`), the
reporting verbs (:data:`REPORTING`) and direction and negation words (:data:`DIRECTION`, ``polarity_flip``'s).

A synonym source from the shipped word vectors or WordNet was measured and not used (docs/meaning.md, session 19):
neither separates the trials' paraphrases from their swaps.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from citeproof.model import TagEvidence
from citeproof.text.normalise import stem

__all__ = ["ABSENCE", "DIRECTION", "KINDS", "WRITERS_FRAME", "LABELLED", "NEGATIVE_PREFIX", "OPPOSED", "REPORTING", "SYNONYMS", "VERBS", "VERB_FORMS", "VOCABULARY",
           "derivation", "inside", "labelled_swap", "numbered_name_swap", "names_writers", "negated_alike", "past_shared_parts", "proper_name", "same_phrase", "opposed_prefixes", "siblings", "spelled_otherwise", "letter_for_letter", "stands_in", "unprefixed"]

_GROUPS = (
    "show shows showed shown demonstrate demonstrates demonstrated reveal reveals revealed find finds found report "
    "reports reported indicate indicates indicated suggest suggests suggested observe observed confirm confirmed "
    "conclude concludes concluded discover discovers discovered validate validates validated verify verifies verified "
    "associated linked correlated related connected",  # how a finding is reported or related is no swapped term
    # ("associated" where the source says "reported" is a paraphrase: a new user's faithful claim lost supported)
    "increase increases increased raise raises raised elevate elevated enhance enhanced augment augmented boost boosted "
    "promote promotes promoted upregulate upregulates upregulated",
    "decrease decreases decreased reduce reduces reduced lower lowers lowered diminish diminished inhibit inhibits "
    "inhibited suppress suppresses suppressed attenuate attenuated downregulate downregulated impair impaired "
    "block blocks blocked",  # "Cry1 blocked cAMP accumulation" for "inhibited accumulation" (a third trial)
    "cause causes caused induce induces induced trigger triggers triggered lead leads produce produces produced",
    "patients subjects participants individuals people persons cases patient adult adults",
    "effect effects impact impacts influence influences role",
    "risk risks likelihood odds chance",
    "treatment treatments therapy therapies intervention interventions",
    "use usage administration application",
    "children kids youth pediatric paediatric",
    "tumor tumour tumors tumours cancer cancers neoplasm neoplasms carcinoma",
    "important crucial critical essential key major significant",
    "method methods approach approaches technique techniques strategy strategies",
    "study studies trial trials analysis analyses investigation",
    "rate rates level levels amount amounts",
    "mortality death deaths",
    "improve improves improved ameliorate ameliorates ameliorated",
    # found by a new user's trial on SciFact abstracts (2026-12-06): faithful claims lost *supported* to these
    "injured injury injuries wounded wound wounds",
    "role roles function functions",
    "mimic mimics mimicked simulate simulates simulated emulate emulates emulated",
    "stop stops stopped cease ceases ceased halt halts halted interrupt interrupts interrupted discontinue "
    "discontinues discontinued terminate terminates terminated",  # a tenth trial: a trial "stopped early" / "interrupted"
    "predefined predetermined prespecified pre-specified pre-defined",
    "potent strong powerful",  # an eleventh trial: "a strong anti-inflammatory regulator" for "a potent ..."
    # a twelfth trial's faithful claims: "linking ... to" / "couple ... to", "after adjustment for" / "after controlling
    # for", "adding" / "additional inclusion"
    "link links linked linking couple couples coupled coupling",
    "pathway pathways cascade cascades",
    # a thirteenth trial's faithful claims: cells "exposed to" / "treated with", the "top" / "highest" quartile,
    # patients "enrolled" / "examined"
    "exposed treated",
    "top highest",
    "enrolled enrol enroll included examined studied",
    "adjust adjusts adjusted adjusting adjustment control controls controlled controlling",
    "add adds added adding addition additional include includes included including inclusion",  # a tenth trial's "predefined antibody response"
    "lineage lineages cells",  # SciFact: "differentiate into cholangiocytic cells" / "into ... cholangiocytic lineages"
    "lengthen lengthens lengthened extend extends extended prolong prolongs prolonged",  # 41st trial's faithful claims
    "preserve preserves preserved maintain maintains maintained",
    "quick quickly rapid rapidly fast",  # faithful claims of trials 52-53: "quickly" / "rapidly", "fast" / "rapid"
    "required necessary needed", "diseased pathological", "readout measure",
    "elderly older aged",  # SciFact: "in elderly adults" for "participants aged 60 years and older"
    "lowest bottom", "birthplace birth", "comparable similar", "uptake consumption",  # faithful claims of trials 24-31
    "variety varieties range kinds types array diversity",  # "many kinds of bacteria" / "a variety of bacteria"
    "shared common", "intestinal gut", "produce produces produced generate generates generated",  # trials 55-56
    "precursor precursors progenitor progenitors",  # a 70th trial's faithful "B cell precursors"
    "earliest first", "stated admitted said declared acknowledged",  # a 60th trial: "60% stated" / "60% admitted"
    "often frequently commonly usually typically",  # an 88th trial's faithful "often depend" / "frequently dependent"
    "mostly mainly largely predominantly primarily chiefly principally",  # and "mainly" / "predominantly"
    "alongside addition besides plus",  # and "alongside BMI" / "in addition to BMI" (both had been proven swaps)
    "substantiate substantiates substantiated support supports supported back backs backed",  # trials 87-90's faithful claims
    "elucidate elucidates elucidated explain explains explained",
    "govern governs governed governing control controls controlled controlling",  # trials 91-94's faithful claims
    "successive progressive consecutive sequential",  # a 161st trial's faithful "at successive stages" (proven swap)
    "draw draws drew drawn drawing use uses used using based",  # "drew on retrospective chart abstraction" / "using
    # data"; "was based on publicly accessible data" / "using publicly accessible data" (a 156th trial's faithful twin)
    "depend depends depended require requires required rely relies relied",  # a 94th: "depend on" / "require"
    "mean means meant imply implies implied",  # a 95th: "usually means that" / "usually implies"
    # trials 103-106's faithful claims (each an unproven or proven swap that made them *partial* or *unsupported*)
    "built build builds based base bases constructed",  # "reagents built from soluble TCRs" / "based on soluble TCRs"
    "eventually ultimately finally", "start starts started starting begin begins began begun beginning",
    "chosen chose choose selected select selects", "aware knew know knows known",
    "circumvent circumvents circumvented overcome overcomes overcame",  # "circumvent the problem" / "overcome"
    "time delay delays interval intervals",  # a 113th: "The median time from the first hospital visit" / "The delay"
    "matter matters mattered important", "distinct unique", "strongly highly",  # trials 117-118's faithful claims
    "mouse mice murine",  # a 113th: "compared them with mouse ES cells" / "murine ES cells"
    # trials 131-134's faithful claims
    "test tests tested determine determines determined assess assesses assessed evaluate evaluates evaluated",
    "release releases released secrete secretes secreted", "straight directly", "deficit deficits impairment impairments",
    "cut cuts interrupt interrupts interrupted", "feel feels felt experience experiences experienced",
    "undergo undergoes underwent undergone undergoing",
    "status analysis", "account accounts accounted explain explains explained",  # trial 146's faithful claims
    "form forms formed constitute constitutes constituted",  # trial 149's: iGluRs "form" / "constitute" a family
    # trials 163-166's faithful claims: "an important part of" / "aspect of" (a proven swap: *unsupported*), "binding
    # sites" / "locations", "cells were given" / "infused", "a consequence of" / "an effect of"
    "part parts aspect aspects component components facet facets", "site sites location locations",
    "given administered infused", "effect effects consequence consequences",
    "cocktail cocktails combination combinations set",  # a 143rd's "a defined set of transcription factors"
    "work effort efforts", "useful valuable", "distinguish discriminate",  # a 176th trial's faithful claims
    # a 188th trial's faithful claim: cells "mount a complex pro-inflammatory response known as" the SASP for
    # "implement a complex pro-inflammatory response termed" (a proven swap: *unsupported*)
    "mount mounts mounted implement implements implemented launch launches launched",
    "known termed called named designated dubbed",
    "soon shortly",  # a ninth trial: "nephrotic syndrome soon after birth" for "shortly after birth"  # a fifth trial: "stop dividing" for "cease dividing"
)
VOCABULARY = frozenset(w for group in _GROUPS for w in group.split())
"""Every word of the paraphrase vocabulary as written (not stemmed)."""
SYNONYMS: dict[str, frozenset[str]] = {}
"""Paraphrase vocabulary: words one group holds are never a swap for each other (stems, both directions)."""
for _g in _GROUPS:
    _stems = frozenset(stem(w) for w in _g.split())
    for _s in _stems:
        SYNONYMS[_s] = SYNONYMS.get(_s, frozenset()) | _stems

VERB_FORMS = frozenset((
    "hold holds held contain contains contained include includes included comprise comprises comprised cover covers covered "
    "have has had make makes made give gives gave take takes took get gets got keep keeps kept provide provides provided "
    "offer offers offered allow allows allowed enable enables enabled require requires required need needs needed "
    "involve involves involved affect affects affected alter alters altered change changes changed modulate modulates "
    "modulated regulate regulates regulated mediate mediates mediated control controls controlled drive drives drove "
    "determine determines determined predict predicts predicted identify identifies identified detect detects detected "
    "measure measures measured assess assesses assessed evaluate evaluates evaluated examine examines examined analyse "
    "analyze analysed analyzed compare compares compared describe describes described propose proposes proposed "
    "develop develops developed create creates created generate generates generated form forms formed become becomes "
    "became remain remains remained appear appears appeared seem seems seemed occur occurs occurred exist exists existed "
    "consist consists consisted contribute contributes contributed account accounts accounted represent represents "
    "represented serve serves served act acts acted play plays played work works worked function functions functioned "
    "support supports supported achieve achieves achieved reach reaches reached obtain obtains obtained receive "
    "receives received yield yields yielded result results resulted lead leads led follow follows followed perform "
    "performs performed conduct conducts conducted carry carries carried apply applies applied employ employs employed "
    "use uses used exhibit exhibits exhibited display displays displayed possess possesses possessed host hosts hosted "
    "store stores stored retain retains retained maintain maintains maintained protect protects protected prevent "
    "prevents prevented treat treats treated target targets targeted bind binds bound encode encodes encoded express "
    "expresses expressed activate activates activated block blocks blocked limit limits limited restrict restricts "
    "restricted incorporate incorporates incorporated adopt adopts adopted assume assumes assumed build builds built"
    .split()))  # "TatA(d) adopts an L-shaped structure" / "shows" (a sixteenth trial; *shows* is a reporting verb)
VERBS = frozenset(stem(w) for w in VERB_FORMS)
"""Common verbs of scientific prose: one for another is a paraphrase (``holds`` / ``contains``) far more often than
a false claim, and ``term_swap`` is about terms (an organ, organism, agency, drug, place, method)."""

REPORTING = frozenset(_GROUPS[0].split()) - frozenset("associated linked correlated related connected".split())
"""How a finding is reported (*found*, *shown*, *observed*): a verb too, so one for a common verb is a paraphrase
("All of the tissues examined contained" for "All the tissues were found to contain", an eighth trial). Not the
association words of the same group: *causes* for *is associated with* is a claim of cause (a fourth trial's c18)."""

DIRECTION = frozenset(stem(w) for w in (
    "increase increased decrease decreased higher lower more less greater fewer larger smaller positive negative "
    "up down upregulated downregulated rise fall gain loss improve worsen better worse above below before after "
    "not no never without".split()))
"""Direction and negation words: a change in them is ``polarity_flip``'s to report."""


KINDS = tuple(frozenset(stem(w) for w in g.split()) for g in (
    "mouse mice murine rat rats human humans zebrafish yeast monkey monkeys pig pigs dog dogs bovine porcine",
    "men women male males female females boys girls",
    "left right anterior posterior upper lower proximal distal dorsal ventral maternal paternal",
    "donor donors recipient recipients parent parents offspring mother mothers infant infants",
    # diseases (an 88th trial: "airway hyperresponsiveness, diabetes and certain genetic variations" for "..., asthma,
    # and ...": *partial*, an unproven swap)
    "asthma diabetes hypertension obesity copd tuberculosis pneumonia influenza dementia epilepsy arthritis "
    "osteoporosis schizophrenia depression autism stroke sepsis",
    # organs and tissues, as adjectives and as nouns (a 137th trial: "Using hepatic differentiation as a model" for
    # "neural differentiation", an unproven swap)
    "hepatic neural renal cardiac pulmonary gastric intestinal colonic cutaneous pancreatic splenic thymic ovarian "
    "testicular uterine prostatic mammary endothelial epithelial immune",  # a 179th: "renal dysfunction" for "immune"
    "liver brain kidney heart lung stomach intestine colon skin pancreas spleen thymus ovary testis uterus prostate "
    "breast",
    # the -omes a study reads (a 185th trial: "integrating whole-genome sequence" for "whole-exome sequence")
    "genome exome transcriptome proteome epigenome methylome metabolome microbiome",
))
"""Single words of one kind (species, sexes, sides, roles, diseases): two of them exchanged need no clause joiner ("the rat
ortholog (Slc23a1) of a mouse transporter" for "the mouse ortholog ... of a rat transporter", a fourth trial)."""


NEGATIVE_PREFIX = re.compile(r"^(?:un|in|im|il|ir|non-?|dis)(?=\w{4})")
"""A negative prefix before four letters or more (*un*stable, *in*stability)."""


def unprefixed(st: str) -> str:
    """A stem without its negative prefix (``unstabl`` and ``instabl`` -> ``stabl``); other stems as they are."""
    return NEGATIVE_PREFIX.sub("", st)


def inside(short: str, long: str) -> bool:
    """``short`` stands in ``long``: as a word (``receptor`` in ``co-receptor``), or, four letters or more, inside one
    (``fish`` in ``zebrafish``); not ``er``, ERα's letters, in ``progesterone receptor`` (a trial 11 swap)."""
    if not short:
        return False
    return (len(short) >= 4 and short in long) or re.search(rf"(?<![a-z0-9]){re.escape(short)}(?![a-z0-9])", long) is not None


def letter_for_letter(x: str, y: str) -> bool:
    """``x`` and ``y`` are as long and differ by letters put for others, not all *s* / *z* (*analyse* / *analyze*):
    two words (*osteoblastic* / *osteoclastic*, a 26th trial's swap called a spelling)."""
    diff = [(a, b) for a, b in zip(x, y) if a != b]
    return len(x) == len(y) and bool(diff) and not all({a, b} == {"s", "z"} for a, b in diff)


def spelled_otherwise(x: str, y: str, source_text: str) -> bool:
    """``x`` and ``y`` are one word of six letters or more spelled two ways (rapidfuzz ratio >= 80: *glomerular* /
    *glomerual*, *tumour* / *tumor*), not two words the source writes both (*amitriptyline* / *amitriptylinoxide*)
    nor two of one length with other letters (:func:`letter_for_letter`)."""
    return (min(len(x), len(y)) >= 6 and fuzz.ratio(x.lower(), y.lower()) >= 80 and not opposed_prefixes(x, y)
            and not any(c.isdigit() for c in x + y)  # ICAM-8 / ICAM-1 are two names
            and not letter_for_letter(x.lower(), y.lower()) and not _other_first_part(x.lower(), y.lower())
            and not (stands_in(x, source_text) and stands_in(y, source_text)))


OPPOSED = (("hyper", "hypo"), ("over", "under"), ("intra", "extra"), ("pre", "post"), ("pro", "anti"), ("up", "down"),
           ("inter", "intra"), ("endo", "exo"), ("homo", "hetero"), ("mono", "poly"), ("micro", "macro"))


def opposed_prefixes(x: str, y: str) -> bool:
    """``x`` and ``y`` open with opposed prefixes (*hypertension* / *hypotension*, *intracellular* / *extracellular*):
    alike in spelling, other terms."""
    lx, ly = x.lower(), y.lower()
    return any((lx.startswith(p) and ly.startswith(q)) or (lx.startswith(q) and ly.startswith(p)) for p, q in OPPOSED)


def stands_in(word: str, source_text: str) -> bool:
    """``word`` stands in ``source_text`` as a whole word (any case): a source that writes both *amitriptyline* and
    *amitriptylinoxide* names two drugs, not one drug in two spellings (a new user's trial, 2026-12-06)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", source_text, re.I) is not None


LABELLED = re.compile(r"\b(chromosomes?|types?|phases?|stages?|grades?|class(?:es)?|exons?|introns?|codons?|cycles?|"
                      r"trisomy)\s+((?:\d+[a-z]?|[IV]+)(?:(?:\s*,\s*|\s+(?:and|or|to)\s+|\s*[-\u2013]\s*)(?:\d+[a-z]?|[IV]+))*)\b",
                      re.I)
"""A numbered name: *chromosome 7*, *type 2*, *phase III*, *exon 19* (numbers the quantity parser reads as names)."""


def labelled_swap(claim_text: str, sent: str) -> TagEvidence | None:
    """The claim's numbered name where the restating sentence numbers the same label otherwise: "a gain of chromosome
    10" against "a gain of chromosome 7" (a trial 11 false claim; ``number_drift`` reads *chromosome 7* as a name, and
    ``term_swap``'s word diff compares words of letters, so neither saw it). None when the sentence also has the claim's."""
    have = {(_label(m.group(1)), n) for m in LABELLED.finditer(sent) for n in _numbers(m.group(2))}
    for m in LABELLED.finditer(claim_text):
        label = _label(m.group(1))
        for num in _numbers(m.group(2)):
            if (label, num) in have:
                continue
            other = [n for lab, n in have if lab == label]
            if len(other) == 1:
                return TagEvidence(f"{m.group(1)} {num.upper() if num.isalpha() else num}", f"{m.group(1)} {other[0]}")
    return None


def _label(word: str) -> str:
    return re.sub(r"(?:es|s)$", "", word.lower()) if word.lower() not in ("class",) else "class"


def _numbers(run: str) -> list[str]:
    """The numbers of a label's run, each of a coordination: *I and II*, *1, 2 and 3* (a label that names two, "type I
    and II receptors", had read as *type I* only, and a faithful claim's *type II* as a swap: an 80th trial)."""
    return [n.lower() for n in re.findall(r"\d+[a-z]?|[IV]+", run)]


def numbered_name_swap(claim_text: str, sent: str) -> TagEvidence | None:
    """A name of the claim whose digits differ from those of the one name of its shape in the restating sentence,
    the claim's own name absent there: "segments A1-A8" for "segments A1-A5", "CD8+ T cells" for "CD4+ T cells" (a
    twenty-first trial; the word diff had joined "A1-A5" to the clause after it). None when the claim has two names
    of that shape (it may list both)."""
    said = {w for w in _NAMED.findall(claim_text)}
    there = {w for w in _NAMED.findall(sent)}
    for w in sorted(said - there):
        shape = _DIGITS.sub("#", w)
        other = [v for v in there - said if _DIGITS.sub("#", v) == shape]
        if len(other) == 1 and not any(_DIGITS.sub("#", v) == shape for v in said - {w}):
            return TagEvidence(w, other[0])
    return None


_NAMED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z-]*\d[\w-]*(?<=\w)|(?<![\w,-])\d+(?:,\d+)+-[A-Za-z][\w-]*(?<=\w)")
"""A name that carries a digit after a letter (*A1-A5*, *CD4*, *HOXA10*, *miR-192*), or a chemical name opening with
its locants (*2,7,8-trimethyl-2*: a 68th trial's "2,5,8-" was *supported*)."""
_DIGITS = re.compile(r"\d+")


ABSENCE = frozenset({"absent", "lacking", "missing", "undetectable", "undetected", "unobserved", "unseen", "nonexistent",
                     "none", "nil", "lost"})
"""Words of absence: one says what a negated word says (*absent* / *not observed*)."""
_NEGATOR = frozenset({"not", "no", "never", "without"})


def negated_alike(a: list[str], b: list[str]) -> bool:
    """``a`` is one word of absence (:data:`ABSENCE`) and ``b`` two or three words opening with a negator (*not
    observed*, *no detectable*): one statement, not two terms ("weak in one monkey and absent in the other" for "...
    not observed in the other", a fourteenth trial's faithful claim a proven swap); whether the source negates at all
    is ``polarity_flip``'s."""
    if len(a) == 1 and a[0].lower() in ABSENCE and 1 < len(b) <= 3 and b[0].lower() in _NEGATOR:
        return True
    # a word negated by its prefix, a preposition after it, for a negator and a word ("TDM was unrelated to" / "treated
    # diabetes was not associated with", a 140th trial's faithful claim a proven swap)
    return (1 <= len(a) <= 2 and len(a[0]) >= 6 and NEGATIVE_PREFIX.match(a[0].lower()) is not None
            and (len(a) == 1 or len(a[1]) <= 4) and 1 < len(b) <= 4 and b[0].lower() in _NEGATOR)


_WRITERS = frozenset({"authors", "author", "researchers", "investigators", "scientists", "team", "they", "their", "the",
                      "study", "paper", "report", "article", "work", "one", "a", "an", "this", "retrospective",
                      "prospective"})
_LABELS = frozenset({"OBJECTIVE", "OBJECTIVES", "AIM", "AIMS", "PURPOSE", "BACKGROUND", "INTRODUCTION", "CONTEXT",
                     "METHODS", "MATERIALS", "MATERIAL", "AND", "RESULTS", "FINDINGS", "CONCLUSION", "CONCLUSIONS"})
"""A structured abstract's section label in capitals, glued to the sentence it heads ("OBJECTIVE We investigated")."""


def names_writers(a: list[str], b: list[str]) -> bool:
    """``a`` names a work's writers in the third person (*the authors*, *the researchers*) where ``b`` is their own
    *we* / *our*: who says it, not another term ("The authors investigated ..." for "We investigated ...", a
    fourteenth trial's swap had stayed unproven beside it; "One retrospective study investigated" for "OBJECTIVE We
    investigated", a 55th trial's, with the abstract's label glued on)."""
    own = {"we", "our", "us"}
    return (bool(a) and all(w.lower() in _WRITERS for w in a)
            and any(w.lower() not in {"the", "they", "their", "one", "a", "an", "this"} for w in a)
            and bool(b) and all(w.lower() in own | _CONNECTIVES or w in _LABELS for w in b)
            and any(w.lower() in own for w in b))


WRITERS_FRAME = frozenset({"we", "here", "that", "find", "found", "show", "showed", "shown", "demonstrate",
                           "demonstrated", "report", "reported", "observe", "observed", "conclude", "concluded"})
"""The writers' frame before what a sentence says (*Here, we find that ...*)."""


NAMING_FRAME = re.compile(r"\b(?:refers?\s+to|referred\s+to\s+as|known\s+as|termed|called|defined\s+as|denotes?)\b",
                          re.I)
"""A naming frame anywhere between two terms: "Re-replication refers to origins initiating more than once within a
single cell-division cycle" for "... each cell-division cycle ... do not initiate more than once, a phenomenon known as
re-replication" (a 179th trial's faithful claim) moves the named thing to the other end, no exchange."""


_CONNECTIVES = frozenset({"furthermore", "moreover", "here", "finally", "additionally", "also", "thus", "therefore",
                          "hence", "together", "however", "first", "second", "then", "next", "lastly", "overall"})
"""Sentence openers before the writers' *we* ("Furthermore, we propose ..." for "The authors propose ...", a
twenty-second trial's faithful claim a proven swap)."""


_SUFFIXES = frozenset("""
s es e y ies ic ics ical ically al ally ial ially ation ations ition itions tion tions sion sions ion ions ity ities
ive ives ively ivity ous ously ise ize ises izes ised ized ising izing isation ization isations izations ing ings ed
er ers or ors ory ories ment ments ness ist ists ism isms ance ances ence ences ant ants ent ents ate ates ated ating
able ible ility ibility ly ary aries a um us i is sis ses tic tics esis icity etic
""".split()) | {""}
"""Word endings a derivation or inflection adds (``immun|ity`` / ``immun|isation``, ``inflammat|ion`` /
``inflammat|ory``): two words alike up to such endings are one term in two forms."""


def derivation(x: str, y: str) -> bool:
    """``x`` and ``y`` (lower case) are one word in two forms: alike for 4+ letters, then each ends in one of
    :data:`_SUFFIXES` (the shared part may hold up to 3 letters of the ending: ``differenti|ation`` /
    ``differenti|al``). ``autoanti|bodies`` / ``autoanti|gens`` and ``phosph|orylation`` / ``phosph|atase``
    share a long opening and are other terms."""
    if x.endswith("ying") and y.endswith("ie"):
        x, y = y, x
    if x.endswith("ie") and y.endswith("ying") and x[:-2] == y[:-4]:
        return True  # *underlie* / *underlying*, *lie* / *lying* (the stems part: a 100th trial's faithful claim)
    p = 0
    while p < min(len(x), len(y)) and x[p] == y[p]:
        p += 1
    for k in range(4):
        if p - k < 4:
            break
        if x[p - k:] in _SUFFIXES and y[p - k:] in _SUFFIXES:
            return True
    return False


def past_shared_parts(x: str, y: str) -> tuple[str, str]:
    """``x`` and ``y`` past the hyphenated parts they open with alike: ``UCP1-enhanced`` / ``UCP1-independent``
    -> ``enhanced`` / ``independent`` (a shared first part is no derivation of one word from the other); and short
    of the parts both end with: ``quality-adjusted`` / ``disability-adjusted`` -> ``quality`` / ``disability`` (the
    shared ``-adjusted`` had made them one spelling of one word; an eighteenth trial's swap was *supported*)."""
    px, py = x.split("-"), y.split("-")
    k = 0
    while k < min(len(px), len(py)) - 1 and px[k].lower() == py[k].lower():
        k += 1
    px, py = px[k:], py[k:]
    while len(px) > 1 and len(py) > 1 and px[-1].lower() == py[-1].lower():
        px, py = px[:-1], py[:-1]
    return "-".join(px), "-".join(py)


_PHRASES = (
    (frozenset(stem(w) for w in "number subjects participants patients individuals people cases".split()),
     frozenset(stem(w) for w in "sample size sizes".split())),
)
"""Word groups that name one thing in other words: "the small number of subjects" / "the small sample sizes" (a
sixteenth trial's faithful claim had been a proven swap)."""


def same_phrase(sa: set[str], sb: set[str]) -> bool:
    """The stems ``sa`` and ``sb`` fall on the two sides of one of :data:`_PHRASES` (all of each, both sides)."""
    return any(sa and sb and ((sa <= x and sb <= y) or (sa <= y and sb <= x)) for x, y in _PHRASES)


_NAME_JOINERS = frozenset({"in", "of", "and", "for", "the", "on", "&"})


def proper_name(words: list[str]) -> bool:
    """``words`` (two to nine) are a proper name: each capitalised but for joiners (*in*, *of*, *and*), two capitalised
    at least ("World Health Organization", "Response Evaluation Criteria in Solid Tumors Recist Group"): one term, so
    one name for another is a swap ("validated by the World Health Organization" for "... by the RECIST Group", a
    seventeenth trial's claim had no tag)."""
    caps = [w for w in words if w[:1].isupper()]
    return 2 <= len(words) <= 9 and len(caps) >= 2 and all(w[:1].isupper() or w.lower() in _NAME_JOINERS for w in words)


_DERIVED = re.compile(r"[a-z]?(?:ation|ition|tion|sion|ment|ness|ity|ing|ed|ly|al|ic|ive|ous|ence|ance|ism|ist|able|ible|"
                      r"ogy|ar|er|or|ate|ize|ise|ies|es)s?")
"""Word endings that make a word of a kind (*-ation*, *-ity*...), not a thing: two words ending alike in one of these
are no siblings."""


def _shared_ending(x: str, y: str) -> int:
    """How many letters ``x`` and ``y`` end alike."""
    n = 0
    while n < min(len(x), len(y)) and x[-1 - n] == y[-1 - n]:
        n += 1
    return n


def siblings(x: str, y: str) -> bool:
    """Two compounds of one head with other first parts: *midgut* / *hindgut*, *lymphocytes* / *monocytes* (the same
    kind of thing, another member of it; a 131st trial's swap, *partial*). The shared ending is four letters or more
    and no mere derivational ending (:data:`_DERIVED`); each word six letters or more, its first part two or more; no
    common verb.

    Args:
        x: one word.
        y: another word.

    Returns:
        True when the two are siblings of one head.
    """
    x, y = x.lower(), y.lower()
    hx, hy = x.rsplit("-", 1), y.rsplit("-", 1)  # one first part, last parts of one kind: whole-genome / whole-exome
    if len(hx) == len(hy) == 2 and hx[0] == hy[0] and any({stem(hx[1]), stem(hy[1])} <= k for k in KINDS):
        return True
    n = _shared_ending(x, y)
    return (n >= 4 and min(len(x), len(y)) >= 6 and min(len(x), len(y)) - n >= 2 and not _DERIVED.fullmatch(x[len(x) - n:])
            and not {x, y} & (VERB_FORMS | REPORTING))  # ("tends" / "binds" end alike too: a 137th trial's faithful claim)


def _other_first_part(x: str, y: str) -> bool:
    """Siblings (:func:`siblings`) whose first parts are three letters or more, neither inside the other: another
    member of a kind, never a spelling ("rosiglitazone" / "pioglitazone", a 141st trial's drug swap had read as one
    word spelt otherwise; "oesophagus" / "esophagus" and "anaemia" / "anemia" stay spellings)."""
    if not siblings(x, y):
        return False
    n = _shared_ending(x, y)
    a, b = x[:len(x) - n], y[:len(y) - n]
    return len(a) >= 3 and len(b) >= 3 and a not in b and b not in a
