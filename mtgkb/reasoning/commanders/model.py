"""What the commander verdicts read from the store: the rules model (which cards may lead a deck, each
partner ability's pairing rule and candidate requirement, what follows from two commanders) and the
facts of the cards asked about. Both are plain dataclasses so the evaluation in
:mod:`mtgkb.reasoning.commanders.verdict` is pure and can run over one pair or the whole pool."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.rule_numbers import sorted_numbers
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V
from mtgkb.lookups.common import rule_number
from mtgkb.reasoning.contract import rule_order
from mtgkb.reasoning.requirements.registry import patterns, unmodelled

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

DESIGNATION = mint("concept", "commander-designation")
WUBRG = "WUBRG"
_SYMBOL = re.compile(r"\{([^{}]+)\}")
_REMINDER = re.compile(r"\([^()]*\)")


@dataclass
class Requirement:
    iri: str
    label: str
    supertypes: list[str] = field(default_factory=list)
    card_types: list[str] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    only_listed_subtypes: bool = False
    power_toughness_box: bool = False
    abilities: list[str] = field(default_factory=list)  # mechanic IRIs
    cites: list[str] = field(default_factory=list)
    unmodelled: list[str] = field(default_factory=list)  # requirement properties with no evaluator here
    # Every property of the requirement that a pattern of queries/requirements/ evaluates on the card
    # (mtgkb:requiresSupertype, mtgkb:requiresCardType, mtgkb:requiresSubtype, ...), with its values.
    parts: dict[str, list[Any]] = field(default_factory=dict)


@dataclass
class Mechanic:
    iri: str
    label: str
    parents: list[str] = field(default_factory=list)  # mtgkb:variantOf
    pairing_rule: str | None = None
    candidate: str | None = None  # requirement IRI
    every_creature_type: bool = False
    cites: list[str] = field(default_factory=list)


@dataclass
class Consequence:
    """Something that follows in the game from the way the commanders were paired."""

    what: str
    summary: str
    cites: list[str]


@dataclass
class Model:
    """The rules the commander verdicts evaluate, as read from the graph."""

    eligibility: list[Requirement]  # any one is enough (concept:commander-designation)
    designation_cites: list[str]
    requirements: dict[str, Requirement]
    mechanics: dict[str, Mechanic]
    consequences: dict[str, list[Consequence]]  # by mechanic IRI
    concepts: dict[str, list[str]] = field(default_factory=dict)  # rules concept IRI -> rules it cites

    def cites_of(self, concept: str) -> list[str]:
        """The rules a concept node cites: a check's citations come from the graph."""
        return self.concepts.get(concept, [])

    def ancestry(self, mechanic: str) -> list[str]:
        """``mechanic`` and every mechanic it is a variant of, nearest first."""
        seen: list[str] = []
        todo = [mechanic]
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.append(current)
            node = self.mechanics.get(current)
            if node:
                todo += node.parents
        return seen

    def is_a(self, mechanic: str, ancestor: str) -> bool:
        return ancestor in self.ancestry(mechanic)

    def pairing_mechanic(self, mechanic: str | None) -> Mechanic | None:
        node = self.mechanics.get(mechanic) if mechanic else None
        return node if node and node.pairing_rule else None

    def follows(self, mechanic: str) -> list[Consequence]:
        found: list[Consequence] = []
        for ancestor in reversed(self.ancestry(mechanic)):
            found += self.consequences.get(ancestor, [])
        # In the order of the rules they rest on: deck size and setup first, the partner-with trigger last.
        return sorted(found, key=lambda c: [rule_order(n) for n in c.cites])


@dataclass
class Ability:
    iri: str
    label: str
    mechanic: str | None
    partner_text: str | None = None
    partner_with: str | None = None
    partner_with_name: str | None = None


@dataclass
class Face:
    index: int
    mana_cost: str | None
    colors: list[str]
    text: str | None
    type_line: str | None
    power: str | None
    toughness: str | None
    name: str | None = None
    indicator: list[str] = field(default_factory=list)  # a colour indicator (204), if it has one


