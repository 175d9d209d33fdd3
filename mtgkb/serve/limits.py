"""What the server allows one request: its running time, the size of its answer, of the request and of
its header fields, the time its head may take to arrive; and how many connections it holds at once.

Every limit is settable on the command line (``mtgkb serve --help``) and each one, when reached, is an
answer with its own status and a message that says which limit it was and how to stay within it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from mtgkb.core.errors import MtgkbError

#: Seconds a query or an API call may run before its worker is stopped.
DEFAULT_TIMEOUT = 30.0
#: Bytes an answer may take (the serialised results or RDF).
DEFAULT_MAX_RESULT_BYTES = 50 * 1024 * 1024
#: Bytes a request may carry: a query, a posted situation.
DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024
#: Worker processes answering queries and API calls side by side.
DEFAULT_WORKERS = 2
#: Bytes the header fields of one request may take in all (a larger head is refused with 431).
DEFAULT_MAX_HEADER_BYTES = 32 * 1024
#: Header fields one request may carry (Apache's LimitRequestFields).
MAX_HEADER_FIELDS = 100
#: Connections the server holds open at once; one more is answered 503 and closed.
DEFAULT_MAX_CONNECTIONS = 100
#: Seconds a request head (request line and header fields) may take to arrive, from the connection's
#: start or the end of the previous answer; past it the connection is closed (408 if part of one came).
DEFAULT_HEAD_TIMEOUT = 10.0
#: Bytes a second a request body must arrive at, on average, once its first ``head_timeout`` is over.
MIN_BODY_BYTES_PER_SECOND = 16 * 1024


@dataclass(frozen=True)
class Limits:
    timeout: float = DEFAULT_TIMEOUT
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    workers: int = DEFAULT_WORKERS
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    head_timeout: float = DEFAULT_HEAD_TIMEOUT
    #: Megabytes a worker may hold while it answers; past it the job is stopped (503). None: no bound.
    max_memory_mb: int | None = None


class ResultTooLarge(MtgkbError):
    """The answer outgrew the result-size limit while it was being written."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"the answer is larger than this server's limit of {describe_bytes(limit)}",
            "ask for less: add a LIMIT, select fewer variables or narrow the patterns "
            "(the limit is set by 'mtgkb serve --max-result-mb')",
        )


class RequestTooLarge(MtgkbError):
    """The request body or query is larger than the request-size limit."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(
            f"{what} is larger than this server's limit of {describe_bytes(limit)}",
            "send a shorter request (the limit is set by 'mtgkb serve --max-request-kb')",
        )


class HeadersTooLarge(MtgkbError):
    """The request's header fields are more, or larger, than the server reads (431)."""

    def __init__(self, limit: int, fields: int | None = None) -> None:
        if fields is None:
            message = (
                f"the request's header fields are larger than this server's limit of {describe_bytes(limit)}"
            )
        else:
            message = (
                f"the request has {fields:,} header fields; this server reads at most {MAX_HEADER_FIELDS}"
            )
        super().__init__(
            message, "send fewer or shorter headers (their size is set by 'mtgkb serve --max-header-kb')"
        )


class TooManyConnections(MtgkbError):
    """The server holds as many connections as it may (503)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"the server holds its limit of {limit:,} open connections",
            "try again shortly, or close idle connections (the limit is set by "
            "'mtgkb serve --max-connections')",
        )


class RequestTimedOut(MtgkbError):
    """The request head, or its body, arrived too slowly (408)."""

    def __init__(self, what: str, timeout: float) -> None:
        super().__init__(
            f"{what} did not arrive in time: a request head must arrive within {timeout:g} s, a body "
            f"at {describe_bytes(MIN_BODY_BYTES_PER_SECOND)} a second after that",
            "send the whole request at once (the deadline is set by 'mtgkb serve --head-timeout')",
        )


class CappedBuffer(io.RawIOBase):
    """A byte buffer that refuses to grow past ``limit``: serialisers write into it and stop with
    :class:`ResultTooLarge` as soon as the answer is too big, before it is all in memory."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._limit = limit
        self._parts: list[bytes] = []
        self._size = 0

    def writable(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        self._size += len(data)
        if self._size > self._limit:
            raise ResultTooLarge(self._limit)
        self._parts.append(bytes(data))
        return len(data)

    def getvalue(self) -> bytes:
        return b"".join(self._parts)


def describe_bytes(count: int) -> str:
    if count >= 1024 * 1024 and count % (1024 * 1024) == 0:
        return f"{count // (1024 * 1024)} MB"
    if count >= 1024 and count % 1024 == 0:
        return f"{count // 1024} KB"
    return f"{count:,} bytes"
