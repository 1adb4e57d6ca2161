"""The text layer: what every other layer does to words before comparing or quoting them.

Modules (each imports nothing from citeproof but this package):

* :mod:`citeproof.text.normalise`: :func:`~citeproof.text.normalise.fold`,
  tokens and Snowball-stemmed terms for lexical matching (IDF-weighted by
  :mod:`citeproof.retrieval.lexical`), and readable surface words;
* :mod:`citeproof.text.stems`: the detectors' crude stems, term lookup and
  sentence overlap (:func:`~citeproof.text.stems.overlap_score`,
  :func:`~citeproof.text.stems.focus_evidence`);
* :mod:`citeproof.text.glyphs`: extraction damage repaired before a word is
  stored: ligature glyphs mapped to U+FFFD (or ``í``/``ì``) rebuilt from a
  vocabulary, private-use icon glyphs dropped, line-end hyphens joined only
  where the joined word is a word.

Nothing here reads files other than the shipped tokenizer vocabulary, and
nothing imports a reader, a source, a judge or a report.
"""
