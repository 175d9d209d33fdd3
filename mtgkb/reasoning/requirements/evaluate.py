"""The generic evaluator: one requirement of the graph checked against a game graph.

Each requires* property has one graph pattern, kept as text in ``queries/requirements/<property>.rq``
with a header saying what the pattern is about (an object or the game), how several values combine
(any or all) and how to say that it holds or fails. A requirement applies to the object being used,
to some object chosen to pay a cost (the candidates), or to the game state (``mtgkb:appliesTo``); a
timing it names adds the timing's own requires* properties; ``waivedBy*`` lifts it for some objects.
Nothing here knows any mechanic by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from mtgkb.kb.sparql_text import ParamValue, WrittenTerm, bind_values
from mtgkb.kb.vocab import PREFIXES, V
from mtgkb.reasoning.contract import Check
from mtgkb.reasoning.knowledge import Node, Term
from mtgkb.reasoning.requirements.registry import (
    PLACEHOLDERS,
    Pattern,
    PatternError,
    local_name,
    not_modelled_phrase,
    patterns,
    unmodelled,
)

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.reasoning.game_graph import GameGraph
    from mtgkb.reasoning.situation import GameObject


@dataclass
class Evaluation:
    """A requirement's check, and for a cost requirement the objects that qualify."""

    check: Check
    candidates: list[GameObject] = field(default_factory=list)


class Phrase(NamedTuple):
    """Whether one part of a requirement holds for an object (or the game), and why; None when the
    situation does not say (the pattern's ``unknown:``)."""

    holds: bool | None
    text: str


class _Labels(dict):
    def __missing__(self, key: str) -> str:
        # Every name a phrase uses is checked when the patterns are read; one that is declared but
        # not filled in here is a bug to fix, never a placeholder to print as written.
        if key in PLACEHOLDERS:
            raise PatternError(f"the placeholder {{{key}}} has no value for this subject")
        raise PatternError(f"unknown placeholder {{{key}}}")


def evaluate(
    graph: GameGraph, requirement: str, player: str, source: GameObject | None, being_cast: bool = False
) -> Evaluation:
    """The requirement's check. Every part that has an evaluator is asked; one that has none never
    holds by default: when nothing else fails, the check cannot tell (holds None) and says why.
    ``being_cast``: the source is a spell being cast, already on the stack as its costs are paid and
    its targets chosen (601.2a), so it pays no cost and is no target of its own."""
    rules = graph.rules
    node = rules.node(requirement)
    label = node.first(_LABEL) or rules.label(requirement)
    cites = list(node.cites)
    parts, missing = _parts(graph, node, cites)
    waiver = _waiver(graph, node, player, source)
    if waiver is not None:
        return Evaluation(Check(label, True, waiver, _unique(cites), requirement))
    missing_waivers = unmodelled([p for p in node.values if local_name(p).startswith("waivedBy")], "verdicts")
    subject = node.first(V.appliesTo) or V.GameState
    if subject in (V.CostObject, V.TargetObject, V.CountedObject):
        evaluation = _cost_object(graph, label, parts, cites, player, source, requirement, being_cast)
        if subject != V.CostObject:
            evaluation.candidates = []  # legal targets are named in the check, not paid with
    else:
        obj = source if subject == V.SourceObject else None
        phrases = [_check_part(graph, pattern, terms, player, obj) for pattern, terms in parts]
        for phrase, (pattern, _) in zip(phrases, parts, strict=True):
            if phrase.holds is False and pattern.cites_step:
                cites += graph.rules.node(graph.situation.step.iri).cites
        verdicts = {phrase.holds for phrase in phrases}
        holds = False if False in verdicts else None if None in verdicts else True
        failing = [p.text for p in phrases if p.holds is holds] if holds is not True else []
        because = "; ".join(failing or [p.text for p in phrases])
        evaluation = Evaluation(Check(label, holds, _sentence(because), _unique(cites), requirement))
    check = evaluation.check
    if (missing and check.holds) or (missing_waivers and not check.holds):
        # What is modelled holds (or fails, with a waiver that is not modelled): no answer either way.
        what = not_modelled_phrase(missing or missing_waivers)
        check.because = _sentence("; ".join(t for t in (check.because, what) if t))
        check.holds = None
    return evaluation


