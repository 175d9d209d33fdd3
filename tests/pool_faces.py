"""What the MTGJSON snapshot says about the cards of several faces, for the face tests of the pool
(tests/test_pool_faces.py): each card of a multi-face layout with its face records, the faces its
name announces that the snapshot leaves out (its known gap: 261 multi-face names with one face, see
../shared/data/README.md), and the comparisons of a `card --json` answer with those records, field by
field. The expected card-level values follow the rule of the card's layout as the graph states it
(data/layouts.ttl), read by the test, not written here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mtgkb.kb.vocab import V

#: The layouts whose cards have several faces or sets of characteristics (issue 20).
LAYOUTS = ("split", "aftermath", "adventure", "modal_dfc", "transform", "flip", "meld", "prototype")

_SYMBOL = re.compile(r"\{([^{}]+)\}")
_REMINDER = re.compile(r"\([^()]*\)")


@dataclass
class SnapshotCard:
    name: str  # the record's name: "Fire // Ice", "Bruna, the Fading Light // Brisela, ..."
    layout: str
    faces: list[dict[str, Any]]
    announced: list[str]  # face names the full name gives beyond the records (the snapshot's gap)
    melds_into: str | None = None

    @property
    def lookup_name(self) -> str:
        """The name the card goes by: a meld card's front face (its back is no face of its own)."""
        return self.name.split(" // ")[0] if self.layout == "meld" else self.name

    @property
    def complete(self) -> bool:
        return not self.announced


@dataclass
class Comparison:
    """Differences between one answer and the snapshot: (what, ours, theirs)."""

    card: str
    problems: list[tuple[str, Any, Any]] = field(default_factory=list)

    def check(self, what: str, ours: Any, theirs: Any) -> None:
        if ours != theirs:
            self.problems.append((what, ours, theirs))


def multi_face_cards(atomic: dict[str, list[dict[str, Any]]]) -> dict[str, list[SnapshotCard]]:
    """Every card of each layout of :data:`LAYOUTS`, and (under "melded") the records that are a meld
    pair's combined back face rather than a card."""
    found: dict[str, list[SnapshotCard]] = {layout: [] for layout in (*LAYOUTS, "melded")}
    for name, faces in atomic.items():
        layout = faces[0].get("layout")
        if layout not in LAYOUTS:
            continue
        faces = sorted(faces, key=lambda face: face.get("side") or "")
        if layout == "meld" and all(face.get("side") == "b" for face in faces):
            found["melded"].append(SnapshotCard(name, layout, faces, []))
            continue
        parts = name.split(" // ")
        given = [face.get("faceName") or face["name"] for face in faces]
        announced = [] if layout == "meld" else [part for part in parts if part not in given]
        melds_into = parts[1] if layout == "meld" and len(parts) == 2 else None
        found[layout].append(SnapshotCard(name, layout, faces, announced, melds_into))
    return found


def wubrg(colours: list[str] | None) -> list[str]:
    return [c for c in "WUBRG" if c in (colours or [])]


def face_mana_value(face: dict[str, Any]) -> float | None:
    """The mana value of the face's own mana cost, as the snapshot gives it (a front face without
    faceManaValue has the card's)."""
    if "faceManaValue" in face:
        return float(face["faceManaValue"])
    if face.get("side") in (None, "a") and face.get("manaValue") is not None:
        return float(face["manaValue"])
    return None


def compare_face(comparison: Comparison, ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    name = theirs.get("faceName") or theirs["name"]
    where = f"face {name}"
    comparison.check(f"{where}: name", ours["name"], name)
    comparison.check(f"{where}: mana cost", ours["mana_cost"], theirs.get("manaCost"))
    comparison.check(f"{where}: mana value", ours["mana_value"], face_mana_value(theirs))
    comparison.check(f"{where}: type line", ours["type_line"], theirs["type"])
    for field_name, key in (("supertypes", "supertypes"), ("types", "types"), ("subtypes", "subtypes")):
        comparison.check(f"{where}: {field_name}", ours[field_name], theirs.get(key) or [])
    comparison.check(f"{where}: Oracle text", ours["oracle_text"], theirs.get("text"))
    for field_name in ("power", "toughness", "loyalty", "defense"):
        comparison.check(f"{where}: {field_name}", ours[field_name], theirs.get(field_name))
    comparison.check(f"{where}: colours", ours["colors"], wubrg(theirs.get("colors")))
    comparison.check(
        f"{where}: colour indicator", ours["color_indicator"], wubrg(theirs.get("colorIndicator"))
    )
    comparison.check(f"{where}: known only by name", ours["known_only_by_name"], False)


def expected_card(card: SnapshotCard, rule: str) -> dict[str, Any]:
    """The card's own characteristics by its layout's ``rule``, from the snapshot's face records."""
    front = card.faces[0]
    if rule == V.AllFacesCombined:
        return {
            "mana_cost": "".join(face.get("manaCost") or "" for face in card.faces) or None,
            "type_line": " // ".join(face["type"] for face in card.faces),
            "supertypes": _union(face.get("supertypes") for face in card.faces),
            "types": _union(face.get("types") for face in card.faces),
            "subtypes": _union(face.get("subtypes") for face in card.faces),
            "colors": wubrg(_union(face.get("colors") for face in card.faces)),
            "color_indicator": wubrg(_union(face.get("colorIndicator") for face in card.faces)),
            "oracle_text": "\n//\n".join(face["text"] for face in card.faces if face.get("text")) or None,
            "power": None,
            "toughness": None,
        }
    return {
        "mana_cost": front.get("manaCost"),
        "type_line": front["type"],
        "supertypes": front.get("supertypes") or [],
        "types": front.get("types") or [],
        "subtypes": front.get("subtypes") or [],
        "colors": wubrg(front.get("colors")),
        "color_indicator": wubrg(front.get("colorIndicator")),
        "oracle_text": front.get("text"),
        "power": front.get("power"),
        "toughness": front.get("toughness"),
    }


def _union(lists) -> list[str]:
    seen: dict[str, None] = {}
    for values in lists:
        for value in values or ():
            seen.setdefault(value, None)
    return list(seen)


def identity_from_faces(faces: list[dict[str, Any]]) -> list[str]:
    """CR 903.4: the colours of every face (903.4d-e), their colour indicators, and the mana symbols
    of their costs and rules text, reminder text left out (903.4c)."""
    found: set[str] = set()
    for face in faces:
        found |= set(face.get("colors") or []) | set(face.get("colorIndicator") or [])
        text = (face.get("manaCost") or "") + " " + _REMINDER.sub("", face.get("text") or "")
        for symbol in _SYMBOL.findall(text):
            found |= {part for part in symbol.split("/") if part in "WUBRG"}
    return wubrg(sorted(found))


def prototype_of(text: str | None) -> tuple[str, str, str] | None:
    """(cost, power, toughness) of the Prototype line of an Oracle text."""
    for line in (text or "").splitlines():
        if line.startswith("Prototype {"):
            head = line.split(" (", 1)[0]
            cost, _, size = head.removeprefix("Prototype ").partition(" \u2014 ")
            power, _, toughness = size.partition("/")
            return cost, power, toughness
    return None


def mana_value_of(cost: str) -> float:
    """CR 202.3 for the plain costs of prototypes: numbers their amount, every other symbol one."""
    return float(sum(int(s) if s.isdigit() else 1 for s in _SYMBOL.findall(cost) if s != "X"))
