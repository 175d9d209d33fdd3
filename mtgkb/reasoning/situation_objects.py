"""The objects of a situation as objects, not names: the ``id`` that tells apart several objects of
one card, one zone per object (400.1), and a permanent's face state (``transformed``, ``flipped``,
``face_down``), refused where the card cannot be so by what its layout says (data/layouts.ttl:
mtgkb:permanentMayBe, mtgkb:permanentNeverIs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import shown
from mtgkb.core.errors import shown as cut
from mtgkb.kb.vocab import V
from mtgkb.reasoning.situation_text import SituationError

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: A situation's object (mtgkb.reasoning.situation.GameObject, which imports this module).
GameObject = Any

_STATES = {V.Transformed: "transformed", V.Flipped: "flipped", V.FaceDown: "face_down"}
#: The concept node whose rules a refusal cites, by the state refused.
_REASONS = {
    V.Transformed: "transformed-needs-a-transforming-card",
    V.Flipped: "flipped-needs-a-flip-card",
    V.FaceDown: "double-faced-never-face-down",
}
_CANNOT = {
    V.Transformed: "only a transforming double-faced card has a back face to turn to",
    V.Flipped: "only a flip card has a half to flip to",
    V.FaceDown: "a double-faced permanent cannot be turned face down",
}


def set_face_state(
    kb: KnowledgeBase, obj: GameObject, item: dict[str, Any], where: str, rules_of: Callable[[str], str]
) -> None:
    """Set ``obj``'s face state from the situation ``item``; ``rules_of(concept)`` names the rules a
    refusal cites ("CR 712.16, 708.2a")."""
    given = []
    for state, name in _STATES.items():
        if name in item:
            if not isinstance(item[name], bool):
                raise SituationError(f"{where}.{name}", "true or false")
            if item[name]:
                given.append(state)
    if not given:
        return
    if len(given) > 1:
        raise SituationError(
            f"{where}.{_STATES[given[1]]}",
            f"a permanent is in one face state at a time, not {_STATES[given[0]]} and {_STATES[given[1]]}"
            f" ({rules_of('double-faced-never-face-down')})",
        )
    state = given[0]
    may, never, kind = _layout_states(kb, obj, state)
    if state in never or (state != V.FaceDown and state not in may):
        raise SituationError(
            f"{where}.{_STATES[state]}",
            f"{cut(obj.name)} is a {kind}, so it cannot be {_STATES[state].replace('_', ' ')}: "
            f"{_CANNOT[state]} ({rules_of(_REASONS[state])})",
        )
    obj.transformed, obj.flipped, obj.face_down = (
        state == V.Transformed,
        state == V.Flipped,
        state == V.FaceDown,
    )


def _layout_states(kb: KnowledgeBase, obj: GameObject, state: str) -> tuple[set[str], set[str], str]:
    """The face states the object's layout allows and forbids, and what kind of card it is."""
    may: set[str] = set()
    never: set[str] = set()
    kind = "card of one face"
    if obj.card is not None:
        from mtgkb.kb.query_files import library_query

        for row in kb.select(library_query("card-face-states"), card=obj.card):
            kind = row.get("label") or f"{row['layoutName']} card"
            may |= {row["may"]} if row.get("may") else set()
            never |= {row["never"]} if row.get("never") else set()
    elif state != V.FaceDown:
        kind = "token"
    return may, never, kind


def object_id(item: Any, where: str) -> str | None:
    """The ``id`` a situation gives one object, so that a question can name it among others of the
    same card."""
    if not isinstance(item, dict) or "id" not in item:
        return None
    value = item["id"]
    if not isinstance(value, str) or not value.strip():
        raise SituationError(
            f"{where}.id", f"a name for this object, e.g. 'bears-1', not {shown(str(value))}"
        )
    return value


def check_one_zone_per_object(objects: list[GameObject]) -> None:
    """An object is in one zone at a time (400.1): that holds for one object, not for a name (a
    player may hold several cards of one name, tokens share names), so what may not be listed twice
    is an ``id``."""
    seen: dict[str, GameObject] = {}
    for obj in objects:
        if obj.id is None:
            continue
        first = seen.setdefault(obj.id, obj)
        if first is not obj:
            raise SituationError(
                f"{obj.where}.id",
                f"the object {cut(obj.id)} is also listed at {first.where}; an object is in one "
                "zone at a time",
                "give each object its own id, and list it once, in the zone it is in now",
            )


_COUNT_LIMIT = 1_000_000


def read_permanent_state(obj: GameObject, item: dict[str, Any], where: str) -> None:
    """``new_this_turn`` (true or false), ``counters``, ``activations_this_turn`` and
    ``activations_this_game`` (each a mapping of a kind to a whole number, e.g. {"loyalty": 3}) of a
    permanent; the last is for an ability activated only once (exhaust, 702.177a)."""
    if "new_this_turn" in item:
        if not isinstance(item["new_this_turn"], bool):
            raise SituationError(f"{where}.new_this_turn", "true or false")
        obj.new_this_turn = item["new_this_turn"]
    for name in ("counters", "activations_this_turn", "activations_this_game"):
        if name not in item:
            continue
        value = item[name]
        example = '{"loyalty": 3, "+1/+1": 2}' if name == "counters" else '{"loyalty": 1}'
        if not isinstance(value, dict):
            raise SituationError(f"{where}.{name}", f"a mapping of kinds to numbers, e.g. {example}")
        for kind, count in value.items():
            if not isinstance(kind, str) or not kind.strip():
                raise SituationError(f"{where}.{name}", f"a kind is a name, e.g. {example}")
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= _COUNT_LIMIT:
                raise SituationError(
                    f"{where}.{name}.{shown(kind)}",
                    f"a whole number from 0 to {_COUNT_LIMIT:,}, not {shown(str(count))}",
                )
        setattr(obj, name, dict(value))


def read_life_and_energy(section: dict[str, Any], where: str) -> tuple[int, int]:
    """A player's ``life`` (20 when not given): a whole number, negative included (104.3a); and
    ``energy`` (none when not given): a count of energy counters, never negative (107.14)."""
    life = section.get("life", 20)
    if isinstance(life, bool) or not isinstance(life, int) or abs(life) > _COUNT_LIMIT:
        raise SituationError(
            f"{where}.life", f"a life total, a whole number such as 20, not {shown(str(life))}"
        )
    energy = section.get("energy", 0)
    if isinstance(energy, bool) or not isinstance(energy, int) or not 0 <= energy <= _COUNT_LIMIT:
        raise SituationError(
            f"{where}.energy",
            f"a number of energy counters, from 0 to {_COUNT_LIMIT:,}, not {shown(str(energy))}",
        )
    return life, energy
