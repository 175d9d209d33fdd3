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
@click.option(
    "--impact",
    is_flag=True,
    help="For each rule added, removed or changed: what in our graph cites it (mechanics, requirements, "
    "concepts, our summary, scenario files) and how many cards depend on it.",
)
@json_option
def diff_command(old: str, new: str | None, impact: bool, as_json: bool) -> None:
    """Rules added, removed and changed from edition OLD to edition NEW.

    Editions are named by effective date (2026-04-17 or 20260417); NEW defaults to the newest
    imported edition. Changed rules are shown with their old and new text. --impact lists instead,
    for each rule that something of ours cites, what cites it: a new edition as a to-do list.

    \b
    Example:
      mtgkb rules diff 2026-01-16 2026-04-17
      mtgkb rules diff 2026-01-16 --json
      mtgkb rules diff 2026-01-16 2026-04-17 --impact
    """
    from mtgkb.app import open_kb
    from mtgkb.lookups.rules_diff import diff_editions, resolve_edition

    kb = open_kb(progress_reporter())
    if impact:
        from mtgkb.cli.render.rules import render_impact
        from mtgkb.lookups.rules_impact import edition_impact

        emit(edition_impact(kb, old, new or resolve_edition(kb)), as_json, render_impact)
        return
    from mtgkb.cli.render.rules import render_diff

    emit(diff_editions(kb, old, new or resolve_edition(kb)), as_json, render_diff)
