"""What checking the store for damage costs (issue 18): on the current store (import the full pool
first for the figures that matter),

- ``mtgkb validate --store``, which reads every file against its recorded digest, every quad and the
  side indexes (beside it, in the note, a bare pyoxigraph process reading every quad, which is most
  of it);
- recording the digests of a store's files, what a build from scratch pays for them, against the
  build itself (the share of the build it adds).

    python benchmarks/bench_validate.py [--runs 3] [--quick] [--json]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from cold_runs import ENVIRONMENT, mtgkb_with_store, wall_time
from figures import Figure, main

RUNS, QUICK_RUNS = 3, 1
_SCAN = (
    "import sys, pyoxigraph as ox\n"
    "store = ox.Store.read_only(sys.argv[1])\n"
    "print(sum(1 for _ in store.quads_for_pattern(None, None, None, None)))\n"
)


def _current_store() -> Path:
    from mtgkb.kb.store import current_store_path

    path = current_store_path()
    if path is None:
        sys.exit("no finished store: run 'mtgkb build' first")
    return path


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    from mtgkb.kb.store_files import record_digests

    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    store = _current_store()
    checks, scans, digests = [], [], []
    for _ in range(runs):
        checks.append(wall_time([mtgkb, "validate", "--store"]))
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", _SCAN, str(store / "oxigraph")],
            check=True,
            env=ENVIRONMENT,
            stdout=subprocess.DEVNULL,
        )
        scans.append(time.perf_counter() - started)
        started = time.perf_counter()
        recorded = record_digests(store)
        digests.append(time.perf_counter() - started)
    megabytes = sum(entry[0] for entry in recorded.values()) / 1e6
    note = f"median of {runs}"
    build = wall_time([mtgkb, "build", "--full"]) if not quick else None
    return [
        Figure(
            "mtgkb validate --store",
            statistics.median(checks),
            "s",
            note=f"{note}; {len(recorded)} files, {megabytes:,.0f} MB; a bare pyoxigraph process reading "
            f"every quad: {statistics.median(scans):.1f} s",
        ),
        Figure(
            "digests of the store's files, as a build from scratch records them",
            statistics.median(digests),
            "s",
            note=f"{note}; {megabytes:,.0f} MB" + (f"; the build itself: {build:.1f} s" if build else ""),
        ),
    ]


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "validate")
