"""``scope_inflation``: the claim widens who or what the finding holds for.

Three signals: universal quantifiers the evidence lacks (*all*, *every*,
*always*, *in any population*), a population shift (the evidence is about
animals or cells, the claim about humans or people), and a setting shift
(*in vitro* -> *in vivo*, a subgroup -> everyone). Categories follow the
"overgeneralisation" taxonomy of Peters & Chin-Yee, "Generalization bias in
large language model summarization of scientific research" (R. Soc. Open
Sci. 2025): generic present tense, quantifier widening, population widening.
"""

from __future__ import annotations

import re

from citeproof.text.normalise import WORD_RE, stem
from citeproof.text.sentences import split_sentences
from citeproof.text.stems import STOPWORDS, find_terms, overlap_score, relevant_sentences, stem_opcodes
from citeproof.detectors.cues import OPENERS
from citeproof.detectors.lexicon import WRITERS_FRAME
from citeproof.detectors.pairings import SETTING, WHOLE, degree_widened, frequency_widened, setting_moved
from citeproof.detectors.populations import SPECIES, qualifier_dropped, unstudied
from citeproof.detectors.terms import RESTATE_AT, stated_in
from citeproof.model import Tag, TagEvidence

UNIVERSAL = [
    r"(?<!\bat )all(?!-)",  # not the idiom "not at all", nor "all-cause mortality" (a 39th trial)
    r"every(?:one|body|thing)?", r"always", r"any", r"universal(?:ly)?",
    r"invariabl[ey]", r"without exception", r"regardless of", r"irrespective of", r"across (?:the board|all|every|populations|species|ages)",
    r"in general", r"generally", r"globally", r"worldwide", r"everywhere", r"no matter", r"(?:the )?general population",
    r"(?:all|every|any) (?:\w+ )?(?:patients|people|humans|individuals|populations?|species|cells?|tissues?|subjects|ages?|groups?|countries|settings?|organisms|mammals|adults|children|cancers?|tumou?rs)",
    r"of all (?:ages|kinds|types)", r"in (?:all|every) cases?", r"without (?:any )?exception",
    r"across (?:diverse|different|multiple) \w+",
]
HUMAN = [r"humans", r"in humans?", r"human (?:subjects|patients|participants|volunteers|populations?)",
         r"human(?! immunodeficiency| papilloma| genome| genetics| rights| resources| capital| error)(?=(?-i: [a-z]))", r"people", r"patients?", r"persons?", r"individuals", r"adults?", r"children", r"men", r"women",
         r"subjects", r"participants", r"population", r"in vivo", r"clinical(?:ly)?", r"mankind", r"everyone"]
NON_HUMAN = [r"mice", r"mouse", r"murine", r"rats?", r"rodents?", r"zebrafish", r"drosophila", r"flies", r"yeast",
             r"c\. elegans|caenorhabditis|worms?", r"primates?|monkeys?|macaques?", r"pigs?|porcine", r"dogs?|canine",
             r"in vitro", r"cell lines?", r"cultured", r"cultures?", r"xenograft\w*", r"organoids?", r"ex vivo",
             r"animal(?:s| models?)", r"bacteria\w*", r"e\. coli", r"hela", r"hek\s?293\w*", r"tissue culture"]
BROADER = [r"mammals?|mammalian", r"vertebrates?", r"organisms", r"eukaryot\w+", r"animals?", r"all species"]
"""Classes wider than one species: "Mammalian intestinal L cells" for "Mouse intestinal L cells" (a 25th trial)."""
_PEOPLE_WORDS = r"(?:humans?|people|patients|women|men|children|adults)"
_ANIMAL_WORDS = r"(?:animals|mice|mouse|murine|rats?|rodents?|animal models|macaques?|monkeys?|primates|pigs|dogs)"
BOTH_POPULATIONS = [rf"(?:in )?(?:both )?{_PEOPLE_WORDS} and (?:in )?{_ANIMAL_WORDS}(?: alike)?",
                    rf"(?:in )?(?:both )?{_ANIMAL_WORDS} and (?:in )?{_PEOPLE_WORDS}(?: alike)?",
                    r"across species"]
"""A claim that extends a finding to humans and animals together (it names an animal too, yet still widens): "in mouse
and human embryonic stem cells" for the source's mouse cells (a seventh new user's trial)."""
SUBGROUP = [r"subgroup", r"subset", r"some", r"a (?:small )?(?:number|proportion|fraction|minority) of", r"certain", r"several",
            r"a few", r"(?:in|among) (?:older|younger|elderly|male|female|obese|diabetic|pregnant)", r"only", r"partial(?:ly)?",
            r"most", r"many", r"majority", r"often", r"sometimes", r"frequently", r"occasionally", r"in part"]


