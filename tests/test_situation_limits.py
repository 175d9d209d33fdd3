"""A described situation stays within the bounds of any real game (issue 18: amplification in
situations, duplicate keys, unchecked types, echoed input). Huge numbers, YAML alias bombs, more
players or objects than a game holds, a key given twice and a value of the wrong type are refused
with exit 2 (400 through the server's JSON API) and a message naming the field, never a traceback, a
MemoryError or minutes of work; mana is counted, so the largest amounts a game allows cost nothing;
and no message echoes a huge input whole. The attacks that once took gigabytes run in a process of
their own under a memory cap, so that a regression fails the test instead of taking the machine."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import urllib.parse

import pytest
from fuzzing import time_limit
from serve_helpers import http, running_server

from mtgkb.reasoning.situation_limits import MAX_COMMANDER_CASTS, MAX_OBJECTS, MAX_PLAYERS, MAX_VALUES

NINJA = "Ninja of the Deep Hours"
YURIKO = "Yuriko, the Tiger's Shadow"
COMBAT = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": [NINJA],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False, "tapped": True}],
            "mana": "{1}{U}",
        },
        "opp": {"battlefield": [{"card": "Llanowar Elves"}]},
    },
}
#: The issue's bomb: one section of a thousand tokens, aliased by a thousand players (a few KB of
#: YAML that stood for a million objects: 61 s, then a MemoryError).
PLAYERS_BOMB = (
    "turn: p0\nstep: precombat-main\nplayers:\n  p0: &section {battlefield: ["
    + ", ".join(["{token: Goblin}"] * 1_000)
    + "]}\n"
    + "".join(f"  p{n}: *section\n" for n in range(1, 1_000))
)
#: A memory cap for the attacks that once took 3 GB or more.
MEMORY_CAP = 1_500 * 1024 * 1024


@pytest.fixture(autouse=True)
def _store_built(kb) -> None:
    """The store is built before the first case, so that no process of a case builds it."""


def _capped(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """``mtgkb ARGS`` in a process of its own, its address space capped at ``MEMORY_CAP``."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        input=input,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        preexec_fn=cap,
        timeout=120,  # a hang guard: the amplified runs took minutes
    )


