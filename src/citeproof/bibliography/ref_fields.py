"""One printed reference entry -> its fields, in whatever common style it was printed.

The styles read (measured per style by ``citeproof eval references``):
numeric IEEE (``A. B. Family, “Title,” Journal, vol. 1, ...``), Vancouver
(``Family AB, Family C. Title. Journal 2016; 17: 23–32.``), Nature (``Family,
A. B. & Family, C. Title. Journal 17, 23–32 (2016).``), ACS (``Family, A. B.;
Family, C. Title. Journal 2016, 17 (1), 23–32.``), AIP/APS (``A. B. Family,
Title, Journal 17, 23 (2016).``), author-year APA/Harvard (``Family, A. B., &
Family, C. (2016). Title. Journal, 17(1), 23–32.``), Chicago/ASA (``Family,
Given, and Given M. Family. 2016. “Title.” Journal 17 (1): 23–32.``), LNCS
(``Family, A.B., Family, C.: Title. In: Venue. (2016).``) and ACM (``Given M
Family and Given Family. 2016. Title. Journal 17, 1 (2016), 23–32.``).

How (our own rules; no kept library parses printed references without a
Java service or a trained model): identifiers first (a DOI broken across a
line end is joined, one glued to a following ``PMID:`` is cut there), then the
author list is read as a chain of names in one form (``A. B. Family``,
``Family, A. B.``, ``Family AB``, ``Given M. Family``, ``Family, Given``),
ending where the next text is no name of that form; the year is the one right
after the authors when the style puts it there, else the one in parentheses,
else the last; the title is a quoted span, else the text up to the first
sentence end (``.``, ``?``, ``!`` kept), a parenthesised publisher or a ``;``;
the container follows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RefFields", "parse_fields", "find_doi", "volume_pages", "full_pages", "list_form"]

_YEAR = r"(?:1[89]|20)\d\d"
_LATEST = __import__("datetime").date.today().year + 1  # no work is printed as published later
_UP = "A-Z\u00c0-\u00de\u0100-\u017f"
_LOW = "a-z\u00df-\u00ff\u0100-\u017f"
_PART = r"(?:(?:van|von|de|der|den|del|della|da|di|du|dos|das|le|la|ter|ten|St\.|Van|Von|De|Da|Di|Du|Dos|Le|La)\s+)"
_FAM1 = rf"(?:[{_UP}][{_LOW}'’´`\u0300-\u036f]+(?:[{_UP}][{_LOW}'’´`\u0300-\u036f]*)*(?:-[{_UP}]?[{_LOW}'’´`\u0300-\u036f]+(?:[{_UP}][{_LOW}]+)*)*|O[’']\s?[{_UP}][{_LOW}]+|[{_LOW}]+[{_UP}]+[{_LOW}]*)"
_FAM = rf"{_PART}*{_FAM1}"
_GIVEN = rf"(?!(?:The|An?|On|In|Of|For|To|And|With|From|Towards?|Why|How|What|When|Is|Are|Do|Does|Can|Open|New|Deep|Data)(?![\w-]))[{_UP}][{_LOW}\u0300-\u036f]+(?:-[{_UP}]?[{_LOW}]+)?"
_ABBR_GIVEN = rf"[{_UP}][a-z]{{1,4}}\.\s?(?=[{_UP}]\.)"  # Chr. / Wm. / Chris. before an initial: Chris. H. J. Hartgerink
_INITS = rf"(?:{_ABBR_GIVEN})?[{_UP}]\.(?:\s?-?\s?[{_UP}](?:\.|(?=\s))|-[a-z]\.)*"  # A. | A.B. | A. B | P.-M. | H.-H.H.
_SEP = r"(?:\s*,?\s*…\s*|\s*,\s*(?:and\s+|&\s*)?|\s*;\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*)"
_ETAL = r"(?:,?\s*(?:et\s+al\.?|and\s+[Oo]thers\b))"
_EDS = r"(?:,?\s*\(?(?:eds?\.?|Eds?\.?|editors?|Hrsg\.)\)?,?)(?=[\s:.,;]|$)"

_SUFFIX = r"(?:,?\s(?:Jr\.?|Sr\.?|II|III|IV)(?=[\s,.]))?"  # E. Andrade, II / W. Williamson Jr.
_IF = rf"{_INITS}\s?{_FAM}(?:\s{_FAM1}(?=\s*(?:,|and\b|&|\.|:|$)))?{_SUFFIX}"  # A. B. Family
_INITS_STRICT = rf"(?:{_ABBR_GIVEN}[{_UP}]\.|[{_UP}][a-z]?\.)(?:\s?-?\s?[{_UP}]\.)*"
_FI = rf"{_FAM}(?:\s{_FAM1}){{0,2}},\s?{_INITS_STRICT}(?:\s(?:van|von|de|der|da|du|dos)\b(?:\s[{_UP}]\.)?)?"  # Family, A. B. / Heeringen, S. J. van
_FC = rf"{_FAM}(?:\s{_FAM})?\s[{_UP}]{{1,4}}(?:-[{_UP}]{{1,3}})?(?:\s(?:de|van|von|da|du|der))?(?!\w)"  # Family AB
_GF = (rf"(?:{_ABBR_GIVEN}[{_UP}]\.|{_GIVEN}|[{_UP}]{{1,2}}\.?|[{_UP}]-[{_UP}])(?:\s{_GIVEN}){{0,2}}(?:\s(?:[{_UP}]\.|[{_UP}]{{1,2}}(?=\s))){{0,2}}\s{_FAM}"
       rf"(?:\s{_FAM1}(?=\s*(?:,|and\b|&|\.|$)))?")  # Given M. Family, C Titus Brown
_FG = rf"{_FAM},\s{_GIVEN}(?:\s(?:[{_UP}](?:\.|(?=[\s,]))|{_GIVEN})){{0,2}}"  # Family, Given M.

# name forms: (first name, later names)
_FORMS: dict[str, tuple[str, str]] = {
    "init_first": (_IF, _IF),
    "family_init": (_FI, _FI),
    "family_init_inverted": (_FI, rf"(?:{_IF}|{_GF})"),  # Chicago: Family, A., B. Family
    "family_caps": (_FC, _FC),
    "given_family": (_GF, _GF),
    "family_given": (_FG, rf"(?:{_GF}|{_IF})"),
    "family_given_all": (_FG, _FG),  # APA with full names: Baumgartner, Emma, & Devescovi, Antonella
    "family_init_given": (rf"{_FAM},\s[{_UP}]\.\s{_GIVEN}(?=\.?\s*\(?{_YEAR})", r"(?!)"),  # Brown, C. Titus. 2017.
    "family_et_al": (rf"{_FAM}(?=,?\s*et\s+al\b)", r"(?!)"),  # astronomy: Mainzer et al. 2011
}
_FORM_RE = {k: (re.compile(a), re.compile(_SEP + "(" + b + ")")) for k, (a, b) in _FORMS.items()}
_AFTER_AUTHORS = re.compile(rf"^\s*(?:[.,;]|:(?=\s|$)|\(|\[|$|“|\"|{_YEAR}|[A-Z]{{2,}}\s\d)")

DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(r"(?:arXiv:\s*|arxiv\.org/(?:abs|pdf)/)((?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7})|(?:\d{4}\.\d{4,5}))(?:v\d+)?", re.I)
_URL_RE = re.compile(r"https?://[^\s<>\"]+")
_PMID_RE = re.compile(r"(?<![A-Za-z])PMID:?\s*(\d{5,9})\b")


@dataclass
class RefFields:
    """The fields of one printed entry ('' where not found).

    Attributes:
        authors_text: the author list as printed; ``names`` its family names
            (``et al.`` last when printed); ``title``, ``year`` (with a
            letter, ``2014a``), ``container``, ``volume``, ``pages`` (first
            and last page joined by ``-``), ``doi`` (lower case), ``arxiv``,
            ``pmid``, ``url``; ``same_authors``: the entry opens with a
            repeated-author dash (``———.``), its authors those of the entry
            before (``names`` is empty).
    """

    authors_text: str = ""
    names: tuple[str, ...] = ()
    title: str = ""
    year: str = ""
    container: str = ""
    volume: str = ""
    pages: str = ""
    doi: str = ""
    arxiv: str = ""
    pmid: str = ""
    url: str = ""
    same_authors: bool = False


# a DOI, joined back across a line break; never across ". 2013." (a year after the DOI's full stop)
_DOI_BROKEN = rf"\b(10\.\d{{4,9}}/\S*(?:(?:(?<=/)\s[0-9A-Za-z]|(?<=[.\-_])\s(?!{_YEAR}[a-z]?[.,;]?(?:\s|$))(?-i:[0-9a-z]))[\w.\-/()]*)?)"


def find_doi(text: str) -> str:
    """The first DOI printed in ``text`` (lower case), '' if none.

    A DOI a line break split (``10.1103/PhysRevLett.116.`` + ``061102``,
    joined with a space) is joined back after a ``/`` (the suffix is never
    empty), and after a ``.``/``-``/``_`` when the next part starts with a
    digit or a lower-case letter; one glued to a
    following ``PMID:``/``PMCID:``/``arXiv:`` is cut there; trailing
    punctuation is dropped. A year after the DOI's closing full stop
    (``doi: 10.1044/2013_JSLHR-S-12-0345. 2013.``) is not joined.
    """
    m = re.search(_DOI_BROKEN, text, re.I)
    if not m:
        return ""
    doi = re.sub(r"\s", "", m.group(1))
    doi = re.split(r"(?i)(?:PMID|PMCID|arXiv|https?)[:/]", doi)[0]
    doi = re.sub(r"(?i)(?:pmid|pmcid)$", "", doi)
    while doi and doi[-1] in ".,;:]":
        doi = doi[:-1]
    if doi.endswith(")") and doi.count("(") < doi.count(")"):
        doi = doi[:-1]
    return doi.lower()


def volume_pages(text: str) -> tuple[str, str]:
    """``(volume, pages)`` as printed in an entry: ``vol. 17, ... pp. 23–32``
    (IEEE), ``17(1), 23–32`` (APA), ``17, 23–32 (2016)`` (Nature, LNCS, APS),
    ``2016; 17: 23–32`` (Vancouver), ``2016, 17 (1), 23–32`` (ACS), ``17 (1):
    23–32`` (Chicago), ``17, 1 (2016), 23–32`` (ACM, also ``(June 2016)``). Pages as ``23-32``, an
    abbreviated last page written out (Chicago's ``719–40`` is ``719-740``); '' where not found."""
    t = DOI_RE.sub(" ", _URL_RE.sub(" ", text))
    vol = pages = ""
    m = re.search(r"\bvol\.\s*(\w+)", t, re.I)
    if m:
        vol = m.group(1)
    m = re.search(r"\bpp?\.\s*([A-Za-z]?\d+(?:\s*[-–—]+\s*[A-Za-z]?\d+)?)", t)
    if m:
        pages = m.group(1)
    if not vol:
        pats = [
            rf"{_YEAR}[a-z]?;\s*(\d+)(?:\s*\(\w+\))?:\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)",  # Vancouver
            r"\b(\d+)\s?\(\w+\)\s?:\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)",  # Chicago/ASA
            r"[A-Za-z]\s(\d+)\s?:\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)(?=[.,;\s]|$)",  # Chicago/ASA without an issue: Journal 7: 1656
            rf"\b(\d+),\s*\d+\s+\((?:[A-Z][a-z]+\.?\s)?{_YEAR}\),\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)",  # ACM: 17, 1 (June 2016), 23–32
            r"\b(\d+)\s?\(\w+\),\s*(?:pp\.\s*)?([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)",  # APA, ACS
            rf"\b(\d+)(?:\s?\(\w+\))?,\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)\s*\({_YEAR}\)",  # Nature, LNCS, APS, AIP
            rf"{_YEAR}[a-z]?,\s*(\d+)(?:\s*\(\w+\))?,\s*([A-Za-z]?\d+(?:[-–—][A-Za-z]?\d+)?)",  # ACS
        ]
        for p in pats:
            m = re.search(p, t)
            if m and not re.fullmatch(_YEAR, m.group(1)):
                vol, pages = m.group(1), pages or m.group(2)
                break
    return vol, full_pages(pages)


def full_pages(pages: str) -> str:
    """A page range with ``-`` between its pages and an abbreviated last page written out (Chicago, ASA and
    some .bib files print ``719–40`` for 719-740, ``221–3`` for 221-223); other text as given."""
    pages = re.sub(r"\s*[-–—]+\s*", "-", pages)
    m = re.fullmatch(r"(\d+)-(\d+)", pages)
    if m and len(m.group(2)) < len(m.group(1)):
        last = m.group(1)[: len(m.group(1)) - len(m.group(2))] + m.group(2)
        if int(last) > int(m.group(1)):
            return f"{m.group(1)}-{last}"
    return pages


_OLD_ARXIV = re.compile(r"\b(?:hep-(?:ph|th|ex|lat)|astro-ph|gr-qc|nucl-(?:th|ex)|quant-ph|cond-mat|math-ph)/\d{7}\b")  # hep-ph/0001025
_COLLAB = re.compile(r"^[A-Z][\w\-]*(?:\s[A-Z][\w\-]*)?\s[Cc]ollaboration,?\s+(?=[A-Z]\.)")  # ATLAS Collaboration, G. Aad et al.
# after "Family, I. 2013," (the year closed by a comma): a journal and its volume, "in" a book, or a note
_AAS = re.compile(rf"^\s*(?:([A-Za-z&][\w&.]*(?:\s[\w&.]+){{0,3}}?),\s*(?:#?\d|in press|submitted|accepted)|in\s+([^,(]+))")
_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?|Spring|Summer|Fall|Autumn|Winter)"
_YEAR_WIDE = r"(?:1[5-9]|20)\d\d"  # a year right after the authors: history lists cite books of 1732
_REPEATED = re.compile(r"^\s*(?:(?:[—―‒–_-]\s?){2,}|—(?=\s*[.,:]))\s*(?:,?\s*\(?(?:eds?|Hrsg|trans)\.?\)?)?\s*[.,:]?\s*")  # ———. / ——, / --- : the same authors again
_ACRONYM = re.compile(rf"^([{_UP}][{_UP}&\-]{{1,11}}|Anonymous|Anon\.)(?=\s*(?:[.,:;]\s|\(\s*{_YEAR}))")  # AASHTO. / WHO (2007) / Anonymous.
# an abbreviated journal, its volume, pages and (year) straight after the authors: no title printed
_JOURNAL_WORDS = rf"(?:(?:[{_UP}][A-Za-z]{{0,9}}\.(?:[A-Z](?=\s))?|[{_UP}][{_LOW}]+|[A-Z]{{2,6}}|[A-Z](?=\s)|of|and|&|\(\w+\))\s?){{1,7}}"
_TITLELESS = re.compile(rf"^({_JOURNAL_WORDS}),?\s+(?:[A-Z]?\d+[A-Z]?\s*(?:\(\d+\))?[,:]\s*[A-Z]?\d+(?:\s*[–-]\s*[A-Z]?\d+)?\s*\(\s*(?:[{_UP}][{_LOW}]+\.?\s)?{_YEAR}\s*\)"
                        rf"|[A-Z]?\d+[A-Z]?\s*\({_YEAR}\)\s*[A-Z]?\d+)")  # Phys. Rev. 48, 55 (1935) / Eur. Phys. J. A 55: 57 (2019) / JHEP 07 (2002) 043
