"""What the explorer page draws: names that complete a search, a node's neighbourhood, a node's details.

The neighbourhood is read from the default graph (each fact once): every IRI-valued link from and to
the node, class links left out, capped so that a rule cited by thousands of cards stays drawable (the
links left out are counted). A hub (a card's legalities, a class: :mod:`mtgkb.exporters.nodes`) is
drawn beside the node that links to it, but expanding it does not draw the many nodes that share
it. Every node comes with a human label and its kind (card, mechanic, step, rule, ruling, …), and a
node's details name its properties and classes by their labels in the ontology.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.exporters.nodes import (
    RULE_NUMBER,
    NamedNode,
    describe,
    exists,
    is_hub,
    label_of_term,
    literal_values,
    resolve_node,
)
from mtgkb.kb.iris import mint
from mtgkb.kb.sparql import compact_iri
from mtgkb.kb.vocab import RDF_TYPE

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

__all__ = ["NamedNode", "complete", "describe", "neighbourhood", "node_details", "resolve_node"]


@dataclass
class NameCompletions:
    text: str
    matches: list[NamedNode]


@dataclass
class Link:
    source: str
    target: str
    label: str  # the property's label in the ontology ("about card"), else its local name
    predicate: str


@dataclass
class Neighbourhood:
    """The node, its neighbours and the links between it and them; ``left_out`` links were not drawn."""

    node: NamedNode
    nodes: list[NamedNode]
    links: list[Link]
    left_out: int = 0


@dataclass
class Property:
    """One property of a node as the details pane shows it: its label in the ontology and its values."""

    property: str  # prefixed name
    label: str
    values: list[str]


@dataclass
class NodeLink:
    """A link from the node to another, by the property's label."""

    property: str
    label: str
    target: NamedNode


@dataclass
class NodeDetails:
    node: NamedNode
    types: list[str]  # prefixed names of its classes
    values: dict[str, list[str]] = field(default_factory=dict)  # literal values by prefixed property
    type_labels: list[str] = field(default_factory=list)  # its classes, as the ontology labels them
    properties: list[Property] = field(default_factory=list)  # its literal values, labelled
    links: list[NodeLink] = field(default_factory=list)  # its links to other nodes (the first few)
    links_left_out: int = 0


_NORMALISED: dict[str, list[tuple[str, str, str, str]]] = {}


def complete(kb: KnowledgeBase, text: str, limit: int = 12) -> NameCompletions:
    """Names of cards, mechanics, steps, zones and concepts that start with ``text`` (then those that
    hold it), and the rule when ``text`` is a rule number."""
    from mtgkb.kb.names import normalise

    wanted = normalise(text)
    if not wanted:
        return NameCompletions(text, [])
    found: list[NamedNode] = []
    number = text.strip().rstrip(".")
    if RULE_NUMBER.match(number) and exists(kb, mint("cr", number)):
        found.append(describe(kb, mint("cr", number)))
    index = _NORMALISED.get(str(kb.path))
    if index is None:
        index = sorted((normalise(name), name, iri, kind) for name, iri, kind in kb.names)
        _NORMALISED[str(kb.path)] = index
    starts = [entry for entry in index if entry[0].startswith(wanted)]
    holds = [entry for entry in index if wanted in entry[0] and not entry[0].startswith(wanted)]
    seen = {node.iri for node in found}
    for _, name, iri, kind in sorted(starts, key=lambda e: (len(e[0]), e[0])) + holds:
        if iri not in seen:
            seen.add(iri)
            found.append(NamedNode(iri, name, kind))
        if len(found) >= limit:
            break
    return NameCompletions(text, found)


def neighbourhood(kb: KnowledgeBase, text: str, limit: int = 40) -> Neighbourhood:
    """The node ``text`` names and up to ``limit`` of its neighbours, outgoing links first. A hub's
    incoming links (the cards sharing a legalities node) are counted, not drawn."""
    import pyoxigraph as ox

    iri = resolve_node(kb, text)
    node = ox.NamedNode(iri)
    default = ox.DefaultGraph()
    links: list[Link] = []
    seen: set[tuple[str, str, str]] = set()
    total = 0
    hub = is_hub(kb, iri)
    names: dict[str, str] = {}
    patterns = (
        (lambda: kb.store.quads_for_pattern(node, None, None, default), True),
        (lambda: kb.store.quads_for_pattern(None, None, node, default), False),
    )
    for quads, outgoing in patterns:
        for quad in quads():
            other = quad.object if outgoing else quad.subject
            if not isinstance(other, ox.NamedNode) or quad.predicate.value == RDF_TYPE:
                continue
            key = (quad.subject.value, quad.predicate.value, quad.object.value)
            if key in seen:
                continue
            seen.add(key)
            total += 1
            if len(links) < limit and (outgoing or not hub):
                links.append(Link(key[0], key[2], label_of_term(kb, key[1], names), key[1]))
    neighbours = sorted({link.target for link in links} | {link.source for link in links} - {iri})
    return Neighbourhood(
        describe(kb, iri), [describe(kb, other) for other in neighbours], links, total - len(links)
    )


#: The links to other nodes a node's details list, at most.
DETAIL_LINKS = 30


def node_details(kb: KnowledgeBase, text: str) -> NodeDetails:
    """The node's label, kind, classes and every literal value it has (text, dates, costs, …), each
    property and class by its label in the ontology, and its first links to other nodes."""
    import pyoxigraph as ox

    iri = resolve_node(kb, text)
    classes, raw = literal_values(kb, iri)
    labels: dict[str, str] = {}
    properties = [
        Property(compact_iri(predicate), label_of_term(kb, predicate, labels), [str(v) for v in values])
        for predicate, values in raw.items()
    ]
    links: list[NodeLink] = []
    left_out = 0
    for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, ox.DefaultGraph()):
        predicate = quad.predicate.value
        if predicate == RDF_TYPE or not isinstance(quad.object, ox.NamedNode):
            continue
        if len(links) >= DETAIL_LINKS:
            left_out += 1
            continue
        target = describe(kb, quad.object.value)
        links.append(NodeLink(compact_iri(predicate), label_of_term(kb, predicate, labels), target))
    return NodeDetails(
        describe(kb, iri),
        sorted(compact_iri(c) for c in classes),
        {prop.property: prop.values for prop in properties},
        sorted(label_of_term(kb, c, labels) for c in classes),
        properties,
        links,
        left_out,
    )
