"""Property graphs of a whole store, written as they are read: GraphML, GEXF, DOT and Cytoscape JSON.

The nodes, attributes and edges are those of :func:`mtgkb.exporters.writers.property_graph`, but no
graph is built in memory: the store's triples come grouped by subject (its index is sorted that way),
so each node is complete when its subject's last triple is read and is written at once. What a format
needs to know before its first node (GraphML's keys, GEXF's attribute types) or wants after the nodes
(GEXF's and Cytoscape's edges) is gathered while writing into temporary files that are copied into
place at the end. Memory is the set of node names and the attribute names, whatever the pool's size.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from datetime import date
from typing import Any, TextIO
from xml.sax.saxutils import escape, quoteattr

from mtgkb.core.progress import Progress
from mtgkb.exporters.property_nodes import (
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
from mtgkb.kb.vocab import RDF_TYPE

#: The types GraphML and GEXF declare, as networkx writes them.
_XML_TYPES = {int: "long", float: "double", bool: "boolean", str: "string"}
_GRAPHML = (
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
)
_GEXF = (
    '<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">\n'
)


class _Node:
    """One node as :func:`~mtgkb.exporters.writers.property_graph` makes it: its literals as
    attributes, its types as ``type``, and a ``label``."""

    __slots__ = ("attributes", "key")

    def __init__(self, key: str, attributes: dict[str, Any]) -> None:
        self.key = key
        self.attributes = attributes


def _text(value: Any) -> str:
    """An attribute value as GraphML and GEXF text: booleans as true/false whatever the declared type."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _final_type(kinds: set[type]) -> type:
    """The one type of an attribute whose values are of ``kinds``: ints and floats together are
    floats, any other mixture strings (as the in-memory graph makes them consistent)."""
    if len(kinds) == 1:
        return next(iter(kinds))
    return float if kinds <= {int, float} else str


class StreamedGraph:
    """Reads a store's triples into nodes and edges and hands them to a format's writer."""

    def __init__(self, kb: Any, graph: str | None, progress: Progress | None) -> None:
        self.kb = kb
        self.graph = graph
        self.progress = progress
        self.triples = 0
        self.nodes = 0
        self.edges = 0
        self.types: dict[str, set[type]] = {}  # attribute name -> the types of its values

    def read(self) -> Iterator[tuple[str, Any]]:
        """("node", _Node) and ("edge", (source, target, label, predicate)) in store order, then a
        node for every edge target that was never a subject."""
        import pyoxigraph as ox

        context = ox.NamedNode(self.graph) if self.graph else ox.DefaultGraph()
        subjects: set[str] = set()
        targets: set[str] = set()
        current: Any = None
        literals: dict[str, list[Any]] = {}
        types: list[str] = []
        names: dict[str, str] = {}  # predicate IRI -> short name

        def finish() -> _Node:
            key = node_key(current)
            attributes = {name: single(values) for name, values in literals.items()}
            if types:
                attributes["type"] = "; ".join(sorted(set(types)))
            attributes["label"] = node_label(key, literals, attributes.get("type"))
            return self._node(key, attributes)

        for quad in self.kb.store.quads_for_pattern(None, None, None, context):
            subject = quad.subject
            if subject != current:
                if current is not None:
                    yield "node", finish()
                current, literals, types = subject, {}, []
                subjects.add(node_key(subject))
            self.triples += 1
            if self.progress and self.triples % PROGRESS_EVERY == 0:
                self.progress(f"exported {self.triples:,} triples")
            predicate = quad.predicate.value
            name = names.get(predicate)
            if name is None:
                name = names[predicate] = short_name(predicate)
            obj = quad.object
            if isinstance(obj, ox.Literal):
                literals.setdefault(name, []).append(literal_value(obj))
            elif predicate == RDF_TYPE and isinstance(obj, ox.NamedNode):
                types.append(compact_iri(obj.value))
            else:
                target = node_key(obj)
                targets.add(target)
                self.edges += 1
                yield "edge", (node_key(subject), target, name, predicate, self.edges - 1)
        if current is not None:
            yield "node", finish()
        for target in sorted(targets - subjects):
            yield "node", self._node(target, {"label": node_label(target, {}, None)})

    def _node(self, key: str, attributes: dict[str, Any]) -> _Node:
        self.nodes += 1
        for name, value in attributes.items():
            kinds = self.types.get(name)
            if kinds is None:
                self.types[name] = {type(value)}
            elif type(value) not in kinds:
                kinds.add(type(value))
        return _Node(key, attributes)


