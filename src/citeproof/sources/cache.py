"""Parsed sources cached in SQLite, keyed by content hash and parser version.

``DESIGN.md`` ("Caching by content"): a re-run re-parses only what changed,
and a swapped PDF at the same path is noticed because the key is the SHA-256
of the bytes, not the path. One table, ``parsed(sha256, parser, payload)``,
``payload`` being zlib-compressed JSON. The file lives at
``<cache dir>/citeproof.sqlite``; the cache dir defaults to
``$CITEPROOF_CACHE_DIR`` or ``$XDG_CACHE_HOME/citeproof`` (``~/.cache/citeproof``).

A cache is only saved time, so it never stops a run (:class:`Store`): a
damaged database (SQLite says ``SQLITE_CORRUPT`` or ``SQLITE_NOTADB``) is
moved aside to ``<name>.broken`` and rebuilt; a database another process
holds locked, a read-only folder, or a folder where the file should be make
the run go on without the cache; an old schema's table is rebuilt. Each
leaves a sentence in ``warnings`` (the report's ``cache-reset`` diagnostic).
A healthy database is never moved aside.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from citeproof.errors import InputError

__all__ = ["Cache", "Store", "default_cache_dir", "prune"]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 10.0
"""How long to wait for another process's lock on a cache database before going on without it (seconds)."""


