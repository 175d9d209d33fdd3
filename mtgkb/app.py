"""Opening and building the knowledge base with everything the reasoning layer derives from it and the
search index kept beside it.

The store (:mod:`mtgkb.kb.build`) takes its derivations and side indexes as arguments so that it never
imports the layers above it; this module names them once. The CLI, the importers, tests and benchmarks
open the knowledge base here. Opening a current store imports none of the build machinery: every
command pays only for what it uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mtgkb.kb.store import open_current, remove_abandoned_builds

if TYPE_CHECKING:
    from mtgkb.core.progress import Progress
    from mtgkb.kb.build import BuildSummary, Changes, Derivation, SideIndex
    from mtgkb.kb.sources import Source
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.lookups.card import CardReport


def _partner_pairs(kb: KnowledgeBase) -> str:
    from mtgkb.reasoning.commanders.partner_graph import derive_pairs

    return derive_pairs(kb)


#: Up to this many changed nodes are checked one by one; beyond, every input of the network is listed.
_CHECKED_ONE_BY_ONE = 200


def _partner_pairs_read(kb: KnowledgeBase, graphs: Sequence[str], subjects: set[str]) -> bool:
    from mtgkb.reasoning.commanders.partner_graph import candidate_subtypes, is_pairing_input, pairing_inputs

    if len(subjects) <= _CHECKED_ONE_BY_ONE:
        subtypes = candidate_subtypes(kb)
        return any(is_pairing_input(kb, iri, subtypes) for iri in subjects if not iri.startswith("_:"))
    return kb.states_about(pairing_inputs(kb), graphs)


def _build_search_index(kb: KnowledgeBase, progress: Progress | None) -> None:
    from mtgkb.lookups import search_index

    search_index.build_with_store(kb, progress)


def _update_search_index(
    kb: KnowledgeBase, previous: Path, changes: Changes, progress: Progress | None
) -> None:
    from mtgkb.lookups import search_index

    search_index.update_with_store(kb, previous, changes, progress)


def _defer_search_index(kb: KnowledgeBase, previous: Path, changes: Changes) -> None:
    from mtgkb.lookups import search_index

    search_index.defer_with_store(kb, previous, changes)


def derivations() -> tuple[Derivation, ...]:
    """What every build derives, in order."""
    from mtgkb.kb.build import Derivation
    from mtgkb.kb.iris import mint

    pairs = mint("graph", "derived", "partner-pairs")
    return (Derivation("the partner network", pairs, _partner_pairs, _partner_pairs_read),)


def indexes() -> tuple[SideIndex, ...]:
    """What every build keeps beside the store."""
    from mtgkb.kb.build import SideIndex

    return (SideIndex("the search index", _build_search_index, _update_search_index, _defer_search_index),)


def open_kb(progress: Progress | None = None) -> KnowledgeBase:
    """Open the current store, building or updating it first when a source changed or it is missing
    or broken."""
    remove_abandoned_builds()
    kb = open_current()
    if kb is not None:
        return kb
    from mtgkb.kb import build as store_build

    return store_build.open_kb(progress, derivations=derivations(), indexes=indexes())


def build(
    sources: list[Source] | None = None, progress: Progress | None = None, force: bool = False
) -> BuildSummary:
    """Bring the store up to date with ``sources`` (default: everything), or with ``force`` build it
    from scratch, and swap it in atomically."""
    from mtgkb.kb import build as store_build

    return store_build.build(sources, progress, force, derivations=derivations(), indexes=indexes())


def card_with_timing(kb: KnowledgeBase, name: str) -> CardReport:
    """``mtgkb card``'s report, each of the card's own abilities with the steps it can be used in by
    this card, as ``mtgkb timing`` finds them (its waivers applied: Force of Will's alternative cost
    at an instant's time), not the window of its mechanic for a card with no waiver."""
    from mtgkb.lookups.card import card_report
    from mtgkb.lookups.timing import StepRef
    from mtgkb.reasoning.actions.timing import timing_report
    from mtgkb.reasoning.situation import steps

    report = card_report(kb, name)
    if not bool(kb.raw_query(_WAIVABLE, {"card": report.iri})):
        return report  # no requirement of its mechanics is ever waived: their windows are the card's
    windows = {t.mechanic: t for t in timing_report(kb, report.name).abilities}
    turn = steps(kb)
    order = {row["step"]: row["order"] for row in kb.select(_STEP_ORDER)}
    for ability in report.abilities:
        timing = windows.get(ability.mechanic.iri) if ability.mechanic else None
        if timing is not None and ability.mechanic is not None and ability.mechanic.usable_in:
            ability.mechanic.usable_in = [
                StepRef(turn[step].iri, turn[step].label, order.get(turn[step].iri), timing.your_turn_only)
                for step in timing.steps  # in the turn's order
            ]
    return report


_STEP_ORDER = "SELECT ?step ?order WHERE { ?step mtgkb:stepOrder ?order }"
_WAIVABLE = (
    "ASK { ?card mtgkb:hasAbility/mtgkb:instantiates/mtgkb:hasRequirement ?requirement . "
    "?requirement mtgkb:waivedByCardType|mtgkb:waivedByMechanic ?waiver }"
)
