"""DOIs as citeproof compares them."""

from __future__ import annotations

import re

__all__ = ["normalise_doi"]


def normalise_doi(doi: str) -> str:
    """A DOI without resolver prefix, lower-cased (DOIs are case-insensitive).

    ``https://doi.org/10.7554/eLife.32822`` -> ``10.7554/elife.32822``.
    """
    doi = doi.strip()
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.I)
    return doi.strip().rstrip(".").lower()
