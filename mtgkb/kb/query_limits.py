"""Limits on a query's running time, and Ctrl-C while it runs.

Oxigraph evaluates a query in native code; Python only handles Ctrl-C (or a timer) once control comes
back to it, which for a cartesian COUNT can be many minutes. So the query runs in a worker thread
(Oxigraph lets go of the interpreter while it works) and the calling thread waits for it, where
Ctrl-C and the time limit are noticed at once. A stopped query cannot be cancelled inside Oxigraph:
the command ends instead (see :func:`mtgkb.cli.sparql`), which frees everything it held.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from mtgkb.core.errors import MtgkbError

T = TypeVar("T")

#: Seconds a query may run unless --timeout says otherwise.
DEFAULT_TIMEOUT = 60.0


class QueryTimeout(MtgkbError):
    """The query ran past its time limit."""


def run_with_limit(function: Callable[[], T], timeout: float | None) -> T:
    """``function()`` in a worker thread; QueryTimeout past ``timeout`` seconds (None or 0: none).
    KeyboardInterrupt reaches the caller as soon as Ctrl-C is pressed."""
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["value"] = function()
        except BaseException as error:  # handed to the waiting thread, which raises it
            outcome["error"] = error

    worker = threading.Thread(target=work, name="mtgkb-query", daemon=True)
    started = time.monotonic()
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
        if timeout and worker.is_alive() and time.monotonic() - started > timeout:
            raise QueryTimeout(
                f"the query ran longer than {timeout:g} s and was stopped",
                "narrow the query (a LIMIT, more specific patterns), or give --timeout SECONDS (0: no limit)",
            )
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


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
