"""Export the knowledge base (or one named graph) as RDF or as a property graph.

Everything streams: the store's quads are read in its own index order (so output is stable from build
to build) and written as they come, and memory stays small whatever the pool's size. RDF (Turtle,
N-Triples, JSON-LD, TriG, N-Quads) is written by Oxigraph's serializer; the triple formats hold the
default graph, which is the union of all graphs with each triple once, TriG and N-Quads keep the
named graphs. A property graph of the whole store (or of a named graph) is written node by node by
:mod:`mtgkb.exporters.graph_stream`; the small named views build theirs in memory with networkx
(:func:`property_graph`), which is what the streamed writers reproduce (see
:mod:`mtgkb.exporters.property_nodes`).
"""

from __future__ import annotations

import codecs
import difflib
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.core.progress import Progress
from mtgkb.exporters.property_nodes import (
    MULTI_VALUE_SEPARATOR,
    PROGRESS_EVERY,
    as_text,
    dot_string,
    dot_style,
    kind_of_types,
    literal_value,
    node_key,
    node_label,
    short_name,
    single,
)
from mtgkb.kb.sparql import compact_iri
from mtgkb.kb.store import graph_label
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE

if TYPE_CHECKING:
    import networkx as nx

    from mtgkb.kb.store import KnowledgeBase

__all__ = [
    "FORMATS",
    "ExportSummary",
    "export",
    "property_graph",
    "resolve_graph",
    "short_name",
    "to_networkx",
]

RDF_FORMATS = ("ttl", "nt", "jsonld", "trig", "nq")
PROPERTY_GRAPH_FORMATS = ("graphml", "gexf", "dot", "cyjs")
FORMATS = RDF_FORMATS + PROPERTY_GRAPH_FORMATS
#: The formats that keep the named graphs.
_QUAD_FORMATS = ("trig", "nq")
# networkx's generators leave the declaration out; the file is UTF-8 whatever the locale.
_XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


@dataclass
class ExportSummary:
    format: str
    graph: str | None  # short graph name, or None for the whole store
    triples: int  # quads for TriG and N-Quads
    nodes: int | None = None
    edges: int | None = None
    seconds: float = 0.0
    output: str | None = None  # file written, None for stdout


def named_graphs(kb: KnowledgeBase) -> list[str]:
    """The IRIs of the store's named graphs, sorted."""
    return sorted(graph.value for graph in kb.store.named_graphs())


def resolve_graph(kb: KnowledgeBase, name: str) -> str:
    """The IRI of a named graph given as its IRI, its short name (``data/turn``) or its file path."""
    graphs = named_graphs(kb)
    if name in graphs:
        return name
    wanted = name.strip().removesuffix(".ttl").removesuffix(".gz").removesuffix(".nq").strip("/")
    by_label = {graph_label(iri): iri for iri in graphs}
    if wanted in by_label:
        return by_label[wanted]
    close = difflib.get_close_matches(wanted, list(by_label), n=3, cutoff=0.5)
    error = NotFoundError("graph", name, close)
    if not close:
        error.hint = "graphs: " + ", ".join(sorted(by_label)[:12]) + (" …" if len(by_label) > 12 else "")
    raise error


def export(
    kb: KnowledgeBase,
    fmt: str,
    stream: TextIO,
    graph: str | None = None,
    progress: Progress | None = None,
) -> ExportSummary:
    """Write the store (or the named graph ``graph``, an IRI) to ``stream`` in ``fmt``."""
    if fmt not in FORMATS:
        raise MtgkbError(f"unknown export format '{fmt}'", f"use one of {', '.join(FORMATS)}")
    started = time.perf_counter()
    if fmt in RDF_FORMATS:
        summary = _export_rdf(kb, fmt, stream, graph, progress)
    else:
        summary = _export_property_graph(kb, fmt, stream, graph, progress)
    summary.graph = graph_label(graph) if graph else None
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary


# --- reading the store ---------------------------------------------------------------------------


