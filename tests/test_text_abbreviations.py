"""The text layer's abbreviations (Schwartz & Hearst 2003), read on real-shaped abstract sentences."""

from __future__ import annotations

from citeproof.detectors.numbers import detect_number_drift
from citeproof.text.abbreviations import as_the_source_writes, defined_abbreviations, short_forms

SOURCE = ("Although preterm delivery is a well-established risk factor for cerebral palsy (CP), preterm deliveries "
          "contribute only a minority. We used noninvasive ventilation (NIV) in transplant recipients (n = 40; 95% "
          "CI, 1.2-2.0) and transforming growth factor beta1 (TGF-beta) in mesangial cells (MC) and mouse MC (MMC). "
          "NIV was well tolerated; TGF-beta increased Col1a2 in MMC and in MC.")


def test_definitions_follow_the_short_form_s_letters():
    d = defined_abbreviations(SOURCE)
    assert d["cp"] == ("cerebral", "palsy")
    assert d["niv"] == ("noninvasive", "ventilation")
    assert d["mmc"] == ("mouse", "mc")
    assert d["tgf-beta"] == ("transforming", "growth", "factor", "beta1")
    assert "n" not in d and "95" not in d  # "(n = 40; 95% CI ...)" defines nothing


def test_short_forms_read_a_long_form_and_its_bracket_as_one_short_form():
    d = defined_abbreviations(SOURCE)
    assert short_forms("a risk factor for cerebral palsy cp , preterm".split(), d) == \
        ["a", "risk", "factor", "for", "cp", ",", "preterm"]
    assert short_forms("Cerebral Palsy in children".split(), d) == ["cp", "in", "children"]


def test_a_claim_reads_as_the_source_writes_it():
    assert as_the_source_writes("TGF-beta raised Col1a2 in mouse mesangial cells.", SOURCE) == \
        "TGF-beta raised Col1a2 in MMC."
    assert as_the_source_writes("Noninvasive ventilation (NIV) was well tolerated.", SOURCE) == "NIV was well tolerated."
    # a long form the claim gives another short form is the claim's own term (a swap to find, not to fold)
    assert as_the_source_writes("in mesangial cells (PC) alone", SOURCE) == "in mesangial cells (PC) alone"
    # defined but never written short again: the claim keeps its words
    assert as_the_source_writes("Cerebral palsy is rare.", SOURCE) == "Cerebral palsy is rare."
    assert as_the_source_writes("Nothing defined here.", "No brackets at all.") == "Nothing defined here."


def test_a_quantity_the_source_states_in_another_sentence_about_the_claim_is_no_proven_drift():
    """A faithful Citation-Integrity citation ("MSM ... accounting for 61% of new HIV infections in 2009") met a
    sentence with another percentage first; the sentence that states 61% is about the claim too."""
    source = ("Among young MSM the estimated number of new infections increased significantly; the increase in incidence "
              "was driven by an increase in new HIV infections of 48% in young MSM. In 2009, MSM accounted for 61% of "
              "new infections, heterosexual contact 27%.")
    claim = "MSM continue to account for the largest share of new HIV infections, accounting for 61% of new HIV infections."
    assert [t for t in detect_number_drift(claim, source, source_text=source) if t.proven] == []
    drift = detect_number_drift("In 2009, MSM accounted for 52% of new infections, heterosexual contact 27%.", source,
                                source_text=source)
    assert [(t.proven, t.evidence[0].evidence_span) for t in drift] == [(True, "61%")]
