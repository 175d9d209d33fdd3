"""A server whose store is damaged under it (issue 18, item 9): it says so at once instead of letting
every request wait out the time limit, keeps trying to open the store, and answers again as soon as
the store is rebuilt, with no restart. On a private copy of the store, in the test's own cache."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from serve_helpers import get_query, http, running_server, worker_pids

ASK = "ASK { ?s a mtgkb:Step }"


def _damage(store: str) -> None:
    """Same-size garbage over the store's manifest: RocksDB then refuses to open it."""
    manifest = next(name for name in os.listdir(store) if name.startswith("MANIFEST-"))
    path = os.path.join(store, manifest)
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:
        handle.write(b"\x5a" * size)


def test_a_damaged_store_is_reported_at_once_and_a_rebuilt_one_is_used(user_dirs) -> None:
    env = dict(os.environ)  # the test's own cache and data directories
    with running_server("--workers", "2", "--timeout", "30", env=env) as server:
        assert get_query(server, ASK).status == 200
        _damage(os.path.join(server.info["store"], "oxigraph"))
        for pid in worker_pids(server):  # as when a runaway query's worker is stopped
            os.kill(pid, signal.SIGKILL)

        deadline = time.monotonic() + 60
        while True:
            started = time.monotonic()
            answer = get_query(server, ASK)
            # Before: every request waited the whole time limit (30 s) for a worker that never came.
            assert time.monotonic() - started < 10
            assert answer.status == 503 and "Traceback" not in answer.text
            if "cannot open its knowledge base" in answer.text:
                break
            assert time.monotonic() < deadline, answer.text
            time.sleep(0.2)
        assert "mtgkb build --full" in answer.text and answer.headers["retry-after"]
        api = http(server.url + "api/card/Ninja%20of%20the%20Deep%20Hours")
        assert api.status == 503 and "cannot open its knowledge base" in api.json()["error"]
        assert server.info["store"] not in answer.text  # the path is for the log, not for clients
        time.sleep(0.3)
        log = "".join(server.stderr)
        assert "could not open the store" in log and "Corruption" in log, log

        rebuilt = subprocess.run(
            [sys.executable, "-m", "mtgkb", "build", "--full"], env=env, capture_output=True, text=True
        )
        assert rebuilt.returncode == 0, rebuilt.stderr
        deadline = time.monotonic() + 60
        while (answer := get_query(server, ASK, "application/sparql-results+json")).status != 200:
            assert answer.status == 503, answer.text
            assert time.monotonic() < deadline, "the server did not move to the rebuilt store"
            time.sleep(0.2)
        assert answer.json()["boolean"] is True
        assert len(worker_pids(server)) == 2
        assert "Traceback" not in "".join(server.stderr)