@contextlib.contextmanager
def _spool() -> Iterator[TextIO]:
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as spool:
        yield spool


def _copy(spool: TextIO, stream: TextIO) -> None:
    spool.flush()
    spool.seek(0)
    shutil.copyfileobj(spool, stream, 1 << 20)


def write_graphml(source: StreamedGraph, stream: TextIO, name: str) -> None:
    keys: dict[str, str] = {}  # node attribute name -> key id
    with _spool() as body:
        for kind, item in source.read():
            if kind == "node":
                parts = [f"<node id={quoteattr(item.key)}>"]
                for attribute, value in item.attributes.items():
                    key = keys.get(attribute)
                    if key is None:
                        key = keys[attribute] = f"d{len(keys)}"
                    parts.append(f'<data key="{key}">{escape(_text(value))}</data>')
                body.write("".join(parts) + "</node>\n")
            else:
                source_key, target, label, predicate, key = item
                body.write(
                    f'<edge source={quoteattr(source_key)} target={quoteattr(target)} id="{key}">'
                    f'<data key="e0">{escape(label)}</data><data key="e1">{escape(predicate)}</data></edge>\n'
                )
        stream.write(_GRAPHML)
        stream.write('<key id="g0" for="graph" attr.name="name" attr.type="string" />\n')
        for attribute, key in keys.items():
            kind = _XML_TYPES[_final_type(source.types[attribute])]
            stream.write(
                f'<key id="{key}" for="node" attr.name={quoteattr(attribute)} attr.type="{kind}" />\n'
            )
        stream.write('<key id="e0" for="edge" attr.name="label" attr.type="string" />\n')
        stream.write('<key id="e1" for="edge" attr.name="predicate" attr.type="string" />\n')
        stream.write('<graph edgedefault="directed">\n')
        _copy(body, stream)
        stream.write(f'<data key="g0">{escape(name)}</data>\n</graph>\n</graphml>\n')


def write_gexf(source: StreamedGraph, stream: TextIO, name: str) -> None:
    ids: dict[str, int] = {}  # node attribute name -> attribute id
    with _spool() as nodes, _spool() as edges:
        for kind, item in source.read():
            if kind == "node":
                attributes = dict(item.attributes)
                label = attributes.pop("label", item.key)
                values = []
                for attribute, value in attributes.items():
                    number = ids.get(attribute)
                    if number is None:
                        number = ids[attribute] = len(ids) + 2  # 0 and 1 are the edges'
                    values.append(f'<attvalue for="{number}" value={quoteattr(_text(value))} />')
                opening = f"<node id={quoteattr(item.key)} label={quoteattr(str(label))}"
                if values:
                    nodes.write(f"{opening}><attvalues>{''.join(values)}</attvalues></node>\n")
                else:
                    nodes.write(f"{opening} />\n")
            else:
                source_key, target, label, predicate, key = item
                edges.write(
                    f'<edge source={quoteattr(source_key)} target={quoteattr(target)} id="{key}" '
                    f'label={quoteattr(label)}><attvalues><attvalue for="0" value={quoteattr(predicate)} />'
                    f'<attvalue for="1" value="{key}" /></attvalues></edge>\n'
                )
        stream.write(_GEXF)
        stream.write(f'<meta lastmodifieddate="{date.today().isoformat()}"><creator>mtgkb</creator></meta>\n')
        stream.write(f'<graph defaultedgetype="directed" mode="static" name={quoteattr(name)}>\n')
        stream.write('<attributes mode="static" class="edge">\n')
        stream.write('<attribute id="0" title="predicate" type="string" />\n')
        stream.write('<attribute id="1" title="networkx_key" type="long" />\n</attributes>\n')
        stream.write('<attributes mode="static" class="node">\n')
        for attribute, number in ids.items():
            kind = _XML_TYPES[_final_type(source.types[attribute])]
            stream.write(f'<attribute id="{number}" title={quoteattr(attribute)} type="{kind}" />\n')
        stream.write("</attributes>\n<nodes>\n")
        _copy(nodes, stream)
        stream.write("</nodes>\n<edges>\n")
        _copy(edges, stream)
        stream.write("</edges>\n</graph>\n</gexf>\n")


