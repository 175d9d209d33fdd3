"""Fuzzing ``mtgkb sparql``: the named queries, the README's queries and hostile ones (updates, SERVICE,
cartesian products), mutated (spans cut, repeated or swapped, SPARQL tokens and odd text put in,
the text cut short), in every output format, with odd ``--param`` values. Each ends in an answer
(exit 0) or in exit 2 with a message; never a traceback, never a hang. Queries run in a worker
process (tests/cli_worker.py) with ``--timeout 2``, since a stopped query keeps computing inside
Oxigraph until its process ends."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from cli_worker import Worker
from fuzzing import CASE_LIMIT, odd_text, time_limit
from hypothesis import given
from hypothesis import strategies as st
from listener import Listener
from sparql_grammar import Generated, queries

QUERIES = Path(__file__).resolve().parents[1] / "queries"
SEEDS = [path.read_text(encoding="utf-8") for path in sorted(QUERIES.glob("*.rq"))] + [
    "SELECT ?card ?cost WHERE { ?card mtgkb:hasAbility ?a . ?a mtgkb:instantiates mechanic:sneak ; "
    "mtgkb:abilityCost ?cost } ORDER BY ?card",
    "SELECT (COUNT(?card) AS ?cards) WHERE { ?card a mtgkb:Card }",
    "ASK { card:yuriko-the-tigers-shadow ?p ?o }",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s a mtgkb:Step ; ?p ?o }",
    "DESCRIBE step:declare-blockers",
    "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 5",
    "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }",
    "SELECT * WHERE { SERVICE <http://127.0.0.1:9/x> { ?s ?p ?o } }",
    "INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }",
    'PREFIX x: <http://example.org/> SELECT ?s WHERE { ?s x:p ?o FILTER(REGEX(STR(?o), "(")) }',
    "SELECT ?x WHERE { BIND(1/0 AS ?x) VALUES ?y { 1 2 } }",
]
TOKENS = [
    "{", "}", ".", ";", ",", "?x", "$y", "*", "(", ")", "<", ">", '"', "'", '"""', "#", "\n", "a",
    "SELECT", "ASK", "WHERE", "FILTER(", "OPTIONAL", "UNION", "MINUS", "GRAPH ?g", "VALUES ?x { 1 }",
    "SERVICE <http://127.0.0.1:9/x>", "SERVICE SILENT <http://127.0.0.1:9/x>", "INSERT", "DELETE WHERE",
    "LOAD <http://127.0.0.1:9/x>", "PREFIX p: <http://example.org/>", "BASE <http://a/>", "ORDER BY",
    "LIMIT -1", "OFFSET 99999999999999999999", "COUNT(*)", "GROUP BY ?x", "card:", "mtgkb:", "unknown:",
    "<http://a b>", "\\u0000", "\x00", "\udcff", "?s ?p ?o .", "?a ?b ?c . ?d ?e ?f .", "    " * 40,
]  # fmt: skip
FORMATS = ["table", "json", "csv", "tsv", "ttl", "nt", "jsonld"]

_worker = Worker()


@pytest.fixture(scope="module", autouse=True)
def _store_built(kb):
    """The store is built before the first case, so that no case's time limit covers a build."""
    yield
    _worker.close()


@st.composite
def mutated_query(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["cut", "repeat", "swap", "token", "odd", "truncate"]))
        end = min(len(text), at + draw(st.integers(0, 40)))
        if kind == "cut":
            text = text[:at] + text[end:]
        elif kind == "repeat":
            text = text[:end] + text[at:end] * draw(st.integers(1, 50)) + text[end:]
        elif kind == "swap":
            other = draw(st.integers(0, len(text)))
            first, second = sorted((at, other))
            text = text[second:] + text[first:second] + text[:first]
        elif kind == "token":
            text = text[:at] + " " + draw(st.sampled_from(TOKENS)) + " " + text[at:]
        elif kind == "odd":
            text = text[:at] + draw(odd_text) + text[at:]
        else:
            text = text[:at]
    return text


params = st.lists(
    st.tuples(
        st.sampled_from(["card", "s", "x", "mechanic", "?o", "", "1x"]),
        st.one_of(odd_text, st.sampled_from(["Yuriko", "ninjutsu", "card:clone", '"quoted"', "<http://a>"])),
    ).map(lambda pair: f"{pair[0]}={pair[1]}"),
    max_size=2,
)


