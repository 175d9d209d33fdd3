"""`mtgkb export`: RDF that round-trips, and property graphs that graph tools read back."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from mtgkb.exporters.writers import export, resolve_graph, short_name, to_networkx
from mtgkb.kb.iris import mint
from mtgkb.kb.store import graph_label
from mtgkb.kb.vocab import V

DECLARE_BLOCKERS = mint("step", "declare-blockers")
TURN_GRAPH = mint("graph", "data", "turn")


def _export(kb, fmt: str, graph: str | None = None) -> str:
    stream = io.StringIO()
    export(kb, fmt, stream, graph)
    return stream.getvalue()


def _distinct_triples(kb, graph: str | None = None) -> int:
    pattern = f"GRAPH <{graph}> {{ ?s ?p ?o }}" if graph else "?s ?p ?o"
    query = f"SELECT (COUNT(*) AS ?n) WHERE {{ SELECT DISTINCT ?s ?p ?o WHERE {{ {pattern} }} }}"
    return kb.select(query)[0]["n"]


def _label(kb, iri: str) -> str:
    return kb.select("SELECT ?iri ?label WHERE { ?iri rdfs:label ?label }", iri=iri)[0]["label"]


def _edges_from(kb, iri: str, predicate: str) -> set[str]:
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o FILTER(isIRI(?o)) }"
    return {row["o"] for row in kb.select(query, s=iri, p=predicate)}


@pytest.mark.parametrize(("fmt", "parser"), [("ttl", "turtle"), ("nt", "nt"), ("jsonld", "json-ld")])
def test_triple_formats_round_trip_through_rdflib(kb, fmt: str, parser: str) -> None:
    import rdflib

    graph = rdflib.Graph().parse(data=_export(kb, fmt), format=parser)
    assert len(graph) == _distinct_triples(kb)
    assert (
        rdflib.URIRef(DECLARE_BLOCKERS),
        rdflib.URIRef(V.nextStep),
        rdflib.URIRef(mint("step", "combat-damage")),
    ) in graph


def test_trig_keeps_every_named_graph(kb) -> None:
    import rdflib

    dataset = rdflib.Dataset()
    dataset.parse(data=_export(kb, "trig"), format="trig")
    counts = {str(g.identifier): len(g) for g in dataset.graphs() if len(g)}
    assert counts == kb.meta["graphs"]


def test_one_graph_only(kb) -> None:
    import rdflib

    graph = rdflib.Graph().parse(data=_export(kb, "ttl", TURN_GRAPH), format="turtle")
    assert len(graph) == _distinct_triples(kb, TURN_GRAPH) < _distinct_triples(kb)
    assert {str(s) for s in graph.subjects()} >= {DECLARE_BLOCKERS}


def test_graph_names_resolve_by_short_name_path_or_iri(kb) -> None:
    assert resolve_graph(kb, "data/turn") == resolve_graph(kb, "data/turn.ttl") == TURN_GRAPH
    assert resolve_graph(kb, TURN_GRAPH) == TURN_GRAPH
    assert graph_label(TURN_GRAPH) == "data/turn"


def test_property_graph_nodes_edges_and_attributes(kb) -> None:
    graph = to_networkx(kb)
    node = graph.nodes[DECLARE_BLOCKERS]
    assert node["label"] == _label(kb, DECLARE_BLOCKERS)
    assert "mtgkb:Step" in node["type"]
    assert node["blockedStatusDecided"] is True
    assert isinstance(node["stepOrder"], int)
    next_steps = {
        target
        for _, target, data in graph.out_edges(DECLARE_BLOCKERS, data=True)
        if data["label"] == "nextStep"
    }
    assert next_steps == _edges_from(kb, DECLARE_BLOCKERS, V.nextStep)
    # Literals never become nodes, and rdf:type is an attribute rather than an edge.
    assert all(data["label"] != "type" for _, _, data in graph.edges(data=True))


def test_short_names(kb) -> None:
    assert short_name(V.citesRule) == "citesRule"
    assert short_name("http://www.w3.org/2000/01/rdf-schema#label") == "label"
    assert short_name("http://www.w3.org/ns/shacl#path") == "sh:path"


def test_graphml_reads_back_with_networkx(kb) -> None:
    import networkx as nx

    graph = nx.parse_graphml(_export(kb, "graphml"), force_multigraph=True)
    expected = to_networkx(kb)
    assert graph.number_of_nodes() == expected.number_of_nodes()
    assert graph.number_of_edges() == expected.number_of_edges()
    assert graph.nodes[DECLARE_BLOCKERS]["label"] == _label(kb, DECLARE_BLOCKERS)
    labels = {data["label"] for _, _, data in graph.edges(data=True)}
    assert {"nextStep", "citesRule"} <= labels


def test_gexf_reads_back_with_networkx(kb) -> None:
    import networkx as nx

    text = _export(kb, "gexf", TURN_GRAPH)
    graph = nx.read_gexf(io.BytesIO(text.encode("utf-8")))
    expected = to_networkx(kb, TURN_GRAPH)
    assert graph.number_of_nodes() == expected.number_of_nodes()
    assert graph.number_of_edges() == expected.number_of_edges()
    assert graph.nodes[DECLARE_BLOCKERS]["label"] == _label(kb, DECLARE_BLOCKERS)
    targets = {
        v for _, v, data in graph.out_edges(DECLARE_BLOCKERS, data=True) if data["label"] == "nextStep"
    }
    assert targets == _edges_from(kb, DECLARE_BLOCKERS, V.nextStep)


_DOT_STRING = r'"((?:[^"\\]|\\.)*)"'
_DOT_NODE = re.compile(rf"^\s*{_DOT_STRING} \[label={_DOT_STRING}")
_DOT_EDGE = re.compile(rf"^\s*{_DOT_STRING} -> {_DOT_STRING} \[label={_DOT_STRING}\]")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def test_dot_quotes_every_id_and_label(kb) -> None:
    text = _export(kb, "dot")
    lines = text.splitlines()
    assert lines[0].startswith("digraph ") and lines[-1] == "}"
    nodes = {}
    edges = []
    for line in lines[1:-1]:
        if edge := _DOT_EDGE.match(line):
            edges.append(tuple(_unescape(group) for group in edge.groups()))
        elif node := _DOT_NODE.match(line):
            nodes[_unescape(node.group(1))] = _unescape(node.group(2))
        else:
            assert line.strip().startswith("node ["), line
    expected = to_networkx(kb)
    assert len(nodes) == expected.number_of_nodes() and len(edges) == expected.number_of_edges()
    assert nodes[DECLARE_BLOCKERS] == _label(kb, DECLARE_BLOCKERS)
    next_steps = {
        target for source, target, label in edges if source == DECLARE_BLOCKERS and label == "nextStep"
    }
    assert next_steps == _edges_from(kb, DECLARE_BLOCKERS, V.nextStep)
    # A label with a quote or a comma survives (card names are full of them).
    yuriko = mint("card", "Yuriko, the Tiger's Shadow")
    if yuriko in nodes:
        assert nodes[yuriko] == "Yuriko, the Tiger's Shadow"


def test_cytoscape_json_shape(kb) -> None:
    document = json.loads(_export(kb, "cyjs"))
    nodes = document["elements"]["nodes"]
    edges = document["elements"]["edges"]
    ids = {node["data"]["id"] for node in nodes}
    assert all({"id", "label"} <= node["data"].keys() for node in nodes)
    assert all({"source", "target", "label"} <= edge["data"].keys() for edge in edges)
    assert all(edge["data"]["source"] in ids and edge["data"]["target"] in ids for edge in edges)
    by_id = {node["data"]["id"]: node["data"] for node in nodes}
    assert by_id[DECLARE_BLOCKERS]["label"] == _label(kb, DECLARE_BLOCKERS)


def test_cli_writes_a_file_and_reports_on_stdout(run_cli, kb, tmp_path: Path) -> None:
    target = tmp_path / "turn.graphml"
    result = run_cli("export", "--format", "graphml", "--graph", "data/turn", "-o", str(target), "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["graph"] == "data/turn" and summary["output"] == str(target)
    assert summary["triples"] == _distinct_triples(kb, TURN_GRAPH)
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_cli_writes_data_to_stdout_and_the_summary_to_stderr(run_cli, kb) -> None:
    result = run_cli("export", "--format", "nt", "--graph", "data/turn")
    assert result.exit_code == 0, result.stderr
    assert len([line for line in result.stdout.splitlines() if line.strip()]) == _distinct_triples(
        kb, TURN_GRAPH
    )
    assert "exported graph data/turn" in result.stderr


def test_cli_unknown_graph_exits_2_with_suggestions(run_cli, kb) -> None:
    result = run_cli("export", "--graph", "data/trun")
    assert result.exit_code == 2
    assert "no graph named 'data/trun'" in result.stderr
    assert "data/turn" in result.stderr


def _same_value(a, b) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def _assert_same_graph(read_back, expected) -> None:
    """Nodes with the same attributes and the same edges (source, target, label), whatever the order."""
    assert set(read_back.nodes) == set(expected.nodes)
    for node, data in expected.nodes(data=True):
        got = read_back.nodes[node]
        assert set(got) == set(data), node
        assert all(_same_value(got[name], value) for name, value in data.items()), node
    edges = sorted((u, v, d["label"]) for u, v, d in read_back.edges(data=True))
    assert edges == sorted((u, v, d["label"]) for u, v, d in expected.edges(data=True))


def test_streamed_graphml_is_the_in_memory_graph(kb) -> None:
    import networkx as nx

    _assert_same_graph(nx.parse_graphml(_export(kb, "graphml"), force_multigraph=True), to_networkx(kb))


def test_streamed_gexf_is_the_in_memory_graph(kb) -> None:
    import networkx as nx

    read_back = nx.read_gexf(io.BytesIO(_export(kb, "gexf").encode("utf-8")))
    for _, data in read_back.nodes(data=True):
        data.pop("id", None)  # networkx's reader adds the GEXF id as an attribute
    _assert_same_graph(read_back, to_networkx(kb))


def test_streamed_cytoscape_json_is_networkx_s(kb) -> None:
    import networkx as nx

    streamed = json.loads(_export(kb, "cyjs"))
    expected = json.loads(json.dumps(nx.cytoscape_data(to_networkx(kb))))  # as written
    assert {key: value for key, value in streamed.items() if key != "elements"} == {
        key: value for key, value in expected.items() if key != "elements"
    }
    by_id = {node["data"]["id"]: node["data"] for node in expected["elements"]["nodes"]}
    assert {node["data"]["id"]: node["data"] for node in streamed["elements"]["nodes"]} == by_id

    def edges(document) -> list:
        return sorted(
            (e["data"]["source"], e["data"]["target"], e["data"]["label"], e["data"]["predicate"])
            for e in document["elements"]["edges"]
        )

    assert edges(streamed) == edges(expected)


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "dot", "cyjs", "nt", "ttl", "trig", "nq"])
def test_exports_of_the_whole_store_build_no_graph_in_memory(kb, fmt: str, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "networkx", None)  # importing it now fails
    monkeypatch.setitem(sys.modules, "rdflib", None)
    summary = export(kb, fmt, io.StringIO())
    assert summary.triples > 0


def test_n_quads_keep_every_named_graph(kb) -> None:
    import rdflib

    dataset = rdflib.Dataset()
    dataset.parse(data=_export(kb, "nq"), format="nquads")
    counts = {str(g.identifier): len(g) for g in dataset.graphs() if len(g)}
    assert counts == kb.meta["graphs"]
