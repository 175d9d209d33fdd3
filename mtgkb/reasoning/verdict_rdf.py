"""A verdict written out as RDF: the situation's graph, and the verdict with one node per check,
each linked to the requirement it evaluated and the rules it cites, so verdicts can be stored,
queried and exported like the rest of the knowledge base."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgkb.kb.iris import mint, rule_iri, slugify
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V
from mtgkb.reasoning.game_graph import plain_literal

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


def verdict_turtle(kb: KnowledgeBase, verdict: Any, situation: dict[str, Any] | None) -> str:
    """Turtle for ``verdict`` and the ``situation`` it was evaluated against (its graph is rebuilt,
    so the verdict dataclass stays plain data)."""
    import pyoxigraph as ox

    from mtgkb.reasoning.actions.ways import prepare

    graph = prepare(kb, situation).graph if situation is not None else None
    store = graph.store if graph is not None else ox.Store()
    key = graph.iri.rsplit("/", 1)[-1] if graph is not None else "none"
    question = getattr(verdict, "question", None) or type(verdict).__name__
    node = mint("verdict", key, slugify(question) or "verdict")
    quads = []

    def add(subject: str, predicate: str, value: Any) -> None:
        quads.append(ox.Quad(ox.NamedNode(subject), ox.NamedNode(predicate), value))

    add(node, RDF_TYPE, ox.NamedNode(V.Verdict))
    add(node, RDFS_LABEL, plain_literal(question))
    if verdict.answer is None:
        add(node, V.cannotTell, plain_literal(True))
    else:
        add(node, V.answer, plain_literal(verdict.answer))
    if graph is not None:
        add(node, V.aboutSituation, ox.NamedNode(graph.iri))
    for number in verdict.cites:
        add(node, V.citesRule, ox.NamedNode(rule_iri(number)))
    for index, check in enumerate(verdict.checks):
        check_node = f"{node}/check/{index}"
        add(node, V.hasCheck, ox.NamedNode(check_node))
        add(check_node, RDF_TYPE, ox.NamedNode(V.Check))
        add(check_node, RDFS_LABEL, plain_literal(check.check))
        if check.holds is None:
            add(check_node, V.cannotTell, plain_literal(True))
        else:
            add(check_node, V.holds, plain_literal(check.holds))
        add(check_node, V.because, plain_literal(check.because))
        if check.evaluates:
            add(check_node, V.evaluates, ox.NamedNode(check.evaluates))
        for number in check.cites:
            add(check_node, V.citesRule, ox.NamedNode(rule_iri(number)))
    store.extend(quads)
    prefixes = dict(PREFIXES, situation=mint("situation", "x")[:-1], verdict=mint("verdict", "x")[:-1])
    data = store.dump(format=ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph(), prefixes=prefixes)
    return data.decode("utf-8")
