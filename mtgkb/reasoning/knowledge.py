"""What the verdicts read from the store: mechanics with their requirements, timings, waivers and
outcomes, counting rules such as commander tax, the turn's steps, labels, and the facts and
abilities of the cards a situation names. Two queries, whatever the size of the card pool."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V
from mtgkb.lookups.common import rule_number

if TYPE_CHECKING:
    from pathlib import Path

    from mtgkb.kb.store import KnowledgeBase


class Term(NamedTuple):
    """A value as the store holds it: ``sparql`` to write it into a query, ``value`` for Python."""

    sparql: str
    value: Any

    @property
    def is_iri(self) -> bool:
        return self.sparql.startswith("<")


@dataclass
class Node:
    iri: str
    values: dict[str, list[Term]] = field(default_factory=dict)

    def terms(self, predicate: str) -> list[Term]:
        return self.values.get(predicate, [])

    def all(self, predicate: str) -> list[Any]:
        return [t.value for t in self.terms(predicate)]

    def first(self, predicate: str) -> Any:
        found = self.all(predicate)
        return found[0] if found else None

    @property
    def cites(self) -> list[str]:
        return [rule_number(iri) for iri in self.all(V.citesRule)]


@dataclass
class RulesData:
    """Every mechanic, requirement, timing, outcome and counting rule, keyed by IRI."""

    nodes: dict[str, Node]
    labels: dict[str, str]

    def node(self, iri: str) -> Node:
        return self.nodes.get(iri) or Node(iri)

    def label(self, iri: str) -> str:
        return self.labels.get(iri) or iri.rsplit("/", 1)[-1].rsplit("#", 1)[-1]

    def of_type(self, cls: str) -> list[Node]:
        return [n for n in self.nodes.values() if cls in n.all(RDF_TYPE)]

    def mechanic_lineage(self, mechanic: str) -> list[str]:
        """The mechanic and every mechanic it is a variant of: commander ninjutsu, then ninjutsu."""
        found, todo = [], [mechanic]
        while todo:
            current = todo.pop()
            if current not in found:
                found.append(current)
                todo += self.node(current).all(V.variantOf)
        return found

    def counting_rules(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.terms(V.countsAction)]

    def state_actions(self, state: str) -> list[Node]:
        """The mechanics an object may use by how it came to be where it is, no ability of its card's:
        those with a requirement on ``state`` (requiresFaceDownAs: manifest, cloak; requiresExiledAs:
        a plotted card, an adventurer card in exile), less those an ability opens (mtgkb:enabledBy) or
        is (a keyword)."""
        return [
            n
            for n in self.of_type(V.Mechanic)
            if not n.terms(V.enabledBy)
            and not n.terms(V.keyword)  # a keyword's way comes with the card's ability (madness)
            and any(self.node(r).terms(state) for r in n.all(V.hasRequirement))
        ]

    def enabled_by(self, mechanic: str) -> list[Node]:
        """The mechanics an ability of ``mechanic`` opens (casting face down, for morph)."""
        return [n for n in self.of_type(V.Mechanic) if mechanic in n.all(V.enabledBy)]


def read_rules(kb: KnowledgeBase) -> RulesData:
    """The rules data, from a cache file beside the store when there is one: a store never changes
    once built (a changed source makes a new one), so what it says of mechanics never does either."""
    import hashlib

    from mtgkb.kb.query_files import library_query

    # Named after the query: a changed query makes a new file.
    digest = hashlib.sha256(library_query("verdict-rules").encode()).hexdigest()[:8]
    cache = kb.path / f"verdict-rules-{digest}.json"
    # A server answers many verdicts on one store: the file is read once per process. Each verdict
    # gets its own dict of nodes, since it adds the nodes of the card it asks about.
    known = _READ.get(cache)
    if known is not None:
        return RulesData(dict(known.nodes), known.labels)
    rules = _read_rules_file(kb, cache)
    _READ[cache] = rules
    return RulesData(dict(rules.nodes), rules.labels)


_READ: dict[object, RulesData] = {}


def _read_rules_file(kb: KnowledgeBase, cache: Path) -> RulesData:
    import json

    try:
        saved = json.loads(cache.read_text(encoding="utf-8"))
        nodes = {
            iri: Node(iri, {p: [Term(*t) for t in terms] for p, terms in values.items()})
            for iri, values in saved["nodes"].items()
        }
        return RulesData(nodes, saved["labels"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    rules = _query_rules(kb)
    try:
        temporary = cache.with_suffix(f".{os.getpid()}.tmp")
        saved = {"nodes": {iri: n.values for iri, n in rules.nodes.items()}, "labels": rules.labels}
        temporary.write_text(json.dumps(saved), encoding="utf-8")
        os.replace(temporary, cache)
    except OSError:
        pass  # a read-only cache folder: answer all the same, from the store
    return rules


def _query_rules(kb: KnowledgeBase) -> RulesData:
    from mtgkb.kb.query_files import library_query

    whole, labelled = [], []
    for row in kb.raw_query(library_query("verdict-rules")):
        (whole if row["whole"].value == "true" else labelled).append(row["s"].value)
    nodes = _group(kb.raw_query(library_query("node-facts"), {"s": whole}))
    labels = {iri: n.first(RDFS_LABEL) for iri, n in nodes.items() if n.first(RDFS_LABEL)}
    rows = kb.raw_query(library_query("node-labels"), {"s": labelled})
    labels.update({row["s"].value: row["o"].value for row in rows})
    return RulesData(nodes, labels)


def read_cards(kb: KnowledgeBase, cards: set[str]) -> dict[str, Node]:
    """The facts of ``cards`` and of their abilities (granted ones included), keyed by IRI."""
    if not cards:
        return {}
    from mtgkb.kb.query_files import library_query

    return _group(kb.raw_query(library_query("verdict-cards"), {"card": sorted(cards)}))


def _group(solutions: Any) -> dict[str, Node]:
    from mtgkb.kb.sparql_text import to_python

    nodes: dict[str, Node] = {}
    seen: set[tuple[str, str, str]] = set()
    for subject, predicate, obj in solutions:
        key = (subject.value, predicate.value, str(obj))
        if key in seen:
            continue
        seen.add(key)
        node = nodes.get(key[0]) or nodes.setdefault(key[0], Node(key[0]))
        node.values.setdefault(key[1], []).append(Term(key[2], to_python(obj)))
    return nodes
