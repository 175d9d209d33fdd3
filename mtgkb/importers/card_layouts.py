"""A card of several faces as the rules see it: which faces give the card its own characteristics
(the layout rules of data/layouts.ttl), the faces its name announces that the data leaves out, its
prototype (718), and meld pairs (712.4: the combined back face is not a card).

The readers (mtgjson.py, scryfall.py) give each face its own characteristics and the card the values
its source gives; :func:`prepare_records` then sets the card's characteristics from its faces by the
rule of its layout, which the curated data states with its citation. A layout the data does not
describe, or a record that names none (the Scryfall commander list), takes its first face: that is the
rule of every layout but split cards (712.8a, 710.2, 715.4, 718.4, 720.4), and those sources hold no
split cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.importers.card_model import CardRecord, FaceRecord, PrototypeRecord, RulingRecord
from mtgkb.kb.vocab import V

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_PROTOTYPE = re.compile(r"^Prototype ((?:\{[^{}]+\})+) [\u2014-] ([^\s/]+)/(\S+)", re.MULTILINE)


@dataclass
class LayoutRules:
    """What the curated data says about faces: each layout's rule, and the meld pairs."""

    rules: dict[str, str] = field(default_factory=dict)  # layout name -> V.FirstFaceOnly | V.AllFacesCombined
    melded: dict[str, list[str]] = field(default_factory=dict)  # combined back face -> its cards' names
    melded_iris: dict[str, str] = field(default_factory=dict)  # combined back face -> its node

    def rule(self, layout: str | None) -> str:
        return self.rules.get(layout or "", V.FirstFaceOnly)

    def part_of(self, name: str) -> str | None:
        """The combined back face the card ``name`` melds into, by rule 712.5's pairs."""
        return next((melded for melded, parts in self.melded.items() if name in parts), None)


def read_layout_rules(kb: KnowledgeBase) -> LayoutRules:
    """The layout rules and meld pairs of the store's curated data."""
    from mtgkb.kb.query_files import library_query

    found = LayoutRules()
    for row in kb.select(library_query("layout-rules")):
        if row.get("layoutName") and row.get("rule"):
            found.rules[row["layoutName"]] = row["rule"]
        if row.get("melded"):
            found.melded.setdefault(row["meldedName"], []).append(row["part"])
            found.melded_iris[row["meldedName"]] = row["melded"]
    return found


def prepare_records(cards: list[CardRecord], rules: LayoutRules) -> tuple[list[CardRecord], list[CardRecord]]:
    """The cards, each with its characteristics set by its layout's rule, and apart from them the
    records that are combined back faces of meld pairs."""
    kept: list[CardRecord] = []
    melded: list[CardRecord] = []
    for record in cards:
        if record.melded_face or record.name in rules.melded:
            record.melded_face = True
            melded.append(record)
            continue
        _announced_faces(record)
        _meld_partner(record, rules)
        record.prototype = _prototype(record)
        apply_layout_rule(record, rules.rule(record.layout))
        kept.append(record)
    return kept, melded


def apply_layout_rule(record: CardRecord, rule: str) -> None:
    """Set the card's characteristics from its faces: the first face's only, or all combined."""
    known = [face for face in record.faces if not face.known_only_by_name]
    if not known:
        return
    if rule == V.AllFacesCombined:
        record.mana_cost = "".join(face.mana_cost or "" for face in known) or None
        record.type_line = " // ".join(face.type_line or "" for face in known)
        record.supertypes = _union(face.supertypes for face in known)
        record.types = _union(face.types for face in known)
        record.subtypes = _union(face.subtypes for face in known)
        record.oracle_text = "\n//\n".join(face.oracle_text for face in known if face.oracle_text) or None
        record.colors = _union(face.colors for face in known)
        record.color_indicator = _union(face.color_indicator for face in known) or None
        for attribute in ("power", "toughness", "loyalty", "defense"):
            values = [getattr(face, attribute) for face in known if getattr(face, attribute)]
            setattr(record, attribute, values[0] if values else None)
        return
    front = record.faces[0]
    if front.known_only_by_name:
        return
    record.mana_cost = front.mana_cost
    record.type_line = front.type_line or record.type_line
    if front.type_line:
        record.supertypes, record.types, record.subtypes = front.supertypes, front.types, front.subtypes
    record.color_indicator = front.color_indicator
    if front.colors is not None:
        record.colors = front.colors
    # A face read from a card list's name and type line alone leaves the card's own values standing.
    for attribute in ("oracle_text", "power", "toughness", "loyalty", "defense"):
        value = getattr(front, attribute)
        if value is not None:
            setattr(record, attribute, value)


def own_faces(record: CardRecord, rule: str) -> list[int]:
    """The indexes of the faces whose abilities the card itself has (709.4c, 712.8a, ...)."""
    if not record.faces:
        return []
    return list(range(len(record.faces))) if rule == V.AllFacesCombined else [0]


def _union(lists) -> list[str]:
    seen: dict[str, None] = {}
    for values in lists:
        for value in values or ():
            seen.setdefault(value, None)
    return list(seen)


def _announced_faces(record: CardRecord) -> None:
    """A card named "A // B" whose data gives face A only gets a face B known only by its name."""
    parts = record.name.split(" // ")
    if len(parts) < 2 or len(set(parts)) == 1 or record.layout == "meld" or len(record.faces) >= len(parts):
        return
    given = {face.name for face in record.faces}
    if record.faces and record.faces[0].name != parts[0]:
        return  # the faces are not the name's parts in order: leave them as the data gives them
    record.faces += [FaceRecord(name=part, known_only_by_name=True) for part in parts if part not in given]


def _meld_partner(record: CardRecord, rules: LayoutRules) -> None:
    parts = record.name.split(" // ")
    if record.layout == "meld" and len(parts) == 2 and parts[0] != parts[1]:
        record.melds_into = parts[1]
    else:
        record.melds_into = rules.part_of(parts[0])
    if record.melds_into and len(parts) == 2 and record.faces and len(record.faces) > 1:
        # A data file giving the combined face as the card's second face: it is no face of this card.
        record.faces = [face for face in record.faces if face.name != record.melds_into]


def _prototype(record: CardRecord) -> PrototypeRecord | None:
    match = _PROTOTYPE.search(record.oracle_text or "")
    return PrototypeRecord(*match.groups()) if match else None


def rulings_to_pairs(
    rulings: list[RulingRecord], melded: list[CardRecord], cards: list[CardRecord]
) -> list[RulingRecord]:
    """A ruling on a combined back face is about the permanent both cards of its pair become, so it
    goes to each of them (one already on a card stays once: its node is the same)."""
    names = {record.name for record in melded}
    if not names:
        return rulings
    pairs: dict[str, list[str]] = {}
    for record in cards:
        if record.melds_into in names:
            pairs.setdefault(record.melds_into, []).append(record.name)
    kept = []
    for ruling in rulings:
        if ruling.card_name in names:
            kept += [
                RulingRecord(card, ruling.date, ruling.text, ruling.source)
                for card in pairs.get(ruling.card_name, ())
            ] or [ruling]  # no card of the pair in this import: reported as a ruling without its card
        else:
            kept.append(ruling)
    return kept
