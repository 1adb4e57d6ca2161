"""Issue 28: what the hundred-and-third to hundred-and-sixth new users' trials found (2026-12-07, session 26; held out
on `158179f`: 10, 11, 9 and 11 of 20 false claims caught, 4, 4, 1 and 5 called *supported*; faithful paraphrases 0,
1, 1 and 0 called *unsupported* or *contradicted*). Each rule beside its faithful twin. No model.

The sources are sentences of SciFact corpus abstracts (Wadden et al. 2020): the aging epigenome (doc 22264117),
cardiac reprogramming with one factor (26899920), AMPK and JAK1 (3973445), GITR on T cell subsets (29288582) and
label-free DNA imaging by stimulated Raman scattering (20279166).
"""

from __future__ import annotations

from citeproof.detectors.across import ends_moved_across
from citeproof.text.sentences import split_sentences

AGING = ("Changes in transcriptional networks and chromatin state lie at the heart of age-dependent decline. These "
         "epigenomic changes are not only observed during aging but also profoundly affect cellular function.")
CARDIAC = ("Here, we report the identification of a defined small-molecule cocktail that enables the highly efficient "
           "conversion of mouse fibroblasts into cardiac cells with only one transcription factor, Oct4, without any "
           "evidence of entrance into the pluripotent state.")
AMPK = ("In vitro kinase assays revealed that AMPK directly phosphorylated two residues (Ser515 and Ser518) within the "
        "Src homology 2 domain of JAK1.")
GITR = ("Nevertheless, unstimulated GITR(-/-) CD4+CD25+ and GITR(+/+) CD4+CD25+ cells were equally able to exert "
        "suppressor activity on CD4+CD25- responder cells.")
SRS = ("Relying on the distinct Raman spectral features of the carbon-hydrogen bonds in DNA, the distribution of DNA is "
       "retrieved from the strong background of proteins and lipids by linear decomposition of SRS images at three "
       "optimally selected Raman shifts.")


def moved(claim: str, source: str):
    tag = ends_moved_across(claim, split_sentences(source), source)
    return None if tag is None else (tag.name, tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span)


def test_two_roles_exchanged_around_a_long_relation_are_proven():
    """Trial 103's 28 (*supported*, P(entails) 0.97, lexical coverage 1.00): the ends of "lie at the heart of"
    exchanged, one of them six words long (the fixed windows of the older rules reached neither)."""
    assert moved("Age-dependent decline lies at the heart of changes in transcriptional networks and chromatin state",
                 AGING) == ("polarity_flip", True, "Age-dependent decline", "changes")
    assert moved("Changes in transcriptional networks and chromatin state lie at the heart of age-dependent decline",
                 AGING) is None


def test_what_is_converted_into_what_is_read_across_one_ordering_word():
    """Trial 103's 30 (*supported*, 0.94): *into* alone carries the relation; *mouse* stays where it stood."""
    assert moved("A defined small-molecule cocktail enables the highly efficient conversion of mouse cardiac cells into "
                 "fibroblasts with only one transcription factor, Oct4", CARDIAC)[2:] == ("mouse cardiac cells",
                                                                                         "fibroblasts")
    assert moved("A small-molecule cocktail converts mouse fibroblasts into cardiac cells with only one transcription "
                 "factor, Oct4", CARDIAC) is None


def test_which_kinase_phosphorylates_which_and_the_passive_twin():
    """Trial 104's 14 (*supported*, 0.95): the acted-on kinase stands far after the verb in the source. The same
    fact in the passive voice is no exchange."""
    assert moved("In vitro kinase assays revealed that JAK1 directly phosphorylated AMPK on two serine residues, "
                 "Ser515 and Ser518", AMPK)[2:] == ("JAK1", "AMPK")
    assert moved("In vitro kinase assays revealed that JAK1 was directly phosphorylated by AMPK on two residues, Ser515 "
                 "and Ser518", AMPK) is None


def test_who_suppresses_whom_past_were_and_brackets():
    """Trial 106's 19 (*supported*, 0.91): *were* stands between the claim's subject and the shared run, the source's
    genotypes are written in brackets and its *equally* stands inside the run."""
    assert moved("CD4+CD25- responder cells were able to exert suppressor activity on both GITR(-/-) and GITR(+/+) "
                 "CD4+CD25+ cells", GITR)[2] == "CD4+CD25- responder cells"
    assert moved("Both GITR(-/-) and GITR(+/+) CD4+CD25+ cells were able to exert suppressor activity on CD4+CD25- "
                 "responder cells", GITR) is None