def write_dot(source: StreamedGraph, stream: TextIO, name: str) -> None:
    stream.write(f"digraph {dot_string(name)} {{\n")
    stream.write("  node [shape=box, style=rounded];\n")
    for kind, item in source.read():
        if kind == "node":
            label = dot_string(item.attributes.get("label", item.key))
            node = dot_string(item.key)
            style = dot_style(kind_of_types(item.attributes.get("type")))
            stream.write(f"  {node} [label={label}, tooltip={node}, {style}];\n")
        else:
            source_key, target, label, _, _ = item
            stream.write(f"  {dot_string(source_key)} -> {dot_string(target)} [label={dot_string(label)}];\n")
    stream.write("}\n")


def write_cytoscape(source: StreamedGraph, stream: TextIO, name: str) -> None:
    """Cytoscape JSON as networkx's cytoscape_data writes it. Values are written as read; an attribute
    found to hold values of several types is made consistent in a second pass over the nodes."""
    with _spool() as nodes, _spool() as edges:
        for kind, item in source.read():
            if kind == "node":
                attributes = item.attributes
                # As networkx does: a node's own "id" or "name" attribute wins over its key.
                data = {**attributes, "id": attributes.get("id") or item.key, "value": item.key}
                data["name"] = attributes.get("name") or item.key
                nodes.write(json.dumps({"data": data}, ensure_ascii=False) + "\n")
            else:
                # Written by hand: json.dumps of a dict per edge took most of the export's time.
                source_key, target, label, predicate, key = item
                edges.write(
                    f'{{"data": {{"label": {_json(label)}, "predicate": {_json(predicate)}, '
                    f'"source": {_json(source_key)}, "target": {_json(target)}, "key": {key}}}}}\n'
                )
        mixed = {attribute: _final_type(kinds) for attribute, kinds in source.types.items() if len(kinds) > 1}
        head = {"data": [["name", name]], "directed": True, "multigraph": True}
        stream.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "elements": {"nodes": [')
        _join(nodes, stream, mixed)
        stream.write('], "edges": [')
        _join(edges, stream, {})
        stream.write("]}}\n")


#: A JSON string as json.dumps(ensure_ascii=False) writes it (the C encoder).
_json = json.encoder.encode_basestring  # type: ignore[attr-defined]


def _join(spool: TextIO, stream: TextIO, mixed: dict[str, type]) -> None:
    spool.flush()
    spool.seek(0)
    first = True
    for line in spool:
        if mixed:
            element = json.loads(line)
            data = element["data"]
            for attribute, kind in mixed.items():
                if attribute in data:
                    data[attribute] = float(data[attribute]) if kind is float else as_text(data[attribute])
            line = json.dumps(element, ensure_ascii=False)
        stream.write(line.rstrip("\n") if first else "," + line.rstrip("\n"))
        first = False


WRITERS = {"graphml": write_graphml, "gexf": write_gexf, "dot": write_dot, "cyjs": write_cytoscape}
