"""Shared test helpers: where the real sample data lives."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
"""``../shared/data`` from the repository root (real PDFs, read in place, never bundled)."""

FIXTURES = Path(__file__).resolve().parent / "data"


def need(path: Path) -> Path:
    """``path`` if it exists, else skip the test saying what is missing."""
    if not path.exists():
        pytest.skip(f"sample data not present: {path}")
    return path
