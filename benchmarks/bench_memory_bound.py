"""How close to its memory bound a runaway query stops (issue 37, item 4): the issue's cartesian
``SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f`` run by ``mtgkb sparql`` and by
``mtgkb serve`` (one worker) under an address-space limit of 3 and 6 GB (RLIMIT_AS, as ``prlimit
--as`` sets it), with and without ``--max-memory-mb 2000``. Each row is the peak the process reached
in the measure of the ceiling that stopped it (VmHWM for the resident size, VmPeak for the address
space, read from /proc every millisecond: high-water marks, so a late read misses nothing before it)
beside that ceiling; its budget is the hard limit (past it the allocator aborts), or for the resident
bound the bound and a twentieth. Run it on the store you want measured (the issue's figures are on
the bundled store; import the full pool first for the pool's).

    python benchmarks/bench_memory_bound.py [--quick]

``--quick`` runs the 3 GB cases only.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from cold_runs import ENVIRONMENT, mtgkb_command
from figures import Figure, main

QUERY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f"
GB = 1024**3
#: (address-space limit in GB, --max-memory-mb or None)
CASES = [(3, None), (3, 2000), (6, None), (6, 2000)]
_STOPPED = re.compile(r"needed more than (\d+) MB of (.+?) and was stopped")


def _launcher(limit_bytes: int) -> list[str]:
    """What ``prlimit --as=BYTES --`` does, without needing prlimit."""
    return [
        sys.executable,
        "-c",
        f"import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({limit_bytes}, {limit_bytes})); "
        "os.execv(sys.argv[1], sys.argv[1:])",
    ]


class Peaks:
    """The high-water marks (VmHWM, VmPeak, in MB) of the processes ``pids()`` names, read every ms."""

    def __init__(self, pids) -> None:
        self.pids = pids
        self.resident = self.address_space = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.is_set():
            for pid in self.pids():
                try:
                    with open(f"/proc/{pid}/status", encoding="ascii") as status:
                        for line in status:
                            if line.startswith("VmHWM:"):
                                self.resident = max(self.resident, int(line.split()[1]) / 1024)
                            elif line.startswith("VmPeak:"):
                                self.address_space = max(self.address_space, int(line.split()[1]) / 1024)
                except (OSError, ValueError):
                    continue
            time.sleep(0.001)

    def __enter__(self) -> Peaks:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(2)


def _environment() -> dict[str, str]:
    return {name: value for name, value in ENVIRONMENT.items() if name != "MTGKB_MAX_MEMORY_MB"}


def _run_cli(limit_gb: int, options: list[str]) -> tuple[str, Peaks]:
    command = [*_launcher(limit_gb * GB), mtgkb_command(), "sparql", QUERY, "--format", "csv"]
    process = subprocess.Popen(
        [*command, "--timeout", "0", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    with Peaks(lambda: [process.pid]) as peaks:
        _, err = process.communicate(timeout=300)
    return f"exit {process.returncode}: {err.strip()}", peaks


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError):
                continue
    return found


def _run_server(limit_gb: int, options: list[str]) -> tuple[str, Peaks]:
    command = [*_launcher(limit_gb * GB), mtgkb_command(), "serve", "--port", "0", "--json", "--workers", "1"]
    process = subprocess.Popen(
        [*command, "--timeout", "120", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_environment(),
    )
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.rstrip() == "}":
                break
        url = json.loads("".join(lines))["url"] + "sparql"
        workers = _children(process.pid)  # the worker and multiprocessing's resource tracker
        request = urllib.request.Request(
            url, QUERY.encode(), {"Content-Type": "application/sparql-query", "Accept": "text/csv"}
        )
        with Peaks(lambda: workers) as peaks:
            try:
                with urllib.request.urlopen(request, timeout=300) as response:
                    answer = f"status {response.status}"
            except urllib.error.HTTPError as error:
                answer = f"status {error.code}: {error.read().decode()}"
        return answer, peaks
    finally:
        process.terminate()
        process.wait(30)


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    found = []
    for limit_gb, bound in CASES[:2] if quick else CASES:
        options = [] if bound is None else ["--max-memory-mb", str(bound)]
        for who, run in (("sparql", _run_cli), ("serve", _run_server)):
            answer, peaks = run(limit_gb, options)
            stopped = _STOPPED.search(answer)
            given = "default bound" if bound is None else f"--max-memory-mb {bound}"
            name = f"{who} under {limit_gb} GB of address space, {given}: peak"
            if stopped is None:
                print(f"{name}: not stopped by a ceiling: {answer[:300]}", file=sys.stderr)
                found.append(Figure(name, peaks.address_space, "MB", limit=0, note="aborted: " + answer[:60]))
                continue
            ceiling, what = int(stopped.group(1)), stopped.group(2)
            if what == "address space":
                found.append(
                    Figure(
                        name,
                        peaks.address_space,
                        "MB",
                        limit=limit_gb * 1024,
                        note=f"VmPeak; ceiling {ceiling} MB",
                    )
                )
            else:
                found.append(
                    Figure(
                        name, peaks.resident, "MB", limit=ceiling * 1.05, note=f"VmHWM; bound {ceiling} MB"
                    )
                )
    return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "memory_bound")
