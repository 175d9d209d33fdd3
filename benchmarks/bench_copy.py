"""Cold ``mtgkb copy`` against the budget: each run, in a new process, may take at most 1.5x the wall
time of ``python -c "import rdflib"``. Runs alternate side by side; medians of N runs are printed.

    python benchmarks/bench_copy.py [--runs 10] [--quick] [--json]

Meant for the full card pool (import it first, see the README); the store is built before timing.
Besides the bare question it times one with a situation file (a copy of a copy with counters).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from cold_runs import against_rdflib, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 10, 3
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


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    with tempfile.TemporaryDirectory() as folder:
        board = Path(folder) / "board.json"
        board.write_text(json.dumps(SITUATION), encoding="utf-8")
        commands = {
            "mtgkb copy \"Sakashima's Student\" --target 'Grizzly Bears'": (
                [mtgkb, "copy", "Sakashima's Student", "--target", "Grizzly Bears"],
                BUDGET,
            ),
            "mtgkb copy Clone --target 'Spark Double' --situation FILE": (
                [mtgkb, "copy", "Clone", "--target", "Spark Double", "--situation", str(board)],
                BUDGET,
            ),
            "mtgkb copy 'Sakashima the Impostor' --target Clone --json": (
                [mtgkb, "copy", "Sakashima the Impostor", "--target", "Clone", "--json"],
                BUDGET,
            ),
        }
        return against_rdflib(commands, runs)


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "copy")
