"""Fuzzing the verdict commands' situation reader: every scenario's situation, mutated (unknown
fields, wrong types, huge lists, deep nesting, repeated cards, odd text), and raw bytes, piped to
``can-activate``, ``can-cast``, ``options`` and ``copy`` with ``--situation -``. Each case ends in a
verdict (exit 0 or 1) or in exit 2 with an error message; never a traceback, never a hang.

Hostile values (numbers beyond any game, numbers of thousands of digits, texts past the bound,
nesting past the schema's depth, floats where no field takes one), put in any field, are refused
with exit 2, and 400 through the server's JSON API, by a message naming that field; so is a key given
twice in any mapping, in JSON and in YAML; and YAML aliases standing for more values than a
situation holds are refused before they are expanded."""

from __future__ import annotations

import json

import pytest
from fuzzing import get, mutate, odd_text, paths, time_limit
from hypothesis import given
from hypothesis import strategies as st
from scenario_runner import load_all

from mtgkb.reasoning.situation_limits import MAX_AMOUNT, MAX_DEPTH, MAX_STRING, MAX_VALUES


@pytest.fixture(autouse=True)
def _store_built(kb) -> None:
    """The store is built before the first case, so that no case's time limit covers a build."""


#: (command, game state) of every scenario case on the bundled knowledge base that has a game state.
CASES = [
    (list(case.command), case.game)
    for case in load_all()
    if case.game is not None and case.knowledge_base == "starter"
]
#: The cases whose situation is well formed: a hostile value put in one field is then the only fault.
WELL_FORMED = [
    (list(case.command), case.game)
    for case in load_all()
    if case.game is not None and case.knowledge_base == "starter" and case.exit_code != 2
]


def _judged(run_cli, command: list[str], stdin: str | bytes) -> None:
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes that are not UTF-8
    with time_limit():
        result = run_cli(*command, "--json", "--situation", "-", input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.output)
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


# -- hostile values: huge numbers, long texts, deep nesting, other types, aliases, keys given twice --

#: A marker the JSON text of a case holds where a number too long for ``json.dumps`` goes.
_DIGITS_MARK = "@@digits@@"
#: Values no field of a situation accepts, each refused with the path of the field it is in.
hostile_values = st.one_of(
    st.integers(min_value=MAX_AMOUNT + 1, max_value=10**30),
    st.integers(min_value=-(10**30), max_value=-MAX_AMOUNT - 1),
    st.integers(min_value=13, max_value=6_000).map(lambda n: _DIGITS_MARK + str(n)),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=MAX_STRING + 1, max_value=MAX_STRING + 50).map(lambda n: "x" * n),
    st.integers(min_value=MAX_DEPTH + 1, max_value=60).map(lambda n: _nested(n)),
)


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _where(path: tuple) -> str:
    """A path into a situation as its messages write it: ``players.me.battlefield[0].blocked``."""
    text = ""
    for part in path:
        text = f"{text}[{part}]" if isinstance(part, int) else f"{text}.{part}" if text else part
    return text


def _text_with_digits(document: object) -> str:
    """``document`` as JSON, each digit marker replaced by a number of that many digits."""
    import re

    return re.sub(f'"{_DIGITS_MARK}(\\d+)"', lambda m: "7" * int(m.group(1)), json.dumps(document))


def _refused(run_cli, command: list[str], text: str) -> str:
    """The message of the exit-2 answer to ``text``, short, naming a field of the situation."""
    with time_limit():
        result = run_cli(*command, "--json", "--situation", "-", input=text)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 2, (result.exit_code, result.stdout[:500])
    error = json.loads(result.stdout)["error"]
    assert error.startswith("situation ") and len(error) < 1_000, error[:1_000]
    return error


def _field(error: str) -> str:
    """The field an error message names (up to its first ': ')."""
    return error.removeprefix("situation ").split(": ", 1)[0]


