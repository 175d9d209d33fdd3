"""The ``mtgkb`` command line: a thin layer that parses options, calls the library and hands the
result to :mod:`mtgkb.cli.output`. One module per command group; each registers its commands on ``cli``.
The top layer: may import anything in mtgkb; nothing imports it but ``__main__`` and the other front
end beside it, ``mtgkb.serve`` (for the JSON ``--json`` prints)."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from mtgkb import __version__
from mtgkb.core.errors import AnswerCutShort, Interrupted, MtgkbError, shown

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
#: A file a command reads: click checks that it exists before the command runs.
input_file = click.Path(exists=True, dir_okay=False, path_type=Path)


def quiet_option(silenced: str = "progress messages") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--quiet``/``-q``, passed to the command as ``quiet``: no ``silenced`` on stderr."""
    return click.option("--quiet", "-q", is_flag=True, help=f"No {silenced} on stderr.")


#: The modules under mtgkb.cli that define each command: a command loads only its own (a quick
#: SPARQL query does not pay for importing the verdict, export and serve commands).
#: tests/test_cli_commands.py checks this table against what every module registers.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "build": ("kb",),
    "validate": ("kb",),
    "stats": ("kb",),
    "card": ("lookups",),
    "rulings": ("lookups",),
    "rule": ("lookups",),
    "search": ("lookups",),
    "can-activate": ("verdicts",),
    "can-cast": ("verdicts",),
    "options": ("verdicts",),
    "timing": ("verdicts",),
    "commanders": ("commanders",),
    "partners": ("commanders",),
    "copy": ("copy",),
    "export": ("export",),
    "fetch": ("fetch",),
    "import": ("imports", "import_cards"),
    "push": ("push",),
    "rules": ("rules",),
    "serve": ("serve",),
    "sparql": ("sparql",),
    "queries": ("sparql",),
    "query": ("sparql",),
}


class _Group(click.Group):
    """Turns user mistakes into a message and exit status 2 instead of a traceback; with ``--json``
    (or ``--format json``) the message is a JSON object on stdout, like every other answer. Ctrl-C
    exits 130 (click's own handler would print "Aborted!" and exit 1). Commands are loaded when
    named (see COMMAND_MODULES); listing them loads them all."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            import importlib

            if cmd_name not in COMMAND_MODULES:
                _register_commands()  # click suggests the nearest of the commands it knows
            for module in COMMAND_MODULES.get(cmd_name, ()):
                importlib.import_module(f"{__name__}.{module}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        _register_commands()
        return super().list_commands(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        pairs = itertools.pairwise([*args, ""])  # each argument and the next
        ctx.meta["mtgkb.json"] = "--json" in args or any(
            a == "--format=json" or (a == "--format" and b == "json") for a, b in pairs
        )
        # Bytes that are not UTF-8 reach Python as lone surrogates, which no output, SQLite or
        # Oxigraph can take: refuse them here rather than fail deep inside a lookup.
        for arg in args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                try:
                    text = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                except UnicodeEncodeError:  # a surrogate no byte gives, e.g. from a Python caller
                    text = arg.encode("utf-8", "backslashreplace").decode("utf-8")
                raise click.UsageError(f"the argument '{shown(text)}' is not UTF-8 text", ctx) from None
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a failed write must fail the command, not vanish at exit
            return result
        except BrokenPipeError:
            # The reader went away (| head): stop quietly, as other tools do.
            _stdout_to_devnull()
            ctx.exit(141)
        except OSError as error:
            if error.errno not in _WRITE_ERRORS:
                _report(ctx, _store_damage(error))
            _stdout_to_devnull()
            click.echo(f"Error: cannot write the output: {error.strerror}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(Interrupted.exit_code)
        except MtgkbError as error:
            _report(ctx, error)
        except RuntimeError as error:  # how pyoxigraph passes on RocksDB finding the store damaged
            _report(ctx, _store_damage(error))
        except click.UsageError as error:
            error.message = shown(error.message, 300)  # click quotes an unknown option whole
            if not ctx.meta.get("mtgkb.json"):
                raise
            hint = f"see '{error.ctx.command_path} --help'" if error.ctx else None
            _json_error(error.format_message(), hint, error.exit_code, None)
            ctx.exit(error.exit_code)


def _store_damage(error: Exception) -> MtgkbError:
    """The message for RocksDB's report of damage in the store's files (the store is set aside, see
    :func:`mtgkb.kb.store_files.store_damage`); any other error is raised again as it was."""
    from mtgkb.kb.store import current_store_path
    from mtgkb.kb.store_files import store_damage

    damage = store_damage(error, current_store_path())
    if damage is None:
        raise error
    return damage


def _report(ctx: click.Context, error: MtgkbError) -> None:
    """The message and hint of ``error`` on stderr (a JSON object on stdout with --json), and its
    exit status."""
    if ctx.meta.get("mtgkb.json") and not isinstance(error, AnswerCutShort):
        _json_error(error.message, error.hint, error.exit_code, error)
    else:
        label = "Interrupted" if isinstance(error, Interrupted) else "Error"
        click.echo(f"{label}: {error.message}", err=True)
        if error.hint:
            click.echo(f"Hint: {error.hint}", err=True)
    ctx.exit(error.exit_code)


# Errors of writing the answer itself: a full disk, a file past its size limit, a failing device.
_WRITE_ERRORS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is left cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _json_error(message: str, hint: str | None, exit_code: int, error: MtgkbError | None) -> None:
    import json

    document: dict[str, Any] = {"error": message, "hint": hint, "exit_code": exit_code}
    for extra in ("suggestions", "candidates"):
        if hasattr(error, extra):
            document[extra] = getattr(error, extra)
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mtgkb")
def cli() -> None:
    """Magic: The Gathering rules knowledge with citations.

    \b
    Examples:
      mtgkb card "Yuriko, the Tiger's Shadow"
      mtgkb rule 702.49d
      mtgkb rulings ninjutsu --json
    """


def _register_commands() -> None:
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def progress_reporter(quiet: bool = False) -> Callable[[str], None] | None:
    """The progress callback handed to library functions: bars on a terminal, a line per tenth
    elsewhere, on stderr so stdout stays clean data."""
    if quiet:
        return None
    from mtgkb.cli.progress_display import ProgressDisplay

    return ProgressDisplay(sys.stderr)


def main() -> None:
    code: int | str | None = 0
    try:
        cli(prog_name="mtgkb")
    except SystemExit as exit:
        code = exit.code
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = 130
    from mtgkb.kb.query_limits import query_running

    if query_running():
        # A query stopped by its time limit, Ctrl-C or a failed write may still run in Oxigraph's
        # native code, which the interpreter's clean-up would cut short mid-way (a crash): leave now.
        if isinstance(code, str):
            sys.stderr.write(code + "\n")
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code if isinstance(code, int) else 0 if code is None else 1)
    sys.exit(code)
