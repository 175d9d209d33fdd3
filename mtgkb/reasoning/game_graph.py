"""A situation as a small RDF graph in the mtgkb vocabulary, with what evaluating it needs from the
knowledge base: the turn's steps, and for each object the card types and abilities it has, granted
ones included. Requirement patterns run against this graph in an in-memory Oxigraph store."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V
from mtgkb.reasoning.knowledge import Node, RulesData, Term
from mtgkb.reasoning.situation import GameObject, Situation, zone_iri

if TYPE_CHECKING:
    import pyoxigraph as ox

_XSD = "http://www.w3.org/2001/XMLSchema#"


@dataclass
class GrantedAbility:
    ability: str  # IRI of the granted keyword ability
    by: GameObject  # the permanent whose static ability grants it


@dataclass
class GameGraph:
    situation: Situation
    rules: RulesData
    cards: dict[str, Node]
    store: Any  # pyoxigraph.Store
    iri: str
    player_iris: dict[str, str]
    object_iris: dict[str, str]
    granted: dict[str, list[GrantedAbility]] = field(default_factory=dict)  # object key -> abilities
    checked: dict[tuple, tuple[bool, str]] = field(default_factory=dict)  # requirement parts asked
    faces: dict[str, str] = field(default_factory=dict)  # object key -> the face it is cast as

    def card(self, obj: GameObject) -> Node:
        card = self.cards.get(obj.card or "") or Node(obj.card or "")
        face = self.faces.get(obj.key)
        if face:
            return with_face(card, self.cards.get(face) or Node(face))
        return face_up(card, obj, self.cards)

    def types(self, obj: GameObject) -> list[str]:
        return obj.types if obj.card is None else self.card(obj).all(V.cardType)

    def own_abilities(self, obj: GameObject) -> list[Node]:
        return (
            [self.cards.get(iri) or Node(iri) for iri in self.card(obj).all(V.hasAbility)] if obj.card else []
        )


#: What a face replaces of its card's characteristics when the card is cast as that face (709.3a,
#: 712.11c, 715.3a): a value the face lacks is no value, never the card's.
FACE_CHARACTERISTICS = (
    RDFS_LABEL,
    V.name,
    V.manaCost,
    V.manaValue,
    V.typeLine,
    V.cardType,
    V.supertype,
    V.subtype,
    V.oracleText,
    V.power,
    V.toughness,
    V.loyalty,
    V.defense,
    V.colors,
    V.colorIndicator,
    V.hasAbility,
)


def with_face(card: Node, face: Node) -> Node:
    """The card as the face it is cast as: the face's characteristics, the card's other facts."""
    values = {p: t for p, t in card.values.items() if p not in FACE_CHARACTERISTICS}
    values.update({p: t for p, t in face.values.items() if p in FACE_CHARACTERISTICS})
    return Node(card.iri, values)


#: What a face-down permanent is (708.2a): a 2/2 creature, nothing else (no name, text, subtypes or
#: mana cost, so no colour either).
FACE_DOWN = {
    V.cardType: [Term('"Creature"', "Creature")],
    V.power: [Term('"2"', "2")],
    V.toughness: [Term('"2"', "2")],
}


def face_up(card: Node, obj: GameObject, cards: dict[str, Node]) -> Node:
    """The card as its permanent is now: face down (708.2a), transformed (its back face, with its
    front face's mana value, 712.8e) or flipped (its other half, with its own mana cost and colours,
    710.1c, 710.2); otherwise the card itself."""
    if obj.face_down:
        return Node(card.iri, {p: list(t) for p, t in FACE_DOWN.items()})
    if not (obj.transformed or obj.flipped):
        return card
    faces = sorted(
        (cards.get(iri) or Node(iri) for iri in card.all(V.hasFace)),
        key=lambda f: int(f.first(V.faceIndex) or 0),
    )
    if len(faces) < 2:
        return card
    up = with_face(card, faces[1])
    kept = (V.manaValue,) if obj.transformed else (V.manaCost, V.manaValue, V.colors)
    for predicate in kept:
        up.values[predicate] = card.terms(predicate)
    return up


def situation_key(situation: Situation) -> str:
    """Eight hex digits naming the situation: the same situation gets the same IRIs."""
    described = {
        "turn": situation.turn,
        "priority": situation.priority,
        "step": situation.step.iri,
        "objects": [
            [o.key, o.card, o.name, o.zone, o.controller, o.tapped, o.attacking, o.blocked]
            + ([o.transformed, o.flipped, o.face_down] if o.transformed or o.flipped or o.face_down else [])
            for o in situation.objects
        ],
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:8]


def build_game_graph(
    situation: Situation, rules: RulesData, cards: dict[str, Node], faces: dict[str, str] | None = None
) -> GameGraph:
    """``faces``: the objects cast as one face of their card (object key -> face IRI)."""
    import pyoxigraph as ox

    key = situation_key(situation)
    situation_iri = mint("situation", key)
    players = {name: f"{situation_iri}/player/{_slug(name)}" for name in situation.players}
    objects = {o.key: f"{situation_iri}/object/{index}" for index, o in enumerate(situation.objects)}
    graph = GameGraph(situation, rules, cards, ox.Store(), situation_iri, players, objects, faces=faces or {})
    quads: list[ox.Quad] = []

    def add(subject: str, predicate: str, value: Any) -> None:
        quads.append(ox.Quad(ox.NamedNode(subject), ox.NamedNode(predicate), _term(value)))

    add(situation_iri, RDF_TYPE, ox.NamedNode(V.Situation))
    add(situation_iri, V.currentStep, ox.NamedNode(situation.step.iri))
    add(situation_iri, V.activePlayer, ox.NamedNode(players[situation.turn]))
    add(situation_iri, V.priorityPlayer, ox.NamedNode(players[situation.priority]))
    for name, player in situation.players.items():
        add(situation_iri, V.hasPlayer, ox.NamedNode(players[name]))
        add(players[name], RDF_TYPE, ox.NamedNode(V.Player))
        add(players[name], RDFS_LABEL, name)
        if player.mana is not None:
            add(players[name], V.availableMana, player.mana)
        add(players[name], V.lifeTotal, player.life)
        add(players[name], V.energyCount, player.energy)
        _add_this_turn(graph, add, name)
    for obj in situation.objects:
        node = objects[obj.key]
        add(situation_iri, V.hasObject, ox.NamedNode(node))
        add(node, RDF_TYPE, ox.NamedNode(V.GameObject))
        add(node, RDFS_LABEL, obj.name)
        add(node, V.inZone, ox.NamedNode(zone_iri(obj.zone)))
        add(node, V.owner, ox.NamedNode(players[obj.owner]))
        add(node, V.controller, ox.NamedNode(players[obj.controller]))
        add(node, V.isToken, obj.token)
        add(node, V.isTapped, obj.tapped)
        add(node, V.isCommander, obj.commander)
        if obj.card:
            add(node, V.representsCard, ox.NamedNode(obj.card))
        if obj.commander_casts:
            add(node, V.castsFromCommandZone, obj.commander_casts)
        if obj.stack_index is not None:
            add(node, V.stackIndex, obj.stack_index)
        if obj.new_this_turn:
            add(node, V.newThisTurn, True)
        loyalty = obj.counters.get("loyalty", _printed_loyalty(graph.card(obj)))
        if loyalty is not None:
            add(node, V.loyaltyCounters, loyalty)
        for kind, count in obj.counters.items():
            add(node, V.counterCount, f"{kind.lower()}={count}")
        others = sum(n for kind, n in obj.activations_this_turn.items() if kind != "loyalty")
        if others:
            add(node, V.activationsThisTurn, others)
        ever = sum(n for kind, n in obj.activations_this_game.items() if kind != "loyalty")
        if ever or others:
            add(node, V.activationsThisGame, max(ever, others))
        if obj.activations_this_turn.get("loyalty"):
            add(node, V.loyaltyActivationsThisTurn, obj.activations_this_turn["loyalty"])
        if obj.attacking is not None:
            target = players.get(obj.attacking) or objects[obj.attacking]
            add(node, V.attacks, ox.NamedNode(target))
        for how in exiled_as(obj.exiled_as):
            add(node, V.exiledAs, how)
        for how in obj.came_as:
            add(node, V.cameAs, how)
        if obj.zone == "library" and obj.key.endswith("/0"):  # library_top lists the top card first
            add(node, V.isTopOfLibrary, True)
        if obj.face_down:
            add(node, V.isFaceDown, True)
            if obj.face_down_as is not None:
                add(node, V.faceDownAs, obj.face_down_as)
            # What turning it up asks of its card, which face down is only a 2/2 creature (701.40b).
            for card_type in graph.cards.get(obj.card, Node(obj.card or "")).all(V.cardType):
                add(node, V.faceUpCardType, card_type)
        if obj.attached_to is not None:
            add(node, V.attachedTo, ox.NamedNode(objects[obj.attached_to]))
        if obj.blocked is not None:
            add(node, V.blockedStatus, ox.NamedNode(obj.blocked))
        for card_type in graph.types(obj):
            add(node, V.cardType, card_type)
        if obj.ability_on_stack:
            add(node, V.isAbilityOnStack, True)
        if obj.token:  # a token named for its subtypes, as an unnamed one is (111.4)
            for word in obj.name.split():
                if word[:1].isupper() and word != "Token":
                    add(node, V.subtype, word)
        card = graph.card(obj)
        for predicate in (V.subtype, V.supertype, V.power, V.toughness, V.colors):
            for value in card.all(predicate):
                add(node, predicate, value)
        for ability in graph.own_abilities(obj):
            _add_ability(add, node, ability)
    _grant(graph, add)
    for step in rules.of_type(V.Step):
        for predicate, terms in step.values.items():
            if predicate == V.playersReceivePriority and _priority_given(situation, step):
                add(step.iri, predicate, True)
                continue
            for term in terms:
                quads.append(ox.Quad(ox.NamedNode(step.iri), ox.NamedNode(predicate), _from_term(term)))
    graph.store.extend(quads)
    return graph


def _add_this_turn(graph: GameGraph, add: Any, name: str) -> None:
    """What the player did earlier this turn; each creature that dealt combat damage is a node with
    its card's subtypes, a commander if one of the player's commanders is that card."""
    import pyoxigraph as ox

    node = graph.player_iris[name]
    turn = graph.situation.players[name].this_turn
    add(node, V.spellsCastThisTurn, turn.spells_cast)
    add(node, V.lifeLostThisTurn, turn.life_lost)
    commanders = {o.card for o in graph.situation.objects if o.commander and o.owner == name}
    for index, card_iri in enumerate(turn.combat_damage_by):
        source = f"{node}/combat-damage/{index}"
        card = graph.cards.get(card_iri) or Node(card_iri)
        add(node, V.dealtCombatDamageWith, ox.NamedNode(source))
        add(source, RDF_TYPE, ox.NamedNode(V.CombatDamageSource))
        add(source, RDFS_LABEL, card.first(RDFS_LABEL) or card_iri)
        add(source, V.isCommander, card_iri in commanders)
        for value in card.all(V.subtype):
            add(source, V.subtype, value)
        for ability in card.all(V.hasAbility):  # changeling: every creature type (702.73a)
            _add_ability(add, source, graph.cards.get(ability) or Node(ability))


def _printed_loyalty(card: Node) -> int | None:
    """A planeswalker's printed loyalty, what it enters with when the situation gives no counters."""
    printed = card.first(V.loyalty)
    try:
        return int(printed) if printed is not None else None
    except ValueError:
        return None  # "X"


