"""Permissions to cast that a sentence gives, over every such card of the imported pool: "You may
cast this spell as though it had flash" (the card's own), the same given by a permanent to its
controller's spells of a card type (Vedalken Orrery, Shimmer Myr), and casting the top card of your
library (Future Sight, Garruk's Horde). Each gets a yes where the permission allows the cast, naming
the permanent that gives it, and a no without it."""

from __future__ import annotations

from pool_cards import report, unread_targets, with_targets

from mtgkb.reasoning.actions.questions import can_cast

# A card of each type a permission names: none of them has flash of its own.
_OF_TYPE = {
    "": "Grizzly Bears",
    "Creature": "Grizzly Bears",
    "Artifact": "Ornithopter",
    "Sorcery": "Divination",
}
_TOP = "mechanic:cast-from-the-top-of-your-library"


def _granters(kb, mechanic: str) -> list[tuple[str, str, bool]]:
    """(granting card, card type it names or "", whether a sentence beside it is unread)."""
    rows = kb.select(
        "SELECT ?name (SAMPLE(?kind) AS ?type) (COUNT(?part) AS ?unread) WHERE { ?card mtgkb:name ?name ; "
        f"mtgkb:hasAbility ?s . ?s mtgkb:grants ?g . ?g mtgkb:instantiates {mechanic} "
        "OPTIONAL { ?s mtgkb:grantedToCardType ?kind } OPTIONAL { ?g mtgkb:unmodelledPart ?part } } "
        "GROUP BY ?name ORDER BY ?name"
    )
    return [(row["name"], row.get("type") or "", int(row["unread"]) > 0) for row in rows]


def _opponents_end_step(me: dict) -> dict:
    return {"turn": "opp", "step": "end", "priority": "me", "players": {"me": me, "opp": {}}}


def test_a_card_cast_as_though_it_had_flash_by_its_own_text(pool_kb) -> None:
    """Armor of Thorns, Soar, Necromancy ... (601.3): from my hand in the opponent's end step."""
    rows = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card mtgkb:name ?name ; mtgkb:hasAbility ?a . "
        "?a mtgkb:instantiates mechanic:as-though-it-had-flash } ORDER BY ?name"
    )
    names = [row["name"] for row in rows]
    assert len(names) >= 8, names
    problems, untold = [], unread_targets(pool_kb)
    for name in names:
        game = with_targets(_opponents_end_step({"hand": [name]}), spell=True)
        verdict = can_cast(pool_kb, game, name, "normal", "me")
        if verdict.answer is not (None if name in untold else True):
            problems.append(f"{name} in the opponent's end step: {verdict.answer}")
    report("cast as though it had flash, its own", len(names), len(names), problems)


def test_a_permanent_lets_its_controllers_spells_be_cast_as_though_they_had_flash(pool_kb) -> None:
    """Vedalken Orrery, Shimmer Myr, Prophet of Kruphix ... on my battlefield: a card of the type it
    names, cast in the opponent's end step, yes, naming the permanent; with the permanent in my
    graveyard instead, no (113.6: it works on the battlefield)."""
    granters = [g for g in _granters(pool_kb, "mechanic:as-though-it-had-flash") if g[1] in _OF_TYPE]
    assert len(granters) >= 8, granters
    problems = []
    for granter, kind, _ in granters:
        card = _OF_TYPE[kind]
        on = can_cast(
            pool_kb, _opponents_end_step({"hand": [card], "battlefield": [granter]}), card, None, "me"
        )
        timing = [c.because for c in on.checks if c.check == "The card's type allows casting it now"]
        if on.answer is not True or not any(f"given by {granter}" in t for t in timing):
            problems.append(f"{card} beside {granter}: {on.answer} {timing}")
        off = can_cast(
            pool_kb, _opponents_end_step({"hand": [card], "graveyard": [granter]}), card, None, "me"
        )
        if off.answer is not False:
            problems.append(f"{card} with {granter} in the graveyard: {off.answer}")
    report("cast as though they had flash, given", len(granters), 2 * len(granters), problems)


def test_a_permanent_lets_its_controller_cast_the_top_card_of_their_library(pool_kb) -> None:
    """Future Sight, Garruk's Horde, Vizier of the Menagerie ...: the top card of my library, of the
    type named, in my main phase, yes by that permanent; the second card, no. A sentence beside the
    permission that no phrase reads (Bolas's Citadel pays life instead) or a Class level cannot tell."""
    granters = [g for g in _granters(pool_kb, _TOP) if g[1] in _OF_TYPE]
    assert len(granters) >= 8, granters
    problems = []
    for granter, kind, unread in granters:
        card = _OF_TYPE[kind]
        game = {
            "turn": "me",
            "step": "precombat-main",
            "players": {"me": {"library_top": [card, "Island"], "battlefield": [granter]}, "opp": {}},
        }
        top = can_cast(pool_kb, game, card, "library", "me")
        expected = None if unread else True
        if top.answer is not expected or top.granted_by != granter:
            problems.append(f"{card} on top beside {granter}: {top.answer} by {top.granted_by}")
        game["players"]["me"]["library_top"] = ["Island", card]
        if can_cast(pool_kb, game, card, "library", "me").answer is not False:
            problems.append(f"{card} second from the top beside {granter}: not a no")
    report("cast from the top of the library", len(granters), 2 * len(granters), problems)


def test_a_permanent_lets_its_controller_cast_from_their_graveyard_unless_another_line_forbids(
    pool_kb,
) -> None:
    """Yawgmoth's Agenda lets its controller cast spells from their graveyard, and forbids more than
    one spell a turn on another line: the prohibition is not read, so a card in my graveyard cannot
    be told; with the Agenda gone, no (601.3)."""
    granters = _granters(pool_kb, "mechanic:cast-from-your-graveyard-by-permission")
    assert ("Yawgmoth's Agenda", "", True) in granters, granters
    game = {
        "turn": "me",
        "step": "precombat-main",
        "players": {"me": {"graveyard": ["Divination"], "battlefield": ["Yawgmoth's Agenda"]}, "opp": {}},
    }
    agenda = can_cast(pool_kb, game, "Divination", "graveyard", "me")
    unread = [c.because for c in agenda.checks if c.holds is None]
    assert agenda.answer is None and agenda.granted_by == "Yawgmoth's Agenda", agenda.checks
    assert any("can't cast more than one spell" in text for text in unread), unread
    game["players"]["me"]["battlefield"] = []
    assert can_cast(pool_kb, game, "Divination", None, "me").answer is False


def test_the_card_view_gives_each_ability_the_steps_this_card_can_use_it_in(pool_kb) -> None:
    """`mtgkb card`: Force of Will's alternative cost is usable whenever its instant could be cast
    (the sorcery timing of the mechanic is waived for an Instant, as `mtgkb timing` says), not only in
    your main phases; a creature's Evoke keeps the main phases of your own turn."""
    from mtgkb.app import card_with_timing

    def usable(name: str) -> tuple[list[str], bool]:
        (ability,) = [
            a for a in card_with_timing(pool_kb, name).abilities if a.mechanic and a.mechanic.usable_in
        ]
        steps = ability.mechanic.usable_in
        return [step.label for step in steps], any(step.your_turn_only for step in steps)

    force, own_turn = usable("Force of Will")
    assert {"upkeep step", "declare attackers step", "end step"} <= set(force) and not own_turn, force
    evoke, own_turn = usable("Mulldrifter")
    assert set(evoke) == {"precombat main phase", "postcombat main phase"} and own_turn, evoke