@given(query=mutated_query(), fmt=st.sampled_from(FORMATS), given_params=params, as_json=st.booleans())
def test_any_query_gets_an_answer_or_a_message(
    query: str, fmt: str, given_params: list[str], as_json: bool
) -> None:
    args = ["sparql", query, "--timeout", "2"]
    args += ["--json"] if as_json else ["--format", fmt]
    for param in given_params:
        args += ["--param", param]
    with time_limit(CASE_LIMIT + 10):  # the worker's own limit comes first; this one counts the case
        answer = _worker.run(args, timeout=CASE_LIMIT)
    assert answer["exception"] is None, answer["exception"]
    assert answer["exit_code"] in (0, 2), answer
    json_wanted = as_json or fmt in ("json", "jsonld")
    whole = answer["stdout_size"] == len(answer["stdout"].encode())
    if answer["exit_code"] == 2:
        if json_wanted and answer["stdout"].startswith("{\n"):  # the error as a JSON object
            assert whole, "an error message of more than 64 KiB"
            assert json.loads(answer["stdout"])["error"], answer
        else:
            assert answer["stderr"].startswith(("Error: ", "Usage: ")), answer
            assert len(answer["stderr"]) < 4096, "an error message longer than any screen"
    elif json_wanted and whole:
        json.loads(answer["stdout"])  # a whole answer in JSON is JSON


def test_leading_white_space_before_no_keyword_is_read_at_once(kb) -> None:
    # The update check read a query's prologue with a pattern that backtracked exponentially: 40
    # spaces and a brace would have taken hours.
    answer = _worker.run(["sparql", " " * 40 + "{ ?s ?p ?o }"], timeout=CASE_LIMIT)
    assert answer["exit_code"] == 2 and "malformed SPARQL query" in answer["stderr"], answer


def test_a_long_run_of_text_before_a_bound_variable_is_read_at_once(kb) -> None:
    # Finding what stands before ?x used a pattern that took time quadratic in a long IRI (100,000
    # characters: minutes).
    query = f"SELECT ?x WHERE {{ <http://example.org/{'a' * 100_000}> <http://example.org/p> ?x }}"
    answer = _worker.run(["sparql", query, "--param", "x=Yuriko"], timeout=CASE_LIMIT)
    assert answer["exit_code"] == 0 and answer["stdout"] == "x\n-\n(no rows)\n", answer


def test_query_text_that_is_too_long_for_a_file_name_is_read_as_a_query(kb) -> None:
    # Found by the fuzzer: text without a brace was looked up as a file first, and a name longer
    # than the file system takes ended in a traceback (ENAMETOOLONG).
    answer = _worker.run(["sparql", "# " + "x" * 300 + "\nASK"], timeout=CASE_LIMIT)
    assert answer["exception"] is None, answer["exception"]
    assert answer["exit_code"] == 2 and "malformed SPARQL query" in answer["stderr"], answer
    answer = _worker.run(["sparql", "x" * 300 + ".rq"], timeout=CASE_LIMIT)
    assert answer["exit_code"] == 2 and "cannot read the query file" in answer["stderr"], answer


def test_parentheses_nested_too_deep_for_the_parser_are_refused_at_once(kb) -> None:
    # Found by the SPARQL soak: Oxigraph's parser takes twice as long for each level of SUBSTR,
    # REGEX, REPLACE or GROUP_CONCAT (or an unclosed "!("), 30 levels for hours, and it holds the
    # interpreter meanwhile, so neither --timeout nor Ctrl-C could stop it.
    for query in (
        "SELECT (" + "GROUP_CONCAT(" * 30 + "?x AS ?y) WHERE { ?x ?p ?o }",
        "SELECT ?x WHERE { ?x ?p ?o FILTER(" + "REPLACE(" * 30 + "?x" + ', "a", "b")' * 30 + ") }",
        "ASK { ?x ?p ?o FILTER(" + "!(" * 30 + "?x }",
    ):
        answer = _worker.run(["sparql", query, "--timeout", "2"], timeout=CASE_LIMIT)
        assert answer["exit_code"] == 2, answer
        assert "nests parentheses" in answer["stderr"] and "at most 12 levels" in answer["stderr"]
    # Nesting as deep as queries write it, and parentheses inside strings, IRIs and comments, are fine.
    nested = (
        "SELECT ?y WHERE { BIND("
        + "STR(" * 10
        + '"x"'
        + ")" * 10
        + ' AS ?y) FILTER(?y != "((((((((((((((") }'
    )
    answer = _worker.run(["sparql", nested + " # ((((((((((((((((((((\n"], timeout=CASE_LIMIT)
    assert answer["exit_code"] == 0, answer


def test_a_malformed_query_with_a_huge_line_gets_a_short_message(kb) -> None:
    # Found by the SPARQL soak: the message quoted the whole offending line (43 kB of escape
    # characters, sent to the terminal as they were) with a caret 40,000 spaces along.
    query = "SELECT ?card WHERE { ?card mtgkb:" + "\x1b" * 40_000 + " ?o }"
    answer = _worker.run(["sparql", query], timeout=CASE_LIMIT)
    assert answer["exit_code"] == 2 and "malformed SPARQL query at line 1" in answer["stderr"], answer
    assert len(answer["stderr"]) < 1000 and "\x1b" not in answer["stderr"], answer["stderr"]
    excerpt, caret = answer["stderr"].splitlines()[1:3]
    assert excerpt.startswith("  SELECT ?card WHERE") and excerpt.endswith("…")
    assert len(caret) - 1 == excerpt.index("\ufffd")  # the caret stands under the first bad character


