"""What does this copy become? A card's copy effect (read from the graph: its mode, what it may copy,
its condition and its exceptions) applied to a target, with the copy rules of CR 707.

The copy effect is data (data/cards/*.ttl for the starter cards, the Oracle-text reader for the
pool). This module evaluates it generically: the target requirement's ``requires*`` values are
checked one by one against the target, the copiable values are worked out by 707.2-707.3 (printed
values, the face that is up, face-down values, a copy's own copied values), and each exception is
applied by its kind, one operation per kind of copy rule, never per card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.iri_arguments import find_named
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.lookups.common import read_graph, rule_number
from mtgkb.lookups.rulings import RulingEntry, newest_first, ruling_entry
from mtgkb.reasoning.copy_situation import Situation, SituationObject
from mtgkb.reasoning.requirements.registry import not_modelled_phrase, unmodelled
from mtgkb.reasoning.situation_text import listed
from mtgkb.reasoning.verdict import Check, Verdict, all_cites, decide, rule_order

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.lookups.common import Graph, Node

_KIND = {
    mint("concept", slug): slug
    for slug in (
        "copy-exception-adds-types",
        "copy-exception-sets-characteristic",
        "copy-exception-removes-supertype",
        "copy-exception-adds-ability",
        "copy-exception-not-copied",
        "copy-addition-not-copiable",
        "copy-status-not-copiable",
        "copy-later-effect-not-copiable",
    )
}
#: Kinds whose outcome becomes part of the copy's copiable values (707.9a-d); the others happen
#: to this copy only (707.9e, status, effects applied afterwards).
COPIABLE_KINDS = {
    "copy-exception-adds-types",
    "copy-exception-sets-characteristic",
    "copy-exception-removes-supertype",
    "copy-exception-adds-ability",
    "copy-exception-not-copied",
}
_FACE_LAYOUTS = {"transform", "modal_dfc", "meld", "double_faced_token", "reversible_card"}


class CopyInputError(MtgkbError):
    """A target or situation the copy verdict cannot read."""


# ------------------------------------------------------------------------------------------------
# The verdict


@dataclass
class CopiedObject:
    """The object that results from the copy, as the issue's ``result`` describes it."""

    name: str | None
    mana_cost: str | None
    mana_value: float
    colors: list[str]
    types: list[str]
    supertypes: list[str]
    subtypes: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    abilities: list[str]
    token: bool
    tapped: bool
    attacking: bool
    commander: bool
    counters: dict[str, int] = field(default_factory=dict)


@dataclass
class Characteristic:
    """One thing copied or left behind, with the rule that says so."""

    characteristic: str
    value: str
    cites: list[str]


@dataclass
class AppliedException:
    kind: str  # the copy rule's label, e.g. "exception: types added to the copied ones"
    characteristic: str
    values: list[str]
    copiable: bool  # part of the copy's copiable values, so later copies get it too
    source: str  # the card whose copy effect carries it (an inner copy's exceptions are inherited)
    cites: list[str]


@dataclass
class CopyVerdict(Verdict):
    card: str
    target: str
    effect: str | None  # the copy ability's label
    mode: str | None  # "entering as a copy", "creating a token that is a copy", "becoming a copy"
    copies_what: str | None
    result: CopiedObject | None
    copied: list[Characteristic]
    not_copied: list[Characteristic]
    exceptions: list[AppliedException]
    rulings: list[RulingEntry]
    situation: bool  # whether a game situation was given; without one, game-state checks are assumed


# ------------------------------------------------------------------------------------------------
# Reading cards and copy effects from the graph


@dataclass
class Values:
    """Copiable values of an object (707.2)."""

    name: str | None
    mana_cost: str | None
    colors: list[str]
    types: list[str]
    supertypes: list[str]
    subtypes: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    abilities: list[str]
    mana_value_zero: bool = False  # copying a transformed back face (712.8e)


@dataclass
class ExceptionFacts:
    kind: str  # slug of the copy rule
    kind_label: str
    characteristic: str
    values: list[str]
    label: str | None
    cites: list[str]


@dataclass
class CopyEffectFacts:
    iri: str
    label: str | None
    mode: str | None
    mode_label: str | None
    mode_cites: list[str]
    target: dict[str, list[Any]]  # requires* property IRI -> values
    copies_what: str | None
    target_cites: list[str]
    condition: dict[str, list[Any]]
    condition_label: str | None
    condition_cites: list[str]
    exceptions: list[ExceptionFacts]


