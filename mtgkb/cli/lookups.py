"""The judge's lookups: a card, rulings, a rule, free-text search."""

from __future__ import annotations

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter
from mtgkb.cli.output import emit

#: ``--limit`` of the lists that can run to hundreds (rulings on a zone, cards citing a rule).
limit_option = click.option(
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(min=0),
    help="Show at most this many (0: all); the total is always given.",
)


@cli.command()
@click.argument("name", nargs=-1, required=True, shell_complete=completion.CARDS)
@json_option
def card(name: tuple[str, ...], as_json: bool) -> None:
    """Show a card: cost, types, abilities with the rules they rest on, rulings.

    NAME ignores case, accents and punctuation, and may be a unique start of the name or the part
    before its comma; quotes are optional.

    \b
    Examples:
      mtgkb card "Yuriko, the Tiger's Shadow"
      mtgkb card thrasios
      mtgkb card brallin skyshark --json
    """
    from mtgkb.app import card_with_timing, open_kb
    from mtgkb.cli.render.lookups import render_card

    emit(card_with_timing(open_kb(progress_reporter()), " ".join(name)), as_json, render_card)


@cli.command()
@click.argument("name", nargs=-1, required=True, shell_complete=completion.RULINGS_SUBJECTS)
@limit_option
@json_option
def rulings(name: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Rulings on a card, or rulings that mention a mechanic, step, zone or rules concept, newest
    first.

    Shows the official wording once card data has been imported, else our summary (marked).
    When a name fits both, a mechanic, step, zone or concept wins over a card.

    \b
    Examples:
      mtgkb rulings "Ninja of the Deep Hours"
      mtgkb rulings ninjutsu
      mtgkb rulings "commander tax" --limit 5
      mtgkb rulings declare blockers --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.lookups import render_rulings
    from mtgkb.lookups.rulings import rulings_report

    emit(rulings_report(open_kb(progress_reporter()), " ".join(name), limit or None), as_json, render_rulings)


@cli.command()
@click.argument("number")
@click.option("--edition", metavar="DATE", default=None, help="Official text of this edition (YYYY-MM-DD).")
@click.option(
    "--depth",
    type=click.IntRange(min=0),
    default=None,
    help="Levels of subrules shown with their text (default: 1 for a rule with a handful, else 0).",
)
@click.option(
    "--history",
    "show_history",
    is_flag=True,
    help="Every text the rule had across the imported editions, through renumberings, with word diffs.",
)
@limit_option
@json_option
def rule(
    number: str, edition: str | None, depth: int | None, limit: int, show_history: bool, as_json: bool
) -> None:
    """Show a Comprehensive Rules rule: summary, official text, subrules, what cites it.

    The official text is that of the newest imported edition unless --edition names another.
    --history shows the rule's lineage instead: each edition it changed in, the number it had then
    and a word diff, back to its first edition (and its subrules' too).
    --limit caps each list: subrules, references and what cites the rule.

    \b
    Examples:
      mtgkb rule 702.49d
      mtgkb rule 702.49 --depth 0
      mtgkb rule 903.8 --edition 2026-04-17 --limit 5
      mtgkb rule 702.49 --json
      mtgkb rule 702.49 --history
    """
    if show_history:
        # From the history file alone: no store to open, so the answer is as quick as a start-up.
        from mtgkb.cli.render.rules import render_history
        from mtgkb.lookups.rule_history import rule_history

        emit(rule_history(number, edition), as_json, render_history)
        return
    from mtgkb.app import open_kb
    from mtgkb.cli.render.lookups import render_rule
    from mtgkb.lookups.rule import rule_report

    emit(
        rule_report(open_kb(progress_reporter()), number, edition, depth, limit or None), as_json, render_rule
    )


@cli.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(min=1), help="Hits per kind.")
@json_option
def search(text: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Find cards, rules and rulings holding every word of TEXT (any case, any accents).

    Cards match on name, type line and oracle text, rules on number, title, summary and official
    text, rulings on official text, summary, card name and date. A word of three or more letters
    also matches longer words it begins; put a phrase in double quotes (inside single quotes for
    the shell) to match exactly those words in that order. Best matches first. The first search
    on a new store builds its full-text index, which takes a few seconds.

    \b
    Examples:
      mtgkb search unblocked attacker
      mtgkb search "commander tax" --limit 3 --json
      mtgkb search '"return an unblocked attacker"'
    """
    from mtgkb.app import open_kb
    from mtgkb.lookups.search import search as run_search

    progress = progress_reporter()
    from mtgkb.cli.render.lookups import render_search

    emit(run_search(open_kb(progress), " ".join(text), limit, progress), as_json, render_search)
