"""``--endpoint`` (``mtgkb sparql``, ``mtgkb query``) and ``mtgkb push`` against a hostile server of the
test's own on 127.0.0.1: answers that are not SPARQL results, endless answers, servers that trickle a
byte at a time, addresses that cannot be sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hostile_peer import Answer, hostile_peer

ASK_ALL = "SELECT ?x WHERE { ?x ?p ?o } LIMIT 1"
RESULTS = "application/sparql-results+json"


@pytest.mark.parametrize(
    "body",
    [
        b'{"bindings":[{"x":5}]}',
        b'{"head":{"vars":["x"]},"results":{"bindings":[{"x":5}]}}',
        b'{"head":{"vars":[1]},"results":{"bindings":[]}}',
        b'{"head":{"vars":["x"]},"results":{"bindings":[7]}}',
        b'{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri","value":null}}]}}',
        b"[1, 2, 3]",
        b'"just a string"',
        b"{not json",
    ],
)
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_an_endpoint_answering_something_else_than_results_is_a_clear_error(
    run_cli, body: bytes, fmt
) -> None:
    with hostile_peer({"/sparql": Answer(body, content_type=RESULTS)}) as peer:
        result = run_cli("sparql", ASK_ALL, "--endpoint", peer.url("/sparql"), "--format", fmt)
    assert result.exit_code == 2, result.output
    assert "SPARQL results JSON" in result.output or "not JSON" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://[::1",
        "http://[::1/sparql",
        "http://127.0.0.1\x00/sparql",
        "http://127.0.0.1:port/q",
        "file:///etc/passwd",
    ],
)
def test_an_endpoint_that_cannot_be_asked_is_a_clear_error(run_cli, endpoint: str) -> None:
    for command in (("sparql", ASK_ALL), ("query", "mechanic-steps")):
        result = run_cli(*command, "--endpoint", endpoint)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("Error: ") and "Traceback" not in result.output


def test_an_endless_answer_stops_at_the_answer_limit(run_cli) -> None:
    with hostile_peer({"/sparql": Answer(b'{"head":', content_type=RESULTS, endless=True)}) as peer:
        result = run_cli(
            "sparql", ASK_ALL, "--endpoint", peer.url("/sparql"), env={"MTGKB_MAX_ANSWER_MB": "1"}
        )
    assert result.exit_code == 2, result.output
    assert "larger than 1 MB" in result.stderr and "MTGKB_MAX_ANSWER_MB" in result.stderr


def _mtgkb(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", *arguments],
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=90,
    )


@pytest.mark.parametrize("body_only", [False, True], ids=["headers", "body"])
def test_a_trickling_endpoint_is_given_up_on_at_the_total_time_limit(body_only: bool) -> None:
    # A byte every half second passes any per-read timeout; only a limit on the whole exchange ends
    # it (a per-read limit would let this run forever, and the subprocess timeout fail the test).
    answer = Answer(
        b'{"head":{"vars":[]}', content_type=RESULTS, trickle=0.5, trickle_body_only=body_only, endless=True
    )
    with hostile_peer({"/sparql": answer}) as peer:
        for command in (("sparql", ASK_ALL), ("query", "mechanic-steps")):
            done = _mtgkb(*command, "--endpoint", peer.url("/sparql"), "--timeout", "2")
            assert done.returncode == 2, done.stderr
            assert "took longer than 2 s in all" in done.stderr and "Traceback" not in done.stderr


def test_push_to_a_trickling_server_is_given_up_on_at_the_total_time_limit(kb) -> None:
    with hostile_peer({"/store": Answer(b"", trickle=0.5, endless=True)}) as peer:
        done = _mtgkb("push", "--graph-store", peer.url("/store"), "--timeout", "2", "-q")
        assert peer.requests and peer.requests[0].startswith("PUT /store")
    assert done.returncode == 2, done.stderr
    assert "took longer than 2 s in all" in done.stderr and "Traceback" not in done.stderr


def test_push_checking_counts_on_a_malformed_endpoint_is_a_clear_error(run_cli, kb) -> None:
    with hostile_peer() as peer:
        peer.answers["/store"] = Answer(b"", status=204)
        peer.answers["/query"] = Answer(
            b'{"head":{"vars":["g","n"]},"results":{"bindings":[{"n":5}]}}', content_type=RESULTS
        )
        result = run_cli("push", "--endpoint", peer.url("/query"), "-q")
    assert result.exit_code == 2, result.output
    assert "SPARQL results JSON" in result.stderr and "Traceback" not in result.output
    assert json.dumps(peer.requests).count("PUT /store") > 3
