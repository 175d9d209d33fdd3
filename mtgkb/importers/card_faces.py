"""Faces -> N-Quads: each face of a card with its own characteristics, a prototype's inset mana cost,
power and toughness (718.2), and the combined back faces of meld pairs (712.4), which are not cards.

A face node is face/<card slug>/<index>; its abilities are linked from it with mtgkb:hasAbility
(card_quads links the card to those its layout gives it).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from mtgkb.core.mana_symbols import colours, mana_value
from mtgkb.core.nquads import QuadWriter, literal
from mtgkb.importers.card_layouts import LayoutRules
from mtgkb.importers.card_model import CardRecord, FaceRecord, PrototypeRecord
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V

Add = Callable[[str, str, str], None]

_FACE = f"<{V.Face}>"
_MELDED_FACE = f"<{V.MeldedFace}>"
_PROTOTYPE = f"<{V.PrototypeCharacteristics}>"
_OFF_BATTLEFIELD = f"<{V.OffBattlefieldCharacteristics}>"
_TRUE = literal(True)
_DEPRECATED = PREFIXES["owl"] + "deprecated"
_REPLACED_BY = PREFIXES["dcterms"] + "isReplacedBy"
# Typed: True, 1, 0 and 0.0 are equal keys, and a face index must not give a mana value its literal.
_term = functools.lru_cache(maxsize=None, typed=True)(literal)


def write_characteristics(add: Add, subject: str, source: CardRecord | FaceRecord) -> None:
    """The characteristics a card and a face share (mana cost, type line, text, P/T, colours)."""
    if source.mana_cost:
        add(subject, V.manaCost, _term(source.mana_cost))
    if source.type_line:
        add(subject, V.typeLine, _term(source.type_line))
    if source.oracle_text:
        add(subject, V.oracleText, literal(source.oracle_text))
    for predicate, value in (
        (V.power, source.power),
        (V.toughness, source.toughness),
        (V.loyalty, source.loyalty),
        (V.defense, source.defense),
    ):
        if value:
            add(subject, predicate, _term(value))
    for value in source.colors or ():
        add(subject, V.colors, _term(value))
    for value in source.color_indicator or ():
        add(subject, V.colorIndicator, _term(value))


def write_face_types(add: Add, subject: str, face: CardRecord | FaceRecord) -> None:
    """The mana value and types of a card or face."""
    if face.mana_value is not None:
        add(subject, V.manaValue, _term(float(face.mana_value)))
    for value in face.supertypes:
        add(subject, V.supertype, _term(value))
    for value in face.types:
        add(subject, V.cardType, _term(value))
    for value in face.subtypes:
        add(subject, V.subtype, _term(value))


def face_iri(card_slug: str, index: int) -> str:
    return mint("face", card_slug, str(index))


def write_faces(add: Add, card: str, card_slug: str, record: CardRecord) -> list[str]:
    """Every face of ``record`` as a node linked from ``card``; their IRIs, in order."""
    written = []
    for index, face in enumerate(record.faces):
        node = face_iri(card_slug, index)
        name = literal(face.name)
        add(card, V.hasFace, f"<{node}>")
        add(node, RDF_TYPE, _FACE)
        add(node, RDFS_LABEL, name)
        add(node, V.name, name)
        add(node, V.faceIndex, _term(index))
        if face.known_only_by_name:
            add(node, V.knownOnlyByName, _TRUE)
        write_characteristics(add, node, face)
        write_face_types(add, node, face)
        written.append(node)
    return written


def write_prototype(add: Add, card: str, card_slug: str, prototype: PrototypeRecord) -> None:
    """The inset set of a prototype card; its colours are its mana cost's (718.3b)."""
    node = mint("face", card_slug, "prototype")
    add(card, V.hasPrototype, f"<{node}>")
    add(node, RDF_TYPE, _PROTOTYPE)
    size = f"{prototype.power}/{prototype.toughness}"
    add(node, RDFS_LABEL, literal(f"Prototype {prototype.mana_cost} \u2014 {size}"))
    add(node, V.manaCost, _term(prototype.mana_cost))
    add(node, V.manaValue, _term(mana_value(prototype.mana_cost)))
    add(node, V.power, _term(prototype.power))
    add(node, V.toughness, _term(prototype.toughness))
    for value in colours(prototype.mana_cost):
        add(node, V.colors, _term(value))
    for number in ("718.2", "718.3b"):
        add(node, V.citesRule, f"<{mint('cr', number)}>")


#: "As long as Grist isn't on the battlefield, it's a 1/1 Insect creature in addition to its other
#: types": a static ability that works everywhere but the battlefield (113.6c), so the card in the
#: command zone is a creature card (903.3).
_OFF_BATTLEFIELD_TYPES = re.compile(
    r"As long as [^.,]+? isn't on the battlefield, it's an? (?:(?P<power>\d+)/(?P<toughness>\d+) )?"
    r"(?P<subtypes>(?:[A-Z][\w-]* )*)(?P<type>artifact|creature|enchantment|land) in addition to its "
    r"other types"
)


def write_off_battlefield(add: Add, card: str, card_slug: str, texts: list[str | None]) -> bool:
    """The types, subtypes, power and toughness the card has outside the battlefield, when its text
    gives it some; whether it did."""
    found = next((m for t in texts if t for m in [_OFF_BATTLEFIELD_TYPES.search(t)] if m), None)
    if found is None:
        return False
    node = mint("face", card_slug, "off-battlefield")
    add(card, V.hasOffBattlefieldCharacteristics, f"<{node}>")
    add(node, RDF_TYPE, _OFF_BATTLEFIELD)
    add(node, RDFS_LABEL, literal(found.group(0)))
    add(node, V.cardType, _term(found.group("type").capitalize()))
    for subtype in found.group("subtypes").split():
        add(node, V.subtype, _term(subtype))
    if found.group("power") is not None:
        add(node, V.power, _term(found.group("power")))
        add(node, V.toughness, _term(found.group("toughness")))
    add(node, V.citesRule, f"<{mint('cr', '113.6c')}>")
    return True


def melded_iri(name: str, rules: LayoutRules) -> str:
    """The node of a combined back face: the curated one for the seven pairs of 712.5."""
    return rules.melded_iris.get(name) or mint("melded", name)


def write_melded_faces(records: list[CardRecord], rules: LayoutRules, writer: QuadWriter) -> int:
    """Each record that is a meld pair's combined back face, as that face's characteristics. The card
    IRI an earlier import gave it is deprecated in favour of the face: it never was a card."""
    add = writer.add
    for record in records:
        node = melded_iri(record.name, rules)
        name = literal(record.name)
        add(node, RDF_TYPE, _MELDED_FACE)
        add(node, RDFS_LABEL, name)
        add(node, V.name, name)
        if record.name not in rules.melded_iris:
            add(node, V.citesRule, f"<{mint('cr', '712.4b')}>")
        write_characteristics(add, node, record.faces[0] if record.faces else record)
        write_face_types(add, node, record)
        try:
            old = mint("card", record.name)
        except ValueError:
            continue
        add(old, _DEPRECATED, _TRUE)
        add(old, _REPLACED_BY, f"<{node}>")
    return len(records)
