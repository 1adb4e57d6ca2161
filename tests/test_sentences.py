"""The one sentence splitter (``citeproof.text.sentences``), used by the readers and the entailment judge."""

from __future__ import annotations

import json

from citeproof.judges import entailment
from citeproof.readers import claims
from citeproof.text.sentences import sentence_spans, split_sentences

from conftest import DATA


def cut(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


class TestSentenceSpans:
    def test_reference_abbreviations_end_no_sentence(self):
        """'Lee et al. (Fig. 2)', 'Sec. 3', 'Eq. 4', 'Fig. S1', 'ref. [2]' stay inside their sentence (syntok cut at each)."""
        text = ("Lee et al. (Fig. 2) reported growth. As shown in Sec. 3 and Eq. 4, the rate doubles. "
                "See Fig. S1 and ref. [2] for the raw data.")
        assert [
            "Lee et al. (Fig. 2) reported growth.",
            "As shown in Sec. 3 and Eq. 4, the rate doubles.",
            "See Fig. S1 and ref. [2] for the raw data.",
        ] == cut(text)

    def test_offsets_index_the_text(self):
        """Spans are character offsets into the text given, newlines and all."""
        text = "First one.\nSecond,\nover two lines.  Third!"
        assert [(0, 10), (11, 34), (36, 42)] == sentence_spans(text)

    def test_boundaries_syntok_misses(self):
        """A period after a number or a closing parenthesis ends a sentence (found on SciFact abstracts)."""
        assert ["Exposure to PM2.5-10.", "Roads were not related."] == cut("Exposure to PM2.5-10. Roads were not related.")
        assert ["It was rare (P<.001).", "Death was neurologic."] == cut("It was rare (P<.001). Death was neurologic.")

    def test_no_cut_at_semicolon_or_inside_parentheses(self):
        """syntok ends sentences at ';' and inside long parentheses; a sentence ends only at . ! ? or a blank line."""
        text = "Of 632 patients (mean age, 57.1 years [SD, 10.6]; men, 395), 583 completed; 44% responded."
        assert [text] == cut(text)

    def test_initials_and_units(self):
        """An initial is no sentence end; a unit letter before a capital is ('after 4 y. Gastric')."""
        assert ["J. R. Tolkien wrote it.", "Next."] == cut("J. R. Tolkien wrote it. Next.")
        assert ["Loss lasted 4 y.", "Gastric bypass helped."] == cut("Loss lasted 4 y. Gastric bypass helped.")
        assert ["Variants at c. 5261 to c. 5563 matter."] == cut("Variants at c. 5261 to c. 5563 matter.")

    def test_blank_line_always_ends(self):
        """A blank line ends a sentence even after an abbreviation."""
        assert ["As in Fig.", "Next paragraph."] == cut("As in Fig.\n\nNext paragraph.")

    def test_blank(self):
        assert [] == sentence_spans(" \n ")


def test_one_splitter_for_readers_and_judge():
    """The readers and the judge cut with the same function (the judge adds only whitespace folding and gluing)."""
    assert claims.split_sentences is sentence_spans
    text = "Lee et al. (Fig. 2) reported growth. Sec. 3 shows it."
    assert cut(text) == entailment.split_sentences(text) == split_sentences(text)


def test_a_title_without_a_full_stop_ends_before_the_abstracts_label():
    """A 31st trial's source: its title line (no full stop) had been read with the next line's "OBJECTIVE ..." as one
    sentence, judged against claims about either; a label in capitals inside a sentence is no cut."""
    title = ("Interleukin-18 null mutation increases weight and food intake and reduces energy expenditure and lipid "
             "substrate utilization in high-fat diet fed mice")
    objective = ("OBJECTIVE The proinflammatory cytokine interleukin-18 (IL-18) putatively modulates food intake and "
                 "energy metabolism, but the effects of IL-18 in high-fat diet fed animals are unknown.")
    assert split_sentences(title + "\n" + objective) == [title, objective]
    assert split_sentences(title + " " + objective) == [title, objective]
    # a heading in capitals stays whole (the clean-clone CI: "RESEARCH DESIGN AND METHODS" had been cut in two)
    assert split_sentences("RESEARCH DESIGN AND METHODS") == ["RESEARCH DESIGN AND METHODS"]
    assert split_sentences("The OBJECTIVE of the study was clear. We measured RESULTS in mice.") == [
        "The OBJECTIVE of the study was clear.", "We measured RESULTS in mice."]


def test_min_chars_glues_fragments():
    """Fragments under min_chars join the sentence before (the judge uses 12)."""
    assert ["It rose. Yes.", "Then it fell again."] == split_sentences("It rose. Yes. Then it fell again.", min_chars=8)


def test_scifact_abstracts_keep_their_sentences():
    """Most SciFact abstracts, joined, come back as the dataset's own sentences (the annotators' cut)."""
    path = DATA / "scifact" / "corpus.jsonl"
    if not path.exists():
        import pytest

        pytest.skip(f"{path} is absent (shared data not available here)")
    same = total = 0
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if n >= 400:
                break
            sents = [s.strip() for s in json.loads(line)["abstract"] if s.strip()]
            total += 1
            same += split_sentences(" ".join(sents)) == [" ".join(s.split()) for s in sents]
    assert same / total > 0.8, same / total


def test_split_answers_are_kept_within_their_bound(monkeypatch):
    """A long text is split once (issue 27); each call gets its own list, and the kept texts stay under the bound."""
    from citeproof.text import sentences

    text = "The first finding was replicated. The second was not, in 12 of 40 runs (Fig. 2). " * 8
    first = split_sentences(text)
    assert len(first) == 16 and first[1] == "The second was not, in 12 of 40 runs (Fig. 2)."
    first.append("changed by the caller")
    assert split_sentences(text) == first[:-1]
    assert (text, 0) in sentences._split_cache
    monkeypatch.setattr(sentences, "SPLIT_CACHE_CHARS", 3 * len(text))
    others = [text + f" Run {k} ended." for k in range(5)]
    for t in others:
        assert split_sentences(t)[-1].startswith("Run ")
    assert sentences._split_chars <= 3 * len(text) + 20
    assert (others[-1], 0) in sentences._split_cache and (others[0], 0) not in sentences._split_cache


class TestSourceRuns:
    """A whole source is its passages joined by blank lines; a passage that ends in a full stop ends its sentence."""

    SOURCE = ("There is no reason this framework needs to be limited only to code: manuscripts, protocols, etc."
              "\n\nVersion your code\n\nThe first step is to learn how to version your own code. Commit often."
              "\n\nFigure 2: coverage of\n\nthe repository by year of publication.")

    def test_a_passage_ending_in_a_full_stop_ends_its_sentence(self):
        """syntok over the flattened text ran past "etc." into the heading (found on the scale job's PDFs)."""
        from citeproof.text.sentences import sentence_runs

        assert sentence_runs(self.SOURCE) == [
            "There is no reason this framework needs to be limited only to code: manuscripts, protocols, etc.",
            "Version your code\n\nThe first step is to learn how to version your own code. Commit often.",
            "Figure 2: coverage of\n\nthe repository by year of publication.",
        ]
        assert split_sentences(self.SOURCE) == [
            "There is no reason this framework needs to be limited only to code: manuscripts, protocols, etc.",
            "Version your code The first step is to learn how to version your own code.",
            "Commit often.",
            "Figure 2: coverage of the repository by year of publication.",
        ]

    def test_min_chars_still_glues_across_runs(self):
        assert split_sentences("A first sentence that is long enough.\n\nShort.", min_chars=10) == [
            "A first sentence that is long enough. Short."]

    def test_sentences_about_splits_only_runs_that_can_reach_the_floor(self, monkeypatch):
        """The claim's words decide which runs are split; the answer is the eager one's, in text order."""
        from citeproof.text import stems

        source = "\n\n".join(
            [f"Passage {i} talks about weather patterns in the northern hemisphere only." for i in range(30)]
            + ["Mice fed a high-fat diet gained about 12% body weight.", "High-fat diets also raised insulin in mice."])
        claim = "High-fat diets cause weight gain in mice"
        eager = [(stems.stem_hits(stems.content_stems(claim), e) / len(stems.content_stems(claim)), e[0])
                 for e in stems.sentence_stems(source)]
        want = [x for x in eager if x[0] >= 0.3]
        stems.sentence_stems.cache_clear()
        stems._run_index.cache_clear()
        split = []
        real = stems.split_sentences
        monkeypatch.setattr(stems, "split_sentences", lambda t, *a: split.append(t) or real(t, *a))
        assert stems.sentences_about(claim, source, floor=0.3) == want
        assert [s for _x, s in want] == ["Mice fed a high-fat diet gained about 12% body weight.",
                                        "High-fat diets also raised insulin in mice."]
        assert len(split) == 2  # the two runs about the claim, not the 30 about the weather
        assert stems.relevant_sentences(claim, source, k=1) == ["Mice fed a high-fat diet gained about 12% body weight."]


def test_no_sentence_ends_inside_a_bracketed_reference():
    """A 110th new user's trial: "[... Murakami, Chan & Routtenberg (1986) J. Biol. Chem. 261, 15424-15429]" was cut
    after *Biol.* and *Chem.*, and a faithful claim was judged against "261, 15424-15429], studies using H-7 ...". An
    unmatched closer earlier in the text ("a)" of a list) must not hide the bracket."""
    from citeproof.text.sentences import split_sentences

    text = ("Two points a) and b) were made. Although non-esterified fatty acids activate protein kinase C (PKC) "
            "[McPhail, Clayton & Snyderman (1984) Science 224, 622-624; Murakami, Chan & Routtenberg (1986) J. Biol. "
            "Chem. 261, 15424-15429], studies using H-7 ruled out the involvement of PKC. Flow-cytometry showed no "
            "interference.")
    sents = split_sentences(text)
    assert len(sents) == 3
    assert sents[1].startswith("Although") and sents[1].endswith("involvement of PKC.")


def test_a_sentence_opening_with_a_hyphenated_lower_case_name_is_its_own():
    """A 119th new user's trial: "... [@sf1].\\nc-Myc deletion ..." and "... [@sf2].\\nbeta-catenin loss ..." were one
    claim each, judged against the first line's source."""
    from citeproof.text.sentences import split_sentences

    assert len(split_sentences("Loss of APC activates Wnt signalling in the intestine [@a].\nc-Myc deletion rescues "
                               "the phenotype [@b].")) == 2
    assert len(split_sentences("Wnt targets are c-Myc-dependent [@a].\nbeta-catenin loss exacerbates both phenotypes "
                               "[@a].")) == 2
    assert len(split_sentences("We used Fig. 2. x-ray images were taken.")) == 1


def test_sentences_inside_a_figure_caption_are_still_cut():
    """A middle state of session 26 cut no sentence inside any bracket, and the demo's figure caption (Markdown
    ``![...](...)``, many sentences over many lines) became one claim unit for three citations. Long or multi-line
    brackets may hold sentences."""
    from citeproof.text.sentences import split_sentences

    caption = ("![\n**Contributions by author over time.**\nThe Deep Review was initiated in August 2016, and the first "
               "complete manuscript was released as a preprint [@a] in May 2017.\nThe preprint was updated in January "
               "2018, and the article was accepted in March 2018 [@b].\n](images/fig.svg){#fig:contrib}")
    sents = split_sentences(caption)
    assert any(s.startswith("The preprint was updated in January 2018") for s in sents)
