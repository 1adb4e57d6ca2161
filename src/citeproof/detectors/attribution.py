"""``secondary_citation`` and ``comparison_claim``: who the claim is really about.

Both need the claim as written, with its citation markers (``raw_claim``):

* ``secondary_citation``: the sentence attributes its statement to one work
  ("[24] found that DPM [8] ...", "Smith et al. (2019) showed that ...
  [@b]") and the citation being checked is another one in the same sentence:
  the checked work is cited second-hand, for a name or a method only.
* ``comparison_claim``: the claim is the citing paper's own result measured
  against the cited work ("3x faster than SPPnet [11]"): the cited source
  cannot confirm it; the report should say so instead of calling it unsupported.

Markers recognised: numeric (``[8]``, ``[4, 7]``, ``[3-5]``), pandoc
(``[@key]``, ``@key``), author-year (``Smith et al. (2019)``, ``(Smith et
al., 2019)``) and Citation-Integrity's ``<|cit|>``/``<|multi_cit|>``/``<|other_cit|>``.
"""

from __future__ import annotations

import re

from citeproof.model import Tag, TagEvidence

__all__ = ["MARKER_RE", "detect_comparison_claim", "detect_secondary_citation", "find_markers", "naming_phrase"]

_AUTHOR = r"[A-Z][A-Za-z'\-]+(?:\s+(?:et\s+al\.?|and\s+[A-Z][A-Za-z'\-]+|&\s+[A-Z][A-Za-z'\-]+))?"
MARKER_RE = re.compile(
    r"\[\s*\d+(?:\s*[,–\-]\s*\d+)*\s*\]"                      # [8], [4, 7], [3-5]
    r"|\[[^\]\[]*@[\w:.#$%&\-+?<>~/]+[^\]\[]*\]"               # [@key; see @b, p. 3]
    r"|(?<![\w@])@[\w:.#$%&\-+?<>~/]*\w"                        # @key narrative
    r"|\[?<\|(?:cit|multi_cit|other_cit)\|>(?:\s*,\s*\d+)*\]?"  # Citation-Integrity markers
    r"|" + _AUTHOR + r"\s*\(\d{4}[a-z]?\)"                       # Smith et al. (2019)
    r"|\((?:[^()]*?" + _AUTHOR + r",?\s*\d{4}[a-z]?;?\s*)+\)"    # (Smith et al., 2019; Doe 2020)
)
REPORTING = (r"(?:found|find|finds|show(?:s|ed|n)?|report(?:s|ed)?|demonstrat(?:e|es|ed)|observ(?:e|es|ed)|propos(?:e|es|ed)"
             r"|suggest(?:s|ed)?|argu(?:e|es|ed)|describ(?:e|es|ed)|note[sd]?|conclud(?:e|es|ed)|claim(?:s|ed)?|establish(?:es|ed)?"
             r"|introduc(?:e|es|ed)|us(?:e|es|ed)|appl(?:y|ies|ied)|extend(?:s|ed)?|adopt(?:s|ed)?|confirm(?:s|ed)?"
             r"|revealed|reveal(?:s)?|noticed|indicat(?:e|es|ed)|hypothesi[sz]ed|identified|presented|developed)")
COMPARATIVE = (r"(?:\d+(?:\.\d+)?\s*(?:x|×|times|-fold|fold)\s+)?(?:\w+er|more\s+\w+|less\s+\w+|fewer\s+\w+)\s+than"
               r"|(?:far\s+|much\s+|even\s+|no\s+)?(?:more|less|fewer)\s+than"
               r"|outperform\w*|surpass\w*|exceed\w*|beat(?:s|ing)?|improv\w+\s+(?:on|over|upon)|(?:better|worse)\s+than"
               r"|compared\s+(?:to|with)|in\s+comparison\s+(?:to|with)|relative\s+to|versus|vs\.?|over")
_NUMBER_WORDS = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
                 r"seventy|eighty|ninety|a\s+hundred|hundreds|a\s+thousand|thousands|a\s+million|millions|a\s+dozen|half)\b")
"""A number in words after *over*: "adults over sixty years of age" is an age, no comparison."""
_CONTROL_ARM = (r"(?:the\s+|a\s+|their\s+)?(?:placebo|controls?\b|control\s+(?:group|arm|subjects|animals|mice)|baseline|"
                r"usual\s+care|standard\s+(?:care|treatment|therapy)|sham|vehicle|untreated|wild[-\s]?type|non-?users|"
                r"the\s+general\s+population)")
"""What a comparison is drawn against inside a study (a trial's placebo arm, controls, baseline), not the cited work."""
OWN_WORK = r"\b(?:we|our|ours|us|this (?:paper|work|study|method|approach)|the proposed|here(?:in)?|present (?:work|study|method))\b"


def find_markers(raw: str) -> list[tuple[str, int, int]]:
    """All citation markers in a sentence as written.

    Args:
        raw: the sentence with its markers (numeric, pandoc, author-year or
            Citation-Integrity tokens; see the module docstring).

    Returns:
        ``(marker text, start, end)`` character offsets into ``raw``, in order.
    """
    return [(m.group(0), m.start(), m.end()) for m in MARKER_RE.finditer(raw or "")]