def holds_for(
    graph: GameGraph, requirement: str, player: str, source: GameObject | None
) -> list[GameObject] | bool:
    """For conditions (an outcome's onlyWhen): the qualifying objects, or whether it holds."""
    result = evaluate(graph, requirement, player, source)
    subject = graph.rules.node(requirement).first(V.appliesTo)
    # An outcome whose condition cannot be told is not promised.
    return result.candidates if subject == V.CostObject else result.check.holds is True


_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def _parts(
    graph: GameGraph, node: Node, cites: list[str]
) -> tuple[list[tuple[Pattern, list[Term]]], list[str]]:
    """(pattern, values) for each requires* property of the requirement and of the timings it names,
    and the requirement properties that have no evaluator here; every part must hold, so a timing's
    step list narrows the requirement's rather than widening it."""
    known = patterns()
    sources = [node] + [graph.rules.node(t) for t in node.all(V.requiresTiming)]
    parts: list[tuple[Pattern, list[Term]]] = []
    missing: list[str] = []
    for source in sources:
        if source is not node:
            cites += source.cites
        for prop, pattern in known.items():
            terms = source.terms(prop)
            if (
                terms
                and local_name(prop).startswith(("requires", "excludes"))
                and (pattern, terms) not in parts
            ):
                parts.append((pattern, terms))
        missing += [
            p
            for p in unmodelled(source.values, "verdicts")
            if not local_name(p).startswith("waivedBy") and p not in missing
        ]
    return parts, missing


def _waiver(graph: GameGraph, node: Node, player: str, source: GameObject | None) -> str | None:
    if source is None:
        return None
    known = patterns()
    for prop in (V.waivedByCardType, V.waivedByMechanic):
        terms = node.terms(prop)
        if terms and prop in known:
            phrase = _check_part(graph, known[prop], terms, player, source)
            if phrase.holds:
                return f"does not apply: {phrase.text}{_given_by(graph, source, terms)}"
    return None


def _given_by(graph: GameGraph, source: GameObject, terms: list[Term]) -> str:
    """ " (given by Vedalken Orrery)" when a permanent gives the object the mechanic that waives."""
    wanted = {t.value for t in terms}
    own = {m for a in graph.own_abilities(source) for m in a.all(V.instantiates)}
    for grant in graph.granted.get(source.key, []):
        ability = graph.cards.get(grant.ability) or Node(grant.ability)
        if wanted & set(ability.all(V.instantiates)) and not wanted & own:
            return f" (given by {grant.by.name})"
    return ""


