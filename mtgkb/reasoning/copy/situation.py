"""The game situation as the copy verdict needs it: the shared situation reader
(:mod:`mtgkb.reasoning.situation`) plus the few fields only copying asks about.

Each battlefield permanent may carry, beside the shared fields (``card``, ``token``, ``tapped``,
``attacking``, ``controller``, ``copy_of``, a token's ``types``, ...):
``counters`` ({kind: number}), ``attached`` (the Auras
and Equipment on it), ``effects`` (non-copy effects on it, in words), ``entered_from`` (the zone it
entered the battlefield from) and, for a token, the characteristics its creating effect gave it
(``name``, ``power``, ``toughness``, ``colors``, ``subtypes``, ``supertypes``, ``abilities``,
``mana_cost``). The face states (``face_down``, ``transformed``, ``flipped``) are the shared
reader's. These are taken out before the shared reader checks the rest, and checked here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.reasoning.situation import SituationError, read_situation, shown
from mtgkb.reasoning.situation_limits import MAX_AMOUNT
from mtgkb.reasoning.situation_text import checked_values, field_path, list_field

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_FLAGS: tuple[str, ...] = ()  # face_down, transformed, flipped: the shared reader's face states
_LISTS = ("attached", "effects", "colors", "subtypes", "supertypes", "abilities")
_TEXTS = ("entered_from", "name", "power", "toughness", "mana_cost")
#: The fields this module adds to a battlefield permanent of the shared format.
COPY_FIELDS = frozenset({*_FLAGS, *_LISTS, *_TEXTS, "counters"})
_TOKEN_ONLY = frozenset(
    {"name", "power", "toughness", "colors", "subtypes", "supertypes", "abilities", "mana_cost"}
)
_ZONES = ("hand", "graveyard", "exile", "library", "command", "battlefield", "stack")


@dataclass
class SituationObject:
    """One object of the situation: a permanent, or a card in another zone (``zone`` says which)."""

    player: str  # its controller
    zone: str
    card: str | None = None  # the card's name as the data spells it
    token: str | None = None
    copy_of: str | None = None  # the name of the card it is copying
    tapped: bool = False
    attacking: Any = None
    commander: bool = False
    face_down: bool = False
    transformed: bool = False
    flipped: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    entered_from: str | None = None
    printed: dict[str, Any] = field(default_factory=dict)  # a token's own characteristics

    @property
    def label(self) -> str:
        return self.card or (f"{self.token} token" if self.token else "object")


@dataclass
class CopySituation:
    objects: list[SituationObject]
    active_player: str | None = None  # whose turn it is: who casts a copier the situation does not hold

    def is_commander(self, obj: SituationObject) -> bool:
        return obj.commander and obj.token is None


def read_copy_situation(kb: KnowledgeBase, data: dict[str, Any]) -> CopySituation:
    """Check ``data`` with the shared reader (its copy fields aside) and return its objects."""
    data = checked_values(data)  # a copy: the copy fields are taken out of it
    extras = _take_copy_fields(data)
    shared = read_situation(kb, data)
    raw_copies = _raw_copy_of(data)
    objects = []
    for obj in shared.objects:
        extra = extras.get(obj.key, {})
        objects.append(
            SituationObject(
                player=obj.controller,
                zone=obj.zone,
                card=obj.name if not obj.token else None,
                token=obj.name if obj.token else None,
                copy_of=raw_copies.get(obj.key),
                tapped=obj.tapped,
                attacking=obj.attacking,
                commander=obj.commander,
                face_down=obj.face_down,
                transformed=obj.transformed,
                flipped=obj.flipped,
                counters=dict(extra.get("counters") or {}),
                attached=list(extra.get("attached") or []),
                effects=list(extra.get("effects") or []),
                entered_from=extra.get("entered_from"),
                printed={k: v for k, v in extra.items() if k in _TOKEN_ONLY}
                | ({"types": obj.types} if obj.token else {}),
            )
        )
    return CopySituation(objects, shared.turn)


def _battlefields(data: dict[str, Any]):
    players = data.get("players")
    if not isinstance(players, dict):
        return
    for player, section in players.items():
        if not isinstance(section, dict) or not isinstance(section.get("battlefield"), list):
            continue
        at = field_path("players", player)
        for index, item in enumerate(section["battlefield"]):
            if isinstance(item, dict):
                yield f"{player}/battlefield/{index}", f"{at}.battlefield[{index}]", item


def _take_copy_fields(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Pop the copy fields off every battlefield permanent, checked, by the shared object key."""
    extras: dict[str, dict[str, Any]] = {}
    for key, where, item in _battlefields(data):
        found = {name: item.pop(name) for name in list(item) if name in COPY_FIELDS}
        for name, value in found.items():
            _check(name, value, f"{where}.{name}", is_token="token" in item)
        extras[key] = found
    return extras


def _check(name: str, value: Any, where: str, is_token: bool) -> None:
    if name in _TOKEN_ONLY and not is_token:
        raise SituationError(where, "only a token's characteristics are given; a card has its own")
    if name in _FLAGS and not isinstance(value, bool):
        raise SituationError(where, "true or false")
    for index, item in enumerate(list_field(value, where) if name in _LISTS else ()):
        if not isinstance(item, str):
            raise SituationError(f"{where}[{index}]", f"a list of strings; not {shown(item)}")
    if name in ("power", "toughness") and (isinstance(value, bool) or not isinstance(value, int | str)):
        raise SituationError(where, "a number, e.g. 2")
    if name in ("name", "mana_cost") and not isinstance(value, str):
        raise SituationError(where, "text: the token's name, or its mana cost such as '{1}{U}'")
    if name == "mana_cost":
        from mtgkb.reasoning.mana import parse_cost

        try:
            parse_cost(value)
        except ValueError as error:
            raise SituationError(where, str(error)) from None
    if name == "entered_from" and value not in _ZONES:
        raise SituationError(where, f"{shown(value)} is not a zone ({', '.join(_ZONES)})")
    if name == "counters":
        if not isinstance(value, dict):
            raise SituationError(where, "a mapping of counter kind to a whole number, e.g. {'+1/+1': 2}")
        for kind, count in value.items():
            if not isinstance(kind, str) or isinstance(count, bool) or not isinstance(count, int):
                raise SituationError(
                    field_path(where, kind), "a counter kind with a whole number, e.g. {'+1/+1': 2}"
                )
            if not 0 <= count <= MAX_AMOUNT:
                raise SituationError(
                    field_path(where, kind), f"{count:,} counters; a whole number from 0 to {MAX_AMOUNT:,}"
                )


def _raw_copy_of(data: dict[str, Any]) -> dict[str, str]:
    """What each permanent copies, as written (the shared reader has checked that it names a card)."""
    return {
        key: item["copy_of"] for key, _, item in _battlefields(data) if isinstance(item.get("copy_of"), str)
    }
