"""``mtgkb serve`` under load on 127.0.0.1, against its budgets: a selective SPARQL query (a card's
rulings) at 8 concurrent clients in p50 < 5 ms and p99 < 20 ms, and a verdict through the API in
p50 < 15 ms. Each client is its own process with one kept-alive connection (clients in threads of
one process would measure the client's interpreter lock, not the server). Run it on the store you
want measured (import the full pool first for the issue's figures).

    python benchmarks/bench_serve.py [--requests 300] [--clients 8] [--workers 2]

``figures()`` gives the same figures to ``run.py`` (fewer requests with --quick).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse

from cold_runs import ENVIRONMENT, mtgkb_command
from figures import Figure

REQUESTS, QUICK_REQUESTS, CLIENTS, WORKERS = 300, 60, 8, 2

RULINGS = (
    "SELECT ?ruling ?date ?text WHERE { ?ruling mtgkb:aboutCard card:yuriko-the-tigers-shadow ; "
    "mtgkb:rulingDate ?date . OPTIONAL { ?ruling mtgkb:text ?text } } ORDER BY ?date"
)
SITUATION = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours"],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False, "tapped": True}],
            "mana": "{1}{U}",
        },
        "opp": {},
    },
}


def start_server(workers: int) -> tuple[subprocess.Popen, str, int]:
    command = [mtgkb_command(), "serve", "--port", "0", "--json", "--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=ENVIRONMENT)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.rstrip() == "}":
            break
    info = json.loads("".join(lines))
    host, port = urllib.parse.urlsplit(info["url"]).netloc.rsplit(":", 1)
    print(
        f"server: {info['triples']:,} triples, {workers} workers, {info['url']}", file=sys.stderr, flush=True
    )
    return process, host, int(port)


def client(arguments: tuple[str, int, str, str, bytes | None, int]) -> list[float]:
    host, port, method, path, body, count = arguments
    connection = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Accept": "application/sparql-results+json", "Content-Type": "application/json"}
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - started)
        if response.status != 200:
            raise SystemExit(f"{method} {path}: status {response.status}")
    connection.close()
    return latencies


def measure(
    host: str, port: int, name: str, method: str, path: str, body: bytes | None, clients: int, count: int
):
    client((host, port, method, path, body, 20))  # warm every worker's caches
    with multiprocessing.Pool(clients) as pool:
        started = time.perf_counter()
        results = pool.map(client, [(host, port, method, path, body, count)] * clients)
        elapsed = time.perf_counter() - started
    latencies = sorted(value for result in results for value in result)
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(int(0.99 * len(latencies)), len(latencies) - 1)] * 1000
    print(
        f"{name:<42} {clients} clients x {count}: p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
        f"{len(latencies) / elapsed:7.0f} requests/s",
        file=sys.stderr,
        flush=True,
    )
    return p50, p99


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    """The latencies against their budgets; ``runs`` is the number of requests per client."""
    requests = runs or (QUICK_REQUESTS if quick else REQUESTS)
    process, host, port = start_server(WORKERS)
    try:
        query = "/sparql?" + urllib.parse.urlencode({"query": RULINGS})
        verdict = "/api/can-activate?" + urllib.parse.urlencode({"card": "Ninja of the Deep Hours"})
        body = json.dumps(SITUATION).encode()
        p50, p99 = measure(host, port, "SPARQL: a card's rulings", "GET", query, None, CLIENTS, requests)
        verdict_p50, _ = measure(host, port, "API: can-activate", "POST", verdict, body, 1, requests)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    note = f"{CLIENTS} clients x {requests} requests, {WORKERS} workers"
    return [
        Figure("mtgkb serve: a card's rulings by SPARQL, p50", p50 / 1000, limit=0.005, note=note),
        Figure("mtgkb serve: a card's rulings by SPARQL, p99", p99 / 1000, limit=0.020, note=note),
        Figure(
            "mtgkb serve: can-activate through the API, p50",
            verdict_p50 / 1000,
            limit=0.015,
            note=f"1 client x {requests} requests",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per client")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    process, host, port = start_server(args.workers)
    try:
        query = "/sparql?" + urllib.parse.urlencode({"query": RULINGS})
        verdict = "/api/can-activate?" + urllib.parse.urlencode({"card": "Ninja of the Deep Hours"})
        body = json.dumps(SITUATION).encode()
        p50, p99 = measure(
            host, port, "SPARQL: a card's rulings", "GET", query, None, args.clients, args.requests
        )
        verdict_p50, _ = measure(
            host, port, "API: can-activate (one client)", "POST", verdict, body, 1, args.requests
        )
        measure(host, port, "API: can-activate", "POST", verdict, body, args.clients, args.requests // 2)
        verdicts = {
            "rulings p50 < 5 ms": p50 < 5,
            "rulings p99 < 20 ms": p99 < 20,
            "verdict p50 < 15 ms": verdict_p50 < 15,
        }
        print(
            "budgets: " + ", ".join(f"{name} {'ok' if held else 'OVER'}" for name, held in verdicts.items())
        )
        print(f"load while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    sys.exit(0)


if __name__ == "__main__":
    main()
