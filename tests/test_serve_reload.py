"""A running server follows the knowledge base: once the store of changed sources is built (an import,
or an edit followed by any command), its answers come from the new store, with no restart."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

from serve_helpers import get_query, running_server

from mtgkb.core.paths import repo_root

NEW_CARD = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
card:reload-probe a mtgkb:Card ; mtgkb:name "Reload Probe" .
"""
ASK = "ASK { card:reload-probe mtgkb:name 'Reload Probe' }"


def _asks(server) -> bool:
    answer = get_query(server, ASK, "application/sparql-results+json")
    assert answer.status == 200, answer.text
    return answer.json()["boolean"]


def test_the_server_answers_from_the_new_store_once_it_is_built(user_dirs, monkeypatch) -> None:
    root = user_dirs.base / "kb"
    for folder in ("ontology", "data"):
        shutil.copytree(repo_root() / folder, root / folder)
    monkeypatch.setenv("MTGKB_ROOT", str(root))
    env = dict(os.environ)  # the test's own cache and data directories, and this root
    with running_server("--workers", "2", env=env) as server:
        assert not _asks(server)
        (root / "data" / "cards" / "reload-probe.ttl").write_text(NEW_CARD)
        subprocess.run([sys.executable, "-m", "mtgkb", "build"], env=env, check=True, capture_output=True)
        deadline = time.monotonic() + 30
        while not _asks(server):  # the pool looks for a newer store every two seconds
            assert time.monotonic() < deadline, "the server still answers from the old store"
            time.sleep(0.5)
        assert any("answering from" in line for line in server.stderr)