@given(case=st.sampled_from(WELL_FORMED), data=st.data())
def test_a_hostile_value_in_any_field_is_refused_naming_the_field(run_cli, case, data) -> None:
    command, game = case
    game = json.loads(json.dumps(game))
    path = data.draw(st.sampled_from([p for p in paths(game) if p]), label="path")
    get(game, path[:-1])[path[-1]] = data.draw(hostile_values, label="value")
    named = _field(_refused(run_cli, command, _text_with_digits(game)))
    # The field itself, or (deep nesting, a list or mapping of values) a place inside it.
    assert (
        named == _where(path) or named.startswith(_where(path) + "[") or named.startswith(_where(path) + ".")
    )


@given(case=st.sampled_from(CASES), data=st.data())
def test_a_key_given_twice_is_refused_naming_it(run_cli, case, data) -> None:
    command, game = case
    mappings = [p for p in paths(game) if isinstance(get(game, p), dict) and get(game, p)]
    path = data.draw(st.sampled_from(mappings), label="mapping")
    key = data.draw(st.sampled_from(sorted(get(game, path))), label="key")
    as_yaml = data.draw(st.booleans(), label="yaml")

    def dump(value: object, at: tuple) -> str:
        if isinstance(value, dict):
            pairs = [f"{json.dumps(k)}: {dump(v, (*at, k))}" for k, v in value.items()]
            if at == path:
                pairs.append(f"{json.dumps(key)}: {json.dumps(value[key])}")
            return "{" + ", ".join(pairs) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(dump(v, (*at, i)) for i, v in enumerate(value)) + "]"
        return json.dumps(value)

    text = dump(game, ()) + ("\n# read as YAML: JSON stops at this comment\n" if as_yaml else "")
    assert _field(_refused(run_cli, command, text)) == _where((*path, key))


@given(
    case=st.sampled_from(CASES),
    data=st.data(),
    levels=st.integers(1, 12),
    fan_out=st.integers(2, 12),
)
def test_yaml_aliases_are_counted_before_they_are_expanded(run_cli, case, data, levels, fan_out) -> None:
    import yaml

    command, game = case
    game = json.loads(json.dumps(game))
    path = data.draw(st.sampled_from([p for p in paths(game) if p]), label="path")
    leaf = json.dumps(get(game, path))
    get(game, path[:-1])[path[-1]] = "@@bomb@@"
    anchors = [f"&a0 [{', '.join([leaf] * fan_out)}]"]
    for level in range(1, levels):
        anchors.append(f"&a{level} [{', '.join([f'*a{level - 1}'] * fan_out)}]")
    bomb = f"[{', '.join(anchors)}]"
    text = yaml.safe_dump(game, allow_unicode=True, width=10**9).replace("'@@bomb@@'", bomb)
    expanded = sum(fan_out ** (level + 1) for level in range(levels))
    if expanded > MAX_VALUES:
        assert "YAML aliases" in _refused(run_cli, command, text)
    else:
        _judged(run_cli, command, text)


@pytest.fixture(scope="module")
def server(kb):
    from serve_helpers import running_server

    with running_server() as running:
        yield running


def _api_call(command: list[str]) -> tuple[str, dict[str, str]]:
    """The API route and query of a case's command line (``copy CARD --target T`` -> copy, ...)."""
    call, *rest = command
    query: dict[str, str] = {}
    words = list(rest)
    while words:
        word = words.pop(0)
        if word.startswith("--"):
            query[word[2:]] = words.pop(0)
        else:
            query["card"] = f"{query['card']} {word}" if "card" in query else word
    return call, query


@given(case=st.sampled_from(WELL_FORMED), data=st.data())
def test_a_hostile_value_through_the_api_is_400_naming_the_field(server, case, data) -> None:
    import urllib.parse

    from serve_helpers import http

    command, game = case
    game = json.loads(json.dumps(game))
    path = data.draw(st.sampled_from([p for p in paths(game) if p]), label="path")
    get(game, path[:-1])[path[-1]] = data.draw(hostile_values, label="value")
    call, query = _api_call(command)
    with time_limit():
        answer = http(
            f"{server.url}api/{call}?{urllib.parse.urlencode(query)}",
            _text_with_digits(game).encode("utf-8"),
            method="POST",
        )
    assert answer.status == 400, (answer.status, answer.text[:500])
    error = answer.json()["error"]
    assert error.startswith(f"situation {_where(path)}"), error[:500]
