"""The memory bound of one query: the ceilings a process is held under, and how much it holds now.

Oxigraph evaluates in native code and an ORDER BY over a cartesian product (a 60-byte query) took a
server worker to 10 GB in half a minute; Rust then aborts the process when an allocation fails, with
no message (exit -6, "memory allocation of 896 bytes failed"). So whoever waits for the query (the
CLI's main thread, the server's main process for a worker) looks at the process doing the work
every :data:`SAMPLE_EVERY` seconds and stops the query, with a message (exit 2, or 503 from the
server), once it passes one of its ceilings. Each ceiling is compared with what its limit counts:

- the bound: ``--max-memory-mb``, else ``MTGKB_MAX_MEMORY_MB``, else a quarter of the machine's RAM,
  compared with the process's resident size;
- the address-space limit (``RLIMIT_AS``: ``ulimit -v``, ``prlimit --as``), compared with the
  process's address space (VmSize), which is what the kernel counts when it refuses an allocation
  (half a gigabyte to a gigabyte more than the resident size, malloc's arenas being reserved whole);
  a server worker inherits the limit and is compared alone;
- the memory limit of the process's cgroup (a container's limit: v2 ``memory.max``, v1
  ``memory.limit_in_bytes``, the smallest of its cgroup and their parents), compared with what that
  cgroup holds less the page cache the kernel can drop. The cgroup is shared: for the server it counts
  the server and all its workers together, and the largest worker's job is the one stopped.

The two hard limits are kept :func:`headroom_mb` short of (a fifth, at least 256 MB): the process
needs room to stop, the allocator takes address space 64 MB at a time, and a growing vector doubles
at once. So by default a query may use the smallest of a quarter of the machine, the cgroup's limit
and the address space the process may map, less that headroom, each in its own measure.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mtgkb.core.errors import MtgkbError

ENV = "MTGKB_MAX_MEMORY_MB"
#: The share of the machine's RAM one query may take unless told otherwise.
DEFAULT_FRACTION = 0.25
#: Smallest bound accepted: below it the interpreter and the open store alone pass it.
MIN_MB = 64
#: Seconds between two looks at a working process (reading /proc/PID/statm takes microseconds; a
#: cartesian ORDER BY grew by 300 MB to 1 GB a second, so 3 to 10 MB between two looks).
SAMPLE_EVERY = 0.01
#: The room kept below a hard limit (RLIMIT_AS, a cgroup's): at least this many MB …
HEADROOM_MIN_MB = 256
#: … or this share of the limit, whichever is more: the vector an ORDER BY collects its rows in grows
#: by doubling, and under 3 GB of address space one step asked for 384 MB at once (14 % of the 2.7 GB
#: the process held then; with an eighth kept free it would have been the last megabyte).
HEADROOM_SHARE = 0.2
#: A cgroup limit at or past this many bytes is none (v1 writes "no limit" as 2**63 less a page).
_NO_LIMIT_BYTES = 2**60
_MB = 1024 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

Measure = Literal["resident", "address space", "cgroup"]


@dataclass(frozen=True)
class Ceiling:
    """One limit a query's process is held under: past ``limit_mb`` of ``measure`` it is stopped.
    ``what`` is how the message names the memory counted, ``setting`` what the user changes to move
    the ceiling; ``hard_mb`` is the limit the headroom was taken from (None: the bound is the user's
    own); ``cgroup`` is the folder whose memory is counted (``measure`` "cgroup")."""

    what: str
    measure: Measure
    limit_mb: int
    setting: str
    hard_mb: int | None = None
    cgroup: Path | None = None

    def held_mb(self, pid: int | str = "self") -> float | None:
        """What ``pid`` (or its cgroup) holds now in this ceiling's measure; None when unreadable."""
        if self.measure == "address space":
            return address_space_mb(pid)
        if self.measure == "cgroup" and self.cgroup is not None:
            return cgroup_held_mb(self.cgroup)
        return resident_mb(pid)


class MemoryLimitExceeded(MtgkbError):
    """A query's process grew past one of its ceilings and the query was stopped."""

    def __init__(self, ceiling: Ceiling) -> None:
        message = f"the query needed more than {ceiling.limit_mb} MB of {ceiling.what} and was stopped"
        if ceiling.hard_mb is not None:
            kept = ceiling.hard_mb - ceiling.limit_mb
            message += f" (its limit is {ceiling.hard_mb} MB; {kept} MB are kept free to stop in)"
        super().__init__(
            message,
            "narrow the query (a LIMIT, more specific patterns, no ORDER BY over a large product); "
            f"the bound is set by {ceiling.setting}",
        )
        self.ceiling = ceiling


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
    """The bound on the resident size when none is given: ``MTGKB_MAX_MEMORY_MB``, else a quarter of
    the machine's RAM (the hard limits are ceilings of their own: see :func:`ceilings`)."""
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


def headroom_mb(hard_mb: int) -> int:
    """The room kept below a hard limit of ``hard_mb``."""
    return max(HEADROOM_MIN_MB, int(hard_mb * HEADROOM_SHARE))