def _judged(run_cli, args: list[str], situation: object) -> tuple[int, str, str]:
    text = situation if isinstance(situation, str) else json.dumps(situation)
    with time_limit():
        result = run_cli(*args, "--situation", "-", input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def _changed(base: dict, path: str, value: object) -> dict:
    """``base`` with the field at ``path`` ("players.me.battlefield.0.blocked") set to ``value``."""
    situation = json.loads(json.dumps(base))
    *parents, last = path.split(".")
    node = situation
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return situation


# -- amounts are counts -----------------------------------------------------------------------------


def test_a_billion_mana_is_a_count_not_a_three_gigabyte_string() -> None:
    result = _capped(
        "can-activate",
        NINJA,
        "--step",
        "declare-blockers",
        "--unblocked",
        "Grizzly Bears",
        "--mana",
        "{999999999}{U}",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["answer"] is True
    assert "{999999999}{U}" in verdict["checks"][-1]["because"]


def test_the_most_commander_casts_and_mana_a_game_allows_answer_at_once() -> None:
    # 499,999,998 casts once ran for minutes: the tax was paid one mana at a time.
    result = _capped(
        "can-cast",
        YURIKO,
        "--zone",
        "command",
        "--commander-casts",
        str(MAX_COMMANDER_CASTS),
        "--step",
        "precombat-main",
        "--mana",
        "{999999990}{U}{B}",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["cost"] == f"{{{2 * MAX_COMMANDER_CASTS + 1}}}{{U}}{{B}}"


def test_commander_casts_beyond_any_game_name_the_option(run_cli) -> None:
    for casts in ("499999998", "9" * 6_000):
        result = run_cli(
            "can-cast", YURIKO, "--zone", "command", "--commander-casts", casts, "--step", "precombat-main"
        )
        assert result.exit_code == 2
        assert "--commander-casts" in result.stderr and len(result.stderr) < 600


@pytest.mark.parametrize(
    ("situation", "named"),
    [
        (_changed(COMBAT, "players.me.mana", "{1000000001}"), "players.me.mana: {1000000001} is more mana"),
        (_changed(COMBAT, "players.me.mana", "{99999999999999999999999}{U}"), "players.me.mana"),
        (_changed(COMBAT, "players.me.mana", "{999999999}{999999999}"), "players.me.mana"),
        (_changed(COMBAT, "players.me.mana", "{" + "9" * 4_000 + "}"), "players.me.mana"),
        (
            {
                "turn": "me",
                "step": "upkeep",
                "players": {"me": {"command": [YURIKO], "commander_casts": {YURIKO: 499_999_998}}},
            },
            f"players.me.commander_casts.{YURIKO}: 499,999,998 casts",
        ),
        (
            '{"turn": "me", "step": "upkeep", "players": {"me": {"command": ["' + YURIKO + '"], '
            '"commander_casts": {"' + YURIKO + '": ' + "9" * 5_000 + "}}}}",
            f"players.me.commander_casts.{YURIKO}: a number of 5,000 digits",
        ),
        (
            f'turn: me\nstep: upkeep\nplayers:\n  me:\n    command: ["{YURIKO}"]\n    commander_casts:\n'
            f'      "{YURIKO}": 1:2:3:4:5:6:7:8:9:10:11:12\n',  # YAML 1.1 base 60
            f"players.me.commander_casts.{YURIKO}: a number of",
        ),
        (
            _changed(COMBAT, "players.me.battlefield.0.tapped", 10**30),
            "players.me.battlefield[0].tapped: a number of 31 digits",
        ),
    ],
)
def test_numbers_beyond_any_game_are_refused_naming_the_field(run_cli, situation, named: str) -> None:
    code, stdout, stderr = _judged(run_cli, ["can-activate", NINJA], situation)
    assert code == 2 and stdout == ""
    assert f"situation {named}" in stderr, stderr
    assert len(stderr) < 1_000


def test_counters_and_power_beyond_any_game_are_refused_by_copy(run_cli) -> None:
    board = {
        "turn": "me",
        "step": "precombat-main",
        "players": {"me": {"battlefield": [{"card": "Grizzly Bears"}]}},
    }
    for field, value, named in [
        ("counters", {"+1/+1": 10**10}, "counters.+1/+1: 10,000,000,000 is more than any game counts"),
        ("counters", {"+1/+1": "two"}, "counters.+1/+1: a counter kind with a whole number"),
    ]:
        situation = _changed(board, f"players.me.battlefield.0.{field}", value)
        code, _, stderr = _judged(run_cli, ["copy", "Clone", "--target", "Grizzly Bears"], situation)
        assert code == 2 and f"players.me.battlefield[0].{named}" in stderr, stderr
    token = _changed(board, "players.me.battlefield.0", {"token": "Beast", "power": 10**12})
    code, _, stderr = _judged(run_cli, ["copy", "Clone", "--target", "Beast"], token)
    assert code == 2 and "players.me.battlefield[0].power: a number of 13 digits" in stderr


# -- YAML aliases, players and objects ----------------------------------------------------------------


def test_the_thousand_player_alias_bomb_is_refused_while_composed() -> None:
    result = _capped("options", "--situation", "-", input=PLAYERS_BOMB)
    assert result.returncode == 2, result.stderr[-2_000:]
    assert f"situation players: stands for more than {MAX_VALUES:,} values once its YAML aliases" in (
        result.stderr
    )


def test_nested_aliases_and_an_alias_containing_itself_are_refused(run_cli) -> None:
    laughs = ["&a [Grizzly Bears, Grizzly Bears, Grizzly Bears, Grizzly Bears, Grizzly Bears]"]
    for level in "bcdefghij":
        before = chr(ord(level) - 1)
        laughs.append(f"&{level} [*{before}, *{before}, *{before}, *{before}, *{before}]")
    bomb = f"turn: me\nstep: upkeep\nplayers: {{me: {{hand: [{', '.join(laughs)}]}}}}\n"
    code, _, stderr = _judged(run_cli, ["options"], bomb)
    assert code == 2 and "players.me.hand" in stderr and "YAML aliases" in stderr
    merged = "turn: me\nstep: upkeep\nm0: &m0 {a: 1, b: 2}\n" + "".join(
        f"m{n}: &m{n} {{<<: [{', '.join([f'*m{n - 1}'] * 8)}]}}\n" for n in range(1, 9)
    )
    code, _, stderr = _judged(run_cli, ["options"], merged + "players: {me: {}}\n")
    assert code == 2 and "YAML aliases" in stderr
    code, _, stderr = _judged(run_cli, ["options"], "turn: me\nstep: upkeep\nplayers: &p {me: {hand: *p}}\n")
    assert code == 2 and "players.me.hand: a YAML alias that stands for a value containing itself" in stderr


def test_a_few_aliases_still_work(run_cli) -> None:
    situation = (
        "turn: me\nstep: declare-blockers\nplayers:\n  me:\n    hand: [Ninja of the Deep Hours]\n"
        "    battlefield:\n      - &goblin {token: Goblin, attacking: opp, blocked: false, tapped: true}\n"
        "      - *goblin\n      - {<<: *goblin, token: Elf}\n  opp: {}\n"
    )
    code, stdout, stderr = _judged(run_cli, ["can-activate", NINJA, "--json"], situation)
    assert code == 0, stderr
    assert [c["name"] for c in json.loads(stdout)["candidates"]] == ["Goblin", "Goblin", "Elf"]


def test_more_players_or_objects_than_any_game_are_refused(run_cli) -> None:
    crowd = {"turn": "p0", "step": "upkeep", "players": {f"p{n}": {} for n in range(MAX_PLAYERS + 1)}}
    code, _, stderr = _judged(run_cli, ["options"], crowd)
    assert code == 2 and f"situation players: {MAX_PLAYERS + 1:,} players" in stderr
    hoard = _changed(COMBAT, "players.me.graveyard", ["Grizzly Bears"] * (MAX_OBJECTS - 1))
    code, _, stderr = _judged(run_cli, ["can-activate", NINJA], hoard)
    assert code == 2 and f"{MAX_OBJECTS + 2:,} objects" in stderr


def test_a_board_of_hundreds_of_objects_gets_its_options(run_cli) -> None:
    # 200 ninjas and 200 attackers: each requirement was asked again for every candidate of every card
    # tried, minutes of queries; now each is asked once.
    attacker = {"token": "Goblin", "attacking": "opp", "blocked": False, "tapped": True}
    me = {"hand": [NINJA] * 200, "battlefield": [attacker] * 200, "mana": "{2}{U}"}
    situation = {"turn": "me", "step": "declare-blockers", "players": {"me": me, "opp": {}}}
    with time_limit(120):
        code, stdout, _ = _judged(run_cli, ["options", "--json"], situation)
    answer = json.loads(stdout)
    assert code == 0 and len(answer["options"]) == 200
    assert {len(option["candidates"]) for option in answer["options"]} == {200}


# -- duplicate keys and types ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("turn: me\nstep: upkeep\nturn: opp\nplayers: {me: {}, opp: {}}\n", "turn"),
        (
            "turn: me\nstep: upkeep\nplayers:\n  me: {hand: [Grizzly Bears], hand: [Llanowar Elves]}\n",
            "players.me.hand",
        ),
        ("turn: me\nstep: upkeep\nplayers:\n  me: {}\n  me: {hand: [Grizzly Bears]}\n", "players.me"),
        ('{"turn": "me", "step": "upkeep", "players": {"me": {}, "me": {"hand": []}}}', "players.me"),
        (
            '{"turn": "me", "step": "upkeep", "players": {"me": {"mana": "{U}", "mana": "{1}"}}}',
            "players.me.mana",
        ),
    ],
)
def test_a_key_given_twice_is_refused_naming_it(run_cli, text: str, named: str) -> None:
    code, _, stderr = _judged(run_cli, ["options"], text)
    assert code == 2
    assert f"situation {named}: is given twice" in stderr, stderr


FIELDS_OF_THE_WRONG_TYPE = [
    ("turn", ["me"], "turn"),
    ("step", 5, "step"),
    ("priority", 5, "priority"),
    ("stack", 5, "stack"),
    ("stack", [5], "stack[0]"),
    ("stack", [{"card": "Sudden Shock", "controller": 5}], "stack[0].controller"),
    ("players", ["me"], "players"),
    ("players.opp", 5, "players.opp"),
    ("players.me.hand", "Ninja of the Deep Hours", "players.me.hand"),
    ("players.me.hand", [5], "players.me.hand[0]"),
    ("players.me.command", [{"card": 5}], "players.me.command[0]"),
    ("players.me.commanders", 5, "players.me.commanders"),
    ("players.me.mana", 5, "players.me.mana"),
    ("players.me.commander_casts", [YURIKO], "players.me.commander_casts"),
    ("players.me.commander_casts", {"5": 1}, "players.me.commander_casts"),
    ("players.me.battlefield.0.blocked_by", [5], "players.me.battlefield[0].blocked_by[0]"),
    ("players.me.battlefield.0.blocked_by", "Llanowar Elves", "players.me.battlefield[0].blocked_by"),
    ("players.me.battlefield.0.blocked", "no", "players.me.battlefield[0].blocked"),
    ("players.me.battlefield.0.tapped", "yes", "players.me.battlefield[0].tapped"),
    ("players.me.battlefield.0.attacking", 5, "players.me.battlefield[0].attacking"),
    ("players.me.battlefield.0.attacking", {"planeswalker": 5}, "players.me.battlefield[0].attacking"),
    ("players.me.battlefield.0.controller", 5, "players.me.battlefield[0].controller"),
    ("players.me.battlefield.0.copy_of", 5, "players.me.battlefield[0].copy_of"),
    ("players.me.battlefield.0.card", 5, "players.me.battlefield[0].card"),
    ("players.opp.battlefield.0", {"token": 5}, "players.opp.battlefield[0].token"),
    ("players.opp.battlefield.0", {"token": "Elf", "types": [5]}, "players.opp.battlefield[0].types"),
    ("players.me.battlefield.0.tapped", 1.5, "players.me.battlefield[0].tapped"),
    ("players.me.hand", {"value": [NINJA]}, "players.me.hand"),
]


@pytest.mark.parametrize(("path", "value", "named"), FIELDS_OF_THE_WRONG_TYPE)
def test_every_field_checks_its_type(run_cli, path: str, value: object, named: str) -> None:
    situation = _changed(COMBAT, path, value)
    code, _, stderr = _judged(run_cli, ["can-activate", NINJA], situation)
    assert code == 2
    assert f"situation {named}:" in stderr, stderr


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("name", 5, "name"),
        ("mana_cost", ["{1}"], "mana_cost"),
        ("mana_cost", "{Q}", "mana_cost"),
        ("mana_cost", "{99999999999}", "mana_cost"),
        ("power", True, "power"),
        ("effects", ["flying", 5], "effects[1]"),
        ("face_down", "no", "face_down"),
        ("entered_from", 5, "entered_from"),
    ],
)
def test_every_copy_field_checks_its_type(run_cli, field: str, value: object, named: str) -> None:
    token = {"token": "Beast", field: value}
    situation = {"turn": "me", "step": "precombat-main", "players": {"me": {"battlefield": [token]}}}
    code, _, stderr = _judged(run_cli, ["copy", "Clone", "--target", "Beast"], situation)
    assert code == 2
    assert f"situation players.me.battlefield[0].{named}:" in stderr, stderr


