"""Pieces the lookups share: nodes read from ``?s ?p ?o`` rows, rule numbers and kinds of node (a
named node is found by :func:`mtgkb.kb.iri_arguments.find_named`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.kb.iris import mint, namespace
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V

if TYPE_CHECKING:
    from mtgkb.core.errors import NotFoundError
    from mtgkb.kb.store import KnowledgeBase

RULE_PREFIX = namespace("cr")

#: The kind a user sees for a node, from its most telling class (a main phase is a Phase and a Step).
_KIND_BY_CLASS = [
    (V.Card, "card"),
    (V.Face, "face"),
    (V.MeldedFace, "melded face"),
    (V.PrototypeCharacteristics, "prototype"),
    (V.Layout, "layout"),
    (V.Ruling, "ruling"),
    (V.RuleVersion, "rule version"),
    (V.Rule, "rule"),
    (V.GlossaryEntry, "glossary entry"),
    (V.Mechanic, "mechanic"),
    (V.Phase, "phase"),
    (V.Step, "step"),
    (V.Zone, "zone"),
    (V.Requirement, "requirement"),
    (V.RulesConcept, "concept"),
    (V.CopyRule, "concept"),  # the store does no subclass inference
    (V.Ability, "ability"),
    (V.ActivatedAbility, "ability"),
    (V.StaticAbility, "ability"),
    (V.TriggeredAbility, "ability"),
    (V.KeywordAbility, "ability"),
    (V.Edition, "edition"),
]


def kind_of(classes: list[str] | set[str]) -> str:
    for iri, kind in _KIND_BY_CLASS:
        if iri in classes:
            return kind
    return "node"


@dataclass
class Node:
    """Every value of every property of one node, in the order the query returned them."""

    iri: str
    values: dict[str, list[Any]] = field(default_factory=dict)

    def first(self, predicate: str) -> Any:
        found = self.values.get(predicate)
        return found[0] if found else None

    def all(self, predicate: str) -> list[Any]:
        return list(self.values.get(predicate, []))

    @property
    def classes(self) -> list[str]:
        return self.all(RDF_TYPE)

    @property
    def label(self) -> str | None:
        return self.first(V.name) or self.first(RDFS_LABEL)


@dataclass
class Graph:
    """The nodes a report needs, plus the label of every IRI they point to."""

    nodes: dict[str, Node]
    labels: dict[str, str]

    def node(self, iri: str) -> Node:
        return self.nodes.get(iri) or Node(iri)

    def label(self, iri: str) -> str | None:
        return self.labels.get(iri) or self.node(iri).label


def read_graph(rows: list[dict[str, Any]]) -> Graph:
    """Group ``?s ?p ?o ?olabel`` rows into nodes, without repeating a value."""
    nodes: dict[str, Node] = {}
    labels: dict[str, str] = {}
    for row in rows:
        node = nodes.setdefault(row["s"], Node(row["s"]))
        values = node.values.setdefault(row["p"], [])
        if row["o"] not in values:
            values.append(row["o"])
        if row.get("olabel") and isinstance(row["o"], str):
            labels.setdefault(row["o"], row["olabel"])
    return Graph(nodes, labels)


def rule_number(iri: str) -> str:
    """``.../cr/702.49d`` -> ``702.49d``."""
    return iri.removeprefix(RULE_PREFIX)


#: The named graphs of the card imports and the start of those of the rules imports.
_CARD_IMPORT_GRAPHS = (mint("graph", "mtgjson"), mint("graph", "scryfall-cards"))
_RULES_IMPORT_GRAPHS = namespace("graph") + "cr/"
CARDS_HINT = (
    "the bundled knowledge base holds only a starter set of cards: import the full card pool with "
    "'mtgkb fetch cards' or 'mtgkb import mtgjson FILE' (see 'mtgkb import --help')"
)
RULES_HINT = (
    "the bundled knowledge base holds only the rules it cites, without their text: import the "
    "Comprehensive Rules with 'mtgkb fetch rules' or 'mtgkb import rules FILE'"
)


def cards_imported(kb: KnowledgeBase) -> bool:
    return any(graph in kb.meta.get("graphs", {}) for graph in _CARD_IMPORT_GRAPHS)


def rules_imported(kb: KnowledgeBase) -> bool:
    return any(graph.startswith(_RULES_IMPORT_GRAPHS) for graph in kb.meta.get("graphs", {}))


def with_import_hint(error: NotFoundError, hint: str) -> NotFoundError:
    """``error`` whose hint also says how to import what the bundled knowledge base lacks."""
    sentence = hint[0].upper() + hint[1:] + "."
    error.hint = f"{error.hint} {sentence}" if error.hint else sentence
    return error
