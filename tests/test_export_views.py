"""Named export views: small subgraphs for Gephi, Cytoscape and Graphviz."""

from __future__ import annotations

import io
import json
import re

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


def test_the_ninjutsu_view_holds_the_whole_family_the_help_promises(kb, run_cli) -> None:
    stream = io.StringIO()
    export_view(kb, "ninjutsu", "graphml", stream)
    graph = nx.parse_graphml(stream.getvalue())
    family = {"ninjutsu", "commander-ninjutsu", "sneak", "web-slinging"}
    assert {mint("mechanic", slug) for slug in family} <= set(graph)
    # Their cards come along: the sneak and web-slinging cards of the bundled set.
    assert card_iri("Splinter, Hamato Yoshi") in graph
    with_web_slinging = kb.select(
        "SELECT ?card WHERE { ?card mtgkb:hasAbility/mtgkb:instantiates mechanic:web-slinging }"
    )
    assert with_web_slinging and {row["card"] for row in with_web_slinging} <= set(graph)
    assert all(word in run_cli("export", "--help").stdout for word in ("sneak", "web-slinging"))


def test_the_turn_view_has_no_link_of_a_node_to_itself(kb) -> None:
    stream = io.StringIO()
    export_view(kb, "turn", "cyjs", stream)
    edges = json.loads(stream.getvalue())["elements"]["edges"]
    assert edges and not [edge["data"] for edge in edges if edge["data"]["source"] == edge["data"]["target"]]
    # The main phase's place in the turn is still there, through its successors.
    main = mint("phase", "precombat-main")
    assert any(edge["data"]["source"] == main and edge["data"]["label"] == "nextPhase" for edge in edges)


@pytest.mark.parametrize(
    ("around", "centre"),
    [
        ("ninjutsu", mint("mechanic", "ninjutsu")),
        ("declare blockers step", mint("step", "declare-blockers")),
        ("702.49d", mint("cr", "702.49d")),
        ("command zone", mint("zone", "command")),
        ("commander tax", mint("concept", "commander-tax")),
        ("Yuriko, the Tiger's Shadow", card_iri("Yuriko, the Tiger's Shadow")),
    ],
)
def test_around_takes_what_the_explorer_takes(run_cli, kb, around: str, centre: str) -> None:
    result = run_cli("export", "--view", "around", "--around", around, "--format", "cyjs", "-q")
    assert result.exit_code == 0, result.output
    nodes = {node["data"]["id"]: node["data"] for node in json.loads(result.stdout)["elements"]["nodes"]}
    assert centre in nodes and len(nodes) > 1
    # Every node has a label a person reads, never an IRI.
    assert all(data["label"] and "://" not in data["label"] for data in nodes.values())


def test_around_an_unknown_name_suggests_and_around_needs_its_view(run_cli, kb) -> None:
    result = run_cli("export", "--view", "around", "--around", "ninjutzu")
    assert result.exit_code == 2 and "Ninjutsu" in result.stderr
    result = run_cli("export", "--view", "turn", "--around", "ninjutsu")
    assert result.exit_code == 2 and "--around goes with --view around" in result.stderr


_DOT_NODE = re.compile(
    r'^\s*"([^"]+)" \[label="(?:[^"\\]|\\.)*", tooltip="[^"]*", shape=(\w+), .*fillcolor="(#[0-9a-f]{6})"'
)


def _dot_styles(text: str) -> dict[str, tuple[str, str]]:
    return {
        m.group(1): (m.group(2), m.group(3)) for line in text.splitlines() if (m := _DOT_NODE.match(line))
    }


@pytest.mark.parametrize("source", ["view", "graph"])
def test_dot_shapes_and_colours_say_each_nodes_kind(kb, run_cli, source: str) -> None:
    from mtgkb.exporters.property_nodes import DOT_STYLES

    if source == "view":
        text = run_cli("export", "--view", "ninjutsu", "--format", "dot", "-q").stdout
    else:
        text = run_cli("export", "--format", "dot", "-q").stdout
    styles = _dot_styles(text)
    expected = {
        card_iri("Yuriko, the Tiger's Shadow"): DOT_STYLES["card"],
        mint("mechanic", "ninjutsu"): DOT_STYLES["mechanic"],
        mint("requirement", "unblocked-attacker-you-control"): DOT_STYLES["requirement"],
        mint("cr", "702.49a"): DOT_STYLES["rule"],
    }
    for iri, style in expected.items():
        assert styles.get(iri) == style, iri
    # Each kind its own look.
    assert len(set(DOT_STYLES.values())) == len(DOT_STYLES)


def test_on_the_pool_around_a_card_does_not_go_through_its_legalities(run_cli_on_pool) -> None:
    """A card's legalities node links to every card legal in the same formats: around Yuriko at depth
    2 pulled unrelated commanders in through it."""
    result = run_cli_on_pool(
        "export",
        "--view",
        "around",
        "--around",
        "Yuriko, the Tiger's Shadow",
        "--depth",
        "2",
        "--format",
        "cyjs",
        "-q",
    )
    assert result.exit_code == 0, result.output
    nodes = [node["data"] for node in json.loads(result.stdout)["elements"]["nodes"]]
    assert [node["label"] for node in nodes if node["kind"] == "card"] == ["Yuriko, the Tiger's Shadow"]
    legalities = [node for node in nodes if node["kind"] == "legalities"]
    assert len(legalities) == 1 and legalities[0]["label"].startswith("legal in ")
    rulings = [node["label"] for node in nodes if node["kind"] == "ruling"]
    assert len(rulings) == len(set(rulings)) == 4
