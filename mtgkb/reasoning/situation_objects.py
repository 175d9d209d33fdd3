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
            value = item[name]
            if state == V.FaceDown and isinstance(value, str):
                if value not in FACE_DOWN_KINDS:
                    kinds = ", ".join(FACE_DOWN_KINDS)
                    raise SituationError(f"{where}.{name}", f"true, or how it was turned face down: {kinds}")
                obj.face_down_as = value
                value = True
            if not isinstance(value, bool):
                raise SituationError(f"{where}.{name}", "true or false")
            if value:
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


#: How a permanent came to be face down (708, 701.40, 701.58), which says how it may be turned face
#: up; "other": by an effect that gives no way to turn it up.
FACE_DOWN_KINDS = ("morph", "megamorph", "disguise", "manifest", "cloak", "other")

#: What a card in exile may say of how it got there (702.143, 702.170, 702.62, 715.3d, 702.35a).
EXILE_FIELDS = {"card", "id", "foretold", "plotted", "suspended", "on_adventure", "madness", "counters"}


def read_exile_state(item: Any, where: str) -> dict[str, Any]:
    """``foretold`` and ``plotted`` (true: on an earlier turn, or "this turn"), ``suspended``,
    ``on_adventure`` and ``madness`` (true or false; madness: discarded and exiled by its madness, its
    trigger resolving) and ``counters`` ({"time": 3}) of a card in exile (the other zones' cards
    allow none of these fields)."""
    if not isinstance(item, dict):
        return {}
    state: dict[str, Any] = {}
    for name in ("foretold", "plotted"):
        if name in item:
            if item[name] not in (True, False, "this turn"):
                raise SituationError(f"{where}.{name}", 'true (on an earlier turn), false, or "this turn"')
            state[name] = item[name]
    for name in ("suspended", "on_adventure", "madness"):
        if name in item:
            if not isinstance(item[name], bool):
                raise SituationError(f"{where}.{name}", "true or false")
            state[name] = item[name]
    if "counters" in item:
        state["counters"] = _counts(item["counters"], f"{where}.counters", counters=True)
    return state


def resolve_attachments(objects: list[GameObject]) -> None:
    """Each ``attached_to`` named in the situation, as the key of the permanent it names: an ``id``
    or the name of one permanent on the battlefield, not the attached permanent itself."""
    battlefield = [o for o in objects if o.zone == "battlefield"]
    for obj in battlefield:
        if obj.attached_to is None:
            continue
        wanted = obj.attached_to
        found = [o for o in battlefield if o is not obj and wanted in (o.id, o.name)]
        if len(found) != 1:
            why = (
                "names no other permanent on the battlefield"
                if not found
                else "names several: give each an id"
            )
            raise SituationError(f"{obj.where}.attached_to", f"{shown(wanted)} {why}")
        obj.attached_to = found[0].key


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
    if "attached_to" in item:
        if not isinstance(item["attached_to"], str) or not item["attached_to"].strip():
            raise SituationError(f"{where}.attached_to", "the name or id of the permanent it is attached to")
        obj.attached_to = item["attached_to"]
    if "new_this_turn" in item:
        if not isinstance(item["new_this_turn"], bool):
            raise SituationError(f"{where}.new_this_turn", "true or false")
        obj.new_this_turn = item["new_this_turn"]
    for name in ("counters", "activations_this_turn", "activations_this_game"):
        if name in item:
            setattr(obj, name, _counts(item[name], f"{where}.{name}", name == "counters"))


def _counts(value: Any, where: str, counters: bool) -> dict[str, int]:
    """A mapping of kinds to whole numbers: counters ({"loyalty": 3}) or activations ({"1": 2})."""
    example = '{"loyalty": 3, "+1/+1": 2}' if counters else '{"loyalty": 1}'
    if not isinstance(value, dict):
        raise SituationError(where, f"a mapping of kinds to numbers, e.g. {example}")
    for kind, count in value.items():
        if not isinstance(kind, str) or not kind.strip():
            raise SituationError(where, f"a kind is a name, e.g. {example}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= _COUNT_LIMIT:
            what = f"a whole number from 0 to {_COUNT_LIMIT:,}, not {shown(str(count))}"
            raise SituationError(f"{where}.{shown(kind)}", what)
    return dict(value)


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
