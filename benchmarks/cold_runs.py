"""What the cold-run benchmark scripts share: the environment they run commands in, timing one run,
and finding mtgkb with its store built."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

# Bytecode caches as a user has them: a shell with PYTHONDONTWRITEBYTECODE set would make every cold
# run recompile mtgkb's sources (an editable install has no compiled files), but not rdflib's.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall_time(command: list[str]) -> float:
    """Seconds one run of ``command`` takes; exit 1 (a "no" verdict) is still a finished answer."""
    started = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {result.returncode}")
    return time.perf_counter() - started


def mtgkb_with_store() -> str:
    """The mtgkb on PATH, after building its store so no timed run builds it."""
    mtgkb = shutil.which("mtgkb") or sys.exit("mtgkb is not on PATH: install the project first")
    subprocess.run([mtgkb, "build"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return mtgkb
