"""How much of a claim a report shows: every finding repeats its claim, so a runaway one is cut.

A 109 KB draft without a sentence break is one 109 KB claim; with 20,000
citations in it, a report that repeats the whole claim per finding is 2 GB.
Reports show at most :data:`MAX_CLAIM_CHARS` characters of a claim and say
how many were cut.
"""

from __future__ import annotations

__all__ = ["MAX_CLAIM_CHARS", "clip_claim"]

MAX_CLAIM_CHARS = 2000
"""Characters of a claim shown in a report (a long paragraph is about 1,000)."""


def clip_claim(text: str, limit: int = MAX_CLAIM_CHARS) -> str:
    """``text`` unchanged when at most ``limit`` characters, else its first ``limit`` and ``… [N more characters]``."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]} … [{len(text) - limit} more characters]"
