"""Text for build and stats results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.cli.output import table
from mtgkb.kb.store import graph_label

if TYPE_CHECKING:
    from mtgkb.importers.drop import DropSummary
    from mtgkb.kb.build import BuildSummary
    from mtgkb.kb.stats import Stats


def render_build(summary: BuildSummary) -> str:
    rows = [(graph_label(iri), count) for iri, count in sorted(summary.graphs.items())]
    if summary.how == "none":
        done = "The store is up to date"
    elif summary.how == "update":
        changed = ", ".join(graph_label(iri) for iri in summary.changed)
        count = len(summary.changed)
        done = f"Updated the store in {summary.seconds:.2f} s ({count} graphs replaced: {changed})"
    else:
        done = f"Built the store from scratch in {summary.seconds:.2f} s"
    return f"{done}: {summary.triples} triples in {len(rows)} graphs\nat {summary.path}\n\n" + table(
        ["graph", "triples"], rows
    )


def render_stats(stats: Stats) -> str:
    counts = (
        f"cards {stats.cards}   rules {stats.rules}   rulings {stats.rulings}   mechanics {stats.mechanics}"
    )
    rows = [(g.graph, g.triples) for g in stats.graphs]
    return f"{counts}\n{stats.triples} triples in {len(rows)} named graphs\n\n" + table(
        ["graph", "triples"], rows
    )


def render_drop(summary: DropSummary) -> str:
    lines = [f"Dropped {path}" for path in summary.dropped] or ["Nothing was dropped."]
    if summary.build is not None:
        lines.append(render_build(summary.build))
    return "\n".join(lines)
