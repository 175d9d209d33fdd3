"""Binding the socket and running the application under uvicorn."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError
from mtgkb.serve.limits import Limits

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


@dataclass
class ServeInfo:
    """Where the server listens, over which store, with which limits."""

    url: str
    sparql: str
    api: str
    explorer: str
    store: str
    triples: int
    graphs: int
    workers: int
    timeout: float
    max_result_bytes: int
    max_request_bytes: int
    max_header_bytes: int
    max_connections: int
    head_timeout: float
    local_only: bool


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one), or a clear error."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise MtgkbError(
            f"cannot listen on '{host}': {error.strerror}", "give an address, e.g. 127.0.0.1"
        ) from None
    family, kind, protocol, _, address = infos[0]
    sock = socket.socket(family, kind, protocol)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise MtgkbError(
            f"cannot listen on {host}:{port}: {error.strerror}",
            "give another --port (0 picks a free one)" if port else None,
        ) from None
    sock.set_inheritable(True)
    return sock


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_info(kb: KnowledgeBase, sock: socket.socket, limits: Limits) -> ServeInfo:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    graphs = kb.meta.get("graphs", {})
    return ServeInfo(
        url,
        url + "sparql",
        url + "api/",
        url,
        str(kb.path),
        sum(graphs.values()),
        len(graphs),
        limits.workers,
        limits.timeout,
        limits.max_result_bytes,
        limits.max_request_bytes,
        limits.max_header_bytes,
        limits.max_connections,
        limits.head_timeout,
        is_loopback(host),
    )


def run(
    kb: KnowledgeBase,
    sock: socket.socket,
    limits: Limits,
    on_ready: Callable[[], None] | None = None,
    access_log: bool = False,
) -> None:
    """Serve until Ctrl-C (or SIGTERM); ``on_ready`` is called once the workers have opened the store."""
    import uvicorn

    from mtgkb.serve.app import create_app
    from mtgkb.serve.guard import RequestGuard
    from mtgkb.serve.http_protocol import head_limit, protocol_class

    app = RequestGuard(create_app(kb.path, list(kb.meta.get("graphs", {})), limits, on_ready), limits)
    config = uvicorn.Config(
        app,
        http=protocol_class(limits),
        lifespan="on",
        log_level="info" if access_log else "warning",
        access_log=access_log,
        # Long GET queries reach the application, which answers 413 past --max-request-kb; a head
        # longer than this is answered 413 or 431 by the protocol.
        h11_max_incomplete_event_size=head_limit(limits),
        # --max-connections is checked by the protocol (uvicorn's limit_concurrency admitted one less),
        # which also bounds the time a request head and body may take (--head-timeout).
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:
        raise MtgkbError("the server did not start: its query workers could not open the store")
