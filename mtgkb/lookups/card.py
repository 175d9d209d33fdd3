"""Everything the knowledge base says about one card: its facts, faces, abilities with the mechanic
each one is and the rules that mechanic rests on, and its rulings. A full name needs one query; a
short name, a prefix or a typo goes through the name index first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.core.errors import NotFoundError
from mtgkb.core.rule_numbers import sorted_numbers
from mtgkb.kb.iris import card_iri
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDFS_COMMENT, RDFS_LABEL, V
from mtgkb.lookups.card_faces import (
    FaceInfo,
    LayoutInfo,
    MeldInfo,
    PrototypeInfo,
    characteristics,
    faces_of,
    layout_of,
    meld_of,
    prototype_of,
    wubrg,
)
from mtgkb.lookups.common import (
    CARDS_HINT,
    Graph,
    Node,
    cards_imported,
    read_graph,
    rule_number,
    with_import_hint,
)
from mtgkb.lookups.rulings import RulingEntry, newest_first, ruling_entry
from mtgkb.lookups.timing import StepRef, usable_steps

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


@dataclass
class RuleRef:
    number: str
    iri: str
    title: str | None
    part_of: str | None = None  # title of the rule it belongs to ("Ninjutsu" for 702.49b)


@dataclass
class MechanicRef:
    iri: str
    label: str | None
    keyword: str | None
    variant_of: list[str] = field(default_factory=list)  # labels of the mechanics it is a variant of
    usable_in: list[StepRef] = field(default_factory=list)  # derived from the turn graph


@dataclass
class AbilityParameter:
    """One value completing an ability of a parameterised mechanic ("Friends forever" for
    partner—[text]): a value of a property the ontology types ``mtgkb:AbilityParameter``."""

    property: str  # IRI
    name: str  # the property's label: "partner text"
    value: str  # a literal, or an IRI
    value_label: str | None  # the name of the node an IRI value is
    shown_as: str | None  # how it reads in a description ("partner—Friends forever"); None: not shown


@dataclass
class AbilityInfo:
    iri: str
    label: str | None
    mechanic: MechanicRef | None
    cost: str | None
    text: str | None
    comment: str | None
    parameters: list[AbilityParameter]
    granted_to: str | None
    grants: list[AbilityInfo] = field(default_factory=list)
    rules: list[RuleRef] = field(default_factory=list)  # cited by the ability or by its mechanic
    # The mechanic whose abilities this one changes (Silver-Fur Master: ninjutsu costs less); the
    # changed mechanic's rules are not this ability's rules, so they are not in ``rules``.
    changes: MechanicRef | None = None
    position: int | None = None  # among the card's "[Cost]: [Effect]" abilities: can-activate --ability N


@dataclass
class OracleAbility:
    """One ability as the Oracle text prints it (a paragraph, or one keyword of a keyword line),
    with the ability nodes that model it: a mechanic's instance, a grant."""

    text: str
    face: str | None  # the face printing it, for a card with several faces
    modelled: list[str] = field(default_factory=list)  # IRIs of the ability nodes it is


@dataclass
class CardReport:
    name: str
    iri: str
    oracle_id: str | None
    layout: str | None
    mana_cost: str | None
    mana_value: float | None
    type_line: str | None
    types: list[str]
    supertypes: list[str]
    subtypes: list[str]
    colors: list[str]
    color_identity: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    defense: str | None
    commander_legality: str | None
    legal_in: list[str]  # formats, as card databases name them ("modern", "legacy")
    banned_in: list[str]
    restricted_in: list[str]
    also_named: list[str]  # other names of the same card (the same Oracle id)
    oracle_text: str | None  # present once card data has been imported
    color_indicator: list[str]
    layout_rule: LayoutInfo | None  # the rule giving the card its characteristics from its faces
    faces: list[FaceInfo]
    prototype: PrototypeInfo | None  # a prototype card's second set of characteristics (718.2)
    meld: MeldInfo | None  # the meld pair it belongs to and the combined back face (712.4)
    abilities: list[AbilityInfo]  # its own and its faces' (FaceInfo.abilities says which face)
    oracle_abilities: list[OracleAbility]  # every ability of the Oracle text, in printed order
    rulings: list[RulingEntry]
    cites: list[str]  # every rule number the card, its abilities, their mechanics and rulings cite
    # False when the name is the combined back face of a meld pair: no card (712.4b), explained by
    # ``meld``; the card fields are then empty.
    is_card: bool = True


