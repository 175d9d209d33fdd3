"""``mtgkb serve``'s /sparql endpoint, spoken to by real clients (SPARQLWrapper and urllib) over
127.0.0.1: every results format parsed back and compared with the local store's answer, the dataset
parameters, the service description, CORS, and every kind of bad request answered with its status."""

from __future__ import annotations

import csv
import io
import time
import urllib.parse
import xml.etree.ElementTree as ElementTree

import pytest
import rdflib
from rdflib.compare import isomorphic
from serve_helpers import get_query, http, post_form, post_query, running_server, worker_pids
from SPARQLWrapper import CSV, JSON, JSONLD, N3, POST, RDFXML, TSV, TURTLE, XML, SPARQLWrapper

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import PREFIXES, sparql_prefixes

STEPS = "SELECT ?step ?order WHERE { ?step a mtgkb:Step ; mtgkb:stepOrder ?order } ORDER BY ?order ?step"
STEP_GRAPH = "CONSTRUCT { ?step ?p ?o } WHERE { ?step a mtgkb:Step ; ?p ?o }"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
RESULTS = "{http://www.w3.org/2005/sparql-results#}"


@pytest.fixture(scope="module")
def server(kb):
    """A server with small limits, so that the tests can reach each of them quickly."""
    with running_server("--timeout", "3", "--max-result-mb", "1", "--max-request-kb", "64") as running:
        yield running


def expected_steps(kb) -> list[tuple[str, int]]:
    return [(row["step"], row["order"]) for row in kb.select(STEPS)]


def wrapper(server, query: str, fmt: str, method: str | None = None) -> SPARQLWrapper:
    client = SPARQLWrapper(server.sparql)
    # SPARQLWrapper needs the prefixes spelt out to tell the query's form; the server predeclares them.
    client.setQuery(sparql_prefixes() + query)
    client.setReturnFormat(fmt)
    if method:
        client.setMethod(method)
    return client


# --- every results format, parsed back ---------------------------------------------------------


def test_select_as_sparql_results_json_through_sparqlwrapper(server, kb) -> None:
    document = wrapper(server, STEPS, JSON).query().convert()
    rows = [(b["step"]["value"], int(b["order"]["value"])) for b in document["results"]["bindings"]]
    assert rows == expected_steps(kb)
    assert document["head"]["vars"] == ["step", "order"]


def test_select_as_sparql_results_xml_through_sparqlwrapper(server, kb) -> None:
    document = wrapper(server, STEPS, XML, POST).query().convert()  # a DOM document
    rows = []
    for result in document.getElementsByTagName("result"):
        values = {
            binding.getAttribute("name"): binding.firstChild.firstChild.data
            for binding in result.getElementsByTagName("binding")
        }
        rows.append((values["step"], int(values["order"])))
    assert rows == expected_steps(kb)


@pytest.mark.parametrize(("fmt", "delimiter"), [(CSV, ","), (TSV, "\t")])
def test_select_as_csv_and_tsv_through_sparqlwrapper(server, kb, fmt: str, delimiter: str) -> None:
    body = wrapper(server, STEPS, fmt).query().convert()
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    table = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if fmt == TSV:  # TSV writes terms in SPARQL syntax: variables with ?, IRIs in <>
        assert table[0] == ["?step", "?order"]
        rows = [(step.strip("<>"), int(order)) for step, order in table[1:]]
    else:
        assert table[0] == ["step", "order"]
        rows = [(step, int(order)) for step, order in table[1:]]
    assert rows == expected_steps(kb)


@pytest.mark.parametrize(
    "accept",
    [
        "application/sparql-results+json",
        "application/sparql-results+xml",
        "text/csv",
        "text/tab-separated-values",
    ],
)
def test_ask_in_every_results_format(server, accept: str) -> None:
    yes = get_query(server, "ASK { ?step a mtgkb:Step }", accept)
    no = get_query(server, "ASK { ?step a mtgkb:NoSuchClass }", accept)
    assert yes.status == no.status == 200
    assert yes.headers["content-type"].startswith(accept)
    if accept.endswith("+json"):
        assert (yes.json()["boolean"], no.json()["boolean"]) == (True, False)
    elif accept.endswith("+xml"):
        answers = [ElementTree.fromstring(a.body).find(f"{RESULTS}boolean").text for a in (yes, no)]
        assert answers == ["true", "false"]
    else:
        assert (yes.text.strip(), no.text.strip()) == ("true", "false")


def _local_graph(kb, query: str) -> rdflib.Graph:
    graph = rdflib.Graph()
    for triple in kb.raw_query(query):
        graph.add(tuple(_rdflib_term(term) for term in (triple.subject, triple.predicate, triple.object)))
    return graph


