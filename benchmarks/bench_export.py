"""``mtgkb export`` of the whole store against pyoxigraph's own dump (issue 11): the RDF formats within
1.3x of ``Store.dump`` of the same graphs (the default graph for N-Triples and Turtle, every named
graph for TriG and N-Quads), the property-graph formats within 2x of the N-Triples dump and under
600 MB of peak memory. Each run is a new process writing a file.

    python benchmarks/bench_export.py [--runs 3] [--quick] [--json]

Run it on the store you want measured (import the full pool first); the store is built before timing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import measured, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 3, 1
RDF_BUDGET = 1.3
GRAPH_BUDGET = 2.0
MEMORY_LIMIT_MB = 600.0

#: The bare dumps: the default graph (triple formats), or each named graph in turn (quad formats).
_DUMP = """
import sys
import pyoxigraph as ox
store = ox.Store.read_only(sys.argv[1])
fmt = {"nt": ox.RdfFormat.N_TRIPLES, "ttl": ox.RdfFormat.TURTLE}[sys.argv[3]]
with open(sys.argv[2], "wb") as output:
    if sys.argv[4] == "default":
        store.dump(output, fmt, from_graph=ox.DefaultGraph())
    else:
        for graph in sorted(store.named_graphs(), key=str):
            store.dump(output, fmt, from_graph=graph)
"""
_RDF = {"nt": ("nt", "default"), "ttl": ("ttl", "default"), "nq": ("nt", "named"), "trig": ("ttl", "named")}
_GRAPHS = ("graphml", "gexf", "dot", "cyjs")


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    from mtgkb.app import open_kb

    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_with_store()
    folder = str(open_kb().path / "oxigraph")
    note = f"median of {runs}"
    found: list[Figure] = []
    with tempfile.TemporaryDirectory() as scratch:
        target = str(Path(scratch) / "export")

        def timed(command: list[str]) -> tuple[float, float]:
            samples = [measured(command) for _ in range(runs)]
            return statistics.median(s for s, _ in samples), max(peak for _, peak in samples)

        dumps = {
            key: timed([sys.executable, "-c", _DUMP, folder, target, fmt, graphs])
            for key, (fmt, graphs) in {**_RDF, "graphs": ("nt", "default")}.items()
        }
        for fmt in _RDF:
            seconds, _ = timed([mtgkb, "export", "--format", fmt, "-o", target, "-q"])
            what = "the default graph" if _RDF[fmt][1] == "default" else "every named graph"
            found.append(
                Figure(
                    f"mtgkb export --format {fmt} ({what})",
                    seconds,
                    "s",
                    "Store.dump",
                    dumps[fmt][0],
                    RDF_BUDGET,
                    note=note,
                )
            )
        for fmt in _GRAPHS:
            seconds, peak = timed([mtgkb, "export", "--format", fmt, "-o", target, "-q"])
            found.append(
                Figure(
                    f"mtgkb export --format {fmt}",
                    seconds,
                    "s",
                    "Store.dump",
                    dumps["graphs"][0],
                    GRAPH_BUDGET,
                    note=note,
                )
            )
            found.append(
                Figure(f"peak memory of mtgkb export --format {fmt}", peak, "MB", limit=MEMORY_LIMIT_MB)
            )
    return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "export")
