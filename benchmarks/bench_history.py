"""Time and weigh importing every Comprehensive Rules edition since 2003 (issue 24): the 111 editions
in one command take at most 20x importing one edition; the store and the imported files for 111
editions take at most 10x the disk of one (both measured over a store of the shipped files alone, so
that the bundled data, the same in both, is not counted); and a cold ``mtgkb rule 702.49 --history``
runs within 1.5x ``python -c "import rdflib"``.

    python benchmarks/bench_history.py [--folder DIR] [--runs 3] [--quick] [--json]

DIR defaults to ../shared/data/rules/history, with ../shared/data/rules/MagicCompRules-20260417.txt
as the 111th edition. Everything goes to temporary data and cache directories; the user's store is
untouched.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import ENVIRONMENT, against_rdflib, measured, mtgkb_command, wall_time
from figures import Figure, main

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "rules"
RUNS, QUICK_RUNS = 3, 1
LOOKUP_RUNS, QUICK_LOOKUP_RUNS = 10, 3
TIME_BUDGET = 20.0
DISK_BUDGET = 10.0
HISTORY_BUDGET = 1.5


def _megabytes(*folders: Path) -> float:
    return sum(
        p.stat().st_size for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()
    ) / (1 << 20)


def _import(files: list[str], home: str, mtgkb: str) -> tuple[float, float]:
    """Seconds to import ``files`` into a fresh data directory, and the megabytes it then adds to a
    store of the shipped files alone (imported files, store and its indexes)."""
    env = dict(ENVIRONMENT, MTGKB_CACHE_DIR=f"{home}/cache", MTGKB_DATA_DIR=f"{home}/data")
    wall_time([mtgkb, "build"], env)  # the shipped files' store, built untimed
    empty = _megabytes(Path(home, "cache", "stores"))
    seconds, _ = measured([mtgkb, "import", "rules", *files, "--quiet"], env, expected=(0,))
    return seconds, _megabytes(Path(home, "cache", "stores"), Path(home, "data", "imports")) - empty


def figures(quick: bool = False, runs: int | None = None, folder: Path = SHARED / "history") -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    lookup_runs = QUICK_LOOKUP_RUNS if quick else LOOKUP_RUNS
    current = SHARED / "MagicCompRules-20260417.txt"
    if not folder.is_dir() or not current.is_file():
        sys.exit(f"no CR history in {folder}")
    mtgkb = mtgkb_command()
    one, every, disk_one, disk_every = [], [], 0.0, 0.0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            seconds, disk_one = _import([str(current)], home, mtgkb)
            one.append(seconds)
        with tempfile.TemporaryDirectory() as home:
            seconds, disk_every = _import([str(folder), str(current)], home, mtgkb)
            every.append(seconds)
    note = f"median of {runs}"
    found = [
        Figure(
            "mtgkb import rules (111 editions)",
            statistics.median(every),
            "s",
            "one edition",
            statistics.median(one),
            TIME_BUDGET,
            note=note,
        ),
        Figure(
            "disk of 111 editions (imports, store, indexes)",
            disk_every,
            "MB",
            "one edition",
            disk_one,
            DISK_BUDGET,
            note="over the shipped files' store",
        ),
    ]
    with tempfile.TemporaryDirectory() as home:
        _import([str(folder), str(current)], home, mtgkb)
        env = dict(ENVIRONMENT, MTGKB_CACHE_DIR=f"{home}/cache", MTGKB_DATA_DIR=f"{home}/data")
        lookups = {
            "cold mtgkb rule 702.49 --history": ([mtgkb, "rule", "702.49", "--history"], HISTORY_BUDGET)
        }
        found += against_rdflib(lookups, lookup_runs, env, f"median of {lookup_runs}")
    return found


if __name__ == "__main__":
    main(figures, __doc__, "history")
