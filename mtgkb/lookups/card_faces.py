"""The faces of a card as a card report shows them: each face with its own characteristics, the rule
of the card's layout (which faces give the card its characteristics, with its citations), a
prototype's second set of characteristics (718), and the meld pair a card belongs to (712.4), whose
combined back face is no card."""

from __future__ import annotations

from dataclasses import dataclass, field

from mtgkb.core.rule_numbers import sorted_numbers
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.lookups.common import Graph, Node, rule_number


@dataclass
class FaceInfo:
    iri: str
    name: str | None
    index: int | None
    mana_cost: str | None
    mana_value: float | None  # of this face's own mana cost
    type_line: str | None
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    oracle_text: str | None
    power: str | None
    toughness: str | None
    loyalty: str | None
    defense: str | None
    colors: list[str]
    color_indicator: list[str]
    abilities: list[str]  # IRIs of the modelled abilities printed on this face
    known_only_by_name: bool = False  # the data names this face but gives none of its characteristics


@dataclass
class LayoutInfo:
    """The card's layout and the rule by which its faces give it its characteristics."""

    name: str  # as card databases name it: "split", "modal_dfc"
    iri: str | None  # the layout node; None for a layout the data does not describe
    label: str | None
    characteristics_from: str | None  # IRI of mtgkb:FirstFaceOnly or mtgkb:AllFacesCombined
    rule: str | None  # that rule's label: "first face only"
    summary: str | None
    cites: list[str] = field(default_factory=list)


@dataclass
class PrototypeInfo:
    """A prototype card's inset mana cost, power and toughness (718.2) and the colours they give."""

    iri: str
    mana_cost: str | None
    mana_value: float | None
    power: str | None
    toughness: str | None
    colors: list[str]
    cites: list[str]


@dataclass
class CardRef:
    name: str | None
    iri: str


@dataclass
class MeldInfo:
    """The combined back face of a meld pair and the two cards that form it."""

    name: str | None
    iri: str
    cards: list[CardRef]
    face: FaceInfo
    cites: list[str]


#: Fields a card and each of its faces both have: the first value of one property each.
CHARACTERISTICS = {
    "mana_cost": V.manaCost,
    "type_line": V.typeLine,
    "oracle_text": V.oracleText,
    "power": V.power,
    "toughness": V.toughness,
    "loyalty": V.loyalty,
    "defense": V.defense,
}


def characteristics(node: Node) -> dict[str, str | None]:
    return {field_name: node.first(predicate) for field_name, predicate in CHARACTERISTICS.items()}


def wubrg(colors: list[str]) -> list[str]:
    order = "WUBRG"
    return sorted(set(colors), key=lambda c: (order.index(c) if c in order else len(order), c))


def face_info(node: Node) -> FaceInfo:
    index = node.first(V.faceIndex)
    mana_value = node.first(V.manaValue)
    return FaceInfo(
        iri=node.iri,
        name=node.label,
        index=int(index) if index is not None else None,
        mana_value=float(mana_value) if mana_value is not None else None,
        supertypes=node.all(V.supertype),
        types=node.all(V.cardType),
        subtypes=node.all(V.subtype),
        colors=wubrg(node.all(V.colors)),
        color_indicator=wubrg(node.all(V.colorIndicator)),
        abilities=node.all(V.hasAbility),
        # One import may know a face by name only while another source describes it.
        known_only_by_name=bool(node.first(V.knownOnlyByName)) and not node.first(V.typeLine),
        **characteristics(node),
    )


def faces_of(graph: Graph, card: Node) -> list[FaceInfo]:
    """The card's faces in order (front or left first)."""
    faces = [face_info(graph.node(face)) for face in card.all(V.hasFace)]
    return sorted(faces, key=lambda face: (face.index if face.index is not None else 99, face.iri))


def _cites(node: Node) -> list[str]:
    return sorted_numbers([rule_number(iri) for iri in node.all(V.citesRule)])


def layout_of(graph: Graph, card: Node) -> LayoutInfo | None:
    name = card.first(V.layout)
    if name is None:
        return None
    node = next(
        (n for n in graph.nodes.values() if V.Layout in n.classes and n.first(V.layoutName) == name), None
    )
    if node is None:
        return LayoutInfo(name, None, None, None, None, None)
    rule = node.first(V.characteristicsFrom)
    return LayoutInfo(
        name=name,
        iri=node.iri,
        label=node.first(RDFS_LABEL),
        characteristics_from=rule,
        rule=graph.label(rule) if rule else None,
        summary=node.first(V.summary),
        cites=_cites(node),
    )


def prototype_of(graph: Graph, card: Node) -> PrototypeInfo | None:
    iri = card.first(V.hasPrototype)
    if iri is None:
        return None
    node = graph.node(iri)
    mana_value = node.first(V.manaValue)
    return PrototypeInfo(
        iri=iri,
        mana_cost=node.first(V.manaCost),
        mana_value=float(mana_value) if mana_value is not None else None,
        power=node.first(V.power),
        toughness=node.first(V.toughness),
        colors=wubrg(node.all(V.colors)),
        cites=_cites(node),
    )


def meld_of(graph: Graph, melded_iri: str | None) -> MeldInfo | None:
    """The meld pair whose combined back face is ``melded_iri``."""
    if melded_iri is None:
        return None
    node = graph.node(melded_iri)
    cards = [
        CardRef(other.label, other.iri)
        for other in graph.nodes.values()
        if melded_iri in other.all(V.meldsInto) and V.Card in other.classes
    ]
    names = {card.name for card in cards}
    # A pair card missing from the pool is still named by the rule listing the pairs (712.5).
    cards += [CardRef(name, "") for name in sorted(node.all(V.meldPartName)) if name not in names]
    return MeldInfo(
        name=node.label,
        iri=melded_iri,
        cards=sorted(cards, key=lambda card: card.name or ""),
        face=face_info(node),
        cites=_cites(node),
    )
