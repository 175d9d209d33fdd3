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
            return FaceChoice([chosen], layout=layout)
        if index == 0 and not castable:
            # The front face is what the card is off the stack (712.8a, 710.2, 715.4).
            return FaceChoice([None], layout=layout)
        return FaceChoice([], not_castable=chosen, layout=layout)
    if castable:
        return FaceChoice([f for f in faces if int(f.first(V.faceIndex) or 0) in castable], layout=layout)
    return FaceChoice([None], layout=layout)