def _restated_diffs(claim_text: str, pool: list[str], kinds: tuple[str, ...] = ("replace",), merged: bool = True):
    """``(kind, sentence, claim words, sentence words, i1, i2, j1, j2)`` for each stem-level difference of a ``kinds``
    (``replace``, ``insert``, ``delete``) between the claim's words ``cw[i1:i2]`` and those of a pool sentence restating
    the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content words); with ``merged``, also a delete and an
    insert around one or two words kept, as one replacement."""
    cw = WORD_RE.findall(claim_text)
    for passage in pool:
        for sent in split_sentences(passage):
            if overlap_score(claim_text, sent) < RESTATE_AT:
                continue
            sw = WORD_RE.findall(sent)
            ops = stem_opcodes([w.lower() for w in cw], [w.lower() for w in sw])
            for t, i1, i2, j1, j2 in ops:
                if t in kinds:
                    yield t, sent, cw, sw, i1, i2, j1, j2
            if merged and "replace" in kinds:  # words taken out before a word kept and others put in after it read as one
                # replacement: "in all human cancers" / "in cancer cell lines" (a seventh trial)
                for (t1, i1, _i, j1, _j), (t2, a, b, _c, _d), (t3, _k, i2, _l, j2) in zip(ops, ops[1:], ops[2:]):
                    if {t1, t3} == {"delete", "insert"} and t2 == "equal" and b - a <= 2:
                        yield "replace", sent, cw, sw, i1, i2, j1, j2


def _replacements(claim_text: str, pool: list[str]):
    """``(sentence, claim words, sentence words, i1, i2, j1, j2)`` for each word run of a pool sentence restating the
    claim that stands in the place of claim words ``cw[i1:i2]`` (a stem-level *replace*: :func:`_restated_diffs`)."""
    for _t, *rest in _restated_diffs(claim_text, pool):
        yield tuple(rest)


