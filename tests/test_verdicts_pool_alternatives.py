"""Alternative costs and the casts other abilities open, over every such card of the imported pool:
evoke, dash, blitz, warp, overload and cleave from the hand; morph, megamorph and disguise face down
for {3}; a foretold card and a plotted card from exile. Each card gets a yes where its rule allows it
and a no where it does not, with the cost its own Oracle text gives."""

from __future__ import annotations

from pool_cards import (
    TARGETS_NOTHING_HERE,
    cards_with,
    is_instant,
    report,
    unread_parts,
    unread_targets,
    with_targets,
)

from mtgkb.reasoning.actions.questions import can_cast

_FROM_HAND = ("evoke", "dash", "blitz", "warp", "overload", "cleave", "impending")
# Beside the card in hand, for "Exile a blue card from your hand" (Subtlety's evoke).
_ONE_OF_EACH_COLOUR = ("Swords to Plowshares", "Opt", "Doom Blade", "Lightning Bolt", "Giant Growth")


def _game(step: str, zone: str, card: object, turn: str = "me") -> dict:
    game = {"turn": turn, "step": step, "players": {"me": {zone: [card]}, "opp": {}}}
    return game | ({"priority": "me"} if turn == "opp" else {})


def _mana_only(cost: str) -> bool:  # a foretell cost is mana, or cannot tell
    return cost.startswith("{") and cost.endswith("}") and "," not in cost


def test_each_alternative_cost_casts_from_the_hand_and_nowhere_else(pool_kb) -> None:
    """Evoke, dash, blitz, warp, overload, cleave, impending: from my hand in my main phase for the
    ability's cost, a Mountain and a card of each colour beside it for a cost that discards or exiles
    a card, 20 life for one that pays life (a cost part no phrase reads cannot tell); from my
    graveyard, no."""
    problems, count = [], 0
    untold = unread_targets(pool_kb)
    for mechanic in _FROM_HAND:
        cards, unread = cards_with(pool_kb, mechanic), unread_parts(pool_kb, mechanic)
        assert len(cards) >= 5, (mechanic, len(cards))  # impending: 5 cards
        for name, cost in cards:
            count += 1
            game = {
                "turn": "me",
                "step": "precombat-main",
                "players": {"me": {"hand": [name, "Mountain", *_ONE_OF_EACH_COLOUR]}, "opp": {}},
            }
            verdict = can_cast(pool_kb, with_targets(game, is_instant(pool_kb, name)), name, mechanic, "me")
            told = mechanic == "overload" or name not in untold  # overloaded, it chooses no target
            expected = None if name in unread or not told else True
            if verdict.answer is not expected or (expected and verdict.cost != cost):
                problems.append(f"{mechanic} {name} ({cost}) from hand: {verdict.answer} {verdict.cost}")
            late = can_cast(pool_kb, _game("precombat-main", "graveyard", name), name, mechanic, "me")
            if late.answer is not False:
                problems.append(f"{mechanic} {name} from the graveyard: {late.answer}")
    report("alternative costs from the hand", count, 2 * count, problems)


def test_every_morph_megamorph_and_disguise_card_is_cast_face_down_for_three(pool_kb) -> None:
    """Face down (702.37c, 702.168b) the spell is a 2/2 creature with no text, whatever the card:
    {3} in my main phase; never in the opponent's end step, flash or not (708.2)."""
    problems, count = [], 0
    for mechanic in ("morph", "megamorph", "disguise"):
        for name, _ in cards_with(pool_kb, mechanic):
            count += 1
            now = can_cast(pool_kb, _game("precombat-main", "hand", name), name, "face down", "me")
            if (now.answer, now.cost) != (True, "{3}"):
                problems.append(f"{name} face down in my main phase: {now.answer} {now.cost}")
            late = can_cast(pool_kb, _game("end", "hand", name, "opp"), name, "face down", "me")
            if late.answer is not False:
                problems.append(f"{name} face down in the opponent's end step: {late.answer}")
    assert count > 200, count
    report("face down", count, 2 * count, problems)


