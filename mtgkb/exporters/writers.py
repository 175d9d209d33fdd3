"""Export the knowledge base (or one named graph) as RDF or as a property graph.

RDF (Turtle, N-Triples, JSON-LD, TriG) is written by Oxigraph's serializer, fed one subject at a time
from the store: it streams, so a store holding a full card pool is exported without building an
in-memory rdflib graph (which costs seconds per hundred thousand triples and gigabytes at that scale),
and Turtle still groups each subject's triples. The triple formats hold the union of all graphs, each
triple once; TriG keeps the named graphs.

Property graphs (GraphML, GEXF, DOT, Cytoscape JSON) come from a networkx MultiDiGraph: a node per
resource (IRI or blank node), its literals as node attributes (``label``, ``type``, ``ruleNumber``,
``manaCost``, …) and an edge per IRI-valued triple labelled with the property's short name
(``citesRule``, ``nextStep``). ``rdf:type`` becomes the ``type`` attribute rather than edges into
every class.
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
from mtgkb.kb.iris import VOCAB
from mtgkb.kb.sparql import compact_iri, rdf_format
from mtgkb.kb.store import graph_label
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V

if TYPE_CHECKING:
    import networkx as nx

    from mtgkb.kb.store import KnowledgeBase

RDF_FORMATS = ("ttl", "nt", "jsonld", "trig")
PROPERTY_GRAPH_FORMATS = ("graphml", "gexf", "dot", "cyjs")
FORMATS = RDF_FORMATS + PROPERTY_GRAPH_FORMATS

PROGRESS_EVERY = 100_000
MULTI_VALUE_SEPARATOR = "; "
# networkx's generators leave the declaration out; the file is UTF-8 whatever the locale.
_XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

_XSD = PREFIXES["xsd"]
_INTEGER_TYPES = {_XSD + name for name in ("integer", "int", "long", "short", "nonNegativeInteger")}
_FLOAT_TYPES = {_XSD + name for name in ("decimal", "double", "float")}
# Namespaces whose terms are named by their local name alone; others keep their prefix ("sh:path").
_PLAIN_NAMESPACES = (VOCAB, PREFIXES["rdf"], PREFIXES["rdfs"])


@dataclass
class ExportSummary:
    format: str
    graph: str | None  # short graph name, or None for the whole store
    triples: int  # quads for TriG
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
    wanted = name.strip().removesuffix(".ttl").removesuffix(".nq").strip("/")
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


def _subjects(kb: KnowledgeBase, graph: str | None) -> list[Any]:
    """Every subject, IRIs first and each group sorted, so output is stable from build to build.
    (Sorted here: Oxigraph's ORDER BY costs far more than the whole export on the bundled data.)"""
    import pyoxigraph as ox

    if graph is None:
        query = "SELECT DISTINCT ?s WHERE { ?s ?p ?o }"
    else:
        query = f"SELECT DISTINCT ?s WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
    subjects = [row[0] for row in kb.store.query(query)]
    return sorted(subjects, key=lambda term: (isinstance(term, ox.BlankNode), term.value))


def iter_triples(
    kb: KnowledgeBase, graph: str | None = None, progress: Progress | None = None
) -> Iterator[Any]:
    """The distinct triples of the union of all graphs (or of ``graph``), grouped by subject.

    Walking subject by subject keeps memory to one subject's triples, which is what removing the
    duplicates a triple stated in several graphs needs."""
    import pyoxigraph as ox

    # The default graph holds every source's triples, each once (see mtgkb.kb.store).
    context = ox.NamedNode(graph) if graph else ox.DefaultGraph()
    count = 0
    for subject in _subjects(kb, graph):
        seen: set[Any] = set()
        for quad in kb.store.quads_for_pattern(subject, None, None, context):
            triple = quad.triple
            if triple in seen:
                continue
            seen.add(triple)
            count += 1
            if progress and count % PROGRESS_EVERY == 0:
                progress(f"exported {count:,} triples")
            yield triple


def _iter_quads(kb: KnowledgeBase, graph: str | None, progress: Progress | None) -> Iterator[Any]:
    import pyoxigraph as ox

    graphs = [graph] if graph else named_graphs(kb)
    count = 0
    for iri in graphs:
        context = ox.NamedNode(iri)
        for subject in _subjects(kb, iri):
            for quad in kb.store.quads_for_pattern(subject, None, None, context):
                count += 1
                if progress and count % PROGRESS_EVERY == 0:
                    progress(f"exported {count:,} quads")
                yield quad


# --- RDF -----------------------------------------------------------------------------------------


class _TextSink:
    """Lets Oxigraph's serializer, which writes bytes, write into a text stream."""

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


def _export_rdf(
    kb: KnowledgeBase, fmt: str, stream: TextIO, graph: str | None, progress: Progress | None
) -> ExportSummary:
    import pyoxigraph as ox

    source = _iter_quads(kb, graph, progress) if fmt == "trig" else iter_triples(kb, graph, progress)
    counted = _Counter(source)
    sink = _TextSink(stream)
    ox.serialize(counted, sink, rdf_format(fmt), prefixes=PREFIXES)
    sink.flush()
    return ExportSummary(fmt, graph, counted.count)


# --- property graphs -----------------------------------------------------------------------------


def short_name(predicate: str) -> str:
    """``mtgkb:citesRule`` -> ``citesRule``; ``rdfs:label`` -> ``label``; ``sh:path`` stays ``sh:path``."""
    for namespace in _PLAIN_NAMESPACES:
        if predicate.startswith(namespace):
            return predicate[len(namespace) :]
    compact = compact_iri(predicate)
    if compact != predicate:
        return compact
    return predicate.rstrip("/#").rsplit("#", 1)[-1].rsplit("/", 1)[-1] or predicate


def _node_key(term: Any) -> str:
    import pyoxigraph as ox

    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value


def _literal_value(literal: Any) -> str | int | float | bool:
    datatype = literal.datatype.value if literal.datatype is not None else ""
    try:
        if datatype in _INTEGER_TYPES:
            return int(literal.value)
        if datatype in _FLOAT_TYPES:
            return float(literal.value)
    except ValueError:
        return literal.value
    if datatype == _XSD + "boolean":
        return literal.value in ("true", "1")
    return literal.value


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
        subject = _node_key(triple.subject)
        nodes[subject] = None
        predicate = triple.predicate.value
        obj = triple.object
        if isinstance(obj, ox.Literal):
            literals[subject][short_name(predicate)].append(_literal_value(obj))
        elif predicate == RDF_TYPE and isinstance(obj, ox.NamedNode):
            types[subject].append(compact_iri(obj.value))
        else:
            target = _node_key(obj)
            if keep is not None and target not in keep:
                continue
            nodes[target] = None
            edges.append((subject, target, short_name(predicate), predicate))

    result = nx.MultiDiGraph(name=name)
    for node in nodes:
        attributes = {name: _single(values) for name, values in literals.get(node, {}).items()}
        if types.get(node):
            attributes["type"] = MULTI_VALUE_SEPARATOR.join(sorted(set(types[node])))
        attributes["label"] = _node_label(node, literals.get(node, {}), attributes.get("type"))
        result.add_node(node, **attributes)
    # One key per edge across the whole graph: GraphML uses the key as the edge id, which must be
    # unique in the document.
    for key, (source, target, label, predicate) in enumerate(edges):
        result.add_edge(source, target, key=key, label=label, predicate=predicate)
    _make_attribute_types_consistent(result)
    return result


def _single(values: list[Any]) -> Any:
    if len(values) == 1:
        return values[0]
    return MULTI_VALUE_SEPARATOR.join(sorted({str(value) for value in values}))


def _node_label(node: str, literals: dict[str, list[Any]], node_type: str | None) -> str:
    for name in (short_name(RDFS_LABEL), short_name(V.name)):
        values = literals.get(name)
        if values:
            return str(_single(values))
    if node.startswith("_:"):
        # Blank node ids are random: name the node by its type, as Turtle's [ ] would show it.
        return f"[{node_type}]" if node_type else "[]"
    return compact_iri(node)


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
        convert: Callable[[Any], Any] = float if kinds <= {int, float} else _as_text
        for _, data in graph.nodes(data=True):
            if name in data:
                data[name] = convert(data[name])


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _export_property_graph(
    kb: KnowledgeBase, fmt: str, stream: TextIO, graph: str | None, progress: Progress | None
) -> ExportSummary:
    property_graph, triples = _build_property_graph(kb, graph, progress)
    if progress and property_graph.number_of_nodes() > PROGRESS_EVERY // 10:
        progress(f"writing {property_graph.number_of_nodes():,} nodes as {fmt}")
    write_property_graph(property_graph, fmt, stream)
    return ExportSummary(
        fmt, graph, triples, property_graph.number_of_nodes(), property_graph.number_of_edges()
    )


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


def _dot_string(text: str) -> str:
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "\\n")
    return f'"{escaped}"'


def write_dot(graph: nx.Graph, stream: TextIO) -> None:
    """Graphviz DOT, written directly so neither pydot nor pygraphviz is needed. Every ID and label
    is a quoted string, so IRIs and card names need no further care. An undirected graph (the
    partner view) is a DOT ``graph`` with ``--`` edges."""
    kind, arrow = ("digraph", "->") if graph.is_directed() else ("graph", "--")
    stream.write(f"{kind} {_dot_string(graph.graph.get('name', 'mtgkb'))} {{\n")
    stream.write("  node [shape=box, style=rounded];\n")
    for node, data in graph.nodes(data=True):
        label = _dot_string(data.get("label", node))
        stream.write(f"  {_dot_string(node)} [label={label}, tooltip={_dot_string(node)}];\n")
    for source, target, data in graph.edges(data=True):
        label = _dot_string(data.get("label", ""))
        stream.write(f"  {_dot_string(source)} {arrow} {_dot_string(target)} [label={label}];\n")
    stream.write("}\n")
