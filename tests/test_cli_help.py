"""Every command explains itself: a docstring with an example, and --json for tools."""

from __future__ import annotations

import click
import pytest

from mtgkb.cli import cli


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        path = (*prefix, name)
        if isinstance(command, click.Group):
            found += _commands(command, path)
        else:
            found.append(path)
    return found


COMMANDS = _commands(cli)


def test_the_commands_judges_and_tools_need_are_there() -> None:
    names = {" ".join(path) for path in COMMANDS}
    expected = {
        "build",
        "stats",
        "validate",
        "card",
        "rulings",
        "rule",
        "search",
        "sparql",
        "queries",
        "query",
        "serve",
        "push",
    }
    assert expected | {"export", "import rules", "import mtgjson", "import scryfall", "fetch rules"} <= names


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_command_has_help_with_an_example_and_json_output(run_cli, path: tuple[str, ...]) -> None:
    result = run_cli(*path, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout, f"'mtgkb {' '.join(path)} --help' shows no example"
    assert "--json" in result.stdout, f"'mtgkb {' '.join(path)}' has no --json"


def test_an_unknown_command_exits_2_with_a_suggestion(run_cli) -> None:
    result = run_cli("crad", "Yuriko")
    assert result.exit_code == 2
    assert "Did you mean 'card'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_example_is_a_command_line_as_typed(run_cli, path: tuple[str, ...]) -> None:
    """A line continuation in a docstring used to join two example lines with a run of spaces."""
    result = run_cli(*path, "--help")
    lines = result.stdout.split("Example", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    continued = False
    for line in lines:
        text = line.strip()
        assert text.split(" ", 1)[0] in ("mtgkb", "curl") or " | mtgkb " in text or continued, (
            f"{line!r} is not an example command"
        )
        assert "   " not in text, f"{line!r} holds a run of spaces: a lost line break?"
        continued = text.endswith(" \\")
    assert lines and not continued
