"""Sentences of a card's text that change its own action (issue 38, class 4): "This ability costs {1}
less to activate for each legendary creature you control", "This spell costs {2} more to cast",
"Cast this spell only during your turn", an additional cost, "You may cast this spell as though it
had flash if you pay {2} more". Every such sentence of the pool is claimed by some reader, read or
kept unread, and an unread one decides nothing it could change: a cost reduction makes paying the
printed cost a yes and paying nothing cannot tell (never the wrong no of Boseiju, Who Endures), an
increase the other way round; a restriction leaves a cast that would be a yes cannot tell, and a
no from elsewhere (a card in the wrong zone) still a no. The classes are found here by this test's
own patterns on the MTGJSON text, not by the reader under test; the counts print with -s."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pool_cards import report, with_targets

from mtgkb.importers.oracle_sentences import claimed_sentences
from mtgkb.reasoning.actions.questions import can_activate, can_cast

ATOMIC = Path("cards") / "mtgjson-atomic-merged-20260103.json.gz"

#: The sentence classes of the issue, as this test reads them on a card's own text.
_COST_CHANGE = re.compile(
    r"\bthis (?P<what>spell|ability) costs (?P<amount>(?:\{[^{}]+\})+) (?P<direction>less|more) to"
    r" (?:cast|activate)\b",
    re.IGNORECASE,
)
_CLASSES = re.compile(
    _COST_CHANGE.pattern + r"|\bcast this spell only\b|\bas an additional cost to cast this spell\b"
    r"|\b(?:may|can't) activate this ability\b|^spend only\b|\byou may cast this spell as though\b[^.]* if\b",
    re.IGNORECASE,
)
_RESTRICTION = re.compile(r"^(?:cast this spell only|as an additional cost to cast this spell)\b", re.I)
#: Sentences that let a spell be cast otherwise: a cost or a timing they may lift is not asserted.
_PERMISSION = re.compile(r"rather than pay|you may cast this spell|you may pay", re.IGNORECASE)
_MANA = re.compile(r"^(?:\{[^{}]+\})+")
_COST = "The cost can be paid"


@pytest.fixture(scope="module")
def atomic(shared_data: Path) -> dict[str, list[dict[str, Any]]]:
    with gzip.open(shared_data / ATOMIC, "rt", encoding="utf-8") as handle:
        return json.load(handle)["data"]


def _plain(text: str | None) -> str:
    return re.sub(r"\([^()]*\)", "", text or "").replace("\u2019", "'")


def test_every_sentence_on_a_cards_own_action_is_claimed_by_a_reader(atomic) -> None:
    readers: Counter[str | None] = Counter()
    unclaimed: Counter[str] = Counter()
    problems = []
    for name, faces in sorted(atomic.items()):
        for face in faces:
            if face.get("isFunny"):
                continue
            face_name = face.get("faceName") or name
            for claim in claimed_sentences(face.get("text"), face_name):
                readers[claim.reader] += 1
                if claim.reader is not None:
                    continue
                unclaimed[claim.sentence] += 1
                if _CLASSES.search(claim.sentence.replace(face_name, "this spell")):
                    problems.append(f"{name}: nobody claims {claim.sentence!r}")
    print("\nsentences on a card's own action, by reader:", dict(readers.most_common()))
    print(f"claimed by no reader: {sum(unclaimed.values())} sentences")
    for sentence, count in unclaimed.most_common(10):
        print(f"  {count:3d}  {sentence}")
    # The classes are claimed: the cost changes (about 260 sentences) and restrictions are there.
    assert readers["cast-sentence"] > 500 and readers["ability-sentence"] > 30, readers
    # What no reader claims speaks of other cards' spells or abilities (Haakon's Knights, The
    # Ur-Dragon's Dragons), issue 38's class 8; a new unclaimed form shows up here.
    assert sum(unclaimed.values()) < 40, unclaimed.most_common(40)
    report("sentences of a class no reader claims", len(problems), 0, problems)


def _abilities(kb) -> list[tuple[str, int, str, str]]:
    """(card, position, cost, the cost-changing sentence) of each "[Cost]: [Effect]" ability whose
    printed line changes its own cost, by this test's pattern on the printed line."""
    rows = kb.select(
        "SELECT DISTINCT ?name ?position ?cost ?text WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        "mtgkb:hasAbility ?a . ?a a mtgkb:ActivatedAbility ; mtgkb:abilityPosition ?position ; "
        "mtgkb:abilityCost ?cost ; mtgkb:abilityText ?text } ORDER BY ?name ?position"
    )
    found = []
    for row in rows:
        match = _COST_CHANGE.search(_plain(row["text"]))
        if match and match.group("what").lower() == "ability":
            found.append((row["name"], int(row["position"]), row["cost"], match.group("direction").lower()))
    return found


def _game(name: str, zone: str, mana: str) -> dict:
    me: dict[str, Any] = {"mana": mana}
    me[zone] = [{"card": name}] if zone == "battlefield" else [name]
    return {"turn": "me", "step": "precombat-main", "players": {"me": me, "opp": {}}}


def _cost_check(verdict) -> bool | str | None:
    found = [c.holds for c in verdict.checks if c.check == _COST]
    return found[0] if found else "no cost check"


