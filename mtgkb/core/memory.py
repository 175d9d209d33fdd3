"""The memory bound of one query: how large it is, and how much a process holds now.

Oxigraph evaluates in native code and an ORDER BY over a cartesian product (a 60-byte query) took a
server worker to 10 GB in half a minute; Rust then aborts the process when an allocation fails, with
no message. A hard address-space limit (RLIMIT_AS) would turn that into exactly such an abort, so the
bound is watched instead: whoever waits for the query (the CLI's main thread, the server's main
process for a worker) reads the resident size of the process doing the work every tenth of a second
and stops the query when it passes the bound, with a message (exit 2, or 503 from the server).

The bound is ``--max-memory-mb``, else ``MTGKB_MAX_MEMORY_MB``, else a quarter of the machine's RAM.
"""

from __future__ import annotations

import os

from mtgkb.core.errors import MtgkbError

ENV = "MTGKB_MAX_MEMORY_MB"
#: The share of the machine's RAM one query may take unless told otherwise.
DEFAULT_FRACTION = 0.25
#: Smallest bound accepted: below it the interpreter and the open store alone pass it.
MIN_MB = 64
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class MemoryLimitExceeded(MtgkbError):
    """A query's process grew past the memory bound and the query was stopped."""

    def __init__(self, limit_mb: int, setting: str) -> None:
        super().__init__(
            f"the query needed more than {limit_mb} MB of memory and was stopped",
            "narrow the query (a LIMIT, more specific patterns, no ORDER BY over a large product); "
            f"the bound is set by {setting}",
        )


def machine_mb() -> int | None:
    """The machine's RAM in MB, from /proc/meminfo (None where there is none)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def default_limit_mb() -> int:
    """The bound when none is given: ``MTGKB_MAX_MEMORY_MB``, else a quarter of the machine's RAM."""
    given = os.environ.get(ENV, "").strip()
    if given:
        try:
            value = int(given)
        except ValueError:
            raise MtgkbError(f"{ENV}={given[:40]!r} is not a whole number of megabytes") from None
        if value < MIN_MB:
            raise MtgkbError(f"{ENV}={value} is below the smallest bound of {MIN_MB} MB")
        return value
    total = machine_mb()
    return max(MIN_MB, int(total * DEFAULT_FRACTION)) if total else 4096


def resident_mb(pid: int | str = "self") -> float | None:
    """The resident size of process ``pid`` in MB, from /proc (None when it cannot be read: the
    process has gone, or there is no /proc)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return None
