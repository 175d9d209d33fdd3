"""The cost estimate the server schedules queries by (issue 37): a cartesian product is heavy, a
joined pattern light, and a query's fingerprint survives spacing, comments and renamed variables."""

from __future__ import annotations

import pytest

from mtgkb.kb.query_cost import estimate_cost

HEAVY = [
    "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }",
    "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f LIMIT 1",
    "ASK { ?a ?b ?c OPTIONAL { ?d ?e ?f } }",
    "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } ?x ?y ?z }",
    "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f FILTER(?c = ?f) }",  # a filter does not stop the product
    "SELECT * WHERE { { SELECT ?x WHERE { ?x ?p ?o . ?y ?q ?r } } }",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o . ?x ?y ?z }",
    "SELECT * WHERE { ?a ?b ?c . _:n ?e ?f }",
]
LIGHT = [
    "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1",
    "SELECT * WHERE { ?card mtgkb:name ?name ; mtgkb:text ?text . ?ruling mtgkb:aboutCard ?card }",
    "SELECT * WHERE { ?a ?b ?c OPTIONAL { ?c ?e ?f } }",
    "SELECT * WHERE { { ?a mtgkb:x ?b } UNION { ?c mtgkb:y ?d } }",
    "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } ?g ?y ?z }",
    "SELECT * WHERE { ?a ?b ?c FILTER NOT EXISTS { ?c ?d ?e } }",
    "CONSTRUCT { ?s a mtgkb:Card . ?x a mtgkb:Rule } WHERE { ?s ?p ?x }",
    "SELECT * WHERE { VALUES ?c { card:a card:b } ?c ?p ?o }",
    "SELECT * WHERE { ?s ?p 'a { ?x ?y ?z }' }",  # braces in a string are no group
    "ASK {}",
    "SELECT * WHERE { ?s ?p ?o . 'unclosed",  # not tokens: the worker refuses it at once
]


@pytest.mark.parametrize("query", HEAVY)
def test_a_cartesian_product_is_heavy(query: str) -> None:
    cost = estimate_cost(query)
    assert cost.heavy and "cartesian product" in cost.reason


@pytest.mark.parametrize("query", LIGHT)
def test_joined_patterns_are_light(query: str) -> None:
    cost = estimate_cost(query)
    assert not cost.heavy and cost.reason is None


def test_the_fingerprint_ignores_spacing_comments_and_variable_names() -> None:
    first = estimate_cost("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }")
    same = estimate_cost("select (COUNT(*)  AS $count)\n# a comment\nWHERE{?x ?y ?z.?u ?v ?w}")
    other = estimate_cost("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?c ?e ?f }")
    assert same.fingerprint == first.fingerprint
    assert other.fingerprint != first.fingerprint


def test_a_query_too_long_to_read_cheaply_is_heavy() -> None:
    from mtgkb.kb.query_cost import MAX_ESTIMATED_CHARS

    cost = estimate_cost("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1 #" + "x" * MAX_ESTIMATED_CHARS)
    assert cost.heavy and "longer than" in cost.reason
