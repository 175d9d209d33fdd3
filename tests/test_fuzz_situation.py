"""Fuzzing the verdict commands' situation reader: every scenario's situation, mutated (unknown
fields, wrong types, huge lists, deep nesting, repeated cards, odd text), and raw bytes, piped to
``can-activate``, ``can-cast``, ``options`` and ``copy`` with ``--situation -``. Each case ends in a
verdict (exit 0 or 1) or in exit 2 with an error message; never a traceback, never a hang."""

from __future__ import annotations

import json

import pytest
from fuzzing import mutate, odd_text, time_limit
from hypothesis import given
from hypothesis import strategies as st
from scenario_runner import load_all


@pytest.fixture(autouse=True)
def _store_built(kb) -> None:
    """The store is built before the first case, so that no case's time limit covers a build."""


#: (command, game state) of every scenario case on the bundled knowledge base that has a game state.
CASES = [
    (list(case.command), case.game)
    for case in load_all()
    if case.game is not None and case.knowledge_base == "starter"
]


def _judged(run_cli, command: list[str], stdin: str | bytes) -> None:
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes that are not UTF-8
    with time_limit():
        result = run_cli(*command, "--json", "--situation", "-", input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    answer = json.loads(result.stdout)  # with --json a verdict, or the error as a JSON object
    assert isinstance(answer, dict), answer
    if result.exit_code == 2:
        assert answer["error"] and answer["exit_code"] == 2, answer


@given(case=st.sampled_from(CASES), data=st.data())
def test_a_mutated_situation_gets_a_verdict_or_a_message(run_cli, case, data) -> None:
    command, game = case
    _judged(run_cli, command, json.dumps(mutate(data, game)))


@given(case=st.sampled_from(CASES), text=st.one_of(odd_text, st.binary(max_size=200)))
def test_any_bytes_on_standard_input_get_a_message(run_cli, case, text) -> None:
    _judged(run_cli, case[0], text)


@given(case=st.sampled_from(CASES), data=st.data())
def test_a_mutated_situation_as_yaml_gets_a_verdict_or_a_message(run_cli, case, data) -> None:
    import yaml

    command, game = case
    _judged(run_cli, command, yaml.safe_dump(mutate(data, game, mutations=1), allow_unicode=True))


def test_a_situation_that_would_take_the_memory_is_refused_quickly(run_cli) -> None:
    # "Billion laughs": a few hundred bytes of YAML aliases that stand for 244 million names, inside
    # fields a situation has, so that only the reader's own limits stop it.
    levels = ["&a [Grizzly Bears, Grizzly Bears, Grizzly Bears, Grizzly Bears, Grizzly Bears]"]
    for level in "bcdefghijklm":
        previous = chr(ord(level) - 1)
        levels.append(f"&{level} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}]")
    bomb = f"[{', '.join(levels)}]"
    command = ["can-activate", "Ninja of the Deep Hours"]
    _judged(run_cli, command, f"turn: {bomb}\nstep: main1\nplayers: {{me: {{}}}}\n")  # named in a message
    _judged(run_cli, command, f"turn: me\nstep: main1\nplayers: {{me: {{hand: {bomb}}}}}\n")
    _judged(
        run_cli, command, f"turn: me\nstep: main1\nplayers: {{me: {{battlefield: [{{card: {bomb}}}]}}}}\n"
    )
    _judged(run_cli, command, json.dumps({"turn": "me", "pad": "x" * 2_000_000}))


def test_a_lone_surrogate_spelt_as_an_escape_is_refused(run_cli) -> None:
    for text in ('{"turn": "me", "players": {"\\ud800": {}}}', 'turn: "\\uD800"\nplayers: {me: {}}\n'):
        with time_limit():
            result = run_cli("options", "--situation", "-", input=text)
        assert result.exit_code == 2, result.output
        assert "lone surrogate" in result.stderr
