"""Issue 28: what a twelfth new user's trial found (2026-12-06, session 19; three SciFact corpus abstracts no training
claim cites, held out from the detectors: on the code after the eleventh trial's rules 1 of 20 false claims was
supported and 15 caught, no faithful paraphrase called unsupported or contradicted). No model: the detectors alone.

The source is a SciFact corpus abstract (Wadden et al. 2020): integrin beta6 signalling through Fyn in oral squamous
cell carcinoma (doc 12650610).
"""

from __future__ import annotations

from citeproof.detectors.polarity import detect_polarity_flip
from citeproof.detectors.swaps import detect_term_swap
from citeproof.detectors.terms import names_referent
from meaning_cases import proven as _proven
from meaning_cases import spans as _spans

FYN = ("We found that, upon ligation of the integrin beta6 with fibronectin, beta6 complexed with Fyn and activated it. The "
       "activation of Fyn recruited and activated focal adhesion kinase to this complex. This complex was necessary to "
       "activate Shc and to couple beta6 signaling to the Raf-ERK/MAPK pathway.")


def test_a_claim_that_names_what_the_sentence_points_back_to_still_restates_it():
    """C06 and C07: "The beta6-Fyn-FAK complex" for "This complex" (FAK: the source's "focal adhesion kinase") left the
    swapped pathway and the added "not" unproven."""
    assert names_referent(["The", "beta6-Fyn-FAK"], ["This"], FYN)
    assert not names_referent(["The", "beta6-Src-FAK"], ["This"], FYN)  # Src is not in the source
    assert not names_referent(["The", "beta6-Fyn"], ["The", "integrin"], FYN)  # no demonstrative
    [tag] = _proven(detect_term_swap, "The beta6-Fyn-FAK complex was necessary to activate Shc and to couple beta6 "
                    "signaling to the PI3K-Akt pathway", FYN)
    assert _spans(tag) == ("PI3K-Akt", "Raf-ERK MAPK")
    [tag] = _proven(detect_polarity_flip, "The beta6-Fyn-FAK complex was not necessary to activate Shc and to couple beta6 "
                    "signaling to the Raf-ERK/MAPK pathway", FYN)
    assert tag.evidence[0].evidence_span == "necessary"
    faithful = ("The beta6-Fyn-FAK complex was necessary to activate Shc and to couple beta6 signaling to the Raf-ERK/MAPK "
                "pathway")
    assert _proven(detect_term_swap, faithful, FYN) == [] and _proven(detect_polarity_flip, faithful, FYN) == []
    # C03 (faithful): "linking ... to the Raf-ERK/MAPK cascade" for "couple ... to the Raf-ERK/MAPK pathway"
    assert detect_term_swap("The beta6-Fyn complex is required both for activating Shc and for linking beta6 signaling "
                            "to the Raf-ERK/MAPK cascade", FYN, source_text=FYN) == []