def _cost_object(
    graph: GameGraph,
    label: str,
    parts: list[tuple[Pattern, list[Term]]],
    cites: list[str],
    player: str,
    source: GameObject | None,
    requirement: str,
    being_cast: bool = False,
) -> Evaluation:
    situation = graph.situation
    # Any object may be chosen, the one whose ability it is included (a creature may sacrifice
    # itself to its own "Sacrifice a creature", 701.21a; a target may be the object itself, 115.1),
    # unless the requirement asks for another one.
    node = graph.rules.node(requirement)
    given = node.first(V.objectCount)
    count = 1 if given is None else int(given)  # "Exile X cards": X may be 0 (107.3)
    itself = not being_cast and node.first(V.requiresOther) is not True
    pool = [o for o in situation.objects if o is not source or itself]
    # Each object is asked part by part until one fails (a card in a hand fails "on the battlefield"
    # at once); every part is asked only to explain why too few qualify.
    parts = sorted(parts, key=lambda part: part[0].order)  # the zone (order 10) first
    candidates = [o for o in pool if all(_check_part(graph, p, t, player, o).holds for p, t in parts)]
    names = ", ".join(_name(o, situation) for o in candidates)
    if candidates and len(candidates) >= count:
        because = f"{names} {'qualifies' if len(candidates) == 1 else 'qualify'}"
        if count > 1:
            because += f" ({count} needed)"
        return Evaluation(Check(label, True, because, _unique(cites), requirement), candidates)
    if count == 0:
        return Evaluation(Check(label, True, "none is needed", _unique(cites), requirement))
    if candidates:
        because = f"only {len(candidates)} of the {count} needed: {names}"
        return Evaluation(Check(label, False, because, _unique(cites), requirement))
    results = {o.key: [_check_part(graph, p, t, player, o) for p, t in parts] for o in pool}
    # The closest objects: in the right zone first, then meeting the most parts; each with what it
    # lacks, said once.
    zone_parts = [i for i, (p, _) in enumerate(parts) if p.property in _ZONE_PROPERTIES]

    def closeness(o: GameObject) -> tuple[bool, int]:
        phrases = results[o.key]
        return all(phrases[i].holds for i in zone_parts), sum(p.holds is True for p in phrases)

    scored = sorted(pool, key=closeness, reverse=True)
    near = [o for o in scored if closeness(o) == closeness(scored[0])][:4] if scored else []
    if near:
        reasons = [
            _name(o, situation)
            + ": "
            + ", ".join(dict.fromkeys(p.text for p in results[o.key] if not p.holds))
            for o in near
        ]
        because = "no object qualifies (" + "; ".join(reasons) + ")"
    else:
        because = "no object qualifies: there is no other object in the situation"
    return Evaluation(Check(label, False, because, _unique(cites), requirement))


_ZONE_PROPERTIES = (V.requiresZone, V.requiresZoneOfAnyPlayer)


def _check_part(
    graph: GameGraph, pattern: Pattern, terms: list[Term], player: str, obj: GameObject | None
) -> Phrase:
    """Whether the pattern holds for ``obj`` (or the game) with ``terms``, and why."""
    # Asked once per game graph: `options` asks the same part of every candidate for each card it
    # tries, which made a situation of a few hundred objects take minutes (sources x objects queries).
    key = (pattern.property, tuple(terms), player, obj.key if obj is not None else None)
    known = graph.checked.get(key)
    if known is None:
        known = graph.checked[key] = _check_part_now(graph, pattern, terms, player, obj)
    return known


def _check_part_now(
    graph: GameGraph, pattern: Pattern, terms: list[Term], player: str, obj: GameObject | None
) -> Phrase:
    if pattern.unknown is not None and _ask(graph, pattern, terms, player, obj, pattern.unknown):
        return Phrase(None, _fill(graph, pattern.unsure or "", terms, player, obj))
    if pattern.any_value and len(terms) > 1:
        # Said with the values that hold: "Deep Analysis is a Sorcery", not the first one asked for.
        holding = [t for t in terms if _ask(graph, pattern, [t], player, obj)]
        if not holding:
            return Phrase(False, _fill(graph, pattern.fails, terms, player, obj))
        return Phrase(True, _fill(graph, pattern.holds, holding, player, obj))
    groups = [terms] if pattern.any_value else [[t] for t in terms]
    for group in groups:
        if not _ask(graph, pattern, group, player, obj):
            return Phrase(False, _fill(graph, pattern.fails, group, player, obj))
    return Phrase(True, _fill(graph, pattern.holds, terms, player, obj))


def holds_for_card(kb: KnowledgeBase, prop: str, terms: list[Term], card: str) -> bool | None:
    """Whether the pattern of ``prop`` holds for a card node of the knowledge base itself, before any
    situation (what ``mtgkb timing`` asks of a card's types and waivers): a card node carries the
    characteristics a game object of the game graph has (mtgkb:cardType, mtgkb:hasAbility, ...).
    None when ``prop`` has no pattern, or its pattern asks about the game or the player."""
    pattern = patterns().get(prop)
    if pattern is None or not pattern.about_object:
        return None
    if "?player" in pattern.body or "?situation" in pattern.body:
        return None
    groups = [terms] if pattern.any_value else [[t] for t in terms]
    for group in groups:
        params: dict[str, ParamValue] = {"object": card, "value": [WrittenTerm(t.sparql) for t in group]}
        if not bool(kb.raw_query(bind_values(pattern_query(pattern.body), params))):
            return False
    return True


