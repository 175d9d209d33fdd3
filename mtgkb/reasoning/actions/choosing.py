"""Choosing among the ways of using a card: the cheapest that works, the ordinary cast first when a
question asks for it, and which ways are worth listing beside the verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.kb.vocab import V
from mtgkb.reasoning import mana
from mtgkb.reasoning.actions.verdicts import ActionVerdict, WayTried
from mtgkb.reasoning.situation import zone_iri

if TYPE_CHECKING:
    from mtgkb.reasoning.knowledge import RulesData
    from mtgkb.reasoning.situation import GameObject


def best_of(verdicts: list[ActionVerdict], preferred: list[ActionVerdict] | None = None) -> ActionVerdict:
    """The cheapest way that works (of the ``preferred`` ways first, when one of them works), or the
    first way tried when none does; the others listed with their verdicts."""
    working = [v for v in preferred or [] if v.answer] or [v for v in verdicts if v.answer]
    # No way works: one that cannot be told beats a no, since it may work.
    unknown = [v for v in (preferred or []) + verdicts if v.answer is None]
    chosen = min(working, key=lambda v: _mana_value(v.cost)) if working else (unknown or verdicts)[0]
    if len(verdicts) > 1:
        chosen.alternatives = [
            WayTried(
                v.ability or "cast normally",
                v.via or "",
                v.answer,
                v.cost,
                v.checks,
                v.cites,
                v.face,
                v.candidates,
                v.outcome,
            )
            for v in verdicts
            if v is not chosen
        ]
    return chosen


def from_here(rules: RulesData, source: GameObject, verdict: ActionVerdict) -> bool:
    """Whether the way can be taken from the zone the card is in: none of its checks on where the
    card must be leaves out that zone (a flashback way for a card in hand cannot; a foretold card's
    way for a card foretold this turn can, though it fails)."""
    here = zone_iri(source.zone)
    for check in verdict.checks:
        node = rules.node(check.evaluates or "")
        zones = node.all(V.requiresZone)
        if check.holds is False and zones and here not in zones and node.first(V.appliesTo) == V.SourceObject:
            return False
    return True


def _mana_value(cost: str | None) -> float:
    if not cost:
        return 0
    try:
        return mana.parse_cost(cost).mana_value
    except ValueError:
        return float("inf")
