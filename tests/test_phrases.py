"""The one phrase builder: every phrase a requirement pattern's header holds, rendered for every
point of view and value the data can give, reads as English (one point of view, articles right, no
blank, no word twice). The phrases are data (queries/requirements/*.rq); these tests render them."""

from __future__ import annotations

import json
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgkb.reasoning import phrases
from mtgkb.reasoning.requirements.registry import PLACEHOLDERS, patterns

ZONES = {
    "hand": "hand",
    "library": "library",
    "graveyard": "graveyard",
    "battlefield": "battlefield",
    "stack": "stack",
    "exile": "exile",
    "command": "command zone",
}
CARD_TYPES = ["Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Sorcery"]
CARD_TYPES += ["Planeswalker", "enchantment card", "artifact creature"]
PLAYERS = ["me", "opp", "Alice", "Bob", "Chris"]


def bad_english(text: str) -> list[str]:
    """What is wrong with a rendered phrase, as words a reader would object to."""
    problems = []
    if "  " in text or text != text.strip():
        problems.append("a blank where a value should be")
    if re.search(r"\{[a-z_]+\}", text):
        problems.append("a placeholder left as written")
    if re.search(r"\ba [aeiouAEIOU]", text) and not re.search(r"\ba (one|uni|use|eu)", text, re.I):
        problems.append("'a' before a vowel")
    consonant = re.search(r"\ban [b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]", text)
    if consonant and not re.search(r"\ban h(our|onest)", text):
        problems.append("'an' before a consonant")
    if re.search(r"\bthe exile\b", text):
        problems.append("'the exile'")
    if re.search(r"(?<![Pp]layer )\b(me|my|opp)\b", text, re.IGNORECASE):
        problems.append("a situation's player key for a person")
    if re.search(r"\b(\w+) \1\b", text, re.IGNORECASE) and not re.search(r"\bthat that\b", text):
        problems.append("a word twice")
    if re.search(r"\byou (holds|has|controls)\b|\b(Alice|Bob|opponent) (hold|have|control)\b", text):
        problems.append("a verb that does not agree")
    if re.search(r"\(([^()]*?)(\w+ \w+ \w+)\) \(([^()]*?)\2\)", text):
        problems.append("the same aside twice")
    if "holds holds" in text or re.search(r"priority holds\b", text):
        problems.append("'holds' after a clause")
    return problems


def render(template: str, asking: str, players: list[str], other: str, zone: str, value: str) -> str:
    """A header phrase filled as the evaluator fills it, through the phrase builder."""
    labels = {
        "player": phrases.person(asking, asking, players),
        "value": value,
        "a_value": phrases.article(value),
        "values": phrases.join_or([value, "Creature"]),
        "in_values": phrases.join_or(
            phrases.zone_place(z, ZONES[z], asking, asking, players) for z in ("hand", "command")
        ),
        "step": "declare blockers step",
        "active": phrases.person(other, asking, players),
        "holder": phrases.person(other, asking, players),
        "active_turn": phrases.turn(other, asking, players),
        "holder_turn": phrases.subject_verb(other, asking, players, "hold"),
        "wanted_turn": "your turn",
        "stack": phrases.join_and(["Sudden Shock", "Lightning Bolt"]),
        "subject": "Ninja of the Deep Hours",
        "zone": ZONES[zone],
        "in_zone": phrases.zone_place(zone, ZONES[zone], other, asking, players),
        "tapped": "tapped",
        "commander": "a commander",
        "token": "a token",
        "status": "unblocked",
        "value_colour": phrases.colour_word("B"),
        "owned_by": phrases.owned_by(other, asking, players),
        "face": "face down",
    }
    assert set(labels) == set(PLACEHOLDERS), "every placeholder has a value here"
    return phrases.sentence(template.format_map(labels))


def every_phrase() -> list[tuple[str, str]]:
    return [
        (f"{pattern.property.rsplit('#', 1)[-1]} {key}", text)
        for pattern in patterns().values()
        for key, text in (("holds", pattern.holds), ("fails", pattern.fails), ("unsure", pattern.unsure))
        if text is not None
    ]


@pytest.mark.parametrize(("name", "template"), every_phrase(), ids=[n for n, _ in every_phrase()])
@settings(max_examples=60, deadline=None)
@given(
    asking=st.sampled_from(PLAYERS),
    other=st.sampled_from(PLAYERS),
    table=st.integers(min_value=2, max_value=4),
    zone=st.sampled_from(sorted(ZONES)),
    value=st.sampled_from([*CARD_TYPES, "players receive priority", "unblocked", "Legendary", "haste"]),
)
def test_every_header_phrase_reads_as_english(
    name: str, template: str, asking: str, other: str, table: int, zone: str, value: str
) -> None:
    players = list(dict.fromkeys([asking, other, *PLAYERS]))[:table]
    if asking not in players or other not in players:
        return
    text = render(template, asking, players, other, zone, value)
    assert bad_english(text) == [], f"{name}: {text!r}"


