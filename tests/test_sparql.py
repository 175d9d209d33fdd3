"""`mtgkb sparql`: query text, files and stdin in; W3C results formats and RDF out; clean errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.iris import mint
from mtgkb.kb.sparql import compact_iri, read_query_argument, run_query
from mtgkb.kb.vocab import PREFIXES

STEPS = "SELECT ?step ?order WHERE { ?step a mtgkb:Step ; mtgkb:stepOrder ?order } ORDER BY ?order"


def test_table_lists_every_step_with_prefixed_iris(run_cli, kb) -> None:
    expected = kb.select(STEPS)
    assert expected, "the turn graph should have steps"
    result = run_cli("sparql", STEPS)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["step", "order"]
    body = [line.split() for line in lines[2:]]
    assert [row[0] for row in body] == [compact_iri(row["step"]) for row in expected]
    assert body[0][0].startswith("step:") or body[0][0].startswith("phase:")


def test_json_is_the_sparql_results_format_and_matches_select(run_cli, kb) -> None:
    expected = kb.select(STEPS)
    result = run_cli("sparql", STEPS, "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["head"]["vars"] == ["step", "order"]
    bindings = document["results"]["bindings"]
    assert [b["step"]["value"] for b in bindings] == [row["step"] for row in expected]
    assert all(b["step"]["type"] == "uri" for b in bindings)
    assert bindings[0]["order"]["datatype"].endswith("#integer")


def test_json_flag_is_an_alias_for_format_json(run_cli, kb) -> None:
    by_flag = run_cli("sparql", STEPS, "--json")
    by_format = run_cli("sparql", STEPS, "--format", "json")
    assert by_flag.exit_code == 0, by_flag.stderr
    assert json.loads(by_flag.stdout) == json.loads(by_format.stdout)


@pytest.mark.parametrize(("fmt", "delimiter"), [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_have_a_header_and_one_line_per_row(run_cli, kb, fmt: str, delimiter: str) -> None:
    expected = kb.select(STEPS)
    result = run_cli("sparql", STEPS, "--format", fmt)
    assert result.exit_code == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout.strip()), delimiter=delimiter))
    assert [name.lstrip("?") for name in rows[0]] == ["step", "order"]
    assert len(rows) - 1 == len(expected)
    first_step = rows[1][0]
    # CSV writes bare IRIs, TSV writes them in angle brackets (SPARQL 1.1 CSV/TSV formats).
    assert first_step.strip("<>") == expected[0]["step"]


def test_ask_answers_true_and_false(run_cli, kb) -> None:
    yes = run_cli("sparql", "ASK { step:declare-blockers a mtgkb:Step }")
    no = run_cli("sparql", "ASK { step:declare-blockers a mtgkb:Card }")
    assert (yes.stdout.strip(), no.stdout.strip()) == ("true", "false")
    as_json = run_cli("sparql", "ASK { step:declare-blockers a mtgkb:Step }", "--format", "json")
    assert json.loads(as_json.stdout)["boolean"] is True


def test_construct_gives_turtle_that_rdflib_reads_back(run_cli, kb) -> None:
    import rdflib

    query = "CONSTRUCT { ?s mtgkb:nextStep ?o } WHERE { ?s mtgkb:nextStep ?o }"
    expected = kb.select("SELECT ?s ?o WHERE { ?s mtgkb:nextStep ?o }")
    for fmt, parser in (("table", "turtle"), ("ttl", "turtle"), ("nt", "nt"), ("jsonld", "json-ld")):
        result = run_cli("sparql", query, "--format", fmt)
        assert result.exit_code == 0, result.stderr
        graph = rdflib.Graph().parse(data=result.stdout, format=parser)
        assert len(graph) == len(expected), fmt
        assert (
            rdflib.URIRef(mint("step", "declare-blockers")),
            rdflib.URIRef(PREFIXES["mtgkb"] + "nextStep"),
            rdflib.URIRef(mint("step", "combat-damage")),
        ) in graph


def test_construct_refuses_a_results_format(run_cli, kb) -> None:
    result = run_cli("sparql", "CONSTRUCT WHERE { ?s a mtgkb:Step }", "--format", "csv")
    assert result.exit_code == 2
    assert "--format ttl" in result.stderr


def test_a_query_file_and_stdin_give_the_same_answer(run_cli, kb, tmp_path: Path) -> None:
    path = tmp_path / "steps.rq"
    path.write_text(STEPS, encoding="utf-8")
    from_text = run_cli("sparql", STEPS, "--format", "csv")
    from_file = run_cli("sparql", str(path), "--format", "csv")
    from_stdin = run_cli("sparql", "-", "--format", "csv", input=STEPS)
    assert from_text.exit_code == from_file.exit_code == from_stdin.exit_code == 0
    assert from_text.stdout == from_file.stdout == from_stdin.stdout


def test_a_missing_query_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(MtgkbError, match="no query file"):
        read_query_argument(str(tmp_path / "absent.rq"))


def test_a_malformed_query_names_line_and_column_without_a_traceback(run_cli, kb) -> None:
    result = run_cli("sparql", "SELECT ?s WHERE {\n  ?s a mtgkb:Step ;\n  FILTER( }")
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)  # a clean exit, not an escaped exception
    assert "Error: malformed SPARQL query at line 3, column" in result.stderr
    assert "FILTER( }" in result.stderr  # the offending line is quoted with a caret under it
    assert "^" in result.stderr


def test_an_unknown_prefix_is_named(run_cli, kb) -> None:
    result = run_cli("sparql", "SELECT ?s WHERE { ?s a nope:Thing }")
    assert result.exit_code == 2
    assert "unknown prefix 'nope:'" in result.stderr
    assert "line 1" in result.stderr


def test_params_bind_iris_and_prefixed_names(run_cli, kb) -> None:
    query = "SELECT ?step ?label WHERE { ?step rdfs:label ?label }"
    label = kb.select(query, step=mint("step", "declare-blockers"))[0]["label"]
    result = run_cli("sparql", query, "--param", "step=step:declare-blockers", "--format", "json")
    assert result.exit_code == 0, result.stderr
    bindings = json.loads(result.stdout)["results"]["bindings"]
    assert [b["label"]["value"] for b in bindings] == [label]


def test_a_parameter_binds_a_variable_the_query_does_not_return(run_cli, kb) -> None:
    query = "SELECT ?label WHERE { ?step a mtgkb:Step ; rdfs:label ?label }"
    expected = kb.select("SELECT ?label WHERE { step:end rdfs:label ?label }")
    result = run_cli("sparql", query, "-p", "step=step:end", "--format", "json")
    assert result.exit_code == 0, result.stderr
    labels = [b["label"]["value"] for b in json.loads(result.stdout)["results"]["bindings"]]
    assert labels == [row["label"] for row in expected] and len(labels) == 1


def test_a_parameter_with_a_bad_variable_name_exits_2(run_cli, kb) -> None:
    result = run_cli("sparql", "SELECT ?s WHERE { ?s ?p ?o }", "-p", "s p=x")
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


def test_run_query_table_rows_are_compact(kb) -> None:
    result = run_query(kb, "SELECT ?zone WHERE { ?zone a mtgkb:Zone } ORDER BY ?zone")
    assert result.form == "select" and result.serialized is None and result.write is None
    rows = list(result.rows)
    assert rows and all(row[0].startswith("zone:") for row in rows)


def test_cli_modules_do_not_import_rdflib_or_networkx() -> None:
    code = (
        "import sys, mtgkb.cli, mtgkb.cli.sparql, mtgkb.cli.export; "
        "print(sorted(m for m in ('rdflib', 'networkx', 'pyshacl') if m in sys.modules))"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "[]"


def test_values_go_to_every_group_pattern_that_uses_the_variable() -> None:
    from mtgkb.kb.sparql_bind import bind, variables

    query = (
        'SELECT ?a WHERE { ?a mtgkb:name "{x} ?m" . FILTER NOT EXISTS { ?a mtgkb:layout ?l } '
        "{ SELECT ?a WHERE { ?a mtgkb:hasAbility/mtgkb:instantiates ?m } } } # ?z"
    )
    bound = bind(query, {"m": ["<m>"], "l": ['"x"']})
    inner = bound.index("SELECT ?a WHERE {", 10)
    assert bound.count("VALUES ?m { <m> }") == 1 and bound.index("VALUES ?m") > inner
    assert bound.count('VALUES ?l { "x" }') == 1 and bound.index("VALUES ?l") < inner
    assert variables(query) == {"a", "l", "m"}


def test_values_go_into_each_union_branch_and_optional_using_the_variable() -> None:
    from mtgkb.kb.sparql_bind import bind

    query = (
        "SELECT ?ruling WHERE { { ?ruling mtgkb:aboutCard ?card } UNION { ?ruling mtgkb:mentions ?m } "
        "OPTIONAL { ?ruling mtgkb:values ?card } }"
    )
    bound = bind(query, {"card": ["<c>"], "m": ["<m1>", "<m2>"]})
    assert bound == (
        "SELECT ?ruling WHERE { { VALUES ?card { <c> }  ?ruling mtgkb:aboutCard ?card } UNION "
        "{ VALUES ?m { <m1> <m2> }  ?ruling mtgkb:mentions ?m } "
        "OPTIONAL { VALUES ?card { <c> }  ?ruling mtgkb:values ?card } }"
    )


def test_a_returned_variable_is_bound_in_the_where_clause_too() -> None:
    from mtgkb.kb.sparql_bind import bind

    bound = bind("SELECT ?x ?t WHERE { OPTIONAL { ?x mtgkb:text ?t } }", {"x": ["<a>", "<b>"]})
    assert bound.count("VALUES ?x { <a> <b> }") == 2 and bound.index("VALUES ?x") < bound.index("OPTIONAL")
    template = bind("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", {"s": ["<s>"]})
    assert template == "CONSTRUCT { ?s ?p ?o } WHERE { VALUES ?s { <s> }  ?s ?p ?o }"


def test_parameter_values_are_iris_strings_or_lists() -> None:
    from mtgkb.kb.sparql_text import PlainText, bind_values

    query = "SELECT ?s WHERE { ?s mtgkb:name ?name ; mtgkb:hasAbility ?a }"
    bound = bind_values(query, {"s": ["https://w3id.org/mtgkb/card/a", "https://w3id.org/mtgkb/card/b"]})
    assert "VALUES ?s { <https://w3id.org/mtgkb/card/a> <https://w3id.org/mtgkb/card/b> }" in bound
    assert 'VALUES ?name { "https://x" }' in bind_values(query, {"name": PlainText("https://x")})
    assert 'VALUES ?name { "say \\"hi\\"" }' in bind_values(query, {"name": 'say "hi"'})
    assert "VALUES ?a {  }" in bind_values(query, {"a": []})
