"""Judge scenarios, written as data: tests/scenarios/*.json.

Each file holds one scenario: a sentence naming it, the situation (an mtgkb command run with --json,
and for the verdict commands the game state as ``game``, handed to the command as ``--situation -``),
what the answer must say (checks on paths into the JSON; for bad input, exit code 2 and
``error_includes``, phrases the message must hold), the citations the answer must carry and the
source of the expected answer. A path is dot-separated; ``*`` walks every item of a list and the
values found are compared as a set (``set``), searched (``includes`` / ``excludes``), must all
equal ``equals``, or (``includes_rows`` / ``excludes_rows``) must or must not hold an item whose
sub-paths have the given values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mtgkb.cli import _register_commands, cli

_register_commands()
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def values_at(document: Any, path: str) -> list[Any]:
    found = [document]
    for part in path.split(".") if path else []:
        step: list[Any] = []
        for value in found:
            if part == "*" and isinstance(value, list):
                step.extend(value)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                step.append(value[int(part)])
            elif isinstance(value, dict) and part in value:
                step.append(value[part])
        found = step
    return found


def strings_in(document: Any) -> set[str]:
    if isinstance(document, dict):
        return set().union(*(strings_in(v) for v in document.values())) if document else set()
    if isinstance(document, list):
        return set().union(*(strings_in(v) for v in document)) if document else set()
    return {document} if isinstance(document, str) else set()


def check(document: Any, expectation: dict[str, Any]) -> None:
    found = values_at(document, expectation["path"])
    assert found, f"nothing at {expectation['path']}"
    if "equals" in expectation:
        assert all(v == expectation["equals"] for v in found), (expectation, found)
    if "set" in expectation:
        assert set(found) == set(expectation["set"]), (expectation, found)
    if "includes" in expectation:
        missing = [v for v in expectation["includes"] if v not in found]
        assert not missing, f"{expectation['path']} lacks {missing}; found {found}"
    if "excludes" in expectation:
        present = [v for v in expectation["excludes"] if v in found]
        assert not present, f"{expectation['path']} should not hold {present}"
    for row in expectation.get("includes_rows", []):
        assert any(matches(item, row) for item in found), f"no item at {expectation['path']} matches {row}"
    for row in expectation.get("excludes_rows", []):
        assert not any(matches(item, row) for item in found), (
            f"an item at {expectation['path']} matches {row}"
        )


def matches(item: Any, row: dict[str, Any]) -> bool:
    """``row`` maps sub-paths of ``item`` to the value each must hold."""
    return all(value in values_at(item, path) for path, value in row.items())


@pytest.mark.parametrize("scenario_file", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(scenario_file: Path, kb) -> None:
    scenario = json.loads(scenario_file.read_text(encoding="utf-8"))
    assert scenario["scenario"] and scenario["source"], "every scenario names itself and its source"
    situation = scenario["situation"]
    arguments = [*situation["command"], "--json"]
    game = None
    if "game" in situation:
        arguments += ["--situation", "-"]
        game = json.dumps(situation["game"])
    result = CliRunner().invoke(cli, arguments, input=game)
    assert result.exit_code == scenario.get("exit_code", 0), result.stderr
    assert "Traceback" not in result.stderr
    message = result.stderr + result.stdout  # with --json an error is a JSON object on stdout
    for text in scenario.get("error_includes", []):
        assert text in message, f"the error does not say {text!r}: {message}"
    if result.exit_code == 2 and not scenario.get("expect"):
        return
    answer = json.loads(result.stdout)
    for expectation in scenario["expect"]:
        check(answer, expectation)
    strings = strings_in(answer)
    for number in scenario.get("cites", []):
        assert number in strings or any(s.endswith(f"/cr/{number}") for s in strings), (
            f"the answer does not cite CR {number}"
        )


def test_the_checks_reject_a_wrong_answer() -> None:
    answer = {"abilities": [{"cost": "{1}{U}{B}"}], "rows": [{"a": {"value": "x"}}]}
    for wrong in (
        {"path": "abilities.*.cost", "includes": ["{U}{B}"]},
        {"path": "abilities.*.cost", "excludes": ["{1}{U}{B}"]},
        {"path": "abilities.*.cost", "set": ["{U}{B}"]},
        {"path": "rows.*", "includes_rows": [{"a.value": "y"}]},
        {"path": "rows.*", "excludes_rows": [{"a.value": "x"}]},
        {"path": "missing.path", "equals": 1},
    ):
        with pytest.raises(AssertionError):
            check(answer, wrong)
