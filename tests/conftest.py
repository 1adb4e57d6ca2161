"""Shared paths and fixtures.

``SAMPLE`` is the bundled demo sample (always present). ``DATA`` is
``../shared/data`` beside the repository; tests that need it skip with a
reason when it is absent. ``FIXTURES`` holds small inputs written for the
tests (``tests/data``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "manubot"
DATA = ROOT.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "data"


def need_data(sub: str) -> Path:
    """``DATA / sub``, or skip the test with the reason."""
    p = DATA / sub
    if not p.exists():
        pytest.skip(f"{p} is absent (shared data not available here)")
    return p


def need(path: Path) -> Path:
    """``path`` if it exists, else skip the test saying what is missing."""
    if not path.exists():
        pytest.skip(f"{path} is absent (shared data not available here)")
    return path


@pytest.fixture(scope="session")
def sample_report(tmp_path_factory):
    """The demo sample checked once per session (lexical tier, fresh cache)."""
    from citeproof.pipeline import CheckOptions, check

    cache = tmp_path_factory.mktemp("cache")
    return check(SAMPLE / "citing" / "meta-review.md", [SAMPLE / "meta-review.bib"], CheckOptions(cache_dir=cache))
