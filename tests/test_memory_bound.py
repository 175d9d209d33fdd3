"""The memory bound of a query (issue 18, item 3): a 60-byte cartesian ORDER BY took a server worker
to 10 GB and the CLI to 5 GB. Under ``--max-memory-mb`` the CLI stops it with exit 2 and a message,
and the server answers 503 and replaces the worker, never a Rust allocation abort. The tests watch
the processes they start themselves and kill any that passes twice the bound, so that a bound that
does not hold fails the test instead of filling the shared machine."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time

from serve_helpers import get_query, post_query, running_server, worker_pids

from mtgkb.core.memory import default_limit_mb, machine_mb, resident_mb

CARTESIAN_ORDER_BY = "SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?a"
BOUND_MB = 400
#: Past this the watch below kills the process: the bound did not hold.
RUNAWAY_MB = 2 * BOUND_MB + 600


class Watch:
    """Kills any of the processes ``pids()`` names once it holds more than RUNAWAY_MB."""

    def __init__(self, pids) -> None:
        self.pids = pids
        self.killed: list[float] = []
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        import os
        import signal

        while not self._stopped.is_set():
            for pid in self.pids():
                held = resident_mb(pid)
                if held is not None and held > RUNAWAY_MB:
                    self.killed.append(held)
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopped.set()
        self._thread.join(2)


def test_the_default_bound_is_a_share_of_the_machine(monkeypatch) -> None:
    monkeypatch.delenv("MTGKB_MAX_MEMORY_MB", raising=False)
    total = machine_mb()
    if total:
        assert 0 < default_limit_mb() <= total // 2
    monkeypatch.setenv("MTGKB_MAX_MEMORY_MB", "1234")
    assert default_limit_mb() == 1234


def test_the_cli_stops_a_query_past_its_memory_bound(kb) -> None:
    command = [sys.executable, "-m", "mtgkb", "sparql", CARTESIAN_ORDER_BY, "--format", "csv"]
    command += ["--timeout", "0", "--max-memory-mb", str(BOUND_MB)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with Watch(lambda: [process.pid]) as watch:
        try:
            _, err = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
    assert not watch.killed, f"the CLI grew to {watch.killed[0]:.0f} MB under a {BOUND_MB} MB bound"
    assert process.returncode == 2, err
    assert f"needed more than {BOUND_MB} MB of memory" in err and "Traceback" not in err


def test_the_environment_sets_the_cli_bound(kb) -> None:
    import os

    command = [sys.executable, "-m", "mtgkb", "sparql", CARTESIAN_ORDER_BY, "--format", "tsv"]
    env = dict(os.environ, MTGKB_MAX_MEMORY_MB=str(BOUND_MB))
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    with Watch(lambda: [process.pid]) as watch:
        try:
            _, err = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
    assert not watch.killed
    assert process.returncode == 2 and "MTGKB_MAX_MEMORY_MB" in err, err


def test_the_server_answers_503_past_the_bound_and_goes_on(kb) -> None:
    with running_server("--workers", "1", "--timeout", "60", "--max-memory-mb", str(BOUND_MB)) as server:
        with Watch(lambda: worker_pids(server)) as watch:
            answer = post_query(server, CARTESIAN_ORDER_BY, accept="text/csv")
        assert not watch.killed, f"a worker grew to {watch.killed[0]:.0f} MB under a {BOUND_MB} MB bound"
        assert answer.status == 503, (answer.status, answer.body[:300])
        assert f"needed more than {BOUND_MB} MB of memory" in answer.text
        assert get_query(server, "ASK {}").status == 200  # a fresh worker took its place
    assert "Traceback" not in "".join(server.stderr)
