"""Cost reductions that depend on the object chosen to pay a cost: emerge's sacrificed creature takes
its mana value off the total cost (702.119a), harmonize's tapped creature its power (702.180a). The
requirement that finds the candidates names the characteristic (mtgkb:reducesCostBy); the candidate
that takes off the most is chosen, as a player who wants to cast the spell would choose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgkb.kb.vocab import V

if TYPE_CHECKING:
    from mtgkb.reasoning.game_graph import GameGraph
    from mtgkb.reasoning.requirements.evaluate import Evaluation


@dataclass(frozen=True)
class Reduction:
    amount: int  # generic mana taken off the total cost
    note: str  # "Grizzly Bears's mana value 2 makes it cost {2} less"
    cites: list[str]


def best_reduction(graph: GameGraph, evaluations: list[Evaluation]) -> Reduction | None:
    """The largest reduction a candidate of the evaluated requirements gives; None when no
    requirement reduces the cost or no candidate has a number for it (a power of "*")."""
    best: Reduction | None = None
    for evaluation in evaluations:
        node = graph.rules.node(evaluation.check.evaluates or "")
        characteristic = node.first(V.reducesCostBy)
        if characteristic is None:
            continue
        word = graph.rules.label(characteristic).lower()
        for obj in evaluation.candidates:
            value = graph.card(obj).first(characteristic)
            try:
                amount = int(float(str(value)))
            except ValueError:
                continue
            if characteristic == V.power:  # its power now: each +1/+1 counter adds one (122.1a)
                amount += obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            if best is None or amount > best.amount:
                note = f"{obj.name}'s {word} {amount} makes it cost {{{amount}}} less"
                best = Reduction(amount, note, node.cites)
    return best
