"""An ability whose effect moves its own card out of a zone works only in that zone (113.6m):
"{1}{B}: Return this card from your graveyard to the battlefield tapped." is activated from the
graveyard, never from the battlefield. Over every such ability of the pool whose cost and
"Activate only ..." clause this test can set up, the answer is yes with the card in that zone (in
the step its clause allows, mana left unsaid, what its cost pays with in my zones, a creature of
the opponent's to target) and no with the card on the battlefield, the failing check citing
113.6m. The abilities are found in the Oracle text by this test's own pattern, not by the reader
under test."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pool_cards import report, with_targets

from mtgkb.reasoning.actions.questions import can_activate, can_cast

ATOMIC = Path("cards") / "mtgjson-atomic-merged-20260103.json.gz"

#: "[Ability word —] Cost: Return this card from your graveyard to ...", the card's own name read as
#: "this card"; the move is the effect's first sentence.
_MOVES_ITSELF = re.compile(
    r"^(?:[A-Z][A-Za-z' ]+ \u2014 )?(?P<cost>[^:\"]+): (?:Return|Put) this card from your "
    r"(?P<zone>graveyard|hand)\b[^.\"]*\.(?P<rest>[^\"]*)$"
)
_MANA = r"(?:\{[0-9WUBRGC]\})+"
_COUNT = {"a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
#: Cost parts this test can set up, beside mana left unsaid: what each needs in my zones.
_DISCARD = re.compile(r"^Discard (?P<n>a|two|three) cards?$")
_LIFE = re.compile(r"^Pay (?P<n>\d+) life$")
_EXILE_OTHERS = re.compile(
    r"^Exile (?P<n>two|three|seven)(?: other)? (?P<kind>creature |artifact )?cards from your graveyard$"
)
_EXILE_ANOTHER = re.compile(r"^Exile another (?P<kind>creature |artifact )?card from your graveyard$")
_SACRIFICE = re.compile(r"^Sacrifice (?P<n>a|an|two|three) (?P<what>[A-Za-z ]+?)s?$")
_TAP = re.compile(r"^Tap an untapped creature you control$")
#: What pays a sacrifice of each kind the pool asks: a card on my battlefield, or a token (111.4).
_SACRIFICED = {
    "creature": {"card": "Grizzly Bears"},
    "land": {"card": "Forest"},
    "artifact": {"card": "Sol Ring"},
    "enchantment": {"card": "Propaganda"},
    "Food": {"token": "Food"},
    "Treasure": {"token": "Treasure"},
    "Clue": {"token": "Clue"},
}
#: The "Activate only ..." clauses this test can meet, and the step it asks in; any other sentence
#: of the effect that is no "Activate ..." clause ("You skip your next turn.") is what it does.
_CLAUSES = {
    "Activate only during your upkeep.": "upkeep",
    "Activate only as a sorcery.": "precombat-main",
    "Activate only during your turn.": "precombat-main",
}
#: A card of each kind a cost may exile from my graveyard.
_CARD_OF = {"": "Ponder", "creature ": "Runeclaw Bear", "artifact ": "Sol Ring"}
#: Text elsewhere on the card that changes the ability ("This ability costs {1} less ..."), which
#: this test does not set up.
_ELSEWHERE = re.compile(r"\bcosts? \{|less to activate|can't be activated|\bActivate\b.*\bonly\b", re.I)


@pytest.fixture(scope="module")
def abilities(shared_data: Path) -> list[tuple[str, str, str, str, dict[str, list]]]:
    """(name, cost, zone, step, what my other zones hold) of each ability of the class."""
    with gzip.open(shared_data / ATOMIC, "rt", encoding="utf-8") as handle:
        atomic = json.load(handle)["data"]
    found = []
    for name, faces in sorted(atomic.items()):
        face = faces[0]
        if len(faces) != 1 or face.get("isFunny") or face.get("layout") != "normal":
            continue
        text = re.sub(r"\s*\([^()]*\)", "", face.get("text") or "").replace("\u2019", "'")
        text = text.replace(name, "this card")
        lines = [line for line in text.splitlines() if _MOVES_ITSELF.match(line)]
        if len(lines) != 1:
            continue
        match = _MOVES_ITSELF.match(lines[0])
        assert match is not None
        step = _step(match.group("rest"))
        others = [line for line in text.splitlines() if line != lines[0]]
        if step is None or any(_ELSEWHERE.search(line) for line in others):
            continue
        zones = _set_up(match.group("cost"))
        if zones is not None:
            found.append((name, match.group("cost"), match.group("zone"), step, zones))
    return found


def _step(rest: str) -> str | None:
    """The step to ask in for the effect's other sentences; None when one of them is an "Activate
    only ..." clause this test cannot meet, or changes the cost."""
    clauses = [s for s in re.split(r"(?<=\.)\s+", rest.strip()) if s]
    steps = []
    for sentence in clauses:
        if sentence.startswith("Activate") or "cost" in sentence:
            if sentence not in _CLAUSES:
                return None
            steps.append(_CLAUSES[sentence])
    return steps[0] if steps else "precombat-main"


def _set_up(cost: str) -> dict[str, list] | None:
    """What my zones must hold to pay ``cost`` beyond its mana; None for a part this test does not
    set up."""
    zones: dict[str, list] = {}
    for part in (p.strip() for p in cost.split(",")):
        if re.fullmatch(_MANA, part):
            continue
        discard, life = _DISCARD.match(part), _LIFE.match(part)
        others = _EXILE_OTHERS.match(part) or _EXILE_ANOTHER.match(part)
        if discard:
            zones.setdefault("hand", []).extend(["Island"] * _COUNT[discard.group("n")])
        elif life:
            continue  # twenty life pays any the pool asks
        elif _TAP.match(part):
            zones.setdefault("battlefield", []).append({"card": "Grizzly Bears"})
        elif (sacrifice := _SACRIFICE.match(part)) and sacrifice.group("what") in _SACRIFICED:
            count = _COUNT.get(sacrifice.group("n"), 1)
            zones.setdefault("battlefield", []).extend([_SACRIFICED[sacrifice.group("what")]] * count)
        elif others:
            count = _COUNT.get(others.groupdict().get("n") or "a", 1)
            card = _CARD_OF[others.group("kind") or ""]
            zones.setdefault("graveyard", []).extend([card] * count)
        else:
            return None
    return zones