def test_every_foretell_card_is_cast_from_exile_on_a_later_turn(pool_kb) -> None:
    """A foretold card (702.143a): for its foretell cost from exile once foretold on an earlier turn,
    in my main phase; foretold this turn, not yet."""
    cards = cards_with(pool_kb, "foretell")
    assert len(cards) > 40, len(cards)
    problems, untold = [], unread_targets(pool_kb)
    for name, cost in cards:
        earlier = {"card": name, "foretold": True}
        game = with_targets(_game("precombat-main", "exile", earlier), is_instant(pool_kb, name))
        verdict = can_cast(pool_kb, game, name, None, "me")
        expected = True if _mana_only(cost) and name not in untold else None
        if verdict.answer is not expected or (expected and verdict.cost != cost):
            problems.append(f"{name} ({cost}) foretold earlier: {verdict.answer} {verdict.cost}")
        today = {"card": name, "foretold": "this turn"}
        if can_cast(pool_kb, _game("precombat-main", "exile", today), name, None, "me").answer is not False:
            problems.append(f"{name} foretold this turn: not a no")
    report("foretell", len(cards), 2 * len(cards), problems)


def test_every_plot_card_is_cast_free_from_exile_at_sorcery_speed(pool_kb) -> None:
    """A plotted card (702.170d): free, from exile, in my main phase with an empty stack, whatever
    its type; in my combat, no."""
    cards = cards_with(pool_kb, "plot")
    assert len(cards) > 25, len(cards)
    problems = []
    untold = unread_targets(pool_kb)
    for name, _ in cards:
        plotted = {"card": name, "plotted": True}
        now = can_cast(pool_kb, with_targets(_game("postcombat-main", "exile", plotted)), name, None, "me")
        if (now.answer, now.cost) != (None if name in untold else True, "{0}"):
            problems.append(f"{name} plotted, main phase: {now.answer} {now.cost}")
        combat = can_cast(pool_kb, _game("declare-attackers", "exile", plotted), name, None, "me")
        if combat.answer is not False:
            problems.append(f"{name} plotted, in combat: {combat.answer}")
    report("plot", len(cards), 2 * len(cards), problems)


def test_every_escape_card_is_cast_from_the_graveyard_with_other_cards_to_exile(pool_kb) -> None:
    """Escape (702.138a): from my graveyard in my main phase for the escape cost, whose "Exile N
    other cards from your graveyard" is read from the card's own text and counted: yes with ten
    other cards there, no with one when the cost exiles cards; from my hand, no."""
    cards, unread = cards_with(pool_kb, "escape"), unread_parts(pool_kb, "escape")
    assert len(cards) > 25, len(cards)
    problems, untold = [], unread_targets(pool_kb)
    for name, cost in cards:
        few = "Exile" not in cost
        for others, expected in ((["Island"] * 10, True), (["Island"], few)):
            expected = None if (name in unread or name in untold) and expected else expected
            me = {"graveyard": [name, *others]}
            game = {"turn": "me", "step": "precombat-main", "players": {"me": me, "opp": {}}}
            # Targets on the opponent's side only: my graveyard holds just what the cost counts.
            verdict = can_cast(pool_kb, with_targets(game, mine=False), name, "escape", "me")
            if verdict.answer is not expected:
                failing = [c.because for c in verdict.checks if c.holds is not True][:1]
                problems.append(f"{name} ({cost}) with {len(others)} other cards: {verdict.answer} {failing}")
        if can_cast(pool_kb, _game("precombat-main", "hand", name), name, "escape", "me").answer is not False:
            problems.append(f"{name} escaping from the hand: not a no")
    report("escape", len(cards), 3 * len(cards), problems)