_BODY_WORDS = r"(?:Organi[sz]ation|Academies|Academy|Association|Society|Institute|[Cc]onsortium|Committee|Council|Foundation|Agency|[Cc]ollaboration|Project|Team|Office|Center|Centre|Ministry|Board|Commission|Group|Initiative|Alliance|Federation|Network|Corporation|Inc\.)"
_BODY = re.compile(rf"^((?:(?:[{_UP}][\w&’'\-]*|of|for|and|the|on|in|&),?\s+){{0,10}}?(?:[{_UP}][\w&’'\-]*\s+)?{_BODY_WORDS}"
                   rf"(?:,?\s+(?:(?:of|for|and|the|on|in|&)\s+)*[{_UP}][\w&’'\-]*)*)(?=\s*(?:[.:(]|,\s*[“\"]|,\s+[{_UP}][{_LOW}]+\s[{_LOW}]|,\s|$))")


def _body_author(text: str) -> str:
    """A corporate author at the start of ``text`` (``National Academies of Sciences, Engineering, and Medicine``), or ''."""
    m = _BODY.match(text)
    return m.group(1).strip(" ,") if m else ""


def author_form(text: str) -> str:
    """The name form of an entry's author list (a key of ``_FORMS``), '' when none reads."""
    return _authors(text)[3]


