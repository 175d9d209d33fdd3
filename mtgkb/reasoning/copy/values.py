"""The copiable values of a target (printed values, the face that is up, face-down values, a copy's
own copied values) and the exceptions of a copy effect applied to them, one operation per kind of
copy rule, never per card."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from mtgkb.reasoning.copy.facts import (
    COPIABLE_KINDS,
    CopyCardFacts,
    CopyEffectFacts,
    ExceptionFacts,
    Values,
    copy_concept_cites,
    in_wubrg_order,
    load_card,
    text_value,
)
from mtgkb.reasoning.copy.situation import SituationObject

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


# ------------------------------------------------------------------------------------------------
# Copiable values of a target: 707.2, 707.3, 707.8, 708.2


@dataclass
class AppliedException:
    kind: str  # the copy rule's label, e.g. "exception: types added to the copied ones"
    characteristic: str
    values: list[str]
    copiable: bool  # part of the copy's copiable values, so later copies get it too
    source: str  # the card whose copy effect carries it (an inner copy's exceptions are inherited)
    cites: list[str]


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
            cites=copy_concept_cites("copy-printed-values"),
            card_iri=card.iri,
        )
    if obj.face_down:
        values = Values(None, None, [], ["Creature"], [], [], "2", "2", None, [])
        return _target(
            obj,
            values,
            ["face down: a 2/2 creature with no name, text, subtypes or mana cost"],
            copy_concept_cites("copy-face-down-values"),
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
            obj,
            values,
            [how, *inner.source_of_values],
            [*copy_concept_cites("copy-values-of-a-copy"), *inner.cites],
        )
        target.inherited = inherited
        return target
    if obj.card:
        card = load_card(kb, obj.card)
        if obj.transformed and card.back is not None:
            return _target(
                obj,
                card.back,
                ["the back face, which is up"],
                copy_concept_cites("copy-back-face-up"),
                card.iri,
            )
        if obj.flipped and card.flipped is not None:
            return _target(
                obj,
                card.flipped,
                ["the flipped half, which is up"],
                copy_concept_cites("copy-flipped-half"),
                card.iri,
            )
        if card.back is not None:
            return _target(
                obj,
                card.values,
                ["the front face, which is up"],
                copy_concept_cites("copy-front-face-up"),
                card.iri,
            )
        if card.first_face_only is not None:
            return _target(
                obj,
                card.values,
                [f"its normal characteristics ({card.layout} layout: {card.values.name} only)"],
                [*copy_concept_cites("copy-printed-values"), *card.first_face_only],
                card.iri,
            )
        return _target(
            obj, card.values, ["printed values"], copy_concept_cites("copy-printed-values"), card.iri
        )
    printed = obj.printed
    values = Values(
        name=printed.get("name") or obj.token,
        mana_cost=printed.get("mana_cost"),
        colors=in_wubrg_order(list(printed.get("colors") or [])),
        types=list(printed.get("types") or ["Creature"]),
        supertypes=list(printed.get("supertypes") or []),
        subtypes=list(printed.get("subtypes") or ([obj.token] if obj.token else [])),
        power=text_value(printed.get("power")),
        toughness=text_value(printed.get("toughness")),
        loyalty=None,
        abilities=list(printed.get("abilities") or []),
    )
    return _target(
        obj,
        values,
        ["the characteristics the effect that created the token gave it"],
        copy_concept_cites("copy-token-values"),
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
    values: Values, effect: CopyEffectFacts, card: CopyCardFacts, copiable_only: bool = False
) -> tuple[Values, list[AppliedException]]:
    """``values`` with the copy effect's exceptions applied; with ``copiable_only`` just those that
    become copiable values (what a later copy of this copy inherits, 707.3). An exception that asks
    what the copy is ("if it's a creature, ...") is judged on the copy with the effect's other
    exceptions applied and without it (707.9f), so the unconditional ones come first."""
    applied: list[AppliedException] = []
    unconditional = [e for e in effect.exceptions if e.only_if_type is None]
    conditional = [e for e in effect.exceptions if e.only_if_type is not None]
    judged = None
    for exception in [*unconditional, *conditional]:
        if copiable_only and exception.kind not in COPIABLE_KINDS:
            continue
        if exception.only_if_type is not None:
            judged = judged or values  # the copy with the unconditional exceptions only
            if exception.only_if_type not in judged.types:
                continue
        if exception.kind == "copy-addition-not-copiable" and not any(
            addition_applies(kind, values) for kind in exception.values
        ):
            continue
        values, dropped = _apply(values, exception, card)
        extra = copy_concept_cites("copy-conditional-exception") if exception.only_if_type else []
        applied.append(
            AppliedException(
                kind=exception.kind_label,
                characteristic=exception.characteristic,
                values=[v or f"no {exception.characteristic}" for v in exception.values]
                or ([exception.label] if exception.label else []),
                copiable=exception.kind in COPIABLE_KINDS,
                source=card.name,
                cites=[*exception.cites, *(c for c in extra if c not in exception.cites)],
            )
        )
        if dropped:
            applied.append(
                AppliedException(
                    kind="characteristic-defining ability not copied",
                    characteristic=exception.characteristic,
                    values=dropped,
                    copiable=True,
                    source=card.name,
                    cites=copy_concept_cites("copy-cda-not-copied"),
                )
            )
    return values, applied


#: Characteristic-defining abilities (604.3), by the characteristic they define: what a copy effect
#: that sets, keeps or skips that characteristic leaves behind (707.9d).
_DEFINES = {
    "power/toughness": re.compile(
        r"\b(?:power|toughness) (?:and toughness )?(?:is|are) (?:each )?equal to\b|"
        r"\bpower and toughness are each\b",
        re.I,
    ),
    "color": re.compile(
        r"^(?:devoid\b|\S.* is (?:all colors|colorless|(?:white|blue|black|red|green)(?: and \w+)?)\.?$)",
        re.I,
    ),
    "subtype": re.compile(r"^changeling\b|\bis every creature type\b", re.I),
}


def _without_definers(values: Values, characteristic: str) -> tuple[Values, list[str]]:
    pattern = _DEFINES.get(characteristic)
    if pattern is None:
        return values, []
    dropped = [a for a in values.abilities if pattern.search(a)]
    if not dropped:
        return values, []
    return replace(values, abilities=[a for a in values.abilities if a not in dropped]), dropped


def _apply(values: Values, exception: ExceptionFacts, card: CopyCardFacts) -> tuple[Values, list[str]]:
    """The values with one exception applied, and the characteristic-defining abilities that the
    exception leaves uncopied (707.9d)."""
    kind, characteristic = exception.kind, exception.characteristic
    changed = _applied_values(values, exception, card)
    fixes = kind in ("copy-exception-sets-characteristic", "copy-exception-not-copied")
    return _without_definers(changed, characteristic) if fixes else (changed, [])


def _applied_values(values: Values, exception: ExceptionFacts, card: CopyCardFacts) -> Values:
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
        # An ability it has already ("Haste" printed, haste gained) is listed once: redundant (702.10d).
        have = {a.casefold() for a in values.abilities}
        return replace(values, abilities=[*values.abilities, *(a for a in added if a.casefold() not in have)])
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
        merged = [] if merged == ["colorless"] else in_wubrg_order(merged)
    return replace(values, **{field_name: merged})


def addition_applies(counter: str, values: Values) -> bool:
    """707.9f: an extra counter "if it's a creature" (+1/+1) or "if it's a planeswalker" (loyalty)
    applies only when the copy, all other exceptions applied, is one (122.1, 306.5b)."""
    needs = "Planeswalker" if counter == "loyalty" else "Creature" if "/" in counter else None
    return needs is None or needs in values.types