def _below(hard_mb: int) -> int:
    """The bound kept below a hard limit: its headroom short of it, and never under half of it (a
    limit too small for the headroom still gives a message rather than an abort)."""
    return max(hard_mb // 2, hard_mb - headroom_mb(hard_mb))


def address_space_limit_mb() -> int | None:
    """The address space this process (and any child it starts) may map, in MB: the soft
    ``RLIMIT_AS``; None when there is no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    return soft // _MB


@dataclass(frozen=True)
class CgroupLimit:
    """The tightest memory limit of a process's cgroup and its parents: ``folder`` sets it."""

    limit_mb: int
    folder: Path
    version: Literal[1, 2]


def cgroup_limit(
    root: Path = Path("/sys/fs/cgroup"), membership: Path = Path("/proc/self/cgroup")
) -> CgroupLimit | None:
    """The memory limit of the cgroup ``membership`` names (v2 ``memory.max`` under ``root``, else v1
    ``memory.limit_in_bytes`` under ``root``/memory), the smallest along the way up to ``root``; None
    when there is none, or no cgroup can be read."""
    try:
        lines = membership.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        hierarchy, controllers, path = [*line.split(":", 2), "", ""][:3]
        if hierarchy == "0" and controllers == "":
            found = _tightest(root, path, "memory.max", 2)
        elif "memory" in controllers.split(","):
            found = _tightest(root / "memory", path, "memory.limit_in_bytes", 1)
        else:
            continue
        if found is not None:
            return found
    return None


def _tightest(mount: Path, path: str, limit_file: str, version: Literal[1, 2]) -> CgroupLimit | None:
    folder = mount / path.strip("/") if path.strip("/") else mount
    best: CgroupLimit | None = None
    while True:
        limit = _read_limit(folder / limit_file)
        if limit is not None and (best is None or limit < best.limit_mb):
            best = CgroupLimit(limit, folder, version)
        if folder == mount or mount not in folder.parents:
            return best
        folder = folder.parent


def _read_limit(file: Path) -> int | None:
    try:
        text = file.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.isdigit() or int(text) >= _NO_LIMIT_BYTES:  # v2 writes "max" for none
        return None
    return int(text) // _MB


def cgroup_held_mb(folder: Path) -> float | None:
    """The memory cgroup ``folder`` holds, in MB, less its page cache (file pages the kernel drops
    before it runs out; shared memory stays counted): v2 ``memory.current`` and ``memory.stat``, v1
    ``memory.usage_in_bytes`` and the hierarchy's totals. None when it cannot be read."""
    v2 = (folder / "memory.current").exists()
    try:
        used = int((folder / ("memory.current" if v2 else "memory.usage_in_bytes")).read_text("ascii"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    stat: dict[str, int] = {}
    try:
        for line in (folder / "memory.stat").read_text("ascii").splitlines():
            name, _, value = line.partition(" ")
            if value.strip().isdigit():
                stat[name] = int(value)
    except (OSError, UnicodeDecodeError):
        pass
    file, shared = ("file", "shmem") if v2 else ("total_cache", "total_shmem")
    cache = stat.get(file, 0) - stat.get(shared, 0)
    return max(used - max(cache, 0), 0) / _MB


def ceilings(
    bound_mb: int,
    setting: str,
    cgroup_root: Path = Path("/sys/fs/cgroup"),
    membership: Path = Path("/proc/self/cgroup"),
) -> list[Ceiling]:
    """What a query's process is held under: ``bound_mb`` of resident size (``setting`` names what set
    it), and the hard limits it runs under (the cgroup's, RLIMIT_AS), each :func:`headroom_mb` short."""
    held = [Ceiling("memory", "resident", bound_mb, setting)]
    cgroup = cgroup_limit(cgroup_root, membership)
    if cgroup is not None:
        held.append(
            Ceiling(
                "the container's memory",
                "cgroup",
                _below(cgroup.limit_mb),
                "the memory limit of the container (cgroup "
                + ("memory.max" if cgroup.version == 2 else "memory.limit_in_bytes")
                + ")",
                hard_mb=cgroup.limit_mb,
                cgroup=cgroup.folder,
            )
        )
    address_space = address_space_limit_mb()
    if address_space is not None:
        held.append(
            Ceiling(
                "address space",
                "address space",
                _below(address_space),
                "the process's address-space limit (RLIMIT_AS: 'ulimit -v', 'prlimit --as')",
                hard_mb=address_space,
            )
        )
    return held


def passed(held_under: list[Ceiling], pid: int | str = "self") -> Ceiling | None:
    """The first of ``held_under`` that ``pid`` has passed, or None."""
    for ceiling in held_under:
        held = ceiling.held_mb(pid)
        if held is not None and held > ceiling.limit_mb:
            return ceiling
    return None


def _statm_mb(pid: int | str, field: int) -> float | None:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[field]) * _PAGE / _MB
    except (OSError, ValueError, IndexError):
        return None


def resident_mb(pid: int | str = "self") -> float | None:
    """The resident size of process ``pid`` in MB, from /proc (None when it cannot be read: the
    process has gone, or there is no /proc)."""
    return _statm_mb(pid, 1)


def address_space_mb(pid: int | str = "self") -> float | None:
    """The address space process ``pid`` has mapped (VmSize) in MB: what RLIMIT_AS counts."""
    return _statm_mb(pid, 0)
