"""When a card's abilities of the ninjutsu family, and casting the card, can be used: the steps the
named query ``mechanic-steps`` finds by walking the turn graph (the one walk of it for timing), with
the requirements the card waives left out. Which requirements a card waives, and which card types a
requirement on the card itself asks for, are the requirement patterns' to say
(``queries/requirements/``, through :func:`mtgkb.reasoning.requirements.evaluate.holds_for_card`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.reasoning.contract import rule_order
from mtgkb.reasoning.knowledge import Node, RulesData, read_cards, read_rules
from mtgkb.reasoning.requirements.evaluate import holds_for_card
from mtgkb.reasoning.situation import resolve_card, steps

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: The requirement properties a card's own characteristics decide, before any situation: a
#: requirement on the card itself that one of them fails can never be met (a land is never cast).
CARD_PROPERTIES = (V.requiresCardType, V.requiresNotCardType, V.requiresSupertype, V.requiresSubtype)
#: The properties that lift a requirement for some cards (sorcery timing, for instants and flash).
WAIVERS = (V.waivedByCardType, V.waivedByMechanic)


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
    found = []
    for ability in abilities:
        for mechanic in ability.all(V.instantiates):
            if rules.node(mechanic).first(V.actionKind) in (V.Activate, V.Cast):
                label = ability.first(RDFS_LABEL) or rules.label(mechanic)
                found.append(_timing(kb, rules, label, mechanic, card_iri))
    if _possible_for(kb, rules, CASTING, card_iri):
        found.insert(0, _timing(kb, rules, "Cast", CASTING, card_iri))
    return TimingReport(display, found)


def _timing(kb: KnowledgeBase, rules: RulesData, label: str, mechanic: str, card: str) -> AbilityTiming:
    from mtgkb.kb.query_files import named_query_text

    every = rules.node(mechanic).all(V.hasRequirement)
    waived = [r for r in every if _waived(kb, rules.node(r), card)]
    kept = [rules.node(r) for r in every if r not in waived]
    rows = kb.select(
        named_query_text("mechanic-steps"), mechanic=mechanic, **({"waived": waived} if waived else {})
    )
    order = {info.iri: info for info in steps(kb).values()}
    # No row: nothing the requirements kept demand narrows the steps, so every step.
    allowed = [row["step"] for row in rows] if rows else list(order)
    timings = [rules.node(t) for n in kept for t in n.all(V.requiresTiming)]
    cites = {c for n in [rules.node(mechanic), *kept, *timings] for c in n.cites}
    return AbilityTiming(
        ability=label,
        mechanic=mechanic,
        steps=[order[s].name for s in allowed if s in order],
        your_turn_only=any(row["yourTurnOnly"] for row in rows),
        needs_empty_stack=any(n.first(V.requiresEmptyStack) is True for n in kept + timings),
        cites=sorted(cites, key=rule_order),
    )


def _possible_for(kb: KnowledgeBase, rules: RulesData, mechanic: str, card: str) -> bool:
    """False when a requirement on the card itself asks for characteristics the card never has."""
    for requirement in map(rules.node, rules.node(mechanic).all(V.hasRequirement)):
        if requirement.first(V.appliesTo) != V.SourceObject:
            continue
        for prop in CARD_PROPERTIES:
            terms = requirement.terms(prop)
            if terms and holds_for_card(kb, prop, terms, card) is False:
                return False
    return True


def _waived(kb: KnowledgeBase, requirement: Node, card: str) -> bool:
    return any(
        holds_for_card(kb, prop, requirement.terms(prop), card) is True
        for prop in WAIVERS
        if requirement.terms(prop)
    )
