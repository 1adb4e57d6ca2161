"""citeproof: does the cited source actually say this?

Public entry points: :func:`citeproof.pipeline.check` (library use) and the
``citeproof`` command (:mod:`citeproof.cli`).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
