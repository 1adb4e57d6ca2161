"""Integrity of what was read: a Merkle root over each source's passages (issue 19, part 6).

The tree is RFC 6962's Merkle Tree Hash (Certificate Transparency, section 2.1): a leaf is
``SHA-256(0x00 || data)``, an inner node ``SHA-256(0x01 || left || right)``, and a list of n > 1 leaves splits at
the largest power of two below n. A passage's leaf data is its id, page, line, character span and text, joined by
U+001F and encoded as UTF-8 (:func:`passage_leaf`), so the root changes when any passage's words or position change.

The JSON report keeps each source's root (``provenance.merkle_root``, ``provenance.passages``) and, for the quoted
passage, its index and audit path (``evidence.leaf_index``, ``evidence.proof``). ``citeproof verify REPORT.json``
then shows (a) that each quoted passage, as printed in the report, hashes to the recorded root (nobody edited the
quote), and (b) that the files on disk still give the recorded roots (nobody swapped or edited a source).
"""

from __future__ import annotations

import hashlib
from typing import Sequence

__all__ = ["passage_leaf", "leaf_hash", "merkle_root", "inclusion_proof", "verify_inclusion", "source_tree", "passage_proof"]


def passage_leaf(pid: str, page: int | None, line: int | None, char_start: int | None, char_end: int | None, text: str) -> bytes:
    """The leaf data of one passage (module docstring); None fields are written as empty strings."""
    parts = [pid, "" if page is None else str(page), "" if line is None else str(line),
             "" if char_start is None else str(char_start), "" if char_end is None else str(char_end), text]
    return "\x1f".join(parts).encode("utf-8", "surrogatepass")


def leaf_hash(data: bytes) -> bytes:
    """RFC 6962 leaf hash: SHA-256 of 0x00 followed by the data (32 bytes)."""
    return hashlib.sha256(b"\x00" + data).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _root(hashes: Sequence[bytes]) -> bytes:
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return _node(_root(hashes[:k]), _root(hashes[k:]))


def merkle_root(leaves: Sequence[bytes]) -> str:
    """The RFC 6962 Merkle Tree Hash of the leaf data, as 64 hex digits; the hash of no input for no leaves."""
    if not leaves:
        return hashlib.sha256(b"").hexdigest()
    return _root([leaf_hash(x) for x in leaves]).hex()


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[str]:
    """The audit path of leaf ``index`` (RFC 6962 section 2.1.1), hex digests from the leaf up.

    Raises:
        IndexError: ``index`` is outside ``leaves``.
    """
    if not 0 <= index < len(leaves):
        raise IndexError(f"leaf {index} of {len(leaves)}")
    hashes = [leaf_hash(x) for x in leaves]

    def path(m: int, hs: Sequence[bytes]) -> list[bytes]:
        if len(hs) <= 1:
            return []
        k = _split(len(hs))
        if m < k:
            return path(m, hs[:k]) + [_root(hs[k:])]
        return path(m - k, hs[k:]) + [_root(hs[:k])]

    return [h.hex() for h in path(index, hashes)]


def verify_inclusion(data: bytes, index: int, size: int, proof: Sequence[str], root: str) -> bool:
    """True when leaf data ``data`` at ``index`` of a ``size``-leaf tree hashes with ``proof`` to ``root``.

    The verification of RFC 9162 section 2.1.3.2 (the same tree as RFC 6962). Malformed input gives False.
    """
    try:
        fn, sn = index, size - 1
        r = leaf_hash(data)
        for p in proof:
            h = bytes.fromhex(p)
            if sn == 0:
                return False
            if fn & 1 or fn == sn:
                r = _node(h, r)
                if not fn & 1:
                    while fn and not fn & 1:
                        fn >>= 1
                        sn >>= 1
            else:
                r = _node(r, h)
            fn >>= 1
            sn >>= 1
        return sn == 0 and r.hex() == root
    except (ValueError, TypeError):
        return False


_TREES: dict[tuple[int, str, int], tuple[str, list[bytes], dict[str, int]]] = {}


def source_tree(source) -> tuple[str, list[bytes], dict[str, int]]:
    """``(root, leaf data, passage id -> leaf index)`` of a :class:`~citeproof.model.Source`'s passages.

    Memoised for the sources of the report being written (at most 256 kept).
    """
    key = (id(source), source.sha256, len(source.passages))
    hit = _TREES.get(key)
    if hit is None:
        leaves = [passage_leaf(p.id, p.page, p.line, p.char_start, p.char_end, p.text) for p in source.passages]
        hit = (merkle_root(leaves), leaves, {p.id: i for i, p in enumerate(source.passages)})
        if len(_TREES) >= 256:
            _TREES.clear()
        _TREES[key] = hit
    return hit


def passage_proof(source, passage) -> tuple[int, list[str]] | None:
    """``(leaf index, audit path)`` of ``passage`` among ``source``'s passages, or None when it is not one of them."""
    _, leaves, index = source_tree(source)
    i = index.get(passage.id)
    if i is None or leaves[i] != passage_leaf(passage.id, passage.page, passage.line, passage.char_start, passage.char_end, passage.text):
        return None
    return i, inclusion_proof(leaves, i)
