"""Nodes as a person looks at them, shared by the named views (``mtgkb export --view``) and the explorer
page: the node a user names, a human label and kind for any node, and the hubs a neighbourhood does
not grow through.

- A user names a card, mechanic, step, zone or rules concept by its name, a rule by its number, or
  any node by its IRI or prefixed name (:func:`resolve_node`).
- Every node has a label a judge can read (:func:`describe`): its name or ``rdfs:label``; a rule its
  number and title; a ruling its card, date and the start of its text (a card's rulings of one day
  told apart); a node with no label of its own its class's label from the ontology and what it holds
  (a card's legalities: "legal in 13 formats"). Never a raw IRI.
- A hub is a node many unrelated nodes share: a legalities node (every card legal in the same formats
  links to it), a class of the ontology. A neighbourhood shows a hub next to a node, but never
  reaches through it to the others that share it (:func:`is_hub`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V
from mtgkb.lookups.common import kind_of

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

RULE_NUMBER = re.compile(r"^\d{3}(\.\d+[a-z]?)?\.?$")
_RDFS_CLASS = PREFIXES["rdfs"] + "Class"
_OWL_CLASS = PREFIXES["owl"] + "Class"
#: Classes whose nodes are hubs: shared by many nodes that have nothing else in common.
HUB_CLASSES = frozenset({V.Legalities, _RDFS_CLASS, _OWL_CLASS})
#: The kinds a user names a node by, in order of preference when a name fits several.
NAMED_KINDS = ("card", "mechanic", "step", "zone", "concept", "melded")
#: How much of a ruling's text its label quotes.
EXCERPT = 48
_LEGALITY = ((V.legalIn, "legal in"), (V.bannedIn, "banned in"), (V.restrictedIn, "restricted in"))


@dataclass
class NamedNode:
    iri: str
    label: str
    kind: str


def resolve_node(kb: KnowledgeBase, text: str) -> str:
    """The IRI of ``text``: an IRI, a prefixed name, a rule number, or a name the knowledge base knows
    (a card, mechanic, step, zone, rules concept or the combined back face of a meld pair)."""
    from mtgkb.kb.iri_arguments import find_named, resolve_iri

    value = text.strip()
    if not value:
        raise MtgkbError("name a node: a card, mechanic, step, zone, concept, rule number or IRI")
    number = value.rstrip(".")
    if RULE_NUMBER.match(number):
        iri = mint("cr", number)
        if exists(kb, iri):
            return iri
        raise NotFoundError("rule", number, [])
    if "://" in value or ":" in value:
        iri = resolve_iri(kb, value, None)
    else:
        iri = find_named(kb, value, NAMED_KINDS).iri
    if not exists(kb, iri):
        raise NotFoundError("node", value, [])
    return iri


def exists(kb: KnowledgeBase, iri: str) -> bool:
    import pyoxigraph as ox

    try:
        node = ox.NamedNode(iri)
    except ValueError:  # "<a b:c>" reads as an IRI, but no node has it
        return False
    default = ox.DefaultGraph()
    return any(True for _ in kb.store.quads_for_pattern(node, None, None, default)) or any(
        True for _ in kb.store.quads_for_pattern(None, None, node, default)
    )


def _facts(kb: KnowledgeBase, iri: str) -> tuple[set[str], dict[str, list[str]]]:
    """The node's classes and its literal values by property (its first few of each)."""
    import pyoxigraph as ox

    classes: set[str] = set()
    values: dict[str, list[str]] = {}
    for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, ox.DefaultGraph()):
        predicate, obj = quad.predicate.value, quad.object
        if predicate == RDF_TYPE:
            classes.add(obj.value)
        else:
            values.setdefault(predicate, []).append(obj.value)
    return classes, values


def is_hub(kb: KnowledgeBase, iri: str) -> bool:
    return not HUB_CLASSES.isdisjoint(_facts(kb, iri)[0])


