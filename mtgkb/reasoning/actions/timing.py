"""When a card's abilities of the ninjutsu family, and casting the card, can be used: the steps every
requirement of the mechanic allows, found by walking the turn graph (queries/internal/
requirement-steps.rq), with the requirements a card's type or abilities waive left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.reasoning.contract import rule_order
from mtgkb.reasoning.knowledge import Node, RulesData, read_cards, read_rules
from mtgkb.reasoning.situation import resolve_card, steps

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


@dataclass
class AbilityTiming:
    ability: str  # "Ninjutsu {1}{U}", or "Cast" for casting the card itself
    mechanic: str
    steps: list[str]  # names as a situation writes them, in turn order
    your_turn_only: bool
    needs_empty_stack: bool
    cites: list[str]


@dataclass
class TimingReport:
    card: str
    abilities: list[AbilityTiming]


def timing_report(kb: KnowledgeBase, name: str) -> TimingReport:
    from mtgkb.reasoning.actions.ways import CASTING

    card_iri, display = resolve_card(kb, name, "CARD")
    rules = read_rules(kb)
    cards = read_cards(kb, {card_iri})
    card = cards.get(card_iri) or Node(card_iri)
    abilities = [cards.get(a) or Node(a) for a in card.all(V.hasAbility)]
    card_mechanics = {m for a in abilities for m in a.all(V.instantiates)}
    found = []
    for ability in abilities:
        for mechanic in ability.all(V.instantiates):
            if rules.node(mechanic).first(V.actionKind) in (V.Activate, V.Cast):
                label = ability.first(RDFS_LABEL) or rules.label(mechanic)
                found.append(_timing(kb, rules, label, mechanic, card, card_mechanics))
    if _possible_for(rules, CASTING, card):
        found.insert(0, _timing(kb, rules, "Cast", CASTING, card, card_mechanics))
    return TimingReport(display, found)


def _timing(
    kb: KnowledgeBase, rules: RulesData, label: str, mechanic: str, card: Node, card_mechanics: set[str]
) -> AbilityTiming:
    requirements = [
        r
        for r in rules.node(mechanic).all(V.hasRequirement)
        if not _waived(rules.node(r), card, card_mechanics)
    ]
    kept = _steps_allowed(kb, requirements)
    names = {info.iri: info.name for info in steps(kb).values()}
    nodes = [rules.node(r) for r in requirements]
    timings = [rules.node(t) for n in nodes for t in n.all(V.requiresTiming)]
    cites = {c for n in [rules.node(mechanic), *nodes, *timings] for c in n.cites}
    return AbilityTiming(
        ability=label,
        mechanic=mechanic,
        steps=[names[s] for s in kept if s in names],
        your_turn_only=any(n.first(V.requiresActivePlayer) is True for n in nodes + timings),
        needs_empty_stack=any(n.first(V.requiresEmptyStack) is True for n in nodes + timings),
        cites=sorted(cites, key=rule_order),
    )


def _possible_for(rules: RulesData, mechanic: str, card: Node) -> bool:
    """False when a requirement on the card itself asks for card types it can never meet (a land is
    never cast)."""
    types = set(card.all(V.cardType))
    for requirement in map(rules.node, rules.node(mechanic).all(V.hasRequirement)):
        if requirement.first(V.appliesTo) != V.SourceObject:
            continue
        if (
            not set(requirement.all(V.requiresCardType)) <= types
            or set(requirement.all(V.requiresNotCardType)) & types
        ):
            return False
    return True


def _waived(requirement: Node, card: Node, card_mechanics: set[str]) -> bool:
    return bool(set(requirement.all(V.waivedByCardType)) & set(card.all(V.cardType))) or bool(
        set(requirement.all(V.waivedByMechanic)) & card_mechanics
    )


def _steps_allowed(kb: KnowledgeBase, requirements: list[str]) -> list[str]:
    """Steps in turn order that every requirement allows."""
    from mtgkb.kb.query_files import library_query

    # No requirement at all: every step, the steps of a requirement that demands nothing.
    bound = requirements or [mint("requirement", "none")]
    rows = kb.select(library_query("requirement-steps"), requirement=bound)
    order: dict[str, int] = {}
    allowed: dict[str, set[str]] = {}
    for row in rows:
        allowed.setdefault(row["requirement"], set()).add(row["step"])
        order[row["step"]] = row["stepOrder"] or 0
    every = (
        set(order) if not requirements else set.intersection(*(allowed.get(r, set()) for r in requirements))
    )
    return sorted(every, key=lambda s: order[s])
