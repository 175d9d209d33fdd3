"""Cards from the imported pool get the same verdicts as the starter cards: every imported ninjutsu,
sneak, web-slinging, flashback, jump-start and retrace card, and samples of flash and split second
cards, run through the same situations, with the cost each card's own Oracle text gives."""

from __future__ import annotations

from pool_cards import (
    TARGETS_NOTHING_HERE,
    cards_with,
    report,
    unread_cast_sentences,
    unread_parts,
    unread_targets,
    with_targets,
)

from mtgkb.reasoning.actions.questions import can_activate, can_cast, options


def _combat(step: str, card: str, zone: str = "hand", blocked: bool | None = False, turn: str = "me") -> dict:
    attacker = {"card": "Grizzly Bears", "attacking": "opp" if turn == "me" else "me", "tapped": True}
    if blocked is not None:
        attacker["blocked"] = blocked
    attackers = {"battlefield": [attacker]}
    me = {zone: [card]} | (attackers if turn == "me" else {})
    opp = attackers if turn == "opp" else {}
    return {"turn": turn, "step": step, "players": {"me": me, "opp": opp}}


def test_the_pool_has_the_cards_the_samples_need(pool_kb) -> None:
    assert len(cards_with(pool_kb, "ninjutsu")) >= 30
    assert len(cards_with(pool_kb, "sneak")) >= 10
    assert len(cards_with(pool_kb, "web-slinging")) >= 5


def test_every_imported_ninjutsu_card_works_like_the_starter_ninja(pool_kb) -> None:
    for name, cost in cards_with(pool_kb, "ninjutsu"):
        if "{" not in cost or "," in cost:
            continue  # a cost with more than mana, e.g. "{B}, Discard a card"
        yes = can_activate(pool_kb, _combat("declare-blockers", name), name, "ninjutsu")
        assert (yes.answer, yes.cost) == (True, cost), name
        assert [c.name for c in yes.candidates] == ["Grizzly Bears"], name
        early = can_activate(pool_kb, _combat("declare-attackers", name, blocked=None), name, "ninjutsu")
        assert not early.answer, name
        assert "509.1h" in early.cites, name
        buried = can_activate(pool_kb, _combat("end-of-combat", name, zone="graveyard"), name, "ninjutsu")
        assert [c.check for c in buried.checks if not c.holds] == ["The card is in your hand"], name


def test_every_imported_sneak_card_works_only_in_your_declare_blockers_step(pool_kb) -> None:
    for name, cost in cards_with(pool_kb, "sneak"):
        yes = can_cast(pool_kb, _combat("declare-blockers", name), name, "sneak")
        assert (yes.answer, yes.via, yes.cost) == (True, "sneak", cost), name
        later = can_cast(pool_kb, _combat("combat-damage", name), name, "sneak")
        assert not later.answer, name
        theirs = can_cast(pool_kb, _combat("declare-blockers", name, turn="opp"), name, "sneak")
        assert not theirs.answer and "702.190a" in theirs.cites, name


def test_every_imported_web_slinging_card_keeps_its_normal_timing(pool_kb) -> None:
    for name, cost in cards_with(pool_kb, "web-slinging"):
        main = {
            "turn": "me",
            "step": "precombat-main",
            "players": {
                "me": {"hand": [name], "battlefield": [{"card": "Grizzly Bears", "tapped": True}]},
                "opp": {},
            },
        }
        yes = can_cast(pool_kb, main, name, "web-slinging")
        assert (yes.answer, yes.cost) == (True, cost), name
        combat = can_cast(pool_kb, _combat("declare-blockers", name), name, "web-slinging")
        assert not combat.answer and "117.1a" in combat.cites, name


def test_imported_flash_creatures_are_cast_at_instant_speed(pool_kb) -> None:
    rows = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card mtgkb:hasAbility/mtgkb:instantiates mechanic:flash ; "
        'mtgkb:cardType "Creature" ; mtgkb:name ?name } ORDER BY ?name LIMIT 25'
    )
    assert len(rows) == 25
    for row in rows:
        situation = {
            "turn": "opp",
            "step": "end",
            "priority": "me",
            "players": {"me": {"hand": [row["name"]]}, "opp": {}},
        }
        verdict = can_cast(pool_kb, situation, row["name"], "normal")
        assert verdict.answer, row["name"]


def test_an_imported_split_second_spell_stops_ninjutsu(pool_kb) -> None:
    rows = pool_kb.select(
        "SELECT DISTINCT ?name WHERE { ?card mtgkb:hasAbility/mtgkb:instantiates mechanic:split-second ; "
        "mtgkb:name ?name } ORDER BY ?name LIMIT 5"
    )
    assert rows
    for row in rows:
        situation = _combat("declare-blockers", "Ninja of the Deep Hours")
        situation["stack"] = [{"card": row["name"], "controller": "opp"}]
        verdict = can_activate(pool_kb, situation, "Ninja of the Deep Hours")
        assert not verdict.answer, row["name"]
        assert "702.61a" in verdict.cites, row["name"]