def _authors(text: str, hint: str = "") -> tuple[str, str, list[str], str]:
    """``(authors as printed, the rest, family names, form)``: the longest chain of names in one form that ends
    before a terminator; the ``hint`` form (the one most entries of the list use) wins where it reads."""
    best: tuple[int, str, list[str]] = (0, "", [])
    fc_end, fc_names = 0, []
    hinted: tuple[int, str, list[str]] | None = None
    for form, (first_re, next_re) in _FORM_RE.items():
        m = first_re.match(text)
        if not m:
            continue
        end = m.end()
        names = [m.group(0)]
        initialled = form == "given_family" and bool(re.match(rf"[{_UP}]\.", names[0]))
        while True:
            n = next_re.match(text, end)
            if not n:
                break
            if initialled and not re.search(rf"(?:^|\s|-)[{_UP}]\.", n.group(1)) and not re.search(r"\band\b|&", text[n.start():n.start(1)]):
                break  # J. D. Jackson, Classical Electrodynamics: a name of no initial after a comma is the title
            end = n.end()
            names.append(n.group(1))
        e = re.match(_ETAL, text[end:])
        if e:
            end += e.end()
        e = re.match(_EDS, text[end:])
        if e:
            end += e.end()
        if not (e or _AFTER_AUTHORS.match(text[end:]) or text[end - 1] == "."):  # "editors," ends the list too
            # the last "name" ran into the title (``Family, Title words``): drop names until a terminator follows
            while len(names) > 1:
                names.pop()
                cut = text.rfind(names[-1], 0, end) + len(names[-1])
                if _AFTER_AUTHORS.match(text[cut:]) or text[cut - 1] == "." or re.match(r"^\s*,", text[cut:]):
                    end = cut
                    break
            else:
                if not re.match(r"^\s*,", text[end:]):
                    continue
        if form == "family_caps" and len(names) == 1 and re.match(r"\.\s", text[end:end + 2]):
            fc_end, fc_names = end, names
        if end > best[0]:
            best = (end, form, names)
        if form == hint:
            hinted = (end, form, names)
    end, form, names = hinted or best
    after_gf = re.match(rf"^\s*[.,]?\s*\(?{_YEAR}", text[end:])
    two_word = bool(names) and bool(re.search(rf"[{_UP}]\.?\s\S+\s\S+$", names[0]))  # Nielsen M. Reinventing Discovery
    if (not hinted and form == "given_family" and len(names) == 1 and fc_end and not after_gf
            and (re.search(rf"\b{_YEAR}[a-z]?\s*;\s*\d", text) or text[end:end + 1] == ":" or two_word)):
        # one "Given M. Family" that is also "Family I" + a full stop, no year after it, and Vancouver's
        # "2001;322", a colon after it (``Todd P. OpenTimestamps: ...``) or two words after the initial
        # (``Nielsen M. Reinventing Discovery.``): ``Smith J. Diabetes. BMJ 2001;322``, not a Mr Diabetes
        # (ACM's ``John A. Smith. 2016.`` and CVPR's ``Eric L. Schwartz. Title. Journal, 1977.`` stay)
        end, form, names = fc_end, "family_caps", fc_names
    if form == "given_family" and (hint not in ("", "given_family", "family_et_al") or not hint and not re.match(rf"^\s*[.,]?\s*\(?{_YEAR}", text[end:])) \
            and len(names) == 1 and not re.search(rf"[{_UP}]\.", names[0]):
        # one "Given Family" of no initial with no year after it (ACM prints ``Michael Nielsen. 2011.``), or in a
        # list whose authors print in another form: the entry has no author and starts with its title (a web
        # page: ``Continuous Publishing. Gobbledygook.``)
        end = 0
    if not end:
        return "", text, [], ""
    fams = [_family(n, form, i) for i, n in enumerate(names)]
    if re.search(r"et\s+al|and\s+[Oo]thers\b", text[:end]):
        fams.append("et al.")
    return text[:end], text[end:], fams, form