@dataclass
class CardFacts:
    name: str
    iri: str
    values: Values
    back: Values | None
    layout: str | None
    copy_effects: list[CopyEffectFacts]
    rulings: list[RulingEntry]


def resolve_card(kb: KnowledgeBase, name: str) -> tuple[str, str]:
    """(the card's name as the data spells it, its IRI); did-you-mean on a miss."""
    match = find_named(kb, name, ("card",))
    return match.name, match.iri


_LOADED: dict[tuple[str, str], CardFacts] = {}

#: The rules each rules concept cites (data/concepts/copy-checks.ttl), read with the first card of a
#: knowledge base: every check and characteristic here cites the concept it evaluates.
_CONCEPT_CITES: dict[str, list[str]] = {}
_CONCEPTS_READ: set[str] = set()


def _read_concepts(kb: KnowledgeBase) -> None:
    if str(kb.path) in _CONCEPTS_READ:
        return
    found: dict[str, list[str]] = {}
    for row in kb.select(library_query("concept-cites")):
        found.setdefault(row["concept"], []).append(rule_number(row["rule"]))
    _CONCEPT_CITES.update(found)
    _CONCEPTS_READ.add(str(kb.path))


def _cites(concept: str) -> list[str]:
    """The rules ``concept:<concept>`` cites: those of the copy section (what ``concept:copy`` cites
    whole) first, then the others, each in book order."""
    numbers = _CONCEPT_CITES.get(mint("concept", concept), [])
    sections = {n for n in _CONCEPT_CITES.get(mint("concept", "copy"), []) if "." not in n}
    return sorted(set(numbers), key=lambda n: (n.split(".")[0] not in sections, rule_order(n)))


def load_card(kb: KnowledgeBase, name: str) -> CardFacts:
    """The card's facts, read once per knowledge base: a copy of a copy asks for the same cards again."""
    _read_concepts(kb)
    key = (str(kb.path), name)  # a store path names one build of the sources
    if key not in _LOADED:
        _LOADED[key] = _read_card(kb, name)
    return _LOADED[key]


def _read_card(kb: KnowledgeBase, name: str) -> CardFacts:
    card_name, iri = resolve_card(kb, name)
    graph = read_graph(kb.select(library_query("copy-card"), card=iri))
    card = graph.node(iri)
    faces = sorted((graph.node(f) for f in card.all(V.hasFace)), key=lambda n: n.first(V.faceIndex) or 0)
    layout = card.first(V.layout)
    abilities = [graph.node(a) for a in card.all(V.hasAbility)]
    front_node = faces[0] if faces and layout in _FACE_LAYOUTS else card
    values = _values(card, front_node, abilities, graph)
    back = None
    if len(faces) > 1 and layout in _FACE_LAYOUTS:
        back = _values(card, faces[1], [], graph)
        back.mana_value_zero = layout == "transform"
    effects = [_copy_effect(graph, node) for node in abilities if V.CopyEffect in node.classes]
    rulings = [ruling_entry(n, graph) for n in graph.nodes.values() if V.Ruling in n.classes]
    return CardFacts(card_name, iri, values, back, layout, effects, newest_first(rulings))