def test_what_is_retrieved_from_what_background():
    """Trial 106's 30 (*supported*, 0.94): a phrase of two nouns joined by *and* moved as one."""
    assert moved("By linear decomposition of SRS images at three Raman shifts, the distribution of proteins and lipids is "
                 "retrieved from the strong background of DNA", SRS)[2:] == ("proteins and lipids", "DNA")


def test_an_order_that_is_free_or_turned_twice_is_no_exchange():
    """Symmetric relations (*interacts with*, *compared with*) and a comparison turned at both ends ("lower in B
    than in A" for "higher in A than in B") say the same thing; the rule stays silent on them."""
    assert moved("Tumour necrosis factor interacts with GITR ligand in T cells",
                 "GITR ligand interacts with tumour necrosis factor in T cells.") is None
    assert moved("Expression of GITR was lower in resting cells than in activated cells",
                 "Expression of GITR was higher in activated cells than in resting cells.") is None


def test_a_proposal_or_a_potential_stated_as_demonstrated_is_a_removed_hedge():
    """Trial 103's 26 and trial 104's 22 (*supported*, 0.99 and 0.90): "We propose that ..." and "indicates their
    potential ... benefit" hedge the statement itself; the claim that keeps the proposal stays clean."""
    from citeproof.detectors.hedging import detect_hedge_removed

    src = "We propose that the dysregulation of transcriptional and chromatin networks is a crucial component of aging."
    [tag] = detect_hedge_removed("The authors demonstrate that the dysregulation of transcriptional and chromatin "
                                 "networks is a crucial component of aging", src, source_text=src)
    assert (tag.confidence, "We propose that" in tag.message) == (0.7, True)
    assert [t.confidence for t in detect_hedge_removed(
        "The authors propose that the dysregulation of transcriptional and chromatin networks is a crucial component "
        "of aging", src, source_text=src)] in ([], [0.4])


def test_minutes_for_hours_is_a_proven_drift():
    """Trial 104's 23 (*supported*, 0.96): a span of time told by its unit alone, no digit for the parser."""
    from citeproof.detectors.numbers import detect_number_drift

    src = ("Here we show that upon interaction with antimicrobial peptides, encapsulated pneumococci survive by removing "
           "capsule from the cell surface within minutes in a process dependent on the suicidal amidase autolysin LytA.")
    claim = ("Upon interaction with antimicrobial peptides, encapsulated pneumococci survive by removing capsule from the "
             "cell surface over several hours in a process dependent on the autolysin LytA")
    [tag] = detect_number_drift(claim, src, source_text=src)
    assert (tag.proven, tag.evidence[-1].claim_span, tag.evidence[-1].evidence_span) == (
        True, "over several hours", "within minutes")
    assert detect_number_drift(claim.replace("over several hours", "within minutes"), src, source_text=src) == []


def test_human_before_a_noun_for_the_sources_mouse_is_proven():
    """Trial 106's 2 (*supported*, 0.97): *human* names people only before a noun, so the word after the claim's run
    is read with it; the source names human tissue elsewhere, which the whole-source rule forgives."""
    from citeproof.detectors.scope import detect_scope_inflation

    src = ("Here we show a label-free DNA imaging method for visualization of the cell nuclei in live animals and intact "
           "fresh human tissues. We tracked mouse skin cell proliferation, induced by drug treatment, through in vivo "
           "counting of the mitotic rate.")
    claim = ("Human skin cell proliferation, induced by drug treatment, was tracked through in vivo counting of the "
             "mitotic rate")
    assert [(t.name, t.proven) for t in detect_scope_inflation(claim, src, source_text=src)] == [("scope_inflation", True)]
    assert [t for t in detect_scope_inflation(claim.replace("Human", "Mouse"), src, source_text=src) if t.proven] == []