def _family(name: str, form: str, i: int) -> str:
    """The family name in one printed name of form ``form`` (``i``: its place in the list)."""
    name = name.strip(" ,")
    if form == "init_first":
        return re.sub(rf"^{_INITS}\s?", "", name).strip()
    if form in ("family_init", "family_given", "family_init_inverted", "family_init_given") and i == 0 or form in ("family_init", "family_given_all"):
        return name.split(",")[0].strip()
    if re.match(rf"^{_INITS}\s?{_FAM}$", name):
        return re.sub(rf"^{_INITS}\s?", "", name).strip()
    if form == "family_caps":
        return re.sub(rf"\s[{_UP}]{{1,4}}(?:-[{_UP}]{{1,3}})?(?:\s(?:de|van|von|da|du|der))?$", "", name).strip()
    # given_family (and family_given after the first): the last word, with its particles
    words = name.split()
    k = len(words) - 1
    while k > 0 and words[k - 1].lower() in ("van", "von", "de", "der", "den", "del", "della", "da", "di", "du", "dos", "das", "le", "la", "ter", "ten"):
        k -= 1
    return " ".join(words[k:])


_SENT = re.compile(r"\.(?=\s|$)|[?!](?=[\s”\"]|$)")
_ABBREV = {"vs", "al", "jr", "sr", "st", "dr", "no", "vol", "pp", "eq", "ed", "eds", "inc", "ltd", "co", "proc", "int", "conf", "j", "e.g", "i.e", "etc",
           "sp", "spp", "subsp", "var", "cf", "approx", "ca", "fig", "figs"}  # biology: Cryptococcus sp. strain S-2


