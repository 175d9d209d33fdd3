"""Situations at and beyond the bounds of a game (issue 18): the time and peak memory of a verdict on
the largest amounts a situation allows, of options on a board of hundreds of objects, and of refusing
the thousand-player YAML alias bomb. Each has an absolute ceiling; before the bounds the first took
3 GB, the second minutes and the third 61 s and a MemoryError.

    python benchmarks/bench_situations.py [--runs 3] [--quick] [--json]
"""

from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

from cold_runs import measured, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 3, 1
NINJA = "Ninja of the Deep Hours"
ATTACKER = {"token": "Goblin", "attacking": "opp", "blocked": False, "tapped": True}
BOARD = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {"me": {"hand": [NINJA] * 200, "battlefield": [ATTACKER] * 200, "mana": "{2}{U}"}, "opp": {}},
}
BOMB = (
    "turn: p0\nstep: precombat-main\nplayers:\n  p0: &section {battlefield: ["
    + ", ".join(["{token: Goblin}"] * 1_000)
    + "]}\n"
    + "".join(f"  p{n}: *section\n" for n in range(1, 1_000))
)


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    with tempfile.TemporaryDirectory() as folder:
        board, bomb = Path(folder) / "board.json", Path(folder) / "bomb.yaml"
        board.write_text(json.dumps(BOARD), encoding="utf-8")
        bomb.write_text(BOMB, encoding="utf-8")
        cases = {
            "can-activate with {999999999}{U} of mana": (
                [mtgkb, "can-activate", NINJA, "--step", "declare-blockers", "--unblocked", "Grizzly Bears",
                 "--mana", "{999999999}{U}"],
                (0,), 5.0,
            ),
            "options, 200 ninjas and 200 attackers": ([mtgkb, "options", "-s", str(board)], (0,), 20.0),
            "refusing the 1,000-player alias bomb": ([mtgkb, "options", "-s", str(bomb)], (2,), 5.0),
        }  # fmt: skip
        found = []
        for name, (command, expected, limit) in cases.items():
            samples = [measured(command, expected=expected) for _ in range(runs)]
            note = f"median of {runs}; the machine may be loaded"
            seconds = statistics.median(s for s, _ in samples)
            found.append(Figure(name, seconds, "s", limit=limit, note=note))
            peak = statistics.median(mb for _, mb in samples)
            found.append(Figure(f"{name}: peak memory", peak, "MB", limit=500.0, note=note))
        return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "situations")
