"""What the knowledge base holds: triples per named graph and counts of the things judges look up."""

from __future__ import annotations

from dataclasses import dataclass

from mtgkb.kb.query_files import library_query
from mtgkb.kb.store import KnowledgeBase, graph_label


@dataclass
class GraphCount:
    graph: str
    iri: str
    triples: int


@dataclass
class Stats:
    store: str
    graphs: list[GraphCount]
    triples: int
    cards: int
    rules: int
    rulings: int
    mechanics: int


def knowledge_base_stats(kb: KnowledgeBase) -> Stats:
    graphs = [
        GraphCount(graph_label(iri), iri, count) for iri, count in sorted(kb.meta.get("graphs", {}).items())
    ]
    counts = kb.select(library_query("stats-counts"))[0]
    return Stats(
        store=str(kb.path),
        graphs=graphs,
        triples=sum(g.triples for g in graphs),
        cards=counts["cards"],
        rules=counts["rules"],
        rulings=counts["rulings"],
        mechanics=counts["mechanics"],
    )