def test_every_disturb_card_is_cast_back_face_up_from_the_graveyard(pool_kb) -> None:
    """Disturb (702.146a, 712.8c): from my graveyard, as its back face, for the disturb cost, in my
    main phase; from my hand, no."""
    cards = cards_with(pool_kb, "disturb")
    assert len(cards) > 20, len(cards)
    problems = []
    for name, cost in cards:
        game = with_targets(_game("precombat-main", "graveyard", name))
        verdict = can_cast(pool_kb, game, name, "disturb", "me")
        if (verdict.answer, verdict.cost) != (True, cost) or verdict.face in (None, name):
            problems.append(
                f"{name} ({cost}) from the graveyard: {verdict.answer} {verdict.cost} {verdict.face}"
            )
        if (
            can_cast(pool_kb, _game("precombat-main", "hand", name), name, "disturb", "me").answer
            is not False
        ):
            problems.append(f"{name} disturbed from the hand: not a no")
    report("disturb", len(cards), 2 * len(cards), problems)


def test_every_bestow_card_needs_a_creature_to_enchant(pool_kb) -> None:
    """Bestow (702.103a, 303.4a): from my hand for the bestow cost, as an Aura spell that must
    target a creature: yes with the opponent's Grizzly Bears on the battlefield, no with none."""
    cards = cards_with(pool_kb, "bestow")
    assert len(cards) > 30, len(cards)
    problems = []
    for name, cost in cards:
        for creatures, expected in ((["Grizzly Bears"], True), ([], False)):
            players = {"me": {"hand": [name]}, "opp": {"battlefield": creatures}}
            game = {"turn": "me", "step": "precombat-main", "players": players}
            verdict = can_cast(pool_kb, game, name, "bestow", "me")
            if verdict.answer is not expected or (expected and verdict.cost != cost):
                problems.append(f"{name} ({cost}) with {creatures}: {verdict.answer} {verdict.cost}")
    report("bestow", len(cards), 2 * len(cards), problems)


def test_every_mutate_card_needs_a_non_human_creature_its_owner_owns(pool_kb) -> None:
    """Mutate (702.140a): from my hand for the mutate cost, targeting a non-Human creature with the
    same owner: yes onto my Grizzly Bears; no onto my Elite Vanguard (a Human), nor onto the
    opponent's Grizzly Bears."""
    cards = cards_with(pool_kb, "mutate")
    assert len(cards) > 30, len(cards)
    problems = []
    boards = (
        ({"battlefield": ["Grizzly Bears"]}, {}, True),
        ({"battlefield": ["Elite Vanguard"]}, {}, False),
        ({}, {"battlefield": ["Grizzly Bears"]}, False),
    )
    for name, cost in cards:
        for mine, theirs, expected in boards:
            players = {"me": {"hand": [name], **mine}, "opp": theirs}
            game = {"turn": "me", "step": "precombat-main", "players": players}
            verdict = can_cast(pool_kb, game, name, "mutate", "me")
            if verdict.answer is not expected or (expected and verdict.cost != cost):
                problems.append(f"{name} ({cost}) with {mine or theirs}: {verdict.answer} {verdict.cost}")
    report("mutate", len(cards), 3 * len(cards), problems)


