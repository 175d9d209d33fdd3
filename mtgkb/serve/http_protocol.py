"""The HTTP/1.1 connection: uvicorn's h11 protocol, with oversized requests answered instead of reset.

h11 refuses a request head (request line and header fields) larger than the size it is given, and
uvicorn then answers "400 Invalid HTTP request" and closes the socket at once. A client still sending
its 2 MB URL or 8 MB header then gets a TCP reset, and the kernel throws the answer away with it, so
the client never learns why. Here the answer says which limit was passed, with its status (413 for
a request line longer than ``--max-request-kb``, 431 for header fields past ``--max-header-kb``),
and the connection is closed gracefully: the server stops sending, then reads and throws away what
the client still sends (at most :data:`DRAIN_BYTES`, for at most :data:`LINGER_SECONDS`) until the
client closes, so the answer reaches it.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from mtgkb.serve.jobs import error_reply
from mtgkb.serve.limits import HeadersTooLarge, Limits, RequestTooLarge

#: Bytes of a request line beyond the query string itself: the method, the path, the HTTP version.
REQUEST_LINE_SLACK = 8 * 1024
#: What a refused connection may still send, and for how long, before it is closed outright.
DRAIN_BYTES = 64 * 1024 * 1024
LINGER_SECONDS = 5.0


def head_limit(limits: Limits) -> int:
    """The largest request head h11 reads: a query string of ``max_request_bytes`` in the request line
    (GET /sparql?query=…) and header fields of ``max_header_bytes``."""
    return limits.max_request_bytes + limits.max_header_bytes + REQUEST_LINE_SLACK


def refusal_of_head(head: bytes, limits: Limits) -> tuple[int, bytes, str] | None:
    """The status, body and media type answering a request head past :func:`head_limit`; None when
    ``head`` is not too long (some other protocol error)."""
    if len(head) <= head_limit(limits):
        return None
    line_end = head.find(b"\n", 0, limits.max_request_bytes + REQUEST_LINE_SLACK + 1)
    if line_end < 0:
        error: Any = RequestTooLarge(
            "the request line (the URL with its query string)", limits.max_request_bytes
        )
        status = 413
    else:
        error, status = HeadersTooLarge(limits.max_header_bytes), 431
    target = head[: min(line_end if line_end >= 0 else len(head), 512)].split(b" ")
    json_body = len(target) > 1 and target[1].startswith(b"/api/")
    reply = error_reply(error, json_body, status)
    return status, reply.body, reply.media_type


def protocol_class(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's ``http`` protocol for a server with ``limits``."""

    class BoundedH11Protocol(H11Protocol):
        _lingering = False
        _drained = 0
        _linger_timer: asyncio.TimerHandle | None = None

        def data_received(self, data: bytes) -> None:
            if self._lingering:
                self._drained += len(data)
                if self._drained > DRAIN_BYTES:
                    self.transport.close()
                return
            super().data_received(data)

        def send_400_response(self, msg: str) -> None:
            refusal = refusal_of_head(self.conn.trailing_data[0], limits)
            if refusal is None:
                status, body, media_type = 400, msg.encode("ascii"), "text/plain; charset=utf-8"
            else:
                status, body, media_type = refusal
            headers = [
                (b"content-type", media_type.encode("ascii")),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"connection", b"close"),
            ]
            try:
                output = self.conn.send(
                    h11.Response(status_code=status, headers=headers, reason=HTTPStatus(status).phrase)
                )
                output += self.conn.send(h11.Data(data=body)) or b""
                output += self.conn.send(h11.EndOfMessage()) or b""
            except h11.LocalProtocolError:  # a response is already under way: nothing more to say
                self.transport.close()
                return
            self.transport.write(output or b"")
            self._linger()

        def _linger(self) -> None:
            """Stop sending, read and drop what the client still sends, close once it has done so."""
            self._lingering = True
            if self.transport.can_write_eof():
                self.transport.write_eof()
            self.flow.resume_reading()
            self._linger_timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._linger_timer is not None:
                self._linger_timer.cancel()
            super().connection_lost(exc)

        def shutdown(self) -> None:
            if self._lingering:
                self.transport.close()
                return
            super().shutdown()

    return BoundedH11Protocol
