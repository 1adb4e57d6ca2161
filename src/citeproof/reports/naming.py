"""What a report file is called: one rule for the CLI, the web page and batch.

Reads nothing but the path's name; imports no other citeproof module.
"""

from __future__ import annotations

from pathlib import PurePath, PurePosixPath

__all__ = ["report_stem"]


def report_stem(document: str | PurePath) -> str:
    """The report's base name: the file name without its suffix (``.tar.gz`` counts as one).

    Used for every report of every entry point (CLI, web page, batch), so
    ``draft.tar.gz`` gives ``draft.citeproof.html`` wherever it was checked.
    """
    name = PurePosixPath(document).name
    for suf in (".tar.gz", ".tgz"):
        if name.lower().endswith(suf):
            return name[: -len(suf)]
    return PurePosixPath(name).stem
