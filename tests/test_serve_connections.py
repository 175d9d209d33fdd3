"""``mtgkb serve`` against clients that hold connections (issue 37): a request head must arrive within
``--head-timeout``, a body at a steady pace, so silent and half-sent requests are closed and a client
holding every connection the server allows locks nobody out for long; ``--max-connections N``
serves N connections at once, refusing the one more (uvicorn's own limit served N - 1); and light
queries are answered while heavy ones hold the workers."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.parse

import pytest
from serve_helpers import get_query, running_server

from mtgkb.serve.headers import SECURITY_HEADERS

ASK = "/sparql?query=" + urllib.parse.quote("ASK {}")
LIMIT = 5
HEAD_TIMEOUT = 1.0
#: Seconds a test waits for what the server must do by a deadline: generous, for a busy machine.
PATIENCE = 15


@pytest.fixture(scope="module")
def server(kb):
    """A short head deadline, a small connection limit."""
    options = ("--max-connections", str(LIMIT), "--head-timeout", str(HEAD_TIMEOUT), "--timeout", "5")
    with running_server(*options) as running:
        yield running


@pytest.fixture(scope="module")
def patient_server(kb):
    """A small connection limit with a head deadline long enough for a test to hold its connections."""
    with running_server("--max-connections", str(LIMIT), "--head-timeout", "60") as running:
        yield running


def _port(server) -> int:
    return int(urllib.parse.urlsplit(server.url).port)


def _connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", _port(server)), timeout=PATIENCE)


def _read_to_close(connection: socket.socket) -> bytes:
    """What the server sends until it closes the connection (a socket timeout fails the test)."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _keep_alive_get(server, target: str = ASK) -> tuple[http.client.HTTPConnection, int, bytes]:
    connection, response = _keep_alive_response(server, target)
    return connection, response.status, response.read()


def _keep_alive_response(
    server, target: str = ASK
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=PATIENCE)
    connection.request("GET", target)
    return connection, connection.getresponse()


def _secured(head: bytes) -> None:
    """The protocol's own answers carry the security headers the application's do."""
    lines = head.split(b"\r\n\r\n", 1)[0].lower().split(b"\r\n")
    for name, value in SECURITY_HEADERS:
        assert name + b": " + value.lower() in lines, (name, head[:2000])


# --- the head deadline -------------------------------------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed_without_a_word(server) -> None:
    """Before: it was held for as long as the client liked (seen at 61 s)."""
    with _connect(server) as connection:
        assert _read_to_close(connection) == b""


