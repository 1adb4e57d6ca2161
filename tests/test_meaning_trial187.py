"""Issue 28: what the hundred-and-eighty-seventh to hundred-and-ninetieth new users' trials found (2026-12-07,
session 30; held out on `de89cc5`: 4 of 80 false claims *supported*, 6 of 40 faithful paraphrases against, three of
them on proven tags). Each rule beside its faithful twin. No model.

The sources are SciFact corpus abstracts (Wadden et al. 2020): the inflammasome and the SASP (doc 17412260), Dicer in
gonadotropes (5409325), thiazolidinediones and bladder cancer (31229233) and grafted lt-NES cell-derived neurons
(36637129).
"""

from __future__ import annotations

from tests.meaning_cases import proven_names as _proven, tag_map as _tags

SASP = ("Senescent cells implement a complex pro-inflammatory response termed the senescence-associated secretory "
        "phenotype (SASP). The SASP reinforces senescence, activates immune surveillance and paradoxically also has "
        "pro-tumorigenic properties. Expression of the SASP is controlled by inflammasome-mediated IL-1 signalling. "
        "The inflammasome and IL-1 signalling are activated in senescent cells and IL-1\u03b1 expression can "
        "reproduce SASP activation, resulting in senescence.")
DICER = ("Although transcriptional regulation of gonadotropin subunits has been well studied, the post-transcriptional "
         "regulation of gonadotropin subunits is not well understood.")
BLADDER = ("The one RCT that reported on pioglitazone use found no significant association with bladder cancer. The "
           "cohort studies of thiazolidinediones (pooled RR 1.15, 95% CI 1.04-1.26; I(2) = 0%) and of pioglitazone "
           "specifically (pooled RR 1.22, 95% CI 1.07-1.39; I(2) = 0%) showed significant associations with bladder "
           "cancer.")
GRAFT = ("Longer differentiation times, up to 24 weeks after grafting in vivo, revealed more mature intrinsic properties "
         "and extensive synaptic afferents from host neurons to the lt-NES cell-derived neurons.")


def test_synonyms_of_a_definition_are_no_swap():
    """Trial 188's 25, faithful (*unsupported* on a proven swap of 'mount' for 'implement')."""
    assert "term_swap" not in _proven("Senescent cells mount a complex pro-inflammatory response known as the "
                                      "senescence-associated secretory phenotype (SASP).", SASP)


def test_a_denied_degree_is_no_opposite():
    """Trial 188's 18, faithful (*contradicted*: 'poorly understood' for 'not well understood')."""
    claim = ("Compared with their transcriptional regulation, the post-transcriptional regulation of gonadotropin "
             "subunits has been {} understood.")
    assert "polarity_flip" not in _proven(claim.format("poorly"), DICER)


def test_a_closer_sentence_in_the_claims_order():
    """Trial 188's 23, faithful (*contradicted* on a proven exchange of 'SASP' and 'inflammasome')."""
    assert "polarity_flip" not in _proven("Expression of the SASP is governed by IL-1 signalling that depends on the "
                                          "inflammasome.", SASP)


def test_no_significant_association_for_a_significant_one():
    """Trial 190's 7 (*partial*, no tag); the source's RCT reports none, its cohort studies one."""
    claim = ("The cohort studies of thiazolidinediones showed {} association with bladder cancer (pooled RR 1.15, 95% "
             "CI 1.04-1.26).")
    assert "polarity_flip" in _proven(claim.format("no significant"), BLADDER)
    assert "polarity_flip" not in _proven(claim.format("a significant"), BLADDER)


def test_onto_for_from():
    """Trial 190's 2 (*supported* at 0.97): afferents from host neurons made efferents onto them."""
    claim = "Up to 24 weeks after grafting in vivo, {} formed extensive synaptic afferents onto {}."
    assert "polarity_flip" in _proven(claim.format("the lt-NES cell-derived neurons", "host neurons"), GRAFT)
    assert "polarity_flip" not in _proven(claim.format("host neurons", "the lt-NES cell-derived neurons"), GRAFT)


def test_a_cleft_cause_between_two_items_of_a_list():
    """Trial 188's 6 (*supported* at 0.98) in a list's shape: *it is X that gives Y* names a cause outright."""
    source = "The SASP has three features: reinforced senescence, immune surveillance and pro-tumorigenic properties."
    assert _tags("Paradoxically, it is immune surveillance that gives the SASP its pro-tumorigenic properties.",
                 source).get("causal_overclaim", (0, False))[0] >= 0.7
    assert "causal_overclaim" not in _tags("The SASP has immune surveillance and pro-tumorigenic properties among its "
                                           "features.", source)


def test_a_list_ends_with_its_item():
    """Faithful claims of trials 145 and 177: a list's last item read to the clause's end (*functional recovery is
    reviewed*) had made *review* an item the claim's *lead to* linked to another (*partial*)."""
    tags = _tags("The review discusses how the neuroinflammatory response can lead to outcomes such as pain, "
                 "regeneration and functional recovery.", "Here, the potential of the neuroinflammatory response to "
                 "cause outcomes such as pain, regeneration, and functional recovery is reviewed.")
    assert tags.get("causal_overclaim", (0, False))[0] < 0.7
