"""Fuzzing names on every lookup command: random Unicode, empty strings, 10,000-character strings,
control characters and bytes that are not UTF-8 (a shell passes them as lone surrogates). Each ends
in an answer, "not found" or another message with exit 2; never a traceback, never a hang."""

from __future__ import annotations

import json

import pytest
from fuzzing import odd_text, time_limit
from hypothesis import given
from hypothesis import strategies as st

# Each command with where the name goes; "{}" is the fuzzed name.
COMMANDS = [
    ["card", "{}"],
    ["rulings", "{}"],
    ["rule", "{}"],
    ["search", "{}"],
    ["commanders", "{}"],
    ["commanders", "Thrasios, Triton Hero", "{}"],
    ["partners", "{}"],
    ["timing", "{}"],
    ["copy", "{}", "--target", "Grizzly Bears"],
    ["copy", "Clone", "--target", "{}"],
    ["can-cast", "{}", "--step", "main1"],
    ["can-activate", "{}", "--step", "declare-blockers"],
    ["rules", "diff", "{}"],
]


@pytest.fixture(autouse=True)
def _store_built(kb) -> None:
    """The store is built before the first case, so that no case's time limit covers a build."""


names = st.one_of(
    odd_text,
    st.sampled_from(["\udcff", "Yuri\udcff", "\udce2\udc80"]),  # bytes not UTF-8, as argv gives them
    st.just(""),
    st.sampled_from(["Yuriko", "yuriko, the tiger", "Thrasios, Triton Hero", "702.49d", "ninjutsu"]).flatmap(
        lambda name: st.tuples(st.just(name), odd_text).map("".join)
    ),
    st.builds(
        lambda text, n: (text * n)[:10_000], st.text(min_size=1, max_size=20), st.integers(500, 10_000)
    ),
)


@given(command=st.sampled_from(COMMANDS), name=names)
def test_any_name_gets_an_answer_or_a_message(run_cli, command: list[str], name: str) -> None:
    args = [name if part == "{}" else part for part in command]
    with time_limit():
        result = run_cli(*args, "--json")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.output)
    if result.exit_code == 2 and not result.stdout:  # refused before a command read --json
        assert "Error: " in result.stderr, result.stderr
        return
    if name in ("-h", "--help"):  # an option, as for any command: the card "-h" is `mtgkb card -- -h`
        assert result.exit_code == 0 and result.stdout.startswith("Usage: "), result.output
        return
    answer = json.loads(result.stdout)  # the answer, or the error as a JSON object
    if result.exit_code == 2:
        assert answer["error"], answer
        assert len(answer["error"]) < 1000, "a message that quotes a huge name whole"
