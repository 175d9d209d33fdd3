"""Text for ``mtgkb push``: what went where, and whether the server counts the same."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.exporters.push import PushSummary


def render_push(summary: PushSummary) -> str:
    megabytes = sum(graph.bytes for graph in summary.graphs) / (1024 * 1024)
    lines = [
        f"pushed {len(summary.graphs)} graphs, {summary.triples:,} triples ({megabytes:.1f} MB of "
        f"N-Triples) to {summary.graph_store} in {summary.seconds:g} s"
    ]
    if summary.checked and not summary.mismatched:
        lines.append(f"{summary.endpoint} holds the same number of triples in every graph")
    for name in summary.mismatched:
        graph = next(g for g in summary.graphs if g.graph == name)
        lines.append(f"  differs: {name}: sent {graph.triples:,}, the server counts {graph.remote_triples:,}")
    return "\n".join(lines)
