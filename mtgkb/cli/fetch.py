"""``mtgkb fetch``: download the official files with a progress bar, then import them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from mtgkb.cli import cli, json_option, progress_reporter
from mtgkb.cli.output import emit

if TYPE_CHECKING:
    from mtgkb.importers.fetch import DownloadProgress, FetchResult


@cli.group()
def fetch() -> None:
    """Download the official rules text or Scryfall's card data, then import it."""


@contextmanager
def _progress_bar(quiet: bool) -> Iterator[DownloadProgress]:
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


timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=None,
    metavar="SECONDS",
    help="Stop once the downloads have taken SECONDS in all, however slowly the server sends "
    "(default 1800; 0: no limit). A read that waits 60 s for data stops sooner.",
)


def _download_and_import(
    fetch_and_import: Callable[..., FetchResult], url: str, as_json: bool, timeout: float | None
) -> None:
    """Run one of the library's fetch functions with progress on stderr (none with --json)."""
    from mtgkb.importers.fetch import DEFAULT_TIMEOUT

    limit = DEFAULT_TIMEOUT if timeout is None else timeout or None
    with _progress_bar(as_json) as bar:
        result = fetch_and_import(url, bar, progress_reporter(as_json), timeout=limit)
    from mtgkb.cli.render.fetch import render_fetch

    emit(result, as_json, render_fetch)


@fetch.command("rules")
@click.option("--url", default=None, help="The rules page, or the .txt file itself.")
@timeout_option
@json_option
def fetch_rules_command(url: str | None, timeout: float | None, as_json: bool) -> None:
    """Download the newest Comprehensive Rules text and import it.

    \b
    Example:
      mtgkb fetch rules
    """
    from mtgkb.importers.fetch import RULES_PAGE, fetch_rules

    _download_and_import(fetch_rules, url or RULES_PAGE, as_json, timeout)


@fetch.command("cards")
@click.option("--url", default=None, help="The Scryfall bulk-data listing to read.")
@timeout_option
@json_option
def fetch_cards_command(url: str | None, timeout: float | None, as_json: bool) -> None:
    """Download Scryfall's oracle cards and rulings and import them.

    \b
    Example:
      mtgkb fetch cards
    """
    from mtgkb.importers.fetch import SCRYFALL_BULK_DATA, fetch_cards

    _download_and_import(fetch_cards, url or SCRYFALL_BULK_DATA, as_json, timeout)
