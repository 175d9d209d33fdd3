"""The README's examples, run on the whole pool (the rules, MTGJSON and the Scryfall commander list
imported), with their output checked line by line.

Each ```console block holds commands (``$ mtgkb …``) each followed by its output: stdout, then
stderr for a command that fails. A line holding only ``…`` stands for any number of lines (the
README leaves out official text); every other line must be there, in that order. The examples run
from the repository's folder (one reads examples/combat.yaml), and every command the README names
has one, but for those that change the store or work over the network.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mtgkb.cli import cli

README = Path(__file__).resolve().parents[1] / "README.md"
ELISION = "…"
#: Commands the README names without an example: each would change the pool's store, download, or
#: serve or send over the network.
NOT_RUN = {
    "import": "imports change the store",
    "fetch": "downloads",
    "build": "rebuilds the store",
    "serve": "runs a server until stopped",
    "push": "uploads to a triple store server",
}


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every console example."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``…`` line standing for any run of lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == ELISION:
        return any(matches(rest, actual[at:]) for at in range(len(actual) + 1))
    return bool(actual) and actual[0].rstrip() == head.rstrip() and matches(rest, actual[1:])


def test_the_readme_has_examples_to_run() -> None:
    commands = [command for command, _ in examples()]
    assert len(commands) >= 6 and all(command.startswith("mtgkb ") for command in commands)


def test_every_command_the_readme_names_has_an_example() -> None:
    named = set(re.findall(r"\bmtgkb ([a-z][a-z-]*)", README.read_text(encoding="utf-8"))) & set(cli.commands)
    shown = {shlex.split(command)[1] for command, _ in examples()}
    assert named - shown - set(NOT_RUN) == set()
    assert set(NOT_RUN) <= set(cli.commands)


@pytest.mark.parametrize(("command", "expected"), examples(), ids=[c for c, _ in examples()])
def test_a_readme_example_gives_the_output_shown(
    run_cli_on_pool, command: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(README.parent)
    result = run_cli_on_pool(*shlex.split(command)[1:], catch_exceptions=False)
    shown = result.stdout + (result.stderr if result.exit_code else "")
    actual = shown.rstrip("\n").splitlines()
    assert matches(expected, actual), "\n".join(["expected:", *expected, "", "got:", *actual])


def test_the_elision_matches_only_what_it_should() -> None:
    assert matches(["a", ELISION, "d"], ["a", "b", "c", "d"])
    assert matches(["a", "  …", "d"], ["a", "d"])
    assert not matches(["a", ELISION, "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])


def test_the_readmes_screenshots_are_there_small_and_made_by_the_script() -> None:
    images = re.findall(r"!\[[^\]]+\]\(([^)]+\.png)\)", README.read_text(encoding="utf-8"))
    assert {Path(image).name for image in images} >= {
        "explorer-landing.png",
        "explorer-card.png",
        "explorer-verdict.png",
    }
    script = (README.parent / "scripts" / "screenshots.py").read_text(encoding="utf-8")
    for image in images:
        path = README.parent / image
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
        assert path.stat().st_size < 600_000, f"{image} is too large for the repository"
        assert Path(image).name in script, f"{image} is not one scripts/screenshots.py writes"