def iter_triples(
    kb: KnowledgeBase, graph: str | None = None, progress: Progress | None = None
) -> Iterator[Any]:
    """The triples of the default graph (every source's facts, each once: see mtgkb.kb.build) or of
    the named graph ``graph``, grouped by subject, as the store's index holds them."""
    import pyoxigraph as ox

    context = ox.NamedNode(graph) if graph else ox.DefaultGraph()
    for count, quad in enumerate(kb.store.quads_for_pattern(None, None, None, context), 1):
        if progress and count % PROGRESS_EVERY == 0:
            progress(f"exported {count:,} triples")
        yield quad.triple


def _iter_quads(kb: KnowledgeBase, graph: str | None, progress: Progress | None) -> Iterator[Any]:
    import pyoxigraph as ox

    count = 0
    for iri in [graph] if graph else named_graphs(kb):
        for quad in kb.store.quads_for_pattern(None, None, None, ox.NamedNode(iri)):
            count += 1
            if progress and count % PROGRESS_EVERY == 0:
                progress(f"exported {count:,} quads")
            yield quad


# --- RDF -----------------------------------------------------------------------------------------


class _TextSink:
    """Lets Oxigraph's serializer, which writes bytes, write into a text stream without a binary
    buffer (a StringIO); streams with one get the bytes directly."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def write(self, data: bytes) -> int:
        self._stream.write(self._decoder.decode(bytes(data)))
        return len(data)

    def flush(self) -> None:
        self._stream.write(self._decoder.decode(b"", final=True))


class _Counter:
    def __init__(self, items: Iterator[Any]) -> None:
        self._items = items
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self._items:
            self.count += 1
            yield item


def _rdf_format(fmt: str) -> Any:
    import pyoxigraph as ox

    return {
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "jsonld": ox.RdfFormat.JSON_LD,
        "trig": ox.RdfFormat.TRIG,
        "nq": ox.RdfFormat.N_QUADS,
    }[fmt]


def _export_rdf(
    kb: KnowledgeBase, fmt: str, stream: TextIO, graph: str | None, progress: Progress | None
) -> ExportSummary:
    import pyoxigraph as ox

    source = _iter_quads(kb, graph, progress) if fmt in _QUAD_FORMATS else iter_triples(kb, graph, progress)
    counted = _Counter(source)
    binary = getattr(stream, "buffer", None)
    if binary is not None:
        stream.flush()
        ox.serialize(counted, binary, _rdf_format(fmt), prefixes=PREFIXES)
        binary.flush()
    else:
        sink = _TextSink(stream)
        ox.serialize(counted, sink, _rdf_format(fmt), prefixes=PREFIXES)
        sink.flush()
    return ExportSummary(fmt, graph, counted.count)


# --- property graphs -----------------------------------------------------------------------------


def to_networkx(
    kb: KnowledgeBase, graph: str | None = None, progress: Progress | None = None
) -> nx.MultiDiGraph:
    """The knowledge base (or the named graph ``graph``) as a property graph (see the module docstring)."""
    return _build_property_graph(kb, graph, progress)[0]


def _build_property_graph(
    kb: KnowledgeBase, graph: str | None, progress: Progress | None
) -> tuple[nx.MultiDiGraph, int]:
    counted = _Counter(iter_triples(kb, graph, progress))
    name = f"mtgkb {graph_label(graph)}" if graph else "mtgkb"
    return property_graph(counted, name), counted.count


def property_graph(triples: Iterable[Any], name: str, keep: set[str] | None = None) -> nx.MultiDiGraph:
    """Pyoxigraph ``triples`` as a property graph (see the module docstring). With ``keep``, an
    IRI-valued triple becomes an edge only when its object is in ``keep`` too: a view drawn from a
    few nodes does not drag in every node they point to."""
    import networkx as nx
    import pyoxigraph as ox

    literals: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    types: dict[str, list[str]] = defaultdict(list)
    edges: list[tuple[str, str, str, str]] = []
    nodes: dict[str, None] = {}  # insertion-ordered set
    for triple in triples:
        subject = node_key(triple.subject)
        nodes[subject] = None
        predicate = triple.predicate.value
        obj = triple.object
        if isinstance(obj, ox.Literal):
            literals[subject][short_name(predicate)].append(literal_value(obj))
        elif predicate == RDF_TYPE and isinstance(obj, ox.NamedNode):
            types[subject].append(compact_iri(obj.value))
        else:
            target = node_key(obj)
            if keep is not None and target not in keep:
                continue
            nodes[target] = None
            edges.append((subject, target, short_name(predicate), predicate))

    result = nx.MultiDiGraph(name=name)
    for node in nodes:
        attributes = {name: single(values) for name, values in literals.get(node, {}).items()}
        if types.get(node):
            attributes["type"] = MULTI_VALUE_SEPARATOR.join(sorted(set(types[node])))
        attributes["label"] = node_label(node, literals.get(node, {}), attributes.get("type"))
        result.add_node(node, **attributes)
    # One key per edge across the whole graph: GraphML uses the key as the edge id, which must be
    # unique in the document.
    for key, (source, target, label, predicate) in enumerate(edges):
        result.add_edge(source, target, key=key, label=label, predicate=predicate)
    _make_attribute_types_consistent(result)
    return result


def _make_attribute_types_consistent(graph: nx.MultiDiGraph) -> None:
    """GraphML and GEXF declare one type per attribute name: mixed ints and floats become floats,
    any other mixture becomes strings."""
    seen: dict[str, set[type]] = defaultdict(set)
    for _, data in graph.nodes(data=True):
        for name, value in data.items():
            seen[name].add(type(value))
    for name, kinds in seen.items():
        if len(kinds) < 2:
            continue
        convert: Callable[[Any], Any] = float if kinds <= {int, float} else as_text
        for _, data in graph.nodes(data=True):
            if name in data:
                data[name] = convert(data[name])


def _export_property_graph(
    kb: KnowledgeBase, fmt: str, stream: TextIO, graph: str | None, progress: Progress | None
) -> ExportSummary:
    """The store or one named graph, streamed (see :mod:`mtgkb.exporters.graph_stream`)."""
    from mtgkb.exporters.graph_stream import WRITERS, StreamedGraph

    source = StreamedGraph(kb, graph, progress)
    name = f"mtgkb {graph_label(graph)}" if graph else "mtgkb"
    if fmt in ("graphml", "gexf"):
        stream.write(_XML_DECLARATION)
    WRITERS[fmt](source, stream, name)
    return ExportSummary(fmt, graph, source.triples, source.nodes, source.edges)


def write_property_graph(graph: nx.Graph, fmt: str, stream: TextIO) -> None:
    """``graph`` as GraphML, GEXF, DOT or Cytoscape JSON."""
    import networkx as nx

    if fmt == "graphml":
        stream.write(_XML_DECLARATION)
        _write_lines(stream, nx.generate_graphml(graph, prettyprint=True))
    elif fmt == "gexf":
        stream.write(_XML_DECLARATION)
        _write_lines(stream, nx.generate_gexf(graph, prettyprint=True))
    elif fmt == "dot":
        write_dot(graph, stream)
    else:
        import json

        json.dump(nx.cytoscape_data(graph), stream, ensure_ascii=False)
        stream.write("\n")


def _write_lines(stream: TextIO, lines: Iterator[str]) -> None:
    for line in lines:
        stream.write(line)
        stream.write("\n")


def write_dot(graph: nx.Graph, stream: TextIO) -> None:
    """Graphviz DOT, written directly so neither pydot nor pygraphviz is needed. Every ID and label
    is a quoted string, so IRIs and card names need no further care. Each node's shape and colour
    say its kind (card, mechanic, step, rule, …). An undirected graph (the partner view) is a DOT
    ``graph`` with ``--`` edges."""
    kind, arrow = ("digraph", "->") if graph.is_directed() else ("graph", "--")
    stream.write(f"{kind} {dot_string(graph.graph.get('name', 'mtgkb'))} {{\n")
    stream.write("  node [shape=box, style=rounded];\n")
    for node, data in graph.nodes(data=True):
        label = dot_string(data.get("label", node))
        style = dot_style(data.get("kind") or kind_of_types(data.get("type")))
        stream.write(f"  {dot_string(node)} [label={label}, tooltip={dot_string(node)}, {style}];\n")
    for source, target, data in graph.edges(data=True):
        label = dot_string(data.get("label", ""))
        stream.write(f"  {dot_string(source)} {arrow} {dot_string(target)} [label={label}];\n")
    stream.write("}\n")
