"""Named views of the knowledge base for Gephi, Cytoscape and Graphviz: small subgraphs a person can
look at, instead of the full pool's million triples.

- ``partners``: the partner network. Cards are nodes (name, colour identity), each pair of cards that
  may be commanders together is one edge labelled with the partner ability that allows it and its
  rules; read from the mtgkb:CommanderPair nodes the store derives when it is built.
- ``turn``: phases and steps with their successor edges (the named graph data/turn).
- ``ninjutsu``: the ninjutsu family (ninjutsu and its variants, and the mechanics whose cost likewise
  returns a creature you control: sneak, web-slinging), their requirements and rules, and every
  ability of them (had, granted or changed) with its card.
- ``lineage``: one rule's versions across the imported editions (``--around 702.49``), each linked to
  the version it came from, its subrules' lines hanging off it (from the rules history).
- ``around``: the neighbourhood of one card, mechanic, step, zone, concept or rule, ``depth`` links
  out from it in either direction. A hub (a card's legalities, a class) is drawn but not gone
  through: the cards legal in the same formats are not each other's neighbours.

Every view but ``partners`` keeps the property-graph shape of
:func:`mtgkb.exporters.writers.property_graph`, with each node's human label
(:func:`mtgkb.exporters.nodes.describe`) and no link of a node to itself (a main phase is the one
step of its phase: a loop a picture does not need). A new view is one :func:`register` call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from mtgkb.core.errors import MtgkbError
from mtgkb.exporters.writers import ExportSummary, property_graph, write_property_graph
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDF_TYPE

if TYPE_CHECKING:
    import networkx as nx

    from mtgkb.kb.store import KnowledgeBase


@dataclass(frozen=True)
class ViewRequest:
    """What a view is asked for: the node at its centre (``--around``) and how far out (``--depth``)."""

    around: str | None = None
    depth: int = 1


#: A view's builder: the graph and how many triples it was read from.
Builder = Callable[["KnowledgeBase", ViewRequest], "tuple[nx.Graph, int]"]


@dataclass(frozen=True)
class View:
    name: str
    help: str  # a few words for ``mtgkb export --help``
    build: Builder
    needs_around: bool = False  # the view is drawn around the node --around names


#: Every named view, in the order the help lists them.
VIEWS: dict[str, View] = {}


def register(name: str, help: str, needs_around: bool = False) -> Callable[[Builder], Builder]:
    """Make the decorated builder the view ``name``."""

    def decorate(build: Builder) -> Builder:
        VIEWS[name] = View(name, help, build, needs_around)
        return build

    return decorate


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
    chosen = VIEWS.get(view)
    if chosen is None:
        raise MtgkbError(f"unknown view '{view}'", f"use one of {', '.join(VIEWS)}")
    if fmt not in VIEW_FORMATS:
        raise MtgkbError(
            f"a view is a property graph, not '{fmt}'", f"use --format {', '.join(VIEW_FORMATS)}"
        )
    if chosen.needs_around and not around:
        raise MtgkbError(
            f"the '{view}' view needs the node at its centre",
            'add --around "CARD NAME" (or a mechanic, step, zone, concept or rule number; and --depth N)',
        )
    started = time.perf_counter()
    graph, triples = chosen.build(kb, ViewRequest(around, depth))
    write_property_graph(graph, fmt, stream)
    return ExportSummary(
        fmt,
        f"view {view}" + (f" {around}" if chosen.needs_around else ""),
        triples,
        graph.number_of_nodes(),
        graph.number_of_edges(),
        round(time.perf_counter() - started, 3),
    )


@register("turn", "the phases and steps with their successors")
def turn_view(kb: KnowledgeBase, request: ViewRequest) -> tuple[nx.MultiDiGraph, int]:
    return _subgraph(kb, _iris(kb.select(library_query("view-turn"))), "mtgkb turn")


@register("ninjutsu", "the ninjutsu family: ninjutsu, commander ninjutsu, sneak, web-slinging")
def ninjutsu_view(kb: KnowledgeBase, request: ViewRequest) -> tuple[nx.MultiDiGraph, int]:
    rows = kb.select(library_query("view-mechanic-family"), root=mint("mechanic", "ninjutsu"))
    return _subgraph(kb, _iris(rows), "mtgkb ninjutsu")


@register("around", "one node's neighbourhood, with --around and --depth", needs_around=True)
def around_view(kb: KnowledgeBase, request: ViewRequest) -> tuple[nx.MultiDiGraph, int]:
    from mtgkb.exporters.nodes import resolve_node

    start = resolve_node(kb, request.around or "")
    return _subgraph(kb, neighbourhood(kb, start, request.depth), "mtgkb around")


@register("lineage", "a rule's versions across the imported editions, with --around RULE", needs_around=True)
def lineage_view(kb: KnowledgeBase, request: ViewRequest) -> tuple[nx.MultiDiGraph, int]:
    """The versions of one rule (and of its subrules) as nodes, each linked to the version it came
    from by the kind of change; read from the rules history, not the store."""
    import networkx as nx

    from mtgkb.kb.cr_history import read_history
    from mtgkb.lookups.rule_history import HistoryStep, rule_history

    history = read_history()
    report = rule_history(request.around or "", history=history)
    graph = nx.MultiDiGraph(name=f"mtgkb lineage {report.number}")

    def add_chain(steps: list[HistoryStep]) -> list[str]:
        nodes = []
        for step in steps:
            if step.change == "removed":
                continue
            node = mint("version", step.number, step.edition)
            span = step.edition if step.until == step.edition else f"{step.edition} to {step.until}"
            graph.add_node(
                node,
                label=f"{step.number} ({span})",
                kind="rule version",
                number=step.number,
                valid_from=step.edition,
                valid_until=step.until,
                change=step.change,
            )
            if nodes:
                graph.add_edge(nodes[-1], node, label=step.change, predicate="mtgkb:previousVersion")
            nodes.append(node)
        return nodes

    rule_nodes = add_chain(report.history)
    spans = {node: graph.nodes[node]["valid_from"] for node in rule_nodes}
    for subrule in report.subrules:
        nodes = add_chain(subrule.history)
        if not nodes:
            continue
        # A subrule's line hangs off the version of its rule in force when the subrule began.
        began = graph.nodes[nodes[0]]["valid_from"]
        parent = max((n for n in rule_nodes if spans[n] <= began), key=lambda n: spans[n], default=None)
        if parent is not None:
            graph.add_edge(nodes[0], parent, label="subrule of", predicate="mtgkb:parentRule")
    return graph, graph.number_of_nodes()


def _iris(rows: list[dict[str, Any]]) -> set[str]:
    """Every IRI in any column of ``rows``."""
    return {value for row in rows for value in row.values() if isinstance(value, str)}


def neighbourhood(kb: KnowledgeBase, start: str, depth: int) -> set[str]:
    """IRIs within ``depth`` IRI-valued links of ``start``, either way (class links left out); a hub
    other than ``start`` is reached but not gone through."""
    import pyoxigraph as ox

    from mtgkb.exporters.nodes import is_hub

    found = {start}
    frontier = {start}
    for _ in range(max(depth, 0)):
        reached: set[str] = set()
        for iri in frontier:
            if iri != start and is_hub(kb, iri):
                continue
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
    """Every triple whose subject is one of ``nodes``, each once; edges only between ``nodes``, none
    from a node to itself; each node labelled as a person reads it."""
    import pyoxigraph as ox

    from mtgkb.exporters.nodes import describe

    triples: list[Any] = []
    for iri in sorted(nodes):
        seen: set[Any] = set()
        for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, None):
            if quad.triple not in seen and quad.object != quad.subject:
                seen.add(quad.triple)
                triples.append(quad.triple)
    graph = property_graph(triples, name, keep=nodes)
    for node, data in graph.nodes(data=True):
        if not node.startswith("_:"):
            described = describe(kb, node)
            data["label"], data["kind"] = described.label, described.kind
    return graph, len(triples)


@register("partners", "the partner network: cards, and an edge per pair that may lead a deck")
def partners_view(kb: KnowledgeBase, request: ViewRequest | None = None) -> tuple[nx.Graph, int]:
    """The partner network as an undirected graph: cards with their colour identity, pairs as edges
    labelled with the partner ability (``label``) and its rules (``cites``)."""
    import networkx as nx

    from mtgkb.lookups.common import rule_number
    from mtgkb.reasoning.commanders.model import load_cards
    from mtgkb.reasoning.commanders.verdict import card_identity

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
        graph.add_node(
            iri, label=card.name, kind="card", color_identity="".join(card_identity(card)[0]) or "C"
        )
    for (first, second), data in sorted(edges.items()):
        graph.add_edge(first, second, **{**data, "cites": " ".join(sorted(set(data["cites"])))})
    triples = kb.select(library_query("partner-pair-triples"))
    return graph, int(triples[0]["n"])


def check_view_options(view: str | None, around: str | None, graph_name: str | None) -> None:
    if view is None and around:
        raise MtgkbError("--around goes with --view around", 'mtgkb export --view around --around "CARD"')
    if view is not None and around and not VIEWS[view].needs_around:
        raise MtgkbError(f"--around goes with --view around, not --view {view}", "leave --around out")
    if view is not None and graph_name:
        raise MtgkbError("--view and --graph cannot be combined", "pick one: a named view or a named graph")
