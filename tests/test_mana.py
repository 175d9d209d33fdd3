"""Mana arithmetic for verdict costs: parsing, tax, reductions and whether some mana pays a cost."""

from __future__ import annotations

import pytest

from mtgkb.reasoning.mana import add, parse_available, parse_cost, pay, reduce, times


@pytest.mark.parametrize(
    ("cost", "available", "payable", "life"),
    [
        ("{1}{U}", "{1}{U}", True, 0),
        ("{1}{U}", "{U}{U}", True, 0),
        ("{1}{U}", "{U}", False, 0),
        ("{1}{U}", "{1}{B}", False, 0),
        ("{2}{U}{B}", "{1}{U}{B}", False, 0),
        ("{W/U}{W/U}", "{W}{U}", True, 0),
        ("{W/U}", "{B}", False, 0),
        ("{2/B}", "{2}", True, 0),
        ("{2/B}", "{1}", False, 0),
        ("{U/P}", "{U}", True, 0),
        ("{U/P}", "", True, 2),
        ("{X}{R}", "{R}", True, 0),
        ("{C}", "{G}", False, 0),
        ("{C}", "{1}", True, 0),
    ],
)
def test_paying_a_cost(cost: str, available: str, payable: bool, life: int) -> None:
    result = pay(parse_cost(cost), parse_available(available))
    assert (result.payable, result.life) == (payable, life)


def test_tax_and_reductions_change_only_what_they_should() -> None:
    assert add(parse_cost("{1}{U}{B}"), times(parse_cost("{2}"), 2)).text() == "{5}{U}{B}"
    assert times(parse_cost("{2}"), 0).text() == "{0}"
    assert reduce(parse_cost("{U}{B}"), parse_cost("{1}")).text() == "{U}{B}"  # generic never below zero
    assert reduce(parse_cost("{2}{U}{B}"), parse_cost("{1}")).text() == "{1}{U}{B}"
    assert parse_cost("{2}{U}{B}").mana_value == 4
    assert parse_cost("{2/B}{U/P}").mana_value == 3


@pytest.mark.parametrize("text", ["1U", "{1}{Q}", "{U}{", "{W/W}", "{}"])
def test_malformed_costs_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_cost(text)


@pytest.mark.parametrize("text", ["{W/U}", "{X}", "U"])
def test_available_mana_is_whole_mana(text: str) -> None:
    with pytest.raises(ValueError):
        parse_available(text)


@pytest.mark.parametrize(
    ("cost", "available", "payable", "life"),
    [
        ("{W/U}{W/U}{W/U}", "{W}{U}{U}", True, 0),
        ("{W/U}{W/U}{W/U}", "{W}{U}", False, 0),
        ("{W/U/P}{W/U/P}", "{W}", True, 2),
        ("{2/B}{2/B}", "{B}{1}{1}", True, 0),
        ("{2/B}{U}", "{U}{U}{B}", True, 0),
        ("{S}{S}{1}", "{3}", True, 0),
        ("{B/P}{B/P}{B/P}{B}", "{B}{B}", True, 4),
    ],
)
def test_paying_counts_of_the_same_symbol(cost: str, available: str, payable: bool, life: int) -> None:
    result = pay(parse_cost(cost), parse_available(available))
    assert (result.payable, result.life) == (payable, life)


def test_amounts_are_counts_not_strings() -> None:
    # {999999999} once built a 3 GB string of "{C}" symbols for the mana left over.
    pool = parse_available("{999999999}{U}")
    assert pool == {"C": 999_999_999, "U": 1}
    payment = pay(parse_cost("{1}{U}"), pool)
    assert payment.payable and payment.left == {"C": 999_999_998}
    tax = times(parse_cost("{2}"), 1_000)
    assert tax.text() == "{2000}" and tax.counted == ()
    assert times(parse_cost("{U}{W/U}"), 3).symbols == {"U": 3, "W/U": 3}
    assert parse_cost("{1000000}").mana_value == 1_000_000  # Gleemax, the largest symbol printed


HUGE = ["{1000000001}", "{99999999999999999999999}{U}", "{999999999}{999999999}", "{" + "9" * 5_000 + "}"]


@pytest.mark.parametrize("text", HUGE)
def test_more_mana_than_any_game_is_refused_in_a_short_message(text: str) -> None:
    for parse in (parse_cost, parse_available):
        with pytest.raises(ValueError, match="more") as refused:
            parse(text)
        assert len(str(refused.value)) < 200
