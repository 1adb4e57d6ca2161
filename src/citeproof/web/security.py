"""The web page's guard: Host and Origin checks, a streamed size limit, security headers.

One ASGI middleware (:class:`GuardMiddleware`) in front of the whole app:

- **Host** (DNS rebinding): a request whose ``Host`` is not one of the allowed
  names (by default the loopback names, plus the address ``serve --host``
  listens on) gets ``400``. A page on ``evil.example`` that re-points its DNS
  name at 127.0.0.1 still sends ``Host: evil.example``.
- **Origin** (CSRF): a ``POST`` (any method but GET/HEAD/OPTIONS) whose
  ``Origin`` header is present and names another ``host[:port]`` than the
  ``Host`` header, or is ``null``, or whose ``Sec-Fetch-Site`` is ``cross-site``, gets ``403``.
  Browsers send ``Origin`` on every cross-origin POST, so a form on another
  site cannot start jobs here (OWASP CSRF cheat sheet, "Verifying origin
  with standard headers").
- **Size**: the request body is counted as it streams, so a chunked upload
  (no ``Content-Length``) is cut off with ``413`` once it passes the limit,
  not after it has landed on disk.
- **Headers** on every answer: ``Content-Security-Policy`` (scripts from this
  origin's files and the HTML report's own inline scripts by their SHA-256,
  never ``'unsafe-inline'`` (issue 31); styles, frames and fetches from this
  origin only; no plugins; not framed by other sites), ``X-Frame-Options: SAMEORIGIN``, ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: same-origin`` (a job's link is its only key:
  it must not leak to the DOI and arXiv links of a report; ``no-referrer``
  would also make Chromium send ``Origin: null`` with the page's own upload
  form, which the Origin check above refuses).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

__all__ = ["GuardMiddleware", "LOOPBACK_HOSTS", "SECURITY_HEADERS", "host_name"]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Host names allowed by default: the loopback ones."""

def _csp() -> bytes:
    from citeproof.reports.html import script_hashes

    scripts = " ".join(["'self'", *script_hashes()])
    return (f"default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'").encode("ascii")


SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", _csp()),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Headers added to every answer (names lower-case, as ASGI sends them)."""

_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class _TooLarge(Exception):
    """The body passed the limit while streaming."""


def host_name(value: str) -> str:
    """The host part of a ``Host`` header or an origin, lower-case, without port or brackets ('' if none).

    ``127.0.0.1:8000`` gives ``127.0.0.1``; ``[::1]:8000`` gives ``::1``;
    ``http://localhost:8000`` gives ``localhost``.
    """
    if not value:
        return ""
    try:
        parts = urlsplit(value if "//" in value else "//" + value)
        return (parts.hostname or "").lower()
    except ValueError:
        return ""


class GuardMiddleware:
    """ASGI middleware: Host and Origin checks, a streamed body limit, security headers.

    Args:
        app: the ASGI app it guards.
        allowed_hosts: host names (no port) the server answers to; ``*``
            allows any (for a server behind a proxy that checks them).
        max_body_bytes: largest request body, counted as it streams.
    """

    def __init__(self, app: Any, allowed_hosts: Iterable[str], max_body_bytes: int) -> None:
        self.app = app
        self.allowed_hosts = {h.strip("[]").lower() for h in allowed_hosts}
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host_header = headers.get("host", "")
        host = host_name(host_header)
        if "*" not in self.allowed_hosts and host not in self.allowed_hosts:
            await _answer(send, 400, f"the Host header {host_header!r} is not one this server answers to; open it by its own address (e.g. http://127.0.0.1:PORT/)")
            return
        if scope["method"] not in _SAFE_METHODS:
            origin = headers.get("origin")
            # the origin's host[:port] must be the Host asked for (the scheme may differ behind a TLS proxy)
            if origin is not None and (origin == "null" or _netloc(origin) != host_header.lower()):
                await _answer(send, 403, f"a request from another site ({origin}) is refused; upload from this server's own page")
                return
            if headers.get("sec-fetch-site") == "cross-site":
                await _answer(send, 403, "a request from another site is refused; upload from this server's own page")
                return

        seen = 0
        started = over = False
        too_large = f"the upload is larger than the limit of {self.max_body_bytes // (1024 * 1024)} MiB"

        async def counted_receive() -> dict:
            nonlocal seen, over
            if over:
                raise _TooLarge()
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    over = True  # stop reading: the rest never reaches the disk
                    raise _TooLarge()
            return message

        async def send_with_headers(message: dict) -> None:
            nonlocal started
            if over:
                # the app turned the interrupted body into its own error (FastAPI answers 400): say what happened instead
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await _answer(send, 413, too_large)
                return
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": list(message.get("headers", [])) + [(k, v) for k, v in SECURITY_HEADERS if k not in names]}
            await send(message)

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except _TooLarge:
            if not started:
                started = True
                await _answer(send, 413, too_large)


def _netloc(origin: str) -> str:
    """``host[:port]`` of an origin, lower-case ('' if it is not a URL)."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return ""


async def _answer(send: Any, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())] + list(SECURITY_HEADERS)})
    await send({"type": "http.response.body", "body": body})
