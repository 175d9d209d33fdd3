"""The HTTP/1.1 connection: uvicorn's h11 protocol, with oversized requests answered instead of reset.

h11 refuses a request head (request line and header fields) larger than the size it is given, and
uvicorn then answers "400 Invalid HTTP request" and closes the socket at once. A client still sending
its 2 MB URL or 8 MB header then gets a TCP reset, and the kernel throws the answer away with it, so
the client never learns why. Here the answer says which limit was passed, with its status (413 for
a request line longer than ``--max-request-kb``, 431 for header fields past ``--max-header-kb``),
and the connection is closed gracefully: the server stops sending, then reads and throws away what
the client still sends (at most :data:`DRAIN_BYTES`, for at most :data:`LINGER_SECONDS`) until the
client closes, so the answer reaches it.

Slow and silent clients are bounded by time, so that holding every connection the server allows
(``--max-connections``) costs an attacker a steady stream of work instead of a few idle sockets:

- A request head must be complete within ``--head-timeout`` seconds of the connection's start, or of
  the end of the previous answer on a kept-alive connection. uvicorn's own ``timeout_keep_alive``
  does not do this: it runs only between requests and stops at the first byte received, so one byte
  of a head, or none at all on a new connection, held the connection for ever. Past the deadline a
  connection that sent nothing is closed; one that sent part of a head is answered 408.
- A request body must then arrive at :data:`~mtgkb.serve.limits.MIN_BODY_BYTES_PER_SECOND` on
  average: its deadline is ``--head-timeout`` after the head, moved later by each chunk received
  (one second per that many bytes). Past it the request is answered 408, if no answer was started,
  and the connection closed. Time the server itself stops reading (its buffer full while the
  application is busy) does not count.

The connection limit is checked here too, when a request starts: a request is refused (503) while
more than ``--max-connections`` connections are open, its own included, or as many requests are
already running. uvicorn's ``limit_concurrency`` refused a request once the open connections
reached the limit, its own connection among them, so it admitted one fewer than it said.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from mtgkb.serve.headers import SECURITY_HEADERS, with_security_headers
from mtgkb.serve.jobs import Reply, error_reply
from mtgkb.serve.limits import (
    MIN_BODY_BYTES_PER_SECOND,
    HeadersTooLarge,
    Limits,
    RequestTimedOut,
    RequestTooLarge,
    TooManyConnections,
)

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
    reply = error_reply(error, _targets_api(head[: line_end if line_end >= 0 else len(head)]), status)
    return status, reply.body, reply.media_type


def _targets_api(head: bytes) -> bool:
    target = head[:512].split(b" ")
    return len(target) > 1 and target[1].startswith(b"/api/")


def _raw_response(reply: Reply) -> bytes:
    """``reply`` as the bytes of an HTTP/1.1 response that closes the connection, for answers written
    outside h11's request cycle (a head that never came complete)."""
    head = [
        f"HTTP/1.1 {reply.status} {HTTPStatus(reply.status).phrase}",
        f"content-type: {reply.media_type}",
        f"content-length: {len(reply.body)}",
        "connection: close",
        *(f"{name.lower()}: {value}" for name, value in reply.headers.items()),
        *(f"{name.decode('ascii')}: {value.decode('ascii')}" for name, value in SECURITY_HEADERS),
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + reply.body


def protocol_class(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's ``http`` protocol for a server with ``limits``."""

    class BoundedH11Protocol(H11Protocol):
        _lingering = False
        _drained = 0
        _linger_timer: asyncio.TimerHandle | None = None
        _head_timer: asyncio.TimerHandle | None = None
        _body_timer: asyncio.TimerHandle | None = None
        _body_deadline = 0.0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._application = self.app
            self.app = self._admitted
            self.limit_concurrency = None  # checked by _admitted instead

        async def _admitted(self, scope: Any, receive: Any, send: Any) -> None:
            """The application, unless the server is past its connection limit. This runs as the
            request's task: the open connections include this one, the running tasks this task."""
            most = limits.max_connections
            if len(self.connections) <= most and len(self.tasks) <= most:
                await self._application(scope, receive, send)
                return
            self.logger.warning("A request refused: %d connections are open", len(self.connections))
            reply = error_reply(TooManyConnections(most), scope["path"].startswith("/api/"), 503)
            drained = 0
            while drained <= DRAIN_BYTES:  # the body, read and dropped, so the client hears the answer
                message = await receive()
                drained += len(message.get("body", b""))
                if message["type"] != "http.request" or not message.get("more_body"):
                    break
            headers = with_security_headers(
                [
                    (b"content-type", reply.media_type.encode("latin-1")),
                    (b"content-length", str(len(reply.body)).encode("latin-1")),
                    (b"connection", b"close"),
                    (b"retry-after", b"1"),
                ]
            )
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": reply.body})

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._watch_head()

        def data_received(self, data: bytes) -> None:
            if self._lingering:
                self._drained += len(data)
                if self._drained > DRAIN_BYTES:
                    self.transport.close()
                return
            super().data_received(data)
            if self.conn.their_state is h11.SEND_BODY:
                self._body_deadline += len(data) / MIN_BODY_BYTES_PER_SECOND
            self._watch_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch_head()

        def _watch_head(self) -> None:
            """Start the head's deadline when the connection waits for a request head, stop it once
            the head is complete, and watch the body's pace while one is expected."""
            if self._lingering or self.transport.is_closing():
                return
            waiting = self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE
            if waiting and self._head_timer is None:
                self._stop_body_watch()
                self._head_timer = self.loop.call_later(limits.head_timeout, self._head_late)
            elif not waiting and self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
                if self.conn.their_state is h11.SEND_BODY:
                    self._body_deadline = self.loop.time() + limits.head_timeout
                    self._body_timer = self.loop.call_at(self._body_deadline, self._body_late)

        def _head_late(self) -> None:
            self._head_timer = None
            if self._lingering or self.transport.is_closing():
                return
            if self.conn.their_state is not h11.IDLE:  # the head came complete meanwhile
                self._watch_head()
                return
            received = self.conn.trailing_data[0]
            if not received.strip():  # nothing (or blank lines): close without a word
                self.transport.close()
                return
            self.logger.warning("A connection closed: its request head did not arrive in time")
            reply = error_reply(
                RequestTimedOut("the request head", limits.head_timeout), _targets_api(received), 408
            )
            self.transport.write(_raw_response(reply))
            self._linger()

        def _body_late(self) -> None:
            self._body_timer = None
            if self._lingering or self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
                return
            now = self.loop.time()
            if self.flow.read_paused or now < self._body_deadline:
                # The server stopped reading (the body waits for the application), or the body is on pace.
                self._body_deadline = max(self._body_deadline, now + 1.0)
                self._body_timer = self.loop.call_at(self._body_deadline, self._body_late)
                return
            self.logger.warning("A connection closed: its request body arrived too slowly")
            cycle = self.cycle
            if cycle is None or cycle.response_started:
                self.transport.close()
                return
            cycle.disconnected = True  # the application's reads end, what it sends is dropped
            cycle.message_event.set()
            json_body = self.scope is not None and self.scope["path"].startswith("/api/")
            reply = error_reply(RequestTimedOut("the request body", limits.head_timeout), json_body, 408)
            self.transport.write(_raw_response(reply))
            self._linger()

        def _stop_body_watch(self) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def send_400_response(self, msg: str) -> None:
            refusal = refusal_of_head(self.conn.trailing_data[0], limits)
            if refusal is None:
                status, body, media_type = 400, msg.encode("ascii"), "text/plain; charset=utf-8"
            else:
                status, body, media_type = refusal
            headers = with_security_headers(
                [
                    (b"content-type", media_type.encode("ascii")),
                    (b"content-length", str(len(body)).encode("ascii")),
                    (b"connection", b"close"),
                ]
            )
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
            for timer in (self._linger_timer, self._head_timer, self._body_timer):
                if timer is not None:
                    timer.cancel()
            super().connection_lost(exc)

        def shutdown(self) -> None:
            if self._lingering:
                self.transport.close()
                return
            super().shutdown()

    return BoundedH11Protocol
