"""Every SPARQL file under queries/ parses, with rdflib's parser and with the store's own (Oxigraph), and
uses only ``mtgkb:`` terms the ontology declares: a misspelt property fails here instead of silently
matching nothing. A requirement pattern (queries/requirements/) is checked as the evaluator asks it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.paths import Path as PropertyPath
from rdflib.plugins.sparql import prepareQuery

from mtgkb.core.paths import queries_dir
from mtgkb.kb.iris import VOCAB
from mtgkb.kb.named_queries import catalogue, get_query, parse_query_file
from mtgkb.kb.query_files import internal_dir, library_query, named_query_text
from mtgkb.kb.sparql_bind import variables
from mtgkb.kb.validation import ontology_files
from mtgkb.kb.vocab import PREFIXES
from mtgkb.reasoning.requirements.evaluate import pattern_query

QUERY_FILES = sorted(queries_dir().rglob("*.rq"))
PATTERNS = queries_dir() / "requirements"


def _declared() -> set[str]:
    graph = rdflib.Graph()
    for path in ontology_files():
        graph.parse(path, format="turtle")
    return {str(s) for s in graph.subjects(rdflib.RDF.type, None) if str(s).startswith(VOCAB)}


DECLARED = _declared()


def query_text(path: Path) -> str:
    """The query a file holds, a requirement pattern wrapped as the evaluator wraps it."""
    text = path.read_text(encoding="utf-8")
    return pattern_query(text) if path.parent == PATTERNS else text


def _terms(node: Any, found: set[str]) -> set[str]:
    """Every IRI in the vocabulary namespace anywhere in rdflib's algebra of a query."""
    if isinstance(node, rdflib.URIRef):
        if str(node).startswith(VOCAB):
            found.add(str(node))
    elif isinstance(node, PropertyPath):
        for part in vars(node).values():
            _terms(part, found)
    elif isinstance(node, dict):  # CompValue, the algebra's node type, is a dict
        for value in node.values():
            _terms(value, found)
    elif isinstance(node, list | tuple | set):
        for value in node:
            _terms(value, found)
    return found


def problems(path: Path) -> list[str]:
    """What is wrong with one file: a syntax error (either parser) or vocabulary terms the ontology
    does not declare."""
    text = query_text(path)
    try:
        ox.Store().query(text, prefixes=PREFIXES)
    except SyntaxError as error:
        return [f"{path.name}: Oxigraph cannot parse it: {error}"]
    try:
        algebra = prepareQuery(text, initNs={p: rdflib.Namespace(iri) for p, iri in PREFIXES.items()}).algebra
    except Exception as error:  # rdflib raises pyparsing's and its own errors
        return [f"{path.name}: rdflib cannot parse it: {error}"]
    unknown = sorted(_terms(algebra, set()) - DECLARED)
    return [f"{path.name}: mtgkb:{term.removeprefix(VOCAB)} is not in the ontology" for term in unknown]


def test_there_are_query_files_of_every_kind() -> None:
    folders = {path.parent for path in QUERY_FILES}
    assert {queries_dir(), internal_dir(), PATTERNS} <= folders


@pytest.mark.parametrize("path", QUERY_FILES, ids=lambda p: str(p.relative_to(queries_dir())))
def test_every_query_file_parses_and_uses_only_declared_terms(path: Path) -> None:
    assert problems(path) == []


def test_a_misspelt_term_or_a_syntax_error_is_reported(tmp_path: Path) -> None:
    misspelt = tmp_path / "misspelt.rq"
    misspelt.write_text(
        "SELECT ?card WHERE { ?card mtgkb:hasAbility/mtgkb:instanciates ?m . ?m a mtgkb:Mechanik }\n",
        encoding="utf-8",
    )
    assert problems(misspelt) == [
        "misspelt.rq: mtgkb:Mechanik is not in the ontology",
        "misspelt.rq: mtgkb:instanciates is not in the ontology",
    ]
    in_a_path = tmp_path / "in-a-path.rq"
    in_a_path.write_text(
        "ASK { ?a (mtgkb:grants|^mtgkb:notAProperty)* ?b FILTER NOT EXISTS { ?b mtgkb:x 1 } }"
    )
    assert problems(in_a_path) == [
        "in-a-path.rq: mtgkb:notAProperty is not in the ontology",
        "in-a-path.rq: mtgkb:x is not in the ontology",
    ]
    broken = tmp_path / "broken.rq"
    broken.write_text("SELECT ?card WHERE { ?card mtgkb:name }", encoding="utf-8")
    assert problems(broken)[0].startswith("broken.rq: Oxigraph cannot parse it")


@pytest.mark.parametrize("path", sorted(internal_dir().glob("*.rq")), ids=lambda p: p.name)
def test_every_library_query_documents_itself_and_uses_its_params(path: Path) -> None:
    query = parse_query_file(path)
    assert query.title and query.description, f"{path.name} needs '# title:' and '# description:' lines"
    used = variables("\n".join(line for line in query.text.splitlines() if not line.lstrip().startswith("#")))
    assert {param.name for param in query.params} <= used
    assert library_query(path.stem) == query.text


def test_library_queries_are_not_listed_as_named_queries() -> None:
    listed = {query.name for query in catalogue().queries}
    assert listed and not listed & {path.stem for path in internal_dir().glob("*.rq")}
    assert get_query("card-rulings").text == named_query_text("card-rulings")
