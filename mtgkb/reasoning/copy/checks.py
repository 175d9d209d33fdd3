"""The checks of a copy effect: its target requirement, evaluated property by property against the
target, and its condition. A requirement property no check here evaluates is never taken to hold
(see mtgkb/reasoning/requirements/registry.py)."""

from __future__ import annotations

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V
from mtgkb.reasoning.contract import Check
from mtgkb.reasoning.copy.facts import CopyCardFacts, CopyEffectFacts, copy_concept_cites
from mtgkb.reasoning.copy.situation import SituationObject
from mtgkb.reasoning.copy.values import Target
from mtgkb.reasoning.requirements.registry import not_modelled_phrase, unmodelled

# ------------------------------------------------------------------------------------------------
# Checks: the copy target requirement, evaluated property by property


def check_target(
    effect: CopyEffectFacts,
    card: CopyCardFacts,
    target: Target,
    source: SituationObject | None,
    situation: bool,
) -> list[Check]:
    """One check per ``requires*`` value of the copy target requirement."""
    req = effect.target
    base = effect.target_cites or copy_concept_cites("copy-effect-rule")
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
        cites = [
            *base,
            *copy_concept_cites("copy-target-characteristics" if holds else "copy-target-new-object"),
        ]
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
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for subtype in req.get(V.requiresSubtype) or []:
        holds = subtype in target.values.subtypes
        checks.append(
            Check(
                f"{what}: {subtype}",
                holds,
                f"{target.label} is{'' if holds else ' not'} {_a([subtype])}",
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for supertype in req.get(V.excludesSupertype) or []:
        holds = supertype not in target.values.supertypes
        checks.append(
            Check(
                f"{what}: not {supertype.lower()}",
                holds,
                f"{target.label} is{' not' if holds else ''} {supertype.lower()}",
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for required in req.get(V.requiresToken) or []:
        holds = target.token == required
        checks.append(
            Check(
                f"{what}: {'a token' if required else 'not a token'}",
                holds,
                f"{target.label} is{'' if target.token else ' not'} a token",
                [*base, *copy_concept_cites("copy-target-token")],
            )
        )
    if True in (req.get(V.requiresOther) or []) or effect.mode == mint("concept", "enters-as-a-copy"):
        same = source is not None and target.obj is source
        entering = effect.mode == mint("concept", "enters-as-a-copy")
        rule = copy_concept_cites("copy-chosen-as-it-enters" if entering else "copy-another-object")
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
                    [*base, *copy_concept_cites("copy-target-controller")],
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
                [*base, *copy_concept_cites("copy-target-controller")],
            )
        )
    for required in req.get(V.requiresAttacking) or []:
        if not situation:
            checks.append(
                Check(
                    f"{what}: attacking",
                    True,
                    "no situation given: taken to be attacking",
                    [*base, *copy_concept_cites("copy-target-attacking")],
                )
            )
            continue
        holds = target.attacking == required
        checks.append(
            Check(
                f"{what}: attacking",
                holds,
                f"{target.label} is{'' if target.attacking else ' not'} attacking",
                [*base, *copy_concept_cites("copy-target-attacking")],
            )
        )
    if relation:
        checks.append(_relation_check(relation, what, card, target, source, base))
    missing = unmodelled(req, "copy")
    if missing:
        checks.append(Check(f"{what}: every requirement", None, not_modelled_phrase(missing), base))
    return checks


def _relation_check(
    relation: str,
    what: str,
    card: CopyCardFacts,
    target: Target,
    source: SituationObject | None,
    base: list[str],
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


def check_condition(
    effect: CopyEffectFacts, card: CopyCardFacts, source: SituationObject | None
) -> list[Check]:
    if not effect.condition:
        return []
    cites = effect.condition_cites or copy_concept_cites("copy-condition")
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
                [*cites, *copy_concept_cites("copy-target-attacking")],
            )
        )
    return checks
