"""Judge scenarios, written as data: every case of every file in tests/scenarios/ (the schema is in
tests/scenarios/README.md), run as an mtgkb command with --json and compared with what it expects.
A malformed file fails its own test with a message naming the file; a wrong answer fails with
"file: case: what differs", without a Python traceback.

Then the runner itself: it rejects malformed files and reports each kind of difference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from scenario_runner import (
    Case,
    ScenarioError,
    answer_differences,
    expectation_differences,
    failure_message,
    load,
    run,
    scenario_files,
)


def _parameters() -> list[Any]:
    parameters = []
    for path in scenario_files():
        try:
            cases = load(path)
        except ScenarioError as error:
            parameters.append(pytest.param(error, id=path.stem))
            continue
        for case in cases:
            marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
            parameters.append(pytest.param(case, id=case.id, marks=marks))
    return parameters


@pytest.mark.parametrize("case", _parameters())
def test_scenario(case: Case | ScenarioError, kb, run_cli, request: pytest.FixtureRequest) -> None:
    if isinstance(case, ScenarioError):
        pytest.fail(str(case), pytrace=False)
    env = request.getfixturevalue("card_pool").env if case.knowledge_base == "pool" else None
    differences = run(case, lambda arguments, stdin: run_cli(*arguments, input=stdin, env=env))
    if differences:
        pytest.fail(failure_message(case, differences), pytrace=False)


# --- the runner ----------------------------------------------------------------------------------

VALID = {
    "scenario": "Yuriko's commander ninjutsu costs {U}{B}",
    "source": "CR 702.49d",
    "situation": {"command": ["card", "Yuriko, the Tiger's Shadow"]},
    "expect": [{"path": "abilities.*.cost", "includes": ["{U}{B}"]}],
    "cites": ["702.49d"],
}


def _written(tmp_path: Path, document: Any, name: str = "a-scenario.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _refusal(tmp_path: Path, document: Any) -> str:
    path = _written(tmp_path, document)
    with pytest.raises(ScenarioError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    return message


def test_a_well_formed_file_is_one_case(tmp_path: Path) -> None:
    [case] = load(_written(tmp_path, VALID))
    assert (case.name, case.command, case.cites, case.exit_code) == (
        VALID["scenario"],
        ("card", "Yuriko, the Tiger's Shadow"),
        ("702.49d",),
        0,
    )
    assert case.id == "a-scenario" and case.knowledge_base == "starter"


def test_an_unknown_key_is_refused_naming_the_file_and_the_key(tmp_path: Path) -> None:
    assert "unknown key 'expected'" in _refusal(tmp_path, VALID | {"expected": []})
    assert "unknown key 'stack'" in _refusal(tmp_path, VALID | {"situation": {"command": ["x"], "stack": []}})
    typo = VALID | {"expect": [{"path": "name", "equal": "x"}]}
    assert "unknown key 'equal' in expect[1]" in _refusal(tmp_path, typo)
    group = {"situation": {"command": ["card", "Clone"]}, "cases": [VALID, VALID | {"exit": 1}]}
    assert "case 2: unknown key 'exit'" in _refusal(tmp_path, group)
    assert "unknown key 'scenario' in a file of several cases" in _refusal(
        tmp_path, group | {"scenario": "x"}
    )


def test_missing_cites_are_refused_and_an_empty_list_needs_a_why(tmp_path: Path) -> None:
    without = {key: value for key, value in VALID.items() if key != "cites"}
    assert "'cites' is required" in _refusal(tmp_path, without)
    assert "say in 'why'" in _refusal(tmp_path, VALID | {"cites": []})
    assert "'why' explains an empty 'cites'" in _refusal(tmp_path, VALID | {"why": "no rules"})
    assert "not a rule number" in _refusal(tmp_path, VALID | {"cites": ["CR 702.49d"]})
    [case] = load(_written(tmp_path, VALID | {"cites": [], "why": "bad input is no rules claim"}))
    assert case.cites == () and case.why


def test_a_case_must_check_something_and_name_its_source(tmp_path: Path) -> None:
    assert "must check its answer" in _refusal(tmp_path, VALID | {"expect": []})
    assert "compares nothing" in _refusal(tmp_path, VALID | {"expect": [{"path": "name"}]})
    assert "'source' is required" in _refusal(tmp_path, VALID | {"source": ""})
    assert "'scenario' is required" in _refusal(tmp_path, VALID | {"scenario": None})
    assert "exit_code" in _refusal(tmp_path, VALID | {"exit_code": 4})
    assert "holds one JSON object" in _refusal(tmp_path, [VALID])
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"broken\.json: not a JSON file"):
        load(broken)


def test_several_cases_share_the_file_s_situation_and_source(tmp_path: Path) -> None:
    game = {"turn": "me", "step": "declare-blockers", "players": {"me": {}}}
    group = {
        "source": "CR 702.49a",
        "situation": {"command": ["can-activate", "Ninja of the Deep Hours"], "game": game},
        "cases": [
            {key: value for key, value in VALID.items() if key not in ("source", "situation")},
            VALID | {"situation": {"command": ["options"]}, "xfail": "not modelled yet"},
        ],
    }
    first, second = load(_written(tmp_path, group, "shared.json"))
    assert (first.id, second.id) == ("shared/1", "shared/2")
    assert first.command == ("can-activate", "Ninja of the Deep Hours") and first.source == "CR 702.49a"
    assert second.command == ("options",) and second.game == game and second.source == "CR 702.49d"
    assert first.arguments == ["can-activate", "Ninja of the Deep Hours", "--json", "--situation", "-"]
    assert json.loads(first.stdin) == game
    assert (first.xfail, second.xfail) == (None, "not modelled yet")


def test_every_comparison_reports_a_wrong_answer() -> None:
    answer = {"abilities": [{"cost": "{1}{U}{B}"}], "rows": [{"a": {"value": "x"}}]}
    for wrong, says in (
        (
            {"path": "abilities.*.cost", "equals": "{U}{B}"},
            'abilities.*.cost is "{1}{U}{B}", expected "{U}{B}"',
        ),
        ({"path": "abilities.*.cost", "includes": ["{U}{B}"]}, 'lacks ["{U}{B}"]'),
        ({"path": "abilities.*.cost", "excludes": ["{1}{U}{B}"]}, "should not hold"),
        ({"path": "abilities.*.cost", "set": ["{U}{B}"]}, 'missing ["{U}{B}"], extra ["{1}{U}{B}"]'),
        (
            {"path": "rows.*", "includes_rows": [{"a.value": "y"}]},
            'no item at rows.* matches {"a.value": "y"}',
        ),
        ({"path": "rows.*", "excludes_rows": [{"a.value": "x"}]}, "which it should not"),
        ({"path": "missing.path", "equals": 1}, "nothing at missing.path"),
    ):
        assert [says in text for text in expectation_differences(answer, wrong)] == [True], wrong
    right = {
        "path": "abilities.*.cost",
        "set": ["{1}{U}{B}"],
        "includes": ["{1}{U}{B}"],
        "equals": "{1}{U}{B}",
    }
    assert expectation_differences(answer, right) == []


def _result(stdout: str, exit_code: int, exception: BaseException | None = None) -> Result:
    """What click's runner returns for a command that printed ``stdout``."""
    return Result(CliRunner(), stdout.encode(), b"", stdout.encode(), None, exit_code, exception)


