"""Cold lookups against the budget: each lookup, in a new process, may take at most 2x the wall time
of ``python -c "import rdflib"``. Runs alternate side by side; medians of N runs are printed.

    python benchmarks/bench_lookups.py [--runs 10] [--quick] [--json]

Run it on the store you want measured (import the full pool first for the figures that matter); the
script builds the store before timing.
"""

from __future__ import annotations

from cold_runs import against_rdflib, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 10, 3
BUDGET = 2.0
CARD = "Yuriko, the Tiger's Shadow"


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    commands = {
        f"mtgkb card '{CARD}'": ([mtgkb, "card", CARD], BUDGET),
        f"mtgkb rulings '{CARD}'": ([mtgkb, "rulings", CARD], BUDGET),
        "mtgkb rule 702.49d": ([mtgkb, "rule", "702.49d"], BUDGET),
    }
    return against_rdflib(commands, runs)


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "lookups")
