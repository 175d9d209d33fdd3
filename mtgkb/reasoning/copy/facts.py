"""What a copy verdict reads from the graph: a card's copiable values by face, its copy effects (mode,
target requirement, condition, exceptions) and the rules each concept of a copy check cites."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.iri_arguments import find_named
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.lookups.common import read_graph, rule_number
from mtgkb.lookups.rulings import RulingEntry, newest_first, ruling_entry
from mtgkb.reasoning.contract import rule_order

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.lookups.common import Graph, Node


_KIND = {
    mint("concept", slug): slug
    for slug in (
        "copy-exception-adds-types",
        "copy-exception-sets-characteristic",
        "copy-exception-removes-supertype",
        "copy-exception-adds-ability",
        "copy-exception-not-copied",
        "copy-addition-not-copiable",
        "copy-status-not-copiable",
        "copy-later-effect-not-copiable",
    )
}
#: Kinds whose outcome becomes part of the copy's copiable values (707.9a-d); the others happen
#: to this copy only (707.9e, status, effects applied afterwards).
COPIABLE_KINDS = {
    "copy-exception-adds-types",
    "copy-exception-sets-characteristic",
    "copy-exception-removes-supertype",
    "copy-exception-adds-ability",
    "copy-exception-not-copied",
}
#: The layouts with a back face a permanent can have up (712.8d, 712.8e): a copy takes the face up.
_DOUBLE_FACED = {"transform", "modal_dfc", "meld", "double_faced_token", "reversible_card"}


class CopyInputError(MtgkbError):
    """A target or situation the copy verdict cannot read."""


# ------------------------------------------------------------------------------------------------
# Reading cards and copy effects from the graph


@dataclass
class Values:
    """Copiable values of an object (707.2)."""

    name: str | None
    mana_cost: str | None
    colors: list[str]
    types: list[str]
    supertypes: list[str]
    subtypes: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    abilities: list[str]
    mana_value_zero: bool = False  # copying a transformed back face (712.8e)


@dataclass
class ExceptionFacts:
    kind: str  # slug of the copy rule
    kind_label: str
    characteristic: str
    values: list[str]
    label: str | None
    cites: list[str]
    count: int = 1  # how many of each value an addition gives
    only_if_type: str | None = None  # the copy must be of this card type (707.9f)


@dataclass
class CopyEffectFacts:
    iri: str
    label: str | None
    mode: str | None
    mode_label: str | None
    mode_cites: list[str]
    target: dict[str, list[Any]]  # requires* property IRI -> values
    copies_what: str | None
    target_cites: list[str]
    condition: dict[str, list[Any]]
    condition_label: str | None
    condition_cites: list[str]
    exceptions: list[ExceptionFacts]


@dataclass
class CopyCardFacts:
    name: str
    iri: str
    values: Values
    back: Values | None
    layout: str | None
    copy_effects: list[CopyEffectFacts]
    rulings: list[RulingEntry]
    # Set when the card's layout gives it only its first face's characteristics (data/layouts.ttl):
    # an adventurer's creature (715.4), an unflipped flip card (710.2), a front face (712.8a).
    first_face_only: list[str] | None = None  # the layout's cites
    flipped: Values | None = None  # a flip card's other half, as a flipped permanent has it (710.2)


def copy_card_name(kb: KnowledgeBase, name: str) -> tuple[str, str]:
    """(the card's name as the data spells it, its IRI); did-you-mean on a miss."""
    match = find_named(kb, name, ("card",))
    return match.name, match.iri


_LOADED: dict[tuple[str, str], CopyCardFacts] = {}

#: The rules each rules concept cites (data/concepts/copy-checks.ttl), read with the first card of a
#: knowledge base: every check and characteristic here cites the concept it evaluates.
_CONCEPT_CITES: dict[str, list[str]] = {}
_CONCEPTS_READ: set[str] = set()


def _read_concepts(kb: KnowledgeBase) -> None:
    if str(kb.path) in _CONCEPTS_READ:
        return
    found: dict[str, list[str]] = {}
    for row in kb.select(library_query("concept-cites")):
        found.setdefault(row["concept"], []).append(rule_number(row["rule"]))
    _CONCEPT_CITES.update(found)
    _CONCEPTS_READ.add(str(kb.path))


def copy_concept_cites(concept: str) -> list[str]:
    """The rules ``concept:<concept>`` cites: those of the copy section (what ``concept:copy`` cites
    whole) first, then the others, each in book order."""
    numbers = _CONCEPT_CITES.get(mint("concept", concept), [])
    sections = {n for n in _CONCEPT_CITES.get(mint("concept", "copy"), []) if "." not in n}
    return sorted(set(numbers), key=lambda n: (n.split(".")[0] not in sections, rule_order(n)))


def load_card(kb: KnowledgeBase, name: str) -> CopyCardFacts:
    """The card's facts, read once per knowledge base: a copy of a copy asks for the same cards again."""
    _read_concepts(kb)
    key = (str(kb.path), name)  # a store path names one build of the sources
    if key not in _LOADED:
        _LOADED[key] = _read_card(kb, name)
    return _LOADED[key]


def _read_card(kb: KnowledgeBase, name: str) -> CopyCardFacts:
    card_name, iri = copy_card_name(kb, name)
    graph = read_graph(kb.select(library_query("copy-card"), card=iri))
    card = graph.node(iri)
    faces = sorted((graph.node(f) for f in card.all(V.hasFace)), key=lambda n: n.first(V.faceIndex) or 0)
    layout = card.first(V.layout)
    abilities = [graph.node(a) for a in card.all(V.hasAbility)]
    layout_node = next((n for n in graph.nodes.values() if V.Layout in n.classes), None)
    first_only = layout_node is not None and layout_node.first(V.characteristicsFrom) == V.FirstFaceOnly
    front_node = faces[0] if faces and first_only else card
    values = _values(card, front_node, abilities, graph)
    back = None
    if len(faces) > 1 and layout in _DOUBLE_FACED:
        back = _values(card, faces[1], [], graph)
        back.mana_value_zero = layout == "transform"
    # A copy effect printed on a back face is that face's (Krothuss, Reflection of Kiki-Jiki): the face
    # named is the one asked about, and only its abilities copy.
    named = _named_face(faces[1:], name)
    printed = [graph.node(a) for a in named.all(V.hasAbility)] if named is not None else abilities
    effects = [_copy_effect(graph, node) for node in printed if V.CopyEffect in node.classes]
    rulings = [ruling_entry(n, graph) for n in graph.nodes.values() if V.Ruling in n.classes]
    layout_cites = (
        sorted(map(rule_number, layout_node.all(V.citesRule)), key=rule_order) if first_only else None
    )
    flipped = None
    if len(faces) > 1 and layout == "flip":
        # Flipped, the other half's name, text, types and size; the card's mana cost and colours (710.1c).
        flipped = _values(card, faces[1], [], graph)
        flipped.mana_cost, flipped.colors = values.mana_cost, values.colors
    return CopyCardFacts(
        card_name, iri, values, back, layout, effects, newest_first(rulings), layout_cites, flipped
    )


def _named_face(faces: list[Node], name: str) -> Node | None:
    from mtgkb.kb.names import normalise

    key = normalise(name)
    return next((f for f in faces if normalise(f.first(V.name) or f.first(RDFS_LABEL) or "") == key), None)


def _values(card: Node, face: Node, abilities: list[Node], graph: Graph) -> Values:
    """Printed values of ``face`` (the card itself for a one-faced card)."""
    type_line = face.first(V.typeLine) or card.first(V.typeLine) or ""
    if face is card:
        supertypes, types, subtypes = card.all(V.supertype), card.all(V.cardType), card.all(V.subtype)
    else:
        from mtgkb.core.type_line import parse_type_line

        parsed = parse_type_line(type_line)
        supertypes, types, subtypes = list(parsed.supertypes), list(parsed.types), list(parsed.subtypes)
    text = face.first(V.oracleText)
    if text:
        ability_texts = [line for line in (_without_reminder(raw) for raw in text.splitlines()) if line]
    else:
        ability_texts = [a.first(RDFS_LABEL) for a in abilities if a.first(RDFS_LABEL)]
    return Values(
        name=face.first(V.name) or card.first(V.name),
        mana_cost=face.first(V.manaCost) if face is not card else card.first(V.manaCost),
        colors=in_wubrg_order(face.all(V.colors) or (card.all(V.colors) if face is card else [])),
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        power=text_value(face.first(V.power)),
        toughness=text_value(face.first(V.toughness)),
        loyalty=text_value(face.first(V.loyalty)),
        abilities=ability_texts,
    )


def text_value(value: Any) -> str | None:
    return None if value is None else str(value)


def _without_reminder(line: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", line).strip()


def in_wubrg_order(colors: list[str]) -> list[str]:
    return sorted(set(colors), key=lambda c: ("WUBRG".index(c) if c in "WUBRG" else 5, c))


def _copy_effect(graph: Graph, node: Node) -> CopyEffectFacts:
    target = graph.node(node.first(V.copyTarget)) if node.first(V.copyTarget) else None
    condition = graph.node(node.first(V.copyCondition)) if node.first(V.copyCondition) else None
    mode = graph.node(node.first(V.copyMode)) if node.first(V.copyMode) else None
    exceptions = []
    for iri in sorted(node.all(V.hasCopyException), key=_exception_number):
        exception = graph.node(iri)
        kind = graph.node(exception.first(V.exceptionKind) or "")
        exceptions.append(
            ExceptionFacts(
                kind=_KIND.get(kind.iri, kind.iri),
                kind_label=kind.first(RDFS_LABEL) or kind.iri,
                characteristic=exception.first(V.copyCharacteristic) or "",
                values=[str(v) for v in exception.all(V.exceptionValue)],
                label=exception.first(RDFS_LABEL),
                cites=sorted((rule_number(r) for r in kind.all(V.citesRule)), key=rule_order),
                count=int(exception.first(V.exceptionCount) or 1),
                only_if_type=exception.first(V.exceptionOnlyIfType),
            )
        )
    return CopyEffectFacts(
        iri=node.iri,
        label=node.first(RDFS_LABEL),
        mode=mode.iri if mode else None,
        mode_label=mode.first(RDFS_LABEL) if mode else None,
        mode_cites=[rule_number(r) for r in mode.all(V.citesRule)] if mode else [],
        target=dict(target.values) if target else {},
        copies_what=target.first(V.copiesWhat) if target else None,
        target_cites=[rule_number(r) for r in target.all(V.citesRule)] if target else [],
        condition=dict(condition.values) if condition else {},
        condition_label=condition.first(RDFS_LABEL) if condition else None,
        condition_cites=[rule_number(r) for r in condition.all(V.citesRule)] if condition else [],
        exceptions=exceptions,
    )


def _exception_number(iri: str) -> int:
    """Exceptions are numbered in printed order: .../exception/1, /2, ..."""
    tail = iri.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 99
