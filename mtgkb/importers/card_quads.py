"""Card records -> N-Quads: cards, faces, the abilities our Oracle-text reader finds, and rulings.

This is the hot loop of a full card-pool import (about a million quads), so it is plain string
formatting through :class:`mtgkb.core.nquads.QuadWriter`: predicate IRIs and recurring objects are
formatted once, up front.
"""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from mtgkb.core.nquads import XSD, QuadWriter, iri, literal
from mtgkb.core.progress import Progress, Ticker
from mtgkb.importers.card_faces import (
    melded_iri,
    write_characteristics,
    write_face_types,
    write_faces,
    write_off_battlefield,
    write_prototype,
)
from mtgkb.importers.card_iris import CardIris, card_slug
from mtgkb.importers.card_layouts import LayoutRules, own_faces
from mtgkb.importers.card_model import CardRecord, RulingRecord
from mtgkb.importers.oracle_abilities import (
    STATIC_MECHANICS,
    RecognisedAbility,
    distinct_abilities,
    recognise_abilities,
)
from mtgkb.importers.oracle_activated import (
    Minted,
    read_activated_abilities,
    read_condition,
    read_keyword_cost,
)
from mtgkb.importers.oracle_copy import read_copy_effects, write_copy_effect
from mtgkb.importers.oracle_sentences import cost_change_direction, read_cast_sentences
from mtgkb.importers.oracle_spell import read_spell_targets
from mtgkb.kb.iris import mint, ruling_iri
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V

Add = Callable[[str, str, str], None]
T = TypeVar("T")

_CARD = iri(V.Card)
_KEYWORD_ABILITY = iri(V.KeywordAbility)
_STATIC_ABILITY = iri(V.StaticAbility)
_ACTIVATED_ABILITY = iri(V.ActivatedAbility)
_REQUIREMENT = iri(V.Requirement)
_SPELL_TARGETS = iri(V.SpellTargets)
_RULING = iri(V.Ruling)
_LEGALITIES = iri(V.Legalities)
_DATASET = iri(V.Dataset)
_DATE = f"^^<{XSD}date>"
# A format's legality as card databases report it -> the property that lists the format.
_LEGALITY = {"legal": V.legalIn, "banned": V.bannedIn, "restricted": V.restrictedIn}

# Types, colours, layouts, legalities, P/T and ruling sources repeat across the pool: format each
# distinct value once. Names and texts are unique and go through literal() directly. Typed: True, 1
# and 1.0 are equal keys, and an untyped cache gave a mana value of 1 the literal "true".
_term = functools.lru_cache(maxsize=None, typed=True)(literal)


@dataclass
class CardCounts:
    cards: int = 0
    faces: int = 0
    abilities: Counter[str] = field(default_factory=Counter)
    granted: Counter[str] = field(default_factory=Counter)
    changing: Counter[str] = field(default_factory=Counter)
    unresolved_partners: list[str] = field(default_factory=list)
    copy_effects: int = 0
    activated: int = 0  # "[Cost]: [Effect]" abilities read (oracle_activated)
    faces_known_only_by_name: int = 0
    melded_faces: int = 0


def face_abilities(record: CardRecord) -> list[list[RecognisedAbility]]:
    """The abilities printed on each face of the card (on the card itself when it has one face)."""
    return [recognise_abilities(text, name) for name, text in record.texts()]


