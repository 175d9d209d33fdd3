"""Named graphs in an open, writable store whose default graph is the deduplicated union of them all.

Every source has its own named graph, and each of its triples is in the default graph too, once
whatever the number of sources stating it. Loading a graph therefore writes both copies; removing one
takes out of the default graph only the triples that no other named graph states.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterable
from typing import Any

from mtgkb.core.progress import Progress, Ticker
from mtgkb.kb.query_files import library_query
from mtgkb.kb.source_failures import unreadable
from mtgkb.kb.sources import Source
from mtgkb.kb.sparql_text import bind_values

#: Decompressed bytes of an imported file handed to one bulk load (with their default-graph copy). The
#: loader keeps a whole load in memory (several times the text): loading an imported card pool in
#: slices keeps an import's peak memory to a couple of hundred megabytes, and is no slower. Two
#: slices of 4 MB loaded at once (below) hold what one of 8 MB did.
SLICE = 4 << 20


def load_source(store: Any, source: Source, progress: Progress | None = None) -> None:
    """Load ``source`` into its named graph and into the default graph."""
    import pyoxigraph as ox

    try:
        if source.format == "turtle":
            # Small hand-written files: a transactional load is far cheaper than a bulk load's new files.
            for graph in (ox.NamedNode(source.graph), ox.DefaultGraph()):
                store.load(path=str(source.path), format=ox.RdfFormat.TURTLE, to_graph=graph)
            return
        # Our importers wrote these files and checked every value, so the parser may skip its checks.
        # Each slice goes in once with its graph names and once without (the default graph's copy):
        # one bulk load of both is less than half the time of two passes over the file.
        with open(source.path, "rb") as raw:
            counted = _CountingReader(raw, Ticker(progress, f"loading {source.path.name}", _size(raw)))
            buffered = io.BufferedReader(counted, 1 << 20)
            text = gzip.GzipFile(fileobj=buffered) if source.compressed else buffered
            _load_in_parallel(store, _slices(text))
    except (SyntaxError, EOFError, gzip.BadGzipFile, zlib.error, UnicodeDecodeError) as error:
        raise unreadable(source.key, source.path, " ".join(str(error).split())[:300]) from error


#: Slices bulk-loaded at once: the loader releases the GIL and keeps about one core busy, so two at
#: once use both (the full pool's card file loads in 8 s instead of 11.6).
LOADERS = 2


def _load_in_parallel(store: Any, pieces: Iterable[bytes]) -> None:
    """Bulk-load each of ``pieces`` (N-Quads text), :data:`LOADERS` at a time, reading the next one
    only when a loader is free, so at most that many slices are held at once."""
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    import pyoxigraph as ox

    def load(piece: bytes) -> None:
        store.bulk_load(input=piece, format=ox.RdfFormat.N_QUADS, lenient=True)

    with ThreadPoolExecutor(LOADERS) as loaders:
        running: set[Any] = set()
        for piece in pieces:
            if len(running) >= LOADERS:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    future.result()
            running.add(loaders.submit(load, piece))
        for future in running:
            future.result()


def _size(raw: io.BufferedReader) -> int:
    import os

    return os.fstat(raw.fileno()).st_size


class _CountingReader(io.RawIOBase):
    """Reports how many bytes of an imported file (compressed or not) have been read: the progress."""

    def __init__(self, raw: io.BufferedReader, ticker: Ticker) -> None:
        self._raw = raw
        self._ticker = ticker
        self._done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = self._raw.readinto(buffer)
        self._done += count
        self._ticker.update(self._done)
        return count


def _slices(stream: Any) -> Iterable[bytes]:
    """The N-Quads text of ``stream`` in slices of about :data:`SLICE` bytes, each cut after a line and
    followed by the same lines without their graph name: the same triples, in the default graph.
    Every importer writes one graph per file (mtgkb.core.nquads.QuadWriter), named on the first line,
    so a plain byte replacement drops it. Read in blocks, not lines: a million readline calls on a
    decompressing stream cost more than the rest of the slicing."""
    graph_end: bytes | None = None
    rest = b""
    while True:
        block = stream.read(SLICE)
        if not block:
            if not rest:
                return
            piece, rest = rest + b"\n", b""  # a last line without its line break
        else:
            cut = block.rfind(b"\n") + 1
            if not cut:  # no line ends in this block: read on
                rest += block
                continue
            piece, rest = rest + block[:cut], block[cut:]
        if graph_end is None:
            first = piece[: piece.index(b"\n")]
            graph_end = first[first.rindex(b" <") :] + b"\n"
        yield piece + piece.replace(graph_end, b" .\n")


def graph_triples(store: Any, graph: str) -> list[Any]:
    """The triples of the named graph ``graph``."""
    import pyoxigraph as ox

    return [quad.triple for quad in store.quads_for_pattern(None, None, None, ox.NamedNode(graph))]


def stated_elsewhere(store: Any, graph: str) -> set[Any]:
    """The triples of ``graph`` that another named graph states too (one join in the store: far
    cheaper than asking about each triple)."""
    import pyoxigraph as ox

    rows = store.query(bind_values(library_query("stated-elsewhere"), {"graph": graph}))
    return {ox.Triple(row["s"], row["p"], row["o"]) for row in rows}


def remove_graph(store: Any, graph: str, triples: list[Any] | None = None) -> list[Any]:
    """Remove the named graph ``graph`` and, from the default graph, its triples that no other graph
    states. Returns the triples it held (``triples``, when the caller has read them already)."""
    import pyoxigraph as ox

    triples = graph_triples(store, graph) if triples is None else triples
    if not triples:
        store.remove_graph(ox.NamedNode(graph))
        return triples
    kept = stated_elsewhere(store, graph)
    name = ox.NamedNode(graph)
    default = ox.DefaultGraph()
    # One quad at a time is twice as fast as the store's own remove_graph, which also reads each quad.
    for triple in triples:
        store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, name))
        if triple not in kept:
            store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, default))
    store.remove_graph(name)
    return triples


def _elsewhere(store: Any, triple: Any, graph: Any) -> bool:
    """Whether a named graph other than ``graph`` states ``triple``."""
    import pyoxigraph as ox

    for quad in store.quads_for_pattern(triple.subject, triple.predicate, triple.object, None):
        if quad.graph_name != graph and not isinstance(quad.graph_name, ox.DefaultGraph):
            return True
    return False


def apply_difference(store: Any, graph: str, removed: Iterable[Any], added: Iterable[Any]) -> None:
    """Take ``removed`` triples out of the named graph ``graph`` (and out of the default graph unless
    another graph states them) and put ``added`` ones in (into both)."""
    import pyoxigraph as ox

    name = ox.NamedNode(graph)
    default = ox.DefaultGraph()
    for triple in removed:
        store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, name))
        if not _elsewhere(store, triple, name):
            store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, default))
    quads = []
    for triple in added:
        quads.append(ox.Quad(triple.subject, triple.predicate, triple.object, name))
        quads.append(ox.Quad(triple.subject, triple.predicate, triple.object, default))
    if quads:
        store.extend(quads)


def replace_graph(store: Any, graph: str, triples: Iterable[Any]) -> tuple[set[Any], set[Any]]:
    """Make the named graph ``graph`` hold exactly ``triples``, changing only what differs. Returns
    the triples removed and added."""
    wanted = set(triples)
    present = set(graph_triples(store, graph))
    removed, added = present - wanted, wanted - present
    apply_difference(store, graph, removed, added)
    return removed, added


def graph_subjects(store: Any, graph: str) -> set[str]:
    """The IRIs the named graph ``graph`` states something about (the store lists them faster than
    Python reads the graph's triples)."""
    return {
        row["s"].value for row in store.query(bind_values(library_query("graph-subjects"), {"graph": graph}))
    }


def subjects_of(triples: Iterable[Any]) -> set[str]:
    """The IRIs among the subjects of ``triples``."""
    import pyoxigraph as ox

    return {t.subject.value for t in triples if isinstance(t.subject, ox.NamedNode)}


def graph_counts(store: Any, graphs: Iterable[str] | None = None) -> dict[str, int]:
    """Triples in each named graph (in each of ``graphs`` only, when given; 0 for an empty one)."""
    if graphs is None:
        # Counted graph by graph: one count grouped by graph took twice as long over the full pool.
        named = sorted(graph.value for graph in store.named_graphs())
        return {graph: count for graph, count in graph_counts(store, named).items() if count}
    counts = {}
    for graph in graphs:
        rows = list(store.query(bind_values(library_query("graph-sizes"), {"g": graph})))
        counts[graph] = int(rows[0]["n"].value) if rows else 0
    return counts