def test_a_value_of_no_json_type_is_refused(run_cli) -> None:
    for value in ("2024-01-01", "!!set {a, b}", "!!binary aGk="):
        code, _, stderr = _judged(
            run_cli, ["options"], f"turn: me\nstep: upkeep\nplayers: {{me: {{mana: {value}}}}}\n"
        )
        assert code == 2 and "situation players.me.mana: a YAML" in stderr, stderr


# -- echoes ---------------------------------------------------------------------------------------


def test_no_message_echoes_a_huge_input_whole(run_cli, tmp_path) -> None:
    huge = "zq" * 60_000
    for args in (
        ["search", huge],
        ["can-activate", NINJA, "--step", "declare-blockers", "--ability", huge],
        ["can-activate", NINJA, "--step", "declare-blockers", "--player", huge],
        ["can-cast", "Grizzly Bears", "--step", "precombat-main", "--via", huge],
        ["options", "--step", "declare-blockers", "--player", huge],
    ):
        result = run_cli(*args)
        assert result.exit_code in (0, 1, 2, 3) and len(result.output) < 1_000, (args[:1], len(result.output))
    tokens = [{"token": f"Goblin {n}"} for n in range(1_000)]
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"turn": "me", "step": "upkeep", "players": {"me": {"battlefield": tokens}}}))
    result = run_cli("copy", "Clone", "--target", "Nothing", "--situation", str(board))
    assert result.exit_code == 2 and "Goblin 9 token and 990 more" in result.stderr
    assert len(result.stderr) < 1_000
    long_key = _changed(COMBAT, "players.me." + "x" * 3_000, 1)
    code, _, stderr = _judged(run_cli, ["can-activate", NINJA], long_key)
    assert code == 2 and "unknown field" in stderr and len(stderr) < 1_000
    crowd = {"turn": "nobody", "step": "upkeep", "players": {"p" * 200 + str(n): {} for n in range(50)}}
    code, _, stderr = _judged(run_cli, ["options"], crowd)
    assert code == 2 and "and 40 more" in stderr and len(stderr) < 1_000


