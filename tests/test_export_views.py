"""Named export views: small subgraphs for Gephi, Cytoscape and Graphviz."""

from __future__ import annotations

import io
import json

import networkx as nx
import pytest

from mtgkb.exporters.views import export_view, neighbourhood, partners_view
from mtgkb.kb.iris import card_iri, mint


def test_partners_view_has_cards_as_nodes_and_pairs_as_labelled_edges(kb) -> None:
    graph, _ = partners_view(kb)
    assert not graph.is_directed()
    thrasios, tymna = card_iri("Thrasios, Triton Hero"), card_iri("Tymna the Weaver")
    assert graph.nodes[thrasios]["label"] == "Thrasios, Triton Hero"
    assert graph.nodes[thrasios]["color_identity"] == "UG"
    assert graph.edges[thrasios, tymna]["label"] == "Partner"
    assert "702.124h" in graph.edges[thrasios, tymna]["cites"].split()
    assert not graph.has_edge(thrasios, card_iri("Pir, Imaginative Rascal"))
    pairs = kb.select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a mtgkb:CommanderPair }")[0]["n"]
    assert graph.number_of_edges() == pairs


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_partners_view_reads_back_with_networkx(kb, fmt: str) -> None:
    stream = io.StringIO()
    summary = export_view(kb, "partners", fmt, stream)
    reader = nx.parse_graphml if fmt == "graphml" else lambda text: nx.read_gexf(io.BytesIO(text.encode()))
    graph = reader(stream.getvalue())
    assert graph.number_of_edges() == summary.edges > 0
    labels = {data["label"] for _, _, data in graph.edges(data=True)}
    assert {"Partner", "Choose a Background", "Doctor's companion"} <= labels


def test_turn_view_is_the_chain_of_steps(kb) -> None:
    stream = io.StringIO()
    export_view(kb, "turn", "cyjs", stream)
    data = json.loads(stream.getvalue())
    nodes = {node["data"]["id"] for node in data["elements"]["nodes"]}
    assert mint("step", "declare-blockers") in nodes
    assert not any(node.startswith(mint("card", "x")[:-1]) for node in nodes)
    assert any(edge["data"]["label"] == "nextStep" for edge in data["elements"]["edges"])


def test_ninjutsu_view_holds_the_family_and_its_cards(kb) -> None:
    stream = io.StringIO()
    export_view(kb, "ninjutsu", "graphml", stream)
    graph = nx.parse_graphml(stream.getvalue())
    for node in (
        mint("mechanic", "ninjutsu"),
        mint("mechanic", "commander-ninjutsu"),
        card_iri("Yuriko, the Tiger's Shadow"),
        card_iri("Satoru Umezawa"),
        card_iri("Silver-Fur Master"),
    ):
        assert node in graph, node
    assert card_iri("Thrasios, Triton Hero") not in graph


def test_around_grows_with_depth(kb) -> None:
    yuriko = card_iri("Yuriko, the Tiger's Shadow")
    one, two = neighbourhood(kb, yuriko, 1), neighbourhood(kb, yuriko, 3)
    assert yuriko in one and one < two
    assert mint("mechanic", "commander-ninjutsu") in two


def test_cli_view_errors_are_messages(run_cli, kb) -> None:
    result = run_cli("export", "--view", "around")
    assert result.exit_code == 2 and "--around" in result.stderr
    result = run_cli("export", "--view", "partners", "--format", "ttl")
    assert result.exit_code == 2 and "graphml" in result.stderr
    result = run_cli("export", "--view", "partners", "--graph", "data/turn")
    assert result.exit_code == 2


def test_cli_view_defaults_to_graphml(run_cli, kb) -> None:
    result = run_cli("export", "--view", "partners", "-q")
    assert result.exit_code == 0
    assert nx.parse_graphml(result.stdout).number_of_edges() > 0
