"""Our Oracle-text reader against the 274 hand-categorised cards of the subset snapshot, and against
the wordings that trip up keyword arrays and naive parsers."""

from __future__ import annotations

from pathlib import Path

import pytest
from card_pool import UNCATEGORISED, expected_slugs, load_subset

from mtgkb.core.type_line import parse_type_line
from mtgkb.importers.oracle_abilities import recognise_abilities, split_reminder
from mtgkb.importers.oracle_activated import read_activated_abilities, read_condition
from mtgkb.kb.vocab import V


def _found(record: dict, text_field: str) -> tuple[set[str], set[str]]:
    abilities = recognise_abilities(record[text_field], record["name"])
    # An ability that changes a mechanic's abilities is no category of the subset: the card does not
    # have the mechanic through it. Those are checked on their own below. The partner roles a type line
    # gives (a Background, a Time Lord Doctor) are the partner rules' data, checked in test_commanders.
    kept = [a for a in abilities if not a.changes and a.mechanic not in UNCATEGORISED]
    own = {a.mechanic for a in kept if a.granted_to is None}
    granted = {a.mechanic for a in kept if a.granted_to is not None}
    return own, granted


def _mismatches(records: list[dict], text_field: str, categories_field: str) -> list[str]:
    problems = []
    for record in records:
        if text_field not in record:
            continue
        own, granted, _roles = expected_slugs(record, categories_field)
        expected = (own, granted)
        found = _found(record, text_field)
        if found != expected:
            problems.append(f"{record['name']}: expected {expected}, found {found}")
    return problems


def test_every_subset_card_has_exactly_the_abilities_its_categories_name(shared_data: Path) -> None:
    records = load_subset(shared_data)
    assert len(records) == 274
    assert _mismatches(records, "oracle_text", "categories") == []


def test_the_2026_oracle_wording_reads_the_same_way(shared_data: Path) -> None:
    records = [r for r in load_subset(shared_data) if "oracle_text_scryfall_2026_04" in r]
    assert records, "the subset carries no 2026 wording"
    assert _mismatches(records, "oracle_text_scryfall_2026_04", "categories_scryfall_2026_04") == []


def test_silver_fur_master_is_the_one_subset_card_that_changes_a_mechanic(shared_data: Path) -> None:
    changing = {}
    for record in load_subset(shared_data):
        for field in ("oracle_text", "oracle_text_scryfall_2026_04"):
            for ability in recognise_abilities(record.get(field), record["name"]):
                if ability.changes:
                    changing.setdefault(record["name"], set()).add((ability.mechanic, ability.cost))
    assert changing == {"Silver-Fur Master": {("ninjutsu", None)}}


def test_silver_fur_master_has_ninjutsu_and_changes_ninjutsu(shared_data: Path) -> None:
    record = next(r for r in load_subset(shared_data) if r["name"] == "Silver-Fur Master")
    abilities = recognise_abilities(record["oracle_text"], record["name"])
    assert [(a.mechanic, a.cost, a.changes) for a in abilities] == [
        ("ninjutsu", "{U}{B}", False),
        ("ninjutsu", None, True),
    ]
    own, changing = abilities
    assert own.key != changing.key
    assert changing.label == "Changes the cost of Ninjutsu abilities"
    assert changing.text in record["oracle_text"].splitlines()


@pytest.mark.parametrize(
    ("text", "mechanic"),
    [
        ("Ninjutsu abilities you activate cost {1} less to activate.", "ninjutsu"),
        ("Commander ninjutsu abilities you activate cost {2} more to activate.", "commander-ninjutsu"),
    ],
)
def test_a_line_that_changes_ninjutsu_is_not_a_ninjutsu_ability(text: str, mechanic: str) -> None:
    (ability,) = recognise_abilities(text)
    assert (ability.mechanic, ability.cost, ability.changes, ability.granted_to) == (
        mechanic,
        None,
        True,
        None,
    )
    assert ability.text == text


