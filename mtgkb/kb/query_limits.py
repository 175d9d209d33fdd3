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
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO

from mtgkb.core.errors import MtgkbError
from mtgkb.core.memory import SAMPLE_EVERY, Ceiling, MemoryLimitExceeded, passed
from mtgkb.kb.sparql_tokens import LANGTAG, PNAME, PUNCT, WORD, Token, tokens

WORKER_NAME = "mtgkb-query"
#: Seconds a query may run unless --timeout says otherwise.
DEFAULT_TIMEOUT = 60.0
#: Bytes the worker gathers before handing them over, and how many such chunks may wait.
CHUNK_BYTES = 64 * 1024
QUEUED_CHUNKS = 8
#: Seconds between two looks at the process's memory while a query runs (see mtgkb.core.memory).
MEMORY_EVERY = SAMPLE_EVERY
#: Seconds the waiting thread waits for a chunk before it looks at the clock again.
WAIT_EVERY = 0.1


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


def stream_with_limit(
    produce: Callable[[BinaryIO], None],
    timeout: float | None,
    held_under: Sequence[Ceiling] = (),
) -> Iterator[bytes]:
    """The bytes ``produce(sink)`` writes, as they are written, ``produce`` running in a worker thread.

    :class:`QueryTimeout` once the caller has waited for the worker more than ``timeout`` seconds in
    all (None or 0: no limit); time the worker spends waiting for the caller does not count. An error
    in ``produce`` is raised in the caller; ``MemoryLimitExceeded`` once the process passes one of the
    ceilings ``held_under`` (see :mod:`mtgkb.core.memory`), looked at every :data:`MEMORY_EVERY`
    seconds, and then without waiting for the worker, which goes on allocating until the process
    ends; KeyboardInterrupt reaches the caller as soon as Ctrl-C is pressed. Closing the iterator
    early stops the worker at its next write."""
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
                handed: BaseException = error
                if isinstance(error, Exception) and not isinstance(error, MtgkbError):
                    # Rows are computed as they are written: a store that fails on one (damage, a
                    # value it cannot convert) fails here, after query() returned, and is a message.
                    handed = MtgkbError(
                        f"the query failed while its answer was written: {type(error).__name__}: "
                        f"{str(error)[:300]}",
                        "narrow the query; if the store is damaged, 'mtgkb validate --store' says so",
                    )
                with contextlib.suppress(_Stopped):
                    sink.hand_over(handed)

    worker = threading.Thread(target=work, name=WORKER_NAME, daemon=True)
    waited = looked = 0.0
    wait_every = MEMORY_EVERY if held_under else WAIT_EVERY
    over_memory = False
    worker.start()
    try:
        while True:
            started = time.monotonic()
            try:
                item = chunks.get(timeout=wait_every)
            except queue.Empty:
                item = None
            now = time.monotonic()
            waited += now - started
            if timeout and waited > timeout:
                raise _timeout_error(timeout)
            if held_under and now - looked >= MEMORY_EVERY:
                looked = now
                ceiling = passed(list(held_under))
                if ceiling is not None:
                    over_memory = True
                    raise MemoryLimitExceeded(ceiling)
            if item is None:
                continue
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]
    finally:
        stopped.set()
        # A worker at a write stops at once; one deep in a computation is left. One past a memory
        # ceiling is not waited for: it allocates on, and the process must end before a hard limit.
        worker.join(0 if over_memory else 0.5)


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


class ServiceRefused(MtgkbError):
    """A federated query (SERVICE) was sent: mtgkb never reaches out to other machines."""


class QueryTooComplex(MtgkbError):
    """A query nests deeper, or holds more operators or patterns, than the parser is given."""


#: Brackets ({ ( [ <<) nested deeper than this are refused before parsing: Oxigraph's parser
#: recurses once per level, and 3,000 nested groups overflowed its stack (SIGSEGV, no message).
MAX_NESTING = 64
#: Parentheses nested deeper than this are refused before parsing. Oxigraph's parser backtracks
#: through functions with optional arguments (SUBSTR, REGEX, REPLACE, GROUP_CONCAT) and through an
#: unclosed "!(", taking twice as long for each level (16 levels: a second; 30: hours), and it holds
#: the interpreter while it parses, so neither the time limit nor Ctrl-C could stop it.
MAX_PARENTHESES = 12
#: Operators (&& || ! = < + / | ^ …) in one query: 20,000 "&&" overflowed the parser's stack.
MAX_OPERATORS = 1000
#: Steps of property paths and divisions (/ | ^) in one query: a 10,000-step path crashed it.
MAX_PATH_STEPS = 200
#: Graph patterns (triples, UNION branches, OPTIONAL, FILTER, BIND, …) in one query: 10,000 UNION
#: branches or triples overflowed the stack of the parser or the optimiser.
MAX_PATTERNS = 300

