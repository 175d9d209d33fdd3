"""Type lines: "Legendary Creature — Human Ninja" as supertypes, card types and subtypes (205)."""

from __future__ import annotations

from dataclasses import dataclass

SUPERTYPES = frozenset({"Basic", "Legendary", "Ongoing", "Snow", "World", "Host", "Elite", "Token"})


@dataclass(frozen=True, slots=True)
class TypeLine:
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]


def parse_type_line(type_line: str) -> TypeLine:
    """Split one face's type line into supertypes, card types and subtypes.

    Subtypes are space-separated words except "Time Lord" (the one two-word creature type) and a
    Plane's subtype, which is the whole planar name ("Plane — New Phyrexia").
    """
    left, dash, right = type_line.partition("—")
    if not dash:
        left, dash, right = type_line.partition(" - ")
    words = left.split()
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    right = right.strip()
    if not right:
        return TypeLine(supertypes, types, ())
    if "Plane" in types:
        return TypeLine(supertypes, types, (right,))
    subtypes: list[str] = []
    tokens = right.split()
    i = 0
    while i < len(tokens):
        if tokens[i] == "Time" and i + 1 < len(tokens) and tokens[i + 1] == "Lord":
            subtypes.append("Time Lord")
            i += 2
        else:
            subtypes.append(tokens[i])
            i += 1
    return TypeLine(supertypes, types, tuple(subtypes))


def face_type_lines(type_line: str) -> list[str]:
    """ "Land // Legendary Creature — Demon" -> one type line per face."""
    return [part.strip() for part in type_line.split(" // ")]