def _sentence_end(text: str) -> re.Match | None:
    """The first ``.``, ``?`` or ``!`` that ends a sentence: not after an initial (``J.``) or a short abbreviation."""
    for m in _SENT.finditer(text):
        if text[m.start()] in "?!":
            return m
        word = re.search(r"(\S+)$", text[: m.start()])
        w = word.group(1) if word else ""
        if not w or re.fullmatch(r"[A-Z]|[A-Z]\.[A-Z]", w) or w.lower().strip("(") in _ABBREV:
            continue
        return m
    return None


def _title_end(rest: str, form: str = "", second: bool = True) -> tuple[str, str]:
    """Split text that starts with an unquoted title into ``(title, what follows)``; ``form`` is the
    author-name form (physics' comma before the journal is looked for only after ``A. B. Family`` lists).

    A title of two sentences (``... p-value. Here's what they came up with.``, ``...? A survey of
    alternatives.``) keeps its second one when :func:`_second_sentence` says so (``second``)."""
    cands = []
    sent = -1
    m = _sentence_end(rest)
    if m:
        end = m.start() + (1 if rest[m.start()] in "?!" else 0)
        b = re.match(r"\s*\[[^\]]{1,40}\]", rest[end:]) if rest[m.start()] in "?!" else None  # "...? [Point of view]"
        if b:
            end += b.end()
        cands.append((end, max(m.end(), end)))
        sent = end
    m = re.search(rf"\s\((?=[^()]*(?:{_YEAR}|n\.d\.|Press|Publish|arXiv|University|Springer|Wiley|Elsevier|[Vv]ol\.|Series|Lecture Notes))|(?<=[{_LOW}])\((?={_YEAR}(?:-\d\d){{0,2}}\))", rest)
    if m:
        cands.append((m.start(), m.start()))
    m = re.search(r";\s", rest)
    if m:
        cands.append((m.start(), m.end()))
    m = re.search(rf",\s+{_YEAR}[a-z]?(?:\.(?=\s|$)|$)", rest)  # ACS web pages: Title, 2017. (not "Madagascar, 2008 and 2009")
    if m:
        cands.append((m.start(), m.start()))
    # physics: Title, Journal 17, 23 (2016) / Title, arXiv... / Title, (2018) / Title, Publisher, 2019.
    m = None if form not in ("", "init_first") else re.search(rf",\s+(?=[^,()\d]{{1,40}},\s+{_YEAR}\.?$|Vol\.\s|vol\.\s|(?:[^,()]|\([^()]{{1,10}}\)){{1,80}}?\s[\w/.]*\d+[A-Z]?,\s*(?:[\w-]+\s+)?\({_YEAR}|[^,()]{{1,60}}(?<!\.)\s\((?:{_YEAR}|n\.d\.)\)|[^,()]{{0,40}}(?:[Pp]ress|Publish\w*|University|Springer|Wiley|Elsevier|Verlag)[^,()]{{0,30}},\s\((?:{_YEAR}|n\.d\.)\)|arXiv|(?:talk|seminar|lecture|poster|presented|PhD thesis|Ph\.D\. thesis)\b|\({_YEAR}|in\s+(?:[{_UP}]|\d{{4}}\s)|In\s+[{_UP}]|{_YEAR}\.?$)", rest)
    if m:
        cands.append((m.start(), m.end()))
    if not cands:
        return rest, ""
    a, b = min(cands)
    if second and a == sent:
        t2, after2 = _title_end(rest[b:], form, second=False)
        if _second_sentence(t2, after2):
            return rest[:b] + rest[b:b + len(t2)], after2
    return rest[:a], rest[b:]


