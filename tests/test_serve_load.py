"""A bounded load test of ``mtgkb serve`` on 127.0.0.1: 8 clients at once, each sending 40 requests
(SPARQL queries in several formats, card lookups and verdicts) over a kept-alive connection, all
within two minutes. Every answer must be a 200; the latencies are printed (figures, not asserted:
the benchmark in benchmarks/bench_serve.py measures them on the full pool)."""

from __future__ import annotations

import json
import time
import urllib.parse

import pytest
from serve_helpers import load, percentile, running_server

CLIENTS = 8
PER_CLIENT = 40
SECONDS = 120

RULINGS = (
    "SELECT ?ruling ?date WHERE { ?ruling mtgkb:aboutCard card:ninja-of-the-deep-hours ; "
    "mtgkb:rulingDate ?date } ORDER BY ?date"
)
SITUATION = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours"],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False}],
            "mana": "{1}{U}",
        },
        "opp": {},
    },
}


@pytest.fixture(scope="module")
def server(kb):
    with running_server("--workers", "2") as running:
        yield running


def test_concurrent_clients_get_every_answer(server) -> None:
    query = "/sparql?" + urllib.parse.urlencode({"query": RULINGS})
    requests = [
        ("GET", query, None, {"Accept": "application/sparql-results+json"}),
        ("GET", query, None, {"Accept": "text/csv"}),
        ("POST", "/sparql", RULINGS.encode(), {"Content-Type": "application/sparql-query"}),
        ("GET", "/api/card/" + urllib.parse.quote("Ninja of the Deep Hours"), None, {}),
        (
            "POST",
            "/api/can-activate?card=" + urllib.parse.quote("Ninja of the Deep Hours"),
            json.dumps(SITUATION).encode(),
            {"Content-Type": "application/json"},
        ),
    ]
    latencies, errors = load(server, requests, CLIENTS, PER_CLIENT, time.monotonic() + SECONDS)
    assert not errors, errors[:5]
    assert len(latencies) == CLIENTS * PER_CLIENT
    print(
        f"\n{CLIENTS} clients x {PER_CLIENT} requests: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, 0 errors"
    )