def write_cards(
    records: list[CardRecord],
    nodes: CardIris,
    writer: QuadWriter,
    progress: Progress | None = None,
    rules: LayoutRules | None = None,
) -> CardCounts:
    """Write every card with its faces and abilities (``nodes`` from
    :func:`mtgkb.importers.card_iris.assign_card_iris`); "partner with" names resolve to these cards,
    by card name and then by face name. An ability is linked from the face printing it, and from the
    card when its layout's rule (``rules``) gives the card that face's characteristics."""
    rules = rules or LayoutRules()
    iri_by_name = dict(nodes.iris)
    for record in records:
        for face in record.faces:
            iri_by_name.setdefault(face.name, iri_by_name[record.name])
    counts = CardCounts()
    ticker = Ticker(progress, "writing cards", len(records))
    add = writer.add
    p_type, p_label, p_name = RDF_TYPE, RDFS_LABEL, V.name
    written_legalities: set[str] = set()
    for number, record in enumerate(records, 1):
        card = iri_by_name[record.name]
        slug = card_slug(card)
        name = literal(nodes.names.get(card, record.name))
        add(card, p_type, _CARD)
        add(card, p_label, name)
        add(card, p_name, name)
        for other in nodes.also_named.get(card, ()):
            add(card, V.alsoNamed, literal(other))
        write_characteristics(add, card, record)
        if record.oracle_id:
            add(card, V.oracleId, literal(record.oracle_id))
        if record.layout:
            add(card, V.layout, _term(record.layout))
        write_face_types(add, card, record)
        for value in record.color_identity or ():
            add(card, V.colorIdentity, _term(value))
        if record.commander_legality:
            add(card, V.commanderLegality, _term(record.commander_legality))
        if record.funny:
            add(card, V.isFunny, _term(True))
        legalities = _legalities(add, record.legalities, written_legalities)
        if legalities:
            add(card, V.legalities, legalities)
        faces = write_faces(add, card, slug, record)
        counts.faces += len(faces)
        counts.faces_known_only_by_name += sum(face.known_only_by_name for face in record.faces)
        if record.prototype is not None:
            write_prototype(add, card, slug, record.prototype)
        write_off_battlefield(add, card, slug, [text for _name, text in record.texts()])
        if record.melds_into:
            add(card, V.meldsInto, f"<{melded_iri(record.melds_into, rules)}>")
        # Who prints each face's abilities: the face, and the card too if its layout gives it them.
        own = set(own_faces(record, rules.rule(record.layout)))
        owners = [[face, card] if i in own else [face] for i, face in enumerate(faces)] or [[card]]
        per_face = face_abilities(record)
        if any(per_face):
            label = nodes.names.get(card, record.name)
            _write_abilities(add, slug, label, per_face, owners, iri_by_name, counts)
        counts.copy_effects += _write_copy_effects(add, slug, record, owners)
        counts.activated += _write_activated(add, slug, record, owners)
        _write_spell_targets(add, slug, record, owners)
        _write_cast_sentences(add, record, owners)
        counts.cards += 1
        if number % 1000 == 0:
            ticker.update(number)
    ticker.update(len(records))
    return counts


def _read_per_face(
    record: CardRecord, owners: list[list[str]], read: Callable[[str | None, str | None], list[T]]
) -> list[tuple[T, list[str]]]:
    """What ``read`` finds in each face's text, once each, with every subject of the faces printing
    it (an ability printed on both faces of a reversible card is one ability)."""
    found: list[tuple[T, list[str]]] = []
    for (face_name, text), subjects in zip(record.texts(), owners, strict=True):
        for item in read(text, face_name):
            known = next((f for f in found if f[0] == item), None)
            if known is None:
                found.append((item, list(subjects)))
            else:
                known[1].extend(s for s in subjects if s not in known[1])
    return found


def _write_copy_effects(add: Add, slug: str, record: CardRecord, owners: list[list[str]]) -> int:
    """Each distinct copy effect of the card's faces under ability/<card>/copy, copy-2, ..., linked
    from every face printing it (and from the card, as for its other abilities)."""
    effects = _read_per_face(record, owners, read_copy_effects)
    for number, (effect, subjects) in enumerate(effects, 1):
        ability_slug = "copy" if number == 1 else f"copy-{number}"
        write_copy_effect(add, subjects[0], slug, ability_slug, effect)
        for subject in subjects[1:]:
            add(subject, V.hasAbility, f"<{mint('ability', slug, ability_slug)}>")
    return len(effects)


