"""The one polite HTTP layer every online client goes through, and its cache.

Politeness (issue 12, part 5): a User-Agent naming citeproof and the
contact e-mail (``mailto:``), which puts requests in Crossref's and
OpenAlex's polite pools; a rate limit per service (or per host, for
downloads); retries with exponential backoff on 429 and 5xx, honouring
``Retry-After``; timeouts; a size cap on every body; at most
:attr:`OnlineSettings.max_in_flight` requests at once.

Cache: responses are kept in SQLite (``<cache dir>/online.sqlite``, table
``responses(key, status, content_type, sha256, fetched)``), keyed by the
request's URL without the contact e-mail, fresh for
:attr:`OnlineSettings.ttl_days`; bodies are stored once by their SHA-256
under ``<cache dir>/online/``. A second run makes no request; in offline
mode the cache alone answers. Only the URLs the clients build leave the
machine (identifiers and reference metadata): this module never sees a
claim or a document.

Every failure ends as a :class:`Fetched` whose ``error`` says what happened
(timeout, HTTP status after retries, body over the cap, redirect loop,
offline and not cached); nothing here raises for a bad response.

Where it connects (issue 31): ``http``/``https`` URLs only, to public
addresses only, checked on every connection including redirect hops, except
the configured API base URLs (:mod:`citeproof.sources.online.netguard`); a
refused request is a :class:`Fetched` whose ``error`` holds ``refused: ...``.
"""

from __future__ import annotations

import email.utils
import hashlib
import os
import sqlite3
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

import httpx

from citeproof import __version__
from citeproof.sources.online.netguard import Refused, allowed_origins, guarded_transport, url_problem

__all__ = ["OnlineSettings", "Fetched", "PoliteHTTP", "DEFAULT_URLS", "DEFAULT_RATES"]

DEFAULT_URLS = {
    "crossref": ("CITEPROOF_CROSSREF_URL", "https://api.crossref.org"),
    "openalex": ("CITEPROOF_OPENALEX_URL", "https://api.openalex.org"),
    "unpaywall": ("CITEPROOF_UNPAYWALL_URL", "https://api.unpaywall.org"),
    "arxiv": ("CITEPROOF_ARXIV_URL", "https://export.arxiv.org"),
    "europepmc": ("CITEPROOF_EUROPEPMC_URL", "https://www.ebi.ac.uk/europepmc/webservices/rest"),
}
"""Service -> (environment variable overriding its base URL, public default)."""

DEFAULT_RATES = {"crossref": 10.0, "openalex": 10.0, "unpaywall": 10.0, "arxiv": 1 / 3, "europepmc": 10.0, "download": 5.0}
"""Requests per second per service. Sources: Crossref's polite pool and OpenAlex
both ask for at most 10 requests/s; arXiv's API terms ask for one request every
3 seconds; Unpaywall and Europe PMC publish daily caps only (100,000/day), so
10/s; downloads from any other host 5/s per host. ``CITEPROOF_ONLINE_RATES``
(``service=rate,...``) overrides them."""


def _rates_from_env() -> dict[str, float]:
    rates = dict(DEFAULT_RATES)
    for part in os.environ.get("CITEPROOF_ONLINE_RATES", "").split(","):
        name, _, value = part.partition("=")
        try:
            rates[name.strip()] = float(value)
        except ValueError:
            continue
    return rates


