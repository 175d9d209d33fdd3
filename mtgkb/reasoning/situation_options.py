"""The everyday question at a table, asked with options instead of a file: the same situation
mapping a file would hold, for two players named "me" and "opp"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

ME, OPPONENT = "me", "opp"


@dataclass
class TableOptions:
    step: str
    turn: str = ME
    priority: str | None = None
    zone: str = "hand"  # where the card asked about is
    unblocked: Sequence[str] = ()
    blocked: Sequence[str] = ()
    attacking: Sequence[str] = ()  # attackers before blockers are declared
    tapped: Sequence[str] = ()  # tapped creatures of mine that are not attacking
    battlefield: Sequence[str] = ()  # other permanents of mine
    stack: Sequence[str] = ()  # spells of the opponent, bottom first
    mana: str | None = None
    commander_casts: int | None = None
    extra_hand: Sequence[str] = field(default_factory=tuple)


def situation_from_options(card: str | None, options: TableOptions) -> dict[str, Any]:
    """A situation mapping: ``card`` in my ``zone``, attackers on the active player's side."""
    attacker_side = options.turn
    defender = OPPONENT if attacker_side == ME else ME
    players: dict[str, dict[str, Any]] = {ME: {}, OPPONENT: {}}
    mine = players[ME]
    if card is not None:
        zone = "library_top" if options.zone == "library" else options.zone
        mine[zone] = [card]
        if options.commander_casts is not None:
            if options.zone != "command":
                mine["commanders"] = [card]
            mine["commander_casts"] = {card: options.commander_casts}
    if options.extra_hand:
        mine.setdefault("hand", []).extend(options.extra_hand)
    attackers = []
    for names, blocked in ((options.unblocked, False), (options.blocked, True), (options.attacking, None)):
        for name in names:
            attackers.append(_permanent(name, {"attacking": defender, "tapped": True, "blocked": blocked}))
    players[attacker_side]["battlefield"] = attackers
    battlefield = mine.setdefault("battlefield", [])
    battlefield += [_permanent(name, {"tapped": True}) for name in options.tapped]
    battlefield += [_permanent(name, {}) for name in options.battlefield]
    if options.mana is not None:
        mine["mana"] = options.mana
    situation: dict[str, Any] = {"turn": options.turn, "step": options.step, "players": players}
    if options.priority is not None:
        situation["priority"] = options.priority
    if options.stack:
        situation["stack"] = [{"card": name, "controller": OPPONENT} for name in options.stack]
    return situation


def _permanent(name: str, status: dict[str, Any]) -> dict[str, Any]:
    """``token:Goblin`` is a token; anything else a card. ``blocked: None`` is left out."""
    entry: dict[str, Any] = (
        {"token": name[6:].strip()} if name.lower().startswith("token:") else {"card": name}
    )
    entry.update({key: value for key, value in status.items() if value is not None})
    return entry
