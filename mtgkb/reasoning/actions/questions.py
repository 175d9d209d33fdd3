"""The judge's questions about a situation: can this be activated now, can this be cast now (and for
what), and what can this player do right now."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V
from mtgkb.reasoning import phrases
from mtgkb.reasoning.actions.ability_choice import check_ability_name
from mtgkb.reasoning.actions.faces import (
    FaceChoice,
    choose_faces,
    face_nodes,
    fused_face,
    printing_face,
    prototype_face,
)
from mtgkb.reasoning.actions.unread_parts import ABILITY_TO_ACTIVATE, concept_cites
from mtgkb.reasoning.actions.verdicts import Candidate
from mtgkb.reasoning.actions.ways import (
    CASTING,
    ActionVerdict,
    Context,
    Way,
    ability_ways,
    best_way,
    evaluate_way,
    prepare,
    source_object,
)
from mtgkb.reasoning.contract import Check, Verdict, all_cites
from mtgkb.reasoning.situation_text import listed

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

PROTOTYPE = mint("mechanic", "prototype")


#: What can-activate answers for: activated abilities, mana abilities (605) and special actions a
#: card's keyword gives (116.2: foretell, plot).
_ACTIVATED = (V.Activate, V.ManaAbility, V.SpecialAction)


def can_activate(
    kb: KnowledgeBase,
    situation: dict[str, Any],
    card: str,
    ability: str | None = None,
    player: str | None = None,
) -> ActionVerdict:
    context = prepare(kb, situation)
    source = source_object(context, card, player)
    actor = player or source.owner
    found = [w for kind in _ACTIVATED for w in ability_ways(context, source, kind)]
    ways = check_ability_name(context, source, found, ability)
    if not ways:
        return _no_ability(context, source, actor)
    return best_way(context, source, actor, ways)


def can_cast(
    kb: KnowledgeBase,
    situation: dict[str, Any],
    card: str,
    via: str | None = None,
    player: str | None = None,
    face: str | None = None,
) -> ActionVerdict:
    """``face``: the face to cast (a split card's half, an Adventure, a modal DFC's back face); CARD
    may name that face instead. Without one, each face the card's layout lets be cast is tried."""
    context = prepare(kb, situation)
    source = source_object(context, card, player)
    actor = player or source.owner
    choice = choose_faces(context, source, card, face)
    ways = [Way(CASTING, None, face=f) for f in choice.faces]
    for way in ability_ways(context, source, V.Cast, named=via is not None):
        mechanic = context.rules.node(way.mechanic)
        if mechanic.first(V.isAlternativeCost) or mechanic.first(V.castsFromAnotherZone):
            ways.append(_as_its_face(context, source, way, mechanic.first(V.castsFaceIndex)))
        elif mechanic.first(V.castsAllFaces) and choice.asked is None and choice.faces != [None]:
            fused = fused_face(context, source)  # fuse: both halves as one spell (702.102a)
            if fused is not None:
                ways.append(Way(way.mechanic, way.ability, face=fused))
        elif mechanic.first(V.castsPrintingFace) and way.ability is not None:
            half = printing_face(context, source, way.ability)  # aftermath: its own half (702.127a)
            if half is not None and (choice.asked is None or choice.asked.iri == half.iri):
                ways.append(Way(way.mechanic, way.ability, face=half))
    prototyped = prototype_face(context, source) if choice.asked is None and choice.faces == [None] else None
    if prototyped is not None:
        ways.append(Way(PROTOTYPE, None, face=prototyped))  # cast prototyped (702.160a, 718.3)
    if choice.not_castable is not None and not [w for w in ways if w.face is not None]:
        return _face_not_castable(context, source, actor, choice)
    ways = [w for w in ways if choice.not_castable is None or w.face is not None]
    if via is not None:
        wanted = "casting" if via.strip().lower() in {"normal", "casting", "mana cost"} else via
        normal = [w for w in ways if w.mechanic == CASTING]
        ways = normal if wanted == "casting" else _via_ways(context, source, ways, wanted)
    return best_way(context, source, actor, ways, normal_cast=via is None)


def _via_ways(context: Context, source, ways: list[Way], via: str) -> list[Way]:
    """The ways ``--via`` names: those of the ability or mechanic it names and, when it names the
    card's layout (an adventurer card's Adventure), the ordinary cast of the faces other than the
    main one."""
    from mtgkb.reasoning.actions.faces import layout_node

    layout = layout_node(context, source)
    if layout is not None and (layout.first(V.layoutName) or "").lower() == via.strip().lower():
        faces = [
            w for w in ways if w.mechanic == CASTING and w.face is not None and w.face.first(V.faceIndex)
        ]
        named = [w for w in ways if w.mechanic != CASTING and via.strip().lower() in _way_names(context, w)]
        if faces or named:
            return faces + named
    return check_ability_name(context, source, [w for w in ways if w.mechanic != CASTING], via)


def _way_names(context: Context, way: Way) -> list[str]:
    return [n.lower() for n in context.rules.node(way.mechanic).all(V.viaName)]


def _as_its_face(context: Context, source, way: Way, index: int | None) -> Way:
    """The way cast as the face it allows (715.3d: an adventurer card from exile, as its creature)."""
    if index is None:
        return way
    faces = [f for f in face_nodes(context, source) if int(f.first(V.faceIndex) or 0) == int(index)]
    return (
        Way(way.mechanic, way.ability, face=faces[0])
        if faces and len(face_nodes(context, source)) > 1
        else way
    )