_OPERATORS = frozenset({"&&", "||", "!", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "|", "^"})
_PATH_STEPS = frozenset({"/", "|", "^"})
_PATTERN_SEPARATORS = frozenset({".", ";", ","})
_PATTERN_KEYWORDS = frozenset({"UNION", "OPTIONAL", "MINUS", "FILTER", "BIND", "GRAPH", "VALUES", "EXISTS"})


def _names_service(token: Token) -> bool:
    """Whether Oxigraph's parser may read a SERVICE keyword at ``token``. It matches keywords without
    looking for the end of the word, so ``SERVICEm:x`` is SERVICE and then ``m:x``, and
    ``SERVICE:x`` is SERVICE and then ``:x``: a word, a prefix or a language tag that holds the word
    is refused, whatever its case."""
    if token.kind in (WORD, LANGTAG):
        return "service" in token.text.lower()
    if token.kind == PNAME:
        return "service" in token.text.split(":", 1)[0].lower()
    return False


def check_query(query: str) -> None:
    """Refuse, before Oxigraph parses ``query``, what it must never see: a SERVICE in any spelling
    (:class:`ServiceRefused`), and nesting or sizes past the limits above (:class:`QueryTooComplex`),
    measured on the query's tokens (see :mod:`mtgkb.kb.sparql_tokens`), so that no string, IRI,
    comment or escape hides anything from the count."""
    depth = deepest = parentheses = deepest_parentheses = 0
    opened: list[str] = []
    operators = path_steps = patterns = 0
    for token in tokens(query):
        if _names_service(token):
            raise _service_refused()
        if token.kind == WORD:
            if token.text.upper() in _PATTERN_KEYWORDS:
                patterns += 1
            continue
        if token.kind != PUNCT:
            continue
        text = token.text
        if text in ("{", "(", "[", "<<"):
            opened.append(text)
            depth += 1
            deepest = max(deepest, depth)
            if text == "(":
                parentheses += 1
                deepest_parentheses = max(deepest_parentheses, parentheses)
        elif text in ("}", ")", "]", ">>"):
            if opened and opened.pop() == "(":
                parentheses -= 1
            depth = len(opened)
        elif text in _OPERATORS:
            operators += 1
            path_steps += text in _PATH_STEPS
        elif text in _PATTERN_SEPARATORS and opened and opened[-1] != "(":
            patterns += 1
        if deepest > MAX_NESTING:
            raise _too_complex(f"nests brackets more than {MAX_NESTING} deep", "flatten the groups")
        if deepest_parentheses > MAX_PARENTHESES:
            raise _too_complex(
                f"nests parentheses more than {MAX_PARENTHESES} deep; at most {MAX_PARENTHESES} levels "
                "are read (deeper nesting can keep the SPARQL parser busy for hours, past any time limit)",
                "compute the expression in steps with BIND, or close the parentheses left open",
            )
        if operators > MAX_OPERATORS:
            raise _too_complex(f"has more than {MAX_OPERATORS} operators", "split the expression")
        if path_steps > MAX_PATH_STEPS:
            raise _too_complex(
                f"has more than {MAX_PATH_STEPS} property path steps", "use a shorter path or a + path"
            )
        if patterns > MAX_PATTERNS:
            raise _too_complex(
                f"has more than {MAX_PATTERNS} graph patterns (triples, UNION branches, OPTIONAL, FILTER …)",
                "use VALUES for alternatives, or split the query",
            )


def _service_refused() -> ServiceRefused:
    return ServiceRefused(
        "federated queries (SERVICE) are not supported: mtgkb queries only its own knowledge base",
        "remove the SERVICE clause, or run the query with a SPARQL client against both endpoints",
    )


def _too_complex(what: str, hint: str) -> QueryTooComplex:
    return QueryTooComplex(f"the query {what}; it is refused before it is parsed", hint)
