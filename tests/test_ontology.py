"""The ontology declares exactly the vocabulary of mtgkb/vocab.py, and the shapes are well formed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import rdflib
from rdflib.namespace import OWL, RDF, RDFS, SH

from mtgkb.kb.iris import ONTOLOGY, VOCAB
from mtgkb.kb.range_shapes import range_shapes_turtle
from mtgkb.kb.validation import ontology_files, shape_files
from mtgkb.kb.vocab import V

ROOT = Path(__file__).resolve().parents[1]
ONTOLOGY_FILE = ROOT / "ontology" / "mtgkb.ttl"
SHAPE_BASE = "https://w3id.org/mtgkb/shape/"
VOCAB_TERMS = {getattr(V, term) for term in V}


@pytest.fixture(scope="module")
def ontology() -> rdflib.Graph:
    return rdflib.Graph().parse(ONTOLOGY_FILE, format="turtle")


@pytest.fixture(scope="module")
def shapes() -> rdflib.Graph:
    graph = rdflib.Graph()
    for path in shape_files(ROOT):
        graph.parse(path, format="turtle")
    return graph


def test_ontology_has_a_versioned_iri(ontology: rdflib.Graph) -> None:
    node = rdflib.URIRef(ONTOLOGY)
    assert (node, RDF.type, OWL.Ontology) in ontology
    version = ontology.value(node, OWL.versionInfo)
    assert version is not None
    assert ontology.value(node, OWL.versionIRI) == rdflib.URIRef(f"{ONTOLOGY}/{version}")


def test_every_vocab_term_is_declared_with_label_and_comment(ontology: rdflib.Graph) -> None:
    undeclared = []
    for term in sorted(VOCAB_TERMS):
        node = rdflib.URIRef(term)
        if (
            (node, RDF.type, None) not in ontology
            or ontology.value(node, RDFS.label) is None
            or ontology.value(node, RDFS.comment) is None
        ):
            undeclared.append(term)
    assert undeclared == []


def test_every_ontology_term_is_in_vocab(ontology: rdflib.Graph) -> None:
    declared = {
        str(s) for s in ontology.subjects() if isinstance(s, rdflib.URIRef) and str(s).startswith(VOCAB)
    }
    assert declared - VOCAB_TERMS == set()


def test_each_term_has_exactly_one_kind(ontology: rdflib.Graph) -> None:
    kinds = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.NamedIndividual}
    wrong = {
        term: found
        for term in VOCAB_TERMS
        if len(found := set(ontology.objects(rdflib.URIRef(term), RDF.type)) & kinds) != 1
    }
    assert wrong == {}


def test_individuals_are_typed_by_a_declared_class(ontology: rdflib.Graph) -> None:
    individuals = set(ontology.subjects(RDF.type, OWL.NamedIndividual))
    assert individuals, "the ontology declares the ActionKind, Timing, ... individuals"
    for individual in individuals:
        classes = [c for c in ontology.objects(individual, RDF.type) if c != OWL.NamedIndividual]
        assert classes and all((c, RDF.type, OWL.Class) in ontology for c in classes), individual


def test_contract_subclass_axioms(ontology: rdflib.Graph) -> None:
    expected = {
        V.PartnerAbility: V.Mechanic,
        V.CopyRule: V.RulesConcept,
        V.ActivatedAbility: V.Ability,
        V.StaticAbility: V.Ability,
        V.TriggeredAbility: V.Ability,
        V.KeywordAbility: V.Ability,
    }
    for child, parent in expected.items():
        assert (rdflib.URIRef(child), RDFS.subClassOf, rdflib.URIRef(parent)) in ontology


def test_step_booleans_are_boolean_step_properties(ontology: rdflib.Graph) -> None:
    # Requirements name these properties and the reasoner reads them off steps.
    for term in (
        V.isFirstStep,
        V.isOptional,
        V.playersReceivePriority,
        V.blockedStatusDecided,
        V.attackersMayExist,
    ):
        node = rdflib.URIRef(term)
        assert ontology.value(node, RDFS.domain) == rdflib.URIRef(V.Step)
        # XSD is read off rdflib here: pytest's collection trips over it as a module global.
        assert ontology.value(node, RDFS.range) == rdflib.XSD.boolean


def test_every_shape_has_an_iri_label_and_message(shapes: rdflib.Graph) -> None:
    declared = set(shapes.subjects(RDF.type, SH.NodeShape)) | set(shapes.subjects(RDF.type, SH.PropertyShape))
    assert declared
    for shape in declared:
        assert isinstance(shape, rdflib.URIRef) and str(shape).startswith(SHAPE_BASE), shape
        assert shapes.value(shape, RDFS.label) is not None, shape
        assert shapes.value(shape, SH.message) is not None, shape


def test_shapes_use_only_vocabulary_terms(shapes: rdflib.Graph) -> None:
    """A misspelt term in a shape would silently check nothing."""
    used = {
        str(node)
        for triple in shapes
        for node in triple
        if str(node).startswith(VOCAB) and str(node) != VOCAB
    }
    for query in shapes.objects(None, SH.select):
        used |= {VOCAB + name for name in re.findall(r"\bmtgkb:(\w+)", str(query))}
    assert used - VOCAB_TERMS == set()


def test_range_shapes_file_is_current() -> None:
    graph = rdflib.Graph()
    for path in ontology_files(ROOT):
        graph.parse(path, format="turtle")
    current = (ROOT / "ontology" / "shapes" / "ranges.ttl").read_text(encoding="utf-8")
    assert current == range_shapes_turtle(graph), (
        "ontology/shapes/ranges.ttl is stale: run "
        "python -c 'from mtgkb.kb.range_shapes import write_range_shapes; write_range_shapes()'"
    )
