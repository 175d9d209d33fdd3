"""Name resolution: case, accents and punctuation do not matter; short forms, prefixes, ambiguity and
"did you mean" behave as a judge at a terminal expects."""

from __future__ import annotations

import pytest

from mtgkb.core.errors import AmbiguousNameError, NotFoundError
from mtgkb.kb.iris import mint
from mtgkb.kb.names import normalise, resolve, suggest


def _entry(name: str, kind: str = "card") -> list[str]:
    return [name, mint(kind, name.replace("//", " ")), kind]


NAMES = [
    _entry("Yuriko, the Tiger's Shadow"),
    _entry("Thrasios, Triton Hero"),
    _entry("Thrasios Fan Club"),  # invented: shares the start "thrasios"
    _entry("Brallin, Skyshark Rider"),
    _entry("Sakashima's Student"),
    _entry("Sakashima the Impostor"),
    _entry("Lórien Revealed"),
    _entry("Æther Vial"),
    _entry("Delver of Secrets // Insectile Aberration"),
    _entry("Exile"),
    _entry("exile", "zone"),
    _entry("command zone", "zone"),
    _entry("Commander ninjutsu", "mechanic"),
    _entry("Ninjutsu", "mechanic"),
    _entry("end step", "step"),
    _entry("end of combat step", "step"),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yuriko, the Tiger's Shadow", "yuriko the tigers shadow"),
        ("Yuriko, the Tiger\u2019s Shadow", "yuriko the tigers shadow"),
        ("  LÓRIEN   revealed ", "lorien revealed"),
        ("Æther Vial", "aether vial"),
        ("Delver of Secrets // Insectile Aberration", "delver of secrets insectile aberration"),
        ("Spider-Man, Web-Slinger", "spider man web slinger"),
    ],
)
def test_normalise_drops_case_accents_and_punctuation(text: str, expected: str) -> None:
    assert normalise(text) == expected


@pytest.mark.parametrize(
    "query",
    ["Yuriko, the Tiger's Shadow", "yuriko the tigers shadow", "YURIKO", "yuriko, the tiger\u2019s"],
)
def test_exact_and_prefix_forms_find_yuriko(query: str) -> None:
    assert resolve(NAMES, query).name == "Yuriko, the Tiger's Shadow"


def test_prefix_of_the_whole_name() -> None:
    assert resolve(NAMES, "Brallin Skyshark").name == "Brallin, Skyshark Rider"


def test_part_before_the_comma_is_a_prefix() -> None:
    without_fan_club = [entry for entry in NAMES if entry[0] != "Thrasios Fan Club"]
    assert resolve(without_fan_club, "Thrasios").name == "Thrasios, Triton Hero"


def test_part_before_the_comma_is_not_preferred_to_a_longer_name() -> None:
    # Two cards start with "thrasios"; that one of them has it before its comma picks neither.
    with pytest.raises(AmbiguousNameError) as raised:
        resolve(NAMES, "Thrasios")
    assert len(raised.value.candidates) == 2


def test_accents_need_not_be_typed() -> None:
    assert resolve(NAMES, "lorien revealed").name == "Lórien Revealed"
    assert resolve(NAMES, "aether vial").name == "Æther Vial"


def test_a_face_of_a_multi_faced_card_finds_the_card() -> None:
    assert resolve(NAMES, "insectile aberration").name == "Delver of Secrets // Insectile Aberration"


def test_several_prefix_matches_are_ambiguous_and_listed() -> None:
    with pytest.raises(AmbiguousNameError) as raised:
        resolve(NAMES, "sakashima", ("card",))
    assert set(raised.value.candidates) == {"Sakashima's Student", "Sakashima the Impostor"}
    assert raised.value.hint


def test_a_miss_suggests_the_closest_names() -> None:
    with pytest.raises(NotFoundError) as raised:
        resolve(NAMES, "Thrasois", ("card",))
    assert raised.value.suggestions[0] == "Thrasios, Triton Hero"
    assert len(raised.value.suggestions) <= 3
    assert "did you mean 'Thrasios, Triton Hero'" in raised.value.hint


def test_a_typo_in_the_first_letter_still_finds_the_name() -> None:
    assert "Thrasios, Triton Hero" in suggest(NAMES, "Hrasios Triton", ("card",))


def test_nothing_close_suggests_nothing() -> None:
    with pytest.raises(NotFoundError) as raised:
        resolve(NAMES, "xyzzy plugh")
    assert raised.value.suggestions == []


def test_kinds_filter_and_order_of_preference() -> None:
    assert resolve(NAMES, "exile", ("card",)).kind == "card"
    assert resolve(NAMES, "exile", ("zone", "card")).kind == "zone"
    assert resolve(NAMES, "exile", ("card", "zone")).kind == "card"
    with pytest.raises(NotFoundError):
        resolve(NAMES, "Yuriko", ("mechanic",))


def test_an_exact_name_shared_by_two_nodes_of_one_kind_is_ambiguous() -> None:
    twins = [["Exile", mint("card", "exile"), "card"], ["Exile", mint("card", "exile-2"), "card"]]
    with pytest.raises(AmbiguousNameError) as raised:
        resolve(twins, "exile", ("card",))
    assert len(raised.value.candidates) == 2


def test_steps_and_zones_answer_to_their_short_names() -> None:
    assert resolve(NAMES, "end", ("step",)).name == "end step"
    assert resolve(NAMES, "command", ("zone",)).name == "command zone"


def test_a_mechanic_name_is_not_taken_for_a_longer_one() -> None:
    assert resolve(NAMES, "ninjutsu", ("mechanic",)).name == "Ninjutsu"
    assert resolve(NAMES, "commander ninjutsu", ("mechanic",)).name == "Commander ninjutsu"


def test_a_new_name_list_is_not_answered_from_the_previous_one() -> None:
    assert resolve(NAMES, "yuriko").name == "Yuriko, the Tiger's Shadow"
    other = [_entry("Yuriko's Understudy")]
    assert resolve(other, "yuriko").name == "Yuriko's Understudy"


def test_thirty_thousand_names() -> None:
    """The index only normalises names that can match; results must not change at full scale."""
    many = [_entry(f"Generated Card {number:05d}") for number in range(30_000)] + NAMES
    assert resolve(many, "yuriko").name == "Yuriko, the Tiger's Shadow"
    assert resolve(many, "generated card 01234").name == "Generated Card 01234"
    with pytest.raises(AmbiguousNameError):
        resolve(many, "generated card 0123")
    with pytest.raises(NotFoundError) as raised:
        resolve(many, "Thrasois Triton", ("card",))
    assert raised.value.suggestions[0] == "Thrasios, Triton Hero"


def test_a_later_face_with_punctuation_at_its_start_is_found() -> None:
    """ "O-Kagachi Made Manifest", the back face of The Kami War, normalises to "o kagachi ...": the
    name list's quick filter must not drop the card for the hyphen."""
    names = [_entry("The Kami War // O-Kagachi Made Manifest"), _entry("O-Kagachi, Vengeful Kami")]
    assert resolve(names, "O-Kagachi Made Manifest").name == "The Kami War // O-Kagachi Made Manifest"