def _restated_population(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content words) with
    an animal or cell population where the claim has a human one, word for word in its place: "improved insulin
    sensitivity in insulin-resistant patients with type 2 diabetes" against "... in insulin-resistant db/db mice,
    our results suggest ... individuals with type 2 diabetes" (a sentence that names humans elsewhere, which the
    evidence-wide rule cannot read). Found by a new user's trial (2026-12-06). So is a class (:data:`BROADER`) in the
    place of one species (:data:`SPECIES`). Code shows it: 0.9, ``proven``."""
    for sent, cw, sw, i1, i2, j1, j2 in _replacements(claim_text, pool):
        # the first words in the claim's place: the sentence may go on ("db/db mice, our results suggest ...
        # individuals with ...") past the population it names there
        said, there = " ".join(cw[i1:min(i2, i1 + 3)]), " ".join(sw[j1:min(j2, j1 + 3)])
        wider, species = find_terms(said, BROADER), find_terms(there, SPECIES)
        if wider and species and not find_terms(said, SPECIES):
            return Tag("scope_inflation", f"The claim is about {wider[0][0]!r} where the source says {species[0][0]!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(wider[0][0], species[0][0]),), proven=True)
        # the word after the claim's run read with it: *human* names people only before a noun ("Human skin cell
        # proliferation ... was tracked" for "We tracked mouse skin cell proliferation", a 106th trial: *supported*)
        said_on = said + (" " + cw[i2] if i2 < len(cw) and i2 - i1 <= 3 else "")
        if not find_terms(said_on, HUMAN) or find_terms(said, NON_HUMAN):
            continue
        animal = find_terms(there, NON_HUMAN)
        if animal and not find_terms(there, HUMAN):
            human = find_terms(said_on, HUMAN)[0][0]
            return Tag("scope_inflation", f"The claim is about {human!r} where the source says {animal[0][0]!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(human, animal[0][0]),), proven=True)
    return None


_ALL = frozenset({"all", "every", "any", "each"})
_WHATEVER = frozenset({"regardless", "irrespective", "no"})  # regardless of, irrespective of, no matter
_RESTRICTED = re.compile(r"(?:selected|some|certain|specific|particular|eligible|several|most|many|few|a few|various|"
                         r"diverse|numerous|a (?:small |wide |broad )?(?:subset|subgroup|minority|proportion|fraction|"
                         r"number|variety|range) of)\b", re.I)
"""Words that open a restricted group in the restating sentence (*selected recipients*, *some patients*, *a variety
of bacteria*: "in every bacterial species", a 58th trial)."""


_ANY_KIND = re.compile(r"\b(?:any|all|every)\s+(?:(?:types?|kinds?|forms?|classes|class)\s+of\s+)?(?P<noun>[a-z][\w-]+)", re.I)
_REGARDLESS = re.compile(r"\b(?:regardless|irrespective)\s+of\s+(?:the\s+|their\s+|its\s+)?(?P<noun>[a-z][\w-]+)", re.I)
_ALL_AGES = re.compile(r"\b(?:of|at|across|in) (?:all|any|every) ages?\b", re.I)
_AGED = re.compile(r"\b(?:elderly|older|younger|middle-aged|aged \d+|adolescents?|children|infants|neonates|"
                   r"\d+\s*(?:-|to)\s*\d+\s*years)\b", re.I)
_CUT = r"(?:less|lower|greater|more|higher|fewer)\s+than|below|above|under|over|between|<|>|≤|≥|of\s+\d"


def _condition_dropped(claim_text: str, pool: list[str]) -> Tag | None:
    """The claim's *any type of X* or *regardless of X* where a sentence restating it names one type (*type 2
    diabetes*: a 24th trial's "patients with any type of diabetes") or holds X to a range ("When triglycerides were
    less than 2.0 g/L, greater than 90% ... were acceptable" for "Regardless of triglyceride concentration, ...", a
    26th); so is *of all ages* where it names an age group ("in elderly hypertensive patients" for "in hypertensive
    patients of all ages", a 32nd). Code shows it: 0.9, ``proven``."""
    for m in _ALL_AGES.finditer(claim_text):
        for sent in (x for passage in pool for x in split_sentences(passage)):
            if overlap_score(claim_text, sent) >= RESTATE_AT and not _ALL_AGES.search(sent) and (
                    there := _AGED.search(sent)) and not _AGED.search(claim_text):
                return Tag("scope_inflation", f"The claim says {m.group(0)!r} where the source says {there.group(0)!r}: "
                           f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(m.group(0), there.group(0)),), proven=True)
    for pattern, label in ((_ANY_KIND, True), (_REGARDLESS, False)):
        for m in pattern.finditer(claim_text):
            noun = re.escape(stem(m.group("noun").lower()))
            for sent in (x for passage in pool for x in split_sentences(passage)):
                if overlap_score(claim_text, sent) < RESTATE_AT or pattern.search(sent):
                    continue
                if label:
                    there = re.search(rf"\b(?:type|class|stage|grade|phase|group)\s+(?:\d+[a-z]?|[IVX]+)\s+{noun}\w*", sent, re.I)
                else:
                    there = re.search(rf"\b(?:when|where|if|at|for|with|in|among)\s+(?:\w+\s+){{0,2}}?{noun}\w*"
                                      rf"(?:\s+[\w-]+){{0,3}}?\s+(?:{_CUT})\s*[\d.]+(?:\s*[-–]\s*[\d.]+)?(?:\s*[^\s,;]+)?", sent, re.I)
                if there:
                    return Tag("scope_inflation", f"The claim says {m.group(0)!r} where the source says "
                               f"{there.group(0)!r}: \u201c{sent[:200]}\u201d", 0.9,
                               (TagEvidence(m.group(0), there.group(0)),), proven=True)
    return None


_QUALIFYING = frozenset({"with", "without", "who", "whose", "aged", "having", "undergoing", "receiving", "treated"})


def _qualifies(cw: list[str], sw: list[str], k: int, i2: int, j1: int, j2: int) -> bool:
    """The sentence's words ``sw[j1:j2]``, in the place of the claim's *all* run ``cw[k:i2]``, narrow the claim's
    group: one or two words of their own (no name in capitals) before the noun both go on with (*all individuals* /
    *HIV-infected individuals*), or the claim's last noun followed by a qualifier (*all cardiac patients* / *patients
    with previous myocardial infarction*)."""
    run = sw[j1:j2]
    if not run or any(w.isupper() or w[:1].isdigit() for w in run):
        return False
    claim_stems = {stem(w.lower()) for w in cw}
    own = [w for w in run if len(w) >= 3 and w.lower() not in STOPWORDS and stem(w.lower()) not in claim_stems]
    if (i2 - k == 1 and 1 <= len(run) <= 2 and len(own) == len(run) and i2 < len(cw) and j2 < len(sw)
            and stem(cw[i2].lower()) == stem(sw[j2].lower())):
        return True
    if (i2 - k == 1 and run[0].lower() in ("these", "those", "such") and 2 <= len(run) <= 4 and own
            and i2 < len(cw) and j2 < len(sw) and stem(cw[i2].lower()) == stem(sw[j2].lower())):
        return True  # "All hypnotics" for "These doses of common hypnotics" (a 35th trial)
    return (i2 - k >= 2 and len(run) >= 3 and stem(run[0].lower()) == stem(cw[i2 - 1].lower())
            and run[1].lower() in _QUALIFYING and bool(own))


