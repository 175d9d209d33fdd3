"""Cold verdicts against their budgets: each command, in a new process, may take at most 1.5x (2x for
``options``) the wall time of ``python -c "import rdflib"``. Runs alternate side by side; medians of
N runs are printed. Run it on the store you want measured (import the full pool first for the
issue's figures).

    python benchmarks/bench_verdicts.py [--runs 10] [--quick] [--json]
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from cold_runs import against_rdflib, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 10, 3
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


#: The board of the activated-abilities issue: seven cards in hand and ten permanents a side, with
#: equipment, planeswalkers, a sacrifice outlet and a hand ability among them (the full pool only).
BOARD = {
    "turn": "me",
    "step": "precombat-main",
    "players": {
        "me": {
            "hand": [
                "Ninja of the Deep Hours",
                "Saw It Coming",
                "Street Wraith",
                "Lightning Bolt",
                "Grizzly Bears",
                "Island",
                "Fauna Shaman",
            ],
            "battlefield": [
                {"card": "Bonesplitter"},
                {"card": "Grizzly Bears"},
                {"card": "Mind Stone"},
                {"card": "Viscera Seer"},
                {"card": "Prodigal Sorcerer"},
                {"card": "Jace, the Mind Sculptor"},
                {"card": "Llanowar Elves", "new_this_turn": True},
                {"card": "Forest"},
                {"card": "Island"},
                {"card": "Arcbound Ravager"},
            ],
            "graveyard": ["Shock", "Grim Lavamancer"],
        },
        "opp": {
            "battlefield": [
                {"card": "Storm Crow"},
                {"card": "Mountain"},
                {"card": "Swamp"},
                {"card": "Llanowar Elves"},
                {"card": "Royal Assassin"},
                {"card": "Grizzly Bears"},
                {"card": "Sol Ring"},
                {"card": "Liliana of the Veil"},
                {"card": "Smuggler's Copter"},
                {"card": "Plains"},
            ],
        },
    },
}


def _has_pool(mtgkb: str) -> bool:
    import subprocess

    from cold_runs import ENVIRONMENT

    done = subprocess.run([mtgkb, "card", "Bonesplitter"], capture_output=True, env=ENVIRONMENT)
    return done.returncode == 0


#: Cards with other ways to be cast (issue 22): every way from the card's zone is tried and listed.
CASTS = {
    "turn": "me",
    "step": "precombat-main",
    "players": {
        "me": {
            "hand": ["Exalted Angel", "Daze", "Island"],
            "graveyard": [
                "Uro, Titan of Nature's Wrath",
                "Deep Analysis",
                "Opt",
                "Ponder",
                "Forest",
                "Swamp",
            ],
            "exile": [{"card": "Demon Bolt", "foretold": True}],
            "battlefield": ["Island", "Forest"],
        },
        "opp": {"battlefield": ["Grizzly Bears"]},
    },
}


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    with tempfile.TemporaryDirectory() as folder:
        situation = Path(folder) / "combat.json"
        situation.write_text(json.dumps(COMBAT), encoding="utf-8")
        board = Path(folder) / "board.json"
        board.write_text(json.dumps(BOARD), encoding="utf-8")
        casts = Path(folder) / "casts.json"
        casts.write_text(json.dumps(CASTS), encoding="utf-8")
        commands = {
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
        if _has_pool(mtgkb):
            commands |= {
                "mtgkb can-activate (equip, full pool)": (
                    [mtgkb, "can-activate", "Bonesplitter", "-s", str(board)],
                    1.5,
                ),
                "mtgkb can-activate (abilities of Jace, full pool)": (
                    [mtgkb, "can-activate", "Jace, the Mind Sculptor", "-s", str(board)],
                    1.5,
                ),
                "mtgkb can-cast (escape from the graveyard, full pool)": (
                    [mtgkb, "can-cast", "Uro, Titan of Nature's Wrath", "-s", str(casts)],
                    1.5,
                ),
                "mtgkb can-cast (face down or normally, full pool)": (
                    [mtgkb, "can-cast", "Exalted Angel", "-s", str(casts)],
                    1.5,
                ),
                "mtgkb options (7 in hand, 10 permanents a side)": (
                    [mtgkb, "options", "-s", str(board)],
                    2.0,
                ),
            }
        return against_rdflib(commands, runs)


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "verdicts")
