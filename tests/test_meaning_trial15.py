"""Issue 28: what a fifteenth new user's trial found (2026-12-06, session 20; three SciFact corpus abstracts no
training claim cites, held out: on the code after the fourteenth trial's rules, `57981a1`, 2 of 20 false claims were
supported and 15 caught, 1 of 10 faithful claims contradicted). No model: the detectors and the text layer alone.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): immunogenic cell death guidelines (doc
4911006), Allium fistulosum and fatty liver in mice (doc 4641348), CD19 CAR therapy (doc 3462075), whose abstract sets
the Unicode hyphen U+2010 ("19‐28z", "B‐cell", "event‐free") where the claims have ASCII's.
"""

from __future__ import annotations

from citeproof.detectors.hedging import detect_hedge_removed
from citeproof.detectors.numbers import detect_number_drift
from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.quantities import extract_quantities
from citeproof.detectors.swaps import detect_term_swap
from citeproof.text.grounding import restates_verbatim
from citeproof.text.normalise import WORD_RE, stem
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

CART = ("Methods We conducted a phase 1 trial involving adults with relapsed B\u2010cell ALL who received an infusion of "
        "autologous T cells expressing the 19\u201028z CAR at the Memorial Sloan Kettering Cancer Center (MSKCC). "
        "Results ... At a median follow\u2010up of 29 months (range, 1 to 65), the median event\u2010free survival was "
        "6.1 months (95% CI, 5.0 to 11.5), and the median overall survival was 12.9 months (95% CI, 8.7 to 23.4).")
MICE = ("In comparison to the ND controls, the WD-fed mice exhibited increases in body weight, liver weight, epididymal "
        "fat weight, and accumulation of fat in hepatocytes, and these effects were significantly attenuated by EAF "
        "supplementation.")
ICD = ("Moreover, defects in the components that underlie the capacity of the immune system to perceive cell death as "
       "immunogenic negatively influence disease outcome among cancer patients treated with ICD inducers. We surmise "
       "that this technology will facilitate the development of next-generation anticancer regimens, which kill "
       "malignant cells and simultaneously convert them into a cancer-specific therapeutic vaccine.")


def test_the_unicode_hyphen_joins_a_word_as_the_ascii_one_does():
    """The text layer's one tokenizer read "event‐free" (U+2010) as two words against the claim's "event-free"."""
    assert WORD_RE.findall("event\u2010free and event\u2011free and event-free") == [
        "event\u2010free", "and", "event\u2011free", "and", "event-free"]
    assert stem("event\u2010free") == stem("event-free") == stem("event\u2011free")


def test_a_name_with_digits_and_a_glued_letter_is_no_range():
    """C04: "19‐28z" (the CAR) was read as the range 19-28, which matched the claim's "18.9 months" (a point within
    tolerance of an endpoint), so the drifted survival went untagged."""
    assert [q.text for q in extract_quantities(CART) if "19" in q.text] == []
    assert [q.text for q in extract_quantities("doses of 10-20mg for 5-10 days, 2-3h apart")] == ["10-20mg", "5-10 days", "2-3h"]


def test_a_drifted_value_beside_a_claim_range_is_proven():
    """C04: the claim's own "(range, 1 to 65)" covered the source's "12.9 months", so the sentence's slot for the
    claim's "18.9 months" was read as a value the claim states."""
    claim = ("At a median follow-up of 29 months (range, 1 to 65), the median event-free survival was 6.1 months, and "
             "the median overall survival was 18.9 months")
    [tag] = _proven(detect_number_drift, claim, CART)
    assert _spans(tag) == ("18.9 months", "12.9 months")
    assert detect_number_drift(claim.replace("18.9", "12.9"), CART, source_text=CART) == []


def test_a_swap_beside_unicode_hyphens_is_proven():
    """C10: "allogeneic" for "autologous"; "B‐cell" and "19‐28z" had counted as two more differences."""
    claim = ("We conducted a phase 1 trial involving adults with relapsed B-cell ALL who received an infusion of "
             "allogeneic T cells expressing the 19-28z CAR at the Memorial Sloan Kettering Cancer Center (MSKCC)")
    [tag] = _proven(detect_term_swap, claim, CART)
    assert _spans(tag) == ("allogeneic", "autologous")
    assert detect_term_swap(claim.replace("allogeneic", "autologous"), CART, source_text=CART) == []


def test_two_groups_exchanged_around_a_comparison_are_a_proven_reversal():
    """A06 (*supported* at 0.97): "In comparison to the WD-fed mice, the ND controls exhibited ..." for the other way
    round; "X and Y" turned round is a reordering."""
    claim = MICE.rstrip(".").replace("the ND controls, the WD-fed mice", "the WD-fed mice, the ND controls")
    [tag] = _proven(detect_polarity_flip, claim, MICE)
    assert _spans(tag) == ("wd-fed mice", "nd controls")
    assert _proven(detect_polarity_flip, MICE.rstrip("."), MICE) == []
    both = "Body weight and liver weight rose in the WD-fed mice, and these effects were attenuated by EAF supplementation."
    assert _proven(detect_polarity_flip, "Liver weight and body weight rose in the WD-fed mice, and these effects were "
                   "attenuated by EAF supplementation", both) == []


def test_a_negation_in_place_of_a_manner_adverb_is_a_proven_flip():
    """I06: "do not influence disease outcome" for "negatively influence disease outcome"."""
    claim = ("Defects in the components that underlie the capacity of the immune system to perceive cell death as "
             "immunogenic do not influence disease outcome among cancer patients treated with ICD inducers")
    [tag] = _proven(detect_polarity_flip, claim, ICD)
    assert _spans(tag) == ("do not influence", "negatively influence")
    assert _proven(detect_polarity_flip, claim.replace("do not influence", "negatively influence"), ICD) == []


def test_a_sentence_framed_as_a_view_is_no_word_for_word_support():
    """I07: the claim dropped "We surmise that" and stood word for word in the sentence, so it was *supported*
    whatever the judge said; a frame of doubt before the words now keeps the rule off (the hedge detector reads it)."""
    claim = ("This technology will facilitate the development of next-generation anticancer regimens, which kill "
             "malignant cells and simultaneously convert them into a cancer-specific therapeutic vaccine")
    assert restates_verbatim(claim, ICD) is False
    assert restates_verbatim(claim, ICD.replace("We surmise that this", "This")) is True
    [tag] = detect_hedge_removed(claim, ICD, source_text=ICD)
    assert (tag.confidence, tag.evidence[0].evidence_span) == (0.7, "We surmise")