def _game(name: str, zone: str, step: str, zones: dict[str, list]) -> dict[str, Any]:
    me: dict[str, list] = {key: list(value) for key, value in zones.items()}
    me.setdefault(zone, []).insert(0, {"card": name} if zone == "battlefield" else name)
    # A creature of the opponent's, for an effect that targets one ("attached to target creature").
    opp = {"battlefield": [{"card": "Grizzly Bears"}]}
    return {"turn": "me", "step": step, "players": {"me": me, "opp": opp}}


def test_an_ability_that_moves_its_own_card_works_only_from_that_zone(pool_kb, abilities) -> None:
    assert len(abilities) >= 55, len(abilities)
    problems = []
    for name, cost, zone, step, zones in abilities:
        yes = can_activate(pool_kb, _game(name, zone, step, zones), name, cost, player="me")
        if yes.answer is not True:
            failing = [c.because for c in yes.checks if c.holds is not True][:1]
            problems.append(f"{name} ({cost}) in its {zone} in the {step}: {yes.answer} {failing}")
        no = can_activate(pool_kb, _game(name, "battlefield", step, zones), name, cost, player="me")
        failing_cites = [n for c in no.checks if c.holds is False for n in c.cites]
        if no.answer is not False:
            problems.append(f"{name} ({cost}) on the battlefield: {no.answer}")
        elif "113.6m" not in failing_cites:
            problems.append(f"{name} on the battlefield: the failing check cites {failing_cites}, not 113.6m")
    report("abilities that move their own card", len(abilities), 2 * len(abilities), problems)


#: "You may cast this card from your graveyard [how or when]." (601.3), the card's own name read as
#: "this card": a permission the card gives itself.
_OWN_PERMISSION = re.compile(r"^You may cast this card from your graveyard(?P<more>[^.]*)\.(?P<rest>.*)$")
#: Other lines of the card that change how it is cast ("As an additional cost to cast this spell").
_CHANGES_THE_CAST = re.compile(r"\bcast\b|\bcosts?\b|can't spend", re.IGNORECASE)


@pytest.fixture(scope="module")
def own_permissions(shared_data: Path) -> list[tuple[str, str, str]]:
    """(name, the answer expected, the step to ask in) of each card of the pool whose own text lets
    it be cast from its owner's graveyard: yes when the sentence says nothing more and no other line
    changes the cast, cannot tell when the sentence says how or when, and only "not no" when
    another line changes the cast ("As an additional cost to cast this spell ..."), which the
    verdicts read or not whatever zone the card is cast from."""
    with gzip.open(shared_data / ATOMIC, "rt", encoding="utf-8") as handle:
        atomic = json.load(handle)["data"]
    found = []
    for name, faces in sorted(atomic.items()):
        face = faces[0]
        if len(faces) != 1 or face.get("isFunny") or face.get("layout") != "normal":
            continue
        text = re.sub(r"\s*\([^()]*\)", "", face.get("text") or "").replace("\u2019", "'")
        lines = text.replace(name, "this card").splitlines()
        permission = next((m for m in map(_OWN_PERMISSION.match, lines) if m), None)
        if permission is None:
            continue
        others = [line for line in lines if not _OWN_PERMISSION.match(line)]
        says_more = bool(permission.group("more") or permission.group("rest").strip())
        changed = any(_CHANGES_THE_CAST.search(line) for line in others)
        expected = "cannot tell" if says_more else "not no" if changed else "yes"
        found.append((name, expected, "precombat-main"))
    return found


def test_a_cards_own_permission_to_be_cast_from_its_graveyard_is_never_a_no(pool_kb, own_permissions) -> None:
    """601.3: the card may be cast from my graveyard in my main phase, with objects to target:
    yes when the sentence says nothing more, cannot tell when it says how or when ("using its blitz
    ability", "as long as you control a Zombie"), which is not modelled, never no; from my library,
    which nothing lets it be cast from, no."""
    assert len(own_permissions) >= 20, len(own_permissions)
    problems = []
    for name, expected, step in own_permissions:
        # Objects of every common kind to target: an Aura's enchant is a target (303.4a).
        game = with_targets({"turn": "me", "step": step, "players": {"me": {"graveyard": [name]}, "opp": {}}})
        verdict = can_cast(pool_kb, game, name, player="me")
        wanted = {"yes": True, "cannot tell": None}.get(expected, verdict.answer)
        if verdict.answer is False or verdict.answer is not wanted:
            failing = [c.because for c in verdict.checks if c.holds is not True][:1]
            problems.append(f"{name} from my graveyard: {verdict.answer} {failing}")
        library = {"turn": "me", "step": step, "players": {"me": {"library_top": [name]}, "opp": {}}}
        if can_cast(pool_kb, library, name, player="me").answer is not False:
            problems.append(f"{name} from my library: not a no")
    expectations = [expected for _, expected, _ in own_permissions]
    assert expectations.count("yes") >= 1 and expectations.count("cannot tell") >= 15, expectations
    report(
        "cards that may be cast from their graveyard",
        len(own_permissions),
        2 * len(own_permissions),
        problems,
    )
