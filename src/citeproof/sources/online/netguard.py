"""Where citeproof may connect (issue 31, part 1): public addresses only, checked where the socket is opened.

Every request of the online tier goes through one httpx client whose
connections are opened by :class:`GuardedBackend`. For each connection
(the first request and every redirect hop that leaves the pooled
connections) it resolves the host name once, refuses the connection when
any address the name resolves to is not a public one (:func:`address_problem`:
loopback, private, link-local, multicast, unspecified, reserved, shared or
documentation ranges), and connects to an address it checked; the socket is
never opened on a second DNS answer (DNS rebinding). TLS still verifies the
certificate against the host name and sends it as SNI (httpcore starts TLS
with the URL's host, not the address).

The one exception is the operator's allow-list: the ``(host, port)`` of the
API base URLs configured through the ``CITEPROOF_*_URL`` variables
(:func:`allowed_origins`), which may point at loopback or a private mirror
(the test suite's fake services live on 127.0.0.1 that way). Anything a
document, a bibliography or a service's answer names is checked.

A refused connection raises :class:`Refused` (not an httpx error), which
:meth:`citeproof.sources.online.http.PoliteHTTP.get` turns into a
``Fetched`` whose ``error`` starts with ``refused:``.

Sources: the address ranges are Python's :mod:`ipaddress` registry data
(IANA IPv4/IPv6 Special-Purpose Address Registries, RFC 6890), with
``is_global`` as the final test.
"""

from __future__ import annotations

import ipaddress
import socket
import typing

import httpcore
import httpx

__all__ = ["Refused", "address_problem", "allowed_origins", "GuardedBackend", "guarded_transport", "url_problem", "SCHEMES"]

SCHEMES = ("http", "https")
"""The only URL schemes citeproof fetches."""


class Refused(Exception):
    """A connection citeproof will not open; ``str()`` is the reason (``refused: a private address ...``).

    Attributes:
        origin: ``(host, port)`` of the refused connection.
    """

    def __init__(self, reason: str, origin: tuple[str, int] = ("", 0)) -> None:
        super().__init__(reason)
        self.origin = origin


def address_problem(ip: str) -> str | None:
    """Why ``ip`` is not an address citeproof connects to, or None for a public (global unicast) address.

    Args:
        ip: an IPv4 or IPv6 address in text form (a scope suffix ``%eth0`` is ignored).

    Returns:
        ``'a loopback address'``, ``'a private address'`` (RFC 1918, ``fc00::/7``),
        ``'a link-local address'`` (``169.254.0.0/16``, which holds the cloud
        metadata address, and ``fe80::/10``), ``'a multicast address'``,
        ``'an unspecified address'``, ``'a reserved address'``, or ``'not a
        public address'`` (shared, documentation and other special ranges); an
        IPv4-mapped IPv6 address is judged as its IPv4 address.
    """
    try:
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    if addr.is_unspecified:
        return "an unspecified address"
    if addr.is_loopback:
        return "a loopback address"
    if addr.is_link_local:
        return "a link-local address"
    if addr.is_multicast:
        return "a multicast address"
    if addr.is_reserved:
        return "a reserved address"
    if addr.is_private:
        return "a private address"
    if not addr.is_global:
        return "not a public address"
    return None


def url_problem(url: str) -> str | None:
    """Why ``url`` is not one citeproof fetches before any lookup (scheme, host), or None.

    Returns:
        ``'refused: only http and https URLs are fetched (not ...)'``,
        ``'refused: the URL names no host'``, or None. Addresses are checked
        when the connection is opened (:class:`GuardedBackend`).
    """
    try:
        u = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        return f"refused: not a valid URL ({exc})"
    if u.scheme not in SCHEMES:
        return f"refused: only http and https URLs are fetched (not {u.scheme or 'a relative URL'!r})"
    if not u.host:
        return "refused: the URL names no host"
    return None


def allowed_origins(urls: typing.Iterable[str]) -> frozenset[tuple[str, int]]:
    """``{(host, port)}`` of the configured API base URLs: the only origins that may be non-public."""
    out = set()
    for url in urls:
        try:
            u = httpx.URL(url)
        except (httpx.InvalidURL, TypeError, ValueError):
            continue
        if u.scheme in SCHEMES and u.host:
            out.add((u.host.lower(), u.port or (443 if u.scheme == "https" else 80)))
    return frozenset(out)


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's network backend with the check above at ``connect_tcp``.

    Args:
        allowed: ``(host, port)`` pairs connected to without the address check
            (:func:`allowed_origins`).

    Attributes:
        refused: the reasons of every connection refused so far (in order).
    """

    def __init__(self, allowed: typing.Iterable[tuple[str, int]] = ()) -> None:
        self.allowed = frozenset((h.lower(), p) for h, p in allowed)
        self.refused: list[str] = []

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: typing.Iterable[typing.Any] | None = None) -> httpcore.NetworkStream:
        """Resolve ``host`` once, refuse non-public answers (:class:`Refused`), connect to a checked address."""
        name = host.strip("[]").lower()
        if (name, port) in self.allowed:
            return super().connect_tcp(host, port, timeout, local_address, socket_options)
        try:
            infos = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError, OSError) as exc:
            raise httpcore.ConnectError(f"cannot resolve {host!r} ({exc})") from None
        addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
        for ip in addresses:
            why = address_problem(ip)
            if why:
                shown = host if host.strip("[]") == ip else f"{host} is {ip}"
                reason = f"refused: {why} ({shown}); citeproof connects only to public addresses"
                self.refused.append(reason)
                raise Refused(reason, (name, port))
        last: Exception | None = None
        for ip in addresses:  # the checked addresses, never a second lookup
            try:
                return super().connect_tcp(ip, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        raise last or httpcore.ConnectError(f"no address for {host!r}")


class _GuardedTransport(httpx.HTTPTransport):
    """httpx's transport over a connection pool opened by :class:`GuardedBackend`."""

    def __init__(self, backend: GuardedBackend, limits: httpx.Limits) -> None:
        super().__init__(trust_env=False, limits=limits)
        self._pool.close()
        # httpx exposes no network_backend option; the pool is rebuilt as HTTPTransport builds it, with the backend
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=limits.max_connections, max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry, network_backend=backend,
        )


def guarded_transport(allowed: typing.Iterable[tuple[str, int]], limits: httpx.Limits) -> tuple[httpx.BaseTransport, GuardedBackend]:
    """An httpx transport whose every connection passes :class:`GuardedBackend`; returns ``(transport, backend)``."""
    backend = GuardedBackend(allowed)
    return _GuardedTransport(backend, limits), backend
