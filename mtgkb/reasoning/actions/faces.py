"""Which face a card is cast as. A split card's half, an adventurer's Adventure and a modal
double-faced card's face are chosen before the spell goes on the stack (709.3, 715.3, 712.11b), and
only the chosen face is evaluated (709.3a, 715.3a, 712.11c). The faces a layout lets be chosen are
data (mtgkb:castableFace on the layout node, data/layouts.ttl)."""

from __future__ import annotations

from dataclasses import dataclass

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.reasoning.knowledge import Node
from mtgkb.reasoning.situation import GameObject


@dataclass
class FaceChoice:
    faces: list[Node | None]  # the faces to try; None: the card's own characteristics
    not_castable: Node | None = None  # a face asked for that its layout does not let be cast
    layout: Node | None = None
    asked: Node | None = None  # the face named (--face, or CARD naming a face); None: the whole card


def face_nodes(context, source: GameObject) -> list[Node]:
    cards = context.graph.cards
    card = cards.get(source.card or "") or Node(source.card or "")
    faces = [cards.get(iri) or Node(iri) for iri in card.all(V.hasFace)]
    return sorted(faces, key=lambda f: (int(f.first(V.faceIndex) or 0), f.iri))


def layout_node(context, source: GameObject) -> Node | None:
    card = context.graph.cards.get(source.card or "") or Node(source.card or "")
    name = card.first(V.layout)
    return next((n for n in context.rules.of_type(V.Layout) if n.first(V.layoutName) == name), None)


def choose_faces(context, source: GameObject, asked: str | None, wanted: str | None) -> FaceChoice:
    """The faces to evaluate for a cast. ``wanted`` is the face named with --face; ``asked`` is the
    CARD argument, which names a face when it is a face's name rather than the card's."""
    from mtgkb.kb.names import normalise

    faces = face_nodes(context, source)
    layout = layout_node(context, source)
    castable = {int(i) for i in layout.all(V.castableFace)} if layout else set()
    by_name = {normalise(f.first(RDFS_LABEL) or ""): f for f in faces}
    chosen = None
    if wanted is not None:
        chosen = by_name.get(normalise(wanted))
        if chosen is None:
            names = [f.first(RDFS_LABEL) for f in faces if f.first(RDFS_LABEL)]
            raise MtgkbError(
                f"{source.name} has no face named '{shown(wanted)}'",
                ("its faces: " + ", ".join(names)) if len(names) > 1 else f"{source.name} has one face",
            )
    elif asked is not None and normalise(asked) != normalise(source.name):
        chosen = by_name.get(normalise(asked))
    if chosen is not None:
        index = int(chosen.first(V.faceIndex) or 0)
        if index in castable:
            return FaceChoice([chosen], layout=layout, asked=chosen)
        if index == 0 and not castable:
            # The front face is what the card is off the stack (712.8a, 710.2, 715.4).
            return FaceChoice([None], layout=layout, asked=chosen)
        return FaceChoice([], not_castable=chosen, layout=layout, asked=chosen)
    if castable:
        return FaceChoice([f for f in faces if int(f.first(V.faceIndex) or 0) in castable], layout=layout)
    return FaceChoice([None], layout=layout)


#: The characteristics a fused split spell joins from its halves (702.102b, 709.4d); its mana cost
#: is both costs together (702.102c) and its mana value their sum.
_JOINED = (V.cardType, V.supertype, V.subtype, V.colors, V.colorIndicator, V.hasAbility)


def fused_face(context, source: GameObject) -> Node | None:
    """The one spell both halves of a split card make when fused, as a face of its own (known to the
    situation's graph under its minted IRI); None for a card of fewer than two known halves."""
    from mtgkb.kb.iris import mint
    from mtgkb.reasoning.knowledge import Term

    halves = [f for f in face_nodes(context, source) if not f.first(V.knownOnlyByName)]
    if len(halves) < 2:
        return None
    card = context.graph.cards.get(source.card or "") or Node(source.card or "")
    values: dict[str, list[Term]] = {}
    for predicate in _JOINED:
        seen: dict[Term, None] = {}
        for half in halves:
            for term in half.terms(predicate):
                seen.setdefault(term, None)
        values[predicate] = list(seen)
    cost = "".join(h.first(V.manaCost) or "" for h in halves)
    label = f"{card.first(RDFS_LABEL) or source.name} (fused)"
    values[RDFS_LABEL] = [Term(f'"{label}"', label)]
    values[V.manaCost] = [Term(f'"{cost}"', cost)]
    total = sum(float(h.first(V.manaValue) or 0) for h in halves)
    values[V.manaValue] = [Term(str(int(total)), int(total))]
    values[V.typeLine] = [Term(f'"{t}"', t) for t in [" // ".join(h.first(V.typeLine) or "" for h in halves)]]
    iri = mint("face", (source.card or "").rsplit("/", 1)[-1], "fused")
    node = Node(iri, values)
    context.graph.cards[iri] = node
    return node


def prototype_face(context, source: GameObject) -> Node | None:
    """The card as a prototyped spell: its inset mana cost, power and toughness and that cost's
    colours (718.3b), every other characteristic its own (718.5); None when it has no prototype."""
    from mtgkb.reasoning.knowledge import Term

    cards = context.graph.cards
    card = cards.get(source.card or "") or Node(source.card or "")
    iri = card.first(V.hasPrototype)
    if iri is None:
        return None
    inset = cards.get(iri) or Node(iri)
    values = dict(card.values)
    for predicate in (V.manaCost, V.manaValue, V.power, V.toughness, V.colors):
        values[predicate] = inset.terms(predicate)
    label = f"{card.first(RDFS_LABEL) or source.name} (prototyped)"
    values[RDFS_LABEL] = [Term(f'"{label}"', label)]
    values.pop(V.colorIndicator, None)
    node = Node(iri, values)
    cards[iri] = node
    return node


def printing_face(context, source: GameObject, ability: Node) -> Node | None:
    """The face whose text holds ``ability`` (an aftermath half)."""
    return next((f for f in face_nodes(context, source) if ability.iri in f.all(V.hasAbility)), None)