def card_report(kb: KnowledgeBase, name: str) -> CardReport:
    """The report on the card ``name`` (any case, accents or punctuation; a unique prefix will do)."""
    # A full name is its own IRI slug, so one query usually does; the name index (30,000 names at
    # full scale) is read only for short names, prefixes and typos.
    iri = _slug_iri(name)
    graph = _read_if_card(kb, iri) if iri else None
    if graph is not None and not _spelt_as(graph.node(iri), name):
        graph = None  # another card whose name differs only in punctuation may hold that slug
    if graph is None:
        from mtgkb.kb.names import resolve

        try:
            match = resolve(kb.names, name, ("card", "melded"))
        except NotFoundError as missing:
            error = NotFoundError("card", name, missing.suggestions)
            raise error if cards_imported(kb) else with_import_hint(error, CARDS_HINT) from None
        iri = match.iri
        if match.kind == "melded":
            return melded_face_report(kb, iri, name)
        graph = _read_if_card(kb, iri)
    if graph is None or iri is None:
        raise NotFoundError("card", name, [])
    card = graph.node(iri)
    faces = faces_of(graph, card)
    own = card.all(V.hasAbility)
    printed = own + [a for face in faces for a in face.abilities if a not in own]
    abilities = [_ability(graph, ability, depth=0) for ability in dict.fromkeys(printed)]
    _add_timing(kb, abilities)
    rulings = [ruling_entry(n, graph) for n in graph.nodes.values() if V.Ruling in n.classes]
    texts = [(face.name, face.oracle_text) for face in faces] or [(None, card.first(V.oracleText))]
    return CardReport(
        name=card.label or name,
        iri=iri,
        oracle_id=card.first(V.oracleId),
        layout=card.first(V.layout),
        mana_value=card.first(V.manaValue),
        types=card.all(V.cardType),
        supertypes=card.all(V.supertype),
        subtypes=card.all(V.subtype),
        colors=wubrg(card.all(V.colors)),
        color_identity=wubrg(card.all(V.colorIdentity)),
        color_indicator=wubrg(card.all(V.colorIndicator)),
        layout_rule=layout_of(graph, card),
        prototype=prototype_of(graph, card),
        meld=meld_of(graph, card.first(V.meldsInto)),
        commander_legality=card.first(V.commanderLegality),
        legal_in=_formats(graph, card, V.legalIn),
        banned_in=_formats(graph, card, V.bannedIn),
        restricted_in=_formats(graph, card, V.restrictedIn),
        also_named=sorted(card.all(V.alsoNamed)),
        **characteristics(card),
        faces=faces,
        abilities=sorted(abilities, key=lambda a: a.label or a.iri),
        oracle_abilities=oracle_abilities(texts, abilities),
        rulings=newest_first(rulings),
        cites=sorted_numbers(_all_cited(graph)),
    )


def _formats(graph: Graph, card: Node, status: str) -> list[str]:
    """The formats of one status on the card's legalities node(s)."""
    return sorted({f for node in card.all(V.legalities) for f in graph.node(node).all(status)})


def _spelt_as(card: Node, name: str) -> bool:
    """Whether ``name`` is the card's name (or another name of it) but for case; a name typed any
    other way goes through the name index, which knows every card sharing the slug."""
    wanted = name.strip().casefold()
    return any(known.casefold() == wanted for known in card.all(V.name) + card.all(V.alsoNamed))


def _slug_iri(name: str) -> str | None:
    try:
        return card_iri(name)
    except ValueError:
        return None


def _read_if_card(kb: KnowledgeBase, iri: str) -> Graph | None:
    """The nodes of the card report on ``iri``; None when ``iri`` is not a card."""
    graph = read_graph(kb.select(library_query("card-report"), card=iri))
    return graph if V.Card in graph.node(iri).classes else None


def melded_face_report(kb: KnowledgeBase, iri: str, name: str) -> CardReport:
    """What a melded permanent's name is: the combined back face of a meld pair, not a card (712.4b),
    with the face's characteristics and the two cards that meld into it."""
    graph = read_graph(kb.select(library_query("card-report"), card=iri))
    meld = meld_of(graph, iri)
    assert meld is not None
    node = graph.node(iri)
    mana_value = node.first(V.manaValue)
    return CardReport(
        name=node.label or name,
        iri=iri,
        oracle_id=None,
        layout="meld",
        mana_value=float(mana_value) if mana_value is not None else None,
        types=node.all(V.cardType),
        supertypes=node.all(V.supertype),
        subtypes=node.all(V.subtype),
        colors=wubrg(node.all(V.colors)),
        color_identity=[],
        commander_legality=None,
        legal_in=[],
        banned_in=[],
        restricted_in=[],
        also_named=[],
        **characteristics(node),
        color_indicator=wubrg(node.all(V.colorIndicator)),
        layout_rule=None,
        faces=[],
        prototype=None,
        meld=meld,
        abilities=[],
        oracle_abilities=oracle_abilities([(None, node.first(V.oracleText))], []),
        rulings=[],
        cites=meld.cites,
        is_card=False,
    )


