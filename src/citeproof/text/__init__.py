"""The text layer: what every other layer does to words before comparing or quoting them.

Modules (each imports nothing from citeproof but this package):

* :mod:`citeproof.text.normalise`: the one tokenizer and the one stemmer:
  :func:`~citeproof.text.normalise.fold`, word tokens (Unicode letters:
  "Müller" is one word), Snowball stems and terms for lexical matching
  (IDF-weighted by :mod:`citeproof.retrieval.lexical`), readable surface words;
* :mod:`citeproof.text.sentences`: the one sentence splitter (syntok, no cut
  after *et al.* or *Fig.*), with character offsets;
* :mod:`citeproof.text.stems`: content stems, term lookup and sentence
  overlap for the detectors (:func:`~citeproof.text.stems.overlap_score`,
  :func:`~citeproof.text.stems.focus_evidence`);
* :mod:`citeproof.text.grounding`: the quote aligner
  (:func:`~citeproof.text.grounding.align`,
  :func:`~citeproof.text.grounding.word_diff`,
  :func:`~citeproof.text.grounding.words`) and its coverage/density gates,
  used by the quotation detectors, the LLM tier, ``locate`` and the reports;
* :mod:`citeproof.text.abbreviations`: the abbreviations a text defines in
  brackets (Schwartz & Hearst 2003), and a claim read as its source writes
  them (long forms as the short forms the source goes on using);
* :mod:`citeproof.text.language`: the language of a text;
* :mod:`citeproof.text.glyphs`: extraction damage repaired before a word is
  stored: ligature glyphs mapped to U+FFFD (or ``í``/``ì``) rebuilt from a
  vocabulary, private-use icon glyphs dropped, line-end hyphens joined only
  where the joined word is a word.

Nothing here reads files other than the shipped tokenizer vocabulary, and
nothing imports a reader, a source, a judge or a report.
"""