def test_the_checker_finds_each_mistake_the_issue_names() -> None:
    """The objections above are real: each phrase judges reported is refused."""
    for wrong in (
        "In the declare blockers step, players receive priority holds",
        "Me holds priority, not you",
        "X is not a enchantment card",
        "X is in the exile",
        "you can produce  which pays it",
        "Copy effect (enters as a copy) (entering as a copy)",
        "it is my turn, and this needs your turn",
    ):
        assert bad_english(wrong), wrong


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Creature", "a Creature"),
        ("Instant", "an Instant"),
        ("enchantment card", "an enchantment card"),
        ("Artifact", "an Artifact"),
        ("one-shot", "a one-shot"),
        ("unicorn", "a unicorn"),
        ("Uncommon", "an Uncommon"),
        ("hour", "an hour"),
        ("Land", "a Land"),
    ],
)
def test_article(word: str, expected: str) -> None:
    assert phrases.article(word) == expected


def test_one_point_of_view() -> None:
    two = ["me", "opp"]
    assert phrases.person("me", "me", two) == "you"
    assert phrases.person("me", "opp", two) == "your opponent"
    assert phrases.person("opp", "opp", two) == "you"
    assert phrases.turn("me", "opp", two) == "your opponent's turn"
    assert phrases.subject_verb("me", "opp", two, "hold") == "your opponent holds"
    assert phrases.subject_verb("opp", "opp", two, "hold") == "you hold"
    assert phrases.person("Alice", "Bob", ["Alice", "Bob", "Chris"]) == "Alice"
    assert phrases.players_possessive("Chris", "Bob", ["Alice", "Bob", "Chris"]) == "Chris'"
    assert phrases.person("me", "Bob", ["me", "Bob", "Chris"]) == "player me"


@pytest.mark.parametrize(
    ("zone", "owner", "expected"),
    [
        ("hand", "me", "in your hand"),
        ("graveyard", "Alice", "in Alice's graveyard"),
        ("exile", "me", "in exile"),
        ("battlefield", "me", "on the battlefield"),
        ("stack", "Alice", "on the stack"),
        ("command", "me", "in the command zone"),
    ],
)
def test_zones_read_as_english(zone: str, owner: str, expected: str) -> None:
    assert phrases.zone_place(zone, ZONES[zone], owner, "me", ["me", "Alice"]) == expected


def test_counts_and_lists() -> None:
    assert [phrases.how_often(n) for n in (1, 2, 3)] == ["once", "twice", "3 times"]
    assert phrases.join_or(["a", "b", "c"]) == "a, b, or c"
    assert phrases.join_and(["Haste", "Haste"]) == "Haste"
    assert phrases.join_and([]) == ""


def test_every_placeholder_a_header_uses_is_one_the_builder_fills() -> None:
    used = {
        name
        for _, text in every_phrase()
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None
    }
    assert used <= set(PLACEHOLDERS)


def test_a_commander_check_puts_an_before_enchantment(run_cli) -> None:
    result = run_cli("commanders", "Karlach, Fury of Avernus", "Thrasios, Triton Hero")
    assert result.exit_code == 1
    assert "Thrasios, Triton Hero is not an enchantment card" in result.stdout
    assert "a enchantment" not in result.stdout


def test_verdict_text_speaks_to_the_player_asking(run_cli) -> None:
    """The options' verdict for the opponent calls the opponent "you" and me "your opponent"."""
    result = run_cli(
        "can-cast", "Grizzly Bears", "--step", "declare-blockers", "--zone", "hand", "--priority", "opp"
    )
    text = " ".join(result.stdout.split())
    assert "Your opponent holds priority, not you" in text
    assert not re.search(r"\b(Me|me|my)\b", text)


def test_an_options_line_is_said_by_the_builder() -> None:
    assert (
        phrases.option_line("Ninja of the Deep Hours", "Ninjutsu {1}{U}")
        == "Ninja of the Deep Hours: Ninjutsu {1}{U}"
    )
    assert phrases.option_reason(True, "{1}{U}", "") == "you can, for {1}{U}"
    assert phrases.option_reason(True, None, "") == "you can"
    assert phrases.option_reason(False, "{1}{U}", "You do not hold priority") == "You do not hold priority"
    assert bad_english(phrases.option_reason(True, "{1}{U}", "")) == []


def test_what_follows_comes_in_the_order_it_happens(run_cli) -> None:
    """Ninjutsu returning a token: the creature goes to hand as the cost is paid, the token ceases to
    exist right after (704.5d), the Ninja enters as the ability resolves (mtgkb:happensAt)."""
    result = run_cli(
        "can-activate",
        "Ninja of the Deep Hours",
        "--step",
        "declare-blockers",
        "--unblocked",
        "token:Goblin",
        "--json",
    )
    outcomes = [o["outcome"] for o in json.loads(result.stdout)["outcome"]]
    order = [
        "The returned creature goes to its owner's hand",
        "A returned token ceases to exist",
        "The card enters tapped and attacking what the returned creature attacked",
    ]
    assert [o for o in outcomes if o in order] == order, outcomes
