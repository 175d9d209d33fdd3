"""What the explorer page draws: names that complete a search, a node's neighbourhood, a node's details.

The neighbourhood is read from the default graph (each fact once): every IRI-valued link from and to
the node, class links left out, capped so that a rule cited by thousands of cards stays drawable (the
links left out are counted). Node kinds are those the lookups use (card, mechanic, step, rule, …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.iris import mint
from mtgkb.kb.sparql import compact_iri
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V
from mtgkb.lookups.common import kind_of

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_RULE_NUMBER = re.compile(r"^\d{3}(\.\d+[a-z]?)?\.?$")
_RDFS_CLASS = "http://www.w3.org/2000/01/rdf-schema#Class"


@dataclass
class NamedNode:
    iri: str
    label: str
    kind: str


@dataclass
class NameCompletions:
    text: str
    matches: list[NamedNode]


@dataclass
class Link:
    source: str
    target: str
    label: str  # the property's prefixed name
    predicate: str


@dataclass
class Neighbourhood:
    """The node, its neighbours and the links between it and them; ``left_out`` links were not drawn."""

    node: NamedNode
    nodes: list[NamedNode]
    links: list[Link]
    left_out: int = 0


@dataclass
class NodeDetails:
    node: NamedNode
    types: list[str]
    values: dict[str, list[str]] = field(default_factory=dict)  # literal values by property


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
    if _RULE_NUMBER.match(number) and _exists(kb, mint("cr", number)):
        found.append(NamedNode(mint("cr", number), f"rule {number}", "rule"))
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


def resolve_node(kb: KnowledgeBase, text: str) -> str:
    """The IRI of ``text``: an IRI, a prefixed name, a rule number, or a name the knowledge base knows."""
    from mtgkb.kb.iri_arguments import resolve_iri

    value = text.strip()
    if not value:
        raise MtgkbError("name a node: a card, mechanic, step, zone, rule number or IRI")
    number = value.rstrip(".")
    if _RULE_NUMBER.match(number):
        iri = mint("cr", number)
        if _exists(kb, iri):
            return iri
        raise NotFoundError("rule", number, [])
    iri = resolve_iri(kb, value, None) if "://" in value or ":" in value else None
    if iri is None:
        from mtgkb.kb.names import resolve

        iri = resolve(kb.names, value, ("card", "mechanic", "step", "zone", "concept", "melded")).iri
    if not _exists(kb, iri):
        raise NotFoundError("node", value, [])
    return iri


def neighbourhood(kb: KnowledgeBase, text: str, limit: int = 40) -> Neighbourhood:
    """The node ``text`` names and up to ``limit`` of its neighbours, outgoing links first."""
    import pyoxigraph as ox

    iri = resolve_node(kb, text)
    node = ox.NamedNode(iri)
    default = ox.DefaultGraph()
    links: list[Link] = []
    seen: set[tuple[str, str, str]] = set()
    total = 0
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
            if len(links) < limit:
                links.append(Link(key[0], key[2], compact_iri(key[1]), key[1]))
    neighbours = sorted({link.target for link in links} | {link.source for link in links} - {iri})
    return Neighbourhood(
        describe(kb, iri), [describe(kb, other) for other in neighbours], links, total - len(links)
    )


def node_details(kb: KnowledgeBase, text: str) -> NodeDetails:
    """The node's label, kind, classes and every literal value it has (text, dates, costs, …)."""
    import pyoxigraph as ox

    iri = resolve_node(kb, text)
    values: dict[str, list[str]] = {}
    types: list[str] = []
    for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, ox.DefaultGraph()):
        if quad.predicate.value == RDF_TYPE:
            types.append(compact_iri(quad.object.value))
        elif isinstance(quad.object, ox.Literal):
            bucket = values.setdefault(compact_iri(quad.predicate.value), [])
            if quad.object.value not in bucket:
                bucket.append(quad.object.value)
    return NodeDetails(describe(kb, iri), sorted(types), values)


def describe(kb: KnowledgeBase, iri: str) -> NamedNode:
    """The node's label (name, label, rule number, or its prefixed IRI) and kind."""
    import pyoxigraph as ox

    node = ox.NamedNode(iri)
    classes: set[str] = set()
    label: str | None = None
    for quad in kb.store.quads_for_pattern(node, None, None, ox.DefaultGraph()):
        predicate = quad.predicate.value
        if predicate == RDF_TYPE:
            classes.add(quad.object.value)
        elif predicate in (V.name, RDFS_LABEL) and label is None:
            label = quad.object.value
    kind = kind_of(classes)
    if kind == "node" and _RDFS_CLASS in classes:
        kind = "class"
    if kind == "rule":
        label = f"{label} ({iri.rsplit('/', 1)[-1]})" if label else f"rule {iri.rsplit('/', 1)[-1]}"
    elif kind == "ruling":
        label = _ruling_label(kb, node)
    return NamedNode(iri, label or compact_iri(iri), kind)


def _ruling_label(kb: KnowledgeBase, node: Any) -> str:
    import pyoxigraph as ox

    for quad in kb.store.quads_for_pattern(node, ox.NamedNode(V.rulingDate), None, ox.DefaultGraph()):
        return f"ruling {quad.object.value}"
    return "ruling"


def _exists(kb: KnowledgeBase, iri: str) -> bool:
    import pyoxigraph as ox

    node = ox.NamedNode(iri)
    default = ox.DefaultGraph()
    return any(True for _ in kb.store.quads_for_pattern(node, None, None, default)) or any(
        True for _ in kb.store.quads_for_pattern(None, None, node, default)
    )