_NOT_TITLE = re.compile(r"(?i)^\s*in\b|\b(?:retrieved|available|accessed|thesis|dissertation|report|preprint|manuscript|unpublished|"
                        r"edition|editors?|eds?|volume|vol|press|publish\w*|university|institute|journal|proceedings|conference|"
                        r"symposium|workshop|transactions|letters|review)\b")


def _second_sentence(t2: str, after: str) -> bool:
    """Whether ``t2``, the sentence after a title's first sentence end, is the title's second sentence.

    It is when it reads as prose, not as a venue or a note: 3 to 20 words, no digit, no period inside
    (``Proc. Natl Acad`` is an abbreviated journal), none of the words venues and notes print
    (:data:`_NOT_TITLE`: *In*, *Retrieved*, *thesis*, *Journal*, *Proceedings* ...), and what follows it
    is a container: a capitalised name with a number (``Science 2018``, ``IEEE Communications Surveys 16,
    4 (2014)``), not a bare year or volume.
    """
    t2 = t2.rstrip(" .")
    words = t2.split()
    if not 3 <= len(words) <= 20 or re.search(r"[\d.]", t2) or _NOT_TITLE.search(t2):
        return False
    after = re.sub(r"^[\s.,:;]+", "", after)
    return bool(re.match(rf"(?!(?:Vol|No|pp?|In|Retrieved|Available)\b)[{_UP}]", after)) and bool(re.search(r"\d", after[:120]))


def _quoted(rest: str) -> tuple[str, str] | None:
    """A title in curly or straight double quotes at the start of ``rest``: ``(title, after)``; None when there is
    none or the quotes hold only the title's first words (:func:`_word_quoted`)."""
    m = re.match(r"\s*“", rest)
    if m:
        close = rest.find("”", m.end())
        while close > 0 and close + 1 < len(rest) and rest[close + 1] not in " ,.;:)\n":
            close = rest.find("”", close + 1)
        if close > 0:
            return None if _word_quoted(rest[m.end():close], rest[close + 1:]) else (rest[m.end():close], rest[close + 1:])
    m = re.match(r'\s*"([^"]{4,})"', rest)
    if m:
        return None if _word_quoted(m.group(1), rest[m.end():]) else (m.group(1), rest[m.end():])
    return None


def _word_quoted(inside: str, after: str) -> bool:
    """Whether a quoted span opening a title is a word of it (``“Like” and language ideology``), not the whole
    title: nothing closes it (no ``,``/``.``/``?``/``!`` inside the quotes) and the title runs on in lower case
    (not ``in`` a container)."""
    return inside[-1:] not in ",.?!;:" and bool(re.match(r"\s+(?!in\s)[a-z]", after))


