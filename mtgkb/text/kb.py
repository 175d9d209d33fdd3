"""Text for build and stats results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.output import renders, table
from mtgkb.store import graph_label

if TYPE_CHECKING:
    from mtgkb.stats import Stats
    from mtgkb.store import BuildSummary


@renders("mtgkb.store.BuildSummary")
def render_build(summary: BuildSummary) -> str:
    rows = [(graph_label(iri), count) for iri, count in sorted(summary.graphs.items())]
    return (
        f"Built the store in {summary.seconds:.2f} s: {summary.triples} triples in {len(rows)} graphs\n"
        f"at {summary.path}\n\n" + table(["graph", "triples"], rows)
    )


@renders("mtgkb.stats.Stats")
def render_stats(stats: Stats) -> str:
    counts = (
        f"cards {stats.cards}   rules {stats.rules}   rulings {stats.rulings}   mechanics {stats.mechanics}"
    )
    rows = [(g.graph, g.triples) for g in stats.graphs]
    return f"{counts}\n{stats.triples} triples in {len(rows)} named graphs\n\n" + table(
        ["graph", "triples"], rows
    )