def _priority_given(situation: Situation, step: Node) -> bool:
    """A step without priority in which this situation has players holding it: the cleanup step with
    something on the stack (514.3a: state-based actions or triggers happened, so priority was given)."""
    return (
        step.iri == situation.step.iri
        and bool(step.first(V.priorityWhenStackNotEmpty))
        and any(o.zone == "stack" for o in situation.objects)
    )


def _add_ability(add: Any, node: str, ability: Node) -> None:
    import pyoxigraph as ox

    add(node, V.hasAbility, ox.NamedNode(ability.iri))
    for mechanic in ability.all(V.instantiates):
        add(ability.iri, V.instantiates, ox.NamedNode(mechanic))


def _grant(graph: GameGraph, add: Any) -> None:
    """Static abilities of permanents that give other objects an ability (113.6: a permanent's
    static ability works on the battlefield), read from the grant's structured scope."""
    situation = graph.situation
    for granter in situation.objects:
        if granter.zone != "battlefield":
            continue
        for static in graph.own_abilities(granter):
            for granted in static.all(V.grants):
                zones = static.all(V.grantedInZone)
                types = static.all(V.grantedToCardType)
                yours = bool(static.first(V.grantedOnlyToYours))
                for obj in situation.objects:
                    if obj is granter or (zones and zone_iri(obj.zone) not in zones):
                        continue
                    if types and not set(types) <= set(graph.types(obj)):
                        continue
                    if yours and obj.owner != granter.controller:
                        continue
                    ability = graph.cards.get(granted) or Node(granted)
                    graph.granted.setdefault(obj.key, []).append(GrantedAbility(granted, granter))
                    _add_ability(add, graph.object_iris[obj.key], ability)


