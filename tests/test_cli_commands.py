"""Commands are loaded when named: the table that says which module defines each command must match
what the modules register, or a command would be missing (or load the wrong module) when run alone."""

from __future__ import annotations

import json
import subprocess
import sys

from mtgkb.cli import COMMAND_MODULES, _register_commands, cli


def test_every_command_is_in_the_table_with_its_module() -> None:
    _register_commands()
    defined: dict[str, set[str]] = {}
    for name, command in cli.commands.items():
        modules = {command.callback.__module__} if command.callback else set()
        if hasattr(command, "commands"):  # a group: its subcommands may live in other modules
            modules |= {sub.callback.__module__ for sub in command.commands.values() if sub.callback}
        defined[name] = {module.removeprefix("mtgkb.cli.") for module in modules}
    assert {name: set(modules) for name, modules in COMMAND_MODULES.items()} == defined


def test_a_command_run_alone_loads_only_its_own_modules() -> None:
    # A new process, as a user runs it: `mtgkb rule --help` must not load the verdict or serve commands.
    script = (
        "import sys\n"
        "from mtgkb.cli import main\n"
        "sys.argv = ['mtgkb', 'rule', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import json\n"
        "print(json.dumps([m for m in sys.modules if m.startswith('mtgkb.cli.') and m.count('.') == 2]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out.strip().splitlines()[-1])
    assert "mtgkb.cli.lookups" in loaded
    assert not {"mtgkb.cli.verdicts", "mtgkb.cli.serve", "mtgkb.cli.export"} & set(loaded)


def test_help_lists_every_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mtgkb", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name in COMMAND_MODULES:
        assert f"  {name} " in out or f"  {name}\n" in out, name


def test_a_misspelled_command_gets_a_suggestion() -> None:
    # In a new process, where no command is loaded before the name is looked up.
    run = subprocess.run(
        [sys.executable, "-m", "mtgkb", "crad", "Storm Crow"], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert "Did you mean 'card'?" in run.stderr
