"""Time the full MTGJSON import and the first search after it against their budget: at most 25x
the time of ``python -c "import json,gzip; json.load(gzip.open(FILE))"`` (issue 21, with the ability
reading), with peak memory at most 2x that of ``json.load`` (issue 11); then cold lookups (card,
rulings, search) on the imported store against 2x ``python -c "import rdflib"``, and the first
search after the import against a later one (2x: the search index is built with the store).

    python benchmarks/bench_import.py [--file FILE] [--runs 3] [--quick] [--json]

FILE defaults to ../shared/data/cards/mtgjson-atomic-merged-20260103.json.gz. Everything goes to a
temporary data and cache directory; the user's store is untouched.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import ENVIRONMENT, against_rdflib, measured, mtgkb_command, wall_time
from figures import Figure, main

DEFAULT = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "data"
    / "cards"
    / "mtgjson-atomic-merged-20260103.json.gz"
)
RUNS, QUICK_RUNS = 3, 1
LOOKUP_RUNS, QUICK_LOOKUP_RUNS = 10, 3
TIME_BUDGET = 25.0
MEMORY_BUDGET = 2.0
LOOKUP_BUDGET = 2.0
SEARCH_BUDGET = 2.0


def figures(quick: bool = False, runs: int | None = None, file: Path = DEFAULT) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    lookup_runs = QUICK_LOOKUP_RUNS if quick else LOOKUP_RUNS
    if not file.is_file():
        sys.exit(f"no MTGJSON file at {file}")
    mtgkb = mtgkb_command()
    with tempfile.TemporaryDirectory() as home:
        env = dict(ENVIRONMENT, MTGKB_CACHE_DIR=f"{home}/cache", MTGKB_DATA_DIR=f"{home}/data")
        # Bytecode caches as a user has them: an untimed search on an empty store writes them first.
        wall_time([mtgkb, "search", "unblocked"], dict(env, MTGKB_DATA_DIR=f"{home}/none"))
        load = [sys.executable, "-c", f"import json,gzip; json.load(gzip.open({str(file)!r}))"]
        loads = [measured(load, env) for _ in range(runs)]
        imports = [measured([mtgkb, "import", "mtgjson", str(file), "--json"], env) for _ in range(runs)]
        search = [mtgkb, "search", "unblocked attacker"]
        first_search = measured(search, env)[0]  # the index was built with the store
        note = f"median of {runs}, then one search"
        found = [
            Figure(
                "mtgkb import mtgjson + first search",
                statistics.median(seconds for seconds, _ in imports) + first_search,
                "s",
                "json.load",
                statistics.median(seconds for seconds, _ in loads),
                TIME_BUDGET,
                note=note,
            ),
            Figure(
                "peak memory of mtgkb import mtgjson",
                max(peak for _, peak in imports),
                "MB",
                "json.load",
                max(peak for _, peak in loads),
                MEMORY_BUDGET,
                note=f"most of {runs}",
            ),
        ]
        lookups = {
            "cold mtgkb card": ([mtgkb, "card", "Yuriko, the Tiger's Shadow"], LOOKUP_BUDGET),
            "cold mtgkb rulings": ([mtgkb, "rulings", "Yuriko, the Tiger's Shadow"], LOOKUP_BUDGET),
            "cold mtgkb search": (search, LOOKUP_BUDGET),
        }
        cold = against_rdflib(lookups, lookup_runs, env, f"median of {lookup_runs}, MTGJSON only")
    found += cold
    found.append(
        Figure(
            "first mtgkb search after the import",
            first_search,
            "s",
            "later search",
            next(figure.value for figure in cold if figure.name == "cold mtgkb search"),
            SEARCH_BUDGET,
        )
    )
    return found


if __name__ == "__main__":
    if "--file" in sys.argv:
        at = sys.argv.index("--file")
        DEFAULT = Path(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    main(lambda quick, runs: figures(quick, runs, DEFAULT), __doc__.splitlines()[0], "import")