# -- the same through the server's JSON API --------------------------------------------------------


@pytest.fixture(scope="module")
def server(kb):
    with running_server() as running:
        yield running


def _posted(server, call: str, body: str, **query: str) -> tuple[int, dict]:
    url = f"{server.url}api/{call}?{urllib.parse.urlencode(query)}"
    answer = http(url, body.encode("utf-8"), method="POST", timeout=120)
    assert "Traceback" not in answer.text
    return answer.status, answer.json()


API_ATTACKS = [
    (json.dumps(_changed(COMBAT, "players.me.mana", "{99999999999999999999999}{U}")), "players.me.mana"),
    (PLAYERS_BOMB, "players: stands for more than"),
    ("turn: me\nstep: upkeep\nplayers: &p {me: {hand: *p}}\n", "players.me.hand: a YAML alias"),
    ("turn: me\nstep: upkeep\nplayers:\n  me: {}\n  me: {}\n", "players.me: is given twice"),
    (json.dumps(_changed(COMBAT, "players.me.battlefield.0.blocked_by", [5])), "blocked_by[0]"),
    (
        json.dumps(_changed(COMBAT, "players.me.commander_casts", {NINJA: 10**6})),
        f"players.me.commander_casts.{NINJA}: 1,000,000 casts",
    ),
    (json.dumps(_changed(COMBAT, "players", {f"p{n}": {} for n in range(500)})), "players: 500 players"),
    (
        '{"turn": "me", "players": {"me": {"mana": ' + "9" * 5_000 + "}}}",
        "players.me.mana: a number of 5,000",
    ),
]


