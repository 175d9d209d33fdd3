"""Cold verdicts against their budgets: each command, in a new process, may take at most 1.5x (2x for
``options``) the wall time of ``python -c "import rdflib"``. Runs alternate side by side; medians of
N runs are printed. Run it on the store you want measured (import the full pool first for the
issue's figures).

    python benchmarks/bench_verdicts.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import mtgkb_with_store, wall_time

COMBAT = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours", "Silver-Fur Master"],
            "command": ["Yuriko, the Tiger's Shadow"],
            "commander_casts": {"Yuriko, the Tiger's Shadow": 2},
            "battlefield": [
                {"card": "Grizzly Bears", "attacking": "opp", "tapped": True, "blocked": False},
                {"card": "Satoru Umezawa"},
            ],
            "mana": "{2}{U}{B}",
        },
        "opp": {"battlefield": [{"card": "Llanowar Elves"}]},
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    mtgkb = mtgkb_with_store()
    with tempfile.TemporaryDirectory() as folder:
        situation = Path(folder) / "combat.json"
        situation.write_text(json.dumps(COMBAT), encoding="utf-8")
        commands = {
            "python -c 'import rdflib'": ([sys.executable, "-c", "import rdflib"], None),
            "mtgkb can-activate (ninjutsu)": (
                [mtgkb, "can-activate", "Ninja of the Deep Hours", "-s", str(situation)],
                1.5,
            ),
            "mtgkb can-activate (commander ninjutsu)": (
                [mtgkb, "can-activate", "Yuriko, the Tiger's Shadow", "-s", str(situation)],
                1.5,
            ),
            "mtgkb can-cast (options form)": (
                [mtgkb, "can-cast", "Grizzly Bears", "--step", "precombat-main", "--mana", "{1}{G}"],
                1.5,
            ),
            "mtgkb options": ([mtgkb, "options", "-s", str(situation)], 2.0),
            "mtgkb timing": ([mtgkb, "timing", "Ninja of the Deep Hours"], 1.5),
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for command, _budget in commands.values():
            wall_time(command)  # writes the bytecode caches
        for _ in range(args.runs):
            for name, (command, _budget) in commands.items():
                times[name].append(wall_time(command))
    baseline = statistics.median(times["python -c 'import rdflib'"])
    print(f"medians of {args.runs} cold runs, against the rdflib import")
    for name, samples in times.items():
        median = statistics.median(samples)
        budget = commands[name][1]
        verdict = (
            ""
            if budget is None
            else f"  budget {budget:.1f}x {'ok' if median / baseline <= budget else 'OVER'}"
        )
        print(f"  {name:42s} {median * 1000:7.1f} ms  {median / baseline:5.2f}x{verdict}")


if __name__ == "__main__":
    main()
