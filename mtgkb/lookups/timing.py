"""When a mechanic can be used, derived from the turn graph by the named query ``mechanic-steps``
(one definition, shared by ``mtgkb query`` and the lookups)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


@dataclass
class StepRef:
    iri: str
    label: str | None
    order: int | None
    your_turn_only: bool = False  # the mechanic needs its user to be the active player


def usable_steps(kb: KnowledgeBase, mechanics: set[str]) -> dict[str, list[StepRef]]:
    """The steps, in turn order, in which each of ``mechanics`` can be used. Mechanics whose
    requirements say nothing about steps (partner abilities, web-slinging) are absent."""
    if not mechanics:
        return {}
    from mtgkb.kb.query_files import named_query_text

    # Bound to the mechanics asked about: the whole query walks the turn for every mechanic of the
    # store, minutes at full card-pool scale.
    windows: dict[str, list[StepRef]] = {}
    for row in kb.select(named_query_text("mechanic-steps"), mechanic=sorted(mechanics)):
        windows.setdefault(row["mechanic"], []).append(
            StepRef(row["step"], row["stepLabel"], row["stepOrder"], bool(row.get("yourTurnOnly")))
        )
    return windows
