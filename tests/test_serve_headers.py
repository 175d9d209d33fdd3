"""The security headers on every answer of ``mtgkb serve`` (issue 37): the page, its files, the API,
the SPARQL endpoint, and their errors (404, 400, 413, 431, 503, 500), whichever layer writes them."""

from __future__ import annotations

import socket
import urllib.parse
from pathlib import Path

import pytest
from serve_helpers import asgi_request, get_query, http, post_query, running_server

from mtgkb.serve.app import create_app
from mtgkb.serve.guard import RequestGuard
from mtgkb.serve.headers import CONTENT_SECURITY_POLICY, with_security_headers
from mtgkb.serve.limits import Limits

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def server(kb):
    with running_server("--max-request-kb", "64", "--max-header-kb", "8", "--timeout", "1") as running:
        yield running


def _secured(headers: dict[str, str]) -> None:
    missing = {name: value for name, value in EXPECTED.items() if headers.get(name) != value}
    assert not missing, f"missing or other security headers: {missing} in {headers}"


def test_the_policy_allows_nothing_but_this_server() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"  # no inline script, no handler, no eval
    assert directives["connect-src"] == "'self'"  # no query to another endpoint
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "*" not in CONTENT_SECURITY_POLICY


def test_the_headers_replace_any_of_the_same_name() -> None:
    headers = with_security_headers([(b"X-Frame-Options", b"ALLOWALL"), (b"content-type", b"text/plain")])
    assert (b"X-Frame-Options", b"ALLOWALL") not in headers
    assert (b"content-type", b"text/plain") in headers and (b"x-frame-options", b"DENY") in headers


def test_every_kind_of_answer_carries_the_headers(server) -> None:
    answers = {
        "the page": http(server.url),
        "our script": http(server.url + "static/explorer.js"),
        "a vendored library": http(server.url + "static/vendor/yasgui.min.js"),
        "a missing file": http(server.url + "static/nothing.js"),
        "a card": http(server.url + "api/card/" + urllib.parse.quote("Ninja of the Deep Hours")),
        "no such card": http(server.url + "api/card/Nothing%20Like%20This"),
        "a verdict": http(
            server.url + "api/can-activate?card=" + urllib.parse.quote("Ninja of the Deep Hours"),
            b"{}",
            {"Content-Type": "application/json"},
        ),
        "nothing there": http(server.url + "nowhere"),
        "the service description": http(server.sparql),
        "a query": get_query(server, "ASK {}"),
        "a query that does not parse": get_query(server, "ASK {"),
        "a body too large": post_query(server, "ASK {} #" + "x" * 100_000),
        "a query past its time": get_query(server, HEAVY),
    }
    statuses = {what: answer.status for what, answer in answers.items()}
    assert statuses["the page"] == statuses["a card"] == statuses["a query"] == 200
    assert statuses["nothing there"] == statuses["a missing file"] == statuses["no such card"] == 404
    assert statuses["a query that does not parse"] == 400
    assert statuses["a body too large"] == 413
    assert statuses["a query past its time"] == 503
    for what, answer in answers.items():
        try:
            _secured(answer.headers)
        except AssertionError as error:
            raise AssertionError(f"{what} ({answer.status}): {error}") from None


def _raw(server, request: bytes) -> tuple[int, dict[str, str]]:
    port = int(urllib.parse.urlsplit(server.url).port)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    head = b"".join(chunks).partition(b"\r\n\r\n")[0].decode("latin-1")
    status_line, *lines = head.split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers


def _get(target: str, *headers: str, host: str = "127.0.0.1") -> bytes:
    return "\r\n".join(
        [f"GET {target} HTTP/1.1", f"Host: {host}", *headers, "Connection: close", "", ""]
    ).encode()


def test_the_request_guards_refusals_carry_the_headers(server) -> None:
    status, headers = _raw(server, _get("/sparql?query=ASK%7B%7D", *(f"X-{n}: v" for n in range(150))))
    assert status == 431
    _secured(headers)
    status, headers = _raw(server, _get("/", host="not a host"))
    assert status == 400
    _secured(headers)


def test_the_protocols_own_refusals_carry_the_headers(server) -> None:
    status, headers = _raw(server, _get("/sparql?query=" + "x" * 2 * 1024 * 1024))
    assert status == 413
    _secured(headers)


def test_a_bug_answered_as_500_carries_the_headers() -> None:
    limits = Limits()
    app = RequestGuard(create_app(Path("/nowhere"), [], limits), limits)  # no workers: a bug's 500
    sent = asgi_request(app, "/sparql", b"query=ASK%7B%7D")
    assert sent[0]["status"] == 500
    _secured({name.decode(): value.decode() for name, value in sent[0]["headers"]})
