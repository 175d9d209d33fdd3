"""An import killed halfway leaves the previous store usable and the next import cleans up after it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mtgkb.app import open_kb
from mtgkb.core.paths import imports_dir
from mtgkb.importers.cr_import import import_rules

RULES_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?r mtgkb:text ?t ; mtgkb:ruleNumber ?number }"
CARD_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?c a mtgkb:Card }"


def _wait_for(predicate, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the import never reached the point to kill it at"
        time.sleep(0.05)


def test_a_card_import_killed_while_writing_leaves_the_previous_store(user_dirs, shared_data: Path) -> None:
    import_rules(shared_data / "rules" / "MagicCompRules-20260417.txt")
    before = open_kb()
    rules = before.select(RULES_COUNT)[0]["n"]
    cards = before.select(CARD_COUNT)[0]["n"]
    assert rules > 3000

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mtgkb",
            "import",
            "mtgjson",
            "-q",
            str(shared_data / "cards" / "mtgjson-atomic-merged-20260103.json.gz"),
        ],
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def writing() -> bool:
            return any(p.stat().st_size > 1_000_000 for p in imports_dir().glob(".mtgjson.nq.*.tmp"))

        _wait_for(writing)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert not (imports_dir() / "mtgjson.nq.gz").exists()

    after = open_kb()
    assert after.path == before.path, "nothing the killed import wrote reached the store"
    assert after.select(RULES_COUNT)[0]["n"] == rules
    assert after.select(CARD_COUNT)[0]["n"] == cards

    import_rules(shared_data / "rules" / "MagicCompRules-20260417.txt")
    # The edition and the rules history it starts; nothing of the killed import is left.
    assert sorted(p.name for p in imports_dir().iterdir()) == ["cr-2026-04-17.nq.gz", "cr-history.json.gz"]
