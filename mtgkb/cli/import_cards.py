"""``mtgkb import mtgjson`` and ``mtgkb import scryfall``: card dumps into the knowledge base."""

from __future__ import annotations

from pathlib import Path

import click

from mtgkb.cli import input_file, json_option, progress_reporter, quiet_option
from mtgkb.cli.imports import import_group
from mtgkb.cli.output import emit


@import_group.command("mtgjson")
@click.argument("file", type=input_file)
@quiet_option()
@json_option
def import_mtgjson_command(file: Path, quiet: bool, as_json: bool) -> None:
    """Import an MTGJSON AtomicCards file (JSON, plain or .gz).

    Every card with its faces, types, costs, colour identity, commander legality and rulings goes to
    the graph/mtgjson named graph, replacing an earlier MTGJSON import. Partner, ninjutsu and the
    other mechanics mtgkb reasons about are read from the Oracle text, not from keyword lists.

    \b
    Example:
      mtgkb import mtgjson AtomicCards.json.gz
    """
    from mtgkb.cli.render.imports_cards import render_card_import
    from mtgkb.importers.mtgjson import import_mtgjson

    emit(import_mtgjson(file, progress=progress_reporter(quiet)), as_json, render_card_import)


@import_group.command("scryfall")
@click.argument("file", type=input_file)
@click.option(
    "--rulings", "rulings", type=input_file, default=None, help="A Scryfall rulings file to import too."
)
@quiet_option()
@json_option
def import_scryfall_command(file: Path, rulings: Path | None, quiet: bool, as_json: bool) -> None:
    """Import Scryfall cards (oracle-cards or a card list) and rulings.

    FILE is a bulk card file such as oracle-cards, or any JSON list of Scryfall card objects;
    --rulings adds Scryfall's rulings file.

    Cards replace the graph/scryfall-cards named graph; with --rulings, the rulings replace
    graph/scryfall-rulings. Rulings are matched to cards by Oracle id, so pass the rulings together
    with the card file they belong to.

    \b
    Examples:
      mtgkb import scryfall oracle-cards.json --rulings rulings.json
      mtgkb import scryfall commanders.json --json
    """
    from mtgkb.cli.render.imports_cards import render_card_import
    from mtgkb.importers.scryfall import import_scryfall

    emit(
        import_scryfall(file, rulings_path=rulings, progress=progress_reporter(quiet)),
        as_json,
        render_card_import,
    )
