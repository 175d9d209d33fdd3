"""Commands that look after the knowledge base itself: build, stats, validate."""

from __future__ import annotations

import click

from mtgkb.cli import cli, json_option, progress_reporter
from mtgkb.output import emit


@cli.command()
@json_option
def build(as_json: bool) -> None:
    """Rebuild the store from ontology/, data/ and imported datasets.

    The store is rebuilt automatically when a source changes; this forces it.

    \b
    Example:
      mtgkb build
    """
    from mtgkb.store import build as build_store

    emit(build_store(progress=progress_reporter(as_json), force=True), as_json)


@cli.command()
@json_option
def stats(as_json: bool) -> None:
    """Triples per named graph and counts of cards, rules, rulings and mechanics.

    \b
    Example:
      mtgkb stats --json
    """
    from mtgkb.stats import knowledge_base_stats
    from mtgkb.store import open_kb

    emit(knowledge_base_stats(open_kb(progress_reporter())), as_json)


@cli.command()
@json_option
def validate(as_json: bool) -> None:
    """Check ontology/ and data/ against the SHACL shapes in ontology/shapes/.

    Exits 0 when the data conforms, 1 when there are violations (each named with its file).

    \b
    Example:
      mtgkb validate
    """
    from mtgkb.validation import validate as run_validation

    report = run_validation()
    emit(report, as_json)
    if not report.conforms:
        raise click.exceptions.Exit(1)
