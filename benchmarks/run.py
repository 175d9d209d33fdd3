"""Run every benchmark under benchmarks/ and print one table: each figure with its budget, its
baseline measured in the same run, the ratio, and whether it passes.

    python benchmarks/run.py [--quick] [--json] [NAME ...]

Each ``bench_*.py`` script has a ``figures(quick, runs)`` function returning its rows; NAME keeps
only the scripts whose name holds it (``run.py verdicts sparql``). ``--quick`` makes fewer runs of
each command. Run it on the store you want measured: the figures in the README are for the full pool
(the rules, the Scryfall commander list and MTGJSON imported). Progress goes to stderr; the exit
status is 1 when a figure is over its budget.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures import Figure, as_json, table  # noqa: E402


def benchmarks() -> list[str]:
    """The benchmark scripts' names without ``bench_``, in the order they run."""
    return sorted(path.stem.removeprefix("bench_") for path in HERE.glob("bench_*.py"))


def run(names: list[str], quick: bool) -> list[Figure]:
    found: list[Figure] = []
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        if not hasattr(module, "figures"):
            print(f"bench_{name}.py has no figures() function: left out", file=sys.stderr)
            continue
        print(f"running bench_{name}.py …", file=sys.stderr, flush=True)
        started = time.monotonic()
        try:
            figures = module.figures(quick=quick)
        except SystemExit as stop:  # a script that cannot run here says why
            print(f"  bench_{name}.py stopped: {stop}", file=sys.stderr)
            continue
        for figure in figures:
            figure.benchmark = name
        found += figures
        print(f"  {len(figures)} figures in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="only the benchmarks whose name holds NAME")
    parser.add_argument("--quick", action="store_true", help="fewer runs of each command")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    names = [name for name in benchmarks() if not args.names or any(part in name for part in args.names)]
    if not names:
        parser.error(f"no benchmark matches {' '.join(args.names)}; there are: {', '.join(benchmarks())}")
    started = time.monotonic()
    found = run(names, args.quick)
    print(f"all benchmarks: {time.monotonic() - started:.0f} s", file=sys.stderr)
    print(as_json(found) if args.json else table(found))
    sys.exit(1 if any(figure.passed is False for figure in found) else 0)


if __name__ == "__main__":
    main()