def default_cache_dir() -> Path:
    """The cache folder used when none is given (see module docstring)."""
    env = os.environ.get("CITEPROOF_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "citeproof" if xdg else Path.home() / ".cache" / "citeproof"


def _kind(exc: sqlite3.Error) -> str:
    """``damaged``, ``busy`` or ``unusable``, from SQLite's error name (Python 3.11+), else the message."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    msg = str(exc).lower()
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in msg or "not a database" in msg:
        return "damaged"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in msg or "busy" in msg:
        return "busy"
    return "unusable"


class Store:
    """One SQLite file with a fixed schema that recovers from what happens to cache files.

    Args:
        path: the database file.
        tables: table name -> its column definitions (``"a TEXT, b BLOB, PRIMARY KEY (a)"``).
        version: the schema version, kept in ``PRAGMA user_version``; a
            table whose columns differ from ``tables`` is dropped and made again.
        busy_timeout_s: how long to wait for another process's lock (seconds).

    Attributes:
        warnings: what went wrong and what was done, one sentence each.
        enabled: False once the store runs without a database.

    Thread-safe: one connection per thread; a rebuild makes every thread reconnect.
    """

    def __init__(self, path: Path, tables: dict[str, str], version: int, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self.tables = tables
        self.version = version
        self.busy_timeout_s = busy_timeout_s
        self.warnings: list[str] = []
        self.enabled = True
        self._lock = threading.RLock()
        self._local = threading.local()
        self._generation = 0
        self._rebuilt = False
        try:
            is_dir = self.path.is_dir()
        except OSError as exc:
            self._disable(f"{self.path}: cannot be reached ({exc.strerror}); running without the cache")
            return
        if is_dir:
            self._disable(f"{self.path} is a folder, not a cache database; running without the cache (remove the folder or give another --cache-dir)")
            return
        try:
            self._setup(self._conn())
        except sqlite3.Error as exc:
            self._recover(exc, opening=True)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), timeout=self.busy_timeout_s, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # a cache: a lost last write after a power cut costs a re-parse
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def _conn(self) -> sqlite3.Connection:
        held = getattr(self._local, "conn", None)
        if held is not None and held[0] == self._generation:
            return held[1]
        if held is not None:
            held[1].close()
        conn = self._connect()
        self._local.conn = (self._generation, conn)
        return conn

    def _setup(self, conn: sqlite3.Connection) -> None:
        """Make the tables; drop one whose columns are an older schema's."""
        with conn:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            for name, columns in self.tables.items():
                have = [r[1] for r in conn.execute(f"PRAGMA table_info({name})")]
                want = [c.split()[0] for c in re.sub(r",?\s*PRIMARY KEY\s*\([^)]*\)", "", columns).split(",")]
                if have and have != want:
                    conn.execute(f"DROP TABLE {name}")
                    self.warnings.append(f"{self.path}: table '{name}' had an older layout (schema {current}); it was rebuilt")
                conn.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")
            if current != self.version:
                conn.execute(f"PRAGMA user_version = {int(self.version)}")

    def _disable(self, why: str) -> None:
        self.enabled = False
        self.warnings.append(why)
        log.info(why)  # the caller reports ``warnings`` (a cache-reset diagnostic)

    def _quarantine(self) -> None:
        """Move the damaged database (and its -wal/-shm) aside to ``.broken``, then make a new one."""
        self._generation += 1
        held = getattr(self._local, "conn", None)
        if held is not None:
            held[1].close()
            self._local.conn = None
        for suffix in ("", "-wal", "-shm"):
            side = Path(str(self.path) + suffix)
            if side.exists():
                side.replace(Path(str(self.path) + suffix + ".broken"))
        self.warnings.append(f"{self.path}: the cache database was damaged; moved it to {self.path}.broken and started a new one")
        self._setup(self._conn())

    def _recover(self, exc: sqlite3.Error, opening: bool = False) -> None:
        kind = _kind(exc)
        with self._lock:
            if not self.enabled:
                return
            if kind == "damaged" and not self._rebuilt:
                self._rebuilt = True
                try:
                    self._quarantine()
                    return
                except (sqlite3.Error, OSError) as again:
                    exc, kind = again, "unusable"  # type: ignore[assignment]
            if kind == "busy" and not opening:
                msg = f"{self.path} is locked by another process; some results were not cached"
                if msg not in self.warnings:
                    self.warnings.append(msg)
                return
            what = {"busy": "is locked by another process", "damaged": "is still damaged after a rebuild"}.get(kind, f"cannot be used ({exc})")
            self._disable(f"{self.path} {what}; running without the cache this time")

    def query(self, sql: str, params: tuple = ()) -> list[tuple] | None:
        """Rows of one statement, or None when the store is off or the statement failed (then recovered)."""
        if not self.enabled:
            return None
        try:
            return self._conn().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self._recover(exc)
            return None

    def write(self, sql: str, rows: list[tuple]) -> bool:
        """Run ``sql`` for each of ``rows`` in one transaction; False when not stored."""
        if not self.enabled:
            return False
        try:
            conn = self._conn()
            with conn:
                conn.executemany(sql, rows)
            return True
        except sqlite3.Error as exc:
            self._recover(exc)
            return False

    def close(self) -> None:
        """Close this thread's connection."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            held[1].close()
            self._local.conn = None


_PARSED = {
    "parsed": "sha256 TEXT, parser TEXT, payload BLOB, used REAL, PRIMARY KEY (sha256, parser)",
    "judgements": "key TEXT, payload BLOB, used REAL, PRIMARY KEY (key)",
}
SCHEMA_VERSION = 3
"""Version of ``citeproof.sqlite``'s layout (2 added ``used``, the last-use time that ``cache prune`` reads;
3 added ``judgements``, :mod:`citeproof.judgecache`'s rows)."""


class Cache:
    """A small key-value store in SQLite for parsed sources and cached judgements (:mod:`citeproof.judgecache`).

    Args:
        folder: the cache folder (created if missing), or None for a cache
            that stores nothing (``--no-cache``).
        busy_timeout_s: how long to wait for another process's lock (seconds).

    Thread-safe. Never raises after construction: see the module docstring
    for what happens to a damaged, locked, read-only or old database;
    ``warning`` then says what was done.

    Raises:
        InputError: ``folder`` is a file (a wrong ``--cache-dir``).
    """

    def __init__(self, folder: Path | None, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.folder = folder
        self._store: Store | None = None
        self._warnings: list[str] = []
        if folder is None:
            return
        try:
            if folder.exists() and not folder.is_dir():
                raise InputError(f"{folder}: the cache folder is a file; give a folder with --cache-dir, or use --no-cache")
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._warnings.append(f"{folder}: cannot create the cache folder ({exc.strerror}); running without the cache (give another --cache-dir, or --no-cache)")
            return
        self._store = Store(folder / "citeproof.sqlite", _PARSED, SCHEMA_VERSION, busy_timeout_s)

    @property
    def warning(self) -> str | None:
        """What went wrong with the cache and what was done, or None."""
        msgs = self._warnings + (self._store.warnings if self._store else [])
        return "; ".join(msgs) if msgs else None

    def get(self, sha256: str, parser: str) -> dict[str, Any] | None:
        """The stored payload (a JSON object) for ``(sha256, parser)``, or None (also for a damaged row)."""
        if self._store is None:
            return None
        rows = self._store.query("SELECT payload FROM parsed WHERE sha256=? AND parser=?", (sha256, parser))
        if not rows:
            return None
        try:
            value = json.loads(zlib.decompress(rows[0][0]))
        except (zlib.error, ValueError, TypeError):
            return None  # a damaged row is a miss; it will be overwritten
        if not isinstance(value, dict):
            return None
        self._store.write("UPDATE parsed SET used=? WHERE sha256=? AND parser=?", [(time.time(), sha256, parser)])
        return value

    def put(self, sha256: str, parser: str, payload: dict[str, Any]) -> None:
        """Store ``payload`` (JSON-serialisable) for ``(sha256, parser)``; silently skipped when the cache is off."""
        if self._store is None:
            return
        blob = zlib.compress(json.dumps(payload, separators=(",", ":")).encode("utf-8"), 3)
        self._store.write("INSERT OR REPLACE INTO parsed VALUES (?, ?, ?, ?)", [(sha256, parser, blob, time.time())])

    def get_judgement(self, key: str) -> dict[str, Any] | None:
        """The judgement stored under ``key`` (a JSON object), or None (also for a damaged row)."""
        if self._store is None:
            return None
        rows = self._store.query("SELECT payload FROM judgements WHERE key=?", (key,))
        if not rows:
            return None
        try:
            value = json.loads(zlib.decompress(rows[0][0]))
        except (zlib.error, ValueError, TypeError):
            return None
        if not isinstance(value, dict):
            return None
        self._store.write("UPDATE judgements SET used=? WHERE key=?", [(time.time(), key)])
        return value

    def put_judgement(self, key: str, payload: dict[str, Any]) -> None:
        """Store a judgement (JSON-serialisable) under ``key``; silently skipped when the cache is off."""
        if self._store is None:
            return
        blob = zlib.compress(json.dumps(payload, separators=(",", ":")).encode("utf-8"), 3)
        self._store.write("INSERT OR REPLACE INTO judgements VALUES (?, ?, ?)", [(key, blob, time.time())])


def prune(folder: Path, older_than_days: float | None = None) -> dict[str, int]:
    """Delete cached entries (all, or those unused for ``older_than_days``) and ``.broken`` files.

    Args:
        folder: the cache folder.
        older_than_days: keep entries used within this many days (None: delete all).

    Returns:
        ``{"parsed": rows deleted, "judgements": rows deleted, "vectors": rows deleted, "broken_files": files deleted,
        "bytes_before": n, "bytes_after": n}``.

    Raises:
        InputError: ``folder`` is not a folder.
    """
    if not folder.is_dir():
        raise InputError(f"{folder}: no cache folder here; give it with --cache-dir")

    def size() -> int:
        return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())

    before = size()
    out = {"parsed": 0, "judgements": 0, "vectors": 0, "broken_files": 0}
    cutoff = time.time() - older_than_days * 86400 if older_than_days is not None else None
    for name, table, col in (("citeproof.sqlite", "parsed", "used"), ("citeproof.sqlite", "judgements", "used"), ("embeddings.sqlite", "vectors", None)):
        path = folder / name
        if not path.is_file():
            continue
        try:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S)
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone():
                conn.close()
                continue  # a cache made before the table existed
            with conn:
                if cutoff is None:
                    n = conn.execute(f"DELETE FROM {table}").rowcount
                elif col:
                    n = conn.execute(f"DELETE FROM {table} WHERE {col} IS NULL OR {col} < ?", (cutoff,)).rowcount
                else:
                    n = 0
            conn.execute("VACUUM")
            conn.close()
        except sqlite3.Error as exc:
            raise InputError(f"{path}: cannot prune the cache ({exc}); delete the file by hand, it is only a cache") from None
        out[table] = max(n, 0)
    for p in folder.glob("*.broken"):
        p.unlink()
        out["broken_files"] += 1
    out["bytes_before"], out["bytes_after"] = before, size()
    return out
