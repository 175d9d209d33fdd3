"""The checks of a copy effect: its target requirement, evaluated property by property against the
target, and its condition. Whether each holds is the requirement pattern's to say
(queries/requirements/), asked of the target as an object of its own, the way the verdicts ask it
of a cost's candidates (:mod:`mtgkb.reasoning.requirements.subject_graph`); the words and citations
are the copy checks'. A requirement property no pattern evaluates is never taken to hold (see
mtgkb/reasoning/requirements/registry.py)."""

from __future__ import annotations

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V
from mtgkb.reasoning.contract import Check
from mtgkb.reasoning.copy.facts import CopyCardFacts, CopyEffectFacts, copy_concept_cites
from mtgkb.reasoning.copy.situation import SituationObject
from mtgkb.reasoning.copy.values import Target
from mtgkb.reasoning.requirements.registry import local_name, not_modelled_phrase, patterns, unmodelled
from mtgkb.reasoning.requirements.subject_graph import Subject, SubjectGraph

TARGET = "target"
SOURCE = "source"
#: The target requirement properties the checks below word themselves; any other with a pattern gets
#: a check in the pattern's terms.
_WORDED = frozenset(
    {
        V.requiresZone,
        V.requiresAnyCardType,
        V.requiresSubtype,
        V.excludesSupertype,
        V.requiresToken,
        V.requiresOther,
        V.requiresControlByYou,
        V.requiresAttacking,
    }
)


def _zone_name(zone: str) -> str:
    return "library" if zone == "library_top" else zone


def subject_graph(target: Target, source: SituationObject | None) -> SubjectGraph:
    """The target, and the copying object when the situation has it, as objects a requirement
    pattern asks about; the question is its controller's."""
    values = target.values
    subjects = [
        Subject(
            TARGET,
            target.label,
            zone=_zone_name(target.zone),
            owner=target.player,
            controller=target.player,
            card_types=tuple(values.types),
            supertypes=tuple(values.supertypes),
            subtypes=tuple(values.subtypes),
            token=target.token,
            tapped=target.tapped,
            attacking=target.attacking,
            entered_from=source.entered_from if source is not None and target.obj is source else None,
        )
    ]
    if source is not None and target.obj is not source:
        subjects.append(_source_subject(source))
    about_source = None if source is None else (TARGET if target.obj is source else SOURCE)
    return SubjectGraph(subjects, player=source.player if source else None, source=about_source)