def _write_activated(add: Add, slug: str, record: CardRecord, owners: list[list[str]]) -> int:
    """Each distinct "[Cost]: [Effect]" ability of the card's faces under ability/<card>/activated,
    activated-2, ..., linked from every face printing it, numbered in printed order."""
    found = _read_per_face(record, owners, read_activated_abilities)
    for number, (ability, subjects) in enumerate(found, 1):
        node = mint("ability", slug, "activated" if number == 1 else f"activated-{number}")
        for subject in subjects:
            add(subject, V.hasAbility, f"<{node}>")
        add(node, RDF_TYPE, _ACTIVATED_ABILITY)
        add(node, RDFS_LABEL, literal(ability.label))
        add(node, V.instantiates, f"<{mint('mechanic', ability.mechanic)}>")
        add(node, V.abilityCost, literal(ability.cost))
        add(node, V.abilityText, literal(ability.text))
        add(node, V.abilityPosition, _term(number))
        _write_cost_reading(add, node, ability.requirements, ability.unmodelled, ability.numbered)
        for requirement in ability.waived:
            add(node, V.waivesRequirement, f"<{requirement}>")
        for sentence in ability.cost_changes:  # the paying check reads it
            add(node, V.unreadCostChange, literal(sentence))
        if ability.loyalty_removed is not None:
            needs = f"{node}/loyalty"
            add(node, V.hasRequirement, f"<{needs}>")
            add(needs, RDF_TYPE, _REQUIREMENT)
            add(needs, RDFS_LABEL, literal(f"{ability.loyalty_removed} loyalty counters to remove"))
            add(needs, V.appliesTo, f"<{V.SourceObject}>")
            add(needs, V.requiresLoyaltyAtLeast, _term(ability.loyalty_removed))
            add(needs, V.citesRule, f"<{mint('cr', '606.4')}>")
    return len(found)


def _write_spell_targets(add: Add, slug: str, record: CardRecord, owners: list[list[str]]) -> None:
    """The targets each face's spell chooses as it is cast, under ability/<card>/spell-targets (the
    first face, or the card's only one), spell-targets-2 for the second face, ..."""
    faces = record.faces or [record]
    for index, ((face_name, text), subjects) in enumerate(zip(record.texts(), owners, strict=True)):
        face = faces[index]
        targets = read_spell_targets(text, face.types, face.subtypes, face_name)
        if targets is None:
            continue
        node = mint("ability", slug, "spell-targets" if index == 0 else f"spell-targets-{index + 1}")
        for subject in subjects:
            add(subject, V.hasSpellTargets, f"<{node}>")
        add(node, RDF_TYPE, _SPELL_TARGETS)
        add(node, RDFS_LABEL, literal(f"The targets {face_name} chooses as it is cast"))
        _write_cost_reading(add, node, targets.requirements, targets.unmodelled, targets.numbered)


def _write_cast_sentences(add: Add, record: CardRecord, owners: list[list[str]]) -> None:
    """The sentences of each face's text that change how it is cast and that no reader reads, on
    the face (and the card when it has the face's characteristics): a cast's verdict reads them."""
    for (face_name, text), subjects in zip(record.texts(), owners, strict=True):
        sentences = read_cast_sentences(text, face_name)
        for subject in subjects:
            for sentence in sentences.cost_changes:
                add(subject, V.unreadCostChange, literal(sentence))
            for sentence in sentences.others:
                add(subject, V.unreadCastSentence, literal(sentence))
            for sentence in sentences.permissions:
                add(subject, V.unreadCastPermission, literal(sentence))


def _write_cost_reading(
    add: Add, node: str, requirements: Iterable[str], unmodelled: Iterable[str], numbered: Iterable[Minted]
) -> None:
    """What an ability's cost parts, restrictions and targets require, each requirement to mint under
    the ability's node (needs-1, needs-2, ...), and the parts no phrase reads."""
    for requirement in requirements:
        add(node, V.hasRequirement, f"<{requirement}>")
    for part in unmodelled:
        add(node, V.unmodelledPart, literal(part))
    for index, minted in enumerate(numbered, 1):
        needs = f"{node}/needs-{index}"
        add(node, V.hasRequirement, f"<{needs}>")
        kind, _, number = minted.value.rpartition("=")
        label = minted.template.label.format(n=number, kind=kind, text=_sentence_case(minted.text))
        add(needs, RDFS_LABEL, literal(label))
        for predicate, term, is_iri in dict.fromkeys((*minted.template.facts, *minted.facts)):
            add(needs, predicate, f"<{term}>" if is_iri else _fact(predicate, term))
        goes_to = minted.template.number_goes_to
        add(needs, goes_to, literal(minted.value) if kind else _term(int(number)))


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fact(predicate: str, value: str) -> str:
    """A fact of a description word as its property wants it: true and false as booleans."""
    return _term(value == "true") if value in ("true", "false") else literal(value)


