"""The index of everything a user may name (cards, mechanics, steps, zones, rules concepts),
written beside each store."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtgkb.kb.iris import namespace
from mtgkb.kb.sparql_text import internal_query, sparql_iri
from mtgkb.kb.vocab import PREFIXES

#: Beyond this many changed subjects the whole index is read again: one query of the store beats a
#: VALUES block of tens of thousands of IRIs.
_AT_MOST_BY_SUBJECT = 5000


def name_index(store: Any, subjects: Iterable[str] | None = None) -> list[list[str]]:
    """[display name, IRI, kind] for everything a user may name: cards, mechanics, steps, zones,
    rules concepts (only for the IRIs ``subjects``, when given)."""
    # Card names are told from face names by their minted IRI: a type join takes four times as long
    # at full card-pool scale.
    card_prefix = namespace("card")
    cards = internal_query("card-names")
    nodes = internal_query("node-names")
    if subjects is not None:
        values = " ".join(sparql_iri(iri) for iri in sorted(subjects))
        if not values:
            return []
        head = f"VALUES ?iri {{ {values} }}"
        cards = cards.replace("WHERE {", "WHERE { " + head, 1)
        nodes = nodes.replace("WHERE {", "WHERE { " + head, 1)
    names = {
        (row["name"].value, row["iri"].value, "card")
        for row in store.query(cards, prefixes=PREFIXES)
        if row["iri"].value.startswith(card_prefix)
    }
    rows = store.query(nodes, prefixes=PREFIXES)
    names |= {(row["name"].value, row["iri"].value, row["kind"].value) for row in rows}
    return sorted(list(entry) for entry in names)


def update_name_index(store: Any, previous: list[list[str]], changed: set[str]) -> list[list[str]]:
    """``previous`` with the entries of the IRIs ``changed`` read again from ``store``."""
    if len(changed) > _AT_MOST_BY_SUBJECT:
        return name_index(store)
    kept = [entry for entry in previous if entry[1] not in changed]
    return sorted(kept + name_index(store, changed))
