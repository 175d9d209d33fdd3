"""A game situation as a judge describes it (JSON or YAML), read into plain objects and checked.

The schema is closed: an unknown field, a wrong type, an unknown step or zone, a card listed in two
zones, an attacker outside combat or a blocked status before blockers are declared is a
:class:`SituationError` naming the field ("players.me.battlefield[0].blocked"), never a traceback.
Which steps exist, and whether attackers or blocked statuses are possible in one, come from the turn
graph in the store, not from lists in code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import AmbiguousNameError, MtgkbError, NotFoundError
from mtgkb.core.errors import shown as cut
from mtgkb.kb.iris import mint, slugify
from mtgkb.kb.vocab import V
from mtgkb.reasoning import situation_objects as one_object
from mtgkb.reasoning import situation_turn as earlier
from mtgkb.reasoning.situation_limits import MAX_COMMANDER_CASTS, MAX_PLAYERS
from mtgkb.reasoning.situation_stack import read_stack, stack_card_names
from mtgkb.reasoning.situation_text import (
    SituationError,
    checked_values,
    field_path,
    listed,
    parse_situation_text,
    shown,
)
from mtgkb.reasoning.situation_text import closed_fields as _closed
from mtgkb.reasoning.situation_text import count_objects as _count_objects
from mtgkb.reasoning.situation_text import list_field as _list

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: Zones a player's section may list, with the zone slug each one is.
PLAYER_ZONES = {
    "hand": "hand",
    "command": "command",
    "graveyard": "graveyard",
    "exile": "exile",
    "library_top": "library",
    "battlefield": "battlefield",
    "companion": "outside",  # the companion revealed before the game, still outside it (400.11)
}
_PLAYER_FIELDS = {*PLAYER_ZONES, "commanders", "mana", "commander_casts", "life", "energy", "this_turn"}
_TOP_FIELDS = {"turn", "step", "priority", "stack", "players"}
_PERMANENT_FIELDS = {
    "card",
    "token",
    "attacking",
    "blocked",
    "blocked_by",
    "tapped",
    "controller",
    "copy_of",
    "types",
    "id",
    *("transformed", "flipped", "face_down", "attached_to"),  # face states, attachment: situation_objects
    *("new_this_turn", "counters", "activations_this_turn", "activations_this_game"),  # situation_objects
}
_ATTACK_KINDS = ("planeswalker", "battle")
_IMPORT_HINT = (
    "the bundled knowledge base has only the starter cards; import the whole pool with "
    "'mtgkb import mtgjson FILE' or 'mtgkb fetch cards'"
)


@dataclass
class StepInfo:
    iri: str
    name: str  # as written in a situation: "declare-blockers"
    label: str  # "declare blockers step"
    blocked_status_decided: bool
    attackers_may_exist: bool


@dataclass
class Player:
    name: str
    mana: str | None = None  # symbols the player can still produce; None: any cost can be paid
    life: int = 20  # a life total, 20 unless the situation says (103.4)
    energy: int = 0  # energy counters (107.14)
    this_turn: earlier.ThisTurn = field(default_factory=earlier.ThisTurn)  # what they did earlier this turn


@dataclass
class GameObject:
    key: str  # unique in the situation, e.g. "me/battlefield/0"
    where: str  # the field it was read from, for messages
    name: str
    card: str | None  # card IRI; None for a token
    zone: str  # zone slug
    owner: str
    controller: str
    token: bool = False
    tapped: bool = False
    attacking: str | None = None  # a player's name, or the key of a planeswalker or battle
    blocked: str | None = None  # V.Blocked / V.Unblocked / V.BlockedStatusUndecided; None: not attacking
    commander: bool = False
    commander_casts: int = 0
    stack_index: int | None = None
    types: list[str] = field(default_factory=list)  # a token's card types
    copy_of: str | None = None  # card IRI of what this permanent copies
    id: str | None = None  # the name the situation gives this one object (several share a card name)
    transformed: bool = False  # face states (712.8e, 710.2, 708.2): which face or half is up, if any
    flipped: bool = False
    face_down: bool = False
    face_down_as: str | None = None  # how: "morph", "megamorph", "disguise", "manifest", "cloak", "other"
    attached_to: str | None = None  # the key of the permanent an Aura, Equipment or Fortification is on
    exiled_as: dict[str, Any] = field(default_factory=dict)  # {"foretold": true}, {"plotted": "this turn"}
    came_as: list[str] = field(default_factory=list)  # a hand or graveyard card's: ["discarded this turn"]
    new_this_turn: bool = False  # not under its controller's control since their turn began
    counters: dict[str, int] = field(default_factory=dict)
    activations_this_turn: dict[str, int] = field(default_factory=dict)
    activations_this_game: dict[str, int] = field(default_factory=dict)
    ability_on_stack: bool = False  # an activated or triggered ability on the stack, not a spell


@dataclass
class Situation:
    turn: str
    priority: str
    step: StepInfo
    players: dict[str, Player]
    objects: list[GameObject]

    def objects_of_card(self, card: str) -> list[GameObject]:
        return [o for o in self.objects if o.card == card]

    def object(self, key: str) -> GameObject:
        return next(o for o in self.objects if o.key == key)

    def display(self, target: str | None) -> str:
        """A player's name as is; an object's key as its name."""
        if target is None or target in self.players:
            return target or ""
        return self.object(target).name


def load_situation(source: str | Path, stdin_text: Callable[[], str] | None = None) -> dict[str, Any]:
    """The raw situation in ``source`` (a path, or ``-`` for standard input), JSON or YAML."""
    from mtgkb.core.bounded import read_bounded, read_file_bounded  # /dev/zero is read up to a limit

    if str(source) == "-":
        origin = "standard input"
        try:
            if stdin_text is None:
                import sys

                text = read_bounded(sys.stdin.buffer, origin, "situation").decode("utf-8-sig")
            else:
                text = stdin_text()
        except UnicodeDecodeError as error:
            raise SituationError("", f"{origin} is not UTF-8 text (byte {error.start})") from error
    else:
        path = Path(source)
        try:
            text = read_file_bounded(path, "situation").decode("utf-8")
        except (OSError, ValueError) as error:  # ValueError: not UTF-8, or a NUL in the name
            raise SituationError("", f"cannot read {path}: {error}") from error
        origin = str(path)
    return parse_situation_text(text, origin)


def read_situation(kb: KnowledgeBase, data: dict[str, Any]) -> Situation:
    """Check ``data`` against the schema, its bounds and the turn graph, and resolve every card name."""
    return _Reader(kb, checked_values(data)).read()


def steps(kb: KnowledgeBase) -> dict[str, StepInfo]:
    """Every step and step-less phase of the turn graph, by the name a situation uses for it."""
    from mtgkb.kb.query_files import library_query

    rows = kb.select(library_query("turn-steps"))
    found = {}
    for row in rows:
        name = slugify(row["label"]).removesuffix("-step").removesuffix("-phase")
        found[name] = StepInfo(row["step"], name, row["label"], row["decided"], row["attackers"])
    return found


class _Reader:
    def __init__(self, kb: KnowledgeBase, data: dict[str, Any]) -> None:
        self.kb = kb
        self.data = data
        self.objects: list[GameObject] = []
        self.names: dict[str, str] = {}  # card IRI -> display name

    def _cr(self, concept: str) -> str:
        """ "CR 509.1h": the rules ``concept:<concept>`` cites, for a message that names them."""
        from mtgkb.reasoning.contract import rule_order
        from mtgkb.reasoning.knowledge import read_rules

        numbers = sorted(read_rules(self.kb).node(mint("concept", concept)).cites, key=rule_order)
        return "CR " + ", ".join(numbers)

    def read(self) -> Situation:
        data = self.data
        _closed(data, _TOP_FIELDS, "")
        players_data = data.get("players")
        if not isinstance(players_data, dict) or not players_data:
            raise SituationError("players", "give at least one player, e.g. {me: {hand: [...]}, opp: {}}")
        if len(players_data) > MAX_PLAYERS:
            raise SituationError(
                "players",
                f"{len(players_data):,} players; a game of this situation has at most {MAX_PLAYERS}",
            )
        players = {}
        for name in players_data:
            if not isinstance(name, str) or not name:
                raise SituationError(
                    "players", f"a player's name must be a non-empty string, not {shown(name)}"
                )
            players[name] = Player(name)
        _count_objects(self.data, players_data, PLAYER_ZONES)
        turn = self._player_name(data.get("turn"), "turn", players, required=True)
        priority = self._player_name(data.get("priority", turn), "priority", players, required=True)
        step = self._step(data.get("step"))
        cards = self._resolve_cards(players_data)
        for name, section in players_data.items():
            self._player(name, section if section is not None else {}, players, cards)
        self._stack(data.get("stack", []), players, cards)
        one_object.check_one_zone_per_object(self.objects)
        one_object.resolve_attachments(self.objects)
        self._check_attackers(step, turn, players)
        return Situation(turn, priority, step, players, self.objects)

    # -- names -------------------------------------------------------------------------------------

    def _player_name(self, value: Any, where: str, players: dict[str, Player], required: bool) -> str:
        if value is None and required:
            raise SituationError(where, f"name the player ({_choices(players)})")
        if not isinstance(value, str) or value not in players:
            raise SituationError(
                where, f"{shown(value)} is not a player of this situation ({_choices(players)})"
            )
        return value

    def _step(self, value: Any) -> StepInfo:
        known = steps(self.kb)
        if not isinstance(value, str) or not value:
            raise SituationError("step", "name the step, e.g. 'declare-blockers'", _step_hint(known))
        wanted = slugify(value).removesuffix("-step").removesuffix("-phase")
        if wanted not in known:
            import difflib

            close = difflib.get_close_matches(wanted, list(known), n=3)
            hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
            raise SituationError("step", f"no step named {shown(value)}", hint + _step_hint(known))
        return known[wanted]

    def _resolve_cards(self, players_data: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """Every card name the situation uses -> (IRI, name as the data spells it)."""
        wanted: dict[str, str] = {}  # name -> first field using it
        for where, name in self._card_names(players_data):
            wanted.setdefault(name, where)
        return {name: resolve_card(self.kb, name, where) for name, where in wanted.items()}

    def _card_names(self, players_data: dict[str, Any]):
        yield from stack_card_names(self.data.get("stack", []))
        for player, section in players_data.items():
            if section is None:
                continue
            at = field_path("players", player)
            if not isinstance(section, dict):
                raise SituationError(at, "must be a mapping of zones, e.g. {hand: [...]}")
            for zone in (*PLAYER_ZONES, "commanders"):
                for index, item in enumerate(_list(section.get(zone, []), f"{at}.{zone}")):
                    where = f"{at}.{zone}[{index}]"
                    if isinstance(item, str):
                        yield where, item
                    elif isinstance(item, dict):
                        for key in ("card", "copy_of"):
                            if isinstance(item.get(key), str):
                                yield f"{where}.{key}", item[key]
                        target = item.get("attacking")
                        if isinstance(target, dict):
                            for kind in _ATTACK_KINDS:
                                if isinstance(target.get(kind), str):
                                    yield f"{where}.attacking.{kind}", target[kind]
            yield from earlier.damage_card_names(section, at)
            casts = section.get("commander_casts", {})
            if isinstance(casts, dict):
                for name in casts:
                    if isinstance(name, str):
                        yield f"{at}.commander_casts", name

    # -- zones -------------------------------------------------------------------------------------

    def _player(
        self,
        name: str,
        section: dict[str, Any],
        players: dict[str, Player],
        cards: dict[str, tuple[str, str]],
    ) -> None:
        where = field_path("players", name)
        _closed(section, _PLAYER_FIELDS, where)
        players[name].life, players[name].energy = one_object.read_life_and_energy(section, where)
        players[name].this_turn = earlier.read_this_turn(section, where, cards)
        mana = section.get("mana")
        if mana is not None:
            from mtgkb.reasoning.mana import parse_available

            if not isinstance(mana, str):
                raise SituationError(f"{where}.mana", "write mana as symbols, e.g. '{1}{U}{B}'")
            try:
                parse_available(mana)
            except ValueError as error:
                raise SituationError(f"{where}.mana", str(error)) from error
            players[name].mana = mana
        for field_name, zone in PLAYER_ZONES.items():
            items = _list(section.get(field_name, []), f"{where}.{field_name}")
            for index, item in enumerate(items):
                item_where = f"{where}.{field_name}[{index}]"
                if zone == "battlefield":
                    self._permanent(item, item_where, name, index, players, cards)
                else:
                    allowed = one_object.EXILE_FIELDS if zone == "exile" else earlier.CARD_FIELDS.get(zone)
                    card_iri, display = self._card_item(item, item_where, cards, allowed)
                    self.objects.append(
                        GameObject(
                            key=f"{name}/{zone}/{index}",
                            where=item_where,
                            name=display,
                            card=card_iri,
                            zone=zone,
                            owner=name,
                            controller=name,
                            commander=zone == "command",
                            id=one_object.object_id(item, item_where),
                            exiled_as=one_object.read_exile_state(item, item_where)
                            if zone == "exile"
                            else {},
                            came_as=earlier.read_card_state(item, item_where, zone),
                        )
                    )
        self._commanders(section, where, name, cards)

    def _card_item(
        self, item: Any, where: str, cards: dict[str, tuple[str, str]], allowed: set[str] | None = None
    ) -> tuple[str, str]:
        if isinstance(item, dict):
            _closed(item, allowed or {"card", "id"}, where)
            item = item.get("card")
        if not isinstance(item, str):
            raise SituationError(where, "a card is written as its name")
        return cards[item]

    def _permanent(
        self,
        item: Any,
        where: str,
        player: str,
        index: int,
        players: dict[str, Player],
        cards: dict[str, tuple[str, str]],
    ) -> None:
        if isinstance(item, str):
            item = {"card": item}
        if not isinstance(item, dict):
            raise SituationError(
                where, "a permanent is a name or a mapping such as {card: NAME, tapped: true}"
            )
        _closed(item, _PERMANENT_FIELDS, where)
        has_card, has_token = "card" in item, "token" in item
        if has_card == has_token:
            raise SituationError(
                where, "give exactly one of 'card' (a card's name) or 'token' (a token's name)"
            )
        controller = item.get("controller", player)
        if not isinstance(controller, str) or controller not in players:
            raise SituationError(
                f"{where}.controller", f"{shown(controller)} is not a player ({_choices(players)})"
            )
        if has_token:
            token = item["token"]
            if not isinstance(token, str) or not token:
                raise SituationError(f"{where}.token", "name the token, e.g. 'Goblin'")
            card, display = None, token
            types = item.get("types", ["Creature"])
            if not isinstance(types, list) or not all(isinstance(t, str) and t for t in types):
                raise SituationError(f"{where}.types", "a list of card types, e.g. ['Artifact', 'Creature']")
        else:
            if not isinstance(item["card"], str):
                raise SituationError(f"{where}.card", "a card is written as its name")
            card, display = cards[item["card"]]
            types = []
            if "types" in item:
                raise SituationError(f"{where}.types", "only a token's types are given; a card has its own")
        for flag in ("tapped",):
            if flag in item and not isinstance(item[flag], bool):
                raise SituationError(f"{where}.{flag}", "true or false")
        obj = GameObject(
            key=f"{player}/battlefield/{index}",
            where=where,
            name=display,
            card=card,
            zone="battlefield",
            owner=player,
            controller=controller,
            token=has_token,
            tapped=bool(item.get("tapped", False)),
            types=list(types),
            copy_of=cards[item["copy_of"]][0] if isinstance(item.get("copy_of"), str) else None,
            id=one_object.object_id(item, where),
        )
        one_object.set_face_state(self.kb, obj, item, where, self._cr)
        one_object.read_permanent_state(obj, item, where)
        if "copy_of" in item and not isinstance(item["copy_of"], str):
            raise SituationError(f"{where}.copy_of", "the name of the card it copies")
        if "attacking" in item:
            obj.attacking = item["attacking"]  # resolved once every permanent is known
        elif "blocked" in item or "blocked_by" in item:
            raise SituationError(f"{where}.blocked", "only an attacking creature is blocked or unblocked")
        if "blocked" in item and not isinstance(item["blocked"], bool):
            raise SituationError(
                f"{where}.blocked", "true or false (leave it out before blockers are declared)"
            )
        for index, blocker in enumerate(_list(item.get("blocked_by"), f"{where}.blocked_by")):
            if not isinstance(blocker, str) or not blocker.strip():
                raise SituationError(
                    f"{where}.blocked_by[{index}]",
                    f"a blocker is written as its name, e.g. 'Llanowar Elves', not {shown(blocker)}",
                )
        if item.get("blocked_by") and item.get("blocked") is False:
            raise SituationError(
                f"{where}.blocked",
                f"an attacker with blockers declared for it is blocked "
                f"({self._cr('blocked-once-blockers-declared')}); say blocked: true",
            )
        obj.blocked = {True: V.Blocked, False: V.Unblocked}.get(item.get("blocked"))  # type: ignore[arg-type]
        self.objects.append(obj)

    def _commanders(
        self, section: dict[str, Any], where: str, player: str, cards: dict[str, tuple[str, str]]
    ) -> None:
        declared = {o.card for o in self.objects if o.owner == player and o.zone == "command"}
        for index, item in enumerate(_list(section.get("commanders", []), f"{where}.commanders")):
            card, _display = self._card_item(item, f"{where}.commanders[{index}]", cards)
            declared.add(card)  # a commander elsewhere now may be in no zone the situation lists
            for obj in self.objects:
                if obj.card == card and obj.owner == player:
                    obj.commander = True
        casts = section.get("commander_casts", {})
        if not isinstance(casts, dict):
            raise SituationError(f"{where}.commander_casts", "a mapping of commander names to counts")
        for name, count in casts.items():
            if not isinstance(name, str):
                raise SituationError(
                    f"{where}.commander_casts", f"a commander is written as its name, not {shown(name)}"
                )
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise SituationError(
                    field_path(f"{where}.commander_casts", name),
                    f"the count must be a whole number >= 0, not {shown(count)}",
                )
            if count > MAX_COMMANDER_CASTS:
                raise SituationError(
                    field_path(f"{where}.commander_casts", name),
                    f"{count:,} casts from the command zone; a game sees at most {MAX_COMMANDER_CASTS:,} "
                    f"(each costs {{2}} more than the last, {self._cr('commander-tax-grows')})",
                )
            card = cards[name][0]
            mine = [o for o in self.objects if o.card == card and o.owner == player]
            if card not in declared:
                raise SituationError(
                    f"{where}.commander_casts",
                    f"{cards[name][1]} is not one of {cut(player)}'s commanders",
                    f"list it under {where}.command, or under {where}.commanders if it is elsewhere",
                )
            for obj in mine:
                obj.commander_casts = count

    def _stack(self, items: Any, players: dict[str, Player], cards: dict[str, tuple[str, str]]) -> None:
        for entry in read_stack(items, self.data.get("turn"), players, cards):
            self.objects.append(
                GameObject(
                    key=f"stack/{entry.index}",
                    where=entry.where,
                    name=entry.name,
                    card=entry.card,
                    zone="stack",
                    owner=entry.controller,
                    controller=entry.controller,
                    stack_index=entry.index,
                    id=entry.id,
                    ability_on_stack=entry.is_ability,
                )
            )

    def _check_attackers(self, step: StepInfo, turn: str, players: dict[str, Player]) -> None:
        for obj in self.objects:
            if obj.attacking is None:
                continue
            where = obj.where
            if not step.attackers_may_exist:
                raise SituationError(
                    f"{where}.attacking",
                    f"nothing is attacking in the {step.label}: attackers exist from the declare attackers "
                    "step to the end of combat",
                )
            if obj.controller != turn:
                raise SituationError(
                    f"{where}.attacking",
                    f"{cut(obj.name)} is controlled by {cut(obj.controller)}, but only the active player "
                    f"({cut(turn)}) attacks ({self._cr('active-player-attacks')})",
                )
            obj.attacking = self._attack_target(obj.attacking, f"{where}.attacking", obj, players)
            if step.blocked_status_decided:
                if obj.blocked is None:
                    raise SituationError(
                        f"{where}.blocked",
                        f"blockers have been declared by the {step.label}: say whether {cut(obj.name)} "
                        "is blocked (true or false)",
                    )
            elif obj.blocked is not None:
                raise SituationError(
                    f"{where}.blocked",
                    f"blockers are not declared yet in the {step.label}"
                    ", so no attacker is blocked or unblocked "
                    f"({self._cr('blocked-once-blockers-declared')}); leave 'blocked' out",
                )
            else:
                obj.blocked = V.BlockedStatusUndecided

    def _attack_target(
        self, target: Any, where: str, attacker: GameObject, players: dict[str, Player]
    ) -> str:
        if isinstance(target, str):
            if target not in players:
                raise SituationError(where, f"{shown(target)} is not a player ({_choices(players)})")
            if target == attacker.controller:
                raise SituationError(where, "a creature cannot attack its own controller")
            return target
        if isinstance(target, dict) and len(target) == 1:
            kind, name = next(iter(target.items()))
            if kind in _ATTACK_KINDS and isinstance(name, str):
                card, display = resolve_card(self.kb, name, f"{where}.{kind}")
                from mtgkb.kb.query_files import library_query

                card_type = kind.capitalize()
                if not self.kb.raw_query(library_query("card-has-type"), {"card": card, "type": card_type}):
                    raise SituationError(
                        f"{where}.{kind}",
                        f"{display} is not a {kind}; only a player, a planeswalker or a battle is attacked "
                        f"({self._cr('what-can-be-attacked')})",
                    )
                for obj in self.objects:
                    if (
                        obj.card == card
                        and obj.zone == "battlefield"
                        and obj.controller != attacker.controller
                    ):
                        return obj.key
                raise SituationError(
                    f"{where}.{kind}", f"{shown(name)} is not on an opponent's battlefield in this situation"
                )
        raise SituationError(where, "a player's name, {planeswalker: NAME} or {battle: NAME}")


def resolve_card(kb: KnowledgeBase, name: str, where: str) -> tuple[str, str]:
    """(IRI, name as the data spells it) of the card ``name``; a miss names the field (``CARD``:
    the command's argument)."""
    from mtgkb.kb.iri_arguments import find_named

    try:
        match = find_named(kb, name, ("card",))
    except NotFoundError as error:
        # The starter cards' hint only where the starter cards are all there is: on the full pool a
        # miss is a typo, and the suggestions are the hint.
        from mtgkb.lookups.common import cards_imported

        more = "" if cards_imported(kb) else _IMPORT_HINT
        hint = " ".join(t for t in (error.hint, more) if t) or None
        if where == "CARD":
            raise MtgkbError(f"no card named {shown(name)}", hint) from error
        raise SituationError(where, f"no card named {shown(name)}", hint) from error
    except AmbiguousNameError as error:
        if where == "CARD":
            raise
        raise SituationError(where, error.message, error.hint) from error
    return match.iri, match.name


def zone_iri(slug: str) -> str:
    return mint("zone", slug)


def _choices(players: dict[str, Player]) -> str:
    return "players: " + listed(list(players))


def _step_hint(known: dict[str, StepInfo]) -> str:
    return "steps: " + ", ".join(sorted(known))