def _checked_marker(raw: str, markers, context) -> tuple[str, int, int] | None:
    """The marker of the citation being checked, from ``checked_marker``/``citekey``/CI tokens."""
    want = context.get("checked_marker")
    citekey = context.get("citekey")
    for mk in markers:
        t = mk[0]
        if want and want in t:
            return mk
        if citekey and re.search(r"@" + re.escape(str(citekey)) + r"(?![\w])", t):
            return mk
        if citekey and re.fullmatch(r"\[?\s*" + re.escape(str(citekey)) + r"\s*\]?", t.strip("[] ")):
            return mk
        if citekey and re.search(r"(?<!\d)" + re.escape(str(citekey)) + r"(?!\d)", t) and t.startswith("["):
            return mk
    for mk in markers:
        if "<|cit|>" in mk[0] or "<|multi_cit|>" in mk[0]:
            return mk
    return None


def naming_phrase(raw: str, cite_raw: str) -> str:
    """The words a citation marker stands after when it sits mid-sentence ('' when it ends its clause).

    "After releasing the first version of the Deep Review [@x], 14 new
    contributors updated the manuscript": the marker follows "the first
    version of the Deep Review" and three or more words of the same sentence
    follow it, so it may name that work rather than vouch for the whole
    sentence.

    Args:
        raw: the sentence as written, with its markers.
        cite_raw: the citation group as written, found in ``raw``.

    Returns:
        Up to five words before the marker, or '' (marker not found, or fewer
        than three words follow it before the sentence or clause ends with ``.;:!?``).
    """
    at = raw.find(cite_raw) if cite_raw else -1
    if at < 0:
        return ""
    after = re.split(r"[.;:!?](?:\s|$)", MARKER_RE.sub(" ", raw[at + len(cite_raw):]), maxsplit=1)[0]
    if len(re.findall(r"[A-Za-z]{2,}", after)) < 3:
        return ""
    m = re.search(r"((?:[\w'\u2019\-]+\s+){0,4}[\w'\u2019\-]+)\W*$", raw[:at])
    return m.group(1) if m else ""


def _names_checked_work(who: str, checked_marker: str, citekey: str | None) -> bool:
    """Whether the author phrase ``who`` names the checked work's own authors.

    (A sentence with a single marker, "Menin et al. found that ... <|cit|>", is
    also primary: the caller checks that.)

    True for a suppress-author citation (``[-@smith2020]``: pandoc's form for
    "the authors are already named in the text") and for a first surname that
    begins the citekey (``Smith et al.`` with ``smith2020``/``Smith2020a``).
    """
    if re.search(r"\[\s*-@", checked_marker):
        return True
    first = re.match(r"[A-Za-z'\-]+", who)
    key = (citekey or "").lower()
    return bool(first and key and len(first.group(0)) >= 3 and key.startswith(first.group(0).lower()))


