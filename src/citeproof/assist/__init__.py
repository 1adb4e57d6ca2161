"""Beyond checking (issue 25): help the author fix the draft.

Each module is one part, and :mod:`citeproof.assist.stage` is the one place the pipeline calls them from:

* :mod:`~citeproof.assist.paragraphs`: the citing document's prose paragraphs, every sentence with whether it cites;
* :mod:`~citeproof.assist.uncited`: ``uncited_claim`` diagnostics (a specific finding that cites nothing);
* :mod:`~citeproof.assist.library`: the user's whole library (every entry with a file, ``--sources``, Zotero) searched
  for the work that supports a claim, with the run's own retrieval and judge (:class:`citeproof.tiers.Tiers`);
* :mod:`~citeproof.assist.locators`: a corrected locator when the words stand on another page, and the patch
  ``citeproof fix --locators`` writes;
* :mod:`~citeproof.assist.consistency`: ``inconsistent_citations``, one work cited for incompatible facts.

None of them changes a verdict: they add ``suggestions`` and ``inconsistencies`` to findings and diagnostics to
the report.
"""