@dataclass
class OnlineSettings:
    """How online lookups behave.

    Attributes:
        email: contact address sent as ``mailto`` (Crossref, OpenAlex) and
            ``email`` (Unpaywall, which requires one); '' sends none and
            skips Unpaywall.
        offline: answer from the cache alone; a miss is a stated failure.
        timeout_s: connect/read timeout of one request, seconds.
        retries: further tries after a 429/5xx/timeout.
        backoff_s: first backoff, doubled each retry (seconds).
        max_retry_after_s: longest ``Retry-After`` honoured; a longer one
            gives up with that reason.
        max_bytes: size cap of one body (bytes); 50 MB by default.
        max_redirects: redirects followed before calling it a loop.
        max_in_flight: concurrent requests (httpx connection pool size).
        ttl_days: how long a cached response stays fresh.
        urls: base URL per service (from the ``CITEPROOF_*_URL`` variables).
        rates: requests per second per service (:data:`DEFAULT_RATES`).
    """

    email: str = ""
    offline: bool = False
    timeout_s: float = 20.0
    retries: int = 3
    backoff_s: float = 0.5
    max_retry_after_s: float = 60.0
    max_bytes: int = 50_000_000
    max_redirects: int = 5
    max_in_flight: int = 8
    ttl_days: float = 30.0
    urls: dict[str, str] = field(default_factory=lambda: {k: os.environ.get(var) or url for k, (var, url) in DEFAULT_URLS.items()})
    rates: dict[str, float] = field(default_factory=_rates_from_env)


@dataclass
class Fetched:
    """One response, or why there is none.

    Attributes:
        url: the URL asked for (without the contact e-mail).
        status: HTTP status (0 when no response came).
        body: the body bytes (b'' on failure).
        content_type: the media type without parameters.
        error: why the response is unusable (None when status is 2xx).
        from_cache: True when the cache answered.
    """

    url: str
    status: int = 0
    body: bytes = b""
    content_type: str = ""
    error: str | None = None
    from_cache: bool = False

    @property
    def refused(self) -> bool:
        """True when citeproof refused to send the request (a non-public address, a non-http(s) URL)."""
        return bool(self.error) and "refused: " in (self.error or "")

    @property
    def ok(self) -> bool:
        """True for a 2xx response with no error."""
        return self.error is None and 200 <= self.status < 300

    def json(self) -> Any:
        """The body as JSON; sets ``error`` and returns None when it is not JSON."""
        import json

        try:
            return json.loads(self.body)
        except (ValueError, UnicodeDecodeError):
            self.error = f"{self.url}: malformed JSON in the response ({self.body[:40]!r}...)"
            return None


T = TypeVar("T")
R = TypeVar("R")
_PRIVATE_PARAMS = ("mailto", "email")


class _TooLarge(Exception):
    pass