def detect_secondary_citation(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``secondary_citation`` when the sentence attributes its statement to another work.

    Args:
        claim_text: the claim, citation markup removed (unused: markers are needed).
        evidence_text: unused.
        **context: ``raw_claim`` (str, required to fire): the sentence with
            its markers; ``citekey`` or ``checked_marker`` (str): which
            marker is being checked (Citation-Integrity's ``<|cit|>`` is found
            on its own). Without either, the last marker is taken as checked.

    Returns:
        ``[]`` or one tag (confidence 0.8) whose evidence gives the attributing
        phrase and the checked marker.
    """
    raw = context.get("raw_claim") or ""
    markers = find_markers(raw)
    if len(markers) < 2 and not re.search(r"[A-Z][a-z]+ (?:et al\.?|and [A-Z][a-z]+)", raw):
        return []
    checked = _checked_marker(raw, markers, context) or (markers[-1] if markers else None)
    if checked is None:
        return []
    # an attribution: a marker or an author name followed (within 6 words) by a reporting verb
    attrib_re = re.compile(
        r"(?P<who>" + MARKER_RE.pattern + r"|" + _AUTHOR + r")(?P<gap>(?:\s+[\w,'\-]+){0,6}?)\s+" + REPORTING + r"\b",
    )
    for m in attrib_re.finditer(raw):
        who = m.group("who")
        ws, we = m.start("who"), m.end("who")
        if ws <= checked[1] < we or checked[1] <= ws < checked[2]:
            continue  # the checked work itself is the one reporting: a primary citation
        if not (MARKER_RE.fullmatch(who) or re.search(r"et al|\band\b|&", who)):
            continue  # a plain capitalised word is not an author
        if re.match(r"(?:We|Our|This|These|Here|It|They|He|She|In|The|A|An)\b", who):
            continue
        if not MARKER_RE.fullmatch(who) and (len(markers) == 1 or _names_checked_work(who, checked[0], context.get("citekey"))):
            continue  # "Smith and Doe found ... [-@smith2020]": the checked work's own authors, named in the text
        if checked[1] < ws and not re.search(r"<\|", checked[0]):
            # checked marker before the attribution: "DPM [8] was extended by [24]": still secondary
            pass
        phrase = raw[ws : m.end()].strip()
        return [Tag("secondary_citation",
                    f"The statement is attributed to {who.strip()!r}; the checked citation {checked[0]!r} is cited second-hand.",
                    0.8, (TagEvidence(phrase, ""),))]
    return []


_WORK_NOUN = (r"(?:method|approach|model|tool|algorithm|system|technique|implementation|version|baseline|work|stud|"
              r"result|paper|literature|report|previous|prior|earlier|existing|published|state|other|those|that|"
              r"one)")
"""Words after a comparative that may name the cited work ("than the approach of", "than previously reported",
"than Smith et al.": a capitalised word); a comparison whose object is none of these ("more often than men did", an eighth trial's
faithful claim) compares two things the source may report."""
_NOT_NAMING = frozenset({"the", "and", "did", "does", "had", "has", "have", "was", "were", "with", "for", "its", "their",
                         "his", "her", "all", "any", "also", "even", "much", "far", "seen", "shown", "found"})


def detect_comparison_claim(claim_text: str, evidence_text: str | None, **context) -> list[Tag]:
    """Tag ``comparison_claim`` when the claim measures the citing work against the cited one.

    Fires when a comparative cue (``3x faster than``, ``outperforms``,
    ``compared with``, ``better than``...) stands before the checked
    citation's marker within 80 characters, or the marker is the object of
    ``over``/``than``. Confidence 0.9 when the sentence also speaks of the
    citing authors' own work (*we*, *our*, *the proposed*), else 0.7.

    Args:
        claim_text: the claim, citation markup removed (used when no raw claim is given).
        evidence_text: the best evidence passage, or None: a claim that does not speak of the citing work and draws
            a comparison the evidence draws too (the same cue, ``faster than``) is reporting the source, no tag.
        **context: ``raw_claim`` (str), ``citekey`` / ``checked_marker`` (str).

    Returns:
        ``[]`` or one tag saying the claim cannot be checked against the cited source.
    """
    raw = context.get("raw_claim") or ""
    if not raw:
        return []
    markers = find_markers(raw)
    checked = _checked_marker(raw, markers, context) or (markers[-1] if markers else None)
    if checked is None:
        return []
    region = raw[max(0, checked[1] - 80) : checked[1]]
    cues = list(re.finditer(r"(?<![A-Za-z])(?:" + COMPARATIVE + r")(?![A-Za-z])", region, re.I))
    if not cues:
        return []
    cue = cues[-1].group(0)
    after = region[cues[-1].end():].strip()
    if re.match(r"(?:the\s+)?(?:age|course|past|last|next|period|years?|months?|weeks?|days?|time|\d|" + _NUMBER_WORDS + r")", after, re.I) or (
            re.match(r"(?:far\s+|much\s+)?(?:more|less|fewer)\s+than", cue, re.I)
            and re.match(r"(?:\d|half|twice|a\s+(?:third|quarter|half|fifth)|one|two|three|ten|a\s+(?:few|dozen))", after, re.I)):
        return []  # "in adults over 65", "over the past decade", "more than half of patients": no comparison with the cited work
    if cue.lower() == "over" and not re.search(r"\d|improv|gain|advantage|speed", region, re.I):
        return []
    if re.match(_CONTROL_ARM, after, re.I):
        return []  # "no significant effect on mortality relative to placebo": a trial's arms, not the cited work
    if re.fullmatch(r"(?:\w+er)\s+than", cue, re.I) and re.match(r"(?:other|rather|neither|either|further|whether|never|ever|after|under|order|cancer|tumor|tumour|number|layer|paper|power|water|liver|fever|member|never|matter|filter|latter|former)\b", cue, re.I):
        return []
    own = bool(re.search(OWN_WORK, raw, re.I))
    named = [w for w in re.findall(r"[A-Za-z]{3,}", after) if w.lower() not in _NOT_NAMING]
    if not own and named and not any(re.match(_WORK_NOUN, w, re.I) or w[0].isupper() for w in named):
        return []  # "more often than men did": the sentence compares two things it names, not the cited work
    drawn = f"{evidence_text or ''} {context.get('source_text') or ''}"
    if not own and evidence_text and re.search(r"(?<![A-Za-z])" + re.escape(cue) + r"(?![A-Za-z])", drawn, re.I):
        return []  # the source draws the same comparison itself ("ten times faster than a linear scan"), in the passage
        # or elsewhere ("larger than those from other media", a nineteenth trial's passage was the next sentence)
    return [Tag("comparison_claim",
                f"The claim compares the citing work with the cited one ({cue!r}); the cited source cannot confirm the citing work's own result.",
                0.9 if own else 0.7, (TagEvidence(raw[max(0, checked[1] - 80) + cues[-1].start() : checked[2]].strip(), ""),))]