def plain_literal(value: Any) -> Any:
    """A boolean as xsd:boolean, anything else as a plain string literal."""
    import pyoxigraph as ox

    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=ox.NamedNode(_XSD + "boolean"))
    return ox.Literal(str(value))


def _term(value: Any) -> Any:
    import pyoxigraph as ox

    if isinstance(value, ox.NamedNode | ox.Literal):
        return value
    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=ox.NamedNode(_XSD + "boolean"))
    if isinstance(value, int):
        return ox.Literal(str(value), datatype=ox.NamedNode(_XSD + "integer"))
    return ox.Literal(str(value))


def _from_term(term: Term) -> Any:
    import pyoxigraph as ox

    if term.is_iri:
        return ox.NamedNode(term.value)
    if isinstance(term.value, bool):
        return _term(term.value)
    if isinstance(term.value, int):
        return _term(term.value)
    return ox.Literal(str(term.value))


def _slug(name: str) -> str:
    from mtgkb.kb.iris import slugify

    return slugify(name) or hashlib.sha256(name.encode()).hexdigest()[:8]


def exiled_as(state: dict) -> list[str]:
    """How a card in exile got there, in the words the requirements use (702.143a, 702.170d: a
    foretold or plotted card is cast from exile only on a later turn)."""
    found = []
    for name in ("foretold", "plotted"):
        value = state.get(name)
        if value is True:
            found.append(f"{name} on an earlier turn")
        elif value == "this turn":
            found.append(f"{name} this turn")
    if state.get("suspended"):
        found.append("suspended")
        # Counters not given are none: its upkeep trigger has taken the last one (702.62a).
        if not state.get("counters", {}).get("time"):
            found.append("suspended, its last time counter removed")
    if state.get("on_adventure"):
        found.append("on an adventure")
    if state.get("madness"):
        found.append("discarded with madness")
    return found