_CONTAINER_END = re.compile(rf"\s*(?:,\s*(?:vol\.|no\.|pp?\.|\d)|\s\d+(?:[–\-]\d+)?(?=\s*[,(:;.]|\s*$)|\(|\[|;|\.\s|\.$|,\s+{_YEAR}|"
                            r",?\s*(?:ahead of print|in press|forthcoming)\b|,?\s+abs/|,\s*/|\s(?i:doi):|Available|Retrieved|https?:)")


def _container(after: str) -> str:
    """The container (journal, proceedings, publisher) at the start of what follows the title.

    It ends at the volume, pages or year (``, vol.``, ``17,``, ``(2016)``, ``2016;``), a ``;``, a ``(``, a
    ``[`` (``[Preprint]``), *ahead of print*, *in press*, an arXiv-style ``abs/`` number, ``doi:`` or a
    sentence end. A number that is part of the name is kept (``Proceedings of the 17th ...``, ``2017 IEEE
    24th ...``), and so is the period of an abbreviated word followed by a capital (``IEEE Commun. Mag.``,
    ``J. Am. Chem. Soc.``: a capitalised word of at most 7 letters).
    """
    after = re.sub(r"^[\s,.:;]+", "", after)
    after = re.sub(r"^(?:[Pp]p?\.\s*[\w–\-]+\s+(?=in\s))?(?:In:?|in)\s+", "", after)  # ASA: Pp. 125–37 in Book
    end = len(after)
    for m in _CONTAINER_END.finditer(after):
        if m.group(0).lstrip().startswith(".") and m.end() < len(after):
            word = re.search(r"(\S+)$", after[: m.start() + len(m.group(0)) - len(m.group(0).lstrip())])
            if word and re.fullmatch(rf"[{_UP}][{_LOW}]{{0,6}}", word.group(1)) and re.match(rf"[{_UP}]", after[m.end():]):
                continue  # an abbreviated word of the name: Commun. Mag.
        end = m.start()
        break
    return after[:end].strip(" ,.:;")[:200]


def _scrub(text: str) -> str:
    """``text`` without URLs, DOIs, arXiv ids and their lead words (``doi:``, ``Available at:``)."""
    scrub = _URL_RE.sub(" ", text)
    scrub = re.sub(_DOI_BROKEN, " ", scrub, flags=re.I)
    scrub = ARXIV_RE.sub(" ", scrub)
    scrub = _OLD_ARXIV.sub(" ", scrub)
    scrub = re.sub(r"(?i)\b(?:doi|PMID|PMCID|available(?: at)?|retrieved from|accessed)\s*:?\s*(?=\s|$)", " ", scrub)
    return re.sub(r"\s+", " ", scrub).strip()


