"""Loopback stand-ins for the online services (issue 12's test contract).

Each service is a real ``ThreadingHTTPServer`` on 127.0.0.1 with its own port,
serving responses written from the services' public documentation (Crossref
works, OpenAlex Work, Unpaywall v2, arXiv Atom, Europe PMC search and
fullTextXML). Routes map a path (and, for searches, a query parameter) to a
handler; faults are handlers too (429 with Retry-After, 500, a stall past the
client's timeout, malformed JSON, an HTML login page for a PDF, a truncated
PDF, a redirect loop, an oversize body). Every request is recorded with its
headers, so tests can inspect what left citeproof.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, unquote, urlsplit

Handler = Callable[["Request"], tuple[int, dict, bytes]]


class Request:
    """One recorded request: ``path`` (percent-decoded), ``query`` (dict of first values), ``headers``, ``url`` (as sent)."""

    def __init__(self, path: str, query: dict, headers: dict, url: str) -> None:
        self.path, self.query, self.headers, self.url = path, query, headers, url


def json_reply(data, status: int = 200) -> Handler:
    body = json.dumps(data).encode()
    return lambda req: (status, {"Content-Type": "application/json;charset=utf-8"}, body)


def bytes_reply(body: bytes, ctype: str, status: int = 200) -> Handler:
    return lambda req: (status, {"Content-Type": ctype}, body)


def sequence(*handlers: Handler) -> Handler:
    """Each call answers with the next handler; the last one repeats."""
    state = {"i": 0}
    lock = threading.Lock()

    def h(req: Request):
        with lock:
            i = min(state["i"], len(handlers) - 1)
            state["i"] += 1
        return handlers[i](req)

    return h


class Service:
    """A loopback HTTP server with routes ``{path: handler}`` (``path?param=value`` routes match a query parameter).

    ``mount=(other, prefix)`` serves this service under ``prefix`` of ``other``'s server instead of a port of
    its own (the file host lives on an API's origin: only the configured ``CITEPROOF_*_URL`` origins may be
    loopback, issue 31); its routes and recorded requests are its own, paths without the prefix.
    """

    def __init__(self, name: str, mount: "tuple[Service, str] | None" = None) -> None:
        self.name = name
        self.routes: dict[str, Handler] = {}
        self.requests: list[Request] = []
        self.delay_s = 0.0
        self.mounts: list[tuple[str, Service]] = []
        self.connections = []
        if mount is not None:
            parent, prefix = mount
            parent.mounts.append((prefix, self))
            self.url, self.server = parent.url + prefix, None
            return
        root = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):  # quiet
                pass

            def do_GET(self):  # noqa: N802
                parts = urlsplit(self.path)
                service, path, url = root, unquote(parts.path), self.path  # routed on the decoded path, as servers do
                for prefix, child in root.mounts:
                    if path.startswith(prefix + "/"):
                        service, path, url = child, path[len(prefix):], self.path[len(prefix):]
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                req = Request(path, query, dict(self.headers), url)
                service.requests.append(req)
                if service.delay_s:
                    time.sleep(service.delay_s)
                handler = None
                for key, h in service.routes.items():
                    rpath, _, cond = key.partition("?")
                    if rpath != path:
                        continue
                    if cond:
                        k, _, v = cond.partition("=")
                        if v.lower() not in query.get(k, "").lower():
                            continue
                    handler = h
                    break
                if handler is None:
                    status, headers, body = 404, {"Content-Type": "application/json"}, b'{"status":"error","message":"Resource not found."}'
                else:
                    status, headers, body = handler(req)
                omit_length = bool(headers.pop("X-Omit-Length", None))
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    if omit_length:  # a body whose size is known only by reading it all
                        self.send_header("Connection", "close")
                        self.close_connection = True
                    elif "Content-Length" not in headers:
                        self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.connections: list[tuple] = []  # every TCP connection accepted (mounted services share their parent's)

        class Server(ThreadingHTTPServer):
            def process_request(self, request, client_address):
                root.connections.append(client_address)
                super().process_request(request, client_address)

        self.server = Server(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def reset(self) -> None:
        """Forget routes, recorded requests and the delay."""
        self.routes.clear()
        self.requests.clear()
        self.delay_s = 0.0


class FakeWeb:
    """The five services plus a file host (under ``/files`` of the Unpaywall origin), started together; ``env``
    points citeproof at them."""

    NAMES = ("crossref", "openalex", "unpaywall", "arxiv", "europepmc", "files")

    def __init__(self) -> None:
        self.services = {n: Service(n) for n in self.NAMES if n != "files"}
        self.services["files"] = Service("files", mount=(self.services["unpaywall"], "/files"))

    def __getitem__(self, name: str) -> Service:
        return self.services[name]

    @property
    def env(self) -> dict[str, str]:
        """The ``CITEPROOF_*_URL`` variables and fast rate limits for tests."""
        env = {f"CITEPROOF_{n.upper()}_URL": s.url for n, s in self.services.items() if n != "files"}
        env["CITEPROOF_EUROPEPMC_URL"] = self.services["europepmc"].url + "/europepmc/webservices/rest"
        env["CITEPROOF_ONLINE_RATES"] = "crossref=200,openalex=200,unpaywall=200,arxiv=200,europepmc=200,download=200"
        return env

    def all_requests(self) -> list[Request]:
        return [r for s in self.services.values() for r in s.requests]

    def reset(self) -> None:
        for s in self.services.values():
            s.reset()

    def stop(self) -> None:
        for s in self.services.values():
            s.stop()


class Trap:
    """A loopback TCP listener no configuration points at (an "internal service", issue 31): it logs every
    connection opened to it and answers each with an HTTP 200 whose body is :attr:`SECRET`. citeproof must
    never connect to it; ``connections`` counts the accepted sockets."""

    SECRET = b"internal-admin-secret: the trap was read"

    def __init__(self, host: str = "127.0.0.1") -> None:
        import socket

        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"
        self.connections: list[tuple] = []
        self._stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                conn, addr = self.sock.accept()
            except OSError:
                return
            self.connections.append(addr)
            try:
                conn.settimeout(2)
                conn.recv(65536)
                body = self.SECRET
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            except OSError:
                pass
            finally:
                conn.close()

    def stop(self) -> None:
        self._stop = True
        self.sock.close()