def _rdflib_term(term):
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return rdflib.URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return rdflib.BNode(term.value)
    if term.language:
        return rdflib.Literal(term.value, lang=term.language)
    datatype = term.datatype.value
    plain = datatype == "http://www.w3.org/2001/XMLSchema#string"
    return rdflib.Literal(term.value, datatype=None if plain else datatype)


@pytest.mark.parametrize(
    ("fmt", "parse_as"), [(TURTLE, "turtle"), (N3, "turtle"), (JSONLD, "json-ld"), (RDFXML, "xml")]
)
def test_construct_in_every_rdf_syntax_through_sparqlwrapper(server, kb, fmt: str, parse_as: str) -> None:
    client = wrapper(server, STEP_GRAPH, fmt)
    response = client.query()
    body = response.response.read()
    graph = rdflib.Graph().parse(data=body, format=parse_as)
    expected = _local_graph(kb, STEP_GRAPH)
    assert len(graph) == len(expected) > 0
    assert isomorphic(graph, expected)


def test_describe_answers_with_rdf(server) -> None:
    answer = get_query(server, "DESCRIBE step:declare-blockers", "application/n-triples")
    assert answer.status == 200
    graph = rdflib.Graph().parse(data=answer.text, format="nt")
    assert (rdflib.URIRef(mint("step", "declare-blockers")), None, None) in graph


def test_get_post_form_and_post_query_give_the_same_answer(server, kb) -> None:
    answers = [
        get_query(server, STEPS),
        post_form(server, {"query": STEPS}),
        post_query(server, STEPS),
    ]
    assert {a.status for a in answers} == {200}
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[0].headers["content-type"] == "application/sparql-results+json"


def test_default_and_named_graph_uris_set_the_dataset(server, kb) -> None:
    turn = mint("graph", "data", "turn")
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    whole = int(get_query(server, count).json()["results"]["bindings"][0]["n"]["value"])
    only_turn = get_query(server, count, default_graph_uri=turn)
    assert only_turn.status == 200
    turn_count = int(only_turn.json()["results"]["bindings"][0]["n"]["value"])
    assert turn_count == kb.meta["graphs"][turn]
    assert 0 < turn_count < whole
    graphs = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
    named = get_query(server, graphs, named_graph_uri=[turn, mint("graph", "data", "zones")])
    found = {b["g"]["value"] for b in named.json()["results"]["bindings"]}
    assert turn in found and found <= {turn, mint("graph", "data", "zones")}


def test_service_description_on_a_plain_get(server, kb) -> None:
    answer = http(server.sparql)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/turtle")
    graph = rdflib.Graph().parse(data=answer.text, format="turtle")
    sd = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
    assert (None, sd.endpoint, rdflib.URIRef(server.sparql)) in graph
    assert (None, sd.supportedLanguage, sd.SPARQL11Query) in graph
    names = {str(name) for name in graph.objects(None, sd.name)}
    assert names == set(kb.meta["graphs"])
    as_jsonld = http(server.sparql, headers={"Accept": "application/ld+json"})
    assert as_jsonld.status == 200 and as_jsonld.headers["content-type"].startswith("application/ld+json")
    assert len(rdflib.Graph().parse(data=as_jsonld.text, format="json-ld")) == len(graph)


def test_cors_lets_browser_tools_query(server) -> None:
    preflight = http(
        server.sparql,
        method="OPTIONS",
        headers={
            "Origin": "https://tools.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type",
        },
    )
    assert preflight.status == 200
    assert preflight.headers["access-control-allow-origin"] in ("*", "https://tools.example")
    assert "POST" in preflight.headers["access-control-allow-methods"]
    answer = http(server.sparql + "?query=ASK%7B%7D", headers={"Origin": "https://tools.example"})
    assert answer.status == 200 and answer.headers["access-control-allow-origin"] == "*"


# --- bad requests: a clear status and message, never a traceback, and the server goes on --------


def _assert_clear(answer, status: int, *words: str) -> None:
    assert answer.status == status, answer.text
    assert "Traceback" not in answer.text
    for word in words:
        assert word in answer.text, answer.text