def _values(card: Node, face: Node, abilities: list[Node], graph: Graph) -> Values:
    """Printed values of ``face`` (the card itself for a one-faced card)."""
    type_line = face.first(V.typeLine) or card.first(V.typeLine) or ""
    if face is card:
        supertypes, types, subtypes = card.all(V.supertype), card.all(V.cardType), card.all(V.subtype)
    else:
        from mtgkb.core.type_line import parse_type_line

        parsed = parse_type_line(type_line)
        supertypes, types, subtypes = list(parsed.supertypes), list(parsed.types), list(parsed.subtypes)
    text = face.first(V.oracleText)
    if text:
        ability_texts = [line for line in (_without_reminder(raw) for raw in text.splitlines()) if line]
    else:
        ability_texts = [a.first(RDFS_LABEL) for a in abilities if a.first(RDFS_LABEL)]
    return Values(
        name=face.first(V.name) or card.first(V.name),
        mana_cost=face.first(V.manaCost) if face is not card else card.first(V.manaCost),
        colors=_wubrg(face.all(V.colors) or (card.all(V.colors) if face is card else [])),
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        power=_text(face.first(V.power)),
        toughness=_text(face.first(V.toughness)),
        loyalty=_text(face.first(V.loyalty)),
        abilities=ability_texts,
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _without_reminder(line: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", line).strip()


def _wubrg(colors: list[str]) -> list[str]:
    return sorted(set(colors), key=lambda c: ("WUBRG".index(c) if c in "WUBRG" else 5, c))


def _copy_effect(graph: Graph, node: Node) -> CopyEffectFacts:
    target = graph.node(node.first(V.copyTarget)) if node.first(V.copyTarget) else None
    condition = graph.node(node.first(V.copyCondition)) if node.first(V.copyCondition) else None
    mode = graph.node(node.first(V.copyMode)) if node.first(V.copyMode) else None
    exceptions = []
    for iri in sorted(node.all(V.hasCopyException), key=_exception_number):
        exception = graph.node(iri)
        kind = graph.node(exception.first(V.exceptionKind) or "")
        exceptions.append(
            ExceptionFacts(
                kind=_KIND.get(kind.iri, kind.iri),
                kind_label=kind.first(RDFS_LABEL) or kind.iri,
                characteristic=exception.first(V.copyCharacteristic) or "",
                values=[str(v) for v in exception.all(V.exceptionValue)],
                label=exception.first(RDFS_LABEL),
                cites=sorted((rule_number(r) for r in kind.all(V.citesRule)), key=rule_order),
            )
        )
    return CopyEffectFacts(
        iri=node.iri,
        label=node.first(RDFS_LABEL),
        mode=mode.iri if mode else None,
        mode_label=mode.first(RDFS_LABEL) if mode else None,
        mode_cites=[rule_number(r) for r in mode.all(V.citesRule)] if mode else [],
        target=dict(target.values) if target else {},
        copies_what=target.first(V.copiesWhat) if target else None,
        target_cites=[rule_number(r) for r in target.all(V.citesRule)] if target else [],
        condition=dict(condition.values) if condition else {},
        condition_label=condition.first(RDFS_LABEL) if condition else None,
        condition_cites=[rule_number(r) for r in condition.all(V.citesRule)] if condition else [],
        exceptions=exceptions,
    )


def _exception_number(iri: str) -> int:
    """Exceptions are numbered in printed order: .../exception/1, /2, ..."""
    tail = iri.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 99


# ------------------------------------------------------------------------------------------------
# Copiable values of a target: 707.2, 707.3, 707.8, 708.2


@dataclass
class Target:
    """The object to be copied, with where it is and what is on it."""

    label: str
    values: Values
    zone: str = "battlefield"
    player: str | None = None
    token: bool = False
    tapped: bool = False
    attacking: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    source_of_values: list[str] = field(default_factory=list)  # how the copiable values were found
    cites: list[str] = field(default_factory=list)
    inherited: list[AppliedException] = field(default_factory=list)
    card_iri: str | None = None
    obj: SituationObject | None = None


def copiable_values_of(kb: KnowledgeBase, obj: SituationObject | str) -> Target:
    """The copiable values of ``obj``: a card name (as printed), or an object of the situation."""
    if isinstance(obj, str):
        card = load_card(kb, obj)
        return Target(
            card.name,
            card.values,
            source_of_values=["printed values"],
            cites=_cites("copy-printed-values"),
            card_iri=card.iri,
        )
    if obj.face_down:
        values = Values(None, None, [], ["Creature"], [], [], "2", "2", None, [])
        return _target(
            obj,
            values,
            ["face down: a 2/2 creature with no name, text, subtypes or mana cost"],
            _cites("copy-face-down-values"),
        )
    if obj.copy_of is not None:
        inner = copiable_values_of(kb, obj.copy_of)
        values = inner.values
        inherited = list(inner.inherited)
        copier = obj.card
        if copier:
            card = load_card(kb, copier)
            for effect in card.copy_effects[:1]:
                values, applied = apply_exceptions(values, effect, card, copiable_only=True)
                inherited += applied
        how = f"what {obj.label} copied: {inner.label}" + (
            ", with the exceptions of its copy effect" if inherited else ""
        )
        target = _target(
            obj, values, [how, *inner.source_of_values], [*_cites("copy-values-of-a-copy"), *inner.cites]
        )
        target.inherited = inherited
        return target
    if obj.card:
        card = load_card(kb, obj.card)
        if obj.transformed and card.back is not None:
            return _target(
                obj, card.back, ["the back face, which is up"], _cites("copy-back-face-up"), card.iri
            )
        if card.back is not None:
            return _target(
                obj, card.values, ["the front face, which is up"], _cites("copy-front-face-up"), card.iri
            )
        return _target(obj, card.values, ["printed values"], _cites("copy-printed-values"), card.iri)
    printed = obj.printed
    values = Values(
        name=printed.get("name") or obj.token,
        mana_cost=printed.get("mana_cost"),
        colors=_wubrg(list(printed.get("colors") or [])),
        types=list(printed.get("types") or ["Creature"]),
        supertypes=list(printed.get("supertypes") or []),
        subtypes=list(printed.get("subtypes") or ([obj.token] if obj.token else [])),
        power=_text(printed.get("power")),
        toughness=_text(printed.get("toughness")),
        loyalty=None,
        abilities=list(printed.get("abilities") or []),
    )
    return _target(
        obj,
        values,
        ["the characteristics the effect that created the token gave it"],
        _cites("copy-token-values"),
    )


def _target(
    obj: SituationObject, values: Values, how: list[str], cites: list[str], iri: str | None = None
) -> Target:
    return Target(
        label=obj.label,
        values=values,
        zone=obj.zone,
        player=obj.player,
        token=obj.token is not None,
        tapped=obj.tapped,
        attacking=bool(obj.attacking),
        counters=dict(obj.counters),
        attached=list(obj.attached),
        effects=list(obj.effects),
        source_of_values=how,
        cites=cites,
        card_iri=iri,
        obj=obj,
    )


# ------------------------------------------------------------------------------------------------
# Exceptions: one operation per kind of copy rule (707.9a-e)


def apply_exceptions(
    values: Values, effect: CopyEffectFacts, card: CardFacts, copiable_only: bool = False
) -> tuple[Values, list[AppliedException]]:
    """``values`` with the copy effect's exceptions applied; with ``copiable_only`` just those that
    become copiable values (what a later copy of this copy inherits, 707.3)."""
    applied = []
    for exception in effect.exceptions:
        if copiable_only and exception.kind not in COPIABLE_KINDS:
            continue
        if exception.kind == "copy-addition-not-copiable" and not any(
            _addition_applies(kind, values) for kind in exception.values
        ):
            continue
        values = _apply(values, exception, card)
        applied.append(
            AppliedException(
                kind=exception.kind_label,
                characteristic=exception.characteristic,
                values=[v or f"no {exception.characteristic}" for v in exception.values]
                or ([exception.label] if exception.label else []),
                copiable=exception.kind in COPIABLE_KINDS,
                source=card.name,
                cites=exception.cites,
            )
        )
    return values, applied


def _apply(values: Values, exception: ExceptionFacts, card: CardFacts) -> Values:
    kind, characteristic, given = exception.kind, exception.characteristic, exception.values
    if kind == "copy-exception-adds-types":
        return _with_types(values, characteristic, given, add=True)
    if kind == "copy-exception-sets-characteristic":
        if characteristic == "name":
            return replace(values, name=given[0] if given else None)
        if characteristic == "mana cost":
            return replace(values, mana_cost=given[0] if given and given[0] else None)
        if characteristic == "power/toughness" and given:
            power, _, toughness = given[0].partition("/")
            return replace(values, power=power, toughness=toughness)
        return _with_types(values, characteristic, given, add=False)
    if kind == "copy-exception-removes-supertype":
        return replace(values, supertypes=[s for s in values.supertypes if s not in given])
    if kind == "copy-exception-adds-ability":
        added = given or ([exception.label] if exception.label else [])
        return replace(values, abilities=[*values.abilities, *added])
    if kind == "copy-exception-not-copied":
        own = card.values
        field_name = {"color": "colors", "name": "name", "mana cost": "mana_cost"}.get(characteristic)
        if field_name:
            return replace(values, **{field_name: getattr(own, field_name)})
        return values
    return values  # additions, status and later effects do not change copiable values


def _with_types(values: Values, characteristic: str, given: list[str], add: bool) -> Values:
    field_name = {
        "subtype": "subtypes",
        "card type": "types",
        "supertype": "supertypes",
        "color": "colors",
    }.get(characteristic)
    if field_name is None:
        return values
    current = getattr(values, field_name) if add else []
    merged = list(dict.fromkeys([*current, *given]))
    if field_name == "colors":
        merged = [] if merged == ["colorless"] else _wubrg(merged)
    return replace(values, **{field_name: merged})


# ------------------------------------------------------------------------------------------------
# Checks: the copy target requirement, evaluated property by property


def _check_target(
    effect: CopyEffectFacts, card: CardFacts, target: Target, source: SituationObject | None, situation: bool
) -> list[Check]:
    """One check per ``requires*`` value of the copy target requirement."""
    req = effect.target
    base = effect.target_cites or _cites("copy-effect-rule")
    checks = []
    what = effect.copies_what or "the copied object"
    zone = (req.get(V.requiresZone) or [None])[0]
    relation = (req.get(V.objectRelation) or [None])[0]
    if zone:
        zone_name = zone.rsplit("/", 1)[-1]
        holds = target.zone == zone_name
        because = f"{target.label} is {_zone_phrase(target.zone)}"
        if not situation:
            because += " (no situation given: taken to be where the copy effect looks)"
            holds = True
        elif not holds:
            because += (
                f", but {card.name} copies {what}; an object that has left the battlefield (for "
                "instance one returned to pay a cost) is a new object and cannot be chosen"
                if zone_name == "battlefield"
                else f", but {card.name} copies {what}"
            )
        cites = [*base, *_cites("copy-target-characteristics" if holds else "copy-target-new-object")]
        checks.append(Check(f"{what}: {_zone_phrase(zone_name)}", holds, because, cites))
    types = req.get(V.requiresAnyCardType) or []
    if types:
        has = [t for t in types if t in target.values.types]
        checks.append(
            Check(
                f"{what}: {' or '.join(t.lower() for t in types)}",
                bool(has),
                f"{target.label} is {_a(target.values.types)}"
                + ("" if has else f", not {' or '.join(_a([t]) for t in types)}"),
                [*base, *_cites("copy-target-characteristics")],
            )
        )
    for subtype in req.get(V.requiresSubtype) or []:
        holds = subtype in target.values.subtypes
        checks.append(
            Check(
                f"{what}: {subtype}",
                holds,
                f"{target.label} is{'' if holds else ' not'} {_a([subtype])}",
                [*base, *_cites("copy-target-characteristics")],
            )
        )
    for supertype in req.get(V.excludesSupertype) or []:
        holds = supertype not in target.values.supertypes
        checks.append(
            Check(
                f"{what}: not {supertype.lower()}",
                holds,
                f"{target.label} is{' not' if holds else ''} {supertype.lower()}",
                [*base, *_cites("copy-target-characteristics")],
            )
        )
    for required in req.get(V.requiresToken) or []:
        holds = target.token == required
        checks.append(
            Check(
                f"{what}: {'a token' if required else 'not a token'}",
                holds,
                f"{target.label} is{'' if target.token else ' not'} a token",
                [*base, *_cites("copy-target-token")],
            )
        )
    if True in (req.get(V.requiresOther) or []) or effect.mode == mint("concept", "enters-as-a-copy"):
        same = source is not None and target.obj is source
        entering = effect.mode == mint("concept", "enters-as-a-copy")
        rule = _cites("copy-chosen-as-it-enters" if entering else "copy-another-object")
        because = (
            f"{target.label} is {card.name} itself"
            if same
            else f"{target.label} is another object than {card.name}"
        )
        if effect.mode == mint("concept", "enters-as-a-copy"):
            because += "; the object to copy is chosen as it enters, from what is already on the battlefield"
        checks.append(Check(f"{what}: another object than {card.name}", not same, because, [*base, *rule]))
    for required in req.get(V.requiresControlByYou) or []:
        if not situation or source is None:
            checks.append(
                Check(
                    f"{what}: controlled by {'you' if required else 'an opponent'}",
                    True,
                    "no situation given: taken to be so",
                    [*base, *_cites("copy-target-controller")],
                )
            )
            continue
        yours = target.player == source.player
        holds = yours == required
        checks.append(
            Check(
                f"{what}: controlled by {'you' if required else 'an opponent'}",
                holds,
                f"{target.label} is controlled by {target.player}, {card.name} by {source.player}",
                [*base, *_cites("copy-target-controller")],
            )
        )
    for required in req.get(V.requiresAttacking) or []:
        if not situation:
            checks.append(
                Check(
                    f"{what}: attacking",
                    True,
                    "no situation given: taken to be attacking",
                    [*base, *_cites("copy-target-attacking")],
                )
            )
            continue
        holds = target.attacking == required
        checks.append(
            Check(
                f"{what}: attacking",
                holds,
                f"{target.label} is{'' if target.attacking else ' not'} attacking",
                [*base, *_cites("copy-target-attacking")],
            )
        )
    if relation:
        checks.append(_relation_check(relation, what, card, target, source, base))
    missing = unmodelled(req, "copy")
    if missing:
        checks.append(Check(f"{what}: every requirement", None, not_modelled_phrase(missing), base))
    return checks


def _relation_check(
    relation: str, what: str, card: CardFacts, target: Target, source: SituationObject | None, base: list[str]
) -> Check:
    if relation == "self":
        same = target.card_iri == card.iri
        return Check(
            f"{what}: {card.name} itself",
            same,
            f"{target.label} is{'' if same else ' not'} {card.name}",
            base,
        )
    return Check(
        f"{what}",
        True,
        f"{card.name} names the object by its link to the ability ({relation}); taken to be {target.label}",
        base,
    )


def _zone_phrase(zone: str) -> str:
    return {
        "battlefield": "on the battlefield",
        "hand": "in its owner's hand",
        "graveyard": "in a graveyard",
        "exile": "in exile",
        "library": "in a library",
        "library_top": "in a library",
        "command": "in the command zone",
    }.get(zone, f"in {zone}")


def _a(words: list[str]) -> str:
    text = (
        " ".join(
            w.lower()
            if w[0].isupper()
            and w
            in {"Creature", "Artifact", "Enchantment", "Land", "Planeswalker", "Battle", "Instant", "Sorcery"}
            else w
            for w in words
        )
        or "no type at all"
    )
    return ("an " if text[0] in "aeiou" else "a ") + text


def _check_condition(effect: CopyEffectFacts, card: CardFacts, source: SituationObject | None) -> list[Check]:
    if not effect.condition:
        return []
    cites = effect.condition_cites or _cites("copy-condition")
    label = effect.condition_label or "its condition"
    if source is None:
        return [
            Check(
                f"{card.name}: {label}",
                True,
                f"no situation puts {card.name} on the battlefield: taken to be so",
                cites,
            )
        ]
    checks = []
    for zone in effect.condition.get(V.requiresEnteredFrom) or []:
        wanted = zone.rsplit("/", 1)[-1]
        holds = source.entered_from == wanted
        came = (
            f"from {source.entered_from}"
            if source.entered_from
            else "from a zone the situation does not name"
        )
        checks.append(
            Check(f"{card.name}: entered from your {wanted}", holds, f"{card.name} entered {came}", cites)
        )
    missing = unmodelled(effect.condition, "copy")
    if missing:
        checks.append(Check(f"{card.name}: {label}", None, not_modelled_phrase(missing), cites))
    for required in effect.condition.get(V.requiresAttacking) or []:
        holds = bool(source.attacking) == required
        checks.append(
            Check(
                f"{card.name}: attacking",
                holds,
                f"{card.name} is{'' if source.attacking else ' not'} attacking",
                [*cites, *_cites("copy-target-attacking")],
            )
        )
    return checks


# ------------------------------------------------------------------------------------------------
# The verdict


def mana_value(cost: str | None) -> float:
    """CR 202.3: numbers count their value, X counts 0 off the stack (202.3e), hybrid {2/W} its
    larger part, every other symbol 1."""
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost or ""):
        parts = symbol.split("/")
        if symbol.isdigit():
            total += int(symbol)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif parts[0].isdigit():
            total += max(int(parts[0]), 1)
        else:
            total += 1
    return float(total)


def copy_verdict(
    kb: KnowledgeBase, card_name: str, target_name: str, situation: Situation | None = None
) -> CopyVerdict:
    """Can ``card_name``'s copy effect copy ``target_name``, and what does the copy become?"""
    card = load_card(kb, card_name)
    target, source = _find_target(kb, card, target_name, situation)
    if not card.copy_effects:
        check = Check(
            f"{card.name} has a copy effect",
            False,
            f"nothing in {card.name}'s text makes a copy of a permanent (no 'enters as a copy', "
            "'token that's a copy' or 'becomes a copy' ability)",
            _cites("copy-effect-rule"),
        )
        return _verdict(card, target, None, [check], None, [], [], [], situation is not None)
    # A card with several copy abilities (Mizzium Transreliquat) answers with the first that can copy
    # the target, or else with the first one's reasons.
    tried = [
        (effect, _effect_checks(effect, card, target, source, situation)) for effect in card.copy_effects
    ]
    effect, checks = next(
        ((e, c) for e, c in tried if decide(c)),
        next(((e, c) for e, c in tried if decide(c) is None), tried[0]),
    )
    if decide(checks) is not True:
        return _verdict(card, target, effect, checks, None, [], [], [], situation is not None)
    values, applied = apply_exceptions(target.values, effect, card)
    exceptions = [*target.inherited, *applied]
    statuses = [v for e in effect.exceptions if e.kind == "copy-status-not-copiable" for v in e.values]
    later = [v for e in effect.exceptions if e.kind == "copy-later-effect-not-copiable" for v in e.values]
    counters = _counters(effect, values)
    token = effect.mode == mint("concept", "creates-a-token-copy") or (
        source is not None and source.token is not None
    )
    on_source = source if effect.mode != mint("concept", "creates-a-token-copy") else None
    commander = bool(on_source and situation and situation.is_commander(on_source))
    result = CopiedObject(
        name=values.name,
        mana_cost=values.mana_cost,
        mana_value=0.0 if values.mana_value_zero else mana_value(values.mana_cost),
        colors=values.colors,
        types=values.types,
        supertypes=values.supertypes,
        subtypes=values.subtypes,
        power=values.power,
        toughness=values.toughness,
        loyalty=values.loyalty,
        abilities=[*values.abilities, *(f"{a} (from an effect after the copy, not copiable)" for a in later)],
        token=token,
        tapped="tapped" in statuses or bool(on_source and on_source.tapped),
        attacking="attacking" in statuses or bool(on_source and on_source.attacking),
        commander=commander,
        counters=counters,
    )
    copied = _copied(target, target.values)
    not_copied = _not_copied(target, situation)
    return _verdict(
        card, target, effect, checks, result, copied, not_copied, exceptions, situation is not None
    )


def _effect_checks(
    effect: CopyEffectFacts,
    card: CardFacts,
    target: Target,
    source: SituationObject | None,
    situation: Situation | None,
) -> list[Check]:
    checks = [
        Check(
            f"{card.name} has a copy effect",
            True,
            f"{card.name}: {effect.label or 'copy effect'} ({effect.mode_label})",
            effect.mode_cites or _cites("copy-effect-rule"),
        )
    ]
    checks += _check_condition(effect, card, source)
    checks += _check_target(effect, card, target, source, situation is not None)
    return checks


def _counters(effect: CopyEffectFacts, values: Values) -> dict[str, int]:
    """707.9e additions, applied only where the copy has the type they ask for (707.9f)."""
    counters: dict[str, int] = {}
    for exception in effect.exceptions:
        if exception.kind != "copy-addition-not-copiable":
            continue
        for kind in exception.values:
            if _addition_applies(kind, values):
                counters[kind] = counters.get(kind, 0) + 1
    return counters


def _addition_applies(counter: str, values: Values) -> bool:
    """707.9f: an extra counter "if it's a creature" (+1/+1) or "if it's a planeswalker" (loyalty)
    applies only when the copy, all other exceptions applied, is one (122.1, 306.5b)."""
    needs = "Planeswalker" if counter == "loyalty" else "Creature" if "/" in counter else None
    return needs is None or needs in values.types


def _copied(target: Target, values: Values) -> list[Characteristic]:
    how = "; ".join(target.source_of_values)
    cites = sorted(set([*_cites("copy-printed-values"), *target.cites]))
    rows = [
        ("name", values.name or "(no name)"),
        ("mana cost", values.mana_cost or "(no mana cost)"),
        ("card types", " ".join([*values.supertypes, *values.types]) or "(none)"),
        ("subtypes", " ".join(values.subtypes) or "(none)"),
        ("power/toughness", f"{values.power}/{values.toughness}" if values.power is not None else "(none)"),
        ("rules text", f"{len(values.abilities)} abilit{'y' if len(values.abilities) == 1 else 'ies'}"),
    ]
    if values.loyalty is not None:
        rows.append(("loyalty", values.loyalty))
    copied = [Characteristic(name, f"{value} ({how})", cites) for name, value in rows]
    copied.append(Characteristic("color", " ".join(values.colors) or "colorless", _cites("copy-color")))
    return copied


def _not_copied(target: Target, situation: Situation | None) -> list[Characteristic]:
    counters = ", ".join(f"{n} {k}" for k, n in target.counters.items()) or "none on it"
    status = ", ".join(s for s, on in (("tapped", target.tapped), ("attacking", target.attacking)) if on)
    rows = [
        Characteristic("counters", counters, _cites("copy-counters-not-copied")),
        Characteristic(
            "status (tapped, attacking, face up or down)",
            status or "untapped, not attacking",
            _cites("copy-status-not-copied"),
        ),
        Characteristic(
            "effects other than copy effects",
            ", ".join(target.effects) or "none given",
            _cites("copy-printed-values"),
        ),
        Characteristic(
            "Auras and Equipment attached",
            ", ".join(target.attached) or "none given",
            _cites("copy-printed-values"),
        ),
        Characteristic(
            "choices made as it entered", "made afresh for the copy", _cites("copy-choices-made-afresh")
        ),
    ]
    is_commander = bool(situation and target.obj is not None and situation.is_commander(target.obj))
    rows.append(
        Characteristic(
            "commander designation",
            f"{target.label} is a commander; the copy is not" if is_commander else "not a commander",
            _cites("copy-commander-not-copied"),
        )
    )
    return rows


def _verdict(
    card: CardFacts,
    target: Target,
    effect: CopyEffectFacts | None,
    checks: list[Check],
    result: CopiedObject | None,
    copied: list[Characteristic],
    not_copied: list[Characteristic],
    exceptions: list[AppliedException],
    with_situation: bool,
) -> CopyVerdict:
    more = [c for row in copied + not_copied for c in row.cites] + [c for e in exceptions for c in e.cites]
    if result is not None:
        more += target.cites + (_cites("mana-value-of-x") if "X" in (result.mana_cost or "") else [])
    return CopyVerdict(
        answer=decide(checks),
        checks=checks,
        cites=all_cites(checks, more),
        card=card.name,
        target=target.label,
        effect=effect.label if effect else None,
        mode=effect.mode_label if effect else None,
        copies_what=effect.copies_what if effect else None,
        result=result,
        copied=copied,
        not_copied=not_copied,
        exceptions=exceptions,
        rulings=card.rulings,
        situation=with_situation,
    )


def _find_target(
    kb: KnowledgeBase, card: CardFacts, target_name: str, situation: Situation | None
) -> tuple[Target, SituationObject | None]:
    """The target object and, when the situation has it, the copying card's own object."""
    if situation is None:
        return copiable_values_of(kb, resolve_card(kb, target_name)[0]), None
    # The copying card is the object of its name that is not itself a copy of something: a Clone
    # that copied Grizzly Bears is a target, not the source.
    source = next(
        (
            o
            for o in situation.objects
            if o.card == card.name and o.zone == "battlefield" and o.copy_of is None and not o.face_down
        ),
        None,
    )
    wanted = target_name.strip().lower()
    try:
        canonical = resolve_card(kb, target_name)[0]
    except MtgkbError:
        canonical = None
    named = [
        o
        for o in situation.objects
        if (o.token or "").lower() == wanted
        or (o.card or "").lower() == wanted
        or (canonical and o.card == canonical)
    ]
    # Another object of that name first; the source itself only when nothing else has the name, so
    # that "another" and "as it enters" can say no.
    candidates = [o for o in named if o is not source] or named
    if not candidates:
        on_board = listed([o.label for o in situation.objects if o.zone == "battlefield"]) or "nothing"
        raise CopyInputError(
            f"no object named '{shown(target_name)}' in the situation",
            f"name a card or token on the battlefield: {on_board}",
        )
    on_battlefield = [o for o in candidates if o.zone == "battlefield"]
    obj = (on_battlefield or candidates)[0]
    target = copiable_values_of(kb, obj)
    return target, source
