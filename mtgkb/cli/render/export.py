"""Text for export summaries."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.exporters.writers import ExportSummary


def render_summary(summary: ExportSummary) -> str:
    what = "the knowledge base"
    if summary.graph:
        what = summary.graph if summary.graph.startswith("view ") else f"graph {summary.graph}"
    unit = "quads" if summary.format == "trig" else "triples"
    shape = f" ({summary.nodes:,} nodes, {summary.edges:,} edges)" if summary.nodes is not None else ""
    where = f" to {summary.output}" if summary.output else ""
    took = f"in {summary.seconds:.2f} s"
    return f"exported {what}: {summary.triples:,} {unit}{shape} as {summary.format}{where} {took}"
