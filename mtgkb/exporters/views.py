"""Named views of the knowledge base for Gephi, Cytoscape and Graphviz: small subgraphs a person can
look at, instead of the full pool's million triples.

- ``partners``: the partner network. Cards are nodes (name, colour identity), each pair of cards that
  may be commanders together is one edge labelled with the partner ability that allows it and its
  rules; read from the mtgkb:CommanderPair nodes the store derives when it is built.
- ``turn``: phases and steps with their successor edges (the named graph data/turn).
- ``ninjutsu``: the ninjutsu mechanic and its variants, their requirements and rules, and every
  ability of them (had, granted or changed) with its card.
- ``around``: one card's neighbourhood, ``depth`` links out from it in either direction.

Every view but ``partners`` keeps the property-graph shape of :func:`mtgkb.exporters.writers.property_graph`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, TextIO

from mtgkb.core.errors import MtgkbError
from mtgkb.exporters.writers import ExportSummary, property_graph, write_property_graph
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDF_TYPE

if TYPE_CHECKING:
    import networkx as nx

    from mtgkb.kb.store import KnowledgeBase

VIEWS = ("partners", "turn", "ninjutsu", "around")
VIEW_FORMATS = ("graphml", "gexf", "dot", "cyjs")
#: Beyond this many nodes an "around" view stops growing: a rule cited by thousands of cards would
#: otherwise pull the whole pool in at depth 2.
MAX_AROUND_NODES = 2000


def export_view(
    kb: KnowledgeBase,
    view: str,
    fmt: str,
    stream: TextIO,
    around: str | None = None,
    depth: int = 1,
) -> ExportSummary:
    """Write the view ``view`` to ``stream`` in the property-graph format ``fmt``."""
    if view not in VIEWS:
        raise MtgkbError(f"unknown view '{view}'", f"use one of {', '.join(VIEWS)}")
    if fmt not in VIEW_FORMATS:
        raise MtgkbError(
            f"a view is a property graph, not '{fmt}'", f"use --format {', '.join(VIEW_FORMATS)}"
        )
    if view == "around" and not around:
        raise MtgkbError("the 'around' view needs a card", 'add --around "CARD NAME" (and --depth N)')
    started = time.perf_counter()
    graph, triples = _build(kb, view, around, depth)
    write_property_graph(graph, fmt, stream)
    return ExportSummary(
        fmt,
        f"view {view}" + (f" {around}" if view == "around" else ""),
        triples,
        graph.number_of_nodes(),
        graph.number_of_edges(),
        round(time.perf_counter() - started, 3),
    )


def _build(kb: KnowledgeBase, view: str, around: str | None, depth: int) -> tuple[nx.Graph, int]:
    if view == "partners":
        return partners_view(kb)
    if view == "turn":
        nodes = _iris(kb.select(library_query("view-turn")))
    elif view == "ninjutsu":
        nodes = _iris(kb.select(library_query("view-mechanic-family"), root=mint("mechanic", "ninjutsu")))
    else:
        from mtgkb.kb.iri_arguments import find_named

        nodes = neighbourhood(kb, find_named(kb, around or "", ("card",)).iri, depth)
    return _subgraph(kb, nodes, f"mtgkb {view}")


def _iris(rows: list[dict[str, Any]]) -> set[str]:
    """Every IRI in any column of ``rows``."""
    return {value for row in rows for value in row.values() if isinstance(value, str)}


def neighbourhood(kb: KnowledgeBase, start: str, depth: int) -> set[str]:
    """IRIs within ``depth`` IRI-valued links of ``start``, either way (class links left out)."""
    import pyoxigraph as ox

    found = {start}
    frontier = {start}
    for _ in range(max(depth, 0)):
        reached: set[str] = set()
        for iri in frontier:
            node = ox.NamedNode(iri)
            for quad in kb.store.quads_for_pattern(node, None, None, None):
                if isinstance(quad.object, ox.NamedNode) and quad.predicate.value != RDF_TYPE:
                    reached.add(quad.object.value)
            for quad in kb.store.quads_for_pattern(None, None, node, None):
                if isinstance(quad.subject, ox.NamedNode) and quad.predicate.value != RDF_TYPE:
                    reached.add(quad.subject.value)
        frontier = reached - found
        found |= frontier
        if len(found) > MAX_AROUND_NODES or not frontier:
            break
    return found


def _subgraph(kb: KnowledgeBase, nodes: set[str], name: str) -> tuple[nx.MultiDiGraph, int]:
    """Every triple whose subject is one of ``nodes``, each once; edges only between ``nodes``."""
    import pyoxigraph as ox

    triples: list[Any] = []
    for iri in sorted(nodes):
        seen: set[Any] = set()
        for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, None):
            if quad.triple not in seen:
                seen.add(quad.triple)
                triples.append(quad.triple)
    return property_graph(triples, name, keep=nodes), len(triples)


def partners_view(kb: KnowledgeBase) -> tuple[nx.Graph, int]:
    """The partner network as an undirected graph: cards with their colour identity, pairs as edges
    labelled with the partner ability (``label``) and its rules (``cites``)."""
    import networkx as nx

    from mtgkb.lookups.common import rule_number
    from mtgkb.reasoning.commander_model import load_cards
    from mtgkb.reasoning.commanders import card_identity

    rows = kb.select(library_query("view-partner-pairs"))
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        edge = edges.setdefault(
            (row["a"], row["b"]),
            {"label": row["label"], "mechanic": row["mechanic"], "pair": row["pair"], "cites": []},
        )
        if row["rule"]:
            edge["cites"].append(rule_number(row["rule"]))
    cards = load_cards(kb, sorted({iri for pair in edges for iri in pair}))
    graph = nx.Graph(name="mtgkb partners")
    for iri in sorted(cards):
        card = cards[iri]
        graph.add_node(iri, label=card.name, color_identity="".join(card_identity(card)[0]) or "C")
    for (first, second), data in sorted(edges.items()):
        graph.add_edge(first, second, **{**data, "cites": " ".join(sorted(set(data["cites"])))})
    triples = kb.select(library_query("partner-pair-triples"))
    return graph, int(triples[0]["n"])


def check_view_options(view: str | None, around: str | None, graph_name: str | None) -> None:
    if view is None and around:
        raise MtgkbError("--around goes with --view around", 'mtgkb export --view around --around "CARD"')
    if view is not None and graph_name:
        raise MtgkbError("--view and --graph cannot be combined", "pick one: a named view or a named graph")
