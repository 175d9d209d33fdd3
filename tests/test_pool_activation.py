"""Every equip, cycling, unearth, crew, loyalty, energy, "Sacrifice a <subtype>", foretell, plot,
suspend, turn-face-up and companion ability of the imported pool through a yes and a no situation (issue 21):
each keyword ability's zone and timing are its mechanic's data, each loyalty ability's its own
node's, so one wrong entry shows up here on the whole pool, not on a starter card."""

from __future__ import annotations

import re

import pytest

from mtgkb.reasoning.actions.questions import can_activate

_MANA_ONLY = re.compile(r"^(?:\{[0-9WUBRGCX/]+\})+$")


def _abilities(kb, mechanic: str, unread: bool = False) -> list[tuple[str, str]]:
    """(card name, cost) of every ability of ``mechanic`` whose cost is mana only, once per card: those
    read whole, or (``unread``) those with a part no phrase reads ("Equip {3}. This ability costs {1}
    less ..."), whose verdicts cannot tell."""
    rows = kb.select(
        "SELECT ?name (MIN(?cost) AS ?c) WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        f"mtgkb:hasAbility ?a . ?a mtgkb:instantiates mechanic:{mechanic} ; mtgkb:abilityCost ?cost "
        f"FILTER({'' if unread else '!'}EXISTS {{ ?a mtgkb:unmodelledPart ?part }}) }} "
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
    # A sentence that changes the ability ("This ability costs {1} less ...") is unread: cannot tell.
    cases += [(name, yes(name), mechanic, None) for name, _ in _abilities(pool_kb, mechanic, unread=True)]
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


def _check(verdict, label: str) -> bool | None:
    """Whether the verdict's check of ``label`` holds (None: no such check)."""
    return next((c.holds for c in verdict.checks if c.check == label), None)


def _first_per_card(rows: list[dict], *columns: str) -> list[tuple]:
    """One row per card (its first ability in printed order), as a tuple of ``columns``."""
    first: dict[str, dict] = {}
    for row in sorted(rows, key=lambda r: (r["name"], int(r["position"]))):
        first.setdefault(row["name"], row)
    return [tuple(row[c] for c in ("name", *columns)) for row in first.values()]


def test_every_energy_cost_of_the_pool_is_paid_with_enough_energy_only(pool_kb) -> None:
    """Each ability that pays {E}: its energy check holds with that many energy counters and fails
    with one fewer (107.14), on the ability's own permanent in my main phase."""
    rows = pool_kb.select(
        "SELECT ?name ?position ?energy WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        "mtgkb:hasAbility ?a . ?a mtgkb:abilityPosition ?position ; mtgkb:hasRequirement ?r . "
        "?r mtgkb:requiresEnergyAtLeast ?energy FILTER(?energy > 0) "
        "FILTER NOT EXISTS { ?card mtgkb:hasFace ?f } }"
    )
    cards = _first_per_card(rows, "position", "energy")
    assert len(cards) > 40, f"only {len(cards)} cards pay energy"
    problems = []
    for name, position, energy in cards:
        label = f"You have {energy} energy to pay"
        for given, expected in ((int(energy), True), (int(energy) - 1, False)):
            game = _game({"battlefield": [{"card": name}], "energy": given})
            verdict = can_activate(pool_kb, game, name, str(position), player="me")
            if _check(verdict, label) is not expected:
                problems.append(f"{name} with {given} energy: {_check(verdict, label)}, not {expected}")
    print(f"\nenergy: {len(cards)} cards, {2 * len(cards)} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


def test_every_sacrifice_of_a_subtype_in_the_pool_finds_a_token_of_it(pool_kb) -> None:
    """Each "Sacrifice a <subtypes>" cost that says nothing else of the permanent: a token named for
    those subtypes (111.4) pays it, and a Grizzly Bears does not (701.21a); cards of such a subtype
    themselves are left out, since they may pay with themselves."""
    rows = pool_kb.select(
        "SELECT ?name ?position ?label (GROUP_CONCAT(?subtype; separator=' ') AS ?token) WHERE { "
        "?card a mtgkb:Card ; mtgkb:name ?name ; mtgkb:hasAbility ?a . ?a mtgkb:abilityPosition ?position ; "
        "mtgkb:hasRequirement ?r . ?r mtgkb:requiresSubtype ?subtype ; rdfs:label ?label ; "
        "mtgkb:appliesTo mtgkb:CostObject ; mtgkb:objectCount 1 FILTER(STRSTARTS(?label, 'Sacrifice a')) "
        "FILTER NOT EXISTS { ?card mtgkb:subtype ?own . ?r mtgkb:requiresSubtype ?own } "
        "FILTER NOT EXISTS { ?card mtgkb:hasFace ?f } "
        "FILTER NOT EXISTS { ?r ?p ?v FILTER(?p NOT IN (rdf:type, rdfs:label, mtgkb:appliesTo, "
        "mtgkb:citesRule, mtgkb:requiresSubtype, mtgkb:requiresZone, mtgkb:requiresControlByYou, "
        "mtgkb:objectCount)) } "
        "} GROUP BY ?name ?position ?label"
    )
    cards = _first_per_card(rows, "position", "label", "token")
    assert len(cards) > 40, f"only {len(cards)} cards sacrifice a subtype"
    problems = []
    for name, position, label, token in cards:
        for other, expected in (({"token": token}, True), ({"card": "Grizzly Bears"}, False)):
            game = _game({"battlefield": [{"card": name}, other]})
            verdict = can_activate(pool_kb, game, name, str(position), player="me")
            if _check(verdict, label) is not expected:
                problems.append(f"{name} beside {other}: {_check(verdict, label)}, not {expected}")
    print(f"\nsacrifice a subtype: {len(cards)} cards, {2 * len(cards)} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize(("mechanic", "wrong_step"), [("foretell", None), ("plot", "declare-attackers")])
def test_every_foretell_and_plot_card_of_the_pool_is_a_special_action_in_its_time(
    pool_kb, mechanic: str, wrong_step: str | None
) -> None:
    """Foretell: from my hand on my turn, not on the opponent's (116.2h); plot: in my main phase,
    not in combat (116.2k). Each verdict says it is a special action."""
    cards = [name for name, _ in _abilities(pool_kb, mechanic)]
    assert len(cards) > 20, f"only {len(cards)} {mechanic} cards in the pool"
    problems = []
    for name in cards:
        yes = can_activate(pool_kb, _game({"hand": [name]}), name, mechanic, player="me")
        no_game = (
            _game({"hand": [name]}, step=wrong_step) if wrong_step else _game({"hand": [name]}, turn="opp")
        )
        no = can_activate(pool_kb, no_game, name, mechanic, player="me")
        if yes.answer is not True or _check(yes, "It is a special action") is not True:
            problems.append(f"{name}: {yes.answer} in its time")
        if no.answer is not False:
            problems.append(f"{name}: {no.answer} out of its time")
    print(f"\n{mechanic}: {len(cards)} cards, {2 * len(cards)} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


def test_every_suspend_card_of_the_pool_is_suspended_when_it_could_be_cast(pool_kb) -> None:
    """Suspending is a special action whenever you could begin to cast the card (116.2f): in my main
    phase always; on the opponent's turn only for an instant or a card with flash (117.1a, 702.8a)."""
    cards = [name for name, _ in _abilities(pool_kb, "suspend")]
    assert len(cards) > 50, f"only {len(cards)} suspend cards in the pool"
    rows = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card a mtgkb:Card ; mtgkb:name ?name . { ?card mtgkb:cardType "
        "'Instant' } UNION { ?card mtgkb:hasAbility/mtgkb:instantiates mechanic:flash } }"
    )
    any_time = {row["name"] for row in rows}
    problems = []
    for name in cards:
        yes = can_activate(pool_kb, _game({"hand": [name]}), name, "suspend", player="me")
        later = can_activate(pool_kb, _game({"hand": [name]}, turn="opp", step="end"), name, "suspend", "me")
        if yes.answer is not True or _check(yes, "It is a special action") is not True:
            problems.append(f"{name}: {yes.answer} in my main phase")
        if later.answer is not (name in any_time):
            problems.append(f"{name}: {later.answer} on the opponent's turn")
    print(
        f"\nsuspend: {len(cards)} cards ({len(any_time & set(cards))} at any time), {2 * len(cards)} verdicts"
    )
    assert any_time & set(cards), "no instant or flash card with suspend: the waiver is not exercised"
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("mechanic", ["morph", "megamorph", "disguise"])
def test_every_face_down_permanent_with_morph_or_disguise_may_be_turned_face_up(pool_kb, mechanic) -> None:
    """Face down on my battlefield, with priority on the opponent's turn: yes, as a special action
    (116.2b, 702.37e, 702.168d); face up: no."""
    cards = [name for name, _ in _abilities(pool_kb, mechanic)]
    assert len(cards) > 20, f"only {len(cards)} {mechanic} cards in the pool"
    unread = {name for name, _ in _abilities(pool_kb, mechanic, unread=True)}  # a cost reduction unread
    problems = []
    for name in [*cards, *sorted(unread)]:
        for face_down, expected in ((mechanic, None if name in unread else True), (False, False)):
            game = _game({"battlefield": [{"card": name, "face_down": face_down}]}, turn="opp", step="end")
            verdict = can_activate(pool_kb, game, name, "turn-face-up", player="me")
            if verdict.answer is not expected:
                problems.append(f"{name} face down {face_down}: {verdict.answer}, not {expected}")
    print(f"\n{mechanic}: {len(cards)} cards, {2 * len(cards)} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


def test_manifested_and_cloaked_permanents_turn_up_for_a_creature_cards_mana_cost(pool_kb) -> None:
    """A sample of the pool face down without morph or disguise: manifested or cloaked, it may be
    turned up if its card is a creature card with a mana cost (701.40b, 701.58b, 118.6); face down
    without saying how, such a card cannot be told, and any other card is a no either way."""
    import random

    from mtgkb.reasoning.situation import SituationError

    rows = pool_kb.select(
        "SELECT ?name (SAMPLE(?cost) AS ?mana) (GROUP_CONCAT(?type) AS ?types) WHERE { ?card a mtgkb:Card ; "
        "mtgkb:name ?name ; mtgkb:cardType ?type . OPTIONAL { ?card mtgkb:manaCost ?cost } FILTER NOT EXISTS "
        "{ ?card mtgkb:hasAbility/mtgkb:instantiates/mtgkb:usableFaceDown true } } "
        "GROUP BY ?name ORDER BY ?name"
    )
    sample = random.Random(40).sample(rows, 150)
    problems, asked = [], 0
    for row in sample:
        creature = "Creature" in row["types"].split()
        for how, expected in (
            ("manifest", creature and bool(row["mana"])),
            ("cloak", creature and bool(row["mana"])),
            # Not saying how: cannot tell, unless neither way could (no creature card, no mana cost).
            (True, None if creature and row["mana"] else False),
        ):
            game = _game({"battlefield": [{"card": row["name"], "face_down": how}]}, turn="opp", step="end")
            try:
                verdict = can_activate(pool_kb, game, row["name"], "turn-face-up", player="me")
            except SituationError:  # a double-faced card is never face down here
                continue
            asked += 1
            if verdict.answer is not expected:
                problems.append(
                    f"{row['name']} ({row['types']}) face down {how}: {verdict.answer}, not {expected}"
                )
    print(f"\nmanifest and cloak: {len(sample)} cards, {asked} verdicts")
    assert asked > 300, asked
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


def test_every_companion_of_the_pool_comes_into_the_hand_once_in_a_main_phase(pool_kb) -> None:
    """A companion outside the game: yes in my main phase with the stack empty (116.2g); no in my
    combat, and no once it is in my hand (it stays in the game, 702.139c)."""
    rows = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card a mtgkb:Card ; mtgkb:name ?name ; "
        "mtgkb:hasAbility/mtgkb:instantiates mechanic:companion } ORDER BY ?name"
    )
    cards = [row["name"] for row in rows]
    assert len(cards) >= 10, f"only {len(cards)} companions in the pool"
    problems = []
    for name in cards:
        for game, expected in (
            (_game({"companion": [name]}), True),
            (_game({"companion": [name]}, step="declare-attackers"), False),
            (_game({"hand": [name]}), False),
        ):
            verdict = can_activate(pool_kb, game, name, "companion", player="me")
            if verdict.answer is not expected or verdict.cost != "{3}":
                problems.append(f"{name} in {game['players']['me']}: {verdict.answer} {verdict.cost}")
    print(f"\ncompanion: {len(cards)} cards, {3 * len(cards)} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])
