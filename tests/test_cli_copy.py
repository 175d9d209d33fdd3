"""``mtgkb copy`` on bad input and as text: a message and exit 2 (or a "no" with exit 1), never a
traceback; YAML situations read like JSON ones."""

from __future__ import annotations

import json

import pytest

BOARD = {
    "turn": "me",
    "step": "precombat-main",
    "players": {"me": {"battlefield": [{"card": "Grizzly Bears"}], "hand": ["Clone"]}},
}


@pytest.mark.usefixtures("kb")
@pytest.mark.parametrize(
    ("arguments", "situation", "message"),
    [
        (["copy", "Clonne", "--target", "Grizzly Bears"], None, "did you mean 'Clone'"),
        (["copy", "Clone", "--target", "Grizly Bears"], None, "did you mean 'Grizzly Bears'"),
        (
            ["copy", "Clone", "--target", "Storm Crow", "--situation", "-"],
            json.dumps(BOARD),
            "no object named",
        ),
        (
            ["copy", "Clone", "--target", "Grizzly Bears", "--situation", "-"],
            json.dumps(
                {**BOARD, "players": {"me": {"battlefield": [{"card": "Grizzly Bears", "flying": True}]}}}
            ),
            "players.me.battlefield[0].flying: unknown field",
        ),
        (
            ["copy", "Clone", "--target", "Grizzly Bears", "--situation", "-"],
            "[1, 2",
            "neither JSON nor YAML",
        ),
        (
            ["copy", "Clone", "--target", "Grizzly Bears", "--situation", "-"],
            "{}",
            "give at least one player",
        ),
        (
            ["copy", "Clone", "--target", "Grizzly Bears", "--situation", "-"],
            json.dumps(
                {**BOARD, "players": {"me": {"battlefield": [{"card": "Grizzly Bears", "counters": 2}]}}}
            ),
            "players.me.battlefield[0].counters: a mapping of counter kind",
        ),
        (
            ["copy", "Clone", "--target", "Grizzly Bears", "--situation", "-"],
            json.dumps(
                {**BOARD, "players": {"me": {"battlefield": [{"card": "Grizzly Bears", "power": 3}]}}}
            ),
            "only a token's characteristics are given",
        ),
    ],
)
def test_bad_input_exits_2_with_a_message(
    run_cli, arguments: list[str], situation: str | None, message: str
) -> None:
    result = run_cli(*arguments, input=situation)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.usefixtures("kb")
def test_a_yaml_situation_reads_like_json(run_cli) -> None:
    yaml_board = "\n".join(
        [
            "turn: me",
            "step: upkeep",
            "players:",
            "  me:",
            "    battlefield:",
            "      - {card: Grizzly Bears, tapped: true}",
        ]
    )
    result = run_cli(
        "copy", "Clone", "--target", "Grizzly Bears", "--situation", "-", "--json", input=yaml_board
    )
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["result"]["tapped"] is False
    assert {
        "characteristic": "status (tapped, attacking, face up or down)",
        "value": "tapped",
        "cites": ["707.2", "110.5"],
    } in answer["not_copied"]


@pytest.mark.usefixtures("kb")
def test_text_shows_the_answer_the_copy_and_its_rules(run_cli) -> None:
    result = run_cli("copy", "Spark Double", "--target", "Yuriko, the Tiger's Shadow")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert text.startswith("Can Spark Double copy Yuriko, the Tiger's Shadow? YES")
    assert "counters: 1 +1/+1" in text
    assert "exception: a supertype taken away: Legendary  (copiable; Spark Double)" in text
    assert text.rstrip().splitlines()[-1].startswith("Cites CR ")


@pytest.mark.usefixtures("kb")
def test_a_no_exits_1_with_the_failing_check_in_text(run_cli) -> None:
    result = run_cli("copy", "Grizzly Bears", "--target", "Clone")
    assert result.exit_code == 1
    assert "NO  Grizzly Bears has a copy effect  [CR 707.1]" in result.stdout
