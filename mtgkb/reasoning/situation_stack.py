"""The stack of a situation: spells, ``{card, controller}`` (or a card's name), and activated or
triggered abilities, ``{ability, source, controller}``, bottom first. An ability on the stack is an
object (109.1) but no spell: it has no card, so "target spell" cannot choose it, and a spell that
needs an empty stack waits for it as for any spell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import shown
from mtgkb.reasoning import situation_objects as one_object
from mtgkb.reasoning.situation_text import SituationError, closed_fields, list_field

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

SPELL_FIELDS = {"card", "controller", "id"}
ABILITY_FIELDS = {"ability", "source", "controller", "id"}
_SHAPE = (
    "a stack item is {card: NAME, controller: PLAYER} or {ability: TEXT, source: NAME, controller: PLAYER}"
)


@dataclass(frozen=True)
class StackEntry:
    """One item of the stack as the situation gives it: a spell (its card) or an ability."""

    index: int  # bottom first
    where: str
    name: str
    card: str | None  # the spell's card IRI; None for an ability
    controller: str
    id: str | None
    is_ability: bool


def stack_card_names(items: Any) -> Iterator[tuple[str, str]]:
    """(field, card name) for each card the stack names: a spell's card, an ability's source."""
    for index, item in enumerate(list_field(items, "stack")):
        if isinstance(item, str):
            yield f"stack[{index}]", item
        elif isinstance(item, dict):
            for key in ("card", "source"):
                if isinstance(item.get(key), str):
                    yield f"stack[{index}].{key}", item[key]


def read_stack(
    items: Any, turn: Any, players: Container[str], cards: dict[str, tuple[str, str]]
) -> list[StackEntry]:
    found = []
    for index, item in enumerate(list_field(items, "stack")):
        where = f"stack[{index}]"
        if isinstance(item, str):
            item = {"card": item}
        if not isinstance(item, dict):
            raise SituationError(where, _SHAPE)
        is_ability = "ability" in item
        closed_fields(item, ABILITY_FIELDS if is_ability else SPELL_FIELDS, where)
        controller = item.get("controller", turn)
        if not isinstance(controller, str) or controller not in players:
            choices = ", ".join(sorted(players))
            what = f"{shown(str(controller))} is not a player ({choices})"
            raise SituationError(f"{where}.controller", what)
        if is_ability:
            text = item["ability"]
            if not isinstance(text, str) or not text.strip():
                raise SituationError(f"{where}.ability", "the ability's text or keyword, e.g. 'ninjutsu'")
            if not isinstance(item.get("source"), str):
                raise SituationError(f"{where}.source", "the name of the card whose ability it is")
            _, source = cards[item["source"]]
            card, name = None, f"{source}'s ability ({shown(text.strip())})"
        else:
            if not isinstance(item.get("card"), str):
                raise SituationError(f"{where}.card", "the spell's card name")
            card, name = cards[item["card"]]
        found.append(
            StackEntry(index, where, name, card, controller, one_object.object_id(item, where), is_ability)
        )
    return found
