"""``mtgkb export``: the knowledge base as RDF or as a property graph."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from mtgkb.cli import cli, json_option, progress_reporter, quiet_option
from mtgkb.errors import MtgkbError
from mtgkb.output import diagnostic, emit, to_jsonable

_FORMATS = ("ttl", "nt", "jsonld", "trig", "graphml", "gexf", "dot", "cyjs")


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default="ttl",
    show_default=True,
    help="RDF: ttl, nt, jsonld, trig (keeps named graphs). Property graph: graphml, gexf, dot, cyjs "
    "(Cytoscape JSON).",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to FILE (default stdout)."
)
@click.option("--graph", "graph_name", metavar="NAME", help="Only this named graph, e.g. data/turn.")
@quiet_option("progress or summary")
@json_option
def export(fmt: str, output: Path | None, graph_name: str | None, quiet: bool, as_json: bool) -> None:
    """Export the knowledge base as RDF or as a graph for Gephi, yEd, Graphviz or Cytoscape.

    Triple formats hold the union of all graphs; trig keeps each named graph. In the graph formats
    resources are nodes (literals become attributes such as label, type, ruleNumber) and IRI-valued
    properties are edges labelled with the property name (citesRule, nextStep).
    The summary goes to stdout when -o is given (as JSON with --json), else to stderr.

    \b
    Examples:
      mtgkb export --format ttl -o mtgkb.ttl
      mtgkb export --format graphml --graph data/turn -o turn.graphml
      mtgkb export --format dot --graph data/turn | dot -Tsvg > turn.svg
    """
    from mtgkb.export import export as export_kb
    from mtgkb.export import resolve_graph
    from mtgkb.nquads import atomic_text_file
    from mtgkb.store import open_kb
    from mtgkb.text.export import render_summary

    progress = progress_reporter(quiet)
    kb = open_kb(progress)
    graph = resolve_graph(kb, graph_name) if graph_name else None
    if output is None:
        summary = export_kb(kb, fmt, sys.stdout, graph, progress)
        sys.stdout.flush()
        if not quiet:
            diagnostic(json.dumps(to_jsonable(summary)) if as_json else render_summary(summary))
        return
    try:
        with atomic_text_file(output) as stream:
            summary = export_kb(kb, fmt, stream, graph, progress)
    except OSError as error:
        raise MtgkbError(f"cannot write {output}: {error.strerror or error}") from error
    summary.output = str(output)
    if not quiet or as_json:
        emit(summary, as_json)