def test_a_huge_value_is_quoted_short_in_a_message(kb) -> None:
    # Found by the SPARQL soak: a name given with --param was quoted whole in "no card ... named".
    for args in (["--param", "card=" + "0" * 4000], ["--param", "x" * 4000], ["--param", "y" * 4000 + "=1"]):
        query = "SELECT ?card WHERE { ?card a mtgkb:Card }"
        answer = _worker.run(["sparql", query, *args], timeout=CASE_LIMIT)
        assert answer["exit_code"] == 2 and len(answer["stderr"]) < 500, answer["stderr"]
        assert "…" in answer["stderr"], answer["stderr"]
    for args in (
        ["sparql", "z" * 5000 + ".rq"],
        ["sparql", f"SELECT ?card ?r{'0' * 5000} WHERE {{ ?card ?p ?o }}", "-p", "s=1"],  # its variables
        ["sparql", "SELECT ?s WHERE { ?s ?p ?o }", "-p", f"s=http://example.org/{'a ' * 3000}"],
    ):
        answer = _worker.run(args, timeout=CASE_LIMIT)
        assert answer["exit_code"] == 2 and len(answer["stderr"]) < 500, answer["stderr"]


# --- grammar-aware fuzzing: nesting of every construct, escapes, comments, SERVICE every way -------

#: The memory bound each generated query runs under, and past which the watch fails the case.
FUZZ_MEMORY_MB = 1500
_RUNAWAY_MB = FUZZ_MEMORY_MB + 700
_listener = Listener()


def _worker_peak_mb() -> float:
    """The most the worker process has held so far (VmHWM), in MB; 0 when there is none."""
    process = _worker.process
    if process is None or process.poll() is not None:
        return 0.0
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


@given(generated=queries(_listener.url), fmt=st.sampled_from(FORMATS))
def test_generated_queries_never_crash_connect_or_outgrow_their_bound(generated: Generated, fmt: str) -> None:
    args = ["sparql", generated.text, "--timeout", "2", "--max-memory-mb", str(FUZZ_MEMORY_MB)]
    args += ["--format", fmt]
    with time_limit(CASE_LIMIT + 10):
        answer = _worker.run(args, timeout=CASE_LIMIT)
    peak = _worker_peak_mb()
    assert peak < _RUNAWAY_MB, f"the query process reached {peak:.0f} MB"
    assert answer["exception"] is None, answer["exception"]
    assert answer["exit_code"] in (0, 2), answer
    if generated.service:
        assert answer["exit_code"] == 2, "a SERVICE was run"
    if answer["exit_code"] == 2 and not (answer["stdout"].startswith("{\n")):
        assert answer["stderr"].startswith(("Error: ", "Usage: ")), answer
    assert _listener.connections == 0, f"a query connected out: {generated.text!r}"


# --- differential: what the checks let through, Oxigraph itself runs without a connection --------

_FRAGMENTS = [
    "SERVICE", "SILENT", "?x", "'", '"', "'''", '"""', "#", "\n", "\r", " ", "<", ">", "(", ")", "{", "}",
    "[", "]", "m:x\\'", "m:x\\#", "FILTER(", "?a", "<?b", "<<", ">>", ".", ";", ",", "\\", "a", "m:", ":x",
    "SERVICEm:x", "1", "&&", "||", "!", "=", "^^", "@en", "_:b", "VALUES", "OPTIONAL", "UNION", "BIND(",
    " AS ", "$x", "<http://a#>", "<a'b>", "<a#b>", f"<{_listener.url}>",
]  # fmt: skip


@given(body=st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=14).map("".join))
def test_what_the_checks_let_through_opens_no_connection_in_oxigraph(body: str) -> None:
    """The checks and Oxigraph's parser must agree on where SERVICE is: any text the checks let
    through is run by Oxigraph itself, over an empty store, with ?x bound to the listener."""
    import pyoxigraph as ox

    from mtgkb.core.errors import MtgkbError
    from mtgkb.kb.query_limits import check_query

    query = (
        "PREFIX m: <http://example.org/> PREFIX : <http://example.org/> "
        f"SELECT * {{ BIND(<{_listener.url}> AS ?x) BIND(1 AS ?a) BIND(2 AS ?b) {body} }}"
    )
    try:
        check_query(query)
    except MtgkbError:
        return
    with time_limit(CASE_LIMIT), contextlib.suppress(SyntaxError, OSError, RuntimeError, ValueError):
        list(ox.Store().query(query))
    assert _listener.connections == 0, f"Oxigraph connected out for a query the checks let through: {query!r}"
