"""The index of everything a user may name (cards, mechanics, steps, zones, rules concepts),
written beside each store."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtgkb.kb.iris import namespace
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V

#: Beyond this many changed subjects the whole index is read again: two queries of the store beat
#: tens of thousands of lookups.
_AT_MOST_BY_SUBJECT = 20_000
#: The kinds of node, besides cards, that a user may name.
_KINDS = {
    V.Mechanic: "mechanic",
    V.Step: "step",
    V.Zone: "zone",
    V.RulesConcept: "concept",
    V.MeldedFace: "melded",  # the back face of a meld pair: no card, but looked up by its name
}
#: The predicates the index is read from: a change to no triple of these names nothing new.
NAMING = frozenset({V.name, V.alsoNamed, RDFS_LABEL, RDF_TYPE})


def name_index(store: Any) -> list[list[str]]:
    """[display name, IRI, kind] for everything a user may name: cards, mechanics, steps, zones,
    rules concepts, the combined back faces of meld pairs."""
    # Card names are told from face names by their minted IRI: a type join takes four times as long
    # at full card-pool scale.
    card_prefix = namespace("card")
    names = {
        (row["name"].value, row["iri"].value, "card")
        for row in store.query(library_query("card-names"), prefixes=PREFIXES)
        if row["iri"].value.startswith(card_prefix)
    }
    rows = store.query(library_query("node-names"), prefixes=PREFIXES)
    names |= {(row["name"].value, row["iri"].value, row["kind"].value) for row in rows}
    return sorted(list(entry) for entry in names)


def names_of(store: Any, subjects: Iterable[str]) -> list[list[str]]:
    """The entries of :func:`name_index` for the IRIs ``subjects`` only, read subject by subject."""
    import pyoxigraph as ox

    card_prefix = namespace("card")
    default = ox.DefaultGraph()
    card_names = [ox.NamedNode(V.name), ox.NamedNode(V.alsoNamed)]
    kind_of, label = ox.NamedNode(RDF_TYPE), ox.NamedNode(RDFS_LABEL)
    names: set[tuple[str, str, str]] = set()
    for iri in subjects:
        if iri.startswith("_:"):
            continue
        node = ox.NamedNode(iri)
        if iri.startswith(card_prefix):
            for predicate in card_names:
                names |= {
                    (q.object.value, iri, "card")
                    for q in store.quads_for_pattern(node, predicate, None, default)
                }
        kinds = {
            _KINDS.get(q.object.value) for q in store.quads_for_pattern(node, kind_of, None, default)
        } - {None}
        if kinds:
            labels = [q.object.value for q in store.quads_for_pattern(node, label, None, default)]
            names |= {(text, iri, kind) for kind in kinds for text in labels if kind}
    return sorted(list(entry) for entry in names)


def update_name_index(store: Any, previous: list[list[str]], changed: set[str]) -> list[list[str]]:
    """``previous`` with the entries of the IRIs ``changed`` read again from ``store``."""
    if len(changed) > _AT_MOST_BY_SUBJECT:
        return name_index(store)
    kept = [entry for entry in previous if entry[1] not in changed]
    return sorted(kept + names_of(store, changed))
