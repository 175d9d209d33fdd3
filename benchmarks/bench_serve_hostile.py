"""``mtgkb serve`` under the attacks of issue 18, on 127.0.0.1: how much the server's own process
grows under Host headers (twenty distinct 1 MB ones, then 300 distinct valid ones; before the fix it
went from 46 MB to 1.46 GB), how soon a request hears that the store is damaged (before: after the
whole 30 s time limit), how soon the server answers again once the store is rebuilt (issue 18); and
how long a one-row query takes while twenty clients keep sending CPU-bound cartesian COUNT(*)
queries (issue 37: before the fix, twenty of them on the two workers delayed it to 28 s).

The store is a copy, in a cache directory of the benchmark's own, of the store of the current sources
(build it first; import the full pool for the full pool's figures); the rebuild is ``mtgkb build
--full`` over the same sources, in that cache.

    python benchmarks/bench_serve_hostile.py
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from cold_runs import ENVIRONMENT, mtgkb_command
from figures import Figure, main

ASK = "/sparql?query=" + urllib.parse.quote("ASK { ?s ?p ?o }")
#: Heavy: a cartesian product no worker finishes within the time limit. Light: one row.
HEAVY = "/sparql?query=" + urllib.parse.quote("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }")
LIGHT = "/sparql?query=" + urllib.parse.quote("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")
HEAVY_CLIENTS = 20
LIGHT_QUERIES = 20
#: Seconds between two light queries: twenty of them span more than one heavy query's time limit, so
#: some are asked while a worker stopped at that limit is being replaced.
LIGHT_PAUSE = 0.4
#: The time limit of the server under heavy load: each heavy query holds a worker this long.
HEAVY_TIMEOUT = 5.0


def _start(env: dict[str, str], *options: str) -> tuple[subprocess.Popen, int]:
    command = [mtgkb_command(), "serve", "--port", "0", "--json", "--workers", "2", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.rstrip() == "}":
            break
    return process, int(urllib.parse.urlsplit(json.loads("".join(lines))["url"]).port)


def _answer(port: int, target: str = ASK, host: str = "127.0.0.1") -> bytes:
    request = f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=120) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def _status(port: int, target: str = ASK, host: str = "127.0.0.1") -> int:
    return int(_answer(port, target, host).split(b" ", 2)[1])


def _light_under_heavy(env: dict[str, str]) -> tuple[list[float], int]:
    """The seconds each of :data:`LIGHT_QUERIES` one-row queries took, asked one after the other while
    :data:`HEAVY_CLIENTS` clients each send heavy queries again and again; and how many were a 200."""
    process, port = _start(env, "--timeout", str(HEAVY_TIMEOUT))
    stop = threading.Event()

    def heavy() -> None:
        while not stop.is_set():
            _status(port, HEAVY)

    clients = [threading.Thread(target=heavy, daemon=True) for _ in range(HEAVY_CLIENTS)]
    try:
        for client in clients:
            client.start()
        time.sleep(1.0)  # every worker busy, the rest of the heavy queries waiting
        seconds, answered = [], 0
        for _ in range(LIGHT_QUERIES):
            started = time.perf_counter()
            answered += _status(port, LIGHT) == 200
            seconds.append(time.perf_counter() - started)
            time.sleep(LIGHT_PAUSE)
    finally:
        stop.set()
        process.send_signal(signal.SIGINT)
        process.wait(60)
    return seconds, answered


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))


def _children(pid: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as handle:
                if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _private_store(cache: Path) -> Path:
    """A copy of the current store in ``cache``/stores: the one the server will open there."""
    found = subprocess.run(
        [sys.executable, "-c", "from mtgkb.kb.store import current_store_path as c; print(c() or '')"],
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
        check=True,
    ).stdout.strip()
    if not found:
        sys.exit("no store of the current sources: run 'mtgkb build' first")
    copy = cache / "stores" / Path(found).name
    shutil.copytree(found, copy)
    return copy


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    """The five figures (``quick`` and ``runs`` change nothing: each attack is run once)."""
    with tempfile.TemporaryDirectory(prefix="mtgkb-hostile-") as folder:
        env = {**ENVIRONMENT, "MTGKB_CACHE_DIR": folder}
        store = _private_store(Path(folder))
        process, port = _start(env)
        try:
            _status(port, "/sparql")
            before = _rss_mb(process.pid)
            for number in range(20):
                _status(port, "/sparql", f"{number}{'a' * 1024 * 1024}")
            for number in range(300):
                _status(port, "/sparql", f"h{number}.example:7878")
            grown = _rss_mb(process.pid) - before

            manifest = next((store / "oxigraph").glob("MANIFEST-*"))
            manifest.write_bytes(b"\x5a" * manifest.stat().st_size)
            for pid in _children(process.pid):
                os.kill(pid, signal.SIGKILL)
            damaged = time.perf_counter()
            while b"cannot open its knowledge base" not in _answer(port):
                time.sleep(0.05)
            told = time.perf_counter() - damaged

            rebuild = [mtgkb_command(), "build", "--full"]
            subprocess.run(rebuild, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            rebuilt = time.perf_counter()
            while _status(port) != 200:
                time.sleep(0.05)
            recovered = time.perf_counter() - rebuilt
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(30)
        light, answered = _light_under_heavy(env)
    under = (
        f"{HEAVY_CLIENTS} clients sending cartesian COUNT(*), 2 workers, --timeout {HEAVY_TIMEOUT:g}; "
        f"{answered} of {len(light)} answered 200"
    )
    return [
        Figure(
            "mtgkb serve: main process growth under Host headers",
            grown,
            "MB",
            limit=50,
            note=f"20 x 1 MB and 300 distinct valid Hosts, from {before:.0f} MB",
        ),
        Figure(
            "mtgkb serve: first 503 saying the store is damaged", told, limit=2.0, note="its workers killed"
        ),
        Figure("mtgkb serve: answering again after build --full", recovered, limit=10.0),
        Figure(
            "mtgkb serve: a one-row query under heavy ones, p50",
            percentile(light, 0.5),
            limit=0.5,
            note=under,
        ),
        Figure(
            "mtgkb serve: a one-row query under heavy ones, p99",
            percentile(light, 0.99),
            limit=1.0,
            note=under,
        ),
    ]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "serve_hostile")
