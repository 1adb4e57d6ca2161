"""Which files a LaTeX document may read, and reading them: includes expanded, bundles unpacked, reads confined.

Reading uploads (the web page): inside ``with confine_reads(folder):`` an
``\\input`` or ``\\bibliography`` naming a file outside ``folder`` (an
absolute path, ``..``, a link) is not read; a diagnostic says so. An arXiv
bundle is always read only from inside itself (:func:`confine_bundle`),
unless within ``with allow_outside_reads():`` (the CLI's ``--allow-outside``).
:mod:`citeproof.readers.latex` turns what is read here into claims.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import re
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from citeproof.errors import InputError
from citeproof.model import Diagnostic

__all__ = ["confine_reads", "allow_outside_reads", "read_allowed", "confine_bundle", "strip_comment", "expand_includes", "find_main_tex", "extract_bundle"]

_CONFINE: contextvars.ContextVar[Path | None] = contextvars.ContextVar("citeproof_latex_confine", default=None)


@contextlib.contextmanager
def confine_reads(folder: Path) -> Iterator[None]:
    """Within the block, included files and .bib files are read only from inside ``folder``.

    For documents from an upload: ``\\input{/etc/passwd}`` or
    ``\\bibliography{../../secret}`` must not pull a server's files into the
    report. Applies to the current thread (a context variable).
    """
    token = _CONFINE.set(Path(folder).resolve())
    try:
        yield
    finally:
        _CONFINE.reset(token)


_ALLOW_OUTSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("citeproof_latex_allow_outside", default=False)


@contextlib.contextmanager
def allow_outside_reads() -> Iterator[None]:
    """Within the block, an arXiv bundle's ``\\input`` and ``\\bibliography`` may name files outside the bundle.

    By default a bundle (an untrusted download) is read only from inside
    itself: ``\\input{/proc/self/environ}`` is skipped with a diagnostic. The
    CLI's ``--allow-outside`` lifts that.
    """
    token = _ALLOW_OUTSIDE.set(True)
    try:
        yield
    finally:
        _ALLOW_OUTSIDE.reset(token)


@contextlib.contextmanager
def confine_bundle(root: Path | None) -> Iterator[None]:
    """Within the block, reads stay inside ``root`` (an unpacked bundle), unless ``root`` is None or :func:`allow_outside_reads` is in force."""
    token = _CONFINE.set(root.resolve()) if root is not None and not _ALLOW_OUTSIDE.get() else None
    try:
        yield
    finally:
        if token is not None:
            _CONFINE.reset(token)


def read_allowed(path: Path) -> bool:
    """True unless reads are confined (:func:`confine_reads`) and ``path`` resolves outside the folder."""
    root = _CONFINE.get()
    return root is None or path.resolve().is_relative_to(root)

_INCLUDE = re.compile(r"\\(?:input|include|subfile)(?:\s*\{([^{}]+)\}|\s+([^\s{}\\%]+))")


def strip_comment(line: str) -> str:
    """``line`` without its LaTeX comment (from the first ``%`` not escaped by a backslash)."""
    m = re.search(r"(?<!\\)(?:\\\\)*%", line)
    if not m:
        return line
    return line[: m.end() - 1]


def expand_includes(path: Path, base: Path, out: list[tuple[str, str, int]], diags: list[Diagnostic], depth: int = 0, seen: set | None = None) -> None:
    """Append ``(line text, file, line number)`` for ``path`` with includes expanded, comments removed.

    ``seen`` holds the files being expanded (this one and those including
    it): only an ``\\input`` of one of them is a loop. A file that is not
    UTF-8 is read as Latin-1 with a warning.
    """
    seen = seen if seen is not None else set()  # the files being expanded: an \\input of one of them is a loop
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("latin-1")
        line = data.count(b"\n", 0, exc.start) + 1
        diags.append(Diagnostic("input-not-utf8", "warning", f"{path}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); read as Latin-1. Convert the file to UTF-8 if accented letters look wrong in the report", str(path), line))
    me = path.resolve()
    seen.add(me)
    for n, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        if raw.strip().startswith("%"):
            continue  # a comment line is no paragraph break
        pos = 0
        for m in _INCLUDE.finditer(line):
            if m.start() > pos:
                out.append((line[pos: m.start()], str(path), n))
            name = (m.group(1) or m.group(2)).strip()
            cands = [base / name, base / (name + ".tex"), path.parent / name, path.parent / (name + ".tex")]
            target = next((c for c in cands if c.is_file()), None)
            if target is not None and not read_allowed(target):
                diags.append(Diagnostic("tex-include-outside", "warning", f"{path}:{n}: \\input{{{name}}} is outside the files allowed to be read (the upload, the bundle, or the document's folder; citeproof check --allow-outside reads it); its text is skipped", str(path), n))
            elif target is None:
                diags.append(Diagnostic("tex-missing-include", "warning", f"{path}:{n}: \\input{{{name}}} not found; its text is skipped", str(path), n))
            elif target.resolve() in seen or depth > 20:
                diags.append(Diagnostic("tex-include-loop", "warning", f"{path}:{n}: {name} is included recursively; skipped", str(path), n))
            else:
                expand_includes(target, base, out, diags, depth + 1, seen)
            pos = m.end()
        out.append((line[pos:], str(path), n))
    seen.discard(me)  # a file \\input twice, one after the other, is read twice


def find_main_tex(folder: Path) -> Path | None:
    """The main file of a LaTeX source folder: a .tex with ``\\documentclass`` and ``\\begin{document}``.

    Several candidates: the one named ``main``/``ms``/``paper``, else the largest.
    """
    cands = []
    for f in sorted(folder.rglob("*.tex")):
        try:
            t = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        t = "\n".join(strip_comment(x) for x in t.splitlines())
        if "\\documentclass" in t and "\\begin{document}" in t:
            cands.append(f)
    if not cands:
        return None
    named = [f for f in cands if f.stem.lower() in ("main", "ms", "paper", "article", "manuscript")]
    return (named or sorted(cands, key=lambda f: -f.stat().st_size))[0]


_TMP_DIRS: list[str] = []
_SCOPE: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("citeproof_bundle_scope", default=None)


def _cleanup() -> None:
    for d in list(_TMP_DIRS):
        shutil.rmtree(d, ignore_errors=True)
    _TMP_DIRS.clear()


atexit.register(_cleanup)


def remove_bundle_folders(folders: list[str]) -> None:
    """Delete these unpacked-bundle folders (from :func:`bundle_scope`) now; missing ones are skipped."""
    for d in list(folders):
        shutil.rmtree(d, ignore_errors=True)
        with contextlib.suppress(ValueError):
            _TMP_DIRS.remove(d)


@contextlib.contextmanager
def bundle_scope() -> Iterator[list[str]]:
    """Bundles unpacked inside the block (this thread) are deleted when it ends (a web job, issue 31).

    Yields:
        The list of ``citeproof-tex-*`` folders made so far in the block (a caller stopping
        early, a server shutting down, may delete them with :func:`remove_bundle_folders`).
        Without a scope they live until the process exits.
    """
    made: list[str] = []
    token = _SCOPE.set(made)
    try:
        yield made
    finally:
        _SCOPE.reset(token)
        remove_bundle_folders(made)


def extract_bundle(path: Path) -> Path:
    """Unpack an arXiv source bundle into a temporary folder (deleted at the end of the enclosing
    :func:`bundle_scope`, else at exit); unsafe members skipped."""
    out = Path(tempfile.mkdtemp(prefix="citeproof-tex-"))
    _TMP_DIRS.append(str(out))
    scope = _SCOPE.get()
    if scope is not None:
        scope.append(str(out))
    try:
        with tarfile.open(path, "r:*") as tar:
            members = [m for m in tar.getmembers() if (m.isfile() or m.isdir()) and not m.name.startswith(("/", "\\")) and ".." not in Path(m.name).parts]
            tar.extractall(out, members=members, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(out, members=members)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise InputError(f"{path}: not a readable .tar.gz source bundle ({exc})") from None
    return out
