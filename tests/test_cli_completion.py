"""Shell completion (bash, zsh, fish) offers commands, options, steps and the names of the name
index, in a new process as the shell runs it, without opening or building the store; and `mtgkb`
alone prints its usage instead of a traceback."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT


def complete(shell: str, words: list[str], env: dict[str, str] | None = None) -> list[str]:
    """What `mtgkb` offers for the last of ``words`` (the first being 'mtgkb'), as ``shell`` calls it:
    the completion values, without their type and help."""
    environment = {**os.environ, **(env or {}), "_MTGKB_COMPLETE": f"{shell}_complete"}
    # The shells pass the words as typed, quotes and all: the earlier ones are quoted here.
    typed = [*(shlex.quote(word) for word in words[:-1]), words[-1]]
    if shell == "bash":  # the bash script joins the words with newlines (IFS), as here
        environment |= {"COMP_WORDS": "\n".join(typed), "COMP_CWORD": str(len(words) - 1)}
    elif shell == "zsh":
        environment |= {"COMP_WORDS": " ".join(typed), "COMP_CWORD": str(len(words) - 1)}
    else:  # fish gives the line up to the cursor, and the word being completed
        environment |= {"COMP_WORDS": " ".join(typed), "COMP_CWORD": words[-1]}
    run = subprocess.run(
        [sys.executable, "-m", "mtgkb"], env=environment, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    if shell == "zsh":  # type, value, help: three lines per item
        lines = run.stdout.splitlines()
        return [lines[i + 1] for i in range(0, len(lines) - 2, 3)]
    return [line.split(",", 1)[1].split("\t")[0] for line in run.stdout.splitlines() if "," in line]


@pytest.fixture(scope="module")
def built(kb) -> dict[str, str]:
    """The environment of the session's bundled store, built before the completions run."""
    return {"MTGKB_CACHE_DIR": os.environ["MTGKB_CACHE_DIR"], "MTGKB_DATA_DIR": os.environ["MTGKB_DATA_DIR"]}


def test_mtgkb_alone_prints_its_usage_not_a_traceback() -> None:
    run = subprocess.run([sys.executable, "-m", "mtgkb"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2  # click's status for "no command given"
    output = run.stdout + run.stderr
    assert "Usage: mtgkb" in output and "can-activate" in output
    assert "Traceback" not in output


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_command_names_and_options_complete_in_every_shell(shell: str, built: dict[str, str]) -> None:
    assert {"can-activate", "can-cast", "card"} <= set(complete(shell, ["mtgkb", "ca"], built))
    # The command is loaded when named, and its options complete.
    options = complete(shell, ["mtgkb", "can-activate", "--u"], built)
    assert options == ["--unblocked"]
    assert set(complete(shell, ["mtgkb", "export", "--view", ""], built)) >= {"partners", "turn", "around"}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_card_names_complete_quoted_as_each_shell_needs(shell: str, built: dict[str, str]) -> None:
    offered = complete(shell, ["mtgkb", "card", "yuri"], built)
    # bash inserts the text as it is, so it comes escaped; zsh and fish quote it themselves.
    expected = "Yuriko,\\ the\\ Tiger\\'s\\ Shadow" if shell == "bash" else "Yuriko, the Tiger's Shadow"
    assert offered == [expected]


def test_an_opened_quote_gets_the_name_as_it_is(built: dict[str, str]) -> None:
    assert complete("bash", ["mtgkb", "timing", '"Yuriko, the T'], built) == ["Yuriko, the Tiger's Shadow"]


def test_a_name_of_several_words_completes_from_the_words_given(built: dict[str, str]) -> None:
    assert complete("zsh", ["mtgkb", "card", "yuriko", "the", "t"], built) == ["Tiger's Shadow"]


def test_steps_mechanics_and_situation_cards_complete(built: dict[str, str]) -> None:
    words = ["mtgkb", "can-activate", "Ninja of the Deep Hours", "--step", "declare-"]
    assert complete("zsh", words, built) == ["declare-attackers", "declare-blockers"]
    assert "precombat-main" in complete("zsh", ["mtgkb", "options", "--step", "pre"], built)
    words = ["mtgkb", "can-activate", "Ninja of the Deep Hours", "--unblocked", "grizzly"]
    assert complete("zsh", words, built) == ["Grizzly Bears"]
    # rulings name a mechanic, step, zone or concept before a card.
    offered = complete("zsh", ["mtgkb", "rulings", "comm"], built)
    assert {"command zone", "commander tax", "Commander ninjutsu"} <= set(offered)
    assert offered.index("Commander ninjutsu") < offered.index("command zone")
    assert complete("zsh", ["mtgkb", "query", "card-"], built) == ["card-rulings"]


def test_completion_never_builds_the_store(tmp_path: Path) -> None:
    env = {"MTGKB_CACHE_DIR": str(tmp_path / "cache"), "MTGKB_DATA_DIR": str(tmp_path / "data")}
    assert complete("bash", ["mtgkb", "card", "yuri"], env) == []
    assert complete("bash", ["mtgkb", "can-"], env) == ["can-activate", "can-cast"]
    assert not (tmp_path / "cache" / "stores").exists()


@pytest.mark.parametrize(
    ("shell", "marker"), [("bash", "complete -o nosort"), ("zsh", "compdef"), ("fish", "complete")]
)
def test_each_shell_gets_its_script_and_the_readme_says_how_to_install_it(shell: str, marker: str) -> None:
    environment = {**os.environ, "_MTGKB_COMPLETE": f"{shell}_source"}
    run = subprocess.run([sys.executable, "-m", "mtgkb"], env=environment, capture_output=True, text=True)
    assert run.returncode == 0 and marker in run.stdout
    assert f"_MTGKB_COMPLETE={shell}_source mtgkb" in (REPO_ROOT / "README.md").read_text(encoding="utf-8")
