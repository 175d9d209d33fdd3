"""What a query must never make mtgkb do (issue 18, items 1 and 4): reach out to another machine with
SERVICE in any spelling, or hand Oxigraph's parser a query that nests or grows past what it survives
(it crashed with SIGSEGV, or hung past the time limit and Ctrl-C). Each attack below was seen to get
through a regex over the query's text; each is now refused from its tokens, with exit 2 (403 or 400
from the server) and a message, and a listener of the test's own on 127.0.0.1 counts that nothing
connected to it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from cli_worker import Worker
from fuzzing import CASE_LIMIT
from listener import Listener
from serve_helpers import get_query, post_query, running_server

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.query_limits import QueryTooComplex, ServiceRefused, check_query
from mtgkb.kb.sparql_tokens import IRI, PNAME, STRING, VAR, AmbiguousQuery, MalformedTokens, tokens


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    peer = Listener()
    yield peer
    peer.close()


def service_forms(url: str) -> dict[str, str]:
    """Every way of writing SERVICE that was seen to reach Oxigraph, or might."""
    return {
        "escaped quote": (
            f"PREFIX m: <http://example.org/> SELECT * {{ m:x\\' m:p m:o . SERVICE <{url}> {{ ?s ?p ?o }} }}"
        ),
        "escaped quote, then a string": (
            f"SELECT * {{ mtgkb:x\\' ?p 'a' . SERVICE <{url}> {{ ?s ?p ?o }} }} # '"
        ),
        "escaped hash": f"SELECT * {{ ?s mtgkb:x\\# ?o . SERVICE <{url}> {{ ?s ?p ?o }} }}",
        "variable": f"SELECT * {{ BIND(<{url}> AS ?svc) SERVICE ?svc {{ ?s ?p ?o }} }}",
        "variable with a filter": f"SELECT * {{ SERVICE ?svc {{ ?s ?p ?o }} FILTER(?svc = <{url}>) }}",
        "silent": f"SELECT * {{ SERVICE SILENT <{url}> {{ ?s ?p ?o }} }}",
        "lower case": f"select * {{ sErViCe <{url}> {{ ?s ?p ?o }} }}",
        "nested": f"SELECT * {{ {{ OPTIONAL {{ {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }} }} }}",
        "in a subquery": f"SELECT * {{ {{ SELECT * {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }} }}",
        "in EXISTS": f"ASK {{ ?s ?p ?o FILTER EXISTS {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }}",
        "after a comment": f"SELECT * {{ # a comment with a quote ' in it\n SERVICE <{url}> {{ }} }}",
        "after a carriage return": f"SELECT * {{ #c\r SERVICE <{url}> {{ ?s ?p ?o }} }}",
        "after a long string": f'SELECT * {{ BIND("""a "" b""" AS ?x) SERVICE <{url}> {{ }} }}',
        "glued to a prefix": f"PREFIX m: <{url}> SELECT * {{ SERVICEm:x {{ ?s ?p ?o }} }}",
        "glued to an empty prefix": f"PREFIX : <{url}> SELECT * {{ SERVICE:x{{ ?s ?p ?o }} }}",
        "glued to SILENT": f"SELECT * {{ SERVICESILENT<{url}>{{ ?s ?p ?o }} }}",
    }


def test_every_spelling_of_service_is_refused_by_the_checks() -> None:
    for name, query in service_forms("http://127.0.0.1:9/x").items():
        with pytest.raises(ServiceRefused):
            check_query(query)
        assert name


def test_a_less_than_that_could_hide_a_service_is_refused() -> None:
    # Oxigraph reads "<?b)SERVICE?x#>" here as "less than", ?b, ")", SERVICE ?x and a comment; a
    # tokenizer that took it for an IRI would have let the SERVICE through.
    query = "SELECT * { BIND(1 AS ?a) BIND(2 AS ?b) FILTER(?a<?b)SERVICE?x#>\n{ ?s ?p ?o } }"
    with pytest.raises((AmbiguousQuery, ServiceRefused)):
        check_query(query)


def test_the_word_service_where_it_is_no_keyword_is_fine() -> None:
    for query in (
        "SELECT * { ?s ?p 'SERVICE <http://x> {}' }",
        'SELECT * { ?s ?p """SERVICE\n<http://x> {}""" }',
        "SELECT * { ?s <http://example.org/SERVICE> ?o }",
        "SELECT * { ?s ?p ?o } # SERVICE <http://x> {}",
        "SELECT ?service { ?service ?p ?o }",
        "PREFIX ex: <http://example.org/> SELECT * { ?s ex:service ?o }",
    ):
        check_query(query)


def test_tokens_follow_the_grammar() -> None:
    found = [(t.kind, t.text) for t in tokens("SELECT * { m:x\\' m:p 'a\\'b' ; <http://a#b> ?v }")]
    assert (PNAME, "m:x\\'") in found and (STRING, "'a\\'b'") in found
    assert (IRI, "<http://a#b>") in found and (VAR, "?v") in found
    assert [t.text for t in tokens("?s :p :o.")][-1] == "."  # a trailing dot ends the triple
    with pytest.raises(MalformedTokens):
        list(tokens("SELECT * { ?s ?p 'open }"))


def test_everyday_queries_pass_the_checks() -> None:
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parents[1] / "queries").glob("*.rq")):
        check_query(path.read_text(encoding="utf-8"))
    check_query("SELECT * { ?s <http://x#p> ?o FILTER(?o = <http://x#y> && ?o<3||?o>1) }")
    check_query("SELECT * { VALUES (?a ?b) { (<http://x#1> <http://x#2>) } }")
    check_query("SELECT * { " + "{ " * 60 + "?s ?p ?o" + " }" * 60 + " }")