@pytest.mark.parametrize(("body", "named"), API_ATTACKS)
def test_the_api_refuses_the_same_attacks_with_400(server, body: str, named: str) -> None:
    for call, query in (("can-activate", {"card": NINJA}), ("options", {})):
        status, document = _posted(server, call, body, **query)
        assert status == 400, (status, document)
        assert named in document["error"], document


def test_the_api_refuses_huge_copy_counters_with_400(server) -> None:
    board = (
        "turn: me\nstep: upkeep\n"
        "players: {me: {battlefield: [{card: Grizzly Bears, counters: {+1/+1: 99999999999}}]}}\n"
    )
    status, document = _posted(server, "copy", board, card="Clone", target="Grizzly Bears")
    assert status == 400 and "counters.+1/+1" in document["error"], document


def test_an_aliased_permanent_keeps_its_copy_fields(kb) -> None:
    from mtgkb.reasoning.copy.situation import read_copy_situation
    from mtgkb.reasoning.situation import parse_situation_text

    text = (
        "turn: me\nstep: precombat-main\nplayers:\n"
        "  me: {battlefield: [&bear {card: Grizzly Bears, counters: {+1/+1: 2}, face_down: false}]}\n"
        "  opp: {battlefield: [*bear]}\n"
    )
    situation = read_copy_situation(kb, parse_situation_text(text))
    assert [(o.player, o.counters) for o in situation.objects] == [
        ("me", {"+1/+1": 2}),
        ("opp", {"+1/+1": 2}),
    ]
