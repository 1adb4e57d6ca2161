"""Citekeys made for references that come without one (Word fields, Zotero items without a key)."""

from __future__ import annotations

import dataclasses
import re
import unicodedata

from citeproof.model import Reference

__all__ = ["CitekeyMaker"]


class CitekeyMaker:
    """Readable, unique citekeys: the first author's family name and the year (``smith2020``, ``smith2020a``...).

    The family name is folded to ASCII letters and digits (``Martínez`` -> ``martinez``); a reference without
    author takes its title's first word, one without either ``item``. Keys given by the source (``reserve``) are
    never made again.

    Attributes:
        made: identity -> the reference with its made key, one per distinct identity (a Zotero URI, a CSL id).
        used: every key taken so far (made or reserved).
    """

    def __init__(self) -> None:
        self.made: dict[str, Reference] = {}
        self.used: set[str] = set()

    def reserve(self, key: str) -> None:
        """Mark ``key`` (a key the source gives) as taken."""
        self.used.add(key)

    def make(self, identity: str, ref: Reference) -> Reference:
        """``ref`` with a made citekey; the same ``identity`` always gets the same reference back."""
        hit = self.made.get(identity)
        if hit is not None:
            return hit
        family = ref.authors[0].split(",")[0] if ref.authors else ref.title.split(" ")[0] if ref.title else "item"
        base = unicodedata.normalize("NFKD", family).encode("ascii", "ignore").decode().lower()
        base = (re.sub(r"[^a-z0-9]+", "", base) or "item") + (ref.year or "")
        key, n = base, 0
        while key in self.used:
            key = base + "abcdefghijklmnopqrstuvwxyz"[n % 26] * (1 + n // 26)
            n += 1
        self.used.add(key)
        out = dataclasses.replace(ref, citekey=key)
        self.made[identity] = out
        return out