def test_keyword_arrays_would_have_been_wrong(shared_data: Path) -> None:
    """The point of reading the text: "partner with" cards list "Partner", friends-forever cards list
    nothing, and the ninjutsu grant is listed as the card's own ninjutsu."""
    records = {r["name"]: r for r in load_subset(shared_data)}
    partner_with = [
        r
        for r in records.values()
        if "partner_with" in r["categories"] and "Partner" in (r["keywords"] or ())
    ]
    assert partner_with
    for record in partner_with:
        mechanics = {a.mechanic for a in recognise_abilities(record["oracle_text"], record["name"])}
        assert "partner" not in mechanics, record["name"]
    satoru = recognise_abilities(records["Satoru Umezawa"]["oracle_text"], "Satoru Umezawa")
    assert [(a.mechanic, a.cost, a.granted_to) for a in satoru] == [
        ("ninjutsu", "{2}{U}{B}", "each creature card in your hand")
    ]


def test_costs_are_read_from_the_text_of_each_card(shared_data: Path) -> None:
    checked = 0
    for record in load_subset(shared_data):
        for ability in recognise_abilities(record["oracle_text"], record["name"]):
            if (
                ability.mechanic in {"ninjutsu", "commander-ninjutsu"}
                and ability.granted_to is None
                and not ability.changes
            ):
                assert ability.text.startswith(ability.label), record["name"]
                # The reminder text repeats the cost: "Ninjutsu {1}{U} ({1}{U}, Return ...".
                if "(" in ability.text:
                    assert f"({ability.cost}, Return" in ability.text, record["name"]
                checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Ninjutsu {1}{U} ({1}{U}, Return an unblocked attacker you control to hand: ...)",
            ("ninjutsu", "{1}{U}"),
        ),
        ("Commander ninjutsu {U}{B}", ("commander-ninjutsu", "{U}{B}")),
        ("Ninjutsu—{B}, Pay 2 life.", ("ninjutsu", "{B}, Pay 2 life")),
        ("Sneak {2}{B}{B} (You may cast this spell for {2}{B}{B} if ...)", ("sneak", "{2}{B}{B}")),
        ("Web-slinging {W}", ("web-slinging", "{W}")),
        ("Flying, split second", ("split-second", None)),
        ("Split second (As long as this spell is on the stack, ...)", ("split-second", None)),
    ],
)
def test_keywords_with_costs(text: str, expected: tuple[str, str | None]) -> None:
    assert [(a.mechanic, a.cost) for a in recognise_abilities(text)] == [expected]


@pytest.mark.parametrize(
    ("text", "count", "cost", "label"),
    [
        ("Suspend 4\u2014{1}{U} (Rather than cast this card ...)", "4", "{1}{U}", "Suspend 4\u2014{1}{U}"),
        # The sentence limiting X is part of what is paid (Detritivore).
        ("Suspend X\u2014{X}{3}{R}. X can't be 0.", "X", "{X}{3}{R}. X can't be 0", None),
        ("Suspend x\u2014{X}{G}", "X", "{X}{G}", "Suspend X\u2014{X}{G}"),
        ("Ninjutsu {1}{U}", None, "{1}{U}", "Ninjutsu {1}{U}"),
    ],
)
def test_a_keyword_keeps_the_number_printed_before_its_cost(
    text: str, count: str | None, cost: str | None, label: str | None
) -> None:
    """Suspend N\u2014[cost] (702.62a): N is no part of the cost, and the label reads as printed."""
    found = recognise_abilities(text)
    assert [(a.count, a.cost) for a in found] == [(count, cost)]
    assert found[0].label == (label or f"Suspend {count}\u2014{cost}")


def test_a_keyword_line_gives_every_keyword_modelled() -> None:
    """Flash is modelled (it changes when a card can be cast), so a keyword line yields both."""
    assert [a.mechanic for a in recognise_abilities("Flash, split second")] == ["flash", "split-second"]
    flashback = recognise_abilities("Flashback {2}{R}")
    assert [(a.mechanic, a.cost) for a in flashback] == [("flashback", "{2}{R}")]
    assert recognise_abilities("Echo {1}{R}") == []  # not modelled yet: no mechanic node reads it


