"""The assist stage's answers kept in the judgement cache, so a warm re-run loads no model (issue 17's promise).

A library search or a locator search is stored under a key over what decides it: the run's fingerprint
(:func:`citeproof.judgecache.run_fingerprint`: code, tiers, models, policy, settings), the text searched, what was
left out, and the fingerprint of every source searched (:func:`citeproof.judgecache.source_fingerprint`). A cache
without a folder (``--no-cache``), or a run with the LLM tier, stores and finds nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from citeproof.judgecache import _digest, run_fingerprint, source_fingerprint
from citeproof.model import Source
from citeproof.sources.cache import Cache

__all__ = ["Memo"]


class Memo:
    """Get-or-compute over the judgement cache, for one run.

    Args:
        cache: the run's cache (None or a folderless one: nothing is kept).
        tiers: the tiers that run.
        settings: the run's pass-through settings.
    """

    def __init__(self, cache: Cache | None, tiers: list[str], settings: dict | None = None) -> None:
        self.cache = cache if cache is not None and cache.folder is not None and "llm" not in tiers else None
        self.run = run_fingerprint(tiers, settings) if self.cache is not None else ""
        self._fp: dict[int, str] = {}
        self.reused = 0

    def source(self, src: Source) -> str:
        """The source's fingerprint (memoised for the run)."""
        if id(src) not in self._fp:
            self._fp[id(src)] = source_fingerprint(src)
        return self._fp[id(src)]

    def get_or(self, parts: list[Any], compute: Callable[[], Any]) -> Any:
        """The stored answer for ``parts`` (JSON-able), else ``compute()``, stored (it must be JSON-able too)."""
        if self.cache is None:
            return compute()
        key = "assist:" + _digest([self.run, parts])
        got = self.cache.get_judgement(key)
        if got is not None and "value" in got:
            self.reused += 1
            return got["value"]
        value = compute()
        self.cache.put_judgement(key, {"value": value})
        return value
