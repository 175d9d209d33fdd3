"""``mtgkb push`` into a real Oxigraph server (the ``oxigraph`` package's binary, started here on
127.0.0.1 with a temporary directory), then every named query asked there gives what it gives
locally; ``mtgkb sparql --endpoint`` and ``mtgkb query --endpoint`` read the server."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from mtgkb.kb.named_queries import catalogue


def _oxigraph() -> str:
    found = shutil.which("oxigraph", path=str(Path(sys.executable).parent)) or shutil.which("oxigraph")
    if found is None:
        pytest.fail("the oxigraph server binary is missing: pip install -e '.[test]' installs it")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory):
    """An Oxigraph server on 127.0.0.1 over a fresh directory: its query endpoint URL."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("oxigraph")
    process = subprocess.Popen(
        [_oxigraph(), "serve", "--location", str(folder), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    endpoint = f"http://127.0.0.1:{port}/query"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(endpoint + "?query=ASK%7B%7D", timeout=5).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"oxigraph did not start: {process.stderr.read().decode(errors='replace')}")
            time.sleep(0.2)
    yield endpoint
    process.terminate()
    process.wait(30)


@pytest.fixture(scope="module")
def pushed(run_cli, oxigraph, kb):
    result = run_cli("push", "--endpoint", oxigraph, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_push_sends_every_graph_and_the_server_counts_the_same(pushed, kb) -> None:
    names = [graph["graph"] for graph in pushed["graphs"]]
    assert set(names) == set(kb.meta["graphs"]) | {"default"}
    assert pushed["checked"] is True and pushed["mismatched"] == []
    for graph in pushed["graphs"]:
        if graph["graph"] != "default":
            assert graph["triples"] == kb.meta["graphs"][graph["graph"]]
        assert graph["remote_triples"] == graph["triples"]


def test_push_replaces_rather_than_adds(run_cli, oxigraph, pushed) -> None:
    again = run_cli("push", "--endpoint", oxigraph, "--json", "-q")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["mismatched"] == []


def _rows(document: dict) -> list:
    """Result rows as comparable tuples (blank node labels differ between stores: left out)."""
    if "boolean" in document:
        return [document["boolean"]]
    variables = document["head"]["vars"]
    rows = []
    for binding in document["results"]["bindings"]:
        row = []
        for name in variables:
            term = binding.get(name)
            if term is None:
                row.append(None)
            elif term["type"] == "bnode":
                row.append("_:")
            else:
                row.append(
                    (term["type"].replace("typed-literal", "literal"), term["value"], term.get("datatype"))
                )
        rows.append(tuple(row))
    return rows


@pytest.mark.parametrize("name", [query.name for query in catalogue().queries])
def test_every_named_query_answers_the_same_remotely(run_cli, pushed, oxigraph, name: str) -> None:
    query = next(q for q in catalogue().queries if q.name == name)
    examples = [f"--param={param.name}={param.example}" for param in query.params if param.example]
    local = run_cli("query", name, *examples, "--format", "json")
    remote = run_cli("query", name, *examples, "--format", "json", "--endpoint", oxigraph)
    assert local.exit_code == remote.exit_code == 0, remote.output
    local_rows, remote_rows = _rows(json.loads(local.stdout)), _rows(json.loads(remote.stdout))
    ordered = "ORDER BY" in next(q for q in catalogue().queries if q.name == name).text
    if not ordered:
        local_rows, remote_rows = sorted(local_rows, key=repr), sorted(remote_rows, key=repr)
    assert remote_rows == local_rows
    assert local_rows, f"{name} should have rows on the bundled knowledge base"


def test_named_query_parameters_and_tables_work_remotely(run_cli, pushed, oxigraph) -> None:
    args = ("query", "card-rulings", "--param", "card=Ninja of the Deep Hours")
    local, remote = run_cli(*args), run_cli(*args, "--endpoint", oxigraph)
    assert remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout


def test_sparql_endpoint_option_with_prefixes_it_predeclares(run_cli, pushed, oxigraph) -> None:
    query = "SELECT ?step WHERE { ?step a mtgkb:Step ; mtgkb:stepOrder ?o } ORDER BY ?o"
    local, remote = run_cli("sparql", query), run_cli("sparql", query, "--endpoint", oxigraph)
    assert remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout and "step:declare-blockers" in remote.stdout
    for fmt in ("csv", "tsv"):
        assert run_cli("sparql", query, "--format", fmt, "--endpoint", oxigraph).stdout.strip()
    ask = run_cli("sparql", "ASK { card:ninja-of-the-deep-hours a mtgkb:Card }", "--endpoint", oxigraph)
    assert ask.stdout.strip() == "true"
    construct = "CONSTRUCT WHERE { step:upkeep ?p ?o }"
    graph = run_cli("sparql", construct, "--format", "nt", "--endpoint", oxigraph)
    assert graph.exit_code == 0 and "<https://w3id.org/mtgkb/step/upkeep>" in graph.stdout


def test_remote_errors_are_clear(run_cli, oxigraph) -> None:
    bad = run_cli("sparql", "SELECT ?x WHERE { ?x", "--endpoint", oxigraph)
    assert bad.exit_code == 2 and "answered 400" in bad.stderr
    update = run_cli("sparql", "DROP ALL", "--endpoint", oxigraph)
    assert update.exit_code == 2 and "read-only" in update.stderr
    port = _free_port()
    down = run_cli("sparql", "ASK {}", "--endpoint", f"http://127.0.0.1:{port}/query")
    assert down.exit_code == 2 and "cannot reach" in down.stderr
    scheme = run_cli("query", "mechanic-steps", "--endpoint", "ftp://example.org/x")
    assert scheme.exit_code == 2 and "not an http(s) URL" in scheme.stderr
    no_store = run_cli("push", "--endpoint", "http://127.0.0.1:9/sparql")
    assert no_store.exit_code == 2 and "--graph-store" in no_store.stderr


def test_a_user_and_password_in_the_graph_store_url_answer_basic_auth(run_cli, kb) -> None:
    """Any Graph Store Protocol server, here a stdlib one that wants Basic auth: one PUT per graph,
    each with the credentials the URL gives (and the URL shown without them)."""
    import base64
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from mtgkb.exporters.push import push

    received: list[tuple[str, int]] = []
    expected = "Basic " + base64.b64encode(b"dba:s3cret").decode()

    class GraphStore(BaseHTTPRequestHandler):
        def do_PUT(self) -> None:
            body = b""
            if self.headers.get("Transfer-Encoding") == "chunked":
                while size := int(self.rfile.readline().strip(), 16):
                    body += self.rfile.read(size)
                    self.rfile.readline()
                self.rfile.readline()
            if self.headers.get("Authorization") != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="graphs"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            received.append((self.path, body.count(b"\n")))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), GraphStore)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        summary = push(kb, f"http://dba:s3cret@127.0.0.1:{port}/store")
    finally:
        server.shutdown()
    assert len(received) == len(kb.meta["graphs"]) + 1
    assert received[-1][0] == "/store?default"
    assert sum(lines for _, lines in received) == summary.triples
    assert summary.graph_store == f"http://dba:s3cret@127.0.0.1:{port}/store"
    wrong = run_cli("push", "--graph-store", f"http://dba:wrong@127.0.0.1:{_free_port()}/store")
    assert wrong.exit_code == 2 and "s3cret" not in wrong.stderr and "wrong" not in wrong.stderr
