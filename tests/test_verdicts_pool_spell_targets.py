"""A spell's targets are chosen as it is cast (601.2c), an Aura spell's too (303.4a): over every
instant, sorcery and Aura of the pool whose Oracle text targets only objects of a plain kind
("target creature", "target artifact", "Enchant land", "target spell", "target creature card from
your graveyard", ...), cast from my hand in my main phase, the answer is yes with one such object in
the game and no with none; a spell that targets only players ("target player", "any target") is a
yes either way, since a player can always be chosen. The kinds are read here from the Oracle text
by a table of this test's own, not by the reader under test."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pool_cards import report

from mtgkb.reasoning.actions.questions import can_cast

ATOMIC = Path("cards") / "mtgjson-atomic-merged-20260103.json.gz"

#: What each plain target phrase can be given: where an object of that kind goes in the situation.
#: The longest phrase of a kind comes first, so "target creature you control" is not read as
#: "target creature".
_OBJECTS: dict[str, tuple[str, str, Any]] = {
    "target creature card from your graveyard": ("me", "graveyard", "Runeclaw Bear"),
    "target creature card in your graveyard": ("me", "graveyard", "Runeclaw Bear"),
    "target creature you control": ("me", "battlefield", {"card": "Raging Goblin"}),
    "target creature you don't control": ("opp", "battlefield", {"card": "Grizzly Bears"}),
    "target creature an opponent controls": ("opp", "battlefield", {"card": "Grizzly Bears"}),
    "target nonland permanent": ("opp", "battlefield", {"card": "Grizzly Bears"}),
    "target permanent": ("opp", "battlefield", {"card": "Grizzly Bears"}),
    "target creature": ("opp", "battlefield", {"card": "Grizzly Bears"}),
    "target artifact": ("opp", "battlefield", {"card": "Sol Ring"}),
    "target enchantment": ("opp", "battlefield", {"card": "Propaganda"}),
    "target land": ("opp", "battlefield", {"card": "Forest"}),
    "target spell": ("stack", "", {"card": "Lightning Bolt", "controller": "opp"}),
}
_ENCHANT = {
    "Enchant creature": "target creature",
    "Enchant creature you control": "target creature you control",
    "Enchant artifact": "target artifact",
    "Enchant enchantment": "target enchantment",
    "Enchant land": "target land",
    "Enchant permanent": "target permanent",
}
_PLAYERS = ("target player", "target opponent", "any target")
#: What may follow a plain target phrase: the end of a clause or a verb, never a qualifier
#: ("target creature with flying", "target creature that's blocking").
_NEXT = r"(?=[.,]| (?:gets|gains|deals|to|can't|becomes|loses|has|and|fights|phases|doesn't|until)\b)"
_PHRASE = re.compile(
    "(?:"
    + "|".join(re.escape(p) for p in sorted({*_OBJECTS, *_PLAYERS}, key=len, reverse=True))
    + ")"
    + _NEXT,
    re.IGNORECASE,
)
#: Texts this test does not read: modes, conditions, triggers, costs and timings beyond the card's
#: own, and lists of kinds ("target artifact, enchantment, or creature").
_ELSEWHERE = re.compile(
    r"\bchoose\b|\u2022|\bspree\b|\bwhen(?:ever)?\b|\btarget [a-z]+,|\bif\b|\binstead\b"
    r"|additional cost|rather than|\bcosts?\b|cast this spell only|\bX\b|\bup to\b|\bany number\b"
    r"|\bdivided\b|\bthat (?:player|creature)'s\b|\bflash\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def spells(shared_data: Path) -> list[tuple[str, list[str], bool]]:
    """(name, the object phrases its text targets, whether it is an instant) of each plain spell."""
    with gzip.open(shared_data / ATOMIC, "rt", encoding="utf-8") as handle:
        atomic = json.load(handle)["data"]
    found = []
    for name, faces in sorted(atomic.items()):
        face = faces[0]
        if len(faces) != 1 or face.get("layout") != "normal" or face.get("isFunny"):
            continue
        read = _targets_of(face)
        if read is not None:
            found.append((name, read, "Instant" in face.get("types", [])))
    return found


def _targets_of(face: dict[str, Any]) -> list[str] | None:
    """The object phrases the face's spell targets ([] for players only), or None when its text says
    more than this test reads."""
    text = re.sub(r"\([^()]*\)", "", face.get("text") or "").replace("\u2019", "'")
    types, subtypes = face.get("types", []), face.get("subtypes", [])
    if "Aura" in subtypes and "Enchantment" in types:
        lines = text.splitlines()
        wanted = _ENCHANT.get(lines[0].strip()) if lines else None
        rest = "\n".join(lines[1:])
        if wanted is None or "target" in rest.lower() or _ELSEWHERE.search(text):
            return None
        return [wanted]
    if not ({"Instant", "Sorcery"} & set(types)) or "target" not in text.lower():
        return None
    if _ELSEWHERE.search(text) or '"' in text or ":" in text:
        return None
    phrases = [match.group(0).lower() for match in _PHRASE.finditer(text)]
    if len(phrases) != len(re.findall(r"\btarget\b", text, re.IGNORECASE)):
        return None  # a target of some other kind
    return [phrase for phrase in phrases if phrase not in _PLAYERS]


def _situation(name: str, phrases: list[str], with_objects: bool) -> dict:
    players: dict[str, dict[str, list]] = {"me": {"hand": [name]}, "opp": {}}
    game: dict[str, Any] = {"turn": "me", "step": "precombat-main", "players": players}
    if not with_objects:
        return game
    for phrase in dict.fromkeys(phrases):
        side, zone, obj = _OBJECTS[phrase]
        if side == "stack":
            game["stack"] = [obj]
        else:
            players[side].setdefault(zone, []).append(obj)
    return game


def test_a_spell_is_cast_only_with_a_legal_target_for_each_of_its_targets(pool_kb, spells) -> None:
    assert len(spells) > 1300, len(spells)
    problems, objects, players_only = [], 0, 0
    for name, phrases, instant in spells:
        if "target spell" in phrases and not instant:
            continue  # a sorcery is cast with an empty stack, where no spell is to target
        yes = can_cast(pool_kb, _situation(name, phrases, True), name, "normal", "me")
        if yes.answer is not True:
            failing = [c.because for c in yes.checks if c.holds is not True][:1]
            problems.append(f"{name} {phrases} with their objects: {yes.answer} {failing}")
        no = can_cast(pool_kb, _situation(name, phrases, False), name, "normal", "me")
        expected = not phrases  # players only: a player can always be chosen
        if no.answer is not expected:
            problems.append(f"{name} {phrases} with nothing to target: {no.answer}")
        elif phrases and not any("601.2c" in c.cites for c in no.checks if c.holds is False):
            problems.append(f"{name}: the failing check does not cite 601.2c")
        objects += bool(phrases)
        players_only += not phrases
    assert objects > 1000 and players_only > 100, (objects, players_only)
    report("spells with targets", objects + players_only, 2 * (objects + players_only), problems)
