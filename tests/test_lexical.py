"""Lexical tier: terms, coverage, verdict bands, locator pages."""

from __future__ import annotations

from citeproof.model import Source
from citeproof.pipeline import judge_text
from citeproof.retrieval.lexical import LexicalRetriever
from citeproof.text.normalise import terms
from citeproof.sources.text import parse_text


def test_terms_drop_stopwords_and_stem():
    assert ["sci", "hub", "repositori", "pirat", "articl"] == terms("Sci-Hub’s repository of the pirated articles")


def test_supported_partial_unsupported():
    source = "Sci-Hub's database contains 68.9% of the 81.6 million scholarly articles registered with Crossref.\n\nCats sleep a lot."
    sup = judge_text("Sci-Hub's database holds 68.9% of scholarly articles registered with Crossref.", source, tiers=["lexical"])
    par = judge_text("Sci-Hub's database contains most paywalled theses, dissertations and patents from Europe and Asia.", source, tiers=["lexical"])
    uns = judge_text("Dogs bark loudly at night.", source, tiers=["lexical"])
    assert ("supported", "partial", "unsupported") == (sup.verdict.value, par.verdict.value, uns.verdict.value)
    assert sup.score > 0.8 and sup.evidence.passage.line == 1
    assert 0 == uns.score or uns.score < 0.3


def test_signal_relaxes_thresholds():
    source = "Version control systems track changes to files over time.\n"
    claim = "Version control helps scientists track changes and collaborate on code."
    plain = judge_text(claim, source, tiers=["lexical"])
    see = judge_text(claim, source, signal="see", tiers=["lexical"])
    assert plain.score == see.score
    assert (plain.verdict.value, see.verdict.value) in {("partial", "supported"), ("unsupported", "partial")}


def test_locator_restricts_pages():
    from citeproof.model import Passage

    ps = [Passage(id="p1", text="The effect was large in mice.", page=1), Passage(id="p2", text="The effect was large in mice and rats.", page=3)]
    src = Source(citekey="k", sha256="x", passages=ps, text="")
    ev = LexicalRetriever().retrieve("The effect was large in mice and rats.", src, pages=[1])
    assert [1] == sorted({e.passage.page for e in ev})
    ev_all = LexicalRetriever().retrieve("The effect was large in mice and rats.", src)
    assert 3 == ev_all[0].passage.page


def test_reference_list_is_never_evidence():
    from citeproof.model import Passage

    ps = [
        Passage(id="p1", text="We measured growth.", page=1),
        Passage(id="p2", text="References", page=2, section="references"),
        Passage(id="p3", text="Smith J. Deep learning for protein folding. Nature 2020.", page=2, section="references"),
    ]
    ev = LexicalRetriever().retrieve("Deep learning for protein folding", Source(citekey="k", sha256="y", passages=ps))
    assert all(e.passage.section != "references" for e in ev)


def test_parse_text_paragraph_lines():
    ps, _ = parse_text("one\ntwo\n\n\nthree\n")
    assert [("one two", 1), ("three", 5)] == [(p.text, p.line) for p in ps]


def test_a_text_written_a_sentence_per_line_is_a_passage_per_line():
    """Issue 28's third trial: an abstract saved a sentence per line was one passage ("line 1") for every finding;
    a paragraph wrapped at a width stays one passage."""
    text = ("Trends in heart failure incidence and survival.\nPatients were 4537 Olmsted County residents.\n"
            "The incidence of heart failure was higher among men.\nSurvival improved over time.\n\n"
            "A paragraph wrapped at a width goes on\nacross its lines until it ends\nhere.\n")
    ps, _ = parse_text(text)
    assert [(p.line, p.text[:20]) for p in ps] == [(1, "Trends in heart fail"), (2, "Patients were 4537 O"),
                                                  (3, "The incidence of hea"), (4, "Survival improved ov"),
                                                  (6, "A paragraph wrapped ")]
    assert ps[-1].text.endswith("until it ends here.")


def test_a_sentence_per_line_whose_last_line_trails_off_is_a_passage_per_line():
    """A 38th trial's source, an abstract cut short ("... by which diabetes may lead …") under a title with no
    full stop, had been one passage, "line 1", for all its findings."""
    text = ("Microvascular and Macrovascular Complications of Diabetes\nDiabetes is a group of chronic diseases.\n"
            "Hyperglycemia harms tissues.\nRetinopathy is the most common complication.\n"
            "Its mechanisms by which diabetes may lead \u2026\n")
    ps, _ = parse_text(text)
    assert [p.line for p in ps] == [1, 2, 3, 4, 5]


def test_a_heading_is_never_glued_to_the_paragraph_after_it():
    """A new user's Markdown source: the heading ran into the first sentence ("Cardiac effects of statins Statin
    therapy ...") and the best passage was said to start on the heading's line."""
    from citeproof.sources.text import parse_markdown_source

    text = ("# Cardiac effects of statins\n\nStatin therapy reduced the risk of heart attack by 25 percent in adults over "
            "sixty years of age.\nSide effects were mild and mostly limited to muscle pain.\n")
    passages, full = parse_markdown_source(text)
    src = Source(citekey="k", passages=passages, text=full)
    ev = LexicalRetriever().retrieve("Statins reduced the risk of heart attack in adults over sixty, a cardiac effect.", src, top=5)
    assert all(not e.passage.text.startswith("Cardiac effects of statins Statin") for e in ev)
    assert ev[0].passage.line == 3