def _source_subject(source) -> Subject:
    """The copying object, as the requirement patterns see it."""
    return Subject(
        SOURCE,
        source.label,
        zone=_zone_name(source.zone),
        owner=source.player,
        controller=source.player,
        token=source.token is not None,
        tapped=source.tapped,
        attacking=bool(source.attacking),
        entered_from=source.entered_from,
    )


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
    graph = subject_graph(target, source)

    def holds(prop: str, values: list) -> bool:
        return graph.holds(prop, values, TARGET) is True

    zones = req.get(V.requiresZone) or []
    relation = (req.get(V.objectRelation) or [None])[0]
    if zones:
        zone_name = zones[0].rsplit("/", 1)[-1]
        held = holds(V.requiresZone, zones)
        because = f"{target.label} is {_zone_phrase(target.zone)}"
        if not situation:
            because += " (no situation given: taken to be where the copy effect looks)"
            held = True
        elif not held:
            because += (
                f", but {card.name} copies {what}; an object that has left the battlefield (for "
                "instance one returned to pay a cost) is a new object and cannot be chosen"
                if zone_name == "battlefield"
                else f", but {card.name} copies {what}"
            )
        cites = [
            *base,
            *copy_concept_cites("copy-target-characteristics" if held else "copy-target-new-object"),
        ]
        checks.append(Check(f"{what}: {_zone_phrase(zone_name)}", held, because, cites))
    types = req.get(V.requiresAnyCardType) or []
    if types:
        held = holds(V.requiresAnyCardType, types)
        checks.append(
            Check(
                f"{what}: {' or '.join(t.lower() for t in types)}",
                held,
                f"{target.label} is {_a(target.values.types)}"
                + ("" if held else f", not {' or '.join(_a([t]) for t in types)}"),
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for subtype in req.get(V.requiresSubtype) or []:
        held = holds(V.requiresSubtype, [subtype])
        checks.append(
            Check(
                f"{what}: {subtype}",
                held,
                f"{target.label} is{'' if held else ' not'} {_a([subtype])}",
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for supertype in req.get(V.excludesSupertype) or []:
        held = holds(V.excludesSupertype, [supertype])
        checks.append(
            Check(
                f"{what}: not {supertype.lower()}",
                held,
                f"{target.label} is{' not' if held else ''} {supertype.lower()}",
                [*base, *copy_concept_cites("copy-target-characteristics")],
            )
        )
    for required in req.get(V.requiresToken) or []:
        checks.append(
            Check(
                f"{what}: {'a token' if required else 'not a token'}",
                holds(V.requiresToken, [required]),
                f"{target.label} is{'' if target.token else ' not'} a token",
                [*base, *copy_concept_cites("copy-target-token")],
            )
        )
    entering = effect.mode == mint("concept", "enters-as-a-copy")
    if True in (req.get(V.requiresOther) or []) or entering:
        # Chosen as it enters, the object to copy is another one whatever the requirement says.
        other = holds(V.requiresOther, [True])
        rule = copy_concept_cites("copy-chosen-as-it-enters" if entering else "copy-another-object")
        because = (
            f"{target.label} is another object than {card.name}"
            if other
            else f"{target.label} is {card.name} itself"
        )
        if entering:
            because += "; the object to copy is chosen as it enters, from what is already on the battlefield"
        checks.append(Check(f"{what}: another object than {card.name}", other, because, [*base, *rule]))
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
        checks.append(
            Check(
                f"{what}: controlled by {'you' if required else 'an opponent'}",
                holds(V.requiresControlByYou, [required]),
                f"{target.label} is controlled by {target.player}, {card.name} "
                + (
                    f"by {source.player}"
                    if source.zone == "battlefield"
                    else f"enters controlled by {source.player}"
                ),
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
        checks.append(
            Check(
                f"{what}: attacking",
                holds(V.requiresAttacking, [required]),
                f"{target.label} is{'' if target.attacking else ' not'} attacking",
                [*base, *copy_concept_cites("copy-target-attacking")],
            )
        )
    checks += _other_parts(graph, req, TARGET, target.label, what, _WORDED, base)
    if relation:
        checks.append(_relation_check(relation, what, card, target, source, base))
    missing = unmodelled(req, "copy")
    if missing:
        checks.append(Check(f"{what}: every requirement", None, not_modelled_phrase(missing), base))
    return checks


def _other_parts(
    graph: SubjectGraph,
    requirement: dict,
    about: str,
    name: str,
    what: str,
    worded: frozenset[str],
    cites: list[str],
) -> list[Check]:
    """A check for each property of ``requirement`` with a pattern that the checks here do not word
    themselves, in the pattern's terms."""
    found = []
    for prop, pattern in patterns().items():
        values = requirement.get(prop) or []
        if not values or prop in worded:
            continue
        shown = ", ".join(str(v).rsplit("/", 1)[-1] for v in values)
        if not pattern.about_object:
            continue  # about the game: a copy verdict has none, so it is listed as not modelled
        held = graph.holds(prop, values, about) is True
        found.append(
            Check(
                f"{what}: mtgkb:{local_name(prop)} {shown}",
                held,
                f"{name} {'meets' if held else 'does not meet'} mtgkb:{local_name(prop)} {shown}",
                cites,
            )
        )
    return found


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
    # The condition is asked of the copying object itself.
    graph = SubjectGraph(
        [_source_subject(source)],
        player=source.player,
        source=SOURCE,
    )
    checks = []
    for zone in effect.condition.get(V.requiresEnteredFrom) or []:
        wanted = zone.rsplit("/", 1)[-1]
        came = (
            f"from {source.entered_from}"
            if source.entered_from
            else "from a zone the situation does not name"
        )
        checks.append(
            Check(
                f"{card.name}: entered from your {wanted}",
                graph.holds(V.requiresEnteredFrom, [zone], SOURCE) is True,
                f"{card.name} entered {came}",
                cites,
            )
        )
    missing = unmodelled(effect.condition, "copy")
    if missing:
        checks.append(Check(f"{card.name}: {label}", None, not_modelled_phrase(missing), cites))
    for required in effect.condition.get(V.requiresAttacking) or []:
        checks.append(
            Check(
                f"{card.name}: attacking",
                graph.holds(V.requiresAttacking, [required], SOURCE) is True,
                f"{card.name} is{'' if source.attacking else ' not'} attacking",
                [*cites, *copy_concept_cites("copy-target-attacking")],
            )
        )
    worded = frozenset({V.requiresEnteredFrom, V.requiresAttacking})
    checks += _other_parts(graph, effect.condition, SOURCE, card.name, card.name, worded, cites)
    return checks