def test_a_failure_names_the_file_the_case_and_each_difference(tmp_path: Path) -> None:
    [case] = load(_written(tmp_path, VALID | {"exit_code": 1}))
    answer = {"abilities": [{"cost": "{1}{U}{B}"}], "checks": [{"check": "in hand", "holds": False}]}
    differences = answer_differences(case, _result(json.dumps(answer), exit_code=0))
    assert differences == [
        'exit code 0, expected 1 (failing checks: ["in hand"])',
        'abilities.*.cost lacks ["{U}{B}"]; found ["{1}{U}{B}"]',
        "the answer does not cite CR 702.49d",
    ]
    message = failure_message(case, differences)
    assert message.startswith(f"{tmp_path / 'a-scenario.json'}: {VALID['scenario']}: exit code 0")
    assert "Traceback" not in message


def test_a_command_that_raises_is_reported_without_its_traceback(tmp_path: Path) -> None:
    [case] = load(_written(tmp_path, VALID))

    def invoke(arguments: list[str], stdin: str | None) -> Result:
        try:
            raise KeyError("thrasios")
        except KeyError as error:
            return _result("", exit_code=1, exception=error)

    [difference] = run(case, invoke)
    assert (
        difference.startswith("the command raised KeyError: 'thrasios' at ")
        and "test_scenarios.py" in difference
    )