def _restated_quantifier(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim (:data:`~citeproof.detectors.terms.RESTATE_AT` of its content words)
    with a restricted group where the claim says *all*, *every*, *any* or *each*, word for word in its place: "NIV
    should be considered in the treatment of all patients with acute respiratory failure" against "... should
    consider NIV in the treatment of selected recipients of transplantation with acute respiratory failure" (a new
    user's trial, issue 28). Code shows it: 0.9, ``proven``."""
    if not _ALL.intersection(w.lower() for w in WORD_RE.findall(claim_text)):
        return None
    for sent, cw, sw, i1, i2, j1, j2 in _replacements(claim_text, pool):
        there = " ".join(sw[j1:j2])
        # *all* may stand inside the run: "that holds for all types of mammalian stem cells" for "in mouse embryonic
        # stem cells" (a twenty-second trial: *partial*)
        k = next((k for k in range(i1, i2) if cw[k].lower() in _ALL), i1)
        # (or a kind word later in the run: "in every mammalian cell type" for "by activated macrophage cells", 59th)
        kinds = (i2 - k >= 3 and cw[k + 1].lower() in _KINDS_OF or any(w.lower() in _KIND for w in cw[k + 2:i2 + 2])) \
            and not find_terms(there, UNIVERSAL)
        # or a word of the sentence's own in its place qualifies the group: "in all individuals with chronic viral
        # infections" for "in HIV-infected individuals", "in all cardiac patients" for "in patients with previous
        # myocardial infarction" (a 29th and a 28th trial)
        qualified = not find_terms(there, UNIVERSAL) and _qualifies(cw, sw, k, i2, j1, j2)
        # (a connective before the restricting word: "However, most studies" for "All studies", a 42nd trial)
        restricted = _RESTRICTED.match(there) or (j2 - j1 == 2 and sw[j1].lower() in OPENERS
                                                   and _RESTRICTED.fullmatch(sw[j2 - 1]))
        if cw[k].lower() in _ALL and (restricted or kinds or qualified):
            # "all types of physical activity" where the source says "sports" (an eighth trial) widens as well
            said = " ".join(cw[k:i2])
            return Tag("scope_inflation", f"The claim says {said!r} where the source says {there!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, there),), proven=True)
    return _not_all(claim_text, pool)


_OTHER_POPULATION = re.compile(r"(?:and|or|&)\s+(?:(?:non-?human|other)\s+)?(?:animals?|mice|mouse|murine|rats?|rodents?|"
                               r"primates?|monkeys?|bovine|porcine|canine|pigs?|dogs?|human|humans|patients)", re.I)


def _added_population(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim for one population where the claim adds another beside it: "from human and
    animal serum" for "from human serum" (a thirteenth trial), "in mouse and human cells" for "in mouse cells". Code
    shows it: the claim's added words stand between words the sentence has alike. 0.9, ``proven``."""
    for _t, sent, cw, _sw, i1, i2, _j1, _j2 in _restated_diffs(claim_text, pool, ("delete",)):
        added = " ".join(cw[i1:i2])
        both = find_terms(added, BOTH_POPULATIONS)
        if both and i2 - i1 <= 6 and not find_terms(sent, HUMAN):
            # "drug levels in both macaques and women" for a sentence about the macaques alone (a 17th trial)
            return Tag("scope_inflation", f"The claim adds {both[0][0]!r} to what the source says: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(both[0][0], ""),), proven=True)
        if 0 < i1 and i2 < len(cw) and i2 - i1 <= 3 and _OTHER_POPULATION.fullmatch(added):
            said = f"{cw[i1 - 1]} {added}"
            return Tag("scope_inflation", f"The claim says {said!r} where the source says {cw[i1 - 1]!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, cw[i1 - 1]),), proven=True)
    return None


def _added_coordinate(claim_text: str, pool: list[str], source_text: str) -> Tag | None:
    """A pool sentence restating the claim for one group where the claim joins another to it inside the same phrase,
    a group the source names nowhere: "1,682,441 singleton and twin children" for "1,682,441 singleton children" (an
    eighteenth trial: *supported*). The claim's added *and W* (or *W and*, W one or two content words) stands between
    two words the sentence has side by side, the second a content word. Code shows it: 0.9, ``proven``."""
    for _t, sent, cw, sw, i1, i2, j1, _j2 in _restated_diffs(claim_text, pool, ("delete",)):
        added = [w.lower() for w in cw[i1:i2]]
        if not (0 < i1 and i2 < len(cw) and 0 < j1 < len(sw) and 2 <= len(added) <= 4
                and "and" in (added[0], added[-1])):
            continue
        words = [w for w in (added[1:] if added[0] == "and" else added[:-1]) if w != "both"]  # "both daytime and
        # nighttime short-term BP variability" for "nighttime short-term BP variability" (a 186th trial: *partial*)
        if (not words or not all(len(w) >= 3 and w not in STOPWORDS and w != "and" for w in words)
                or not _content(cw[i2]) or sw[j1 - 1].lower() != cw[i1 - 1].lower() or sw[j1].lower() != cw[i2].lower()
                or any(stated_in([w], source_text) for w in words)):
            continue
        said = " ".join(cw[i1 - 1:i2 + 1]) if added[0] == "and" else " ".join(cw[i1:i2 + 1])
        there = f"{sw[j1 - 1]} {sw[j1]}"
        return Tag("scope_inflation", f"The claim says {said!r} where the source says {there!r} and names no "
                   f"{' '.join(words)!r} anywhere: \u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, there),), proven=True)
    return None


def _content(w: str) -> bool:
    return len(w) >= 3 and w.lower() not in STOPWORDS


_FRAME_WORDS = WRITERS_FRAME | frozenset({"thus", "therefore", "importantly", "furthermore", "moreover", "together",
                                          "overall", "these", "data", "results", "our", "indicate"})
"""The writers' frame before what a sentence finds (*Here, we find that*)."""
_KINDS_OF = frozenset({"types", "kinds", "forms", "sorts", "classes", "categories", "varieties"})
_KIND = frozenset({"type", "kind", "sort", "class", "category", "variety"}) | _KINDS_OF
_NOT_ALL = re.compile(r"(?:\b(?:many|most|some|several|nearly|almost)\s+(?:but\s+)?)?\bnot\s*$", re.I)


def _not_all(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim that says *not all* (*many but not all*, *most but not all*) where the claim
    says *all*, every other word alike around it: "apoptosis in all cell types" against "apoptosis in many but not all
    cell types" (an eighth trial: the source's own *all* hid the widening). Code shows it: 0.9, ``proven``."""
    for t, sent, cw, sw, i1, i2, j1, j2 in _restated_diffs(claim_text, pool, ("insert", "delete", "replace"), merged=False):
        if t == "insert" and i1 < len(cw) and cw[i1].lower() == "all" and _NOT_ALL.search(" ".join(sw[j1:j2])):
            there = " ".join(sw[j1:j2] + ["all"])
            return Tag("scope_inflation", f"The claim says 'all' where the source says {there!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence("all", there),), proven=True)
        added = " ".join(cw[i1:i2])
        framed = t == "replace" and i1 == 0 and all(w.lower() in _FRAME_WORDS for w in sw[j1:j2])  # "In every T cell
        # subset, IS formation ..." for "Here, we find that IS formation ..." (a 66th trial)
        m = _ADDED_SCOPE.search(added) if (t == "delete" or framed) and i2 - i1 <= 8 else None
        if (m is not None and m.group("what").lower() not in _IDIOM and not find_terms(sent, UNIVERSAL)
                and (m.start() == 0 or stated_in(_words_outside(added, m), " ".join(pool)))
                and overlap_score(" ".join(cw[:i1] + cw[i2:]), sent) >= 0.9):
            # the claim adds "in every tumour type" to the sentence it restates (a tenth trial), or "with cancer at any
            # stage" (a fourteenth: the source says "advanced or metastatic cancers" elsewhere)
            said = added if m.start() == 0 else m.group(0)
            return Tag("scope_inflation", f"The claim adds {said!r} to what the source says: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, ""),), proven=True)
    return None


def _named_widened(claim_text: str, pool: list[str], source_text: str = "") -> Tag | None:
    """A pool sentence restating the claim about one named kind (*The Arabidopsis genome*) where the claim has *all*
    of a wider kind instead (*The genomes of all flowering plants*, a fourteenth trial's claim ended *partial*): the
    claim leaves out a capitalised name the sentence holds (not its first word) and adds a run with *all*, *every*
    or *each*; what else the claim says, the sentence says (:data:`~citeproof.detectors.terms.RESTATE_AT`). Code
    shows it: 0.9, ``proven``."""
    by_sent: dict[str, list] = {}
    for t, sent, cw, sw, i1, i2, j1, j2 in _restated_diffs(claim_text, pool, ("insert", "delete", "replace"), merged=False):
        if (t, i1, i2, j1, j2) not in [d[:1] + d[3:] for d in by_sent.get(sent, [])]:  # a sentence in two passages
            by_sent.setdefault(sent, []).append((t, cw, sw, i1, i2, j1, j2))
    for sent, diffs in by_sent.items():
        cw = diffs[0][1]
        lower = {w.lower() for w in cw}
        wide = [" ".join(cw[i1:i2]) for t, cw, sw, i1, i2, j1, j2 in diffs
                if t in ("delete", "replace") and _ALL.intersection(w.lower() for w in cw[i1:i2]) - {"any"}]
        names = [w for t, cw, sw, i1, i2, j1, j2 in diffs if t in ("insert", "replace")
                 for k, w in enumerate(sw[j1:j2], j1) if k > 0 and w[:1].isupper() and w[1:].islower()
                 and len(w) >= 4 and w.lower() not in lower and w.lower() not in _MONTHS]
        if len(wide) == 1 and names and len(diffs) <= 3 and not _says_all_too(wide[0], claim_text, source_text):
            return Tag("scope_inflation", f"The claim says {wide[0]!r} where the source names {names[0]!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(wide[0], names[0]),), proven=True)
    return None


def _says_all_too(wide: str, claim_text: str, source_text: str) -> bool:
    """The source says the claim's *all* (or *every*, *each*) of the same head noun somewhere ("68.9% of all articles"
    on its page 7 for a claim's "68.9% of all scholarly articles", whose page 2 says "of the 81.6 million scholarly
    articles registered with Crossref"); *the total* counts as *all* ("5.6% and 9.3% of all alleles" for "of the
    total alleles", an 89th trial)."""
    m = re.search(rf"\b{re.escape(wide)}\s+((?:[\w-]+\s+){{0,2}}?)(?P<head>[\w-]+?)s?\b(?=\s*(?:[,.;:)]|$|\s(?:in|of|"
                  r"that|which|with|from|to|for|and|are|is|were|was|have|has)\b))", claim_text, re.I)
    first = wide.split()[0].lower()
    said = "all|total|entire|whole" if first == "all" else re.escape(first)
    return bool(m and source_text and re.search(rf"\b(?:{said})\s+(?:[\w-]+\s+){{0,2}}?"
                                                rf"{re.escape(m.group('head'))}", source_text, re.I))


_MONTHS = frozenset("january february march april may june july august september october november december".split())
"""A month names a date, not a kind ("as of March 2017, Sci-Hub's database contains 68.9% of the 81.6 million
scholarly articles" read as *all* articles for *March*'s)."""
_IDIOM = frozenset({"case", "cases", "rate", "event", "cost", "moment", "way"})
"""*in any case*, *at any rate*, *in every way*: no group widened."""


def _words_outside(text: str, m: re.Match) -> list[str]:
    """The content words of ``text`` outside the match ``m``."""
    return [w for w in WORD_RE.findall(text[:m.start()] + " " + text[m.end():]) if len(w) >= 3 and w.lower() not in STOPWORDS]


_ADDED_SCOPE = re.compile(r"\b(?:in|across|for|among|to|at)\s+(?:all|every|any|each)\s+(?P<what>[\w-]+)", re.I)
"""A phrase the claim adds that gives the finding to every member of a kind (*in every tumour type*, *across all
species*)."""


_GENERIC = frozenset({"patients", "people", "individuals", "participants", "subjects", "persons", "adults", "everyone",
                      "population", "humans"})
_PART = re.compile(r"\b(?:women|men|females?|males?|girls|boys|children|adolescents|infants|elderly|older|younger|"
                   r"smokers|non-?smokers|pregnant|postmenopausal|premenopausal)\b", re.I)
_SINGLED_OUT = re.compile(r"\b(?:but not|not in|not among|only|whereas|while|except)\b", re.I)


def _restated_subgroup(claim_text: str, pool: list[str]) -> Tag | None:
    """A pool sentence restating the claim whose finding holds for one group only, the claim giving it to everyone:
    "an increased risk of death from any cause among patients with heart failure" against "... among women, but not
    men, with heart failure" (a new user's trial, issue 28). Word for word in the claim's place, the claim has a
    general population word (:data:`_GENERIC`) and the sentence a group (:data:`_PART`) singled out against
    another (*but not*, *only*, *whereas*). Code shows it: 0.9, ``proven``."""
    if not _GENERIC.intersection(w.lower() for w in WORD_RE.findall(claim_text)):
        return None
    for sent, cw, sw, i1, i2, j1, j2 in _replacements(claim_text, pool):
        said, there = " ".join(cw[i1:i2]), " ".join(sw[j1:j2])
        if (i2 - i1 <= 3 and j2 - j1 <= 8 and _GENERIC.intersection(w.lower() for w in cw[i1:i2])
                and not _PART.search(said) and _PART.search(there) and _SINGLED_OUT.search(there)):
            return Tag("scope_inflation", f"The claim says {said!r} where the source says {there!r}: "
                       f"\u201c{sent[:200]}\u201d", 0.9, (TagEvidence(said, there),), proven=True)
    return None


_PLACE_UNIVERSAL = re.compile(r"\b(?:worldwide|world-wide|globally|across the (?:globe|world)|everywhere|universally|"
                              r"in (?:all|every) countr(?:y|ies))\b", re.I)
_CONTINENT_WIDE = re.compile(r"\b(?:across|throughout|all over|in all|in every)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?"
                             r"(?:(?:regions?|countries|nations|parts|areas)\s+of\s+)?(?:the\s+)?(?P<place>Africa|Asia|"
                             r"Europe|(?:North|South|Latin|Central)\s+America|the\s+Americas|Oceania|sub-Saharan\s+Africa)\b",
                             re.I)
"""A claim spread over a continent (*across the trachoma-endemic regions of Africa*, *throughout Europe*)."""
_WORLD = re.compile(r"\b(?:world\w*|global\w*|countries|international\w*|universal\w*|everywhere|pandemic)\b", re.I)


def _worldwide(claim_text: str, source_text: str) -> Tag | None:
    """A claim made about the whole world (*worldwide*, *globally*, *in all countries*) citing a source that never
    names a scope past its own study (no *world*, *global*, *international*, *countries* in all of it): "Members of
    Oceanospirillales recruit less than 2% of the assembled genes in natural marine oil seep metagenomes worldwide"
    for one seep's metagenome (a fifth new user's trial, 2026-12-06). Of the 1,736 faithful SciFact and
    Citation-Integrity training citations, 34 say such a word and 1 cites a source without one. Code shows it:
    confidence 0.9, ``proven``."""
    m = _PLACE_UNIVERSAL.search(claim_text)
    if m is None or not source_text or _WORLD.search(source_text):
        return None
    return Tag("scope_inflation", f"The claim says {m.group(0)!r}; the source names no scope past its own study (no "
               "'world', 'global', 'international' or 'countries' anywhere in it).", 0.9,
               (TagEvidence(m.group(0), ""),), proven=True)


def _continent_wide(claim_text: str, source_text: str) -> Tag | None:
    """A claim spread over a continent (:data:`_CONTINENT_WIDE`) citing a source that names neither that continent nor
    any scope past its own study (:data:`_WORLD`): "Across the trachoma-endemic regions of Africa, human faeces are
    the best larval medium" for a study in one Gambian village (a nineteenth trial: *partial*). Code shows it:
    confidence 0.9, ``proven``."""
    wide = _CONTINENT_WIDE.search(claim_text)
    if wide is None or not source_text or _WORLD.search(source_text) or re.search(
            rf"\b{re.escape(wide.group('place'))}", source_text, re.I):
        return None
    return Tag("scope_inflation", f"The claim says {wide.group(0)!r}; the source names no {wide.group('place')!r} "
               "anywhere and no scope past its own study.", 0.9, (TagEvidence(wide.group(0), ""),), proven=True)


def detect_scope_inflation(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``scope_inflation`` when the claim generalises beyond the evidence.

    Fires on (a) a universal quantifier in the claim that the evidence does
    not use (0.8; 0.9 when the evidence restricts with *some*, *subgroup*,
    *most*...), or (b) a claim about humans/in vivo where the evidence is
    only about animals, cells or in vitro work (0.85), also when the claim
    names both (*in humans and animals alike*).

    Args:
        claim_text: the claim, citation markup removed.
        evidence_text: the best evidence passage, or None (then nothing fires).
        **context: ``source_text`` (str), optional: the source sentences nearest the claim are read for
            (c) a human population in the place of the restating sentence's animals or cells
            (:func:`_restated_population`, 0.9, proven) and (d) *all*, *every*, *any* in the place of the
            restating sentence's restricted group (*selected recipients*: :func:`_restated_quantifier`, 0.9,
            proven), and (e) a general population word in the place of a group the sentence singles out
            (*patients* for *women, but not men*: :func:`_restated_subgroup`, 0.9, proven).

    Returns:
        ``[]`` or one tag.
    """
    if not evidence_text:
        return []
    ev_univ = {t[0].lower() for t in find_terms(evidence_text, UNIVERSAL)}
    ev_first = {u.split()[0] for u in ev_univ}
    if ev_first & _ALL:
        ev_first |= _ALL  # all, every, any, each: one quantifier ("in every tissue" for "in any of the tissues", an eighth trial)
    if ev_first & _WHATEVER:
        ev_first |= _WHATEVER  # "irrespective of smoking status" for "regardless of cigarette-smoking history" (39th)
    claim_univ = [t for t in find_terms(claim_text, UNIVERSAL)
                  if t[0].lower() not in ev_univ and t[0].lower().split()[0] not in ev_first]
    if not claim_univ:  # the claim says *all* more often than the evidence ("all 3 markers, all of whom" for "all 3
        # markers, most of whom", a 43rd trial)
        said = [t for t in find_terms(claim_text, UNIVERSAL) if t[0].lower() in _ALL]
        if len(said) > len([t for t in find_terms(evidence_text, UNIVERSAL) if t[0].lower() in _ALL]):
            claim_univ = said
    # population shift
    c_h = find_terms(claim_text, HUMAN)
    e_h = find_terms(evidence_text, HUMAN)
    c_nh = find_terms(claim_text, NON_HUMAN)
    e_nh = find_terms(evidence_text, NON_HUMAN)
    both = bool(find_terms(claim_text, BOTH_POPULATIONS))  # "in humans and animals alike" widens an animal finding too
    if c_h and (both or not c_nh) and e_nh and not e_h:
        return [Tag("scope_inflation",
                    f"The claim is about {c_h[0][0]!r} but the evidence is about {e_nh[0][0]!r}.", 0.85,
                    (TagEvidence(c_h[0][0], e_nh[0][0]),), proven=True)]
    source_text = context.get("source_text") or ""
    found = unstudied(claim_text, source_text or evidence_text) or _continent_wide(claim_text, source_text or evidence_text)
    if found is None and SETTING.search(claim_text):
        found = setting_moved(claim_text, [evidence_text, *relevant_sentences(claim_text, source_text, k=3)],
                                  source_text or evidence_text)
    if found is None and WHOLE.search(claim_text):
        found = degree_widened(claim_text, [evidence_text, *relevant_sentences(claim_text, source_text, k=3)],
                                   source_text or evidence_text)
    if found is not None:
        return [found]
    pool = [evidence_text]
    if (c_h and e_nh) or claim_univ or _GENERIC.intersection(w.lower() for w in WORD_RE.findall(claim_text)):
        pool += [s for s in relevant_sentences(claim_text, source_text, k=3, floor=0.35) if s != evidence_text]
    subgroup = _restated_subgroup(claim_text, pool) or qualifier_dropped(claim_text, pool)
    if subgroup is not None:
        return [subgroup]
    if ((_OTHER_POPULATION.search(claim_text) or find_terms(claim_text, BOTH_POPULATIONS))
            and (added := _added_population(claim_text, pool)) is not None):
        return [added]
    if re.search(r"\band\b", claim_text) and (added := _added_coordinate(
            claim_text, pool + relevant_sentences(claim_text, source_text, k=3, floor=0.35), source_text)) is not None:
        return [added]
    if (c_h and e_nh) or (find_terms(claim_text, BROADER) and find_terms(evidence_text, SPECIES)):
        restated = _restated_population(claim_text, pool)
        if restated is not None:
            return [restated]
    if not claim_univ and re.search(r"\ball\b", claim_text, re.I) and re.search(r"\bnot all\b", evidence_text, re.I):
        restated = _not_all(claim_text, pool)  # the evidence's own "all" is in "not all"
        if restated is not None:
            return [restated]
    if claim_univ:
        restated = (_restated_quantifier(claim_text, pool) or frequency_widened(claim_text, pool)
                    or _named_widened(claim_text, pool, source_text)
                    or _condition_dropped(claim_text, pool)
                    or _worldwide(claim_text, source_text or evidence_text))
        if restated is not None:
            return [restated]
        restr = find_terms(evidence_text, SUBGROUP)
        conf = 0.9 if restr else 0.8
        ev = restr[0][0] if restr else ""
        return [Tag("scope_inflation",
                    f"The claim generalises with {claim_univ[0][0]!r}, which the evidence does not"
                    + (f" (it says {ev!r})." if ev else "."), conf, (TagEvidence(claim_univ[0][0], ev),))]
    return []