@dataclass
class Option:
    card: str
    ability: str
    via: str
    cost: str | None
    candidates: list[Candidate]
    cites: list[str]


@dataclass
class OptionsVerdict(Verdict):
    player: str
    step: str
    options: list[Option] = field(default_factory=list)


def options(kb: KnowledgeBase, situation: dict[str, Any], player: str | None = None) -> OptionsVerdict:
    """Every activation (the abilities of permanents the player controls, mana abilities included,
    and of cards elsewhere that are theirs), and every cast for an alternative cost that returns a
    creature, the player can make now: one check per way tried."""
    context = prepare(kb, situation)
    graph = context.graph
    actor = player or graph.situation.priority
    if actor not in graph.situation.players:
        raise MtgkbError(
            f"'{shown(actor)}' is not a player of the situation",
            "players: " + listed(list(graph.situation.players)),
        )
    checks, found = [], []
    for obj in graph.situation.objects:
        # A permanent's abilities are its controller's to activate; a card's elsewhere its owner's.
        yours = obj.controller == actor if obj.zone == "battlefield" else obj.owner == actor
        if not yours or obj.zone == "stack":
            continue
        ways = [w for kind in _ACTIVATED for w in ability_ways(context, obj, kind)] + [
            w
            for w in ability_ways(context, obj, V.Cast)
            if context.rules.node(w.mechanic).first(V.isAlternativeCost)
            or context.rules.node(w.mechanic).first(V.castsFromAnotherZone)
        ]
        for way in ways:
            verdict = evaluate_way(context, obj, actor, way, rulings=False)
            mechanic = context.rules.node(way.mechanic)
            action = mechanic.first(V.actionName)  # the rules' own action: "turn face up (manifest)"
            named = verdict.ability or (f"{action} ({way.slug})" if action else way.slug)
            label = phrases.option_line(obj.name, named)
            failing = [c for c in verdict.checks if c.holds is False] or [
                c for c in verdict.checks if c.holds is None
            ]
            because = phrases.option_reason(
                verdict.answer, verdict.cost, failing[0].because if failing else ""
            )
            cites = failing[0].cites if failing else verdict.cites
            checks.append(Check(label, verdict.answer, because, cites, way.mechanic))
            if verdict.answer:
                found.append(
                    Option(
                        obj.name,
                        named,
                        way.slug,
                        verdict.cost,
                        verdict.candidates,
                        verdict.cites,
                    )
                )
    # No option found, but some way cannot be told: the player may still have one.
    unknown = any(c.holds is None for c in checks)
    from mtgkb.reasoning.citations import rank_checks

    rank_checks(checks, context.rules)
    return OptionsVerdict(
        answer=True if found else None if unknown else False,
        checks=checks,
        cites=all_cites(checks, *(o.cites for o in found)),
        player=actor,
        step=graph.situation.step.name,
        options=found,
    )


def _no_ability(context: Context, source, actor: str) -> ActionVerdict:
    """Cannot tell: the card has no ability of the kinds modelled, and nothing grants it one here; it
    may still have an activated ability the knowledge base does not model, so this is no "no"."""
    because = (
        f"cannot tell: {source.name} has no activated ability the knowledge base reads (its card data "
        "may not be imported, or its abilities are of a kind not modelled, such as crew), and nothing "
        "in the situation gives it one"
    )
    cites = concept_cites(context.rules, ABILITY_TO_ACTIVATE)
    check = Check(f"{source.name} has an ability to activate", None, because, cites, ABILITY_TO_ACTIVATE)
    return _cannot_tell(
        check, f"Can an ability of {source.name} be activated now?", source.name, actor, "activate"
    )


def _cannot_tell(
    check: Check,
    question: str,
    card: str,
    actor: str,
    action: str,
    via: str | None = None,
    mechanic: str | None = None,
    face: str | None = None,
) -> ActionVerdict:
    """A verdict of one undecided check, with nothing to pay and nothing that follows."""
    return ActionVerdict(
        answer=None,
        checks=[check],
        cites=all_cites([check]),
        question=question,
        card=card,
        player=actor,
        action=action,
        via=via,
        ability=None,
        mechanic=mechanic,
        granted_by=None,
        cost=None,
        life=0,
        candidates=[],
        outcome=[],
        rulings=[],
        face=face,
    )


def _face_not_castable(context: Context, source, actor: str, choice: FaceChoice) -> ActionVerdict:
    """Cannot tell: the face asked for is not one the card's layout lets be cast (a transforming
    card's back face, an aftermath half from the hand); only an effect would allow it, and none is
    modelled here."""
    from mtgkb.kb.vocab import RDFS_LABEL

    name = choice.not_castable.first(RDFS_LABEL) if choice.not_castable is not None else None
    layout = choice.layout
    kind = layout.first(RDFS_LABEL) if layout is not None else "card"
    because = (
        f"cannot tell: {name} is not a face a {kind} is cast as by its own rules; casting it so needs "
        "an effect (cast it transformed, aftermath from a graveyard), which is not modelled here"
    )
    cites = layout.cites if layout is not None else []
    check = Check(
        f"{source.name} can be cast as {name}", None, because, cites, layout.iri if layout else None
    )
    return _cannot_tell(
        check,
        f"Can {source.name} be cast as {name} now?",
        source.name,
        actor,
        "cast",
        "casting",
        CASTING,
        name,
    )
