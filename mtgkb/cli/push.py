"""``mtgkb push``: the knowledge base's graphs into a triple store server."""

from __future__ import annotations

import click

from mtgkb.cli import cli, json_option, progress_reporter, quiet_option
from mtgkb.cli.output import emit


@cli.command()
@click.option(
    "--endpoint", metavar="URL", help="The server's SPARQL query endpoint: counts are checked there."
)
@click.option(
    "--graph-store",
    metavar="URL",
    help="The server's Graph Store Protocol URL (default: Oxigraph's /store beside an endpoint ending "
    "in /query).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=600,
    show_default=True,
    metavar="SECONDS",
    help="Give up on a graph the server does not take within SECONDS (0: wait as long as it takes).",
)
@quiet_option("progress bar")
@json_option
def push(endpoint: str | None, graph_store: str | None, timeout: float, quiet: bool, as_json: bool) -> None:
    """Upload every named graph, and the default graph, to a triple store server.

    Each graph replaces the graph of the same name on the server (SPARQL 1.1 Graph Store Protocol,
    PUT), so the same queries run there: 'mtgkb query NAME --endpoint URL'. With --endpoint, the
    server's triple count of each graph is compared with ours afterwards (exit 1 if one differs).

    \b
    Examples:
      mtgkb push --endpoint http://localhost:7878/query
      mtgkb push --endpoint http://localhost:3030/mtgkb/sparql --graph-store http://localhost:3030/mtgkb/data
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.push import render_push
    from mtgkb.exporters.push import graph_store_for
    from mtgkb.exporters.push import push as run

    if not endpoint and not graph_store:
        raise click.UsageError("give --endpoint URL (and --graph-store URL unless it is Oxigraph's)")
    store_url = graph_store_for(endpoint, graph_store)
    progress = progress_reporter(quiet)
    summary = run(open_kb(progress), store_url, endpoint, progress, timeout or None)
    emit(summary, as_json, render_push)
    if summary.mismatched:
        raise click.exceptions.Exit(1)
