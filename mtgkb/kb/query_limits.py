"""Limits on a query's running time, Ctrl-C while it runs, and its answer streamed with bounded memory.

Oxigraph evaluates a query in native code; Python only handles Ctrl-C (or a timer) once control comes
back to it, which for a cartesian COUNT can be many minutes. So the query runs, and its answer is
written, in a worker thread (Oxigraph lets go of the interpreter while it works), which hands the
bytes of the answer to the calling thread through a short queue; the calling thread writes them out
and notices Ctrl-C and the time limit at once. The queue holds at most a few hundred kilobytes, so
however large the answer, the memory it takes stays the same: the worker waits while the reader of
the output (a pipe, a pager) is slow, and that wait does not count against the time limit. A stopped
query cannot be cancelled inside Oxigraph: the command ends instead (see :mod:`mtgkb.cli.sparql`),
which frees everything it held.
"""

from __future__ import annotations

import contextlib
import queue
import re
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import BinaryIO

from mtgkb.core.errors import MtgkbError

WORKER_NAME = "mtgkb-query"
#: Seconds a query may run unless --timeout says otherwise.
DEFAULT_TIMEOUT = 60.0
#: Bytes the worker gathers before handing them over, and how many such chunks may wait.
CHUNK_BYTES = 64 * 1024
QUEUED_CHUNKS = 8


class QueryTimeout(MtgkbError):
    """The query ran past its time limit."""


def _timeout_error(timeout: float) -> QueryTimeout:
    return QueryTimeout(
        f"the query ran longer than {timeout:g} s and was stopped",
        "narrow the query (a LIMIT, more specific patterns), or give --timeout SECONDS (0: no limit)",
    )


class _Stopped(Exception):
    """Raised inside the worker when the reader of the stream has gone."""


class _QueueSink:
    """A binary file for the worker: what it writes reaches the queue in chunks of CHUNK_BYTES."""

    def __init__(self, chunks: queue.Queue[object], stopped: threading.Event) -> None:
        self._chunks = chunks
        self._stopped = stopped
        self._buffer = bytearray()

    def write(self, data: bytes | bytearray | memoryview) -> int:
        self._buffer += data
        if len(self._buffer) >= CHUNK_BYTES:
            self.hand_over(bytes(self._buffer))
            self._buffer.clear()
        return len(data)

    def flush(self) -> None:
        """Nothing to do: the chunks leave when they are full, the rest at the end."""

    def finish(self) -> None:
        if self._buffer:
            self.hand_over(bytes(self._buffer))
            self._buffer.clear()

    def hand_over(self, item: object) -> None:
        while True:
            if self._stopped.is_set():
                raise _Stopped
            try:
                self._chunks.put(item, timeout=0.1)
                return
            except queue.Full:
                continue


_DONE = object()


def stream_with_limit(produce: Callable[[BinaryIO], None], timeout: float | None) -> Iterator[bytes]:
    """The bytes ``produce(sink)`` writes, as they are written, ``produce`` running in a worker thread.

    :class:`QueryTimeout` once the caller has waited for the worker more than ``timeout`` seconds in
    all (None or 0: no limit); time the worker spends waiting for the caller does not count. An error
    in ``produce`` is raised in the caller; KeyboardInterrupt reaches the caller as soon as Ctrl-C is
    pressed. Closing the iterator early stops the worker at its next write."""
    chunks: queue.Queue[object] = queue.Queue(maxsize=QUEUED_CHUNKS)
    stopped = threading.Event()
    sink = _QueueSink(chunks, stopped)

    def work() -> None:
        try:
            produce(sink)  # type: ignore[arg-type]
            sink.finish()
            sink.hand_over(_DONE)
        except _Stopped:
            pass
        except BaseException as error:  # handed to the waiting thread, which raises it
            _let_go_of_locals(error)
            if not stopped.is_set():
                with contextlib.suppress(_Stopped):
                    sink.hand_over(error)

    worker = threading.Thread(target=work, name=WORKER_NAME, daemon=True)
    waited = 0.0
    worker.start()
    try:
        while True:
            started = time.monotonic()
            try:
                item = chunks.get(timeout=0.1)
            except queue.Empty:
                item = None
            waited += time.monotonic() - started
            if timeout and waited > timeout:
                raise _timeout_error(timeout)
            if item is None:
                continue
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]
    finally:
        stopped.set()
        worker.join(0.5)  # a worker at a write stops at once; one deep in a computation is left


def _let_go_of_locals(error: BaseException) -> None:
    """Clear the variables of the frames ``error`` (and the errors it chains) went through, here in the
    worker: Oxigraph's objects may only be dropped by the thread that made them, and the traceback
    would otherwise carry them to the waiting thread."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        traceback.clear_frames(current.__traceback__)
        current = current.__cause__ or current.__context__


def query_running() -> bool:
    """Whether a stopped query is still at work in native code: the process must then end without
    the interpreter's clean-up, which would stop that thread in the middle of Oxigraph."""
    return any(thread.name == WORKER_NAME and thread.is_alive() for thread in threading.enumerate())


# Strings, IRIs and comments, whose text is never a keyword.
_NOT_KEYWORDS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s]*>|#[^\n]*'
)
_SERVICE = re.compile(r"\bSERVICE\b", re.IGNORECASE)


class ServiceRefused(MtgkbError):
    """A federated query (SERVICE) was sent: mtgkb never reaches out to other machines."""


def refuse_service(query: str) -> None:
    """A federated query (SERVICE) is refused: mtgkb answers from its own store, and a query must not
    make the tool reach out to other machines."""
    if _SERVICE.search(_NOT_KEYWORDS.sub(" ", query)):
        raise ServiceRefused(
            "federated queries (SERVICE) are not supported: mtgkb queries only its own knowledge base",
            "remove the SERVICE clause, or run the query with a SPARQL client against both endpoints",
        )


#: Parentheses nested deeper than this are refused before the query is parsed. Oxigraph's parser
#: backtracks through functions with optional arguments (SUBSTR, REGEX, REPLACE, GROUP_CONCAT) and
#: through an unclosed "!(", taking twice as long for each level (16 levels: a second; 30: hours),
#: and it holds the interpreter while it parses, so neither the time limit nor Ctrl-C could stop it.
MAX_NESTING = 12
_PARENTHESES = re.compile(r"[()]")


def refuse_deep_nesting(query: str) -> None:
    """A query whose parentheses nest more than :data:`MAX_NESTING` deep is refused at once."""
    depth = deepest = 0
    for match in _PARENTHESES.finditer(_NOT_KEYWORDS.sub(" ", query)):
        depth = depth + 1 if match.group() == "(" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        raise MtgkbError(
            f"the query nests parentheses {deepest} deep; at most {MAX_NESTING} levels are read "
            "(deeper nesting can keep the SPARQL parser busy for hours, past any time limit)",
            "compute the expression in steps with BIND, or close the parentheses left open",
        )
