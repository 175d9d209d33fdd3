"""Casts that depend on what happened earlier in the turn, or on an object chosen to pay for them,
over every such card of the imported pool: spectacle, surge, prowl and freerunning (a player's
``this_turn``), miracle and mayhem (how the card came to the hand or graveyard), emerge and harmonize
(the creature sacrificed or tapped lowers the cost). Each card gets a yes where its rule allows it
and a no where it does not, with the cost its own Oracle text gives."""

from __future__ import annotations

from pool_cards import cards_with, is_instant, report, unread_parts, unread_targets, with_targets

from mtgkb.reasoning import mana
from mtgkb.reasoning.actions.questions import can_cast

# An Assassin creature (Human Assassin 6/3) and a creature of mana value 6 and power 6.
_ASSASSIN, _WURM = "Brotherhood Ambushers", "Craw Wurm"
# Its spell targets creatures you control ("one or two target creatures you control"): with no
# creature of mine, it cannot be cast (601.2c).
_TARGETS_YOUR_CREATURES = {"Synchronized Charge"}


def _main(me: dict, opp: dict | None = None) -> dict:
    return {"turn": "me", "step": "precombat-main", "players": {"me": me, "opp": opp or {}}}


def _expect(kb, mechanic: str, cases: list[tuple[str, dict, bool | None]], problems: list[str]) -> None:
    for name, game, expected in cases:
        verdict = can_cast(kb, game, name, mechanic, "me")
        if verdict.answer is not expected:
            failing = [c.because for c in verdict.checks if c.holds is not True][:1]
            problems.append(f"{mechanic} {name}: {verdict.answer}, expected {expected} {failing}")


def test_spectacle_surge_prowl_and_freerunning_ask_what_happened_this_turn(pool_kb) -> None:
    """Spectacle (702.137a): an opponent lost life this turn; surge (702.117a): I cast another
    spell; prowl (702.76a): a source of mine with one of the card's creature types (the card itself
    is one) dealt combat damage to a player; freerunning (702.173a): an Assassin of mine did. Each
    is a yes when the situation says so and a no when it says nothing."""
    conditions = {
        "spectacle": lambda name: ({}, {"this_turn": {"life_lost": 1}}),
        "surge": lambda name: ({"this_turn": {"spells_cast": 1}}, {}),
        "prowl": lambda name: ({"this_turn": {"combat_damage_by": [name]}}, {}),
        "freerunning": lambda name: ({"this_turn": {"combat_damage_by": [_ASSASSIN]}}, {}),
    }
    problems, count = [], 0
    untold = unread_targets(pool_kb)
    for mechanic, condition in conditions.items():
        cards, unread = cards_with(pool_kb, mechanic), unread_parts(pool_kb, mechanic)
        assert len(cards) >= 6, (mechanic, len(cards))
        for name, _ in cards:
            count += 1
            me, opp = condition(name)
            yes = with_targets(_main({"hand": [name], **me}, opp), is_instant(pool_kb, name))
            no = _main({"hand": [name]}, {"this_turn": {"life_lost": 0}})
            expected = None if name in unread or name in untold else True
            _expect(pool_kb, mechanic, [(name, yes, expected), (name, no, False)], problems)
    report("spectacle, surge, prowl, freerunning", count, 2 * count, problems)


def test_miracle_and_mayhem_ask_how_the_card_came_where_it_is(pool_kb) -> None:
    """Miracle (702.94a, 608.2g): revealed as the first card drawn this turn, cast as its trigger
    resolves, in the opponent's turn with no priority; not revealed, no. Mayhem (702.187b): in my
    graveyard, discarded this turn, at the time its type allows (an instant in the opponent's end
    step, anything in my main phase); put there otherwise, no."""
    problems, count = [], 0
    untold = unread_targets(pool_kb)
    for name, _ in cards_with(pool_kb, "miracle"):
        count += 1
        cases = [
            (
                name,
                with_targets(_blockers({"hand": [{"card": name, "miracle": revealed}]})),
                None if revealed and name in untold else revealed,
            )
            for revealed in (True, False)
        ]
        _expect(pool_kb, "miracle", cases, problems)
    unread = unread_parts(pool_kb, "mayhem")
    for name, _ in cards_with(pool_kb, "mayhem"):
        count += 1
        castable = None if name in unread or name in untold else True
        cases = [
            (
                name,
                with_targets(_main({"graveyard": [{"card": name, "discarded_this_turn": discarded}]})),
                expected,
            )
            for discarded, expected in ((True, castable), (False, False))
        ]
        _expect(pool_kb, "mayhem", cases, problems)
    assert count > 20, count
    report("miracle, mayhem", count, 2 * count, problems)


def _blockers(me: dict) -> dict:
    return {"turn": "opp", "step": "declare-blockers", "players": {"me": me, "opp": {}}}


def test_emerge_and_harmonize_take_the_chosen_creature_off_the_cost(pool_kb) -> None:
    """Emerge (702.119a): sacrificing a creature of mana value 6 takes {6} off the emerge cost; with
    no creature to sacrifice, no. Harmonize (702.180a): from my graveyard, tapping an untapped 6-power
    creature takes {6} off, and with none to tap it costs the printed harmonize cost; from my hand,
    no."""
    problems, count = [], 0
    untold = unread_targets(pool_kb)
    for mechanic, zone, to_hand_fails in (("emerge", "hand", False), ("harmonize", "graveyard", True)):
        cards = cards_with(pool_kb, mechanic)
        assert len(cards) >= 10, (mechanic, len(cards))
        for name, cost in cards:
            count += 1
            # Targets on the opponent's side only: the Wurm is the one creature of mine.
            board = with_targets(_main({zone: [name], "battlefield": [{"card": _WURM}]}), mine=False)
            verdict = can_cast(pool_kb, board, name, mechanic, "me")
            expected = mana.reduce(mana.parse_cost(cost), mana.Cost(6)).text()
            castable = None if name in untold else True
            if (verdict.answer, verdict.cost) != (castable, expected):
                problems.append(f"{mechanic} {name} ({cost}) with {_WURM}: {verdict.answer} {verdict.cost}")
            alone = can_cast(pool_kb, with_targets(_main({zone: [name]}), mine=False), name, mechanic, "me")
            lonely = False if name in _TARGETS_YOUR_CREATURES else castable
            wanted = (lonely, cost) if mechanic == "harmonize" else (False, alone.cost)
            if (alone.answer, alone.cost) != wanted:
                problems.append(f"{mechanic} {name} ({cost}) alone: {alone.answer} {alone.cost}")
            if to_hand_fails:
                in_hand = can_cast(pool_kb, _main({"hand": [name]}), name, mechanic, "me")
                if in_hand.answer is not False:
                    problems.append(f"{mechanic} {name} from the hand: {in_hand.answer}")
    report("emerge, harmonize", count, 2 * count, problems)
