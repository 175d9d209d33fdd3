"""The lookup commands as a judge runs them: text for a hit, exit 2 with a hint and no traceback for a
mistake, JSON that parses. Runs against the fixture knowledge base in tests/fixtures/lookups."""

from __future__ import annotations

import json

import pytest


def test_card_text(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("card", "Yuriko,", "the", "Tiger's", "Shadow", env=small_kb_env)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Yuriko, the Tiger's Shadow   {1}{U}{B}"
    assert "Commander ninjutsu {U}{B}" in result.stdout
    assert "CR 702.49d  Commander ninjutsu" in result.stdout
    assert "2021-03-19" in result.stdout
    # The official wording is shown where imported; elsewhere the summary, marked as ours.
    assert "Fixture official wording" in result.stdout
    assert "Summary (our words" in result.stdout


def test_card_typo_exits_2_with_did_you_mean(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("card", "Thrasois", env=small_kb_env)
    assert result.exit_code == 2
    assert "did you mean 'Thrasios, Triton Hero'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""


def test_ambiguous_card_lists_the_candidates(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("card", "sakashima", env=small_kb_env)
    assert result.exit_code == 2
    assert "Sakashima's Student" in result.stderr and "Sakashima the Impostor" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("card", "thrasios"),
        ("rulings", "ninjutsu"),
        ("rule", "702.49d"),
        ("rule", "702.49d", "--edition", "2026-01-16"),
        ("search", "unblocked", "attacker", "--limit", "1"),
    ],
)
def test_json_parses(run_cli, small_kb_env: dict[str, str], args: tuple[str, ...]) -> None:
    result = run_cli(*args, "--json", env=small_kb_env)
    assert result.exit_code == 0, result.stderr
    assert isinstance(json.loads(result.stdout), dict)


def test_card_json_fields(run_cli, small_kb_env: dict[str, str]) -> None:
    data = json.loads(run_cli("card", "brallin", "--json", env=small_kb_env).stdout)
    assert data["name"] == "Brallin, Skyshark Rider"
    parameters = data["abilities"][0]["parameters"]
    assert {"name": "partner with name", "value": "Shabraz, the Skyshark"}.items() <= parameters[1].items()
    assert "partner with: Shabraz, the Skyshark" in run_cli("card", "brallin", env=small_kb_env).stdout


def test_rulings_text_names_the_cards(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("rulings", "ninjutsu", env=small_kb_env)
    assert result.exit_code == 0, result.stderr
    assert "Rulings that mention the mechanic Ninjutsu: 2" in result.stdout
    assert result.stdout.index("2020-01-01  Ninja of the Deep Hours") < result.stdout.index("2018-08-10")


def test_rule_text(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("rule", "702.49d", env=small_kb_env)
    assert result.exit_code == 0, result.stderr
    assert "Official text (2026-04-17 edition):" in result.stdout
    assert "Newer fixture wording" in result.stdout
    assert "card         Yuriko, the Tiger's Shadow  (through Commander ninjutsu)" in result.stdout


def test_malformed_rule_number(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("rule", "abc", env=small_kb_env)
    assert result.exit_code == 2
    assert "not a rule number" in result.stderr and "702.49d" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_rule_suggests_neighbours(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("rule", "702.49z", env=small_kb_env)
    assert result.exit_code == 2
    assert "did you mean" in result.stderr and "702.49d" in result.stderr


def test_search_text_and_no_match(run_cli, small_kb_env: dict[str, str]) -> None:
    result = run_cli("search", "commander", "tax", env=small_kb_env)
    assert result.exit_code == 0, result.stderr
    assert "CR 903.8 Commander tax" in result.stdout
    empty = run_cli("search", "xyzzy", env=small_kb_env)
    assert empty.exit_code == 0
    assert "No card, rule or ruling" in empty.stdout


def test_search_limit_must_be_positive(run_cli, small_kb_env: dict[str, str]) -> None:
    assert run_cli("search", "ninjutsu", "--limit", "0", env=small_kb_env).exit_code == 2


@pytest.mark.parametrize("command", ["card", "rulings", "rule", "search"])
def test_help_shows_an_example(run_cli, small_kb_env: dict[str, str], command: str) -> None:
    result = run_cli(command, "--help", env=small_kb_env)
    assert result.exit_code == 0
    assert f"mtgkb {command} " in result.stdout
    assert "--json" in result.stdout


def test_limit_caps_the_subrules_too(run_cli, kb) -> None:
    """`rule 702.124 --limit 3` listed all 13 subrules."""
    full = json.loads(run_cli("rule", "702.124", "--limit", "0", "--json").stdout)
    assert len(full["subrules"]) == full["subrules_total"] > 3
    capped = json.loads(run_cli("rule", "702.124", "--limit", "3", "--json").stdout)
    assert capped["subrules"] == full["subrules"][:3]
    assert capped["subrules_total"] == full["subrules_total"]
    text = run_cli("rule", "702.124", "--limit", "3").stdout
    section = text.split(f"Subrules ({full['subrules_total']}):", 1)[1].split("\n\n", 1)[0]
    assert [line for line in section.splitlines() if line.startswith("  CR ")] == [
        f"  CR {node['number']}" + (f"  {node['label']}" if node["label"] else "")
        for node in full["subrules"][:3]
    ]
    assert f"… and {full['subrules_total'] - 3} more" in section
