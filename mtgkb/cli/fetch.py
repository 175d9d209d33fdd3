"""``mtgkb fetch``: download the official files with a progress bar, then import them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from mtgkb.cli import cli, json_option, progress_reporter
from mtgkb.output import emit


@cli.group()
def fetch() -> None:
    """Download the official rules text or Scryfall's card data, then import it."""


@contextmanager
def _progress_bar(quiet: bool) -> Iterator[object]:
    """A download progress callback drawing one bar per file on stderr."""
    bars: dict[str, object] = {}

    def update(done: int, total: int | None, name: str) -> None:
        if quiet:
            return
        bar = bars.get(name)
        if bar is None:
            bar = click.progressbar(length=total or 0, label=f"downloading {name}", file=sys.stderr)
            bar.__enter__()
            bar.done = 0
            bars[name] = bar
        bar.update(done - bar.done)
        bar.done = done

    try:
        yield update
    finally:
        for bar in bars.values():
            bar.__exit__(None, None, None)


@fetch.command("rules")
@click.option("--url", default=None, help="The rules page, or the .txt file itself.")
@json_option
def fetch_rules_command(url: str | None, as_json: bool) -> None:
    """Download the newest Comprehensive Rules text and import it.

    \b
    Example:
      mtgkb fetch rules
    """
    from mtgkb.fetch import RULES_PAGE, fetch_rules

    with _progress_bar(as_json) as bar:
        result = fetch_rules(url or RULES_PAGE, bar, progress_reporter(as_json))
    emit(result, as_json)


@fetch.command("cards")
@click.option("--url", default=None, help="The Scryfall bulk-data listing to read.")
@json_option
def fetch_cards_command(url: str | None, as_json: bool) -> None:
    """Download Scryfall's oracle cards and rulings and import them.

    \b
    Example:
      mtgkb fetch cards
    """
    from mtgkb.fetch import SCRYFALL_BULK_DATA, fetch_cards

    with _progress_bar(as_json) as bar:
        result = fetch_cards(url or SCRYFALL_BULK_DATA, bar, progress_reporter(as_json))
    emit(result, as_json)
