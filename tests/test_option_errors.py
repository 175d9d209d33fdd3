"""Mistakes are reported in the user's terms: a situation written from options names the option
used, never a situation field the user did not write; a misspelt card on the whole pool is a typo,
not a sign that only the starter cards are there."""

from __future__ import annotations

import pytest

from mtgkb.lookups.common import cards_imported
from mtgkb.reasoning.situation_options import TableOptions, option_error, situation_and_origins
from mtgkb.reasoning.situation_text import SituationError

NINJA = "Ninja of the Deep Hours"


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (["--step", "declare-attackers", "--unblocked", "Grizzly Bears"], '--unblocked "Grizzly Bears":'),
        (["--step", "declare-attackers", "--blocked", "Grizzly Bears"], '--blocked "Grizzly Bears":'),
        (["--step", "declare-blockers", "--unblocked", "Grizzly Bears", "--mana", "1U"], "--mana:"),
        (["--step", "declare-blokers"], "--step:"),
        (["--step", "declare-blockers", "--tapped", "Grizzly Baers"], '--tapped "Grizzly Baers":'),
        (["--step", "declare-blockers", "--stack", "Sudden Shok"], '--stack "Sudden Shok":'),
    ],
)
def test_a_mistake_with_an_option_names_the_option(run_cli, arguments: list[str], option: str) -> None:
    result = run_cli("can-activate", NINJA, *arguments)
    assert result.exit_code == 2, result.output
    assert f"Error: {option}" in result.stderr
    assert "situation" not in result.stderr
    assert "players." not in result.stderr


def test_a_mistake_in_a_file_still_names_the_field(run_cli, tmp_path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("turn: me\nstep: declare-blockers\nplayers:\n  me: {hand: ['" + NINJA + "'], mana: 1U}\n")
    result = run_cli("can-activate", NINJA, "--situation", str(path))
    assert result.exit_code == 2
    assert "situation players.me.mana:" in result.stderr


def test_the_origins_follow_the_layout_of_the_situation() -> None:
    options = TableOptions(step="combat-damage", unblocked=["A"], blocked=["B"], tapped=["C"], mana="{U}")
    game, origins = situation_and_origins("Ninja", options)
    battlefield = game["players"]["me"]["battlefield"]
    assert [entry["card"] for entry in battlefield] == ["A", "B", "C"]
    assert origins["players.me.battlefield[1]"] == "--blocked B"
    assert origins["players.me.battlefield[2]"] == "--tapped C"
    assert origins["players.me.hand[0]"] == "CARD"
    error = option_error(SituationError("players.me.battlefield[1].card", "no card named 'B'"), origins)
    assert str(error) == "--blocked B: no card named 'B'"
    unknown = SituationError("players.opp.hand[0]", "x")
    assert option_error(unknown, origins) is unknown


class _Kb:
    def __init__(self, graphs: list[str]) -> None:
        self.meta = {"graphs": dict.fromkeys(graphs, 0)}


def test_only_the_starter_cards_is_said_only_without_a_card_import() -> None:
    graph = "https://w3id.org/mtgkb/graph/"
    assert not cards_imported(_Kb([graph + "data/cards/storm-crow", graph + "cr/2026-04-17"]))
    assert cards_imported(_Kb([graph + "data/turn", graph + "mtgjson"]))
    assert cards_imported(_Kb([graph + "scryfall-cards"]))


def test_a_typo_on_the_starter_cards_says_how_to_import_the_pool(run_cli) -> None:
    result = run_cli("can-activate", "Ninja of the Deep Huors", "--step", "declare-blockers")
    assert result.exit_code == 2
    assert "only the starter cards" in result.stderr


@pytest.mark.shared
def test_a_typo_on_the_full_pool_does_not_say_only_the_starter_cards(run_cli_on_pool) -> None:
    result = run_cli_on_pool("can-activate", "Ninja of the Deep Huors", "--step", "declare-blockers")
    assert result.exit_code == 2
    assert "did you mean 'Ninja of the Deep Hours'" in result.stderr
    assert "starter cards" not in result.stderr
    result = run_cli_on_pool(
        "can-activate", NINJA, "--step", "declare-blockers", "--unblocked", "Grizzly Baers"
    )
    assert result.exit_code == 2
    assert '--unblocked "Grizzly Baers": no card named' in result.stderr
    assert "starter cards" not in result.stderr
