"""``mtgkb export``: the knowledge base as RDF or as a property graph."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter, quiet_option
from mtgkb.cli.output import diagnostic, emit, to_jsonable
from mtgkb.core.errors import MtgkbError
from mtgkb.exporters.views import VIEWS

if TYPE_CHECKING:
    from mtgkb.exporters.writers import ExportSummary

_FORMATS = ("ttl", "nt", "jsonld", "trig", "nq", "graphml", "gexf", "dot", "cyjs")


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default=None,
    help="RDF: ttl, nt, jsonld, trig or nq (these two keep the named graphs). Property graph: graphml, "
    "gexf, dot, cyjs "
    "(Cytoscape JSON). Default: ttl, or graphml for a --view.",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to FILE (default stdout)."
)
@click.option("--graph", "graph_name", metavar="NAME", help="Only this named graph, e.g. data/turn.")
@click.option(
    "--view",
    type=click.Choice(list(VIEWS)),
    default=None,
    help="A named subgraph: " + "; ".join(f"{view.name} ({view.help})" for view in VIEWS.values()) + ".",
)
@click.option(
    "--around",
    metavar="NODE",
    default=None,
    help="With --view around: the card, mechanic, step, zone, concept or rule number at the centre; "
    "with --view lineage: the rule number.",
    shell_complete=completion.NODES,
)
@click.option(
    "--depth",
    type=click.IntRange(min=1, max=4),
    default=1,
    show_default=True,
    help="Links out from --around.",
)
@quiet_option("progress or summary")
@json_option
def export(
    fmt: str | None,
    output: Path | None,
    graph_name: str | None,
    view: str | None,
    around: str | None,
    depth: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Export the knowledge base as RDF or as a graph for Gephi, yEd, Graphviz or Cytoscape.

    Triple formats hold the union of all graphs; trig and nq keep each named graph. Every format
    is written as the store is read, so a whole card pool takes little memory. In the graph formats
    resources are nodes (literals become attributes such as label, type, ruleNumber) and IRI-valued
    properties are edges labelled with the property name (citesRule, nextStep).
    The summary goes to stdout when -o is given (as JSON with --json), else to stderr.
    A --view is a small named subgraph; the partners view has cards as nodes (with colour
    identity) and one edge per pair that may lead a deck, labelled with the partner ability. In
    DOT, each node's shape and colour say its kind (card, mechanic, step, rule, ruling, …).

    \b
    Examples:
      mtgkb export --format ttl -o mtgkb.ttl
      mtgkb export --format graphml --graph data/turn -o turn.graphml
      mtgkb export --format dot --graph data/turn | dot -Tsvg > turn.svg
      mtgkb export --view partners --format gexf -o partners.gexf
      mtgkb export --view around --around "Yuriko, the Tiger's Shadow" --depth 2 --format cyjs
      mtgkb export --view around --around ninjutsu --format dot | dot -Tsvg > ninjutsu.svg
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.export import render_summary
    from mtgkb.core.nquads import atomic_text_file
    from mtgkb.exporters.views import check_view_options, export_view
    from mtgkb.exporters.writers import export as export_kb
    from mtgkb.exporters.writers import resolve_graph

    check_view_options(view, around, graph_name)
    fmt = fmt or ("graphml" if view else "ttl")
    progress = progress_reporter(quiet)
    kb = open_kb(progress)
    graph = resolve_graph(kb, graph_name) if graph_name else None

    def write(stream) -> ExportSummary:
        if view:
            return export_view(kb, view, fmt, stream, around, depth)
        return export_kb(kb, fmt, stream, graph, progress)

    if output is None:
        summary = write(sys.stdout)
        sys.stdout.flush()
        if not quiet:
            diagnostic(json.dumps(to_jsonable(summary)) if as_json else render_summary(summary))
        return
    try:
        with atomic_text_file(output) as stream:
            summary = write(stream)
    except OSError as error:
        raise MtgkbError(f"cannot write {output}: {error.strerror or error}") from error
    summary.output = str(output)
    if not quiet or as_json:
        from mtgkb.cli.render.export import render_summary

        emit(summary, as_json, render_summary)