def test_every_alternative_cost_in_words_is_read_and_paid_from_the_hand(pool_kb) -> None:
    """A cost the card's text offers "rather than pay this spell's mana cost" (118.9): from my hand
    or "without paying its mana cost" in my main phase with nothing else in the game, paying life can
    be done and returning, discarding, tapping, sacrificing or exiling objects cannot, nor can a
    condition read ("If you control a Swamp") be met; a part no phrase reads cannot tell. From my
    graveyard, no."""
    cards, unread = cards_with(pool_kb, "alternative-cost"), unread_parts(pool_kb, "alternative-cost")
    assert len(cards) > 80, len(cards)
    # A condition read ("If an opponent controls a Forest") asks for permanents the game has none of.
    conditions = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card mtgkb:hasAbility ?a ; mtgkb:name ?name . "
        "?a mtgkb:instantiates mechanic:alternative-cost ; mtgkb:hasRequirement ?r . ?r rdfs:label ?l "
        'FILTER(STRSTARTS(?l, "If ")) }'
    )
    conditional = {row["name"] for row in conditions}
    assert len(conditional) > 10, conditional
    problems, untold = [], unread_targets(pool_kb)
    for name, cost in cards:
        parts = [p.strip().lower() for p in cost.replace(" and ", ", ").split(", ")]
        read = [p for p in parts if p not in unread.get(name, set())]
        fails = (
            name in conditional
            or name in TARGETS_NOTHING_HERE
            or any(not (p.startswith("{") or (p.startswith("pay ") and p.endswith(" life"))) for p in read)
        )
        expected = False if fails else None if name in unread or name in untold else True
        # Targets on the opponent's side only: nothing of mine pays a cost in objects.
        game = with_targets(_game("precombat-main", "hand", name), is_instant(pool_kb, name), mine=False)
        verdict = can_cast(pool_kb, game, name, "alternative", "me")
        if verdict.answer is not expected:
            failing = [c.because for c in verdict.checks if c.holds is not True][:1]
            problems.append(f"{name} ({cost}): {verdict.answer}, expected {expected} {failing}")
        late = can_cast(pool_kb, _game("precombat-main", "graveyard", name), name, "alternative", "me")
        if late.answer is not False:
            problems.append(f"{name} from the graveyard: {late.answer}")
    report("alternative costs in words", len(cards), 2 * len(cards), problems)


def test_every_madness_card_is_cast_from_exile_as_its_trigger_resolves(pool_kb) -> None:
    """Madness (702.35a, 608.2g): discarded into exile, cast for the madness cost while its trigger
    resolves, whatever the turn and step and whoever holds priority; exiled some other way, no."""
    cards, unread = cards_with(pool_kb, "madness"), unread_parts(pool_kb, "madness")
    assert len(cards) > 50, len(cards)
    problems, untold = [], unread_targets(pool_kb)
    for name, cost in cards:
        castable = None if name in unread or name in untold else True
        for discarded, expected in ((True, castable), (False, False)):
            exiled = {"card": name, "madness": discarded}
            game = {
                "turn": "opp",
                "step": "declare-blockers",
                "players": {"me": {"exile": [exiled]}, "opp": {}},
            }
            verdict = can_cast(pool_kb, with_targets(game, spell=True), name, "madness", "me")
            if verdict.answer is not expected or (expected and verdict.cost != cost):
                problems.append(f"{name} ({cost}) madness {discarded}: {verdict.answer} {verdict.cost}")
    report("madness", len(cards), 2 * len(cards), problems)


def test_every_suspend_card_is_cast_free_when_its_last_time_counter_goes(pool_kb) -> None:
    """Suspend's last trigger (702.62a, 608.2g): a suspended card in exile with no time counter left
    is cast without paying its mana cost as the trigger resolves, in my upkeep, with no priority; with
    two counters left, not yet."""
    cards = cards_with(pool_kb, "suspend")
    assert len(cards) > 50, len(cards)
    problems, untold = [], unread_targets(pool_kb)
    for name, _ in cards:
        for time, expected in ((0, None if name in untold else True), (2, False)):
            exiled = {"card": name, "suspended": True, "counters": {"time": time}}
            game = {"turn": "me", "step": "upkeep", "players": {"me": {"exile": [exiled]}, "opp": {}}}
            verdict = can_cast(pool_kb, with_targets(game), name, "suspend", "me")
            if verdict.answer is not expected or (expected and verdict.cost != "{0}"):
                problems.append(f"{name} with {time} time counters: {verdict.answer} {verdict.cost}")
    report("suspend, cast", len(cards), 2 * len(cards), problems)
