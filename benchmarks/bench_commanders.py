"""Cold commander questions against their budgets: ``mtgkb commanders A B`` may take at most 1.5x and
``mtgkb partners CARD`` at most 2x the wall time of ``python -c "import rdflib"``, each in a new
process. Runs alternate side by side; medians are printed. With --pairs, also the number of legal
pairs per partner ability. (The legal-partner-pairs query is timed by bench_sparql.py.)

    python benchmarks/bench_commanders.py [--runs 10] [--quick] [--json] [--pairs]

Import the full card pool first for the figures that matter (see README); the script builds the
store before timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

from cold_runs import ENVIRONMENT, against_rdflib, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 10, 3
FIRST, SECOND = "Thrasios, Triton Hero", "Tymna the Weaver"


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    commands = {
        f"mtgkb commanders '{FIRST}' '{SECOND}'": ([mtgkb, "commanders", FIRST, SECOND], 1.5),
        f"mtgkb partners '{FIRST}'": ([mtgkb, "partners", FIRST], 2.0),
    }
    return against_rdflib(commands, runs)


def pair_counts() -> None:
    mtgkb = mtgkb_with_store()
    answer = subprocess.run(
        [mtgkb, "query", "legal-partner-pairs", "--format", "json"],
        check=True,
        capture_output=True,
        env=ENVIRONMENT,
    )
    rows = json.loads(answer.stdout)["results"]["bindings"]
    counts = Counter(row["mechanic"]["value"].rsplit("/", 1)[1] for row in rows)
    print(f"legal pairs: {len(rows)}")
    for mechanic, count in sorted(counts.items()):
        print(f"  {mechanic:30s} {count:6d}")


if __name__ == "__main__":
    pairs = "--pairs" in sys.argv
    if pairs:
        sys.argv.remove("--pairs")
    main(figures, __doc__.splitlines()[0], "commanders")
    if pairs:
        pair_counts()