def test_a_cost_in_words_is_read_with_its_condition_and_its_mana_first() -> None:
    """ "rather than pay this spell's mana cost" (118.9) is a phrase of the data: the cost before it is
    read, "pay {1}" as mana, and a condition is kept to say the verdict cannot tell."""
    (snuff,) = recognise_abilities(
        "If you control a Swamp, you may pay 4 life rather than pay this spell's mana cost."
    )
    assert (snuff.mechanic, snuff.cost, snuff.offered_if) == (
        "alternative-cost",
        "pay 4 life",
        "you control a Swamp",
    )
    (post,) = recognise_abilities(
        "You may pay {1} and return a basic land you control to its owner's hand"
        " rather than pay this spell's mana cost."
    )
    assert (post.cost, post.offered_if) == ("{1}, return a basic land you control to its owner's hand", None)
    assert post.label.startswith("{1}, return a basic land")
    assert recognise_abilities("You may sacrifice a creature rather than draw a card.") == []


def test_a_free_cast_in_words_costs_nothing_and_its_condition_is_read_clause_by_clause() -> None:
    """ "you may cast this spell without paying its mana cost" is the same alternative cost with no
    mana (118.9); its condition is read by the restriction phrases, one clause each, and a clause
    they do not read leaves the whole condition unread (the verdict cannot tell)."""
    (legate,) = recognise_abilities(
        "If an opponent controls a Forest and you control an Island, you may cast this spell without"
        " paying its mana cost."
    )
    assert (legate.mechanic, legate.cost) == ("alternative-cost", "{0}")
    reading = read_condition(legate.offered_if)
    texts = [m.text for m in reading.numbered]
    assert texts == ["if an opponent controls a Forest", "if you control an Island"]
    assert reading.unmodelled == ()
    (commander,) = read_condition("you control a commander").numbered
    assert commander.facts == ((V.requiresCommander, "true", False),)
    unread = read_condition("you control a Swamp and you've cast another white spell this turn")
    assert unread.unmodelled == ("If you control a Swamp and you've cast another white spell this turn",)
    assert recognise_abilities("You may cast it without paying its mana cost.") == []  # another card


def test_a_sentence_after_a_cost_keyword_is_kept_unread_not_dropped_with_the_keyword() -> None:
    """ "Flashback {8}{G}{G}. This spell costs {X} less ..." has flashback, changed by a sentence no
    phrase reads: the ability is found, and the sentence kept so that its verdicts cannot tell."""
    line = (
        "Flashback {8}{G}{G}. This spell costs {X} less to cast this way, where X is the greatest mana"
        " value among commanders you control."
    )
    (visions,) = recognise_abilities(line)
    assert (visions.mechanic, visions.cost) == ("flashback", "{8}{G}{G}")
    assert visions.trailing is not None and visions.trailing.startswith("This spell costs {X} less")
    assert recognise_abilities("Flying. This spell can't be countered.") == []


def test_permissions_to_cast_are_read_from_sentences_with_what_changes_them_kept_unread() -> None:
    """ "You may cast ... spells as though they had flash / from the top of your library / from your
    graveyard" (mtgkb:PermissionKeyword phrases): the card's own, or given to its controller's spells
    of one card type. A sentence beside it, or a "can't cast" anywhere on the card, is kept unread."""
    (own,) = recognise_abilities("You may cast this spell as though it had flash.")
    assert (own.mechanic, own.granted_to) == ("as-though-it-had-flash", None)
    (orrery,) = recognise_abilities("You may cast creature spells as though they had flash.")
    assert (orrery.granted_to, orrery.grant_type, orrery.grant_zone) == (
        "your creature spells",
        "Creature",
        None,
    )
    (citadel,) = recognise_abilities(
        "You may look at the top card of your library any time.\nYou may play lands and cast spells from"
        " the top of your library. If you cast a spell this way, pay life equal to its mana value rather"
        " than pay its mana cost."
    )
    assert (citadel.mechanic, citadel.grant_zone) == ("cast-from-the-top-of-your-library", "library")
    assert citadel.trailing is not None and citadel.trailing.startswith("If you cast a spell this way")
    (agenda,) = recognise_abilities(
        "You can't cast more than one spell each turn.\n"
        "You may play lands and cast spells from your graveyard."
    )
    assert (agenda.grant_zone, agenda.trailing) == (
        "graveyard",
        "You can't cast more than one spell each turn",
    )
    # The forbidding sentence is cut out of its line, whatever stands before it and however it ends.
    (frenzy,) = recognise_abilities(
        "You may play lands and cast spells from the top of your library.\n"
        "Flying. Players CAN'T CAST spells from their hands"
    )
    assert frenzy.trailing == " Players CAN'T CAST spells from their hands"
    assert (
        recognise_abilities("You may cast Goblin spells from the top of your library.") == []
    )  # no card type
    # The card's own permission to be cast from its graveyard (601.3): what the sentence says
    # beyond it ("using its blitz ability") or a sentence beside it is kept unread; another line
    # that forbids paying ("You can't spend mana to cast this spell") too.
    (ruinator,) = recognise_abilities("You may cast this card from your graveyard.", "Skaab Ruinator")
    assert (ruinator.mechanic, ruinator.granted_to, ruinator.trailing) == (
        "cast-from-your-graveyard-by-permission",
        None,
        None,
    )
    (underdog,) = recognise_abilities(
        "You may cast this card from your graveyard using its blitz ability.", "Tenacious Underdog"
    )
    assert underdog.mechanic == "cast-from-your-graveyard-by-permission"
    assert underdog.trailing is not None and underdog.trailing.endswith("using its blitz ability")
    (hogaak,) = recognise_abilities(
        "You can't spend mana to cast this spell.\n"
        "You may cast Hogaak, Arisen Necropolis from your graveyard.",
        "Hogaak, Arisen Necropolis",
    )
    assert hogaak.trailing == "You can't spend mana to cast this spell"