def test_options_on_the_pool_lists_each_ninja_in_hand(pool_kb) -> None:
    ninjas = [name for name, cost in cards_with(pool_kb, "ninjutsu") if "," not in cost][:6]
    situation = _combat("declare-blockers", ninjas[0])
    situation["players"]["me"]["hand"] = ninjas
    verdict = options(pool_kb, situation)
    assert verdict.answer
    assert {o.card for o in verdict.options} == set(ninjas)


def test_every_imported_flashback_card_is_cast_from_its_owners_graveyard_in_its_time(pool_kb) -> None:
    """Flashback (702.34a): from my graveyard, for the flashback cost, at its card type's timing; a
    sorcery waits for my main phase, an instant does not; never from the opponent's graveyard. The
    parts of a cost beyond mana are read from the card's text: with nothing else in the game, paying
    life or X objects can be done, sacrificing, tapping, discarding or exiling one or more cannot,
    and a part no phrase reads cannot be told. The normal cast from the graveyard is no, and the
    verdict without --via is flashback's."""
    cards = cards_with(pool_kb, "flashback")
    unread = unread_parts(pool_kb, "flashback")
    # An unread target, or an unread sentence on casting it ("As an additional cost to cast this
    # spell, discard a card"): a cast that would be a yes cannot tell.
    untold = unread_targets(pool_kb) | unread_cast_sentences(pool_kb)
    assert len(cards) > 150, len(cards)
    problems = []
    for name, cost in cards:
        main = {"turn": "me", "step": "precombat-main", "players": {"me": {"graveyard": [name]}, "opp": {}}}
        end = {
            "turn": "opp",
            "step": "end",
            "priority": "me",
            "players": {"me": {"graveyard": [name]}, "opp": {}},
        }
        instant = "Instant" in {t for t in _types(pool_kb, name)}
        mana_only = "," not in cost and cost.startswith("{")
        # Targets for the spell; for a cost beyond mana on the opponent's side only, so that nothing
        # of mine pays it.
        main = with_targets(main, spell=instant, mine=mana_only)
        end = with_targets(end, spell=True, mine=mana_only)
        theirs = {"turn": "me", "step": "precombat-main", "players": {"me": {}, "opp": {"graveyard": [name]}}}
        verdict = can_cast(pool_kb, main, name, player="me")
        extra = [p for p in cost.split(", ") if not p.startswith("{")]
        payable = all(p.startswith("Pay ") or " X " in p for p in extra)
        expected = None if name in unread or (payable and name in untold) else payable
        expected = False if name in TARGETS_NOTHING_HERE else expected
        if verdict.answer is not expected or (
            expected and (verdict.via, verdict.cost) != ("flashback", cost)
        ):
            problems.append(f"{name} ({cost}) in my main phase: {verdict.answer} via {verdict.via}")
        later = can_cast(pool_kb, end, name, "flashback", "me")
        in_time = instant and name not in TARGETS_NOTHING_HERE
        if mana_only and name not in untold and later.answer is not in_time:
            problems.append(f"{name} ({cost}) on the opponent's end step: {later.answer}")
        if can_cast(pool_kb, theirs, name, "flashback", "me").answer is not False:
            problems.append(f"{name} in the opponent's graveyard: not a no")
    report("flashback", len(cards), 3 * len(cards), problems)


def _types(kb, name: str) -> list[str]:
    rows = kb.select("SELECT ?t WHERE { ?c mtgkb:name ?n ; mtgkb:cardType ?t } ", n=name)
    return [row["t"] for row in rows]


def test_every_jump_start_and_retrace_card_is_cast_from_the_graveyard_with_a_discard(pool_kb) -> None:
    """Jump-start (702.133a) discards any card, retrace (702.81a) a land card, on top of the mana cost:
    from my graveyard in my main phase, yes with a Mountain in my hand (the candidate named), no with
    an empty hand; retrace needs a land, so a Lightning Bolt in hand is enough only for jump-start."""
    problems, count = [], 0
    untold = unread_targets(pool_kb)
    for mechanic in ("jump-start", "retrace"):
        rows = pool_kb.select(
            "SELECT DISTINCT ?name ?cost WHERE { ?card mtgkb:name ?name ; mtgkb:manaCost ?cost ; "
            f"mtgkb:hasAbility/mtgkb:instantiates mechanic:{mechanic} }} ORDER BY ?name"
        )
        assert len(rows) >= 10, (mechanic, len(rows))
        for row in rows:
            name, count = row["name"], count + 1
            for hand, expected in (
                (["Mountain"], True),
                ([], False),
                (["Lightning Bolt"], mechanic == "jump-start"),
            ):
                game = {
                    "turn": "me",
                    "step": "precombat-main",
                    "players": {"me": {"graveyard": [name], "hand": hand}, "opp": {}},
                }
                verdict = can_cast(pool_kb, with_targets(game), name, mechanic, "me")
                expected = None if expected and name in untold else expected
                paid = [c.name for c in verdict.candidates]
                if verdict.answer is not expected or (
                    expected and (verdict.cost, paid) != (row["cost"], hand)
                ):
                    problems.append(f"{name} with {hand}: {verdict.answer} {verdict.cost} {paid}")
    report("jump-start and retrace", count, 3 * count, problems)