def test_increased_for_a_loss_governing_a_list_and_low_for_highly():
    """Trial 106's 3 (*supported*, 0.90): the source's *loss of* governs "the anergic phenotype and suppressor
    activity"; trial 103's 9 (*supported*, 0.85): "low efficiency" for "highly efficient"."""
    from citeproof.detectors.across import degree_turned_on_quality, turned_over_list

    src = ("Interestingly, CD4+CD25+ regulatory T cell (Treg cell) proliferation was triggered by the GITR costimulus; "
           "Treg cell proliferation was paralleled by the loss of the anergic phenotype and suppressor activity.")
    claim = "Treg cell proliferation triggered by the GITR costimulus was paralleled by increased suppressor activity"
    tag = turned_over_list(claim, split_sentences(src), src)
    assert (tag.proven, tag.evidence[0].claim_span) == (True, "increased suppressor activity")
    assert turned_over_list(claim.replace("increased", "a loss of"), split_sentences(src), src) is None
    assert turned_over_list("Treg proliferation was paralleled by reduced suppressor activity", split_sentences(src),
                            src) is None
    src = ("Here, we report the identification of a defined small-molecule cocktail that enables the highly efficient "
           "conversion of mouse fibroblasts into cardiac cells with only one transcription factor, Oct4.")
    claim = ("The small-molecule cocktail converts mouse fibroblasts into cardiac cells with Oct4 alone, though only with "
             "low efficiency")
    tag = degree_turned_on_quality(claim, split_sentences(src), src)
    assert (tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (True, "low efficiency",
                                                                                      "highly efficient")
    assert degree_turned_on_quality(claim.replace("low", "high"), split_sentences(src), src) is None


def test_the_kind_a_defined_short_form_names_and_the_rounds_synonyms_are_no_swaps():
    """Trial 105's 3 (faithful, *unsupported* by a proven swap 'cells' / 'growth factor receptor-2': *HUVECs* stands
    for human umbilical vein endothelial cells in the same sentence) and trial 104's 28 (faithful, *unsupported*:
    'built' / 'based'); the swap of a real term beside them stays proven."""
    from citeproof.detectors.swaps import detect_term_swap

    src = ("Arf6 is highly expressed also in human umbilical vein endothelial cells (HUVECs) and is implicated in "
           "angiogenesis. Here, we found that HUVECs also highly express AMAP1, and that vascular endothelial growth "
           "factor receptor-2 (VEGFR2) recruits GEP100 to activate Arf6.")
    assert [t for t in detect_term_swap("In endothelial cells, VEGFR2 activates Arf6 by recruiting GEP100", src,
                                        source_text=src) if t.proven] == []
    src = ("ImmTACs are a new class of bispecific reagents, based on soluble monoclonal T cell receptors, which have been "
           "engineered to possess extremely high affinity for cognate tumour antigen.")
    claim = ("ImmTACs are bispecific reagents built from soluble monoclonal T cell receptors that have been engineered "
             "for extremely high affinity to their cognate tumour antigen")
    assert [t for t in detect_term_swap(claim, src, source_text=src) if t.proven] == []
    swapped = src.replace("tumour antigen", "viral antigen")  # the source's own words, one term swapped
    assert [(t.proven, t.evidence[0].claim_span) for t in detect_term_swap(swapped, src, source_text=src)] == [
        (True, "viral")]


def test_a_contradiction_not_let_stand_names_the_sentence_restating_the_claim():
    """Trial 103's 19 and 1: the judge's *contradicted* was read as doubtful (the source turns what the claim turns the
    same way), yet the finding named as judged the sentence the network had scored highest, one about aspirin the
    claim never touches ("an unrelated sentence", the trial's user). Now the sentence restating the claim is named,
    with the network's reading of it."""
    from citeproof.judges.base import Judgement
    from citeproof.judges.judged import restating_read
    from citeproof.model import Tier, Verdict

    sent = "Perception of risk was the primary factor associated with CVD preventive recommendations."
    j = Judgement(Verdict.CONTRADICTED, 0.24, 0.53, None, Tier.ENTAILMENT, [], restating=(sent, 0.47, 0.21, 0.88))
    assert restating_read(None, j) == f"judged sentence: \u201c{sent}\u201d network P(entails) 0.47, P(contradicts) 0.21"
    assert restating_read(None, Judgement(Verdict.CONTRADICTED, 0.24, 0.53, None, Tier.ENTAILMENT, [])) == ""


# Trials 107-110 (held out on `ed84507`: 11, 11, 12 and 10 of 20 false claims caught, 1, 1, 3 and 3 supported;
# faithful 0, 2, 0 and 2 against). Sources: the C. elegans cell lineage (doc 5002665), carers of people with cancer
# (6057195), Arno's Sec7 domain (8093935), a p53 apoptosis domain (9169645), fatty acids and calcium influx in T cells
# (29362104).


def test_roles_exchanged_across_a_relation_holding_a_parenthetical():
    """Trial 107's 29 (*supported*, 0.96): the shared run holds "complex as it is," between its commas."""
    src = "We conclude that the cell lineage itself, complex as it is, plays an important role in determining cell fate."
    assert moved("The authors concluded that cell fate, complex as it is, plays an important role in determining the "
                 "cell lineage", src)[2:] == ("cell fate", "cell lineage")
    assert moved("The authors concluded that the cell lineage, complex as it is, plays an important role in "
                 "determining cell fate", src) is None


def test_a_participant_said_once_more_in_the_subjects_place_is_a_swap():
    """Trial 108's 19 (*supported*, 0.87): *patients* stands later in both the claim and the sentence, so the claim's
    first *Patients* was read as a word moved; the claim names the sentence's *carers* too."""
    from citeproof.detectors.swaps import detect_term_swap

    src = ("Carers completed the Supportive Care Needs Survey-Partners & Caregivers (SCNS-P&C45), and both carers and "
           "patients completed the Centre of Epidemiologic-Depression Scale (CES-D).")
    claim = ("Patients completed the Supportive Care Needs Survey-Partners & Caregivers (SCNS-P&C45), while both carers "
             "and patients completed the CES-D")
    assert [(t.proven, t.evidence[0].claim_span) for t in detect_term_swap(claim, src, source_text=src)] == [
        (True, "Patients")]
    assert [t for t in detect_term_swap(claim.replace("Patients completed", "Carers completed"), src,
                                        source_text=src) if t.proven] == []


def test_a_model_organism_for_the_sources_human_on_half_the_words():
    """Trial 109's 9 (*supported*, 0.70): "a yeast guanine nucleotide exchange factor" for "a human GEF"; the long
    form for the short one leaves the sentence half the claim's words, and no source sentence names yeast."""
    from citeproof.detectors.swaps import detect_term_swap

    src = ("Sec7-related guanine nucleotide exchange factors (GEFs) initiate vesicle budding from the Golgi membrane. Here "
           "we report the crystal structure of the catalytic Sec7 homology domain of Arno, a human GEF for ARF1, "
           "determined at 2.2 angstroms resolution.")
    claim = ("Arno, a yeast guanine nucleotide exchange factor for ARF1, contains a catalytic Sec7 homology domain whose "
             "crystal structure has been solved")
    assert [(t.proven, t.evidence[0].claim_span) for t in detect_term_swap(claim, src, source_text=src)] == [
        (True, "yeast")]
    assert [t for t in detect_term_swap(claim.replace("yeast", "human"), src, source_text=src) if t.proven] == []


def test_a_postulate_stated_as_shown_beside_a_plain_sentence_worded_otherwise():
    """Trial 109's 14 (*supported*, 0.97): "We therefore postulate that ..."; a plain sentence holding as many of the
    claim's words but worded far otherwise ("we showed that residues 53 and 54 are critical for ...") had excused it."""
    from citeproof.detectors.hedging import detect_hedge_removed

    src = ("Furthermore, we showed that residues 53 and 54 are critical for the apoptotic and transcriptional activities "
           "of both p53(Delta1-42) and p53(Gln22-Ser23). We therefore postulate that the apoptotic activity in "
           "p53(Gln22-Ser23) and p53(Delta1-42) is still transcription-dependent.")
    [tag] = detect_hedge_removed("The apoptotic activity of p53(Gln22-Ser23) and p53(Delta1-42) has been shown to be "
                                 "transcription-dependent", src, source_text=src)
    assert (tag.confidence, "postulate" in tag.message) == (0.7, True)


def test_a_denial_the_source_makes_by_but_not_reads_as_the_same():
    """Trial 108's 23 (faithful, *contradicted* at 0.97): "Neither carer gender nor patient gender was associated
    with ..." for "... were significantly associated with carer age, ...; but not with carer gender or patient
    gender". The doubt is read only where the claim denies and names every word of the *but not*."""
    from citeproof.detectors.denials import states_excluded

    src = ("Carer levels of unmet needs were significantly associated with carer age, hospital type, treatment type, "
           "cancer type, living situation, relationship status; but not with carer gender or patient gender (in both "
           "uni- and multi-factor analyses).")
    assert states_excluded("Neither carer gender nor patient gender was associated with carers' levels of unmet needs",
                           src) == src
    assert states_excluded("Carer gender and patient gender were associated with carers' levels of unmet needs",
                           src) is None
    assert states_excluded("Carer age was not associated with carers' levels of unmet needs", src) is None


# Trials 111-114 (held out on `ee3e477`: 11, 12, 9 and 14 of 20 false claims caught, 2, 2, 0 and 2 supported;
# faithful 0, 0, 1 and 1 against). Sources: HIF-1α and KLF2 in macrophages (doc 22153455), neutrophils and NK cells
# in tumour cell clearance (381602), a T. brucei kinome-wide RNAi screen (15473205, trial 110).


def test_who_inhibits_whom_on_one_verb_and_its_passive_twins():
    """Trial 114's 24 (*supported*, 0.97): a run of one verb of direction carries the relation. The same fact in the
    other voice, either way round, is no exchange."""
    src = ("First, neutrophils inhibit natural killer cell function, which leads to a significant increase in the "
           "intraluminal survival time of tumor cells.")
    assert moved("Natural killer cells inhibit neutrophil function, which leads to a significant increase in the "
                 "intraluminal survival time of tumor cells", src)[2:] == ("Natural killer cells", "neutrophil function")
    assert moved("Natural killer cell function is inhibited by neutrophils, which leads to a significant increase in the "
                 "intraluminal survival time of tumor cells", src) is None
    passive = "First, natural killer cell function is inhibited by neutrophils, which leads to longer survival."
    assert moved("Neutrophils inhibit natural killer cell function, which leads to longer survival", passive) is None


def test_which_factor_regulates_which_past_a_comma_and_a_compound():
    """Trial 111's 15 (*supported*, 0.97): the claim's commas bound its clause where the sentence has none, and
    "endotoxin-induced" is the sentence's "endotoxins induced"."""
    src = ("Sustained expression of KLF2 reduced and deficiency of KLF2 enhanced gram-positive endotoxins induced HIF-1α "
           "mRNA and protein expression in macrophages.")
    tag = moved("Sustained expression of HIF-1α reduced, and deficiency of HIF-1α enhanced, gram-positive "
                "endotoxin-induced KLF2 expression in macrophages", src)
    assert tag[:3] == ("polarity_flip", True, "HIF-1α")
    assert moved("Sustained expression of KLF2 reduced, and deficiency of KLF2 enhanced, gram-positive endotoxin-induced "
                 "HIF-1α expression in macrophages", src) is None


def test_predicted_kinases_said_to_be_confirmed_is_a_removed_hedge():
    """Trial 110's 27 (*supported*, 0.91): "190 predicted protein kinases" for "190 experimentally confirmed"; the
    source writes "protein kinases (PKs)", so the claim comes folded to "PKs" and the sentence is read so too. The
    claim that keeps *predicted* stays clean, its "could be knocked down" no hedge."""
    from citeproof.detectors import run_detectors_text

    src = ("Relatively little is known about the parasite's protein kinases (PKs) involved in the control of cellular "
           "proliferation. To address this, a T. brucei kinome-wide RNAi cell line library was generated, allowing "
           "independent inducible knockdown of each of the parasite's 190 predicted protein kinases.")
    claim = ("Each of the parasite's 190 experimentally confirmed protein kinases could be knocked down independently in "
             "the RNAi library")
    hedges = lambda c: [t.confidence for t in run_detectors_text(c, src, source_text=src) if t.name == "hedge_removed"]  # noqa: E731
    assert hedges(claim) == [0.7]
    assert hedges(claim.replace("experimentally confirmed", "predicted")) == []


def test_a_class_of_organisms_for_a_yeast_study_and_a_median_time_for_a_delay():
    """Trial 112's 14 (*supported*, 0.96): "Across eukaryotes, including human cells" for a study of S. cerevisiae
    that names neither; *of mammalian caspases* (an adjective, a faithful Citation-Integrity claim) is no such class.
    Trial 113's 17 (faithful, *unsupported* by a proven swap 'median time' / 'delay')."""
    from citeproof.detectors.scope import detect_scope_inflation
    from citeproof.detectors.swaps import detect_term_swap

    src = ("Single-cell proteomic analysis of S. cerevisiae reveals the architecture of biological noise. Our single-cell "
           "data argue that noise in protein expression is dominated by the stochastic production/destruction of "
           "messenger RNAs.")
    claim = ("Across eukaryotes, including human cells, noise in protein expression is dominated by the stochastic "
             "production and destruction of messenger RNAs")
    assert [(t.proven, t.evidence[0].evidence_span) for t in detect_scope_inflation(claim, src, source_text=src)] == [
        (True, "S. cerevisiae")]
    assert detect_scope_inflation("In yeast, noise in protein expression is dominated by the stochastic production and "
                                  "destruction of messenger RNAs", src, source_text=src) == []
    src = ("The delay between the first hospital visit and starting treatment was 35-187 days (median 94); between the "
           "date of the radiotherapy request and the starting date for treatment it was 23-61 days (median 44).")
    assert [t for t in detect_term_swap("The median time from the first hospital visit to the start of treatment was 94 "
                                        "days", src, source_text=src) if t.proven] == []


# Trials 115-118 (held out on `e5b6073`: 14, 11, 11 and 13 of 20 false claims caught, 0, 1, 2 and 1 supported;
# faithful 0, 1, 1 and 0 against). Sources: MSI in endometrial cancer (doc 11271123), Tex10 and super-enhancers
# (19384430), lobular involution and breast density (2140497).


def test_a_sign_turned_where_the_word_diff_pairs_another_clause():
    """Trial 118's 16 (*supported*, 0.97): the sentence says *positively associated* of breast density, so the word
    diff paired the claim's "is positively associated with breast cancer risk" with that clause; read in place, the
    claim's *positively* stands where the sentence has *inversely*."""
    from citeproof.detectors.runs import turned_in_place

    src = ("BACKGROUND Lobular involution, or age-related atrophy of breast lobules, is inversely associated with breast "
           "cancer risk, and mammographic breast density (MBD) is positively associated with breast cancer risk.")
    claim = ("Lobular involution, the age-related atrophy of breast lobules, is positively associated with breast cancer "
             "risk, as is mammographic breast density")
    tag = turned_in_place(claim, split_sentences(src), src)
    assert (tag.proven, tag.evidence[0].claim_span, tag.evidence[0].evidence_span) == (True, "positively", "inversely")
    assert turned_in_place(claim.replace("is positively associated", "is inversely associated").replace(
        ", as is mammographic breast density", ""), split_sentences(src), src) is None


def test_an_opposite_word_keeps_the_judges_contradiction():
    """Trial 115's 15 (*partial*: the judge's *contradicted*, 0.70, was read as doubtful because the two hold as many
    direction words): "18 were negative for" for "18 were positive, and 1 was equivocal for"."""
    from citeproof.detectors.denials import states_same_direction

    src = ("Of the 19 MSI-H cases with loss of MLH1/PMS2 on immunohistochemistry, 18 were positive, and 1 was "
           "equivocal for MLH1 promoter hypermethylation.")
    claim = ("Of the 19 MSI-H cases with loss of MLH1/PMS2 on immunohistochemistry, 18 were negative for MLH1 promoter "
             "hypermethylation")
    assert states_same_direction(claim, src) is None
    assert states_same_direction(claim.replace("negative", "positive"), src) == src


def test_matters_for_important_is_no_swap():
    """Trial 117's 17 (faithful, *unsupported* by a proven swap 'matters' / 'important')."""
    from citeproof.detectors.swaps import detect_term_swap

    src = "Tex10 activity is also important for pluripotency and reprogramming in human cells."
    assert [t for t in detect_term_swap("Tex10 activity also matters for pluripotency and reprogramming in human cells",
                                        src, source_text=src) if t.proven] == []


def test_a_restating_sentence_holding_the_opposite_word_is_no_reason_to_doubt():
    """Trial 115's 15, the second doubt: the judge's contradiction fell on another window, the restating sentence read
    at P(contradicts) 0.43; that sentence holds *positive* where the claim says *negative*, so the contradiction
    stands."""
    from citeproof.judges.base import Judgement
    from citeproof.judges.doubts import restating_clear
    from citeproof.judges.policy import POLICY
    from citeproof.model import Evidence, Passage, Source, Tier, Verdict

    src = ("Of the 19 MSI-H cases with loss of MLH1/PMS2 on immunohistochemistry, 18 were positive, and 1 was "
           "equivocal for MLH1 promoter hypermethylation.")
    claim = ("Of the 19 MSI-H cases with loss of MLH1/PMS2 on immunohistochemistry, 18 were negative for MLH1 promoter "
             "hypermethylation")
    ev = Evidence(passage=Passage(id="p1", text=src + " Tumours were graded."), source=Source(citekey="k"),
                  sentence="Tumours were graded.")
    judged = lambda c: Judgement(Verdict.CONTRADICTED, 0.7, 0.7, ev, Tier.ENTAILMENT, [], restating=(src, 0.57, 0.43, 0.9))  # noqa: E731
    assert restating_clear(claim, judged(claim), POLICY) is None
    faithful = claim.replace("negative", "positive")
    assert restating_clear(faithful, judged(faithful), POLICY) is not None


# Trials 119-122 (held out on `124ca13`: 11, 6, 15 and 11 of 20 false claims caught, 3, 4, 0 and 2 supported;
# faithful 0, 0, 1 and 1 against). Sources: telomere organisation (doc 7468449), a primate virus and cell fusion
# (10494012), prostate cancer after radiotherapy (10699587).


def test_roles_past_a_relative_clause_and_a_reduced_passive():
    """Trial 120's 26 (*supported*, 0.99): the claim's subject stands before ", which is often caused by viruses,";
    trial 122's 16 (*supported*, 0.97): *is facilitated by* against the sentence's reduced "repeats facilitated by",
    and *binding* (a symmetric word) belongs to the claim's own phrase."""
    src = "However, genomic and epigenetic variability is also triggered by cell fusion, which is often caused by viruses."
    assert moved("Cell fusion, which is often caused by viruses, is also triggered by genomic and epigenetic variability",
                 src)[2:] == ("Cell fusion", "genomic and epigenetic variability")
    assert moved("Genomic and epigenetic variability is also triggered by cell fusion, which is often caused by viruses",
                 src) is None
    src = ("Deriving their name from D-loops, t-loops are generated by the insertion of the 3' overhang into telomeric "
           "repeats facilitated by the binding of TRF2.")
    assert moved("The binding of TRF2 is facilitated by the insertion of the 3' overhang into telomeric repeats, which "
                 "generates t-loops", src)[2:] == ("TRF2", "insertion of the 3' overhang")


def test_a_condition_turned_round_by_excluded_is_no_dropped_negation():
    """Trial 122's 2 (faithful, *contradicted* by a proven flip 'hormonal' / 'no hormonal'): "Men who had received
    hormonal therapy ... were excluded" for "Patients were included if: ... 2) they received no hormonal therapy";
    *included* in the claim keeps the flip."""
    from citeproof.detectors.polarity import detect_polarity_flip

    src = ("Patients were included if: 1) they were evaluable, and eligible for the trial; 2) they received no hormonal "
           "therapy with their initial treatment; and 3) follow-up was available.")
    claim = "Men who had received hormonal therapy with their initial treatment were excluded from the analysis"
    assert [t for t in detect_polarity_flip(claim, src, source_text=src) if t.proven] == []
    assert [t.proven for t in detect_polarity_flip(claim.replace("were excluded from", "were included in"), src,
                                                   source_text=src)] == [True]


def test_a_noun_phrase_reordered_is_no_exchange_of_roles():
    """Trial 113's 13 (faithful, *contradicted* by a first version of the rule, in sample): "the HES3 and HES4 human ES
    cell lines" for "two proprietary human ES cell lines (HES3 and HES4, ...)": "ES cell" ties no relation."""
    src = ("We determined the transcriptome profiles for two proprietary human ES cell lines (HES3 and HES4, ES Cell "
           "International), and compared them with murine ES cells and other human tissues.")
    assert moved("Using SAGE, the authors profiled the transcriptomes of the HES3 and HES4 human ES cell lines and "
                 "compared them with mouse ES cells and other human tissues", src) is None


def test_dependent_but_independent_exchanged():
    """Trial 119's 12 (*contradicted* held out only through a merged line; in sample, read so): "c-Myc-dependent but
    beta-catenin-independent" for "beta-catenin-dependent but c-Myc-independent"."""
    src = ("The consequences of the deregulation of the Wnt pathway within the liver are therefore strikingly different, "
           "with the vast majority of Wnt targets being beta-catenin-dependent but c-Myc-independent.")
    assert moved("In the liver, the vast majority of Wnt targets are c-Myc-dependent but beta-catenin-independent",
                 src)[:2] == ("polarity_flip", True)
    assert moved("In the liver, the vast majority of Wnt targets are beta-catenin-dependent but c-Myc-independent",
                 src) is None


def test_a_claim_standing_word_for_word_in_the_source_exchanges_nothing():
    """A faithful claim of `eval meaning`'s own-words set, the source's sentence itself, had been read against another
    sentence's "influence of SES" (*contradicted*, a middle state of this session)."""
    src = ("In examining effects of SES, influences of initial problem severity have been largely ignored. In the present "
           "meta-analysis, we examined (a) whether there is a differential influence of SES on parent training "
           "effectiveness at immediate posttreatment.")
    assert moved("In examining effects of SES, influences of initial problem severity have been largely ignored", src) is None


# Trials 123-126 (held out on `3e565cd`: 11, 12, 7 and 11 of 20 false claims caught, 4, 2, 4 and 2 supported;
# faithful 0, 0, 0 and 1 against). Sources: the immunoproteasome in AD brains (doc 41239107), fitness and BMI in men
# with diabetes (12770738), spontaneously released DNA (37641175).


def test_an_ordered_comparison_exchanged_and_a_negation_dropped_after_having():
    """Trial 124's 20 (*supported*, 0.95): "in comparison with" beside *increased* runs one way; trial 125's 12
    (*supported*, 0.87): "who had a history of stroke" for "with no history of stroke"."""
    from citeproof.detectors.polarity import detect_polarity_flip

    src = ("However, control brain areas of AD patients carrying the RR genotype showed an increased proteasome activity "
           "in comparison with RH carriers.")
    assert moved("In control brain areas of AD patients, RH carriers showed an increased proteasome activity in "
                 "comparison with carriers of the RR genotype", src)[2:] == ("RH carriers", "carriers of the RR genotype")
    src = ("Study participants comprised 2316 men with no history of stroke or myocardial infarction and who were "
           "diagnosed as having diabetes.")
    claim = ("The cohort comprised 2316 men diagnosed as having diabetes who had a history of stroke or myocardial "
             "infarction")
    assert [t.proven for t in detect_polarity_flip(claim, src, source_text=src)] == [True]
    assert [t for t in detect_polarity_flip(claim.replace("had a history", "had no history"), src, source_text=src)
            if t.proven] == []


def test_human_as_one_kind_of_a_list_is_no_people_unstudied():
    """Trial 126's 9 (faithful, *unsupported* by a proven scope tag: "names no people anywhere")."""
    from citeproof.detectors.scope import detect_scope_inflation

    src = ("A DNA fraction is spontaneously released from living, but not dead or dying, human, other mammalian, avian, "
           "amphibian, plant, and prokaryote cells.")
    claim = ("Living cells, but not dead or dying ones, spontaneously release a fraction of DNA, and this has been seen "
             "in organisms ranging from prokaryotes and plants to humans")
    assert [t for t in detect_scope_inflation(claim, src, source_text=src) if t.proven] == []


def test_a_cause_where_the_restating_sentence_associates_the_same_thing():
    """Trial 119's 11 (*supported*): "... causes the induction of proliferation" for "..., which is associated with an
    induction of proliferation that led to hepatomegaly"; the sentence's own *led to* had hidden it."""
    from citeproof.detectors.causal import detect_causal_overclaim

    src = ("Here, using cre-lox technology, we deleted the Apc gene in the adult mouse liver and observed a rapid increase "
           "in nuclear beta-catenin and c-Myc, which is associated with an induction of proliferation that led to "
           "hepatomegaly within 4 days.")
    claim = ("The increase in c-Myc after Apc deletion in the adult mouse liver causes the induction of proliferation that "
             "leads to hepatomegaly")
    assert [(t.confidence, t.evidence[0].evidence_span) for t in detect_causal_overclaim(claim, src, source_text=src)] \
        == [(0.85, "associated")]
    assert detect_causal_overclaim(claim.replace("causes", "is associated with"), src, source_text=src) == []


def test_a_human_polymorphism_named_is_people_studied():
    """Trial 128's 11 (faithful, *unsupported* by a proven scope tag: "the source studies 'mice' and names no people"):
    the source names "a common human polymorphism (N372H)" beside its mouse work."""
    from citeproof.detectors.scope import detect_scope_inflation

    src = ("Here we show that a common human polymorphism (N372H) in exon 10 of BRCA2 confers an increased risk of breast "
           "cancer: the HH homozygotes have a 1.3-fold higher risk than NN homozygotes. In mice, the variant reduced "
           "prenatal viability.")
    claim = ("Individuals homozygous for the H allele of the N372H polymorphism had roughly 1.3 times the breast cancer "
             "risk of NN homozygotes")
    assert [t for t in detect_scope_inflation(claim, src, source_text=src) if t.proven] == []
