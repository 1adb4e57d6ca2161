"""requirements.lock pins every package pyproject.toml asks for (issue 18: reproducible installs)."""

from __future__ import annotations

import re
import tomllib

from conftest import ROOT


def _name(req: str) -> str:
    """The normalised distribution name of a PEP 508 requirement (``"PyMuPDF>=1.24"`` -> ``"pymupdf"``)."""
    return re.sub(r"[-_.]+", "-", re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req).group(1)).lower()


def _locked() -> dict[str, list[str]]:
    pins: dict[str, list[str]] = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        m = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line)
        if m:
            pins.setdefault(_name(m.group(1)), []).append(m.group(2))
    return pins


def test_every_dependency_is_pinned():
    """Runtime, test and render requirements each have an exact pin in the lock (``make lock`` after editing)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(meta["dependencies"])
    for extra in ("test", "render", "batch"):
        wanted += meta["optional-dependencies"].get(extra, [])
    pins = _locked()
    missing = sorted({_name(r) for r in wanted} - set(pins))
    assert [] == missing, f"not in requirements.lock (run `make lock`): {missing}"


def test_makefile_installs_with_the_lock():
    """``make install`` passes the lock to pip as constraints, so CI and a fresh clone get the same versions."""
    mk = (ROOT / "Makefile").read_text()
    assert "-c requirements.lock" in mk
    assert "requirements.lock" in mk.split("$(STAMP):", 1)[1].splitlines()[0]
