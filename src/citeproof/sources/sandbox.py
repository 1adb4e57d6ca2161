"""Untrusted PDFs are parsed in a worker process with a time and a memory limit.

A 3 KB PDF can hold a "billion laughs": form XObjects nested 11 deep, each
drawing the next ten times. MuPDF expands it while extracting text, grows to
gigabytes and runs for minutes, holding the GIL all along (so a web server
parsing it in a thread stops answering). Here each parse runs in a child
process (``python -c``, kept and reused, so PyMuPDF is imported once per
worker, not once per file); the worker's address space is capped with
``RLIMIT_AS`` and the parent kills it at the deadline (and starts a fresh one
for the next file). One bad file then costs at most the limits and becomes
one source with an ``error``, i.e. one ``unverifiable`` finding.

Limits, per source file:

``CITEPROOF_PARSE_TIMEOUT``
    seconds (default 120; ``0`` turns the worker off: parse in-process).
``CITEPROOF_PARSE_MEMORY_MB``
    MiB of address space (default 4096).

:func:`stop_all` kills every running worker (the web server calls it on
SIGTERM).
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from citeproof.errors import CiteproofError

__all__ = ["ParseLimits", "ParseLimitError", "run_limited", "prestart", "stop_all", "parse_limits"]

T = TypeVar("T")

@dataclass(frozen=True)
class ParseLimits:
    """Limits of one parse in a worker.

    Attributes:
        seconds: wall-clock seconds before the worker is killed (0: no
            worker, parse in this process).
        memory_mb: address space of the worker in MiB (``RLIMIT_AS``).
    """

    seconds: float = 120.0
    memory_mb: int = 4096


class ParseLimitError(CiteproofError, RuntimeError):
    """A parse ran past its time or memory limit, or its worker died.

    The message says which, in words for the report.
    """


def parse_limits() -> ParseLimits:
    """The limits from ``CITEPROOF_PARSE_TIMEOUT`` and ``CITEPROOF_PARSE_MEMORY_MB`` (defaults: 120 s, 4096 MiB).

    Raises:
        CiteproofError: a variable is set but not a number.
    """
    d = ParseLimits()
    try:
        seconds = float(os.environ.get("CITEPROOF_PARSE_TIMEOUT", d.seconds))
        memory = int(os.environ.get("CITEPROOF_PARSE_MEMORY_MB", d.memory_mb))
    except ValueError as exc:
        raise CiteproofError(f"CITEPROOF_PARSE_TIMEOUT / CITEPROOF_PARSE_MEMORY_MB must be numbers ({exc})") from None
    return ParseLimits(seconds=max(seconds, 0.0), memory_mb=max(memory, 64))


_LOCK = threading.Lock()
_IDLE: list["_Worker"] = []
_BUSY: set["_Worker"] = set()
_MAX_IDLE = 4


class _Worker:
    """A ``python -c`` child that runs functions sent to it (length-prefixed pickles on stdin/stdout)."""

    def __init__(self, memory_mb: int, warm: str = "") -> None:
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[2])  # the folder holding the citeproof package
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.memory_mb = memory_mb
        self.stopped = False
        self.proc = subprocess.Popen(
            [sys.executable, "-c", f"from citeproof.sources.sandbox import _serve; _serve({int(memory_mb)}, {warm!r})"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0,
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass

    def _read(self, n: int, deadline: float) -> bytes | None:
        """``n`` bytes from the worker, or None when it closed its end (died); TimeoutError past ``deadline``."""
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, min(n - len(buf), 1 << 20))
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def call(self, fn: Callable[..., Any], args: tuple, seconds: float) -> tuple[str, Any]:
        """``(kind, value)``: ``ok`` and the result, ``memory``, ``error`` and a message, ``died``; TimeoutError."""
        payload = pickle.dumps((fn.__module__, fn.__qualname__, args), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.proc.stdin.write(struct.pack("<Q", len(payload)) + payload)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return "died", ""
        deadline = time.monotonic() + seconds
        head = self._read(8, deadline)
        if head is None:
            return "died", ""
        body = self._read(struct.unpack("<Q", head)[0], deadline + 30)
        if body is None:
            return "died", ""
        return pickle.loads(body)


def _peak_bytes() -> int:
    """The worker's peak address space (``VmPeak``, Linux), else its peak resident size; 0 if unknown."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except (ImportError, OSError):  # pragma: no cover - not POSIX
        return 0


