"""The index of everything a user may name (cards, mechanics, steps, zones, rules concepts),
written beside each store."""

from __future__ import annotations

from typing import Any

from mtgkb.kb.iris import namespace
from mtgkb.kb.vocab import V, sparql_prefixes


def name_index(store: Any) -> list[list[str]]:
    """[display name, IRI, kind] for everything a user may name: cards, mechanics, steps, zones,
    rules concepts."""
    # Card names are told from face names by their minted IRI: a type join takes four times as long
    # at full card-pool scale.
    card_prefix = namespace("card")
    names = {
        (row["name"].value, row["iri"].value, "card")
        for row in store.query(
            f"SELECT ?iri ?name WHERE {{ {{ ?iri <{V.name}> ?name }} "
            f"UNION {{ ?iri <{V.alsoNamed}> ?name }} }}"
        )
        if row["iri"].value.startswith(card_prefix)
    }
    query = (
        sparql_prefixes()
        + """
        SELECT DISTINCT ?iri ?name ?kind WHERE {
          { ?iri a mtgkb:Mechanic ; rdfs:label ?name . BIND("mechanic" AS ?kind) }
          UNION { ?iri a mtgkb:Step ; rdfs:label ?name . BIND("step" AS ?kind) }
          UNION { ?iri a mtgkb:Zone ; rdfs:label ?name . BIND("zone" AS ?kind) }
          UNION { ?iri a mtgkb:RulesConcept ; rdfs:label ?name . BIND("concept" AS ?kind) }
        }"""
    )
    rows = store.query(query)
    names |= {(row["name"].value, row["iri"].value, row["kind"].value) for row in rows}
    return sorted(list(entry) for entry in names)
