"""citeproof's errors: one root, each kind also a builtin, each with an exit code.

Following pandoc's ``Error.hs`` (one closed error type, one exit code per
kind) and attrs' habit of subclassing the natural builtin so callers can
catch either. Recoverable problems are not errors: they become
:class:`citeproof.model.Diagnostic` records or ``unverifiable`` findings.
"""

from __future__ import annotations

__all__ = ["CiteproofError", "InputError", "UnknownFormatError", "BibliographyError", "MissingToolError", "EXIT_OK", "EXIT_FINDINGS", "EXIT_USAGE"]

EXIT_OK = 0
"""Exit code: the run finished and no gate failed."""
EXIT_FINDINGS = 1
"""Exit code: a gate failed (unknown citekeys, missing sources, findings named by ``--fail-on``)."""
EXIT_USAGE = 2
"""Exit code: bad invocation or unreadable required input (the citing document, every .bib)."""


class CiteproofError(Exception):
    """Root of citeproof's errors. ``exit_code`` is what the CLI exits with."""

    exit_code = EXIT_USAGE


class InputError(CiteproofError, ValueError):
    """A required input is missing or unreadable; the message names the file and what to do."""


class UnknownFormatError(CiteproofError, ValueError):
    """No reader or writer is registered for a format or file suffix."""


class BibliographyError(CiteproofError, ValueError):
    """A bibliography file cannot be used at all (missing, not BibTeX/CSL-JSON)."""


class MissingToolError(CiteproofError, RuntimeError):
    """An optional tool a report format needs (pandoc, LuaLaTeX) is not installed.

    The message names what is missing and how to install it. The CLI reports
    it on stderr and goes on with the other formats; the exit code is not
    changed by it.
    """
