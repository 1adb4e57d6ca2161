"""Parsed sources cached in SQLite, keyed by content hash and parser version.

``DESIGN.md`` ("Caching by content"): a re-run re-parses only what changed,
and a swapped PDF at the same path is noticed because the key is the SHA-256
of the bytes, not the path. One table, ``parsed(sha256, parser, payload)``,
``payload`` being zlib-compressed JSON. The file lives at
``<cache dir>/citeproof.sqlite``; the cache dir defaults to
``$CITEPROOF_CACHE_DIR`` or ``$XDG_CACHE_HOME/citeproof`` (``~/.cache/citeproof``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import zlib
from pathlib import Path
from typing import Any

from citeproof.errors import InputError

__all__ = ["Cache", "default_cache_dir"]


def default_cache_dir() -> Path:
    """The cache folder used when none is given (see module docstring)."""
    env = os.environ.get("CITEPROOF_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "citeproof" if xdg else Path.home() / ".cache" / "citeproof"


class Cache:
    """A small key-value store in SQLite for parsed sources (and, later, vectors).

    Args:
        folder: the cache folder (created if missing), or None for a cache
            that stores nothing (``--no-cache``).

    Thread-safe: one connection per thread. A damaged database file is
    moved aside (``citeproof.sqlite.broken``) and replaced; ``warning`` then
    says so.

    Raises:
        InputError: ``folder`` is a file or cannot be created.
    """

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._local = threading.local()
        self.warning: str | None = None
        if folder is not None:
            if folder.exists() and not folder.is_dir():
                raise InputError(f"{folder}: the cache folder is a file; give a folder with --cache-dir, or use --no-cache")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"{folder}: cannot create the cache folder ({exc.strerror}); give another with --cache-dir, or use --no-cache") from None
            try:
                self._create()
            except sqlite3.DatabaseError:
                # A damaged cache is only lost time: move it aside and start afresh.
                db = folder / "citeproof.sqlite"
                self._local = threading.local()
                for suffix in ("", "-wal", "-shm"):
                    side = Path(str(db) + suffix)
                    if side.exists():
                        side.replace(Path(str(db) + suffix + ".broken"))
                self.warning = f"{db}: the cache database was damaged; moved it to {db}.broken and started a new one"
                self._create()

    def _create(self) -> None:
        with self._conn() as c:
            c.execute("CREATE TABLE IF NOT EXISTS parsed (sha256 TEXT, parser TEXT, payload BLOB, PRIMARY KEY (sha256, parser))")

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            assert self.folder is not None
            conn = sqlite3.connect(self.folder / "citeproof.sqlite", timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            self._local.conn = conn
        return conn

    def get(self, sha256: str, parser: str) -> dict[str, Any] | None:
        """The stored payload for ``(sha256, parser)``, or None."""
        if self.folder is None:
            return None
        row = self._conn().execute("SELECT payload FROM parsed WHERE sha256=? AND parser=?", (sha256, parser)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(zlib.decompress(row[0]))
        except (zlib.error, json.JSONDecodeError):
            return None  # a damaged row is a miss; it will be overwritten

    def put(self, sha256: str, parser: str, payload: dict[str, Any]) -> None:
        """Store ``payload`` (JSON-serialisable) for ``(sha256, parser)``."""
        if self.folder is None:
            return
        blob = zlib.compress(json.dumps(payload, separators=(",", ":")).encode("utf-8"), 3)
        with self._conn() as c:
            c.execute("INSERT OR REPLACE INTO parsed VALUES (?, ?, ?)", (sha256, parser, blob))
