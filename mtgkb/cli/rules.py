"""``mtgkb rules``: the imported Comprehensive Rules editions and how they differ."""

from __future__ import annotations

import click

from mtgkb.cli import cli, json_option, progress_reporter
from mtgkb.cli.output import emit


@cli.group("rules")
def rules_group() -> None:
    """Imported Comprehensive Rules editions: list them, compare two.

    \b
    Examples:
      mtgkb rules editions
      mtgkb rules diff 2026-01-16 2026-04-17
    """


@rules_group.command("editions")
@json_option
def editions_command(as_json: bool) -> None:
    """List the imported editions, newest (the default) first.

    \b
    Example:
      mtgkb rules editions --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.rules import render_editions
    from mtgkb.lookups.rules_diff import list_editions

    emit(list_editions(open_kb(progress_reporter())), as_json, render_editions)


@rules_group.command("diff")
@click.argument("old")
@click.argument("new", required=False)
@json_option
def diff_command(old: str, new: str | None, as_json: bool) -> None:
    """Rules added, removed and changed from edition OLD to edition NEW.

    Editions are named by effective date (2026-04-17 or 20260417); NEW defaults to the newest
    imported edition. Changed rules are shown with their old and new text.

    \b
    Example:
      mtgkb rules diff 2026-01-16 2026-04-17
      mtgkb rules diff 2026-01-16 --json
    """
    from mtgkb.app import open_kb
    from mtgkb.lookups.rules_diff import diff_editions, resolve_edition

    kb = open_kb(progress_reporter())
    from mtgkb.cli.render.rules import render_diff

    emit(diff_editions(kb, old, new or resolve_edition(kb)), as_json, render_diff)
