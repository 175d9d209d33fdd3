"""Check the ontology and data files against the SHACL shapes in ``ontology/shapes/``.

:func:`validate` returns a :class:`ValidationReport` in which every violation names the file that
defines its focus node, so the person fixing the data knows where to look. It never prints; the CLI
formats the report and chooses the exit code.

``ontology/shapes/ranges.ttl``, one of the shapes files, is generated from the ontology by
:mod:`mtgkb.kb.range_shapes`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyshacl
import rdflib
from pyshacl.errors import ValidationFailure
from rdflib.namespace import RDF, SH
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.sparql import Query
from rdflib.term import BNode, Node, URIRef
from rdflib.util import guess_format

from mtgkb.core.errors import MtgkbError
from mtgkb.core.paths import repo_root

#: Suffixes read when a directory is given; a file given by name is read whatever its suffix.
DATA_SUFFIXES = (".ttl",)


class DataFileError(MtgkbError):
    """A data, ontology or shapes file is missing or does not parse; names the file and line."""

    def __init__(self, path: Path, line: int | None, detail: str) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {detail}", "fix the file there, then run the command again")
        self.path = path
        self.line = line
        self.detail = detail


class ShapesError(MtgkbError):
    """The SHACL shapes themselves are broken: pySHACL refused to run them."""


@dataclass(frozen=True)
class Violation:
    """One SHACL result.

    ``source_file`` is the data file that defines ``focus_node`` (the file that gives it an
    ``rdf:type``, else the first file where it is a subject); it is None when the node is defined
    only in one of the ``extra_graphs``. ``sources`` lists every file or extra graph where the node
    is a subject, the defining one first.
    """

    focus_node: str
    path: str | None
    message: str
    severity: str
    shape: str | None
    source_file: Path | None
    value: str | None = None
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValidationReport:
    """``conforms`` is False when at least one result has severity Violation; warnings are listed in
    ``violations`` too but do not break conformance."""

    conforms: bool
    violations: list[Violation]
    files: list[Path] = field(default_factory=list)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "Violation"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity != "Violation"]


def ontology_files(root: Path | None = None) -> list[Path]:
    """The vocabulary files: everything under ontology/ except the shapes."""
    ontology = (root or repo_root()) / "ontology"
    shapes = ontology / "shapes"
    return [p for p in _expand([ontology]) if shapes not in p.parents]


def shape_files(root: Path | None = None) -> list[Path]:
    return _expand([(root or repo_root()) / "ontology" / "shapes"])


def data_files(root: Path | None = None) -> list[Path]:
    """The bundled data files under data/."""
    return _expand([(root or repo_root()) / "data"])


def validate(
    paths: Sequence[Path] | None = None,
    extra_graphs: Mapping[str, rdflib.Graph] | None = None,
) -> ValidationReport:
    """Validate data files (default: the bundled data/) together with the bundled ontology.

    ``paths`` may name files or directories (searched recursively for Turtle files).
    ``extra_graphs`` maps a source name (e.g. an importer's graph name) to a graph that joins the
    data, for instance imported rules that authored data cites.

    Raises :class:`DataFileError` when a file is missing or does not parse.
    """
    data_paths = data_files() if paths is None else _expand(paths)
    vocabulary_paths = [p for p in ontology_files() if p not in data_paths]

    sources: dict[str, rdflib.Graph] = {}
    for path in data_paths:
        sources[str(path)] = parse_file(path)
    for name, graph in (extra_graphs or {}).items():
        sources[name] = graph
    for path in vocabulary_paths:
        sources[str(path)] = parse_file(path)

    data_graph = _PreparedQueryGraph()
    for graph in sources.values():
        data_graph += graph
    shapes_graph = rdflib.Graph()
    for path in shape_files():
        shapes_graph += parse_file(path)

    _, results, text = pyshacl.validate(
        data_graph,
        shacl_graph=shapes_graph,
        inference="none",
        advanced=True,
        allow_warnings=True,
        abort_on_first=False,
        meta_shacl=False,
        inplace=True,
    )
    if isinstance(results, ValidationFailure):
        raise ShapesError(f"the shapes in ontology/shapes/ could not be run: {text.strip()}")
    file_names = {str(p): p for p in data_paths + vocabulary_paths}
    locate = _SourceIndex(sources)
    # Only the report's own results: nested sh:detail results repeat a parent's finding.
    top_level = [
        r
        for report in results.subjects(RDF.type, SH.ValidationReport)
        for r in results.objects(report, SH.result)
    ]
    violations = sorted(
        (_violation(results, r, locate, file_names) for r in top_level),
        key=lambda v: (str(v.source_file), v.focus_node, v.shape or "", v.path or "", v.message),
    )
    return ValidationReport(
        conforms=not any(v.severity == "Violation" for v in violations),
        violations=violations,
        files=data_paths,
    )


class _PreparedQueryGraph(rdflib.Graph):
    """pySHACL runs a SPARQL constraint once per focus node with the same query text, and rdflib
    parses the text on every call, which costs more than evaluating it; parse each text once."""

    def __init__(self) -> None:
        super().__init__()
        self._prepared: dict[str, Query] = {}

    def query(self, query_object: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if isinstance(query_object, str):
            prepared = self._prepared.get(query_object)
            if prepared is None:
                namespaces = kwargs.get("initNs") or dict(self.namespaces())
                prepared = self._prepared[query_object] = prepareQuery(query_object, initNs=namespaces)
            query_object = prepared
        return super().query(query_object, *args, **kwargs)


class _SourceIndex:
    """Which sources (files or extra graphs) define a node, in load order."""

    def __init__(self, sources: Mapping[str, rdflib.Graph]) -> None:
        self._sources = sources
        self._subjects = {name: set(graph.subjects()) for name, graph in sources.items()}

    def sources_of(self, node: Node) -> list[str]:
        subject_in = [name for name, subjects in self._subjects.items() if node in subjects]
        if not subject_in:
            # A node used only as an object (a typo'd IRI, say) is best found where it is used.
            return [name for name, graph in self._sources.items() if (None, None, node) in graph]
        typed_in = [name for name in subject_in if (node, RDF.type, None) in self._sources[name]]
        return typed_in + [name for name in subject_in if name not in typed_in]


def _violation(
    results: rdflib.Graph, result: Node, locate: _SourceIndex, file_names: Mapping[str, Path]
) -> Violation:
    focus = results.value(result, SH.focusNode)
    path = results.value(result, SH.resultPath)
    value = results.value(result, SH.value)
    shape = results.value(result, SH.sourceShape)
    severity = results.value(result, SH.resultSeverity)
    messages = sorted(str(m) for m in results.objects(result, SH.resultMessage))
    sources = locate.sources_of(focus) if focus is not None else []
    return Violation(
        focus_node=_show(focus),
        path=_show(path) if path is not None else None,
        message=" ".join(messages),
        severity=_local_name(severity) if severity is not None else "Violation",
        shape=str(shape) if isinstance(shape, URIRef) else None,
        source_file=file_names.get(sources[0]) if sources else None,
        value=_show(value) if value is not None else None,
        sources=tuple(sources),
    )


def _show(node: Node | None) -> str:
    return node.n3() if isinstance(node, BNode) else str(node)


def _local_name(iri: Node) -> str:
    return str(iri).rsplit("#", 1)[-1]


def _expand(paths: Iterable[Path]) -> list[Path]:
    """Files as given and Turtle files found under directories, sorted, each once."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in DATA_SUFFIXES and p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise DataFileError(path, None, "no such file or directory")
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def parse_file(path: Path) -> rdflib.Graph:
    graph = rdflib.Graph()
    try:
        graph.parse(path, format=guess_format(str(path)) or "turtle")
    except Exception as error:
        raise DataFileError(path, _error_line(error), _error_detail(error)) from error
    return graph


def _error_line(error: Exception) -> int | None:
    # rdflib's Turtle parser counts lines from 0 in BadSyntax.lines.
    lines = getattr(error, "lines", None)
    if isinstance(lines, int):
        return lines + 1
    lineno = getattr(error, "lineno", None)
    return lineno if isinstance(lineno, int) else None


def _error_detail(error: Exception) -> str:
    why = getattr(error, "_why", None)
    if isinstance(why, str) and why:
        return f"Turtle syntax error: {why}"
    return f"{type(error).__name__}: {error}"
