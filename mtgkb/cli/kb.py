"""Commands that look after the knowledge base itself: build, stats, validate."""

from __future__ import annotations

import click

from mtgkb.cli import cli, json_option, progress_reporter, quiet_option
from mtgkb.cli.output import emit


@cli.command()
@click.option("--full", is_flag=True, help="Build the store from scratch rather than update it.")
@quiet_option()
@json_option
def build(full: bool, quiet: bool, as_json: bool) -> None:
    """Bring the store up to date with ontology/, data/ and imported datasets.

    Only the named graphs of the files that changed are replaced (and what is derived from them);
    every command does this by itself when a source changed. --full builds everything from scratch.

    \b
    Examples:
      mtgkb build
      mtgkb build --full --quiet
    """
    from mtgkb.app import build as build_store
    from mtgkb.cli.render.kb import render_build

    emit(build_store(progress=progress_reporter(quiet or as_json), force=full), as_json, render_build)


@cli.command()
@json_option
def stats(as_json: bool) -> None:
    """Triples per named graph and counts of cards, rules, rulings and mechanics.

    \b
    Example:
      mtgkb stats --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.kb import render_stats
    from mtgkb.kb.stats import knowledge_base_stats

    emit(knowledge_base_stats(open_kb(progress_reporter())), as_json, render_stats)


@cli.command()
@click.option(
    "--store",
    "check_store",
    is_flag=True,
    help="Check the store instead: read every file against the digest recorded when it was built, "
    "every quad, and the name and search indexes.",
)
@json_option
def validate(check_store: bool, as_json: bool) -> None:
    """Check ontology/ and data/ against the SHACL shapes in ontology/shapes/.

    Also warns of each summary in data/ whose rule's text changed after the edition the summary was
    written against (mtgkb:writtenAgainst), once several editions are imported: a to-do list.

    Exits 0 when the data conforms, 1 when there are violations (each named with its file). With
    --store, checks the store built from them instead: exit 1 when a file of it is damaged, which
    is then set aside, so that 'mtgkb build --full' (or the next command) builds it again.

    \b
    Examples:
      mtgkb validate
      mtgkb validate --store
    """
    if check_store:
        from mtgkb.app import open_kb
        from mtgkb.cli.render.validation import render_store_check
        from mtgkb.kb.store import check_store as read_meta
        from mtgkb.kb.store import current_store_path
        from mtgkb.kb.store_files import validate_store

        # The store as it is (opening it through open_kb would rebuild one that cannot be opened).
        path = current_store_path()
        meta = read_meta(path) if path else None
        if path is None or meta is None:
            kb = open_kb(progress_reporter(as_json))
            path, meta = kb.path, kb.meta
        check = validate_store(path, meta)
        emit(check, as_json, render_store_check)
        if not check.sound:
            raise click.exceptions.Exit(1)
        return
    from mtgkb.kb.validation import validate as run_validation
    from mtgkb.lookups.stale_summaries import with_stale_summaries

    report = with_stale_summaries(run_validation())
    from mtgkb.cli.render.validation import render_validation

    emit(report, as_json, render_validation)
    if not report.conforms:
        raise click.exceptions.Exit(1)
