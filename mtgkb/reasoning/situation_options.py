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
    return situation_and_origins(card, options)[0]


def situation_and_origins(card: str | None, options: TableOptions) -> tuple[dict[str, Any], dict[str, str]]:
    """The situation mapping, and for each of its fields the option that wrote it
    ("players.me.battlefield[0]" -> "--unblocked 'Grizzly Bears'"), so that a mistake made with an
    option is reported against that option (:func:`option_error`)."""
    origins: dict[str, str] = {"step": "--step", "turn": "--turn", "priority": "--priority"}
    attacker_side = options.turn
    defender = OPPONENT if attacker_side == ME else ME
    players: dict[str, dict[str, Any]] = {ME: {}, OPPONENT: {}}
    mine = players[ME]
    if card is not None:
        zone = "library_top" if options.zone == "library" else options.zone
        mine[zone] = [card]
        origins[f"players.{ME}.{zone}[0]"] = "CARD"
        if options.commander_casts is not None:
            origins[f"players.{ME}.commander_casts"] = "--commander-casts"
            if options.zone != "command":
                mine["commanders"] = [card]
            mine["commander_casts"] = {card: options.commander_casts}
    if options.extra_hand:
        mine.setdefault("hand", []).extend(options.extra_hand)
    attackers = []
    for option, names, blocked in (
        ("--unblocked", options.unblocked, False),
        ("--blocked", options.blocked, True),
        ("--attacking", options.attacking, None),
    ):
        for name in names:
            origins[f"players.{attacker_side}.battlefield[{len(attackers)}]"] = f"{option} {_quoted(name)}"
            attackers.append(_permanent(name, {"attacking": defender, "tapped": True, "blocked": blocked}))
    # The card asked about may be on my battlefield already: attackers join it, never replace it.
    players[attacker_side].setdefault("battlefield", []).extend(attackers)
    battlefield = mine.setdefault("battlefield", [])
    for option, names, status in (
        ("--tapped", options.tapped, {"tapped": True}),
        ("--permanent", options.battlefield, {}),
    ):
        for name in names:
            origins[f"players.{ME}.battlefield[{len(battlefield)}]"] = f"{option} {_quoted(name)}"
            battlefield.append(_permanent(name, status))
    if options.mana is not None:
        mine["mana"] = options.mana
        origins[f"players.{ME}.mana"] = "--mana"
    situation: dict[str, Any] = {"turn": options.turn, "step": options.step, "players": players}
    if options.priority is not None:
        situation["priority"] = options.priority
    if options.stack:
        situation["stack"] = [{"card": name, "controller": OPPONENT} for name in options.stack]
        origins.update({f"stack[{i}]": f"--stack {_quoted(name)}" for i, name in enumerate(options.stack)})
    return situation, origins


def _quoted(name: str) -> str:
    return f'"{name}"' if any(c in name for c in " '") else name


def option_error(error: Exception, origins: dict[str, str]) -> Exception:
    """A situation error on a field an option wrote, as an error on that option: "--unblocked
    'Grizzly Bears': blockers are not declared yet ..." rather than a field the user never wrote."""
    from mtgkb.core.errors import MtgkbError

    where = getattr(error, "where", None)
    if not where:
        return error
    for path in sorted(origins, key=len, reverse=True):
        if where == path or where.startswith((path + ".", path + "[")):
            option = origins[path]
            detail = getattr(error, "detail", None) or str(error)
            hint = getattr(error, "hint", None)
            if where.endswith(".blocked") and option.startswith(("--unblocked", "--blocked")):
                # The file's advice ("leave 'blocked' out") in the options' words.
                detail = detail.replace("; leave 'blocked' out", "")
                hint = "give an attacker before blockers are declared with --attacking NAME"
            return MtgkbError(f"{option}: {detail}", hint)
    return error


def _permanent(name: str, status: dict[str, Any]) -> dict[str, Any]:
    """``token:Goblin`` is a token; anything else a card. ``blocked: None`` is left out."""
    entry: dict[str, Any] = (
        {"token": name[6:].strip()} if name.lower().startswith("token:") else {"card": name}
    )
    entry.update({key: value for key, value in status.items() if value is not None})
    return entry
