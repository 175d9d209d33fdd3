"""What a verdict says beside its checks: each object that could pay a cost, as the verdict lists
it, and the rulings read for the way that answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.kb.vocab import V
from mtgkb.reasoning.actions.verdicts import ActionVerdict, Candidate, RulingNote

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.reasoning.game_graph import GameGraph
    from mtgkb.reasoning.knowledge import RulesData
    from mtgkb.reasoning.situation import GameObject


def candidate(graph: GameGraph, obj: GameObject, pays: str, returned: bool) -> Candidate:
    blocked = {V.Blocked: "blocked", V.Unblocked: "unblocked", V.BlockedStatusUndecided: "undecided"}
    return Candidate(
        name=obj.name,
        controller=obj.controller,
        owner=obj.owner,
        token=obj.token,
        commander=obj.commander,
        attacking=graph.situation.display(obj.attacking) if obj.attacking else None,
        blocked=blocked.get(obj.blocked or ""),
        pays=pays,
        returned=returned,
    )


def add_rulings(
    verdict: ActionVerdict, kb: KnowledgeBase, rules: RulesData, source: GameObject, mechanic: str
) -> None:
    """The card's own rulings, then the general rulings of its keyword mechanic
    (:mod:`mtgkb.lookups.verdict_rulings`)."""
    from mtgkb.lookups.verdict_rulings import verdict_rulings

    # Rulings on a keyword mechanic apply to every card with it; casting a spell the ordinary way is
    # no keyword, and the thousands of rulings that speak of casting are not about this card.
    lineage = [
        (m, rules.node(m).first(V.keyword))
        for m in rules.mechanic_lineage(mechanic)
        if rules.node(m).first(V.keyword)
    ]
    found = verdict_rulings(kb, source.card, source.name, lineage)
    verdict.rulings = [RulingNote(r.date, r.text, r.summary, r.about, r.general) for r in found.rulings]
    verdict.rulings_more = found.more
    verdict.rulings_see = found.see
