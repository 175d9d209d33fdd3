"""Cold ``mtgkb copy`` against the budget: each run, in a new process, may take at most 1.5x the wall
time of ``python -c "import rdflib"``. Runs alternate side by side; medians of N runs are printed.

    python benchmarks/bench_copy.py [--runs 10]

Meant for the full card pool (import it first, see the README); the store is built before timing.
Besides the bare question it times one with a situation file (a copy of a copy with counters).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import mtgkb_with_store, wall_time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    mtgkb = mtgkb_with_store()
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