def describe(kb: KnowledgeBase, iri: str) -> NamedNode:
    """The node's human label and kind (card, mechanic, step, rule, ruling, …)."""
    classes, values = _facts(kb, iri)
    kind = kind_of(classes)
    own = (values.get(V.name) or values.get(RDFS_LABEL) or [None])[0]
    if kind == "rule":
        number = iri.rsplit("/", 1)[-1]
        title = (values.get(V.title) or [None])[0]
        return NamedNode(iri, f"CR {number}" + (f" {title}" if title else ""), kind)
    if kind == "ruling":
        return NamedNode(iri, _ruling_label(kb, values), kind)
    if V.Legalities in classes:
        return NamedNode(iri, own or _legalities_label(values), "legalities")
    if kind == "node":
        if not classes.isdisjoint({_RDFS_CLASS, _OWL_CLASS}):
            kind = "class"
        elif classes:
            kind = (class_label(kb, sorted(classes)[0]) or "node").lower()
    return NamedNode(iri, own or _fallback_label(kb, iri, classes), kind)


def _ruling_label(kb: KnowledgeBase, values: dict[str, list[str]]) -> str:
    """ "Yuriko, the Tiger's Shadow, 2020-11-10: “If Yuriko's…”": the card, the date, the text's start."""
    import pyoxigraph as ox

    card = None
    for about in values.get(V.aboutCard, [])[:1]:
        for quad in kb.store.quads_for_pattern(
            ox.NamedNode(about), ox.NamedNode(V.name), None, ox.DefaultGraph()
        ):
            card = quad.object.value
            break
    date = (values.get(V.rulingDate) or [None])[0]
    text = " ".join(((values.get(V.text) or values.get(V.summary) or [""])[0]).split())
    excerpt = text if len(text) <= EXCERPT else text[: EXCERPT - 1].rstrip() + "…"
    head = ", ".join(part for part in (card or "ruling", date) if part)
    return f"{head}: “{excerpt}”" if excerpt else head


def _legalities_label(values: dict[str, list[str]]) -> str:
    parts = []
    for predicate, words in _LEGALITY:
        formats = values.get(predicate) or []
        if formats:
            parts.append(f"{words} {len(formats)} format{'s' if len(formats) != 1 else ''}")
    return "; ".join(parts) or "no format"


def class_label(kb: KnowledgeBase, iri: str) -> str | None:
    """The ontology's label of a class or property (``mtgkb:entersAttacking`` -> "enters attacking")."""
    import pyoxigraph as ox

    for quad in kb.store.quads_for_pattern(
        ox.NamedNode(iri), ox.NamedNode(RDFS_LABEL), None, ox.DefaultGraph()
    ):
        return quad.object.value
    return None


def _fallback_label(kb: KnowledgeBase, iri: str, classes: set[str]) -> str:
    """For a node without a label: its class's label and its own last path segment as words."""
    local = re.split(r"[/#]", iri.rstrip("/#"))[-1]
    words = re.sub(r"[-_]+", " ", local)
    for class_iri in sorted(classes):
        label = class_label(kb, class_iri)
        if label:
            return f"{label} {words}"
    return words or "node"


def label_of_term(kb: KnowledgeBase, iri: str, cache: dict[str, str]) -> str:
    """A property's or class's label from the ontology, else its local name: for showing facts."""
    found = cache.get(iri)
    if found is None:
        found = class_label(kb, iri) or re.split(r"[/#]", iri)[-1]
        cache[iri] = found
    return found


def literal_values(kb: KnowledgeBase, iri: str) -> tuple[set[str], dict[str, list[Any]]]:
    """The node's classes and literal values by property IRI (each value once)."""
    import pyoxigraph as ox

    classes: set[str] = set()
    values: dict[str, list[Any]] = {}
    for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, ox.DefaultGraph()):
        if quad.predicate.value == RDF_TYPE:
            classes.add(quad.object.value)
        elif isinstance(quad.object, ox.Literal):
            bucket = values.setdefault(quad.predicate.value, [])
            if quad.object.value not in bucket:
                bucket.append(quad.object.value)
    return classes, values
