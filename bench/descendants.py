"""Counting the CPU of every process a measured run starts (issue 27), not only of its direct children.

``resource.getrusage(RUSAGE_CHILDREN)`` holds the CPU of children that ended and were waited for, and of the
descendants *they* waited for. A process whose parent ended first (a parse worker's own helper, a process Ray
detached) is reparented to init and its CPU is lost to the measurement. A process that calls
``prctl(PR_SET_CHILD_SUBREAPER, 1)`` (Linux 3.4+, ``man 2 prctl``) becomes the parent of its orphaned descendants
instead; once it has waited for them, their CPU is in its ``RUSAGE_CHILDREN`` too.

    become_subreaper()   # first thing in the measured process
    ...                  # the work
    reap_all()           # last: wait for every descendant still there
"""

from __future__ import annotations

import ctypes
import os
import time

PR_SET_CHILD_SUBREAPER = 36
"""``prctl`` option number (``<linux/prctl.h>``)."""


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants; False where the system does not allow it (not Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_all(grace_s: float = 10.0) -> int:
    """Wait for every child of this process (orphaned descendants included, after :func:`become_subreaper`).

    Children still running after ``grace_s`` seconds are sent SIGTERM, and SIGKILL 5 seconds later, so a
    measurement never hangs on a server someone left behind.

    Returns:
        How many processes were reaped.
    """
    import psutil

    reaped, deadline, signalled = 0, time.monotonic() + grace_s, 0
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid:
            reaped += 1
            continue
        if time.monotonic() > deadline and signalled < 2:
            for p in psutil.Process().children():
                try:
                    p.kill() if signalled else p.terminate()
                except psutil.Error:
                    pass
            signalled += 1
            deadline = time.monotonic() + 5.0
        time.sleep(0.02)
