"""The ``citeproof`` command.

Exit codes (:mod:`citeproof.errors`): 0 ok, 1 a gate failed (unknown
citekeys for ``gate``, missing sources for ``audit``, verdicts named by
``--fail-on`` for ``check``), 2 bad invocation or unreadable required input.
Reports go to files, the summary to stdout, diagnostics to stderr.

The commands live in :mod:`citeproof.cli.check`, :mod:`~citeproof.cli.review`,
:mod:`~citeproof.cli.tools`, :mod:`~citeproof.cli.evals` and :mod:`~citeproof.cli.assist`; what they share
(the app, consoles, option types) in :mod:`citeproof.cli._common`.
"""

from __future__ import annotations

import sys

# Each module registers its commands on ``app``; the import order is the order of ``citeproof --help``.
from citeproof.cli import check  # noqa: F401  check, gate, audit
from citeproof.cli import review  # noqa: F401  diff, history, locate
from citeproof.cli import tools  # noqa: F401  batch, verify, ask, serve, version, demo, cache prune
from citeproof.cli import evals  # noqa: F401  eval planted | scifact | citation-integrity | feedback
from citeproof.cli import assist  # noqa: F401  fix --locators, watch
from citeproof.cli._common import app, err
from citeproof.errors import CiteproofError

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except CiteproofError as exc:  # pragma: no cover - commands catch their own
        err.print(f"error: {exc}", highlight=False)
        sys.exit(exc.exit_code)
