"""What the benchmark scripts share: the environment they run commands in, timing runs side by side,
the peak memory of a run, and finding mtgkb with its store built."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from figures import Figure

# Bytecode caches as a user has them: a shell with PYTHONDONTWRITEBYTECODE set would make every cold
# run recompile mtgkb's sources (an editable install has no compiled files), but not rdflib's.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
IMPORT_RDFLIB = [sys.executable, "-c", "import rdflib"]


def wall_time(command: list[str], env: Mapping[str, str] | None = None) -> float:
    """Seconds one run of ``command`` takes; exit 1 (a "no" verdict) is still a finished answer."""
    started = time.perf_counter()
    code = subprocess.call(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env or ENVIRONMENT)
    )
    if code not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {code}")
    return time.perf_counter() - started


# Runs a command and writes the peak resident memory of that command's process (in KB) to a file.
# The peak a parent reads with wait4 counts the parent's own memory at the moment it forked the child
# (Linux keeps the figure across exec), so a large benchmark process would inflate every child's peak:
# this small launcher forks the command instead.
_PEAK_LAUNCHER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(code)\n"
)


def measured(
    command: list[str], env: Mapping[str, str] | None = None, expected: tuple[int, ...] = (0, 1)
) -> tuple[float, float]:
    """Seconds one run of ``command`` takes and the peak resident memory of its process, in MB (the
    launcher that measures the peak adds a few milliseconds: for long runs). An exit status outside
    ``expected`` (an answer, yes or no, unless a refusal is what is measured) stops the benchmark."""
    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        started = time.perf_counter()
        code = subprocess.call(
            [sys.executable, "-c", _PEAK_LAUNCHER, peak.name, *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(env or ENVIRONMENT),
        )
        seconds = time.perf_counter() - started
        kilobytes = int(peak.read() or 0)
    if code not in expected:
        sys.exit(f"{' '.join(command)} exited {code}")
    return seconds, kilobytes / 1024


def medians(
    commands: Mapping[str, list[str]], runs: int, env: Mapping[str, str] | None = None
) -> dict[str, float]:
    """The median seconds of each command over ``runs`` rounds. The commands take turns, so a change
    in the machine's load touches them all alike; an untimed round first writes the bytecode caches."""
    for command in commands.values():
        wall_time(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(wall_time(command, env))
    return {name: statistics.median(samples) for name, samples in times.items()}


def against_rdflib(
    commands: Mapping[str, tuple[list[str], float]],
    runs: int,
    env: Mapping[str, str] | None = None,
    note: str | None = None,
) -> list[Figure]:
    """A figure for each command (name -> (command, budget)): its median time over ``runs``, against
    ``python -c "import rdflib"`` timed side by side as the baseline of a cold command."""
    timed = {"rdflib": IMPORT_RDFLIB, **{name: command for name, (command, _) in commands.items()}}
    times = medians(timed, runs, env)
    note = note or f"median of {runs}"
    return [
        Figure(name, times[name], "s", "import rdflib", times["rdflib"], budget, note=note)
        for name, (_, budget) in commands.items()
    ]


def mtgkb_command() -> str:
    """The mtgkb command installed beside this Python, or on PATH."""
    beside = Path(sys.executable).parent / "mtgkb"
    mtgkb = str(beside) if beside.is_file() else shutil.which("mtgkb")
    if mtgkb is None:
        sys.exit("mtgkb is not on PATH: install the project first")
    return mtgkb


def mtgkb_with_store() -> str:
    """The mtgkb command, after building its store so no timed run builds it."""
    mtgkb = mtgkb_command()
    subprocess.run(
        [mtgkb, "build"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT
    )
    return mtgkb