def _ability(graph: Graph, iri: str, depth: int) -> AbilityInfo:
    node = graph.node(iri)
    mechanic_iri = node.first(V.instantiates)
    mechanic = graph.node(mechanic_iri) if mechanic_iri else None
    cited = node.all(V.citesRule) + (mechanic.all(V.citesRule) if mechanic else [])
    # A grant that (wrongly) grants itself back must not recurse forever.
    grants = [_ability(graph, g, depth + 1) for g in node.all(V.grants)] if depth < 4 else []
    return AbilityInfo(
        iri=iri,
        label=node.first(RDFS_LABEL),
        mechanic=_mechanic(graph, mechanic) if mechanic else None,
        cost=node.first(V.abilityCost),
        text=node.first(V.abilityText),
        comment=node.first(RDFS_COMMENT),
        parameters=_parameters(graph, node),
        granted_to=node.first(V.grantedTo),
        grants=grants,
        rules=_rule_refs(graph, cited),
        changes=_changed(graph, node.first(V.changesMechanic)),
        position=int(node.first(V.abilityPosition)) if node.first(V.abilityPosition) is not None else None,
    )


def _parameters(graph: Graph, ability: Node) -> list[AbilityParameter]:
    """The ability's values of every ability-parameter property, by property."""
    found = []
    for predicate in sorted(ability.values):
        declared = graph.node(predicate)
        if V.AbilityParameter not in declared.classes:
            continue
        name = declared.first(RDFS_LABEL) or predicate
        template = declared.first(V.parameterTemplate)
        for value in ability.all(predicate):
            label = graph.labels.get(value) if isinstance(value, str) else None
            shown = template.replace("{value}", label or str(value)) if template else None
            found.append(AbilityParameter(predicate, name, value, label, shown))
    return found


def _changed(graph: Graph, iri: str | None) -> MechanicRef | None:
    """Only iri and label: the card query reads the changed mechanic's label along with the ability's
    triples, but not the mechanic's own triples, and one more query is not worth a keyword."""
    if iri is None:
        return None
    return MechanicRef(iri=iri, label=graph.label(iri), keyword=None)


def _add_timing(kb: KnowledgeBase, abilities: list[AbilityInfo]) -> None:
    def walk(items: list[AbilityInfo]):
        for ability in items:
            yield ability
            yield from walk(ability.grants)

    with_mechanic = [a.mechanic for a in walk(abilities) if a.mechanic]
    windows = usable_steps(kb, {m.iri for m in with_mechanic})
    for mechanic in with_mechanic:
        mechanic.usable_in = windows.get(mechanic.iri, [])


def _mechanic(graph: Graph, node: Node) -> MechanicRef:
    return MechanicRef(
        iri=node.iri,
        label=node.first(RDFS_LABEL),
        keyword=node.first(V.keyword),
        variant_of=[graph.label(iri) or iri for iri in node.all(V.variantOf)],
    )


def _rule_refs(graph: Graph, iris: list[str]) -> list[RuleRef]:
    refs = {}
    for iri in iris:
        node = graph.node(iri)
        number = node.first(V.ruleNumber) or rule_number(iri)
        parent = node.first(V.parentRule)
        part_of = graph.node(parent).first(V.title) if parent else None
        refs[number] = RuleRef(number, iri, node.first(V.title), part_of)
    return [refs[number] for number in sorted_numbers(list(refs))]


def _all_cited(graph: Graph) -> list[str]:
    return [rule_number(iri) for node in graph.nodes.values() for iri in node.all(V.citesRule)]


_REMINDER = re.compile(r"\s*\([^)]*\)")


def split_abilities(text: str) -> list[str]:
    """The abilities of one Oracle text in printed order: each paragraph, and each keyword of a line
    of keywords ("Flying, haste" is two abilities; reminder text does not count)."""
    found = []
    for paragraph in text.splitlines():
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        bare = _REMINDER.sub("", paragraph).strip()
        # A keyword line has no sentence in it: no full stop, no colon, no quotation.
        if ", " in bare and not any(mark in bare for mark in '.:"—') and bare == paragraph:
            found += [part[0].upper() + part[1:] for part in bare.split(", ") if part]
        else:
            found.append(paragraph)
    return found


def oracle_abilities(
    texts: list[tuple[str | None, str | None]], abilities: list[AbilityInfo]
) -> list[OracleAbility]:
    """Every ability of the Oracle text (``texts``: face name and text, or None and the card's
    text), each linked to the ability nodes whose text it is."""
    several = len(texts) > 1
    listed = []
    for face, text in texts:
        for line in split_abilities(text or ""):
            modelled = [a.iri for a in abilities if _printed_as(a, line)]
            listed.append(OracleAbility(line, face if several else None, modelled))
    return listed


def _printed_as(ability: AbilityInfo, line: str) -> bool:
    """Whether ``line`` (a paragraph, or one keyword of a keyword line) prints ``ability``: its whole
    text, its text before reminder text, or, on a keyword line, its keyword ("Haste" of "Flying,
    haste")."""
    text = (ability.text or "").strip()
    if not text:
        return False
    if text == line:
        return True
    if ", " in text and (ability.label or "").lower() == line.lower():
        return True
    return len(line) > 3 and text.startswith(line) and not text[len(line) :].startswith(",")