def _printed_mana(cost: str) -> str:
    """Mana that pays the symbols a cost starts with: an X as 0 (107.3), a hybrid or Phyrexian
    symbol by one of its colours, snow by any mana."""
    match = _MANA.match(cost)
    symbols = re.findall(r"\{([^{}]+)\}", match.group(0)) if match else []
    paid = []
    for symbol in symbols:
        if symbol in ("X", "Y"):
            continue
        parts = [p for p in symbol.split("/") if p != "P"]
        colour = next((p for p in parts if not p.isdigit()), parts[0])
        paid.append("1" if colour == "S" else colour)
    return "".join(f"{{{p}}}" for p in paid)


def test_an_abilitys_unread_cost_change_decides_only_where_it_could(pool_kb) -> None:
    abilities = _abilities(pool_kb)
    assert len(abilities) > 25, abilities
    problems = []
    for name, position, cost, direction in abilities:
        mana = _printed_mana(cost)
        # The zone it works from: the one where no check says the card is elsewhere.
        for zone in ("battlefield", "hand", "graveyard"):
            paid = can_activate(pool_kb, _game(name, zone, mana), name, str(position), "me")
            if not any(c.holds is False and _in_zone(c.check) for c in paid.checks):
                break
        unpaid = can_activate(pool_kb, _game(name, zone, ""), name, str(position), "me")
        # A reduction: the printed cost is enough, nothing may be (its reduction unknown); an
        # increase: the printed cost may be too little, nothing is too little.
        wanted = (True, None) if direction == "less" else (None, False)
        got = (_cost_check(paid), _cost_check(unpaid))
        if got != wanted:
            problems.append(f"{name} ({direction}, {cost}) from the {zone}: {got}, not {wanted}")
    report("abilities changing their own cost", len(abilities), 2 * len(abilities), problems)


def _in_zone(check: str) -> bool:
    lowered = check.lower()
    return any(zone in lowered for zone in ("hand", "graveyard", "battlefield"))


def _spells(atomic: dict, pattern: re.Pattern[str]) -> list[tuple[str, dict, re.Match[str]]]:
    """(name, face, match) of each one-faced, non-land card with a mana cost whose text has a
    sentence ``pattern`` matches outside its activated abilities' lines."""
    found = []
    for name, faces in sorted(atomic.items()):
        face = faces[0]
        if len(faces) != 1 or face.get("layout") != "normal" or face.get("isFunny"):
            continue
        if "Land" in face.get("types", []) or not face.get("manaCost"):
            continue
        text = _plain(face.get("text")).replace(name, "this spell")
        lines = [line for line in text.splitlines() if ": " not in line and "this way" not in line]
        matches = [m for line in lines for s in re.split(r"(?<=\.)\s+", line) if (m := pattern.search(s))]
        if matches and not _PERMISSION.search(text):
            found.append((name, face, matches[0]))
    return found


def _cast_game(name: str, mana: str, zone: str = "hand") -> dict:
    game = {"turn": "me", "step": "precombat-main", "players": {"me": {zone: [name], "mana": mana}}}
    return with_targets(game)


def test_a_spells_unread_cost_change_decides_only_where_it_could(pool_kb, atomic) -> None:
    spells = [s for s in _spells(atomic, _COST_CHANGE) if s[2].group("what").lower() == "spell"]
    assert len(spells) > 150, len(spells)
    problems = []
    for name, face, match in spells:
        mana = _printed_mana(face["manaCost"])
        direction = match.group("direction").lower()
        paid = can_cast(pool_kb, _cast_game(name, mana), name, "normal", "me")
        unpaid = can_cast(pool_kb, _cast_game(name, ""), name, "normal", "me")
        wanted = (True, None) if direction == "less" else (None, False)
        if not mana.strip("{}0") and direction == "less":
            wanted = (True, True)  # nothing to pay: {0} is paid with nothing
        got = (_cost_check(paid), _cost_check(unpaid))
        if got != wanted:
            problems.append(f"{name} ({match.group(0)}): {got}, not {wanted}")
    report("spells changing their own cost", len(spells), 2 * len(spells), problems)


def test_an_unread_restriction_on_casting_is_never_a_yes_and_never_hides_a_no(pool_kb, atomic) -> None:
    spells = _spells(atomic, _RESTRICTION)
    assert len(spells) > 150, len(spells)
    problems = []
    for name, face, match in spells:
        mana = _printed_mana(face["manaCost"])
        # Its own time and mana, with something of each kind to target: the sentence decides.
        instant = "Instant" in face.get("types", []) or "Flash" in face.get("keywords", [])
        game = _cast_game(name, mana)
        if instant:
            game = with_targets(game, spell=True)
        yes = can_cast(pool_kb, game, name, "normal", "me")
        unread = [c for c in yes.checks if c.holds is None and match.group(0).lower() in c.because.lower()]
        if yes.answer is True or not unread:
            problems.append(f"{name} ({match.group(0)}): {yes.answer}, its sentence named: {bool(unread)}")
        # From exile, where nothing lets it be cast: a no, whatever the sentence says.
        no = can_cast(pool_kb, _cast_game(name, mana, zone="exile"), name, "normal", "me")
        if no.answer is not False:
            problems.append(f"{name} from exile: {no.answer}")
    report("spells with an unread restriction on their cast", len(spells), 2 * len(spells), problems)
