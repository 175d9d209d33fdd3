"""``mtgkb import``: read published datasets into the knowledge base."""

from __future__ import annotations

from pathlib import Path

import click

from mtgkb.cli import cli, json_option, progress_reporter, quiet_option
from mtgkb.cli.output import emit
from mtgkb.core.errors import Interrupted


class _ImportGroup(click.Group):
    """Ctrl-C before an import's files are in place: nothing changed, and the user is told so."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted("nothing was imported; the data directory is as it was") from None


@cli.group("import", cls=_ImportGroup)
def import_group() -> None:
    """Import a published dataset you already have as a file.

    Each source is written to its own file in the data directory and loaded into its own named graph;
    importing the same source (or the same rules edition) again replaces it. The store is rebuilt
    afterwards. A file of the wrong kind is refused and changes nothing.

    \b
    Examples:
      mtgkb import rules "MagicCompRules 20260417.txt"
      mtgkb import mtgjson AtomicCards.json.gz
      mtgkb import scryfall oracle-cards.json --rulings rulings.json
    """


@import_group.command("rules")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@quiet_option()
@json_option
def import_rules_command(files: tuple[Path, ...], quiet: bool, as_json: bool) -> None:
    """Import Comprehensive Rules editions: one text file, many, or folders of them.

    Reads the .txt files Wizards of the Coast has published since 2003 in whichever encoding each
    has (UTF-8 with or without a byte-order mark, Windows-1252, Latin-1, UTF-16 in either byte
    order) and with any line endings: every numbered rule and subrule with its exact text, its
    parent, the rules it refers to and the glossary. Each edition is named by the date its text
    states ("effective as of", "current as of" before 2009). The newest edition named is the one
    rule lookups show; every edition goes into the rules history ('mtgkb rule 702.49 --history').
    A file that is not a CR edition stops the import before anything is written.

    \b
    Examples:
      mtgkb import rules "MagicCompRules 20260417.txt"
      mtgkb import rules ../shared/data/rules/history ../shared/data/rules/MagicCompRules-20260417.txt
      mtgkb rules diff 2026-01-16 2026-04-17
    """
    from mtgkb.cli.render.rules import render_import
    from mtgkb.importers.cr_import import import_rules

    emit(import_rules(list(files), progress=progress_reporter(quiet)), as_json, render_import)


@import_group.command("drop")
@click.argument("names", nargs=-1, required=True, metavar="NAME...")
@quiet_option()
@json_option
def drop_command(names: tuple[str, ...], quiet: bool, as_json: bool) -> None:
    """Remove imported files from the data directory, then update the store without them.

    NAME is a file under imports/ as 'mtgkb import' wrote it (mtgjson.nq.gz) or its name without
    the suffix (mtgjson, cr-2026-04-17, scryfall-cards). The way out when an imported file is
    damaged and no store can be built with it; importing the dataset again brings it back.

    \b
    Example:
      mtgkb import drop mtgjson
    """
    from mtgkb.cli.render.kb import render_drop
    from mtgkb.importers.drop import drop_imports

    emit(drop_imports(list(names), progress_reporter(quiet or as_json)), as_json, render_drop)
