"""Cold ``mtgkb copy`` against the budget: each run, in a new process, may take at most 1.5x the wall
time of ``python -c "import rdflib"``. Runs alternate side by side; medians of N runs are printed.

    python benchmarks/bench_copy.py [--runs 10]

Meant for the full card pool (import it first, see the README); the store is built before timing.
Besides the bare question it times one with a situation file (a copy of a copy with counters).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET = 1.5
SITUATION = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Clone"],
            "battlefield": [
                {"card": "Spark Double", "copy_of": "Yuriko, the Tiger's Shadow", "counters": {"+1/+1": 1}},
                {
                    "card": "Thousand-Faced Shadow",
                    "entered_from": "hand",
                    "attacking": "opp",
                    "blocked": False,
                    "tapped": True,
                },
            ],
        },
        "opp": {"battlefield": [{"card": "Grizzly Bears"}]},
    },
}


# Bytecode caches as a user has them: a shell with PYTHONDONTWRITEBYTECODE set would make every cold
# run recompile mtgkb's sources (an editable install has no compiled files), but not rdflib's.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall_time(command: list[str]) -> float:
    started = time.perf_counter()
    # Exit 1 is a "no" verdict, which is still a finished answer.
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {result.returncode}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    mtgkb = shutil.which("mtgkb") or sys.exit("mtgkb is not on PATH: install the project first")
    subprocess.run([mtgkb, "build"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as folder:
        board = Path(folder) / "board.json"
        board.write_text(json.dumps(SITUATION), encoding="utf-8")
        commands = {
            "python -c 'import rdflib'": [sys.executable, "-c", "import rdflib"],
            "mtgkb copy \"Sakashima's Student\" --target 'Grizzly Bears'": [
                mtgkb,
                "copy",
                "Sakashima's Student",
                "--target",
                "Grizzly Bears",
            ],
            "mtgkb copy Clone --target 'Spark Double' --situation FILE": [
                mtgkb,
                "copy",
                "Clone",
                "--target",
                "Spark Double",
                "--situation",
                str(board),
            ],
            "mtgkb copy 'Sakashima the Impostor' --target Clone --json": [
                mtgkb,
                "copy",
                "Sakashima the Impostor",
                "--target",
                "Clone",
                "--json",
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for command in commands.values():
            wall_time(command)  # writes the bytecode caches
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(wall_time(command))
    baseline = statistics.median(times["python -c 'import rdflib'"])
    print(f"medians of {args.runs} cold runs (budget: {BUDGET:.2f}x the rdflib import)")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:62s} {median * 1000:7.1f} ms  {median / baseline:5.2f}x")


if __name__ == "__main__":
    main()