def _serve(memory_mb: int, warm: str = "") -> None:
    """The worker's loop: cap the address space, import ``warm`` (a module name, '' for none), then run each function sent until stdin closes."""
    try:
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX, or a lower hard limit
        pass
    import importlib

    if warm:
        try:  # the import a parse needs first (PyMuPDF), done while the parent is still busy (see prestart)
            importlib.import_module(warm)
        except Exception:  # noqa: BLE001 - the first call reports whatever is wrong
            pass
    cap_bytes = memory_mb * 1024 * 1024

    inp = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not corrupt the answers
    while True:
        head = inp.read(8)
        if len(head) < 8:
            return
        module, name, args = pickle.loads(inp.read(struct.unpack("<Q", head)[0]))
        fatal = False
        try:
            result: tuple[str, Any] = ("ok", getattr(importlib.import_module(module), name)(*args))
        except MemoryError:
            result, fatal = ("memory", ""), True
        except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
            result = ("error", f"{type(exc).__name__}: {exc}")
        if result[0] == "ok" and _peak_bytes() > cap_bytes - (64 << 20):
            # MuPDF met the cap and carried on with what it had: the result is not the file's; start afresh
            result, fatal = ("memory", ""), True
        try:
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data, fatal = pickle.dumps(("memory", "")), True
        out.write(struct.pack("<Q", len(data)) + data)
        out.flush()
        if fatal:
            return  # a fresh worker for the next file


def run_limited(fn: Callable[..., T], *args: Any, limits: ParseLimits | None = None) -> T:
    """``fn(*args)`` in a worker process under ``limits``; its result is pickled back.

    Workers are kept and reused (a start costs an import of PyMuPDF); one
    that runs out of time or memory is killed and replaced.

    Args:
        fn: a module-level function (sent by module and name).
        args: its arguments (pickled; bytes are fine).
        limits: None: :func:`parse_limits` (the environment).

    Returns:
        What ``fn`` returned.

    Raises:
        ParseLimitError: the time ran out, the memory cap was hit, the worker
            died (a crash in MuPDF), ``fn`` raised, or :func:`stop_all`
            killed the worker.
    """
    lim = limits or parse_limits()
    if lim.seconds <= 0:
        return fn(*args)
    with _LOCK:
        worker = next((w for w in _IDLE if w.memory_mb == lim.memory_mb and w.alive()), None)
        if worker is not None:
            _IDLE.remove(worker)
    if worker is None:
        worker = _Worker(lim.memory_mb)
    with _LOCK:
        _BUSY.add(worker)
    keep = False
    try:
        try:
            kind, value = worker.call(fn, args, lim.seconds)
        except TimeoutError:
            if worker.stopped:
                raise ParseLimitError("not parsed: the server stopped while this file was being read") from None
            raise ParseLimitError(
                f"parsing took longer than the limit of {lim.seconds:g} s (a PDF with nested drawings can expand without end); "
                "raise CITEPROOF_PARSE_TIMEOUT if the file is sound"
            ) from None
        if worker.stopped:
            raise ParseLimitError("not parsed: the server stopped while this file was being read")
        if kind == "ok":
            keep = True
            return value
        if kind == "error":
            keep = True
            raise ParseLimitError(f"the parser failed ({value})")
        raise ParseLimitError(
            f"parsing needed more memory than the limit of {lim.memory_mb} MiB, or crashed the parser; "
            "raise CITEPROOF_PARSE_MEMORY_MB if the file is sound"
        )
    finally:
        with _LOCK:
            _BUSY.discard(worker)
            keep = keep and worker.alive() and len(_IDLE) < _MAX_IDLE
            if keep:
                _IDLE.append(worker)
        if not keep:
            worker.kill()


def prestart(limits: ParseLimits | None = None, warm: str = "") -> None:
    """Start a worker now, unless an idle one is ready, so that its start overlaps the caller's own work.

    A worker's start is a Python start and an import of PyMuPDF (about 0.4 s
    on 2 cores); ``check`` calls this before it reads the document and the
    bibliography, so the first source parse finds the worker ready. No-op when
    workers are off (``CITEPROOF_PARSE_TIMEOUT=0``) or the idle pool is full.

    Args:
        limits: the worker's limits (None: :func:`parse_limits`).
        warm: a module the worker imports as it starts (a dotted name such as
            ``citeproof.sources.pdf``, whose import is PyMuPDF's); '' for none.

    Raises:
        ValueError: ``warm`` is not a dotted module name.
    """
    if warm and not all(part.isidentifier() for part in warm.split(".")):
        raise ValueError(f"not a module name: {warm!r}")
    lim = limits or parse_limits()
    if lim.seconds <= 0:
        return
    with _LOCK:
        if len(_IDLE) >= _MAX_IDLE or any(w.memory_mb == lim.memory_mb and w.alive() for w in _IDLE):
            return
        _IDLE.append(_Worker(lim.memory_mb, warm))


def stop_all() -> None:
    """Kill every worker (server shutdown); a parse in progress raises :class:`ParseLimitError`."""
    with _LOCK:
        workers = list(_BUSY) + list(_IDLE)
        _IDLE.clear()
    for w in workers:
        w.stopped = True
        if w.alive():
            w.proc.kill()
