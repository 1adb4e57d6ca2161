"""One text layer (issue 29): one tokenizer, one stemmer, one sentence splitter, used by the detectors as by retrieval."""

import ast
from pathlib import Path

from citeproof.detectors import run_detectors_text
import unicodedata

from citeproof.text.normalise import _combining_marks, fold, stem, terms, tokenize, word_tokens
from citeproof.text.stems import content_stems, find_terms, focus_evidence, relevant_sentences, sentence_stems, tokens

SRC = Path(__file__).parents[1] / "src" / "citeproof"


def test_a_name_with_an_umlaut_is_one_token_everywhere():
    """The detectors' ASCII tokenizer cut "Müller" into "m" and "ller"; now every stage reads one word."""
    assert tokens("Müller et al. found it") == ["muller", "et", "al", "found", "it"]
    assert word_tokens("Müller") == ["muller"] == tokenize("Müller")
    assert "muller" in content_stems("Müller reported the effect")
    assert terms("Müller") == ["muller"]
    assert tokens("Gödel's theorem and NF-κB") == ["godel's", "theorem", "and", "nf-κb"]


def test_fold_drops_every_combining_mark_and_keeps_hangul_whole():
    """fold's ``translate`` table (issue 27) holds each character of nonzero combining class in all of Unicode."""
    every = {c for c in range(0x110000) if unicodedata.combining(chr(c))}
    assert every == set(_combining_marks()) and len(every) > 800
    assert fold("Crème brûlée – São Paulo, Ångström, naïve") == "creme brulee – sao paulo, angstrom, naive"
    assert fold("ﬁrst ﬂow in the eﬃcient ofﬁce") == "ƒrst ƒow in the eƒcient oƒce"
    assert fold("한국어 논문") == "한국어 논문"  # NFKD splits syllables into jamo; fold composes them back
    assert fold("नमस्ते") == "नमसते"  # the virama (class 9) goes, the vowel sign (class 0) stays, as before


def test_term_lookup_respects_word_boundaries_of_any_script():
    """A term is not found inside a word that holds a non-ASCII letter ("ller" in "Müller", "all" in "Ñall")."""
    assert find_terms("Müller showed it", ["ller"]) == []
    assert find_terms("Ñall of them", ["all"]) == []
    assert [t[0] for t in find_terms("in all patients", ["all"])] == ["all"]


def test_one_stemmer_for_detectors_and_retrieval():
    """The detectors' stems are the retrieval terms' Snowball stems (the crude suffix stripper is gone)."""
    for word in ("increased", "increasing", "studies", "randomization", "Müller"):
        assert content_stems(word) == frozenset({stem(word)}) == frozenset(terms(word))
    assert stem("increased") == stem("increases") == stem("increasing") == "increas"


def test_no_sentence_cut_after_et_al_or_fig():
    """The regex splitter cut "Smith et al. (Fig. 2)" after "(Fig."; the one splitter keeps the sentence whole."""
    text = "As Smith et al. (Fig. 2) showed, the vaccine reduced infection in mice. Treatment was well tolerated."
    assert [s for s, _st, _pre in sentence_stems(text)] == [
        "As Smith et al. (Fig. 2) showed, the vaccine reduced infection in mice.",
        "Treatment was well tolerated.",
    ]
    best = relevant_sentences("the vaccine reduced infection in mice", text, k=1)
    assert best == ["As Smith et al. (Fig. 2) showed, the vaccine reduced infection in mice."]
    passage = text + " Costs rose. Nobody knew why."
    assert focus_evidence("vaccine reduced infection", passage, k=1) == best[0]


def test_a_detector_reason_quotes_the_whole_sentence_past_fig():
    """A hedge in the sentence that goes on past "(Fig. 3)" is seen: the split used to stop the sentence at "(Fig."."""
    source = ("The compound may reduce tumour growth in mice (Fig. 3) according to preliminary data. "
              "Other results were unrelated.")
    tags = run_detectors_text("The compound reduces tumour growth in mice.", source, source_text=source)
    hedge = [t for t in tags if t.name == "hedge_removed"]
    assert [t.message for t in hedge] == [
        "The source hedges this statement ('may': \u201cThe compound may reduce tumour growth in mice (Fig. 3) according "
        "to preliminary data.\u201d); the claim states it as a finding."]  # it read "... in mice (Fig.\u201d"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_text_layer_imports_only_itself_and_detectors_import_no_judge():
    """text/ is the ground floor (imports nothing of citeproof but text/); detectors read text/, never judges/."""
    for f in (SRC / "text").glob("*.py"):
        bad = {m for m in _imports(f) if m.startswith("citeproof") and not m.startswith("citeproof.text")}
        assert not bad, (f.name, bad)
    for f in (SRC / "detectors").glob("*.py"):
        assert not {m for m in _imports(f) if m.startswith("citeproof.judges")}, f.name