class PoliteHTTP:
    """GET with politeness, retries, a size cap and a cache (see module docstring).

    Args:
        settings: :class:`OnlineSettings`.
        cache_folder: the cache folder (None: a temporary folder kept for
            this run only, as with ``--no-cache``).

    Attributes:
        requests_made: network requests sent (retries count; cache hits do not).
        sent: every URL sent, in order (for the privacy test and the report).
    """

    def __init__(self, settings: OnlineSettings, cache_folder: Path | None = None) -> None:
        self.settings = settings
        self._tmp = None
        if cache_folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="citeproof-online-")
            cache_folder = Path(self._tmp.name)
        self.folder = Path(cache_folder)
        self.blobs = self.folder / "online"
        self.blobs.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._db() as c:
            c.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, status INTEGER, content_type TEXT, sha256 TEXT, fetched REAL)")
        self._lock = threading.Lock()
        self._next: dict[str, float] = {}
        self.requests_made = 0
        self.sent: list[str] = []
        self._client: httpx.Client | None = None
        self.guard = None  # the connection guard (netguard.GuardedBackend), made with the client
        # The form Crossref's etiquette asks for: name/version (mailto:address).
        self._headers = {"User-Agent": f"citeproof/{__version__}" + (f" (mailto:{settings.email})" if settings.email else "")}

    def _db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.folder / "online.sqlite", timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            self._local.conn = conn
        return conn

    @property
    def client(self) -> httpx.Client:
        """The shared httpx client, created on first use (never in offline mode)."""
        if self._client is None:
            s = self.settings
            limits = httpx.Limits(max_connections=s.max_in_flight, max_keepalive_connections=s.max_in_flight)
            # every connection (redirect hops too) is opened by the guard; no proxy from the environment, whose
            # own name lookups the guard could not check
            transport, self.guard = guarded_transport(allowed_origins(self._configured_urls()), limits)
            self._client = httpx.Client(
                headers=self._headers, timeout=httpx.Timeout(s.timeout_s), follow_redirects=True, max_redirects=s.max_redirects,
                transport=transport, trust_env=False,
            )
        return self._client

    def _configured_urls(self) -> list[str]:
        """The API base URLs the operator configured (``CITEPROOF_*_URL``, or given in the settings), not the public defaults."""
        defaults = {url for _var, url in DEFAULT_URLS.values()}
        return [u for u in self.settings.urls.values() if u and u not in defaults]

    def close(self) -> None:
        """Close the connection pool (and drop a temporary cache folder)."""
        if self._client is not None:
            self._client.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def base(self, service: str) -> str:
        """Base URL of ``service`` without a trailing slash."""
        return self.settings.urls[service].rstrip("/")

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``[fn(x) for x in items]`` with up to ``max_in_flight`` running at once (order kept)."""
        items = list(items)
        if len(items) <= 1:
            return [fn(x) for x in items]
        with ThreadPoolExecutor(max_workers=self.settings.max_in_flight) as pool:
            return list(pool.map(fn, items))

    # -- cache -------------------------------------------------------------------------
    @staticmethod
    def cache_key(url: str, params: dict[str, str] | None) -> str:
        """The request's URL (its own query kept) without the contact e-mail: what the cache is keyed by."""
        clean = {k: v for k, v in (params or {}).items() if k not in _PRIVATE_PARAMS}
        return str(httpx.URL(url).copy_merge_params(clean))

    def _cached(self, key: str) -> Fetched | None:
        row = self._db().execute("SELECT status, content_type, sha256, fetched FROM responses WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        status, ctype, sha, fetched = row
        if not self.settings.offline and time.time() - fetched > self.settings.ttl_days * 86400:
            return None
        try:
            body = (self.blobs / sha[:2] / sha).read_bytes() if sha else b""
        except OSError:
            return None
        return Fetched(url=key, status=status, body=body, content_type=ctype, from_cache=True)

    def _store(self, key: str, f: Fetched) -> None:
        sha = hashlib.sha256(f.body).hexdigest() if f.body else ""
        if sha:
            d = self.blobs / sha[:2]
            d.mkdir(exist_ok=True)
            if not (d / sha).exists():
                tmp = d / f".{sha}.{threading.get_ident()}"
                tmp.write_bytes(f.body)
                tmp.replace(d / sha)
        with self._db() as c:
            c.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)", (key, f.status, f.content_type, sha, time.time()))

    def blob_path(self, body: bytes, suffix: str) -> Path:
        """A file holding ``body`` under the cache folder, named by its SHA-256 (written once)."""
        sha = hashlib.sha256(body).hexdigest()
        d = self.blobs / "files"
        d.mkdir(exist_ok=True)
        p = d / f"{sha}{suffix}"
        if not p.exists():
            tmp = d / f".{sha}.{threading.get_ident()}"
            tmp.write_bytes(body)
            tmp.replace(p)
        return p

    # -- network -----------------------------------------------------------------------
    def _wait_turn(self, bucket: str, rate: float) -> None:
        if rate <= 0:
            return
        with self._lock:
            now = time.monotonic()
            at = max(now, self._next.get(bucket, 0.0))
            self._next[bucket] = at + 1.0 / rate
        if at > now:
            time.sleep(at - now)

    def get(self, url: str, params: dict[str, str] | None = None, *, service: str = "download", accept: str = "*/*") -> Fetched:
        """GET ``url`` politely, through the cache.

        Args:
            url: absolute URL.
            params: query parameters (``mailto``/``email`` are sent but not
                part of the cache key).
            service: rate-limit bucket (a service name; ``download`` buckets
                by host).
            accept: the Accept header.

        Returns:
            A :class:`Fetched`; 2xx and 404/410 answers are cached, failures
            (429, 5xx, timeouts, oversize bodies) are not.
        """
        key = self.cache_key(url, params)
        hit = self._cached(key)
        if hit is not None:
            if not 200 <= hit.status < 300:
                hit.error = f"{key}: HTTP {hit.status} (cached)"
            return hit
        if self.settings.offline:
            return Fetched(url=key, error=f"{key}: not in the cache, and --offline forbids the request")
        why = url_problem(url)
        if why:
            return Fetched(url=key, error=f"{key}: {why}")
        s = self.settings
        bucket = service if service != "download" else "download:" + httpx.URL(url).host
        rate = s.rates.get(service, s.rates.get("download", 5.0))
        tries = s.retries + 1
        last = Fetched(url=key, error=f"{key}: no answer")
        for attempt in range(tries):
            self._wait_turn(bucket, rate)
            with self._lock:
                self.requests_made += 1
                self.sent.append(str(httpx.URL(url).copy_merge_params(params or {})))
            wait = s.backoff_s * (2 ** attempt)
            try:
                with self.client.stream("GET", url, params=params or None, headers={"Accept": accept}) as r:
                    ctype = r.headers.get("content-type", "").split(";")[0].strip().lower()
                    if r.status_code == 429 or r.status_code >= 500:
                        after = _retry_after(r.headers.get("retry-after"))
                        last = Fetched(url=key, status=r.status_code, content_type=ctype, error=f"{key}: HTTP {r.status_code} after {attempt + 1} tries")
                        if after is not None:
                            if after > s.max_retry_after_s:
                                last.error = f"{key}: HTTP {r.status_code}, the service asked to wait {after:.0f} s (more than {s.max_retry_after_s:.0f} s); try again later"
                                return last
                            wait = max(wait, after)
                        if attempt + 1 < tries:
                            time.sleep(wait)
                        continue
                    declared = r.headers.get("content-length")
                    if declared and declared.isdigit() and int(declared) > s.max_bytes:
                        raise _TooLarge(int(declared))
                    chunks, size = [], 0
                    for chunk in r.iter_bytes():
                        size += len(chunk)
                        if size > s.max_bytes:
                            raise _TooLarge(size)
                        chunks.append(chunk)
                    f = Fetched(url=key, status=r.status_code, body=b"".join(chunks), content_type=ctype)
            except _TooLarge as exc:
                return Fetched(url=key, error=f"{key}: the response is larger than the {s.max_bytes:,}-byte cap ({exc.args[0]:,} bytes or more); not downloaded")
            except Refused as exc:  # no connection was opened for this hop
                u = httpx.URL(url)
                if exc.origin == (u.host.lower(), u.port or (443 if u.scheme == "https" else 80)):
                    with self._lock:  # refused on the first hop: nothing was sent at all
                        self.requests_made -= 1
                        sent = str(u.copy_merge_params(params or {}))
                        if sent in self.sent:
                            del self.sent[len(self.sent) - 1 - self.sent[::-1].index(sent)]
                return Fetched(url=key, error=f"{key}: {exc}")
            except httpx.UnsupportedProtocol:
                return Fetched(url=key, error=f"{key}: refused: a redirect to a URL that is not http or https")
            except httpx.TooManyRedirects:
                return Fetched(url=key, error=f"{key}: redirect loop (more than {s.max_redirects} redirects)")
            except httpx.TimeoutException:
                last = Fetched(url=key, error=f"{key}: timed out after {s.timeout_s:g} s ({attempt + 1} tries)")
                if attempt + 1 < tries:
                    time.sleep(wait)
                continue
            except httpx.HTTPError as exc:
                return Fetched(url=key, error=f"{key}: request failed ({type(exc).__name__}: {exc})")
            if 200 <= f.status < 300 or f.status in (404, 410):
                self._store(key, f)
            if not 200 <= f.status < 300:
                f.error = f"{key}: HTTP {f.status}"
            return f
        return last


def _retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (delta-seconds or HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