def test_half_a_head_is_answered_408_at_the_deadline(server) -> None:
    with _connect(server) as connection:
        connection.sendall(b"GET /sparql?query=ASK%20%7B%7D HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = _read_to_close(connection)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"request head did not arrive in time" in answer and b"--head-timeout" in answer
    _secured(answer)


def test_a_head_trickled_byte_by_byte_is_stopped_at_the_deadline(server) -> None:
    """Each byte used to stop uvicorn's keep-alive timer; the deadline counts from the start."""
    request = f"GET {ASK} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: {'z' * 200}\r\n\r\n".encode()
    with _connect(server) as connection:
        sent = 0
        started = time.monotonic()
        try:
            while sent < len(request) and time.monotonic() - started < PATIENCE:
                connection.sendall(request[sent : sent + 1])
                sent += 1
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _read_to_close(connection)
    assert sent < len(request), "the whole trickled head was read"
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_an_api_head_is_refused_in_json(server) -> None:
    with _connect(server) as connection:
        connection.sendall(b"GET /api/card/x HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = _read_to_close(connection)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"application/json" in answer
    assert b'"status": 408' in answer


def test_a_kept_alive_connection_gets_the_deadline_again_after_each_answer(server) -> None:
    connection, status, _ = _keep_alive_get(server)
    assert status == 200
    connection.sock.sendall(b"GET / HTTP/1.1\r\n")  # the next head, never finished
    assert _read_to_close(connection.sock).startswith(b"HTTP/1.1 408 ")
    connection.close()


def test_a_complete_head_in_time_is_answered(server) -> None:
    """The deadline is on the head: a request sent in a few pieces within it is served."""
    with _connect(server) as connection:
        for piece in (
            b"GET " + ASK.encode(),
            b" HTTP/1.1\r\nHost: 127.0.0.1\r\n",
            b"Connection: close\r\n\r\n",
        ):
            connection.sendall(piece)
            time.sleep(HEAD_TIMEOUT / 5)
        assert _read_to_close(connection).startswith(b"HTTP/1.1 200 ")


def test_a_body_trickled_too_slowly_is_answered_408(server) -> None:
    head = (
        b"POST /sparql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sparql-query\r\n"
        b"Content-Length: 100000\r\n\r\n"
    )
    with _connect(server) as connection:
        connection.sendall(head + b"ASK {}")
        answer = _read_to_close(connection)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"request body" in answer
    time.sleep(0.3)  # the log is read by a thread
    log = "".join(server.stderr)
    assert "Traceback" not in log and "ClientDisconnect" not in log, log[-3000:]


# --- the connection limit ----------------------------------------------------------------------------


def test_the_limit_serves_n_connections_and_refuses_one_more(patient_server) -> None:
    """Before: with --max-connections 5, the fifth connection's request was refused."""
    held = []
    try:
        for _ in range(LIMIT):
            connection, status, _ = _keep_alive_get(patient_server)
            held.append(connection)
            assert status == 200, f"connection {len(held)} of {LIMIT} refused"
        one_more, response = _keep_alive_response(patient_server)
        status, body = response.status, response.read()
        one_more.close()
        assert status == 503
        for name, value in SECURITY_HEADERS:
            assert response.getheader(name.decode()) == value.decode(), name
        assert b"limit of 5 open connections" in body and b"--max-connections" in body
        held.pop().close()
        time.sleep(0.3)  # the server sees the close
        connection, status, _ = _keep_alive_get(patient_server)
        held.append(connection)
        assert status == 200
    finally:
        for connection in held:
            connection.close()


def test_idle_connections_up_to_the_limit_leave_room_for_a_request(patient_server) -> None:
    idle = [_connect(patient_server) for _ in range(LIMIT - 1)]
    try:
        time.sleep(0.3)  # the server has accepted them
        connection, status, _ = _keep_alive_get(patient_server)
        connection.close()
        assert status == 200
    finally:
        for connection in idle:
            connection.close()


def test_a_client_holding_every_connection_locks_others_out_only_until_the_deadline(server) -> None:
    """Before: 100 connections with half a head (or nothing) got everyone else a 503 for as long as
    they were held. Now the server closes them at the head deadline and serves again."""
    silent = [_connect(server) for _ in range(LIMIT // 2)]
    halves = [_connect(server) for _ in range(LIMIT - len(silent))]
    for connection in halves:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    try:
        time.sleep(0.2)
        locked_out, status, _ = _keep_alive_get(server)
        locked_out.close()
        assert status == 503  # every connection taken
        for connection in silent:
            assert _read_to_close(connection) == b""
        for connection in halves:
            assert _read_to_close(connection).startswith(b"HTTP/1.1 408 ")
        connection, status, _ = _keep_alive_get(server)
        connection.close()
        assert status == 200
    finally:
        for connection in silent + halves:
            connection.close()


# --- light queries under heavy ones ------------------------------------------------------------------

#: A cartesian product of three patterns: no worker finishes it within the test's time limit.
CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
#: Joined on one variable, so estimated light, but as slow: four patterns sharing an object (the
#: hundreds of rules that are all mtgkb:Rule, to the fourth power).
STAR = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?x . ?b ?q ?x . ?c ?r ?x . ?d ?s ?x }"
ONE_ROW = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"


@pytest.fixture
def busy_server(kb):
    """Two workers and a time limit longer than the test, so that a heavy query holds its worker until
    the server is stopped; one server for each test, since each leaves its workers busy."""
    with running_server("--workers", "2", "--timeout", "300") as running:
        yield running


def _in_background(server, query: str) -> threading.Thread:
    def ask() -> None:
        with contextlib.suppress(OSError):  # the server stops under it at the end of the test
            get_query(server, query)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def test_a_light_query_is_answered_while_heavy_ones_hold_the_workers(busy_server) -> None:
    """Before: twenty cartesian COUNT(*) queries on the two workers delayed a one-row query to 28 s;
    here it would wait for the whole time limit, as none of them ends before it."""
    heavy = [_in_background(busy_server, CARTESIAN) for _ in range(6)]
    time.sleep(1.5)  # the heavy queries have taken what workers they may and the rest wait
    answer = get_query(busy_server, ONE_ROW, "application/sparql-results+json")
    assert answer.status == 200 and len(answer.json()["results"]["bindings"]) == 1
    assert all(thread.is_alive() for thread in heavy), "a heavy query ended first"


def test_a_query_running_long_makes_the_same_query_heavy(busy_server) -> None:
    """The estimate calls STAR light; once it has run a second, it counts as heavy, and the same query
    (spaced and named otherwise) waits instead of taking the last worker."""
    first = _in_background(busy_server, STAR)
    time.sleep(1.5)
    same = STAR.replace("?", "$").replace(" . ", " .\n# again\n")
    others = [_in_background(busy_server, same) for _ in range(3)]
    time.sleep(0.5)
    answer = get_query(busy_server, ONE_ROW, "application/sparql-results+json")
    assert answer.status == 200
    assert first.is_alive() and all(thread.is_alive() for thread in others)
