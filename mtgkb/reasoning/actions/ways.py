"""Verdicts on using a card now: activating one of its abilities, or casting it (the ordinary way or
through an alternative cost). One way of using a card is a mechanic plus the ability that carries it;
its verdict is the mechanic's requirements evaluated against the situation, plus what every action
shares: whether something on the stack forbids it, commander tax and the mana to pay."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import shown
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import RDFS_LABEL, V
from mtgkb.reasoning import mana, phrases
from mtgkb.reasoning.actions.choosing import best_of, from_here
from mtgkb.reasoning.actions.reductions import best_reduction
from mtgkb.reasoning.actions.unread_parts import (
    PAYING_A_SPELL,
    allow_unread_permissions,
    concept_cites,
    deciding_cost_changes,
    unmodelled_parts,
    unread_cast_sentences,
    unread_targets,
)
from mtgkb.reasoning.actions.verdict_notes import add_rulings, candidate
from mtgkb.reasoning.actions.verdicts import AbilityVerdict, ActionVerdict, OutcomeEntry
from mtgkb.reasoning.actions.wording import question
from mtgkb.reasoning.citations import deciding_rules, rank_checks
from mtgkb.reasoning.contract import Check, all_cites, decide, rule_order
from mtgkb.reasoning.game_graph import GameGraph, build_game_graph, exiled_as
from mtgkb.reasoning.knowledge import Node, RulesData, read_cards, read_rules
from mtgkb.reasoning.requirements.evaluate import evaluate, holds_for
from mtgkb.reasoning.situation import GameObject, SituationError, read_situation, resolve_card, zone_iri

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

CASTING = mint("mechanic", "casting")

# The rules concepts whose citations the checks shared by every action carry (data/concepts/actions.ttl).
_STACK_PROHIBITIONS = mint("concept", "stack-prohibitions")
_PAYING = {V.Cast: PAYING_A_SPELL}
_PAYING_AN_ABILITY = mint("concept", "paying-the-cost-of-an-ability")
_SPECIAL_ACTION = mint("concept", "special-action")
_COST_CHANGE = mint("concept", "cost-reduction")
_GENERIC_REDUCTION = mint("concept", "generic-cost-reduction")
_HYBRID = mint("concept", "hybrid-mana")
_PHYREXIAN = mint("concept", "phyrexian-mana")
_KEYWORD_ABILITIES = mint("concept", "keyword-abilities")
_ON_AN_ALTERNATIVE_COST = mint("concept", "costs-on-an-alternative-cost")
_NO_MANA_COST = mint("concept", "no-mana-cost")
_MANA_PREFIX = re.compile(r"^(?:\{[^{}]+\})+")
_MOMENTS = (V.AsItIsDone, V.RightAfter, V.OnTheStack, V.AsItResolves, V.Later)


@dataclass
class Way:
    mechanic: str
    ability: Node | None  # None for an ordinary cast
    granted_by: GameObject | None = None
    face: Node | None = None  # the face cast as, when the card's layout lets one be chosen

    @property
    def slug(self) -> str:
        return self.mechanic.rsplit("/", 1)[-1]

    @property
    def position(self) -> int:
        """Its place among the card's printed "[Cost]: [Effect]" abilities (0 for a keyword's):
        what `--ability N` and `mtgkb card` count."""
        value = self.ability.first(V.abilityPosition) if self.ability is not None else None
        return int(value) if value is not None else 0


@dataclass
class Context:
    kb: KnowledgeBase
    graph: GameGraph

    @property
    def rules(self):
        return self.graph.rules


def prepare(kb: KnowledgeBase, data: dict[str, Any]) -> Context:
    """Read the situation, and build its graph with what the knowledge base says of its cards."""
    situation = read_situation(kb, data)
    rules = read_rules(kb)
    cards = (
        {o.card for o in situation.objects if o.card}
        | {o.copy_of for o in situation.objects if o.copy_of}
        | {c for p in situation.players.values() for c in p.this_turn.combat_damage_by}
    )
    return Context(kb, build_game_graph(situation, rules, read_cards(kb, cards)))


def source_object(context: Context, name: str, player: str | None) -> GameObject:
    """The object the question is about: the card ``name`` in the situation (a player's, if given)."""
    situation = context.graph.situation
    if player is not None and player not in situation.players:
        raise SituationError("--player", f"'{shown(player)}' is not a player of the situation")
    # One object among several of the same card, by its id or its place ("me/battlefield/1").
    named = [o for o in situation.objects if name in (o.id, o.key)]
    if named:
        return named[0]
    card, display = resolve_card(context.kb, name, "CARD")
    found = situation.objects_of_card(card)
    if not found:
        raise SituationError(
            "",
            f"{display} is not in any zone of the situation",
            "list it where it is, e.g. under players.NAME.hand or players.NAME.command",
        )
    # Another player's card is still the one asked about: its zone check then says it is not yours.
    found = [o for o in found if o.owner == player] or found
    # The card in a zone it can be used from is the one asked about (a hand beats a graveyard).
    preference = ["hand", "command", "battlefield", "graveyard", "exile", "library", "stack", "outside"]
    return sorted(found, key=lambda o: preference.index(o.zone))[0]


# -- ways of using a card ----------------------------------------------------------------------------


def ability_ways(context: Context, source: GameObject, action_kind: str, named: bool = False) -> list[Way]:
    """The card's own abilities and those granted to it whose mechanic is an action of this kind.
    A way open by how a card came to exile is offered when it went there so, or when ``named``."""
    graph = context.graph
    rules = context.rules
    ways = [
        Way(m, ability)
        for ability in graph.own_abilities(source)
        for m in ability.all(V.instantiates)
        if rules.node(m).first(V.actionKind) == action_kind
    ]
    # A way another mechanic's ability opens: morph's ability lets the card be cast face down.
    ways += [
        Way(opened.iri, ability)
        for ability in graph.own_abilities(source)
        for m in ability.all(V.instantiates)
        for opened in rules.enabled_by(m)
        if opened.first(V.actionKind) == action_kind
    ]
    if source.zone == "exile":  # a plotted card is cast from exile whatever its abilities (702.170d)
        ways += [
            Way(m.iri, None)
            for m in rules.state_actions(V.requiresExiledAs)
            if m.first(V.actionKind) == action_kind and (named or _exiled_so(rules, m, source))
        ]
    if source.face_down and source.card:
        # Face down it has no abilities (708.2a), but its card's morph turns it up (702.37e).
        card = graph.cards.get(source.card) or Node(source.card)
        for iri in card.all(V.hasAbility):
            ability = graph.cards.get(iri) or Node(iri)
            for m in ability.all(V.instantiates):
                mechanic = context.rules.node(m)
                if mechanic.first(V.usableFaceDown) and mechanic.first(V.actionKind) == action_kind:
                    ways.append(Way(m, ability))
        # Manifest and cloak are the rules' own ways up, open by how it went face down (701.40b).
        ways += [
            Way(m.iri, None)
            for m in context.rules.state_actions(V.requiresFaceDownAs)
            if m.first(V.actionKind) == action_kind
        ]
    for grant in graph.granted.get(source.key, []):
        ability = graph.cards.get(grant.ability) or Node(grant.ability)
        for m in ability.all(V.instantiates):
            if context.rules.node(m).first(V.actionKind) == action_kind:
                ways.append(Way(m, ability, grant.by))
    return ways


def _exiled_so(rules: RulesData, mechanic: Node, source: GameObject) -> bool:
    """Whether the card went to exile the way the mechanic asks for, on whichever turn ("plotted"
    for "plotted on an earlier turn"), so a card plotted this turn is told why it cannot be cast
    yet and a card no Adventure exiled is not offered as an adventurer."""
    kinds = {state.split()[0] for state in exiled_as(source.exiled_as)}
    return any(
        wanted.split()[0] in kinds
        for r in mechanic.all(V.hasRequirement)
        for wanted in rules.node(r).all(V.requiresExiledAs)
    )


def as_face(context: Context, source: GameObject, face: Node) -> Context:
    """The context with ``source`` cast as ``face``: only that face's characteristics are evaluated
    (709.3a, 712.11c, 715.3a), so the requirement patterns see the face's types and abilities."""
    graph = context.graph
    faces = {**graph.faces, source.key: face.iri}
    return Context(context.kb, build_game_graph(graph.situation, graph.rules, graph.cards, faces))


def evaluate_way(
    context: Context, source: GameObject, player: str, way: Way, rulings: bool = True
) -> ActionVerdict:
    if way.face is not None:
        context = as_face(context, source, way.face)
    graph, rules = context.graph, context.rules
    mechanic = rules.node(way.mechanic)
    action_kind = mechanic.first(V.actionKind)
    checks: list[Check] = []
    if way.face is not None:
        checks.append(_face_cast(context, source, way.face))
    if way.ability is not None:
        checks.append(_has_ability(context, source, way))
        checks += unmodelled_parts(context.rules, _its_own(way), action_kind == V.Cast)
    if action_kind == V.SpecialAction:
        checks.append(_special_action(context, mechanic))
    cast = action_kind == V.Cast
    targets = spell_targets(context, source, way, mechanic) if cast else None
    checks += unread_targets(context.rules, targets)
    checks += unread_cast_sentences(context.rules, _spell_text(context, source, way)) if cast else []
    wanted = _requirements(context, mechanic, way) + _own_requirements(context, targets)
    requirements = [evaluate(graph, r, player, source, cast) for r in dict.fromkeys(wanted)]
    order = {V.SourceObject: 0, V.GameState: 1, V.CountedObject: 1, V.CostObject: 2}
    requirements.sort(key=lambda e: order.get(rules.node(e.check.evaluates or "").first(V.appliesTo), 1))
    checks += [e.check for e in requirements]
    paid_with = [(o, e.check.check) for e in requirements for o in e.candidates]
    # An ability that puts its card onto the battlefield returns the attacker it was paid with.
    returns = bool(mechanic.first(V.destinationZone))
    checks += _prohibitions(context, action_kind)
    reduction = best_reduction(graph, requirements)
    cost, life, cost_checks = _cost(context, source, player, way, action_kind, reduction)
    checks += cost_checks
    if cast:
        allow_unread_permissions(_spell_text(context, source, way), checks)
    rank_checks(checks, rules)
    answer = decide(checks)
    outcome = _outcome(context, mechanic, player, source, [o for o, _ in paid_with]) if answer else []
    verb = {V.Cast: "cast", V.SpecialAction: "take"}.get(action_kind, "activate")
    label = way.ability.first(RDFS_LABEL) if way.ability is not None else None
    face = way.face.first(RDFS_LABEL) if way.face is not None else None
    verdict = ActionVerdict(
        answer=answer,
        checks=checks,
        cites=all_cites(checks, *(o.cites for o in outcome)),
        question=question(source.name, verb, label or way.slug, way.mechanic == CASTING, face, mechanic),
        face=face,
        card=source.name,
        player=player,
        action=verb,
        via=way.slug,
        ability=label,
        mechanic=way.mechanic,
        granted_by=way.granted_by.name if way.granted_by else None,
        cost=cost,
        life=life,
        candidates=[candidate(graph, o, pays, returns) for o, pays in paid_with],
        outcome=outcome,
        rulings=[],
    )
    if answer and rulings:
        add_rulings(verdict, context.kb, context.rules, source, way.mechanic)
    return verdict


def best_way(
    context: Context, source: GameObject, player: str, ways: list[Way], normal_cast: bool = False
) -> ActionVerdict:
    """The best of the ways (:func:`best_of`), with the rulings read for that one only: reading them
    is most of a verdict's time, and the other ways are listed with their own verdicts. With
    ``normal_cast``, the verdict answers for casting the card the ordinary way (its best face) when
    that works, else for the cheapest other way that does; the ways listed beside it are those that
    work from the zone the card is in, and the ordinary cast."""
    verdicts = [evaluate_way(context, source, player, way, rulings=False) for way in ways]
    if normal_cast:
        pairs = list(zip(ways, verdicts, strict=True))
        normal = [v for w, v in pairs if w.mechanic == CASTING]
        # When no way works, the first listed answers: one that works from the card's zone first.
        here = [v for _, v in pairs if from_here(context.rules, source, v)]
        listed = here + [v for w, v in pairs if w.mechanic == CASTING and v not in here]
        chosen = best_of(listed or verdicts, normal)
    else:
        chosen = best_of(verdicts)
    if chosen.answer:
        add_rulings(chosen, context.kb, context.rules, source, ways[verdicts.index(chosen)].mechanic)
    by_ability: dict[str, ActionVerdict] = {}
    # In the order `--ability N` counts them: keyword abilities first, then the printed ones.
    for _, verdict in sorted(zip(ways, verdicts, strict=True), key=lambda pair: pair[0].position):
        if verdict.action == "activate" and verdict.ability is not None:
            known = by_ability.get(verdict.ability)
            if known is None or (verdict.answer and not known.answer):
                by_ability[verdict.ability] = verdict
    if len(by_ability) > 1:
        chosen.abilities = [
            AbilityVerdict(label, v.answer, v.checks, v.cites, v.cost) for label, v in by_ability.items()
        ]
    return chosen


def _requirements(context: Context, mechanic: Node, way: Way) -> list[str]:
    """The mechanic's requirements, then those the ability's own cost, restrictions and targets add
    (data/mechanics/activation-phrases.ttl), less those it waives ("Any player may activate"); an
    ability's own node (its loyalty cost) is read with the card."""
    ability = _its_own(way)
    own = _own_requirements(context, ability)
    waived = set(ability.all(V.waivesRequirement)) if ability is not None else set()
    return [r for r in dict.fromkeys([*mechanic.all(V.hasRequirement), *own]) if r not in waived]


def _own_requirements(context: Context, node: Node | None) -> list[str]:
    """The requirements an ability or a spell's targets add; those minted for it under its own node
    ("needs-1") are read with the card, and join the rules' nodes here."""
    own = node.all(V.hasRequirement) if node is not None else []
    for iri in own:
        if iri not in context.rules.nodes and iri in context.graph.cards:
            context.rules.nodes[iri] = context.graph.cards[iri]
    return own


def spell_targets(context: Context, source: GameObject, way: Way, mechanic: Node) -> Node | None:
    """The targets the spell cast this way chooses (601.2c): those its face's text names, none when
    the way casts it without them (overloaded, face down)."""
    if mechanic.first(V.castsWithoutTargets):
        return None
    cards = context.graph.cards
    holder = way.face if way.face is not None else cards.get(source.card or "")
    iri = holder.first(V.hasSpellTargets) if holder is not None else None
    return cards.get(iri) if iri else None


def _spell_text(context: Context, source: GameObject, way: Way) -> Node | None:
    """The node of the text the spell cast this way has: the face cast as, else the card."""
    return way.face if way.face is not None else context.graph.cards.get(source.card or "")


def _its_own(way: Way) -> Node | None:
    """The ability whose cost and restrictions the way pays and obeys: not morph's when the way is
    the face-down cast morph opens, which costs {3} whatever morph's own cost asks."""
    if way.ability is None or way.mechanic not in way.ability.all(V.instantiates):
        return None
    return way.ability


def _special_action(context: Context, mechanic: Node) -> Check:
    """What kind of action this is: a special action, which does not use the stack (116.2); the
    mechanic's own rule for it (its deciding rule) with the section's."""
    cites = sorted(
        {*concept_cites(context.rules, _SPECIAL_ACTION), *deciding_rules(mechanic)}, key=rule_order
    )
    because = (
        f"{mechanic.first(RDFS_LABEL)} is a special action: a player holding priority takes it, and it "
        "does not use the stack"
    )
    return Check("It is a special action", True, because, cites, mechanic.iri)


def _face_cast(context: Context, source: GameObject, face: Node) -> Check:
    """The face chosen: its layout's rules say only it is evaluated (709.3a, 712.11c, 715.3a)."""
    from mtgkb.reasoning.actions.faces import layout_node

    layout = layout_node(context, source)
    kind = layout.first(RDFS_LABEL) if layout is not None else "card"
    name = face.first(RDFS_LABEL)
    printed = ", ".join(v for v in (face.first(V.manaCost) or "no mana cost", face.first(V.typeLine)) if v)
    cites = sorted(layout.cites, key=_rule_key) if layout is not None else []
    evaluates = layout.iri if layout is not None else None
    if face.first(V.knownOnlyByName):
        because = (
            f"cannot tell: the card data names {name} as a face of {source.name} but gives none of its "
            "characteristics (cost, types, text), so a cast as that face cannot be judged"
        )
        return Check(f"Cast as {name}", None, because, cites, evaluates)
    because = (
        f"{source.name} is {phrases.article(kind)} cast as {name} ({printed}): only that face is evaluated"
    )
    return Check(f"Cast as {name}", True, because, cites, evaluates)


def _rule_key(number: str):
    return rule_order(number)


def _has_ability(context: Context, source: GameObject, way: Way) -> Check:
    label = way.ability.first(RDFS_LABEL) if way.ability is not None else way.slug
    mechanic = context.rules.node(way.mechanic)
    if way.granted_by is not None:
        granter = way.granted_by
        who = phrases.subject_verb(
            granter.controller, source.controller, list(context.graph.situation.players), "control"
        )
        because = f"{granter.name}, a permanent {who}, gives {source.name} {label}"
    else:
        because = f"{source.name} has {label}"
    rules = _defining_rules(context, mechanic)
    return Check(f"{source.name} has the ability", True, because, rules, way.mechanic)


def _defining_rules(context: Context, mechanic: Node) -> list[str]:
    """The rules that define the mechanic: those of the keyword abilities section, else all it cites."""
    cites = sorted(mechanic.cites, key=rule_order)
    sections = tuple(f"{n}." for n in context.rules.node(_KEYWORD_ABILITIES).cites)
    return [c for c in cites if c.startswith(sections)] or cites


def _prohibitions(context: Context, action_kind: str) -> list[Check]:
    """Mechanics on the stack that forbid this kind of action (split second), found by what they
    prohibit and exempt, not by name."""
    graph, rules = context.graph, context.rules
    on_stack = [o for o in graph.situation.objects if o.zone == "stack"]
    if not on_stack:
        return []
    verb = rules.label(action_kind).lower()
    for obj in on_stack:
        for ability in graph.own_abilities(obj):
            for m in ability.all(V.instantiates):
                node = rules.node(m)
                if (
                    action_kind in node.all(V.prohibitsAction)
                    and action_kind not in node.all(V.exemptsAction)
                    and zone_iri("stack") in node.all(V.functionsIn)
                ):
                    because = (
                        f"{obj.name} is on the stack with {rules.label(m).lower()}: while it is there, "
                        f"nobody may {verb} anything but mana abilities"
                    )
                    return [Check("Nothing on the stack forbids it", False, because, node.cites, m)]
    names = ", ".join(o.name for o in on_stack)
    because = f"nothing on the stack ({names}) forbids it; {verb} in response is allowed"
    cites = concept_cites(rules, _STACK_PROHIBITIONS)
    return [Check("Nothing on the stack forbids it", True, because, cites, _STACK_PROHIBITIONS)]


def _cost(
    context: Context, source: GameObject, player: str, way: Way, action_kind: str, reduction: Any = None
) -> tuple[str | None, int, list[Check]]:
    rules, graph = context.rules, context.graph
    # A way of casting with no cost of its own (a face, fuse, aftermath, prototyped) pays the mana
    # cost of what is cast.
    fixed = rules.node(way.mechanic).first(V.actionCost)  # foretelling costs {2} (702.143a)
    own_cost = fixed or (way.ability.first(V.abilityCost) if way.ability is not None else None)
    # Jump-start and retrace pay the mana cost too, with an additional cost (601.2f).
    from_elsewhere = rules.node(way.mechanic).first(V.castsFromAnotherZone)
    mana_cost = way.ability is None or (own_cost is None and (way.face is not None or bool(from_elsewhere)))
    # A face-down permanent has no mana cost (708.2a); turning it up pays its card's (701.40b).
    card = graph.cards.get(source.card, graph.card(source)) if source.face_down else graph.card(source)
    printed = card.first(V.manaCost) if mana_cost else own_cost
    free = rules.node(way.mechanic).first(V.withoutPayingManaCost)  # a plotted card (702.170d)
    if free:
        printed, mana_cost = "{0}", False
    if mana_cost and printed is None and way.face is not None and way.face.first(V.knownOnlyByName):
        return None, 0, []  # a face the data names only: the check on the face says it cannot tell
    if mana_cost and printed is None and "Land" in graph.types(source):
        return None, 0, []  # a land is played, not cast: the check that it is not a land says so
    if mana_cost and printed is None:
        # No mana cost is an unpayable cost (118.6, 202.1b), never {0}; a land says so already.
        paying = rules.node(_PAYING.get(action_kind, _PAYING_AN_ABILITY))
        because = (
            f"{graph.card(source).first(RDFS_LABEL) or source.name} has no mana cost: that cost cannot "
            "be paid, so it is not cast for its mana cost; only an alternative cost (suspend, an effect "
            "letting it be cast without paying its mana cost) would allow it"
        )
        cites = concept_cites(rules, _NO_MANA_COST)
        return None, 0, [Check("The cost can be paid", False, because, cites, paying.iri)]
    if printed is None:
        return None, 0, []
    mana_part = _MANA_PREFIX.match(printed)
    extra = printed[mana_part.end() :].strip(" ,") if mana_part else printed
    try:
        total = mana.parse_cost(mana_part.group(0)) if mana_part else mana.Cost(0, ())
    except ValueError:
        return printed, 0, []
    paying = rules.node(_PAYING.get(action_kind, _PAYING_AN_ABILITY))
    notes = ["cast without paying its mana cost" if free else f"printed cost {printed}"]
    cites = concept_cites(rules, paying.iri)
    # "Flashback—Tap three untapped white creatures you control": its requirements read that part
    # (or say it cannot tell); a cost no reading reached cannot be told paid.
    read = way.ability is not None and bool(
        way.ability.all(V.hasRequirement) or way.ability.all(V.unmodelledPart)
    )
    if extra and action_kind == V.Cast and not read:
        because = f"cannot tell: paying \u201c{extra}\u201d, part of the cost {printed}, is not modelled"
        return printed, 0, [Check("The cost can be paid", None, because, cites, paying.iri)]
    checks: list[Check] = []
    for rule in rules.counting_rules():
        if zone_iri(source.zone) not in rule.all(V.countsFromZone):
            continue
        counted = action_kind in rule.all(V.countsAction)
        label = rules.label(rule.iri)
        if counted and source.commander:
            per = mana.parse_cost(rule.first(V.taxPerCount) or "{0}")
            tax = mana.times(per, source.commander_casts)
            total = mana.add(total, tax)
            zone = rules.label(zone_iri(source.zone))
            who = phrases.person(player, player, list(graph.situation.players))
            because = (
                f"{who} cast {source.name} from the {zone} {phrases.how_often(source.commander_casts)} "
                f"before, so it costs {tax.text()} more"
            )
        else:
            counts = ", ".join(rules.label(a).lower() for a in rule.all(V.countsAction))
            doing = rules.label(action_kind).lower()
            because = (
                f"{label} counts only {counts}, not {doing}: nothing is added and the count does not grow"
            )
        # The rule that decides the count, not every rule the concept's summary rests on; a cast for an
        # alternative cost (sneak) adds the rule that puts the tax on that cost.
        rule_cites = deciding_rules(rule) or rule.cites
        if counted and source.commander and context.rules.node(way.mechanic).first(V.isAlternativeCost):
            rule_cites = rule_cites + concept_cites(rules, _ON_AN_ALTERNATIVE_COST)
        checks.append(Check(label[:1].upper() + label[1:], True, because, rule_cites, rule.iri))
    for changer, ability in _changes(context, player, way.mechanic):
        for prop, apply in ((V.costReduction, mana.reduce), (V.costIncrease, mana.add)):
            amount = ability.first(prop)
            if amount:
                change = mana.parse_cost(amount)
                total = apply(total, change)
                word = "less" if prop == V.costReduction else "more"
                notes.append(f"{changer.name} makes it cost {amount} {word}")
                if prop == V.costReduction:
                    # A discount of generic mana never takes off a coloured symbol.
                    concept = _GENERIC_REDUCTION if not change.symbols else _COST_CHANGE
                    cites += [number for number in concept_cites(rules, concept) if number not in cites]
    if reduction is not None:  # emerge's sacrificed creature, harmonize's tapped one
        total = mana.reduce(total, mana.Cost(reduction.amount))
        notes.append(reduction.note)
        cites += [number for number in reduction.cites if number not in cites]
    # A cost with no mana in it ("Sacrifice a creature", "Crew 3") is shown as printed, not as {0}.
    cost_text = total.text() + (f", {extra}" if extra else "") if mana_part or not extra else extra
    available = graph.situation.players[player].mana
    if any("/" in s for s in total.symbols):
        if any(not s.endswith("/P") for s in total.symbols if "/" in s):
            cites += concept_cites(rules, _HYBRID)
        if any(s.endswith("/P") for s in total.symbols):
            cites += concept_cites(rules, _PHYREXIAN)
    if available is None:
        because = "; ".join(notes) + f"; total {cost_text}; no mana was given, so it is taken as payable"
        checks.append(Check("The cost can be paid", True, because, cites, paying.iri))
        return cost_text, 0, checks
    payment = mana.pay(total, mana.parse_available(available))
    life = payment.life
    because = "; ".join(notes) + f"; total {cost_text}; you can produce {available.strip() or 'no mana'}"
    if payment.payable:
        because += ", which pays it" + (f", with {life} life for Phyrexian symbols" if life else "")
    else:
        because += ", which is not enough"
    holds: bool | None = payment.payable
    holder = _spell_text(context, source, way) if action_kind == V.Cast else None
    deciding = deciding_cost_changes(way.ability, holder, holds)
    if deciding:
        holds = None
        what = "; ".join(f"\u201c{c}\u201d" for c in deciding)
        because += f"; cannot tell: {what} is not modelled here, so the total is not known"
    checks.append(Check("The cost can be paid", holds, because, cites, paying.iri))
    return cost_text, life, checks


def _changes(context: Context, player: str, mechanic: str) -> list[tuple[GameObject, Node]]:
    """Permanents of ``player`` whose abilities change the cost of this mechanic or one it is a
    variant of (Silver-Fur Master's discount applies to commander ninjutsu too)."""
    lineage = set(context.rules.mechanic_lineage(mechanic))
    found = []
    for obj in context.graph.situation.objects:
        if obj.zone != "battlefield" or obj.controller != player:
            continue
        for ability in context.graph.own_abilities(obj):
            if lineage & set(ability.all(V.changesMechanic)):
                found.append((obj, ability))
    return found


def _outcome(
    context: Context, mechanic: Node, player: str, source: GameObject, candidates: list[GameObject]
) -> list[OutcomeEntry]:
    entries = []
    # In the order they come about (mtgkb:happensAt); one the data does not place, last.
    nodes = [context.rules.node(iri) for iri in mechanic.all(V.hasOutcome)]
    nodes.sort(key=lambda n: _MOMENTS.index(n.first(V.happensAt)) if n.first(V.happensAt) in _MOMENTS else 9)
    for node in nodes:
        iri = node.iri
        applies = True
        for condition in node.all(V.onlyWhen):
            result = holds_for(context.graph, condition, player, source)
            applies &= (
                bool(set(map(id, result)) & set(map(id, candidates))) if isinstance(result, list) else result
            )
        if applies:
            entries.append(OutcomeEntry(context.rules.label(iri), node.first(V.summary) or "", node.cites))
    return entries
