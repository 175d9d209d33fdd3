"""How a triple becomes part of a property graph: a node per resource (IRI or blank node), its literals
as node attributes (``label``, ``type``, ``ruleNumber``, ``manaCost``, …) and an edge per IRI-valued
triple labelled with the property's short name (``citesRule``, ``nextStep``). ``rdf:type`` becomes the
``type`` attribute rather than edges into every class. Shared by the in-memory graph (views, small
exports) and the streamed writers of a whole store."""

from __future__ import annotations

import functools
from typing import Any

from mtgkb.kb.iris import VOCAB
from mtgkb.kb.sparql import compact_iri
from mtgkb.kb.vocab import PREFIXES, RDFS_LABEL, V

PROGRESS_EVERY = 100_000
MULTI_VALUE_SEPARATOR = "; "

_XSD = PREFIXES["xsd"]
_INTEGER_TYPES = {_XSD + name for name in ("integer", "int", "long", "short", "nonNegativeInteger")}
_FLOAT_TYPES = {_XSD + name for name in ("decimal", "double", "float")}
# Namespaces whose terms are named by their local name alone; others keep their prefix ("sh:path").
_PLAIN_NAMESPACES = (VOCAB, PREFIXES["rdf"], PREFIXES["rdfs"])


def short_name(predicate: str) -> str:
    """``mtgkb:citesRule`` -> ``citesRule``; ``rdfs:label`` -> ``label``; ``sh:path`` stays ``sh:path``."""
    for namespace in _PLAIN_NAMESPACES:
        if predicate.startswith(namespace):
            return predicate[len(namespace) :]
    compact = compact_iri(predicate)
    if compact != predicate:
        return compact
    return predicate.rstrip("/#").rsplit("#", 1)[-1].rsplit("/", 1)[-1] or predicate


def node_key(term: Any) -> str:
    import pyoxigraph as ox

    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value


def literal_value(literal: Any) -> str | int | float | bool:
    datatype = literal.datatype.value if literal.datatype is not None else ""
    try:
        if datatype in _INTEGER_TYPES:
            return int(literal.value)
        if datatype in _FLOAT_TYPES:
            return float(literal.value)
    except ValueError:
        return literal.value
    if datatype == _XSD + "boolean":
        return literal.value in ("true", "1")
    return literal.value


def single(values: list[Any]) -> Any:
    if len(values) == 1:
        return values[0]
    return MULTI_VALUE_SEPARATOR.join(sorted({str(value) for value in values}))


_LABELS = (short_name(RDFS_LABEL), short_name(V.name))


def node_label(node: str, literals: dict[str, list[Any]], node_type: str | None) -> str:
    for name in _LABELS:
        values = literals.get(name)
        if values:
            return str(single(values))
    if node.startswith("_:"):
        # Blank node ids are random: name the node by its type, as Turtle's [ ] would show it.
        return f"[{node_type}]" if node_type else "[]"
    return compact_iri(node)


def as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: The look of each kind of node in DOT (the explorer page's colours): shape and fill colour.
DOT_STYLES = {
    "card": ("box", "#2f6fb3"),
    "face": ("box", "#5b8fc7"),
    "mechanic": ("ellipse", "#b3542f"),
    "step": ("hexagon", "#3c8d4f"),
    "phase": ("hexagon", "#2c6d3c"),
    "rule": ("note", "#7b4fa8"),
    "ruling": ("note", "#a8843c"),
    "ability": ("component", "#4f9aa8"),
    "requirement": ("diamond", "#a84f7b"),
    "zone": ("folder", "#6b7b2f"),
    "concept": ("octagon", "#8a5a44"),
    "legalities": ("tab", "#6d7580"),
}
_OTHER_STYLE = ("box", "#8a94a0")


def dot_style(kind: str | None) -> str:
    """The DOT attributes of a node of ``kind`` (card, mechanic, step, rule, …)."""
    shape, colour = DOT_STYLES.get(kind or "", _OTHER_STYLE)
    return f'shape={shape}, style="rounded,filled", fillcolor="{colour}", fontcolor="white"'


@functools.lru_cache(maxsize=4096)  # a whole store's nodes have a few hundred distinct type lists
def kind_of_types(types: str | None) -> str:
    """A node's kind from its ``type`` attribute (prefixed classes, "; " between them)."""
    from mtgkb.lookups.common import kind_of

    if not types:
        return "node"
    classes = set()
    for compact in types.split(MULTI_VALUE_SEPARATOR):
        prefix, _, local = compact.partition(":")
        classes.add(PREFIXES.get(prefix, prefix + ":") + local)
    if V.Legalities in classes:
        return "legalities"
    return kind_of(classes)


def dot_string(text: str) -> str:
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "\\n")
    return f'"{escaped}"'