def test_grants_and_cost_changes_are_read_as_structure() -> None:
    (grant,) = recognise_abilities("Each creature card in your hand has ninjutsu {2}{U}{B}.")
    assert (grant.grant_zone, grant.grant_type, grant.grant_yours) == ("hand", "Creature", True)
    (change,) = recognise_abilities("Ninjutsu abilities you activate cost {1} less to activate.")
    assert (change.change_amount, change.change_less) == ("{1}", True)
    (dearer,) = recognise_abilities("Commander ninjutsu abilities you activate cost {2} more to activate.")
    assert (dearer.mechanic, dearer.change_amount, dearer.change_less) == ("commander-ninjutsu", "{2}", False)


@pytest.mark.parametrize(
    "text",
    [
        "Fixed commander ninjutsu {3}{B}{G} (It's commander ninjutsu, except ...)",
        "Fixed commander ninjutsu — {B}{B}, Discard a card (It's like commander ninjutsu ...)",
        "Whenever you activate a ninjutsu ability, look at the top three cards of your library.",
        "Ninjutsu spells you cast cost {1} less to cast.",
        "Spells you cast with sneak cost {1} less to cast.",
        "Web-slinging abilities you activate cost {1} less to activate.",
        "If this spell was kicked, it has split second.",
        "Sneak Attack — Whenever this creature attacks, roll a d20.",
        "Flying, split second level up {1}{W}",
        "Legendary partner (You can have two commanders if this is one of them.)",
        "If Enolc is one of two partner commanders, it's a copy of your other commander.",
        "Whenever you cast a Doctor spell or creature spell with doctor's companion, draw a card.",
    ],
)
def test_mentions_are_not_abilities(text: str) -> None:
    assert recognise_abilities(text) == []


def test_partner_family_wordings() -> None:
    def read(text: str, name: str | None = None) -> list[tuple]:
        return [(a.mechanic, a.partner_text, a.partner_with_name) for a in recognise_abilities(text, name)]

    assert read("Partner") == [("partner", None, None)]
    assert read("Partner (You can have two commanders if they both have partner.)") == [
        ("partner", None, None)
    ]
    assert read("Friends forever (You can have two commanders if both have friends forever.)") == [
        ("partner-friends-forever", "Friends forever", None)
    ]
    assert read("Partner—Friends forever (You can have two commanders if both have this ability.)") == [
        ("partner-friends-forever", "Friends forever", None)
    ]
    assert read("Partner—Father & son") == [("partner-father-and-son", "Father & son", None)]
    # A partner—[text] the rules do not list yet still pairs by its text.
    assert read("Partner—Some new team (reminder)") == [("partner-text", "Some new team", None)]
    assert read(
        "Partner with Shabraz, the Skyshark (When this creature enters, target player may put ...)"
    ) == [("partner-with", None, "Shabraz, the Skyshark")]
    assert read("Partner with itself (When this enters, ...)", "Mothers Yamazaki") == [
        ("partner-with", None, "Mothers Yamazaki")
    ]
    assert read("Choose a Background (You can have a Background as a second commander.)") == [
        ("choose-a-background", None, None)
    ]
    assert read("Doctor\u2019s companion (You can have two commanders if the other is the Doctor.)") == [
        ("doctors-companion", None, None)
    ]


