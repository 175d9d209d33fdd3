"""Cold commander questions against their budgets: ``mtgkb commanders A B`` may take at most 1.5x and
``mtgkb partners CARD`` at most 2x the wall time of ``python -c "import rdflib"``, each in a new
process. Also times the legal-partner-pairs named query, for all pairs and for one card, and prints
the number of legal pairs per partner ability. Runs alternate side by side; medians are printed.

    python benchmarks/bench_commanders.py [--runs 10] [--first NAME] [--second NAME]

Import the full card pool first for the figures that matter (see README); the script builds the
store before timing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter

BUDGETS = {"commanders": 1.5, "partners": 2.0}


def wall_time(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--first", default="Thrasios, Triton Hero")
    parser.add_argument("--second", default="Tymna the Weaver")
    args = parser.parse_args()

    mtgkb = shutil.which("mtgkb") or sys.exit("mtgkb is not on PATH: install the project first")
    subprocess.run([mtgkb, "build"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    baseline_name = "python -c 'import rdflib'"
    commands = {
        baseline_name: ([sys.executable, "-c", "import rdflib"], None),
        f"mtgkb commanders '{args.first}' '{args.second}'": (
            [mtgkb, "commanders", args.first, args.second],
            "commanders",
        ),
        f"mtgkb partners '{args.first}'": ([mtgkb, "partners", args.first], "partners"),
        "mtgkb query legal-partner-pairs (all)": ([mtgkb, "query", "legal-partner-pairs"], None),
        f"mtgkb query legal-partner-pairs (card={args.first})": (
            [mtgkb, "query", "legal-partner-pairs", "--param", f"card={args.first}"],
            None,
        ),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, (command, _budget) in commands.items():
            times[name].append(wall_time(command))
    baseline = statistics.median(times[baseline_name])
    print(f"medians of {args.runs} cold runs (budgets in brackets, as multiples of the rdflib import)")
    for name, (_command, budget) in commands.items():
        median = statistics.median(times[name])
        limit = f"  [{BUDGETS[budget]:.2f}x]" if budget else ""
        print(f"  {name:60s} {median * 1000:7.1f} ms  {median / baseline:5.2f}x{limit}")

    rows = json.loads(
        subprocess.run(
            [mtgkb, "query", "legal-partner-pairs", "--format", "json"], check=True, capture_output=True
        ).stdout
    )["results"]["bindings"]
    counts = Counter(row["mechanic"]["value"].rsplit("/", 1)[1] for row in rows)
    print(f"legal pairs: {len(rows)}")
    for mechanic, count in sorted(counts.items()):
        print(f"  {mechanic:30s} {count:6d}")


if __name__ == "__main__":
    main()