#: The queries that crashed the parser (SIGSEGV) or hung it, each a few kilobytes.
DEEP = {
    "3,000 nested groups": "SELECT * { " + "{ " * 3000 + "}" * 3000 + " }",
    "10,000 UNION branches": "SELECT * { " + " UNION ".join(["{ ?s ?p ?o }"] * 10_000) + " }",
    "a 10,000-step path": "SELECT * { ?s " + "/".join(["mtgkb:p"] * 10_000) + " ?o }",
    "4,000 nested OPTIONALs": "SELECT * { " + "OPTIONAL { ?s ?p ?o " * 4000 + "}" * 4000 + " }",
    "20,000 && terms": "SELECT * { ?s ?p ?o FILTER(" + " && ".join(["?o"] * 20_000) + ") }",
    "10,000 triples": "SELECT * { " + " . ".join(f"?s ?p ?o{i}" for i in range(10_000)) + " }",
    "a 24-level !( chain behind an escaped quote": ("SELECT * { mtgkb:x\\' ?p ?o FILTER(" + "!(" * 24 + "?o"),
}


def test_deep_and_huge_queries_are_refused_by_the_checks() -> None:
    for name, query in DEEP.items():
        with pytest.raises(QueryTooComplex) as refused:
            check_query(query)
        assert "refused before it is parsed" in refused.value.message, name


_worker = Worker()


@pytest.fixture(scope="module")
def worker(kb) -> Iterator[Worker]:
    yield _worker
    _worker.close()


def test_the_cli_refuses_every_service_without_a_connection(worker, listener: Listener) -> None:
    for name, query in service_forms(listener.url).items():
        answer = worker.run(["sparql", query, "--timeout", "5"], timeout=CASE_LIMIT)
        assert answer["exception"] is None, (name, answer["exception"])
        assert answer["exit_code"] == 2, (name, answer)
        assert "SERVICE" in answer["stderr"], (name, answer["stderr"])
    time.sleep(0.3)
    assert listener.connections == 0


def test_the_cli_refuses_deep_queries_with_a_message_at_once(worker) -> None:
    for name, query in DEEP.items():
        answer = worker.run(["sparql", query, "--timeout", "5"], timeout=CASE_LIMIT)
        assert answer["exception"] is None, (name, answer["exception"])
        assert answer["exit_code"] == 2, (name, answer)
        assert answer["stderr"].startswith("Error: the query "), (name, answer["stderr"])


def test_the_server_refuses_every_service_with_403_and_no_connection(kb, listener: Listener) -> None:
    with running_server("--workers", "1", "--timeout", "5") as server:
        for name, query in service_forms(listener.url).items():
            answer = post_query(server, query)
            assert answer.status == 403, (name, answer.status, answer.text)
            assert "SERVICE" in answer.text, name
        for name, query in DEEP.items():
            answer = post_query(server, query)
            assert answer.status == 400, (name, answer.status, answer.text)
            assert "refused before it is parsed" in answer.text, name
        assert get_query(server, "ASK {}").status == 200  # the worker is alive: nothing crashed it
        assert server.process.poll() is None
    time.sleep(0.3)
    assert listener.connections == 0


def test_an_ambiguous_query_is_a_message_not_a_guess() -> None:
    with pytest.raises(MtgkbError) as refused:
        check_query("SELECT * { ?s ?p ?o FILTER(?o<?x#>\n) }")
    assert "'<' at line 1" in refused.value.message


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "soon"])
def test_a_timeout_that_is_not_a_number_of_seconds_is_refused(worker, value: str) -> None:
    """Before: ``sparql --timeout nan`` was taken as no limit at all."""
    for command in (["sparql", "ASK {}"], ["query", "mechanic-steps"]):
        answer = worker.run([*command, "--timeout", value], timeout=CASE_LIMIT)
        assert answer["exit_code"] == 2, answer
        assert "--timeout" in answer["stderr"] and answer["exception"] is None, answer


def test_rows_that_fail_while_they_are_written_are_a_message() -> None:
    """A query's rows are computed as they are written, after query() returned: a failure then (a
    damaged store, a row the format cannot take) reached the CLI as a traceback."""
    from mtgkb.kb.query_limits import stream_with_limit

    def produce(output) -> None:
        output.write(b"x\r\n1\r\n")
        raise ValueError("the third row cannot be read")

    with pytest.raises(MtgkbError) as failed:
        b"".join(stream_with_limit(produce, 5))
    assert "failed while its answer was written" in failed.value.message
    assert "third row" in failed.value.message


def test_a_less_than_glued_to_an_iri_cannot_hide_a_service() -> None:
    # "?a<<http://x#>" is "less than" and the IRI <http://x#> to Oxigraph; read as "<<" and tokens, the
    # "#" would have started a comment hiding the SERVICE after it.
    for query in (
        "SELECT * { ?a ?b ?c FILTER(?a<<http://x#>) SERVICE <http://127.0.0.1:9/> {} }",
        "SELECT * { ?a ?b ?c FILTER(?a<<http://x'>) SERVICE <http://127.0.0.1:9/> {} }",
    ):
        with pytest.raises((AmbiguousQuery, ServiceRefused)):
            check_query(query)
    check_query("SELECT * { <<<http://a#b> <http://p> <http://o>>> ?p ?o }")