def _triples(server) -> int:
    answer = get_query(server, "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
    return int(answer.json()["results"]["bindings"][0]["n"]["value"])


def test_updates_are_refused_and_change_nothing(server, kb) -> None:
    before = _triples(server)
    insert = "INSERT DATA { <https://example.org/a> <https://example.org/b> <https://example.org/c> }"
    answers = [
        post_form(server, {"update": insert}),
        http(server.sparql, insert.encode(), {"Content-Type": "application/sparql-update"}),
        post_form(server, {"query": insert}),
        post_form(server, {"query": "PREFIX ex: <https://example.org/>\nDROP ALL"}),
        get_query(server, "CLEAR DEFAULT"),
    ]
    for answer in answers:
        _assert_clear(answer, 403, "read-only")
    assert _triples(server) == before == sum(kb.meta["graphs"].values())


def test_service_is_refused(server) -> None:
    answer = get_query(server, "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }")
    _assert_clear(answer, 403, "SERVICE")


def test_a_malformed_query_gets_the_parsers_message(server) -> None:
    answer = post_query(server, "SELECT ?s WHERE {\n  ?s a mtgkb:Step \n  FILTER(\n}")
    _assert_clear(answer, 400, "malformed SPARQL query at line 4")
    unknown_prefix = get_query(server, "SELECT * WHERE { ?s nope:thing ?o }")
    _assert_clear(unknown_prefix, 400, "unknown prefix 'nope:'")


def test_unknown_formats_are_406(server) -> None:
    _assert_clear(get_query(server, STEPS, "image/png"), 406, "application/sparql-results+json")
    # Turtle cannot carry a SELECT's rows; JSON results cannot carry a CONSTRUCT's triples.
    _assert_clear(get_query(server, STEPS, "text/turtle"), 406, "SELECT")
    _assert_clear(get_query(server, STEP_GRAPH, "text/csv"), 406, "CONSTRUCT")


def test_oversized_requests_are_413(server) -> None:
    padding = "#" + "x" * 70_000 + "\n"
    _assert_clear(post_query(server, padding + "ASK {}"), 413, "64 KB")
    _assert_clear(post_form(server, {"query": padding + "ASK {}"}), 413, "64 KB")
    _assert_clear(get_query(server, padding + "ASK {}"), 413, "64 KB")


def test_other_protocol_mistakes(server) -> None:
    _assert_clear(http(server.sparql + "?default-graph-uri=x"), 400, "no 'query' parameter")
    _assert_clear(http(server.sparql, b"ASK {}", {"Content-Type": "text/plain"}), 415, "sparql-query")
    _assert_clear(
        http(server.sparql, b"\xff\xfe", {"Content-Type": "application/sparql-query"}), 400, "UTF-8"
    )
    _assert_clear(get_query(server, "   "), 400, "empty")
    _assert_clear(get_query(server, "ASK {}", default_graph_uri="not an iri"), 400, "absolute IRI")
    _assert_clear(http(server.url + "nowhere"), 404)


def test_a_result_past_the_size_limit_is_refused(server) -> None:
    answer = get_query(server, "SELECT * WHERE { ?s ?p ?o }")
    _assert_clear(answer, 403, "1 MB", "LIMIT")
    assert get_query(server, "SELECT * WHERE { ?s ?p ?o } LIMIT 10").status == 200


def test_a_query_past_the_time_limit_is_stopped_and_the_server_goes_on(server) -> None:
    workers = set(worker_pids(server))
    started = time.monotonic()
    answer = get_query(server, SLOW)
    assert time.monotonic() - started < 20
    _assert_clear(answer, 503, "longer than 3 s")
    # The worker that ran it was killed and replaced; every request after it is answered.
    for _ in range(6):
        assert get_query(server, STEPS).status == 200
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
        len(worker_pids(server)) != 2 or set(worker_pids(server)) == workers
    ):
        time.sleep(0.2)
    assert len(worker_pids(server)) == 2
    assert set(worker_pids(server)) != workers


def test_a_worker_that_dies_is_replaced(server) -> None:
    import os
    import signal

    for pid in worker_pids(server):
        os.kill(pid, signal.SIGKILL)
    statuses = [get_query(server, STEPS).status for _ in range(4)]
    assert set(statuses) <= {200, 503}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and get_query(server, STEPS).status != 200:
        time.sleep(0.2)
    assert get_query(server, STEPS).status == 200


def test_the_predeclared_prefixes_work_as_in_the_cli(server) -> None:
    answer = get_query(server, "ASK { card:ninja-of-the-deep-hours a mtgkb:Card }")
    assert answer.status == 200 and answer.json()["boolean"] is True
    assert PREFIXES["card"] in mint("card", "x")


def test_a_port_in_use_is_a_clear_error(run_cli, kb) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        result = run_cli("serve", "--port", port)
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr


def test_head_answers_as_get_without_a_body(server) -> None:
    for url in (server.sparql, server.sparql + "?" + urllib.parse.urlencode({"query": "ASK {}"})):
        got, head = http(url), http(url, method="HEAD")
        assert head.status == got.status == 200
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.body == b""