def _legalities(
    add: Callable[[str, str, str], None], legalities: dict[str, str], written: set[str]
) -> str | None:
    """The node of these format statuses, written the first time it is used: a few hundred distinct
    ones serve the whole pool, where a triple per card and format would be a quarter of a million."""
    node, statuses = _legality_node(tuple(sorted(legalities.items())))
    if node is None:
        return None
    if node not in written:
        written.add(node)
        add(node, RDF_TYPE, _LEGALITIES)
        add(node, RDFS_LABEL, literal(_legalities_label(statuses)))
        for status, game_format in statuses:
            add(node, _LEGALITY[status], _term(game_format))
    return f"<{node}>"


@functools.lru_cache(maxsize=4096)  # a few hundred distinct ones over the pool: each minted once
def _legality_node(
    legalities: tuple[tuple[str, str], ...],
) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The node of the (format, status) pairs ``legalities`` and its (status, format) pairs, sorted."""
    statuses = tuple(
        sorted((status, game_format) for game_format, status in legalities if status in _LEGALITY)
    )
    if not statuses:
        return None, statuses
    # The digest of the list's repr, as the node was first minted: an IRI is never renamed.
    digest = hashlib.sha256(repr(list(statuses)).encode("utf-8")).hexdigest()[:8]
    return mint("legality", digest), statuses


def _legalities_label(statuses: tuple[tuple[str, str], ...]) -> str:
    """ "legal in 8 formats; restricted in 1 format": a name for the node in graph tools."""
    counts = Counter(status for status, _ in statuses)
    return "; ".join(
        f"{status} in {counts[status]} format{'s' if counts[status] != 1 else ''}"
        for status in ("legal", "banned", "restricted")
        if counts[status]
    )


def _write_abilities(
    add: Add,
    card_key: str,
    card_name: str,
    per_face: list[list[RecognisedAbility]],
    owners: list[list[str]],
    iri_by_name: dict[str, str],
    counts: CardCounts,
) -> None:
    """One node per distinct ability of the card (an ability printed on two faces counts once),
    linked from the ``owners`` of every face that prints it."""
    holders: dict[tuple, list[str]] = {}
    for found, subjects in zip(per_face, owners, strict=True):
        for ability in found:
            known = holders.setdefault(ability.key, [])
            known.extend(s for s in subjects if s not in known)
    abilities = distinct_abilities(ability for found in per_face for ability in found)
    used: Counter[str] = Counter()

    def link(node: str, ability: RecognisedAbility) -> None:
        for subject in holders[ability.key]:
            add(subject, V.hasAbility, f"<{node}>")

    def allocate(slug: str) -> str:
        used[slug] += 1
        n = used[slug]
        return mint("ability", card_key, slug) if n == 1 else mint("ability", card_key, slug, str(n))

    for ability in abilities:
        if ability.changes:
            # A static ability that changes how the mechanic's abilities work (their cost): the card
            # does not have the mechanic, so the node links to it but does not instantiate it.
            node = allocate(f"changes-{ability.mechanic}")
            link(node, ability)
            add(node, RDF_TYPE, _STATIC_ABILITY)
            add(node, RDFS_LABEL, literal(ability.label))
            add(node, V.changesMechanic, f"<{mint('mechanic', ability.mechanic)}>")
            if ability.change_amount:
                change = V.costReduction if ability.change_less else V.costIncrease
                add(node, change, literal(ability.change_amount))
            add(node, V.abilityText, literal(ability.text))
            counts.changing[ability.mechanic] += 1
            continue
        if ability.granted_to is not None:
            # The card has a static ability that gives the keyword to other objects; the keyword
            # ability it grants is a node of its own, which the card does not have.
            static = allocate(f"grant-{ability.mechanic}")
            granted = allocate(ability.mechanic)
            link(static, ability)
            add(static, RDF_TYPE, _STATIC_ABILITY)
            add(static, RDFS_LABEL, literal(f"{card_name}'s {ability.keyword.lower()} grant"))
            add(static, V.abilityText, literal(ability.text))
            add(static, V.grants, f"<{granted}>")
            add(static, V.grantedTo, literal(ability.granted_to))
            if ability.grant_zone:
                add(static, V.grantedInZone, f"<{mint('zone', ability.grant_zone)}>")
            if ability.grant_type:
                add(static, V.grantedToCardType, _term(ability.grant_type))
            if ability.grant_yours:
                add(static, V.grantedOnlyToYours, _term(True))
            _write_keyword(add, granted, ability, card_name)
            counts.granted[ability.mechanic] += 1
            continue
        node = allocate(ability.mechanic)
        link(node, ability)
        _write_keyword(add, node, ability, card_name)
        add(node, V.abilityText, literal(ability.text))
        if ability.partner_with_name is not None:
            target = iri_by_name.get(ability.partner_with_name)
            if target is None:
                counts.unresolved_partners.append(f"{card_name} -> {ability.partner_with_name}")
            else:
                add(node, V.partnerWith, f"<{target}>")
        counts.abilities[ability.mechanic] += 1


def _write_keyword(
    add: Callable[[str, str, str], None], node: str, ability: RecognisedAbility, card_name: str
) -> None:
    add(node, RDF_TYPE, _STATIC_ABILITY if ability.mechanic in STATIC_MECHANICS else _KEYWORD_ABILITY)
    add(node, RDFS_LABEL, literal(ability.label))
    add(node, V.instantiates, f"<{mint('mechanic', ability.mechanic)}>")
    if ability.cost is not None:
        add(node, V.abilityCost, literal(ability.cost))
        # "Escape—{R}{R}, Exile five other cards from your graveyard": the parts beyond its mana.
        reading = read_keyword_cost(ability.cost, card_name)
        condition = read_condition(ability.offered_if, card_name)  # "If you control a Forest"
        _write_cost_reading(
            add,
            node,
            (*reading.requirements, *condition.requirements),
            (*reading.unmodelled, *condition.unmodelled, *([ability.trailing] if ability.trailing else [])),
            (*reading.numbered, *condition.numbered),
        )
        if ability.trailing and cost_change_direction(ability.trailing):  # "costs {X} less to cast this way"
            add(node, V.unreadCostChange, literal(ability.trailing))
    elif ability.trailing:  # a permission changed by a sentence no phrase reads
        _write_cost_reading(add, node, (), (ability.trailing,), ())
    if ability.partner_text is not None:
        add(node, V.partnerText, literal(ability.partner_text))
    if ability.partner_with_name is not None:
        add(node, V.partnerWithName, literal(ability.partner_with_name))


def write_rulings(
    rulings: Iterable[RulingRecord],
    card_iris: dict[str, str],
    writer: QuadWriter,
    progress: Progress | None = None,
) -> tuple[int, int]:
    """Write each distinct ruling once (MTGJSON repeats a card's rulings on every face); returns how
    many were written and how many were left out because their card has no IRI."""
    rulings = list(rulings)
    ticker = Ticker(progress, "writing rulings", len(rulings))
    add = writer.add
    seen: set[str] = set()
    without_card = 0
    for number, ruling in enumerate(rulings, 1):
        card = card_iris.get(ruling.card_name)
        if card is None:
            without_card += 1
            continue
        node = ruling_iri(card_slug(card), ruling.date, ruling.text)
        if node in seen:
            continue
        seen.add(node)
        add(node, RDF_TYPE, _RULING)
        add(node, RDFS_LABEL, literal(f"Ruling on {ruling.card_name} ({ruling.date})"))
        add(node, V.aboutCard, f"<{card}>")
        add(node, V.rulingDate, f'"{ruling.date}"{_DATE}')
        add(node, V.rulingSource, _term(ruling.source))
        add(node, V.text, literal(ruling.text))
        if number % 5000 == 0:
            ticker.update(number)
    ticker.update(len(rulings))
    return len(seen), without_card


def write_dataset(writer: QuadWriter, dataset: str, label: str, source_file: str, records: int) -> None:
    """Describe the import itself: which file, when, how many records."""
    writer.add(dataset, RDF_TYPE, _DATASET)
    writer.add(dataset, RDFS_LABEL, literal(label))
    writer.add(dataset, V.fromSource, literal(source_file))
    writer.add(
        dataset, V.importedAt, literal(datetime.now(UTC).isoformat(timespec="seconds"), XSD + "dateTime")
    )
    writer.add(dataset, V.recordCount, literal(records))
