"""``citeproof verify REPORT.json``: are the quoted passages and the sources still what the report says?

Two checks (:mod:`citeproof.integrity` gives the tree):

1. every quoted passage printed in the report, with its id, page, line and span, hashes along its audit path to
   the Merkle root the report recorded for its source: the quote was not edited after the run;
2. every source file named in the report still gives that root: the same bytes (SHA-256 equal), or other bytes
   whose parsed passages are the same (``same text``); otherwise the source ``changed`` (or is ``missing``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeproof.integrity import merkle_root, passage_leaf, verify_inclusion

__all__ = ["SourceCheck", "Verification", "verify_report"]


@dataclass
class SourceCheck:
    """One source of the report: ``status`` is ``unchanged``, ``same text``, ``changed`` or ``missing``."""

    path: str
    status: str
    detail: str = ""


@dataclass
class Verification:
    """The result: per-source checks, quotes whose proof failed, quotes checked."""

    sources: list[SourceCheck] = field(default_factory=list)
    bad_quotes: list[dict[str, Any]] = field(default_factory=list)
    quotes_checked: int = 0

    @property
    def ok(self) -> bool:
        """True when every quote verifies and every source is unchanged or has the same text."""
        return not self.bad_quotes and all(s.status in ("unchanged", "same text") for s in self.sources)


def verify_report(report: dict[str, Any], base: Path | None = None) -> Verification:
    """Verify a JSON report (module docstring).

    Args:
        report: the JSON report (:func:`citeproof.reports.diff.load_report`).
        base: folder that relative source paths are resolved against (the current folder when None).

    Returns:
        A :class:`Verification`. Findings without a recorded root (older reports, unreadable sources) are skipped.
    """
    import hashlib

    from citeproof.sources import load_source
    from citeproof.sources.cache import Cache

    out = Verification()
    roots: dict[str, tuple[str, str]] = {}
    ocr_modes: dict[str, str] = {}
    for f in report.get("findings", []):
        prov = f.get("provenance") or {}
        ev = f.get("evidence") or {}
        root = prov.get("merkle_root")
        if not root:
            continue
        if f.get("source"):
            roots.setdefault(f["source"], (prov.get("sha256", ""), root))
            ocr_modes.setdefault(f["source"], prov.get("ocr") if prov.get("ocr") in ("auto", "force") else "auto")
        if ev.get("text") is not None and ev.get("proof") is not None:
            out.quotes_checked += 1
            leaf = passage_leaf(ev.get("passage_id", ""), ev.get("page"), ev.get("line"), ev.get("char_start"), ev.get("char_end"), ev["text"])
            if not verify_inclusion(leaf, int(ev.get("leaf_index", -1)), int(prov.get("passages", 0)), ev["proof"], root):
                out.bad_quotes.append(f)
    for path_s, (sha, root) in roots.items():
        path = Path(path_s)
        if base is not None and not path.is_absolute():
            path = base / path
        try:
            data = path.read_bytes()
        except OSError as exc:
            out.sources.append(SourceCheck(path_s, "missing", f"cannot be read ({exc.strerror or exc})"))
            continue
        if hashlib.sha256(data).hexdigest() == sha:
            out.sources.append(SourceCheck(path_s, "unchanged"))
            continue
        src = load_source("verify", path, "verify", Cache(None), ocr_modes.get(path_s, "auto"))  # read as the report's run read it
        now = merkle_root([passage_leaf(p.id, p.page, p.line, p.char_start, p.char_end, p.text) for p in src.passages])
        if src.passages and now == root:
            out.sources.append(SourceCheck(path_s, "same text", "other bytes, the same passages"))
        else:
            out.sources.append(SourceCheck(path_s, "changed", f"the file's passages give root {now[:12]}, the report recorded {root[:12]}"))
    return out
