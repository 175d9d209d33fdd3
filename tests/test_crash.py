"""Crashes and company: an import killed with SIGKILL at many random moments never costs the previous
store or the next run; importers and readers running at the same time never see a half-built store.

``MTGKB_CRASH_KILLS`` (default 4) sets how many kills, ``MTGKB_CRASH_SECONDS`` (default 10) how long
the four processes run together; a soak run raises both.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

from processes import start_mtgkb

from mtgkb.app import open_kb
from mtgkb.core.paths import imports_dir

RULES = "SELECT (COUNT(*) AS ?n) WHERE { ?r mtgkb:ruleNumber ?number ; mtgkb:text ?t }"
CARDS = "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a mtgkb:Card }"
KILLS = int(os.environ.get("MTGKB_CRASH_KILLS", "4"))
SECONDS = float(os.environ.get("MTGKB_CRASH_SECONDS", "10"))
COMBAT = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours"],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False}],
        },
        "opp": {},
    },
}


#: What one edition's import leaves in imports/: the edition's graph and the rules history it joins.
IMPORTED = ["cr-2026-04-17.nq.gz", "cr-history.json.gz"]


def _counts() -> tuple[int, int, dict[str, int]]:
    kb = open_kb()
    graphs = {graph: count for graph, count in kb.meta["graphs"].items()}
    return kb.select(RULES)[0]["n"], kb.select(CARDS)[0]["n"], graphs


def test_an_import_killed_at_random_moments_never_costs_the_store(user_dirs, shared_data: Path) -> None:
    rules_file = str(shared_data / "rules" / "MagicCompRules-20260417.txt")
    empty = _counts()
    started = time.monotonic()
    process = start_mtgkb("import", "rules", "-q", rules_file)
    assert process.wait(timeout=300) == 0, process.communicate()
    whole = time.monotonic() - started
    expected = _counts()
    assert expected[0] > 3000

    # Start from nothing each time, so that every kill can land before, in or after the file's rename.
    chooser = random.Random(os.environ.get("MTGKB_CRASH_SEED", "12"))
    moments = sorted(chooser.uniform(0.05, whole * 1.1) for _ in range(KILLS))
    for moment in moments:
        for name in IMPORTED:
            (imports_dir() / name).unlink(missing_ok=True)
        assert _counts() == empty
        process = start_mtgkb("import", "rules", "-q", rules_file)
        time.sleep(moment)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        # Whatever the moment, the store opened next is whole: without the edition or with all of it.
        assert _counts() in (empty, expected), f"killed at {moment:.2f} s"
        leftovers = [p.name for p in imports_dir().iterdir() if p.name not in IMPORTED]
        process = start_mtgkb("import", "rules", "-q", rules_file)
        assert process.wait(timeout=300) == 0, process.communicate()
        assert _counts() == expected, f"the run after a kill at {moment:.2f} s"
        assert sorted(p.name for p in imports_dir().iterdir()) == IMPORTED, leftovers


def _answers(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return out


def test_two_importers_and_two_readers_at_once(user_dirs, shared_data: Path, tmp_path: Path) -> None:
    rules_file = str(shared_data / "rules" / "MagicCompRules-20260417.txt")
    cards = json.loads(
        (shared_data / "cards" / "scryfall-commanders-20260429.json").read_text(encoding="utf-8")
    )
    cards_file = tmp_path / "cards.json"
    cards_file.write_text(json.dumps(cards[:60]), encoding="utf-8")
    situation = tmp_path / "combat.json"
    situation.write_text(json.dumps(COMBAT), encoding="utf-8")
    card_name = cards[0]["name"]
    importers = [["import", "rules", "-q", rules_file], ["import", "scryfall", "-q", str(cards_file)]]
    readers = [
        ["rule", "702.49d", "--json"],
        ["card", card_name, "--json"],
        ["can-activate", "Ninja of the Deep Hours", "--situation", str(situation), "--json"],
    ]
    # The sequential run: each import once, then each answer.
    for command in importers:
        _answers(start_mtgkb(*command))
    expected_answers = [_answers(start_mtgkb(*command)) for command in readers]
    expected_graphs = _counts()

    deadline = time.monotonic() + SECONDS
    running: dict[int, tuple[subprocess.Popen, list[str]]] = {}
    finished = {"imports": 0, "answers": 0}
    slots = [("import", 0), ("import", 1), ("read", 0), ("read", 1)]
    turn = 0
    while time.monotonic() < deadline or running:
        for slot, (kind, index) in enumerate(slots):
            if slot in running:
                process, command = running[slot]
                if process.poll() is None:
                    continue
                out = _answers(process)
                if kind == "import":
                    finished["imports"] += 1
                else:
                    finished["answers"] += 1
                    assert out == expected_answers[readers.index(command)], command
                del running[slot]
            if time.monotonic() < deadline:
                if kind == "import":
                    command = importers[index]
                else:
                    command = readers[(turn + index) % len(readers)]
                    turn += 1
                running[slot] = (start_mtgkb(*command), command)
        time.sleep(0.05)
    assert finished["imports"] >= 2 and finished["answers"] >= 4, finished
    assert _counts() == expected_graphs