@dataclass
class CommanderCardFacts:
    iri: str
    name: str
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    power: str | None
    toughness: str | None
    mana_cost: str | None
    colors: list[str]
    stored_identity: list[str]
    text: str | None
    faces: list[Face]
    abilities: list[Ability]
    # What its own ability makes it off the battlefield (113.6c), in words, with that node's rules.
    off_battlefield: str | None = None
    off_battlefield_cites: list[str] = field(default_factory=list)
    # Whether the card meets each (property, values) part of a requirement, as its pattern says:
    # filled for many cards at once (mtgkb.reasoning.commanders.verdict.ask_patterns).
    meets: dict[tuple[str, tuple[Any, ...]], bool] = field(default_factory=dict, repr=False, compare=False)

    def has_mechanic(self, model: Model, mechanic: str) -> bool:
        return any(a.mechanic and model.is_a(a.mechanic, mechanic) for a in self.abilities)

    def every_creature_type(self, model: Model) -> bool:
        return any(
            a.mechanic in model.mechanics and model.mechanics[a.mechanic].every_creature_type
            for a in self.abilities
        )

    def partner_abilities(self, model: Model) -> list[Ability]:
        return [a for a in self.abilities if model.pairing_mechanic(a.mechanic)]


def wubrg(colors: set[str] | list[str]) -> list[str]:
    return sorted(set(colors), key=lambda c: (WUBRG.index(c) if c in WUBRG else 9, c))


def symbol_colors(text: str | None) -> set[str]:
    """Colours of the mana symbols in ``text``: {W/U} is white and blue, {B/P} black, {2/G} green."""
    if not text:
        return set()
    return {c for symbol in _SYMBOL.findall(text) for c in symbol.upper().split("/") if c in WUBRG}


def without_reminders(text: str | None) -> str:
    return _REMINDER.sub("", text or "")


