"""Starting ``mtgkb`` as a real process, for tests that signal, kill or time it."""

from __future__ import annotations

import os
import subprocess
import sys


def start_mtgkb(*args: str) -> subprocess.Popen:
    """``python -m mtgkb ARGS`` with this environment, text pipes for stdout and stderr."""
    return subprocess.Popen(
        [sys.executable, "-m", "mtgkb", *args],
        env=os.environ.copy(),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


#: Address space given to a command that a broken limit could let grow without end: enough for
#: mtgkb with the store open and its largest legitimate read, far below what the machine has.
MEMORY_CAP = 2 << 30


def run_mtgkb_capped(
    *args: str,
    memory: int = MEMORY_CAP,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    stdin: object = None,
) -> subprocess.CompletedProcess:
    """``python -m mtgkb ARGS`` to the end under an address-space limit (``memory`` bytes) and a
    timeout, so that a runaway fails the test instead of hurting the machine."""
    import resource

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        env={**os.environ, **(env or {})},
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=capped,
    )
