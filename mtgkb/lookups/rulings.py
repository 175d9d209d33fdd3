"""Rulings on a card, or rulings that mention a mechanic, step, zone or rules concept, newest first.

A ruling node carries the official wording (``mtgkb:text``, from a card-data import) and/or our own
summary (``mtgkb:summary``); both are returned, and the text renderer shows the official wording when
there is one. For a mechanic, rulings that mention one of its variants count too (a ruling on
commander ninjutsu is a ninjutsu ruling); rulings are not collected from every card that has the
mechanic, only from what the rulings themselves say they are about or mention: our curated links,
and the links derived at build time from the names those nodes carry (:mod:`mtgkb.kb.mentions`).
The rulings on a card are those of the named query ``card-rulings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.core.rule_numbers import sorted_numbers
from mtgkb.kb.iri_arguments import find_named
from mtgkb.kb.query_files import library_query, named_query_text
from mtgkb.kb.vocab import V
from mtgkb.lookups.common import Graph, Node, read_graph, rule_number

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: Kinds a rulings query may name, in order of preference when one name fits several (the zone
#: "exile" before the card Exile: someone asking for rulings by a one-word name means the rule idea).
RULINGS_KINDS = ("mechanic", "step", "zone", "concept", "card")


@dataclass
class Labelled:
    iri: str
    label: str | None


@dataclass
class RulingEntry:
    iri: str
    date: str | None
    source: str | None
    text: str | None  # official wording, present once card data has been imported
    summary: str | None  # our own words
    cards: list[Labelled] = field(default_factory=list)
    mentions: list[Labelled] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)


@dataclass
class RulingsReport:
    query: str
    subject: str
    subject_iri: str
    subject_kind: str
    rulings: list[RulingEntry]  # the newest ``limit`` of them
    total: int = 0  # how many there are in all
    limit: int | None = None


def ruling_entry(node: Node, graph: Graph) -> RulingEntry:
    return RulingEntry(
        iri=node.iri,
        date=node.first(V.rulingDate),
        source=node.first(V.rulingSource),
        text=node.first(V.text),
        summary=node.first(V.summary),
        cards=[Labelled(iri, graph.label(iri)) for iri in node.all(V.aboutCard)],
        mentions=[Labelled(iri, graph.label(iri)) for iri in node.all(V.mentions)],
        cites=sorted_numbers([rule_number(iri) for iri in node.all(V.citesRule)]),
    )


def newest_first(entries: list[RulingEntry]) -> list[RulingEntry]:
    by_name = sorted(entries, key=lambda e: ([c.label or c.iri for c in e.cards], e.iri))
    return sorted(by_name, key=lambda e: e.date or "", reverse=True)


def rulings_report(kb: KnowledgeBase, name: str, limit: int | None = None) -> RulingsReport:
    """The rulings on the card ``name``, or mentioning the mechanic, step, zone or concept ``name``;
    the newest ``limit`` of them (all when None) and how many there are."""
    match = find_named(kb, name, RULINGS_KINDS)
    # Dates first, then the triples of the rulings shown only: a zone is mentioned by thousands. One
    # query per kind of subject: a UNION of both, joined to the rulings' triples, made the store read
    # every ruling (two seconds with 67,000 imported rulings instead of a few milliseconds).
    if match.kind == "card":
        dated = kb.select(named_query_text("card-rulings"), card=match.iri)
    else:
        dated = kb.select(library_query("rulings-mentioning"), subject=match.iri)
    newest = sorted(
        {row["ruling"]: row["date"] or "" for row in dated}.items(), key=lambda item: (item[1], item[0])
    )
    newest.reverse()
    shown = [iri for iri, _ in (newest if limit is None else newest[:limit])]
    rulings: list[RulingEntry] = []
    if shown:
        graph = read_graph(kb.select(library_query("node-triples"), s=shown))
        rulings = [ruling_entry(node, graph) for node in graph.nodes.values() if V.Ruling in node.classes]
    return RulingsReport(name, match.name, match.iri, match.kind, newest_first(rulings), len(newest), limit)
