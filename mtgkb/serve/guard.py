"""What every request passes before the application sees it, and what the log hears of its failures.

- The ``Host`` header must be a host name or an IP literal with an optional port, at most
  :data:`MAX_HOST_CHARS` long (else 400): the service description writes it into IRIs.
- At most :data:`~mtgkb.serve.limits.MAX_HEADER_FIELDS` header fields, of at most
  ``--max-header-kb`` in all (else 431); heads larger than h11 reads are refused earlier, in
  :mod:`mtgkb.serve.http_protocol`.
- Every answer, the application's and the refusals here alike, carries the security headers of
  :mod:`mtgkb.serve.headers`.
- A bug in this process has already been answered (500) and logged in one line by the application's
  error handler; Starlette raises it again for the server to log, which would print a traceback: it
  stops here.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
from typing import Any

from mtgkb.core.errors import MtgkbError
from mtgkb.serve.headers import sending_security_headers
from mtgkb.serve.jobs import Reply, error_reply
from mtgkb.serve.limits import MAX_HEADER_FIELDS, HeadersTooLarge, Limits

#: A DNS name is at most 253 characters; a port adds six.
MAX_HOST_CHARS = 260
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_HOST = re.compile(
    rf"(?:(?P<name>{_LABEL}(?:\.{_LABEL})*\.?)|\[(?P<ipv6>[0-9A-Fa-f:.]+)\])(?::(?P<port>[0-9]{{1,5}}))?"
)
#: Bytes of a refused request's body read and dropped, so that the client hears the answer.
_DRAIN_BYTES = 64 * 1024 * 1024

Scope = dict[str, Any]


def valid_host(value: str) -> bool:
    """Whether ``value`` is a Host header as RFC 9110 allows it: a name or an IP literal, a port."""
    if len(value) > MAX_HOST_CHARS:
        return False
    match = _HOST.fullmatch(value)
    if match is None:
        return False
    if match["ipv6"] is not None:
        try:
            ipaddress.IPv6Address(match["ipv6"])
        except ValueError:
            return False
    return match["port"] is None or int(match["port"]) <= 65535


def refusal(scope: Scope, limits: Limits) -> Reply | None:
    """The answer refusing a request for its headers; None when they pass."""
    headers = scope.get("headers", [])
    json_body = scope.get("path", "").startswith("/api/")
    if len(headers) > MAX_HEADER_FIELDS:
        return error_reply(HeadersTooLarge(limits.max_header_bytes, len(headers)), json_body, 431)
    if sum(len(name) + len(value) + 4 for name, value in headers) > limits.max_header_bytes:
        return error_reply(HeadersTooLarge(limits.max_header_bytes), json_body, 431)
    hosts = [value for name, value in headers if name == b"host"]
    if len(hosts) > 1 or (hosts and not valid_host(hosts[0].decode("latin-1"))):
        problem = MtgkbError(
            "the Host header is not a host name or an IP address with an optional port",
            "send the host part of the server's URL, e.g. Host: 127.0.0.1:7878",
        )
        return error_reply(problem, json_body, 400)
    return None


class RequestGuard:
    """ASGI middleware around the whole application (see the module's docstring)."""

    def __init__(self, app: Any, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = sending_security_headers(send)
        refused = refusal(scope, self.limits)
        if refused is not None:
            await _answer(refused, receive, send)
            return
        # An error raised again by Starlette was already answered and logged (see the module's docstring).
        with contextlib.suppress(Exception):
            await self.app(scope, receive, send)


async def _answer(reply: Reply, receive: Any, send: Any) -> None:
    drained = 0
    while drained <= _DRAIN_BYTES:
        message = await receive()
        drained += len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body"):
            break
    headers = [
        (b"content-type", reply.media_type.encode("latin-1")),
        (b"content-length", str(len(reply.body)).encode("latin-1")),
        (b"connection", b"close"),
    ]
    headers += [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in reply.headers.items()
    ]
    await send({"type": "http.response.start", "status": reply.status, "headers": headers})
    await send({"type": "http.response.body", "body": reply.body})