def parse_fields(text: str, style: str = "numbered", form: str = "") -> RefFields:
    """Read one entry's fields.

    Args:
        text: the entry's text, lines joined, its label removed.
        style: ``numbered`` or ``author-year`` (a hint; the author list and
            the year's place are read from the text itself).
        form: the author-name form most entries of the list use
            (:func:`list_form`), preferred where it reads.

    Returns:
        :class:`RefFields`. Never raises.
    """
    f = RefFields()
    f.doi = find_doi(text)
    m = ARXIV_RE.search(text)
    if m:
        f.arxiv = m.group(1)
    m = _PMID_RE.search(text)
    if m:
        f.pmid = m.group(1)
    m = _URL_RE.search(text)
    if m:
        f.url = m.group(0).rstrip(".,;)")
    scrub = _scrub(text)
    f.volume, f.pages = volume_pages(text)
    dash = _REPEATED.match(scrub)
    if dash:  # ———. 1963. Stigma: the authors of the entry before (the reader copies them in)
        f.same_authors = True
        f.authors_text, rest, f_names, _form = dash.group(0).strip(), scrub[dash.end():], [], ""
    else:
        collab = _COLLAB.match(scrub)  # the collaboration's name, then its first author: the author is the person
        if collab:
            scrub = scrub[collab.end():]
        f.authors_text, rest, f_names, _form = _authors(scrub, form)
        body = _body_author(scrub) or (_ACRONYM.match(scrub).group(1) if not f_names and _ACRONYM.match(scrub) else "")
        if body and len(body) >= len(f.authors_text) and len([n for n in f_names if n != "et al."]) <= 1:
            f.authors_text, rest, f_names, _form = body, scrub[len(body):], [body], "body"
    f.names = tuple(f_names)
    # the year right after the authors (author-year styles, ACM, Chicago; APA's "(2004, May)"; a
    # book of 1732 in a history list)
    ym = re.match(rf"^\s*[.,]?\s*\(?({_YEAR_WIDE}[a-z]?|n\.d\.|no date)(?:,\s*{_MONTH}\.?(?:\s\d{{1,2}}(?:\s?[–-]\s?\d{{1,2}})?)?)?\)?(?:[.,:]|(?=\s[“\"‘{_UP}]))\s*", rest)
    if ym and f.names or ym and f.same_authors or ym and re.match(rf"^\s*[.,]?\s*\(?{_YEAR}", rest):
        f.year = ym.group(1) if ym.group(1)[:1].isdigit() else ""
        rest = rest[ym.end():]
        aas = _AAS.match(rest) if ym.group(0).rstrip().endswith(",") else None
        if aas:  # astronomy (AAS, A&A, MNRAS): Family, I. 2013, ApJS, 205, 20 prints no title
            f.container = (aas.group(1) or aas.group(2) or "").strip(" ,")
            return f
    else:
        ms = next((y for y in re.finditer(rf"\(({_YEAR}[a-z]?)(?:-\d\d){{0,2}}\)", scrub) if int(y.group(1)[:4]) <= _LATEST), None) or re.search(rf"\b({_YEAR}[a-z]?);", scrub)  # (2016), (2018-10), 2016;
        if ms is None:
            all_y = [y for y in re.finditer(rf"(?<![\d.\-/–:])({_YEAR}[a-z]?)(?![\d\-/–])", scrub) if int(y.group(1)[:4]) <= _LATEST]
            ms = all_y[-1] if all_y else None
        if ms:
            f.year = ms.group(1)
    rest = re.sub(r"^[\s.,:;]+", "", rest)
    rest = re.sub(r"^\((?=[^()]*(?:Collaboration|Group|Consortium|Team))[^()]*\)[\s,]*", "", rest)  # et al. (Particle Data Group),
    if f.names:
        rest = re.sub(r"^\([^()\d]{2,60}\),\s*", "", rest)  # D. J. Wilson (Hadron Spectrum), Title
    bare = None if _form not in ("", "init_first", "body") else _TITLELESS.match(rest)
    if bare:  # physics without a title: A. Einstein, Ann. Phys. 17, 891 (1905).
        f.container = bare.group(1).strip(" ,")
        return f
    q = _quoted(rest)
    if q is None and not f.authors_text:
        q2 = re.search(r"“([^”]{6,})”", rest)
        if q2 and q2.start() < 120:
            f.authors_text = rest[: q2.start()].strip(" ,.")
            q = (q2.group(1), rest[q2.end():])
    if q is not None:
        f.title, after = q
    else:
        f.title, after = _title_end(rest, form or _form)
    f.title = re.sub(r"\s+", " ", f.title).strip(" ,.;:")
    if re.fullmatch(r"(?:\[[^\]]{0,30}\][\s,.;]*)*", f.title):  # only link tags left ([Inspire], [hep-ph]): no title
        f.title = ""
    f.container = _venue(_container(after), after, f)
    return f


_PUBLISHER = re.compile(r"(?i)(?:^|[,;:]\s*|\s)(?:[\w&'’.\-]+\s+)*(?:Press|Publishing|Publishers?|Verlag|Inc\.?|Ltd\.?|GmbH|Laboratory|"
                        r"Springer(?:\s+Nature)?|Wiley|Elsevier)$")


def _venue(c: str, after: str, f: RefFields) -> str:
    """The container ``c`` read after the title, kept only when it names a journal or a venue.

    Dropped (''): a year or ``n.d.``; text without a letter; an editor list (ACS ``Title; Family, I., Eds.;``); a volume or pages standing where the venue
    would (``vol. 2.``, ``pp. 281–285``: the entry names no venue); a publisher (a name ending in *Press*,
    *Publishing*, *Inc.*, *Laboratory*, *Springer* ...), and a publisher after a book's title is cut off
    (``Opening science, Springer International Publishing`` -> ``Opening science``); a web site's name: the
    entry prints a URL but no DOI, arXiv id, volume or pages and the name is not introduced by *In*.
    """
    if not c or re.fullmatch(rf"{_YEAR}[a-z]?|n\.d", c) or not re.search(r"[^\W\d_]", c):
        return ""
    lead = re.sub(r"^[\s,.:;]+", "", after)
    if re.match(r"(?i)(?:vol|no|pp?)\.\s*\d[\w–\-]*(?![\w–\-]|\s+in\s)", lead):
        return ""
    if re.search(r"\b(?:Eds?\.?|editors?)$", c):  # ACS: Title; Family, I., Eds.; Publisher
        return ""
    m = _PUBLISHER.search(c)
    if m:
        c = c[: m.start()].strip(" ,;:")
        if not c:
            return ""
    if f.url and not (f.doi or f.arxiv or f.volume or f.pages) and not re.match(r"(?:In:?|in)\s", lead):
        return ""
    return c


def list_form(texts: list[str]) -> str:
    """The author-name form most entries of one list use (entries naming two or more authors vote), '' if none."""
    from collections import Counter

    votes: Counter[str] = Counter()
    for t in texts:
        _, _, names, form = _authors(_scrub(t))
        if form and len([n for n in names if n != "et al."]) >= 2:
            votes[form] += 1
    return votes.most_common(1)[0][0] if votes else ""