def _group(rows: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    nodes: dict[str, dict[str, list[Any]]] = {}
    for row in rows:
        values = nodes.setdefault(row["s"], {}).setdefault(row["p"], [])
        if row["o"] not in values:
            values.append(row["o"])
    return nodes


def _first(node: dict[str, list[Any]], predicate: str) -> Any:
    values = node.get(predicate)
    return values[0] if values else None


def _cites(node: dict[str, list[Any]]) -> list[str]:
    return sorted_numbers([rule_number(iri) for iri in node.get(V.citesRule, [])])


def load_model(kb: KnowledgeBase) -> Model:
    """The commander rules as data: one small query over mechanics, requirements and concepts."""
    nodes = _group(kb.select(library_query("commander-model"), designation=DESIGNATION))
    requirements = {
        iri: Requirement(
            iri=iri,
            label=_first(node, RDFS_LABEL) or iri,
            supertypes=node.get(V.requiresSupertype, []),
            card_types=node.get(V.requiresCardType, []),
            subtypes=node.get(V.requiresSubtype, []),
            only_listed_subtypes=bool(_first(node, V.requiresOnlyListedSubtypes)),
            power_toughness_box=bool(_first(node, V.requiresPowerToughnessBox)),
            abilities=node.get(V.requiresAbility, []),
            cites=_cites(node),
            unmodelled=unmodelled(node, "commanders"),
            parts={p: node[p] for p, pattern in patterns().items() if pattern.about_object and node.get(p)},
        )
        for iri, node in nodes.items()
        if V.Requirement in node.get(RDF_TYPE, [])
    }
    mechanics = {
        iri: Mechanic(
            iri=iri,
            label=_first(node, RDFS_LABEL) or iri,
            parents=node.get(V.variantOf, []),
            pairing_rule=_first(node, V.pairingRule),
            candidate=_first(node, V.partnerCandidate),
            every_creature_type=bool(_first(node, V.hasEveryCreatureType)),
            cites=_cites(node),
        )
        for iri, node in nodes.items()
        if V.Mechanic in node.get(RDF_TYPE, [])
    }
    consequences: dict[str, list[Consequence]] = {}
    for iri in sorted(nodes):
        node = nodes[iri]
        for mechanic in node.get(V.consequenceOf, []):
            consequences.setdefault(mechanic, []).append(
                Consequence(_first(node, RDFS_LABEL) or iri, _first(node, V.summary) or "", _cites(node))
            )
    designation = nodes.get(DESIGNATION, {})
    # Plainest first: creature, Vehicle, Spacecraft, then a card whose own text makes it eligible.
    eligibility = sorted(
        (requirements[iri] for iri in designation.get(V.alternativeRequirement, [])),
        key=lambda r: (bool(r.abilities), r.power_toughness_box, len(r.subtypes), r.iri),
    )
    concepts = {iri: _cites(node) for iri, node in nodes.items() if V.RulesConcept in node.get(RDF_TYPE, [])}
    return Model(eligibility, _cites(designation), requirements, mechanics, consequences, concepts)


def load_cards(kb: KnowledgeBase, iris: list[str]) -> dict[str, CommanderCardFacts]:
    """The facts of the cards ``iris`` that a commander verdict needs, by IRI."""
    if not iris:
        return {}
    nodes = _group(kb.select(library_query("commander-cards"), card=list(iris)))
    return {
        iri: _card(iri, nodes)
        for iri in dict.fromkeys(iris)
        if V.Card in nodes.get(iri, {}).get(RDF_TYPE, [])
    }


def _card(iri: str, nodes: dict[str, dict[str, list[Any]]]) -> CommanderCardFacts:
    node = nodes[iri]
    faces = sorted(
        (
            Face(
                index=int(_first(nodes.get(f, {}), V.faceIndex) or 0),
                mana_cost=_first(nodes.get(f, {}), V.manaCost),
                colors=nodes.get(f, {}).get(V.colors, []),
                text=_first(nodes.get(f, {}), V.oracleText),
                type_line=_first(nodes.get(f, {}), V.typeLine),
                power=_first(nodes.get(f, {}), V.power),
                toughness=_first(nodes.get(f, {}), V.toughness),
                name=_first(nodes.get(f, {}), V.name),
                indicator=nodes.get(f, {}).get(V.colorIndicator, []),
            )
            for f in node.get(V.hasFace, [])
        ),
        key=lambda face: face.index,
    )
    ability_iris = list(node.get(V.hasAbility, []))
    for face in node.get(V.hasFace, []):
        ability_iris += nodes.get(face, {}).get(V.hasAbility, [])
    abilities = [
        Ability(
            iri=a,
            label=_first(nodes.get(a, {}), RDFS_LABEL) or a,
            mechanic=_first(nodes.get(a, {}), V.instantiates),
            partner_text=_first(nodes.get(a, {}), V.partnerText),
            partner_with=_first(nodes.get(a, {}), V.partnerWith),
            partner_with_name=_first(nodes.get(a, {}), V.partnerWithName),
        )
        for a in dict.fromkeys(ability_iris)
    ]
    supertypes = node.get(V.supertype, [])
    types = node.get(V.cardType, [])
    subtypes = node.get(V.subtype, [])
    power, toughness = _first(node, V.power), _first(node, V.toughness)
    # What its own ability makes it in every zone but the battlefield (113.6c): a commander is
    # judged as the card it is in the command zone (903.3).
    off = nodes.get(_first(node, V.hasOffBattlefieldCharacteristics) or "", {})
    if off:
        types = list(dict.fromkeys([*types, *off.get(V.cardType, [])]))
        subtypes = list(dict.fromkeys([*subtypes, *off.get(V.subtype, [])]))
        power = power if power is not None else _first(off, V.power)
        toughness = toughness if toughness is not None else _first(off, V.toughness)
    # The card-level values already follow its layout's rule (data/layouts.ttl): a double-faced
    # card's are its front face's (712.8a), an adventurer's its creature's (715.4), a split card's
    # both halves' (709.4).
    return CommanderCardFacts(
        iri=iri,
        name=_first(node, V.name) or iri,
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        power=power,
        toughness=toughness,
        mana_cost=_first(node, V.manaCost),
        colors=node.get(V.colors, []),
        stored_identity=node.get(V.colorIdentity, []),
        text=_first(node, V.oracleText),
        faces=faces,
        abilities=abilities,
        off_battlefield=_first(off, RDFS_LABEL) if off else None,
        off_battlefield_cites=_cites(off) if off else [],
    )
