"""What a situation says happened earlier in the turn: a player's ``this_turn`` (the spells they
cast, the life they lost, the creatures of theirs that dealt combat damage to a player), and how a
card came to its hand or graveyard (a hand card revealed by its miracle as the first card drawn this
turn, a graveyard card discarded this turn). Surge, spectacle, prowl, freerunning, miracle and
mayhem ask these; a field not given is nothing of the kind this turn."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mtgkb.reasoning.situation_limits import MAX_AMOUNT
from mtgkb.reasoning.situation_text import SituationError, closed_fields, list_field, shown

THIS_TURN_FIELDS = {"spells_cast", "life_lost", "combat_damage_by"}
#: The fields a card in each zone other than exile and the battlefield may carry.
CARD_FIELDS = {"hand": {"card", "id", "miracle"}, "graveyard": {"card", "id", "discarded_this_turn"}}
_HOW_THERE = {"miracle": "revealed by its miracle", "discarded_this_turn": "discarded this turn"}


@dataclass
class ThisTurn:
    spells_cast: int = 0  # other spells the player cast this turn (surge, 702.117a)
    life_lost: int = 0  # life the player lost this turn (spectacle, 702.137a)
    # The card IRIs of the player's sources that dealt combat damage to a player (prowl, freerunning).
    combat_damage_by: list[str] = field(default_factory=list)


def damage_card_names(section: dict[str, Any], at: str) -> Iterator[tuple[str, str]]:
    """(field, card name) for each source named in the player's ``this_turn.combat_damage_by``."""
    turn = section.get("this_turn")
    if isinstance(turn, dict):
        for index, name in enumerate(list_field(turn.get("combat_damage_by", []), f"{at}.this_turn")):
            if isinstance(name, str):
                yield f"{at}.this_turn.combat_damage_by[{index}]", name


def read_this_turn(section: dict[str, Any], where: str, cards: dict[str, tuple[str, str]]) -> ThisTurn:
    """A player's ``this_turn``: counts are whole numbers, ``combat_damage_by`` a list of card names
    (resolved in ``cards``, the situation's name -> (IRI, name))."""
    value = section.get("this_turn", {})
    where = f"{where}.this_turn"
    if not isinstance(value, dict):
        raise SituationError(where, "a mapping such as {spells_cast: 1, life_lost: 2}")
    closed_fields(value, THIS_TURN_FIELDS, where)
    turn = ThisTurn()
    for name in ("spells_cast", "life_lost"):
        count = value.get(name, 0)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_AMOUNT:
            raise SituationError(f"{where}.{name}", f"a whole number from 0, not {shown(count)}")
        setattr(turn, name, count)
    names = list_field(value.get("combat_damage_by", []), f"{where}.combat_damage_by")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise SituationError(f"{where}.combat_damage_by[{index}]", "a card name, e.g. 'Grizzly Bears'")
        turn.combat_damage_by.append(cards[name][0])
    return turn


def read_card_state(item: Any, where: str, zone: str) -> list[str]:
    """How a hand or graveyard card got there, in the words the requirements use."""
    if not isinstance(item, dict):
        return []
    found = []
    for name in CARD_FIELDS.get(zone, set()) & set(_HOW_THERE):
        if name in item:
            if not isinstance(item[name], bool):
                raise SituationError(f"{where}.{name}", "true or false")
            if item[name]:
                found.append(_HOW_THERE[name])
    return found
