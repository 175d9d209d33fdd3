"""Cold lookups against the budget: each lookup, in a new process, may take at most 2x the wall time
of ``python -c "import rdflib"``. Runs alternate side by side; medians of N runs are printed.

    python benchmarks/bench_lookups.py [--runs 10] [--card NAME]

The store must be built first (any mtgkb command builds it); this script builds it before timing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time


def wall_time(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--card", default="Yuriko, the Tiger's Shadow")
    args = parser.parse_args()

    mtgkb = shutil.which("mtgkb") or sys.exit("mtgkb is not on PATH: install the project first")
    subprocess.run([mtgkb, "build"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    commands = {
        "python -c 'import rdflib'": [sys.executable, "-c", "import rdflib"],
        f"mtgkb card '{args.card}'": [mtgkb, "card", args.card],
        f"mtgkb rulings '{args.card}'": [mtgkb, "rulings", args.card],
        "mtgkb rule 702.49d": [mtgkb, "rule", "702.49d"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            times[name].append(wall_time(command))
    baseline = statistics.median(times["python -c 'import rdflib'"])
    print(f"medians of {args.runs} cold runs (budget: 2.00x the rdflib import)")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:45s} {median * 1000:7.1f} ms  {median / baseline:5.2f}x")


if __name__ == "__main__":
    main()
