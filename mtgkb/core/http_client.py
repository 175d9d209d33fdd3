"""HTTP requests with a limit on their whole time and on the size of what they read.

A socket timeout bounds one read; a server sending a byte every few seconds passes every such
timeout and holds the request for as long as it likes. Each request here runs under a
:class:`Deadline`: its connection is given at most the time left, and when the time is up a watchdog
shuts the request's sockets, which ends any read or write blocked on them, and the request fails with
a message saying how long it was allowed. Bodies are read with the bounded reader of
:mod:`mtgkb.core.bounded`. Redirects go to http and https addresses only (never ``file:`` or
``ftp:``), and a URL that cannot be sent (a NUL, an unclosed ``[``) is an error naming it, not a
traceback.
"""

from __future__ import annotations

import contextlib
import http.client
import math
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

from mtgkb.core.bounded import read_bounded
from mtgkb.core.errors import MtgkbError, shown

WEB_SCHEMES = ("http", "https")


class RequestTimedOut(MtgkbError):
    """A request that did not complete within its time limit."""


class Deadline:
    """A point in time a request (or several) must be done by; ``seconds`` None or 0: no limit."""

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and math.isnan(seconds):
            raise MtgkbError("a time limit of 'nan' seconds is no number", "give --timeout SECONDS")
        if seconds is not None and math.isinf(seconds):
            seconds = None
        self.seconds = seconds or None
        self._ends = time.monotonic() + seconds if seconds else None
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.passed = False

    def remaining(self) -> float | None:
        return None if self._ends is None else max(self._ends - time.monotonic(), 0.0)

    def expired(self) -> bool:
        return self.passed or (self._ends is not None and time.monotonic() >= self._ends)

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.passed:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.passed = True
            for sock in self._sockets:
                _shut(sock)

    @contextlib.contextmanager
    def armed(self) -> Iterator[None]:
        """While the block runs, the sockets of its requests are shut once the time is up."""
        remaining = self.remaining()
        if remaining is None:
            yield
            return
        timer = threading.Timer(remaining, self._expire)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with self._lock:
                self._sockets.clear()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def check_web_url(url: str, what: str = "the address") -> None:
    """Refuse anything but an http(s) URL a request can be sent to (``file:``, ``ftp:``, a NUL or a
    control character, an unclosed ``[::1``)."""
    if any(ord(character) < 0x20 or ord(character) == 0x7F for character in url):
        raise MtgkbError(f"{what} {shown(repr(url))} holds a control character", "give a plain http(s) URL")
    try:
        parsed = urllib.parse.urlsplit(url)
        parsed.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as error:
        raise MtgkbError(
            f"{what} '{shown(url)}' is not a valid URL ({error})", "give an http(s) URL"
        ) from None
    if parsed.scheme.lower() not in WEB_SCHEMES or not parsed.hostname:
        raise MtgkbError(
            f"{what} '{shown(url)}' is not an http(s) URL",
            "mtgkb downloads over http and https only; a file you have can be imported with 'mtgkb import'",
        )


def _connection_class(base: type[http.client.HTTPConnection], deadline: Deadline) -> Any:
    class Connection(base):  # type: ignore[misc, valid-type]
        def connect(self) -> None:
            remaining = deadline.remaining()
            if remaining is not None:
                bounded = isinstance(self.timeout, (int, float))
                self.timeout = min(self.timeout, remaining) if bounded else remaining
            super().connect()
            deadline.watch(self.sock)

    return Connection


class _HttpHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._connection = _connection_class(http.client.HTTPConnection, deadline)

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(self._connection, req)


class _HttpsHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._connection = _connection_class(http.client.HTTPSConnection, deadline)

    def https_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(self._connection, req, context=self._context)


class _WebRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects to http(s) addresses only: never to ``file:`` or ``ftp:``."""

    def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
        target = headers.get("location") or headers.get("uri") or ""
        newurl = urllib.parse.urljoin(req.full_url, target)
        if urllib.parse.urlsplit(newurl).scheme.lower() not in WEB_SCHEMES:
            raise urllib.error.HTTPError(
                req.full_url, code, f"a redirect to '{shown(newurl)}' is not followed", headers, fp
            )
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def opener(deadline: Deadline, *handlers: urllib.request.BaseHandler) -> urllib.request.OpenerDirector:
    """An opener whose connections ``deadline`` bounds and whose redirects stay on http(s)."""
    return urllib.request.build_opener(
        _HttpHandler(deadline), _HttpsHandler(deadline), _WebRedirects(), *handlers
    )


def timed_out(deadline: Deadline, what: str) -> RequestTimedOut:
    return RequestTimedOut(
        f"{what} took longer than {deadline.seconds:g} s in all and was stopped",
        "try again later, or give a longer --timeout SECONDS (0: no limit)",
    )


@contextlib.contextmanager
def open_response(
    request: urllib.request.Request,
    deadline: Deadline,
    what: str,
    hint: str,
    *handlers: urllib.request.BaseHandler,
    stall: float | None = None,
) -> Iterator[Any]:
    """The response to ``request`` for the block, under ``deadline`` for the block's whole time (read
    the body with :func:`read_body` inside it). ``stall`` bounds one read or write besides. An error
    status is raised as urllib's HTTPError; no answer in time is :class:`RequestTimedOut`; anything
    else that keeps the request from being sent or answered is an MtgkbError naming ``what``."""
    check_web_url(request.full_url, what)
    remaining = deadline.remaining()
    limits = [value for value in (stall, remaining) if value is not None]
    timeout = min(limits) if limits else None
    with deadline.armed():
        try:
            response = opener(deadline, *handlers).open(request, timeout=timeout)
        except urllib.error.HTTPError:
            raise
        except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as error:
            if deadline.expired():
                raise timed_out(deadline, what) from None
            reason = getattr(error, "reason", None) or error
            raise MtgkbError(f"cannot reach {what}: {reason}", hint) from None
        with response:
            yield response


def read_body(response: Any, what: str, kind: str, deadline: Deadline) -> bytes:
    """The whole body of ``response``, at most the limit of ``kind``; :class:`RequestTimedOut` when
    the deadline passed while it was read (the watchdog's shutdown looks like the end of the body)."""
    try:
        body = read_bounded(response, what, kind)
    except (OSError, http.client.HTTPException) as error:
        if deadline.expired():
            raise timed_out(deadline, what) from None
        raise MtgkbError(f"the answer of {what} was cut short: {error}", "try again") from None
    if deadline.passed:
        raise timed_out(deadline, what)
    return body
