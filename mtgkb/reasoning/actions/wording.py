"""How a verdict puts its question: "Can Exalted Angel be cast face down now?", "Can Ninja of the
Deep Hours's Ninjutsu {1}{U} be activated now?"."""

from __future__ import annotations

from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.reasoning.contract import possessive
from mtgkb.reasoning.knowledge import Node


def question(card: str, verb: str, label: str, normal: bool, face: str | None, mechanic: Node) -> str:
    """``label``: the ability's, or the way's name; ``normal``: the card cast the ordinary way;
    ``face``: the face it is cast as."""
    action = mechanic.first(V.actionName)
    if verb == "cast":
        if face is not None:
            return f"Can {card} be cast as {face} now?"
        if action:  # a cast some other ability opens: "face down", not for its morph cost
            return f"Can {card} be cast {action} now?"
        return f"Can {card} be cast now{'' if normal else f' for its {label} cost'}?"
    if verb == "take" and action:  # what the action does: "turn face up", "put into hand"
        return f"Can you {action} {card} now ({mechanic.first(RDFS_LABEL)}), a special action?"
    if verb == "take":
        return f"Can {possessive(card)} {label} be taken now, as a special action?"
    if ": " in label:  # an ability in its own words: "{1}, {T}: Draw a card."
        return f"Can {possessive(card)} ability \u201c{label}\u201d be activated now?"
    return f"Can {possessive(card)} {label} be activated now?"