def test_a_card_with_two_partner_abilities_keeps_both(shared_data: Path) -> None:
    amy = next(r for r in load_subset(shared_data) if r["name"] == "Amy Pond")
    labels = [a.label for a in recognise_abilities(amy["oracle_text"], amy["name"])]
    assert labels == ["Partner with Rory Williams", "Doctor's companion"]


def test_reminder_text_is_split_off_including_nested_parentheses() -> None:
    assert split_reminder("Partner with Knight (You may select (any) Knight.)") == (
        "Partner with Knight",
        "You may select (any) Knight.",
    )
    assert split_reminder("Flying") == ("Flying", None)


def test_type_lines() -> None:
    assert parse_type_line("Legendary Enchantment Creature — Background").subtypes == ("Background",)
    assert parse_type_line("Legendary Creature — Human Time Lord Rogue").subtypes == (
        "Human",
        "Time Lord",
        "Rogue",
    )
    assert parse_type_line("Plane — New Phyrexia").subtypes == ("New Phyrexia",)
    assert parse_type_line("Basic Snow Land — Island").supertypes == ("Basic", "Snow")


def test_jeska_can_be_your_commander_and_has_partner(shared_data: Path) -> None:
    record = next(r for r in load_subset(shared_data) if r["name"] == "Jeska, Thrice Reborn")
    mechanics = {a.mechanic for a in recognise_abilities(record["oracle_text"], record["name"])}
    assert mechanics == {"partner", "can-be-your-commander"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Changeling (This card is every creature type.)", ["changeling"]),
        ("Flying, changeling", ["changeling"]),
        ("Whenever a changeling you control attacks, draw a card.", []),
        ("Someone, the Planeswalker can be your commander.", ["can-be-your-commander"]),
        ("Your commander can't be countered.", []),
    ],
)
def test_changeling_and_can_be_your_commander_lines(text: str, expected: list[str]) -> None:
    assert [a.mechanic for a in recognise_abilities(text)] == expected


def test_an_effect_that_moves_its_own_card_says_where_its_ability_works() -> None:
    """113.6m: "Return this card from your graveyard ..." works from the graveyard, "Put this card from
    your hand ..." from the hand, whatever the card is called; a cost that sacrifices the permanent
    puts the card into the graveyard first, so that ability works on the battlefield."""
    requirement = "https://w3id.org/mtgkb/requirement/"

    def zone_requirement(text: str, name: str) -> str:
        (ability,) = read_activated_abilities(text, name)
        return ability.requirements[0].removeprefix(requirement)

    skeleton = "{1}{B}: Return this card from your graveyard to the battlefield tapped."
    assert zone_requirement(skeleton, "Reassembling Skeleton") == "card-leaves-your-graveyard"
    hammer = (
        "{2}{R}{R}{R}: Return Hammer of Bogardan from your graveyard to your hand. "
        "Activate only during your upkeep."
    )
    (read,) = read_activated_abilities(hammer, "Hammer of Bogardan")
    assert read.requirements == (
        f"{requirement}card-leaves-your-graveyard",
        f"{requirement}during-your-upkeep",
    )
    gates = "{4}: Put this card from your hand onto the battlefield."
    assert zone_requirement(gates, "Talon Gates of Madara") == "card-leaves-your-hand"
    serpent = (
        "{U}{B}: Exile five target cards from an opponent's graveyard. "
        "Return this card from your graveyard to your hand."
    )
    assert zone_requirement(serpent, "Lochmere Serpent") == "card-leaves-your-graveyard"
    sacrificed = "Sacrifice Phoenix: Return Phoenix from your graveyard to your hand at the next end step."
    assert zone_requirement(sacrificed, "Phoenix") == "source-on-the-battlefield"
    granted = '{T}: Target creature gains "{1}: Return this card from your graveyard to your hand."'
    assert zone_requirement(granted, "X") == "source-on-the-battlefield"  # the creature's own ability
    assert zone_requirement("{2}: Return target creature card from your graveyard to your hand.", "X") == (
        "source-on-the-battlefield"
    )
