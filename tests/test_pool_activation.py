"""Every equip, cycling, unearth and loyalty ability of the imported pool through a yes and a no
situation (issue 21): each keyword ability's zone and timing are its mechanic's data, each loyalty
ability's its own node's, so one wrong entry shows up here on the whole pool, not on a starter card."""

from __future__ import annotations

import re

import pytest

from mtgkb.reasoning.actions.questions import can_activate

_MANA_ONLY = re.compile(r"^(?:\{[0-9WUBRGCX/]+\})+$")


def _abilities(kb, mechanic: str) -> list[tuple[str, str]]:
    """(card name, cost) of every ability of ``mechanic`` whose cost is mana only, once per card."""
    rows = kb.select(
        "SELECT ?name (MIN(?cost) AS ?c) WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        f"mtgkb:hasAbility ?a . ?a mtgkb:instantiates mechanic:{mechanic} ; mtgkb:abilityCost ?cost }} "
        "GROUP BY ?name ORDER BY ?name"
    )
    return [(row["name"], row["c"]) for row in rows if _MANA_ONLY.match(row["c"] or "")]


def _game(me: dict, turn: str = "me", step: str = "precombat-main", opp: dict | None = None) -> dict:
    game = {"turn": turn, "step": step, "players": {"me": me, "opp": opp or {}}}
    if turn != "me":
        game["priority"] = "me"
    return game


def _run(kb, cases: list[tuple[str, dict, str | None, bool]]) -> list[str]:
    problems = []
    for name, game, ability, expected in cases:
        verdict = can_activate(kb, game, name, ability, player="me")
        if verdict.answer is not expected:
            failing = [c.because for c in verdict.checks if c.holds is not True][:1]
            problems.append(f"{name}: {verdict.answer}, not {expected} {failing}")
    return problems


@pytest.mark.parametrize(
    ("mechanic", "yes", "no"),
    [
        # Equip: my main phase with a creature of mine; not in combat (only as a sorcery, 702.6a).
        (
            "equip",
            lambda card: _game({"battlefield": [{"card": card}, {"card": "Grizzly Bears"}]}),
            lambda card: _game(
                {"battlefield": [{"card": card}, {"card": "Grizzly Bears"}]}, step="declare-attackers"
            ),
        ),
        # Cycling: from my hand at instant speed; never from the battlefield (702.29a).
        (
            "cycling",
            lambda card: _game({"hand": [card]}, turn="opp", step="end"),
            lambda card: _game({"battlefield": [{"card": card}]}),
        ),
        # Unearth: from my graveyard as a sorcery; not in my upkeep (702.84a).
        (
            "unearth",
            lambda card: _game({"graveyard": [card]}),
            lambda card: _game({"graveyard": [card]}, step="upkeep"),
        ),
    ],
)
def test_every_keyword_ability_of_the_pool_says_yes_and_no(pool_kb, mechanic: str, yes, no) -> None:
    cards = _abilities(pool_kb, mechanic)
    assert len(cards) > 20, f"only {len(cards)} {mechanic} cards in the pool"
    cases = [(name, yes(name), mechanic, True) for name, _ in cards]
    cases += [(name, no(name), mechanic, False) for name, _ in cards]
    problems = _run(pool_kb, cases)
    print(f"\n{mechanic}: {len(cards)} cards, {len(cases)} verdicts")
    assert not problems, f"{len(problems)} of {len(cases)}:\n" + "\n".join(problems[:20])


def test_every_plus_loyalty_ability_of_the_pool_says_yes_and_then_no(pool_kb) -> None:
    """Each planeswalker's first '+N' loyalty ability without a target: yes in my main phase, no once
    a loyalty ability of it was activated this turn, no on the opponent's turn (606.3)."""
    rows = pool_kb.select(
        "SELECT ?name (MIN(?cost) AS ?c) WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        "mtgkb:hasAbility ?a . ?a mtgkb:instantiates mechanic:loyalty-ability ; "
        "mtgkb:abilityCost ?cost ; mtgkb:abilityText ?t "
        'FILTER(STRSTARTS(?cost, "+") && !CONTAINS(LCASE(?t), "target")) '
        "FILTER NOT EXISTS { ?a mtgkb:unmodelledPart ?u } } GROUP BY ?name ORDER BY ?name"
    )
    cards = [(row["name"], row["c"]) for row in rows]
    assert len(cards) > 50
    cases = []
    for name, cost in cards:
        walker = {"card": name}
        cases.append((name, _game({"battlefield": [walker]}), cost, True))
        used = {"card": name, "activations_this_turn": {"loyalty": 1}}
        cases.append((name, _game({"battlefield": [used]}), cost, False))
        cases.append((name, _game({"battlefield": [walker]}, turn="opp"), cost, False))
    problems = _run(pool_kb, cases)
    print(f"\nloyalty: {len(cards)} planeswalkers, {len(cases)} verdicts")
    assert not problems, f"{len(problems)} of {len(cases)}:\n" + "\n".join(problems[:20])


def test_every_crew_vehicle_of_the_pool_says_yes_and_no(pool_kb) -> None:
    """Each Vehicle's crew ability (702.122a): yes with two untapped 6/6 creatures of mine (crew 12
    at most), even new this turn; no when they are tapped."""
    rows = pool_kb.select(
        "SELECT DISTINCT ?name ?cost WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; mtgkb:hasAbility ?a . "
        "?a mtgkb:instantiates mechanic:crew ; mtgkb:abilityCost ?cost } ORDER BY ?name"
    )
    cards = [row["name"] for row in rows if int(row["cost"].split()[-1]) <= 12]
    assert len(cards) > 100
    crew = [{"card": "Colossal Dreadmaw", "new_this_turn": True}, {"card": "Colossal Dreadmaw"}]
    tapped = [{"card": "Colossal Dreadmaw", "tapped": True}]
    cases = [(name, _game({"battlefield": [{"card": name}, *crew]}), "crew", True) for name in cards]
    cases += [(name, _game({"battlefield": [{"card": name}, *tapped]}), "crew", False) for name in cards]
    problems = _run(pool_kb, cases)
    print(f"\ncrew: {len(cards)} Vehicles, {len(cases)} verdicts")
    assert not problems, f"{len(problems)} of {len(cases)}:\n" + "\n".join(problems[:20])
