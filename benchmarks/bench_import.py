"""Time the full MTGJSON import against its budget: at most 20x the time of
``python -c "import json,gzip; json.load(gzip.open(FILE))"`` with peak memory under 1.5 GB; then time
cold lookups (card, rulings, and a search after the one that builds the search index) on the imported
store against 2x ``python -c "import rdflib"``.

    python benchmarks/bench_import.py [FILE] [--runs 3]

FILE defaults to ../shared/data/cards/mtgjson-atomic-merged-20260103.json.gz. Everything goes to a
temporary data and cache directory; the user's store is untouched.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "data"
    / "cards"
    / "mtgjson-atomic-merged-20260103.json.gz"
)


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lookups", type=int, default=10)
    args = parser.parse_args()
    mtgkb = shutil.which("mtgkb") or sys.exit("mtgkb is not on PATH: install the project first")

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, MTGKB_CACHE_DIR=f"{home}/cache", MTGKB_DATA_DIR=f"{home}/data")
        load = f"import json,gzip; json.load(gzip.open({args.file!r}))"
        baseline = statistics.median(timed([sys.executable, "-c", load], env) for _ in range(args.runs))
        imports = [timed([mtgkb, "import", "mtgjson", args.file, "--json"], env) for _ in range(args.runs)]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        median = statistics.median(imports)
        print(f"json.load of the file:  {baseline:6.2f} s (median of {args.runs})")
        ratio = median / baseline
        print(f"mtgkb import mtgjson:   {median:6.2f} s (median of {args.runs}) = {ratio:4.1f}x (budget 20x)")
        print(f"peak memory of any run: {peak_mb:6.0f} MB (budget 1,536 MB)")

        rdflib = [sys.executable, "-c", "import rdflib"]
        lookups = {
            "card": [mtgkb, "card", "Yuriko, the Tiger's Shadow"],
            "rulings": [mtgkb, "rulings", "Yuriko, the Tiger's Shadow"],
            "search": [mtgkb, "search", "unblocked attacker"],
        }
        # The first search builds the full-text index beside the store; the timed ones reuse it.
        index_build = timed(lookups["search"], env)
        print(f"first mtgkb search:     {index_build:6.2f} s (builds the search index)")
        samples: dict[str, list[float]] = {"rdflib": [], **{k: [] for k in lookups}}
        for _ in range(args.lookups):
            samples["rdflib"].append(timed(rdflib, env))
            for name, command in lookups.items():
                samples[name].append(timed(command, env))
        reference = statistics.median(samples["rdflib"])
        print(f"python -c 'import rdflib': {reference * 1000:6.0f} ms (median of {args.lookups})")
        for name in lookups:
            value = statistics.median(samples[name])
            print(f"cold mtgkb {name:8s}:     {value * 1000:6.0f} ms = {value / reference:4.2f}x (budget 2x)")


if __name__ == "__main__":
    main()