def pattern_query(body: str) -> str:
    """The query that asks whether a requirement pattern holds: a pattern file is a group pattern,
    not a query, so that every requires* property's file stays one pattern."""
    # The one query built in code: each pattern becomes an ASK of its own.
    return "ASK WHERE {\n" + body + "\n}"


def _ask(
    graph: GameGraph,
    pattern: Pattern,
    terms: list[Term],
    player: str,
    obj: GameObject | None,
    body: str | None = None,
) -> bool:
    """Whether the pattern (or ``body``, another group pattern of its file) holds."""
    params: dict[str, ParamValue] = {
        "situation": graph.iri,
        "player": graph.player_iris[player],
        "value": [WrittenTerm(t.sparql) for t in terms],  # as the store wrote them: typed literals too
    }
    if obj is not None:
        params["object"] = graph.object_iris[obj.key]
    query = bind_values(pattern_query(body or pattern.body), params)
    return bool(graph.store.query(query, prefixes=PREFIXES))


def _fill(graph: GameGraph, template: str, terms: list[Term], player: str, obj: GameObject | None) -> str:
    """The phrase of a pattern with its placeholders filled by the one phrase builder
    (:mod:`mtgkb.reasoning.phrases`), from the point of view of ``player``, the one asking."""
    from mtgkb.reasoning import phrases

    situation = graph.situation
    rules = graph.rules
    names = list(situation.players)
    values = [_value_label(graph, t) for t in terms]
    stack = [o.name for o in sorted(situation.objects, key=lambda o: o.stack_index or 0) if o.zone == "stack"]
    truth = terms[0].value if terms else True
    zones = [t.value for t in terms if t.is_iri and "/zone/" in t.value]
    labels = _Labels(
        player=phrases.person(player, player, names),
        value=values[0] if values else "",
        a_value=phrases.article(values[0]) if values else "",
        value_colour=phrases.colour_word(values[0]) if values else "",
        values=phrases.join_or(values),
        in_values=phrases.join_or(
            phrases.zone_place(_slug(z), rules.label(z), player, player, names) for z in zones
        ),
        step=situation.step.label,
        active=phrases.person(situation.turn, player, names),
        holder=phrases.person(situation.priority, player, names),
        active_turn=phrases.turn(situation.turn, player, names),
        holder_turn=phrases.subject_verb(situation.priority, player, names, "hold"),
        stack=phrases.join_and(stack) or "nothing",
        wanted_turn="your turn" if truth is True else "another player's turn",
    )
    if obj is not None:
        labels.update(
            subject=obj.name,
            zone=rules.label(_zone(obj)),
            in_zone=phrases.zone_place(obj.zone, rules.label(_zone(obj)), obj.owner, player, names),
            tapped="tapped" if obj.tapped else "untapped",
            commander="a commander" if obj.commander else "not a commander",
            token="a token" if obj.token else "not a token",
            status=rules.label(obj.blocked).lower() if obj.blocked else "not attacking",
            owned_by=phrases.owned_by(obj.owner, player, names),
            face="face down" if obj.face_down else "face up",
        )
    else:
        labels.update(subject="the game")
    return template.format_map(labels)


def _slug(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


def _value_label(graph: GameGraph, term: Term) -> str:
    if term.is_iri:
        label = graph.rules.label(term.value)
        return label[:1].lower() + label[1:]
    if isinstance(term.value, bool):
        return "true" if term.value else "false"
    return str(term.value)


def _zone(obj: GameObject) -> str:
    from mtgkb.reasoning.situation import zone_iri

    return zone_iri(obj.zone)


def _name(obj: GameObject, situation) -> str:
    return f"{obj.name}{' token' if obj.token else ''}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _unique(numbers: list[str]) -> list[str]:
    from mtgkb.reasoning.contract import rule_order

    return sorted(set(numbers), key=rule_order)
