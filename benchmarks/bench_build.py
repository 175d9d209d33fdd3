"""Time a store build from scratch (budget: under 10 s on the project machine), from the shipped files
and, when the data directory holds imports, from everything (the full pool once it is imported).

    python benchmarks/bench_build.py [--runs 3] [--quick] [--json]

Each build runs in a new process with a temporary cache directory, so the user's store is untouched.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile

from cold_runs import ENVIRONMENT
from figures import Figure, main

RUNS, QUICK_RUNS = 3, 1
LIMIT = 10.0


# One build from scratch in a new process: the sources' count, the triples and the build's seconds.
_BUILD = """
import json, sys
from mtgkb.app import build
from mtgkb.kb.sources import all_sources, curated_sources
sources = all_sources() if sys.argv[1] == "all" else curated_sources()
summary = build(sources)
print(json.dumps([len(sources), summary.triples, summary.seconds]))
"""


def _build(kind: str) -> tuple[int, int, float]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(ENVIRONMENT, MTGKB_CACHE_DIR=cache)
        answer = subprocess.run(
            [sys.executable, "-c", _BUILD, kind], env=env, check=True, capture_output=True, text=True
        )
    files, triples, seconds = json.loads(answer.stdout)
    return files, triples, seconds


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    from mtgkb.kb.sources import all_sources, curated_sources

    found = []
    kinds = [("shipped files", "shipped")]
    if len(all_sources()) > len(curated_sources()):  # the data directory holds imports
        kinds.append(("shipped files and imports", "all"))
    for label, kind in kinds:
        builds = [_build(kind) for _ in range(runs)]
        files, triples, _ = builds[0]
        name = f"store build from {label}: {files} files, {triples:,} triples"
        seconds = statistics.median(seconds for _, _, seconds in builds)
        found.append(Figure(name, seconds, "s", limit=LIMIT, note=f"median of {runs}"))
    return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "build")
