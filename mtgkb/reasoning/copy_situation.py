"""The battlefield of a game situation, as much of it as the copy verdict needs.

A stop-gap until the shared situation reader (mtgkb/reasoning/situation.py, issue 6) lands: it reads
the same file format (JSON or YAML, ``-`` for stdin), but only the players' zones and the objects on
the battlefield. Fields of a battlefield object beyond the shared ones that copying needs:
``copy_of`` (the object it is copying: a card name or another object), ``face_down``,
``transformed`` (back face up), ``counters`` ({kind: number}), ``attached`` (Auras and Equipment),
``effects`` (non-copy effects on it, in words), ``entered_from`` (the zone it entered from) and, for
a token without a card, its characteristics (``power``, ``toughness``, ``colors``, ``types``,
``subtypes``, ``supertypes``, ``abilities``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb.errors import MtgkbError

ZONE_LISTS = ("hand", "graveyard", "exile", "library_top", "command")
_OBJECT_FIELDS = {
    "card",
    "token",
    "copy_of",
    "controller",
    "attacking",
    "blocked",
    "blocked_by",
    "tapped",
    "face_down",
    "transformed",
    "counters",
    "attached",
    "effects",
    "entered_from",
    "power",
    "toughness",
    "colors",
    "types",
    "subtypes",
    "supertypes",
    "abilities",
    "name",
    "mana_cost",
}
_PLAYER_FIELDS = {
    "hand",
    "graveyard",
    "exile",
    "library_top",
    "command",
    "commanders",
    "battlefield",
    "mana",
    "commander_casts",
}


class SituationError(MtgkbError):
    """The situation file is unreadable or names a field we do not know."""


@dataclass
class SituationObject:
    """One object on the battlefield (or a card in another zone, with ``zone`` saying which)."""

    player: str
    zone: str
    card: str | None = None
    token: str | None = None
    copy_of: Any = None  # a card name or a raw object dict
    tapped: bool = False
    attacking: Any = None
    face_down: bool = False
    transformed: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    entered_from: str | None = None
    printed: dict[str, Any] = field(default_factory=dict)  # a token's own characteristics

    @property
    def label(self) -> str:
        return self.card or (f"{self.token} token" if self.token else "object")


@dataclass
class Situation:
    turn: str | None
    players: dict[str, dict[str, Any]]
    objects: list[SituationObject]

    def commanders(self, player: str) -> list[str]:
        data = self.players.get(player, {})
        return list(data.get("command") or []) + list(data.get("commanders") or [])

    def is_commander(self, obj: SituationObject) -> bool:
        return obj.card is not None and not obj.token and obj.card in self.commanders(obj.player)


def load_situation(path: str) -> dict[str, Any]:
    """The raw situation object from ``path`` (``-`` for stdin), JSON or YAML."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise SituationError(f"cannot read the situation file {path}: {error.strerror}") from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            import yaml

            data = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise SituationError(
                f"the situation in {path} is neither JSON nor YAML", "check its syntax"
            ) from error
    if not isinstance(data, dict):
        raise SituationError("a situation is a mapping with 'players' (and 'turn', 'step', ...)")
    return data


def read_situation(data: dict[str, Any], canonical: Any) -> Situation:
    """``canonical(name)`` turns a card name as typed into the name the knowledge base spells."""
    players = data.get("players")
    if not isinstance(players, dict) or not players:
        raise SituationError("the situation names no players", "add 'players: {me: {battlefield: [...]}}'")
    objects: list[SituationObject] = []
    for player, zones in players.items():
        zones = zones or {}
        if not isinstance(zones, dict):
            raise SituationError(f"player '{player}' must be a mapping of zones")
        unknown = set(zones) - _PLAYER_FIELDS
        if unknown:
            raise SituationError(
                f"unknown field {sorted(unknown)[0]!r} for player '{player}'",
                f"known fields: {', '.join(sorted(_PLAYER_FIELDS))}",
            )
        for zone in ZONE_LISTS:
            for name in zones.get(zone) or []:
                objects.append(SituationObject(player, zone, card=canonical(str(name))))
        for raw in zones.get("battlefield") or []:
            objects.append(battlefield_object(player, raw, canonical))
    return Situation(turn=data.get("turn"), players=players, objects=objects)


def battlefield_object(player: str, raw: Any, canonical: Any) -> SituationObject:
    if isinstance(raw, str):
        raw = {"card": raw}
    if not isinstance(raw, dict) or not (raw.get("card") or raw.get("token")):
        raise SituationError(f"a battlefield object of '{player}' needs 'card' or 'token': {raw!r}")
    unknown = set(raw) - _OBJECT_FIELDS
    if unknown:
        raise SituationError(
            f"unknown field {sorted(unknown)[0]!r} on {raw.get('card') or raw.get('token')}",
            f"known fields: {', '.join(sorted(_OBJECT_FIELDS))}",
        )
    counters = raw.get("counters") or {}
    if not isinstance(counters, dict):
        raise SituationError("'counters' is a mapping of counter kind to number, e.g. {'+1/+1': 2}")
    token = raw.get("token")
    return SituationObject(
        player=raw.get("controller") or player,
        zone="battlefield",
        card=canonical(str(raw["card"])) if raw.get("card") else None,
        token=(str(token) if token is not True else str(raw.get("card"))) if token else None,
        copy_of=raw.get("copy_of"),
        tapped=bool(raw.get("tapped")),
        attacking=raw.get("attacking"),
        face_down=bool(raw.get("face_down")),
        transformed=bool(raw.get("transformed")),
        counters={str(k): int(v) for k, v in counters.items()},
        attached=[str(a) for a in raw.get("attached") or []],
        effects=[str(e) for e in raw.get("effects") or []],
        entered_from=raw.get("entered_from"),
        printed={
            k: raw[k]
            for k in (
                "power",
                "toughness",
                "colors",
                "types",
                "subtypes",
                "supertypes",
                "abilities",
                "name",
                "mana_cost",
            )
            if k in raw
        },
    )
