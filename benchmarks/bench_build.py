"""Time a full store build from the shipped files (budget: under 10 s on the project machine).

    python benchmarks/bench_build.py [--runs 3]

Builds into a temporary cache directory so the user's store is untouched; imported datasets in the
user's data directory are left out unless --with-imports is given.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--with-imports", action="store_true")
    args = parser.parse_args()

    from mtgkb.app import build
    from mtgkb.kb.sources import all_sources, curated_sources

    sources = all_sources() if args.with_imports else curated_sources()
    seconds = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            os.environ["MTGKB_CACHE_DIR"] = cache
            summary = build(sources)
            seconds.append(summary.seconds)
    print(f"{len(sources)} source files, {summary.triples} triples in {len(summary.graphs)} graphs")
    print(f"build: median {statistics.median(seconds):.2f} s over {args.runs} runs (budget 10 s)")


if __name__ == "__main__":
    main()
